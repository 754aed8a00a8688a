"""The game registry: every game, ours or a teacher's, declares itself once and is found everywhere.

A game package describes itself with a `GamePlugin` (its name, title, player range, bots, the renderer
module, the action catalogue an RL environment needs, its knowledge panel and what the table can infer) and
names that declaration in its `pyproject.toml`:

    [project.entry-points."tabletop_edu.games"]
    liars_dice = "liars_dice.plugin:GAME"

After `pip install`, the game appears in `python -m tabletop_edu games`, in tournaments, in the PettingZoo
adapter, in `tabletop_edu.load` (its records) and in the widgets (its renderer): those generic layers know
games only through `games()` / `game(name)`, never by importing a game by name. A game written in a
notebook joins without packaging through `register(plugin)` (in this process only).

Bots, catalogues, panels and posteriors are named as "module:attribute" texts (or given as module-level
callables, turned into such texts), so that a tournament's worker processes can build them by name, and so
that listing the games imports no bot and no widget. A bot travels as a `BotSpec` (`bot_spec(game,
"ismcts(iterations=50)")`): its factory's name and options, or a picklable instance.

The registry stands on the floor just above the engines (see `tabletop_edu.FLOORS`): it imports the core
only, and `tabletop_edu/__init__.py` hands `state_class_of` to the core, which finds the game of a record
through it without importing the registry.
"""

from __future__ import annotations

import ast
import copy
import importlib
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from types import MappingProxyType, ModuleType
from typing import Any

from .core import Action, Bot, GameState
from .extras import EXTRA_OF, MissingExtra, first_missing

#: The entry point group a game package registers its `GamePlugin` in.
ENTRY_POINT_GROUP = "tabletop_edu.games"

#: Bots every game has, whatever it declares: uniform random play, and the generic information-set search.
GENERIC_BOTS: Mapping[str, str] = MappingProxyType({
    "random": "tabletop_edu.core.bots:RandomBot",
    "ismcts": "tabletop_edu.ismcts:InformationSetSearch",
})

_NAME = re.compile(r"[a-z][a-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*")
_BOT_NAME = re.compile(r"[\w.\-]+")
_REFERENCE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


class PluginError(ValueError):
    """A game declaration that cannot work: a bad name, player range, or a bot that cannot be named."""


class UnknownGame(ValueError):
    """No installed game has that name."""


class PluginWarning(UserWarning):
    """An installed entry point that could not be loaded as a game (the other games still work)."""


def reference(target: str | Callable[..., Any], what: str) -> str:
    """A "module:attribute" text for `target`: texts are checked for their shape, callables named by their
    module and qualified name (which must lead back to them: no lambdas, no functions defined inside others)."""
    if isinstance(target, str):
        if not _REFERENCE.fullmatch(target):
            raise PluginError(f"{what}: {target!r} is not a 'module:attribute' reference.")
        return target
    if not callable(target):
        raise PluginError(f"{what}: {target!r} is neither a 'module:attribute' text nor a callable.")
    text = f"{getattr(target, '__module__', '')}:{getattr(target, '__qualname__', '')}"
    if not _REFERENCE.fullmatch(text) or "<" in text or resolve(text) is not target:
        raise PluginError(f"{what}: {target!r} cannot be found again by name (worker processes build bots by "
                          "name): use a class or function defined at the top level of a module.")
    return text


def resolve(text: str) -> Any:
    """The object a "module:attribute" reference names (imports the module)."""
    module_name, _, attribute = text.partition(":")
    value: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


@dataclass(frozen=True)
class GamePlugin:
    """How a game declares itself to the generic layers (tournaments, CLI, adapters, loader, widgets).

    - `name`: the short name people type ("commissario"); the entry point must have the same name.
    - `module`: the game's module, holding `State` (its `GameState` class), `new_game` and `parse_action`;
      it is also `State.game`, the "game" field of the game's records.
    - `title`, `min_players`, `max_players`, `default_players` (default: `min_players`).
    - `bots`: bot name -> factory building the bot with no argument (keyword arguments are the bot's
      options, as in "lookahead(worlds=2)"), as "module:attribute" or a module-level callable. "random" and
      "ismcts" (`GENERIC_BOTS`) exist for every game unless the game declares its own of that name.
    - `actions`: "module:attribute" (or a callable) giving `(players, rules) -> iterable of Action`: every
      action the game can ever allow at that table, the fixed action space of the PettingZoo adapter.
    - `render`: the module with the game's `view_html`, `state_html`, `event_text`, `move_label` and
      `reveal_html` (any it lacks falls back to the generic forms); None for the generic rendering.
    - `summary`: one line for listings.
    - `knowledge`: "module:attribute" (or a callable) giving the game's knowledge panel,
      `knowledge_html(view_or_state, language) -> html`: what the perspective knows or can infer (a view gets
      only what it implies; the state is the teacher's, every seat). Named, not imported: listing the games
      imports no widget.
    - `posteriors`: "module:attribute" (or a callable) giving what the table can infer at a state,
      `(state) -> {seat: {hidden value: probability}}` (Mafia de Cuba: the Godfather's posterior of each
      taker's role), for the class's debrief.
    - `beliefs`: "module:attribute" giving the game's belief model (`beliefs.BeliefModel`):
      which questions a seat may be asked ("who is Adler?"), their posterior from that seat's view under each
      named model of play, and the truth once the game is over; None when the game asks no belief questions.
    - `bot_needs`: bot name -> the optional libraries it imports to play (import names, as in
      `extras.EXTRA_OF`: `{"equilibrium": ("numpy", "nashpy")}`), so that the command line refuses it before a
      game starts on an install without them, and `games` marks it, both without importing the bot.
    """

    name: str
    module: str
    title: str
    min_players: int
    max_players: int
    bots: Mapping[str, str | Callable[..., Bot]] = field(default_factory=dict, hash=False)
    default_players: int | None = None
    actions: str | Callable[[int, Any], Iterable[Action]] | None = None
    render: str | None = None
    summary: str = ""
    knowledge: str | Callable[..., str] | None = None
    posteriors: str | Callable[[GameState[Any]], Mapping[int, Mapping[str, float]]] | None = None
    beliefs: str | None = None
    bot_needs: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise PluginError(f"A game's name is lower-case letters, digits and _, not {self.name!r}.")
        if not isinstance(self.module, str) or not _MODULE.fullmatch(self.module):
            raise PluginError(f"{self.name}: module is a dotted module name, not {self.module!r}.")
        counts = (self.min_players, self.max_players)
        if any(isinstance(n, bool) or not isinstance(n, int) for n in counts) or not 1 <= counts[0] <= counts[1]:
            raise PluginError(f"{self.name}: players from {counts[0]!r} to {counts[1]!r} is not a range of seats.")
        default = self.min_players if self.default_players is None else self.default_players
        if isinstance(default, bool) or not isinstance(default, int) or not counts[0] <= default <= counts[1]:
            raise PluginError(f"{self.name}: default_players {default!r} is outside {counts[0]} to {counts[1]}.")
        object.__setattr__(self, "default_players", default)
        if not isinstance(self.bots, Mapping):
            raise PluginError(f"{self.name}: bots is a mapping of names to factories, not {self.bots!r}.")
        bots = {}
        for bot_name, factory in self.bots.items():
            if not isinstance(bot_name, str) or not _BOT_NAME.fullmatch(bot_name):
                raise PluginError(f"{self.name}: {bot_name!r} is not a bot name (letters, digits, '_', '.', '-').")
            bots[bot_name] = reference(factory, f"{self.name} bot {bot_name!r}")
        object.__setattr__(self, "bots", bots)
        if not isinstance(self.bot_needs, Mapping):
            raise PluginError(f"{self.name}: bot_needs maps bot names to library names, not {self.bot_needs!r}.")
        needs = {}
        for bot_name, modules in self.bot_needs.items():
            if bot_name not in self.bot_factories():
                raise PluginError(f"{self.name}: bot_needs names {bot_name!r}, which is not one of its bots.")
            if isinstance(modules, str) or not all(isinstance(m, str) and _MODULE.fullmatch(m) for m in modules):
                raise PluginError(f"{self.name}: bot_needs[{bot_name!r}] is a tuple of module names, not {modules!r}.")
            needs[bot_name] = tuple(modules)
        object.__setattr__(self, "bot_needs", needs)
        for hook in ("actions", "knowledge", "posteriors", "beliefs"):
            if getattr(self, hook) is not None:
                object.__setattr__(self, hook, reference(getattr(self, hook), f"{self.name} {hook}"))
        if self.render is not None and (not isinstance(self.render, str) or not _MODULE.fullmatch(self.render)):
            raise PluginError(f"{self.name}: render is a module name, not {self.render!r}.")

    # ---------------------------------------------------------------- the game itself

    def load_module(self) -> ModuleType:
        """The game's module."""
        return importlib.import_module(self.module)

    def state_class(self) -> type[GameState[Any]]:
        """The game's `GameState` subclass (its module's `State`)."""
        state_class = getattr(self.load_module(), "State", None)
        if not (isinstance(state_class, type) and issubclass(state_class, GameState)):
            raise PluginError(f"{self.name}: {self.module} has no State class deriving from GameState.")
        return state_class

    def new_game(self, players: int | list[str] | None = None, *, seed: int | None = None,
                 rules: Any = None) -> GameState[Any]:
        """A new game (default: `default_players` seats), through the game's own `new_game`."""
        count = self.default_players if players is None else players
        state: GameState[Any] = self.load_module().new_game(count, seed=seed, rules=rules)
        return state

    # ---------------------------------------------------------------- bots

    def bot_factories(self) -> dict[str, str]:
        """Every bot name of the game -> its "module:attribute" factory: the declared ones, then the generic."""
        return {**self.bots,  # type: ignore[dict-item]  # texts only: `__post_init__` made every factory one
                **{name: text for name, text in GENERIC_BOTS.items() if name not in self.bots}}

    def bot_names(self) -> list[str]:
        return list(self.bot_factories())

    def bot_extras(self, name: str) -> list[str]:
        """The extras the bot `name` needs to play (`bot_needs`, e.g. ["analysis"]), in order; [] for none."""
        return list(dict.fromkeys(EXTRA_OF.get(module.partition(".")[0], "all")
                                  for module in self.bot_needs.get(name, ())))

    def bot_missing(self, name: str) -> MissingExtra | None:
        """Why the bot `name` cannot play here, as the one sentence naming its extra (not raised), or None;
        found without importing the bot or its libraries."""
        return first_missing(self.bot_needs.get(name, ()), f"{self.title}'s {name} bot")

    def make_bot(self, name: str, **options: Any) -> Bot:
        """A new bot of the game by name, with its options as keyword arguments."""
        factories = self.bot_factories()
        if name not in factories:
            raise ValueError(f"Unknown bot {name!r} for {self.name}; choose from: {', '.join(sorted(factories))}.")
        bot: Bot = resolve(factories[name])(**options)
        return bot

    # ---------------------------------------------------------------- adapters and front-ends

    def action_catalogue(self, players: int, rules: Any = None) -> list[str]:
        """Every action the game can allow at this table size, as sorted texts (the RL action space)."""
        if self.actions is None:
            raise PluginError(f"{self.name} declares no action catalogue (GamePlugin.actions), which a fixed "
                              "action space (PettingZoo, OpenSpiel) needs.")
        assert isinstance(self.actions, str)
        return sorted({str(action) for action in resolve(self.actions)(players, rules)})

    def renderer(self, function: str) -> Callable[..., str] | None:
        """The game's renderer function `function` ("view_html", "event_text"...), if it has one."""
        if self.render is None:
            return None
        # a module imported already is read from `sys.modules`: the import machinery's own look-up, at each table a
        # class server draws, was 2 % of its drawing
        module = sys.modules.get(self.render) or importlib.import_module(self.render)
        found: Callable[..., str] | None = getattr(module, function, None)
        return found

    def knowledge_panel(self) -> Callable[..., str] | None:
        """The game's `knowledge_html(view_or_state, language)`, if it declares one (imported here, at first use)."""
        if self.knowledge is None:
            return None
        assert isinstance(self.knowledge, str)
        panel: Callable[..., str] = resolve(self.knowledge)
        return panel

    def posteriors_at(self, state: GameState[Any]) -> dict[int, dict[str, float]]:
        """What the table can infer at `state` (`posteriors`): seat -> hidden value -> probability."""
        if self.posteriors is None:
            raise PluginError(f"{self.title} declares no posteriors (GamePlugin.posteriors): it has no exact "
                              "inference to show.")
        assert isinstance(self.posteriors, str)
        found = resolve(self.posteriors)(state)
        return {seat: dict(values) for seat, values in found.items()}

    def belief_model(self) -> Any | None:
        """The game's belief model (`beliefs`), imported at first use; None when the game asks no beliefs."""
        if self.beliefs is None:
            return None
        assert isinstance(self.beliefs, str)
        return resolve(self.beliefs)


# ------------------------------------------------------------------------------------------ discovery

_installed: dict[str, GamePlugin] | None = None
_registered: dict[str, GamePlugin] = {}
_index: dict[str, GamePlugin] | None = None  # `find_game`'s: every game by name and by module, checked at each hit


def _discover() -> dict[str, GamePlugin]:
    """The games of the installed entry points; a broken one is skipped with a `PluginWarning`."""
    found: dict[str, GamePlugin] = {}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: (p.name, p.value)):
        try:
            plugin = point.load()
        except Exception as error:  # noqa: BLE001 - one broken package must not hide the other games
            warnings.warn(f"The game entry point {point.name} = {point.value!r} could not be loaded: "
                          f"{type(error).__name__}: {error}", PluginWarning, stacklevel=3)
            continue
        problem = _conflict(point.name, plugin, found)
        if problem:
            warnings.warn(f"The game entry point {point.name} = {point.value!r} is skipped: {problem}",
                          PluginWarning, stacklevel=3)
            continue
        found[plugin.name] = plugin
    return found


def _conflict(name: str, plugin: Any, known: Mapping[str, GamePlugin]) -> str:
    """Why `plugin` cannot join `known` under `name` (empty when it can)."""
    if not isinstance(plugin, GamePlugin):
        return f"it is a {type(plugin).__name__}, not a GamePlugin."
    if plugin.name != name:
        return f"the entry point's name must be the game's name, {plugin.name!r}."
    other = known.get(plugin.name) or next((p for p in known.values() if p.module == plugin.module), None)
    if other is not None and other != plugin:
        return f"{other.name} ({other.module}) is already installed under that name or module."
    return ""


def games() -> dict[str, GamePlugin]:
    """Every game, by short name, sorted: the installed ones (entry points, read once) and the registered."""
    global _installed
    if _installed is None:
        _installed = _discover()
    return dict(sorted({**_installed, **_registered}.items()))


def find_game(name: str) -> GamePlugin | None:
    """The game with this short name ("peek") or module ("tabletop_edu.examples.peek"), or None. Looked up in an
    index of both, made again when what it finds is no longer the game of that name: a class server asks by module
    at every table it draws, and sorting every game for it was 2 % of its work."""
    global _index
    if _index is not None and _installed is not None:
        found = _index.get(name)
        if found is not None and (_registered.get(found.name) or _installed.get(found.name)) is found:
            return found
    known = games()
    _index = {**{plugin.module: plugin for plugin in known.values()}, **known}
    return _index.get(name)


def state_class_of(name: str) -> type[GameState[Any]] | None:
    """The state class of the game with this short name or module, None if there is none: how the core finds
    the game a record names (`core.hooks`, connected by `tabletop_edu/__init__.py`)."""
    plugin = find_game(name)
    return None if plugin is None else plugin.state_class()


def game(name: str | GamePlugin) -> GamePlugin:
    """The game with this short name or module; `UnknownGame` (a ValueError) lists the installed ones."""
    if isinstance(name, GamePlugin):
        return name
    plugin = find_game(name) if isinstance(name, str) else None
    if plugin is None:
        known = ", ".join(games()) or "none: reinstall tabletop_edu (pip install -e .) to register its games"
        raise UnknownGame(f"There is no game {str(name)[:80]!r}; installed games: {known}.")
    return plugin


def register(plugin: GamePlugin) -> GamePlugin:
    """Add a game in this process (a game written in a notebook); installed packages use entry points.

    Registering a game of the same name again replaces it; an installed game cannot be shadowed. Worker
    processes see a registered game only if they are forked from this one; installed games are seen by all."""
    games()
    assert _installed is not None
    known = {**_installed, **{name: other for name, other in _registered.items() if name != plugin.name}}
    problem = _conflict(getattr(plugin, "name", ""), plugin, known)
    if problem:
        raise PluginError(f"Cannot register {plugin!r}: {problem}")
    _registered[plugin.name] = plugin
    return plugin


def unregister(name: str) -> None:
    """Remove a game added with `register` (installed games stay)."""
    _registered.pop(name, None)


def refresh() -> None:
    """Read the entry points again (after a `pip install` in a running kernel)."""
    global _installed
    _installed = None


# ------------------------------------------------------------------------------------------ bots as data


@dataclass(frozen=True)
class BotSpec:
    """A bot as picklable data: a factory ("module:attribute") and its keyword arguments, or an instance.

    Instances are deep-copied for every game so that no state leaks from one game to the next.
    """

    label: str
    factory: str | None = None
    kwargs: tuple[tuple[str, Any], ...] = ()
    instance: Any = None

    def build(self) -> Bot:
        if self.instance is not None:
            return copy.deepcopy(self.instance)
        assert self.factory is not None
        bot: Bot = resolve(self.factory)(**dict(self.kwargs))
        return bot


_CALL = re.compile(r"^\s*([\w.\-]+)\s*(?:\((.*)\))?\s*$")


def bot_spec(game_name: str, bot: str | Bot | BotSpec) -> BotSpec:
    """A `BotSpec` from a bot name of the game ("greedy", "ismcts(iterations=50)"), a spec or an instance."""
    if isinstance(bot, BotSpec):
        return bot
    if not isinstance(bot, str):
        return BotSpec(label=str(getattr(bot, "name", type(bot).__name__)), instance=bot)
    plugin = game(game_name)
    known = plugin.bot_factories()
    match = _CALL.match(bot)
    if match is None or match.group(1) not in known:
        raise ValueError(f"Unknown bot {bot[:80]!r} for {plugin.name}; choose from: {', '.join(sorted(known))}.")
    kwargs: dict[str, Any] = {}
    if match.group(2):
        try:
            call = ast.parse(f"f({match.group(2)})", mode="eval").body
            assert isinstance(call, ast.Call) and not call.args
            kwargs = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords if keyword.arg}
        except (SyntaxError, ValueError, AssertionError):
            raise ValueError(f"Bot options are written name(option=value, ...) with plain values, not "
                             f"{bot[:80]!r}.") from None
    return BotSpec(label=bot.strip(), factory=known[match.group(1)], kwargs=tuple(sorted(kwargs.items())))



__all__ = ["ENTRY_POINT_GROUP", "GENERIC_BOTS", "BotSpec", "GamePlugin", "PluginError", "PluginWarning",
           "UnknownGame", "bot_spec", "find_game", "game", "games", "refresh", "register", "reference", "resolve",
           "state_class_of", "unregister"]
