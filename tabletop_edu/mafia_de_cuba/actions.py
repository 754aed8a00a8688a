"""Mafia de Cuba's actions: the values a seat plays and their text notation (seeds/mafia_de_cuba.md).

Actions are frozen values: the menus (`menus.py`) hand out the same objects again and again, and the engine
(`engine.py`) checks and plays them; `parse_action` reads any of them back from its text.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import A_SEAT, Action, IllegalAction, Term, expect_arity, parse_choice, parse_int, quote, words
from . import words as _words  # noqa: F401 - registers the words of the refusals raised here and in the engine
from .rules import TOKEN_ORDER, take_text

#: The kinds of question the Godfather asks (`ask K seen|took|suspect`).
KINDS = ("seen", "took", "suspect")


@dataclass(frozen=True)
class Hide(Action):
    """The Godfather hides `diamonds` (0 to `max_hidden`) before passing the box."""
    diamonds: int

    def __str__(self) -> str:
        return f"hide {self.diamonds}"


@dataclass(frozen=True)
class SetAside(Action):
    """The first taker puts one token out of play (`token` None: sets nothing aside)."""
    token: str | None

    def __str__(self) -> str:
        return f"set-aside {self.token or 'none'}"


@dataclass(frozen=True)
class TakeFromBox(Action):
    """A taker's secret take: `diamonds` >= 1, or one `token`, or nothing (diamonds 0, token None)."""
    diamonds: int = 0
    token: str | None = None

    def __str__(self) -> str:
        return "take " + take_text((self.diamonds, self.token))


@dataclass(frozen=True)
class Ask(Action):
    """The Godfather asks seat `target` a typed question: 'seen', 'took' or 'suspect'."""
    target: int
    kind: str

    def __str__(self) -> str:
        return f"ask {self.target} {self.kind}"


@dataclass(frozen=True)
class Floor(Action):
    """Budgeted interrogation: the Godfather opens the floor (every living taker in turn may volunteer one
    testimony). In free talk the floor opens by itself."""

    def __str__(self) -> str:
        return "floor"


@dataclass(frozen=True)
class Accuse(Action):
    """'Empty your pockets!': the only way to learn the truth about a seat."""
    target: int

    def __str__(self) -> str:
        return f"accuse {self.target}"


@dataclass(frozen=True)
class Saw(Action):
    """Testimony: 'when I opened the box there were `diamonds` diamonds and these tokens' (maybe a lie)."""
    diamonds: int
    tokens: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(["saw", f"{self.diamonds}", *(f"{token}" for token in self.tokens)])


@dataclass(frozen=True)
class Took(Action):
    """Testimony: 'I took this' (maybe a lie)."""
    diamonds: int = 0
    token: str | None = None

    def __str__(self) -> str:
        return "took " + take_text((self.diamonds, self.token))


@dataclass(frozen=True)
class Suspect(Action):
    """Testimony: 'I suspect seat `target`'."""
    target: int

    def __str__(self) -> str:
        return f"suspect {self.target}"


@dataclass(frozen=True)
class Silent(Action):
    """An asked seat says nothing (a seat may always keep silent)."""

    def __str__(self) -> str:
        return "silent"


@dataclass(frozen=True)
class Pass(Action):
    """On the floor: nothing to say now (the table hears the silence and the floor goes on)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Shoot(Action):
    """Cleaner variant: the Cleaner shoots the accused before they empty their pockets."""

    def __str__(self) -> str:
        return "shoot"


@dataclass(frozen=True)
class Hold(Action):
    """Cleaner variant: do not shoot (every living taker says it, so the Cleaner stays hidden)."""

    def __str__(self) -> str:
        return "hold"


TESTIMONIES = (Saw, Took, Suspect, Silent)
NOTATION = ("'hide K', 'set-aside TOKEN|none', 'take N|TOKEN|nothing', 'ask K seen|took|suspect', 'floor', "
            "'accuse K', 'saw D [TOKENS...]', 'took N|TOKEN|nothing', 'suspect K', 'silent', 'pass', 'shoot', "
            "'hold'")

_DIAMONDS, _TOKEN = Term("mdc_what_diamonds"), Term("mdc_what_token")


def _sort_tokens(tokens: list[str]) -> tuple[str, ...]:
    return tuple(sorted(tokens, key=TOKEN_ORDER.index))


def _parse_take(parts: list[str], verb: str) -> tuple[int, str | None]:
    if len(parts) != 2:
        raise IllegalAction.because("mdc_refused_take_arity", text=quote(" ".join(parts)), verb=verb,
                                    tokens=TOKEN_ORDER)
    word = parts[1]
    if word == "nothing":
        return 0, None
    if word in TOKEN_ORDER:
        return 0, word
    diamonds = parse_int(word, Term("mdc_what_take"))
    if diamonds < 1:
        raise IllegalAction.because("mdc_refused_take_at_least", text=quote(verb + " " + word))
    return diamonds, None


def parse_action(text: str) -> Action:
    """Read any action of Mafia de Cuba from its notation (see seeds/mafia_de_cuba.md)."""
    parts = words(text)
    verb = parts[0]
    if verb == "hide":
        expect_arity(parts, 2, "hide K")
        return Hide(parse_int(parts[1], _DIAMONDS))
    if verb == "set-aside":
        expect_arity(parts, 2, "set-aside TOKEN")
        token = parse_choice(parts[1], (*TOKEN_ORDER, "none"), _TOKEN)
        return SetAside(None if token == "none" else token)
    if verb == "take":
        return TakeFromBox(*_parse_take(parts, "take"))
    if verb == "took":
        return Took(*_parse_take(parts, "took"))
    if verb == "ask":
        expect_arity(parts, 3, "ask K seen|took|suspect")
        return Ask(parse_int(parts[1], A_SEAT), parse_choice(parts[2], KINDS, Term("mdc_what_question")))
    if verb == "accuse":
        expect_arity(parts, 2, "accuse K")
        return Accuse(parse_int(parts[1], A_SEAT))
    if verb == "suspect":
        expect_arity(parts, 2, "suspect K")
        return Suspect(parse_int(parts[1], A_SEAT))
    if verb == "saw":
        if len(parts) < 2:
            raise IllegalAction.because("mdc_refused_saw_arity")
        tokens = [parse_choice(word, TOKEN_ORDER, _TOKEN) for word in parts[2:]]
        return Saw(parse_int(parts[1], _DIAMONDS), _sort_tokens(tokens))
    simple = {"floor": Floor, "silent": Silent, "pass": Pass, "shoot": Shoot, "hold": Hold}
    if verb in simple:
        expect_arity(parts, 1, verb)
        return simple[verb]()
    raise IllegalAction.because("mdc_refused_not_an_action", text=quote(text), notation=NOTATION)
