"""Our games through the OpenSpiel adapter beside OpenSpiel's own python_kuhn_poker: decisions per second as a ratio.

Run: `python benchmarks/bench_openspiel.py [seconds]` (default 3). Requires the `bench` extra (open_spiel).

Each contender is random self-play through pyspiel's interface (`legal_actions`, `apply_action`, chance
outcomes sampled: `reference.openspiel_game`), so the adapter pays what CFR or MCCFR pay for each decision:
the replay of draws, the action catalogue, the state copies. One line per game, its decisions/s and the ratio
to python_kuhn_poker measured in the same run (the target is x1.00 or more), then the slowest ratio. Beside it
the steps/s ratio, chance steps included: every draw of ours is a chance node (a 40-card shuffle is 39), where
a Kuhn hand has two. Time is this process's CPU time in five alternating turns, best kept (see reference.py).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import Throughput, openspiel_game, side_by_side  # noqa: E402

import tabletop_edu.openspiel  # noqa: E402,F401  - registers our games with OpenSpiel

#: OpenSpiel names and table sizes of the games measured: every game of ours, at its smallest table.
GAMES = (("tabletop_peek", 2), ("tabletop_commissario", 2), ("tabletop_get_adler", 4), ("tabletop_mafia_de_cuba", 6))
REFERENCE = "python_kuhn_poker"


def ratio_lines(ours: list[Throughput], reference: Throughput) -> list[str]:
    """The reference's line, one line per game of ours with its ratio to it, then the slowest ratio."""
    lines = [f"{reference.name:<40} {reference.decisions_per_second:>9.0f} decisions/s"]
    ratios = []
    for result in ours:
        ratio = result.decisions_per_second / reference.decisions_per_second
        ratios.append((ratio, result.name))
        steps = result.steps_per_second / reference.steps_per_second
        lines.append(f"{result.name:<40} {result.decisions_per_second:>9.0f} decisions/s  x{ratio:.2f} "
                     f"of {reference.name} (steps/s, chance steps included: x{steps:.2f})")
    slowest, name = min(ratios)
    lines.append(f"slowest ratio x{slowest:.2f} ({name})")
    return lines


def main(seconds: float = 3.0) -> None:
    contenders = [openspiel_game(name, players=players) for name, players in GAMES] + [openspiel_game(REFERENCE)]
    results = side_by_side(contenders, seconds, turns=5, clock=time.process_time)
    for line in ratio_lines(results[:-1], results[-1]):
        print(line)


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
