"""`python -m tabletop_edu serve`: the class server in the foreground of a shell.

    python -m tabletop_edu serve --port 8000                   # this machine only (127.0.0.1)
    python -m tabletop_edu serve --port 8000 --network         # phones on the classroom network too
    python -m tabletop_edu serve --room mafia_de_cuba:8 --room get_adler:5 --db class.sqlite3

It prints the address, the teacher's token (for `classroom.connect(url, token)` in a notebook) and, for each
room opened with `--room`, its code and its seats' links. `/` is the join page: students type the room code
and a name. Port 0 takes any free port; the line "serving on http://HOST:PORT/" says which.
"""

from __future__ import annotations

import argparse
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
    serve_parser.add_argument("--seed", type=int, default=None, help="seed of the rooms opened with --room")
    serve_parser.add_argument("--language", choices=("en", "fr"), default="en")
    serve_parser.set_defaults(handler=serve)


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
    server = ClassServer(arguments.db, host=host, port=arguments.port, public_url=arguments.public_url)

    def ready(server: ClassServer) -> None:
        client = TeacherClient(server.url, server.teacher_token)
        print(f"serving on {server.url}/ (students: {server.public_url}/, database {arguments.db})", flush=True)
        print(f"teacher token: {server.teacher_token}", flush=True)
        print(f"in a notebook: classroom.connect({server.url!r}, {server.teacher_token!r})", flush=True)
        for game, players in rooms:
            try:
                room = client.create_room(game, players, seed=arguments.seed, language=arguments.language)
            except ClassroomError as error:
                print(f"room {game}:{players} not opened: {error}", file=sys.stderr, flush=True)
                continue
            print(f"room {room['code']} ({room['title']}, {players} seats): join at {room['join_url']}", flush=True)
            print(f"  projector: {room['watch_url']}", flush=True)
            for seat in room["seats"]:
                print(f"  seat {seat['seat']}: {seat['link']}", flush=True)

    signal.signal(signal.SIGTERM, lambda *_: server.loop.call_soon_threadsafe(server.loop.stop)
                  if server.loop else None)
    try:
        server.run(ready=_in_background(ready))
    except KeyboardInterrupt:
        pass
    except (DatabaseInUse, StorageError) as error:  # one sentence, not a traceback
        print(error, file=sys.stderr, flush=True)
        return 2
    print("stopped", flush=True)
    return 0


def _in_background(ready: Any) -> Any:
    """Call `ready(server)` from a thread once the loop runs (it makes HTTP calls to the server itself)."""
    import threading

    def start(server: ClassServer) -> None:
        assert server.loop is not None
        server.loop.call_soon(lambda: threading.Thread(target=ready, args=(server,), daemon=True).start())
    return start
