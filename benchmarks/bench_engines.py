"""Every engine at every table size beside OpenSpiel's pure-Python games, and IS-MCTS playouts per game.

Run: `python benchmarks/bench_engines.py [seconds]` (default 3: the time each game is measured, split into
alternating turns; see reference.py). Requires the `bench` extra (open_spiel).

- One line per game and table size: random self-play decisions per second and their ratio to the faster of
  OpenSpiel's python_kuhn_poker and python_liars_poker, measured in the same run; then the slowest ratio.
  The target is 2.0: every game twice the faster peer. Time is this process's CPU time, in five alternating
  turns (best kept): on a machine shared with other work, wall time counts their turns on the cores too.
- IS-MCTS playouts per second: one fixed seeded decision per game (a few random moves into a seeded game),
  searched with random playouts to the end; playouts per second is iterations / seconds, best of three.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import Throughput, openspiel_game, our_game, side_by_side  # noqa: E402

from tabletop_edu import commissario, get_adler, mafia_de_cuba  # noqa: E402
from tabletop_edu.ismcts import InformationSetSearch, bind_worlds  # noqa: E402

#: Each game and the table sizes measured: every size of every game (the target holds at each one).
TABLES: tuple[tuple[ModuleType, tuple[int, ...]], ...] = (
    (commissario, (2, 3, 4, 5)),
    (get_adler, (4, 5, 6)),
    (mafia_de_cuba, (6, 7, 8, 9, 10, 11, 12)),
)
REFERENCES = ("python_kuhn_poker", "python_liars_poker")
#: The searched decision: this seed, after this many random moves, with this table size.
SEARCH_SEED, SEARCH_MOVES, SEARCH_ITERATIONS = 7, 3, 200
SEARCH_PLAYERS = {commissario: 3, get_adler: 5, mafia_de_cuba: 9}


def ratio_lines(ours_results: list[Throughput], references: list[Throughput]) -> list[str]:
    """One line per contender of ours with its decisions/s ratio to the faster reference, then the slowest."""
    peer = max(references, key=lambda result: result.decisions_per_second)
    lines = [f"{result.name:<32} {result.decisions_per_second:>9.0f} decisions/s" for result in references]
    ratios = []
    for result in ours_results:
        ratio = result.decisions_per_second / peer.decisions_per_second
        ratios.append((ratio, result.name))
        lines.append(f"{result.name:<32} {result.decisions_per_second:>9.0f} decisions/s  x{ratio:.2f} "
                     f"of {peer.name}")
    slowest, name = min(ratios)
    lines.append(f"slowest ratio x{slowest:.2f} ({name})")
    return lines


def searched_decision(module: ModuleType) -> tuple[object, int]:
    """The fixed decision the search is timed on: a seeded game a few random moves in, at the first seat to
    act that has a choice to make (a search with one legal move plays it at once)."""
    state = module.new_game(SEARCH_PLAYERS[module], seed=SEARCH_SEED)
    rng = random.Random(SEARCH_SEED)
    moves = 0
    while moves < SEARCH_MOVES or len(state.legal_actions(state.acting_seats[0])) < 2:
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        moves += 1
    return state, state.acting_seats[0]


def playouts_per_second(module: ModuleType, iterations: int = SEARCH_ITERATIONS, repeats: int = 3) -> float:
    """IS-MCTS with random playouts to the end on the game's fixed decision: iterations per second, best run."""
    state, seat = searched_decision(module)
    view, legal = state.view(seat), state.legal_actions(seat)  # type: ignore[attr-defined]
    best = 0.0
    for _ in range(repeats):
        search = InformationSetSearch(iterations=iterations, worlds=8, rollout_depth=None)
        bind_worlds(search, state, seat)  # type: ignore[arg-type]
        start = time.process_time()
        search.choose(view, legal, random.Random(SEARCH_SEED))
        best = max(best, iterations / (time.process_time() - start))
    return best


def main(seconds: float = 3.0) -> None:
    contenders = [our_game(module, players) for module, tables in TABLES for players in tables]
    references = [openspiel_game(name) for name in REFERENCES]
    results = side_by_side(contenders + references, seconds, turns=5, clock=time.process_time)
    for line in ratio_lines(results[:len(contenders)], results[len(contenders):]):
        print(line)
    for module, _ in TABLES:
        name = module.__name__.split(".")[-1]
        print(f"ismcts {name} ({SEARCH_PLAYERS[module]} players, {SEARCH_ITERATIONS} iterations, random playouts): "
              f"{playouts_per_second(module):.0f} playouts/s")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
