"""Errors a player can cause, worded for the player.

An illegal action is a normal event at a table of students, not a crash: the message says *why* in plain
words, and the state it was tried on is left exactly as it was. A message never repeats a long input whole:
it quotes a short prefix (`quote`), and any message is cut at `MAX_MESSAGE` characters, so a megabyte typed
into a widget gives a one-line refusal.
"""

from __future__ import annotations

from typing import Any

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


class IllegalAction(_ShortMessage):
    """An action that the rules forbid right now, or text that names no action at all."""


class RulesError(_ShortMessage):
    """A `Rules` object or a player list that cannot make a game (for example 3 players of Mafia de Cuba)."""


class RecordError(_ShortMessage):
    """A game record that cannot be replayed: the message names the field, or the step and its action."""
