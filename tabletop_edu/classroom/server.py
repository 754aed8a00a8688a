"""The class server: one asyncio event loop serving every room of a `Hall` to its pages, started and stopped.

Why Tornado: Jupyter ships it (it is already installed wherever the notebook runs), it serves pages,
websockets and a JSON API from one small application without any other dependency, and its loop is asyncio's.
From a notebook the server runs on a loop of its own in a background thread (`ClassServer.start`), not on
the kernel's: a long cell never stalls the students' pages, and the teacher's dashboard, a plain HTTP client,
can call the server synchronously without waiting on itself. From a shell it runs in the foreground
(`python -m tabletop_edu serve`).

`ClassServer` holds the server's life (listening, heartbeats, sleeping rooms, stopping), its addresses and the
connections of each room, told of every change; the rest is one seam a module: the web transport (`handlers`:
every address and message), drawing the tables (`draw_queue`), bots and time limits (`turns`), beliefs and
the debrief (`belief_feed`); the rooms themselves are the `hall`'s.

Class play without friction (issue 20): Tornado pings every websocket (its `websocket_ping_interval`) and closes
one that did not answer in time, its seat shown offline on the dashboard at once (a half-open connection is found
two to four heartbeats after its last word); only a pong is a sign of life, not a message. A server started with
`heartbeat=None` pings only when `beat()` is called: Tornado's pings run on wall time, which no test can drive.

No client can hurt it (issue 49): what waits for one socket is bounded (`outbox`), each client address holds a
bounded number of connections, one that says nothing is closed after `idle_timeout` seconds, and a process out of
file handles pauses accepting instead of looping on the failure (`listening`).

A school day without a hitch (issue 23): one server per database file (`store.WriterLock`); writes are the
store's writer thread's (`store.Writer`: the loop awaits the commit of each move, student's seat and teacher's
change, one change of the teacher at a time; queued writes commit together), and a database held by another
program refuses a move as "storage busy" while the server retries it (`commits`); revealed or closed rooms
nobody looks at leave memory (`sweep`, after `finished_idle` seconds) and come back from the file when opened.
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import tornado.httpserver
import tornado.netutil
import tornado.web
import tornado.websocket

from ..core.rules import rules_to_dict
from . import games
from .belief_feed import ServerBeliefs
from .class_handlers import class_routes
from .class_notes import ClassNotes
from .class_teacher import class_teacher_routes
from .classes import ClassDesk
from .connections import Connection
from .draw_queue import MAX_DRAW_WORKERS, DrawJob, ServerDrawing
from .drawing import DrawWorker, TableKey
from .hall import FINISHED_IDLE, Hall
from .handlers import MAX_BODY, MAX_FRAME, STATIC, Static, _quiet_log, routes
from .listening import MAX_CONNECTIONS_PER_ADDRESS, THIS_MACHINE, ClassHTTPServer
from .moved_seats import forwarding, moved_routes
from .rooms import Room, TableSeat
from .store import BUSY_TIMEOUT, Store, WriterLock
from .throttles import FLOOD_BURST, FLOOD_RATE, GuessThrottle
from .turns import Deadline, RoomErrors, Scheduler, ServerTurns
from .waits import MoveWaits

#: How often revealed rooms nobody looks at are put to sleep (`Hall.sweep`), in seconds.
SWEEP_EVERY = 60.0
#: Seconds between two heartbeats. Every open websocket is pinged each `MISSED_BEATS` heartbeats and has as long
#: to answer; one that does not (a phone gone out of range, a laptop shut: a half-open connection) is closed, its
#: seat shown offline on the dashboard at once. A ping has two heartbeats to be answered: a browser whose page is
#: starved of CPU stops reading its socket (and answering pings) for seconds, and closing a live page makes its
#: student wait for the reconnection.
HEARTBEAT = 10.0
MISSED_BEATS = 2
#: Seconds a connection may stay open without sending a request (a silent socket, an idle keep-alive).
IDLE_TIMEOUT = 180.0
#: What a page that asked for them hears at each heartbeat: silent for 3.5 heartbeats, it knows the line is dead
#: (a phone's network gone: its socket may look open for minutes) and reconnects.
BEAT = json.dumps({"type": "beat"})


def lan_address() -> str:
    """This machine's address on the classroom network (no packet is sent to find it)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return "127.0.0.1"
    addresses = [info[4][0] for info in infos if not str(info[4][0]).startswith("127.")]
    return str(addresses[0]) if addresses else "127.0.0.1"


class ClassServer(ServerDrawing, ServerTurns, ServerBeliefs):
    """The class server over one SQLite file. `start()` runs it in a background thread (a notebook),
    `run()` in the foreground (a shell); `port=0` takes a free port, then `port` says which."""

    def __init__(self, db: str | Path, *, host: str = "127.0.0.1", port: int = 0,
                 public_url: str | None = None, flood: tuple[int, float] = (FLOOD_BURST, FLOOD_RATE),
                 clock: Callable[[], float] = time.monotonic, heartbeat: float | None = HEARTBEAT,
                 compression: bool = True, scheduler: Scheduler | None = None,
                 busy_timeout: float = BUSY_TIMEOUT, finished_idle: float = FINISHED_IDLE,
                 draw_workers: int = 0, per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
                 uncounted: frozenset[str] = THIS_MACHINE, idle_timeout: float = IDLE_TIMEOUT) -> None:
        if type(draw_workers) is not int or not 0 <= draw_workers <= MAX_DRAW_WORKERS:
            raise ValueError(f"draw_workers is a whole number from 0 to {MAX_DRAW_WORKERS}, not {draw_workers!r}")
        if type(per_address) is not int or per_address < 1:
            raise ValueError(f"per_address is a whole number of connections, 1 or more, not {per_address!r}")
        for name, seconds in (("idle_timeout", idle_timeout), ("finished_idle", finished_idle)):
            if type(seconds) not in (int, float) or not 0 < seconds < math.inf:
                raise ValueError(f"{name} is a number of seconds above 0, not {seconds!r}")
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
        self.per_address, self.uncounted = per_address, uncounted  # connections a client address may hold at once
        self.idle_timeout = idle_timeout  # seconds a connection may stay open without a request
        self.clock = clock  # of the limits on guesses (tests inject their own)
        self.guesses = GuessThrottle(clock)
        self.controls = asyncio.Lock()  # the teacher's changes, one at a time (`RoomApi.command`)
        self.move_waits = MoveWaits()  # where the students' moves waited (`serve` prints it when it stops)
        self.flood = flood  # (burst, rate per second) of each connection's messages
        self.host, self.requested_port = host, port
        self._public_url = public_url
        self.port = 0
        self.hall: Hall | None = None
        self.classes: ClassDesk | None = None  # the hall's classes of many tables (`class_handlers`)
        self.connections: dict[str, set[Connection]] = {}
        self.errors: dict[str, RoomErrors] = {}
        self._bot_storage_failures: dict[str, int] = {}  # by room: its bot's moves the store refused in a row
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
        self.classes = ClassDesk(self.hall)
        self.classes.moved_listeners.append(forwarding(self, self.classes))
        notes = ClassNotes(self.hall.store)
        ping = self.heartbeat * MISSED_BEATS if self.heartbeat else 0
        addresses = (class_teacher_routes(self, self.classes, notes) + moved_routes(self, self.classes)
                     + class_routes(self, self.classes) + routes(self))
        app = tornado.web.Application(addresses, xsrf_cookies=True,
                                      websocket_max_message_size=MAX_FRAME,
                                      websocket_ping_interval=ping, websocket_ping_timeout=ping,
                                      static_path=str(STATIC), static_handler_class=Static,
                                      compress_response=True,
                                      log_function=_quiet_log)
        sockets = tornado.netutil.bind_sockets(self.requested_port, address=self.host)
        self.port = int(sockets[0].getsockname()[1])
        self._server = ClassHTTPServer(app, max_body_size=MAX_BODY, xheaders=False,
                                       idle_connection_timeout=self.idle_timeout, per_address=self.per_address,
                                       uncounted=self.uncounted)
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
        """Tell the pages that asked that the line is alive (Tornado pings them all meanwhile)."""
        for connections in list(self.connections.values()):
            for connection in list(connections):
                if connection.beats:
                    connection.handler.send(BEAT)
        assert self.loop is not None and self.heartbeat
        self.loop.call_later(self.heartbeat, self._beat_often)

    def beat(self) -> list[Connection]:
        """One heartbeat by hand (on the loop's thread), for a server started with `heartbeat=None` (tests): close
        every connection that answered none of the last `MISSED_BEATS` pings, telling the teacher at once, and ping
        the others. Returns the connections found dead."""
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

    def seat_link(self, seat: TableSeat) -> str:
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
        if room.committing is not None:  # the moves `Hall.play` has just committed
            self._draw_soon(room)
        else:
            self._draw_now(room)
        self._schedule_bots(room)
        self._schedule_deadlines(room)

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
                "errors": self.room_errors(room), **self._beliefs_entry(room)}

    def connect(self, connection: Connection) -> None:
        self.connections.setdefault(connection.room, set()).add(connection)
        assert self.hall is not None
        room = self.hall.rooms[connection.room]
        self.send_table(room, connection)
        self.send_deadline(connection)
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


async def _as_coroutine(function: Callable[[], Any]) -> Any:
    result = function()
    if asyncio.iscoroutine(result) or asyncio.isfuture(result):  # a task started: its result
        result = await result
    return result
