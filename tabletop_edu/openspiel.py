"""OpenSpiel games for every registered game, so CFR, MCCFR, ISMCTS and exploitability run on them (`openspiel` extra).

    from tabletop_edu.openspiel import load_game
    game = load_game("peek", players=2, rules=peek.Rules(highest_card=3, rounds=1))
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)

Every game of the registry (`tabletop_edu.registry`) is registered with `pyspiel.register_game` as
"tabletop_<name>", the way OpenSpiel's own Python games are, so `pyspiel.load_game("tabletop_peek(players=2)")`
works too once this module is imported. Nothing here knows a game: the adapter is built from the registry, the
game's action catalogue and the PettingZoo adapter's view features.

The encoding, documented because algorithms depend on it:

- Players are seats. Seats acting secretly at once (Commissario's picks) act one after another, the first of
  `acting_seats` first, each seeing only its own view: the same game, as an imperfect-information game.
- Actions: `num_distinct_actions` is the size of the game's action catalogue (`GamePlugin.actions`, sorted by
  text); action id i is `catalogue[i]`, and `action_to_string` gives that text.
- Returns: the game's `returns()` at the end (1 for each winner, 0 for the others), 0 before; a general-sum
  game whose utilities lie in [0, 1]. With `constant_sum=True` the win is shared instead (1/k to each of k
  winners, 1/n to each seat if nobody wins): a constant-sum game (the returns add up to 1), so that
  OpenSpiel's `exploitability` runs on a two-player game. With `zero_sum=True` the shared win less 1/n:
  seat i gets r_i - 1/n, where r_i is its share, so the returns add up to 0; at two seats that is
  (r_0 - r_1)/2, half the difference of the shares. OpenSpiel's sequence-form LP (`sequence_form_lp`) accepts
  only `ZERO_SUM`, not constant-sum: this is the form it solves. Moving every payoff of a seat by one constant
  changes no seat's preferences, so the constant-sum and zero-sum forms have the same equilibria and the same
  exploitability (at two seats the zero-sum value is the constant-sum value less 1/2); the general-sum
  default is another game (a tie there pays each winner 1).
- Information state (`information_state_string`, perfect recall): the seat's whole `view`: its facts and
  every event of its log as it saw them, written canonically (sorted sets and keys). It is a function of the
  view alone, so it holds nothing the seat may not know, and two histories the seat cannot tell apart give the
  same string. Its tensor: the facts hashed into `observation_size` features and the log (event by event,
  position included) into `log_size` more, by `pettingzoo_env.facts_features` (feature hashing: collisions
  are possible, the strings are exact).
- Observation (`observation_string`, no recall): the view's facts only, the same hashed features as the
  PettingZoo environment. A public observer (`PrivateInfoType.NONE`) sees a spectator's view.
- Game parameters: `players`, one parameter per rule option (whole numbers, numbers, texts and booleans as
  themselves; any other option as the text "json:" + its JSON with "," written ";", e.g. `loyal=json:null`),
  `max_chance_outcomes`, `observation_size`, `log_size`, `constant_sum` and `zero_sum`.

Chance, faithfully. Our engines draw their randomness inside `new_game` and `apply`, from the state's own
`random.Random`. Every draw of Python's `random.Random` (`shuffle`, `sample`, `choice`, `randrange`,
`randint`) is built on one primitive, `_randbelow(n)`: a uniform whole number below n. The adapter gives the
engine a `ScriptedRandom` whose `_randbelow` answers from a list of drawn numbers, and that stops the engine
(`NeedDraw`) when the list runs out: the state then is a chance node with outcomes 0..n-1, each 1/n. When
OpenSpiel picks an outcome, the interrupted step (the deal, or a player's move) is played again from its
start with one more number in the list, until it completes. So:

- the chance nodes are exactly the engine's own draws, in its order, with its probabilities (a seeded
  `random.Random` makes the same `_randbelow` calls; the tests replay seeded games through the chance nodes);
- nothing is approximated: no list of seeds, no resampling; a draw with one possible outcome is not a node;
- `random()` (a float) is the engine's `_randbelow(2**53) / 2**53`, and `getrandbits(k)` `_randbelow(2**k)`,
  as in CPython, so they are chance nodes too; a draw among more than `max_chance_outcomes` values is cut into
  several chance nodes, one per base-`max_chance_outcomes` digit, most significant first, each with the exact
  probability of its digit (so every value keeps probability 1/n).

Chance nodes that arise in the middle of a player's move are resolved before anyone else acts; there, the
information state of each seat is its view before the move (the mover also knows its own move).

`resample_from_infostate(player, sampler)` returns a world drawn by the game's `world_from_view` from the
seat's view (OpenSpiel's ISMCTS uses it); its future draws are chance nodes again. Such a world has no
OpenSpiel history (no sequence of draws is known to produce its deal), so it cannot be serialized by history.

Bots: `OpenSpielISMCTS` seats OpenSpiel's ISMCTS bot at our tables (the bot name "openspiel-ismcts" of the
games that declare it); `OpenSpielBot` wraps any bot built by a function of the pyspiel game.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
import random
import typing
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .extras import MissingExtra

try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # without the openspiel extra: one sentence naming it, not a traceback
    raise MissingExtra(missing.name or "pyspiel", "The OpenSpiel adapter", "openspiel") from None

from . import registry
from .core import Action, Event, GameState, IllegalAction, Seat, View, rules_from_dict, rules_to_dict
from .pettingzoo_env import facts_features

#: The prefix of our games' OpenSpiel names ("tabletop_peek").
PREFIX = "tabletop_"
#: Default size of one chance node: larger draws are cut into digits of this base.
MAX_CHANCE_OUTCOMES = 64
OBSERVATION_SIZE = 256
LOG_SIZE = 512
#: Game parameters that are not rule options.
TABLE_PARAMETERS = ("players", "max_chance_outcomes", "observation_size", "log_size", "constant_sum",
                    "zero_sum")
#: The table parameters that change a game's utilities, and the OpenSpiel utility kind each declares.
SUM_FORMS = {"constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM, "zero_sum": pyspiel.GameType.Utility.ZERO_SUM}
_JSON = "json:"


# ------------------------------------------------------------------------------------------ chance


class NeedDraw(BaseException):
    """The engine asked for a draw nobody has made yet (a BaseException, so no `except Exception` in an
    engine can swallow it: the interrupted step is discarded and played again once the draw is made).

    `then` are the sizes of the draws known to follow it whatever their values (the rest of a shuffle): those
    chance nodes are offered without playing the step again for each."""

    def __init__(self, outcomes: int, then: Sequence[int] = ()) -> None:
        super().__init__(outcomes)
        self.outcomes = outcomes
        self.then = list(then)


class ScriptedRandom(random.Random):
    """A `random.Random` whose draws are given in advance: `draws[i]` answers the engine's i-th `_randbelow`.

    All of `random.Random`'s whole-number draws go through `_randbelow`; `random()` and `getrandbits` are
    written on it with CPython's distributions, so every draw an engine makes is one of these numbers.
    """

    def __init__(self, draws: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.draws = list(draws)
        self.used = 0

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to seed: every draw is scripted (and a deal's replays make many of these generators)."""
        self.gauss_next = None

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        """`random.Random.shuffle`: draws below len(x), len(x) - 1, ..., 2, in that order."""
        self._ask_ahead(range(len(x), 1, -1))
        super().shuffle(x)

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        """`random.Random.sample`: from a small population (CPython's pool method), draws below n, n - 1, ...,
        n - k + 1; from a large one, draws below n until k different ones (their count depends on the values)."""
        n = len(population)
        if counts is None and 0 <= k <= n and n <= _pool_limit(k):
            self._ask_ahead([n - i for i in range(k) if n - i > 1])
        return super().sample(population, k, counts=counts)

    def _ask_ahead(self, sizes: Sequence[int]) -> None:
        """Short of draws for these sizes (known before any is drawn), ask for the first missing one and tell
        the sizes of the rest (`NeedDraw.then`)."""
        missing = len(sizes) - (len(self.draws) - self.used)
        if missing > 0:
            raise NeedDraw(sizes[len(sizes) - missing], sizes[len(sizes) - missing + 1:])

    def _randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"a draw below {n} has no outcome")
        if n == 1:
            return 0  # one possible outcome: no chance node
        if self.used == len(self.draws):
            raise NeedDraw(n)
        value = self.draws[self.used]
        if not 0 <= value < n:
            raise RuntimeError(f"draw {self.used} is {value}, not below {n}: the engine did not replay the same "
                               "draws (does it use randomness other than its state's rng?)")
        self.used += 1
        return value

    def random(self) -> float:
        return self._randbelow(1 << 53) / (1 << 53)

    def getrandbits(self, k: int) -> int:
        return self._randbelow(1 << k) if k > 0 else 0

    def __reduce__(self) -> tuple[Any, ...]:
        return (_scripted, (self.draws, self.used))


def _pool_limit(k: int) -> int:
    """The largest population CPython's `Random.sample` draws `k` from by its pool method (`setsize`)."""
    return 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0)


def _scripted(draws: list[int], used: int) -> ScriptedRandom:
    rng = ScriptedRandom(draws)
    rng.used = used
    return rng


def digit_outcomes(outcomes: int, base: int, digits: Sequence[int]) -> list[tuple[int, float]]:
    """The next digit of a draw below `outcomes` written in `base` (most significant first), given the digits
    drawn so far, each with its exact probability: the share of the remaining values that start with it."""
    width = _width(outcomes, base)
    prefix = 0
    for digit in digits:
        prefix = prefix * base + digit
    rest = base ** (width - len(digits) - 1)

    def count(start: int) -> int:
        return max(0, min(outcomes, start + rest) - start)

    total = max(0, min(outcomes, (prefix + 1) * base * rest) - prefix * base * rest)
    found = [(digit, count((prefix * base + digit) * rest) / total) for digit in range(base)]
    return [(digit, p) for digit, p in found if p > 0]


def digits_of(value: int, outcomes: int, base: int) -> list[int]:
    """The chance actions that make the draw `value` below `outcomes`: the value itself when the draw fits
    in one chance node, else its base-`base` digits, most significant first."""
    if not 0 <= value < outcomes:
        raise ValueError(f"{value} is not a draw below {outcomes}.")
    if outcomes <= base:
        return [value]
    digits = []
    for _ in range(_width(outcomes, base)):
        value, digit = divmod(value, base)
        digits.append(digit)
    return digits[::-1]


def _width(outcomes: int, base: int) -> int:
    """How many base-`base` digits write every value below `outcomes`."""
    width, span = 1, base
    while span < outcomes:
        width, span = width + 1, span * base
    return width


# ------------------------------------------------------------------------------------------ dealing


_DEALING: dict[type, type] = {}


def _dealing_class(state_class: type[GameState[Any]]) -> type[GameState[Any]]:
    """A subclass whose `rng` attribute is the scripted one while `__init__` deals (the base class seeds its
    own `random.Random` there, which this subclass drops); the state gets its own class back after the deal."""
    if state_class not in _DEALING:
        slot = property(lambda self: self.__dict__["_scripted_rng"], lambda self, value: None)
        _DEALING[state_class] = type(state_class)(  # type: ignore[misc]
            f"Dealing{state_class.__name__}", (state_class,), {"rng": slot, "__module__": __name__})
    return _DEALING[state_class]


def deal(state_class: type[GameState[Any]], players: int, rules: Any, rng: ScriptedRandom) -> GameState[Any]:
    """A new game of `state_class` dealt with the draws of `rng` (the constructor is the protocol's set-up, as
    in `GameState.from_record`; its seed is 0 and unused: its records replay through OpenSpiel histories)."""
    dealing = _dealing_class(state_class)
    state = dealing.__new__(dealing)
    state.__dict__["_scripted_rng"] = rng
    dealing.__init__(state, players, seed=0, rules=rules)
    state.__class__ = state_class
    del state.__dict__["_scripted_rng"]
    state.__dict__["rng"] = rng
    return state


# ------------------------------------------------------------------------------------------ text


def canonical(value: Any) -> str:
    """A text of `value` that equal values share whatever their construction order (sets and mappings
    sorted), used for information-state strings."""
    kind = type(value)
    if kind in _ATOMS:
        return repr(value)
    if isinstance(value, dict) or isinstance(value, Mapping):
        return "{" + ", ".join(sorted(f"{canonical(k)}: {canonical(v)}" for k, v in value.items())) + "}"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(canonical(item) for item in value)) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(canonical(item) for item in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(canonical(item) for item in value) + ")"
    if isinstance(value, Action):
        return str(value)
    return repr(value)


_ATOMS = frozenset({int, str, bool, float, type(None)})


def event_text(event: Event) -> str:
    """One event of a seat's log, as the seat saw it (remembered: events are immutable and read again and again)."""
    data = event.data or None
    try:
        return _event_text(event.step, event.kind, event.text, event.actor, data)
    except TypeError:  # details holding something unhashable
        return _event_text.__wrapped__(event.step, event.kind, event.text, event.actor, data)


@functools.lru_cache(maxsize=1 << 16)
def _event_text(step: int, kind: str, text: str, actor: Seat | None, data: Mapping[str, Any] | None) -> str:
    who = "" if actor is None else f" by {actor}"
    return f"[{step}] {kind}{who}: {text} {canonical(data or {})}"


# ------------------------------------------------------------------------------------------ parameters


def _scalar(hint: Any) -> bool:
    return hint in (int, float, str, bool)


def rule_parameters(rules: Any) -> dict[str, Any]:
    """The OpenSpiel parameters of a rules object: plain options as themselves, others as "json:..." text."""
    hints = typing.get_type_hints(type(rules))
    parameters: dict[str, Any] = {}
    for spec in dataclasses.fields(rules):
        value = getattr(rules, spec.name)
        if spec.name in TABLE_PARAMETERS:
            raise ValueError(f"The rule option {spec.name!r} has the name of a table parameter of the adapter.")
        if _scalar(hints[spec.name]):
            parameters[spec.name] = float(value) if hints[spec.name] is float else value
            continue
        text = json.dumps(rules_to_dict(rules)[spec.name], separators=(",", ":"))
        if any(mark in text for mark in ";()="):
            raise ValueError(f"The rule option {spec.name} = {value!r} cannot be written as an OpenSpiel game "
                             "parameter (its text holds ';', '(', ')' or '=').")
        parameters[spec.name] = _JSON + text.replace(",", ";")
    return parameters


def rules_from_parameters(rules_class: type, parameters: Mapping[str, Any]) -> Any:
    """The rules object that `rule_parameters` wrote (unknown parameters are refused by OpenSpiel itself)."""
    values: dict[str, Any] = {}
    for spec in dataclasses.fields(rules_class):
        if spec.name not in parameters:
            continue
        value = parameters[spec.name]
        if isinstance(value, str) and value.startswith(_JSON):
            try:
                value = json.loads(value[len(_JSON):].replace(";", ","))
            except ValueError:
                raise ValueError(f"The parameter {spec.name}={value!r} is not 'json:' followed by JSON.") from None
        values[spec.name] = value
    return rules_from_dict(rules_class, values)


# ------------------------------------------------------------------------------------------ utilities


def constant_sum_form(returns: Sequence[float]) -> list[float]:
    """The win shared: 1/k to each of k winners, 1/n to each seat if nobody wins (the returns add up to 1)."""
    total = sum(returns)
    return [value / total for value in returns] if total else [1.0 / len(returns)] * len(returns)


def zero_sum_form(returns: Sequence[float]) -> list[float]:
    """The shared win less 1/n for each seat (the returns add up to 0): each seat's payoff moved by one
    constant, so the constant-sum form's equilibria and exploitability are kept."""
    return [value - 1.0 / len(returns) for value in constant_sum_form(returns)]


# ------------------------------------------------------------------------------------------ the table


@dataclass(frozen=True, eq=False)
class Table:
    """What every state of one OpenSpiel game shares: the game, players, rules and action catalogue.

    Shared, never copied: OpenSpiel clones states by deep-copying their attributes."""

    plugin: registry.GamePlugin
    players: int
    rules: Any
    max_chance_outcomes: int
    observation_size: int
    log_size: int
    constant_sum: bool = False
    zero_sum: bool = False
    catalogue: tuple[str, ...] = field(init=False)
    index: Mapping[str, int] = field(init=False)
    state_class: type[GameState[Any]] = field(init=False)
    max_steps: int = field(init=False)

    def __post_init__(self) -> None:
        catalogue = tuple(self.plugin.action_catalogue(self.players, self.rules))
        object.__setattr__(self, "catalogue", catalogue)
        object.__setattr__(self, "index", {text: i for i, text in enumerate(catalogue)})
        object.__setattr__(self, "state_class", self.plugin.state_class())
        probe = self.plugin.new_game(self.players, seed=0, rules=self.rules)
        object.__setattr__(self, "max_steps", probe.max_steps)

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self

    def action_id(self, action: Action | str) -> int:
        text = str(action)
        if text not in self.index:
            raise RuntimeError(f"{text!r} is legal but missing from the action catalogue of {self.plugin.name}.")
        return self.index[text]


# ------------------------------------------------------------------------------------------ the state


_DEAL = ("deal",)


def copy_engine(engine: GameState[Any]) -> GameState[Any]:
    """An independent copy of one of our states, quickly: events and rules are immutable, so the copy shares
    them (a game's own `clone` is used when it defines one). Its rng is a fresh, empty `ScriptedRandom`:
    a completed step never leaves draws unused."""
    if type(engine).clone is GameState.clone:
        memo: dict[int, Any] = {id(event): event for event in engine.events}
        memo[id(engine.rules)] = engine.rules
        memo[id(engine.rng)] = engine.rng
        copied = copy.deepcopy(engine, memo)
    else:
        copied = engine.clone()
    copied.rng = ScriptedRandom()
    return copied


class Progress:
    """Our game's state inside an OpenSpiel state: the engine after the last completed step, and a step
    waiting for draws (`pending`: the deal, or a seat's move) with the draws made for it so far.

    Replays start from `root` (None: the deal) with the draws and moves of the completed steps. OpenSpiel
    clones states by deep-copying their attributes: this one copies only what changes (`root` and `before` are
    never played on, so copies share them)."""

    def __init__(self, table: Table, engine: GameState[Any] | None = None,
                 sampler: Callable[[Seat, random.Random], GameState[Any]] | None = None) -> None:
        """`engine` (None: deal a new game) is taken over, not copied: the caller must not use it again."""
        self.table = table
        self.engine = None if engine is None else copy_engine(engine)
        self.root = engine  # taken over: never played on
        self.draws: list[int] = []
        self.moves: list[tuple[Seat, str]] = []
        self.pending: tuple[Any, ...] | None = _DEAL if engine is None else None
        self.pending_draws: list[int] = []
        self.digits: list[int] = []  # digits of a large draw picked so far
        self.outcomes: int | None = None  # the size of the draw asked for (None: not worked out yet)
        self.upcoming: list[int] = []  # the sizes of the draws known to follow it (`NeedDraw.then`)
        self.before: GameState[Any] | None = None  # the engine before the pending move (replayed when needed)
        self.sampler = sampler

    def __deepcopy__(self, memo: dict[int, Any]) -> Progress:
        copied = copy.copy(self)
        copied.engine = None if self.engine is None else copy_engine(self.engine)
        copied.draws, copied.moves = list(self.draws), list(self.moves)
        copied.pending_draws, copied.digits = list(self.pending_draws), list(self.digits)
        copied.upcoming = list(self.upcoming)
        return copied

    def settle(self) -> None:
        """Play the pending step with the draws made so far: it completes, or asks for one more draw."""
        if self.pending is None or self.outcomes is not None:
            return
        rng = ScriptedRandom(self.pending_draws)
        try:
            if self.pending == _DEAL:
                engine = deal(self.table.state_class, self.table.players, self.table.rules, rng)
            else:
                seat, text = self.pending
                engine = copy_engine(self.engine_before())
                engine.rng = rng
                engine.apply(text, player=seat)
        except NeedDraw as need:
            self.outcomes, self.upcoming = need.outcomes, need.then
            return
        if self.pending != _DEAL:
            self.moves.append(self.pending)
        self.draws += self.pending_draws
        engine.rng = ScriptedRandom()
        self.engine, self.before, self.pending, self.pending_draws = engine, None, None, []

    def engine_before(self) -> GameState[Any]:
        """The engine before the pending move, replayed from the root with the draws of the completed steps."""
        if self.before is None:
            rng = ScriptedRandom(self.draws)
            if self.root is None:
                engine = deal(self.table.state_class, self.table.players, self.table.rules, rng)
            else:
                engine = copy_engine(self.root)
                engine.rng = rng
            for seat, text in self.moves:
                engine.apply(text, player=seat)
            if rng.used != len(rng.draws):
                raise RuntimeError("the replay did not use every draw: the engine is not deterministic")
            engine.rng = ScriptedRandom()
            self.before = engine
        return self.before

    def draw_size(self) -> int:
        self.settle()
        assert self.outcomes is not None
        return self.outcomes

    def play(self, seat: Seat, text: str) -> None:
        """A seat's move: played at once, or pending if it draws."""
        assert self.engine is not None
        try:
            self.engine.apply(text, player=seat)
        except NeedDraw as need:  # the move draws: it is played again from its start as the draws come
            self.engine, self.pending, self.pending_draws, self.outcomes = None, (seat, text), [], need.outcomes
            self.upcoming = need.then
            return
        self.moves.append((seat, text))

    def draw(self, value: int) -> None:
        """A chance outcome: a draw, or one digit of a large draw."""
        outcomes = self.draw_size()
        base = self.table.max_chance_outcomes
        if outcomes > base:
            if value not in dict(digit_outcomes(outcomes, base, self.digits)):
                raise ValueError(f"{value} is not a possible digit of this draw below {outcomes}.")
            self.digits.append(value)
            if len(self.digits) < _width(outcomes, base):
                return
            value = 0
            for digit in self.digits:
                value = value * base + digit
        elif not 0 <= value < outcomes:
            raise ValueError(f"This draw is below {outcomes}, not {value}.")
        self.digits, self.outcomes = [], None
        self.pending_draws.append(value)
        if self.upcoming:  # the next draw's size is known: no replay until the known draws are made
            self.outcomes = self.upcoming.pop(0)
            return
        self.settle()

    def view_of(self, seat: Seat | None) -> tuple[View | None, str]:
        """The view `seat` has now and what it knows of a move in progress ("" if none); no view during the deal."""
        self.settle()
        if self.pending is None:
            assert self.engine is not None
            return self.engine.view(seat), ""
        if self.pending == _DEAL:
            return None, "the deal is in progress"
        mover, text = self.pending
        known = f"drawing for my move {text}" if seat == mover else f"drawing for seat {mover}'s move"
        return self.engine_before().view(seat), known


_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


class TabletopState(pyspiel.State):
    """One of our games in progress, as an OpenSpiel state (see the module docstring for the encoding)."""

    def __init__(self, game: TabletopGame, engine: GameState[Any] | None = None,
                 sampler: Callable[[Seat, random.Random], GameState[Any]] | None = None) -> None:
        """A new game (engine None), or the position `engine`, which the state takes over (see `state_from`)."""
        super().__init__(game)
        self.progress = Progress(game.table, engine, sampler)
        self.player: int | None = None  # `current_player`, known until the next action (OpenSpiel asks often)

    @property
    def table(self) -> Table:
        return self.progress.table

    def pending_draw(self) -> int | None:
        """At a chance node, the number of values the engine's draw is among (None elsewhere)."""
        return self.progress.draw_size() if self.current_player() == pyspiel.PlayerId.CHANCE else None

    def engine_state(self) -> GameState[Any] | None:
        """Our game's state after the last completed step (None during the deal); do not play on it."""
        self.progress.settle()
        return self.progress.engine

    def view_of(self, seat: Seat | None) -> tuple[View | None, str]:
        return self.progress.view_of(seat)

    def current_player(self) -> int:
        if self.player is None:
            progress = self.progress
            progress.settle()
            if progress.pending is not None:
                self.player = _CHANCE
            else:
                assert progress.engine is not None
                self.player = _TERMINAL if progress.engine.is_over else progress.engine.acting_seats[0]
        return self.player

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        if self.current_player() != player:
            return []
        assert self.progress.engine is not None
        legal = self.progress.engine.legal_actions(player)
        index = self.table.index
        try:
            return sorted([index[str(action)] for action in legal])
        except KeyError:
            return sorted(self.table.action_id(action) for action in legal)  # names the missing one

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.progress.draw_size()
        base = self.table.max_chance_outcomes
        if outcomes <= base:
            return [(value, 1.0 / outcomes) for value in range(outcomes)]
        return digit_outcomes(outcomes, base, self.progress.digits)

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        self.player = None
        if player == _CHANCE:
            self.progress.draw(int(action))
            return
        if not 0 <= action < len(self.table.catalogue):
            raise ValueError(f"There is no action {action} in {self.table.plugin.name}'s catalogue.")
        text = self.table.catalogue[action]
        try:
            self.progress.play(player, text)
        except IllegalAction as error:
            raise ValueError(f"{text!r} is not legal for seat {player} now: {error}") from None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = self.progress.draw_size() if self.progress.pending is not None else 0
            if outcomes > self.table.max_chance_outcomes:
                return f"digit {len(self.progress.digits) + 1} of a draw below {outcomes}: {action}"
            return f"draw {action} below {outcomes}" if outcomes else f"draw {action}"
        if 0 <= action < len(self.table.catalogue):
            return self.table.catalogue[action]
        return f"action {action}"

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.table.players
        assert self.progress.engine is not None
        values = [float(value) for value in self.progress.engine.returns()]
        if any(not 0.0 <= value <= 1.0 for value in values):
            raise ValueError(f"{self.table.plugin.name} returned {values}: the adapter declares utilities in [0, 1].")
        if self.table.zero_sum:
            return zero_sum_form(values)
        return constant_sum_form(values) if self.table.constant_sum else values

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TabletopState:
        """A world drawn from `player_id`'s information set by the game's `world_from_view` (its future draws
        are chance nodes again)."""
        progress = self.progress
        progress.settle()
        if progress.pending is not None or progress.engine is None:
            raise ValueError("Worlds are drawn at decision nodes, not while a draw is pending.")
        rng = random.Random(float(probability_sampler()))
        world = (progress.sampler(player_id, rng) if progress.sampler is not None
                 else progress.engine.resample(player_id, rng))
        return TabletopState(self.get_game(), world, progress.sampler)

    def __str__(self) -> str:
        progress = self.progress
        progress.settle()
        if progress.pending is not None:
            what = "the deal" if progress.pending == _DEAL else \
                f"seat {progress.pending[0]}'s move {progress.pending[1]!r}"
            return f"{self.table.plugin.title}: drawing for {what} (draws so far {progress.pending_draws})"
        engine = progress.engine
        assert engine is not None
        return f"{engine}; draws {progress.draws}; moves {[list(move) for move in engine.history]}"


# ------------------------------------------------------------------------------------------ observers


class TabletopObserver:
    """Observations and information states of a seat, as OpenSpiel's Python observers give them."""

    def __init__(self, table: Table, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"Observation parameters are not supported; got {dict(params)}.")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("An observer of every seat's private information is the state itself: not offered.")
        if iig_obs_type is not None and not iig_obs_type.public_info:
            raise ValueError("Our views mix public and private facts: an observer without public information "
                             "is not offered.")
        self.table = table
        self.perfect_recall = perfect_recall
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = table.observation_size + (table.log_size if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"facts": self.tensor[:table.observation_size]}
        if perfect_recall:
            self.dict["log"] = self.tensor[table.observation_size:]

    def _seat(self, player: int) -> Seat | None:
        return player if self.private else None

    def set_from(self, state: TabletopState, player: int) -> None:
        self.tensor.fill(0)
        seat = self._seat(player)
        view, pending = state.view_of(seat)
        if view is None:
            return
        self.dict["facts"][:] = facts_features(seat, view.facts, self.table.observation_size)
        if self.perfect_recall:
            log = [event_text(event) for event in view.log] + ([pending] if pending else [])
            self.dict["log"][:] = facts_features(seat, {"log": log}, self.table.log_size)

    def string_from(self, state: TabletopState, player: int) -> str:
        seat = self._seat(player)
        view, pending = state.view_of(seat)
        head = f"seat {seat}" if seat is not None else "spectator"
        if view is None:
            return f"{head}\n{pending}"
        lines = [head, canonical(view.facts)]
        if self.perfect_recall:
            lines += [event_text(event) for event in view.log]
        if pending:
            lines.append(pending)
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------ the game


class TabletopGame(pyspiel.Game):
    """One of our games as an OpenSpiel game; subclassed once per registered game (`game_name`)."""

    game_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        plugin = registry.game(self.game_name)
        game_type = _game_types[self.game_name]
        given = {**game_type.parameter_specification, **(params or {})}
        players = int(given["players"])
        if not plugin.min_players <= players <= plugin.max_players:
            raise ValueError(f"{plugin.title} is played by {plugin.min_players} to {plugin.max_players} players, "
                             f"not {players}.")
        rules = rules_from_parameters(plugin.state_class().rules_class, given)
        base = int(given["max_chance_outcomes"])
        if base < 2:
            raise ValueError(f"max_chance_outcomes is at least 2, not {base}.")
        constant_sum, zero_sum = bool(given["constant_sum"]), bool(given["zero_sum"])
        if constant_sum and zero_sum:
            raise ValueError("A game is constant-sum (constant_sum=True) or zero-sum (zero_sum=True), not both.")
        self.table = Table(plugin, players, rules, base, int(given["observation_size"]), int(given["log_size"]),
                           constant_sum, zero_sum)
        shift = 1.0 / players if zero_sum else 0.0
        info = pyspiel.GameInfo(num_distinct_actions=len(self.table.catalogue), max_chance_outcomes=base,
                                num_players=players, min_utility=-shift, max_utility=1.0 - shift,
                                utility_sum=0.0 if zero_sum else 1.0 if constant_sum else None,
                                max_game_length=self.table.max_steps)
        # a general-sum game keeps the name it always had (saved games and printed names stay the same)
        named = {key: value for key, value in given.items() if key not in SUM_FORMS or value}
        form = "zero_sum" if zero_sum else "constant_sum" if constant_sum else None
        super().__init__(_summed(game_type, SUM_FORMS[form]) if form else game_type, info, named)

    def new_initial_state(self) -> TabletopState:
        return TabletopState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> TabletopObserver:
        return TabletopObserver(self.table, iig_obs_type, params)

    def state_from(self, engine: GameState[Any],
                   sampler: Callable[[Seat, random.Random], GameState[Any]] | None = None) -> TabletopState:
        """An OpenSpiel state holding a copy of one of our game states (a position to search from); its future
        draws are chance nodes. `sampler(seat, rng)` replaces `engine.resample` for `resample_from_infostate`."""
        if len(engine.players) != self.table.players or engine.rules != self.table.rules or \
                not isinstance(engine, self.table.state_class):
            raise ValueError("That state is not a position of this game (its game, table size or rules differ).")
        return TabletopState(self, copy_engine(engine), sampler)


_game_types: dict[str, Any] = {}


def _summed(game_type: Any, utility: Any) -> Any:
    """The registered game type with another utility kind (constant-sum or zero-sum: the win shared)."""
    fields = ("short_name", "long_name", "dynamics", "chance_mode", "information", "reward_model",
              "max_num_players", "min_num_players", "provides_information_state_string",
              "provides_information_state_tensor", "provides_observation_string", "provides_observation_tensor",
              "parameter_specification")
    return pyspiel.GameType(utility=utility, **{name: getattr(game_type, name) for name in fields})


def short_name(game: str) -> str:
    """The OpenSpiel name of one of our games ("peek" -> "tabletop_peek")."""
    return PREFIX + registry.game(game).name


def register(game: str | registry.GamePlugin) -> str:
    """Register one of our games with OpenSpiel (once per process); its OpenSpiel name."""
    plugin = registry.game(game)
    name = PREFIX + plugin.name
    rules = plugin.state_class().rules_class()
    specification = {"players": plugin.default_players, **rule_parameters(rules),
                     "max_chance_outcomes": MAX_CHANCE_OUTCOMES, "observation_size": OBSERVATION_SIZE,
                     "log_size": LOG_SIZE, "constant_sum": False, "zero_sum": False}
    known = _game_types.get(plugin.name)
    if known is not None:
        if dict(known.parameter_specification) != specification or \
                (known.min_num_players, known.max_num_players) != (plugin.min_players, plugin.max_players):
            raise ValueError(f"{name} is already registered with OpenSpiel with other options or player counts; "
                             "OpenSpiel cannot forget a game: restart the kernel, or register it under a new name.")
        return name
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"tabletop_edu {plugin.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=plugin.max_players, min_num_players=plugin.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=specification)
    game_class = type(f"Tabletop_{plugin.name}", (TabletopGame,), {"game_name": plugin.name,
                                                                  "__module__": __name__})
    _game_types[plugin.name] = game_type
    pyspiel.register_game(game_type, game_class)
    return name


def register_all() -> list[str]:
    """Register every game of the registry with OpenSpiel; their OpenSpiel names. A game that cannot be
    registered (its rules cannot be written as OpenSpiel parameters...) is left out with a warning."""
    names = []
    for plugin in registry.games().values():
        try:
            names.append(register(plugin))
        except Exception as error:  # noqa: BLE001 - one game must not keep the others from OpenSpiel
            warnings.warn(f"{plugin.name} is not registered with OpenSpiel: {type(error).__name__}: {error}",
                          registry.PluginWarning, stacklevel=2)
    return names


def load_game(game: str | registry.GamePlugin, players: int | None = None, rules: Any = None,
              **options: int | bool) -> pyspiel.Game:
    """One of our games as a pyspiel game: `players` (default: the game's usual count), `rules` (a Rules
    object), and the adapter's `max_chance_outcomes`, `observation_size`, `log_size`, `constant_sum` and
    `zero_sum`."""
    plugin = registry.game(game)
    name = register(plugin)
    unknown = set(options) - set(TABLE_PARAMETERS)
    if unknown:
        raise ValueError(f"Unknown option(s) {sorted(unknown)}; the adapter takes {list(TABLE_PARAMETERS[1:])}.")
    parameters: dict[str, Any] = {"players": plugin.default_players if players is None else players, **options}
    if rules is not None:
        parameters.update(rule_parameters(rules))
    return pyspiel.load_game(name, parameters)


# ------------------------------------------------------------------------------------------ bots


def _world_sampler(view: View, bound: Callable[[random.Random], GameState[Any]] | None
                   ) -> Callable[[random.Random], GameState[Any]]:
    """Worlds consistent with `view`: the game package's `world_from_view`, else the referee's bound sampler
    (`tabletop_edu.ismcts.bind_worlds`), else the game's `State.world_from_view`."""
    from .ismcts import game_world_builder
    builder = game_world_builder(view.game)
    if builder is None and bound is not None:
        return bound
    if builder is None:
        builder = registry.game(view.game).state_class().world_from_view
    return lambda rng: builder(view, rng)


class OpenSpielBot:
    """Any OpenSpiel bot at our tables: `make(game, seed)` builds the pyspiel bot for each decision.

    The bot is given an OpenSpiel state built from a world consistent with our view (it knows nothing
    else), and its worlds come from the same sampler (`resample_from_infostate`)."""

    name = "openspiel"

    def __init__(self, make: Callable[[pyspiel.Game, int], Any]) -> None:
        self.make = make
        self.bound_sampler: Callable[[random.Random], GameState[Any]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "bound_sampler": None}

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        sample = _world_sampler(view, self.bound_sampler)
        seed = rng.randrange(2**31)
        worlds = random.Random(seed)
        game = load_game(view.game, players=len(view.players), rules=view.rules)
        root = game.state_from(sample(worlds), sampler=lambda seat, world_rng: sample(world_rng))
        bot = self.make(game, seed)
        if hasattr(bot, "set_resampler"):
            bot.set_resampler(lambda state, player: game.state_from(sample(worlds)))
        choice = game.table.catalogue[int(bot.step(root))]
        by_text = {str(action): action for action in legal}
        if choice not in by_text:
            raise RuntimeError(f"The OpenSpiel bot chose {choice!r}, which is not legal here.")
        return by_text[choice]


class OpenSpielISMCTS(OpenSpielBot):
    """OpenSpiel's own ISMCTS (Python `ISMCTSBot`) with random rollouts: `simulations` per decision, UCT
    constant `uct_c`, `rollouts` random playouts per leaf, at most `worlds` sampled worlds (-1: a new world
    every simulation)."""

    name = "openspiel-ismcts"

    def __init__(self, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1, worlds: int = -1) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        def make(game: pyspiel.Game, seed: int) -> Any:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=np.random.RandomState(seed))
            return ismcts.ISMCTSBot(game, evaluator, uct_c, max_simulations=simulations, max_world_samples=worlds,
                                    random_state=np.random.RandomState(seed + 1))

        super().__init__(make)
        self.simulations, self.uct_c, self.rollouts, self.worlds = simulations, uct_c, rollouts, worlds

    def __repr__(self) -> str:
        return (f"OpenSpielISMCTS(simulations={self.simulations}, uct_c={self.uct_c}, rollouts={self.rollouts}, "
                f"worlds={self.worlds})")


register_all()

__all__ = ["MAX_CHANCE_OUTCOMES", "NeedDraw", "OpenSpielBot", "OpenSpielISMCTS", "ScriptedRandom", "TabletopGame",
           "TabletopObserver", "TabletopState", "Table", "canonical", "constant_sum_form", "deal", "digit_outcomes",
           "event_text", "digits_of", "load_game", "register", "register_all", "rule_parameters",
           "rules_from_parameters", "short_name", "zero_sum_form"]
