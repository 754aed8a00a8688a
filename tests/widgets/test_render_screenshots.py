"""Every game's table as a static page in a real browser (Debian's chromium, no server): screenshots of the
teacher's, a seat's and the spectator's table and of the reveal, on a 1280x800 projector and a 390x844
phone, kept in test-artifacts/render/; and what a class at the back of the room needs, measured in the page:
a large base type that one CSS variable scales, nothing wider than a phone, no clipped cigar box, seats on
the ring that do not overlap, and not a single request leaving the page (no font, icon or CDN)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu import commissario, get_adler, mafia_de_cuba
from tabletop_edu.core import GameState
from tabletop_edu.rendering import game_renderer, render_state_html, render_view_html
from tabletop_edu.examples import peek

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "render"
CHROMIUM = os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium")
SIZES = {"projector": (1280, 800), "phone": (390, 844)}
NAMES = ["Vito", "Ann", "Bob", "Chloé", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim-Bartholomew-Longname"]
#: game -> (module, players, seed, steps into the game for the table)
TABLES: dict[str, tuple[Any, int, int, int]] = {
    "mafia_de_cuba": (mafia_de_cuba, 12, 4, 20), "get_adler": (get_adler, 5, 1, 30),
    "commissario": (commissario, 4, 1, 22), "peek": (peek, 3, 1, 3)}


def played(game: str, steps: int | None) -> GameState[Any]:
    """A seeded random game of `game`, `steps` moves in (None: to the end)."""
    module, players, seed, _ = TABLES[game]
    state = module.new_game(NAMES[:players], seed=seed)
    rng = random.Random(seed)
    while not state.is_over and (steps is None or len(state.history) < steps):
        seat = rng.choice(state.acting_seats)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    return state


def pages(game: str, language: str = "en") -> dict[str, str]:
    state = played(game, TABLES[game][3])
    finished = played(game, None)
    return {"teacher": render_state_html(state, language, log=False),
            "seat": render_view_html(state.view(2), language, log=False),
            "spectator": render_view_html(state.view(None), language, log=False),
            "reveal": game_renderer(state.game, "reveal_html")(finished, language)}


def document(body: str, scale: float = 1.0) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><meta name='viewport' "
            f"content='width=device-width, initial-scale=1'></head><body style='margin:0'>"
            f"<div style='--tabletop-scale:{scale}'>{body}</div></body></html>")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"])
        try:
            yield chromium
        finally:
            chromium.close()


def open_page(browser: Any, size: str, requests: list[str]) -> Any:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.route("**/*", lambda route: (requests.append(route.request.url), route.abort()))
    return page


@pytest.mark.parametrize("game", list(TABLES))
def test_screenshots_of_every_table_and_reveal(browser: Any, game: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    requests: list[str] = []
    for size, (width, _) in SIZES.items():
        page = open_page(browser, size, requests)
        try:
            for kind, body in pages(game, "fr" if size == "phone" else "en").items():
                page.set_content(document(body))
                page.screenshot(path=str(ARTIFACTS / f"{game}-{kind}-{size}.png"), full_page=True)
                base = page.evaluate("getComputedStyle(document.querySelector('.tabletop')).fontSize")
                assert float(base.removesuffix("px")) >= 18, (kind, base)
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (game, kind, size)
                clipped = page.evaluate("[...document.querySelectorAll('.tt-box, .tt-seat, .tt-banner, .tt-card')]"
                                        ".filter(e => e.scrollHeight > e.clientHeight + 1"
                                        " || e.scrollWidth > e.clientWidth + 1).length")
                assert clipped == 0, (game, kind, size)
                if size == "projector":
                    assert overlapping_seats(page) == [], (game, kind)
        finally:
            page.close()
    assert requests == []  # nothing is fetched: no web font, no icon, no CDN


def overlapping_seats(page: Any) -> list[tuple[int, int]]:
    """Pairs of seats on a ring whose boxes overlap (unreadable on a projector)."""
    boxes = page.evaluate("[...document.querySelectorAll('.tt-ring > .tt-seat')].map(e => {"
                          "const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
    return [(i, j) for i, a in enumerate(boxes) for j, b in enumerate(boxes[i + 1:], i + 1)
            if a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1]


def test_one_variable_scales_the_whole_table(browser: Any) -> None:
    """The size control of the widget (projector mode) sets --tabletop-scale: everything grows with it, and
    a ring too wide for the screen becomes a list rather than overlapping."""
    requests: list[str] = []
    page = open_page(browser, "projector", requests)
    try:
        body = pages("mafia_de_cuba")["seat"]
        sizes = {}
        for scale in (1.0, 1.5):
            page.set_content(document(body, scale))
            sizes[scale] = page.evaluate("[getComputedStyle(document.querySelector('.tabletop')).fontSize,"
                                         " getComputedStyle(document.querySelector('.tt-banner')).fontSize]")
            assert overlapping_seats(page) == []
            assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        page.screenshot(path=str(ARTIFACTS / "mafia_de_cuba-seat-projector-scale-1.5.png"), full_page=True)
        assert sizes[1.0][0] == "18px" and sizes[1.5][0] == "27px"
        assert float(sizes[1.5][1].removesuffix("px")) == pytest.approx(1.5 * float(sizes[1.0][1].removesuffix("px")))
    finally:
        page.close()
    assert requests == []


def test_the_knowledge_panel_and_its_flow_picture_read_on_a_projector_and_a_phone(browser: Any) -> None:
    """The widget's knowledge column while playing (Mafia de Cuba, seat 2): the posterior bars and the SVG
    information-flow picture, drawn without matplotlib. Every text of the picture is 14 px or more as shown,
    the picture is never shrunk to fit, and on a phone it scrolls sideways inside its block, not the page."""
    from tabletop_edu.mafia_de_cuba.panel import knowledge_html
    from tabletop_edu.widgets import GameWidget

    state = played("mafia_de_cuba", TABLES["mafia_de_cuba"][3])
    widget = GameWidget(state, perspective=2, knowledge=knowledge_html)
    try:
        widget.flow_button.click()
        body = widget.knowledge_panel.value + widget.flow.value
    finally:
        widget.close()
    assert "<svg" in body and "<img" not in body
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    requests: list[str] = []
    for size, (width, _) in SIZES.items():
        page = open_page(browser, size, requests)
        try:
            page.set_content(document(body))
            page.screenshot(path=str(ARTIFACTS / f"mafia_de_cuba-knowledge-flow-{size}.png"), full_page=True)
            smallest = page.evaluate("Math.min(...[...document.querySelectorAll('svg text')].map("
                                     "t => parseFloat(getComputedStyle(t).fontSize)))")
            assert smallest >= 14, size
            shown, drawn = page.evaluate("(s => [s.getBoundingClientRect().width, s.width.baseVal.value])"
                                         "(document.querySelector('.tabletop-flow-picture svg'))")
            assert shown == drawn  # at its natural size: 1 px of the picture is 1 px of the screen
            assert page.evaluate("document.documentElement.scrollWidth") <= width, size
        finally:
            page.close()
    assert requests == []
