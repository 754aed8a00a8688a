"""The durable truth of the class server: one SQLite file (stdlib `sqlite3`).

Every change a person could be told of (a seat claimed, a bot seated, a move, a pause, a reveal) is committed
here in its own transaction before any client hears of it, so a hard kill of the server loses nothing that
anyone saw. On start the rooms are rebuilt from these rows: the game from its seed, rules and seat names, then
its moves replayed in order (`GameState.apply`), which gives back exactly the same state.

Tables:

- `meta(key, value)`: the teacher's token.
- `rooms`: one row per room: code, game package, seat count, seed, rules (JSON), language, bot delay, the
  projector's token, and the flags started / paused / revealed / closed.
- `seats`: one row per seat: its token (the credential in its link), the name it plays under and its bot.
- `actions(room, step, seat, action, actor, at)`: one row per move; `(room, step)` is the primary key, so
  even a bug upstream could not store two moves for one step.
- `expired`: tokens that were valid once (a seat's link replaced, a closed room), so that they are refused
  as expired rather than unknown.

The file uses write-ahead logging with `synchronous=FULL`: a committed move survives a killed process (and
a power cut).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
"""


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


class Store:
    """The SQLite file of a class server. Used from one thread (the server's event loop) at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=FULL")
        self.connection.execute("PRAGMA foreign_keys=ON")
        self.connection.executescript(SCHEMA)

    def close(self) -> None:
        self.connection.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic change: committed when the block ends, rolled back if it raises."""
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            yield self.connection
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise
        self.connection.execute("COMMIT")

    # ---------------------------------------------------------------- meta

    def meta(self, key: str) -> str | None:
        row = self.connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # ---------------------------------------------------------------- writes

    def add_room(self, room: RoomRow, seats: Sequence[SeatRow]) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO rooms (code, number, game, seat_count, seed, rules, language, bot_delay, "
                       "watch_token, started, paused, revealed, closed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                       (room.code, room.number, room.game, room.seat_count, room.seed, json.dumps(room.rules),
                        room.language, room.bot_delay, room.watch_token, int(room.started), int(room.paused),
                        int(room.revealed), int(room.closed)))
            db.executemany("INSERT INTO seats (room, seat, token, name, bot) VALUES (?,?,?,?,?)",
                           [(seat.room, seat.seat, seat.token, seat.name, seat.bot) for seat in seats])

    def set_seat(self, room: str, seat: int, *, name: str | None, bot: str | None,
                 started: bool | None = None) -> None:
        """A seat's name and bot (and, in the same transaction, the room's start when the last seat filled)."""
        with self.transaction() as db:
            db.execute("UPDATE seats SET name = ?, bot = ? WHERE room = ? AND seat = ?", (name, bot, room, seat))
            if started is not None:
                db.execute("UPDATE rooms SET started = ? WHERE code = ?", (int(started), room))

    def replace_token(self, room: str, seat: int, old: str, new: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE seats SET token = ? WHERE room = ? AND seat = ?", (new, room, seat))
            db.execute("INSERT INTO expired (token, room, what) VALUES (?, ?, ?)", (old, room, f"seat {seat}"))

    def set_flag(self, room: str, flag: str, value: bool) -> None:
        if flag not in ("paused", "revealed"):
            raise ValueError(f"not a room flag: {flag}")
        with self.transaction() as db:
            db.execute(f"UPDATE rooms SET {flag} = ? WHERE code = ?", (int(value), room))

    def close_room(self, room: str, tokens: Sequence[str]) -> None:
        with self.transaction() as db:
            db.execute("UPDATE rooms SET closed = 1 WHERE code = ?", (room,))
            db.executemany("INSERT OR IGNORE INTO expired (token, room, what) VALUES (?, ?, 'closed room')",
                           [(token, room) for token in tokens])

    def add_action(self, room: str, step: int, seat: int, action: str, actor: str) -> float:
        """One move, committed before anyone is told of it; returns the time stored with it (for analysis
        of thinking times, never for the game itself)."""
        at = time.time()
        with self.transaction() as db:
            db.execute("INSERT INTO actions (room, step, seat, action, actor, at) VALUES (?,?,?,?,?,?)",
                       (room, step, seat, action, actor, at))
        return at

    # ---------------------------------------------------------------- reads

    def rooms(self) -> list[RoomRow]:
        rows = self.connection.execute(
            "SELECT code, number, game, seat_count, seed, rules, language, bot_delay, watch_token, started, "
            "paused, revealed, closed FROM rooms ORDER BY number").fetchall()
        return [RoomRow(code, number, game, seats, seed, json.loads(rules), language, delay, watch,
                        bool(started), bool(paused), bool(revealed), bool(closed))
                for code, number, game, seats, seed, rules, language, delay, watch, started, paused, revealed,
                closed in rows]

    def seats(self, room: str) -> list[SeatRow]:
        rows = self.connection.execute("SELECT room, seat, token, name, bot FROM seats WHERE room = ? "
                                       "ORDER BY seat", (room,)).fetchall()
        return [SeatRow(*row) for row in rows]

    def actions(self, room: str) -> list[ActionRow]:
        rows = self.connection.execute("SELECT room, step, seat, action, actor, at FROM actions WHERE room = ? "
                                       "ORDER BY step", (room,)).fetchall()
        return [ActionRow(*row) for row in rows]

    def expired(self, token: str) -> str | None:
        """What an expired token was for, or None if it never expired."""
        row = self.connection.execute("SELECT what FROM expired WHERE token = ?", (token,)).fetchone()
        return None if row is None else str(row[0])
