"""Every tutorial is stored executed: nbval only compares outputs that exist, so a code cell that was never
run would pass it while testing nothing. This test closes that gap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def never_executed(path: Path) -> list[int]:
    """Indexes of the code cells of a notebook that hold code but were never executed."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [index for index, cell in enumerate(cells)
            if cell["cell_type"] == "code" and "".join(cell["source"]).strip() and cell.get("execution_count") is None]


def all_notebooks() -> list[Path]:
    return sorted(path for path in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts)


def test_there_are_tutorials() -> None:
    assert NOTEBOOKS.joinpath("00_welcome.ipynb") in all_notebooks()


@pytest.mark.parametrize("path", all_notebooks(), ids=lambda path: str(path.relative_to(NOTEBOOKS)))
def test_every_code_cell_is_stored_executed(path: Path) -> None:
    missing = never_executed(path)
    assert not missing, f"{path.name}: code cells {missing} were never executed; run the notebook and save it"


def test_the_check_catches_an_unexecuted_cell(tmp_path: Path) -> None:
    notebook = {"cells": [{"cell_type": "markdown", "source": ["# Hi"], "metadata": {}},
                          {"cell_type": "code", "source": ["1 + 1"], "execution_count": None, "outputs": [],
                           "metadata": {}},
                          {"cell_type": "code", "source": ["2 + 2"], "execution_count": 1, "outputs": [],
                           "metadata": {}}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "lazy.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert never_executed(path) == [1]
