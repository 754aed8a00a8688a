"""Class play: every student on their own phone or laptop, each seeing only their own seat.

From a notebook::

    from tabletop_edu import classroom
    room = classroom.open("mafia_de_cuba", players=8)   # starts the server in the background, 127.0.0.1
    room                                                 # the teacher's dashboard: links, QR codes, views
    klass = classroom.open_class("get_adler", preferred=5)   # a whole class: one code, tables formed at the start
    klass.start_round(); klass.tables()                  # each table a room's dashboard
    klass.debrief()                                      # the whole class's debrief, every table and round

Students open their seat's link (or the join page with the room code and a name) and play by tapping.
`classroom.open(..., network=True)` listens on the classroom network instead of this machine only.

From a shell: ``python -m tabletop_edu serve --port 8000`` (see `cli.py`), then in a notebook
``classroom.connect("http://127.0.0.1:8000", token).open("get_adler", players=5)``.

A student's notebook seats a bot at a room instead of tapping (a class tournament of its own bots)::

    seat = classroom.join("http://192.168.1.20:8000", "K7QPX", MyBot(), name="Ada's bot")
    seat.wait_until_over(600); seat.moves, seat.error

Everything played is in an SQLite file (`db=`, default ``tabletop_notebook.sqlite3``; `serve`'s is
``tabletop_classroom.sqlite3``, so the two never share a file by accident): stop or kill the server, start it
again on the same file, and every room goes on where it was. One server per file: a second one refuses at
once, naming the first's address (`classroom.connect(url, db=file)` then works with its rooms). `room.games()` hands the
class's games to the analysis tools (tournament tables, information flow, posteriors, pandas).

Modules: the rules of the server, no web: `rooms` (a room, its seats and names), `hall` (every room: found, joined,
the teacher's controls), `tables` (a class's tables formed, a pure function), `classes` (a class of many tables: one
code, rounds whose tables are the hall's rooms), `commits` (moves and changes committed, then made), `belief_desk`
(beliefs asked and stored); `store` (SQLite); `pages` (what a seat sees: built from its view only), `belief_pages`
(a seat's belief questions), `debrief_page` (the debrief's HTML, one template for a table and a class); the server
(Tornado): `server` (its life and connections), `handlers` (every address), `class_handlers` (a class's join and
waiting pages, its teacher API), `throttles`, `connections`, `draw_queue` (tables drawn and sent), `drawing` (the
drawing workers), `turns` (bots and time limits), `belief_feed` (beliefs and the debrief shown); `client` (the
teacher's and a seat's clients), `dashboard` (the ipywidgets dashboard), `class_board` (a class in the notebook),
`student_bots` (`join`), `export` (analysis), `debrief` (the class's beliefs analysed), `class_debrief` (a whole
class's pooled over its tables and rounds), `cli` (`serve`), `testing` (the leak check, a server process to kill and
restart, students who tap through the protocol and state beliefs).
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..extras import need

if TYPE_CHECKING:
    from .client import TeacherClient
    from .errors import ClassroomError
    from .rooms import Refused
    from .server import ClassServer
    from .store import DatabaseInUse, StorageError, teacher_token_of
    from .student_bots import SeatedBot, join

#: The names this package hands out, imported when first asked for: the command line's `games` and `simulate`
#: and the analysis modules here (`export`) run without tornado (the classroom extra).
_LAZY = {"ClassServer": "server", "ClassroomError": "errors", "TeacherClient": "client", "Refused": "rooms",
         "SeatedBot": "student_bots", "join": "student_bots",
         "DatabaseInUse": "store", "StorageError": "store", "teacher_token_of": "store"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if module != "store":  # the database alone needs no web server
        need("tornado", "The class server")
    return getattr(importlib.import_module(f".{module}", __name__), name)


#: The notebook's file; `python -m tabletop_edu serve` uses another (cli.py), so they never collide unasked.
DEFAULT_DB = "tabletop_notebook.sqlite3"

_servers: dict[str, ClassServer] = {}
_lock = threading.Lock()


def start(db: str | Path = DEFAULT_DB, *, port: int = 0, network: bool = False, host: str | None = None,
          public_url: str | None = None, draw_workers: int = 0) -> ClassServer:
    """The class server of this kernel on `db`, started in the background once and reused after.

    `port=0` takes any free port (`server.port` says which); `network=True` listens on every address of this
    machine, so that phones on the classroom network reach it (links then use this machine's address, or
    `public_url`). `draw_workers`: processes that draw the students' tables on the machine's other cores (0: the
    server's loop draws them; see `serve --draw-workers`)."""
    ClassServer = __getattr__("ClassServer")  # noqa: N806 (the class, imported now: it needs tornado)
    key = str(Path(db).resolve())
    with _lock:
        server = _servers.get(key)
        if server is None or server.loop is None or not server.loop.is_running():
            server = ClassServer(db, host=host or ("0.0.0.0" if network else "127.0.0.1"), port=port,
                                 public_url=public_url, draw_workers=draw_workers).start()
            _servers[key] = server
        return server


def stop_all() -> None:
    """Stop every server this kernel started (rooms stay in their database files)."""
    with _lock:
        for server in _servers.values():
            server.stop()
        _servers.clear()


def connect(url: str, token: str | None = None, *, db: str | Path | None = None) -> TeacherClient:
    """The teacher's client of a server started elsewhere: with the token `python -m tabletop_edu serve`
    printed, or, on the same machine, with `db=` the server's database file (which holds the token)."""
    if token is None:
        if db is None:
            raise TypeError("connect(url, token) needs the teacher's token, or db= the server's database file.")
        token = __getattr__("teacher_token_of")(db)
    return __getattr__("TeacherClient")(url, token)


def open(game: str, players: int, *, seed: int | None = None, rules: dict[str, Any] | None = None,  # noqa: A001
         language: str = "en", bots: dict[int, str] | None = None, bot_delay: float = 0.8,
         db: str | Path = DEFAULT_DB, port: int = 0, network: bool = False,
         public_url: str | None = None, draw_seats: bool = False, beliefs: bool = False,
         scoring: str = "brier", move_time_limit: float | None = None) -> Any:
    """Open a room of `game` for `players` seats on this kernel's server and return its dashboard widget.

    `bots` seats bots at once ({seat: "greedy"}); the dashboard seats more. The game starts when every seat
    is filled. `draw_seats=True` seats students who join by code at random (from the seed), not in arrival order.
    `beliefs=True` asks the students what they believe (who is Adler?) at the moments the game sets and when the
    dashboard asks, scored by `scoring` ("brier", the default, or "log") and shown beside the posteriors of their
    own views under each model of play once the table is revealed.
    `move_time_limit`: seconds a student has for each move; then a bot plays it for them (and their page says so)."""
    server = start(db, port=port, network=network, public_url=public_url)
    client = __getattr__("TeacherClient")(server.url, server.teacher_token)
    room = client.create_room(game, players, seed=seed, rules=rules, language=language, bots=bots,
                              bot_delay=bot_delay, draw_seats=draw_seats, beliefs=beliefs, scoring=scoring,
                              move_time_limit=move_time_limit)
    return client.dashboard(room["code"], language=language)


def open_class(game: str, *, preferred: int | None = None, language: str = "en", db: str | Path = DEFAULT_DB,
               port: int = 0, network: bool = False, public_url: str | None = None, **options: Any) -> Any:
    """Open a class of `game` on this kernel's server: one code and link for the whole class, tables of about
    `preferred` players formed when the teacher starts a round. Returns its `ClassBoard` (`.code`, `.link`, `.qr`,
    `.students()`, `.start_round()`, `.tables()`: each table a room's dashboard). `options`: those of
    `classes.ClassDesk.open_class` (fill, placement, regroup, students, seed, bot) and of its rooms (bot_delay,
    beliefs, scoring, move_time_limit, rules)."""
    from .class_board import ClassBoard

    server = start(db, port=port, network=network, public_url=public_url)
    client = __getattr__("TeacherClient")(server.url, server.teacher_token)
    if preferred is not None:
        options["preferred"] = preferred
    return ClassBoard.open(client, game, language=language, **options)


__all__ = ["ClassServer", "ClassroomError", "DatabaseInUse", "Refused", "SeatedBot", "StorageError", "TeacherClient",
           "connect", "join", "open", "open_class", "start", "stop_all"]
