"""The conformance figures of issue 10's closing note: `check_game` on every game at every table size.

Run: `python benchmarks/conformance_report.py [games]` (default 5 games per table size). Each line says how many
steps were played and how many resamples, twin checks (two states a seat cannot tell apart give the same world
for the same rng) and illegal moves were checked. It raises at the first failure, as the tests do.
"""

from __future__ import annotations

import importlib
import sys
import time

from tabletop_edu.testing import check_game

SIZES = {"tabletop_edu.examples.peek": range(2, 5), "tabletop_edu.commissario": range(2, 6),
         "tabletop_edu.get_adler": range(4, 7), "tabletop_edu.mafia_de_cuba": range(6, 13)}
TOTALS = ("games", "steps", "views_checked", "resamples_checked", "twins_checked", "illegal_rejected",
          "replays_checked")


def main(games: int = 5) -> None:
    totals = dict.fromkeys(TOTALS, 0)
    for name, sizes in SIZES.items():
        module = importlib.import_module(name)
        for players in sizes:
            started = time.process_time()
            report = check_game(module, players=players, games=games, seed=1000)
            for key in TOTALS:
                totals[key] += getattr(report, key)
            print(f"{name.rsplit('.', 1)[1]:14} {players:2} players: {report.games} games, {report.steps} steps, "
                  f"{report.resamples_checked} resamples, {report.twins_checked} twin checks, "
                  f"{report.illegal_rejected} illegal moves refused ({time.process_time() - started:.0f} s of CPU)",
                  flush=True)
    print("total: " + ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in totals.items()))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
