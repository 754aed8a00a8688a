"""Drawing views and states as HTML: a game's own renderer, found through the registry, else the generic table.

This is the floor above the registry and the templates that the core asks (through `core.hooks`, connected by
`tabletop_edu/__init__.py`) whenever a state or a view shows itself in a notebook; widgets, the class server's
pages and the dashboard call it directly. A game's renderer module is the one its `GamePlugin.render` names.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from .core import GameState, View
from .registry import find_game
from .templates import Row, log_lines, page, render


def html(subject: View | GameState[Any]) -> str:
    """A view's or a state's HTML (the state's omniscient table): what `_repr_html_` shows in a notebook."""
    return render_view_html(subject) if isinstance(subject, View) else render_state_html(subject)


def game_renderer(game: str, name: str) -> Callable[..., str] | None:
    """The function `name` of the game's renderer module (declared to the registry), if the game has one.

    A renderer may offer `view_html(view, language=)`, `state_html(state, language=)`,
    `event_text(event, players, language)`, `reveal_html(state, language)` and `move_label(view, path,
    language)`; whatever it lacks falls back to the generic forms.
    """
    plugin = find_game(game)
    return None if plugin is None else plugin.renderer(name)


def call_renderer(function: Callable[..., str], subject: Any, language: str, log: bool = True) -> str:
    """Call a renderer, passing `language` and `log` only to renderers that take them."""
    accepted = inspect.signature(function).parameters
    options: dict[str, Any] = {"language": language, "log": log}
    return str(function(subject, **{name: value for name, value in options.items() if name in accepted}))


def render_view_html(view: View, language: str = "en", log: bool = True) -> str:
    """The game's own HTML for a view (its `render.view_html`), else a generic table; `log=False` leaves the
    log out (a widget shows it in its own tab)."""
    function = game_renderer(view.game, "view_html")
    return generic_view_html(view, log, language) if function is None else call_renderer(function, view, language, log)


def render_state_html(state: GameState[Any], language: str = "en", log: bool = True) -> str:
    """The game's own omniscient HTML for a state (its `render.state_html`), else a generic table."""
    function = game_renderer(state.game, "state_html")
    return state.generic_html(log) if function is None else call_renderer(function, state, language, log)


def generic_view_html(view: View, log: bool = True, language: str = "en") -> str:
    """Any game's view as a plain table of its facts and its log, through the shared templates (escaped,
    titled for the perspective): good enough for a game that has no renderer of its own."""
    plugin = find_game(view.game)
    title = plugin.title if plugin is not None else view.game.rsplit(".", 1)[-1].replace("_", " ").title()
    table = page("generic", title, view.seat, view.players, language)
    if log:
        table.log = log_lines(view.log, view.players, language, lambda event, players, language: event.text)
    rows = [Row((_fact_text(value),), head=str(key)) for key, value in view.facts.items()]
    return render("generic/table.html.j2", page=table, you="", rows=rows)


def _fact_text(value: Any) -> str:
    """A fact as text people read: mappings as 'key: value' pairs, lists without brackets."""
    if isinstance(value, Mapping):
        return "; ".join(f"{key}: {_fact_text(item)}" for key, item in value.items()) or "\u2014"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(_fact_text(item) for item in value) or "\u2014"
    return "\u2014" if value is None else str(value)


__all__ = ["call_renderer", "game_renderer", "generic_view_html", "html", "render_state_html", "render_view_html"]
