"""Mafia de Cuba throughput beside OpenSpiel's pure-Python games, and exact inference against brute force.

Run: `python benchmarks/bench_mafia_de_cuba.py [seconds]`. Everything is measured in the same run and printed
as ratios, because these machines are shared and absolute numbers drift.

- What the table says (issue 20): in 20 seeded games of 8 default bots, the share of moves that are questions,
  testimonies and accusations, the floor's passes, and the log lines a spectator reads.

- Random self-play at 6, 9 and 12 players: every step generates the legal actions (testimony menus
  included), checks the chosen one and logs its events with their visibility, as a real game does.
  Target: our steps/s >= OpenSpiel's pure-Python games (python_liars_poker, python_kuhn_poker). Ratios are
  printed per decision (like with like) and per step (OpenSpiel's chance outcomes counted): see reference.py.
- Inference: the Godfather's exact posterior once the box is back (what he hid and the box he got back are
  pinned), by forward-backward and by enumerating every world. Brute force runs in a child process and is
  abandoned after `BRUTE_FORCE_LIMIT` seconds. Target: 12 players in well under a second; >= 100x faster than
  enumeration at 9 players.
- The widget's posterior at every step of a 12-player round (issue 12 asks a redraw under 50 ms at p95): for the
  Godfather, a spectator and a taker, `inference.PosteriorCache.view_posterior` (once per observation, the
  forward pass extended from the previous step) against `posterior(observation_from_view(view))` from scratch.
  A redraw asks about four times (the bars, the seat's row...): printed per step for one call and for four.
  Third, the same cached calls on the pure-Python chain (what runs where numpy is missing, e.g. a Pyodide
  kernel, issue 15), as a ratio of total time against the numpy chain (from scratch, and cached).
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import compare, report  # noqa: E402

from tabletop_edu import mafia_de_cuba  # noqa: E402
from tabletop_edu.core import play_game, play_turn  # noqa: E402
from tabletop_edu.mafia_de_cuba._chain_python import PythonChain  # noqa: E402
from tabletop_edu.mafia_de_cuba.bots import default_bots  # noqa: E402
from tabletop_edu.mafia_de_cuba.inference import (  # noqa: E402
    UNIFORM_WORLDS,
    Observation,
    Posterior,
    PosteriorCache,
    brute_force_posterior,
    observation_from_view,
    posterior,
)
from tabletop_edu.mafia_de_cuba.render import event_text  # noqa: E402
from tabletop_edu.templates import log_lines  # noqa: E402

REFERENCES = ("python_liars_poker", "python_kuhn_poker")
TABLES = (6, 9, 12)
INFERENCE_TABLES = (6, 8, 9, 12)
BRUTE_FORCE_LIMIT = 60.0


def godfather_observation(players: int, seed: int = 0) -> Observation:
    """The Godfather's information after a random box phase: the realistic question a bot asks every turn."""
    state = mafia_de_cuba.new_game(players, seed=seed)
    rng = random.Random(seed)
    while state.phase in ("hide", "set-aside", "take"):
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    return observation_from_view(state.view(state.godfather), state.rules)


def _brute_force_child(players: int, queue: Any) -> None:
    observation = godfather_observation(players)
    start = time.perf_counter()
    result = brute_force_posterior(observation)
    queue.put((time.perf_counter() - start, result.steps))


def brute_force_within(players: int, limit: float) -> tuple[float, list[dict[Any, float]]] | None:
    """(seconds, marginals) of brute force in a child process, or None if it did not finish within `limit`."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_brute_force_child, args=(players, queue))
    child.start()
    try:
        return queue.get(timeout=limit)
    except Exception:  # queue.Empty: the child is still enumerating
        return None
    finally:
        child.terminate()
        child.join()


def largest_difference(exact: Posterior, reference: list[dict[Any, float]]) -> float:
    """The largest absolute difference of any choice's probability at any step."""
    return max(abs(exact.steps[i].get(choice, 0.0) - reference[i].get(choice, 0.0))
               for i in range(len(reference)) for choice in set(exact.steps[i]) | set(reference[i]))


def inference_report(limit: float = BRUTE_FORCE_LIMIT) -> str:
    lines = [f"{'players':>7} {'forward-backward':>17} {'brute force':>12} {'speed-up':>9} {'max |diff|':>11}"]
    for players in INFERENCE_TABLES:
        observation = godfather_observation(players)
        repeats = 5
        start = time.perf_counter()
        for _ in range(repeats):
            exact = posterior(observation)
        fast = (time.perf_counter() - start) / repeats
        slow = brute_force_within(players, limit)
        if slow is None:
            lines.append(f"{players:>7} {fast * 1e3:>14.1f} ms {'> ' + str(int(limit)) + ' s':>12} "
                         f"{'> x' + str(int(limit / fast)):>9} {'n/a':>11}")
        else:
            seconds, marginals = slow
            speed_up = "x" + format(seconds / fast, ".0f")
            lines.append(f"{players:>7} {fast * 1e3:>14.1f} ms {seconds:>10.2f} s {speed_up:>9}"
                         f" {largest_difference(exact, marginals):>11.1e}")
    return "\n".join(lines)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def incremental_report(players: int = 12, seed: int = 0, redraws: int = 4) -> str:
    """Per-step posterior time along a seeded round of bots, cached and incremental vs from scratch, and the
    pure-Python chain against the numpy one."""
    perspectives = {"Godfather": 0, "spectator": None, "taker 6": 6}
    caches = {name: PosteriorCache() for name in perspectives}
    pure_caches = {name: PosteriorCache(chain=PythonChain) for name in perspectives}
    scratch: dict[str, list[float]] = {name: [] for name in perspectives}
    cached: dict[str, list[float]] = {name: [] for name in perspectives}
    pure_scratch: dict[str, list[float]] = {name: [] for name in perspectives}
    pure_cached: dict[str, list[float]] = {name: [] for name in perspectives}
    state = mafia_de_cuba.new_game(players, seed=seed)
    bots, rng = default_bots(players, seed=seed), random.Random(seed)
    while not state.is_over:
        for name, seat in perspectives.items():
            view = state.view(seat)
            if not observation_from_view(view).steps:
                continue
            start = time.perf_counter()
            posterior(observation_from_view(view))
            scratch[name].append(time.perf_counter() - start)
            start = time.perf_counter()
            for _ in range(redraws):
                caches[name].view_posterior(view)
            cached[name].append(time.perf_counter() - start)
            start = time.perf_counter()
            PythonChain(observation_from_view(view), UNIFORM_WORLDS).posterior()
            pure_scratch[name].append(time.perf_counter() - start)
            start = time.perf_counter()
            for _ in range(redraws):
                pure_caches[name].view_posterior(view)
            pure_cached[name].append(time.perf_counter() - start)
        play_turn(state, bots, rng)
    lines = [f"{players} players, {len(state.history)} steps; per step, in ms: one from-scratch posterior, "
             f"{redraws} of them (a redraw), {redraws} cached calls; then the pure-Python chain's {redraws} cached "
             f"calls and its time over numpy's (totals)",
             f"{'perspective':>12} {'scratch p50':>11} {'p95':>6} {'x' + str(redraws) + ' p95':>8} "
             f"{'cached p50':>10} {'p95':>6} {'ratio (total, x' + str(redraws) + ')':>18} "
             f"{'pure cached p95':>15} {'pure/numpy scratch':>18} {'cached':>7}"]
    for name in perspectives:
        one, ours, pure = scratch[name], cached[name], pure_cached[name]
        lines.append(f"{name:>12} {1e3 * _percentile(one, 0.5):>11.1f} {1e3 * _percentile(one, 0.95):>6.1f} "
                     f"{1e3 * redraws * _percentile(one, 0.95):>8.1f} {1e3 * _percentile(ours, 0.5):>10.2f} "
                     f"{1e3 * _percentile(ours, 0.95):>6.1f} {redraws * sum(one) / sum(ours):>17.1f}x "
                     f"{1e3 * _percentile(pure, 0.95):>15.1f} {sum(pure_scratch[name]) / sum(one):>17.1f}x "
                     f"{sum(pure) / sum(ours):>6.1f}x")
    return "\n".join(lines)


def floor_report(players: int = 8, games: int = 20) -> str:
    """What the table says in seeded games of the default bots (issue 20): the moves that are questions,
    testimonies and accusations, the floor's passes, and the spectator's log lines as rendered."""
    moves = said = passes = lines = 0
    for seed in range(games):
        state = play_game(mafia_de_cuba.new_game(players, seed=seed), default_bots(players))
        verbs = [move.split()[0] for _, move in state.history]
        moves += len(verbs)
        said += sum(verb in ("ask", "saw", "took", "suspect", "accuse") for verb in verbs)
        passes += verbs.count("pass")
        lines += len(log_lines(state.log(None), state.players, "en", event_text))
    return (f"{games} games of {players} default bots: {moves} moves, {said} questions, testimonies and accusations "
            f"({said / moves:.1%}), {passes} passes on the floor; {lines} log lines for a spectator")


def main(seconds: float = 2.0) -> None:
    print(floor_report())
    print()
    print(report(*compare(mafia_de_cuba, TABLES, REFERENCES, seconds)))
    print()
    print("The Godfather's exact posterior after the box phase (forward-backward vs enumerating every world):")
    print(inference_report())
    print()
    print("The widget's posterior, step by step (PosteriorCache vs from scratch; the pure-Python chain vs numpy):")
    print(incremental_report())


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
