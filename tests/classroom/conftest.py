"""Fixtures of the class server tests: a server on a fresh SQLite file (port 0, stopped after the test, also on
failure) and the teacher's client. Students who play by tapping through the protocol are
`tabletop_edu.classroom.testing.Student`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient


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


@pytest.fixture()
def fast_server(tmp_path: Path) -> Iterator[ClassServer]:
    """A server whose flood limit no scripted student reaches (they tap far faster than people)."""
    server = ClassServer(tmp_path / "fast.sqlite3", flood=(10_000, 10_000.0)).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def short_thread_switches() -> Iterator[None]:
    """The server and its clients share this process: hand the GIL over quickly, as separate processes would."""
    import sys

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    yield
    sys.setswitchinterval(interval)
