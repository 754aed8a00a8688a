"""Actions: small frozen values with a text notation that round-trips.

Each game defines its actions as frozen dataclasses whose `str()` is the notation a person types
("take 3", "pick red blue"), and a `parse_action(text)` that reads it back. These helpers keep the
parsers short and their error messages friendly.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import IllegalAction


class Action:
    """Base class of every game's actions; subclasses are frozen dataclasses defining `__str__`."""

    def _repr_html_(self) -> str:
        from html import escape

        return f"<code>{escape(str(self))}</code>"


def words(text: str) -> list[str]:
    """The lower-cased words of an action text, or an error if the text is not a string."""
    if not isinstance(text, str):
        raise IllegalAction(f"An action is written as text, like 'take 3'; got {type(text).__name__}.")
    parts = text.strip().lower().split()
    if not parts:
        raise IllegalAction("An empty text is not an action.")
    return parts


def expect_arity(parts: Sequence[str], count: int, notation: str) -> None:
    """Raise unless the action text has exactly `count` words, showing the notation expected."""
    if len(parts) != count:
        raise IllegalAction(f"'{' '.join(parts)}' is not written right: expected '{notation}'.")


def parse_int(word: str, what: str) -> int:
    """A whole number from a word, or an error that names what the number was meant to be."""
    try:
        return int(word)
    except ValueError:
        raise IllegalAction(f"'{word}' is not a number ({what} expected).") from None


def parse_choice(word: str, choices: Sequence[str], what: str) -> str:
    """`word` if it is one of `choices`, else an error listing them."""
    if word not in choices:
        raise IllegalAction(f"'{word}' is not a {what}: choose one of {', '.join(choices)}.")
    return word
