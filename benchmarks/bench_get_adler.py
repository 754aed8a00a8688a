"""Get Adler throughput beside OpenSpiel's pure-Python games, and the cost of deduction per event.

Run: `python benchmarks/bench_get_adler.py [seconds]`. Everything is measured in the same run, and speed is
printed as ratios (ours / reference), because these machines are shared and absolute numbers drift.

- Random self-play at 4 and 6 players: every step generates the legal actions, checks the chosen one and
  logs its events with their visibility, as a real game does. Target: ratios >= 1 against OpenSpiel's
  pure-Python games, printed per decision (like with like) and per step (OpenSpiel's chance outcomes
  counted): see reference.py.
- Candidate-set update at 6 players: after each event of a random game, recompute every seat's set of Adler
  candidates from its View (what a knowledge panel does when the timeline moves on by one step).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import compare, report  # noqa: E402

from tabletop_edu import get_adler  # noqa: E402
from tabletop_edu.get_adler.identities import candidate_sets  # noqa: E402

REFERENCES = ("python_kuhn_poker", "python_liars_poker")


def candidate_update_seconds(players: int = 6, games: int = 5) -> tuple[float, int, int]:
    """Seconds spent recomputing all seats' candidate sets after every action, divided by the number of
    events those actions produced, over `games` random games; also the events and actions counted."""
    events = updates = 0
    elapsed = 0.0
    for seed in range(games):
        state = get_adler.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.acting_seats[0]
            new_events = state.apply(rng.choice(state.legal_actions(seat)), player=seat)
            start = time.perf_counter()
            candidate_sets(state)
            elapsed += time.perf_counter() - start
            events += len(new_events)
            updates += 1
    return elapsed / max(events, 1), events, updates


def main(seconds: float = 2.0) -> None:
    print(report(*compare(get_adler, (4, 6), REFERENCES, seconds)))
    per_event, events, updates = candidate_update_seconds()
    print(f"candidate sets of all 6 seats (6 players), update time per event: {per_event * 1e3:.3f} ms "
          f"({events} events from {updates} actions, 5 random games; recomputed after each action)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
