"""IS-MCTS with a playout policy against the hand-written bots it plays out with: seeded tournaments whose win
rates, with their 95% intervals, are printed (never asserted: a benchmark, not a test).

    python benchmarks/bench_ismcts.py                 (both games, the default number of games)
    python benchmarks/bench_ismcts.py --games 20 --workers 2 --only commissario

Each duel seats the search and the bot it is measured against at alternating seats, rotating every game, so
both take every seat equally often; every game is seeded and can be replayed from its record.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor

from tabletop_edu.tournament import InProcessExecutor, run_tournament

#: (game, players, the search, the hand-written bot it must beat)
DUELS = {
    "commissario": ("commissario", 2, "ismcts(iterations=64, worlds=4, rollout='greedy', rollout_depth=10, prior=16)",
                    "greedy"),
    "get_adler": ("get_adler", 4, "ismcts(iterations=48, worlds=4, rollout='smart', rollout_depth=None, prior=12)",
                  "smart"),
}


def duel(name: str, games: int, seed: int, executor: Executor) -> str:
    """One seeded duel: its table of win rates with 95% intervals, and how long it took."""
    game, players, search, bot = DUELS[name]
    start = time.perf_counter()
    result = run_tournament(game, [bot, search], players=players, games=games, seed=seed, executor=executor,
                            chunk_size=1)
    seconds = time.perf_counter() - start
    lines = [f"{game}, {players} players, {games} games, seed {seed} ({seconds:.0f} s)"]
    for row in result.rows():
        lines.append(f"  {row.bot:<90} win rate {row.win_rate:.3f}  95% CI [{row.win_low:.3f}, {row.win_high:.3f}]"
                     f"  mean score {row.mean_score:.2f}")
    if result.failures:
        lines.append("  " + result.failure_summary())
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=sorted(DUELS), action="append")
    arguments = parser.parse_args(argv)
    print("python benchmarks/bench_ismcts.py " + " ".join(sys.argv[1:] if argv is None else argv))
    executor: Executor = InProcessExecutor() if arguments.workers <= 1 else \
        ProcessPoolExecutor(max_workers=arguments.workers)
    with executor:
        for name in arguments.only or sorted(DUELS):
            print(duel(name, arguments.games, arguments.seed, executor), flush=True)


if __name__ == "__main__":
    main()
