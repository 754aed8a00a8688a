"""Every classroom page in Voila, in a real browser: play by clicking, switch perspectives, scrub the timeline,
and check that the page of seat k holds none of the other seats' secrets.

The page's game is rebuilt in Python from the notebook's own code cell (same seed, same bots) and the same
buttons are clicked on both, so the test knows every secret the page must not show.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.widgets import GameWidget

CLASSROOM = Path(__file__).resolve().parents[2] / "notebooks" / "classroom"
LOG = ".tabletop-widget .widget-tab .tabletop-log li"
MOVES = 3


def classroom_pages() -> list[str]:
    return sorted(path.stem for path in CLASSROOM.glob("*.ipynb"))


def twin_widget(name: str) -> GameWidget:
    """Run the notebook's code cell here: its last expression is the widget the page shows."""
    cells = json.loads((CLASSROOM / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    lines = "".join(next(cell["source"] for cell in cells if cell["cell_type"] == "code")).rstrip().splitlines()
    namespace: dict[str, Any] = {}
    exec("\n".join(lines[:-1]), namespace)  # noqa: S102 - our own notebook
    widget = eval(lines[-1], namespace)  # noqa: S307
    assert isinstance(widget, GameWidget)
    return widget


def log_lines(page: Any) -> list[str]:
    return [line.strip() for line in page.locator(LOG).all_inner_texts()]


def twin_log(widget: GameWidget) -> list[str]:
    return [item.split(">", 1)[1].rsplit("</li", 1)[0] for item in widget.log_panel.value.split("<li")[1:]]


def wait_for_log(page: Any, expected: list[str]) -> None:
    """Wait until the page's log reads exactly `expected` (the twin widget's log), then check it."""
    lines = [html.unescape(line) for line in expected]
    try:
        page.wait_for_function(
            "lines => { const items = [...document.querySelectorAll(" + json.dumps(LOG) + ")];"
            " return items.length === lines.length && items.every((li, i) => li.innerText.trim() === lines[i]); }",
            arg=lines, timeout=30_000)
    finally:
        assert log_lines(page) == lines


@pytest.mark.parametrize("name", classroom_pages())
def test_classroom_page(page: Any, voila: str, screenshot: Any, name: str) -> None:
    twin = twin_widget(name)
    page.goto(f"{voila}/voila/render/classroom/{name}.ipynb")
    page.wait_for_selector(".tabletop-widget", timeout=90_000)
    wait_for_log(page, twin_log(twin))

    for _ in range(MOVES):  # play as the seat shown, by clicking, like a pupil at the board
        if twin.play_button.disabled:
            break
        page.locator(".tabletop-widget").get_by_role("button", name=twin.play_button.description).click()
        twin.play_button.click()
        wait_for_log(page, twin_log(twin))
    screenshot(f"voila-{name}-played")

    state = twin.state
    pickers = page.locator(".tabletop-widget select").first
    for seat in range(len(state.players)):
        twin.perspective_picker.value = seat
        pickers.select_option(index=[value for _, value in twin.perspective_picker.options].index(seat))
        wait_for_log(page, twin_log(twin))
        dom, text = page.content(), page.inner_text("body")
        for event in state.events:
            if not event.sees_all(seat) and event.text != event.redacted:
                assert event.text not in text and html.escape(event.text, quote=False) not in dom, \
                    f"seat {seat}'s page shows a secret: {event.text!r}"
        screenshot(f"voila-{name}-seat{seat}")

    page.locator(".tabletop-widget").get_by_role("button", name="fr", exact=True).click()
    twin.language_picker.value = "fr"
    page.get_by_text("Point de vue", exact=True).wait_for()
    page.locator(".tabletop-widget").get_by_role("button", name="Jouer").wait_for()
    page.locator(".tabletop-widget").get_by_text("Journal").wait_for()
    wait_for_log(page, twin_log(twin))
    screenshot(f"voila-{name}-fr")

    page.locator(".tabletop-widget .noUi-handle").first.focus()
    page.keyboard.press("Home")
    twin.timeline.value = 0
    wait_for_log(page, twin_log(twin))
