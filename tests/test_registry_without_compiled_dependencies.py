"""Playing needs no compiled dependency: every registered game, its bots and its widget run in a process where
importing numpy, scipy, matplotlib, nashpy or pandas fails (as in a Pyodide kernel built from PyPI without
them). Analysis (equilibria, plots, tournament intervals, the RL adapter) imports them when it is used."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

#: Bots that compute with numpy/nashpy by design (a game-theory solver), and so are analysis, not play.
ANALYSIS_BOTS = {("commissario", "equilibrium"), ("commissario", "openspiel-ismcts")}

SCRIPT = textwrap.dedent('''
    import importlib.abc
    import json
    import random
    import sys

    BLOCKED = {"numpy", "scipy", "matplotlib", "nashpy", "pandas"}


    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ImportError(f"{name} is not installed here")
            return None


    sys.meta_path.insert(0, Blocker())

    from tabletop_edu import registry
    from tabletop_edu.ismcts import bind_worlds
    from tabletop_edu.knowledge import Worlds, information_flow
    from tabletop_edu.widgets import GameWidget

    report = {"games": {}, "widgets": {}, "failed_bots": []}
    for name, plugin in registry.games().items():
        for bot_name in plugin.bot_names():  # the bot at seat 0, random play elsewhere, 40 actions at most
            options = {"iterations": 4} if bot_name == "ismcts" else {}
            state = plugin.new_game(seed=1)
            rng = random.Random(0)
            decisions = 0
            try:
                bots = [plugin.make_bot(bot_name, **options)] + [plugin.make_bot("random") for _ in state.players[1:]]
                while not state.is_over and len(state.history) < 40:
                    seat = state.acting_seats[0]
                    bind_worlds(bots[seat], state, seat)
                    state.apply(bots[seat].choose(state.view(seat), state.legal_actions(seat), rng), player=seat)
                    decisions += seat == 0
            except ImportError:
                report["failed_bots"].append([name, bot_name])
                continue
            report["games"].setdefault(name, []).append([bot_name, decisions])
        try:
            widget_module = __import__(f"{plugin.module}.widget", fromlist=["play"])
        except ModuleNotFoundError:
            widget = GameWidget(plugin.new_game(seed=2), bots={1: plugin.make_bot("random")})
        else:
            widget = widget_module.play(seed=2)
        before = len(widget.state.history)
        if widget.action_picker.options:  # a person's move through the widget, then the bots answer
            widget.play(widget.action_picker.options[0])
        report["widgets"][name] = [type(widget).__name__, len(widget.table.value), len(widget.log_panel.value),
                                   len(widget.state.history) - before]
    state = registry.game("peek").new_game(seed=3)
    report["flow_edges"] = information_flow(state).number_of_edges()
    report["worlds_html"] = "<table" in Worlds([1, 2], {"a": lambda w: 0})._repr_html_()
    report["loaded"] = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
    print(json.dumps(report))
''')


def test_every_game_plays_and_shows_its_widget_without_numpy_scipy_or_matplotlib() -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert {tuple(pair) for pair in report["failed_bots"]} == ANALYSIS_BOTS
    from tabletop_edu import registry

    for name, plugin in registry.games().items():
        played = {bot for bot, decisions in report["games"][name] if decisions > 0}
        assert played == set(plugin.bot_names()) - {bot for game, bot in ANALYSIS_BOTS if game == name}
        kind, table, log, moves = report["widgets"][name]
        assert kind == "GameWidget" and table > 200 and log > 0 and moves > 0
    assert report["flow_edges"] > 0 and report["worlds_html"] and report["loaded"] == []
