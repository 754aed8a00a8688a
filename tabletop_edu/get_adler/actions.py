"""Get Adler's actions: the values a seat plays, their text notation and the shared menus of them.

Actions are frozen values, so the engine and the world builder (`worlds.py`) hand out the same objects again and
again instead of building dozens of dataclasses per step. Every table here is fixed by the notation and the
largest table, so it is built once and never grows.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import A_SEAT, Action, IllegalAction, Term, expect_arity, parse_choice, parse_int, quote, words
from . import words as _words  # noqa: F401 - registers the words of the refusals raised here and in the engine
from .rules import CARDS, MAX_PLAYERS, TRAIT_COLOURS, TRAITS


@dataclass(frozen=True)
class Discard(Action):
    """Discard a card for no effect (a document discarded this way is a signal to the table)."""
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Ask(Action):
    """Play a question mark: ask `target` whether it has a `colour` `trait`."""
    target: int
    trait: str
    colour: str

    def __str__(self) -> str:
        return f"ask {self.target} {self.trait} {self.colour}"


@dataclass(frozen=True)
class Answer(Action):
    """Answer the question asked of you."""
    yes: bool

    def __str__(self) -> str:
        # Only a real bool reads "yes"/"no": Answer(1) writes "answer 1", which the parser refuses.
        return "answer yes" if self.yes is True else "answer no" if self.yes is False else f"answer {self.yes!r}"


@dataclass(frozen=True)
class Magnify(Action):
    """Play a magnifying glass: look at `target`'s whole hand."""
    target: int

    def __str__(self) -> str:
        return f"magnify {self.target}"


@dataclass(frozen=True)
class Binoculars(Action):
    """Play binoculars: take a card at random from `target`'s hand (you then `give` one back, R4.5)."""
    target: int

    def __str__(self) -> str:
        return f"binoculars {self.target}"


@dataclass(frozen=True)
class Give(Action):
    """After binoculars: give `card` from your hand (the card just taken included) to the seat you took from."""
    card: str

    def __str__(self) -> str:
        return f"give {self.card}"


@dataclass(frozen=True)
class Arrest(Action):
    """Play an arrest card in front of `target`."""
    target: int

    def __str__(self) -> str:
        return f"arrest {self.target}"


@dataclass(frozen=True)
class Respond(Action):
    """Play a card in a confrontation: Adler's escape/disguise/bomb/pistol, a hero's arrest or pistol."""
    card: str

    def __str__(self) -> str:
        return f"respond {self.card}"


@dataclass(frozen=True)
class Surrender(Action):
    """Adler gives himself up: the heroes win."""

    def __str__(self) -> str:
        return "surrender"


@dataclass(frozen=True)
class Pass(Action):
    """Decline: let an escape happen, or give up a pistol duel."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Skip(Action):
    """Miss this turn: stunned by a bomb, out for a turn after a wrong arrest, beaten in a duel, or with no card."""

    def __str__(self) -> str:
        return "skip"


NOTATION = ("'discard CARD', 'ask K TRAIT COLOUR', 'answer yes|no', 'magnify K', 'binoculars K', 'give CARD', "
            "'arrest K', 'respond CARD', 'surrender', 'pass' or 'skip'")

_A_CARD = Term("adler.refused.what.card")


def parse_action(text: str) -> Action:
    """Read an action of Get Adler from its notation (see NOTATION)."""
    parts = words(text)
    head = parts[0]
    if head == "discard":
        expect_arity(parts, 2, "discard CARD")
        return DISCARDS[parse_choice(parts[1], CARDS, _A_CARD)]
    if head == "ask":
        expect_arity(parts, 4, "ask K TRAIT COLOUR")
        trait = parse_choice(parts[2], TRAITS, Term("adler.refused.what.trait"))
        return Ask(parse_int(parts[1], A_SEAT), trait, parse_choice(
            parts[3], TRAIT_COLOURS[trait], Term("adler.refused.what.colour", trait=Term(f"trait.{trait}"))))
    if head == "answer":
        expect_arity(parts, 2, "answer yes|no")
        return ANSWERS[parse_choice(parts[1], ("yes", "no"), Term("adler.refused.what.answer")) == "yes"]
    if head == "magnify":
        expect_arity(parts, 2, "magnify K")
        return Magnify(parse_int(parts[1], A_SEAT))
    if head == "binoculars":
        expect_arity(parts, 2, "binoculars K (then 'give CARD' once you have seen the card you took)")
        return Binoculars(parse_int(parts[1], A_SEAT))
    if head == "give":
        expect_arity(parts, 2, "give CARD")
        return GIVES[parse_choice(parts[1], CARDS, _A_CARD)]
    if head == "arrest":
        expect_arity(parts, 2, "arrest K")
        return Arrest(parse_int(parts[1], A_SEAT))
    if head == "respond":
        expect_arity(parts, 2, "respond CARD")
        return RESPONSES[parse_choice(parts[1], CARDS, _A_CARD)]
    if parts == ["surrender"]:
        return SURRENDER
    if parts == ["pass"]:
        return PASS
    if parts == ["skip"]:
        return SKIP
    raise IllegalAction.because("adler.refused.not_an_action", text=quote(text), notation=NOTATION)


# Actions are frozen values, so the same objects are handed out again and again: building dozens of
# dataclasses per step was half of the cost of a random game. Every table below is fixed by the notation
# and the largest table, so it is built once and never grows.
DISCARDS: dict[str, Discard] = {card: Discard(card) for card in CARDS}
GIVES: dict[str, Give] = {card: Give(card) for card in CARDS}
ANSWERS: dict[bool, Answer] = {True: Answer(True), False: Answer(False)}
RESPONSES: dict[str, Respond] = {card: Respond(card) for card in CARDS}
SKIP, PASS, SURRENDER = Skip(), Pass(), Surrender()


@dataclass(frozen=True)
class TargetActions:
    """Every action aimed at one seat."""
    asks: tuple[Ask, ...]
    magnify: Magnify
    binoculars: Binoculars
    arrest: Arrest


AIMED_AT: tuple[TargetActions, ...] = tuple(
    TargetActions(tuple(Ask(target, trait, colour) for trait in TRAITS for colour in TRAIT_COLOURS[trait]),
                   Magnify(target), Binoculars(target), Arrest(target))
    for target in range(MAX_PLAYERS))


__all__ = ["AIMED_AT", "ANSWERS", "Answer", "Arrest", "Ask", "Binoculars", "DISCARDS", "Discard", "GIVES", "Give",
           "Magnify", "NOTATION", "PASS", "Pass", "RESPONSES", "Respond", "SKIP", "SURRENDER", "Skip", "Surrender",
           "TargetActions", "parse_action"]
