"""The durable truth of the class server: one SQLite file (stdlib `sqlite3`).

Every change a person could be told of (a seat claimed, a bot seated, a move, a pause, a reveal) is committed
here before any client hears of it (by one writer thread, `Writer`, which commits what is queued in groups),
so a hard kill of the server loses nothing that anyone saw. On start the rooms are rebuilt from these rows:
the game from its seed, rules and seat names, then its moves replayed in order (`GameState.apply`), which
gives back exactly the same state.

Tables:

- `meta(key, value)`: the teacher's token; `draw_seats:CODE` for a room whose students are seated at random;
  `move_time_limit:CODE`, a room's seconds per move.
- `rooms`: one row per room: code, game package, seat count, seed, rules (JSON), language, bot delay, the
  projector's token, and the flags started / paused / revealed / closed.
- `seats`: one row per seat: its token (the credential in its link), the name it plays under and its bot.
- `actions(room, step, seat, action, actor, at)`: one row per move; `(room, step)` is the primary key, so
  even a bug upstream could not store two moves for one step.
- `expired`: tokens that were valid once (a seat's link replaced, a closed room), so that they are refused
  as expired rather than unknown.
- `beliefs(room, step, seat, key, question, belief, posterior, at)`: one row per belief a student stated (the
  question, their probabilities and the exact posterior of their view at that step, as JSON), committed before
  the seat is told it was received; `(room, seat, key)` is the primary key: one answer per question (a key
  names its moment: "adler@h3"). A room's belief options are `meta` entries: `beliefs:CODE` (its scoring rule, when it asks) and
  `beliefs_asked:CODE` (the steps at which the teacher asked, a JSON list).

The file uses write-ahead logging with `synchronous=FULL`: a committed move survives a killed process (and
a power cut).

One writer per database *file*, whatever its name: a server holds `WriterLock`, a lock on a byte of the database
file itself (past SQLite's own), for as long as it runs, so a second server on the same file refuses at once and
says where the first one is, instead of both handing out the same seats; a hard link, a symlink or a removed
`<file>.lock` note changes nothing (the lock is the file's, not its name's).

Storage that fails is loud: a file this process cannot write is refused at start (`write_problem`), and before
each group of writes the writer checks that the file is still the one it opened and still writable (`FileWatch`):
a file deleted, replaced or turned read-only under the server fails the writes with a `StorageError` saying so
(never a write acknowledged into a deleted file, never the SIGBUS of a write through a read-only -shm mapping).
Rows read back are checked as on the way in (`asked_steps_of`, `time_limit_of`, `check_seats`).
"""

from __future__ import annotations

import json
import logging
import math
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..core import RecordError
from ..core.errors import quote

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

T = TypeVar("T")

log = logging.getLogger("tabletop_edu.classroom")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE, game TEXT NOT NULL, seat_count INTEGER NOT NULL,
    seed INTEGER NOT NULL, rules TEXT NOT NULL, language TEXT NOT NULL, bot_delay REAL NOT NULL,
    watch_token TEXT NOT NULL UNIQUE, started INTEGER NOT NULL DEFAULT 0, paused INTEGER NOT NULL DEFAULT 0,
    revealed INTEGER NOT NULL DEFAULT 0, closed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL REFERENCES rooms(code), seat INTEGER NOT NULL, token TEXT NOT NULL UNIQUE, name TEXT,
    bot TEXT, PRIMARY KEY (room, seat));
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL REFERENCES rooms(code), step INTEGER NOT NULL, seat INTEGER NOT NULL,
    action TEXT NOT NULL, actor TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (room, step));
CREATE TABLE IF NOT EXISTS expired (token TEXT PRIMARY KEY, room TEXT NOT NULL, what TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS beliefs (
    room TEXT NOT NULL REFERENCES rooms(code), step INTEGER NOT NULL, seat INTEGER NOT NULL, key TEXT NOT NULL,
    question TEXT NOT NULL, belief TEXT NOT NULL, posterior TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (room, seat, key));
"""


#: How long the writer waits for another program's lock before giving up, in seconds. It waits in its own
#: thread, so the pages go on being served meanwhile; short all the same, so that a student soon hears
#: "storage busy" (the server then retries the move).
BUSY_TIMEOUT = 0.25
#: The pages of the file each connection keeps in memory, in KiB. SQLite's default (2,000 KiB a connection)
#: fills as the file grows over a school day: the server's memory then rose 7-10 % over 500 finished games
#: (`bench_classroom.py --finished-games 500`), flat within 2 % with this. A move touches a few pages at the end
#: of its table, and the rest is read once when a room wakes up.
PAGE_CACHE_KIB = 512


class StorageBusy(RuntimeError):
    """Another program holds the database's write lock: nothing was written; try again a little later."""


class StorageError(RuntimeError):
    """A database file that cannot be used (not a database, truncated, another program's, a directory):
    one sentence naming the file and why."""

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"{path} cannot be used as the class's database: {reason}.")


#: The files SQLite keeps beside a database in write-ahead logging: the log and its shared-memory index.
SIDE_FILES = ("-wal", "-shm")


def _writable(path: str) -> bool:
    """Whether this process may write `path`, as the kernel answers it (a read-only file system, an immutable
    file, another user's file: no; root's `chmod a-w`, which does not stop root: yes)."""
    return os.access(path, os.W_OK, effective_ids=os.access in os.supports_effective_ids)


def write_problem(path: str) -> str | None:
    """Why this process could not write the database at `path` and the files SQLite keeps beside it, or None:
    checked at start, so that a file the server cannot write is refused before a student's first move is."""
    if os.path.exists(path) and not _writable(path):
        return "it is read-only for this server (its permissions, its file system or its attributes)"
    for suffix in SIDE_FILES:
        if os.path.exists(path + suffix) and not _writable(path + suffix):
            return f"the file {os.path.basename(path)}{suffix} beside it is read-only for this server"
    folder = os.path.dirname(os.path.abspath(path))
    sides_made = all(os.path.exists(path + suffix) for suffix in SIDE_FILES)
    if os.path.isdir(folder) and not _writable(folder) and not sides_made:
        return (f"its folder {folder} is read-only for this server, and SQLite keeps two files beside the database "
                f"({', '.join(SIDE_FILES)})")
    return None


def _identity(path: str) -> tuple[int, int] | None:
    """The file `path` names (device, inode), or None when it names none."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino


class FileWatch:
    """The database file a store opened, told apart from whatever bears its name later, and whether it can still
    be written: the writer asks before each group it commits, the reader before each read (a few `stat` calls).

    A write into a deleted or replaced file would be acknowledged and lost at the next start; a write through
    SQLite's mapping of a read-only -shm file kills the process with SIGBUS (readers write there too)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.identity = _identity(path)
        self._sides = {suffix: _identity(path + suffix) for suffix in SIDE_FILES}

    def problem(self) -> str | None:
        """Why the file must not be written now, or None. Deleted and replaced are for good (the name now
        leads elsewhere); read-only lasts as long as the file is."""
        try:
            return self._change()
        except OSError as error:
            return f"it cannot be checked any more ({error.strerror})"

    def _change(self) -> str | None:
        """`problem`, its `stat` calls free to raise."""
        found = _identity(self.path)
        if found is None:
            return ("it was deleted while being served, so nothing more is written (what was saved before is in the "
                    "deleted file, which a restart will not find)")
        if found != self.identity:
            return ("it was replaced by another file while being served, so nothing more is written to either "
                    "(restart the server to serve the file now at this name)")
        for suffix, known in self._sides.items():
            side = _identity(self.path + suffix)
            if known is None:
                self._sides[suffix] = side  # SQLite made it since
            elif side != known:
                return (f"its file {os.path.basename(self.path)}{suffix} was deleted or replaced while being "
                        "served, so nothing more is written (restart the server)")
        names = [self.path, *(self.path + suffix for suffix, known in self._sides.items() if known is not None)]
        if not all(_writable(name) for name in names):
            return ("it turned read-only while being served, so nothing more is written until it can be written "
                    "again")
        holder = _HELD.get(self.identity) if self.identity is not None else None
        if holder is not None and not holder.held():
            return "another class server took its lock while this one served it, so nothing more is written"
        return None

    def reads_are_safe(self) -> bool:
        """Whether a read may write SQLite's shared-memory index (a new snapshot marks its place there): not
        through the mapping of a file turned read-only (SIGBUS)."""
        side = self.path + "-shm"
        return _writable(side) or not os.path.exists(side)


@dataclass(frozen=True)
class RoomRow:
    """A room as stored (see the module docstring)."""

    code: str
    number: int
    game: str
    seat_count: int
    seed: int
    rules: dict[str, Any]
    language: str
    bot_delay: float
    watch_token: str
    started: bool
    paused: bool
    revealed: bool
    closed: bool


@dataclass(frozen=True)
class BrokenRoom:
    """A room row that cannot be read (its rules are not JSON, a field has the wrong type): kept on disk,
    listed to the teacher with `reason`, and the other rooms serve on."""

    code: str
    number: int | None
    reason: str


#: The columns of each table, as this version writes them (a file with others is not a class server's).
COLUMNS = {
    "meta": ("key", "value"),
    "rooms": ("code", "number", "game", "seat_count", "seed", "rules", "language", "bot_delay", "watch_token",
              "started", "paused", "revealed", "closed"),
    "seats": ("room", "seat", "token", "name", "bot"),
    "actions": ("room", "step", "seat", "action", "actor", "at"),
    "expired": ("token", "room", "what"),
    "beliefs": ("room", "step", "seat", "key", "question", "belief", "posterior", "at"),
}


@dataclass(frozen=True)
class SeatRow:
    room: str
    seat: int
    token: str
    name: str | None
    bot: str | None


@dataclass(frozen=True)
class ActionRow:
    room: str
    step: int
    seat: int
    action: str
    actor: str
    at: float


@dataclass(frozen=True)
class BeliefRow:
    """One belief a student stated: the question (`BeliefQuestion.to_json()`), their probabilities and the
    exact posterior of their seat's view at `step`, by option."""

    room: str
    step: int
    seat: int
    key: str
    question: dict[str, Any]
    belief: dict[str, float]
    posterior: dict[str, float]
    at: float


def set_connection_pragmas(connection: sqlite3.Connection) -> None:
    """What SQLite sets per connection, not in the file: the same on the writer's and the reader's."""
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")


class Writer:
    """The one thread that writes the file, over a connection of its own; the reads stay on the caller's.

    Group commit: whatever is queued when the thread comes round is written in ONE transaction (one sync to
    disk for a whole class's moves, instead of one each), every job in a savepoint of its own so that a job that
    fails (a constraint) takes back its own rows only. A job's future is done after the COMMIT: its result, or
    its error; `StorageBusy` for every job of the group when another program held the lock for longer than
    `busy_timeout` (then nothing of the group is written)."""

    def __init__(self, path: str, busy_timeout: float) -> None:
        self.path = path
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=busy_timeout)
        set_connection_pragmas(self.connection)
        self.writing = 0  # jobs of the group being written now (set by the writer thread only)
        self.watch = FileWatch(path)
        self.problem: str | None = None  # why the last group was refused, logged once each time it changes
        self._queue: queue.SimpleQueue[tuple[Callable[[sqlite3.Connection], Any], Future[Any]] | None] = \
            queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=f"classroom-writer-{Path(path).name}", daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[sqlite3.Connection], T]) -> Future[T]:
        future: Future[T] = Future()
        if not self._thread.is_alive():
            future.set_exception(StorageError(self.path, "it is closed"))
            return future
        self._queue.put((job, future))
        return future

    @property
    def queued(self) -> int:
        """Jobs waiting for the thread (not counting the group it is writing now)."""
        return self._queue.qsize()

    def close(self) -> None:
        """Write what is queued, then stop the thread and close its connection."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        self.connection.close()

    def _run(self) -> None:
        while self._write_group():
            pass

    def _write_group(self) -> bool:
        """Commit the next job and everything queued meanwhile as one group; False once told to stop. Nothing of
        the group is kept while the writer waits for the next (a job's future holds its waiters' callbacks, and
        they the rooms they change)."""
        first = self._queue.get()
        group = [first]
        while first is not None and not self._queue.empty():  # everything queued meanwhile joins the group
            group.append(self._queue.get())
        jobs = [item for item in group if item is not None]
        if jobs:
            self.writing = len(jobs)
            self._commit(jobs)
            self.writing = 0
        return len(jobs) == len(group)

    def _refused(self, jobs: list[tuple[Callable[[sqlite3.Connection], Any], Future[Any]]]) -> bool:
        """Fail the group with `StorageError` if the file must not be written now (`FileWatch.problem`); say so
        in the log once each time the reason changes, and once when the file can be written again."""
        problem = self.watch.problem()
        if problem != self.problem:
            if problem is not None:
                log.error("%s", StorageError(self.path, problem))
            else:
                log.warning("%s can be written again: the writes go on.", self.path)
            self.problem = problem
        if problem is None:
            return False
        for _, future in jobs:
            future.set_exception(StorageError(self.path, problem))
        return True

    def _commit(self, jobs: list[tuple[Callable[[sqlite3.Connection], Any], Future[Any]]]) -> None:
        if self._refused(jobs):
            return
        db = self.connection
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            failure = _busy_or(error)
            for _, future in jobs:
                future.set_exception(failure)
            return
        outcomes: list[tuple[bool, Any]] = []
        for job, _ in jobs:
            db.execute("SAVEPOINT job")
            try:
                outcomes.append((True, job(db)))
            except BaseException as error:  # noqa: BLE001 - the job's own failure, handed to whoever waits on it
                db.execute("ROLLBACK TO job")
                outcomes.append((False, _busy_or(error)))
            db.execute("RELEASE job")
        try:
            db.execute("COMMIT")
        except sqlite3.Error as error:  # a disk full, an I/O error: nothing of the group is written
            if db.in_transaction:
                db.execute("ROLLBACK")
            failure = _busy_or(error)
            outcomes = [(False, failure)] * len(jobs)
        for (_, future), (done, value) in zip(jobs, outcomes):
            if done:
                future.set_result(value)
            else:
                future.set_exception(value)


class Store:
    """The SQLite file of a class server: reads on the caller's thread (the server's event loop), writes by
    its `Writer` thread (`submit`, `write`)."""

    def __init__(self, path: str | Path, *, busy_timeout: float = BUSY_TIMEOUT) -> None:
        """Open (or create) the file; a file that is no class database raises `StorageError`, one sentence.
        `busy_timeout`: how long the writer waits for a lock another program holds."""
        self.path = str(path)
        if Path(self.path).is_dir():
            raise StorageError(self.path, "it is a directory")
        unwritable = write_problem(self.path)
        if unwritable is not None:
            raise StorageError(self.path, unwritable)
        try:
            self.connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                              timeout=BUSY_TIMEOUT)
        except sqlite3.Error as error:
            raise StorageError(self.path, f"it cannot be opened ({error})") from None
        try:
            self._prepare()
        except BaseException:
            self.connection.close()
            raise
        self.writer = Writer(self.path, busy_timeout)

    def _prepare(self) -> None:
        try:
            self._check()  # before anything is written: a file that is not ours is left as it was
            self.connection.execute("PRAGMA journal_mode=WAL")  # the file's, kept by it
            set_connection_pragmas(self.connection)
            self.connection.executescript(SCHEMA)
        except sqlite3.Error as error:
            reason = str(error)
            if "not a database" in reason or "malformed" in reason:
                reason = "it is not an SQLite database, or it is damaged or cut short"
            raise StorageError(self.path, reason) from None

    def _check(self) -> None:
        """Refuse a damaged file, or another program's database (its tables are not all a class server's)."""
        check = self.connection.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise StorageError(self.path, f"it is damaged ({check[0] if check else 'no check result'})")
        tables = {row[0] for row in self.connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        strangers = sorted(tables - set(COLUMNS))
        if strangers:
            raise StorageError(self.path, f"it holds tables of another program ({', '.join(strangers)[:100]})")
        for table in sorted(tables):
            found = tuple(row[1] for row in self.connection.execute(f"PRAGMA table_info({table})"))
            if found != COLUMNS[table]:
                raise StorageError(self.path, f"its table {table} has the columns {', '.join(found)[:100]}, not a "
                                   "class server's: it belongs to another program")

    def close(self) -> None:
        """Commit what is queued, stop the writer, close both connections."""
        self.writer.close()
        self.connection.close()

    @property
    def problem(self) -> str | None:
        """Why the file cannot be written now (deleted, replaced, read-only: `FileWatch`), or None: for the
        teacher's page, checked when asked."""
        return self.writer.watch.problem()

    def _read(self, sql: str, parameters: Sequence[Any] = ()) -> sqlite3.Cursor:
        """A query on the reader's connection, refused with `StorageError` rather than read through the mapping
        of a -shm file turned read-only (`FileWatch.reads_are_safe`)."""
        if not self.writer.watch.reads_are_safe():
            raise StorageError(self.path, "it turned read-only while being served, so it cannot be read safely")
        return self.connection.execute(sql, parameters)

    def submit(self, job: Callable[[sqlite3.Connection], T]) -> Future[T]:
        """Queue `job(connection)` for the writer thread; the future is done once it is committed (or failed:
        `StorageBusy`, or the job's own error, with nothing of it written). The server's loop awaits it
        (`asyncio.wrap_future`), so no write ever holds the loop up."""
        return self.writer.submit(job)

    def write(self, job: Callable[[sqlite3.Connection], T]) -> T:
        """`job(connection)` committed, waited for here (code without an event loop: tests, scripts, the
        teacher's rare controls)."""
        return self.writer.submit(job).result()

    # ---------------------------------------------------------------- meta

    def meta(self, key: str) -> str | None:
        row = self._read("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.write(meta_job(key, value))

    # ---------------------------------------------------------------- writes (the rooms' jobs are below the class)

    def submit_fill(self, room: str, seat: int, *, name: str, bot: str | None) -> Future[bool]:
        """`fill_job`, queued for the writer."""
        return self.submit(fill_job(room, seat, name, bot))

    def add_action(self, room: str, step: int, seat: int, action: str, actor: str) -> float:
        """One move, committed before this returns (code without an event loop); see `submit_action`."""
        return self.submit_action(room, step, seat, action, actor).result()

    def submit_action(self, room: str, step: int, seat: int, action: str, actor: str) -> Future[float]:
        """One move, queued for the writer (`submit_actions`)."""
        return self.submit_actions(room, [(step, seat, action, actor)])

    def submit_actions(self, room: str, moves: Sequence[tuple[int, int, str, str]]) -> Future[float]:
        """Moves of one room, each (step, seat, action, actor), queued for the writer as one job: all stored or
        none. The future gives the time stored with them (for analysis of thinking times, never for the game
        itself) once they are committed; nobody may be told of them before."""
        at = time.time()
        rows = [(room, step, seat, action, actor, at) for step, seat, action, actor in moves]

        def job(db: sqlite3.Connection) -> float:
            db.executemany("INSERT INTO actions (room, step, seat, action, actor, at) VALUES (?,?,?,?,?,?)", rows)
            return at

        return self.submit(job)

    def add_belief(self, room: str, step: int, seat: int, question: Mapping[str, Any], belief: Mapping[str, float],
                   posterior: Mapping[str, float]) -> BeliefRow:
        """One stated belief, committed before this returns (code without an event loop); see `submit_belief`."""
        return self.submit_belief(room, step, seat, question, belief, posterior).result()

    def submit_belief(self, room: str, step: int, seat: int, question: Mapping[str, Any],
                      belief: Mapping[str, float], posterior: Mapping[str, float]) -> Future[BeliefRow]:
        """One stated belief, queued for the writer like a move (`submit_action`): the seat is told it was
        received only once the future is done, after the commit."""
        at = time.time()
        row = BeliefRow(room, step, seat, str(question["key"]), dict(question), dict(belief), dict(posterior), at)

        def job(db: sqlite3.Connection) -> BeliefRow:
            db.execute("INSERT INTO beliefs (room, step, seat, key, question, belief, posterior, at) "
                       "VALUES (?,?,?,?,?,?,?,?)", (room, step, seat, row.key, json.dumps(row.question),
                                                    json.dumps(row.belief), json.dumps(row.posterior), at))
            return row

        return self.submit(job)

    # ---------------------------------------------------------------- reads

    def rooms(self) -> list[RoomRow | BrokenRoom]:
        """Every room, each read on its own: a row that cannot be read is a `BrokenRoom` saying why."""
        rows = self._read(
            "SELECT code, number, game, seat_count, seed, rules, language, bot_delay, watch_token, started, "
            "paused, revealed, closed FROM rooms ORDER BY number").fetchall()
        return [_room_row(row) for row in rows]

    def room(self, code: str) -> RoomRow | BrokenRoom | None:
        """One room, read back (a sleeping room opened again), or None if there is none with this code."""
        row = self._read(
            "SELECT code, number, game, seat_count, seed, rules, language, bot_delay, watch_token, started, "
            "paused, revealed, closed FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else _room_row(row)

    def room_of_token(self, token: str) -> str | None:
        """The code of the room a seat's or projector's token opens, or None."""
        row = self._read("SELECT room FROM seats WHERE token = ? UNION ALL "
                                      "SELECT code FROM rooms WHERE watch_token = ?", (token, token)).fetchone()
        return None if row is None else str(row[0])

    def step_count(self, room: str) -> int:
        row = self._read("SELECT COUNT(*) FROM actions WHERE room = ?", (room,)).fetchone()
        return int(row[0])

    def seats(self, room: str) -> list[SeatRow]:
        rows = self._read("SELECT room, seat, token, name, bot FROM seats WHERE room = ? "
                                       "ORDER BY seat", (room,)).fetchall()
        return [SeatRow(*row) for row in rows]

    def actions(self, room: str) -> list[ActionRow]:
        rows = self._read("SELECT room, step, seat, action, actor, at FROM actions WHERE room = ? "
                                       "ORDER BY step", (room,)).fetchall()
        return [ActionRow(*row) for row in rows]

    def beliefs(self, room: str) -> list[BeliefRow]:
        """A room's stated beliefs, in the order they were stated."""
        rows = self._read("SELECT room, step, seat, key, question, belief, posterior, at FROM beliefs "
                                       "WHERE room = ? ORDER BY rowid", (room,)).fetchall()
        return [BeliefRow(code, step, seat, key, json.loads(question), json.loads(belief), json.loads(posterior), at)
                for code, step, seat, key, question, belief, posterior, at in rows]

    def expired(self, token: str) -> str | None:
        """What an expired token was for, or None if it never expired."""
        row = self._read("SELECT what FROM expired WHERE token = ?", (token,)).fetchone()
        return None if row is None else str(row[0])

    def expired_room(self, token: str) -> str | None:
        """The code of the room an expired token was of, or None if it never expired."""
        row = self._read("SELECT room FROM expired WHERE token = ?", (token,)).fetchone()
        return None if row is None else str(row[0])


# ------------------------------------------------------------------------------------------ writes

#: A write of the file: run by the writer thread on its connection, in the transaction of its group
#: (`Store.submit` queues one; the class server's loop awaits it, `Store.write` waits for it).
Job = Callable[[sqlite3.Connection], T]


def meta_job(key: str, value: str) -> Job[None]:
    def job(db: sqlite3.Connection) -> None:
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    return job


def room_job(room: RoomRow, seats: Sequence[SeatRow], meta: Mapping[str, str] | None = None) -> Job[None]:
    """A new room, its seats and its `meta` entries (options kept beside the rooms' columns), at once."""
    def job(db: sqlite3.Connection) -> None:
        db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", list((meta or {}).items()))
        db.execute("INSERT INTO rooms (code, number, game, seat_count, seed, rules, language, bot_delay, "
                   "watch_token, started, paused, revealed, closed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                   (room.code, room.number, room.game, room.seat_count, room.seed, json.dumps(room.rules),
                    room.language, room.bot_delay, room.watch_token, int(room.started), int(room.paused),
                    int(room.revealed), int(room.closed)))
        db.executemany("INSERT INTO seats (room, seat, token, name, bot) VALUES (?,?,?,?,?)",
                       [(seat.room, seat.seat, seat.token, seat.name, seat.bot) for seat in seats])

    return job


def seat_job(room: str, seat: int, name: str | None, bot: str | None) -> Job[None]:
    """A seat's name and bot (a bot taken off a seat: it starts no game)."""
    def job(db: sqlite3.Connection) -> None:
        db.execute("UPDATE seats SET name = ?, bot = ? WHERE room = ? AND seat = ?", (name, bot, room, seat))

    return job


def fill_job(room: str, seat: int, name: str, bot: str | None) -> Job[bool]:
    """Give a seat its name and bot and, in the same transaction, start the room if no seat of the file is empty
    any more: the job says whether this fill started it. The file decides, not the caller: when a class joins at
    once, each fill sees the ones committed before it, whatever order the server's loop heard of them."""
    def job(db: sqlite3.Connection) -> bool:
        db.execute("UPDATE seats SET name = ?, bot = ? WHERE room = ? AND seat = ?", (name, bot, room, seat))
        started = db.execute("UPDATE rooms SET started = 1 WHERE code = ? AND started = 0 AND NOT EXISTS "
                             "(SELECT 1 FROM seats WHERE room = ? AND name IS NULL)", (room, room))
        return started.rowcount == 1

    return job


def token_job(room: str, seat: int, old: str, new: str) -> Job[None]:
    """A seat's new token; the old one expires."""
    def job(db: sqlite3.Connection) -> None:
        db.execute("UPDATE seats SET token = ? WHERE room = ? AND seat = ?", (new, room, seat))
        db.execute("INSERT INTO expired (token, room, what) VALUES (?, ?, ?)", (old, room, f"seat {seat}"))

    return job


def seats_job(room: str, seats: Sequence[SeatRow]) -> Job[None]:
    """Rewrite some seats of a room at once (the teacher placing students before the start: each token moves
    with its student). Tokens are unique, so the moved ones are first set aside, then written."""
    def job(db: sqlite3.Connection) -> None:
        db.executemany("UPDATE seats SET token = '~' || seat || '~' || token WHERE room = ? AND seat = ?",
                       [(room, seat.seat) for seat in seats])
        db.executemany("UPDATE seats SET token = ?, name = ?, bot = ? WHERE room = ? AND seat = ?",
                       [(seat.token, seat.name, seat.bot, room, seat.seat) for seat in seats])

    return job


def flag_job(room: str, flag: str, value: bool) -> Job[None]:
    """A room's flag "paused" or "revealed" (ValueError for any other, at once)."""
    if flag not in ("paused", "revealed"):
        raise ValueError(f"not a room flag: {flag}")

    def job(db: sqlite3.Connection) -> None:
        db.execute(f"UPDATE rooms SET {flag} = ? WHERE code = ?", (int(value), room))

    return job


def close_job(room: str, tokens: Sequence[str]) -> Job[None]:
    """A room closed: its `tokens` expire."""
    def job(db: sqlite3.Connection) -> None:
        db.execute("UPDATE rooms SET closed = 1 WHERE code = ?", (room,))
        db.executemany("INSERT OR IGNORE INTO expired (token, room, what) VALUES (?, ?, 'closed room')",
                       [(token, room) for token in tokens])

    return job


def _busy_or(error: BaseException) -> BaseException:
    """`StorageBusy` for a lock held elsewhere, the error itself otherwise."""
    text = str(error)
    locked = isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)
    return StorageBusy(text) if locked else error


def _room_row(row: tuple[Any, ...]) -> RoomRow | BrokenRoom:
    """A stored room, its types checked (a row edited by hand, or by another program, is told apart)."""
    code, number, game, seats, seed, rules, language, delay, watch, started, paused, revealed, closed = row
    kinds = {"code": (code, str), "number": (number, int), "game": (game, str), "seat_count": (seats, int),
             "seed": (seed, int), "rules": (rules, str), "language": (language, str), "bot_delay": (delay, float),
             "watch_token": (watch, str)}
    wrong = [name for name, (value, kind) in kinds.items()
             if not isinstance(value, kind) and not (kind is float and type(value) is int)]
    shown = code if isinstance(code, str) else repr(code)
    if wrong:
        return BrokenRoom(shown, number if type(number) is int else None,
                          f"room {shown}: the stored {', '.join(wrong)} has the wrong type")
    try:
        decoded = json.loads(rules)
    except ValueError as error:
        return BrokenRoom(code, number, f"room {code}: its stored rules are not JSON ({error})")
    if not isinstance(decoded, dict):
        return BrokenRoom(code, number, f"room {code}: its stored rules are not an object")
    return RoomRow(code, number, game, seats, seed, decoded, language, float(delay), watch, bool(started),
                   bool(paused), bool(revealed), bool(closed))


# ------------------------------------------------------------------------------------------ rows read back


def asked_steps_of(code: str, stored: str | None) -> set[int]:
    """The steps at which the teacher asked a room's beliefs, from their `meta` text (None: never asked);
    `RecordError` naming the room unless it is a JSON list of steps, as the server writes it."""
    try:
        steps = [] if stored is None else json.loads(stored)
    except (ValueError, RecursionError):
        steps = None
    if not isinstance(steps, list) or \
            not all(type(step) is int and step >= 0 for step in steps):  # noqa: E721 - True is no step
        raise RecordError(f"room {code}: its stored asked steps are not a list of steps ({quote(stored)}).")
    return set(steps)


def time_limit_of(code: str, stored: str | None, *, low: float, high: float) -> float | None:
    """A room's seconds per move, from their `meta` text (None: no limit); `RecordError` naming the room unless
    it is a number from `low` to `high`, as the server accepts it (NaN and -5 fired at once)."""
    try:
        limit = None if stored is None else float(stored)
    except ValueError:
        limit = math.nan
    if limit is not None and not low <= limit <= high:  # NaN is within no bounds
        raise RecordError(f"room {code}: its stored time limit is not a number of seconds from {low:g} to "
                          f"{high:g} ({quote(stored)}).")
    return limit


def check_seats(code: str, seats: Sequence[SeatRow], seat_count: int, bots: Collection[str]) -> None:
    """`RecordError` naming the room unless its stored seats are numbered 0 to `seat_count - 1`, each with a
    token, a name or none, and a bot among `bots` (its game's) or none: a bot no game has left its room stuck."""
    numbers = [seat.seat for seat in seats]
    if numbers != list(range(seat_count)):
        raise RecordError(f"room {code}: its stored seats are {quote(numbers)}, not 0 to {seat_count - 1}.")
    for seat in seats:
        if not isinstance(seat.token, str) or not seat.token:
            raise RecordError(f"room {code}: seat {seat.seat}'s stored token is not a text.")
        if seat.name is not None and not isinstance(seat.name, str):
            raise RecordError(f"room {code}: seat {seat.seat}'s stored name is not a text ({quote(seat.name)}).")
        if seat.bot is not None and (not isinstance(seat.bot, str) or seat.bot not in bots):
            raise RecordError(f"room {code}: seat {seat.seat}'s stored bot {quote(seat.bot)} is no bot of its game "
                              f"(its bots: {', '.join(sorted(bots))}).")


# ------------------------------------------------------------------------------------------ one writer per file


class DatabaseInUse(RuntimeError):
    """Another class server already serves this database file: `address` says where (None if it is starting)."""

    def __init__(self, path: str, address: str | None) -> None:
        self.path, self.address = path, address
        where = f"the class server at {address}" if address else "another class server (still starting)"
        hint = f"classroom.connect({address!r}, db={path!r})" if address else "classroom.connect(url, db=...)"
        super().__init__(f"{path} is already served by {where}: connect to it (in a notebook: {hint}), or use "
                         "another database file.")


#: The byte of the database file a server locks while it serves it: the first past SQLite's own lock bytes
#: (1 GiB + 0 to 511), on the page SQLite never uses for data at page sizes from 1 KiB (a class database has 4 KiB).
WRITER_LOCK_BYTE = 0x40000000 + 512
#: The meta key where the serving server says where it listens (read by those it refuses, through any name).
SERVER_KEY = "server"

#: The locks this process holds, by file (device, inode): a POSIX lock never excludes its own process, and
#: closing any descriptor of a file drops all of the process's locks on it, SQLite's included, so a second
#: server in the same process is refused here before it opens anything.
_HELD: dict[tuple[int, int], WriterLock] = {}
_HELD_GUARD = threading.Lock()


class WriterLock:
    """The lock that makes one server the only writer of a database file: a POSIX lock (`fcntl.lockf`) on one
    byte of the file itself, `WRITER_LOCK_BYTE` (Windows: `msvcrt.locking`), held while the server runs. It is
    the file's whatever name it is opened by (a hard link, a symlink, another spelling). The server's address is
    kept in the file's `meta` (`SERVER_KEY`) for whoever is refused, and in a note beside it, `<file>.lock`, for
    people (removing the note changes nothing). The operating system drops the lock when its process dies, so a
    killed server never blocks the next one; a stale address left behind is simply overwritten.

    The descriptor is closed only when the server's store is closed (closing it drops SQLite's locks of this
    process on the file too), and never while another lock of this process holds the file (`_HELD`)."""

    def __init__(self, database: str | Path) -> None:
        self.database = str(database)
        self.note = os.path.realpath(self.database) + ".lock"
        self.address: str | None = None
        self.identity: tuple[int, int] | None = None
        self._descriptor: int | None = None
        self._spares: list[int] = []  # descriptors of the file opened by a refused rival of this process

    def acquire(self) -> None:
        """Take the lock, or raise `DatabaseInUse` naming the address of the server that holds it (`StorageError`
        for a file this process cannot write)."""
        if Path(self.database).is_dir():
            raise StorageError(self.database, "it is a directory")
        unwritable = write_problem(self.database)
        if unwritable is not None:
            raise StorageError(self.database, unwritable)
        for _ in range(10):
            with _HELD_GUARD:
                known = _identity(self.database)
                if known in _HELD:
                    raise DatabaseInUse(self.database, _HELD[known].address)
                try:
                    descriptor = os.open(self.database, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
                except OSError as error:
                    raise StorageError(self.database, f"it cannot be opened for writing ({error.strerror})") from None
                status = os.fstat(descriptor)
                identity = (status.st_dev, status.st_ino)
                if identity in _HELD:  # the name moved to a file of ours meanwhile: keep its descriptor open
                    _HELD[identity]._spares.append(descriptor)
                    raise DatabaseInUse(self.database, _HELD[identity].address)
                if not _try_lock(descriptor):
                    os.close(descriptor)  # no store of this process has this file open (it would be in _HELD)
                    raise DatabaseInUse(self.database, _address_in(self.database))
                if _identity(self.database) == identity:
                    self._descriptor, self.identity = descriptor, identity
                    _HELD[identity] = self
                    return
                os.close(descriptor)  # the name was given to another file between our open and our lock: again
        raise StorageError(self.database, "it keeps being replaced by another program")

    def held(self) -> bool:
        """Whether this server still holds the lock, taken again if it was dropped (by a descriptor of the
        file closed elsewhere in the process) and nobody took it meanwhile."""
        if fcntl is None:  # pragma: no cover - Windows: a lock of its own handle, which no other close drops
            return self._descriptor is not None
        return self._descriptor is not None and _try_lock(self._descriptor)

    def announce(self, address: str) -> None:
        """Write where this server listens, for the servers and notebooks it refuses: in the file's `meta`
        (found through any of its names) and in the note beside it."""
        assert self._descriptor is not None, "the lock is not held"
        self.address = address
        text = json.dumps({"url": address, "pid": os.getpid()})
        if _identity(self.database) == self.identity:  # never into another file now at this name
            _write_meta(self.database, SERVER_KEY, text)
        try:
            Path(self.note).write_text(text, encoding="utf-8")
        except OSError:
            pass  # a note for people only

    def release(self) -> None:
        """Forget the address and drop the lock (a server that crashed leaves its address and note: harmless,
        the lock itself went with the process). Called once the server's store is closed."""
        if self._descriptor is None:
            return
        if self.address is not None and _identity(self.database) == self.identity:
            _write_meta(self.database, SERVER_KEY, None)
            try:
                os.remove(self.note)
            except OSError:
                pass
        with _HELD_GUARD:
            if self.identity is not None and _HELD.get(self.identity) is self:
                del _HELD[self.identity]
            for descriptor in (self._descriptor, *self._spares):
                os.close(descriptor)  # closing drops the lock
            self._descriptor, self._spares, self.address = None, [], None


def _write_meta(database: str, key: str, value: str | None) -> None:
    """Set (or, with None, remove) one `meta` entry on a connection of its own, and copy it into the database
    file itself (a checkpoint): the server's address, written beside the writer's thread once at start and once
    at stop, is read through any name of the file, and SQLite names its write-ahead log after the name (a hard
    link has a log of its own). A failure costs only the address."""
    try:
        connection = sqlite3.connect(database, isolation_level=None, timeout=BUSY_TIMEOUT)
        try:
            if value is None:
                connection.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                connection.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            connection.close()
    except sqlite3.Error:
        pass


def _address_in(database: str) -> str | None:
    """The address the server holding `database` wrote in it, None while it is starting (or unreadable): read as
    the file is under this name, else as the database file alone (`immutable`: through a hard link, whose
    write-ahead log SQLite would look for under the link's name)."""
    uri = Path(database).resolve().as_uri()
    for options in ("mode=ro", "mode=ro&immutable=1"):
        try:
            connection = sqlite3.connect(f"{uri}?{options}", uri=True, timeout=1)
            try:
                row = connection.execute("SELECT value FROM meta WHERE key = ?", (SERVER_KEY,)).fetchone()
            finally:
                connection.close()
            address = json.loads(row[0]).get("url") if row else None
        except (sqlite3.Error, ValueError, AttributeError):
            continue
        if isinstance(address, str):
            return address
    return None


def _try_lock(descriptor: int) -> bool:
    """Lock `WRITER_LOCK_BYTE` of the open file, at once or not at all (taken again by its holder: yes)."""
    if fcntl is not None:
        try:
            fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, WRITER_LOCK_BYTE, os.SEEK_SET)
        except OSError:
            return False
        return True
    import msvcrt  # pragma: no cover - Windows

    try:  # pragma: no cover
        os.lseek(descriptor, WRITER_LOCK_BYTE, os.SEEK_SET)
        msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
    except OSError:  # pragma: no cover
        return False
    return True  # pragma: no cover


def teacher_token_of(database: str | Path) -> str:
    """The teacher's token kept in a database file (read only: for `classroom.connect(url, db=...)` to a
    server already running on that file)."""
    path = Path(database)
    if not path.is_file():
        raise StorageError(str(database), "there is no such file")
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=1)
        try:
            row = connection.execute("SELECT value FROM meta WHERE key = 'teacher_token'").fetchone()
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise StorageError(str(database), f"it cannot be read ({error})") from None
    if row is None:
        raise StorageError(str(database), "it holds no teacher's token: no class server has opened it")
    return str(row[0])
