"""The pieces of `make site` (site/build.py) that decide what goes in the site, without building it: the lock
file's closure, the site's copies of the tutorials. tests/browser/test_site.py builds and opens the real site."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("site_build", ROOT / "site" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = load_build()


def test_the_lock_closure_follows_depends_whatever_the_spelling() -> None:
    packages = {"ipython": {"depends": ["prompt_toolkit", "Pygments"]}, "prompt-toolkit": {"depends": ["wcwidth"]},
                "pygments": {"depends": []}, "wcwidth": {"depends": []}, "numpy": {"depends": []}}
    assert build.lock_closure(packages, ["IPython"]) == ["ipython", "prompt-toolkit", "pygments", "wcwidth"]


def test_a_package_missing_from_the_lock_stops_the_build_by_name() -> None:
    with pytest.raises(SystemExit, match="no package 'wcwidth'"):
        build.lock_closure({"prompt-toolkit": {"depends": ["wcwidth"]}}, ["prompt_toolkit"])


def test_the_site_holds_the_welcome_and_every_play_tutorial_in_both_languages() -> None:
    games = ("commissario", "get_adler", "mafia_de_cuba")
    expected = {"00_welcome.ipynb", *(f"{game}/{name}.ipynb" for game in games for name in ("01_play", "01_jouer"))}
    assert set(build.SITE_NOTEBOOKS) == expected
    assert all((ROOT / "notebooks" / path).exists() for path in expected)


@pytest.mark.parametrize("path", ["00_welcome.ipynb", "mafia_de_cuba/01_jouer.ipynb"])
def test_a_site_copy_opens_with_the_install_and_holds_no_output(path: str) -> None:
    source = ROOT / "notebooks" / path
    original = json.loads(source.read_text(encoding="utf-8"))
    copy = build.site_notebook(source, build.SITE_NOTEBOOKS[path])
    install, *cells = copy["cells"]
    assert install["cell_type"] == "code" and "".join(install["source"]).startswith("%pip install tabletop_edu")
    assert ("networkx" in "".join(install["source"])) == (path == "00_welcome.ipynb")
    assert [cell["source"] for cell in cells] == [cell["source"] for cell in original["cells"]]
    assert any(cell.get("outputs") for cell in original["cells"])  # the tutorial stores outputs; the copy does not
    assert all(cell["outputs"] == [] and cell["execution_count"] is None
               for cell in copy["cells"] if cell["cell_type"] == "code")
    assert copy["metadata"]["kernelspec"]["name"] == "python"  # the Pyodide kernel's name in JupyterLite
