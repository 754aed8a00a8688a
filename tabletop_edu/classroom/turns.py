"""Bots and time limits: the server lets a seated bot play at its turn, and a bot play a move whose time ran out.

A bot to move plays after its room's delay, thinking in a worker thread, one pending move per room; a bot's bug
pauses its room and tells the teacher, and so do `BOT_STORAGE_TRIES` moves in a row the store refused (the pause
held in memory if the store refuses it too). What went wrong is listed to the teacher once per kind of error with
its count, the latest `MAX_ROOM_ERRORS` kinds only (`RoomErrors`). A room's optional `move_time_limit` lets the game's bot play a student's
move when its time is up (`time_up`, deadlines set through an injectable scheduler), a student the teacher gave
extra time having that much more for each move (`extra_time`, WCAG 2.2.1).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, cast

from ..core import GameState
from ..i18n import tr
from .commits import STORAGE_RETRY_DELAY
from .connections import Connection
from .hall import Hall
from .pages import move_words
from .rooms import Refused, Room, one_line
from .store import StorageError

log = logging.getLogger("tabletop_edu.classroom")

#: Refusals of a bot's move that say the table moved on between its choice and its commit (a student's move
#: committed just before it, the teacher's pause, the end of the game): not the bot's failure, so its room is not
#: paused for it; it chooses again at its turn.
BOT_OVERTAKEN = frozenset({"stale", "not_your_turn", "over", "paused", "closed"})


#: Moves in a row a bot may fail to save (the store refusing them: a file deleted or read-only, a disk full) before
#: its room is paused: a store that refuses one write soon may accept the next, one that goes on refusing is the
#: teacher's to see.
BOT_STORAGE_TRIES = 3
#: Kinds of error a room lists to the teacher at most (the oldest are forgotten first).
MAX_ROOM_ERRORS = 8


class RoomErrors:
    """What went wrong in a room, for the teacher: each error once with how many times it happened, in the order
    they last happened, the latest `MAX_ROOM_ERRORS` only (a bot retrying against a failing store is one line)."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def add(self, message: str) -> None:
        count = self._counts.pop(message, 0) + 1
        self._counts[message] = count
        while len(self._counts) > MAX_ROOM_ERRORS:
            del self._counts[next(iter(self._counts))]

    def lines(self) -> list[str]:
        return [message if count == 1 else f"{message} ({count} times)" for message, count in self._counts.items()]


#: Calls a function after a delay in seconds, returning a handle whose `cancel()` stops it.
Scheduler = Callable[[float, Callable[[], object]], Any]


class ExtraTimes(Protocol):
    """Who holds the extra time a teacher gave a student (`classes.ClassDesk`)."""

    def extra_time(self, room_code: str, seat: int) -> float: ...


@dataclass
class Deadline:
    """When a student's move became due (the step), the timer that lets a bot play it, and when it runs out
    (`time.monotonic`: what the seat's page counts down from)."""

    step: int
    handle: Any
    ends: float = 0.0

    def message(self) -> str:
        """What the seat's page hears: the seconds left for its move, due since `step`."""
        left = max(0.0, self.ends - time.monotonic())
        return json.dumps({"type": "deadline", "step": self.step, "seconds": round(left, 1)})


class ServerTurns:
    """The class server's bots and time limits (`server.ClassServer` is one: it holds what is declared here)."""

    loop: asyncio.AbstractEventLoop | None
    hall: Hall | None
    connections: dict[str, set[Connection]]
    errors: dict[str, RoomErrors]
    _bot_storage_failures: dict[str, int]
    _executor: ThreadPoolExecutor
    _scheduler: Scheduler | None
    _deadlines: dict[tuple[str, int], Deadline]
    _bots_pending: set[str]
    classes: ExtraTimes | None

    # ---------------------------------------------------------------- time limits

    def _schedule(self, delay: float, callback: Callable[[], object]) -> Any:
        if self._scheduler is not None:
            return self._scheduler(delay, callback)
        assert self.loop is not None
        return self.loop.call_later(delay, callback)

    def _schedule_deadlines(self, room: Room) -> None:
        """Keep one deadline per student whose move is due, from the moment it became due: a simultaneous
        choice keeps its deadline while the others choose; a pause, a move made or a bot seated cancels it."""
        state, limit = room.state, room.move_time_limit
        due: set[int] = set()
        if limit and state is not None and not state.is_over and not room.paused and not room.closed:
            due = {seat for seat in state.acting_seats if room.seats[seat].bot is None}
        for (code, seat), deadline in list(self._deadlines.items()):
            if code == room.code and (seat not in due or deadline.step > room.step or any(  # `due`: a game's seats
                    mover == seat for mover, _ in cast("GameState[Any]", state).history[deadline.step:])):
                deadline.handle.cancel()
                del self._deadlines[(code, seat)]
        for seat in sorted(due):
            if (room.code, seat) not in self._deadlines:
                assert limit is not None
                given = limit + self.extra_time(room, seat)
                handle = self._schedule(given, lambda seat=seat: self.time_up(room.code, seat))  # type: ignore[misc]
                deadline = self._deadlines[(room.code, seat)] = Deadline(room.step, handle, time.monotonic() + given)
                self._tell_seat(room.code, seat, deadline.message())

    def _tell_seat(self, code: str, seat: int, text: str | Callable[[str], str]) -> None:
        """Send the pages of one seat `text` (or `text(language)`, worded in each page's language)."""
        for connection in list(self.connections.get(code, set())):
            if connection.kind == "seat" and connection.seat == seat:
                connection.handler.send(text if isinstance(text, str) else text(connection.language))

    def send_deadline(self, connection: Connection) -> None:
        """A page opening at a seat whose move is due hears how long it has left."""
        seat = connection.seat
        deadline = None if connection.kind != "seat" or seat is None else self._deadlines.get((connection.room, seat))
        if deadline is not None:
            connection.handler.send(deadline.message())

    def extra_time(self, room: Room, seat: int) -> float:
        """The seconds added to this seat's time for each move (its student's, in a class)."""
        return 0.0 if self.classes is None else self.classes.extra_time(room.code, seat)

    def restart_deadline(self, room: Room, seat: int) -> None:
        """The seat's running deadline given anew, with its student's time as it is now (extended)."""
        deadline = self._deadlines.pop((room.code, seat), None)
        if deadline is not None:
            deadline.handle.cancel()
        self._schedule_deadlines(room)

    def time_up(self, code: str, seat: int) -> asyncio.Task[str | None]:
        """A deadline passed (on the loop's thread): the bot plays the seat's move, committed off the loop
        (`_time_up`: the moves of a class whose time runs out at once are committed together, not one after
        another on a frozen server)."""
        self._deadlines.pop((code, seat), None)
        return asyncio.ensure_future(self._time_up(code, seat))

    async def _time_up(self, code: str, seat: int) -> str | None:
        """The bot's move for the seat (`Hall.time_up`, the bot thinking in a worker thread), then the seat's
        pages say so. None if nothing was due any more (the student moved just in time)."""
        assert self.hall is not None and self.loop is not None
        loop, executor = self.loop, self._executor
        room = self.hall.rooms.get(code)
        # the table the bot's move answered, to word it (a seat the room does not have: `time_up` refuses it)
        view = None if room is None or not 0 <= seat < len(room.seats) else room.view(seat)
        try:
            action = await self.hall.time_up(code, seat, lambda choose: loop.run_in_executor(executor, choose))
        except Refused as refusal:
            if refusal.code == "storage_busy":  # the database is held elsewhere: try again in a moment
                self._deadlines[(code, seat)] = Deadline(self.hall.rooms[code].step, self._schedule(
                    STORAGE_RETRY_DELAY, lambda: self.time_up(code, seat)))
            return None

        def notice(language: str) -> str:
            played = "" if view is None else f"{tr('class.colon', language)} {move_words(view, action, language)}"
            return json.dumps({"type": "notice", "code": "time_up", "text": f"{tr('class.time_up', language)}{played}.",
                               "move": action})

        self._tell_seat(code, seat, notice)
        return action

    # ---------------------------------------------------------------- bots

    def _schedule_bots(self, room: Room, delay: float | None = None) -> None:
        """Let the bot to move play after the room's delay (unless paused); one pending bot move per room."""
        if room.closed or room.paused or room.code in self._bots_pending or room.bot_to_move() is None:
            return
        assert self.loop is not None
        self._bots_pending.add(room.code)
        self.loop.call_later(room.bot_delay if delay is None else delay,
                             lambda: asyncio.ensure_future(self._bot_move(room)))

    async def _bot_move(self, room: Room, even_paused: bool = False) -> tuple[int, str] | None:
        retry_after: float | None = None
        try:
            if (room.paused and not even_paused) or room.closed:
                return None
            turn = room.bot_turn()
            if turn is None:
                return None
            seat, step, choose = turn
            assert self.loop is not None
            try:
                action = await self.loop.run_in_executor(self._executor, choose)
            except Exception as error:  # a bot's bug: pause the room and tell the teacher
                return await self._bot_failed(  # type: ignore[func-returns-value]
                    room, f"The bot at seat {seat} failed ({one_line(f'{type(error).__name__}: {error}', 300)})")
            if room.step != step or room.closed:
                return None  # the table moved while the bot thought: it will think again
            assert self.hall is not None
            try:
                await self.hall.play(room, seat, step, action, actor="bot", even_paused=even_paused)
            except Refused as refusal:
                if even_paused and (refusal.code in BOT_OVERTAKEN or refusal.code.startswith("storage")):
                    raise  # the teacher's step: told why, as any command refused (`stored` retries a busy one)
                if refusal.code == "storage_busy":  # the database is held elsewhere: the bot tries again
                    retry_after = STORAGE_RETRY_DELAY
                    return None
                if refusal.code in BOT_OVERTAKEN:
                    return None  # it chooses again at its turn
                if refusal.code == "storage":
                    return await self._bot_not_saved(room, seat, refusal)  # type: ignore[func-returns-value]
                return await self._bot_failed(  # type: ignore[func-returns-value]
                    room, f"The bot at seat {seat} failed ({one_line(f'{action!r}: {refusal}', 300)})")
            self._bot_storage_failures.pop(room.code, None)
            return seat, action
        finally:
            if not even_paused:
                self._bots_pending.discard(room.code)
                self._schedule_bots(room, retry_after)

    def _note_error(self, room: Room, message: str) -> None:
        log.warning("room %s: %s", room.code, message)
        self.errors.setdefault(room.code, RoomErrors()).add(message)

    async def _bot_not_saved(self, room: Room, seat: int, refusal: Refused) -> None:
        """The store refused the bot's move: it tries again at its turn, and after `BOT_STORAGE_TRIES` refusals in
        a row its room is paused."""
        self._note_error(room, f"The bot at seat {seat} could not save its move: {one_line(str(refusal), 300)}")
        tries = self._bot_storage_failures.get(room.code, 0) + 1
        self._bot_storage_failures[room.code] = tries
        if tries >= BOT_STORAGE_TRIES:
            await self._bot_failed(room, f"The bot could not save its move {tries} times in a row")

    async def _bot_failed(self, room: Room, why: str) -> None:
        """Pause the room and say `why` to the teacher. A store that refuses the pause too leaves it paused in
        memory (`Hall.pause_unsaved`), so the bot stops trying all the same, and the teacher is told so."""
        self._bot_storage_failures.pop(room.code, None)
        self._note_error(room, f"{why}; the room is paused.")  # before the pause is told: its message says it
        assert self.hall is not None
        try:
            await self.hall.set_paused(room.code, True)
        except Refused as refusal:
            if not refusal.code.startswith("storage"):
                raise
            self._note_error(room, f"The pause could not be saved ({one_line(str(refusal), 300)}): the room is "
                             "paused until the server stops.")
            self.hall.pause_unsaved(room.code)
        return None

    def room_errors(self, room: Room) -> list[str]:
        """What the teacher is told went wrong: the store stopped writing (`Store.problem`), the room's errors."""
        assert self.hall is not None
        problem = self.hall.store.problem
        stopped = [] if problem is None else [f"Storage stopped: {StorageError(self.hall.store.path, problem)}"]
        errors = self.errors.get(room.code)
        return stopped + ([] if errors is None else errors.lines())

    async def step_bot(self, room: Room) -> tuple[int, str]:
        """The teacher's "step": the bot to move plays one move now, even while paused."""
        if room.bot_to_move() is None:
            raise Refused("no_bot", "No bot is to play now.", 409)
        result = await self._bot_move(room, even_paused=True)
        if result is None:
            raise Refused("no_bot", "The bot could not play (see the room's errors).", 409)
        return result

