"""What the core asks of the floors above it, which fill these hooks when `tabletop_edu` is imported.

The core knows no game, no registry and no template. Three of its questions need them: which `GameState` class
plays the game a record (or a view's JSON) names, answered by the registry; how a state or a view draws
itself in a notebook, answered by `tabletop_edu.rendering` with the game's own renderer; and the words of a
refusal in a language, answered by `tabletop_edu.i18n`, which also elides a word before a name ("de" + "Ana" is
"d'Ana"). The package's `__init__` connects them, so they work after any import of `tabletop_edu`; unconnected, no
game is known, a state or a view shows as its text, a refusal as its key, and no word is elided.
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
#: (word, name) -> the word and the name as French writes them together ("de", "Ana" -> "d'Ana").
Elider = Callable[[str, str], str]


def _no_game(game: str) -> None:
    return None


def _plain_html(subject: Any) -> str:
    return f"<pre>{escape(str(subject))}</pre>"


def _no_word(key: str, language: str) -> None:
    return None


def _no_elision(word: str, name: str) -> str:
    return f"{word} {name}"


_state_class: StateClassFinder = _no_game
_html: HtmlRenderer = _plain_html
_word: WordFinder = _no_word
_elide: Elider = _no_elision


def connect(*, state_class: StateClassFinder, html: HtmlRenderer, word: WordFinder,
            elide: Elider = _no_elision) -> None:
    """Fill the hooks (done once by `tabletop_edu/__init__.py`)."""
    global _state_class, _html, _word, _elide
    _state_class, _html, _word, _elide = state_class, html, word, elide


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


def elided(word: str, name: str) -> str:
    """`word` before `name`, elided as French does ("de" + "Ana" is "d'Ana", "de" + "Ben" stays "de Ben")."""
    return _elide(word, name)


__all__ = ["Elider", "HtmlRenderer", "StateClassFinder", "WordFinder", "connect", "elided", "html_of",
           "state_class_of", "word_of"]
