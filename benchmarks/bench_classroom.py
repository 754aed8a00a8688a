"""Load on the class server: 10 rooms of 12 simulated students (Mafia de Cuba), all on 127.0.0.1, each student
tapping through its menus and playing as soon as its seat is to move.

The server runs as its own process (`python -m tabletop_edu serve --port 0`), the 120 students as websockets
of one asyncio loop here. For every move it measures the time from the move being sent to every screen of its
room (all 12 seats) having received the new table, and prints the median, p95 and maximum; it checks that
nothing was refused or lost (each room's record holds exactly the moves sent, and every game ends).

    .venv/bin/python benchmarks/bench_classroom.py [--rooms 10] [--students 12] [--seed 1]

A benchmark, not a test: it prints figures and exits non-zero only if something was lost or refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tornado.websocket

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.client import join_room, websocket_url
from tabletop_edu.classroom.testing import ServerProcess


class RoomLoad:
    """One room: when each move was sent, how many screens have seen each step, and the latencies."""

    def __init__(self, code: str, students: int) -> None:
        self.code, self.students = code, students
        self.sent: dict[int, float] = {}
        self.seen: dict[int, int] = {}
        self.latencies: list[float] = []
        self.moves = 0
        self.refusals: list[dict[str, Any]] = []
        self.over = False

    def screen_updated(self, step: int) -> None:
        self.seen[step] = self.seen.get(step, 0) + 1
        if self.seen[step] == self.students and step - 1 in self.sent:
            self.latencies.append(time.perf_counter() - self.sent[step - 1])


async def student(url: str, token: str, room: RoomLoad, rng: random.Random, deadline: float) -> None:
    """A student as fast as allowed: on its turn, one menu request per word, then the move."""
    socket = await tornado.websocket.websocket_connect(websocket_url(url, f"/ws/seat/{token}"))
    try:
        while time.perf_counter() < deadline:
            text = await socket.read_message()
            if text is None:
                raise ConnectionError("the server closed a student's connection")
            message = json.loads(text)
            if message["type"] == "refused":
                room.refusals.append(message)
                continue
            if message["type"] != "table" or not message["started"]:
                continue
            room.screen_updated(message["step"])
            if message["over"]:
                room.over = True
                return
            menu = message["menu"]
            while menu is not None:
                option = rng.choice(menu["options"]) if menu["options"] else None
                if option is None or option["action"] is not None or \
                        (menu["complete"] is not None and rng.random() < 0.3):
                    action = option["action"] if option is not None and option["action"] else menu["complete"]
                    room.sent[message["step"]] = time.perf_counter()
                    room.moves += 1
                    await socket.write_message(json.dumps({"type": "move", "step": message["step"], "action": action}))
                    break
                await socket.write_message(json.dumps({"type": "menu", "step": message["step"],
                                                       "chosen": [*menu["chosen"], option["word"]]}))
                while True:
                    reply = json.loads(await socket.read_message())
                    if reply["type"] == "menu":
                        menu = reply
                        break
                    if reply["type"] == "refused":
                        room.refusals.append(reply)
                        menu = None
                        break
    finally:
        socket.close()


async def run(url: str, rooms: list[RoomLoad], tokens: dict[str, list[str]], seed: int, seconds: float) -> None:
    deadline = time.perf_counter() + seconds
    rng = random.Random(seed)
    tasks = [student(url, token, room, random.Random(rng.randrange(2**32)), deadline)
             for room in rooms for token in tokens[room.code]]
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--students", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=300, help="stop (and fail) after this long")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(Path(folder) / "class.sqlite3", Path(folder) / "server.log").start()
        try:
            teacher = TeacherClient(server.url, server.token)
            rooms, tokens = [], {}
            for index in range(arguments.rooms):
                room = teacher.create_room("mafia_de_cuba", arguments.students, seed=arguments.seed + index,
                                           bot_delay=0)
                tokens[room["code"]] = [join_room(server.url, room["code"], f"S{seat}")["token"]
                                        for seat in range(arguments.students)]
                rooms.append(RoomLoad(room["code"], arguments.students))
            started = time.perf_counter()
            asyncio.run(run(server.url, rooms, tokens, arguments.seed, arguments.seconds))
            elapsed = time.perf_counter() - started
            lost = []
            for room in rooms:
                record = teacher.record(room.code)
                if record is None or len(record["actions"]) != room.moves:
                    lost.append(room.code)
        finally:
            server.stop()
    latencies = sorted(latency for room in rooms for latency in room.latencies)
    refusals = [refusal for room in rooms for refusal in room.refusals]
    moves = sum(room.moves for room in rooms)
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    print(f"{arguments.rooms} rooms x {arguments.students} students (Mafia de Cuba), all on 127.0.0.1")
    print(f"moves: {moves} in {elapsed:.1f} s ({moves / elapsed:.1f} moves/s, each one committed to SQLite and "
          f"sent to {arguments.students} screens)")
    print(f"move -> every screen of its room updated: median {1000 * statistics.median(latencies):.1f} ms, "
          f"p95 {1000 * p95:.1f} ms, max {1000 * latencies[-1]:.1f} ms")
    print(f"refusals: {len(refusals)}; rooms with a lost or extra move: {len(lost)}; "
          f"games over: {sum(room.over for room in rooms)}/{len(rooms)}")
    return 0 if not refusals and not lost and all(room.over for room in rooms) else 1


if __name__ == "__main__":
    sys.exit(main())
