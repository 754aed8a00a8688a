"""Bots see views, never states: `Bot.choose(view, legal_actions, rng) -> Action`.

A bot is a small object with a name and a `choose` method; randomness comes from the `rng` it is handed,
so a game between bots is as reproducible as a game between people.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from .actions import Action
from .events import Seat
from .state import GameState, StateT
from .view import View


@runtime_checkable
class Bot(Protocol):
    """Anything with a `name` and a `choose` method can sit at a table."""

    name: str

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of `legal_actions` knowing only `view`."""
        ...


class RandomBot:
    """Plays a uniformly random legal action: the baseline every strategy should beat."""

    name = "random"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal_actions))

    def __repr__(self) -> str:
        return "RandomBot()"


def play_turn(state: GameState, bots: Sequence[Bot] | Mapping[Seat, Bot], rng: random.Random) -> bool:
    """Let the first acting seat that has a bot play one action; False if no acting seat has a bot."""
    for seat in state.acting_seats:
        bot = bots.get(seat) if isinstance(bots, Mapping) else bots[seat]
        if bot is not None:
            state.apply(bot.choose(state.view(seat), state.legal_actions(seat), rng), player=seat)
            return True
    return False


def play_game(state: StateT, bots: Sequence[Bot] | Mapping[Seat, Bot], *,
              rng: random.Random | None = None) -> StateT:
    """Play `state` to the end with a bot at every seat (`rng` defaults to one seeded by the state's seed)."""
    rng = rng or random.Random(state.seed)
    for _ in range(state.max_steps + 1):
        if state.is_over:
            return state
        if not play_turn(state, bots, rng):
            raise ValueError(f"No bot for seats {state.acting_seats}: play_game needs a bot at every seat.")
    raise RuntimeError(f"{state.title} did not end within its bound of {state.max_steps} actions.")
