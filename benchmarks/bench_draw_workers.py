"""How many rooms' tables a second the class server draws on its loop, and with 1 or 2 drawing processes.

Run: `python benchmarks/bench_draw_workers.py [--rooms N] [--seats N] [--steps N]`.

`N` seeded rooms of Mafia de Cuba (12 seats by default) are played by random moves in a `Hall` (no sockets), one
move per room a round, until they are on the floor, the class's busy phase. Then, for each of `--steps` rounds,
every room takes a move and all its tables (each seat's and the projector's) are drawn three ways, side by side
(the order turns from round to round):

- on the loop, the reference: `ClassServer.table_for` and `message_json` of each table, one room after the other,
  as the server draws them without workers (`serve --draw-workers 0`);
- by 1 drawing process, then by 2 (`drawing.DrawWorker`): every room's request sent at once, each room always to
  the same process, as `serve --draw-workers N` sends them; the time runs until the last texts are back.

Printed: rooms drawn a second each way, and the ratio to the loop. The workers only pay where the machine has a
core to spare for each: on a 2-core machine, the 2 processes share the cores with the loop (and in a class
benchmark on one machine, with the simulated students too). Numbers are for comparing, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabletop_edu.classroom import ClassServer  # noqa: E402
from tabletop_edu.classroom.drawing import DrawWorker, TableKey  # noqa: E402
from tabletop_edu.classroom.hall import Hall  # noqa: E402
from tabletop_edu.classroom.rooms import Room  # noqa: E402
from tabletop_edu.classroom.store import Store  # noqa: E402
from tabletop_edu.templates.drawn import message_json  # noqa: E402

#: The ways a round is drawn: by the loop (0 processes), by 1 and by 2 processes.
WAYS = (0, 1, 2)


async def rooms_drawn_per_second(rooms: int, seats: int, steps: int, seed: int = 1) -> dict[int, float]:
    """Rooms drawn a second by each way of `WAYS` (its number of processes), over the same rounds."""
    with tempfile.TemporaryDirectory() as folder:
        server = ClassServer(Path(folder) / "server.sqlite3")  # not started: its `table_for` draws as the loop does
        hall = server.hall = Hall(Store(Path(folder) / "rooms.sqlite3"))
        workers = {ways: [DrawWorker() for _ in range(ways)] for ways in WAYS}
        try:
            for drawer in [drawer for drawers in workers.values() for drawer in drawers]:
                await drawer.start()
            played = [(await seated_room(hall, seats, seed + number), random.Random(seed + number))
                      for number in range(rooms)]
            while not all(on_the_floor(room) or room.is_over for room, _ in played):
                await play_a_round(hall, played)
            tables: tuple[TableKey, ...] = (*[(seat, "en") for seat in range(seats)], (None, "en"))
            for room, _ in played:  # each process gets its rooms' games once, before the timing
                for ways in WAYS[1:]:
                    await draw(server, [room], tables, workers[ways])
            seconds = dict.fromkeys(WAYS, 0.0)
            drawn = 0
            for round_number in range(steps):
                await play_a_round(hall, played)
                going = [room for room, _ in played if not room.is_over]
                if not going:
                    break
                turn = round_number % len(WAYS)
                for ways in WAYS[turn:] + WAYS[:turn]:
                    started = time.perf_counter()
                    await draw(server, going, tables, workers[ways])
                    seconds[ways] += time.perf_counter() - started
                drawn += len(going)
            return {ways: drawn / seconds[ways] for ways in WAYS}
        finally:
            for drawer in [drawer for drawers in workers.values() for drawer in drawers]:
                await drawer.stop()
            hall.store.close()


async def seated_room(hall: Hall, seats: int, seed: int) -> Room:
    room = await hall.create_room("mafia_de_cuba", seats, seed=seed)
    for seat in range(seats):
        await hall.claim(room.seats[seat].token, f"Student {seat}")
    return room


def on_the_floor(room: Room) -> bool:
    view = room.view(None)
    return view is not None and view.facts["phase"] == "floor"


async def play_a_round(hall: Hall, played: list[tuple[Room, random.Random]]) -> None:
    """One random move in each room whose game is not over."""
    for room, rng in played:
        if room.state is not None and not room.state.is_over:
            seat = room.state.acting_seats[0]
            await hall.play(room, seat, room.step, str(rng.choice(room.state.legal_actions(seat))))


async def draw(server: ClassServer, rooms: list[Room], tables: tuple[TableKey, ...],
               drawers: list[DrawWorker]) -> None:
    """Every table of `rooms`: on the loop if `drawers` is empty, else by the room's process, all sent at once."""
    if not drawers:
        for room in rooms:
            for seat, language in tables:
                message_json(server.table_for(room, seat, language))
        return
    answers = await asyncio.gather(*[drawers[zlib.crc32(room.code.encode()) % len(drawers)].draw(room, tables)
                                     for room in rooms])
    if any(answer is None for answer in answers):
        raise RuntimeError("a drawing process could not draw a room")


def report(rates: dict[int, float]) -> list[str]:
    loop = rates[0]
    return [f"on the loop (the reference): {loop:.0f} rooms drawn/s"] + [
        f"{ways} drawing process{'es' if ways > 1 else ''}: {rates[ways]:.0f} rooms drawn/s, "
        f"ratio to the loop {rates[ways] / loop:.2f}" for ways in WAYS[1:]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=16)
    parser.add_argument("--seats", type=int, default=12)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)
    rates = asyncio.run(rooms_drawn_per_second(arguments.rooms, arguments.seats, arguments.steps, arguments.seed))
    print(f"{arguments.rooms} rooms of Mafia de Cuba x {arguments.seats} seats on the floor, "
          f"every table of each room after each move (this machine: {os.cpu_count()} cores)")
    for line in report(rates):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
