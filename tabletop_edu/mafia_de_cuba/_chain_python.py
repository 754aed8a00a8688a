"""The forward-backward of `inference` in pure Python: the chain used where numpy cannot be imported.

A Pyodide/JupyterLite kernel may have no numpy, and playing Mafia de Cuba (its bots, its widget, worlds drawn
from a view) must not need it. This chain walks the same nodes as `_chain_numpy.NumpyChain` (a box,
and for `diamonds_out` observations whether a counted take holds diamonds) as dicts over the boxes actually
reached, and weighs each move exactly as it does. It lists a node's moves in the order of `_options`, which is
the order of the numpy chain's rows for that node, and the backward weights of a node add up in that same
order: so a draw sees bit-for-bit the same weights and `sample` picks the same history from the same rng.
(Forward weights add up in another order: posteriors agree to rounding, about 1e-15.)
"""

from __future__ import annotations

import random
from functools import lru_cache

from ._box import (_FREE, RANDOM_CHOICES, UNIFORM_WORLDS, Box, Choice, Model, Observation, Posterior,
                        _BoxNumbers, _chain_key, _options, _shared_prefix, _step_keys)
from .rules import TOKEN_ORDER

#: a step's moves by source node: (choice code, target node, weight), in the order of `_options`
Moves = dict[int, list[tuple[int, int, float]]]


class _Boxes(_BoxNumbers):
    """The numbered boxes (as the numpy chain numbers them), remembering the box of every number handed out:
    node = box number + flag * size, the flag saying a take still counted as out holds diamonds."""

    def __init__(self, start: Box) -> None:
        super().__init__(start)
        self.box_of: dict[int, Box] = {}

    def index(self, box: Box) -> int:
        number = super().index(box)
        if number >= 0:
            self.box_of[number] = box
        return number


@lru_cache(maxsize=64)
def _boxes(start: Box) -> _Boxes:
    return _Boxes(start)


class _Table:
    """The legal moves of a step kind from each box of a game, as (choice code, target box number, whether it
    takes diamonds), listed as `_options` lists them; public structure only, so shared by every observation.
    Codes number `choices`, the numpy chain's list, so marginals list choices in its order."""

    def __init__(self, start: Box, kind: str, may_take_nothing: bool, max_hidden: int) -> None:
        self.kind, self.may_take_nothing, self.max_hidden = kind, may_take_nothing, max_hidden
        self.boxes = _boxes(start)
        if kind == "hide":
            self.choices: tuple[Choice, ...] = tuple(range(max_hidden + 1))
        elif kind == "set-aside":
            self.choices = (None, *TOKEN_ORDER)
        else:
            self.choices = ((0, None), *((taken, None) for taken in range(1, start[0] + 1)),
                            *((0, name) for name in TOKEN_ORDER))
        self.codes = {choice: code for code, choice in enumerate(self.choices)}
        self._moves: dict[Box, tuple[tuple[int, int, bool], ...]] = {}
        self._rows: dict[tuple[Box, bool, bool, bool], list[tuple[int, int, float]]] = {}

    def moves(self, box: Box) -> tuple[tuple[int, int, bool], ...]:
        found = self._moves.get(box)
        if found is None:
            index, codes = self.boxes.index, self.codes
            found = self._moves[box] = tuple(
                (codes[choice], index(after), self.kind == "take" and choice[0] > 0)
                for choice, after in _options(self.kind, box, self.may_take_nothing, self.max_hidden))
        return found

    def rows(self, box: Box, random_choices: bool, flag: bool, raises: bool) -> list[tuple[int, int, float]]:
        """The moves from `box` (a node with `flag`) of a step nothing pins nor weighs, under UNIFORM_WORLDS or
        RANDOM_CHOICES: the common case, built once per box (callers never change the list)."""
        key = (box, random_choices, flag, raises)
        found = self._rows.get(key)
        if found is None:
            legal = self.moves(box)
            weight = 1.0 / len(legal) if random_choices else 1.0
            size = self.boxes.size
            found = self._rows[key] = [(code, target + size if flag or (raises and takes) else target, weight)
                                       for code, target, takes in legal]
        return found


@lru_cache(maxsize=64)
def _table(start: Box, kind: str, may_take_nothing: bool, max_hidden: int) -> _Table:
    return _Table(start, kind, may_take_nothing, max_hidden)


def _weights(model: Model, kind: str, seat: int, box: Box, moves: tuple[tuple[int, int, bool], ...],
             table: _Table, last: bool) -> list[float]:
    """Each move's weight under `model`, computed as the numpy chain does (the uniform models without a call)."""
    if model is UNIFORM_WORLDS:
        return [1.0] * len(moves)
    if model is RANDOM_CHOICES:
        return [1.0 / len(moves)] * len(moves)
    return list(model(kind, seat, box, [table.choices[code] for code, _, _ in moves], last))


def _moves(obs: Observation, model: Model, index: int, reached: dict[int, float]) -> Moves:
    """Step `index`'s moves from the nodes the forward pass reached: legal, weighed by the model and the soft
    evidence (factor by factor, in the numpy chain's order), kept where they fit the pinned choice and box."""
    kind, seat = obs.steps[index]
    last = seat == obs.last_taker
    table = _table(obs.start, kind, last and obs.last_may_take_nothing, min(obs.max_hidden, obs.start[0]))
    boxes = table.boxes
    size, box_of = boxes.size, boxes.box_of
    pinned = obs.pinned_choices.get(index, _FREE)
    pinned_code = None if pinned is _FREE else table.codes.get(pinned, -1)
    after = obs.pinned_boxes.get(index + 1)
    after_id = None if after is None else boxes.index(after)
    soft_choices = [(table.codes.get(claim, -1), truth) for at, claim, truth in obs.soft_choices if at == index]
    soft_boxes = [(boxes.index(claim), truth) for at, claim, truth in obs.soft_boxes if at == index + 1]
    raises = obs.counts_out(index)
    free = pinned_code is None and after_id is None and not soft_choices and not soft_boxes \
        and (model is UNIFORM_WORLDS or model is RANDOM_CHOICES)
    moves: Moves = {}
    for node, weight_in in reached.items():
        if weight_in <= 0:
            continue
        flag = node >= size
        box = box_of[node - size if flag else node]
        if free:
            moves[node] = table.rows(box, model is RANDOM_CHOICES, flag, raises)
            continue
        legal = table.moves(box)
        kept = []
        for (code, target, takes), weight in zip(legal, _weights(model, kind, seat, box, legal, table, last)):
            if weight <= 0 or (pinned_code is not None and code != pinned_code) \
                    or (after_id is not None and target != after_id):
                continue
            for claim, truth in soft_choices:
                weight = weight * (truth if code == claim else 1.0 - truth)
            for claim, truth in soft_boxes:
                weight = weight * (truth if target == claim else 1.0 - truth)
            if weight > 0:
                kept.append((code, target + size if flag or (raises and takes) else target, weight))
        if kept:
            moves[node] = kept
    return moves


class PythonChain:
    """One forward-backward pass over the reached nodes: `alpha[i]` weighs each node reaching step i, `beta[i]`
    the weight of the rest from it, `evidence` the total weight of the consistent worlds. A chain built with
    `previous` (another PythonChain) reuses its steps and forward pass up to the first step whose evidence
    differs."""

    def __init__(self, obs: Observation, model: Model, previous: PythonChain | None = None) -> None:
        self.obs, self.model = obs, model
        self.key, self.step_keys = _chain_key(obs, model), _step_keys(obs)
        boxes = _boxes(obs.start)
        self.start = boxes.index(obs.start)
        kept = _shared_prefix(self.key, self.step_keys, previous)
        self.steps: list[Moves] = previous.steps[:kept] if previous is not None and kept else []
        self.choices: list[tuple[Choice, ...]] = previous.choices[:kept] if previous is not None and kept else []
        self.alpha: list[dict[int, float]] = previous.alpha[:kept + 1] if previous is not None and kept else []
        if not self.alpha:
            start = obs.box_factor(0, obs.start) if obs.pinned_boxes.get(0, obs.start) == obs.start else 0.0
            self.alpha = [{self.start: start} if start > 0 else {}]
        for index in range(len(self.steps), len(obs.steps)):
            kind, seat = obs.steps[index]
            moves = _moves(obs, model, index, self.alpha[index])
            reached: dict[int, float] = {}
            for node, rows in moves.items():
                before = self.alpha[index][node]
                for _, target, weight in rows:
                    reached[target] = reached.get(target, 0.0) + before * weight
            self.steps.append(moves)
            self.choices.append(_table(obs.start, kind, seat == obs.last_taker and obs.last_may_take_nothing,
                                       min(obs.max_hidden, obs.start[0])).choices)
            self.alpha.append(reached)
        # the investigation went on: some diamond must still be out (a flagged node)
        final = {node: 1.0 if node >= boxes.size or not obs.diamonds_out else 0.0 for node in self.alpha[-1]}
        self.beta: list[dict[int, float]] = [final]
        for index in range(len(self.steps) - 1, -1, -1):  # every target of step i is a node of alpha[i + 1]
            moves, after = self.steps[index], self.beta[0]
            self.beta.insert(0, {node: sum([weight * after[target] for _, target, weight in moves.get(node, ())])
                                 for node in self.alpha[index]})
        self.evidence = sum(weight * final[node] for node, weight in self.alpha[-1].items())
        if self.evidence <= 0:
            raise ValueError("No world fits this observation under this model.")

    def posterior(self) -> Posterior:
        marginals: list[dict[Choice, float]] = []
        for index, moves in enumerate(self.steps):
            alpha, beta, choices = self.alpha[index], self.beta[index + 1], self.choices[index]
            totals = [0.0] * len(choices)
            for node, rows in moves.items():
                before = alpha[node]
                for code, target, weight in rows:
                    totals[code] += before * weight * beta[target]
            marginals.append({choices[code]: mass / self.evidence for code, mass in enumerate(totals)
                              if mass / self.evidence > 0})
        return Posterior(self.obs, marginals, self.evidence)

    def sample(self, rng: random.Random) -> list[Choice]:
        """One box history drawn exactly from the posterior (forward filtering, backward sampling): one
        `rng.choices` per step among the node's moves, with the numpy chain's weights in its order."""
        node = self.start
        path = []
        for index, moves in enumerate(self.steps):
            beta = self.beta[index + 1]
            rows = [(code, target, weight * beta[target]) for code, target, weight in moves[node]]
            rows = [row for row in rows if row[2] > 0]
            code, node, _ = rows[rng.choices(range(len(rows)), weights=[row[2] for row in rows])[0]]
            path.append(self.choices[index][code])
        return path
