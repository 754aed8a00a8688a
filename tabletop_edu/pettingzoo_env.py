"""PettingZoo AEC environments for our games, so RL students can train with the tools they know (`rl` extra),
and `SeatEnv`: one seat against the registered bots as a single-agent Gymnasium environment.

    from tabletop_edu.pettingzoo_env import env
    game = env("commissario", players=3)
    game.reset(seed=0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        game.step(action)

Encoding, documented because RL code depends on it:

- Agents are "player_0" ... "player_{n-1}", one per seat.
- Games come from the game registry (`tabletop_edu.registry`), so an installed third-party game works too.
- Actions: `Discrete(len(catalogue))` over a fixed, finite catalogue of every action the game can ever allow
  at that table size (`action_catalogue(game, players)`, declared by the game's `GamePlugin.actions`, sorted
  by text: index i is `catalogue[i]`). The
  catalogue sizes (e.g. Commissario 3 players: 88 actions; Mafia de Cuba: about 1,300, most of them "saw D
  tokens..." testimonies) are printed by `TabletopEnv.describe()`. `observation["action_mask"]` marks the
  legal ones (all zero for an agent not to act); an illegal index raises `ValueError` saying why.
- Observations: a `Dict` with "observation", a binary feature vector hashed from the agent's **view** (its
  facts, flattened two levels deep to "key=value" tokens and hashed into `observation_size` buckets with
  CRC-32: the feature hashing trick), and "action_mask". Built from the view alone, so an agent never sees another seat's secrets.
- Simultaneous moves (Commissario's secret picks, Mafia de Cuba's Cleaner): agents act one after another,
  but each observes only its own view, in which the others' picks are hidden until revealed.
- Rewards: the game's returns at the end (1 for each winner, 0 otherwise), 0 before.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from .extras import MissingExtra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:  # without the rl extra: one sentence naming it, not a traceback
    raise MissingExtra(missing.name or "gymnasium", "The reinforcement-learning adapter", "rl") from None

from . import registry
from .core import Bot, GameState, Seat, View
from .ismcts import bind_worlds
from .tournament import bot_spec


# ------------------------------------------------------------------------------------------ catalogues


def action_catalogue(game: str, players: int, rules: Any = None) -> list[str]:
    """Every action the game can allow at this table size, as texts, sorted: the fixed action space.

    Each game declares its catalogue to the registry (`GamePlugin.actions`). Supersets are fine (the mask
    hides what is never legal); completeness is checked by the tests, which play random games and look
    every legal action up.
    """
    return registry.game(game).action_catalogue(players, rules)


# ------------------------------------------------------------------------------------------ observations


def _parts(facts: Mapping[str, Any]) -> Iterator[tuple[str, str, Any, Any]]:
    """The tokens of a view's facts as (key, shape, inner, item), two levels deep (deeper values are written
    out whole); `_token` writes each one. The constant "rules" fact is left out: it never changes in an
    environment."""
    for key, value in facts.items():
        if key == "rules":
            continue
        if isinstance(value, Mapping):
            for inner, item in value.items():
                yield key, ".", inner, item
            yield key, "#len", None, len(value)
        elif isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                yield key, "[]", index, item
            yield key, "#len", None, len(value)
        else:
            yield key, "=", None, value


def _token(key: str, shape: str, inner: Any, item: Any) -> str:
    """The text of one token: "key.inner=item", "key[inner]=item", "key#len=n" or "key=item"."""
    if shape == ".":
        return f"{key}.{inner}={item!r}"
    if shape == "[]":
        return f"{key}[{inner}]={item!r}"
    if shape == "#len":
        return f"{key}#len={item}"
    return f"{key}={item!r}"


def _tokens(facts: Mapping[str, Any]) -> Iterator[str]:
    """The "key=value" tokens of a view's facts, written out."""
    return (_token(*part) for part in _parts(facts))


@lru_cache(maxsize=1 << 16)
def _bucket(token: str, size: int) -> int:
    return zlib.crc32(token.encode()) % size


#: Values whose text is fixed by their type and equality, so a token's bucket can be remembered by them
#: (floats are not: 0.0 == -0.0; containers are not: (1,) == (True,)).
_ATOMS = frozenset({str, int, bool, type(None)})


@lru_cache(maxsize=1 << 16)
def _remembered_bucket(key: str, shape: str, inner: Any, inner_type: type, item: Any, item_type: type,
                       size: int) -> int:
    return _bucket(_token(key, shape, inner, item), size)


def _token_bucket(key: str, shape: str, inner: Any, item: Any, size: int) -> int:
    """The bucket of a token, remembered when its parts are plain values: writing and hashing the same
    "key=value" texts at every step was most of an environment step."""
    if type(item) in _ATOMS and type(inner) in _ATOMS:
        return _remembered_bucket(key, shape, inner, type(inner), item, type(item), size)  # type: ignore[arg-type]
    return _bucket(_token(key, shape, inner, item), size)


def _buckets(facts: Mapping[str, Any], size: int) -> list[int]:
    """The buckets of `_tokens(facts)`, in the same order, without writing the texts out each time."""
    return [_token_bucket(key, shape, inner, item, size) for key, shape, inner, item in _parts(facts)]


def facts_features(seat: Seat | None, facts: Mapping[str, Any], size: int) -> np.ndarray:
    """A binary vector of `size`: the facts as "key=value" tokens, hashed (CRC-32) into buckets."""
    vector = np.zeros(size, dtype=np.int8)
    vector[_buckets(facts, size) + [_bucket(f"seat={seat}", size)]] = 1
    return vector


def view_features(view: View, size: int) -> np.ndarray:
    """The observation vector of a view (feature hashing of its facts)."""
    return facts_features(view.seat, view.facts, size)


# ------------------------------------------------------------------------------------------ the env


class TabletopEnv(AECEnv):
    """One of our games as a PettingZoo AEC environment (see the module docstring for the encoding)."""

    metadata = {"render_modes": ["ansi"], "name": "tabletop_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int, *, rules: Any = None, observation_size: int = 256,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.plugin = registry.game(game)
        self.game = self.plugin.name
        self.players = players
        self.rules = rules
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tabletop_{self.game}_v0"}
        self.catalogue = action_catalogue(self.game, players, rules)
        self.index = {text: i for i, text in enumerate(self.catalogue)}
        self.observation_size = observation_size
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.action_spaces = {agent: spaces.Discrete(len(self.catalogue)) for agent in self.possible_agents}
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0, 1, (observation_size,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (len(self.catalogue),), dtype=np.int8)}) for agent in self.possible_agents}
        self._seeds = random.Random(0)
        self.state: GameState[Any] | None = None
        self._cache_key: tuple[int, str] | None = None
        self._cache_value: tuple[np.ndarray, np.ndarray] = (np.zeros(0, np.int8), np.zeros(0, np.int8))

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def describe(self) -> str:
        return (f"{self.game} with {self.players} players: {len(self.catalogue)} actions, "
                f"{self.observation_size} observation features")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = self.plugin.new_game(self.players, seed=self._seeds.randrange(2**32), rules=self.rules)
        self._cache_key = None
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._to_act()

    def _to_act(self) -> str:
        assert self.state is not None
        return self.possible_agents[self.state.acting_seats[0]]

    def _cached(self, agent: str) -> tuple[np.ndarray, np.ndarray]:
        """(features, mask) of `agent` now, computed once per position: `last()` and `step()` share them."""
        assert self.state is not None
        key = (len(self.state.history), agent)
        if self._cache_key != key:
            seat = self.agent_seat[agent]
            mask = np.zeros(len(self.catalogue), dtype=np.int8)
            if not self.state.is_over and seat in self.state.acting_seats:
                for action in self.state.legal_actions(seat):
                    text = str(action)
                    if text not in self.index:
                        raise RuntimeError(f"{text!r} is missing from the action catalogue of {self.game}.")
                    mask[self.index[text]] = 1
            self._cache_key = key
            # the facts of view(seat), without filtering the whole log for it: the same observation, faster
            facts = self.state._facts(seat)
            self._cache_value = (facts_features(seat, facts, self.observation_size), mask)
        return self._cache_value

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each catalogue action `agent` may play now (all 0 when it is not its turn)."""
        return self._cached(agent)[1].copy()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        features, mask = self._cached(agent)
        return {"observation": features.copy(), "action_mask": mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None and action is not None
        seat = self.agent_seat[agent]
        if not 0 <= int(action) < len(self.catalogue) or not self._cached(agent)[1][int(action)]:
            raise ValueError(f"Action {action} is not legal for {agent} now; use observation['action_mask'].")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(self.catalogue[int(action)], player=seat)
        if self.state.is_over:
            returns = self.state.returns()
            self.rewards = {a: float(returns[self.agent_seat[a]]) for a in self.agents}
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self._to_act()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The spectator's view as text (public facts only)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return str(self.state.view(None))

    def close(self) -> None:
        pass


def raw_env(game: str, players: int, **kwargs: Any) -> TabletopEnv:
    return TabletopEnv(game, players, **kwargs)


def env(game: str, players: int, **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are (bounds checked, call order enforced)."""
    wrapped: AECEnv = wrappers.AssertOutOfBoundsWrapper(TabletopEnv(game, players, **kwargs))
    return wrappers.OrderEnforcingWrapper(wrapped)


#: `SeatEnv`'s reward for an action its mask forbids, which ends the episode: worse than any game's loss (0).
ILLEGAL_REWARD = -1.0


class SeatEnv(gymnasium.Env):
    """One seat of a game against the registered bots, as a single-agent Gymnasium environment: the seat's
    observation and action encodings are `TabletopEnv`'s, the other seats are bots (`opponents`: one bot name
    for all, or one per other seat, e.g. "greedy" or "ismcts(iterations=32)"), playing between the seat's turns.

    `action_masks()` marks the legal actions (the convention of sb3-contrib's MaskablePPO); `info["action_mask"]`
    holds the same. The reward is the seat's return at the end (1 a win, 0 a loss), 0 before. Every random
    choice (the deal, the bots) comes from the seed given to `reset`.

    Every index of the action space is accepted, as Gymnasium's `check_env` and a learner without masks expect:
    an action the mask forbids ends the episode at once (terminated) with reward `ILLEGAL_REWARD` (-1, worse
    than any loss) and `info["illegal_action"]` True, the game left as it was. PettingZoo's classic games do
    the same (their `TerminateIllegalWrapper`); a masked learner never plays one. After the end, `step` raises
    until `reset`.

        game = SeatEnv("commissario", players=3, seat=0, opponents="greedy")
        observation, info = game.reset(seed=1)
        observation, reward, terminated, truncated, info = game.step(int(game.action_masks().argmax()))
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # a text frame per move: the rate is for viewers

    def __init__(self, game: str, players: int, *, seat: int = 0, opponents: str | Sequence[str] = "random",
                 rules: Any = None, observation_size: int = 256, render_mode: str | None = None) -> None:
        super().__init__()
        self.table = TabletopEnv(game, players, rules=rules, observation_size=observation_size,
                                 render_mode=render_mode)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"The seat is a number from 0 to {players - 1}, not {seat!r}.")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"{players - 1} opponents sit with seat {seat}, not {len(names)}: {names!r}.")
        self.seat, self.agent = seat, self.table.possible_agents[seat]
        others = [other for other in range(players) if other != seat]
        self.opponents: dict[int, Bot] = {other: bot_spec(self.table.game, name).build()
                                          for other, name in zip(others, names)}
        self.render_mode = render_mode
        self.action_space = self.table.action_spaces[self.agent]
        self.observation_space = self.table.observation_spaces[self.agent]["observation"]
        self._rng = random.Random(0)
        self._ended = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray,
                                                                                             dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.table.reset(seed=self._rng.randrange(2**32))
        self._ended = False
        self._bots_play()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.table.state
        assert state is not None, "call reset() first"
        if state.is_over or self._ended:
            raise ValueError("The episode is over: call reset() for a new one.")
        if not self.action_space.contains(action) or not self.action_masks()[int(action)]:
            self._ended = True
            return self._observation(), ILLEGAL_REWARD, True, False, {**self._info(), "illegal_action": True}
        self.table.step(int(action))
        self._bots_play()
        reward = float(state.returns()[self.seat]) if state.is_over else 0.0
        return self._observation(), reward, state.is_over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """True for each catalogue action the seat may play now (all False when the game is over)."""
        return self.table.action_mask(self.agent).astype(bool)

    def render(self) -> str | None:
        return self.table.render()

    def _bots_play(self) -> None:
        """The other seats play, each from its own view, until it is this seat's turn or the game is over."""
        state = self.table.state
        assert state is not None
        while not state.is_over and state.acting_seats[0] != self.seat:
            other = state.acting_seats[0]
            bind_worlds(self.opponents[other], state, other)  # a searching bot imagines worlds from that seat
            choice = self.opponents[other].choose(state.view(other), state.legal_actions(other), self._rng)
            self.table.step(self.table.index[str(choice)])

    def _observation(self) -> np.ndarray:
        return self.table.observe(self.agent)["observation"]

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}


#: `SeatEnv` in Gymnasium's registry: `gymnasium.make(SEAT_ENV_ID, game="commissario", players=3)`.
SEAT_ENV_ID = "tabletop_edu/Seat-v0"
if SEAT_ENV_ID not in gymnasium.registry:
    gymnasium.register(SEAT_ENV_ID, entry_point=f"{__name__}:SeatEnv")


def random_steps(environment: AECEnv, seed: int, games: int) -> int:
    """Play `games` games with uniformly random legal actions; the number of steps (for benchmarks)."""
    rng = np.random.default_rng(seed)
    steps = 0
    for game in range(games):
        environment.reset(seed=seed + game)
        for agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(rng.choice(legal))
            environment.step(action)
            steps += 1
    return steps


__all__ = ["ILLEGAL_REWARD", "SEAT_ENV_ID", "SeatEnv", "TabletopEnv", "action_catalogue", "env", "facts_features", "random_steps", "raw_env",
           "view_features"]


