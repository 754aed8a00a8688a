"""Views: what one seat may know, and nothing else.

`State.view(seat)` is the single gate from a game's hidden state to a seat (boardgame.io's player view).
A view holds the seat's own secrets, the public facts, and the seat's own past observations; bots, renderers
and widgets only ever receive views. `seat=None` is a spectator, who sees public facts only.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .events import Event, Seat, freeze


@dataclass(frozen=True)
class View:
    """A seat's information state.

    - `game`: the game's module ("tabletop_edu.mafia_de_cuba").
    - `seat`: whose view it is (None: a spectator).
    - `players`: the names at the table, by seat.
    - `current_player`: whose turn it is (a tuple when several seats act secretly at once; None at the end).
    - `is_over`: whether the game has ended.
    - `facts`: game-specific knowledge of this seat, documented field by field in each game's module.
    - `log`: the events as this seat observed them, in order.
    - `rules`: the game's rules (public: every seat knows them).

    A view is immutable all the way down: its facts are frozen on construction (dicts and lists inside become
    read-only copies, still equal to plain ones), and its events carry frozen details.
    """

    game: str
    seat: Seat | None
    players: tuple[str, ...]
    current_player: Seat | tuple[Seat, ...] | None
    is_over: bool
    facts: Mapping[str, Any] = field(default_factory=dict)
    log: tuple[Event, ...] = ()
    rules: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "facts", freeze(self.facts))
        object.__setattr__(self, "log", tuple(self.log))

    def seat_name(self, seat: Seat) -> str:
        return self.players[seat]

    def __str__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat} ({self.players[self.seat]})"
        lines = [f"View of {who}"]
        lines += [f"  {key}: {value}" for key, value in self.facts.items()]
        lines += [f"  [{event.step}] {event.text}" for event in self.log]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return render_view_html(self)


def game_renderer(game: str, name: str) -> Callable[..., str] | None:
    """The function `name` of the game's renderer module (declared to the registry), if the game has one.

    A renderer may offer `view_html(view, language=)`, `state_html(state, language=)`,
    `event_text(event, players, language)`, `reveal_html(state, language)` and `move_label(view, path,
    language)`; whatever it lacks falls back to the generic forms.
    """
    from ..registry import find_game  # at call time: the core imports no game, the registry finds it

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


def render_state_html(state: Any, language: str = "en", log: bool = True) -> str:
    """The game's own omniscient HTML for a state (its `render.state_html`), else a generic table."""
    function = game_renderer(state.game, "state_html")
    return state.generic_html(log) if function is None else call_renderer(function, state, language, log)


def generic_view_html(view: View, log: bool = True, language: str = "en") -> str:
    """Any game's view as a plain table of its facts and its log, through the shared templates (escaped,
    titled for the perspective): good enough for a game that has no renderer of its own."""
    from ..registry import find_game
    from ..templates import Row, log_lines, page, render

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
