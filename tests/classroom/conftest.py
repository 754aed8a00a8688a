"""Fixtures of the class server tests: a server on a fresh SQLite file (port 0, stopped after the test, also on
failure), the teacher's client, and students who play by "tapping" through the protocol: they ask the menu one
word at a time, as the page does, and keep every message their connection receives for the leak checks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import Feed, join_room, seat_feed


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[ClassServer]:
    server = ClassServer(tmp_path / "class.sqlite3").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def teacher(server: ClassServer) -> TeacherClient:
    return TeacherClient(server.url, server.teacher_token)


class Student:
    """A seat's connection: every message it received, the latest table, and moves made by tapping."""

    def __init__(self, url: str, token: str, seat: int, name: str, language: str = "en") -> None:
        self.url, self.token, self.seat, self.name = url, token, seat, name
        self.feed: Feed = seat_feed(url, token, language)
        self.received: list[dict[str, Any]] = []
        self.table: dict[str, Any] | None = None

    @classmethod
    def join(cls, url: str, code: str, name: str, language: str = "en") -> Student:
        seat = join_room(url, code, name)
        return cls(url, seat["token"], seat["seat"], name, language)

    def next(self, predicate: Any = lambda message: True, timeout: float = 30) -> dict[str, Any]:
        def keep(message: dict[str, Any]) -> bool:
            self.received.append(message)
            if message["type"] == "table":
                self.table = message
            return bool(predicate(message))
        return self.feed.next(keep, timeout)

    def wait_step(self, step: int, timeout: float = 30) -> dict[str, Any]:
        """The table message of `step` (the latest one, once it arrived)."""
        if self.table is not None and self.table["step"] == step and self.table["started"]:
            return self.table
        return self.next(lambda m: m["type"] == "table" and m["started"] and m["step"] == step, timeout)

    def tap_move(self, rng: random.Random) -> str:
        """Choose a move as a person on the page does: one button at a time, each a new menu from the server."""
        assert self.table is not None and self.table["menu"] is not None, f"{self.name} has no move to make"
        step, menu = self.table["step"], self.table["menu"]
        while True:
            options = menu["options"]
            if menu["complete"] is not None and (not options or rng.random() < 0.3):
                action = menu["complete"]
                break
            option = rng.choice(options)
            if option["action"] is not None:
                action = option["action"]
                break
            self.feed.send({"type": "menu", "step": step, "chosen": [*menu["chosen"], option["word"]]})
            menu = self.next(lambda m: m["type"] in ("menu", "refused"))
            assert menu["type"] == "menu", menu
        self.feed.send({"type": "move", "step": step, "action": action})
        return str(action)

    def close(self) -> None:
        self.feed.close()


def seat_students(url: str, code: str, names: list[str], language: str = "en") -> list[Student]:
    return [Student.join(url, code, name, language) for name in names]


def play_to_the_end(students: list[Student], rng: random.Random, *, first_step: int = 0,
                    limit: int = 400) -> int:
    """Every student taps moves whenever their seat is to act (bots of the room play the other seats), until
    the game is over; returns the number of moves played."""
    step = first_step
    for _ in range(limit):
        tables = [student.wait_step(step) for student in students]
        if tables[0]["over"]:
            return step
        movers = [student for student, table in zip(students, tables) if table["menu"] is not None]
        if movers:  # otherwise a bot of the room is to move: wait for its step
            movers[0].tap_move(rng)
        step += 1
    raise AssertionError(f"the game did not end within {limit} moves")
