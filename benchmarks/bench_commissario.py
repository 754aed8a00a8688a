"""Commissario throughput beside OpenSpiel's pure-Python games, and the cost of solving one round.

Run: `python benchmarks/bench_commissario.py [seconds per game]`. Prints random self-play speed at 2 and 5 players
beside OpenSpiel's python_kuhn_poker and python_liars_poker measured in the same run, the ratios (ours over
theirs, per decision and per step: see reference.py), and the time to build and solve a two-player round's
payoff table (21 x 21 picks, reduced, then nashpy).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import compare, report  # noqa: E402

from tabletop_edu import commissario  # noqa: E402
from tabletop_edu.commissario import normal_form  # noqa: E402


def round_solve_seconds(seed: int = 3, repeats: int = 3) -> tuple[float, float, str]:
    """Seconds to build the 21 x 21 payoff table of a two-player round, and to reduce and solve it."""
    state = commissario.new_game(2, seed=seed)
    while state.phase == "release":
        state.apply("release none", player=state.current_player)
    facts = state.view(None).facts
    build = solve = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        game = normal_form.payoff_table(facts)
        middle = time.perf_counter()
        normal_form.equilibrium(game)
        end = time.perf_counter()
        build, solve = min(build, middle - start), min(solve, end - middle)
    small = normal_form.reduce_game(game)
    return build, solve, f"{len(game.row_picks)}x{len(game.col_picks)} -> {len(small.row_picks)}x{len(small.col_picks)}"


def main(seconds: float = 3.0) -> None:
    print(report(*compare(commissario, (2, 5), ("python_kuhn_poker", "python_liars_poker"), seconds)))
    for seed in range(10):  # first rounds of ten deals: most reduce to 1 x 1, a few stay mixed
        build, solve, shape = round_solve_seconds(seed)
        print(f"two-player round, seed {seed}: payoff table {shape} after reduction; build {build * 1000:.1f} ms, "
              f"reduce + solve (nashpy) {solve * 1000:.1f} ms")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
