"""Side-by-side throughput: our engines and OpenSpiel's pure-Python games, measured in the same run.

Speed is reported as ratios, never asserted in tests: these machines are shared and noisy. Every contender
is measured in short turns, one after the other, several times over, and keeps its best turn (as `timeit`
keeps its minimum): load from elsewhere only ever slows a turn, and alternating spreads it over everyone.
Requires the `bench` extra (open_spiel).

Two counts of work are printed, because the two kinds of engine count differently:
- *steps*: every state transition. OpenSpiel makes each chance outcome (one card dealt, one die rolled) a step
  of its own, taken with `apply_action` like a move; a Liar's Poker hand is 20 chance steps for about 8 moves.
- *decisions*: the steps where a player chooses among legal actions. Our engines deal, draw and shuffle
  inside the action that causes it, so every one of our steps is a decision.
Decisions per second compare like with like (a player's choice: legal actions, validation, state change and,
for us, the event log); steps per second is the stricter, literal count.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

#: One game of random self-play from a seed: returns (steps, decisions).
PlayOne = Callable[[int], tuple[int, int]]


@dataclass(frozen=True)
class Throughput:
    """Random self-play speed of one contender."""

    name: str
    steps: int
    decisions: int
    games: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    def __str__(self) -> str:
        return (f"{self.name:<32} {self.steps_per_second:>9.0f} steps/s {self.decisions_per_second:>9.0f} "
                f"decisions/s {self.games_per_second:>8.1f} games/s")


#: A clock in seconds: `time.perf_counter` (wall time, the default) or `time.process_time` (this process's CPU
#: time, which time spent waiting for a core shared with other work does not count).
Clock = Callable[[], float]


def measure(name: str, play_one: PlayOne, seconds: float, clock: Clock = time.perf_counter) -> Throughput:
    """Play games (seeds 0, 1, ...) until `seconds` have passed on `clock`."""
    steps = decisions = games = 0
    start = clock()
    while clock() - start < seconds or games == 0:
        game_steps, game_decisions = play_one(games)
        steps, decisions, games = steps + game_steps, decisions + game_decisions, games + 1
    return Throughput(name, steps, decisions, games, clock() - start)


def our_game(module: ModuleType, players: int) -> tuple[str, PlayOne]:
    """Random self-play of one of our games: legal-action generation and full event logging at each step."""
    def play_one(seed: int) -> tuple[int, int]:
        state = module.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.acting_seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        return len(state.history), len(state.history)
    return f"{module.__name__.split('.')[-1]} ({players} players)", play_one


def openspiel_game(game_name: str, **parameters: int) -> tuple[str, PlayOne]:
    """Random self-play of an OpenSpiel game (e.g. 'python_kuhn_poker'), chance outcomes sampled."""
    import pyspiel
    from open_spiel.python import games  # noqa: F401  - registers the pure-Python games

    game = pyspiel.load_game(game_name, parameters) if parameters else pyspiel.load_game(game_name)

    def play_one(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                if state.is_simultaneous_node():
                    state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            steps += 1
        return steps, decisions
    return f"openspiel {game_name}", play_one


def ours(module: ModuleType, players: int, seconds: float = 2.0) -> Throughput:
    """One measurement of our game (see `side_by_side` for comparisons)."""
    return measure(*our_game(module, players), seconds)


def side_by_side(contenders: list[tuple[str, PlayOne]], seconds: float = 2.0,
                 turns: int = 3, clock: Clock = time.perf_counter,
                 best_by: str = "steps_per_second") -> list[Throughput]:
    """Measure every contender for about `seconds`, in `turns` alternating turns, keeping each one's best turn
    by `best_by` (the figure a benchmark compares: a turn of many chance steps is not the best of its decisions)."""
    best: dict[str, Throughput] = {}
    for _ in range(turns):
        for name, play_one in contenders:
            result = measure(name, play_one, seconds / turns, clock)
            if name not in best or getattr(result, best_by) > getattr(best[name], best_by):
                best[name] = result
    return [best[name] for name, _ in contenders]


def compare(module: ModuleType, tables: tuple[int, ...], references: tuple[str, ...],
            seconds: float = 2.0) -> tuple[list[Throughput], list[Throughput]]:
    """Our game at each table size and the OpenSpiel `references`, measured side by side."""
    results = side_by_side([our_game(module, players) for players in tables]
                           + [openspiel_game(name) for name in references], seconds)
    return results[:len(tables)], results[len(tables):]


def report(ours_results: list[Throughput], references: list[Throughput]) -> str:
    """A table of every measurement, then each of ours as ratios against each reference.

    Games per second are printed for completeness; games of different lengths make them a poor comparison
    (a Kuhn poker hand is 2 decisions, a Get Adler game about 60).
    """
    lines = [str(result) for result in ours_results + references]
    for mine in ours_results:
        for reference in references:
            lines.append(f"ratio {mine.name} / {reference.name}: "
                         f"decisions/s x{mine.decisions_per_second / reference.decisions_per_second:.2f}  "
                         f"steps/s x{mine.steps_per_second / reference.steps_per_second:.2f}  "
                         f"games/s x{mine.games_per_second / reference.games_per_second:.3f}")
    return "\n".join(lines)
