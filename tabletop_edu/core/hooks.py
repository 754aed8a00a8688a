"""What the core asks of the floors above it, which fill these three hooks when `tabletop_edu` is imported.

The core knows no game, no registry and no template. Three of its questions need them: which `GameState` class
plays the game a record (or a view's JSON) names, answered by the registry; how a state or a view draws
itself in a notebook, answered by `tabletop_edu.rendering` with the game's own renderer; and the words of a
refusal in a language, answered by `tabletop_edu.i18n`. The package's `__init__` connects them, so they work
after any import of `tabletop_edu`; unconnected, no game is known, a state or a view shows as its text, and a
refusal as its key.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

#: `game` (short name or module) -> the game's `GameState` class, or None when no game has that name.
StateClassFinder = Callable[[str], "type[Any] | None"]
#: A state (omniscient) or a view -> its HTML for a notebook.
HtmlRenderer = Callable[[Any], str]
#: (key, language) -> the word registered for `key` in `language` (else in English), None when there is none.
WordFinder = Callable[[str, str], "str | None"]


def _no_game(game: str) -> None:
    return None


def _plain_html(subject: Any) -> str:
    return f"<pre>{escape(str(subject))}</pre>"


def _no_word(key: str, language: str) -> None:
    return None


_state_class: StateClassFinder = _no_game
_html: HtmlRenderer = _plain_html
_word: WordFinder = _no_word


def connect(*, state_class: StateClassFinder, html: HtmlRenderer, word: WordFinder) -> None:
    """Fill the hooks (done once by `tabletop_edu/__init__.py`)."""
    global _state_class, _html, _word
    _state_class, _html, _word = state_class, html, word


def state_class_of(game: str) -> type[Any] | None:
    """The `GameState` class playing `game`, None if no game has that name (an ImportError or a ValueError if
    the game is known but cannot be loaded)."""
    return _state_class(game)


def html_of(subject: Any) -> str:
    """A state's or a view's HTML for a notebook."""
    return _html(subject)


def word_of(key: str, language: str) -> str | None:
    """The word registered for `key` in `language` (else in English), None when there is none."""
    return _word(key, language)


__all__ = ["HtmlRenderer", "StateClassFinder", "WordFinder", "connect", "html_of", "state_class_of", "word_of"]
