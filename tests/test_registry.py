"""The game registry: games are plugins found through the `tabletop_edu.games` entry point group.

A tiny third-party game ("High card") is installed the way pip installs a package, as a module and a
`*.dist-info` folder holding its `entry_points.txt`, into a temporary folder put on the path; it then shows
up in the CLI, in tournaments (in this process and in worker processes), in the PettingZoo adapter, in
`tabletop_edu.load` and in the widget, without a line of tabletop_edu changed.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import warnings
from html import escape as html_escape
from collections.abc import Iterator
from pathlib import Path

import pytest

import tabletop_edu
from tabletop_edu import registry
from tabletop_edu.registry import GamePlugin, PluginError, PluginWarning, UnknownGame

HIGH_CARD = '''
"""High card: each seat gets a secret card from 1 to 9, then says "stay" or "fold" in turn; the highest card
among those who stayed wins. A teacher's own game, packaged apart from tabletop_edu."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tabletop_edu.core import Action, GameRules, GameState, IllegalAction, View, quote, words
from tabletop_edu.registry import GamePlugin


@dataclass(frozen=True)
class Rules(GameRules):
    """No options."""


@dataclass(frozen=True)
class Stay(Action):
    def __str__(self) -> str:
        return "stay"


@dataclass(frozen=True)
class Fold(Action):
    def __str__(self) -> str:
        return "fold"


def parse_action(text: str) -> Action:
    parts = words(text)
    if parts in (["stay"], ["fold"]):
        return Stay() if parts == ["stay"] else Fold()
    raise IllegalAction(f"{quote(text)} is not a move of High card: write 'stay' or 'fold'.")


class State(GameState[Rules]):
    game = "highcard"
    title = "High card"
    rules_class = Rules
    min_players = 2
    max_players = 4

    def _setup(self) -> None:
        self.cards = self.rng.sample(range(1, 10), len(self.players))
        self.staying: list[int] = []
        self.turn = 0
        self._deal()

    def _deal(self) -> None:
        for seat, card in enumerate(self.cards):
            self.emit("deal", f"{self.players[seat]} gets the {card}.", source="deck", observers=[seat],
                      redacted=f"{self.players[seat]} gets a card.", seat=seat, card=card)

    def _whose_turn(self) -> int | None:
        return self.turn if self.turn < len(self.players) else None

    @property
    def max_steps(self) -> int:
        return len(self.players)

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over or not self.staying:
            return ()
        best = max(self.cards[seat] for seat in self.staying)
        return tuple(seat for seat in self.staying if self.cards[seat] == best)

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        seat = self.current_player if player is None else player
        return [Stay(), Fold()] if seat is not None and seat == self.current_player else []

    def _validate(self, seat: int, action: Action) -> None:
        if not isinstance(action, (Stay, Fold)):
            raise IllegalAction(f"{action} is not a move of High card.")

    def _play(self, seat: int, action: Action) -> None:
        if isinstance(action, Stay):
            self.staying.append(seat)
        self.emit(str(action), f"{self.players[seat]} says {action}.", actor=seat)
        self.turn += 1

    def _facts(self, seat: int | None) -> dict[str, Any]:
        return {"my_card": None if seat is None else self.cards[seat], "staying": list(self.staying)}

    @classmethod
    def world_from_view(cls, view: View, rng: random.Random) -> State:
        world = cls(list(view.players), seed=rng.randrange(2**32), rules=view.rules)
        mine = view.facts["my_card"]
        others = rng.sample([card for card in range(1, 10) if card != mine], len(view.players))
        world.cards = [mine if seat == view.seat else others[seat] for seat in range(len(view.players))]
        world.events = []
        world._deal()
        for event in view.log:
            if event.actor is not None:
                world.apply(event.kind, player=event.actor)
        return world


def new_game(players: int | list[str] = 3, *, seed: int | None = None, rules: Rules | None = None) -> State:
    return State(players, seed=seed, rules=rules)


class Brave:
    """Stays with a 5 or more."""

    name = "brave"

    def choose(self, view: View, legal_actions: list[Action], rng: random.Random) -> Action:
        return Stay() if view.facts["my_card"] >= 5 else Fold()


def catalogue(players: int, rules: Any = None) -> list[Action]:
    return [Stay(), Fold()]


GAME = GamePlugin(name="highcard", module="highcard", title="High card", min_players=2, max_players=4,
                  default_players=3, bots={"brave": Brave}, actions=catalogue)
'''


def install(folder: Path, distribution: str, entry_points: str, modules: dict[str, str]) -> None:
    """What `pip install` leaves behind: the modules, and a dist-info folder naming the entry points."""
    for name, text in modules.items():
        (folder / f"{name}.py").write_text(text)
    info = folder / f"{distribution}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tabletop_edu.games]\n{entry_points}\n")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site-packages")
    install(folder, "highcard", "highcard = highcard:GAME", {"highcard": HIGH_CARD})
    return folder


@pytest.fixture
def installed(site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GamePlugin]:
    """High card installed in this process (the folder on sys.path, the entry points read again)."""
    monkeypatch.syspath_prepend(str(site))
    registry.refresh()
    yield registry.game("highcard")
    monkeypatch.undo()
    sys.modules.pop("highcard", None)
    registry.refresh()


def test_our_games_are_registered_and_agree_with_their_engines() -> None:
    games = registry.games()
    assert list(games) == ["commissario", "get_adler", "mafia_de_cuba", "peek"]
    for plugin in games.values():
        state_class = plugin.state_class()
        assert (state_class.game, state_class.title) == (plugin.module, plugin.title)
        assert (state_class.min_players, state_class.max_players) == (plugin.min_players, plugin.max_players)
        assert registry.find_game(plugin.module) is plugin is registry.game(plugin.name)
        assert {"random", "ismcts"} <= set(plugin.bot_names())
        state = plugin.new_game(seed=0)
        assert len(state.players) == plugin.default_players
        legal = {str(action) for seat in state.acting_seats for action in state.legal_actions(seat)}
        assert legal <= set(plugin.action_catalogue(len(state.players)))


def test_a_pip_installed_game_plays_everywhere_in_this_process(installed: GamePlugin,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop_edu.__main__ import main
    from tabletop_edu.tournament import run_tournament
    from tabletop_edu.widgets import GameWidget

    from tabletop_edu.testing import check_game

    assert installed.title == "High card" and installed.bot_names() == ["brave", "random", "ismcts"]
    check_game(installed.load_module(), players=3, games=3)  # a real game of the protocol
    assert main(["games"]) == 0
    assert "highcard: High card, 2 to 4 players\n  bots: brave, random, ismcts" in capsys.readouterr().out
    result = run_tournament("highcard", ["brave", "random", "ismcts(iterations=4)"], games=6, seed=1)
    assert [row.games for row in result.rows()] == [6, 6, 6] and not result.failures
    assert result.caption() == "highcard: 6 games, 3 players, seed 1"
    state = tabletop_edu.load(result.games[2].record)  # records of the new game load through the registry
    assert type(state).__module__ == "highcard" and state.is_over
    widget = GameWidget(installed.new_game(seed=4), bots={1: installed.make_bot("brave")})
    assert "my_card" in widget.table.value  # the generic rendering of seat 0's view


def test_a_pip_installed_game_is_a_pettingzoo_environment(installed: GamePlugin) -> None:
    pytest.importorskip("pettingzoo", reason="the `rl` extra (pettingzoo, gymnasium) is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pettingzoo.test import api_test
    from tabletop_edu.pettingzoo_env import env, random_steps

    assert env("highcard", 3).unwrapped.catalogue == ["fold", "stay"]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation")
        api_test(env("highcard", 3), num_cycles=20)
    assert random_steps(env("highcard", 4), seed=0, games=3) == 3 * 8  # four moves, then a last step per agent


def test_a_fresh_process_finds_it_in_the_cli_and_its_workers(site: Path) -> None:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "tabletop_edu"]
    listing = subprocess.run(command + ["games"], capture_output=True, text=True, env=environment, check=True)
    assert "highcard: High card, 2 to 4 players" in listing.stdout
    run = subprocess.run(command + ["simulate", "highcard", "--games", "4", "--bots", "brave,random",
                                    "--workers", "2", "--seed", "3"],
                         capture_output=True, text=True, env=environment, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("highcard: 4 games, 3 players, seed 3")
    assert "brave" in run.stdout and "Win rate by seat" in run.stdout


def test_broken_entry_points_are_skipped_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install(tmp_path, "broken_games", "\n".join([
        "crashes = crashing_plugin:GAME",             # importing it raises
        "notaplugin = not_a_plugin:GAME",              # not a GamePlugin
        "misnamed = misnamed_plugin:GAME",             # the entry point's name differs from the game's
        "thief = thief_plugin:GAME",                    # claims a module another game has
    ]), {
        "crashing_plugin": "raise RuntimeError('this package is broken')",
        "not_a_plugin": "GAME = 'commissario'",
        "misnamed_plugin": HIGH_CARD,
        "thief_plugin": "from tabletop_edu.registry import GamePlugin\n"
                        "GAME = GamePlugin(name='thief', module='tabletop_edu.commissario', title='T', "
                        "min_players=2, max_players=5)",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.refresh()
    try:
        with pytest.warns(PluginWarning) as caught:
            games = registry.games()
        messages = "\n".join(str(warning.message) for warning in caught)
        assert "RuntimeError: this package is broken" in messages
        assert "a str, not a GamePlugin" in messages
        assert "the entry point's name must be the game's name, 'highcard'" in messages
        assert "commissario (tabletop_edu.commissario) is already installed" in messages
        assert list(games) == ["commissario", "get_adler", "mafia_de_cuba", "peek"]
    finally:
        monkeypatch.undo()
        for module in ("crashing_plugin", "not_a_plugin", "misnamed_plugin", "thief_plugin"):
            sys.modules.pop(module, None)
        registry.refresh()


def lambda_free_bot() -> None:
    """A module-level factory: nameable."""


def test_declarations_are_checked() -> None:
    base = dict(name="toy", module="toy", title="Toy", min_players=2, max_players=4)
    assert GamePlugin(**base, bots={"b": lambda_free_bot}).bots == {"b": f"{__name__}:lambda_free_bot"}
    assert GamePlugin(**base).default_players == 2
    bad = [
        ({"name": "Toy Game"}, "lower-case"),
        ({"module": "toy-game"}, "dotted module name"),
        ({"min_players": 0}, "not a range"),
        ({"max_players": 1}, "not a range"),
        ({"min_players": True}, "not a range"),
        ({"default_players": 5}, "outside 2 to 4"),
        ({"bots": {"fast": lambda: None}}, "cannot be found again by name"),
        ({"bots": {"fast": "no reference"}}, "not a 'module:attribute'"),
        ({"bots": {"two words": "a:b"}}, "not a bot name"),
        ({"bots": ["random"]}, "a mapping"),
        ({"actions": 42}, "neither"),
        ({"render": "a render"}, "render is a module name"),
        ({"bot_needs": {"fast": ("numpy",)}}, "not one of its bots"),
        ({"bot_needs": {"random": "numpy"}}, "a tuple of module names"),
        ({"bot_needs": ("numpy",)}, "maps bot names"),
    ]
    for change, message in bad:
        with pytest.raises(PluginError, match=message):
            GamePlugin(**{**base, **change})  # type: ignore[arg-type]


def test_a_bot_says_which_extra_it_needs_without_being_imported() -> None:
    toy = GamePlugin(name="toy", module="toy", title="Toy", min_players=2, max_players=4,
                     bots={"solver": "toy.bots:Solver"},
                     bot_needs={"solver": ("numpy", "tabletop_edu_no_such_library"), "random": ("json",)})
    assert toy.bot_extras("solver") == ["analysis", "all"] and toy.bot_extras("ismcts") == []
    assert toy.bot_missing("random") is None and toy.bot_missing("ismcts") is None
    missing = toy.bot_missing("solver")  # numpy is installed here: the next library is the missing one
    assert missing is not None and str(missing) == ("Toy's solver bot needs tabletop_edu_no_such_library, which is "
                                                    'not installed here: pip install "tabletop_edu[all]".')
    assert registry.game("commissario").bot_extras("equilibrium") == ["analysis"]


def test_an_unknown_game_is_a_clear_error_everywhere() -> None:
    from tabletop_edu.tournament import run_tournament

    with pytest.raises(UnknownGame, match="no game 'chess'; installed games: commissario, get_adler"):
        registry.game("chess")
    with pytest.raises(ValueError, match="no game 'chess'"):
        run_tournament("chess", ["random"], games=1)
    record = {"format": 1, "game": "chess", "players": ["a", "b"], "seed": 1, "rules": {}, "actions": []}
    with pytest.raises(tabletop_edu.RecordError, match="there is no game 'chess'"):
        tabletop_edu.load(record)
    with pytest.raises(tabletop_edu.RecordError, match="there is no game 'os'"):  # no import by name
        tabletop_edu.load({**record, "game": "os"})
    with pytest.raises(ValueError, match="no game 'chess'"):
        from tabletop_edu.pettingzoo_env import TabletopEnv
        TabletopEnv("chess", 2)
    with pytest.raises(ValueError, match="Unknown bot 'grandmaster' for peek; choose from: ismcts, random"):
        registry.game("peek").make_bot("grandmaster")


def test_a_game_written_in_a_notebook_joins_with_register() -> None:
    from tabletop_edu.tournament import run_tournament

    copy = GamePlugin(name="peek_again", module="tabletop_edu.examples.peek", title="Peek", min_players=2,
                      max_players=4)
    with pytest.raises(PluginError, match="peek .tabletop_edu.examples.peek. is already installed"):
        registry.register(copy)  # one module, one game
    with pytest.raises(PluginError, match="not a GamePlugin"):
        registry.register("peek")  # type: ignore[arg-type]
    mine = GamePlugin(name="my_peek", module="notebook_peek", title="My Peek", min_players=2, max_players=4)
    import types

    from tabletop_edu.examples import peek
    module = types.ModuleType("notebook_peek")
    module.State = type("State", (peek.PeekState,), {"game": "notebook_peek"})  # type: ignore[attr-defined]
    module.new_game = lambda players, *, seed=None, rules=None: module.State(players, seed=seed, rules=rules)  # type: ignore[attr-defined]
    sys.modules["notebook_peek"] = module
    try:
        assert registry.register(mine) is mine and registry.game("notebook_peek") is mine
        result = run_tournament("my_peek", ["random"], players=2, games=2, seed=0)
        assert tabletop_edu.load(result.games[0].record).game == "notebook_peek"
    finally:
        registry.unregister("my_peek")
        sys.modules.pop("notebook_peek", None)
    assert registry.find_game("my_peek") is None


def fresh_python(code: str) -> str:
    """What `code` prints in a new Python process (a fresh kernel: nothing imported yet)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_the_core_imports_no_game() -> None:
    out = fresh_python("import sys, tabletop_edu, tabletop_edu.core, tabletop_edu.registry; "
                       "print(sorted(m for m in sys.modules if m.startswith('tabletop_edu.') and "
                       "m.split('.')[1] in ('commissario', 'get_adler', 'mafia_de_cuba', 'examples')))")
    assert out.strip() == "[]"


def test_a_game_declares_its_knowledge_panel_and_posteriors_by_name() -> None:
    """The class server's dashboard and debrief ask the plugin, never a module found by convention."""
    from tabletop_edu.commissario.panel import knowledge_html as commissario_panel
    from tabletop_edu.get_adler.panel import knowledge_html as get_adler_panel
    from tabletop_edu.mafia_de_cuba import new_game
    from tabletop_edu.mafia_de_cuba.panel import knowledge_html as mafia_panel
    from tabletop_edu.mafia_de_cuba.panel import perspective_posterior

    panels = {name: plugin.knowledge_panel() for name, plugin in registry.games().items()}
    assert panels == {"commissario": commissario_panel, "get_adler": get_adler_panel,
                      "mafia_de_cuba": mafia_panel, "peek": None}
    state = new_game(6, seed=3)
    while state.current_player is not None and len(state.history) < 8:
        seat = state.acting_seats[0]  # the floor is simultaneous: name the seat
        state.apply(state.legal_actions(seat)[0], player=seat)
    found = registry.game("mafia_de_cuba").posteriors_at(state)
    expected = perspective_posterior(state.view(state.godfather), state.rules)
    assert expected is not None and found
    assert found == {seat: expected.role_probabilities(seat) for kind, seat in expected.observation.steps
                     if kind == "take"}
    assert all(abs(sum(roles.values()) - 1) < 1e-9 for roles in found.values())
    peek = registry.game("peek")
    with pytest.raises(PluginError, match="Peek declares no posteriors"):
        peek.posteriors_at(peek.new_game(2, seed=1))
    base = dict(name="toy", module="toy", title="Toy", min_players=2, max_players=4)
    assert GamePlugin(**base, knowledge=lambda_free_bot).knowledge == f"{__name__}:lambda_free_bot"
    for hook in ("knowledge", "posteriors"):
        with pytest.raises(PluginError, match=f"toy {hook}: 'a panel' is not a 'module:attribute'"):
            GamePlugin(**base, **{hook: "a panel"})  # type: ignore[arg-type]
        with pytest.raises(PluginError, match="cannot be found again by name"):
            GamePlugin(**base, **{hook: lambda subject: ""})  # type: ignore[arg-type]


def test_listing_games_imports_no_widget_and_a_fresh_kernel_draws_states_and_views() -> None:
    out = fresh_python("import sys; from tabletop_edu import registry; games = registry.games(); "
                       "print(sorted(m for m in sys.modules if m.split('.')[-1] in ('widget', 'render', 'rendering') "
                       "or (m.endswith('.bots') and m != 'tabletop_edu.core.bots') or m in ('ipywidgets', 'jinja2')))")
    assert out.strip() == "[]"
    for opening in ("import tabletop_edu.commissario as game", "from tabletop_edu import mafia_de_cuba as game"):
        pages = fresh_python(f"{opening}; state = game.new_game(6 if 'mafia' in game.__name__ else 3, seed=1); "
                             "print(state._repr_html_()); print(state.view(1)._repr_html_())")
        assert "tt-perspective-teacher tabletop-state" in pages, opening  # the game's own renderer, both times
        assert "tt-perspective-seat tabletop-view" in pages, opening


def test_the_core_hooks_fall_back_to_text_until_connected(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabletop_edu.core import hooks

    monkeypatch.setattr(hooks, "_html", hooks._plain_html)
    monkeypatch.setattr(hooks, "_state_class", hooks._no_game)
    state = registry.game("peek").new_game(2, seed=1)
    assert state._repr_html_() == f"<pre>{html_escape(str(state))}</pre>"
    with pytest.raises(tabletop_edu.RecordError, match="there is no game 'tabletop_edu.examples.peek'"):
        tabletop_edu.load(state.to_json())


def test_a_game_replaced_since_the_last_look_up_is_found_as_it_is_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """`find_game` keeps an index; a game replaced under its name since (as tests give Peek a belief model) is found
    as it is now, by its name and by its module."""
    plugin = registry.find_game("peek")
    assert plugin is not None and registry.find_game(plugin.module) is plugin
    assert registry._installed is not None
    replaced = dataclasses.replace(plugin, title="Peek, again")
    monkeypatch.setitem(registry._installed, "peek", replaced)
    assert registry.find_game("peek") is replaced and registry.find_game(plugin.module) is replaced
    monkeypatch.undo()
    assert registry.find_game(plugin.module) is plugin
