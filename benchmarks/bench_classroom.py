"""Load on the class server: rooms of 12 simulated students (Mafia de Cuba), all on 127.0.0.1, each student
tapping through its menus and playing when its seat is to move: at once (flat out, the default) or after
thinking a time drawn from `--think LOW-HIGH` seconds (a class of people).

The server runs as its own process (`python -m tabletop_edu serve --port 0`), the students as websockets of
one asyncio loop here. For every move it measures the time from the move being sent to every screen of its
room (all its seats) having received the new table, and prints moves per second, the median (p50), p95 and
maximum, and the share of one core the server process used over the run (its user + system CPU time over the
wall time). It checks that nothing was refused or lost (each room's record holds exactly the moves sent, and
every game ends).

With `--beliefs` the rooms ask beliefs and every student answers each question its page asks, as a seeded
simulated student (`beliefs.SimulatedStudent`, styles in turn) reading the posterior of its own view; each
answer is stored before it is acknowledged, and the run checks that every one was.

    .venv/bin/python benchmarks/bench_classroom.py [--rooms 10] [--students 12] [--think 0-3] [--seed 1] [--beliefs]
                                                   [--compress]

It also prints the bytes of each table update a screen receives (mean, max), plain and deflated as the server
sends them to a browser (permessage-deflate; `--compress` makes the simulated students offer it too).

Goals (issue 23): 50 rooms x 12 students thinking 0-3 s, p95 under 50 ms; 30 rooms flat out, p95 under
150 ms and no move over 1 s.

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
import zlib
from pathlib import Path
from typing import Any

import tornado.websocket

from tabletop_edu.beliefs import STUDENT_STYLES, SimulatedStudent
from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.client import join_room, websocket_url
from tabletop_edu.classroom.testing import LOOK_AGAIN, BeliefPolicy, ServerProcess, simulated_policy

try:
    import psutil
except ImportError:  # the test extra has it; without it the CPU share is not measured
    psutil = None


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
        self.beliefs = 0  # beliefs sent
        self.looked_again = 0  # moves refused as out of date (the table moved under the student's finger)
        self.update_bytes: list[int] = []  # the size of each table message a screen received (as sent, UTF-8)
        self.deflated_bytes: list[int] = []  # the same, deflated as the server sends it to a browser

    def screen_updated(self, step: int) -> None:
        self.seen[step] = self.seen.get(step, 0) + 1
        if self.seen[step] == self.students and step - 1 in self.sent:
            self.latencies.append(time.perf_counter() - self.sent[step - 1])


def deflater() -> Any:
    """A compressor as the server's permessage-deflate keeps one per connection (tornado's: level 6, the
    class server's memory level, context kept from one message to the next)."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS, 6)
    return lambda data: len(compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)) - 4


async def student(url: str, token: str, room: RoomLoad, rng: random.Random, deadline: float,
                  think: tuple[float, float] = (0.0, 0.0), believe: BeliefPolicy | None = None,
                  compress: bool = False) -> None:
    """A student: states the beliefs its page asks (with `believe`); on its turn, thinks a time drawn from
    `think` (seconds), then asks one menu per word and sends the move. `compress`: its socket offers
    permessage-deflate, as a browser does."""
    query = "?view=1" if believe is not None else ""
    socket = await tornado.websocket.websocket_connect(websocket_url(url, f"/ws/seat/{token}{query}"),
                                                       compression_options={} if compress else None)
    deflated = deflater()
    shown, stated = -1, set()
    try:
        while time.perf_counter() < deadline:
            text = await socket.read_message()
            if text is None:
                raise ConnectionError("the server closed a student's connection")
            message = json.loads(text)
            if message["type"] == "refused":
                if message["code"] in LOOK_AGAIN:  # a move sent at a table that moved meanwhile (Mafia's
                    room.moves -= 1                # simultaneous floor): not played, the student looks again
                    room.looked_again += 1
                else:
                    room.refusals.append(message)
                continue
            if message["type"] != "table" or not message["started"] or message["step"] <= shown:
                continue  # a table this screen already showed (sent again after a belief): nothing new
            shown = message["step"]
            data = text.encode("utf-8") if isinstance(text, str) else text
            room.update_bytes.append(len(data))
            room.deflated_bytes.append(deflated(data))
            room.screen_updated(message["step"])
            for question in (message.get("beliefs") or {}).get("questions", []) if believe else []:
                if question["sent"] is None and question["key"] not in stated:
                    stated.add(question["key"])
                    percents = believe(question, message, rng)
                    if percents is not None:
                        room.beliefs += 1
                        await socket.write_message(json.dumps({"type": "belief", "step": message["step"],
                                                               "key": question["key"], "percents": percents}))
            if message["over"]:
                room.over = True
                return
            menu = message["menu"]
            if menu is not None and think[1] > 0:
                await asyncio.sleep(rng.uniform(*think))
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
                        if reply["code"] not in LOOK_AGAIN:
                            room.refusals.append(reply)
                        menu = None
                        break
    finally:
        socket.close()


async def run(url: str, rooms: list[RoomLoad], tokens: dict[str, list[str]], seed: int, seconds: float,
              think: tuple[float, float], beliefs: bool = False, compress: bool = False) -> None:
    deadline = time.perf_counter() + seconds
    rng = random.Random(seed)
    styles = list(STUDENT_STYLES)
    tasks = [student(url, token, room, random.Random(rng.randrange(2**32)), deadline, think,
                     simulated_policy("mafia_de_cuba", SimulatedStudent(styles[seat % len(styles)],
                                                                        seed=f"{seed}-{room.code}-{seat}"))
                     if beliefs else None, compress)
             for room in rooms for seat, token in enumerate(tokens[room.code])]
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--students", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=300, help="stop (and fail) after this long")
    parser.add_argument("--think", type=thinking_time, default=(0.0, 0.0), metavar="LOW-HIGH",
                        help="seconds each student thinks before a move, drawn between LOW and HIGH (default: 0-0, "
                             "flat out)")
    parser.add_argument("--beliefs", action="store_true",
                        help="the rooms ask beliefs; every student answers as a seeded simulated student")
    parser.add_argument("--compress", action="store_true",
                        help="the students' sockets offer permessage-deflate, as browsers do (the server then "
                             "deflates every message it sends them)")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(Path(folder) / "class.sqlite3", Path(folder) / "server.log").start()
        try:
            teacher = TeacherClient(server.url, server.token)
            rooms, tokens = [], {}
            for index in range(arguments.rooms):
                room = teacher.create_room("mafia_de_cuba", arguments.students, seed=arguments.seed + index,
                                           bot_delay=0, beliefs=arguments.beliefs)
                tokens[room["code"]] = [join_room(server.url, room["code"], f"S{seat}")["token"]
                                        for seat in range(arguments.students)]
                rooms.append(RoomLoad(room["code"], arguments.students))
            assert server.process is not None
            cpu_before = server_cpu_seconds(server.process.pid)
            started = time.perf_counter()
            asyncio.run(run(server.url, rooms, tokens, arguments.seed, arguments.seconds, arguments.think,
                            arguments.beliefs, arguments.compress))
            elapsed = time.perf_counter() - started
            cpu = server_cpu_seconds(server.process.pid)
            cpu_share = None if cpu is None or cpu_before is None else (cpu - cpu_before) / elapsed
            lost = []
            for room in rooms:
                record = teacher.record(room.code)
                if record is None or len(record["actions"]) != room.moves:
                    lost.append(room.code)
            stored = {row["code"]: len(row.get("beliefs", {}).get("rows", [])) for row in teacher.records()}
        finally:
            server.stop()
    latencies = sorted(latency for room in rooms for latency in room.latencies)
    refusals = [refusal for room in rooms for refusal in room.refusals]
    moves = sum(room.moves for room in rooms)
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    low, high = arguments.think
    pace = "flat out" if high == 0 else f"thinking {low:g}-{high:g} s"
    print(f"{arguments.rooms} rooms x {arguments.students} students (Mafia de Cuba, {pace}), all on 127.0.0.1")
    print(f"moves: {moves} in {elapsed:.1f} s ({moves / elapsed:.1f} moves/s, each one committed to SQLite and "
          f"sent to {arguments.students} screens)")
    print(f"move -> every screen of its room updated: p50 {1000 * statistics.median(latencies):.1f} ms, "
          f"p95 {1000 * p95:.1f} ms, max {1000 * latencies[-1]:.1f} ms")
    shown = "not measured (no psutil)" if cpu_share is None else f"{100 * cpu_share:.0f} % of one core"
    print(f"server CPU: {shown}")
    if arguments.beliefs:
        print(f"beliefs: {sum(room.beliefs for room in rooms)} stated, {sum(stored.values())} stored with their "
              "posteriors")
    sizes = [size for room in rooms for size in room.update_bytes]
    deflated = [size for room in rooms for size in room.deflated_bytes]
    print(f"bytes per table update (one screen's message): mean {statistics.mean(sizes):.0f}, max {max(sizes)} "
          f"({len(sizes)} updates); deflated as sent to a browser: mean {statistics.mean(deflated):.0f}, "
          f"max {max(deflated)}{'' if arguments.compress else ' (this run sent them plain: --compress)'}")
    print(f"refusals: {len(refusals)} (and {sum(room.looked_again for room in rooms)} moves out of date, "
          f"the student looking again); rooms with a lost or extra move: {len(lost)}; "
          f"games over: {sum(room.over for room in rooms)}/{len(rooms)}")
    all_stored = all(stored.get(room.code, 0) == room.beliefs for room in rooms)
    return 0 if not refusals and not lost and all_stored and all(room.over for room in rooms) else 1


def thinking_time(text: str) -> tuple[float, float]:
    """`--think LOW-HIGH` (seconds, `0-3`) as a pair."""
    low, separator, high = text.partition("-")
    try:
        pair = (float(low), float(high if separator else low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think is LOW-HIGH in seconds, like 0-3, not {text!r}") from None
    if not 0 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"--think needs 0 <= LOW <= HIGH, not {text!r}")
    return pair


def server_cpu_seconds(pid: int) -> float | None:
    """The user + system CPU seconds the server process has used so far (None without psutil)."""
    if psutil is None:
        return None
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


if __name__ == "__main__":
    sys.exit(main())
