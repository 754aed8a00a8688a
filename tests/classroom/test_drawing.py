"""When the class server draws a changed room's tables (issue 23). The moves students and bots play: one room a
turn of the loop, in the order the rooms changed, and a room that changes again before its turn is drawn once for
all its changes; a seat's move is answered once its table went out, so the seat's next message is answered after
that table. Any other change (a teacher's command, a seat taken): at once, before the command is answered."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tabletop_edu.classroom import ClassServer


class DrawingServer:
    """A class server that is not started, on the test's own loop, noting the rooms it draws instead of drawing."""

    def __init__(self, tmp_path: Path) -> None:
        self.server = ClassServer(tmp_path / "drawing.sqlite3")
        self.drawn: list[str] = []
        self.server.broadcast = lambda room: self.drawn.append(room.code)  # type: ignore[method-assign]
        self.server._schedule_bots = self.server._schedule_deadlines = lambda room: None  # type: ignore[method-assign]

    def room(self, code: str, committing: bool = False) -> Any:
        """A room as `_changed` sees it: `committing` while `Hall.play` plays the moves it committed."""
        return SimpleNamespace(code=code, committing=[object()] if committing else None)


def test_changed_rooms_are_drawn_one_a_turn_in_order_and_once_for_all_their_changes(tmp_path: Path) -> None:
    drawing = DrawingServer(tmp_path)
    server, drawn = drawing.server, drawing.drawn
    ann, bob, cyd = drawing.room("ANN"), drawing.room("BOB"), drawing.room("CYD")

    async def three_rooms_change() -> None:
        server.loop = asyncio.get_running_loop()
        server._draw_soon(ann)
        server._draw_soon(bob)
        server._draw_soon(ann)  # before its turn: drawn once for both changes
        assert drawn == []  # nothing is drawn in the turn that changed them
        await asyncio.sleep(0)
        assert drawn == ["ANN"]  # one room a turn: the loop reads moves in between
        server._draw_soon(cyd)
        server._draw_soon(ann)  # after its drawing: drawn again, after the others
        await asyncio.sleep(0)
        assert drawn == ["ANN", "BOB"]
        for _ in range(3):
            await asyncio.sleep(0)
        assert drawn == ["ANN", "BOB", "CYD", "ANN"]

    asyncio.run(three_rooms_change())


def test_a_move_is_answered_once_its_table_went_out(tmp_path: Path) -> None:
    drawing = DrawingServer(tmp_path)
    server, drawn = drawing.server, drawing.drawn
    ann, bob = drawing.room("ANN"), drawing.room("BOB")

    async def wait_for_tables() -> None:
        server.loop = asyncio.get_running_loop()
        await server.tables_sent(ann)  # nothing to draw: at once
        server._draw_soon(bob)
        server._draw_soon(ann)
        waiting = asyncio.ensure_future(server.tables_sent(ann))
        await asyncio.sleep(0)
        assert drawn == ["BOB"] and not waiting.done()
        await waiting
        assert drawn == ["BOB", "ANN"]

    asyncio.run(wait_for_tables())


def test_off_the_loop_a_change_is_drawn_at_once(tmp_path: Path) -> None:
    """A hall changed by code that is not the server's loop (no server running): the tables are drawn then."""
    drawing = DrawingServer(tmp_path)
    drawing.server._draw_soon(drawing.room("ANN"))
    assert drawing.drawn == ["ANN"]


def test_moves_are_drawn_at_a_coming_turn_and_other_changes_at_once(tmp_path: Path) -> None:
    drawing = DrawingServer(tmp_path)
    server, drawn = drawing.server, drawing.drawn

    async def a_move_then_a_command() -> None:
        server.loop = asyncio.get_running_loop()
        server._changed(drawing.room("ANN", committing=True))  # a move
        server._changed(drawing.room("BOB", committing=True))
        assert drawn == []
        waiting = asyncio.ensure_future(server.tables_sent(drawing.room("ANN")))
        server._changed(drawing.room("ANN"))  # the teacher pauses Ann's room: drawn now, with its move
        assert drawn == ["ANN"]
        await asyncio.sleep(0)
        assert waiting.done() and drawn == ["ANN", "BOB"]  # Ann's room is not drawn again for its move
        for _ in range(3):
            await asyncio.sleep(0)
        assert drawn == ["ANN", "BOB"]

    asyncio.run(a_move_then_a_command())
