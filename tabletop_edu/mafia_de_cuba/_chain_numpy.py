"""The forward-backward of `inference` over numpy arrays: the chain used wherever numpy is installed.

Boxes are numbered, so a step's transitions are arrays of box numbers and a whole step is a few numpy
operations (about ten times faster than the pure-Python chain, `_chain_python`, which gives the same numbers
and draws the same histories from the same rng). Importing this module needs numpy; `inference.fastest_chain`
imports it only when numpy can be imported.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ._box import (_FREE, RANDOM_CHOICES, UNIFORM_WORLDS, Box, Choice, Model, Observation, Posterior,
                        _BoxNumbers, _chain_key, _options, _shared_prefix, _step_keys)
from .rules import TOKEN_ORDER


class _Boxes(_BoxNumbers):
    """The numbered boxes, with each number's diamonds and token counts as arrays, so a step's transitions
    become arrays of box numbers (a whole step is a few numpy operations)."""

    def __init__(self, start: Box) -> None:
        super().__init__(start)
        ids = np.arange(self.size)
        self.diamonds_of = ids // self.per_diamond
        self.counts_of = [(ids % self.per_diamond) // radix % (count + 1)
                          for radix, count in zip(self.radix, self.counts)]


@dataclass(frozen=True)
class _Moves:
    """Every legal move of a step kind from every box: arrays `source`, `target` (box numbers), `label` (the
    choice's code), `diamonds` (whether the move takes diamonds) and `choices` (code -> choice)."""

    source: np.ndarray
    target: np.ndarray
    label: np.ndarray
    diamonds: np.ndarray
    choices: tuple[Choice, ...]

    def code(self, choice: Choice) -> int:
        return self.choices.index(choice) if choice in self.choices else -1


@lru_cache(maxsize=64)
def _boxes(start: Box) -> _Boxes:
    return _Boxes(start)


@lru_cache(maxsize=64)
def _moves_of(start: Box, kind: str, may_take_nothing: bool, max_hidden: int) -> _Moves:
    """The legal moves of a step `kind` from every box of a game started with `start` (public structure only,
    so shared by every observation of every seat; at most a few per game)."""
    boxes = _boxes(start)
    ids = np.arange(boxes.size)
    parts: list[tuple[np.ndarray, np.ndarray, int, bool]] = []  # (sources, targets, code, takes diamonds)
    if kind == "hide":
        choices: tuple[Choice, ...] = tuple(range(max_hidden + 1))
        for hidden in choices:
            source = ids[boxes.diamonds_of >= hidden]
            parts.append((source, source - hidden * boxes.per_diamond, hidden, False))
    elif kind == "set-aside":
        choices = (None, *TOKEN_ORDER)
        parts.append((ids, ids, 0, False))
        for token, (held, radix) in enumerate(zip(boxes.counts_of, boxes.radix)):
            source = ids[held >= 1]
            parts.append((source, source - radix, 1 + token, False))
    else:
        top = boxes.diamonds
        choices = ((0, None), *((taken, None) for taken in range(1, top + 1)), *((0, name) for name in TOKEN_ORDER))
        for taken in range(1, top + 1):
            source = ids[boxes.diamonds_of >= taken]
            parts.append((source, source - taken * boxes.per_diamond, taken, True))
        for token, (held, radix) in enumerate(zip(boxes.counts_of, boxes.radix)):
            source = ids[held >= 1]
            parts.append((source, source - radix, top + 1 + token, False))
        nothing = ids if may_take_nothing else ids[:1]  # box 0 is the empty box: its only move is to take nothing
        parts.append((nothing, nothing, 0, False))
    return _Moves(np.concatenate([p[0] for p in parts]).astype(np.int32),
                  np.concatenate([p[1] for p in parts]).astype(np.int32),
                  np.concatenate([np.full(len(p[0]), p[2], dtype=np.int16) for p in parts]),
                  np.concatenate([np.full(len(p[0]), p[3]) for p in parts]), choices)


@dataclass(frozen=True)
class _Step:
    """One step's weighted transitions between chain nodes (a box, and for `diamonds_out` chains whether a take
    not emptied so far holds diamonds: node = box + flag * boxes)."""

    source: np.ndarray
    target: np.ndarray
    weight: np.ndarray
    label: np.ndarray
    choices: tuple[Choice, ...]


def _model_weights(moves: _Moves, obs: Observation, model: Model, kind: str, seat: int) -> np.ndarray:
    """Each move's weight under `model`: the uniform models are computed at once, any other is asked box by box."""
    if model is UNIFORM_WORLDS:
        return np.ones(len(moves.source))
    legal = np.bincount(moves.source, minlength=_boxes(obs.start).size)
    if model is RANDOM_CHOICES:
        return 1.0 / legal[moves.source]
    weights = np.zeros(len(moves.source))
    order = np.argsort(moves.source, kind="stable")
    boxes = _boxes(obs.start)
    last = seat == obs.last_taker
    for start, end in zip(np.r_[0, np.cumsum(legal)[:-1]], np.cumsum(legal)):
        if start == end:
            continue
        rows = order[start:end]
        box_id = int(moves.source[rows[0]])
        box = (int(boxes.diamonds_of[box_id]), tuple(int(held[box_id]) for held in boxes.counts_of))
        options = _options(kind, box, last and obs.last_may_take_nothing, obs.max_hidden)
        by_choice = dict(zip((choice for choice, _ in options),
                             model(kind, seat, box, [choice for choice, _ in options], last)))
        weights[rows] = [by_choice.get(moves.choices[code], 0.0) for code in moves.label[rows]]
    return weights


def _step(obs: Observation, model: Model, index: int) -> _Step:
    """Step `index`'s transitions: the legal moves, weighed by the model and the soft evidence, kept where they
    fit the pinned choice and the pinned box after."""
    kind, seat = obs.steps[index]
    boxes = _boxes(obs.start)
    moves = _moves_of(obs.start, kind, seat == obs.last_taker and obs.last_may_take_nothing,
                      min(obs.max_hidden, obs.start[0]))
    weight = _model_weights(moves, obs, model, kind, seat)
    keep = weight > 0
    pinned = obs.pinned_choices.get(index, _FREE)
    if pinned is not _FREE:
        keep &= moves.label == moves.code(pinned)
    after = obs.pinned_boxes.get(index + 1)
    if after is not None:
        keep &= moves.target == boxes.index(after)
    for at, claim, truth in obs.soft_choices:
        if at == index:
            weight = weight * np.where(moves.label == moves.code(claim), truth, 1.0 - truth)
    for at, claim, truth in obs.soft_boxes:
        if at == index + 1:
            weight = weight * np.where(moves.target == boxes.index(claim), truth, 1.0 - truth)
    keep &= weight > 0
    source, target, label, diamonds = moves.source[keep], moves.target[keep], moves.label[keep], moves.diamonds[keep]
    weight = weight[keep]
    if obs.diamonds_out:  # both halves of the node space; a counted take of diamonds raises the flag
        raised = diamonds if obs.counts_out(index) else np.zeros(len(diamonds), dtype=bool)
        source = np.concatenate([source, source + boxes.size])
        target = np.concatenate([target + raised * boxes.size, target + boxes.size])
        weight, label = np.concatenate([weight, weight]), np.concatenate([label, label])
    return _Step(source, target, weight, label, moves.choices)


class NumpyChain:
    """One forward-backward pass over the numbered nodes: `alpha[i]` weighs each node reaching step i, `beta[i]`
    the weight of the rest from it, `evidence` the total weight of the consistent worlds. A chain built with
    `previous` reuses its steps and forward pass up to the first step whose evidence differs."""

    def __init__(self, obs: Observation, model: Model, previous: NumpyChain | None = None) -> None:
        self.obs, self.model = obs, model
        self.key, self.step_keys = _chain_key(obs, model), _step_keys(obs)
        boxes = _boxes(obs.start)
        self.nodes = boxes.size * (2 if obs.diamonds_out else 1)
        kept = _shared_prefix(self.key, self.step_keys, previous)
        self.steps: list[_Step] = previous.steps[:kept] if previous is not None and kept else []
        self.alpha: list[np.ndarray] = previous.alpha[:kept + 1] if previous is not None and kept else []
        if not self.alpha:
            start = np.zeros(self.nodes)
            first = boxes.index(obs.start)
            if obs.pinned_boxes.get(0, obs.start) == obs.start:
                start[first] = obs.box_factor(0, obs.start)
            self.alpha = [start]
        for index in range(len(self.steps), len(obs.steps)):
            step = _step(obs, model, index)
            before = self.alpha[index][step.source]
            reached = before > 0  # moves from boxes this chain never reaches weigh nothing: drop them
            step = _Step(step.source[reached], step.target[reached], step.weight[reached], step.label[reached],
                         step.choices)
            self.steps.append(step)
            self.alpha.append(np.bincount(step.target, weights=before[reached] * step.weight, minlength=self.nodes))
        final = np.ones(self.nodes)
        if obs.diamonds_out:
            final[:boxes.size] = 0.0  # the investigation went on: some diamond must still be out
        self.beta: list[np.ndarray] = [final]
        for step in reversed(self.steps):
            self.beta.insert(0, np.bincount(step.source, weights=step.weight * self.beta[0][step.target],
                                            minlength=self.nodes))
        self.evidence = float(self.alpha[-1] @ final)
        if self.evidence <= 0:
            raise ValueError("No world fits this observation under this model.")

    def posterior(self) -> Posterior:
        marginals: list[dict[Choice, float]] = []
        for index, step in enumerate(self.steps):
            mass = self.alpha[index][step.source] * step.weight * self.beta[index + 1][step.target]
            totals = np.bincount(step.label, weights=mass, minlength=len(step.choices)) / self.evidence
            marginals.append({step.choices[code]: float(p) for code, p in enumerate(totals) if p > 0})
        return Posterior(self.obs, marginals, self.evidence)

    def sample(self, rng: random.Random) -> list[Choice]:
        """One box history drawn exactly from the posterior (forward filtering, backward sampling)."""
        node = _boxes(self.obs.start).index(self.obs.start)
        path = []
        for index, step in enumerate(self.steps):
            rows = np.flatnonzero(step.source == node)
            weights = step.weight[rows] * self.beta[index + 1][step.target[rows]]
            rows, weights = rows[weights > 0], weights[weights > 0]
            row = rows[rng.choices(range(len(rows)), weights=weights.tolist())[0]]
            path.append(step.choices[step.label[row]])
            node = int(step.target[row])
        return path

