"""A bounded soak of hostile clients on 127.0.0.1 (issue 49): does the class server keep its memory and serve every
page while clients that never read, never speak and flood it come and go?

    .venv/bin/python benchmarks/soak_hostile_clients.py [--seconds 60] [--seed 1]

The server runs in a process of its own (this script with `--serve`), so that its memory is its own. For the
whole time, from other loopback addresses than the pages' (127.0.0.2 to 127.0.0.4, which the server counts):
- non-readers: seat websockets of one link that send a stale move every 60 ms and read nothing (opened again
  when the server closes one);
- idlers: silent connections that never send a request, more than one address may hold (opened again too);
- a flood: a websocket sending malformed messages as fast as it can, reading nothing.
Meanwhile a real page (127.0.0.1) is answered: every half second the teacher pauses or resumes the room (a table
for every page), the page must get that table, and the join page, the seat's page and the teacher's API must
answer. Printed: the server's resident memory at the start (once every client is connected) and the end, and
how many of the page's checks were served.

A soak, not a test: it exits non-zero if a check was not served or memory grew by more than 10 %.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import join_room, seat_feed

NON_READERS = ("127.0.0.2", 8)  # (address, sockets): the eight sockets of one seat link
IDLERS = ("127.0.0.3", 100)  # more than `listening.MAX_CONNECTIONS_PER_ADDRESS`
FLOOD = "127.0.0.4"
STALE_EVERY = 0.06


def serve(db: str) -> None:
    """The server of the soak: the pages' address (127.0.0.1) not counted, every other loopback address counted."""
    server = ClassServer(db, uncounted=frozenset({"127.0.0.1"}))
    server.run(ready=lambda server: print(f"{server.url} {server.teacher_token}", flush=True))


def resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def connect_from(source: str, url: str, receive_buffer: int | None = None) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    connection = socket.socket()
    if receive_buffer is not None:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    connection.bind((source, 0))
    connection.settimeout(10)
    connection.connect((host, int(port)))
    return connection


def websocket_from(source: str, url: str, path: str) -> socket.socket | None:
    """A websocket opened by hand from `source`, reading nothing after its handshake (None if refused)."""
    connection = connect_from(source, url, receive_buffer=4096)
    host = url.removeprefix("http://")
    connection.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        byte = connection.recv(1)
        if not byte:
            break
        head += byte
    if not head.startswith(b"HTTP/1.1 101"):
        connection.close()
        return None
    return connection


def frame(text: str) -> bytes:
    data = text.encode()
    head = struct.pack("!BB", 0x81, 0x80 | len(data)) if len(data) < 126 else \
        struct.pack("!BBH", 0x81, 0x80 | 126, len(data))
    return head + b"\0\0\0\0" + data


class Hostile:
    """The hostile clients, each in a thread of its own until `stop`."""

    def __init__(self, url: str, slow: str, flood: str) -> None:
        """`slow`, `flood`: the tokens of the seats the non-readers and the flood open."""
        self.url, self.slow, self.flooded = url, slow, flood
        self.stop = threading.Event()
        self.opened = {"non-readers": 0, "idlers": 0, "floods": 0}
        self.threads = [threading.Thread(target=self.non_reader, daemon=True) for _ in range(NON_READERS[1])]
        self.threads += [threading.Thread(target=self.idlers, daemon=True),
                         threading.Thread(target=self.flood, daemon=True)]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def non_reader(self) -> None:
        stale = frame(json.dumps({"type": "move", "step": 999, "action": "x" * 100}))
        while not self.stop.is_set():
            try:
                connection = websocket_from(NON_READERS[0], self.url, f"/ws/seat/{self.slow}")
                if connection is None:
                    self.stop.wait(0.5)
                    continue
                self.opened["non-readers"] += 1
                with connection:
                    while not self.stop.wait(STALE_EVERY):
                        connection.sendall(stale)
            except OSError:
                continue  # closed by the server (too slow, no pong): open another

    def idlers(self) -> None:
        silent: list[socket.socket] = []
        while not self.stop.wait(0.05):
            silent = [connection for connection in silent if not closed(connection)]
            while len(silent) < IDLERS[1]:
                try:
                    silent.append(connect_from(IDLERS[0], self.url))
                    self.opened["idlers"] += 1
                except OSError:
                    break
        for connection in silent:
            connection.close()

    def flood(self) -> None:
        junk = frame("{" * 50) * 100
        while not self.stop.is_set():
            try:
                connection = websocket_from(FLOOD, self.url, f"/ws/seat/{self.flooded}")
                if connection is None:
                    self.stop.wait(0.5)
                    continue
                self.opened["floods"] += 1
                with connection:
                    while not self.stop.is_set():
                        connection.sendall(junk)
            except OSError:
                continue


def closed(connection: socket.socket) -> bool:
    """Whether the server closed a silent connection (or answered it and closed)."""
    connection.setblocking(False)
    try:
        return connection.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        connection.setblocking(True)


def served(call: Callable[[], object]) -> bool:
    try:
        call()
        return True
    except Exception:  # noqa: BLE001 - a page not served is what the soak counts
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1, help="the room's seed")
    parser.add_argument("--serve", metavar="DB", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.serve:
        serve(arguments.serve)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen([sys.executable, __file__, "--serve", str(Path(folder) / "soak.sqlite3")],
                                   stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        hostile: Hostile | None = None
        try:
            assert process.stdout is not None
            url, token = process.stdout.readline().split()
            teacher = TeacherClient(url, token)
            code = teacher.create_room("commissario", 4, seed=arguments.seed)["code"]
            slow, flood, ana, ben = (join_room(url, code, name) for name in ("Sam", "Flo", "Ana", "Ben"))
            page = seat_feed(url, ana["token"])
            page.next(lambda message: message["type"] == "table")
            hostile = Hostile(url, slow["token"], flood["token"])
            hostile.start()
            time.sleep(5)  # every hostile client connected and at work
            start_kb = resident_kb(process.pid)
            checks = failures = 0
            paused = False
            deadline = time.monotonic() + arguments.seconds
            while time.monotonic() < deadline:
                paused = not paused
                checks += 4
                failures += not served(lambda: teacher.command(code, "pause" if paused else "resume"))
                failures += not served(lambda: page.next(lambda message: message["type"] == "table"
                                                         and message["paused"] is paused, timeout=10))
                failures += not served(lambda: urllib.request.urlopen(f"{url}/", timeout=10).read())
                failures += not served(lambda: urllib.request.urlopen(ben["link"], timeout=10).read())
                time.sleep(0.5)
            end_kb = resident_kb(process.pid)
            hostile.stop.set()
            page.close()
        finally:
            if hostile is not None:
                hostile.stop.set()
            process.terminate()
            process.wait(timeout=30)
    growth = (end_kb - start_kb) / start_kb
    print(f"{arguments.seconds:g} s of hostile clients on 127.0.0.1: opened {hostile.opened['non-readers']} non-readers,"
          f" {hostile.opened['idlers']} idlers, {hostile.opened['floods']} floods")
    print(f"server memory: {start_kb / 1024:.1f} MB at the start, {end_kb / 1024:.1f} MB at the end ({growth:+.1%})")
    print(f"pages served: {checks - failures} of {checks}" + (" (every page)" if not failures else ""))
    return 0 if not failures and growth <= 0.10 else 1


if __name__ == "__main__":
    sys.exit(main())
