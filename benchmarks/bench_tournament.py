"""Tournament throughput with 1 and 2 local worker processes, and the PettingZoo adapter beside PettingZoo's
own classic environments, measured in the same run and printed as ratios (never asserted: shared machines).

    python benchmarks/bench_tournament.py        (or: python -m tabletop_edu bench)

Targets (issue 7): speed-up >= 1.7x with 2 workers on 2 cores; adapter steps/s >= 1x leduc_holdem_v4's.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

from tabletop_edu.tournament import run_tournament

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))

LINEUP = ["random", "greedy", "bidder"]
GAMES = 96


def _warm_up(_: int) -> None:
    """Play one game with the line-up in this worker (importing the bots' modules), then linger a moment so
    that every worker of the pool gets one warm-up task."""
    run_tournament("commissario", LINEUP, players=3, games=1, seed=99)
    time.sleep(0.3)


def tournament_seconds(workers: int, repeats: int = 3) -> float:
    """Best wall-clock seconds of one fixed tournament (Commissario, 3 players) on a pool of `workers`.

    The best of a few runs: on a shared machine, the fastest run is the one least disturbed by others.
    """
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_warm_up, range(workers)))  # imports and first calls are not what we measure
        best = float("inf")
        for repeat in range(repeats):  # fresh seeds each time, so no worker replays games it has cached
            start = time.perf_counter()
            run_tournament("commissario", LINEUP, players=3, games=GAMES, seed=100 + repeat, executor=pool,
                           chunk_size=4)
            best = min(best, time.perf_counter() - start)
        return best


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def control_speedup() -> float:
    """The speed-up of a pure-Python loop on 2 processes vs 1: what this machine can give right now.

    On shared cores this is often below 2x; the tournament's speed-up should be read against it.
    """
    seconds = []
    for workers in (1, 2):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            list(pool.map(_burn, [10] * workers))
            start = time.perf_counter()
            list(pool.map(_burn, [1_500_000] * 8))
            seconds.append(time.perf_counter() - start)
    return seconds[0] / seconds[1]


def steps_per_second(environment: object, seconds: float = 2.0) -> tuple[float, int]:
    """Random legal play through the AEC API (reset, agent_iter, last, step) for about `seconds`."""
    import numpy as np

    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        environment.reset(seed=games)  # type: ignore[attr-defined]
        for agent in environment.agent_iter():  # type: ignore[attr-defined]
            observation, _, termination, truncation, _ = environment.last()  # type: ignore[attr-defined]
            if termination or truncation:
                action = None
            else:
                mask = observation["action_mask"]
                action = int(rng.choice(np.flatnonzero(mask)))
            environment.step(action)  # type: ignore[attr-defined]
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start), games


def main() -> None:
    one, two = tournament_seconds(1), tournament_seconds(2)
    print(f"tournament ({GAMES} games of commissario, {', '.join(LINEUP)}): 1 worker {GAMES / one:6.1f} games/s, "
          f"2 workers {GAMES / two:6.1f} games/s, speed-up {one / two:.2f}x (target >= 1.7x)")
    print(f"  control: a pure-Python loop gets {control_speedup():.2f}x from 2 processes on this machine now")
    try:
        from tabletop_edu.pettingzoo_env import env
    except ImportError:
        print("pettingzoo not installed (the `rl` extra): adapter benchmark skipped")
        return
    references = {}
    try:
        from pettingzoo.classic import leduc_holdem_v4
        references["leduc_holdem_v4"] = leduc_holdem_v4.env()
    except Exception as error:  # rlcard missing: say so and compare with tic-tac-toe only
        print(f"leduc_holdem_v4 unavailable ({type(error).__name__}: {error}); using tictactoe_v3 only")
    try:
        from pettingzoo.classic import tictactoe_v3
        references["tictactoe_v3"] = tictactoe_v3.env()
    except Exception as error:  # pygame missing
        print(f"tictactoe_v3 unavailable ({type(error).__name__}: {error})")
    if not references:
        print("no PettingZoo classic environment available (pip install 'pettingzoo[classic]'): ratio skipped")
        return
    measured = {name: steps_per_second(environment) for name, environment in references.items()}
    for name, (rate, games) in measured.items():
        print(f"  pettingzoo {name:<28} {rate:>9.0f} steps/s ({games} games)")
    base_name = "leduc_holdem_v4" if "leduc_holdem_v4" in measured else "tictactoe_v3"
    base = measured[base_name][0]
    from reference import (
        ours,  # the raw engine's random self-play: what the adapter itself costs
    )

    from tabletop_edu import registry
    for game, players in (("peek", 3), ("commissario", 3), ("get_adler", 4), ("mafia_de_cuba", 6)):
        rate, games = steps_per_second(env(game, players))
        engine = ours(registry.game(game).load_module(), players, seconds=1.0).steps_per_second
        print(f"  tabletop {game + f' ({players}p)':<30} {rate:>9.0f} steps/s ({games} games)  "
              f"{rate / base:.2f}x {base_name} (target >= 1x); engine alone {engine:.0f} steps/s, "
              f"adapter keeps {rate / engine:.0%}")


if __name__ == "__main__":
    main()
