"""Exact posteriors over Mafia de Cuba's box chain (`_box`): the fastest forward-backward pass available
(`fastest_chain`), caches that extend a pass step by step (`PosteriorCache`), the brute-force reference, and
testimonies as soft evidence (`with_testimonies`). `inference` explains these numbers; the engine draws its
worlds from them (`worlds.sample_world`), so this module sits below the worlds and the engine and never imports
them.
"""

from __future__ import annotations

import random
from collections import OrderedDict, defaultdict
from dataclasses import replace
from functools import lru_cache

from ..core import View
from ._box import (UNIFORM_WORLDS, Box, Chain, Choice, Model, Observation, Posterior, _apply, _chain_key, _choices,
                   _counts, _parse_take, _shared_prefix, _step_keys, observation_from_view)
from .rules import Rules

@lru_cache(maxsize=1)
def fastest_chain() -> type[Chain]:
    """The numpy chain where numpy can be imported (about ten times faster), else the pure-Python one: playing,
    bots and widgets must run where numpy is missing (a Pyodide/JupyterLite kernel)."""
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


# ------------------------------------------------------------------------------- testimonies

def _take_index(obs: Observation, seat: int) -> int | None:
    return next((i for i, (kind, who) in enumerate(obs.steps) if kind == "take" and who == seat), None)


def with_testimonies(obs: Observation, view: View, truth: float = 0.7) -> Observation:
    """`obs` plus every testimony in `view.log` as soft evidence, each true with probability `truth`.

    "took X" weighs the seat's take; "saw D tokens" weighs the box the seat opened; "suspect K" is an opinion,
    not a fact about the box, and is ignored. Volunteered testimonies (free talk) count as answers do."""
    choices, boxes = list(obs.soft_choices), list(obs.soft_boxes)
    for event in view.log:
        if event.kind != "testimony" or event.actor is None:
            continue
        verb, *words = event.data["claim"].split()  # the engine's notation: "took X", "saw D TOKENS..."
        index = _take_index(obs, event.actor)
        if index is None:
            continue
        if verb == "took":
            choices.append((index, _parse_take(words[0]), truth))
        elif verb == "saw":
            opened = index - 1 if index == 2 and obs.steps[1][0] == "set-aside" else index
            boxes.append((opened, (int(words[0]), _counts(words[1:])), truth))
    return replace(obs, soft_choices=tuple(choices), soft_boxes=tuple(boxes))
