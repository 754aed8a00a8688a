"""Class play without friction (issue 20), the second part: heartbeats find half-open connections, the teacher
places students before the start, and an optional time limit per move lets the room's bot play for a seat
that ran out of time. Nothing here waits on wall time: heartbeats and deadlines are triggered by the test."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import Feed, join_room, seat_feed
from tabletop_edu.classroom.testing import wait_until


@pytest.fixture()
def quiet_server(tmp_path: Path) -> Iterator[ClassServer]:
    """A server whose heartbeats and deadlines happen only when the test calls them."""
    server = ClassServer(tmp_path / "quiet.sqlite3", heartbeat=None).start()
    try:
        yield server
    finally:
        server.stop()


def half_open_socket(url: str, path: str) -> socket.socket:
    """A websocket that opens and then never answers anything (a phone gone out of range: the server's
    side of the connection stays open, nothing comes back)."""
    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=10)
    connection.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += connection.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:100]
    return connection


def online(teacher: TeacherClient, code: str) -> list[int]:
    return [seat["online"] for seat in teacher.room(code)["seats"]]


def latest(feed: Feed, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return feed.next(condition, timeout=10)


def test_a_half_open_connection_is_shown_offline_within_two_heartbeats(quiet_server: ClassServer) -> None:
    server = quiet_server
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("commissario", 2)["code"]
    alive, gone = join_room(server.url, code, "Ana"), join_room(server.url, code, "Ben")
    live = seat_feed(server.url, alive["token"])
    silent = half_open_socket(server.url, f"/ws/seat/{gone['token']}")
    dashboard = teacher.follow(code)
    try:
        wait_until(lambda: online(teacher, code) == [1, 1])
        assert server.call(server.beat) == []  # first heartbeat: both pinged, nobody missed one yet
        wait_until(lambda: server.call(lambda: [c.awaiting_pong for c in server.connections[code]
                                                if c.kind == "seat" and c.seat == 0]) == [False])
        dead = server.call(server.beat)  # second: the silent one never answered
        assert [(connection.kind, connection.seat) for connection in dead] == [("seat", gone["seat"])]
        shown = latest(dashboard, lambda message: [seat["online"] for seat in message["seats"]] == [1, 0])
        assert shown["code"] == code
        assert online(teacher, code) == [1, 0]
        live.send({"type": "menu", "step": 0, "chosen": []})  # the live page still plays
        assert live.next(lambda message: message["type"] in ("menu", "refused"))["type"] == "menu"
    finally:
        silent.close()
        live.close()
        dashboard.close()


def test_a_page_that_answers_every_heartbeat_stays_online(quiet_server: ClassServer) -> None:
    server = quiet_server
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("commissario", 2)["code"]
    seat = join_room(server.url, code, "Ana")
    live = seat_feed(server.url, seat["token"])
    try:
        wait_until(lambda: online(teacher, code)[0] == 1)
        for _ in range(4):
            assert server.call(server.beat) == []
            wait_until(lambda: server.call(lambda: all(not c.awaiting_pong for c in server.connections[code])))
        assert online(teacher, code)[0] == 1
    finally:
        live.close()
