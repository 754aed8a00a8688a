"""Commissario's actions: the values a seat plays, their text notation and the shared values of them.

Actions are frozen values, so the engine (`engine.py`) hands out the same objects in every legal-action list and
reads them back from the log (`RELEASES`, `REVEALS`, `PICKS_BY_COLOURS`); `parse_action` reads any of them from
its text (seeds/commissario.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..core import Action, IllegalAction, Term, expect_arity, parse_choice, parse_int, quote, words
from .rules import ALL_CARDS, COLOURS, MAX_VALUE, Card, card_text

DOUBLE = "2x"


def _colour_field(action: str, value: Any) -> str:
    """`value` if it is a text (the notation checks which colour); else the refusal of a wrong-typed field
    (`action`: the key of the action's name, `cm_a_pick`)."""
    if type(value) is not str:
        raise IllegalAction.because("cm_refused_colour_field", action=Term(action), value=quote(value))
    return value


@dataclass(frozen=True)
class Release(Action):
    """Release one of your prisoners to bid for turn order (`release red-3`); `card` None: `release none`."""

    card: Card | None

    def __str__(self) -> str:
        return "release none" if self.card is None else f"release {card_text(self.card)}"


@dataclass(frozen=True)
class Pick(Action):
    """Secretly choose two commissaires: `pick red blue`, or `pick green 2x` (both colours equal).

    `colours` is kept in `COLOURS` order, so `pick blue red` and `pick red blue` are the same pick.
    """

    colours: tuple[str, str]

    @property
    def double(self) -> bool:
        return self.colours[0] == self.colours[1]

    def __str__(self) -> str:
        if type(self.colours) is not tuple or len(self.colours) != 2:
            raise IllegalAction.because("cm_refused_pick_field", value=quote(self.colours))
        first, second = (_colour_field("cm_a_pick", colour) for colour in self.colours)
        return f"pick {first} {DOUBLE}" if first == second else f"pick {first} {second}"


@dataclass(frozen=True)
class Reveal(Action):
    """Show one of your picked commissaires and arrest in its colour: `reveal blue`."""

    colour: str

    def __str__(self) -> str:
        return f"reveal {_colour_field('cm_a_reveal', self.colour)}"


NOTATION = "'release red-3', 'release none', 'pick red blue', 'pick green 2x' or 'reveal blue'"
_CARD = re.compile(r"([a-z]+)([+-])(.+)")
_A_COLOUR = Term("cm_what_colour")


def parse_card(word: str) -> Card:
    """`red+3` -> ("red", 3); `red-3` -> ("red", -3). Values are one digit (1 to `MAX_VALUE`)."""
    match = _CARD.fullmatch(word)
    if match is None:
        raise IllegalAction.because("cm_refused_card_notation", word=quote(word))
    colour = parse_choice(match.group(1), COLOURS, _A_COLOUR)
    size = parse_int(match.group(3), Term("cm_what_value"))
    if not 1 <= size <= MAX_VALUE or match.group(3) != str(size):
        raise IllegalAction.because("cm_refused_card_value", word=quote(word), most=MAX_VALUE)
    return colour, size if match.group(2) == "+" else -size


def make_pick(first: str, second: str) -> Pick:
    """A pick with its colours in `COLOURS` order."""
    ordered = sorted((first, second), key=COLOURS.index)
    return Pick((ordered[0], ordered[1]))


def parse_action(text: str) -> Action:
    """Read one of the notations in `NOTATION`."""
    parts = words(text)
    if parts[0] == "release":
        expect_arity(parts, 2, "release red-3' or 'release none")
        return Release(None if parts[1] == "none" else parse_card(parts[1]))
    if parts[0] == "pick":
        expect_arity(parts, 3, "pick red blue' or 'pick green 2x")
        if parts[1] == DOUBLE:  # 'pick 2x green' is read as 'pick green 2x'
            parts = [parts[0], parts[2], parts[1]]
        first = parse_choice(parts[1], COLOURS, _A_COLOUR)
        if parts[2] == DOUBLE:
            return Pick((first, first))
        second = parse_choice(parts[2], COLOURS, _A_COLOUR)
        if first == second:
            raise IllegalAction.because("cm_refused_one_commissaire", colour=Term(f"cm_{first}"), notation=first)
        return make_pick(first, second)
    if parts[0] == "reveal":
        expect_arity(parts, 2, "reveal blue")
        return Reveal(parse_choice(parts[1], COLOURS, _A_COLOUR))
    raise IllegalAction.because("cm_refused_not_an_action", text=quote(text), notation=NOTATION)


#: Two different colours (15 picks), then one colour with the 2x card (6 picks).
PAIR_PICKS: tuple[Pick, ...] = tuple(make_pick(a, b) for i, a in enumerate(COLOURS) for b in COLOURS[i + 1:])
ALL_PICKS: tuple[Pick, ...] = PAIR_PICKS + tuple(Pick((c, c)) for c in COLOURS)


def picks_allowed(double_card: bool) -> tuple[Pick, ...]:
    """The picks a seat may make (R4.1): with the 2x card (option `double_card`, R1.5) all 21, else the 15 pairs."""
    return ALL_PICKS if double_card else PAIR_PICKS


#: One Release per character (and one for "release none"), shared by every legal-action list.
RELEASES: dict[Card, Release] = {card: Release(card) for card in ALL_CARDS}
RELEASE_NONE = Release(None)

#: One Reveal per colour, shared by every legal-action list.
REVEALS: dict[str, Reveal] = {colour: Reveal(colour) for colour in COLOURS}
#: Both orders of every pick's colours -> the pick (its colours in `COLOURS` order).
PICKS_BY_COLOURS: dict[tuple[str, str], Pick] = {
    **{pick.colours: pick for pick in ALL_PICKS}, **{pick.colours[::-1]: pick for pick in ALL_PICKS}}
