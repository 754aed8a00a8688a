"""The three games have one shape (`tabletop_edu.GAME_SHAPE`): the same module for the same job in each package, one
analysis module, every further module declared beside a module of the shape, and the plugin pointing at them."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import pytest

import tabletop_edu
from tabletop_edu import GAME_SHAPE, registry

PACKAGE = Path(tabletop_edu.__file__).parent
#: The games written as packages of the shape (Peek, a tiny example, is one file per role: `examples.peek`).
SHAPED = ("commissario", "get_adler", "mafia_de_cuba")


def module_names(package: str) -> set[str]:
    """The modules of a game package, its `__init__` included."""
    return {path.stem for path in (PACKAGE / package).glob("*.py")}


def shape_faults(modules: set[str], analysis: str | None, own: Mapping[str, str]) -> list[str]:
    """What keeps a game package with these modules, this `ANALYSIS` and these `OWN_MODULES` from the shape."""
    faults = [f"no {job} module ({GAME_SHAPE[job][0]})" for job in GAME_SHAPE
              if job != "analysis" and job not in modules]
    if analysis is None or analysis not in modules:
        faults.append(f"its ANALYSIS {analysis!r} is not one of its modules")
    if analysis in GAME_SHAPE:
        faults.append(f"its ANALYSIS {analysis!r} is a module of the shape")
    beside_ok = set(GAME_SHAPE) | {analysis}
    faults += [f"{name} stands beside {beside!r}, no module of the shape" for name, beside in own.items()
               if beside not in beside_ok]
    faults += [f"{name} is declared in OWN_MODULES but missing" for name in own if name not in modules]
    faults += [f"{name} is in OWN_MODULES and in the shape" for name in own if name in GAME_SHAPE]
    faults += [f"{name} is neither in the shape nor declared" for name in sorted(modules)
               if name not in GAME_SHAPE and name != analysis and name not in own]
    return faults


def game(package: str) -> ModuleType:
    return importlib.import_module(f"tabletop_edu.{package}")


@pytest.mark.parametrize("package", SHAPED)
def test_every_game_package_has_the_shape(package: str) -> None:
    module = game(package)
    assert shape_faults(module_names(package), module.ANALYSIS, module.OWN_MODULES) == []


def test_the_three_games_list_the_same_modules_of_the_shape() -> None:
    listed = {package: module_names(package) & set(GAME_SHAPE) for package in SHAPED}
    assert all(modules == set(GAME_SHAPE) - {"analysis"} for modules in listed.values()), listed


def test_the_shape_check_can_fail() -> None:
    whole = set(GAME_SHAPE) - {"analysis"} | {"strategy"}
    assert shape_faults(whole, "strategy", {}) == []
    assert shape_faults(whole - {"words"}, "strategy", {}) == [f"no words module ({GAME_SHAPE['words'][0]})"]
    assert shape_faults(whole | {"extra"}, "strategy", {}) == ["extra is neither in the shape nor declared"]
    assert shape_faults(whole | {"extra"}, "strategy", {"extra": "nowhere"}) == [
        "extra stands beside 'nowhere', no module of the shape"]
    assert shape_faults(whole, "theory", {}) == ["its ANALYSIS 'theory' is not one of its modules",
                                                  "strategy is neither in the shape nor declared"]


@pytest.mark.parametrize("package", SHAPED)
def test_the_plugin_points_at_the_modules_of_the_shape(package: str) -> None:
    """The registry reaches each job in the module the shape gives it: the state in `engine`, the pages in
    `render`, the knowledge panel in `panel`."""
    plugin = next(found for found in registry.games().values() if found.module == f"tabletop_edu.{package}")
    assert game(package).new_game.__module__ == f"tabletop_edu.{package}.engine"
    assert plugin.render == f"tabletop_edu.{package}.render"
    assert plugin.knowledge == f"tabletop_edu.{package}.panel:knowledge_html"
    assert plugin.knowledge_panel() is importlib.import_module(f"tabletop_edu.{package}.panel").knowledge_html


@pytest.mark.parametrize("package", SHAPED)
def test_every_module_of_a_game_states_its_idea_in_its_first_line(package: str) -> None:
    missing = []
    for path in sorted((PACKAGE / package).glob("*.py")):
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if not docstring or not docstring.splitlines()[0].strip():
            missing.append(path.name)
    assert missing == []
