"""How long the class server takes to draw a room's tables after a move: most of its work in a class.

Run: `python benchmarks/bench_class_tables.py [--games N] [--seats N]`.

Seeded games of Mafia de Cuba (12 seats by default) are played by random moves in a `Hall` (the class server's
rooms, without sockets or a loop). After each move the room's tables are drawn twice, side by side, in turn first:

- as the class server sends them: `ClassServer.table_for` of each seat and of the projector, then `json.dumps`
  (each seat's log and view kept from its last table, what was said and the seats drawn once per step);
- from scratch, the reference: `render_view_html(state.view(seat), "en")` for the same perspectives, what a
  notebook draws.

Printed: milliseconds per move (all the room's tables), p50 and p95, over every move and over the moves on the
floor (where eleven students testify at once and the tables are longest), and the ratio of the reference to the
server. These machines are shared: times drift with the load, and the numbers are for comparing, never asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabletop_edu.classroom import ClassServer  # noqa: E402
from tabletop_edu.classroom.hall import Hall  # noqa: E402
from tabletop_edu.classroom.store import Store  # noqa: E402
from tabletop_edu.classroom.testing import run_now  # noqa: E402
from tabletop_edu.rendering import render_view_html  # noqa: E402


def drawing_times(games: int, seats: int) -> list[tuple[str, float, float]]:
    """(phase, server ms, from-scratch ms) of every move of `games` seeded games."""
    moves: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        server = ClassServer(Path(folder) / "server.sqlite3")
        for seed in range(games):
            hall = server.hall = Hall(Store(Path(folder) / f"game{seed}.sqlite3"))
            room = run_now(hall.create_room("mafia_de_cuba", seats, seed=seed))
            for seat in range(seats):
                run_now(hall.claim(room.seats[seat].token, f"Student {seat}"))
            rng = random.Random(seed)
            perspectives = [*range(seats), None]
            while room.state is not None and not room.state.is_over:
                state = room.state
                seat = state.acting_seats[0]
                run_now(hall.play(room, seat, room.step, str(rng.choice(state.legal_actions(seat)))))

                def by_the_server() -> None:
                    for perspective in perspectives:
                        json.dumps(server.table_for(room, perspective, "en"))

                def from_scratch() -> None:
                    for perspective in perspectives:
                        render_view_html(state.view(perspective), "en")

                timed = {}
                order = (by_the_server, from_scratch) if len(moves) % 2 else (from_scratch, by_the_server)
                for draw in order:
                    start = time.perf_counter()
                    draw()
                    timed[draw] = 1000 * (time.perf_counter() - start)
                moves.append((str(state.view(None).facts["phase"]), timed[by_the_server], timed[from_scratch]))
            hall.store.close()
    return moves


def summary(label: str, moves: list[tuple[str, float, float]]) -> str:
    server = sorted(ms for _, ms, _ in moves)
    scratch = sorted(ms for _, _, ms in moves)

    def p95(values: list[float]) -> float:
        return values[min(len(values) - 1, int(0.95 * len(values)))]

    ratio = statistics.median(scratch) / statistics.median(server)
    return (f"{label} ({len(moves)} moves): class server p50 {statistics.median(server):.2f} ms, p95 {p95(server):.2f} "
            f"ms; from scratch p50 {statistics.median(scratch):.2f} ms, p95 {p95(scratch):.2f} ms; "
            f"ratio from scratch / class server (p50) x{ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seats", type=int, default=12)
    args = parser.parse_args()
    moves = drawing_times(args.games, args.seats)
    print(f"Mafia de Cuba, {args.seats} seats, {args.games} seeded games: {args.seats + 1} tables drawn after each "
          "move (every seat and the projector)")
    print(summary("every move", moves))
    print(summary("on the floor", [move for move in moves if move[0] == "floor"]))


if __name__ == "__main__":
    main()
