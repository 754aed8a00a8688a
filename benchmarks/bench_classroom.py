"""Load on the class server: rooms of 12 simulated students (Mafia de Cuba; `--students 8-12`: rooms of 8 to 12,
each room's size drawn from the seed, the class the issue measured), all on 127.0.0.1, each student tapping
through its menus and playing when its seat is to move: at once (flat out, the default) or after thinking a time
drawn from `--think LOW-HIGH` seconds (a class of people).

The server runs as its own process (`python -m tabletop_edu serve --port 0`), the students as websockets of
one asyncio loop here. The class sits down first (every student's page open, each showing its table), then
plays; the time it took to sit down is printed. For every move it measures the time from the move being sent to
every screen of its room (all its seats) having received the new table, and prints moves per second, the median
(p50), p95 and maximum, and the share of one core the server process used over the run (its user + system CPU
time over the wall time) and over its busiest 5 s (sampled every second: the rooms reach Mafia's floor together,
and a server near 100 % then queues every move behind the others' tables whatever its average). A line splits
the latencies by phase: the moves sent in the rooms' busiest phase (thinking, Mafia's free talk: every room's
takers speak at once) and the others. It checks that nothing was refused or lost (each room's record holds
exactly the moves sent, and every game ends).

    .venv/bin/python benchmarks/bench_classroom.py [--rooms 10] [--students 12|8-12] [--think 0-3] [--seed 1]
                                                   [--compress] [--beliefs]

Its first line gives this machine's speed at the server's main work, measured before the run: the median time
to draw a step of a 12-seat floor's 13 tables (`floor_draw_ms`). The latencies of a saturated server grow with it:
compare runs of different machines by it. It ends with the code it timed (`timed_code`): to compare two versions,
run each with PYTHONPATH naming its copy.

The server's own line follows (`serve` prints it when it stops): where the moves waited inside it, from their
arrival to their commit, then to their room's tables sent. Flat out, the second is the room's turn to be drawn
behind the others' (`classroom.waits`).

It also prints the bytes of each table update a screen receives (mean, max), as sent and deflated as the server
sends them to a browser (permessage-deflate, measured on each room's first screen; `--compress` makes the simulated
students' sockets offer it, as browsers do). With `--beliefs` the rooms ask beliefs and every student answers each
question its page asks, as a seeded simulated student (`beliefs.SimulatedStudent`, the styles in turn) reading the
posterior of its own view; the run checks that every answer was stored.

Goals (issue 23): 50 rooms x 12 students thinking 0-3 s, p95 under 50 ms; 30 rooms flat out, p95 under
150 ms and no move over 1 s (the issue measured them at rooms of 8 to 12: run both `--students 12` and `8-12`).

In a class the students' pages run on their own devices; here the 600 simulated students are one process of this
machine, which takes a fifth of a core thinking and two thirds flat out, on the cores the server needs. Left to
the system, the two move from core to core and interrupt each other. `--separate-cores` (Linux) runs the server
(its loop, its writer thread, its drawing processes) on every CPU but the last and the students on the last, so
that the figures are the server's own; the first line says which way the run went. Compare runs of the same way.

`--finished-games 500` measures memory instead: rooms of bots play Mafia de Cuba to the end, ten at a time,
are revealed and left idle (`serve --finished-idle 1`: they sleep a second after), and the server's resident
memory (RSS) is printed after every hundred finished games. Goal: flat within 10 % from 100 to 500.

    .venv/bin/python benchmarks/bench_classroom.py --finished-games 500

A benchmark, not a test: it prints figures and exits non-zero only if something was lost or refused that should
not be (`unexpected_refusals`: flat out, students tapping at machine speed are slowed down as `flood`).

`--class GAME` measures a lecture hall instead (`bench_lecture_hall.py`, whose options follow): one class code,
`--students 300` joining it through the join page within 30 s, seated at their tables, then playing.

    .venv/bin/python benchmarks/bench_classroom.py --class get_adler --students 300
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import tornado.websocket

import tabletop_edu
from tabletop_edu.beliefs import STUDENT_STYLES, SimulatedStudent
from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import join_room, websocket_url
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.throttles import FLOOD_RATE
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.testing import BeliefPolicy, ServerProcess, run_now, simulated_policy
from tabletop_edu.registry import game

try:
    import psutil
except ImportError:  # the test extra has it; without it the CPU share is not measured
    psutil = None

T = TypeVar("T")


class RoomLoad:
    """One room: when each seat sent its moves, when each screen was shown each step, the refusals (a move
    refused as out of date is no loss: in Mafia's free talk, several students speak at once and the Godfather's
    question may close the floor before a student's testimony arrives), and at the end the latency of each move,
    from the record: step s + 1 is the move of the record's seat at step s, sent at that seat's last send before
    any screen showed it, and it counts until every screen showed it. Moves committed together reach the
    screens in one table: a screen shows a move when it shows its step or a later one."""

    def __init__(self, code: str, students: int) -> None:
        self.code, self.students = code, students
        self.sends: dict[int, list[float]] = {}  # seat -> the times it sent a move
        self.shown: dict[int, list[tuple[int, float]]] = {}  # screen (seat) -> (step, time) of each new step shown
        self.latencies: list[float] = []
        self.timed: list[tuple[float, float]] = []  # (when it was sent, its latency) of each latency
        self.moves = 0
        self.refused_moves = 0
        self.refusals: list[dict[str, Any]] = []
        self.over = False
        self.update_bytes: list[int] = []  # the size of each table message a screen received (as sent, UTF-8)
        self.deflated_bytes: list[int] = []  # the same, deflated as the server sends it to a browser, on the
        # room's first screen only (`Screen`)
        self.beliefs = 0  # beliefs sent
        self.menus = 0  # menu requests sent (a word tapped; its student waits for the next menu)
        self.deflating = False  # a screen of the room measures the deflated sizes (`Screen`)
        self.waiting: dict[Screen, tuple[Any, ...]] = {}  # what each screen's student waits for: ("table",) or
        # ("menu", the words chosen, the step), worded only when a run hangs
        self.suspended: list[int | None] = []  # the lines of `student` where its students waited then

    def screen_updated(self, step: int, screen: int, arrived: float) -> None:
        """Note that `screen` got the table of `step` at `arrived` (as its message came off the socket)."""
        shown = self.shown.setdefault(screen, [])
        if shown and shown[-1][0] >= step:
            return  # a table sent again (after a refusal) counts once
        shown.append((step, arrived))

    @property
    def last_step_shown(self) -> int:
        return max((shown[-1][0] for shown in self.shown.values() if shown), default=0)

    def measure(self, actions: list[list[Any]]) -> None:
        """The latency of every move of the record (its list of [seat, action]) that every screen was shown."""
        screens = list(self.shown.values())
        if len(screens) < self.students:
            return
        at = [0] * len(screens)  # per screen: its first entry that may show the step
        for step, (seat, _) in enumerate(actions, start=1):
            times = []
            for index, shown in enumerate(screens):
                while at[index] < len(shown) and shown[at[index]][0] < step:
                    at[index] += 1
                if at[index] == len(shown):
                    break
                times.append(shown[at[index]][1])
            else:
                sent = [time for time in self.sends.get(seat, []) if time <= min(times)]
                if sent:
                    self.latencies.append(max(times) - max(sent))
                    self.timed.append((max(sent), self.latencies[-1]))


def deflater() -> Any:
    """A compressor as the server's permessage-deflate keeps one per connection (tornado's: level 6, the
    class server's memory level, context kept from one message to the next): the size of each message deflated."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS, 6)
    return lambda data: len(compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)) - 4


class Screen:
    """A student's page: reads its socket all the time, like a browser showing each table as it arrives (also
    while its student thinks), noting every table (for the latencies) and every refusal, and telling the
    refusal of a move it sent (its step is one of the moves awaiting an answer) from that of a menu. Its
    student takes the messages in order with `next`."""

    def __init__(self, room: RoomLoad, socket: Any) -> None:
        self.room, self.socket = room, socket
        self.moves_in_flight: collections.Counter[int] = collections.Counter()  # a step's move may be sent twice
        self.seat = -1  # told by the first table
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        # The room's first screen measures the deflated sizes (the seats' tables are alike): deflating every
        # screen's tables took a fifth of this process's CPU, and the 600 screens share its one loop, so each
        # screen's wait for the others' work was counted in every latency.
        self.deflated = deflater() if not room.deflating else None
        room.deflating = True
        self.table: dict[str, Any] | None = None  # the newest table the page shows (noted as it arrives)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            text = await self.socket.read_message()
            arrived = time.perf_counter()  # before this process reads it: a device reads its own in parallel
            if text is None:
                await self.inbox.put(None)
                return
            message = json.loads(text)
            if message["type"] == "table":
                data = text.encode("utf-8") if isinstance(text, str) else text
                self.room.update_bytes.append(len(data))
                if self.deflated is not None:
                    self.room.deflated_bytes.append(self.deflated(data))
            await self.inbox.put(self.note(message, arrived))

    def note(self, message: dict[str, Any], arrived: float) -> dict[str, Any]:
        if message["type"] == "refused":
            if message.get("answers") == "move" and self.moves_in_flight[message.get("step")] > 0:
                self.moves_in_flight[message["step"]] -= 1
                self.room.refused_moves += 1
            self.room.refusals.append(message)
        elif message["type"] == "table" and message["started"]:
            self.table = message
            self.seat = message["seat"]
            self.room.screen_updated(message["step"], self.seat, arrived)
            if message["over"]:
                self.room.over = True
        return message

    async def next(self) -> dict[str, Any]:
        message = await self.inbox.get()
        if message is None:
            raise ConnectionError(f"the server closed a student's connection ({self.socket.close_code} "
                                  f"{self.socket.close_reason}; refusals: "
                                  f"{collections.Counter(r['code'] for r in self.room.refusals)})")
        return message

    def newest(self) -> dict[str, Any]:
        """The table the page shows now: the newest one that arrived (a page redraws itself at each table, also
        while its student thinks or waits for a menu). The messages waiting are dropped: they answered older
        requests, or are tables older than it."""
        while not self.inbox.empty():
            if self.inbox.get_nowait() is None:
                self.inbox.put_nowait(None)
                break
        assert self.table is not None, "the page has shown no table yet"
        return self.table

    def close(self) -> None:
        self.reader.cancel()
        self.socket.close()

    async def move(self, step: int, action: str) -> None:
        self.room.sends.setdefault(self.seat, []).append(time.perf_counter())
        self.room.moves += 1
        self.moves_in_flight[step] += 1
        await self.socket.write_message(json.dumps({"type": "move", "step": step, "action": action}))


class Seating:
    """The class sits down before it plays: each student opens its page (its socket, and the table sent to it
    first), then waits until every student has. This one process opens 360 sockets in about a second; a move timed
    meanwhile measured how busy the students' own loop was connecting the others, not the server's answer."""

    def __init__(self, students: int) -> None:
        self.standing = students
        self.everyone = asyncio.Event()
        self.started = time.perf_counter()
        self.seconds = 0.0  # how long the class took to sit down

    async def sit(self) -> None:
        self.standing -= 1
        if self.standing == 0:
            self.seconds = time.perf_counter() - self.started
            self.everyone.set()
        await self.everyone.wait()


def slowed_down(message: dict[str, Any]) -> bool:
    """A refusal for sending too fast (`flood`): it does not say which message it refused (a page shows it, and
    its student taps again)."""
    return message["type"] == "refused" and message.get("code") == "flood"


async def student(url: str, token: str, room: RoomLoad, rng: random.Random, deadline: float,
                  think: tuple[float, float] = (0.0, 0.0), believe: BeliefPolicy | None = None,
                  compress: bool = False, seating: Seating | None = None,
                  connect: Callable[..., Awaitable[Any]] = tornado.websocket.websocket_connect) -> None:
    """A student: states the beliefs its page asks (with `believe`); on its turn, thinks a time drawn from
    `think` (seconds), then, like its page, plays on the newest table: asks one menu per word (the words so far
    again, at the new step, when another seat's move redraws the table) and sends the move. Every message is
    noted, also those that arrive while it thinks or waits for a menu. `compress`: its socket offers
    permessage-deflate, as a browser does; `seating`: it plays once the whole class has sat down; `connect`: how it
    opens its socket (a test hands its own server here: patching tornado's for the whole process, a feed that another
    test left reconnecting in the background got the story's socket and read its first table)."""
    query = "?view=1" if believe is not None else ""
    screen = Screen(room, await connect(websocket_url(url, f"/ws/seat/{token}{query}"),
                                        compression_options={} if compress else None))
    if seating is not None:
        await seating.sit()
    stated: set[str] = set()
    try:
        while time.perf_counter() < deadline:
            room.waiting[screen] = ("table",)
            message = await screen.next()
            if slowed_down(message) and screen.table is not None:  # the page says so and its student taps again
                await asyncio.sleep(1 / FLOOD_RATE)  # (the refused message may be the move its room waits for), on
                message = screen.newest()  # the newest table: the one it last played on may be older (a
                # student that taps again on that one, as the bench once did, asks at a step long gone for ever)
            elif message["type"] != "table" or not message["started"]:
                continue
            if message["over"]:
                return
            for question in (message.get("beliefs") or {}).get("questions", []) if believe else []:
                if question["sent"] is None and question["key"] not in stated:
                    stated.add(question["key"])
                    percents = believe(question, message, rng)
                    if percents is not None:
                        room.beliefs += 1
                        await screen.socket.write_message(json.dumps({
                            "type": "belief", "step": message["beliefs"]["step"], "key": question["key"],
                            "percents": percents}))
            if message["menu"] is not None and think[1] > 0:
                await asyncio.sleep(rng.uniform(*think))
                message = screen.newest()  # what the page shows once the student has thought
                if message["over"]:
                    return
            menu = message["menu"]
            while menu is not None:
                option = rng.choice(menu["options"]) if menu["options"] else None
                if option is None or option["action"] is not None or \
                        (menu["complete"] is not None and rng.random() < 0.3):
                    action = option["action"] if option is not None and option["action"] else menu["complete"]
                    await screen.move(message["step"], action)
                    break
                chosen = [*menu["chosen"], option["word"]]
                room.menus += 1
                await screen.socket.write_message(json.dumps({"type": "menu", "step": message["step"],
                                                              "chosen": chosen}))
                while True:
                    room.waiting[screen] = ("menu", chosen, message["step"])
                    reply = await screen.next()
                    if reply["type"] == "menu" and reply["step"] == message["step"]:
                        menu = reply
                        break
                    if reply["type"] == "table" and reply["started"]:  # another seat moved: the page asks the
                        message = reply  # words chosen so far again, at the new step (seat.js)
                        if reply["over"] or reply["menu"] is None:
                            menu = None
                            break
                        room.menus += 1
                        await screen.socket.write_message(json.dumps({"type": "menu", "step": reply["step"],
                                                                      "chosen": chosen}))
                    elif slowed_down(reply):  # the menu request may be the one refused: asked again, later
                        await asyncio.sleep(1 / FLOOD_RATE)
                        message = screen.newest()
                        menu = message["menu"] if not message["over"] else None
                        break
                    elif reply["type"] == "refused" and reply.get("step") == message["step"]:
                        # the words chosen so far start no move at the new step: the page shows the table's own
                        # menu (seat.js); a student left waiting for a table instead would wait for ever when
                        # it is the last seat to act
                        menu = message["menu"] if reply.get("answers") == "menu" else None
                        break
    finally:
        screen.close()


def unexpected_refusals(refusals: list[dict[str, Any]], flat_out: bool) -> list[dict[str, Any]]:
    """The refusals that fail a run. A table that moved on (`stale`) or ended (`over`) before a message reached it
    is the race of any busy room. `flood` is expected flat out only: students that never think testify on Mafia's
    floor again and again, each testimony a few menu requests and a move within milliseconds, faster than the
    server lets a page send (`FLOOD_RATE` a second), and it slows them down as it must; they tap again. At a
    human pace (`--think`), a flood refused is a failure."""
    expected = {"stale", "over", "flood"} if flat_out else {"stale", "over"}
    return [refusal for refusal in refusals if refusal.get("code") not in expected]


async def run(url: str, rooms: list[RoomLoad], tokens: dict[str, list[str]], seed: int, seconds: float,
              think: tuple[float, float], beliefs: bool = False, compress: bool = False) -> Seating:
    deadline = time.perf_counter() + seconds
    rng = random.Random(seed)
    styles = list(STUDENT_STYLES)
    seating = Seating(sum(len(tokens[room.code]) for room in rooms))
    tasks: dict[asyncio.Task[None], RoomLoad] = {}
    for room in rooms:
        for seat, token in enumerate(tokens[room.code]):
            believe = simulated_policy("mafia_de_cuba", SimulatedStudent(styles[seat % len(styles)],
                                                                         seed=f"{seed}-{room.code}-{seat}")) \
                if beliefs else None
            tasks[asyncio.ensure_future(student(url, token, room, random.Random(rng.randrange(2**32)), deadline,
                                                think, believe, compress, seating))] = room
    done, waiting = await asyncio.wait(tasks, timeout=seconds, return_when=asyncio.FIRST_EXCEPTION)
    for task in done:
        task.result()  # a student that failed fails the run
    if waiting:  # a run that hangs says where in `student` each student of a room that never ended waits
        for task in waiting:
            lines = [frame.f_lineno for frame in task.get_stack() if frame.f_code is student.__code__]
            tasks[task].suspended.append(lines[0] if lines else None)
            task.cancel()
        raise asyncio.TimeoutError(f"{len(waiting)} students still played after {seconds:g} s")
    return seating


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    if any(argument == "--class" or argument.startswith("--class=") for argument in given):
        import bench_lecture_hall  # imported here: it builds on this module

        return int(bench_lecture_hall.main(given))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--students", type=room_sizes, default=(12, 12), metavar="N|LOW-HIGH",
                        help="students per room (default 12); LOW-HIGH: each room's size drawn from the seed, like "
                             "the class of 8 to 12 the issue measured (8-12)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=900, help="stop (and fail) after this long")
    parser.add_argument("--think", type=thinking_time, default=(0.0, 0.0), metavar="LOW-HIGH",
                        help="seconds each student thinks before a move, drawn between LOW and HIGH (default: 0-0, "
                             "flat out)")
    parser.add_argument("--finished-games", type=int, default=0, metavar="N",
                        help="measure the server's memory over N finished games instead (see above)")
    parser.add_argument("--compress", action="store_true",
                        help="the students' sockets offer permessage-deflate, as browsers do (the server then "
                             "deflates every message it sends them)")
    parser.add_argument("--beliefs", action="store_true",
                        help="the rooms ask beliefs; every student answers as a seeded simulated student")
    parser.add_argument("--draw-workers", type=int, default=0, metavar="N",
                        help="the server draws the students' tables in N processes (`serve --draw-workers N`)")
    parser.add_argument("--separate-cores", action="store_true",
                        help="run the server on every CPU but the last and the simulated students on the last "
                             "(Linux; see above)")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, write its profile to FILE "
                        "and print where its time went")
    arguments = parser.parse_args(argv)
    if arguments.finished_games:
        return memory(arguments.finished_games, arguments.seed)
    cores = None
    if arguments.separate_cores:
        try:
            cores = split_cores(os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else ())
        except ValueError as error:
            parser.error(str(error))
    sizes = drawn_sizes(arguments.rooms, arguments.students, arguments.seed)
    floor_ms = statistics.median(floor_draw_ms())  # before the run: the machine's speed, not its load
    timed = timed_code()  # before the run: the code it starts (its folder may change meanwhile)
    with tempfile.TemporaryDirectory() as folder:
        profile = {"python_options": ["-m", "cProfile", "-o", str(Path(arguments.profile).resolve())]} \
            if arguments.profile else {}
        server = started_apart(ServerProcess(Path(folder) / "class.sqlite3", Path(folder) / "server.log",
                                             "--draw-workers", str(arguments.draw_workers), **profile).start, cores)
        assert server.process is not None
        sampler = CpuSampler(server.process.pid)
        try:
            teacher = TeacherClient(server.url, server.token)
            rooms, tokens = [], {}
            for index, students in enumerate(sizes):
                room = teacher.create_room("mafia_de_cuba", students, seed=arguments.seed + index,
                                           bot_delay=0, beliefs=arguments.beliefs)
                tokens[room["code"]] = [join_room(server.url, room["code"], f"S{seat}")["token"]
                                        for seat in range(students)]
                rooms.append(RoomLoad(room["code"], students))
            cpu_before = server_cpu_seconds(server.process.pid)
            sampler.start()
            started, students_cpu = time.perf_counter(), time.process_time()
            try:
                seated = asyncio.run(run(server.url, rooms, tokens, arguments.seed, arguments.seconds, arguments.think,
                                         arguments.beliefs, arguments.compress)).seconds
            except (ConnectionError, asyncio.TimeoutError):
                print("".join(server.output[-20:]), file=sys.stderr)  # what the server said last
                for room in rooms:
                    codes = collections.Counter(str(refusal.get("code")) for refusal in room.refusals)
                    record = teacher.record(room.code)
                    stored = "none" if record is None else len(record["actions"])
                    print(f"room {room.code}: {room.moves} moves sent, {stored} stored, last step seen "
                          f"{room.last_step_shown}, over: {room.over}, refusals {dict(codes)}", file=sys.stderr)
                    if not room.over:
                        print(f"  its students waited at lines {sorted(room.suspended, key=str)} of student()",
                              file=sys.stderr)
                        for screen, waits in room.waiting.items():
                            shown = room.shown.get(screen.seat) or [(None, 0.0)]
                            what = "a table" if waits[0] == "table" else f"the menu after {waits[1]} at step {waits[2]}"
                            print(f"  seat {screen.seat} waits for {what}; its screen showed step {shown[-1][0]}, "
                                  f"{screen.inbox.qsize()} messages unread, socket closed: "
                                  f"{screen.socket.close_code}", file=sys.stderr)
                raise
            elapsed = time.perf_counter() - started
            students_cpu = (time.process_time() - students_cpu) / elapsed
            sampler.stop()
            cpu = server_cpu_seconds(server.process.pid)
            cpu_share = None if cpu is None or cpu_before is None else (cpu - cpu_before) / elapsed
            lost, stored, recorded = [], {}, 0
            for room in rooms:
                record = teacher.record(room.code)
                stored[room.code] = sum((teacher.room(room.code).get("beliefs") or {}).get("counts", [])) \
                    if arguments.beliefs else 0
                if record is not None:
                    room.measure(record["actions"])
                    recorded += len(record["actions"])
                # a lost move: the record holds fewer moves than every screen was shown, or more than were sent
                # and not refused (a refusal still in flight when a student left at the end is no loss)
                if record is None or len(record["actions"]) > room.moves - room.refused_moves or \
                        len(record["actions"]) != room.last_step_shown:
                    lost.append(room.code)
                    print(f"room {room.code}: {0 if record is None else len(record['actions'])} moves stored, last "
                          f"step shown {room.last_step_shown}, {room.moves} sent, {room.refused_moves} refused",
                          file=sys.stderr)
        finally:
            sampler.stop()
            server.stop()
        inside = server_waits(server)
    latencies = sorted(latency for room in rooms for latency in room.latencies)
    refusals = [refusal for room in rooms for refusal in room.refusals]
    moves = sum(room.moves for room in rooms)
    p95 = percentile95(latencies)
    low, high = arguments.think
    pace = "flat out" if high == 0 else f"thinking {low:g}-{high:g} s"
    students = f"{min(sizes)}" if min(sizes) == max(sizes) else \
        f"{min(sizes)}-{max(sizes)} (mean {statistics.mean(sizes):.1f})"
    print(f"{arguments.rooms} rooms x {students} students (Mafia de Cuba, {pace}), all on 127.0.0.1, "
          f"{cores_text(cores)}; this machine draws a step of a 12-seat floor (13 tables) in {floor_ms:.1f} ms "
          f"(median); timing {timed}")
    print(f"the class sat down (every page open) in {seated:.2f} s, then played: moves: {moves} in "
          f"{elapsed - seated:.1f} s ({moves / (elapsed - seated):.1f} moves/s, each one committed to SQLite and "
          f"sent to {students} screens)")
    print(f"move -> every screen of its room updated: p50 {1000 * statistics.median(latencies):.1f} ms, "
          f"p95 {1000 * p95:.1f} ms, max {1000 * latencies[-1]:.1f} ms ({len(latencies)} of the {recorded} moves "
          "stored: the others' seats sent no move before they were shown)")
    print(phases_text([timed for room in rooms for timed in room.timed]))
    print(closed_loop_text(latencies, elapsed - seated, sum(room.students for room in rooms),
                           sum(room.menus for room in rooms), moves, flat_out=high == 0))
    print(inside)  # where they waited: for their commit, then for their room's turn to be drawn and sent
    busiest = busiest_share(sampler.samples)
    shown = "not measured (no psutil)" if cpu_share is None else \
        f"{100 * cpu_share:.0f} % of one core, {1000 * cpu_share * elapsed / max(moves, 1):.1f} ms of CPU per move"
    if busiest is not None:
        shown += f", {100 * busiest:.0f} % over its busiest {BUSIEST_WINDOW:g} s (a server near 100 % queues moves)"
    workers = f" and its {arguments.draw_workers} drawing processes" if arguments.draw_workers else ""
    print(f"server{workers} CPU: {shown}; the simulated students' process: {100 * students_cpu:.0f} % of one core "
          f"(load average {' '.join(f'{load:.1f}' for load in os.getloadavg())}: the machine's other work; "
          f"{stolen_text(sampler.stolen)})")
    sizes = [size for room in rooms for size in room.update_bytes]
    deflated = [size for room in rooms for size in room.deflated_bytes]
    print(f"bytes per table update (one screen's message): mean {statistics.mean(sizes):.0f}, max {max(sizes)} "
          f"({len(sizes)} updates); deflated as sent to a browser (a screen a room): "
          f"mean {statistics.mean(deflated):.0f}, max {max(deflated)}"
          f"{'' if arguments.compress else ' (this run sent them plain: --compress)'}")
    if arguments.beliefs:
        print(f"beliefs: {sum(room.beliefs for room in rooms)} stated, {sum(stored.values())} stored")
    codes = collections.Counter(str(refusal.get("code")) for refusal in refusals)
    print(f"refusals: {len(refusals)} {dict(codes)} ({sum(room.refused_moves for room in rooms)} of moves); "
          f"rooms with a lost or extra move: {len(lost)}; "
          f"games over: {sum(room.over for room in rooms)}/{len(rooms)}")
    unexpected = unexpected_refusals(refusals, flat_out=high == 0)
    if arguments.profile:
        pstats.Stats(arguments.profile).sort_stats("tottime").print_stats(25)
        pstats.Stats(arguments.profile).sort_stats("cumulative").print_stats(40)
    all_stored = all(stored.get(room.code, 0) >= room.beliefs for room in rooms)
    return 0 if not unexpected and not lost and all_stored and all(room.over for room in rooms) else 1


def split_cores(cpus: Iterable[int]) -> tuple[set[int], set[int]]:
    """(the server's CPUs, the simulated students' CPU) for `--separate-cores`, from the CPUs this process may
    use: the students (one thread of asyncio) get the last, the server all the others. ValueError if there is
    only one: then nothing can be kept apart."""
    ordered = sorted(cpus)
    if len(ordered) < 2:
        raise ValueError(f"--separate-cores needs two CPUs; this process may use {len(ordered)} "
                         "(and Linux, for os.sched_setaffinity).")
    return set(ordered[:-1]), {ordered[-1]}


def started_apart(start: Callable[[], T], cores: tuple[set[int], set[int]] | None) -> T:
    """`start()`, which spawns the server, run on the server's CPUs, which its process keeps (a child keeps its
    parent's); then every thread of this process (the students, and the thread `start` left reading the server's
    output) moves to the students' CPU. `cores` None: nothing moves."""
    if cores is None:
        return start()
    server_cpus, students_cpus = cores
    os.sched_setaffinity(0, server_cpus)
    try:
        return start()
    finally:
        for thread in threading.enumerate():
            if thread.native_id is not None and thread.is_alive():
                os.sched_setaffinity(thread.native_id, students_cpus)


def timed_code(package: Path = Path(tabletop_edu.__file__).resolve().parent) -> str:
    """Which code the run timed, in words: the folder of the `tabletop_edu` imported here, which the server runs
    too (`ServerProcess`), and its git commit, marked when the folder has changes not committed. This script's own
    folder comes first on the path, not the working folder: a run from a second copy of the code (a worktree, to
    compare two versions) times the installed one unless PYTHONPATH names the copy, and says so here."""
    root = package.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--",
                                  package.name], capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return f"the code in {root}"
    return f"the code in {root} (commit {commit}{', with changes not committed' if changed.strip() else ''})"


def cores_text(cores: tuple[set[int], set[int]] | None) -> str:
    """Where the run's server and students ran, in words, for the first line of the figures."""
    if cores is None:
        return "the server and the students sharing this machine's CPUs"
    server_cpus, students_cpus = (", ".join(map(str, sorted(cpus))) for cpus in cores)
    return f"the server on CPU {server_cpus}, the students on CPU {students_cpus} (--separate-cores)"


#: Seconds a finished room stays awake in the memory benchmark.
IDLE = 1.0


def memory(games: int, seed: int, batch: int = 10, every: int = 100) -> int:
    """Play `games` games of bots to their end, reveal them, and print the server's RSS every `every` games,
    once their rooms had the time to fall asleep."""
    if psutil is None:
        print("--finished-games needs psutil (the test extra)", file=sys.stderr)
        return 2
    figures: list[tuple[int, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(Path(folder) / "class.sqlite3", Path(folder) / "server.log", "--finished-idle",
                               str(IDLE)).start()
        try:
            assert server.process is not None
            process = psutil.Process(server.process.pid)
            teacher = TeacherClient(server.url, server.token)
            started = time.perf_counter()
            for first in range(0, games, batch):
                codes = [teacher.create_room("mafia_de_cuba", 6, seed=seed + first + index, bot_delay=0,
                                             bots={seat: "random" for seat in range(6)})["code"]
                         for index in range(min(batch, games - first))]
                for code in codes:
                    while not teacher.room(code)["over"]:
                        time.sleep(0.05)
                    teacher.command(code, "reveal")
                finished = first + len(codes)
                if finished % every == 0 or finished == games:
                    time.sleep(3 * IDLE)  # every revealed room idle long enough to be put to sleep
                    figures.append((finished, process.memory_info().rss / 2**20))
                    print(f"{finished} finished games: server RSS {figures[-1][1]:.1f} MB "
                          f"({time.perf_counter() - started:.0f} s)", flush=True)
            awake = sum(1 for room in teacher.rooms() if not room["over"])
        finally:
            server.stop()
    base = figures[0][1]
    spread = max(abs(rss - base) / base for _, rss in figures)
    print(f"RSS from {figures[0][0]} to {figures[-1][0]} games: {base:.1f} -> {figures[-1][1]:.1f} MB, at most "
          f"{100 * spread:.1f} % from the first figure (goal: 10 %); rooms not over: {awake}")
    return 0 if awake == 0 else 1


def room_sizes(text: str) -> tuple[int, int]:
    """`--students N` or `LOW-HIGH` (rooms of 8 to 12 students: `8-12`, each room's size drawn from the seed) as a
    pair, within the bounds of Mafia de Cuba's table."""
    low, separator, high = text.partition("-")
    try:
        pair = (int(low), int(high if separator else low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--students is a number or LOW-HIGH, like 12 or 8-12, not {text!r}") \
            from None
    mafia = game("mafia_de_cuba")
    if not mafia.min_players <= pair[0] <= pair[1] <= mafia.max_players:
        raise argparse.ArgumentTypeError(f"--students needs {mafia.min_players} <= LOW <= HIGH <= "
                                         f"{mafia.max_players} (Mafia de Cuba's table), not {text!r}")
    return pair


def drawn_sizes(rooms: int, students: tuple[int, int], seed: int) -> list[int]:
    """How many students sit in each room: between `students`' two bounds, drawn from `seed`."""
    rng = random.Random(f"sizes-{seed}")
    return [rng.randint(*students) for _ in range(rooms)]


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


def floor_draw_ms(seats: int = 12, seed: int = 1, moves: int = 20) -> list[float]:
    """The milliseconds this process takes to draw each step of Mafia de Cuba's floor (every seat's table and
    the projector's, as `ClassServer.table_for` draws them) after each of the first `moves` moves of a seeded
    floor: the server's main work, timed on this machine, so that runs on machines of other speeds can be compared
    (the latencies of a saturated server grow with it)."""
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        server = ClassServer(Path(folder) / "server.sqlite3")
        hall = server.hall = Hall(Store(Path(folder) / "floor.sqlite3"))
        try:
            room = run_now(hall.create_room("mafia_de_cuba", seats, seed=seed))
            for seat in range(seats):
                run_now(hall.claim(room.seats[seat].token, f"Student {seat}"))
            rng = random.Random(seed)
            while len(times) < moves and room.state is not None and not room.state.is_over:
                seat = room.state.acting_seats[0]
                run_now(hall.play(room, seat, room.step, str(rng.choice(room.state.legal_actions(seat)))))
                if room.state.view(None).facts["phase"] != "floor":
                    continue
                started = time.perf_counter()
                for perspective in [*range(seats), None]:
                    json.dumps(server.table_for(room, perspective, "en"))
                times.append(1000 * (time.perf_counter() - started))
        finally:
            hall.store.close()
    return times


#: The window of the busiest share of the server's CPU, in seconds (Mafia's floor, the rooms' busy phase).
BUSIEST_WINDOW = 5.0


def server_waits(server: ServerProcess) -> str:
    """The line where the stopped server said how long its moves waited inside it (none if it committed none)."""
    try:
        return server.wait_for(r"^moves inside the server.*", timeout=30).group(0)
    except (TimeoutError, RuntimeError):  # it stopped without the line: no move of a student was committed
        return "moves inside the server: none committed"


def percentile95(ordered: list[float]) -> float:
    """The 95th percentile of sorted values, as every figure of this bench takes it."""
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def busy_phase(timed: list[tuple[float, float]], window: float = BUSIEST_WINDOW) -> tuple[float, float, float]:
    """The rooms' busy phase: from the first to the last window of `window` s (counted from the first move sent)
    in which at least half as many moves were sent as in the busiest one. Its start and end, in seconds from the
    first move, and its moves per second."""
    start = min(sent for sent, _ in timed)
    counts = collections.Counter(int((sent - start) // window) for sent, _ in timed)
    most = max(counts.values())
    busy = [number for number, count in counts.items() if 2 * count >= most]
    first, last = min(busy), max(busy) + 1
    moves = sum(count for number, count in counts.items() if first <= number < last)
    return first * window, last * window, moves / ((last - first) * window)


def phases_text(timed: list[tuple[float, float]]) -> str:
    """Where the slow moves are: the latencies of the moves sent in the rooms' busy phase (`busy_phase`: Mafia's
    free talk, when every room's takers speak at once) and of those sent before or after it, in words."""
    if not timed:
        return "no move was timed"
    begin, end, rate = busy_phase(timed)
    start = min(sent for sent, _ in timed)
    busy = sorted(latency for sent, latency in timed if begin <= sent - start < end)
    rest = sorted(latency for sent, latency in timed if not begin <= sent - start < end)
    outside = f"p50 {1000 * statistics.median(rest):.1f} ms, p95 {1000 * percentile95(rest):.1f} ms over the " \
        f"{len(rest)} others" if rest else "no other move"
    return (f"by phase: the rooms' busiest, {begin:g}-{end:g} s after the first move ({rate:.0f} moves/s): p50 "
            f"{1000 * statistics.median(busy):.1f} ms, p95 {1000 * percentile95(busy):.1f} ms over {len(busy)} "
            f"moves; before and after it: {outside}")


def closed_loop_text(latencies: list[float], seconds: float, students: int, menus: int, moves: int,
                     flat_out: bool) -> str:
    """How many moves waited for their screens at once, on average (Little's law: the moves' latencies summed over
    the play's time), and the menus asked per move. Flat out, the students are a closed loop: each sends its next
    move as soon as its table shows it, its only pause the menus it asks first (each a round trip to the busy
    server), so a server that answers faster is sent more moves at once, and the latency stays about the moves
    in flight over the moves per second: sent the legal moves with the table, students that asked no menu played
    20 % more moves a second, and waited longer for each (issue 23's last note). `--think` opens the loop: there
    the latency is the server's own."""
    if not latencies or seconds <= 0:
        return "moves in flight: none timed"
    text = (f"moves in flight at once, on average: {sum(latencies) / seconds:.1f} of {students} students "
            f"(Little's law), each move after {menus / max(moves, 1):.1f} menu requests")
    return text + ("; flat out, a closed loop: a faster server is sent more moves at once" if flat_out else "")


class CpuSampler:
    """The server's CPU seconds, read every second in a thread of this process: a run's average hides its
    busiest phase, when the rooms are on Mafia's floor at once and every move waits for the others' tables.

    It also reads the CPU seconds the machine's host took from it (`steal`, on a virtual machine): the same run
    on a shared machine gives latencies twice as long when its host is busy, whatever the server does."""

    def __init__(self, pid: int, every: float = 1.0) -> None:
        self.pid, self.every = pid, every
        self.samples: list[tuple[float, float]] = []  # (wall time, the server's CPU seconds so far)
        self.stolen: list[tuple[float, float]] = []  # (wall time, the CPU seconds the host took from the machine)
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="cpu-sampler", daemon=True)

    def start(self) -> CpuSampler:
        if psutil is not None:
            self._thread.start()
        return self

    def _sample(self) -> None:
        while True:
            try:
                cpu = server_cpu_seconds(self.pid)
            except psutil.Error:  # the server is gone: the run says why
                return
            if cpu is not None:
                self.samples.append((time.perf_counter(), cpu))
            stolen = host_stolen_seconds()
            if stolen is not None:
                self.stolen.append((time.perf_counter(), stolen))
            if self._stopped.wait(self.every):
                return

    def stop(self) -> None:
        self._stopped.set()
        if self._thread.is_alive():
            self._thread.join()


def busiest_share(samples: list[tuple[float, float]], window: float = BUSIEST_WINDOW) -> float | None:
    """The highest share of one core used between two samples (wall time, CPU seconds) at least `window` seconds
    apart, each sample taken with the latest one before it that is (the shortest such span), or None when the
    samples span less than `window`."""
    best: float | None = None
    first = 0
    for last, (wall, cpu) in enumerate(samples):
        while first < last and wall - samples[first + 1][0] >= window:
            first += 1
        start_wall, start_cpu = samples[first]
        if wall - start_wall >= window:
            share = (cpu - start_cpu) / (wall - start_wall)
            best = share if best is None else max(best, share)
    return best


def host_stolen_seconds() -> float | None:
    """The CPU seconds this machine's host has taken from its cores so far (Linux's `steal`), or None where it is
    not told (no psutil, another system)."""
    if psutil is None:
        return None
    stolen = getattr(psutil.cpu_times(), "steal", None)
    return None if stolen is None else float(stolen)


def stolen_text(samples: list[tuple[float, float]]) -> str:
    """How much the host took, over the run and over its busiest window, in words."""
    if len(samples) < 2:
        return "the CPU its host took was not measured"
    (first_wall, first), (last_wall, last) = samples[0], samples[-1]
    overall = (last - first) / max(last_wall - first_wall, 1e-9)
    busiest = busiest_share(samples)
    worst = "" if busiest is None else f", {100 * busiest:.0f} % over its worst {BUSIEST_WINDOW:g} s"
    return f"its host took {100 * overall:.0f} % of a core from it (CPU steal){worst}"


def server_cpu_seconds(pid: int) -> float | None:
    """The user + system CPU seconds the server process and its drawing processes (`--draw-workers`, its
    children) have used so far (None without psutil)."""
    if psutil is None:
        return None
    server = psutil.Process(pid)
    seconds = 0.0
    for process in [server, *server.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:  # a drawing process that ended meanwhile
            continue
        seconds += times.user + times.system
    return seconds


if __name__ == "__main__":
    sys.exit(main())
