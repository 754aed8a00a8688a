"""What a student sees on a phone (390x844), measured in chromium: Get Adler's aid sheet fits the screen, the
possible-worlds pictures keep their type readable, and a whole game of Get Adler and of Mafia de Cuba is played
by tapping the widget in Voila, in English and in French, with nothing wider than the screen, no empty
notation box, and no English button on a French page.

Sizes are read from the page (bounding boxes of the rendered text and pictures), never worked out from a stretch
the test assumes. Screenshots of each game's start and end go to test-artifacts/screens/.
"""

from __future__ import annotations

import base64
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tabletop_edu import pictures
from tabletop_edu.i18n import tr
from tabletop_edu.knowledge import Worlds
from tabletop_edu.knowledge import drawing
from tabletop_edu.registry import game as game_plugin
from tabletop_edu.rendering import render_state_html, render_view_html

from .conftest import ARTIFACTS, DESKTOP, PHONE, axe_violations

SCREENS = ARTIFACTS / "screens"
SMALL_PHONE = {"width": 360, "height": 780}
#: 14 points in CSS pixels: the projector's smallest type, as the notebooks promise it at 1280 pixels.
PROJECTOR_TYPE = 14 * 96 / 72
WIDGET = ".tabletop-widget"
OPTIONS = f"{WIDGET} .tabletop-move-option"
#: What no English reader needs and a French page must not show: the widget's English words.
ENGLISH_WORDS = ("Play this move", "Start again", "Back", "Projector", "Perspective", "Log seen by", "Step ")


def page_of(body: str, language: str) -> str:
    return (f"<!doctype html><html lang='{language}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'><title>screen</title></head>"
            f"<body><main>{body}</main></body></html>")


def overflowing(page: Any) -> list[str]:
    """The elements wider than their scrolling box, and the page itself if it scrolls sideways."""
    return list(page.evaluate("""() => {
        const found = [...document.querySelectorAll('.tt-scroll')].filter(box => box.scrollWidth > box.clientWidth + 1)
            .map(box => box.firstElementChild.className);
        if (document.documentElement.scrollWidth > window.innerWidth) found.push('the page');
        return found; }"""))


# ------------------------------------------------------------------------------------------ Get Adler's aid sheet


@pytest.mark.parametrize("language", ["en", "fr"])
def test_get_adler_aid_sheet_fits_a_phone_without_sideways_scroll(browser: Any, axe: str, language: str) -> None:
    state = game_plugin("get_adler").new_game(5, seed=3)
    rng = random.Random(3)
    for _ in range(8):
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    body = render_view_html(state.view(0), language) + render_state_html(state, language)
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    try:
        page = context.new_page()
        page.set_content(page_of(body, language))
        for size in (PHONE, SMALL_PHONE):
            page.set_viewport_size(size)
            assert overflowing(page) == [], size
            cells = page.evaluate("() => [...document.querySelectorAll('.tt-sheet td, .tt-sheet th')]"
                                  ".map(cell => parseFloat(getComputedStyle(cell).fontSize))")
            assert len(cells) > 20 and min(cells) >= 14, cells  # a card per character, in the table's own type
        blocking = {impact: lines for impact, lines in axe_violations(page, axe).items()
                    if impact in ("critical", "serious")}
        assert blocking == {}
        page.set_viewport_size(DESKTOP)  # a wide page keeps the five columns of one grid
        assert overflowing(page) == []
        assert page.locator(".tt-sheet thead").first.is_visible()
    finally:
        context.close()


# ------------------------------------------------------------------------------------------ possible worlds


def after_the_father() -> Worlds:
    children = Worlds(itertools.product((0, 1), repeat=3),
                      {child: (lambda world, child=child: world[:child] + world[child + 1:]) for child in range(3)})
    return children.announce(lambda world: any(world))


#: What notebooks around a picture do to it: shrink it to the column's width (JupyterLab's and the site's rule).
SHRINK_TO_FIT = "<style>main svg, main img { max-width: 100%; height: auto; }</style>"


def smallest_svg_type(page: Any) -> float:
    """The smallest type of the page's SVG picture in CSS pixels, as drawn: each text's font size times how much
    its on-screen box is larger than its box in the picture's own units."""
    return float(page.evaluate("""() => Math.min(...[...document.querySelectorAll('svg text')].map(text =>
        parseFloat(text.getAttribute('font-size')) * text.getBoundingClientRect().height / text.getBBox().height))"""))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_worlds_picture_reads_on_a_phone_and_on_a_projector(browser: Any, language: str) -> None:
    model = after_the_father()
    svg = pictures.draw_worlds(model, label=lambda world: "".join(map(str, world)), actual=(1, 1, 0),
                               title=tr("worlds.title", language), language=language)
    figure = drawing.draw_worlds(model, label=lambda world: "".join(map(str, world)), actual=(1, 1, 0),
                                 language=language)
    png = figure._repr_png_()
    image_width = int.from_bytes(png[16:20], "big")  # the PNG's own width, from its header
    type_pixels = drawing.SMALLEST_TYPE / 72 * figure.dpi  # in the image's pixels
    assert not pictures.crossed_labels(svg) and not drawing.crossed_labels(figure)
    context = browser.new_context(viewport=PHONE)
    SCREENS.mkdir(parents=True, exist_ok=True)
    try:
        page = context.new_page()
        page.set_content(page_of(SHRINK_TO_FIT + svg.html
                                 + f"<img alt='worlds' src='data:image/png;base64,{base64.b64encode(png).decode()}'>",
                                 language))
        for size, smallest in ((PHONE, 12), (DESKTOP, PROJECTOR_TYPE)):
            page.set_viewport_size(size)
            assert smallest_svg_type(page) >= smallest, (size, smallest_svg_type(page))
            shown = page.locator("img").bounding_box()
            assert shown is not None and type_pixels * shown["width"] / image_width >= smallest, (size, shown)
            page.screenshot(path=str(SCREENS / f"worlds-{language}-{size['width']}.png"), full_page=True)
    finally:
        context.close()


# ------------------------------------------------------------------------------------------ a game by tapping


def game_notebook(folder: Path, name: str, players: list[str], language: str) -> str:
    code = (f"from tabletop_edu.{name}.widget import play\n\n"
            f"table = play({players!r}, seed=2, seat=0, language={language!r})\n"
            "table.set_bot_pace('instant')\ntable")
    notebook = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                           "source": code}],
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    path = f"phone-{name}-{language}.ipynb"
    (folder / path).write_text(json.dumps(notebook), encoding="utf-8")
    return path


def check_screen(page: Any, language: str) -> None:
    """Nothing wider than the phone, no visible notation box without moves, no English on a French page, and
    no visible text under 12 px."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    empty = page.evaluate(f"() => [...document.querySelectorAll('{WIDGET} select')]"
                          ".filter(s => s.offsetParent !== null && s.options.length === 0).length")
    assert empty == 0
    small = page.evaluate(f"""() => [...document.querySelectorAll('{WIDGET} *')].filter(element =>
        element.offsetParent !== null && [...element.childNodes].some(node => node.nodeType === 3 &&
        node.textContent.trim()) && parseFloat(getComputedStyle(element).fontSize) < 12)
        .map(element => element.textContent.trim().slice(0, 40))""")
    assert small == []
    if language == "fr":
        text = page.locator(WIDGET).inner_text()
        assert [word for word in ENGLISH_WORDS if word in text] == []


def shoot_whole(page: Any, path: Path) -> None:
    """The whole widget at the phone's width: Voila scrolls its page inside a box, so the viewport is made as tall
    as the widget for the picture (the width, which the layout depends on, stays the phone's)."""
    bottom = page.evaluate(f"() => document.querySelector('{WIDGET}').getBoundingClientRect().bottom"
                           f" + document.querySelector('{WIDGET}').closest('[class]').scrollTop")
    page.set_viewport_size({"width": PHONE["width"], "height": max(PHONE["height"], int(bottom) + 40)})
    try:
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(PHONE)


GAMES = {"get_adler": ["Ana", "Ben", "Chloé", "David"],
         "mafia_de_cuba": ["Ana", "Ben", "Chloé", "David", "Emma", "Farid"]}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("name", list(GAMES))
def test_a_whole_game_is_played_by_tapping_on_a_phone(browser: Any, voila: str, notebook_copy: Path, name: str,
                                                      language: str) -> None:
    path = game_notebook(notebook_copy, name, GAMES[name], language)
    rng = random.Random(f"{name}-{language}")
    SCREENS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{voila}/voila/render/{path}")
        page.wait_for_selector(f"{OPTIONS}:visible", timeout=90_000)
        shoot_whole(page, SCREENS / f"{name}-{language}-start.png")
        check_screen(page, language)
        end = page.locator(f"{WIDGET} .tabletop-end")
        drawn = ""
        for _ in range(2000):
            # The page has changed since the last tap and is settled: the game is over, or it is Ana's turn
            # (the bots have answered) and her words are on show.
            drawn = page.wait_for_function(f"""drawn => {{
                const widget = document.querySelector('{WIDGET}');
                const now = widget.querySelector('.tabletop-move-built').innerText + '|'
                    + widget.querySelectorAll('.tabletop-log li').length;
                const over = [...widget.querySelectorAll('.tabletop-end')].some(e => e.offsetParent !== null);
                const options = [...widget.querySelectorAll('.tabletop-move-option')].filter(b => b.offsetParent);
                const turn = widget.querySelector('.tabletop-status').innerText.includes('Ana') && options.length;
                return now !== drawn && (over || turn) ? now : false; }}""", arg=drawn).json_value()
            if end.count() and end.first.is_visible():
                break
            options = page.locator(f"{OPTIONS}:visible")
            try:
                options.nth(rng.randrange(options.count())).click(timeout=5_000)
            except PlaywrightTimeout:  # the kernel redrew the words under the tap: look again, tap again
                drawn = ""
        assert end.first.is_visible()
        shoot_whole(page, SCREENS / f"{name}-{language}-end.png")
        check_screen(page, language)
    finally:
        context.close()
