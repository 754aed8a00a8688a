"""`python -m tabletop_edu serve`: the class server in the foreground of a shell.

    python -m tabletop_edu serve --port 8000                   # this machine only (127.0.0.1)
    python -m tabletop_edu serve --port 8000 --network         # phones on the classroom network too
    python -m tabletop_edu serve --room mafia_de_cuba:8 --room get_adler:5 --db class.sqlite3
    python -m tabletop_edu serve --room commissario:4 --move-time-limit 60   # then a bot plays for the slow
    python -m tabletop_edu serve --class get_adler:5 --network                # a whole class, one code

It prints the address, the teacher's token (for `classroom.connect(url, token)` in a notebook) and, for each
room, its code, its seats' links and its dashboard call; for each class (`--class`), its code, join link and
dashboard page. `/` is the join page: students type the room code
and a name. Port 0 takes any free port; the line "serving on http://HOST:PORT/" says which.

Started again with the same command on the same file (a closed laptop, a restart after lunch), it reopens the
rooms still open there (not closed, game not over) and prints them, instead of opening new ones next to them:
`--room` opens rooms only on a file without open rooms, or with `--new-room`.
"""

from __future__ import annotations

import argparse
import gc
import signal
import sys
from typing import TYPE_CHECKING, Any

from ..extras import need

if TYPE_CHECKING:  # the server and its client are imported by `serve`: `games` and `simulate` need no tornado
    from .server import ClassServer


def add_command(commands: Any) -> None:
    """Add `serve` to the command line's subcommands."""
    serve_parser = commands.add_parser("serve", help="run the class server (students play on their own devices)")
    serve_parser.add_argument("--port", type=int, default=8000, help="the port (0: any free port)")
    serve_parser.add_argument("--network", action="store_true",
                              help="listen on the classroom network (every address), not only on 127.0.0.1")
    serve_parser.add_argument("--host", default=None, help="the address to listen on (overrides --network)")
    serve_parser.add_argument("--public-url", default=None,
                              help="the address students use, e.g. http://192.168.1.20:8000")
    serve_parser.add_argument("--db", default="tabletop_classroom.sqlite3",
                              help="the SQLite file of rooms and moves (reopened as it is on restart)")
    serve_parser.add_argument("--room", action="append", default=[], metavar="GAME:PLAYERS",
                              help="open a room at start: a game `python -m tabletop_edu games` lists and its number "
                                   "of seats (repeat for more rooms)")
    serve_parser.add_argument("--class", dest="classes", action="append", default=[], metavar="GAME[:SIZE]",
                              help="open a class at start: one code for every student, tables of about SIZE "
                                   "players (default: the game's) formed when the teacher starts a round")
    serve_parser.add_argument("--new-room", action="store_true",
                              help="open the --room rooms even when the file has open rooms (by default they are "
                                   "reopened instead)")
    serve_parser.add_argument("--seed", type=int, default=None, help="seed of the rooms opened with --room")
    serve_parser.add_argument("--draw-seats", action="store_true",
                              help="students joining by code sit at seats drawn at random (from the seed), not in "
                                   "arrival order (the first to type the code is not always the Godfather)")
    serve_parser.add_argument("--beliefs", action="store_true",
                              help="the --room rooms ask the students what they believe (scored, shown at the debrief)")
    serve_parser.add_argument("--scoring", choices=("brier", "log"), default="brier",
                              help="the scoring rule of the students' beliefs (with --beliefs)")
    serve_parser.add_argument("--move-time-limit", type=float, default=None, metavar="SECONDS",
                              help="seconds a student has for each move in the --room rooms; then a bot of the game "
                                   "plays it for them and their page says so (default: no limit)")
    serve_parser.add_argument("--language", choices=("en", "fr"), default="en")
    serve_parser.add_argument("--finished-idle", type=float, default=None, metavar="SECONDS",
                              help="how long a revealed or closed room nobody looks at stays in memory (default "
                                   "600); it comes back from the file when opened")
    serve_parser.add_argument("--draw-workers", type=int, default=0, metavar="N",
                              help="processes that draw the students' tables on other cores (default 0: the server's "
                                   "loop draws them); on a machine of 4 cores or more, try 2")
    serve_parser.add_argument("--per-address", type=int, default=None, metavar="N",
                              help="connections one client address may hold at once (default 64; this machine is "
                                   "not counted); a school whose students share one address needs more")
    serve_parser.add_argument("--idle-timeout", type=float, default=None, metavar="SECONDS",
                              help="how long a connection that says nothing stays open (default 180)")
    serve_parser.set_defaults(handler=serve)


async def say_drawers_started(server: ClassServer) -> None:
    started = await server.drawers_started()
    print(f"drawing the students' tables in {started} process{'es' if started != 1 else ''} "
          f"({server.draw_workers} asked)", flush=True)


def serve(arguments: argparse.Namespace) -> int:
    need("tornado", "The class server")
    from .client import TeacherClient
    from .errors import ClassroomError
    from .server import ClassServer
    from .store import DatabaseInUse, StorageError

    host = arguments.host or ("0.0.0.0" if arguments.network else "127.0.0.1")
    rooms = []
    for text in arguments.room:
        game, _, players = text.partition(":")
        if not players.isdigit():
            print(f"--room is GAME:PLAYERS, a game and its number of seats, not {text!r}", file=sys.stderr)
            return 2
        rooms.append((game, int(players)))
    classes = []
    for text in arguments.classes:
        game, _, size = text.partition(":")
        if size and not size.isdigit():
            print(f"--class is GAME or GAME:SIZE, a game and its table size, not {text!r}", file=sys.stderr)
            return 2
        classes.append((game, int(size) if size else None))
    bounds = {name: value for name, value in (("finished_idle", arguments.finished_idle),
                                              ("per_address", arguments.per_address),
                                              ("idle_timeout", arguments.idle_timeout)) if value is not None}
    try:
        server = ClassServer(arguments.db, host=host, port=arguments.port, public_url=arguments.public_url,
                             draw_workers=arguments.draw_workers, **bounds)
    except ValueError as error:
        flag = "--" + str(error).split(" ", 1)[0].replace("_", "-")
        print(f"{flag}: {error}", file=sys.stderr)
        return 2

    def ready(server: ClassServer) -> None:
        client = TeacherClient(server.url, server.teacher_token)
        connect = f"classroom.connect({server.url!r}, {server.teacher_token!r})"
        # Listed before the address is printed: a program that reads it (the class bench) and opens rooms at once
        # had its new rooms listed as reopened.
        still_open = [client.room(room["code"]) for room in client.rooms() if not room["closed"] and not room["over"]]
        print(f"serving on {server.url}/ (students: {server.public_url}/, database {arguments.db})", flush=True)
        print(f"teacher token: {server.teacher_token}", flush=True)
        print(f"in a notebook: {connect}", flush=True)
        if still_open:
            print(f"reopened {len(still_open)} open room(s) of {arguments.db}"
                  + (" (no new room: --new-room opens one beside them)" if rooms and not arguments.new_room else ""),
                  flush=True)
        for room in still_open:
            print_room(room, connect)
        if still_open and not arguments.new_room:
            rooms.clear()
        for game, players in rooms:
            try:
                room = client.create_room(game, players, seed=arguments.seed, language=arguments.language,
                                          draw_seats=arguments.draw_seats, beliefs=arguments.beliefs,
                                          scoring=arguments.scoring, move_time_limit=arguments.move_time_limit)
            except ClassroomError as error:
                print(f"room {game}:{players} not opened: {error}", file=sys.stderr, flush=True)
                continue
            print_room(room, connect)
        kept = list(client.call("GET", "/api/classes")["classes"])
        for klass in kept:
            print_class(klass, connect, server.url, server.teacher_token)
        if kept and not arguments.new_room:
            classes.clear()  # reopened, as rooms are: --new-room opens the --class classes beside them
        for game, size in classes:
            try:
                klass = client.create_class(game, language=arguments.language, seed=arguments.seed,
                                            beliefs=arguments.beliefs, scoring=arguments.scoring,
                                            move_time_limit=arguments.move_time_limit,
                                            **({} if size is None else {"preferred": size}))
            except ClassroomError as error:
                print(f"class {game} not opened: {error}", file=sys.stderr, flush=True)
                continue
            print_class(klass, connect, server.url, server.teacher_token)
        print("stop: Ctrl-C here (the rooms stay in the file: the same command reopens them)", flush=True)
        if server.draw_workers:
            assert server.loop is not None
            server.loop.create_task(say_drawers_started(server))

    tune_for_serving()
    signal.signal(signal.SIGTERM, lambda *_: server.loop.call_soon_threadsafe(server.loop.stop)
                  if server.loop else None)
    try:
        server.run(ready=_in_background(ready))
    except KeyboardInterrupt:
        pass
    except (DatabaseInUse, StorageError) as error:  # one sentence, not a traceback
        print(error, file=sys.stderr, flush=True)
        return 2
    if server.move_waits.moves:
        print(server.move_waits.summary(), flush=True)
    print("stopped", flush=True)
    return 0


#: The garbage collector's thresholds in a `serve` process (Python's default: 700, 10, 10).
COLLECTOR_THRESHOLDS = (20_000, 50, 50)

#: Seconds a thread holds the interpreter before one waiting for it gets it (Python's default: 0.005).
SWITCH_INTERVAL = 0.0002


def tune_for_serving() -> None:
    """Tune the interpreter of the server's own process (a notebook's server, in the kernel's process, leaves
    the kernel's interpreter as it is).

    The cycle collector runs far less often: a class's rooms keep every seat's view and table of the current
    step, so most young objects live a step, and the default thresholds made a full collection (about 0.2 s with
    the event loop stopped) every second or two of a busy class, about 40 % of the server's CPU
    (`benchmarks/bench_classroom.py --rooms 50 --think 0-3`). Nearly all garbage is freed at once by reference
    counting; the rest waits longer.

    The writer thread gets the interpreter back sooner: it needs it between every two SQLite calls of a commit,
    and waited up to one switch interval each time while the loop drew tables. With 5 ms, a group commit of
    0.6 ms took 48 ms at p95; with 1 ms, a move waited 15 ms (p50) and 124 ms (p95) from its submission to its
    commit; with 0.2 ms, 2.9 and 11.6 ms. The loop only gives the interpreter up when the writer asks for it."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)


def print_room(room: dict[str, Any], connect: str) -> None:
    """A room's code, links and dashboard call, as the teacher needs them at the start of a class."""
    state = "over" if room["over"] else f"step {room['step']}" if room["started"] else \
        f"{sum(seat['name'] is not None for seat in room['seats'])} of {len(room['seats'])} seated"
    limit = f", {room['move_time_limit']:g} s per move" if room.get("move_time_limit") else ""
    print(f"room {room['code']} ({room['title']}, {len(room['seats'])} seats{limit}, {state}): join at "
          f"{room['join_url']}", flush=True)
    print(f"  dashboard: {connect}.dashboard({room['code']!r})", flush=True)
    print(f"  projector: {room['watch_url']}", flush=True)
    for seat in room["seats"]:
        who = f" ({seat['name']})" if seat["name"] is not None else ""
        print(f"  seat {seat['seat']}{who}: {seat['link']}", flush=True)


def print_class(klass: dict[str, Any], connect: str, url: str, token: str) -> None:
    """A class's code and join link (one for every student), its dashboard page (the teacher's key in the
    fragment, which the browser never sends), and its calls in a notebook."""
    print(f"class {klass['code']} ({klass['title']}, tables of about {klass['preferred']}): join at "
          f"{klass['join_url']}", flush=True)
    print(f"  class dashboard (yours alone): {url}/t/{klass['code']}#token={token}", flush=True)
    print(f"  start a round: {connect}.class_command({klass['code']!r}, 'start_round')", flush=True)


def _in_background(ready: Any) -> Any:
    """Call `ready(server)` from a thread once the loop runs (it makes HTTP calls to the server itself)."""
    import threading

    def start(server: ClassServer) -> None:
        assert server.loop is not None
        server.loop.call_soon(lambda: threading.Thread(target=ready, args=(server,), daemon=True).start())
    return start
