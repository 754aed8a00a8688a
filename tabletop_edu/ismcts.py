"""A generic information-set Monte Carlo tree search bot (single-observer IS-MCTS), for every game.

The idea, for students: a bot cannot search the real game, because it does not know the hidden cards. So at
each iteration it *imagines* one full world consistent with everything it has seen (a determinization),
walks down a search tree shared by all imagined worlds (choosing moves with UCB, counting a move only as
often as it was available), plays the rest of the game out, and credits the result to the moves it took.
Playouts are random by default; `rollout="greedy"` (any bot name of the game) plays them with one of the
game's hand-written bots at every seat, a far better guess of how a game goes on, so that the search only
has to find moves better than that bot's own. After its budget of iterations, it plays the move it tried
most. Because statistics are pooled over worlds, the bot cannot "cheat" by knowing a particular deal; it
plays well on average over what it does not know (Cowling, Powley and Whitehouse, 2012).

Where do imagined worlds come from? Bots see views, never states:

- If the game's package has `world_from_view(view, rng)` (Commissario does), the bot builds worlds from its
  view alone. This is the clean way and needs nothing else.
- Otherwise, the referee that seats the bot hands it a sampler of its information set, `bind_worlds(bot,
  state, seat)`, which wraps `state.resample(seat, rng)`. By the protocol's non-interference property
  (`state.resample(seat, rng).view(seat) == state.view(seat)`), such a world reveals nothing the seat's view
  does not: the sampler is a function of the information set only. `tabletop_edu.tournament` does this for
  every bot, so "ismcts" plays all games.

The compute budget is `iterations` per decision; `rollout_depth` caps playouts (cut-off positions are
scored by the lead in the game's points if it keeps them); `tree_depth` caps the shared tree (1: only the
bot's own move is searched, the playout policy plays the rest).

How the bot's own move is chosen, `root=`:

- "ucb" (the classic): every iteration walks down from the root with UCB and the move tried most is played.
- "halving": sequential halving (Karnin, Koren and Somekh, 2013; the root of Gumbel MuZero). The budget is
  split into rounds; each round tries every remaining move on the *same* imagined worlds with the *same*
  playout dice (common random numbers, so two moves are compared on equal luck), then keeps the better
  half. The playout bot's own move stays in to the end, and the search plays another move only if it did
  strictly better on the very same worlds. With a playout bot this is a policy-improvement step: it keeps
  what the bot would do unless the imagined futures say otherwise, and many legal moves no longer spread a
  small budget into one noisy playout each.
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
#: How the bot's own move is chosen (see the module's docstring).
ROOT_CHOICES = ("ucb", "halving")


def game_world_builder(game: str) -> WorldsFromView | None:
    """The game's module-level `world_from_view(view, rng)` if it defines one (the game found in the registry)."""
    plugin = registry.find_game(game)
    builder = None if plugin is None else getattr(plugin.load_module(), "world_from_view", None)
    return builder if callable(builder) else None


def bind_worlds(bot: Any, state: GameState[Any], seat: Seat) -> None:
    """Hand `bot` a sampler of `seat`'s information set, if it asks for one by having a `bound_sampler`
    attribute (this search, the OpenSpiel bots); other bots are untouched."""
    if isinstance(bot, InformationSetSearch) or hasattr(bot, "bound_sampler"):
        bot.bound_sampler = lambda rng: state.resample(seat, rng)


def cutoff_rewards(state: GameState[Any]) -> list[float]:
    """Rewards of a position: the returns at the end; before it, from the game's points if it keeps them:
    0.5 plus half the seat's lead over the best other seat, relative to the size of both scores (in (0, 1):
    a leader gets more than 0.5, and a larger lead more, so a playout cut short still says by how much)."""
    if state.is_over:
        return [float(value) for value in state.returns()]
    scores = getattr(state, "scores", None)
    n = len(state.players)
    if not isinstance(scores, (list, tuple)) or len(scores) != n:
        return [1.0 / n] * n
    rewards = []
    for seat in range(n):
        best_other = max(scores[other] for other in range(n) if other != seat) if n > 1 else 0
        lead = scores[seat] - best_other
        rewards.append(0.5 + 0.5 * lead / (abs(scores[seat]) + abs(best_other) + 1))
    return rewards


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
    constant; `rollout_depth` caps playouts (None: play to the end). `rollout` names the game's bot that
    plays every seat in the playouts ("random": uniformly random moves; "greedy" in Commissario, "smart" in
    Get Adler...: a playout policy that knows the game makes each playout a much better guess of a move's
    worth). The playout bot sees each seat's view of the imagined world, like any bot. `tree_depth` caps the
    shared tree (1: only the bot's own move is searched); the first `prior` iterations all start with the
    playout bot's own move at the root, so that the search leaves that move only for one that proves better
    (with many legal moves and few iterations, the others get one or two playouts each). `root` chooses the
    bot's own move by "ucb" or by "halving" (sequential halving on common random numbers, see the module's
    docstring; it keeps the playout bot's move to the end by itself, so `prior` plays no part there).
    """

    name = "ismcts"

    def __init__(self, iterations: int = 64, worlds: int = 8, exploration: float = 0.7,
                 rollout_depth: int | None = 30, rollout: str = "random", tree_depth: int | None = None,
                 prior: int = 0, root: str = "ucb") -> None:
        if not isinstance(rollout, str) or rollout.partition("(")[0].strip() == "ismcts":
            raise ValueError(f"The playout policy is the name of a bot of the game (not ismcts), not {rollout!r}.")
        if root not in ROOT_CHOICES:
            raise ValueError(f"root= is one of {', '.join(ROOT_CHOICES)}, not {root!r}.")
        self.iterations = iterations
        self.worlds = worlds
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.rollout = rollout
        self.tree_depth = tree_depth
        self.prior = prior
        self.root = root
        self.bound_sampler: BoundSampler | None = None
        self._policies: dict[str, Any] = {}

    def __repr__(self) -> str:
        return (f"InformationSetSearch(iterations={self.iterations}, worlds={self.worlds}, "
                f"exploration={self.exploration}, rollout_depth={self.rollout_depth}, rollout={self.rollout!r}, "
                f"tree_depth={self.tree_depth}, prior={self.prior}, root={self.root!r})")

    def __getstate__(self) -> dict[str, Any]:
        """Pickles without the bound sampler (it belongs to one game, in one process) nor built policies."""
        return {**self.__dict__, "bound_sampler": None, "_policies": {}}

    def _policy(self, game: str) -> Any:
        """The playout bot for `game` (None: random moves), built once from the registry."""
        if self.rollout == "random":
            return None
        if game not in self._policies:
            self._policies[game] = registry.bot_spec(game, self.rollout).build()
        return self._policies[game]

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
        policy = self._policy(view.game)
        worlds = [sample(rng) for _ in range(max(1, min(self.worlds, self.iterations)))]
        by_text = {str(action): action for action in legal}
        if self.root == "halving":
            baseline = None if policy is None else str(policy.choose(view, legal, rng))
            baseline = baseline if baseline in by_text else None
            return by_text[self._halving(view.seat, sorted(by_text), baseline, worlds, policy, rng)]
        root = Node()
        first = None if policy is None or not self.prior else str(policy.choose(view, legal, rng))
        for iteration in range(self.iterations):
            self._iterate(root, worlds[iteration % len(worlds)].clone(), policy, rng,
                          first if iteration < self.prior else None)
        ranked = sorted(by_text, key=lambda text: (-(root.children[text].visits if text in root.children else 0),
                                                   -(root.children[text].total if text in root.children else 0),
                                                   text))
        return by_text[ranked[0]]

    def _halving(self, seat: Seat | None, moves: list[str], baseline: str | None, worlds: list[GameState[Any]],
                 policy: Any, rng: random.Random) -> str:
        """Sequential halving over the bot's own `moves` with common random numbers, within `iterations`
        playouts (at least one per move); `baseline` (the playout bot's move) is kept to the final round and
        wins every tie. Moves tied at the cut all stay: with win-or-lose playouts ties are common, and cutting
        them by name could drop the best move after a few lucky playouts of the others."""
        root = Node()
        remaining = list(moves)
        rounds = max(1, math.ceil(math.log2(len(remaining))))
        done = 0

        def mean(text: str) -> float:
            child = root.children.get(text)
            return child.total / child.visits if child is not None and child.visits else 0.0

        while True:
            per_move = max(1, self.iterations // (len(remaining) * rounds))
            for index in range(done, done + per_move):
                world, dice = worlds[index % len(worlds)], rng.getrandbits(64)
                for text in remaining:
                    self._iterate(root, world.clone(), policy, random.Random(dice), text, seat)
            done += per_move
            ranked = sorted(remaining, key=lambda text: (-mean(text), text != baseline, text))
            spent = sum(child.visits for child in root.children.values())
            if len(ranked) <= 2 or spent >= self.iterations:
                return ranked[0]
            cut = mean(ranked[len(ranked) // 2 - 1])
            remaining = [text for text in ranked if mean(text) >= cut or text == baseline]
            if len(remaining) == 1:
                return remaining[0]

    def _iterate(self, root: Node, world: GameState[Any], policy: Any, rng: random.Random,
                 first: str | None = None, me: Seat | None = None) -> None:
        """One iteration: select and expand in the shared tree, play out with the policy, back the result up
        (`first`: the move to play at the root, for the iterations spent on one given move; `me`: the seat
        that plays it, when several seats choose at once)."""
        path: list[tuple[Node, Seat]]  # the nodes played through, each with the seat that chose it
        node, path = root, []
        while not world.is_over and (self.tree_depth is None or len(path) < self.tree_depth):
            seat = me if node is root and me is not None else world.acting_seats[0]
            legal = world.legal_actions(seat)
            texts = [str(action) for action in legal]
            for text in texts:
                child = node.children.get(text)
                if child is not None:
                    child.available += 1
            untried = [i for i, text in enumerate(texts) if text not in node.children]
            if first is not None and node is root and first in texts:
                index = texts.index(first)
                child = node.children.setdefault(first, Node(available=1))
                world.apply(legal[index], player=seat)
                path.append((child, seat))
                node = child
                continue
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
            legal = world.legal_actions(seat)
            move = rng.choice(legal) if policy is None or len(legal) == 1 else \
                policy.choose(world.view(seat), legal, rng)
            world.apply(move, player=seat)
            depth += 1
        rewards = cutoff_rewards(world)
        for child, seat in path:
            child.visits += 1
            child.total += rewards[seat]

    def _ucb(self, child: Node, log_available: float) -> float:
        return child.total / child.visits + self.exploration * math.sqrt(log_available / child.visits)


__all__ = ["ROOT_CHOICES", "InformationSetSearch", "Node", "bind_worlds", "cutoff_rewards", "game_world_builder"]
