"""The table server: Tornado, one asyncio event loop, every room of a `Hall`, pages and websockets.

Why Tornado: Jupyter ships it (it is already installed wherever the notebook runs), it serves pages,
websockets and a JSON API from one small application without any other dependency, and its loop is asyncio's.
From a notebook the server runs on a loop of its own in a background thread (`ClassServer.start`), not on
the kernel's: a long cell never stalls the students' pages, and the teacher's dashboard, a plain HTTP client,
can call the server synchronously without waiting on itself. From a shell it runs in the foreground
(`python -m tabletop_edu serve`).

Addresses (tokens are `secrets.token_urlsafe`):

- `/` and `/j/CODE`: the join page (room code and name); `POST /join` seats the student at a free seat and
  sends them on to their seat's link.
- `/s/TOKEN`: a seat's page (first a name form if the seat is empty); `/ws/seat/TOKEN` its websocket
  (`?view=1`: each table message also carries the seat's view as data and its legal moves' notation, for a
  student's bot: `classroom.join`).
- `/w/TOKEN`: the projector (the spectator's view and how to join); `/ws/watch/TOKEN` its websocket.
- `/api/...`: the teacher's JSON API (bearer teacher token): create rooms, pause, resume, step a bot,
  reveal, close, seat or remove bots, new links, swap two seats before the start, records.
  `/ws/teacher/CODE`: the dashboard's live feed.
- `POST /api/join`: a program (a student's bot) joins a room by code and name.
- `/static/...`: the pages' script and stylesheet; `/style/tabletop.css?v=...`: the tables' stylesheet, linked
  once by every page (cached while its version holds), so that updates carry the table alone.

Messages from a seat's page are JSON objects of at most `MAX_MESSAGE` bytes: `{"type": "menu", "step": N,
"chosen": [words]}` asks for the next buttons of a move, `{"type": "move", "step": N, "action": text}` plays
it; in a room that asks beliefs, `{"type": "belief", "step": N, "key": question, "percents": {option: whole
percent}}` states a belief, answered with `{"type": "belief_received", ...}` once it is stored (see
`belief_pages`, `rooms.BeliefDesk`). Each connection may send `FLOOD_BURST` messages at once and `FLOOD_RATE` a
second after that. Anything else is refused with `{"type": "refused", "code": ..., "message": ...}` and changes
nothing.

Every page carries a Content-Security-Policy that lets it load nothing but this server's own files and open
no connection elsewhere: a class works offline, and a name smuggling markup could not run a script anyway.

Class play without friction (issue 20): every websocket is pinged each `HEARTBEAT` seconds and one that
answered none of the last two pings is closed, its seat shown offline on the dashboard (a half-open connection
is found two to three heartbeats after its last word); messages are deflated when the browser offers it (`LiveSocket`); a room's optional
`move_time_limit` lets the game's bot play a student's move when its time is up (`time_up`, deadlines set
through an injectable scheduler); a seat's page follows its token when the teacher places its student at
another seat (`follow_token`).

A school day without a hitch (issue 23): one server per database file (`store.WriterLock`); a link opens at
most `MAX_CONNECTIONS_PER_SEAT` or `MAX_CONNECTIONS_PER_PROJECTOR` sockets; wrong room codes are throttled per
client (`GuessThrottle`); no log line holds a token (`redacted`); a path no file has is a 404; writes are the
store's writer thread's (`store.Writer`: the loop awaits the commit of each move, student's seat and teacher's
change, one change of the teacher at a time; queued writes commit together), and
a database held by another program refuses a move as "storage busy" while the server retries it; revealed or
closed rooms nobody looks at leave memory (`sweep`, after `finished_idle` seconds) and come back from the file
when opened. Drawing the tables is most of the server's work: a changed room is drawn at a coming turn of the
loop, one room a turn, once for all the moves it took meanwhile (`_draw_soon`), or, with `draw_workers`, by
processes of their own on the machine's other cores (`drawing.DrawWorker`, `_draw_by_worker`); a page is never
sent an older table than it has (`Connection.version`), and a seat's page keeps the words its student tapped when
another seat's move redraws it.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import socket
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from types import TracebackType
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import tornado.httpserver
import tornado.netutil
import tornado.web
import tornado.websocket

from ..core import GameState
from ..core.rules import rules_to_dict
from ..templates import stylesheet
from ..templates.drawn import message_json
from ..i18n import tr
from . import games
from .pages import MAX_WORD, MAX_WORDS, language_of, menu_message, page, qr_svg, refusal_text, style_version
from .belief_pages import belief_panel, debrief_html, seat_points_html
from .debrief import game_tables
from .drawing import DrawWorker, TableKey, render_table, seats_public
from .export import ClassGame, ClassGames, belief_answers, seat_label
from .rooms import (FINISHED_IDLE, MAX_NAME_CODE_POINTS, MAX_NAME_UTF16, Change, Hall, Refused, Room, Seat, name_key,
                    one_line)
from .store import BUSY_TIMEOUT, Store, WriterLock
from .waits import MoveWaits

log = logging.getLogger("tabletop_edu.classroom")
T = TypeVar("T")

STATIC = Path(__file__).with_name("static")
#: The longest message a page may send (a move is a few words).
MAX_MESSAGE = 2048
#: Past this, Tornado closes the connection itself (code 1009).
MAX_FRAME = 64 * 1024
MAX_BODY = 64 * 1024
FLOOD_BURST = 40
FLOOD_RATE = 20.0
#: A connection that keeps flooding after this many refusals is closed.
FLOOD_CLOSE = 100
#: Open connections per seat (a phone and a laptop, a reload that overlaps the old page).
MAX_CONNECTIONS_PER_SEAT = 8
#: Open connections per projector link (the projector, the teacher's laptop, a few screens at the back).
MAX_CONNECTIONS_PER_PROJECTOR = 16
#: Wrong room codes a client may type at once, then one every 1 / GUESS_RATE seconds: a student's typos pass,
#: while guessing one of the 28 million codes takes years.
GUESS_BURST = 10
GUESS_RATE = 0.2
#: Clients whose wrong guesses are remembered at once (past this, those that may guess again are forgotten).
MAX_GUESSERS = 10_000
#: While another program holds the database, a move is retried every STORAGE_RETRY_DELAY seconds, at most
#: STORAGE_RETRIES times (the student is told "storage busy, retrying" each time, and sees the table move).
STORAGE_RETRY_DELAY = 0.5
STORAGE_RETRIES = 40
#: A request whose page waits for its answer (a join, a teacher's change) is tried at most this many times more
#: (`stored`): with the writer's `BUSY_TIMEOUT` for each try, about 8 s, then it is told to try again later.
WAITING_RETRIES = 10
#: Refusals of a bot's move that say the table moved on between its choice and its commit (a student's move
#: committed just before it, the teacher's pause, the end of the game): not the bot's failure, so its room is not
#: paused for it; it chooses again at its turn.
BOT_OVERTAKEN = frozenset({"stale", "not_your_turn", "over", "paused", "closed"})
#: How often revealed rooms nobody looks at are put to sleep (`Hall.sweep`), in seconds.
SWEEP_EVERY = 60.0
#: Seconds between two heartbeats: every open websocket is pinged, and one that has answered none of the last
#: `MISSED_BEATS` pings (a phone gone out of range, a laptop shut: a half-open connection) is closed, its seat
#: shown offline on the dashboard at once: a dead connection is found 2 to 3 heartbeats after its last word. One
#: missed ping is forgiven: a browser whose page is starved of CPU stops reading its socket (and answering pings)
#: for seconds, and closing a live page makes its student wait for the reconnection.
HEARTBEAT = 10.0
MISSED_BEATS = 2
#: What a page that asked for them hears at each heartbeat: silent for 3.5 heartbeats, it knows the line is dead
#: (a phone's network gone: its socket may look open for minutes) and reconnects.
BEAT = json.dumps({"type": "beat"})
#: The most drawing processes a server starts (`draw_workers`).
MAX_DRAW_WORKERS = 16
#: Rooms sent to a worker at once: it draws one while the next is on its way.
WORKER_PIPELINE = 2
#: Websocket close codes (4000-4999 are the application's own): the page stops reconnecting.
CLOSE_ROOM_CLOSED = 4001
CLOSE_EXPIRED = 4003
CLOSE_FLOOD = 4008
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class TokenBucket:
    """At most `burst` messages at once and `rate` per second after: a flood is refused, not queued."""

    def __init__(self, burst: int = FLOOD_BURST, rate: float = FLOOD_RATE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> bool:
        if not self.ready():
            return False
        self.tokens -= 1
        return True

    def ready(self) -> bool:
        """Whether a message may pass now (without taking its token)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        return self.tokens >= 1


class GuessThrottle:
    """Wrong room codes, counted per client: `GUESS_BURST` at once and `GUESS_RATE` a second after, then
    every join from that client is refused until it may guess again (right codes cost nothing)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, burst: int = GUESS_BURST,
                 rate: float = GUESS_RATE) -> None:
        self.clock, self.burst, self.rate = clock, burst, rate
        self.guessers: dict[str, TokenBucket] = {}

    def check(self, client: str) -> None:
        """`Refused` (429) if `client` has used up its wrong guesses."""
        bucket = self.guessers.get(client)
        if bucket is not None and not bucket.ready():
            raise Refused("too_many_guesses", "Too many wrong room codes: check the code on the projector and "
                          "try again in a minute.", 429)

    def missed(self, client: str) -> None:
        """`client` typed a code no room has."""
        if client not in self.guessers and len(self.guessers) >= MAX_GUESSERS:
            self.guessers = {who: bucket for who, bucket in self.guessers.items() if not bucket.ready()}
            if len(self.guessers) >= MAX_GUESSERS:
                self.guessers.clear()  # a flood from everywhere: forget rather than grow
        bucket = self.guessers.setdefault(client, TokenBucket(self.burst, self.rate, self.clock))
        bucket.take()

    async def join(self, hall: Hall, client: str, code: Any, name: Any) -> tuple[Room, Seat]:
        """`hall.join_async(code, name)` for `client`, counting its wrong codes (tried again while the database
        is held elsewhere: `stored`)."""
        self.check(client)
        try:
            return await stored(lambda: hall.join_async(code, name))
        except Refused as refusal:
            if refusal.code == "unknown_room":
                self.missed(client)
            raise


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


def lan_address() -> str:
    """This machine's address on the classroom network (no packet is sent to find it)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return "127.0.0.1"
    addresses = [info[4][0] for info in infos if not str(info[4][0]).startswith("127.")]
    return str(addresses[0]) if addresses else "127.0.0.1"


#: Calls a function after a delay in seconds, returning a handle whose `cancel()` stops it.
Scheduler = Callable[[float, Callable[[], object]], Any]


@dataclass
class Deadline:
    """When a student's move became due (the step) and the timer that lets a bot play it."""

    step: int
    handle: Any


@dataclass(eq=False)
class DrawJob:
    """A changed room a worker is to draw: waiting in its worker's queue (`queued`), or being drawn. `sent` is
    done once its tables are sent; `again`, once those of its next drawing are (it changed during this one)."""

    room: Room
    sent: asyncio.Future[None]
    queued: bool = True
    again: asyncio.Future[None] | None = None


@dataclass(eq=False)
class Connection:
    """One open websocket: its room, what it shows (a seat, the projector or the teacher) and its language."""

    handler: Any
    room: str
    kind: str
    seat: int | None
    token: str
    language: str
    bucket: TokenBucket
    floods: int = 0
    with_view: bool = False  # a program's seat connection (`?view=1`): its view as data too
    version: int = 0  # the room's change its page shows (`ClassServer._changes`): never sent an older one
    unanswered: int = 0  # heartbeat pings sent since its last pong or message
    beats: bool = False  # a page that asked (`?beat=1`) hears each heartbeat too, to find a dead server itself
    answering: asyncio.Lock = field(default_factory=asyncio.Lock)  # one message answered at a time, in order

    @property
    def table(self) -> TableKey | None:
        """The table a drawing process draws for this page (a seat's or the projector's, in its language), or None
        for a page the loop draws (the teacher's dashboard, a program's view)."""
        return None if self.kind == "teacher" or self.with_view else (self.seat, self.language)


class ClassServer:
    """The class server over one SQLite file. `start()` runs it in a background thread (a notebook),
    `run()` in the foreground (a shell); `port=0` takes a free port, then `port` says which."""

    def __init__(self, db: str | Path, *, host: str = "127.0.0.1", port: int = 0,
                 public_url: str | None = None, flood: tuple[int, float] = (FLOOD_BURST, FLOOD_RATE),
                 clock: Callable[[], float] = time.monotonic, heartbeat: float | None = HEARTBEAT,
                 compression: bool = True, scheduler: Scheduler | None = None,
                 busy_timeout: float = BUSY_TIMEOUT, finished_idle: float = FINISHED_IDLE,
                 draw_workers: int = 0) -> None:
        if type(draw_workers) is not int or not 0 <= draw_workers <= MAX_DRAW_WORKERS:
            raise ValueError(f"draw_workers is a whole number from 0 to {MAX_DRAW_WORKERS}, not {draw_workers!r}")
        self.db = str(db)
        # processes that draw the students' tables on the machine's other cores (`drawing.DrawWorker`); 0: the loop
        self.draw_workers = draw_workers
        self._drawers: list[DrawWorker] = []
        self._drawers_started: asyncio.Future[Any] | None = None
        self.finished_idle = finished_idle  # seconds a finished or closed room nobody looks at stays in memory
        self.busy_timeout = busy_timeout  # how long the writer waits for another program's lock on the file
        # calls `callback` after `delay` seconds, returning what cancels it: the loop's `call_later` unless a test
        # brings its own (then the test says when a move's time is up)
        self._scheduler = scheduler
        self._deadlines: dict[tuple[str, int], Deadline] = {}
        self.compression = compression  # websocket messages deflated when the client offers it (`LiveSocket`)
        self.heartbeat = heartbeat  # seconds between heartbeats; None: only when `beat()` is called (tests)
        self.clock = clock  # of the limits on guesses (tests inject their own)
        self.guesses = GuessThrottle(clock)
        self.controls = asyncio.Lock()  # the teacher's changes, one at a time (`RoomApi.command`)
        self.move_waits = MoveWaits()  # where the students' moves waited (`serve` prints it when it stops)
        self.flood = flood  # (burst, rate per second) of each connection's messages
        self.host, self.requested_port = host, port
        self._public_url = public_url
        self.port = 0
        self.hall: Hall | None = None
        self.connections: dict[str, set[Connection]] = {}
        self.errors: dict[str, list[str]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: tornado.httpserver.HTTPServer | None = None
        self._bots_pending: set[str] = set()
        self._game_tables: dict[str, list[Any]] = {}  # by room: its game's own debrief tables, once made
        self._tables_pending: set[str] = set()
        self._to_draw: dict[str, tuple[Room, asyncio.Future[None]]] = {}  # rooms changed, in order (`_draw_soon`)
        self._drawing: dict[str, DrawJob] = {}  # rooms waiting for a worker or being drawn (`_draw_by_worker`)
        self._queues: list[OrderedDict[str, DrawJob]] = []  # by worker: the rooms waiting for it, in order
        self._pumps: list[int] = []  # by worker: how many `_draw_by_worker` feed it now
        self._changes: dict[str, int] = {}  # by room: how many times it changed (the tables a page has seen)
        self._last_drawn: dict[str, tuple[int, dict[TableKey, str]]] = {}  # by room: a worker's last tables
        self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="classroom-bot")
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._writer = WriterLock(self.db)

    # ---------------------------------------------------------------- addresses

    @property
    def url(self) -> str:
        """Where this machine reaches the server (the teacher's side)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "", "::") else self.host
        return f"http://{host}:{self.port}"

    @property
    def public_url(self) -> str:
        """Where students reach it: the classroom address when listening on the network."""
        if self._public_url:
            return self._public_url.rstrip("/")
        if self.host in ("0.0.0.0", "", "::"):
            return f"http://{lan_address()}:{self.port}"
        return self.url

    @property
    def teacher_token(self) -> str:
        assert self.hall is not None, "the server is not started"
        return self.hall.teacher_token

    # ---------------------------------------------------------------- life

    def _listen(self) -> None:
        """Take the database file for this server alone, open it, rebuild the rooms and bind the port (in the
        loop's thread). A file another server holds is refused at once (`DatabaseInUse`, naming its address)."""
        self._writer.acquire()
        try:
            self._open()
        except BaseException:
            self._writer.release()
            raise
        self._writer.announce(self.url)

    def _open(self) -> None:
        self.hall = Hall(Store(self.db, busy_timeout=self.busy_timeout), clock=self.clock)
        assert self.loop is not None
        self._drawers = [DrawWorker() for _ in range(self.draw_workers)]
        self._queues = [OrderedDict() for _ in self._drawers]
        self._pumps = [0 for _ in self._drawers]
        self._drawers_started = asyncio.gather(*(drawer.start() for drawer in self._drawers))
        self.hall.listeners.append(self._changed)
        app = tornado.web.Application(routes(self), xsrf_cookies=True, websocket_max_message_size=MAX_FRAME,
                                      static_path=str(STATIC), static_handler_class=Static,
                                      compress_response=True,
                                      log_function=_quiet_log)
        sockets = tornado.netutil.bind_sockets(self.requested_port, address=self.host)
        self.port = int(sockets[0].getsockname()[1])
        self._server = tornado.httpserver.HTTPServer(app, max_body_size=MAX_BODY, xheaders=False)
        self._server.add_sockets(sockets)
        for room in self.hall.rooms.values():
            self._schedule_bots(room)
            self._schedule_deadlines(room)
        assert self.loop is not None
        if self.heartbeat:
            self.loop.call_later(self.heartbeat, self._beat_often)
        self.loop.call_later(self._sweep_every, self._sweep_often)

    @property
    def _sweep_every(self) -> float:
        return max(0.05, min(SWEEP_EVERY, self.finished_idle / 2))

    def _sweep_often(self) -> None:
        self.sweep()
        assert self.loop is not None
        self.loop.call_later(self._sweep_every, self._sweep_often)

    def sweep(self, idle: float | None = None) -> list[str]:
        """Put to sleep the revealed or closed rooms no page has open, idle for `idle` seconds (default: the
        server's `finished_idle`), on the loop's thread."""
        assert self.hall is not None
        asleep = self.hall.sweep(lambda code: bool(self.connections.get(code)),
                                 self.finished_idle if idle is None else idle)
        for code in asleep:
            self.connections.pop(code, None)  # an empty set per room would pile up over a day
            self.errors.pop(code, None)
        return asleep

    def _beat_often(self) -> None:
        self.beat()
        assert self.loop is not None and self.heartbeat
        self.loop.call_later(self.heartbeat, self._beat_often)

    def beat(self) -> list[Connection]:
        """One heartbeat (on the loop's thread): close every connection that answered none of the last
        `MISSED_BEATS` pings, telling the teacher at once, and ping the others. Returns the connections found
        dead."""
        dead = []
        for connections in list(self.connections.values()):
            for connection in list(connections):
                if connection.unanswered >= MISSED_BEATS:
                    dead.append(connection)
                    continue
                connection.unanswered += 1
                try:
                    connection.handler.ping(b"")
                except tornado.websocket.WebSocketClosedError:
                    dead.append(connection)
                    continue
                if connection.beats:  # a browser cannot see pings: it hears this, or knows the line is dead
                    connection.handler.send(BEAT)
        for connection in dead:
            connection.handler.close(1001, "No answer to the heartbeat.")
            self.disconnect(connection)  # the dashboard shows the seat offline now, not when TCP gives up
        return dead

    def start(self, timeout: float = 30) -> ClassServer:
        """Run the server in a background thread; returns once it listens (its `port` is then known)."""
        def serve() -> None:
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            try:
                self._listen()
            except BaseException as error:  # reported to the caller of start()
                self._failure = error
                self._ready.set()
                return
            self._ready.set()
            self.loop.run_forever()
            self.loop.run_until_complete(self._shutdown())
            self.loop.close()

        self._thread = threading.Thread(target=serve, name=f"classroom-server-{id(self)}", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the class server did not start")
        if self._failure is not None:
            raise self._failure
        return self

    def run(self, ready: Callable[[ClassServer], None] | None = None) -> None:
        """Serve in this thread until interrupted (Ctrl-C or SIGTERM)."""
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.controls = asyncio.Lock()  # of this loop
        try:
            self._listen()
        except BaseException:
            self.loop.close()
            raise
        if ready is not None:
            ready(self)
        try:
            self.loop.run_forever()
        finally:
            self.loop.run_until_complete(self._shutdown())
            self.loop.close()

    def stop(self) -> None:
        """Stop serving: close every connection and the database (committed moves are already on disk)."""
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.stop()
            # idle keep-alive connections too: a browser would send its next request down one of them to a
            # server that no longer reads (in a process that lives on, as a notebook's), and wait forever
            await asyncio.wait_for(self._server.close_all_connections(), timeout=5)
        for connections in list(self.connections.values()):
            for connection in list(connections):
                connection.handler.close(1001, "The server is stopping.")
        for drawer in self._drawers:
            await drawer.stop()
        if self.hall is not None:
            self.hall.store.close()
        self._writer.release()

    def __enter__(self) -> ClassServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def call(self, function: Callable[[], Any], timeout: float = 30) -> Any:
        """Run `function` on the server's loop and return its result (for code in other threads: tests, the
        in-process helpers). The loop is the only thread that touches rooms."""
        assert self.loop is not None
        future = asyncio.run_coroutine_threadsafe(_as_coroutine(function), self.loop)
        return future.result(timeout)

    # ---------------------------------------------------------------- links

    def seat_link(self, seat: Seat) -> str:
        return f"{self.public_url}/s/{seat.token}"

    def watch_link(self, room: Room) -> str:
        return f"{self.public_url}/w/{room.watch_token}"

    def join_link(self, room: Room) -> str:
        return f"{self.public_url}/j/{room.code}"

    # ---------------------------------------------------------------- telling the clients

    def _changed(self, room: Room) -> None:
        """A room changed (already on disk): send every connection of it its new message, then let bots play.
        Moves its students and bots play are sent at a coming turn of the loop (`_draw_soon`); any other change
        (a teacher's command, a seat taken) at once, so that a command's answer comes after every page has it."""
        self._changes[room.code] = self._changes.get(room.code, 0) + 1
        drawer = self._drawer_for(room)
        if drawer is not None and not drawer.draws(room):
            drawer.forget(room)
            self._last_drawn.pop(room.code, None)
        if room.committing is not None:  # the moves `Hall.play_async` has just committed
            self._draw_soon(room)
        else:
            self._draw_now(room)
        self._schedule_bots(room)
        self._schedule_deadlines(room)

    def _draw_now(self, room: Room) -> None:
        """Send `room`'s connections their new messages now (also for the moves waiting for its turn)."""
        pending = self._to_draw.pop(room.code, None)
        try:
            self.broadcast(room)
        finally:
            if pending is not None:
                pending[1].set_result(None)

    def _draw_soon(self, room: Room) -> None:
        """Send `room`'s connections their new messages at a coming turn of the loop, one room a turn, in the
        order they changed; a room that changes again before its turn is drawn once, for all its changes.

        Drawing a room's tables is most of the server's work (13 tables on Mafia's floor): when several rooms
        change at once, each waits its turn while the loop still reads every move and menu in between, and a
        busy room's moves share a drawing instead of queueing one each. Off the loop (no server running) the
        tables are drawn at once."""
        try:
            on_loop = asyncio.get_running_loop() is self.loop
        except RuntimeError:
            on_loop = False
        if not on_loop:
            self.broadcast(room)
            return
        assert self.loop is not None
        job = self._drawing.get(room.code)
        if job is not None:
            if not job.queued and job.again is None:  # changed while being drawn: drawn again, at the back
                job.again = self.loop.create_future()
            return  # (a room still in its queue is drawn as it is when its turn comes)
        drawer = self._drawer_for(room)
        if drawer is not None and drawer.usable and drawer.draws(room):
            number = self._drawers.index(drawer)
            self._queues[number][room.code] = self._drawing[room.code] = DrawJob(room, self.loop.create_future())
            while self._pumps[number] < WORKER_PIPELINE:
                self._pumps[number] += 1
                asyncio.ensure_future(self._draw_by_worker(number))
            return
        if room.code not in self._to_draw:
            self._to_draw[room.code] = (room, self.loop.create_future())
            if len(self._to_draw) == 1:
                self.loop.call_soon(self._draw_next)

    def _draw_next(self) -> None:
        """Draw the room whose turn it is, then leave the loop to the others until the next turn."""
        if not self._to_draw:
            return  # drawn at once meanwhile (`_draw_now`)
        room = next(iter(self._to_draw.values()))[0]
        try:
            self._draw_now(room)
        finally:
            if self._to_draw and self.loop is not None:
                self.loop.call_soon(self._draw_next)

    async def _draw_by_worker(self, number: int) -> None:
        """Feed worker `number` the rooms of its queue in turn, each as it is when its turn comes (all the moves it
        took while it waited share one drawing, as on the loop), and send their tables to the pages that have no
        newer one; a room that changed while it was drawn goes to the back of the queue. `WORKER_PIPELINE` of
        these run per worker, so that it has the next room as soon as it sent one. A room the worker cannot draw
        (it stopped, the room was revealed meanwhile) is drawn here."""
        drawer, queue = self._drawers[number], self._queues[number]
        try:
            while queue:
                code, job = queue.popitem(last=False)
                job.queued = False
                try:
                    version = self._changes.get(code, 0)
                    drawn = await drawer.draw(job.room, self._worker_tables(job.room)) \
                        if drawer.draws(job.room) else None
                    if drawn is None:
                        self.broadcast(job.room)
                    else:
                        self.broadcast(job.room, drawn, version)
                        self._last_drawn[code] = (version, drawn)
                except Exception:  # noqa: BLE001 - logged; the room's next change draws it again
                    log.exception("room %s could not be drawn", code)
                job.sent.set_result(None)
                if job.again is not None:
                    job.sent, job.again, job.queued = job.again, None, True
                    queue[code] = job
                else:
                    del self._drawing[code]
        finally:
            self._pumps[number] -= 1

    async def drawers_started(self) -> int:
        """Once every drawing process has started (or failed to): how many draw (on the loop)."""
        if self._drawers_started is not None:
            await asyncio.shield(self._drawers_started)
        return sum(drawer.usable for drawer in self._drawers)

    @property
    def drawers(self) -> list[DrawWorker]:
        """The drawing processes (`draw_workers` of them), read on the loop (`call`)."""
        return list(self._drawers)

    def _drawer_for(self, room: Room) -> DrawWorker | None:
        """The worker that draws `room` (always the same: it keeps the room's replica), or None."""
        if not self._drawers:
            return None
        return self._drawers[zlib.crc32(room.code.encode()) % len(self._drawers)]

    def _shown(self, room: Room) -> tuple[Any, ...]:
        """All a table depends on (with the seat and language): two equal values draw the same tables."""
        beliefs = (len(room.beliefs), len(room.asked_steps), room.code in self._game_tables)  # asked, answered
        return (id(room.state), room.step, room.paused, room.revealed, room.closed,
                tuple((seat.name, seat.bot) for seat in room.seats), beliefs)

    def _worker_tables(self, room: Room) -> tuple[TableKey, ...]:
        """The tables the worker draws for the room's pages: each seat's and the projector's, by language (the
        teacher's dashboard and a program's view are drawn on the loop)."""
        tables = {table for connection in self.connections.get(room.code, ()) if (table := connection.table)}
        return tuple(sorted(tables, key=lambda table: (table[0] is None, table[0] or 0, table[1])))

    async def tables_sent(self, room: Room) -> None:
        """Wait until `room`'s latest change has been sent to its connections (a seat's next message is answered
        after the table of its move, as when the table was sent with the move)."""
        job = self._drawing.get(room.code)
        if job is not None:
            await asyncio.shield(job.again or job.sent)
        pending = self._to_draw.get(room.code)
        if pending is not None:
            await asyncio.shield(pending[1])

    def broadcast(self, room: Room, drawn: dict[TableKey, str] | None = None, version: int | None = None) -> None:
        """Send every connection of `room` its message. `drawn`: the tables the worker drew at the room's change
        `version`, by seat and language (the others are drawn here), sent only to pages that have no newer one."""
        connections = self.connections.get(room.code, set())
        current = self._changes.get(room.code, 0)
        version = current if version is None else version
        cache: dict[tuple[str, int | None, str, bool], tuple[str, int]] = {}  # a text and the change it shows
        shown = self._shown(room)  # what the room's tables show now: read once for its 13
        for connection in list(connections):
            if room.closed:
                connection.handler.close(CLOSE_ROOM_CLOSED, "The teacher closed this room.")
                continue
            if connection.kind == "seat":
                follow_token(room, connection)
            if connection.kind == "seat" and room.seats[cast(int, connection.seat)].token != connection.token:
                connection.handler.close(CLOSE_EXPIRED, "This link has expired: ask your teacher for a new one.")
                continue
            if connection.version > version:
                continue  # it has a newer table (opened, or sent again after a late move, meanwhile)
            key = (connection.kind, connection.seat, connection.language, connection.with_view)
            if key not in cache:
                table = connection.table
                if drawn is not None and table is not None and table in drawn:
                    cache[key] = (drawn[table], version)
                else:  # what the worker does not draw is drawn now, at the room's current change
                    cache[key] = (message_json(self.message_for(room, connection, shown)), current)
            text, connection.version = cache[key]
            connection.handler.send(text)

    def send_table(self, room: Room, connection: Connection) -> None:
        """Send one page its message now, as the room is (a page opened, a late move refused): the text a worker
        drew for its table at the room's current change if there is one, else drawn here."""
        current = self._changes.get(room.code, 0)
        version, drawn = self._last_drawn.get(room.code, (-1, {}))
        table = connection.table
        if version == current and table is not None and table in drawn:
            connection.handler.send(drawn[table])
        else:
            connection.handler.send(message_json(self.message_for(room, connection)))
        connection.version = current

    def message_for(self, room: Room, connection: Connection, shown: tuple[Any, ...] | None = None) -> dict[str, Any]:
        """The message `connection`'s page shows now (`shown`: the room's `_shown`, when the caller read it)."""
        if connection.kind == "teacher":
            return self.teacher_message(room)
        return self.table_for(room, connection.seat, connection.language, connection.with_view, shown)

    def table_for(self, room: Room, seat: int | None, language: str, with_view: bool = False,
                  shown: tuple[Any, ...] | None = None) -> dict[str, Any]:
        """A seat's (or the projector's) message: from its view and its own legal actions only.

        `with_view` (a seat's program asked for it) adds `view`, the seat's view as data (`view_to_json`),
        and `legal`, the notation of its legal actions when it is to act: what a bot needs to choose. `shown`:
        the room's `_shown`, when the caller read it (a broadcast reads it once for the room's 13 tables).

        Rendered once per step and what it shows (a page opened, a refused out-of-date move and the broadcast
        of the step share it): rendering a seat's table is most of the server's work."""
        return dict(room.remember(("table", seat, language, with_view, shown or self._shown(room)),
                                  lambda: self._render_table(room, seat, language, with_view)))

    def _render_table(self, room: Room, seat: int | None, language: str, with_view: bool) -> dict[str, Any]:
        message = render_table(room, seat, language, with_view)
        if room.scoring is not None and room.view(seat) is not None:
            self.add_beliefs(message, room, seat, language)
        return message

    # ---------------------------------------------------------------- beliefs

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
        games = ClassGames([ClassGame(room.code, room.number, room.title, tuple(self.labels(room)), room.state.record(),
                                      (), tuple(self.belief_answers(room)))])
        own = self._game_tables.get(room.code)
        if own is None:
            self._make_game_tables(room, games)
        return str(room.remember(("debrief", language, len(room.beliefs), own is not None),
                                 lambda: debrief_html(games, str(room.scoring), language, own or [])))

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
        """What the dashboard shows of beliefs: during play how many each seat stated; after the reveal every
        belief and the debrief (a dashboard may be on the projector's screen: no belief before the reveal)."""
        if room.scoring is None:
            return None
        counts = [sum(1 for row in room.beliefs if row.seat == seat.number) for seat in room.seats]
        found: dict[str, Any] = {"scoring": room.scoring, "asked_steps": sorted(room.asked_steps), "counts": counts}
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

    def teacher_message(self, room: Room) -> dict[str, Any]:
        """Everything about a room, for the teacher's dashboard (which replays the record itself)."""
        online = {seat.number: 0 for seat in room.seats}
        for connection in self.connections.get(room.code, set()):
            if connection.kind == "seat" and connection.seat is not None:
                online[connection.seat] += 1
        return {"type": "room", "code": room.code, "number": room.number, "game": room.package,
                "title": room.title, "language": room.language, "seed": room.seed,
                "rules": rules_to_dict(room.rules), "step": room.step, "started": room.started,
                "paused": room.paused, "revealed": room.revealed, "closed": room.closed, "over": room.is_over,
                "bot_delay": room.bot_delay, "draw_seats": room.draw_seats, "move_time_limit": room.move_time_limit,
                "bots": games.bot_names(room.package),
                "seats": [{"seat": seat.number, "name": seat.name, "bot": seat.bot, "online": online[seat.number],
                           "link": self.seat_link(seat)} for seat in room.seats],
                "join_url": self.join_link(room), "watch_url": self.watch_link(room), "public_url": self.public_url,
                "record": room.record(), "moves": [[action.step, action.seat, action.action, action.actor, action.at]
                                                   for action in room.actions],
                "errors": list(self.errors.get(room.code, [])), **self._beliefs_entry(room)}

    def _beliefs_entry(self, room: Room) -> dict[str, Any]:
        beliefs = self.teacher_beliefs(room)
        return {} if beliefs is None else {"beliefs": beliefs}

    def connect(self, connection: Connection) -> None:
        self.connections.setdefault(connection.room, set()).add(connection)
        assert self.hall is not None
        room = self.hall.rooms[connection.room]
        self.send_table(room, connection)
        self._tell_teachers(room)

    def disconnect(self, connection: Connection) -> None:
        connections = self.connections.get(connection.room)
        if connections is None or connection not in connections:
            return
        connections.discard(connection)
        assert self.hall is not None
        room = self.hall.rooms.get(connection.room)
        if room is not None and connection.kind == "seat":
            self._tell_teachers(room)

    def _tell_teachers(self, room: Room) -> None:
        teachers = [c for c in self.connections.get(room.code, set()) if c.kind == "teacher"]
        if teachers:
            text = json.dumps(self.teacher_message(room))
            for connection in teachers:
                connection.handler.send(text)

    def seat_connections(self, room: Room, seat: int) -> int:
        return sum(1 for c in self.connections.get(room.code, set()) if c.kind == "seat" and c.seat == seat)

    def watch_connections(self, room: Room) -> int:
        return sum(1 for c in self.connections.get(room.code, set()) if c.kind == "watch")

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
                handle = self._schedule(limit, lambda seat=seat: self.time_up(room.code, seat))  # type: ignore[misc]
                self._deadlines[(room.code, seat)] = Deadline(room.step, handle)

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
        try:
            action = await self.hall.time_up(code, seat, lambda choose: loop.run_in_executor(executor, choose))
        except Refused as refusal:
            if refusal.code == "storage_busy":  # the database is held elsewhere: try again in a moment
                self._deadlines[(code, seat)] = Deadline(self.hall.rooms[code].step, self._schedule(
                    STORAGE_RETRY_DELAY, lambda: self.time_up(code, seat)))
            return None
        for connection in list(self.connections.get(code, set())):
            if connection.kind == "seat" and connection.seat == seat:
                connection.handler.send(json.dumps({"type": "notice", "code": "time_up",
                                                    "text": tr("class.time_up", connection.language)}))
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
            turn = bot_turn(room)
            if turn is None:
                return None
            seat, step, choose = turn
            assert self.loop is not None
            try:
                action = await self.loop.run_in_executor(self._executor, choose)
            except Exception as error:  # a bot's bug: pause the room and tell the teacher
                return await self._bot_failed(  # type: ignore[func-returns-value]
                    room, seat, f"{type(error).__name__}: {error}")
            if room.step != step or room.closed:
                return None  # the table moved while the bot thought: it will think again
            assert self.hall is not None
            try:
                await self.hall.play_async(room, seat, step, action, actor="bot", even_paused=even_paused)
            except Refused as refusal:
                if refusal.code == "storage_busy":  # the database is held elsewhere: the bot tries again
                    if even_paused:
                        raise  # (the teacher's step: `stored` tries it again)
                    retry_after = STORAGE_RETRY_DELAY
                    return None
                if refusal.code in BOT_OVERTAKEN:
                    if even_paused:
                        raise  # the teacher's step: told why, as any command refused
                    return None  # it chooses again at its turn
                return await self._bot_failed(  # type: ignore[func-returns-value]
                    room, seat, f"{action!r}: {refusal}")
            return seat, action
        finally:
            if not even_paused:
                self._bots_pending.discard(room.code)
                self._schedule_bots(room, retry_after)

    async def _bot_failed(self, room: Room, seat: int, why: str) -> None:
        message = f"The bot at seat {seat} failed ({one_line(why, 300)}); the room is paused."
        log.warning("room %s: %s", room.code, message)
        self.errors.setdefault(room.code, []).append(message)
        assert self.hall is not None
        try:
            await self.hall.run_async(self.hall.pausing(room.code, True))
        except Refused as refusal:  # the database failed too: the room stays as it is, the teacher is told
            self.errors[room.code].append(f"The room could not be paused: {refusal}")
        return None

    async def step_bot(self, room: Room) -> tuple[int, str]:
        """The teacher's "step": the bot to move plays one move now, even while paused."""
        if room.bot_to_move() is None:
            raise Refused("no_bot", "No bot is to play now.", 409)
        result = await self._bot_move(room, even_paused=True)
        if result is None:
            raise Refused("no_bot", "The bot could not play (see the room's errors).", 409)
        return result


async def _as_coroutine(function: Callable[[], Any]) -> Any:
    result = function()
    if asyncio.iscoroutine(result) or asyncio.isfuture(result):  # a task started: its result
        result = await result
    return result


def bot_turn(room: Room) -> tuple[int, int, Callable[[], str]] | None:
    """The bot to move: its seat, the step, and a function choosing its move from the seat's view and legal
    actions only, taken now (views are frozen values, so the choice can run in a worker thread)."""
    seat = room.bot_to_move()
    if seat is None or room.state is None:
        return None
    bot = room.bot_for(seat)
    assert bot is not None
    view, legal, rng = room.view(seat), room.legal_actions(seat), room.bot_rng(seat)
    assert view is not None  # the room's game was checked above (and a room's game is never taken away)
    return seat, room.step, lambda: str(bot.choose(view, legal, rng))


def belief_row_json(row: Any) -> dict[str, Any]:
    """A stored belief as the teacher's API sends it."""
    return {"step": row.step, "seat": row.seat, "key": row.key, "question": row.question, "belief": row.belief,
            "posterior": row.posterior, "at": row.at}


def follow_token(room: Room, connection: Connection) -> None:
    """A seat's page follows its token: when the teacher placed its student at another seat (`swap_seats`),
    the connection now shows that seat (a token no seat holds any more leaves it be: it expired)."""
    seat = next((seat.number for seat in room.seats if seat.token == connection.token), None)
    if seat is not None:
        connection.seat = seat


#: The addresses whose last part is a credential (a seat's or the projector's token).
_TOKEN_PATH = re.compile(r"/(s|w|ws/seat|ws/watch)/[^/?#\s]*")
_QUERY = re.compile(r"\?\S*")


def redacted(text: str) -> str:
    """A request's path (or a line naming one) as a log may show it: any seat's or projector's token cut
    out, queries dropped."""
    return _TOKEN_PATH.sub(r"/\1/<token>", _QUERY.sub("", text))[:300]


def _quiet_log(handler: tornado.web.RequestHandler) -> None:
    """Log failures only, and never a token: seat links carry them, so paths are redacted."""
    status = handler.get_status()
    if status >= 500:
        log.error("%d %s %s", status, handler.request.method, redacted(handler.request.path))


class RedactedLogs:
    """Tornado logs a refused request (an XSRF failure) and an uncaught exception with its URL, which for a
    seat is its credential: these handlers log the redacted path instead, and no request headers."""

    request: Any

    def log_exception(self, kind: type[BaseException] | None, value: BaseException | None,
                      trace: TracebackType | None) -> None:
        where = f"{self.request.method} {redacted(self.request.path)}"
        if isinstance(value, tornado.web.HTTPError):
            if value.log_message:
                log.warning("%d %s: %s", value.status_code, where, redacted(cast(str, value.get_message())))
        else:
            log.error("%s failed", where, exc_info=(kind, value, trace))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ handlers


class LiveSocket:
    """What every websocket of the server shares: its pongs answer the heartbeat (`ClassServer.beat`), and its
    messages are compressed (permessage-deflate, which every browser offers) when the server says so: a table
    update is much like the one before, so with the compressor's context kept per connection it costs a few
    hundred bytes, not kilobytes, at about 150 KB of memory per open page."""

    connection: Connection | None
    server: ClassServer

    def on_pong(self, data: bytes) -> None:
        if self.connection is not None:
            self.connection.unanswered = 0

    def get_compression_options(self) -> dict[str, Any] | None:
        return {"mem_level": 6} if self.server.compression else None


class Base(RedactedLogs, tornado.web.RequestHandler):
    server: ClassServer

    def initialize(self, server: ClassServer) -> None:
        self.server = server

    @property
    def hall(self) -> Hall:
        assert self.server.hall is not None
        return self.server.hall

    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)

    @property
    def language(self) -> str:
        return language_of(self.get_query_argument("lang", None))

    def language_in(self, room: Room) -> str:
        """The language asked for in the address, else the room's."""
        return language_of(self.get_query_argument("lang", None), room.language)

    def chosen(self) -> str:
        """"?lang=xx" when the address chose a language (kept across the form's redirect), else ""."""
        value = self.get_query_argument("lang", None)
        return f"?lang={value}" if value in ("en", "fr") else ""

    def notice(self, refusal: Refused, language: str | None = None) -> None:
        language = language or self.language
        self.set_status(refusal.status)
        self.finish(page("notice.html", language, page_title="tabletop_edu", error=refusal_text(refusal, language)))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(page("notice.html", "en", page_title="tabletop_edu",
                         error=f"{status_code}: {self._reason}"))


class JoinPage(Base):
    """The join page: a room code and a name. A browser that already sat at the room sends its seat's token
    (kept by the seat's page in the browser's storage, under the room code) and goes back to its seat."""

    def get(self, code: str = "") -> None:
        self.finish(self.form(code=code.upper()[:8]))

    def form(self, code: str = "", name: str = "", error: str = "", forget: str = "") -> str:
        language = self.join_language(code)
        return page("join.html", language, page_title="tabletop_edu", code=code, name=name, error=error,
                    forget=forget, lang_query=self.chosen(), xsrf=self.xsrf_token.decode("ascii"),
                    max_name=MAX_NAME_UTF16)

    def join_language(self, code: str) -> str:
        """The language asked for in the address, else that of the room whose code is typed, else English."""
        room = self.hall.rooms.get(code.strip().upper())
        return self.language if room is None else self.language_in(room)

    def returning(self, code: str, token: str, name: str) -> Seat | None:
        """The seat `token` opens, if it is a filled seat of the room `code` (a browser coming back) and `name`
        is empty or that seat's (another student on a shared computer types their own name and joins)."""
        try:
            room, seat = self.hall.seat_of(token)
        except Refused:
            return None
        same = not name.strip() or (seat.name is not None and name_key(" ".join(name.split())) == name_key(seat.name))
        return seat if room.code == code.strip().upper() and seat.filled and same else None

    async def post(self) -> None:
        code = self.get_body_argument("code", "")[:16]
        name = self.get_body_argument("name", "")[:200]
        kept = self.get_body_argument("seat", "")[:100]
        seat = self.returning(code, kept, name) if kept else None
        if seat is not None:
            self.redirect(f"/s/{seat.token}{self.chosen()}", status=303)
            return
        forget = code.strip().upper() if kept and not name.strip() else ""  # the kept link expired: forget it
        try:
            room, seat = await self.server.guesses.join(self.hall, self.request.remote_ip or "", code, name)
        except Refused as refusal:
            self.set_status(refusal.status)
            self.finish(self.form(code=code, name=name[:MAX_NAME_CODE_POINTS],
                                  error=refusal_text(refusal, self.join_language(code)), forget=forget))
            return
        self.redirect(f"/s/{seat.token}{self.chosen()}", status=303)


class SeatPage(Base):
    """A seat's page, or the form to pick a name when the seat is still empty."""

    def get(self, token: str) -> None:
        try:
            room, seat = self.hall.seat_of(token)
        except Refused as refusal:
            self.notice(refusal, self.seat_language(token))
            return
        if not seat.filled:
            self.finish(self.name_form(room, seat))
            return
        language = self.language_in(room)
        message = self.server.table_for(room, seat.number, language)
        self.finish(page("seat.html", language, page_title=room.title, kind="seat", token=token,
                         code=room.code, name=seat.name, message=message, join_url=None,
                         heartbeat=self.server.heartbeat or 0))

    def seat_language(self, token: str) -> str:
        """The language of a page refusing `token`: the address's, else that of the room the link was of (an
        expired link of a French room is refused in French)."""
        code = self.hall.store.expired_room(token) if len(token) < 100 else None
        room = self.hall.rooms.get(code) if isinstance(code, str) else None
        return self.language if room is None else self.language_in(room)

    def name_form(self, room: Room, seat: Seat, name: str = "", error: str = "") -> str:
        return page("name.html", self.language_in(room), page_title=room.title, code=room.code, token=seat.token,
                    seat=seat.number, name=name, error=error, xsrf=self.xsrf_token.decode("ascii"),
                    max_name=MAX_NAME_UTF16)

    async def post(self, token: str) -> None:
        name = self.get_body_argument("name", "")[:200]
        try:
            room, seat = await stored(lambda: self.hall.claim_async(token, name))
        except Refused as refusal:
            if refusal.code in ("bad_name", "name_taken"):
                room, seat = self.hall.seat_of(token)
                self.set_status(refusal.status)
                self.finish(self.name_form(room, seat, name[:MAX_NAME_CODE_POINTS],
                                           refusal_text(refusal, self.language_in(room))))
            else:
                self.notice(refusal, self.seat_language(token))
            return
        self.redirect(f"/s/{seat.token}{self.chosen()}", status=303)


class WatchPage(Base):
    """The projector: the spectator's view, the room code and a QR code to join."""

    def get(self, token: str) -> None:
        try:
            room = self.hall.watched(token)
        except Refused as refusal:
            self.notice(refusal)
            return
        join = self.server.join_link(room)
        language = self.language_in(room)
        message = self.server.table_for(room, None, language)
        self.finish(page("seat.html", language, page_title=room.title, kind="watch", token=token,
                         code=room.code, name=tr("class.projector", language), message=message,
                         join_url=self.server.public_url, join_qr=qr_svg(join), body_class="projector",
                         heartbeat=self.server.heartbeat or 0))


class TableSocket(LiveSocket, RedactedLogs, tornado.websocket.WebSocketHandler):
    """A seat's or the projector's live connection (`kind` "seat" or "watch")."""

    server: ClassServer
    connection: Connection | None = None

    def initialize(self, server: ClassServer, kind: str) -> None:
        self.server, self.kind = server, kind
        self.answers: set[asyncio.Future[None]] = set()

    @property
    def hall(self) -> Hall:
        assert self.server.hall is not None
        return self.server.hall

    def prepare(self) -> None:
        """Refuse the upgrade itself (404 unknown, 410 expired) without the seat's token."""
        token = self.path_kwargs.get("token", "")
        try:
            if self.kind == "seat":
                room, seat = self.hall.seat_of(token)
                if not seat.filled:
                    raise Refused("not_seated", "Pick a name on the seat's page first.", 409)
                if self.server.seat_connections(room, seat.number) >= MAX_CONNECTIONS_PER_SEAT:
                    raise Refused("too_many", "Too many pages are open for this seat.", 429)
            else:
                room = self.hall.watched(token)
                if self.server.watch_connections(room) >= MAX_CONNECTIONS_PER_PROJECTOR:
                    raise Refused("too_many", "Too many screens show this room's projector page.", 429)
        except Refused as refusal:
            raise tornado.web.HTTPError(refusal.status, reason=str(refusal)[:200]) from None

    def open(self, token: str) -> None:  # type: ignore[override]
        if self.kind == "seat":
            room, seat = self.hall.seat_of(token)
            language = language_of(self.get_query_argument("lang", None), room.language)
            self.connection = Connection(self, room.code, "seat", seat.number, token, language,
                                         TokenBucket(*self.server.flood),
                                         with_view=self.get_query_argument("view", None) == "1")
            self.connection.beats = self.get_query_argument("beat", None) == "1"
        else:
            room = self.hall.watched(token)
            language = language_of(self.get_query_argument("lang", None), room.language)
            self.connection = Connection(self, room.code, "watch", None, token, language,
                                         TokenBucket(*self.server.flood))
            self.connection.beats = self.get_query_argument("beat", None) == "1"
        self.set_nodelay(True)
        self.server.connect(self.connection)

    def send(self, text: str) -> None:
        try:
            self.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            pass

    def on_close(self) -> None:
        if self.connection is not None:
            self.server.disconnect(self.connection)

    def refuse(self, refusal: Refused, step: int | None = None, answers: str | None = None) -> None:
        """Say why a message changed nothing; `step`: the step the refused move or menu request answered;
        `answers`: the type of the refused message ("move", "menu", "belief"), so a program tells them apart."""
        connection = self.connection
        language = connection.language if connection else "en"
        text = refusal_text(refusal, language)
        self.send(json.dumps({"type": "refused", "code": refusal.code, "message": str(refusal), "text": text,
                              "step": step, "answers": answers}))

    def on_message(self, message: str | bytes) -> None:
        """Answer in a task of its own: Tornado reads no frame (not even a pong) while `on_message` runs, and a
        move waits for its commit; the connection's `answering` lock keeps its messages in their order."""
        task = asyncio.ensure_future(self.answer_in_turn(message, time.perf_counter()))
        self.answers.add(task)  # the loop holds tasks weakly
        task.add_done_callback(self.answers.discard)

    async def answer_in_turn(self, message: str | bytes, arrived: float) -> None:
        connection = self.connection
        if connection is None:
            return
        connection.unanswered = 0  # a message is as good a sign of life as a pong
        if not connection.bucket.take():
            connection.floods += 1
            if connection.floods >= FLOOD_CLOSE:
                self.close(CLOSE_FLOOD, "Too many messages.")
            else:
                self.refuse(Refused("flood", "Too many messages: wait a moment."))
            return
        async with connection.answering:
            await self.answer(connection, message, arrived=arrived)

    async def answer(self, connection: Connection, message: str | bytes, attempt: int = 0,
                     arrived: float | None = None) -> None:
        """Answer a message (read at `arrived`, `time.perf_counter`); a move the database could not take now (held
        by another program) is retried later by the server itself, the student being told so, while the loop
        serves everyone else."""
        if self.ws_connection is None:
            return  # the page closed meanwhile
        step: int | None = None
        answers: str | None = None
        try:
            data = self.read(connection, message)
            step = data["step"] if isinstance(data.get("step"), int) and not isinstance(data["step"], bool) else None
            answers = str(data["type"])
            await self.handle(connection, data, arrived)
        except Refused as refusal:
            self.refuse(refusal, step, answers)
            if refusal.code == "storage_busy" and attempt < STORAGE_RETRIES:
                assert self.server.loop is not None
                self.server.loop.call_later(STORAGE_RETRY_DELAY, lambda: asyncio.ensure_future(
                    self.answer(connection, message, attempt + 1)))
            if refusal.code == "stale":
                room = self.hall.rooms.get(connection.room)
                if room is not None:
                    self.server.send_table(room, connection)

    def read(self, connection: Connection, message: str | bytes) -> dict[str, Any]:
        """A page's message as a JSON object of a known type, from a seat, or `Refused`."""
        if len(message) > MAX_MESSAGE:
            raise Refused("too_big", f"A message has at most {MAX_MESSAGE} bytes, not {len(message)}.")
        if isinstance(message, bytes):
            raise Refused("malformed", "Messages are JSON text.")
        try:
            data = json.loads(message)
        except (ValueError, RecursionError):
            raise Refused("malformed", "A message is a JSON object.") from None
        if not isinstance(data, dict) or data.get("type") not in ("move", "menu", "belief"):
            raise Refused("malformed", "A message is a JSON object whose type is 'move', 'menu' or 'belief'.")
        if connection.kind != "seat" or connection.seat is None:
            raise Refused("forbidden", "The projector only watches.", 403)
        return data

    async def handle(self, connection: Connection, data: dict[str, Any], arrived: float | None = None) -> None:
        assert connection.seat is not None
        room = self.hall.open_room(connection.room)
        if room.seats[connection.seat].token != connection.token:
            raise Refused("expired_token", "This link has expired: ask your teacher for a new one.", 410)
        step = data.get("step")
        if data["type"] == "move":
            committed = await self.hall.play_async(room, connection.seat, step, data.get("action"))
            await self.server.tables_sent(room)
            if arrived is not None:  # (a move retried after a busy database is not timed)
                self.server.move_waits.note(arrived, committed, time.perf_counter())
            return
        if data["type"] == "belief":
            row = await self.hall.belief_desk.answer(room, connection.seat, step, data.get("key"), data.get("percents"))
            self.server.belief_stated(room, connection.seat, row)
            return
        self.send(json.dumps(menu_for(room, connection.seat, step, data.get("chosen"), connection.language)))


def menu_for(room: Room, seat: int, step: Any, chosen: Any, language: str) -> dict[str, Any]:
    """The next buttons of `seat`'s move after the words `chosen`, or `Refused`."""
    if not (isinstance(chosen, list) and len(chosen) <= MAX_WORDS
            and all(isinstance(word, str) and 0 < len(word) <= MAX_WORD for word in chosen)):
        raise Refused("malformed", f"'chosen' is a list of at most {MAX_WORDS} words.")
    if isinstance(step, bool) or not isinstance(step, int):
        raise Refused("malformed", "A menu request names the step it answers, a whole number.")
    state = room.state
    if state is None:
        raise Refused("not_started", "The game starts when every seat has a player.")
    if step != room.step and not Hall.same_choice_still_open(state, seat, step, room.acting_at):
        raise Refused("stale", f"The table is at step {room.step}, not {step}: look again.", 409)
    if room.paused:
        raise Refused("paused", "The teacher paused the game.", 409)
    if seat not in state.acting_seats or room.seats[seat].bot is not None:
        raise Refused("not_your_turn", "It is not your turn.", 409)
    try:
        return dict(room.remember(("menu", seat, tuple(chosen), language), lambda: menu_message(
            room.view(seat), room.legal_actions(seat), chosen, language, room.step,  # type: ignore[arg-type]
            room.menu_tree(seat))))
    except ValueError:
        raise Refused("stale", "No move starts with these words any more: start again.", 409) from None


class TeacherSocket(LiveSocket, RedactedLogs, tornado.websocket.WebSocketHandler):
    """The dashboard's live feed of one room (teacher token in the Authorization header)."""

    connection: Connection | None = None

    def initialize(self, server: ClassServer) -> None:
        self.server = server

    def prepare(self) -> None:
        if not teacher_allowed(self.server, self.request):
            raise tornado.web.HTTPError(403, reason="The teacher's token is needed.")
        assert self.server.hall is not None
        try:
            self.server.hall.room(self.path_kwargs.get("code", ""))
        except Refused as refusal:
            raise tornado.web.HTTPError(refusal.status, reason=str(refusal)[:200]) from None

    def open(self, code: str) -> None:  # type: ignore[override]
        assert self.server.hall is not None
        room = self.server.hall.room(code)
        self.connection = Connection(self, room.code, "teacher", None, "", "en", TokenBucket(*self.server.flood))
        self.server.connect(self.connection)

    def send(self, text: str) -> None:
        try:
            self.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            pass

    def on_message(self, message: str | bytes) -> None:
        pass  # the teacher acts through the API

    def on_close(self) -> None:
        if self.connection is not None:
            self.server.disconnect(self.connection)


def teacher_allowed(server: ClassServer, request: Any) -> bool:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return scheme == "Bearer" and server.hall is not None and \
        hmac.compare_digest(token.encode("utf-8", "replace"), server.hall.teacher_token.encode("ascii"))


class Api(Base):
    """JSON in, JSON out; refusals as `{"error": code, "message": text}` (and `"fr"`, the French text, when the
    refusal has one) with an HTTP status."""

    teacher_only = True

    def check_xsrf_cookie(self) -> None:
        """Programs, not forms: a JSON body (a cross-site form cannot send one) instead of the XSRF cookie."""
        if self.request.method == "POST" and \
                not self.request.headers.get("Content-Type", "").startswith("application/json"):
            raise tornado.web.HTTPError(415, reason="Send JSON (Content-Type: application/json).")

    def prepare(self) -> None:
        self.set_header("Content-Type", "application/json")
        if self.teacher_only and not teacher_allowed(self.server, self.request):
            self.refused(Refused("forbidden", "The teacher's token is needed.", 403))

    def body(self) -> dict[str, Any]:
        if not self.request.body:
            return {}
        try:
            data = json.loads(self.request.body)
        except (ValueError, RecursionError):
            raise Refused("malformed", "The body is not JSON.") from None
        if not isinstance(data, dict):
            raise Refused("malformed", "The body is a JSON object.")
        return data

    def refused(self, refusal: Refused) -> None:
        self.set_status(refusal.status)
        french = {"fr": refusal.fr} if refusal.fr else {}
        self.finish(json.dumps({"error": refusal.code, "message": str(refusal), **french}))

    def reply(self, data: Any) -> None:
        self.finish(json.dumps(data))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(json.dumps({"error": "http", "message": f"{status_code}: {self._reason}"}))


class RoomsApi(Api):
    def get(self) -> None:
        rooms = [self.server.teacher_message(room) for room in self.hall.rooms.values()]
        listed = [{key: room[key] for key in ("code", "number", "game", "title", "step", "started", "over", "closed")}
                  for room in rooms] + self.hall.sleeping_summaries()
        self.reply({"rooms": sorted(listed, key=lambda room: room["number"]), "broken": self.hall.broken})

    async def post(self) -> None:
        try:
            data = self.body()
            allowed = {"game", "players", "seed", "rules", "language", "bots", "bot_delay", "draw_seats", "beliefs",
                       "scoring", "move_time_limit"}
            unknown = sorted(set(data) - allowed)
            if unknown:
                raise Refused("bad_request", f"Unknown field(s) {', '.join(unknown)[:100]}.")
            bots = data.get("bots") or {}
            if not isinstance(bots, dict) or not all(str(key).isdigit() and len(str(key)) < 4 for key in bots):
                raise Refused("bad_request", "bots maps seat numbers to bot names.")
            try:
                package = games.game_package(data.get("game", ""))
            except ValueError as error:
                raise Refused("bad_request", str(error)) from None
            async with self.server.controls:
                room = await stored(lambda: self.hall.run_async(self.hall.creating(
                    package, data.get("players"),  # type: ignore[arg-type]  # the JSON as sent: checked there
                    seed=data.get("seed"), rules=data.get("rules"),
                    language=data.get("language", "en"), bots={int(seat): bot for seat, bot in bots.items()},
                    bot_delay=data.get("bot_delay", 0.8), draw_seats=data.get("draw_seats", False),
                    beliefs=data.get("beliefs", False), scoring=data.get("scoring", "brier"),
                    move_time_limit=data.get("move_time_limit"))))
        except Refused as refusal:
            self.refused(refusal)
            return
        self.set_status(201)
        self.reply(self.server.teacher_message(room))


class RoomApi(Api):
    async def get(self, code: str, what: str | None = None) -> None:
        try:
            room = self.hall.room(code)
        except Refused as refusal:
            self.refused(refusal)
            return
        if what == "record":
            self.reply(room.record())
        else:
            self.reply(self.server.teacher_message(room))

    async def post(self, code: str, what: str | None = None) -> None:
        try:
            data = self.body()
            room = self.hall.room(code)
            async with self.server.controls:  # one at a time, each checked on the room as the last one left it
                await self.command(room, what, data)
        except Refused as refusal:
            self.refused(refusal)
            return
        self.reply(self.server.teacher_message(room))

    async def command(self, room: Room, what: str | None, data: dict[str, Any]) -> None:
        """The teacher's command `what`, committed off the loop (`Hall.run_async`), or `Refused`."""
        seat: Any  # the JSON as sent, checked by the hall (Refused: a seat missing or of no number)
        hall, seat = self.hall, data.get("seat")
        if what == "step":
            await stored(lambda: self.server.step_bot(hall.open_room(room.code)))
            return
        if what == "resume":
            self.server.errors.pop(room.code, None)
        changes: dict[str | None, Callable[[], Change[Any]]] = {
            "pause": lambda: hall.pausing(room.code, True),
            "resume": lambda: hall.pausing(room.code, False),
            "reveal": lambda: hall.revealing(room.code),
            "close": lambda: hall.closing(room.code),
            "bot": lambda: hall.seating_bot(room.code, seat, data.get("bot")),  # type: ignore[arg-type]
            "unbot": lambda: hall.unseating_bot(room.code, seat),
            "new_link": lambda: hall.relinking(room.code, seat),
            "ask": lambda: hall.belief_desk.asking(room.code),
            "swap": lambda: hall.swapping(room.code, seat, data.get("to")),  # type: ignore[arg-type]
        }
        if what not in changes:
            raise Refused("bad_request", "Unknown command.", 404)
        await stored(lambda: hall.run_async(changes[what]()))  # checked again at each try


class RecordsApi(Api):
    def get(self) -> None:
        rooms = []
        sleeping = [self.hall.sleeping(code) for code in list(self.hall.asleep)]
        for room in sorted([*self.hall.rooms.values(), *filter(None, sleeping)], key=lambda room: room.number):
            if room.state is None:
                continue
            rooms.append({"code": room.code, "number": room.number, "title": room.title,
                          "seats": seats_public(room), "over": room.is_over, "record": room.record(),
                          "moves": [[a.step, a.seat, a.action, a.actor, a.at] for a in room.actions],
                          **({} if room.scoring is None else {"beliefs": {
                              "scoring": room.scoring, "rows": [belief_row_json(row) for row in room.beliefs]}})})
        self.reply({"rooms": rooms})


class JoinApi(Api):
    """A program joins a room by code and name: `{"code": ..., "name": ...}` -> its seat's token."""

    teacher_only = False

    async def post(self) -> None:
        try:
            data = self.body()
            room, seat = await self.server.guesses.join(self.hall, self.request.remote_ip or "", data.get("code"),
                                                  data.get("name"))
        except Refused as refusal:
            self.refused(refusal)
            return
        self.set_status(201)
        self.reply({"code": room.code, "seat": seat.number, "token": seat.token, "link": self.server.seat_link(seat)})


class Static(RedactedLogs, tornado.web.StaticFileHandler):
    """The pages' own files. A path no file can have (a NUL byte, `..`) is a plain 404, like any missing file."""

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        if "\x00" in absolute_path:
            raise tornado.web.HTTPError(404)
        try:
            return super().validate_absolute_path(root, absolute_path)
        except (OSError, ValueError):
            raise tornado.web.HTTPError(404) from None

    def set_default_headers(self) -> None:
        cacheable_headers(self)


def cacheable_headers(handler: tornado.web.RequestHandler) -> None:
    """The security headers of a file a browser may keep (no `no-store`)."""
    for name, value in SECURITY_HEADERS.items():
        if name != "Cache-Control":
            handler.set_header(name, value)


class TableStyle(RedactedLogs, tornado.web.RequestHandler):
    """The tables' stylesheet, linked by every class page (the updates carry no styling). Its address holds
    its version, so a browser keeps it for a day and fetches it again only when it changes."""

    def set_default_headers(self) -> None:
        cacheable_headers(self)

    def get(self) -> None:
        self.set_header("Content-Type", "text/css; charset=utf-8")
        if self.get_query_argument("v", None) == style_version():
            self.set_header("Cache-Control", "public, max-age=86400, immutable")
        else:
            self.set_header("Cache-Control", "no-cache")
        self.finish(stylesheet())


def routes(server: ClassServer) -> list[tuple[str, type] | tuple[str, type, dict[str, Any]]]:
    token = r"(?P<token>[A-Za-z0-9_\-]{1,64})"
    return [
        (r"/", JoinPage, {"server": server}),
        (r"/j/(?P<code>[A-Za-z0-9]{1,8})", JoinPage, {"server": server}),
        (r"/join", JoinPage, {"server": server}),
        (rf"/s/{token}", SeatPage, {"server": server}),
        (rf"/w/{token}", WatchPage, {"server": server}),
        (rf"/ws/seat/{token}", TableSocket, {"server": server, "kind": "seat"}),
        (rf"/ws/watch/{token}", TableSocket, {"server": server, "kind": "watch"}),
        (r"/ws/teacher/(?P<code>[A-Za-z0-9]{1,8})", TeacherSocket, {"server": server}),
        (r"/api/rooms", RoomsApi, {"server": server}),
        (r"/api/rooms/(?P<code>[A-Za-z0-9]{1,8})", RoomApi, {"server": server}),
        (r"/api/rooms/(?P<code>[A-Za-z0-9]{1,8})/(?P<what>[a-z_]{1,20})", RoomApi, {"server": server}),
        (r"/api/records", RecordsApi, {"server": server}),
        (r"/api/join", JoinApi, {"server": server}),
        (r"/static/(.*)", Static, {"path": str(STATIC)}),
        (r"/style/tabletop\.css", TableStyle),
    ]
