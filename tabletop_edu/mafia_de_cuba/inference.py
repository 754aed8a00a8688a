"""Exact inference for Mafia de Cuba: who took what, given one seat's information.

The box passing is a Markov chain: the box contents (diamonds, token counts) are the state, and each step (the
Godfather's hiding, the first taker's set-aside, each take) is a transition chosen by a behaviour model. A seat's
information pins some steps (its own choices, pockets emptied by accusations) and some states (the box it saw;
for the Godfather, the box that came back). The posterior of every step is then a forward-backward pass over
box contents, linear in the number of takers; `brute_force_posterior` enumerates whole worlds instead and checks
it (tests: to 1e-9 on tables up to 8 players).

Behaviour models (`Model`): `UNIFORM_WORLDS` weighs every consistent world equally; `RANDOM_CHOICES` has every
seat pick uniformly among its legal choices; `policy_model(takers)` uses the take distributions of bots.

Testimonies may be lies, so they are not pinned: `with_testimonies(obs, view, truth)` adds each one as soft
evidence (a factor `truth` when the world agrees with the claim, `1 - truth` when it does not), which keeps the
chain structure, and `testimony_worth` measures how much each testimony moves the posterior.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core import View
from .engine import Take, take_text
from .rules import DIAMONDS, TOKEN_ORDER, Rules

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
    """What one seat knows about the box chain.

    `steps` lists (kind, seat) of the steps already played: ("hide", godfather), maybe ("set-aside", first),
    then ("take", seat) in box order. `pinned_choices[i]` is a known choice of step i; `pinned_boxes[i]` a known
    box before step i (index len(steps) is the box after the last step).
    """

    steps: tuple[tuple[str, int], ...]
    start: Box
    max_hidden: int
    last_may_take_nothing: bool
    last_taker: int
    pinned_choices: Mapping[int, Choice] = field(default_factory=dict)
    pinned_boxes: Mapping[int, Box] = field(default_factory=dict)
    #: soft evidence from testimonies: (step index, claimed choice or box, probability the claim is true)
    soft_choices: tuple[tuple[int, Choice, float], ...] = ()
    soft_boxes: tuple[tuple[int, Box, float], ...] = ()

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


def observation_from_view(view: View, rules: Rules) -> Observation:
    """The box-chain knowledge in `view` (any seat or a spectator); `rules` must be the game's rules."""
    facts = view.facts
    order, godfather = list(facts["order"]), facts["godfather"]
    if facts["phase"] in ("hide",):
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
    for index, (kind, seat) in enumerate(steps):
        if kind == "take" and seat in known_takes:
            pinned[index] = _parse_take(known_takes[seat])
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
    return Observation(tuple(steps), (DIAMONDS, _counts(facts["tokens_in_game"])), rules.max_hidden,
                       rules.last_may_take_nothing, order[-1], pinned, boxes)


def _choices(obs: Observation, kind: str, seat: int, box: Box) -> list[Choice]:
    diamonds, counts = box
    if kind == "hide":
        return list(range(min(obs.max_hidden, diamonds) + 1))
    present = [name for name, count in zip(TOKEN_ORDER, counts) if count]
    if kind == "set-aside":
        return [None, *present]
    if diamonds == 0 and not present:
        return [(0, None)]
    takes: list[Choice] = [(d, None) for d in range(1, diamonds + 1)] + [(0, name) for name in present]
    if seat == obs.last_taker and obs.last_may_take_nothing:
        takes.append((0, None))
    return takes


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


Moves = list[dict[Box, list[tuple[Choice, float, Box]]]]


def _forward_backward(obs: Observation, model: Model) -> tuple[list[dict[Box, float]], Moves,
                                                                  list[dict[Box, float]], float]:
    """alpha (weight of reaching each box), the weighted moves, beta (weight of the rest) and the evidence."""
    steps = obs.steps
    count = len(steps)

    def allowed(index: int, box: Box) -> list[tuple[Choice, float, Box]]:
        kind, seat = steps[index]
        choices = _choices(obs, kind, seat, box)
        weights = model(kind, seat, box, choices, seat == obs.last_taker)
        out = []
        for choice, weight in zip(choices, weights):
            if weight <= 0 or (index in obs.pinned_choices and obs.pinned_choices[index] != choice):
                continue
            after = _apply(kind, box, choice)
            weight *= obs.choice_factor(index, choice) * obs.box_factor(index + 1, after)
            if weight > 0:
                out.append((choice, weight, after))
        return out

    def fits(index: int, box: Box) -> bool:
        return index not in obs.pinned_boxes or obs.pinned_boxes[index] == box

    alpha: list[dict[Box, float]] = [{obs.start: obs.box_factor(0, obs.start)} if fits(0, obs.start) else {}]
    moves: list[dict[Box, list[tuple[Choice, float, Box]]]] = []
    for index in range(count):
        nxt: dict[Box, float] = defaultdict(float)
        table: dict[Box, list[tuple[Choice, float, Box]]] = {}
        for box, weight in alpha[index].items():
            table[box] = allowed(index, box)
            for _, w, after in table[box]:
                if fits(index + 1, after):
                    nxt[after] += weight * w
        moves.append(table)
        alpha.append(dict(nxt))
    beta: list[dict[Box, float]] = [dict() for _ in range(count + 1)]
    beta[count] = {box: 1.0 for box in alpha[count]}
    for index in range(count - 1, -1, -1):
        for box in alpha[index]:
            beta[index][box] = sum(w * beta[index + 1].get(after, 0.0) for _, w, after in moves[index][box])
    evidence = sum(alpha[count].values())
    if evidence <= 0:
        raise ValueError("No world fits this observation under this model.")
    return alpha, moves, beta, evidence


def posterior(obs: Observation, model: Model = UNIFORM_WORLDS) -> Posterior:
    """Forward-backward over box contents: exact marginals of every step given `obs` and `model`."""
    alpha, moves, beta, evidence = _forward_backward(obs, model)
    count = len(obs.steps)
    marginals: list[dict[Choice, float]] = []
    for index in range(count):
        dist: dict[Choice, float] = defaultdict(float)
        for box, weight in alpha[index].items():
            for choice, w, after in moves[index][box]:
                tail = beta[index + 1].get(after, 0.0)
                if tail:
                    dist[choice] += weight * w * tail / evidence
        marginals.append(dict(dist))
    return Posterior(obs, marginals, evidence)


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
    _, moves, beta, _ = _forward_backward(obs, model)
    box, path = obs.start, []
    for index in range(len(obs.steps)):
        options = [(choice, w * beta[index + 1].get(after, 0.0), after) for choice, w, after in moves[index][box]]
        options = [option for option in options if option[1] > 0]
        choice, _, box = rng.choices(options, weights=[weight for _, weight, _ in options])[0]
        path.append(choice)
    return path


def determinize(state: Any, seat: int | None, rng: random.Random, model: Model = UNIFORM_WORLDS) -> Any:
    """A full world drawn from the posterior of `seat` (exactly, under `model`), consistent with its view.

    The box history is drawn by `sample_choices`, written back into the record and replayed; a draw that the
    rest of the game contradicts (say, it would have ended the investigation earlier) is drawn again, and after
    20 tries `state.resample` is used."""
    obs = observation_from_view(state.view(seat), state.rules)
    box_phase = [i for i, (_, text) in enumerate(state.history) if text.startswith(("hide", "set-aside", "take"))]
    for _ in range(20):
        texts = [text for _, text in state.history]
        for index, (step, choice) in zip(box_phase, zip(obs.steps, sample_choices(obs, rng, model))):
            kind = step[0]
            texts[index] = (f"hide {choice}" if kind == "hide" else f"set-aside {choice or 'none'}"
                            if kind == "set-aside" else f"take {take_text(choice)}")
        world = state._replay(texts)
        if world is not None and world.log(seat) == state.log(seat):
            return world
    return state.resample(seat, rng)


# ------------------------------------------------------------------------------- testimonies


def _take_index(obs: Observation, seat: int) -> int | None:
    return next((i for i, (kind, who) in enumerate(obs.steps) if kind == "take" and who == seat), None)


def with_testimonies(obs: Observation, view: View, truth: float = 0.7) -> Observation:
    """`obs` plus every testimony in `view.log` as soft evidence, each true with probability `truth`.

    "took X" weighs the seat's take; "saw D tokens" weighs the box the seat opened; "suspect K" is an opinion,
    not a fact about the box, and is ignored."""
    from dataclasses import replace

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
