"""tabletop_edu: hidden-information tabletop games for teaching game theory in Jupyter.

Three games (Commissario, Get Adler, Mafia de Cuba) share one protocol (`tabletop_edu.core`): seeded states,
text-notated actions, events that know who saw them, and per-seat views. `tabletop_edu.knowledge` turns the
event log into information-flow graphs and possible-worlds models.

Layers, one way down. Every module stands on one floor of `FLOORS` and imports (at any depth, lazy imports inside
functions included) only from its own floor or those below, with no loop between files anywhere;
`tests/test_layers.py` reads the imports against this table. The floors, lowest first: (1) protocol: `core`
(states, actions, events, views, records), which imports nothing of ours outside itself and asks what needs a game
(the state class a record names, a notebook's HTML) through `core.hooks`, which this module fills; `i18n`, the
words; `extras`, the one sentence naming a missing optional library; and `student_t`, Student's t in pure Python;
(2) knowledge: information flow and possible worlds, from events alone; (3) engines: the games' material, moves,
words and states; (4) registry: `GamePlugin`, how every floor above finds a game; (5) analysis: `beliefs` (the
shared questions and scoring rules), the games' bots and game theory, `trees` (extensive forms with their
information sets), `ismcts`, `tournament`, `testing` and the adapters `openspiel` and `pettingzoo_env`; (6) front-ends: `templates`, `rendering` (a game's renderer, found
through the registry), `pictures`, the shared `widgets` and `moves`, the games' pages and widgets; (7) class:
`classroom`, `__main__` and this package itself. A module outside the game packages is placed by the first part of
its name (`classroom.server` by `classroom`).

Every game package (a package with a `plugin.py`) has one shape, `GAME_SHAPE`: the same module for the same job,
each on its job's floor. Beyond the shape a game names, in its `__init__.py`, its one analysis module (`ANALYSIS`:
Commissario's `strategy`, Get Adler's `deduction`, Mafia de Cuba's `inference`) and its own further modules
(`OWN_MODULES`, each with the module of the shape it stands beside, on whose floor it is). A file named after its
game (Peek's `examples.peek`) stands on the floor of what its plugin declares it (its `module`, an `engine`).
Outside the game packages no module names a game: a game's own behaviour (bots, action catalogue, renderer,
knowledge panel, posteriors) is reached through its `GamePlugin` only. So a student's tap goes down once (page,
room, `State.apply`) and the seat's view comes back up once (`State.view`, `rendering`, the game's `render`, page).
"""

from typing import Any

from .core import Action, Event, GameState, IllegalAction, RandomBot, RecordError, RulesError, View, load, play_game
from .core import hooks as _hooks
from . import knowledge as _knowledge
from .i18n import find as _find_word
from .registry import state_class_of as _state_class_of

__version__ = "0.1.0"

#: The floors of the package, lowest first: (floor, the names placing a module outside the game packages on it).
FLOORS: tuple[tuple[str, frozenset[str]], ...] = (
    ("protocol", frozenset({"core", "i18n", "extras", "student_t"})),
    ("knowledge", frozenset({"knowledge"})),
    ("engines", frozenset()),
    ("registry", frozenset({"registry"})),
    ("analysis", frozenset({"beliefs", "exercises", "ismcts", "tournament", "testing", "openspiel", "pettingzoo_env",
                            "trees"})),
    ("front-ends", frozenset({"templates", "rendering", "pictures", "widgets", "moves"})),
    ("class", frozenset({"classroom", "__main__", "tabletop_edu"})),
)

#: The shape of every game package: its modules, each with its job and the floor the job stands on. `analysis`
#: is the job of the module the game names as its `ANALYSIS`.
GAME_SHAPE: dict[str, tuple[str, str]] = {
    "__init__": ("the game's public names, its `ANALYSIS` and `OWN_MODULES`", "engines"),
    "rules": ("the rule options (`Rules`) and the material: cards, characters, tokens", "engines"),
    "actions": ("the moves and their text notation (`parse_action`)", "engines"),
    "words": ("every word the game shows, in English and French", "engines"),
    "engine": ("the state: `new_game`, `legal_actions`, `apply`, `view`", "engines"),
    "worlds": ("the worlds drawn from one seat's view alone (`world_from_view`)", "engines"),
    "bots": ("the game's bots, which see views only", "analysis"),
    "beliefs": ("the belief questions a class is asked and their reference posteriors", "analysis"),
    "analysis": ("the game theory of the game, for the lessons", "analysis"),
    "plugin": ("the `GamePlugin` declaring the game to the registry", "analysis"),
    "render": ("the table, the log and the reveal as HTML, from a view", "front-ends"),
    "panel": ("the knowledge panel: what a perspective knows, as HTML", "front-ends"),
    "widget": ("the notebook widget: `play(...)`", "front-ends"),
}


def _notebook_html(subject: Any) -> str:
    """A state's or a view's HTML, for the core's `_repr_html_` (the templates load at the first drawing)."""
    from .rendering import html

    return html(subject)


def _svg_drawing(name: str) -> Any:
    """`tabletop_edu.pictures`' SVG form of a knowledge drawing, for a kernel without matplotlib (loaded when
    first asked for)."""
    from . import pictures

    return getattr(pictures, name)


_hooks.connect(state_class=_state_class_of, html=_notebook_html, word=_find_word)
_knowledge.draw_without_matplotlib(_svg_drawing)

__all__ = ["FLOORS", "GAME_SHAPE", "Action", "Event", "GameState", "IllegalAction", "RandomBot", "RecordError", "RulesError",
           "View", "load", "play_game", "__version__"]
