"""The students' and the projector's tables, drawn on the machine's other cores (`serve --draw-workers N`).

Drawing a room's tables is most of the class server's work: 13 tables on Mafia's floor, 4 to 9 ms, while a
move's own work (read, check, commit) is a fraction of it. The server's loop is one thread, so on a floor shared
by many rooms each move waits behind the other rooms' drawings. A `DrawWorker` is one more process that keeps a
copy of each of its rooms' games (a replica) and draws the tables of the moves students play: the loop sends it
the moves since the replica's last step (already committed: nothing is drawn before it is stored) and the tables
the room's pages show, and sends the texts it gets back. The teacher's dashboard, a program's seat (`?view=1`),
rooms that ask beliefs and revealed or closed rooms are drawn on the loop: they are few, and they depend on more
than the game.

What a worker draws is what the loop would draw (the same `render_table`: a test compares them move by move),
and it is sent nothing but the game's set-up, its moves and the seats' names: never a token. If a worker fails or
dies, the loop draws its rooms again (`DrawWorker.usable` turns false) and says so in the log.

Workers only pay where each has a core to spare: `benchmarks/bench_draw_workers.py` times the drawing alone, and
`benchmarks/bench_classroom.py --draw-workers N` a class (whose simulated students share this machine's cores).
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import struct
import sys
import weakref
from collections import OrderedDict, deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

from .. import registry
from ..core import GameState
from ..core.view import view_to_json
from . import games
from .pages import reveal_html, table_message
from .rooms import Room, TableSeat, one_line
from ..templates.drawn import message_json
from .store import ActionRow

log = logging.getLogger("tabletop_edu.classroom")

#: A table the worker draws: its seat (None: the projector) and its language.
TableKey = tuple[int | None, str]
#: The rooms the worker keeps a replica of; past this, the least recently drawn is dropped (and sent whole
#: again when it is drawn next).
REPLICAS_KEPT = 256


def seats_public(room: Room) -> list[dict[str, Any]]:
    """Each seat's number, name and bot: what every page of the room may show (never the tokens)."""
    return [{"seat": seat.number, "name": seat.name, "bot": seat.bot} for seat in room.seats]


def render_table(room: Room, seat: int | None, language: str, with_view: bool = False) -> dict[str, Any]:
    """A seat's (None: the projector's) table message from its view and its own legal actions only, without
    the room's beliefs (the server adds them): what the loop and the worker both draw."""
    view = room.view(seat)
    legal = []
    if view is not None and seat is not None and room.seats[seat].bot is None and not room.paused:
        legal = room.legal_actions(seat)
    revealed = reveal_html(room.state, language) if room.revealed and room.state is not None else None
    message = table_message(view, language, seats=seats_public(room), step=room.step, legal_actions=legal,
                            paused=room.paused, revealed=revealed, title=room.title, seat=seat,
                            style=False,  # the page links the stylesheet once (`TableStyle`)
                            words=room.menu_tree(cast(int, seat)) if legal else None,  # legal moves: a seat's only
                            log=room.running_log(seat, language),  # its new lines only are worded
                            public=room.view(None),  # what the step's tables share, drawn once
                            plugin=room.plugin)
    if with_view and seat is not None:
        message["view"] = None if view is None else room.remember(("view_json", seat), lambda: view_to_json(view))
        message["legal"] = [str(action) for action in legal]
    return message


# ---------------------------------------------------------------- what the loop sends, what the worker does


@dataclass(frozen=True)
class NewReplica:
    """What the worker needs to start a room's replica: its game as `Hall` starts it (no token)."""

    package: str
    players: tuple[str, ...]
    seed: int
    rules: Any
    language: str


@dataclass(frozen=True)
class DrawRequest:
    """Draw `tables` of room `code` at `step`: its replica first takes `moves` (and starts afresh from `new`)."""

    code: str
    new: NewReplica | None
    moves: tuple[ActionRow, ...]
    step: int
    seats: tuple[tuple[str | None, str | None], ...]  # each seat's name and bot
    paused: bool
    tables: tuple[TableKey, ...]


@dataclass(frozen=True)
class Forget:
    """The loop draws room `code` from now on (revealed, closed): the worker lets its replica go."""

    code: str


class ReplicaMissing(LookupError):
    """The worker has no replica of the room (dropped, or never sent): the loop sends it whole next time."""


class WorkerGone(RuntimeError):
    """The drawing process is not running (never started, ended or stopped)."""


#: The worker's replicas, by room code (in the worker's process only).
_replicas: OrderedDict[str, Room] = OrderedDict()


def warm_up() -> bool:
    """Import the games in the worker before its first drawing (a class's first move is not kept waiting)."""
    for name in registry.games():
        games.game_module(name)
    return True


def draw_tables(request: DrawRequest) -> dict[TableKey, str]:
    """In the worker: bring the room's replica to `request.step` and draw each table asked, as JSON texts."""
    room = _replica(request)
    return {(seat, language): message_json(render_table(room, seat, language))
            for seat, language in request.tables}


def _replica(request: DrawRequest) -> Room:
    if request.new is not None:
        new = request.new
        module = games.game_module(new.package)
        seats = [TableSeat(number, "", None, None) for number in range(len(new.players))]
        room = Room(request.code, 0, new.package, new.seed, new.rules, new.language, 0.0, "", seats, started=True)
        room.state = module.new_game(list(new.players), seed=new.seed, rules=new.rules)
        _replicas[request.code] = room
        while len(_replicas) > REPLICAS_KEPT:
            _replicas.popitem(last=False)
    room = _replicas.get(request.code)  # type: ignore[assignment]
    if room is None:
        raise ReplicaMissing(request.code)
    _replicas.move_to_end(request.code)
    for move in request.moves:
        if move.step != room.step:
            del _replicas[request.code]
            raise ReplicaMissing(f"{request.code}: move of step {move.step} sent at step {room.step}")
        room.apply(move)
    if room.step != request.step:
        del _replicas[request.code]
        raise ReplicaMissing(f"{request.code}: at step {room.step}, asked for step {request.step}")
    for seat, (name, bot) in zip(room.seats, request.seats):
        seat.name, seat.bot = name, bot
    room.paused = request.paused
    return room


def serve_requests(requests: BinaryIO, answers: BinaryIO) -> None:
    """The worker's life: answer each request read from `requests` on `answers`, in order, until the server
    closes its end (or dies: its end closes too). A request is `warm_up` or a `DrawRequest`; an answer is
    `(True, tables)` or `(False, the exception)`."""
    while True:
        request = read_frame(requests)
        if request is None:
            return
        try:
            if request == "warm_up":
                answer: tuple[bool, Any] = (True, warm_up())
            elif isinstance(request, Forget):
                answer = (True, _replicas.pop(request.code, None) is not None)
            else:
                answer = (True, draw_tables(request))
        except Exception as error:  # noqa: BLE001 - the server draws the room itself and says why
            answer = (False, error if isinstance(error, ReplicaMissing) else RuntimeError(
                f"{type(error).__name__}: {error}"))
        write_frame(answers, answer)


#: Each frame is its length (8 bytes, big-endian) and a pickle: between the server and its own worker only.
FRAME_HEADER = struct.Struct(">Q")


def write_frame(stream: BinaryIO, value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(FRAME_HEADER.pack(len(data)) + data)
    stream.flush()


def read_frame(stream: BinaryIO) -> Any:
    """The next value, or None at the end of the stream."""
    header = stream.read(FRAME_HEADER.size)
    if len(header) < FRAME_HEADER.size:
        return None
    (size,) = FRAME_HEADER.unpack(header)
    return pickle.loads(stream.read(size))


# ---------------------------------------------------------------- the loop's side


class DrawWorker:
    """The worker process, seen from the server's loop: `draw` sends a room's new moves and the tables its
    pages show, and returns their texts, or None when the loop must draw them itself.

    A plain child process (`python -m tabletop_edu.classroom.drawing`) on two pipes, not `multiprocessing`:
    that would run the teacher's own script again in the child to start it."""

    def __init__(self) -> None:
        self._process: asyncio.subprocess.Process | None = None
        self._answers: deque[asyncio.Future[Any]] = deque()  # the requests sent, in order, waiting for answers
        self._ready = False
        # by room: the game the replica plays (held weakly: a room asleep lets its game go) and its step
        self._sent: dict[str, tuple[weakref.ref[GameState[Any]], int]] = {}
        self._reading: asyncio.Task[None] | None = None
        self._stopped: asyncio.subprocess.Process | None = None  # the process `close` killed
        self.drawn = 0  # the drawings it sent back (a test sees that the worker, not the loop, drew)

    async def start(self) -> None:
        """Start the process, and use it once it has imported the games (until then the loop draws)."""
        try:
            package_root = str(Path(__file__).resolve().parents[2])  # where this `tabletop_edu` is imported from
            paths = [package_root, *filter(None, [os.environ.get("PYTHONPATH")])]
            self._process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", __name__, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)})
            self._reading = asyncio.ensure_future(self._read_answers())
            self._ready = await self._ask("warm_up") is True
        except Exception as error:  # noqa: BLE001 - without a worker the loop draws, as on one core
            log.warning("the drawing process did not start (%s): the server draws every table itself",
                        one_line(str(error)))
            self.close()

    @property
    def usable(self) -> bool:
        """Started and not broken: until then (and after a failure) the loop draws every table itself."""
        return self._ready and self._process is not None

    @staticmethod
    def draws(room: Room) -> bool:
        """Whether the worker may draw `room`'s tables: a game under way that asks no beliefs."""
        return room.state is not None and room.scoring is None and not room.revealed and not room.closed

    def request(self, room: Room, tables: tuple[TableKey, ...]) -> DrawRequest:
        """The request that brings the room's replica to its step (whole, if the worker has not this game)."""
        state = room.state
        assert state is not None
        sent = self._sent.get(room.code)
        new: NewReplica | None = None
        if sent is None or sent[0]() is not state or sent[1] > room.step:
            new = NewReplica(room.package, tuple(state.players), room.seed, room.rules, room.language)
            first = 0
        else:
            first = sent[1]
        self._sent[room.code] = (weakref.ref(state), room.step)
        return DrawRequest(room.code, new, tuple(room.actions[first:]), room.step,
                           tuple((seat.name, seat.bot) for seat in room.seats), room.paused, tables)

    async def draw(self, room: Room, tables: tuple[TableKey, ...]) -> dict[TableKey, str] | None:
        """The texts of `tables` at the room's current step, or None (the loop draws them): the worker has lost
        the room (sent whole next time) or failed (then it is not used again)."""
        if not self.usable:
            return None
        try:
            drawn: dict[TableKey, str] = await self._ask(self.request(room, tables))
            self.drawn += 1
            return drawn
        except ReplicaMissing:
            self._sent.pop(room.code, None)
            return None
        except WorkerGone:
            self.close()
            return None
        except Exception as error:  # noqa: BLE001 - a table the worker cannot draw is drawn by the loop
            log.warning("the drawing process could not draw room %s (%s): the server draws it", room.code,
                        one_line(str(error)))
            self._sent.pop(room.code, None)
            return None

    async def _ask(self, request: Any) -> Any:
        return await self._send(request)

    def _send(self, request: Any) -> asyncio.Future[Any]:
        """Write `request` now (requests are answered in the order they are written); its answer, to come."""
        process = self._process
        if process is None or process.stdin is None or self._reading is None or self._reading.done():
            raise WorkerGone("not running")
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        answer = asyncio.get_running_loop().create_future()
        self._answers.append(answer)
        process.stdin.write(FRAME_HEADER.pack(len(data)) + data)
        return answer

    async def _read_answers(self) -> None:
        """Hand each answer to its request, in order; when the process ends, every waiting request fails."""
        assert self._process is not None and self._process.stdout is not None
        stdout = self._process.stdout
        try:
            while True:
                (size,) = FRAME_HEADER.unpack(await stdout.readexactly(FRAME_HEADER.size))
                ok, value = pickle.loads(await stdout.readexactly(size))
                answer = self._answers.popleft()
                if answer.done():
                    continue
                if ok:
                    answer.set_result(value)
                else:
                    answer.set_exception(value)
        except (asyncio.IncompleteReadError, ConnectionError, pickle.UnpicklingError, ValueError) as error:
            if self._process is not None:
                log.warning("the drawing process stopped (%s): the server draws its rooms' tables itself",
                            one_line(str(error)))
            self._reading = None
            self.close()  # every request waiting fails: their rooms are drawn by the loop
        except asyncio.CancelledError:
            self._fail_waiting(WorkerGone("stopped"))
            raise

    def _fail_waiting(self, error: Exception) -> None:
        while self._answers:
            answer = self._answers.popleft()
            if not answer.done():
                answer.set_exception(error)
                answer.add_done_callback(lambda answer: answer.exception())  # no "never retrieved" if none waits

    def forget(self, room: Room) -> None:
        """The loop draws `room` from now on: the worker drops its replica (a school day of finished games does not
        pile up in the worker's memory)."""
        if self.usable and self._sent.pop(room.code, None) is not None:
            try:
                self._send(Forget(room.code)).add_done_callback(lambda answer: answer.exception())
            except WorkerGone:
                pass  # a worker gone has forgotten everything


    def close(self) -> None:
        """Stop the worker (its replicas go with it); the loop draws every table from now on."""
        process, self._process = self._process, None
        self._ready = False
        self._sent.clear()
        if self._reading is not None:
            self._reading.cancel()
        self._fail_waiting(WorkerGone("stopped"))
        if process is not None and process.returncode is None:
            process.kill()
        self._stopped = process

    async def stop(self) -> None:
        """`close`, and wait for the process to end (the server's shutdown leaves no child behind)."""
        self.close()
        if self._stopped is not None:
            await self._stopped.wait()


def main() -> None:
    """The worker process: requests on its standard input, answers on its standard output."""
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not break the frames
    serve_requests(sys.stdin.buffer, answers)


if __name__ == "__main__":
    # run from the module itself, not from `__main__`: the classes it pickles back are the server's
    from tabletop_edu.classroom import drawing

    drawing.main()
