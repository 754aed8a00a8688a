"""Mafia de Cuba's box chain, the model: the box's states, each step's legal choices and the behaviour models,
and what a view pins (`Observation`, `observation_from_view`). The forward-backward passes over it are
`_chain_python` and `_chain_numpy`; `chain` picks one and caches posteriors; `inference` explains them.

Imports inside the package go one way: rules <- _box <- _chain_python, _chain_numpy <- chain <- engine <-
inference, bots, render, widget (see the package docstring).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from ..core import FrozenDict, View
from .rules import TOKEN_ORDER, Rules, Take, take_text

Box = tuple[int, tuple[int, ...]]  # (diamonds, counts in TOKEN_ORDER)
Choice = Any  # an int for hide, a token or None for set-aside, a Take for a take
#: model(kind, seat, box, legal choices, is_last) -> weight of each legal choice
Model = Callable[[str, int, Box, list[Choice], bool], list[float]]


def UNIFORM_WORLDS(kind: str, seat: int, box: Box, choices: list[Choice], last: bool) -> list[float]:
    """Every consistent world counts once."""
    return [1.0] * len(choices)


def RANDOM_CHOICES(kind: str, seat: int, box: Box, choices: list[Choice], last: bool) -> list[float]:
    """Each seat picks uniformly among its legal choices (the RandomBot's behaviour)."""
    return [1.0 / len(choices)] * len(choices)


def policy_model(takers: Mapping[int, Any]) -> Model:
    """A model where seat s takes with `takers[s].take_probabilities(...)` (bots.py); others pick uniformly."""
    def model(kind: str, seat: int, box: Box, choices: list[Choice], last: bool) -> list[float]:
        policy = takers.get(seat)
        if kind != "take" or policy is None:
            return RANDOM_CHOICES(kind, seat, box, choices, last)
        tokens = {name: count for name, count in zip(TOKEN_ORDER, box[1]) if count}
        probabilities = policy.take_probabilities(box[0], tokens, [take_text(c) for c in choices])
        return [probabilities.get(take_text(c), 0.0) for c in choices]
    return model


@dataclass(frozen=True)
class Observation:
    """What one seat knows about the box chain (hashable: posteriors are cached by it).

    `steps` lists (kind, seat) of the steps already played: ("hide", godfather), maybe ("set-aside", first),
    then ("take", seat) in box order. `pinned_choices[i]` is a known choice of step i; `pinned_boxes[i]` a known
    box before step i (index len(steps) is the box after the last step). `emptied` holds the take steps whose
    pockets were emptied in public; `diamonds_out` says that some other take holds diamonds (the investigation
    went on after a recovery check).
    """

    steps: tuple[tuple[str, int], ...]
    start: Box
    max_hidden: int
    last_may_take_nothing: bool
    last_taker: int
    pinned_choices: Mapping[int, Choice] = field(default_factory=FrozenDict)
    pinned_boxes: Mapping[int, Box] = field(default_factory=FrozenDict)
    #: soft evidence from testimonies: (step index, claimed choice or box, probability the claim is true)
    soft_choices: tuple[tuple[int, Choice, float], ...] = ()
    soft_boxes: tuple[tuple[int, Box, float], ...] = ()
    emptied: frozenset[int] = frozenset()
    diamonds_out: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "pinned_choices", FrozenDict(self.pinned_choices))
        object.__setattr__(self, "pinned_boxes", FrozenDict(self.pinned_boxes))
        object.__setattr__(self, "emptied", frozenset(self.emptied))

    def choice_factor(self, index: int, choice: Choice) -> float:
        return _soft_factor(self.soft_choices, index, choice)

    def box_factor(self, index: int, box: Box) -> float:
        return _soft_factor(self.soft_boxes, index, box)

    def counts_out(self, index: int) -> bool:
        """Whether step `index`'s diamonds still count as out (a take whose pockets were not emptied)."""
        return self.diamonds_out and self.steps[index][0] == "take" and index not in self.emptied


def _soft_factor(soft: tuple[tuple[int, Any, float], ...], index: int, value: Any) -> float:
    """The weight of `value` at step `index` from the testimonies about that step: each claim believed with
    probability `truth` (a claim that matches weighs `truth`, one that does not `1 - truth`)."""
    factor = 1.0
    for at, claim, truth in soft:
        if at == index:
            factor *= truth if claim == value else 1.0 - truth
    return factor


def _counts(tokens: Mapping[str, int] | list[str]) -> tuple[int, ...]:
    if isinstance(tokens, Mapping):
        return tuple(tokens.get(name, 0) for name in TOKEN_ORDER)
    return tuple(tokens.count(name) for name in TOKEN_ORDER)


def _parse_take(text: str) -> Take:
    if text == "nothing":
        return (0, None)
    if text in TOKEN_ORDER:
        return (0, text)
    return (int(text), None)


BOX_PHASES = ("hide", "set-aside", "take")
#: Events after which the engine checks whether every stolen diamond is back (R4.4, R6.2).
RECOVERY_CHECKS = ("caught", "shoot")


def _diamonds_still_out(view: View, rules: Rules) -> bool:
    """True when the view shows the investigation going on after a recovery check: some diamond is out.

    With `nobody_stole_godfather_wins` the return of the box is such a check (R3.6); otherwise only catches
    and shots are, since an investigation with nothing stolen goes on until the Godfather errs."""
    facts = view.facts
    if facts["phase"] in BOX_PHASES or view.is_over:
        return False
    return rules.nobody_stole_godfather_wins or any(event.kind in RECOVERY_CHECKS for event in view.log)


def observation_from_view(view: View, rules: Rules | None = None) -> Observation:
    """The box-chain knowledge in `view` (any seat or a spectator); `rules` default to the view's own."""
    rules = rules or view.rules
    facts = view.facts
    order, godfather = list(facts["order"]), facts["godfather"]
    if facts["phase"] == "hide":
        done = 0
    elif facts["phase"] in ("set-aside", "take"):
        done = order.index(facts["box_holder"])
    else:
        done = len(order)
    steps: list[tuple[str, int]] = [] if facts["phase"] == "hide" else [("hide", godfather)]
    offset = 1
    if rules.first_may_set_aside and facts["phase"] not in ("hide", "set-aside"):
        steps.append(("set-aside", order[0]))
        offset = 2
    steps += [("take", seat) for seat in order[:done]]
    pinned: dict[int, Choice] = {}
    boxes: dict[int, Box] = {}
    all_takes = facts.get("all_takes", {})
    known_takes = {**facts["revealed"], **all_takes}
    if view.seat is not None and facts["my_take"] is not None:
        known_takes[view.seat] = facts["my_take"]
    emptied = set()
    for index, (kind, seat) in enumerate(steps):
        if kind == "take" and seat in known_takes:
            pinned[index] = _parse_take(known_takes[seat])
        if kind == "take" and seat in facts["revealed"]:
            emptied.add(index)
    if facts["hidden"] is not None and steps:
        pinned[0] = facts["hidden"]
    aside = facts["my_set_aside"] if facts["my_set_aside"] is not None else facts.get("set_aside")
    if aside is not None and offset == 2:
        pinned[1] = None if aside == "none" else aside
    if facts["box_seen"] is not None and view.seat is not None:
        position = order.index(view.seat)
        index = 1 if position == 0 else offset + position
        boxes[index] = (facts["box_seen"]["diamonds"], _counts(facts["box_seen"]["tokens"]))
    if facts["box_returned"] is not None:
        boxes[len(steps)] = (facts["box_returned"]["diamonds"], _counts(facts["box_returned"]["tokens"]))
    return Observation(tuple(steps), (rules.diamonds, _counts(facts["tokens_in_game"])), rules.max_hidden,
                       rules.last_may_take_nothing, order[-1], pinned, boxes, emptied=frozenset(emptied),
                       diamonds_out=_diamonds_still_out(view, rules))


@lru_cache(maxsize=1 << 14)
def _options(kind: str, box: Box, may_take_nothing: bool, max_hidden: int) -> tuple[tuple[Choice, Box], ...]:
    """Every legal choice of a step from `box`, with the box it leaves (public structure only: no seat, no
    game; cached since every posterior walks the same few hundred boxes)."""
    diamonds, counts = box
    if kind == "hide":
        return tuple((hidden, (diamonds - hidden, counts)) for hidden in range(min(max_hidden, diamonds) + 1))
    present = [index for index, count in enumerate(counts) if count]

    def without(index: int) -> tuple[int, ...]:
        return counts[:index] + (counts[index] - 1,) + counts[index + 1:]

    if kind == "set-aside":
        return ((None, box), *((TOKEN_ORDER[index], (diamonds, without(index))) for index in present))
    if diamonds == 0 and not present:
        return (((0, None), box),)
    takes: list[tuple[Choice, Box]] = [((taken, None), (diamonds - taken, counts)) for taken in range(1, diamonds + 1)]
    takes += [((0, TOKEN_ORDER[index]), (diamonds, without(index))) for index in present]
    if may_take_nothing:
        takes.append(((0, None), box))
    return tuple(takes)


def _choices(obs: Observation, kind: str, seat: int, box: Box) -> list[Choice]:
    """The legal choices of a step (what the brute force and the models see)."""
    last_nothing = seat == obs.last_taker and obs.last_may_take_nothing
    return [choice for choice, _ in _options(kind, box, last_nothing, obs.max_hidden)]


def _apply(kind: str, box: Box, choice: Choice) -> Box:
    diamonds, counts = box
    if kind == "hide":
        return diamonds - choice, counts
    token = choice if kind == "set-aside" else choice[1]
    if kind == "take":
        diamonds -= choice[0]
    if token:
        index = TOKEN_ORDER.index(token)
        counts = counts[:index] + (counts[index] - 1,) + counts[index + 1:]
    return diamonds, counts


@dataclass
class Posterior:
    """Marginal distribution of every step's choice: `steps[i]` maps choice -> probability."""

    observation: Observation
    steps: list[dict[Choice, float]]
    evidence: float

    def of_seat(self, seat: int) -> dict[str, float]:
        """Distribution of a taker's take, by take text ("3", "driver", "nothing")."""
        for index, (kind, who) in enumerate(self.observation.steps):
            if kind == "take" and who == seat:
                return {take_text(choice): p for choice, p in self.steps[index].items()}
        return {}

    def hidden(self) -> dict[int, float]:
        return dict(self.steps[0]) if self.steps else {}

    def role_probabilities(self, seat: int) -> dict[str, float]:
        """P(thief), P(each token), P(street-kid) for a taker."""
        roles: dict[str, float] = defaultdict(float)
        for text, p in self.of_seat(seat).items():
            roles["thief" if text.isdigit() else ("street-kid" if text == "nothing" else text)] += p
        return dict(roles)

    def expected_diamonds(self, seat: int) -> float:
        return sum(int(text) * p for text, p in self.of_seat(seat).items() if text.isdigit())


# ------------------------------------------------------------------------------- forward-backward

_FREE = ("free",)  # "no pinned choice" in a step's key (None is a real choice: setting nothing aside)


class _BoxNumbers:
    """Every box a game can hold, numbered: box (d, counts) is d * per_diamond + sum(count * radix). Both chains
    name their nodes so (numbers index numpy arrays, and hash faster than nested tuples)."""

    def __init__(self, start: Box) -> None:
        self.diamonds, self.counts = start
        self.radix: list[int] = []
        size = 1
        for count in reversed(self.counts):
            self.radix.insert(0, size)
            size *= count + 1
        self.per_diamond = size
        self.size = (self.diamonds + 1) * size

    def index(self, box: Box) -> int:
        """A box's number, or -1 for a box this game can never hold."""
        diamonds, counts = box
        if not 0 <= diamonds <= self.diamonds or any(not 0 <= c <= top for c, top in zip(counts, self.counts)):
            return -1
        return diamonds * self.per_diamond + sum(c * radix for c, radix in zip(counts, self.radix))


def _chain_key(obs: Observation, model: Model) -> tuple[Any, ...]:
    """What every step of the chain depends on besides its own evidence."""
    return (obs.start, obs.pinned_boxes.get(0), tuple(soft for soft in obs.soft_boxes if soft[0] == 0),
            obs.max_hidden, obs.last_may_take_nothing, obs.last_taker, obs.diamonds_out, model)


def _step_keys(obs: Observation) -> list[tuple[Any, ...]]:
    """Everything step i's transitions depend on: equal keys give equal transitions."""
    soft_choices: dict[int, list[Any]] = defaultdict(list)
    soft_boxes: dict[int, list[Any]] = defaultdict(list)
    for soft in obs.soft_choices:
        soft_choices[soft[0]].append(soft)
    for soft in obs.soft_boxes:
        soft_boxes[soft[0]].append(soft)
    return [(index, step, obs.pinned_choices.get(index, _FREE), obs.pinned_boxes.get(index + 1),
             tuple(soft_choices[index]), tuple(soft_boxes[index + 1]), obs.counts_out(index))
            for index, step in enumerate(obs.steps)]


def _shared_prefix(key: tuple[Any, ...], step_keys: list[tuple[Any, ...]], previous: Chain | None) -> int:
    """How many first steps a chain of (`key`, `step_keys`) can take over from `previous` unchanged."""
    if previous is None or previous.key != key:
        return 0
    return next((i for i, (mine, theirs) in enumerate(zip(step_keys, previous.step_keys)) if mine != theirs),
                min(len(step_keys), len(previous.step_keys)))


class Chain(Protocol):
    """A forward-backward pass over one observation: what `_chain_numpy.NumpyChain` and
    `_chain_python.PythonChain` both are (same numbers, same draws from the same rng)."""

    key: tuple[Any, ...]
    step_keys: list[tuple[Any, ...]]
    evidence: float

    def __init__(self, obs: Observation, model: Model, previous: Any = None) -> None: ...

    def posterior(self) -> Posterior: ...

    def sample(self, rng: random.Random) -> list[Choice]: ...
