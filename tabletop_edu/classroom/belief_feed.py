"""What the class server shows of beliefs: each seat's questions and points, the teacher's counts, the debrief.

Never another seat's belief before the reveal. The game's own debrief tables replay the whole game, so they are
made once, in a worker thread, and sent to every page of the room when they are ready (`debrief`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from ..beliefs import play_models
from ..core import GameState
from . import games
from .belief_pages import belief_panel, seat_points_html
from .connections import Connection
from .debrief import game_tables
from .debrief_page import table_debrief_html
from .export import ClassGame, ClassGames, belief_answers, seat_label
from .hall import Hall
from .rooms import Room, one_line

log = logging.getLogger("tabletop_edu.classroom")


class ServerBeliefs:
    """The class server's beliefs and debrief (`server.ClassServer` is one: it holds what is declared here)."""

    loop: asyncio.AbstractEventLoop | None
    hall: Hall | None
    connections: dict[str, set[Connection]]
    _executor: ThreadPoolExecutor
    _game_tables: dict[str, list[Any]]
    _tables_pending: set[str]
    broadcast: Callable[[Room], None]
    send_table: Callable[[Room, Connection], None]
    _tell_teachers: Callable[[Room], None]

    def add_beliefs(self, message: dict[str, Any], room: Room, seat: int | None, language: str) -> None:
        """A seat's own questions now (`beliefs`), and once the table is revealed its own points (a seat) or the
        class's debrief (the projector) in `debrief`: never another seat's belief before the reveal."""
        assert room.scoring is not None
        if seat is not None and room.seats[seat].bot is None:
            message["beliefs"] = belief_panel(room.belief_questions(seat), room.answered(seat), room.step,
                                              room.scoring, language)
        if room.revealed:
            message["debrief"] = self.debrief(room, language) if seat is None \
                else seat_points_html(self.belief_answers(room), seat, language)

    @staticmethod
    def labels(room: Room) -> list[str]:
        return [seat_label({"name": seat.name, "bot": seat.bot}) for seat in room.seats]

    def belief_answers(self, room: Room) -> Any:
        """The room's stated beliefs as `BeliefAnswer`s, scored once the game is over (for the debrief)."""
        assert room.state is not None and room.scoring is not None
        return room.remember(("belief_answers", len(room.beliefs)), lambda: belief_answers(
            room.code, room.number, self.labels(room), [row.__dict__ for row in room.beliefs], str(room.scoring),
            cast("GameState[Any]", room.state)))  # asserted above: mypy does not carry it into the lambda

    def debrief(self, room: Room, language: str) -> str:
        """The class's debrief of a revealed room in `language`. The game's own tables replay the whole game
        (seconds for Commissario): they are made once, in a worker thread, and every page of the room gets them
        when they are ready; until then the debrief shows the class's beliefs and points."""
        assert room.state is not None and room.scoring is not None
        games = ClassGames([self.room_game(room)])
        own = self._game_tables.get(room.code)
        if own is None:
            self._make_game_tables(room, games)
        return str(room.remember(("debrief", language, len(room.beliefs), own is not None),
                                 lambda: table_debrief_html(games, str(room.scoring), language, own or [])))

    def room_game(self, room: Room) -> ClassGame:
        """A started room's game as the debrief reads it: its record and its stated beliefs (none for a room
        that asks none)."""
        assert room.state is not None
        answers = tuple(self.belief_answers(room)) if room.scoring is not None else ()
        return ClassGame(room.code, room.number, room.title, tuple(self.labels(room)), room.state.record(), (),
                         answers)

    def class_games(self, codes: Sequence[str]) -> tuple[ClassGames, dict[str, list[Any]], int]:
        """The started rooms of `codes` (a class's tables) as `ClassGames`, the game tables already made for
        them (by room), and how many of them are still being played (for a class's debrief)."""
        assert self.hall is not None
        found = [self.hall.room(code) for code in codes]
        rooms = [room for room in found if room.state is not None]
        games = ClassGames(self.room_game(room) for room in rooms)
        return games, {room.code: self._game_tables[room.code] for room in rooms if room.code in self._game_tables}, \
            sum(not room.is_over for room in rooms)

    def _make_game_tables(self, room: Room, games: ClassGames) -> None:
        """Compute the game's debrief tables of `room` off the event loop, then send every page of it again."""
        if room.code in self._tables_pending or self.loop is None:
            return
        self._tables_pending.add(room.code)

        def done(future: asyncio.Future[Any]) -> None:
            self._tables_pending.discard(room.code)
            try:
                self._game_tables[room.code] = list(future.result())
            except Exception as error:  # noqa: BLE001 - a game's debrief bug must not stop the class's
                log.warning("room %s: the game's debrief failed: %s", room.code, one_line(repr(error), 300))
                self._game_tables[room.code] = []
            self.broadcast(room)
        self.loop.run_in_executor(self._executor, game_tables, games, 0).add_done_callback(done)

    def teacher_beliefs(self, room: Room) -> dict[str, Any] | None:
        """What the dashboard shows of beliefs: during play how many each seat stated, and the game's models of
        play in words (`models`: every row's `posterior` is under the first); after the reveal every belief and
        the debrief (a dashboard may be on the projector's screen: no belief before the reveal)."""
        if room.scoring is None:
            return None
        counts = [sum(1 for row in room.beliefs if row.seat == seat.number) for seat in room.seats]
        models = [model.to_json() for model in play_models(games.belief_model(room.package))]
        found: dict[str, Any] = {"scoring": room.scoring, "asked_steps": sorted(room.asked_steps), "counts": counts,
                                 "models": models}
        if room.revealed and room.state is not None:
            found["rows"] = [belief_row_json(row) for row in room.beliefs]
            found["debrief"] = {language: self.debrief(room, language) for language in ("en", "fr")}
        return found

    def belief_stated(self, room: Room, seat: int, row: Any) -> None:
        """A belief is on disk: tell that seat's pages (theirs alone), then the teachers (a count)."""
        received = json.dumps({"type": "belief_received", "step": row.step, "key": row.key})
        for connection in list(self.connections.get(room.code, set())):
            if connection.kind == "seat" and connection.seat == seat:
                connection.handler.send(received)
                self.send_table(room, connection)
        self._tell_teachers(room)

    def _beliefs_entry(self, room: Room) -> dict[str, Any]:
        beliefs = self.teacher_beliefs(room)
        return {} if beliefs is None else {"beliefs": beliefs}


def belief_row_json(row: Any) -> dict[str, Any]:
    """A stored belief as the teacher's API sends it."""
    return {"step": row.step, "seat": row.seat, "key": row.key, "question": row.question, "belief": row.belief,
            "posterior": row.posterior, "at": row.at}
