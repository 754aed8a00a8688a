"""Side-by-side throughput: our engines and OpenSpiel's pure-Python games, measured in the same run.

Speed is reported as ratios, never asserted in tests: these machines are shared and noisy, and a ratio of
two measurements taken together cancels most of the noise. Requires the `bench` extra (open_spiel).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class Throughput:
    """Random self-play speed: actions per second and games per second."""

    name: str
    steps: int
    games: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    def __str__(self) -> str:
        return f"{self.name:<32} {self.steps_per_second:>10.0f} steps/s {self.games_per_second:>9.1f} games/s"


def measure(name: str, play_one: Callable[[int], int], seconds: float) -> Throughput:
    """Play games (play_one(seed) -> number of steps) until `seconds` have passed."""
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        steps += play_one(games)
        games += 1
    return Throughput(name, steps, games, time.perf_counter() - start)


def ours(module: ModuleType, players: int, seconds: float = 2.0) -> Throughput:
    """Random self-play of one of our games: legal-action generation and full event logging at each step."""
    def play_one(seed: int) -> int:
        state = module.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.acting_seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        return len(state.history)
    return measure(f"{module.__name__.split('.')[-1]} ({players} players)", play_one, seconds)


def openspiel(game_name: str, seconds: float = 2.0, **parameters: int) -> Throughput:
    """Random self-play of an OpenSpiel game (e.g. 'python_kuhn_poker'), chance outcomes sampled."""
    import pyspiel
    from open_spiel.python import games  # noqa: F401  - registers the pure-Python games

    game = pyspiel.load_game(game_name, parameters) if parameters else pyspiel.load_game(game_name)

    def play_one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps
    return measure(f"openspiel {game_name}", play_one, seconds)


def report(ours_results: list[Throughput], references: list[Throughput]) -> str:
    """A table of every measurement, then each of ours as a ratio against each reference."""
    lines = [str(result) for result in ours_results + references]
    for mine in ours_results:
        for reference in references:
            lines.append(f"ratio {mine.name} / {reference.name}: steps/s x"
                         f"{mine.steps_per_second / reference.steps_per_second:.2f}")
    return "\n".join(lines)
