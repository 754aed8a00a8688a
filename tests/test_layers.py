"""The package's layering, read from its imports: one way down, no loop (the floors are `tabletop_edu.FLOORS`).

Every `import` counts, at any depth: a lazy import inside a function is still an arrow from its file."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

import tabletop_edu
from tabletop_edu import FLOORS, GAME_SHAPE

PACKAGE = Path(tabletop_edu.__file__).parent
TOP = "tabletop_edu"  # the package itself, as the floor table names it


def module_name(path: Path) -> str:
    """"core.state" for tabletop_edu/core/state.py, "core" for its __init__.py, TOP for the package's."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or TOP


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@cache
def game_packages() -> frozenset[str]:
    """The packages holding a game (a `plugin.py` declaring it)."""
    return frozenset(path.parent.name for path in PACKAGE.glob("*/plugin.py"))


def _ours(dotted: str) -> str | None:
    """Our module a dotted name falls in ("tabletop_edu.core.GameState" -> "core"), None for another's."""
    if dotted != TOP and not dotted.startswith(TOP + "."):
        return None
    name = dotted[len(TOP) + 1:]
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or TOP


def imported(name: str) -> set[str]:
    """Our modules `name` imports anywhere in its file (`from . import x` names the module x when it is one)."""
    path = modules()[name]
    absolute = TOP if name == TOP else f"{TOP}.{name}"
    package = absolute if path.name == "__init__.py" else absolute.rpartition(".")[0]
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {_ours(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            found |= {_ours(f"{base}.{alias.name}") for alias in node.names}
    return {module for module in found if module is not None and module != name}


@cache
def graph() -> nx.DiGraph:
    drawn = nx.DiGraph()
    for name in modules():
        drawn.add_node(name)
        drawn.add_edges_from((name, target) for target in imported(name))
    return drawn


@cache
def declared_roles() -> dict[str, str]:
    """A game whose engine or renderer is one file named after it (Peek's `examples.peek`) is placed by what its
    plugin declares that file to be: its `module` is an engine, its `render` a renderer."""
    from tabletop_edu import registry

    roles = {}
    for plugin in registry.games().values():
        for declared, role in ((plugin.module, "engine"), (plugin.render, "render")):
            if declared and declared.startswith(TOP + ".") and "." in declared[len(TOP) + 1:]:
                roles[declared[len(TOP) + 1:]] = role
    return roles


def job_in_game(name: str) -> str | None:
    """The shape job a game package's module does (`tabletop_edu.GAME_SHAPE`): by its name, as the game's
    `ANALYSIS`, by the shape module an `OWN_MODULES` entry stands beside, or by what its plugin declares it."""
    import importlib

    package, _, last = name.rpartition(".") if "." in name else (name, "", "__init__")
    declared = declared_roles().get(name)
    if declared:
        return declared
    game = importlib.import_module(f"{TOP}.{package}")
    if last == getattr(game, "ANALYSIS", None):
        return "analysis"
    beside = getattr(game, "OWN_MODULES", {}).get(last)
    if beside is not None:
        return "analysis" if beside == getattr(game, "ANALYSIS", None) else beside
    return last if last in GAME_SHAPE else None


def floor_of(name: str) -> int | None:
    """The floor of a module: outside the game packages by its first name, inside one by its shape job."""
    first = name.split(".")[0]
    if first in game_packages():
        job = job_in_game(name)
        if job not in GAME_SHAPE:
            return None
        wanted = GAME_SHAPE[job][1]
        return next(index for index, (floor, _) in enumerate(FLOORS) if floor == wanted)
    return next((index for index, (_, names) in enumerate(FLOORS) if first in names), None)


def floor_name(name: str) -> str:
    floor = floor_of(name)
    return "no floor" if floor is None else FLOORS[floor][0]


# ------------------------------------------------------------------------------------------ the reader itself


def test_the_reader_sees_lazy_and_relative_imports() -> None:
    assert {"core.actions", "core.state", "core.view"} <= imported("core.bots") and "core.errors" not in imported(
        "core.bots")
    assert any(name.startswith("pictures") for name in imported("classroom.dashboard"))  # `from ..pictures import ...` in a function
    assert "classroom.games" in imported("classroom.rooms")  # `from . import games`: the module, not the package
    assert "classroom" not in imported("classroom.rooms")
    assert {"commissario", "get_adler", "mafia_de_cuba", "examples"} == game_packages()


# ------------------------------------------------------------------------------------------ no loop


def _cycles_inside(area: str | None) -> list[list[str]]:
    """The import loops among one game package's files (area: its name), or all the others (area None)."""
    found = []
    for cycle in nx.simple_cycles(graph()):
        packages = {name.split(".")[0] for name in cycle}
        inside = len(packages) == 1 and next(iter(packages)) in game_packages()
        if (area is None and not inside) or (inside and packages == {area}):
            found.append(cycle)
    return found


@pytest.mark.parametrize("area", [
    None,
    "commissario",
    "examples",
    "get_adler",
    "mafia_de_cuba",
], ids=lambda area: area or "between packages and generic files")
def test_no_loop_between_files(area: str | None) -> None:
    loops = [" -> ".join([*cycle, cycle[0]]) for cycle in _cycles_inside(area)]
    assert not loops, "import loops:\n" + "\n".join(loops)


# ------------------------------------------------------------------------------------------ the floors


def test_every_module_stands_on_a_floor_and_every_floor_name_places_one() -> None:
    assert [name for name in modules() if floor_of(name) is None] == []
    firsts = {name.split(".")[0] for name in modules() if name.split(".")[0] not in game_packages()}
    assert [key for _, names in FLOORS for key in names if key not in firsts] == []
    assert {floor for _, floor in GAME_SHAPE.values()} <= {floor for floor, _ in FLOORS}


def test_the_core_imports_nothing_of_ours_outside_the_core() -> None:
    outside = {(name, target) for name, target in graph().edges if name.split(".")[0] == "core"
               and target.split(".")[0] != "core"}
    assert outside == set()


def climbing(edges: Iterator[tuple[str, str]] | list[tuple[str, str]]) -> list[str]:
    """The imports among `edges` that go to a higher floor (or touch a module on no floor)."""
    def floor(name: str) -> float:
        found = floor_of(name)
        return float("inf") if found is None else found

    return [f"{name} ({floor_name(name)}) imports {target} ({floor_name(target)})" for name, target in sorted(edges)
            if floor(target) > floor(name) or floor(name) == float("inf")]


def test_every_import_goes_down_or_stays_on_its_floor() -> None:
    upward = climbing(list(graph().edges))
    assert not upward, "imports climbing a floor:\n" + "\n".join(upward)


def test_the_floor_check_catches_a_climbing_import() -> None:
    """The core reaching the registry (as it once did to find renderers) or a game's engine reaching its widget
    is caught; a game's widget reaching the shared widgets, or a bot the tournament, stays on its floor."""
    assert climbing([("core.state", "registry"), ("mafia_de_cuba.engine", "mafia_de_cuba.widget"),
                     ("mafia_de_cuba.widget", "widgets.panels"), ("get_adler.bots", "tournament")]) == [
        "core.state (protocol) imports registry (registry)",
        "mafia_de_cuba.engine (engines) imports mafia_de_cuba.widget (front-ends)"]
    assert [floor_name(name) for name in ("examples.peek", "examples.peek_render", "examples.plugin", TOP)] == [
        "engines", "front-ends", "analysis", "class"]


# ------------------------------------------------------------------------------------------ no game in generic files


def _code_strings(tree: ast.AST) -> Iterator[str]:
    """The string constants of a file's code, its docstrings left out (they may give an example game)."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.value


def _game_words() -> re.Pattern[str]:
    from tabletop_edu import registry

    names = set(game_packages()) | set(registry.games())
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, names))) + r")\b")


def generic_modules() -> list[str]:
    return [name for name in modules() if name.split(".")[0] not in game_packages()]


def test_generic_modules_name_no_game() -> None:
    """Generic files reach a game only through its plugin: they import no game package and no string of their
    code names one (a dispatch on `state.game == ...` or an import by name would)."""
    words = _game_words()
    found = []
    for name in generic_modules():
        found += [f"{name} imports {target}" for target in imported(name) if target.split(".")[0] in game_packages()]
        tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
        found += [f"{name} says {text!r}" for text in _code_strings(tree) if words.search(text)]
    assert not found, "\n".join(found)


def test_the_game_name_check_can_fail() -> None:
    words = _game_words()
    tree = ast.parse('"""Mafia de Cuba, mafia_de_cuba, in a docstring: fine."""\n'
                     'if state.game == "tabletop_edu.mafia_de_cuba":\n    from ..get_adler import widget\n')
    assert [text for text in _code_strings(tree) if words.search(text)] == ["tabletop_edu.mafia_de_cuba"]
    assert "generic" not in "".join(words.findall("a generic examples_of text"))
