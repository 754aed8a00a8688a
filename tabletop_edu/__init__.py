"""tabletop_edu: hidden-information tabletop games for teaching game theory in Jupyter.

Three games (Commissario, Get Adler, Mafia de Cuba) share one protocol (`tabletop_edu.core`): seeded states,
text-notated actions, events that know who saw them, and per-seat views. `tabletop_edu.knowledge` turns the
event log into information-flow graphs and possible-worlds models.

Layers, one way down. Every module stands on one floor of `FLOORS` and imports (at any depth, lazy imports inside
functions included) only from its own floor or those below, with no loop between files anywhere;
`tests/test_layers.py` reads the imports against this table. A module outside the game packages is placed by the
first part of its name (`classroom.server` by `classroom`), a module of a game package (a package with a
`plugin.py`) by the last (`mafia_de_cuba.engine` by `engine`; the package itself is `__init__`), and a file named
after its game by what its plugin declares it (Peek's `examples.peek` is its `module`, an `engine`). The floors,
lowest first: (1) protocol: `core` (states, actions, events, views, records), which imports nothing of ours outside
itself and asks what needs a game (the state class a record names, a notebook's HTML) through `core.hooks`, which
this module fills; `i18n`, the words; `extras`, the one sentence naming a missing optional library; and
`student_t`, Student's t in pure Python; (2) knowledge: information flow and possible worlds, from events alone;
(3) engines: a game's `rules`, `actions`, `words` (EN/FR), `menus` (shared legal-action menus), `engine`, `worlds`,
`deduction`,
`inference`, `cheap_talk`; (4) registry: `GamePlugin`, how every floor above finds a game; (5) analysis: `beliefs`
(a game's and the shared questions and scoring rules), a game's `bots`, `strategy` and `plugin`, `ismcts`,
`tournament`, `testing` and the adapters `openspiel` and `pettingzoo_env`; (6) front-ends: `templates`,
`rendering` (a game's renderer, found through the registry), a game's `render` and `widget`, the
shared `widgets` and `moves`; (7) class: `classroom`, `__main__` and this package itself. Outside the game
packages no module names a game: a game's own behaviour (bots, action catalogue, renderer, knowledge panel,
posteriors) is reached through its `GamePlugin` only.
So a student's tap goes down once (page, room, `State.apply`) and the seat's view comes back up once (`State.view`,
`rendering`, the game's `render`, page).
"""

from typing import Any

from .core import Action, Event, GameState, IllegalAction, RandomBot, RecordError, RulesError, View, load, play_game
from .core import hooks as _hooks
from .i18n import find as _find_word
from .registry import state_class_of as _state_class_of

__version__ = "0.1.0"

#: The floors of the package, lowest first: (floor, the names placing a module on it). See the docstring.
FLOORS: tuple[tuple[str, frozenset[str]], ...] = (
    ("protocol", frozenset({"core", "i18n", "extras", "student_t"})),
    ("knowledge", frozenset({"knowledge"})),
    ("engines", frozenset({"__init__", "rules", "actions", "words", "menus", "engine", "worlds", "deduction",
                           "inference", "cheap_talk", "_box", "chain", "_chain_numpy", "_chain_python"})),
    ("registry", frozenset({"registry"})),
    ("analysis", frozenset({"beliefs", "bots", "strategy", "series", "plugin", "ismcts", "tournament", "testing", "openspiel",
                            "pettingzoo_env"})),
    ("front-ends", frozenset({"templates", "rendering", "render", "widget", "series_widget", "widgets", "moves",
                              "pictures"})),
    ("class", frozenset({"classroom", "__main__", "tabletop_edu"})),
)


def _notebook_html(subject: Any) -> str:
    """A state's or a view's HTML, for the core's `_repr_html_` (the templates load at the first drawing)."""
    from .rendering import html

    return html(subject)


_hooks.connect(state_class=_state_class_of, html=_notebook_html, word=_find_word)

__all__ = ["FLOORS", "Action", "Event", "GameState", "IllegalAction", "RandomBot", "RecordError", "RulesError",
           "View", "load", "play_game", "__version__"]
