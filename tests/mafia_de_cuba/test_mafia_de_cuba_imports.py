"""Issue 22: imports inside the Mafia de Cuba package go one way (function-level imports count), as its
docstring says: rules <- words <- actions <- menus; rules <- _box <- _chain_python, _chain_numpy <- chain <- worlds <- engine
<- inference, bots, render..."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import tabletop_edu.mafia_de_cuba as package

PACKAGE = Path(package.__file__).parent


def package_imports() -> nx.DiGraph:
    """module -> module it imports, for every import statement of the package, at any depth."""
    graph = nx.DiGraph()
    for path in PACKAGE.glob("*.py"):
        graph.add_node(path.stem)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                targets = [node.module] if node.module else [alias.name for alias in node.names]
                graph.add_edges_from((path.stem, target.split(".")[0]) for target in targets)
    return graph


def test_the_package_has_no_import_loop() -> None:
    graph = package_imports()
    assert list(nx.simple_cycles(graph)) == []


def test_the_engine_and_the_chain_sit_below_inference() -> None:
    below = nx.descendants(package_imports(), "engine")
    assert below == {"rules", "words", "actions", "menus", "worlds", "_box", "chain", "_chain_python", "_chain_numpy"}
    assert {"worlds", "chain"} <= nx.descendants(package_imports(), "inference")
    assert "engine" not in nx.descendants(package_imports(), "worlds")
    assert "rules <- _box" in (package.__doc__ or "")
