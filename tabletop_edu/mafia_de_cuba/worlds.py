"""Worlds of Mafia de Cuba drawn from one seat's view alone: the determinizations behind `world_from_view`.

A world is a full game whose view, for the seat, is the seat's view, built from the view and an rng only, never
from the true game, so a bot searching worlds learns nothing its seat could not know. Its box history (hidden
count, set-aside, takes) is drawn exactly from the posterior of the view's observation (`chain`: backward
sampling); the investigation is replayed from the view's log. The engine's state passes its own class
(`MafiaState.world_from_view`), so this module never imports the engine.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from ..core import Action, Event, Seat, View
from ._box import BOX_PHASES, Choice, Model, observation_from_view
from .actions import parse_action
from .chain import UNIFORM_WORLDS, PosteriorCache
from .rules import Rules, take_text


class ReplayedWorld(Protocol):
    """What `sample_world` needs of the state it builds (the engine's `MafiaState`): the protocol's moves and
    the round's phase."""

    phase: str
    history: list[tuple[Seat, str]]

    @property
    def is_over(self) -> bool: ...

    @property
    def acting_seats(self) -> tuple[Seat, ...]: ...

    def apply(self, action: Action | str, *, player: Seat | None = None) -> list[Event]: ...


WorldT = TypeVar("WorldT", bound=ReplayedWorld)

#: The sampler's own cache: `world_from_view` is called for every seat at every step by searches and checks
#: (sampling needs the whole pass: one per seat of the largest table).
_WORLDS = PosteriorCache(UNIFORM_WORLDS, size=1, chains=16)


def sample_world(view: View, rng: random.Random, state_class: Callable[..., WorldT], model: Model = UNIFORM_WORLDS,
                 cache: PosteriorCache | None = None) -> WorldT:
    """A full game state of `state_class` (the engine's, which passes itself) consistent with `view`, built from
    the view and `rng` alone (a determinization).

    The world gets a fresh seed (`rng.randrange(2**32)`) and the view's players and rules. Its box history
    (hidden count, set-aside, takes) is drawn exactly from the posterior of the view's observation under
    `model`: with `UNIFORM_WORLDS` (the game's `world_from_view`) uniformly among the histories consistent with
    everything the view shows (its own observations, emptied pockets, that diamonds are still out); testimonies
    are not evidence here, since they may be lies. The rest is replayed from the view's log: questions,
    testimonies, accusations and votes are public (a vote's text is hidden, but only the Cleaner shoots, and his
    shot is public), and so is a pass on the floor (an event without text)."""
    rules: Rules = view.rules
    seed = rng.randrange(2**32)
    observation = observation_from_view(view, rules)
    if cache is None:
        cache = _WORLDS if model is UNIFORM_WORLDS else PosteriorCache(model, size=1, chains=1)
    choices = cache.sample(observation, rng) if observation.steps else []
    world = state_class(list(view.players), seed=seed, rules=rules)
    _replay(world, view, [_box_move(kind, choice) for (kind, _), choice in zip(observation.steps, choices)])
    return world


@lru_cache(maxsize=1 << 14)
def _action(text: str) -> Any:
    """The action a text names, one value per text: `apply` reads a value back from its text only the first
    time it sees it, and worlds replay the same public moves again and again."""
    return parse_action(text)


def _box_move(kind: str, choice: Choice) -> Any:
    if kind == "hide":
        return _action(f"hide {choice}")
    if kind == "set-aside":
        return _action(f"set-aside {choice or 'none'}")
    return _action(f"take {take_text(choice)}")


def _replay(world: ReplayedWorld, view: View, box_moves: list[Any]) -> None:
    """Play the box history `box_moves`, then the investigation the view's log shows, on `world`."""
    events: dict[int, list[Event]] = defaultdict(list)
    for event in view.log:
        events[event.step].append(event)
    shots = _shots(view.log)
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
        else:
            return


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
