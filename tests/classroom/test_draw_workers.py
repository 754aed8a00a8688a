"""The students' tables drawn by worker processes (`ClassServer(draw_workers=N)`, `serve --draw-workers N`):
the same texts as the loop draws, nothing secret nor any token sent to a worker, never an older table after a
newer one, and a server whose worker dies draws its tables itself."""

from __future__ import annotations

import asyncio
import pickle
import random
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.cli import add_command, serve
from tabletop_edu.classroom.connections import Connection
from tabletop_edu.classroom.draw_queue import MAX_DRAW_WORKERS
from tabletop_edu.classroom.drawing import DrawWorker, Forget, TableKey, draw_tables
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.testing import play_to_the_end, run_now, seat_students, wait_until
from tabletop_edu.classroom.throttles import TokenBucket
from tabletop_edu.templates.drawn import message_json

from .test_protocol import play_a_whole_game_by_tapping

#: Each game with a few seats: a worker draws what the loop draws, game after game.
GAMES = [("commissario", 3), ("get_adler", 4), ("mafia_de_cuba", 6)]


@pytest.fixture()
def worker_server(tmp_path: Path) -> Iterator[ClassServer]:
    """A server with two drawing processes, once they are ready (until then the loop draws)."""
    server = ClassServer(tmp_path / "workers.sqlite3", flood=(10_000, 10_000.0), draw_workers=2).start()
    try:
        wait_until(lambda: server.call(lambda: all(drawer.usable for drawer in server.drawers)), timeout=60)
        yield server
    finally:
        server.stop()


def drawn_by_workers(server: ClassServer) -> int:
    return int(server.call(lambda: sum(drawer.drawn for drawer in server.drawers)))


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[game for game, _ in GAMES])
def test_a_whole_game_drawn_by_workers_shows_each_seat_its_own_table_and_nothing_else(
        worker_server: ClassServer, game: str, players: int) -> None:
    play_a_whole_game_by_tapping(worker_server, game, players, "fr")
    assert drawn_by_workers(worker_server) > 0  # the tables checked were the workers', not the loop's


def floor_room(tmp_path: Path, game: str, players: int) -> tuple[ClassServer, Hall, Any]:
    """A server that is not started (its `table_for` draws as the loop does) beside a started room of `game`."""
    server = ClassServer(tmp_path / "loop.sqlite3")
    hall = server.hall = Hall(Store(tmp_path / "floor.sqlite3"))
    room = run_now(hall.create_room(game, players, seed=7))
    for seat in range(players):
        run_now(hall.claim(room.seats[seat].token, f"Élève <b>{seat}</b>"))
    return server, hall, room


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[game for game, _ in GAMES])
def test_a_worker_draws_to_the_byte_what_the_loop_draws_step_by_step(tmp_path: Path, game: str, players: int) -> None:
    server, hall, room = floor_room(tmp_path, game, players)
    tables: tuple[TableKey, ...] = (*[(seat, "en") for seat in range(players)], (None, "en"), (0, "fr"))
    rng = random.Random(3)

    async def play() -> int:
        worker = DrawWorker()
        await worker.start()
        try:
            assert worker.usable
            steps = 0
            while not room.state.is_over:
                drawn = await worker.draw(room, tables)
                assert drawn is not None
                for seat, language in tables:
                    assert drawn[(seat, language)] == message_json(server.table_for(room, seat, language)), \
                        f"seat {seat} ({language}) at step {room.step}"
                seat = room.state.acting_seats[0]
                await hall.play(room, seat, room.step, str(rng.choice(room.state.legal_actions(seat))))
                steps += 1
            return steps
        finally:
            await worker.stop()

    try:
        assert asyncio.run(play()) > 5
    finally:
        hall.store.close()


def test_a_worker_is_sent_no_token_and_only_the_new_moves(tmp_path: Path) -> None:
    _, hall, room = floor_room(tmp_path, "mafia_de_cuba", 6)
    worker = DrawWorker()  # not started: only its requests are looked at
    try:
        first = worker.request(room, ((0, "en"),))
        seat = room.state.acting_seats[0]
        run_now(hall.play(room, seat, room.step, str(room.state.legal_actions(seat)[0])))
        second = worker.request(room, ((0, "en"),))
        assert first.new is not None and second.new is None  # the game once, then the moves since
        assert [move.step for move in second.moves] == [0]
        sent = pickle.dumps(first) + pickle.dumps(second)
        for token in [room.watch_token, hall.teacher_token, *(seat.token for seat in room.seats)]:
            assert token.encode() not in sent
        draw_tables(first)  # the replica takes both requests in order (in this process: as the worker would)
        assert set(draw_tables(second)) == {(0, "en")}
    finally:
        hall.store.close()


def test_a_replica_out_of_step_is_refused_and_sent_whole_again(tmp_path: Path) -> None:
    _, hall, room = floor_room(tmp_path, "get_adler", 4)
    worker = DrawWorker()
    try:
        draw_tables(worker.request(room, ((0, "en"),)))
        seat = room.state.acting_seats[0]
        run_now(hall.play(room, seat, room.step, str(room.state.legal_actions(seat)[0])))
        skipped = worker.request(room, ((0, "en"),))
        with pytest.raises(LookupError, match="step"):
            draw_tables(replace(skipped, moves=()))
        worker._sent.pop(room.code)  # what `draw` does on that refusal
        assert worker.request(room, ((0, "en"),)).new is not None
    finally:
        hall.store.close()


def test_a_room_the_loop_draws_again_leaves_the_workers_memory(tmp_path: Path) -> None:
    _, hall, room = floor_room(tmp_path, "commissario", 3)

    async def reveal() -> tuple[bool, bool]:
        worker = DrawWorker()
        await worker.start()
        try:
            assert await worker.draw(room, ((0, "en"),)) is not None
            room.revealed = True
            assert not worker.draws(room)
            worker.forget(room)
            assert worker.request(room, ()).new is not None  # forgotten on this side: sent whole if ever again
            still_kept = await worker._ask(Forget(room.code))  # answered after the forgetting, in order
            return still_kept, worker.usable
        finally:
            await worker.stop()

    try:
        assert asyncio.run(reveal()) == (False, True)
    finally:
        hall.store.close()


def test_pages_of_a_room_drawn_by_workers_show_the_teachers_pause_and_reveal(worker_server: ClassServer) -> None:
    teacher = TeacherClient(worker_server.url, worker_server.teacher_token)
    room = teacher.create_room("get_adler", 4, seed=3, bot_delay=0)
    students = seat_students(worker_server.url, room["code"], [f"Student {seat}" for seat in range(4)])
    try:
        steps = play_to_the_end(students, random.Random(2))
        for student in students:
            student.wait_step(steps)
        teacher.command(room["code"], "pause")
        for student in students:
            student.next(lambda m: m["type"] == "table" and m["paused"])
        teacher.command(room["code"], "reveal")
        for student in students:
            assert student.next(lambda m: m["type"] == "table" and m["revealed"])["paused"]
        assert drawn_by_workers(worker_server) > 0
        for student in students:  # nothing older came after: the last table each page got is the revealed one
            student.drain()
            assert student.table is not None and student.table["revealed"]
    finally:
        for student in students:
            student.close()


class Page:
    """A connection's page as `broadcast` sees it: what it was sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


def test_a_page_never_gets_an_older_table_than_it_has(tmp_path: Path) -> None:
    server, hall, room = floor_room(tmp_path, "commissario", 3)
    try:
        newer, older = Page(), Page()
        connections = [Connection(page, room.code, "watch", None, "", "en", TokenBucket(), version=version)
                       for page, version in ((newer, 5), (older, 2))]
        server.connections[room.code] = set(connections)
        server._changes[room.code] = 5
        server.broadcast(room, {(None, "en"): "the table of change 3"}, version=3)
        assert newer.sent == [] and older.sent == ["the table of change 3"]
        assert connections[1].version == 3
        server.broadcast(room)  # drawn here, at the room's current change
        assert len(newer.sent) == 1 and older.sent[-1] == newer.sent[0] and connections[1].version == 5
    finally:
        hall.store.close()


def test_a_server_whose_worker_dies_draws_every_table_itself(tmp_path: Path) -> None:
    server = ClassServer(tmp_path / "dies.sqlite3", flood=(10_000, 10_000.0), draw_workers=1).start()
    try:
        wait_until(lambda: server.call(lambda: server.drawers[0].usable), timeout=60)
        server.call(lambda: server.drawers[0]._process.kill())  # type: ignore[union-attr]
        play_a_whole_game_by_tapping(server, "get_adler", 4, "en")
        assert not server.call(lambda: server.drawers[0].usable)
    finally:
        server.stop()


@pytest.mark.parametrize("workers", [-1, MAX_DRAW_WORKERS + 1, 1.5, "2", True, None])
def test_a_wrong_number_of_draw_workers_is_refused_and_opens_nothing(tmp_path: Path, workers: Any) -> None:
    with pytest.raises(ValueError, match="draw_workers"):
        ClassServer(tmp_path / "never.sqlite3", draw_workers=workers)
    assert not (tmp_path / "never.sqlite3").exists()


def test_serve_refuses_a_wrong_number_of_draw_workers_in_a_sentence(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_command(parser.add_subparsers())
    arguments = parser.parse_args(["serve", "--db", str(tmp_path / "never.sqlite3"), "--draw-workers", "-3"])
    assert serve(arguments) == 2
    assert "--draw-workers" in capsys.readouterr().err
    assert not (tmp_path / "never.sqlite3").exists()


class HeldDrawer:
    """A worker the test drives: each drawing waits until the test lets it end."""

    usable = True

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.held: dict[str, asyncio.Future[dict[TableKey, str]]] = {}

    @staticmethod
    def draws(room: Any) -> bool:
        return True

    async def draw(self, room: Any, tables: tuple[TableKey, ...]) -> dict[TableKey, str]:
        self.asked.append(room.code)
        held = self.held[room.code] = asyncio.get_running_loop().create_future()
        return await held


def test_a_workers_rooms_are_drawn_in_turn_each_as_it_is_when_its_turn_comes(tmp_path: Path) -> None:
    server = ClassServer(tmp_path / "queue.sqlite3")
    drawer = HeldDrawer()
    sent: list[str] = []
    server._drawers, server._queues, server._pumps = [drawer], [OrderedDict()], [0]  # type: ignore[list-item]
    server.broadcast = lambda room, drawn=None, version=None: sent.append(room.code)  # type: ignore[method-assign]
    ann, bob, cyd = (SimpleNamespace(code=code, committing=None) for code in ("ANN", "BOB", "CYD"))

    async def turns() -> None:
        server.loop = asyncio.get_running_loop()
        for room in (ann, bob, cyd):
            server._draw_soon(room)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        assert drawer.asked == ["ANN", "BOB"]  # two on their way to the worker, the third waits its turn
        server._draw_soon(cyd)  # type: ignore[arg-type]  # changed again while waiting: still drawn once
        server._draw_soon(ann)  # type: ignore[arg-type]  # changed while being drawn: again, after the others
        waiting_for_ann = asyncio.ensure_future(server.tables_sent(ann))  # type: ignore[arg-type]
        drawer.held["ANN"].set_result({})
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert sent == ["ANN"] and drawer.asked == ["ANN", "BOB", "CYD"] and not waiting_for_ann.done()
        drawer.held["BOB"].set_result({})
        drawer.held["CYD"].set_result({})
        for _ in range(4):
            await asyncio.sleep(0)
        assert drawer.asked == ["ANN", "BOB", "CYD", "ANN"] and sent == ["ANN", "BOB", "CYD"]
        drawer.held["ANN"].set_result({})
        await waiting_for_ann  # the move's table went out with the room's second drawing
        assert sent == ["ANN", "BOB", "CYD", "ANN"] and server._drawing == {} and server._pumps == [0]

    asyncio.run(turns())
