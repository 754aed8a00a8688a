"""The pieces of `make site` (site/build.py) that decide what goes in the site, without building it: the lock
file's closure, the site's copies of the tutorials. tests/browser/test_site.py builds and opens the real site."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from tabletop_edu.extras import MissingExtra

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
    title, install, storage, *cells = copy["cells"]
    assert title["source"][0] == original["cells"][0]["source"][0]  # the title first, as the tutorial opens
    assert install["cell_type"] == "code" and "".join(install["source"]).startswith("%pip install tabletop_edu")
    assert ("networkx" in "".join(install["source"])) == (path == "00_welcome.ipynb")
    assert storage["cell_type"] == "markdown" and "Save Notebook As" in "".join(storage["source"])
    assert [cell["source"] for cell in cells if cell["cell_type"] == "code"] == [
        cell["source"] for cell in original["cells"][1:] if cell["cell_type"] == "code"]
    assert any(cell.get("outputs") for cell in original["cells"])  # the tutorial stores outputs; the copy does not
    assert all(cell["outputs"] == [] and cell["execution_count"] is None
               for cell in copy["cells"] if cell["cell_type"] == "code")
    assert copy["metadata"]["kernelspec"]["name"] == "python"  # the Pyodide kernel's name in JupyterLite


def site_copies() -> dict[str, dict]:
    return {path: build.site_notebook(ROOT / "notebooks" / path, also) for path, also in build.SITE_NOTEBOOKS.items()}


def test_the_site_copies_hold_no_saved_widget_state() -> None:
    for path, copy in site_copies().items():
        assert "widgets" not in copy["metadata"] and all("widgets" not in cell["metadata"] for cell in copy["cells"])
        assert len(json.dumps(copy)) < 40_000, path  # the lesson's text and code only, not a played table's state


def test_every_relative_link_of_the_site_resolves_inside_the_site() -> None:
    held = {*build.SITE_NOTEBOOKS, *build.SITE_RULES}
    linked = 0
    for path, copy in site_copies().items():
        for cell in copy["cells"]:
            for target in build.site_relative_links("".join(cell["source"])):
                resolved = (Path(path).parent / target).as_posix()
                parts: list[str] = []
                for part in resolved.split("/"):
                    parts = parts[:-1] if part == ".." else [*parts, part]
                assert "/".join(parts) in held, f"{path} links to {target}, not in the site"
                linked += 1
    assert linked >= 12  # each play tutorial links its rules and its other language


def test_the_files_a_tutorial_names_are_linked_or_said_to_be_elsewhere() -> None:
    text = "Rules in full: `seeds/commissario.md`. (En français : `01_jouer.ipynb`.) Next: `02_game_theory.ipynb`."
    linked = build.site_links(text, "commissario/01_play.ipynb", "Elsewhere: {names}.")
    assert linked.startswith("Rules in full: [`seeds/commissario.md`](../seeds/commissario.md). "
                             "(En français : [`01_jouer.ipynb`](01_jouer.ipynb).)")
    assert linked.endswith("Next: `02_game_theory.ipynb`.\n\nElsewhere: `02_game_theory.ipynb`.")
    assert build.site_links("open its `01_play`", "00_welcome.ipynb", "{names}") == "open its `01_play`"
    french = site_copies()["mafia_de_cuba/01_jouer.ipynb"]
    assert any("Pas dans ce site" in "".join(cell["source"]) for cell in french["cells"])


def test_a_changed_lesson_is_stored_under_a_new_name(tmp_path: Path) -> None:
    (tmp_path / "a.ipynb").write_text("{}")
    first = build.lessons_digest(tmp_path)
    assert build.lessons_digest(tmp_path) == first  # a rebuild of the same lessons keeps the students' copies
    (tmp_path / "a.ipynb").write_text('{"cells": []}')
    second = build.lessons_digest(tmp_path)
    assert second != first
    settings = build.lite_settings(second)["jupyter-config-data"]
    assert settings["contentsStorageName"].endswith(second) and settings["workspacesStorageName"].endswith(second)
    assert settings["enableMemoryStorage"] is True


def test_the_entry_page_opens_every_tutorial_in_the_notebook_view() -> None:
    page = build.entry_page()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{}</script>' in page
    assert sorted(f"notebooks/index.html?path={path}" for path in build.SITE_NOTEBOOKS) == sorted(re.findall(
        r'href="(notebooks/[^"]+)"', page))


def test_a_missing_library_in_the_browser_is_advised_as_the_browser_can() -> None:
    sentence = str(MissingExtra("numpy", "Exact strategies", in_a_browser=True))
    assert sentence.count(". ") == 0 and sentence.endswith(".")
    assert "Jupyter on a computer" in sentence and "%pip" not in sentence
    assert str(MissingExtra("numpy", "Exact strategies", in_a_browser=False)).endswith(
        'not installed here: pip install "tabletop_edu[analysis]".')
