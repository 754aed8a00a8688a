"""The static JupyterLite site (`make site`, issue 21) in Debian's chromium, served by `python -m http.server`.

The site is built once per session (or build/site reused when it is newer than everything it is made of). Each
test opens a tutorial as a newcomer would, from the site's entry page into the one-notebook view, runs all its
cells in Pyodide to the last with no error, plays a move by clicking on the table, and checks that no request
left 127.0.0.1: the whole site, Pyodide and every wheel included, comes from the site itself. The seconds from
opening the URL to a playable table, cold and warm (a benchmark, goal 8 s: printed, never asserted), and the
site's size are printed and go to test-artifacts/site/measures.json, with screenshots of the welcome and of a
play tutorial in English and French at a projector's and a phone's size.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP, PHONE, ROOT, Server

SITE = ROOT / "build" / "site"
SITE_ARTIFACTS = ARTIFACTS / "site"
# What the site is made of: a change in any of these builds it again.
SITE_SOURCES = [ROOT / "site" / "build.py", ROOT / "pyproject.toml", ROOT / "notebooks" / "00_welcome.ipynb",
                *(ROOT / "notebooks").glob("*/01_*.ipynb"), *(ROOT / "seeds").glob("*.md"),
                *(path for path in (ROOT / "tabletop_edu").rglob("*.*") if "__pycache__" not in path.parts)]
# The notebook in view: a profile's JupyterLite restores the tabs of its last visit, hidden behind it.
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"
OPTIONS = f"{NOTEBOOK} .tabletop-widget .tabletop-move-option"
KERNEL_READY = 180_000  # ms (about 15 s here): a cold start loads Pyodide (10 MB of WebAssembly) and installs IPython from wheels
MEASURES: dict[str, Any] = {}
#: The narrowest phone a student may hold (the screenshots are at conftest's PHONE).
NARROW_PHONE = {"width": 360, "height": 740}


def site_is_fresh() -> bool:
    built = SITE / "jupyter-lite.json"
    return built.exists() and built.stat().st_mtime > max(path.stat().st_mtime for path in SITE_SOURCES)


@pytest.fixture(scope="session")
def site(pytestconfig: Any) -> Iterator[str]:
    """The built site served on 127.0.0.1 (a port the system gives), as `python -m http.server` serves it."""
    if not site_is_fresh():
        subprocess.run([sys.executable, str(ROOT / "site" / "build.py")], check=True, cwd=ROOT)
    SITE_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = Server([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory",
                     str(SITE)], ROOT, SITE_ARTIFACTS / "http.log")
    try:
        match = server.wait_for_line(r"Serving HTTP on 127\.0\.0\.1 port (\d+)")
        yield f"http://127.0.0.1:{match.group(1)}"
    finally:
        server.stop()
        size = sum(path.stat().st_size for path in SITE.rglob("*") if path.is_file())
        MEASURES["site_megabytes"] = round(size / 1e6, 1)
        (SITE_ARTIFACTS / "measures.json").write_text(json.dumps(MEASURES, indent=1) + "\n")
        with pytestconfig.pluginmanager.get_plugin("capturemanager").global_and_fixture_disabled():
            print(f"\nsite benchmark (goal: 8 s from URL to a playable table, cold): {json.dumps(MEASURES)}")


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (a cold cache) recording the URL of every request, the kernel's worker's
    included."""
    context = browser.new_context(viewport=DESKTOP)
    context.requests = []
    context.on("request", lambda request: context.requests.append(request.url))
    yield context
    context.close()


def left_the_machine(requests: list[str]) -> list[str]:
    local = re.compile(r"^(https?|wss?)://127\.0\.0\.1(:\d+)?/|^(data|blob|about):")
    return [url for url in requests if not local.match(url)]


PROMPTS = f"document.querySelectorAll('{NOTEBOOK} .jp-CodeCell .jp-InputPrompt')"
ALL_RAN = f"[...{PROMPTS}].every(prompt => /\\[\\d+\\]/.test(prompt.textContent))"
ERRORS = f"{NOTEBOOK} .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
# Run All stops at a cell that raised: the run is over when every cell ran, or when an error is shown and no
# cell waits for the kernel any more.
RUN_STOPPED = (ALL_RAN + " || (document.querySelectorAll(" + json.dumps(ERRORS) + ").length > 0"
               f" && ![...{PROMPTS}].some(prompt => prompt.textContent.includes('*')))")
# The notebook view's kernel: Pyodide's, started and idle.
KERNEL_IDLE = ("document.querySelector('.jp-Toolbar-kernelName')?.textContent.includes('Pyodide')"
               " && document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status === 'idle'")


def notebook_url(site: str, path: str) -> str:
    """Where the site's entry page opens a tutorial: JupyterLite's one-notebook view."""
    return f"{site}/notebooks/index.html?path={path}"


def open_and_run_all(page: Any, site: str, path: str) -> None:
    """Open a tutorial in the site's notebook view, wait for the Pyodide kernel and run every cell: the run goes
    to the last cell with no error output (no traceback, no missing library)."""
    page.goto(notebook_url(site, path))
    run_all(page)


def run_all(page: Any) -> None:
    page.wait_for_selector(f"{NOTEBOOK} .jp-Cell", timeout=KERNEL_READY)
    page.wait_for_function(KERNEL_IDLE, timeout=KERNEL_READY)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(RUN_STOPPED, timeout=KERNEL_READY)
    assert errors_shown(page) == []
    assert page.evaluate(ALL_RAN), "Run All stopped before the last cell"


def errors_shown(page: Any) -> list[str]:
    """Every error output of the notebook in view (a traceback, a warning, a missing library's sentence)."""
    return page.locator(ERRORS).all_inner_texts()


def play_a_move(page: Any) -> None:
    """Click move options on the first table until the kernel plays the move and its log grows."""
    table = page.locator(f"{NOTEBOOK} .tabletop-widget").first
    before = table.locator(".tabletop-log li").count()
    for _ in range(8):  # a move is a few words: each click narrows the choice or plays the move
        if table.locator(".tabletop-log li").count() > before:
            return
        built = table.locator(".tabletop-move-built").inner_text()
        table.locator(".tabletop-move-option:visible").first.click()
        page.wait_for_function(
            "([built, count]) => { const table = document.querySelector('" + NOTEBOOK + " .tabletop-widget');"
            " return table.querySelector('.tabletop-move-built').innerText !== built"
            " || table.querySelectorAll('.tabletop-log li').length > count; }", arg=[built, before])
    assert table.locator(".tabletop-log li").count() > before, "the kernel did not play the clicked move"


def time_to_playable_table(page: Any, site: str, path: str) -> float:
    """Seconds from opening the tutorial's URL to a table whose moves can be clicked (all cells run)."""
    start = time.monotonic()
    open_and_run_all(page, site, path)
    page.locator(OPTIONS).first.wait_for(timeout=KERNEL_READY)
    return round(time.monotonic() - start, 1)


def test_welcome_runs_to_its_end_in_the_browser(site: str, context: Any) -> None:
    page = context.new_page()
    page.goto(f"{site}/")
    page.get_by_role("link", name=re.compile("^Welcome")).click()  # the entry page, as the README's link opens
    run_all(page)
    assert "passed" in page.locator(f"{NOTEBOOK} .jp-CodeCell").last.inner_text()  # check_game's report, the last cell
    # The drawings for analysis, drawn as SVG where matplotlib is not: the information flow and the worlds.
    for picture in (".tabletop-flow-picture svg", ".tabletop-worlds-picture svg"):
        page.locator(f"{NOTEBOOK} {picture}").first.wait_for()
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(viewport)
        page.locator(f"{NOTEBOOK} .tabletop-worlds-picture").scroll_into_view_if_needed()
        page.screenshot(path=str(SITE_ARTIFACTS / f"welcome-{name}.png"))
    # The recorder sees the kernel's own fetches (Pyodide's runtime, the wheels), and all of them are the site's.
    assert any(url.endswith("/static/pyodide/pyodide.asm.wasm") for url in context.requests)
    assert any(re.search(r"/pypi/tabletop_edu-[^/?]+\.whl(\?|$)", url) for url in context.requests)
    assert left_the_machine(context.requests) == []


def test_the_entry_page_is_whole_on_a_phone_and_a_projector(site: str, context: Any) -> None:
    page = context.new_page()
    for viewport, name in ((NARROW_PHONE, "narrow-phone"), (PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(viewport)
        page.goto(f"{site}/")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
        page.screenshot(path=str(SITE_ARTIFACTS / f"entry-{name}.png"))
    assert page.get_by_role("link", name=re.compile(r"^Mafia de Cuba : jouer")).count() == 1


def table_fits(page: Any) -> dict[str, Any]:
    """How the first table sits in the page: its width, whether it or the notebook scrolls sideways, and the
    column titles cut short."""
    return page.evaluate("""() => {
        const table = document.querySelector('""" + NOTEBOOK + """ .tabletop-widget');
        const scroller = document.querySelector('""" + NOTEBOOK + """ .jp-WindowedPanel-outer, """ + NOTEBOOK + """');
        const cut = [...table.querySelectorAll('.tabletop-column-title')]
            .filter(title => title.scrollWidth > title.clientWidth + 1).map(title => title.textContent);
        return {width: table.getBoundingClientRect().width, right: table.getBoundingClientRect().right,
                viewport: window.innerWidth, sideways: scroller.scrollWidth > scroller.clientWidth + 1, cut};
    }""")


@pytest.mark.parametrize("game", ["commissario", "get_adler", "mafia_de_cuba"])
def test_play_tutorial_plays_by_clicking(site: str, context: Any, game: str) -> None:
    page = context.new_page()
    MEASURES[f"{game}_cold_seconds"] = time_to_playable_table(page, site, f"{game}/01_play.ipynb")
    play_a_move(page)
    if game == "commissario":
        title = page.locator(f"{NOTEBOOK} .tabletop-widget .tabletop-column-title").first
        assert title.inner_text().startswith("Log")
        page.locator(f"{NOTEBOOK} .tabletop-widget").first.get_by_role("button", name="fr", exact=True).click()
        page.wait_for_function(f"document.querySelector('{NOTEBOOK} .tabletop-widget .tabletop-column-title')"
                               ".innerText.startsWith('Journal')")
        # The timeline back to the deal, and the information flow drawn as SVG in the knowledge panel.
        table = page.locator(f"{NOTEBOOK} .tabletop-widget").first
        table.get_by_role("button", name="|◀ Début", exact=True).click()
        table.get_by_text(re.compile(r"Étape 0 sur \d+")).first.wait_for()  # "Step 0 of N": the deal
        table.get_by_role("button", name="Dessiner le flux d'information", exact=True).click()
        table.locator(".tabletop-flow svg").first.wait_for()
        table.locator(".tabletop-flow svg").first.scroll_into_view_if_needed()
        # The picture in the table's whole width, its title inside the visible box.
        flow = page.evaluate("""() => { const table = document.querySelector('""" + NOTEBOOK + """ .tabletop-widget');
            const box = table.querySelector('.tabletop-flow-picture'), title = box.querySelector('svg > text');
            return {table: table.clientWidth, box: box.getBoundingClientRect().width,
                    titleRight: title.getBoundingClientRect().right, boxRight: box.getBoundingClientRect().right}; }""")
        assert flow["box"] >= 0.9 * flow["table"] and flow["titleRight"] <= flow["boxRight"] + 1, flow
        page.screenshot(path=str(SITE_ARTIFACTS / f"{game}-flow-fr.png"))
    page.locator(f"{NOTEBOOK} .tabletop-widget").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SITE_ARTIFACTS / f"{game}-desktop.png"))
    for viewport in (DESKTOP, NARROW_PHONE, PHONE):
        page.set_viewport_size(viewport)
        fits = table_fits(page)
        assert fits["width"] >= 0.75 * viewport["width"] and fits["right"] <= viewport["width"] + 1, fits
        assert not fits["sideways"] and fits["cut"] == [], fits
    page.locator(f"{NOTEBOOK} .tabletop-widget").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SITE_ARTIFACTS / f"{game}-phone.png"))
    assert left_the_machine(context.requests) == []
    page.close()
    if game == "commissario":  # the same tutorial again in the same profile: the browser's cache is warm
        stores = forget_the_visit(context, site)
        assert any(re.fullmatch(r"tabletop_edu lessons [0-9a-f]{12}.*", name) for name in stores), stores
        warm = context.new_page()
        MEASURES[f"{game}_warm_seconds"] = time_to_playable_table(warm, site, f"{game}/01_play.ipynb")
        play_a_move(warm)
        assert left_the_machine(context.requests) == []


def test_a_french_play_tutorial_plays_in_french(site: str, context: Any) -> None:
    page = context.new_page()
    page.goto(f"{site}/")
    page.get_by_role("link", name=re.compile(r"^Mafia de Cuba : jouer")).click()
    run_all(page)
    play_a_move(page)
    texts = page.locator(f"{NOTEBOOK} .jp-MarkdownCell").all_inner_texts()
    assert any("Pas dans ce site" in text for text in texts) and any("autre nom" in text for text in texts)
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(viewport)
        page.locator(f"{NOTEBOOK} .tabletop-widget").first.scroll_into_view_if_needed()
        page.screenshot(path=str(SITE_ARTIFACTS / f"mafia_de_cuba-fr-{name}.png"))
    assert left_the_machine(context.requests) == []


def forget_the_visit(context: Any, site: str) -> list[str]:
    """Drop what JupyterLite keeps of a visit (its tabs, the notebooks' edited copies), keeping the browser's
    cache: the next visit opens one fresh notebook, as the first did, with the site's files cached. Returns the
    names of the stores it dropped."""
    page = context.new_page()
    page.goto(f"{site}/jupyter-lite.json")
    names = page.evaluate("async () => { localStorage.clear(); const names = [];"
                          " for (const base of await indexedDB.databases()) { names.push(base.name);"
                          " await new Promise(done => { const request = indexedDB.deleteDatabase(base.name);"
                          " request.onsuccess = request.onerror = request.onblocked = done; }); } return names; }")
    page.close()
    return names
