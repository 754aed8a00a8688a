"""Drawing views and states as HTML: a game's own renderer, found through the registry, else the generic table.

This is the floor above the registry and the templates that the core asks (through `core.hooks`, connected by
`tabletop_edu/__init__.py`) whenever a state or a view shows itself in a notebook; widgets, the class server's
pages and the dashboard call it directly. A game's renderer module is the one its `GamePlugin.render` names.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import escape

from .core import Event, GameState, View
from .i18n import tr
from .registry import GamePlugin, find_game
from .templates import Row, display_names, log_lines, page, remembered_wording, render, without_style
from .templates.drawn import Drawn, Piece, pieces_without_suffix


def html(subject: View | GameState[Any]) -> str:
    """A view's or a state's HTML (the state's omniscient table): what `_repr_html_` shows in a notebook."""
    return render_view_html(subject) if isinstance(subject, View) else render_state_html(subject)


def game_renderer(game: str, name: str) -> Callable[..., str] | None:
    """The function `name` of the game's renderer module (declared to the registry), if the game has one.

    A renderer may offer `view_html(view, language=)` (which may also take `log=` and `worded=`: see
    `RunningLog`), `state_html(state, language=)`, `event_text(event, players, language)`, `reveal_html(state,
    language)` and `move_label(view, path, language)`; whatever it lacks falls back to the generic forms.
    """
    plugin = find_game(game)
    return None if plugin is None else plugin.renderer(name)


def call_renderer(function: Callable[..., str], subject: Any, language: str, log: bool = True,
                  worded: Sequence[str] | None = None, style: bool = True, public: View | None = None) -> str:
    """Call a renderer, passing `language`, `log`, `worded` (see `RunningLog`), `style=False` and `public` (the
    spectator's view of the same step) only to renderers that take them. With `style=False` what a renderer that
    does not take it drew has its stylesheet cut: the HTML never holds it (the class server's pages link it once
    instead)."""
    accepted = _parameters(function)
    options: dict[str, Any] = {"language": language, "log": log}
    if worded is not None:
        options["worded"] = worded
    if not style:
        options["style"] = False
    if public is not None:
        options["public"] = public
    drawn = function(subject, **{name: value for name, value in options.items() if name in accepted})
    if not style and "style" not in accepted:
        drawn = without_style(drawn)
    return drawn if type(drawn) is Drawn else str(drawn)  # a drawn table keeps its pieces (`templates.drawn`)


@functools.lru_cache(maxsize=256)
def _parameters(function: Callable[..., str]) -> frozenset[str]:
    """The names a renderer takes, read once (a class server draws a table per seat at every step)."""
    return frozenset(inspect.signature(function).parameters)


def render_view_html(view: View, language: str = "en", log: bool = True,
                     worded: Sequence[str] | None = None, style: bool = True, public: View | None = None,
                     plugin: GamePlugin | None = None) -> str:
    """The game's own HTML for a view (its `render.view_html`), else a generic table; `log=False` leaves the
    log out (a widget shows it in its own tab). `worded`: the text of each event of the view's log, as a running
    log worded it (`RunningLog`), for a renderer that lists some of them again. `style=False`: without the
    stylesheet (a page that links it; `call_renderer`). `public`: the spectator's view of the same step, for a
    renderer that draws what its tables share once a step (the class server's). `plugin`: the view's game, when
    the caller holds it (a class server's room), instead of asking the registry."""
    function = game_renderer(view.game, "view_html") if plugin is None else plugin.renderer("view_html")
    if function is None:
        return generic_view_html(view, log, language, style)
    return call_renderer(function, view, language, log, worded, style, public)


def render_state_html(state: GameState[Any], language: str = "en", log: bool = True) -> str:
    """The game's own omniscient HTML for a state (its `render.state_html`), else a generic table."""
    function = game_renderer(state.game, "state_html")
    return state.generic_html(log) if function is None else call_renderer(function, state, language, log)


def generic_view_html(view: View, log: bool = True, language: str = "en", style: bool = True) -> str:
    """Any game's view as a plain table of its facts and its log, through the shared templates (escaped,
    titled for the perspective): good enough for a game that has no renderer of its own. `style=False` leaves
    the stylesheet out."""
    plugin = find_game(view.game)
    title = plugin.title if plugin is not None else view.game.rsplit(".", 1)[-1].replace("_", " ").title()
    table = page("generic", title, view.seat, view.players, language)
    if log:
        table.log = log_lines(view.log, view.players, language, _engine_text)
    rows = [Row((_fact_text(value),), head=str(key)) for key, value in view.facts.items()]
    return render("generic/table.html.j2", style=style, page=table, you="", rows=rows)


class RunningLog:
    """One seat's log, worded one event at a time, for a table drawn again at every step (the class server
    redraws every seat's table after every move, and re-wording the whole log each time was most of its work).

    `table_html(view)` is exactly `render_view_html(view, language, style=style)` (a test checks it at every
    step of games of every game, in both languages): the game's table without its log, with the log's lines
    kept here and only those of the events new since the last drawing worded. A view whose log is not the last
    one grown (another game, a seat's log restarted) is worded from its start again.

    A game's renderer that takes it gets `worded` (`view_html(view, ..., worded=)`): the text of each event of
    the view's log as worded here ("" for an event that says nothing), so that a list of what was said (Mafia de
    Cuba's, on every table of its floor) need not word its events again."""

    def __init__(self, language: str = "en", style: bool = True, plugin: GamePlugin | None = None) -> None:
        self.language = language
        self.style = style  # False: for a page that links the stylesheet (`render_view_html`'s `style`)
        self.plugin = plugin  # the game of the views drawn, when the caller holds it (else asked of the registry)
        self._items: list[str] = []  # one `<li>` per worded line, as the log template writes it
        self._lines = Piece("")  # the items joined, their JSON kept (`templates.drawn`)
        self._texts: list[str] = []  # the text of each event worded so far ("" when it makes no line)
        self._events = 0  # the view's events worded so far
        self._last: Event | None = None
        self._players: tuple[str, ...] = ()

    def items(self, view: View) -> list[str]:
        """The log's lines of `view`, as the `<li>` items of the table's log (escaped)."""
        log = view.log
        known = self._events
        if view.players != self._players or len(log) < known or \
                (known and log[known - 1] is not self._last and log[known - 1] != self._last):
            self._items, self._texts, known, self._players = [], [], 0, tuple(view.players)
            self._lines = Piece("")
        plugin = self.plugin
        wording = _remembered((game_renderer(view.game, "event_text") if plugin is None or plugin.module != view.game
                               else plugin.renderer("event_text")) or _engine_text)
        names = display_names(view.players)
        lines = len(self._items)
        for event in log[known:]:
            text = wording(event, names, self.language)
            self._texts.append(text)
            if text:
                self._items.append(f'<li value="{event.step}">{escape(text)}</li>')
        if len(self._items) > lines:
            self._lines = Piece.grown(self._lines, "".join(self._items[lines:]))
        self._events, self._last = len(log), (log[-1] if log else None)
        return self._items

    def table_html(self, view: View, public: View | None = None) -> str:
        """`render_view_html(view, self.language)`, the log worded only where it grew; drawn in pieces
        (`templates.drawn.Drawn`), the log's lines one piece that keeps its JSON from one table to the next.
        `public`: the spectator's view of the same step (see `render_view_html`)."""
        self.items(view)
        plugin = self.plugin if self.plugin is not None and self.plugin.module == view.game else None
        body = render_view_html(view, self.language, log=False, worded=tuple(self._texts), style=self.style,
                                public=public, plugin=plugin)
        if not body.endswith(_TABLE_END):  # a table not laid out by the shared template: drawn whole
            return render_view_html(view, self.language, log=True, style=self.style, plugin=plugin)
        return Drawn([*pieces_without_suffix(body, _TABLE_END), _log_head(self.language), self._lines, _LOG_END])


#: How the shared template ends a table drawn without its log (the log goes before the last `</div>`).
_TABLE_END = "\n</div>"
#: How the log's section ends, and the table after it.
_LOG_END = Piece("</ol>\n</section></div>")


@functools.lru_cache(maxsize=8)
def _log_head(language: str) -> Piece:
    """The log's section up to its first line, as the log template writes it."""
    return Piece(f'\n<section class="tt-panel tt-log-panel"><h3>{escape(tr("tt.log", language))}</h3>\n'
                 '<ol class="tabletop-log tt-log">')


@functools.lru_cache(maxsize=16)
def _remembered(wording: Callable[[Event, Sequence[str], str], str]) -> Callable[[Event, Sequence[str], str], str]:
    """A game's wording of events, each (event, names, language) worded once for all the running logs: a class
    server's 13 tables of a step hold the same public event, which each seat's log words. A line is worded from
    the event as a seat saw it, so a seat is handed only the line of an event it saw itself. The memory holds
    the lines of the latest steps of the rooms, not a day's."""
    return remembered_wording(wording, limit=WORDINGS_KEPT)


#: How many lines `_remembered` keeps per game: the new events of a busy class's latest steps, in two languages.
WORDINGS_KEPT = 4096


def _engine_text(event: Event, players: Sequence[str], language: str) -> str:
    """The engine's own text of an event (a game without a renderer of its own words its log so)."""
    return event.text


def _fact_text(value: Any) -> str:
    """A fact as text people read: mappings as 'key: value' pairs, lists without brackets."""
    if isinstance(value, Mapping):
        return "; ".join(f"{key}: {_fact_text(item)}" for key, item in value.items()) or "\u2014"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(_fact_text(item) for item in value) or "\u2014"
    return "\u2014" if value is None else str(value)


__all__ = ["RunningLog", "call_renderer", "game_renderer", "generic_view_html", "html", "render_state_html",
           "render_view_html"]
