"""The commit path: a room's moves and changes checked, committed by the store's writer, and only then made.

Every change follows one order: check everything (a `Refused` error says what is wrong and changes nothing),
write the change to the `Store` in one transaction, change the room in memory, then tell the listeners (the
server, which tells the clients). So nobody hears of a change that is not on disk. The teacher's controls are
`Change`s, checked before any write: `commit` awaits the write while the server's loop serves everyone else.
A move names the step it answers (`step`, the number of moves played when the seat saw the table): a resent or
stale move is refused, never applied twice. Moves that arrive while their room's last ones are being committed
wait (`rooms.WaitingMove`) and are committed together.

A bot's move and the move of a seat whose time ran out (`time_up`: the game's `TIME_UP_BOT` plays it) go the same
way. A write that fails is refused with a reason a student understands (`storage_refusal`); a page that waits
for its answer is tried again while another program holds the file (`stored`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Any, TypeVar

from ..core import Action, GameState, IllegalAction
from ..core.state import action_text
from . import games
from .rooms import Change, CheckedMove, Refused, Room, WaitingMove, acting_seats_at, one_line
from .store import ActionRow, StorageBusy, StorageError, Store

log = logging.getLogger("tabletop_edu.classroom")
T = TypeVar("T")

#: The bot of the game that plays for a seat whose time ran out (`time_up`): every game has it, and a random move
#: stands for no choice.
TIME_UP_BOT = "random"
#: While another program holds the database, a move is retried every STORAGE_RETRY_DELAY seconds, at most
#: STORAGE_RETRIES times (the student is told "storage busy, retrying" each time, and sees the table move).
STORAGE_RETRY_DELAY = 0.5
STORAGE_RETRIES = 40
#: A request whose page waits for its answer (a join, a teacher's change) is tried at most this many times more
#: (`stored`): with the writer's `BUSY_TIMEOUT` for each try, about 8 s, then it is told to try again later.
WAITING_RETRIES = 10


def storage_refusal(error: Exception) -> Refused:
    """A write that failed, refused with a reason a student understands: "storage_busy" when another program
    holds the file (the server retries), "storage" otherwise (a disk full, a file gone: the store's own sentence
    when it has one)."""
    if isinstance(error, StorageBusy):
        return Refused("storage_busy", "Storage busy: the class's database is held by another program for a "
                       "moment. Nothing was changed; retrying.", 503)
    if isinstance(error, StorageError):
        return Refused("storage", f"The server could not save this: {error} Nothing was changed.", 503)
    return Refused("storage", f"The server could not save this ({type(error).__name__}); nothing was "
                   "changed: try again.", 503)


async def stored(write: Callable[[], Awaitable[T]]) -> T:
    """`write()` (a student's join or claim, a teacher's change), tried again every `STORAGE_RETRY_DELAY` seconds
    while another program holds the database, as a move is: the page waits meanwhile, and only after
    `WAITING_RETRIES` more tries is told to try again later (nothing changed)."""
    for _ in range(WAITING_RETRIES):
        try:
            return await write()
        except Refused as refusal:
            if refusal.code != "storage_busy":
                raise
        await asyncio.sleep(STORAGE_RETRY_DELAY)
    try:
        return await write()
    except Refused as refusal:
        if refusal.code != "storage_busy":
            raise
        raise Refused("storage_busy", "Storage busy: the class's database is held by another program. Nothing was "
                      "changed: try again in a minute.", 503,
                      fr="Stockage occupé : la base de la classe est prise par un autre programme. Rien n'a "
                      "changé : réessayez dans une minute.") from None


class HallCommits:
    """The hall's moves and changes, committed then made (`hall.Hall` is one: it holds what is declared here)."""

    store: Store
    open_room: Callable[[Any], Room]
    _tell: Callable[[Room], None]
    _start_if_due: Callable[[Room], bool]

    # ---------------------------------------------------------------- changes, committed then made

    async def commit(self, change: Change[T]) -> T:
        """`change` committed, then made in memory and told: the loop serves everyone else while the writer commits
        it, grouped with the other writes of the moment; its seats are held meanwhile (`Change.held`). It is made
        in memory and told by the loop's first callback after its commit, in the order of the commits, even if its
        caller is gone. A change that could not be stored changes nothing and is refused (`storage_refusal`)."""
        loop = asyncio.get_running_loop()
        made: asyncio.Future[T] = loop.create_future()
        made.add_done_callback(lambda done: done.cancelled() or done.exception())  # none waits: no warning
        room = change.room

        def committed(future: Future[Any]) -> None:  # on the loop, in the order of the commits
            for seat in change.held:
                del room.joining[seat]
            try:
                result = future.result()
            except Exception as error:  # noqa: BLE001 - refused with a reason a student understands
                if self._start_if_due(room):  # a fill committed meanwhile waited for these seats
                    self._tell(room)
                if not made.done():
                    made.set_exception(storage_refusal(error))
                return
            try:
                value = self._made(change, result)
            except Exception as error:  # noqa: BLE001 - raised to its caller, as if made there
                if not made.done():
                    made.set_exception(error)
                return
            if not made.done():
                made.set_result(value)

        def on_commit(future: Future[Any]) -> None:  # on the writer's thread
            if not loop.is_closed():
                loop.call_soon_threadsafe(committed, future)

        taken = sorted(set(change.held) & set(room.joining))
        if taken:  # each change checks its seats first: two holds of one seat would be a bug of the checks
            raise Refused("seat_joining", f"Seat {taken[0]} is being changed right now: try again in a moment.", 409,
                          fr=f"La place {taken[0]} est en train de changer : réessayez dans un instant.")
        room.joining.update(change.held)
        try:
            change.write().add_done_callback(on_commit)
        except BaseException:
            for seat in change.held:
                del room.joining[seat]
            raise
        return await made

    def _made(self, change: Change[T], result: Any) -> T:
        """A committed change, made in memory and told."""
        value = change.apply(result)
        self._start_if_due(change.room)
        self._tell(change.room)
        return value
    # ---------------------------------------------------------------- moves

    async def play(self, room: Room, seat: int, step: Any, action: Any, actor: str = "seat",
                   even_paused: bool = False) -> float:
        """Play `action` (its text) for `seat`, answering `step`; refused unless it is that seat's move now.
        `actor` is stored with the move ("seat", "bot"); `even_paused` is for the teacher's step. The move is
        read and checked once (`GameState.checked_action`, which changes nothing), committed, and only then played
        in memory and told: a move that could not be stored changes nothing. The loop serves everyone else while the
        writer commits the move.

        A move is checked when it arrives (a move out of date is refused at once). The good ones that arrive
        while a move of their room is being committed (students testifying at once on Mafia's floor, a
        simultaneous choice tapped at the same moment) wait for that commit, then are checked in their order,
        each after the ones before it, and the good ones are committed together: one commit and one new table
        for the lot, not one after another. The committed moves are played and told by the loop's first
        callback after their commit, even if their waiters are gone. Returns when that callback ran
        (`time.perf_counter`): the move's table was due from then (`classroom.waits`)."""
        checked = self._checked_move(room, seat, step, action, even_paused)  # out of date: refused now
        move = WaitingMove(seat, step, action, actor, even_paused, asyncio.get_running_loop().create_future(),
                           checked=checked)
        room.waiting.append(move)
        if room.committing is None:
            self._commit_waiting(room)
        await move.played
        return move.committed_at

    def _commit_waiting(self, room: Room) -> None:
        """Check the room's waiting moves in their order, each on the game as the moves before it leave it (a
        copy), refuse the ones that no longer fit and hand the others to the writer in one job. A move's check
        when it arrived stands while the game it was checked on has not moved (the usual move: nothing waited)."""
        loop = asyncio.get_running_loop()
        waiting, room.waiting = room.waiting, []
        rows: list[ActionRow]
        origin = game = room.state
        rows, movers, moves = [], [], []
        for move in waiting:
            try:
                checked = self._checked_move(room, move.seat, move.answered, move.action, move.even_paused, game,
                                             move.checked)
                if len(rows) + 1 < len(waiting):  # a move after it is checked on the game with this one played
                    assert game is not None  # `_checked_move` refused a room without a game
                    game = game.clone() if game is room.state else game
                    game.apply_checked(checked.move, player=move.seat)
            except Exception as refusal:  # noqa: BLE001 - `Refused`, or raised to its waiter as if played there
                move.settle(refusal)
                continue
            rows.append(ActionRow(room.code, checked.at, move.seat, checked.text, move.actor, 0.0))
            movers.append(move)
            moves.append(checked.move)
        if not rows:
            return
        room.committing = movers

        def committed(future: Future[float]) -> None:  # on the loop
            now = time.perf_counter()
            for move in movers:
                move.committed_at = now
            outcome: BaseException | None = None
            try:
                at = future.result()
            except Exception as error:  # noqa: BLE001 - refused with a reason a student understands
                outcome = storage_refusal(error)
            else:
                try:
                    self._played(room, [replace(row, at=at) for row in rows], origin, moves)
                except Exception as error:  # noqa: BLE001 - raised to the waiters, as if played there
                    outcome = error
            room.committing = None
            for move in movers:
                move.settle(outcome)
            if room.waiting:
                self._commit_waiting(room)

        def on_commit(future: Future[float]) -> None:  # on the writer's thread
            if not loop.is_closed():
                loop.call_soon_threadsafe(committed, future)

        try:
            self.store.submit_actions(room.code, [(row.step, row.seat, row.action, row.actor) for row in rows]) \
                .add_done_callback(on_commit)
        except BaseException as error:
            room.committing = None  # nothing was queued: the room's next move need not wait for these
            for move in movers:
                move.settle(error)
            raise

    def _checked_move(self, room: Room, seat: int, step: Any, action: Any, even_paused: bool,
                      game: GameState[Any] | None = None, known: CheckedMove | None = None) -> CheckedMove:
        """A move `seat` may make now on `game` (default: the room's), read and validated, or `Refused` saying
        why. `known`: the same move's check of before, which stands if it was of this game at this step (the
        room's gates, paused or closed, are asked again: they change without a move)."""
        if room.closed:
            raise Refused("closed", "This room is closed.", 410)
        state = room.state if game is None else game
        if state is None:
            raise Refused("not_started", "The game starts when every seat has a player.")
        if isinstance(step, bool) or not isinstance(step, int):
            raise Refused("malformed", "A move names the step it answers, a whole number.")
        if not isinstance(action, str) or not action.strip():
            raise Refused("malformed", "A move is a text, like 'take 3'.")
        if state.is_over:
            raise Refused("over", "The game is over.")
        now = len(state.history)
        if step != now and not self.same_choice_still_open(state, seat, step, room.acting_at):
            raise Refused("stale", f"This move answers step {step}, but the table is at step {now}: "
                          "look again.", 409)
        if room.paused and not even_paused:
            raise Refused("paused", "The teacher paused the game.", 409)
        if seat not in state.acting_seats:
            raise Refused("not_your_turn", "It is not your turn.", 409)
        if known is not None and known.state is state and known.at == now and known.seat == seat:
            return known
        try:
            move = state.checked_action(action, player=seat)
        except IllegalAction as reason:
            raise Refused("illegal", str(reason), fr=reason.words("fr")) from None
        return CheckedMove(state, now, seat, move, action_text(move))

    def _played(self, room: Room, rows: Sequence[ActionRow], origin: GameState[Any] | None = None,
                moves: Sequence[Action] = ()) -> None:
        """Committed moves, played in memory in their order and told once. `moves`: their action values, checked
        one after the other from the game `origin` at the first row's step: played without a second check if the
        room's game is still that one there (else each is read and checked again)."""
        state = room.state
        assert state is not None
        trusted = state is origin and bool(rows) and rows[0].step == len(state.history) and len(moves) == len(rows)
        for index, row in enumerate(rows):
            room.apply(row, moves[index] if trusted else None)
        self._tell(room)

    @staticmethod
    def same_choice_still_open(state: GameState[Any], seat: int, step: int,
                               acting_at: Callable[[int], frozenset[int] | None] | None = None) -> bool:
        """Whether a move answering the earlier `step` still answers the seat's decision now in `state`: since
        that step only other seats moved, every one of them choosing at that step together with `seat` (a
        simultaneous choice: Commissario's picks, Get Adler's answers to an arrest), and `seat` is still to act.
        Students tapping at the same moment then all get their choice in, instead of all but the fastest being
        told to look again at a table that only says who else has chosen. `acting_at(step)`: the seats to act
        then, when the caller keeps them (`Room.acting_at`); else the game is replayed to that step."""
        if not 0 <= step < len(state.history) or seat not in state.acting_seats:
            return False
        movers = {mover for mover, _ in state.history[step:]}
        if seat in movers:
            return False
        then = None if acting_at is None else acting_at(step)
        if then is None:
            then = acting_seats_at(state, step)
        return seat in then and movers <= then

    def bot_choice(self, room: Room) -> tuple[int, int, str] | None:
        """(seat, step, action text) the bot to move would play now, or None if no bot is to move; played with
        `play(..., actor="bot")`, which refuses it if the table moved meanwhile."""
        turn = room.bot_turn()
        if turn is None:
            return None
        seat, step, choose = turn
        return seat, step, choose()

    async def time_up(self, code: str, seat: int,
                      think: Callable[[Callable[[], str]], Awaitable[str]] | None = None) -> str:
        """The seat's time for its move ran out (its room's `move_time_limit`): the game's `TIME_UP_BOT` plays
        the move for it, from the seat's view and legal moves alone, stored with the actor "time_up". Refused
        (and nothing played) unless a student's move is due at that seat now, the game neither paused nor over.

        On an event loop, as `play`: a class whose time runs out at once (a simultaneous choice nobody made)
        has its moves committed together, off the loop, each checked after the moves still being committed (the
        student's own, tapped just in time: then this one is refused). `think(choose)` runs the bot's choice (the
        server's: in a worker thread, so that the loop serves on); by default here."""
        room = self.open_room(code)
        state = room.state
        if state is None or state.is_over or room.paused or seat not in state.acting_seats \
                or room.seats[seat].bot is not None:
            raise Refused("not_your_turn", f"No student's move is due at seat {seat} now.", 409)
        step, choose = room.step, room.choice_of(games.make_bot(room.package, TIME_UP_BOT), seat)
        action = choose() if think is None else await think(choose)
        await self.play(room, seat, step, action, actor="time_up")
        log.info("room %s: time's up at seat %d: a bot played %s", room.code, seat, one_line(action, 200))
        return action

    async def step_bot(self, code: str) -> tuple[int, str]:
        """The teacher's "step": the bot to move plays one move now, even while the game is paused."""
        room = self.open_room(code)
        choice = self.bot_choice(room)
        if choice is None:
            raise Refused("no_bot", "No bot is to play now.", 409)
        seat, step, action = choice
        await self.play(room, seat, step, action, actor="bot", even_paused=True)
        return seat, action
