"""Optional libraries: play imports none of them, and a missing one is one sentence naming its extra."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.extras import EXTRA_OF, MissingExtra, need

ROOT = Path(__file__).resolve().parent.parent
OPTIONAL = sorted(EXTRA_OF)

#: The opening of a script run in a fresh interpreter: the libraries named in argv[1] fail to import (as in a
#: lean install).
BLOCKING = textwrap.dedent('''
    import importlib.abc, json, sys

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    BLOCKED = set(json.loads(sys.argv[1]))
    sys.meta_path.insert(0, Blocker())
''')

#: Play and analysis with the blocked libraries (argv[2]: every optional library, to see which were loaded).
SCRIPT = BLOCKING + textwrap.dedent('''
    OPTIONAL = json.loads(sys.argv[2])
    import io, contextlib
    import tabletop_edu, tabletop_edu.tournament, tabletop_edu.widgets, tabletop_edu.knowledge
    from tabletop_edu import registry, classroom
    from tabletop_edu.__main__ import main
    for plugin in registry.games().values():
        plugin.load_module()
        __import__(plugin.render)
        for name in plugin.bot_factories():
            if name != "openspiel-ismcts":
                plugin.make_bot(name)
    with contextlib.redirect_stdout(io.StringIO()) as listing:
        main(["games"])
    with contextlib.redirect_stdout(io.StringIO()) as table:
        main(["simulate", "mafia_de_cuba", "--games", "2", "--bots", "random"])  # (its search uses numpy if there)
    from tabletop_edu.widgets import GameWidget
    widget = GameWidget(registry.game("peek").new_game(seed=1))
    widget.flow_button.click()  # the information-flow picture, drawn while playing
    loaded = sorted(name for name in OPTIONAL if name in sys.modules)  # by play, the CLI's games, a bot
    messages = {}
    from tabletop_edu.tournament import MetaGame, mean_ci
    from tabletop_edu.knowledge import Worlds
    from tabletop_edu.examples import peek
    from tabletop_edu.classroom.pages import qr_svg
    from tabletop_edu.classroom.export import ClassGames
    state = peek.new_game(3, seed=1)
    attempts = {
        "drawing": lambda: tabletop_edu.knowledge.Figure,  # draw_information_flow is the SVG one here
        "flow graph": lambda: tabletop_edu.knowledge.information_flow(state),
        "worlds graph": lambda: Worlds([0, 1], {"a": lambda world: 0}).to_networkx(),
        "equilibria": lambda: MetaGame(("a", "b"), ((0.5, 0.2), (0.8, 0.5)), 10).equilibria(),
        "class server": lambda: classroom.connect("http://127.0.0.1:8000", "token"),
        "qr code": lambda: qr_svg("http://127.0.0.1:8000/"),
        "dataframe": lambda: ClassGames([]).dataframe(),
        "openspiel": lambda: __import__("tabletop_edu.openspiel"),
        "rl": lambda: __import__("tabletop_edu.pettingzoo_env"),
    }
    for what, attempt in attempts.items():
        try:
            attempt()
        except ImportError as error:
            messages[what] = [type(error).__name__, str(error), error._render_traceback_()]
    print(json.dumps({"loaded": loaded, "flow": widget.flow.value, "table": table.getvalue(),
                      "games": listing.getvalue(), "messages": messages, "interval": mean_ci([1.0, 2.0, 4.0])}))
''')


def run_blocked(blocked: list[str]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(blocked), json.dumps(OPTIONAL)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_play_imports_no_optional_library_even_where_they_are_installed() -> None:
    report = run_blocked([])
    assert report["loaded"] == []
    assert report["messages"] == {}  # installed here: the analysis runs


def test_play_runs_without_any_optional_library_and_analysis_says_what_to_install() -> None:
    report = run_blocked(OPTIONAL)
    assert "mafia_de_cuba: Mafia de Cuba" in report["games"]
    assert "mafia_de_cuba: 2 games" in report["table"] and "95% CI" in report["table"]
    assert "<svg" in report["flow"] and "Information flow" in report["flow"]
    assert report["interval"][1] < report["interval"][0] < report["interval"][2]  # Student's t, no scipy
    assert set(report["messages"]) == {"drawing", "flow graph", "worlds graph", "equilibria", "class server",
                                       "qr code", "dataframe", "openspiel", "rl"}
    for kind, sentence, shown in report["messages"].values():
        assert kind == "MissingExtra"
        assert sentence.count(". ") == 0 and sentence.endswith(".")  # one sentence
        assert shown == [f"MissingExtra: {sentence}"]  # Jupyter shows the sentence, not a traceback
    assert 'pip install "tabletop_edu[analysis]"' in report["messages"]["equilibria"][1]
    assert 'pip install "tabletop_edu[classroom]"' in report["messages"]["class server"][1]
    assert report["messages"]["qr code"][1].startswith("A QR code of a link needs segno")
    assert report["messages"]["openspiel"][1].endswith('pip install "tabletop_edu[openspiel]".')
    assert report["messages"]["rl"][1] == ('The reinforcement-learning adapter needs gymnasium, which is not '
                                           'installed here: pip install "tabletop_edu[rl]".')
    assert 'needs pandas, which is not installed here: pip install "tabletop_edu[analysis]"' in (
        report["messages"]["dataframe"][1])
    assert report["messages"]["drawing"][1].startswith("Drawing knowledge as a picture needs matplotlib")


#: The command line (argv[2:]) with the blocked libraries: its exit status, its output and its errors.
CLI = BLOCKING + textwrap.dedent('''
    import contextlib, io
    from tabletop_edu.__main__ import main
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
        status = main(sys.argv[2:])
    print(json.dumps([status, out.getvalue(), err.getvalue()]))
''')


def cli_without(blocked: list[str], *arguments: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-c", CLI, json.dumps(blocked), *arguments], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    status, out, err = json.loads(done.stdout)
    return status, out, err


def test_a_bot_needing_a_missing_extra_is_refused_before_any_game_and_marked_in_the_listing() -> None:
    status, out, err = cli_without(OPTIONAL, "simulate", "commissario", "--games", "4",
                                   "--bots", "equilibrium,greedy")
    assert (status, out) == (1, "")  # no table of forfeits: refused up front
    assert err == ("Commissario's equilibrium bot needs numpy, which is not installed here: "
                   'pip install "tabletop_edu[analysis]".\n')
    status, out, err = cli_without(["nashpy"], "simulate", "commissario", "--games", "1",
                                   "--bots", "greedy,ismcts(iterations=2, rollout='equilibrium')")
    assert status == 1 and err.startswith("Commissario's equilibrium bot needs nashpy")  # a playout policy too
    status, out, err = cli_without(["pyspiel"], "simulate", "commissario", "--bots", "openspiel-ismcts")
    assert status == 1 and err.endswith('pip install "tabletop_edu[openspiel]".\n')
    status, out, err = cli_without(OPTIONAL, "simulate", "peek", "--dask", "local")
    assert (status, err) == (1, 'Running on a dask cluster (--dask) needs dask, which is not installed here: '
                                'pip install "tabletop_edu[scale]".\n')
    status, listing, _ = cli_without(OPTIONAL, "games")
    assert status == 0 and ("bots: random, greedy, bidder, equilibrium (analysis extra, not installed here), "
                            "lookahead, openspiel-ismcts (openspiel extra, not installed here), ismcts") in listing
    status, listing, _ = cli_without([], "games")
    assert "equilibrium (analysis extra), lookahead, openspiel-ismcts (openspiel extra)" in listing
    assert cli_without(OPTIONAL, "simulate", "peek", "--games", "2", "--bots", "random")[0] == 0


def test_need_returns_the_module_and_names_the_extra_when_it_is_missing() -> None:
    assert need("json", "Reading") is json
    with pytest.raises(MissingExtra, match=r'^Tea needs tabletop_edu_no_such_library, which is not installed '
                                           r'here: pip install "tabletop_edu\[all\]"\.$'):
        need("tabletop_edu_no_such_library", "Tea")


def test_a_broken_library_keeps_its_own_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "half_installed_library.py").write_text("import tabletop_edu_missing_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="tabletop_edu_missing_dependency") as raised:
        need("half_installed_library", "Tea")
    assert not isinstance(raised.value, MissingExtra)
