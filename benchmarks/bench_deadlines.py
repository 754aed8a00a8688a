"""When a class's time runs out at once: rooms of Commissario at a simultaneous choice (the picks) that nobody
made, with a time limit per move, and every seat's deadline passing in the same moment (issue 23: no database
write holds the server's loop).

    .venv/bin/python benchmarks/bench_deadlines.py [--rooms 30] [--seats 5] [--seed 3]

The class server runs in this process, its deadlines fired by the bench (`classroom.testing.ManualScheduler`):
all in one turn of its loop, as timers due together are. Meanwhile another thread asks the loop for nothing again
and again (`ClassServer.call`), as a page's message waits for its turn. Printed: how long the deadlines' own work
held the loop, the time until every bot's move was played (committed, then played), and the longest and median
wait of a ping meanwhile. The thread switch interval is the one `serve` sets.

A benchmark, not a test: it prints figures and exits non-zero only if a deadline's move was not played.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from tabletop_edu.classroom import ClassServer
from tabletop_edu.classroom.cli import SWITCH_INTERVAL
from tabletop_edu.classroom.testing import ManualScheduler


def at_the_picks(server: ClassServer, rooms: int, seats: int, seed: int) -> list[str]:
    """`rooms` rooms of `seats` students, each played (seeded) to its first choice of every seat at once; their
    codes."""
    hall = server.hall
    assert hall is not None
    rng = random.Random(seed)

    async def open_them() -> list[str]:
        codes = []
        for number in range(rooms):
            room = await hall.create_room("commissario", seats, seed=seed + number, move_time_limit=20)
            for seat in range(seats):
                await hall.claim(room.seats[seat].token, f"Student {seat}")
            assert room.state is not None
            while set(room.state.acting_seats) != set(range(seats)):
                seat = room.state.acting_seats[0]
                await hall.play(room, seat, room.step, str(rng.choice(room.legal_actions(seat))))
            codes.append(room.code)
        return codes

    return list(server.call(open_them, timeout=600))


class Pings:
    """A thread that asks the loop for nothing, again and again, and keeps how long each answer took."""

    def __init__(self, server: ClassServer) -> None:
        self.server, self.stopped = server, threading.Event()
        self.waits: list[float] = []
        self.thread = threading.Thread(target=self._ping, daemon=True)
        self.thread.start()

    def _ping(self) -> None:
        while not self.stopped.is_set():
            started = time.perf_counter()
            self.server.call(lambda: None, timeout=120)
            self.waits.append(time.perf_counter() - started)

    def stop(self) -> list[float]:
        self.stopped.set()
        self.thread.join()
        return self.waits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--seats", type=int, default=5, choices=range(2, 6), metavar="2-5")
    parser.add_argument("--seed", type=int, default=3)
    arguments = parser.parse_args(argv)
    sys.setswitchinterval(SWITCH_INTERVAL)
    scheduler = ManualScheduler()
    with tempfile.TemporaryDirectory() as folder:
        server = ClassServer(Path(folder) / "deadlines.sqlite3", heartbeat=None, scheduler=scheduler).start()
        try:
            hall = server.hall
            assert hall is not None
            codes = at_the_picks(server, arguments.rooms, arguments.seats, arguments.seed)
            deadlines = scheduler.pending(server)

            def time_is_up() -> None:  # every deadline in one turn of the loop, as timers due together run
                for deadline in deadlines:
                    deadline.callback()

            pings = Pings(server)
            started = time.perf_counter()
            server.call(time_is_up, timeout=600)
            held = time.perf_counter() - started

            def played() -> int:
                return sum(row.actor == "time_up" for code in codes for row in hall.rooms[code].actions)

            deadline_at = started + 600
            while server.call(played) < len(deadlines) and time.perf_counter() < deadline_at:
                time.sleep(0.005)
            all_played = time.perf_counter() - started
            moves = server.call(played)
            waits = sorted(pings.stop())
        finally:
            server.stop()
    print(f"{arguments.rooms} rooms x {arguments.seats} students of Commissario at the picks, {len(deadlines)} "
          f"deadlines passing at once")
    print(f"the deadlines' work held the loop {1000 * held:.0f} ms; {moves} of their {len(deadlines)} moves played "
          f"after {1000 * all_played:.0f} ms")
    print(f"a message's wait for the loop meanwhile: max {1000 * max(waits, default=0.0):.0f} ms, median "
          f"{1000 * statistics.median(waits) if waits else 0.0:.1f} ms ({len(waits)} pings)")
    return 0 if moves == len(deadlines) else 1


if __name__ == "__main__":
    sys.exit(main())
