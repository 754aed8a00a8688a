"""Exact inference for Mafia de Cuba: who took what, given one seat's information.

The box passing is a Markov chain: the box contents (diamonds, token counts) are the state, and each step (the
Godfather's hiding, the first taker's set-aside, each take) is a transition chosen by a behaviour model. A seat's
information pins some steps (its own choices, pockets emptied by accusations) and some states (the box it saw;
for the Godfather, the box that came back). The investigation adds one more fact: while it goes on after a
recovery check (R3.6, R4.4), some diamond is still out, i.e. some take whose pockets were not emptied holds
diamonds; a flag carried along the chain keeps that exact. The posterior of every step is then a
forward-backward pass over box contents, linear in the number of takers; `brute_force_posterior` enumerates
whole worlds instead and checks it (tests: to 1e-9 on tables up to 8 players, under any token table).

Behaviour models (`Model`): `UNIFORM_WORLDS` weighs every consistent world equally; `RANDOM_CHOICES` has every
seat pick uniformly among its legal choices; `policy_model(takers)` uses the take distributions of bots.

Testimonies may be lies, so they are not pinned: `with_testimonies(obs, view, truth)` adds each one as soft
evidence (a factor `truth` when the world agrees with the claim, `1 - truth` when it does not), which keeps the
chain structure, and `testimony_worth` measures how much each testimony moves the posterior.

Speed: `PosteriorCache` (and `view_posterior`, which a widget calls once per redraw) computes a view's exact
posterior once per observation, and extends the forward pass of an earlier observation when only later steps
changed (the box going round adds one step at a time); the transition tables of unchanged steps are shared.
The pass itself runs over numpy arrays (`_chain_numpy`) where numpy can be imported, and over dicts in pure
Python (`_chain_python`: same numbers, same draws from the same rng, a few times slower) where it cannot, so
that playing, the bots and the widget need no numpy (a Pyodide kernel, issue 15).
`sample_world(view, rng)` draws a whole game state from the view alone: the box history by backward sampling
from this chain (uniform over the consistent histories), the investigation replayed from the view's log. It is
the game's `world_from_view`.
"""

from __future__ import annotations

import random
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol

from ..core import Event, FrozenDict, View
from .engine import Take, take_text
from .rules import TOKEN_ORDER, Rules

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
        factor = 1.0
        for at, claim, truth in self.soft_choices:
            if at == index:
                factor *= truth if claim == choice else 1.0 - truth
        return factor

    def box_factor(self, index: int, box: Box) -> float:
        factor = 1.0
        for at, claim, truth in self.soft_boxes:
            if at == index:
                factor *= truth if claim == box else 1.0 - truth
        return factor

    def counts_out(self, index: int) -> bool:
        """Whether step `index`'s diamonds still count as out (a take whose pockets were not emptied)."""
        return self.diamonds_out and self.steps[index][0] == "take" and index not in self.emptied


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


@lru_cache(maxsize=1)
def fastest_chain() -> type[Chain]:
    """The numpy chain where numpy can be imported (about ten times faster), else the pure-Python one: playing,
    bots and widgets must run where numpy is missing (a Pyodide/JupyterLite kernel, issue 15)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        from ._chain_python import PythonChain

        return PythonChain
    from ._chain_numpy import NumpyChain

    return NumpyChain


class PosteriorCache:
    """Exact posteriors for callers that ask again and again as a game goes on (a widget, a bot, a sampler).

    A posterior is computed once per observation (a redraw, or a step that changes nothing about the box, costs a
    look-up); a new observation reuses the steps and forward pass of the cached one it shares the most first
    steps with (the box going round adds one step at a time). Results are exactly those of
    `posterior(obs, model)`. Bounded: `size` posteriors and `chains` forward-backward passes (a pass holds a
    few megabytes at 12 players); it belongs to its owner (nothing is shared between caches). `chain` is the
    forward-backward to use (default `fastest_chain()`; the same numbers either way).
    """

    def __init__(self, model: Model = UNIFORM_WORLDS, size: int = 16, chains: int = 4,
                 chain: type[Chain] | None = None) -> None:
        self.model, self.chain_type = model, chain
        self.size, self.chains = max(1, size), max(1, chains)
        self._chains: OrderedDict[Observation, Chain] = OrderedDict()
        self._posteriors: OrderedDict[Observation, Posterior] = OrderedDict()
        self.hits = self.misses = 0

    def chain(self, obs: Observation) -> Chain:
        cached = self._chains.get(obs)
        if cached is not None:
            self._chains.move_to_end(obs)
            self.hits += 1
            return cached
        self.misses += 1
        key, step_keys = _chain_key(obs, self.model), _step_keys(obs)
        previous = max(reversed(self._chains.values()), key=lambda chain: _shared_prefix(key, step_keys, chain),
                       default=None)
        chain = (self.chain_type or fastest_chain())(obs, self.model, previous)
        self._chains[obs] = chain
        while len(self._chains) > self.chains:
            self._chains.popitem(last=False)
        return chain

    def posterior(self, obs: Observation) -> Posterior:
        """The exact posterior of `obs` (see `posterior`), computed once."""
        found = self._posteriors.get(obs)
        if found is None:
            found = self._posteriors[obs] = self.chain(obs).posterior()
            while len(self._posteriors) > self.size:
                self._posteriors.popitem(last=False)
        else:
            self._posteriors.move_to_end(obs)
            self.hits += 1
        return found

    def sample(self, obs: Observation, rng: random.Random) -> list[Choice]:
        """One box history drawn exactly from the posterior of `obs`."""
        return self.chain(obs).sample(rng)

    def view_posterior(self, view: View, rules: Rules | None = None, truth: float | None = None) -> Posterior | None:
        """The posterior of every take given `view` alone (testimonies weighed with `truth` if given); None
        before any box step was played, or if no world fits (possible only with believed lies)."""
        observation = observation_from_view(view, rules)
        if not observation.steps:
            return None
        if truth is not None:
            observation = with_testimonies(observation, view, truth)
        try:
            return self.posterior(observation)
        except ValueError:
            return None


def posterior(obs: Observation, model: Model = UNIFORM_WORLDS) -> Posterior:
    """Forward-backward over box contents: exact marginals of every step given `obs` and `model`, from scratch."""
    return fastest_chain()(obs, model).posterior()


#: The posteriors of views asked for by `view_posterior` without a cache of their own (a widget's redraws).
_VIEWS = PosteriorCache(UNIFORM_WORLDS, size=64, chains=4)


def view_posterior(view: View, rules: Rules | None = None, *, truth: float | None = None,
                   cache: PosteriorCache | None = None) -> Posterior | None:
    """The exact posterior of every take given `view` alone, computed once per observation and extended step by
    step (`PosteriorCache`); the same numbers as `posterior(observation_from_view(view))` (with the testimonies
    weighed with `truth` if given). None before any box step, or if no world fits believed testimonies."""
    return (cache or _VIEWS).view_posterior(view, rules, truth)


def brute_force_posterior(obs: Observation, model: Model = UNIFORM_WORLDS) -> Posterior:
    """The same marginals by enumerating every world (choice sequence) depth first: the reference.

    Branches are cut only where a pinned choice or box is contradicted, or where the box already holds fewer
    diamonds or tokens than a later pinned box (nothing ever returns to the box)."""
    steps = obs.steps
    totals: list[dict[Choice, float]] = [defaultdict(float) for _ in steps]
    evidence = 0.0
    later = sorted(obs.pinned_boxes.items())

    def possible(index: int, box: Box) -> bool:
        for at, pin in later:
            if at >= index and (box[0] < pin[0] or any(a < b for a, b in zip(box[1], pin[1]))):
                return False
        return True

    def walk(index: int, box: Box, weight: float, path: list[Choice]) -> None:
        nonlocal evidence
        if index in obs.pinned_boxes and obs.pinned_boxes[index] != box:
            return
        if not possible(index, box):
            return
        if index == len(steps):
            if obs.diamonds_out and not any(obs.counts_out(at) and choice[0] > 0 for at, choice in enumerate(path)):
                return  # the investigation went on: some diamond must still be out
            evidence += weight
            for at, choice in enumerate(path):
                totals[at][choice] += weight
            return
        kind, seat = steps[index]
        choices = _choices(obs, kind, seat, box)
        for choice, w in zip(choices, model(kind, seat, box, choices, seat == obs.last_taker)):
            if w > 0 and (index not in obs.pinned_choices or obs.pinned_choices[index] == choice):
                after = _apply(kind, box, choice)
                factor = obs.choice_factor(index, choice) * obs.box_factor(index + 1, after)
                walk(index + 1, after, weight * w * factor, [*path, choice])

    walk(0, obs.start, obs.box_factor(0, obs.start), [])
    if evidence <= 0:
        raise ValueError("No world fits this observation under this model.")
    return Posterior(obs, [{c: p / evidence for c, p in dist.items()} for dist in totals], evidence)


def sample_choices(obs: Observation, rng: random.Random, model: Model = UNIFORM_WORLDS) -> list[Choice]:
    """One box history drawn exactly from the posterior (forward filtering, backward sampling)."""
    return fastest_chain()(obs, model).sample(rng)


# ------------------------------------------------------------------------------- worlds from a view

#: The sampler's own cache: `world_from_view` is called for every seat at every step by searches and checks
#: (sampling needs the whole pass: one per seat of the largest table).
_WORLDS = PosteriorCache(UNIFORM_WORLDS, size=1, chains=16)


def sample_world(view: View, rng: random.Random, model: Model = UNIFORM_WORLDS,
                 cache: PosteriorCache | None = None) -> Any:
    """A full game state consistent with `view`, built from the view and `rng` alone (a determinization).

    The world gets a fresh seed (`rng.randrange(2**32)`) and the view's players and rules. Its box history
    (hidden count, set-aside, takes) is drawn exactly from the posterior of the view's observation under
    `model`: with `UNIFORM_WORLDS` (the game's `world_from_view`) uniformly among the histories consistent with
    everything the view shows (its own observations, emptied pockets, that diamonds are still out); testimonies
    are not evidence here, since they may be lies. The rest is replayed from the view's log: questions,
    testimonies, accusations and votes are public (a vote's text is hidden, but only the Cleaner shoots, and his
    shot is public), and a seat that passes on the floor leaves no trace but a step without events (`_passer`)."""
    from .engine import MafiaState

    rules: Rules = view.rules
    seed = rng.randrange(2**32)
    observation = observation_from_view(view, rules)
    if cache is None:
        cache = _WORLDS if model is UNIFORM_WORLDS else PosteriorCache(model, size=1, chains=1)
    choices = cache.sample(observation, rng) if observation.steps else []
    world = MafiaState(list(view.players), seed=seed, rules=rules)
    _replay(world, view, [_box_move(kind, choice) for (kind, _), choice in zip(observation.steps, choices)])
    return world


def determinize(state: Any, seat: int | None, rng: random.Random, model: Model = UNIFORM_WORLDS) -> Any:
    """A full world drawn from the posterior of `seat` (exactly, under `model`), consistent with its view:
    `sample_world(state.view(seat), rng, model)`, which reads nothing of `state` but that view."""
    return sample_world(state.view(seat), rng, model)


@lru_cache(maxsize=1 << 14)
def _action(text: str) -> Any:
    """The action a text names, one value per text: `apply` reads a value back from its text only the first
    time it sees it, and worlds replay the same public moves again and again."""
    from .engine import parse_action

    return parse_action(text)


def _box_move(kind: str, choice: Choice) -> Any:
    if kind == "hide":
        return _action(f"hide {choice}")
    if kind == "set-aside":
        return _action(f"set-aside {choice or 'none'}")
    return _action(f"take {take_text(choice)}")


def _replay(world: Any, view: View, box_moves: list[Any]) -> None:
    """Play the box history `box_moves`, then the investigation the view's log shows, on `world`."""
    events: dict[int, list[Event]] = defaultdict(list)
    for event in view.log:
        events[event.step].append(event)
    last_step = view.log[-1].step if view.log else 0
    shots = _shots(view.log)
    facts = view.facts
    box = iter(box_moves)
    while not world.is_over:
        step = len(world.history) + 1
        if world.phase in BOX_PHASES:
            move = next(box, None)
            if move is None:
                return
            world.apply(move, player=world.acting_seats[0])
        elif events.get(step):
            seat, move = _move_of(events[step], shots)
            world.apply(move, player=seat)
        elif world.phase == "floor" and (step <= last_step or facts["phase"] != "floor"
                                         or world.floor != list(facts["floor"])):
            world.apply(_action("pass"), player=_passer(world.floor, events, step, last_step, facts))
        else:
            return


#: The Godfather's moves: each closes an open floor.
_GODFATHER_MOVES = frozenset({"question", "accuse", "floor"})


def _passer(floor: list[int], events: Mapping[int, list[Event]], step: int, last_step: int,
            facts: Mapping[str, Any]) -> int:
    """A seat that may have said 'pass' at `step`, a step without events on an open floor (R4.2): one that
    does not speak later on this floor, nor is still to speak when the view was taken. Passes leave no trace,
    so which seat passed when is not in the view; this choice replays it the same way from the same view."""
    later: set[int] = set()
    still_open = facts["phase"] == "floor"
    for later_step in range(step + 1, last_step + 1):
        first = events.get(later_step)
        if not first:
            continue
        if first[0].kind in _GODFATHER_MOVES:
            still_open = False
            break
        if first[0].kind == "testimony" and first[0].actor is not None:
            later.add(first[0].actor)
    waiting = set(facts["floor"]) if still_open else set()
    return next(seat for seat in floor if seat not in later and seat not in waiting)


def _shots(log: tuple[Event, ...]) -> set[int]:
    """The steps of the votes that were shots: only the Cleaner shoots, and his shot is public."""
    shots: set[int] = set()
    votes: dict[int, int] = {}
    for event in log:
        if event.kind == "accuse":
            votes = {}
        elif event.kind == "vote" and event.actor is not None:
            votes[event.actor] = event.step
        elif event.kind == "shoot" and event.actor in votes:
            shots.add(votes[event.actor])
    return shots


def _move_of(events: list[Event], shots: set[int]) -> tuple[int, Any]:
    """The seat and move whose events these are (the first event of a step is always the move's own)."""
    event = events[0]
    seat, data, kind = event.actor, event.data, event.kind
    assert seat is not None, f"step {event.step} starts with {kind}, which no seat played"
    if kind == "question":
        return seat, _action(f"ask {data['target']} {data['question']}")
    if kind == "accuse":
        return seat, _action(f"accuse {data['target']}")
    if kind == "testimony":
        return seat, _action(data["claim"])
    if kind in ("floor", "silent", "pass"):
        return seat, _action(kind)
    if kind == "vote":  # its own vote a seat knows; another's is a shot only if the Cleaner's shot followed
        shot = data["shoot"] if "shoot" in data else event.step in shots
        return seat, _action("shoot" if shot else "hold")
    raise AssertionError(f"step {event.step}: no move of the investigation makes a '{kind}' event first")


# ------------------------------------------------------------------------------- testimonies


def _take_index(obs: Observation, seat: int) -> int | None:
    return next((i for i, (kind, who) in enumerate(obs.steps) if kind == "take" and who == seat), None)


def with_testimonies(obs: Observation, view: View, truth: float = 0.7) -> Observation:
    """`obs` plus every testimony in `view.log` as soft evidence, each true with probability `truth`.

    "took X" weighs the seat's take; "saw D tokens" weighs the box the seat opened; "suspect K" is an opinion,
    not a fact about the box, and is ignored. Volunteered testimonies (free talk) count as answers do."""
    from .engine import Saw, Took, parse_action

    choices, boxes = list(obs.soft_choices), list(obs.soft_boxes)
    for event in view.log:
        if event.kind != "testimony" or event.actor is None:
            continue
        claim = parse_action(event.data["claim"])
        index = _take_index(obs, event.actor)
        if index is None:
            continue
        if isinstance(claim, Took):
            choices.append((index, (claim.diamonds, claim.token), truth))
        elif isinstance(claim, Saw):
            opened = index - 1 if index == 2 and obs.steps[1][0] == "set-aside" else index
            boxes.append((opened, (claim.diamonds, _counts(list(claim.tokens))), truth))
    return replace(obs, soft_choices=tuple(choices), soft_boxes=tuple(boxes))


def testimony_worth(view: View, rules: Rules, truth: float = 0.7, model: Model = UNIFORM_WORLDS
                    ) -> list[tuple[str, float]]:
    """For each testimony in `view.log`, in order, how far it moves the viewer's posterior of every take:
    the largest change of P(thief) over the takers when that single testimony is added."""
    base_obs = observation_from_view(view, rules)
    base = posterior(base_obs, model)
    takers = [seat for kind, seat in base_obs.steps if kind == "take"]
    worth = []
    for event in view.log:
        if event.kind != "testimony":
            continue
        alone = View(view.game, view.seat, view.players, view.current_player, view.is_over, view.facts, (event,))
        try:
            moved = posterior(with_testimonies(base_obs, alone, truth), model)
        except ValueError:
            worth.append((event.text, float("nan")))
            continue
        change = max((abs(moved.role_probabilities(s).get("thief", 0.0) - base.role_probabilities(s).get("thief", 0.0))
                      for s in takers), default=0.0)
        worth.append((event.text, change))
    return worth


# ------------------------------------------------------------------------------- who knows what

def who_knows_what(state: Any) -> list[list[dict[str, Any]]]:
    """Rows: observer seats; columns: subject seats. Each cell says what the observer knows of the subject's take
    (uniform-worlds support): "known" (one value), "narrowed" (fewer values than a spectator allows) or
    "unknown"; "self" on the diagonal and "-" for the Godfather's column. Built from views only."""
    rules = state.rules
    seats = range(len(state.players))
    spectator = posterior(observation_from_view(state.view(None), rules))
    matrix = []
    for observer in seats:
        post = posterior(observation_from_view(state.view(observer), rules))
        row = []
        for subject in seats:
            support = sorted(text for text, p in post.of_seat(subject).items() if p > 0)
            wide = [text for text, p in spectator.of_seat(subject).items() if p > 0]
            if subject == state.godfather:
                status = "known" if observer == subject else "-"
                support = [f"hid {post.hidden()}"] if observer == subject else []
            elif observer == subject:
                status = "self"
            elif not support:
                status = "-"
            elif len(support) == 1:
                status = "known"
            else:
                status = "narrowed" if len(support) < len(wide) else "unknown"
            row.append({"status": status, "support": support})
        matrix.append(row)
    return matrix


def draw_who_knows_what(state: Any) -> Any:
    """The matrix as a colored grid (a matplotlib Figure)."""
    from matplotlib.figure import Figure

    matrix = who_knows_what(state)
    shade = {"known": 1.0, "self": 1.0, "narrowed": 0.5, "unknown": 0.0, "-": 0.15}
    values = [[shade[cell["status"]] for cell in row] for row in matrix]
    figure = Figure(figsize=(0.6 * len(values) + 2, 0.5 * len(values) + 1.5))
    axes = figure.subplots()
    axes.imshow(values, cmap="Greens", vmin=0, vmax=1)
    for r, row in enumerate(matrix):
        for c, cell in enumerate(row):
            axes.text(c, r, cell["status"][0].upper(), ha="center", va="center", fontsize=8)
    axes.set_xlabel("subject (whose take)")
    axes.set_ylabel("observer")
    axes.set_title("Who knows what after the box phase (K known, N narrowed, U unknown)")
    return figure


def information_flow(state: Any) -> Any:
    """The round's information-flow graph (networkx MultiDiGraph) from the shared knowledge module."""
    from ..knowledge import information_flow as flow

    return flow(state)


def draw_information_flow(state: Any) -> Any:
    """The information-flow graph drawn by the shared knowledge module (a matplotlib Figure)."""
    from ..knowledge import draw_information_flow as draw

    return draw(information_flow(state), title="Mafia de Cuba: who saw what")
