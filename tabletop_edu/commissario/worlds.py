"""Worlds of Commissario drawn from one seat's view alone: the determinizations behind `world_from_view`.

A world is a full game whose view, for the seat, is exactly the seat's view. It is built from the view and an rng
only, never from the true game, so a bot searching worlds learns nothing its seat could not know.

The public log gives the purple deal, every layout, release and reveal, and the seat's own picks are
in its log; so the whole history is known except two things, drawn from `rng`:

- the order of the characters still in the pile: a uniform shuffle of those neither dealt nor laid
  out (the view shows them all, and says nothing of the pile's order);
- each other seat's pick of this round that is not fully revealed: uniform among the picks that fit
  what it revealed (`reveal_choice` and `double_card` included), independently from seat to seat.

Every state consistent with the view is thus drawn with the same probability (uniform over pile
orders times hidden picks, treating an unknown pick as uniform: the view says nothing of how a seat
chooses). The world has a fresh seed from `rng`, and `world.view(view.seat) == view`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, TypeVar

from ..core import Action, Event, Seat, View, shuffle
from .actions import PICKS_BY_COLOURS, RELEASE_NONE, RELEASES, REVEALS, Pick, parse_card, picks_allowed
from .rules import Card, Rules, full_pile


class CommissarioWorld(Protocol):
    """What `build_world` needs of the state it builds (the engine's `CommissarioState`): its rules, its deal and
    the protocol's moves."""

    rules: Rules

    def _begin(self, deal: list[int], pile: list[Card]) -> None: ...

    def apply(self, action: Action | str, *, player: Seat | None = None) -> list[Event]: ...


WorldT = TypeVar("WorldT", bound=CommissarioWorld)


def build_world(view: View, rng: random.Random, state_class: Callable[..., WorldT]) -> WorldT:
    """A full game of `state_class` (the engine's state, which calls this from its `world_from_view`) consistent
    with `view`, drawn from the view and `rng` alone (see the module docstring for the distribution)."""
    rules: Rules = view.rules
    n = len(view.players)
    world = state_class(list(view.players), seed=rng.randrange(2**32), rules=rules)
    deal = [0] * n
    laid: list[Card] = []
    for event in view.log:
        if event.kind == "deal" and event.step == 0:
            deal[event.data["seat"]] = parse_card(event.data["cards"][0])[1]
        elif event.kind == "layout":
            laid += [parse_card(text) for text in event.data["cards"]]
    seen = set(laid)
    rest = [card for card in full_pile(n, rules) if card not in seen]
    shuffle(rng, rest)
    world._begin(deal, laid + rest)
    for seat, action in _history_from_log(view, world, rng):
        world.apply(action, player=seat)
    return world


def first_reveal_fits(rules: Rules, pick: Pick, colour: str) -> bool:
    """Whether `colour` could have been revealed first from `pick` under these rules."""
    if not rules.reveal_choice:
        return pick.colours[0] == colour
    return colour in pick.colours


def _history_from_log(view: View, world: CommissarioWorld, rng: random.Random) -> list[tuple[Seat, Action]]:
    """The actions behind a view's log, with a uniformly drawn fitting pick where a pick is hidden."""
    actions = [event for event in view.log if event.step > 0 and event.actor is not None
               and event.kind in ("release", "pick", "reveal")]
    rules = world.rules
    used_double: set[Seat] = set()  # seats seen playing their 2x card (it is public once revealed)
    history: list[tuple[Seat, Action]] = []
    for index, event in enumerate(actions):
        seat = event.actor
        assert seat is not None  # `actions` holds only events with an actor
        if event.kind == "release":
            card = event.data["card"]
            history.append((seat, RELEASE_NONE if card is None else RELEASES[parse_card(card)]))
        elif event.kind == "reveal":
            history.append((seat, REVEALS[event.data["colour"]]))
            if event.data["double"]:
                used_double.add(seat)
        elif "colours" in event.data:
            first, second = event.data["colours"]
            history.append((seat, _pick_of(first, second)))
            if first == second:
                used_double.add(seat)
        else:
            shown: list[str] = []
            for later in actions[index + 1:]:
                if later.actor == seat and later.kind == "pick":
                    break
                if later.actor == seat and later.kind == "reveal":
                    shown.append(later.data["colour"])
            if len(shown) == 2:
                pick = _pick_of(shown[0], shown[1])
            else:
                allowed = picks_allowed(rules.double_card and (rules.double_card_each_round or seat not in used_double))
                pick = rng.choice([p for p in allowed if not shown or first_reveal_fits(rules, p, shown[0])])
            history.append((seat, pick))
    return history


def _pick_of(first: str, second: str) -> Pick:
    """The shared pick value of two colours (the same colour twice: with the 2x card)."""
    return PICKS_BY_COLOURS[first, second]
