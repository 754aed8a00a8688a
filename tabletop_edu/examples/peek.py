"""Peek: the smallest hidden-information game that shows every part of the protocol.

Rules. 2 to 4 players each get one secret card from the cards 1 to `highest_card` (all different). For
`rounds` rounds, each seat in turn does one of:

- `peek K`: look at seat K's card; only you see it, the others see that you looked.
- `guess K V`: say aloud that seat K holds V. Right: one point, and the card is shown to all. Wrong:
  everybody learns that seat K does not hold V.
- `pass`.

The most points wins (ties share the win). The game teaches private observations (a peek), public
announcements (a guess) and what a wrong guess tells everyone.

View facts: `my_card`; `known_cards` (seat -> card, from peeks, right guesses and one's own card);
`not_cards` (seat -> values ruled out by wrong guesses); `scores`; `round`.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from ..core import (Action, GameRules, GameState, IllegalAction, RulesError, Seat, View, expect_arity, option,
                    parse_int, quote, words)
from ..i18n import register_event_kinds, register_objects

#: The event kinds as a French class reads them on top of the information-flow pictures' columns.
register_event_kinds("tabletop_edu.examples.peek", {"fr": {"deal": "distribution", "peek": "regarde",
                                                           "guess": "devine", "pass": "passe"}})
register_objects("tabletop_edu.examples.peek", {"fr": {"deck": "paquet"}})


@dataclass(frozen=True)
class Rules(GameRules):
    """Peek's options: the highest card value and the number of rounds."""

    highest_card: int = option(6, low=2, high=20)
    rounds: int = option(2, low=1, high=10)


@dataclass(frozen=True)
class Peek(Action):
    target: int

    def __str__(self) -> str:
        return f"peek {self.target}"


@dataclass(frozen=True)
class Guess(Action):
    target: int
    value: int

    def __str__(self) -> str:
        return f"guess {self.target} {self.value}"


@dataclass(frozen=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


NOTATION = "'peek K', 'guess K V' or 'pass'"


def parse_action(text: str) -> Action:
    """Read `peek 2`, `guess 1 5` or `pass`."""
    parts = words(text)
    if parts[0] == "peek":
        expect_arity(parts, 2, "peek K")
        return Peek(parse_int(parts[1], "a seat"))
    if parts[0] == "guess":
        expect_arity(parts, 3, "guess K V")
        return Guess(parse_int(parts[1], "a seat"), parse_int(parts[2], "a card value"))
    if parts == ["pass"]:
        return Pass()
    raise IllegalAction(f"{quote(text)} is not a Peek action: write {NOTATION}.")


class PeekState(GameState[Rules]):
    """A game of Peek; `cards[seat]` is each seat's secret card."""

    game = "tabletop_edu.examples.peek"
    title = "Peek"
    rules_class = Rules
    min_players = 2
    max_players = 4

    def _setup(self) -> None:
        if self.rules.highest_card < len(self.players) or self.rules.rounds < 1:
            raise RulesError("Peek needs at least one card per player and at least one round.")
        self.cards: list[int] = self.rng.sample(range(1, self.rules.highest_card + 1), len(self.players))
        self.known: list[set[Seat]] = [{seat} for seat in range(len(self.players))]  # whose card each seat saw
        self.revealed: set[Seat] = set()
        self.not_cards: dict[Seat, set[int]] = {}
        self.scores = [0] * len(self.players)
        self.turn = 0
        self._deal_events()

    def _deal_events(self) -> None:
        for seat, card in enumerate(self.cards):
            self.emit("deal", f"{self.players[seat]} is dealt the {card}.", source="deck", observers=[seat],
                      redacted=f"{self.players[seat]} is dealt a card.", seat=seat, card=card)

    def _whose_turn(self) -> Seat | None:
        if self.turn >= self.rules.rounds * len(self.players):
            return None
        return self.turn % len(self.players)

    @property
    def max_steps(self) -> int:
        return self.rules.rounds * len(self.players)

    @property
    def winners(self) -> tuple[Seat, ...]:
        if not self.is_over:
            return ()
        best = max(self.scores)
        return tuple(seat for seat, score in enumerate(self.scores) if score == best)

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text)

    def legal_actions(self, player: Seat | None = None) -> list[Action]:
        seat = self.current_player if player is None else player
        if seat is None or seat != self.current_player:
            return []
        others = [other for other in range(len(self.players)) if other != seat]
        actions: list[Action] = [Peek(other) for other in others]
        actions += [Guess(other, value) for other in others if other not in self.revealed
                    for value in range(1, self.rules.highest_card + 1)]
        return actions + [Pass()]

    def _validate(self, seat: Seat, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not isinstance(action, (Peek, Guess)):
            raise IllegalAction(f"{action} is not an action of Peek.")
        if not 0 <= action.target < len(self.players):
            raise IllegalAction(f"There is no seat {action.target}.")
        if action.target == seat:
            raise IllegalAction("You already know your own card: pick another seat.")
        if isinstance(action, Guess):
            if action.target in self.revealed:
                raise IllegalAction(f"{self.players[action.target]}'s card is already shown to everyone.")
            if not 1 <= action.value <= self.rules.highest_card:
                raise IllegalAction(f"Cards go from 1 to {self.rules.highest_card}, not {action.value}.")

    def _play(self, seat: Seat, action: Action) -> None:
        name = self.players[seat]
        if isinstance(action, Peek):
            target = self.players[action.target]
            self.known[seat].add(action.target)
            self.emit("peek", f"{name} peeks: {target} holds the {self.cards[action.target]}.", actor=seat,
                      source=action.target, observers=[seat], redacted=f"{name} peeks at {target}'s card.",
                      redacted_data={"target": action.target}, target=action.target,
                      card=self.cards[action.target])
        elif isinstance(action, Guess):
            target = self.players[action.target]
            if self.cards[action.target] == action.value:
                self.scores[seat] += 1
                self.revealed.add(action.target)
                self.emit("guess", f"{name} guesses {target} holds the {action.value}: right!", actor=seat,
                          source=action.target, target=action.target, value=action.value, right=True)
            else:
                self.not_cards.setdefault(action.target, set()).add(action.value)
                self.emit("guess", f"{name} guesses {target} holds the {action.value}: wrong.", actor=seat,
                          target=action.target, value=action.value, right=False)
        else:
            self.emit("pass", f"{name} passes.", actor=seat)
        self.turn += 1

    def _sees(self, seat: Seat | None) -> set[Seat]:
        return self.revealed | (self.known[seat] if seat is not None else set())

    def _facts(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "my_card": None if seat is None else self.cards[seat],
            "known_cards": {other: self.cards[other] for other in sorted(self._sees(seat))},
            "not_cards": {other: sorted(values) for other, values in sorted(self.not_cards.items())},
            "scores": list(self.scores),
            "round": min(self.turn // len(self.players) + 1, self.rules.rounds),
        }

    @classmethod
    def world_from_view(cls, view: View, rng: random.Random) -> PeekState:
        """A deal uniformly drawn among those that fit `view` (the cards it saw, the wrong guesses it heard),
        with the moves of its log played again on it. Every move of Peek is seen by all, in full or as
        "X peeks at Y's card", so the log gives the whole history."""
        known: dict[Seat, int] = dict(view.facts["known_cards"])
        not_cards = view.facts["not_cards"]
        rules: Rules = view.rules
        hidden = [seat for seat in range(len(view.players)) if seat not in known]
        free = sorted(set(range(1, rules.highest_card + 1)) - set(known.values()))
        deals = [deal for deal in itertools.permutations(free, len(hidden))
                 if all(value not in not_cards.get(seat, ()) for seat, value in zip(hidden, deal))]
        world = cls(list(view.players), seed=rng.randrange(2**32), rules=rules)
        world.cards = [known.get(seat, 0) for seat in range(len(view.players))]
        for seat, value in zip(hidden, rng.choice(deals)):
            world.cards[seat] = value
        world.events = []
        world._deal_events()
        for event in view.log:
            if event.actor is not None:
                world.apply(_move_of(event), player=event.actor)
        return world


def _move_of(event: Any) -> Action:
    """The move an event of the log reports (peeks name their target even to those who do not see the card)."""
    if event.kind == "peek":
        return Peek(event.data["target"])
    if event.kind == "guess":
        return Guess(event.data["target"], event.data["value"])
    return Pass()


State = PeekState


def new_game(players: int | list[str] = 3, *, seed: int | None = None, rules: Rules | None = None) -> PeekState:
    """A new game of Peek, dealt with `seed`."""
    return PeekState(players, seed=seed, rules=rules)
