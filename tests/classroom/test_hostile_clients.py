"""A class server no client can hurt (issue 49): what one socket may queue, how many one address may open, how
long a silent one lives, what counts as a sign of life, and a process out of file handles that serves on.

Hostile clients are plain sockets that do the websocket handshake and then never read, or never speak. Every
server binds 127.0.0.1 on port 0 and is stopped after its test, also on failure; nothing sleeps: the tests wait
on conditions the server reaches."""

from __future__ import annotations

import json
import socket
import struct
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import ClassroomError, Feed, join_room, seat_feed
from tabletop_edu.classroom.connections import CLOSE_SLOW
from tabletop_edu.classroom.outbox import HOLD_ABOVE, MAX_QUEUED
from tabletop_edu.classroom.testing import ServerProcess, wait_until


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return int(response.status), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode("utf-8", "replace")


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def silent_socket(url: str) -> socket.socket:
    """A connection that never says anything (not even a request line)."""
    return socket.create_connection(address(url), timeout=30)


def raw_websocket(url: str, path: str, receive_buffer: int | None = None) -> socket.socket:
    """A websocket opened by hand, which then reads nothing unless the test reads it (`frames`). `receive_buffer`:
    a small one fills at once, so that the server's side queues what this socket does not read."""
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    connection.settimeout(30)
    connection.connect(address(url))
    host, port = address(url)
    connection.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += connection.recv(1)  # byte by byte: the frames after the head stay in the socket
    assert answer.startswith(b"HTTP/1.1 101"), answer[:100]
    return connection


def client_frame(text: str) -> bytes:
    """A text frame as a client sends it (masked, with a zero mask: the payload reads as it is)."""
    data = text.encode()
    head = struct.pack("!BB", 0x81, 0x80 | len(data)) if len(data) < 126 else struct.pack("!BBH", 0x81, 0x80 | 126,
                                                                                            len(data))
    return head + b"\0\0\0\0" + data


def frames(connection: socket.socket) -> Iterator[tuple[int, bytes]]:
    """The server's frames on a raw websocket, (opcode, payload), until it closes the connection."""
    buffer = b""

    def take(count: int) -> bytes:
        nonlocal buffer
        while len(buffer) < count:
            chunk = connection.recv(1 << 16)
            if not chunk:
                raise EOFError
            buffer += chunk
        taken, buffer = buffer[:count], buffer[count:]
        return taken

    try:
        while True:
            first, second = take(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", take(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", take(8))[0]
            yield first & 0x0F, take(length)
    except EOFError:
        return


def online(teacher: TeacherClient, code: str) -> list[int]:
    return [seat["online"] for seat in teacher.room(code)["seats"]]


@pytest.fixture()
def quiet_server(tmp_path: Path) -> Iterator[ClassServer]:
    """A server whose heartbeats happen only when the test calls `beat()`, and whose flood limit no test reaches."""
    server = ClassServer(tmp_path / "hostile.sqlite3", heartbeat=None, flood=(100_000, 100_000.0)).start()
    try:
        yield server
    finally:
        server.stop()


def two_seated(server: ClassServer) -> tuple[TeacherClient, str, dict[str, str], dict[str, str]]:
    """A started Commissario room of two students: the teacher, the room's code, and the two seats joined."""
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("commissario", 2, seed=1)["code"]
    return teacher, code, join_room(server.url, code, "Ana"), join_room(server.url, code, "Ben")


def queued(server: ClassServer, code: str, seat: int) -> int | None:
    """The bytes the server holds for `seat`'s socket (Tornado's write buffer and the messages waiting to go
    in), None once the server has let the socket go."""
    def measure() -> int | None:
        sockets = [c for c in server.connections.get(code, ()) if c.kind == "seat" and c.seat == seat]
        return sockets[0].handler.queued_bytes() if sockets else None
    return server.call(measure)  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------------ a socket's queue


def test_a_page_that_never_reads_is_held_to_its_latest_table(quiet_server: ClassServer) -> None:
    server = quiet_server
    teacher, code, ana, ben = two_seated(server)
    stuck = raw_websocket(server.url, f"/ws/seat/{ana['token']}", receive_buffer=4096)
    live = seat_feed(server.url, ben["token"])
    try:
        wait_until(lambda: online(teacher, code) == [1, 1])
        assert server.hall is not None
        room = server.hall.rooms[code]
        most = 0
        for _ in range(10):  # 10 000 tables of a few kilobytes: far more than the kernel's buffers hold
            server.call(lambda: [server.broadcast(room) for _ in range(1000)])
            most = max(most, queued(server, code, 0) or 0)
        assert most <= HOLD_ABOVE + 64 * 1024, most  # what Tornado holds stops growing; one table waits
        teacher.command(code, "pause")  # the other page is still served, and so is every page
        assert live.next(lambda message: message["type"] == "table" and message["paused"])
        assert fetch(server.url + "/")[0] == 200
        tables = [json.loads(payload) for opcode, payload in _until_paused(frames(stuck)) if opcode == 1]
        assert len(tables) < 10_000 // 2  # the older tables not yet written were dropped...
        assert tables[-1]["type"] == "table"  # ...and the newest was kept
    finally:
        stuck.close()
        live.close()


def _until_paused(read: Iterator[tuple[int, bytes]]) -> Iterator[tuple[int, bytes]]:
    """The frames up to the first table that shows the room paused (the last change the test makes)."""
    for opcode, payload in read:
        yield opcode, payload
        if opcode == 1 and json.loads(payload).get("paused"):
            return


def test_a_page_that_sends_without_reading_is_closed_with_a_reason(quiet_server: ClassServer) -> None:
    """The issue's client: stale moves sent again and again, nothing read. Each refusal is an answer that cannot be
    dropped for a newer one, so past `MAX_QUEUED` the socket is closed, saying why."""
    server = quiet_server
    teacher, code, ana, ben = two_seated(server)
    stuck = raw_websocket(server.url, f"/ws/seat/{ana['token']}", receive_buffer=4096)
    try:
        wait_until(lambda: online(teacher, code) == [1, 0])
        stale = client_frame(json.dumps({"type": "move", "step": 999, "action": "x" * 100}))
        most, sent = 0, 0
        while (now := queued(server, code, 0)) is not None:
            most = max(most, now)
            stuck.sendall(stale * 200)
            sent += 200
            assert sent < 400_000, "the socket was never closed"
        assert most <= MAX_QUEUED + 64 * 1024, most
        wait_until(lambda: online(teacher, code) == [0, 0])  # shown offline at once
        last = [(opcode, payload) for opcode, payload in frames(stuck)][-1]
        assert last[0] == 8 and struct.unpack("!H", last[1][:2])[0] == CLOSE_SLOW
        assert b"too slowly" in last[1]
        assert fetch(server.url + "/")[0] == 200
    finally:
        stuck.close()


# ------------------------------------------------------------------------------------------ addresses, idlers


def test_one_address_opens_a_bounded_number_of_connections(tmp_path: Path) -> None:
    server = ClassServer(tmp_path / "bounded.sqlite3", heartbeat=None, per_address=3, uncounted=frozenset()).start()
    silent = []
    try:
        silent = [silent_socket(server.url) for _ in range(3)]
        status, text = fetch(server.url + "/")
        assert status == 429 and "Too many connections from this address" in text
        for connection in silent:
            connection.close()
        wait_until(lambda: fetch(server.url + "/")[0] == 200)  # closed ones free their places
    finally:
        for connection in silent:
            connection.close()
        server.stop()


def test_this_machine_is_not_counted_by_default(tmp_path: Path) -> None:
    """Benchmarks and a notebook's bots open hundreds of connections from the teacher's own machine."""
    server = ClassServer(tmp_path / "local.sqlite3", heartbeat=None, per_address=2).start()
    silent = []
    try:
        silent = [silent_socket(server.url) for _ in range(3)]
        assert fetch(server.url + "/")[0] == 200
    finally:
        for connection in silent:
            connection.close()
        server.stop()


def test_a_connection_that_says_nothing_is_closed_after_the_idle_time(tmp_path: Path) -> None:
    server = ClassServer(tmp_path / "idle.sqlite3", heartbeat=None, idle_timeout=0.2).start()
    silent = silent_socket(server.url)
    try:
        assert silent.recv(1) == b""  # the server closed it (the socket's timeout, 30 s, would raise instead)
        assert fetch(server.url + "/")[0] == 200
    finally:
        silent.close()
        server.stop()


def test_messages_are_no_sign_of_life_only_pongs_are(quiet_server: ClassServer) -> None:
    """A socket that keeps sending but answers no ping (it never reads) is found dead like a silent one."""
    server = quiet_server
    teacher, code, ana, ben = two_seated(server)
    talker = raw_websocket(server.url, f"/ws/seat/{ana['token']}")
    try:
        wait_until(lambda: online(teacher, code) == [1, 0])
        menu = client_frame(json.dumps({"type": "menu", "step": 0, "chosen": []}))
        heard = frames(talker)

        def say_something() -> None:
            """A menu request, once the server has answered it (so it counted before the next beat)."""
            talker.sendall(menu)
            assert any(opcode == 1 and json.loads(payload)["type"] in ("menu", "refused") for opcode, payload in heard)

        for _ in range(2):  # it reads (and so hears the pings) but never answers one
            say_something()
            assert server.call(server.beat) == []
        say_something()
        dead = server.call(server.beat)
        assert [(connection.kind, connection.seat) for connection in dead] == [("seat", 0)]
        wait_until(lambda: online(teacher, code) == [0, 0])
    finally:
        talker.close()


def test_tornado_pings_and_a_page_it_closes_is_offline_at_once(tmp_path: Path) -> None:
    """With a heartbeat, Tornado's own pings find a half-open connection; the seat shows offline when Tornado
    closes it, not when TCP gives up."""
    server = ClassServer(tmp_path / "pinged.sqlite3", heartbeat=0.5).start()
    teacher, code, ana, ben = two_seated(server)
    silent = raw_websocket(server.url, f"/ws/seat/{ana['token']}")
    live = seat_feed(server.url, ben["token"])
    try:
        wait_until(lambda: online(teacher, code) == [1, 1])
        intervals = server.call(lambda: [c.handler.ping_interval for c in server.connections[code] if c.kind == "seat"])
        assert intervals and all(interval and interval > 0 for interval in intervals)
        wait_until(lambda: online(teacher, code) == [0, 1], timeout=30)
        assert not live.closed
    finally:
        silent.close()
        live.close()
        server.stop()


# ------------------------------------------------------------------------------------------ out of file handles

#: The server's own file handles (interpreter, SQLite, the loop, its listening socket) fit well within this.
HANDLE_LIMIT = 96
LOW_LIMIT = ("import resource, runpy, sys; "
             f"resource.setrlimit(resource.RLIMIT_NOFILE, ({HANDLE_LIMIT}, {HANDLE_LIMIT})); "
             "sys.argv = ['tabletop_edu', *sys.argv[3:]]; runpy.run_module('tabletop_edu', run_name='__main__')")


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_NOFILE is POSIX")
def test_out_of_file_handles_the_server_pauses_accepting_and_serves_its_pages(tmp_path: Path) -> None:
    process = ServerProcess(tmp_path / "handles.sqlite3", tmp_path / "server.log", python_options=["-c", LOW_LIMIT])
    silent: list[socket.socket] = []
    page: Feed | None = None
    try:
        process.start()
        process.wait_for(r"^stop: ")  # the last line it prints when it starts
        code = TeacherClient(process.url, process.token).create_room("commissario", 2)["code"]
        page = seat_feed(process.url, join_room(process.url, code, "Ana")["token"])
        page.next(lambda message: message["type"] == "table")
        started = len(process.output)
        silent = [silent_socket(process.url) for _ in range(HANDLE_LIMIT + 20)]
        process.wait_for(r"no file handle left", timeout=30)
        for _ in range(20):  # the page it has is answered, again and again, while new ones wait
            page.send({"type": "menu", "step": 0, "chosen": []})
            page.next(lambda message: message["type"] in ("menu", "refused"))
        assert len(process.output) - started <= 5, "".join(process.output[started:])[-3000:]
        for connection in silent:
            connection.close()
        silent = []
        wait_until(lambda: fetch(process.url + "/")[0] == 200, timeout=60)  # handles free: accepting again
        assert len(process.output) - started <= 5, "".join(process.output[started:])[-3000:]
    finally:
        for connection in silent:
            connection.close()
        if page is not None:
            page.close()
        process.stop()


# ------------------------------------------------------------------------------------------ small ones


def test_a_path_out_of_the_static_folder_is_a_404(quiet_server: ClassServer) -> None:
    connection = socket.create_connection(address(quiet_server.url), timeout=30)
    try:
        connection.sendall(b"GET /static/../server.py HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 404"), answer[:100]
    finally:
        connection.close()


def test_a_refusal_quotes_a_value_once(quiet_server: ClassServer) -> None:
    teacher = TeacherClient(quiet_server.url, quiet_server.teacher_token)
    with pytest.raises(ClassroomError, match=r"draw_seats is true or false, not 'yes'\.$"):
        teacher.call("POST", "/api/rooms", {"game": "commissario", "players": 2, "draw_seats": "yes"})
    with pytest.raises(ClassroomError, match=r"A seed is a whole number from 0 to 2\*\*63 - 1, not 1\.5\.$"):
        teacher.call("POST", "/api/rooms", {"game": "commissario", "players": 2, "seed": 1.5})


@pytest.mark.parametrize("bounds", [{"per_address": 0}, {"per_address": 2.5}, {"per_address": True},
                                    {"idle_timeout": 0}, {"idle_timeout": -5.0}, {"idle_timeout": float("nan")},
                                    {"idle_timeout": float("inf")}, {"idle_timeout": "60"},
                                    {"finished_idle": -1.0}, {"finished_idle": float("nan")}])
def test_a_wrong_bound_is_refused_and_opens_nothing(tmp_path: Path, bounds: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(bounds))):
        ClassServer(tmp_path / "never.sqlite3", **bounds)
    assert not (tmp_path / "never.sqlite3").exists()


@pytest.mark.parametrize(("flags", "named"), [(["--per-address", "0"], "--per-address"),
                                              (["--idle-timeout", "-1"], "--idle-timeout"),
                                              (["--idle-timeout", "nan"], "--idle-timeout"),
                                              (["--finished-idle", "0"], "--finished-idle")])
def test_serve_refuses_a_wrong_bound_naming_its_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     flags: list[str], named: str) -> None:
    import argparse

    from tabletop_edu.classroom.cli import add_command, serve

    parser = argparse.ArgumentParser()
    add_command(parser.add_subparsers())
    arguments = parser.parse_args(["serve", "--db", str(tmp_path / "never.sqlite3"), *flags])
    assert serve(arguments) == 2
    assert capsys.readouterr().err.startswith(named + ":")
    assert not (tmp_path / "never.sqlite3").exists()


def test_serve_passes_its_bounds_to_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from tabletop_edu.classroom import cli, server

    seen: dict[str, Any] = {}

    class Recorded(Exception):
        pass

    def record(db: Any, **options: Any) -> None:
        seen.update(options)
        raise Recorded

    monkeypatch.setattr(server, "ClassServer", record)
    parser = argparse.ArgumentParser()
    cli.add_command(parser.add_subparsers())
    arguments = parser.parse_args(["serve", "--db", str(tmp_path / "never.sqlite3"), "--per-address", "200",
                                   "--idle-timeout", "600"])
    with pytest.raises(Recorded):
        cli.serve(arguments)
    assert seen["per_address"] == 200 and seen["idle_timeout"] == 600.0
    assert "finished_idle" not in seen
