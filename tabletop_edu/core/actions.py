"""Actions: small frozen values with a text notation that round-trips.

Each game defines its actions as frozen dataclasses whose `str()` is the notation a person types
("take 3", "pick red blue"), and a `parse_action(text)` that reads it back. These helpers keep the
parsers short and their error messages friendly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .errors import IllegalAction, Term, quote


class Action:
    """Base class of every game's actions; subclasses are frozen dataclasses defining `__str__`.

    Each action's notation is written once and kept on the value: every applied action is recorded by its
    text, and games hand out the same action values again and again in their legal-action menus.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        notation = cls.__dict__.get("__str__")
        if notation is None:
            return

        def __str__(self: Action) -> str:
            known = self.__dict__  # a frozen dataclass still has a plain __dict__ to keep the text in
            text = known.get("_notation")
            if text is None:
                text = known["_notation"] = notation(self)
            return text

        __str__.__doc__ = notation.__doc__
        cls.__str__ = __str__  # type: ignore[method-assign, assignment]

    def _repr_html_(self) -> str:
        from html import escape

        return f"<code>{escape(str(self))}</code>"


def words(text: str) -> list[str]:
    """The lower-cased words of an action text, or an error if the text is not a string."""
    if not isinstance(text, str):
        raise IllegalAction.because("refused.not_text", kind=type(text).__name__)
    parts = text.strip().lower().split()
    if not parts:
        raise IllegalAction.because("refused.empty")
    return parts


def expect_arity(parts: Sequence[str], count: int, notation: str) -> None:
    """Raise unless the action text has exactly `count` words, showing the notation expected."""
    if len(parts) != count:
        raise IllegalAction.because("refused.arity", text=quote(" ".join(parts)), notation=notation)


#: What `parse_int` reads when it reads a seat, worded in the reader's language.
A_SEAT = Term("refused.a_seat")

_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")


def parse_int(word: str, what: str | Term) -> int:
    """A whole number written in plain digits (at most nine), or an error naming what it was meant to be (a
    `Term` to word it in the reader's language).

    Strict on purpose: `int()` also reads "1_0", "+1" and other scripts' digits, which would give one move
    several spellings, and reads numbers thousands of digits long slowly."""
    if not _WHOLE_NUMBER.fullmatch(word):
        raise IllegalAction.because("refused.not_a_number", word=quote(word), what=what)
    return int(word)


def parse_choice(word: str, choices: Sequence[str], what: str | Term) -> str:
    """`word` if it is one of `choices`, else an error listing them (`what` they are: a `Term` to word it in the
    reader's language)."""
    if word not in choices:
        raise IllegalAction.because("refused.not_a_choice", word=quote(word), what=what, choices=tuple(choices))
    return word
