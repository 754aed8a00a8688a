"""What nbval cannot see in the stored tutorials.

nbval re-runs every notebook and compares the text outputs, but it compares only outputs that exist and it
ignores pictures. So a code cell that was never run would pass while testing nothing, and a drawing that a
fresh kernel shows as the text `<Figure size 600x600 with 1 Axes>` would pass too (the text is stored and
compared like any other). These checks close both gaps, on every notebook under `notebooks/`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

#: Calls that draw: our `draw_*` functions, `plot` / `plot_*` methods, and making a matplotlib figure.
DRAWING_CALL = re.compile(r"(draw|plot)(_\w+)?|Figure|subplots|imshow")
PICTURES = ("image/png", "image/svg+xml")
#: A figure shown as its text: what a fresh kernel prints for a figure it does not know how to draw.
FIGURE_AS_TEXT = re.compile(r"<(matplotlib\.figure\.)?Figure( size \d+(\.\d+)?x\d+(\.\d+)?| at 0x)")
#: Magics that make pictures appear only where they were typed: the package's drawings must not need them.
CRUTCH = re.compile(r"^\s*%matplotlib|matplotlib\.use\(|^\s*%pylab", re.MULTILINE)
#: Notebooks other engineers still own that use a crutch, with what they need (strict: fixed means remove it).
CRUTCHES_OWNED_ELSEWHERE: dict[str, str] = {}  # notebook -> why it still sets matplotlib up by hand


def all_notebooks() -> list[Path]:
    return sorted(path for path in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts)


def code_cells(path: Path) -> list[tuple[int, dict[str, Any]]]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(index, cell) for index, cell in enumerate(cells) if cell["cell_type"] == "code"]


def source(cell: dict[str, Any]) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


def never_executed(path: Path) -> list[int]:
    """Indexes of the code cells of a notebook that hold code but were never executed."""
    return [index for index, cell in code_cells(path) if source(cell).strip() and cell.get("execution_count") is None]


# ------------------------------------------------------------------------------------------ pictures


def _called_name(call: ast.Call) -> str | None:
    function = call.func
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return None


def _calls(nodes: Iterable[ast.AST]) -> list[str]:
    """Names called in `nodes`, outside any function or class body (defining a drawing draws nothing)."""
    names = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Call) and (name := _called_name(node)):
            names.append(name)
        stack.extend(ast.iter_child_nodes(node))
    return names


def _python(code: str) -> ast.Module | None:
    """The cell's code as Python (lines starting with % or ! are IPython's, not Python's), or None."""
    lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in code.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def drawing_cells(path: Path) -> list[int]:
    """Indexes of the code cells that draw: they call a drawing function, or a function the notebook defined
    earlier whose body draws (so a helper such as `show_bids(...)` counts as well)."""
    drawers: set[str] = set()
    drawing = []
    for index, cell in code_cells(path):
        tree = _python(source(cell))
        if tree is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body_calls = _calls(node.body)
                if any(DRAWING_CALL.fullmatch(name) or name in drawers for name in body_calls):
                    drawers.add(node.name)
        if any(DRAWING_CALL.fullmatch(name) or name in drawers for name in _calls(tree.body)):
            drawing.append(index)
    return drawing


def has_picture(cell: dict[str, Any]) -> bool:
    return any(kind in output.get("data", {}) for output in cell.get("outputs", []) for kind in PICTURES)


def figures_as_text(path: Path) -> list[int]:
    """Indexes of the cells with an output that shows a figure as its text and not as a picture."""
    found = []
    for index, cell in code_cells(path):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            text = output.get("text") or data.get("text/plain") or ""
            text = text if isinstance(text, str) else "".join(text)
            if FIGURE_AS_TEXT.search(text) and not any(kind in data for kind in PICTURES):
                found.append(index)
    return found


def missing_pictures(path: Path) -> list[int]:
    """Indexes of the cells that draw but have no picture stored, or that store a figure as text."""
    return sorted({index for index, cell in code_cells(path) if index in drawing_cells(path) and not has_picture(cell)}
                  | set(figures_as_text(path)))


def crutches(path: Path) -> list[int]:
    return [index for index, cell in code_cells(path) if CRUTCH.search(source(cell))]


# ------------------------------------------------------------------------------------------ the tests

NOTEBOOK_IDS = {"ids": lambda path: str(path.relative_to(NOTEBOOKS))}


def test_there_are_tutorials() -> None:
    assert NOTEBOOKS.joinpath("00_welcome.ipynb") in all_notebooks()


@pytest.mark.parametrize("path", all_notebooks(), **NOTEBOOK_IDS)
def test_every_code_cell_is_stored_executed(path: Path) -> None:
    missing = never_executed(path)
    assert not missing, f"{path.name}: code cells {missing} were never executed; run the notebook and save it"


@pytest.mark.parametrize("path", all_notebooks(), **NOTEBOOK_IDS)
def test_every_drawing_is_stored_as_a_picture(path: Path) -> None:
    missing = missing_pictures(path)
    assert not missing, (f"{path.name}: cells {missing} draw, but hold no picture (image/png or image/svg+xml): "
                         f"return a figure that draws itself (tabletop_edu.knowledge.Figure), run the notebook "
                         f"in a fresh kernel and save it")


@pytest.mark.parametrize("path", [pytest.param(path, marks=pytest.mark.xfail(
    reason=CRUTCHES_OWNED_ELSEWHERE[str(path.relative_to(NOTEBOOKS))], strict=True))
    if str(path.relative_to(NOTEBOOKS)) in CRUTCHES_OWNED_ELSEWHERE else path for path in all_notebooks()],
    **NOTEBOOK_IDS)
def test_pictures_need_no_magic(path: Path) -> None:
    found = crutches(path)
    assert not found, (f"{path.name}: cells {found} set up matplotlib by hand (%matplotlib, matplotlib.use): a "
                       f"fresh kernel must show every drawing without it")


def wide_svgs(path: Path, column: int) -> list[tuple[int, float]]:
    """(cell, width) of each stored SVG wider than `column` pixels: JupyterLab shows an SVG at its own width,
    never scaled down, so the part past the column is hidden behind a sideways scroll."""
    found = []
    for index, cell in code_cells(path):
        for output in cell.get("outputs", []):
            svg = output.get("data", {}).get("image/svg+xml")
            width = re.search(r'<svg[^>]*\bwidth="([\d.]+)"', source({"source": svg})) if svg else None
            if width and float(width.group(1)) > column:
                found.append((index, float(width.group(1))))
    return found


@pytest.mark.parametrize("path", all_notebooks(), **NOTEBOOK_IDS)
def test_svg_pictures_fit_the_notebook_column(path: Path) -> None:
    from tabletop_edu.knowledge.layout import NOTEBOOK_COLUMN
    assert not wide_svgs(path, NOTEBOOK_COLUMN), f"{path.name}: SVGs wider than the {NOTEBOOK_COLUMN}-px column"


def readme_tutorials(readme: str) -> set[Path]:
    """The notebooks the README's tutorial table names: `folder/name`, and in brackets its other-language twin
    in the same folder (`commissario/02_game_theory` (`02_theorie_des_jeux`)); `<game>` stands for every one."""
    named: set[Path] = set()
    for line in readme.splitlines():
        if not line.startswith("| `"):
            continue
        folder = ""
        for bracket, name in re.findall(r"(\(?)`([^`]+)`", line.split(" | ")[0]):
            if not bracket:
                folder = name.rpartition("/")[0]
            path = "/".join(filter(None, [folder, name.rpartition("/")[2].removesuffix(".ipynb") + ".ipynb"]))
            named.update(NOTEBOOKS.glob(path.replace("<game>", "*")) if "<game>" in path else [NOTEBOOKS / path])
    return named


def test_the_readme_lists_every_tutorial_in_both_languages() -> None:
    listed = readme_tutorials((NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8"))
    assert sorted(map(str, set(all_notebooks()) - listed)) == [], "notebooks missing from the README's table"
    assert sorted(map(str, listed - set(all_notebooks()))) == [], "the README's table names notebooks that do not exist"


# ------------------------------------------------------------------------------------------ the checks can fail


def _notebook(tmp_path: Path, *cells: dict[str, Any]) -> Path:
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps({"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}),
                    encoding="utf-8")
    return path


def _code(text: str, *outputs: dict[str, Any], count: int | None = 1) -> dict[str, Any]:
    return {"cell_type": "code", "source": text, "execution_count": count, "outputs": list(outputs), "metadata": {}}


def _result(**data: str) -> dict[str, Any]:
    return {"output_type": "execute_result", "execution_count": 1, "metadata": {},
            "data": {kind.replace("_", "/", 1).replace("_", "+"): value for kind, value in data.items()}}


FIGURE_TEXT = "<Figure size 600x600 with 1 Axes>"


def test_the_check_catches_an_unexecuted_cell(tmp_path: Path) -> None:
    path = _notebook(tmp_path, {"cell_type": "markdown", "source": ["# Hi"], "metadata": {}},
                     _code("1 + 1", count=None), _code("2 + 2"))
    assert never_executed(path) == [1]


def test_the_check_catches_a_drawing_without_a_picture(tmp_path: Path) -> None:
    path = _notebook(tmp_path,
                     _code("from tabletop_edu.knowledge import draw_worlds"),            # 0: no call
                     _code("draw_worlds(model)", _result(text_plain=FIGURE_TEXT)),       # 1: figure as text
                     _code("draw_worlds(model)", _result(text_plain=FIGURE_TEXT, image_png="iVBOR")),  # 2: fine
                     _code("figure = draw_worlds(model)"),                               # 3: drawn, never shown
                     _code("def show(bids):\n    return Figure(figsize=(3, 3))"),        # 4: a definition only
                     _code("show([1, 2])"),                                              # 5: a helper that draws
                     _code("show([1, 2])", _result(image_svg_xml="<svg/>")),             # 6: fine
                     _code("result.plot()", {"output_type": "stream", "name": "stdout",
                                             "text": "<matplotlib.figure.Figure at 0x7f00aa00bb00>"}),  # 7
                     _code("print('<b>no figure</b>')", {"output_type": "stream", "name": "stdout",
                                                         "text": "<b>no figure</b>"}),   # 8: text, no drawing
                     _code("%matplotlib inline\nplot_bids()"),                           # 9: IPython syntax too
                     _code("print(FIGURE)", {"output_type": "stream", "name": "stdout", "text": FIGURE_TEXT}))  # 10
    assert drawing_cells(path) == [1, 2, 3, 5, 6, 7, 9]
    assert figures_as_text(path) == [1, 7, 10]
    assert missing_pictures(path) == [1, 3, 5, 7, 9, 10]


def test_the_check_catches_a_crutch(tmp_path: Path) -> None:
    path = _notebook(tmp_path, _code("%matplotlib inline\nx = 1"), _code("import matplotlib\nmatplotlib.use('Agg')"),
                     _code("figure = Figure()  # no magic here"))
    assert crutches(path) == [0, 1]


def test_an_svg_wider_than_the_column_is_caught(tmp_path: Path) -> None:
    wide = {"output_type": "display_data", "metadata": {},
            "data": {"image/svg+xml": '<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="90"></svg>',
                     "text/plain": "<tree>"}}
    narrow = {**wide, "data": {**wide["data"], "image/svg+xml": '<svg width="848" height="90"></svg>'}}
    assert wide_svgs(_notebook(tmp_path, _code("tree", wide), _code("tree", narrow)), 848) == [(0, 1280.0)]
