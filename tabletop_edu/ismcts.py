"""A generic information-set Monte Carlo tree search bot (single-observer IS-MCTS), for every game.

The idea, for students: a bot cannot search the real game, because it does not know the hidden cards. So at
each iteration it *imagines* one full world consistent with everything it has seen (a determinization),
walks down a search tree shared by all imagined worlds (choosing moves with UCB, counting a move only as
often as it was available), plays the rest of the game at random, and credits the result to the moves it
took. After its budget of iterations, it plays the move it tried most. Because statistics are pooled over
worlds, the bot cannot "cheat" by knowing a particular deal; it plays well on average over what it
does not know (Cowling, Powley and Whitehouse, 2012).

Where do imagined worlds come from? Bots see views, never states:

- If the game's package has `world_from_view(view, rng)` (Commissario does), the bot builds worlds from its
  view alone. This is the clean way and needs nothing else.
- Otherwise, the referee that seats the bot hands it a sampler of its information set, `bind_worlds(bot,
  state, seat)`, which wraps `state.resample(seat, rng)`. By the protocol's non-interference property
  (`state.resample(seat, rng).view(seat) == state.view(seat)`), such a world reveals nothing the seat's view
  does not: the sampler is a function of the information set only. `tabletop_edu.tournament` does this for
  every bot, so "ismcts" plays all games.

The compute budget is `iterations` per decision; `rollout_depth` caps random playouts (cut-off positions are
scored by the game's points if it keeps them).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .core import Action, GameState, Seat, View

#: Builds a full state consistent with a view (the game's `world_from_view`).
WorldsFromView = Callable[[View, random.Random], GameState[Any]]
#: Draws a full state from the bound seat's information set (a wrapped `state.resample(seat, ·)`).
BoundSampler = Callable[[random.Random], GameState[Any]]


def game_world_builder(game: str) -> WorldsFromView | None:
    """The game's module-level `world_from_view(view, rng)` if it defines one (the game found in the registry)."""
    plugin = registry.find_game(game)
    builder = None if plugin is None else getattr(plugin.load_module(), "world_from_view", None)
    return builder if callable(builder) else None


def bind_worlds(bot: Any, state: GameState[Any], seat: Seat) -> None:
    """Hand `bot` a sampler of `seat`'s information set, if it asks for one (other bots are untouched)."""
    if isinstance(bot, InformationSetSearch):
        bot.bound_sampler = lambda rng: state.resample(seat, rng)


def cutoff_rewards(state: GameState[Any]) -> list[float]:
    """Rewards of a position: the returns at the end; before it, a share of 1 for the points leaders."""
    if state.is_over:
        return [float(value) for value in state.returns()]
    scores = getattr(state, "scores", None)
    n = len(state.players)
    if not isinstance(scores, (list, tuple)) or len(scores) != n:
        return [1.0 / n] * n
    best = max(scores)
    leaders = [s for s in range(n) if scores[s] == best]
    return [1.0 / len(leaders) if s in leaders else 0.0 for s in range(n)]


@dataclass
class Node:
    """Statistics of one move in the shared tree: visits, total reward of its mover, availability."""

    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[str, Node] = field(default_factory=dict)


class InformationSetSearch:
    """Information-set MCTS: imagines worlds consistent with its view and searches them with one shared tree.

    `iterations` is the compute budget per decision; `worlds` how many imagined worlds are drawn per decision
    (each iteration plays on a copy of one of them, so drawing costs stay small); `exploration` the UCB
    constant; `rollout_depth` caps random playouts (None: play to the end).
    """

    name = "ismcts"

    def __init__(self, iterations: int = 64, worlds: int = 8, exploration: float = 0.7,
                 rollout_depth: int | None = 30) -> None:
        self.iterations = iterations
        self.worlds = worlds
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.bound_sampler: BoundSampler | None = None

    def __repr__(self) -> str:
        return (f"InformationSetSearch(iterations={self.iterations}, worlds={self.worlds}, "
                f"exploration={self.exploration}, rollout_depth={self.rollout_depth})")

    def __getstate__(self) -> dict[str, Any]:
        """Pickles without the bound sampler: it belongs to one game, in one process."""
        return {**self.__dict__, "bound_sampler": None}

    def _sampler(self, view: View) -> BoundSampler:
        builder = game_world_builder(view.game)
        if builder is not None:
            return lambda rng: builder(view, rng)
        if self.bound_sampler is None:
            raise RuntimeError(f"{view.game} has no world_from_view: seat this bot through a referee that calls "
                               "tabletop_edu.ismcts.bind_worlds (tournaments do).")
        return self.bound_sampler

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        sample = self._sampler(view)
        worlds = [sample(rng) for _ in range(max(1, min(self.worlds, self.iterations)))]
        root = Node()
        for iteration in range(self.iterations):
            self._iterate(root, worlds[iteration % len(worlds)].clone(), view.seat, rng)
        by_text = {str(action): action for action in legal}
        ranked = sorted(by_text, key=lambda text: (-(root.children[text].visits if text in root.children else 0),
                                                   -(root.children[text].total if text in root.children else 0),
                                                   text))
        return by_text[ranked[0]]

    def _iterate(self, root: Node, world: GameState[Any], me: Seat | None, rng: random.Random) -> None:
        """One iteration: select and expand in the shared tree, roll out at random, back the result up."""
        node, path = root, []
        while not world.is_over:
            seat = world.acting_seats[0]
            legal = world.legal_actions(seat)
            texts = [str(action) for action in legal]
            for text in texts:
                child = node.children.get(text)
                if child is not None:
                    child.available += 1
            untried = [i for i, text in enumerate(texts) if text not in node.children]
            if untried:
                index = rng.choice(untried)
                child = node.children[texts[index]] = Node(available=1)
                world.apply(legal[index], player=seat)
                path.append((child, seat))
                break
            log_available = {text: math.log(node.children[text].available) for text in texts}
            index = max(range(len(texts)), key=lambda i: self._ucb(node.children[texts[i]], log_available[texts[i]]))
            child = node.children[texts[index]]
            world.apply(legal[index], player=seat)
            path.append((child, seat))
            node = child
        depth = 0
        while not world.is_over and (self.rollout_depth is None or depth < self.rollout_depth):
            seat = world.acting_seats[0]
            world.apply(rng.choice(world.legal_actions(seat)), player=seat)
            depth += 1
        rewards = cutoff_rewards(world)
        for child, seat in path:
            child.visits += 1
            child.total += rewards[seat]

    def _ucb(self, child: Node, log_available: float) -> float:
        return child.total / child.visits + self.exploration * math.sqrt(log_available / child.visits)


__all__ = ["InformationSetSearch", "Node", "bind_worlds", "cutoff_rewards", "game_world_builder"]
