"""Errors a player can cause, worded for the player.

An illegal action is a normal event at a table of students, not a crash: the message says *why* in plain
words, and the state it was tried on is left exactly as it was. A message never repeats a long input whole:
it quotes a short prefix (`quote`), and any message is cut at `MAX_MESSAGE` characters, so a megabyte typed
into a widget gives a one-line refusal.

A refusal of the package is worded in the reader's language: `IllegalAction.because(key, **values)` names a
sentence registered in English and French (the core's in `tabletop_edu.i18n`, a game's in its `words.py`), found
through `hooks.word_of`. Its `str` is the English sentence; `words(language)` the same in another language. A
value is shown as it is (a number, a name, quoted input, the notation a player types), a `Term` by its word in the
reader's language (a colour, a token, a role), and a tuple of values as a list ("red, blue"). A sentence writes a
word elided before a value as the value's format with an apostrophe: "le tour {name:de'}" reads "le tour d'Ana" and
"le tour de Ben" (`hooks.elided`). A teacher's own game
may still raise `IllegalAction("plain text")`: it has no key, and reads the same in every language.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from . import hooks

#: The longest message an error of the package carries.
MAX_MESSAGE = 400
#: The longest piece of user input an error message quotes.
MAX_QUOTE = 40


def quote(value: Any) -> str:
    """`value` as an error message quotes it: its text in quotes, cut to a short prefix.

    Never raises, whatever the value: a message must not fail where the input did (`repr` of a whole number
    over 4,300 digits raises ValueError, as can the `repr` or `str` of a broken object)."""
    try:
        text = value if isinstance(value, str) else repr(value)
    except Exception:  # noqa: BLE001 - any value at all can be quoted
        text = f"<{type(value).__name__} that cannot be written>"
    return f"'{_short(text)}'"


def quote_repr(value: Any) -> str:
    """`repr(value)` cut to a short prefix, as an error message shows a value of any type: a text with its own
    quotes (`'yes'`), a number or None without (`5`), so that the two read apart; never raises either."""
    try:
        return _short(repr(value))
    except Exception:  # noqa: BLE001 - any value at all can be shown
        return f"<{type(value).__name__} that cannot be written>"


def _short(text: str) -> str:
    return text[:MAX_QUOTE] + f"... ({len(text)} characters)" if len(text) > MAX_QUOTE else text


class _ShortMessage(ValueError):
    """A ValueError whose message is at most `MAX_MESSAGE` characters long."""

    def __init__(self, message: object = "") -> None:
        text = str(message)
        if len(text) > MAX_MESSAGE:
            text = text[:MAX_MESSAGE - 3] + "..."
        super().__init__(text)


class Term:
    """A game term among a refusal's values (`Term("cm_red")`), shown by its word in the reader's language; its
    `slots` fill that word's own `{name}`s (`Term("refused.seat_named", name="Ann", seat=0)`)."""

    __slots__ = ("key", "slots")

    def __init__(self, key: str, **slots: Any) -> None:
        self.key = key
        self.slots = slots

    def words(self, language: str) -> str:
        """The term in `language` (English if it has no word there; its key if it has none at all)."""
        return _sentence(self.key, language, self.slots) or self.key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and (self.key, self.slots) == (other.key, other.slots)

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        slots = "".join(f", {name}={value!r}" for name, value in self.slots.items())
        return f"Term({self.key!r}{slots})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _term, (self.key, self.slots)


def _term(key: str, slots: Mapping[str, Any]) -> Term:
    """A `Term` back from a pickle."""
    return Term(key, **slots)


def _worded(value: Any, language: str) -> Any:
    """`value` as a sentence in `language` shows it: a `Term` by its word, a tuple as a list of its values."""
    if isinstance(value, Term):
        return value.words(language)
    if isinstance(value, tuple):
        return ", ".join(str(_worded(item, language)) for item in value)
    return value


class _Eliding(string.Formatter):
    """`str.format`, where a slot formatted as a word and an apostrophe (`{name:de'}`) is that word before the
    value, elided if the value asks for it (`hooks.elided`)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.endswith("'"):
            return hooks.elided(format_spec[:-1], format(value))
        return str(super().format_field(value, format_spec))


_ELIDING = _Eliding()


def _sentence(key: str, language: str, values: Mapping[str, Any]) -> str | None:
    """The sentence `key` names in `language` (English if it has none there), its slots filled; None if no
    sentence has that key."""
    template = hooks.word_of(key, language)
    if template is None:
        return None
    return _ELIDING.format(template, **{name: _worded(value, language) for name, value in values.items()})


class IllegalAction(_ShortMessage):
    """An action that the rules forbid right now, or text that names no action at all.

    `key` and `values` (None for a plain-text refusal) word it in any language: see the module's docstring."""

    def __init__(self, message: object = "", *, key: str | None = None,
                 values: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.values: Mapping[str, Any] = dict(values or {})

    @classmethod
    def because(cls, key: str, **values: Any) -> IllegalAction:
        """The refusal `key` names, with its `values`; its message is the English sentence."""
        english = _sentence(key, "en", values)
        return cls(english if english is not None else key, key=key, values=values)

    def words(self, language: str) -> str:
        """The refusal in `language` (falling back to English); a plain-text refusal as it is."""
        if self.key is None:
            return str(self)
        text = _sentence(self.key, language, self.values) or str(self)
        return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), str(self), self.key, self.values)


def _rebuilt(cls: type[IllegalAction], message: str, key: str | None, values: Mapping[str, Any]) -> IllegalAction:
    """An `IllegalAction` back from a pickle (one sent between processes keeps its key and values)."""
    return cls(message, key=key, values=values)


class RulesError(_ShortMessage):
    """A `Rules` object or a player list that cannot make a game (for example 3 players of Mafia de Cuba)."""


class RecordError(_ShortMessage):
    """A game record that cannot be replayed: the message names the field, or the step and its action."""
