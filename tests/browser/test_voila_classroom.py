"""Every classroom page in Voila, in a real browser, as a class uses it: it opens on the projector with the
public table, the teacher moves the bots on one move per click, scrubs the timeline, switches to French and
plays to the end, where the game is revealed. No request leaves 127.0.0.1, and no seat's secret is on the
page at any step (the picker offers the spectator only).

The page's game is rebuilt in Python from the notebook's own code cell (same seed, same bots) and the same
buttons are clicked on both, so the test knows every label the page must show and every secret it must not.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.i18n import tr
from tabletop_edu.widgets import GameWidget, ManualScheduler

from .conftest import PHONE, offline_requests

CLASSROOM = Path(__file__).resolve().parents[2] / "notebooks" / "classroom"
WIDGET = ".tabletop-widget"
LOG = f"{WIDGET} .tabletop-log li"
OPTIONS = f"{WIDGET} .tabletop-move-option"
VISIBLE_OPTIONS = ("[...document.querySelectorAll(" + json.dumps(OPTIONS) + ")]"
                   ".filter(button => button.offsetParent !== null).map(button => button.innerText.trim())")


def classroom_pages() -> list[str]:
    return sorted(path.stem for path in CLASSROOM.glob("*.ipynb"))


def twin_widget(name: str) -> GameWidget:
    """Run the notebook's code cell here: its last expression is the widget the page shows. At the timed
    pace its bots run on a manual clock (`twin.scheduler.advance`), where the page's run on the kernel's own."""
    cells = json.loads((CLASSROOM / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    lines = "".join(next(cell["source"] for cell in cells if cell["cell_type"] == "code")).rstrip().splitlines()
    namespace: dict[str, Any] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tabletop_edu.widgets.game_widget.LoopScheduler", ManualScheduler)
        exec("\n".join(lines[:-1]), namespace)  # noqa: S102 - our own notebook
        widget = eval(lines[-1], namespace)  # noqa: S307
    assert isinstance(widget, GameWidget) and isinstance(widget.scheduler, ManualScheduler)
    return widget


def twin_log(widget: GameWidget) -> list[str]:
    return [html.unescape(item.split(">", 1)[1].rsplit("</li", 1)[0])
            for item in widget.log_panel.value.split("<li")[1:]]


def wait_for_log(page: Any, widget: GameWidget) -> None:
    """Wait until the page's log reads exactly the twin widget's log, then check it."""
    lines = twin_log(widget)
    try:
        page.wait_for_function(
            "lines => { const items = [...document.querySelectorAll(" + json.dumps(LOG) + ")];"
            " return items.length === lines.length && items.every((li, i) => li.innerText.trim() === lines[i]); }",
            arg=lines, timeout=30_000)
    finally:
        assert [line.strip() for line in page.locator(LOG).all_inner_texts()] == lines


def click_button(page: Any, name: str) -> None:
    page.locator(WIDGET).get_by_role("button", name=name, exact=True).click()


def assert_no_secret_of_others(page: Any, twin: GameWidget, seat: int | None) -> None:
    dom, text = page.content(), page.inner_text("body")
    for event in twin.state.events:
        if not event.sees_all(seat) and event.text != event.redacted:
            assert event.text not in text and html.escape(event.text, quote=False) not in dom, \
                f"seat {seat}'s page shows a secret: {event.text!r}"
    assert page.locator(f"{WIDGET} .tabletop-end").count() == 0 or twin.state.is_over  # no reveal before the end


@pytest.mark.parametrize("name", classroom_pages())
def test_a_class_watches_a_whole_game_from_the_public_table(page: Any, voila: str, screenshot: Any,
                                                            name: str) -> None:
    twin = twin_widget(name)
    page.goto(f"{voila}/voila/render/classroom/{name}.ipynb")
    page.wait_for_selector(WIDGET, timeout=90_000)

    # It opens on the projector: large type, only the table and the bots' pace, seen as a spectator sees it.
    page.wait_for_selector(f"{WIDGET}.tabletop-projector")
    assert not page.locator(f"{WIDGET} .tabletop-timeline").is_visible()
    assert not page.locator(f"{WIDGET} .tabletop-panels").is_visible()
    status_size = page.locator(f"{WIDGET} .tabletop-status .widget-html-content").evaluate(
        "element => parseFloat(getComputedStyle(element).fontSize)")
    assert status_size >= 22  # 14 px x 150 % x 1.15: readable from the back of the room
    page_text = page.inner_text("body")
    assert "make classroom" not in page_text and "Python" not in page_text
    assert twin.perspective is None and page.evaluate(VISIBLE_OPTIONS) == []  # nobody's moves on the wall
    assert_no_secret_of_others(page, twin, None)
    screenshot(f"voila-{name}-projector")
    screenshot(f"voila-{name}-projector-phone", viewport=PHONE)

    # The teacher moves the bots on, one move per click on "Next move".
    for _ in range(3):
        click_button(page, tr("next_bot", "en"))
        twin.next_bot_move()
        wait_for_log(page, twin)
    assert_no_secret_of_others(page, twin, None)

    # Leave projector mode: the timeline, the log and the knowledge come back, side by side; the perspective
    # picker offers the spectator only.
    click_button(page, tr("projector", "en"))
    twin.set_projector(False)
    page.locator(f"{WIDGET} .tabletop-timeline").wait_for(state="visible")
    columns = page.locator(f"{WIDGET} .tabletop-column")
    columns.first.wait_for(state="visible")  # the panels come back a moment after the timeline
    columns.last.wait_for(state="visible")
    log_box, knowledge_box = columns.first.bounding_box(), columns.last.bounding_box()
    assert log_box is not None and knowledge_box is not None
    assert knowledge_box["x"] > log_box["x"] + log_box["width"] - 1  # beside, not below, at 1280 px
    assert len(twin.perspective_picker.options) == 1 and twin.perspective_picker.layout.display == "none"
    page.locator(f"{WIDGET} .tabletop-column-title").first.get_by_text(
        html.unescape(twin.log_title.value)).wait_for()
    assert_no_secret_of_others(page, twin, None)

    # The timeline: start, next, the keyboard, live.
    click_button(page, tr("first", "en"))
    twin.timeline_bar.first_button.click()
    wait_for_log(page, twin)
    click_button(page, tr("next", "en"))
    twin.timeline_bar.next_button.click()
    wait_for_log(page, twin)
    page.locator(f"{WIDGET} .tabletop-timeline .noUi-handle").focus()
    page.keyboard.press("ArrowRight")
    twin.timeline.value += 1
    wait_for_log(page, twin)
    assert page.locator(f"{WIDGET} .tabletop-step-events b").inner_text() == f"Step {twin.timeline.value} of " \
        f"{len(twin.state.history)}"
    click_button(page, tr("live", "en"))
    twin.timeline_bar.live_button.click()
    wait_for_log(page, twin)

    # In French, to the end, by clicking "Coup suivant" only; no secret on the wall at any step.
    click_button(page, "fr")
    twin.language_picker.value = "fr"
    page.locator(f"{WIDGET} .tabletop-column-title").first.get_by_text(
        html.unescape(twin.log_title.value)).wait_for()
    wait_for_log(page, twin)
    screenshot(f"voila-{name}-fr")
    for _ in range(twin.state.max_steps):
        if twin.state.is_over:
            break
        click_button(page, tr("next_bot", "fr"))
        twin.next_bot_move()
        wait_for_log(page, twin)
        assert_no_secret_of_others(page, twin, None)
    assert twin.state.is_over
    end = page.locator(f"{WIDGET} .tabletop-end")
    end.wait_for(state="visible")
    for seat in twin.state.winners:
        assert twin.state.players[seat] in end.inner_text()
    end.scroll_into_view_if_needed()
    screenshot(f"voila-{name}-end")
    click_button(page, tr("projector", "fr"))
    page.wait_for_selector(f"{WIDGET}.tabletop-projector")
    end.scroll_into_view_if_needed()
    screenshot(f"voila-{name}-end-projector")
    assert offline_requests(page) == []


def test_the_bots_pace_a_class_can_follow(page: Any, voila: str) -> None:
    """Step by step with "Next move", then one move a second through the kernel's own clock to the end."""
    twin = twin_widget("peek")
    page.goto(f"{voila}/voila/render/classroom/peek.ipynb")
    page.wait_for_selector(WIDGET, timeout=90_000)
    assert page.locator(WIDGET).get_by_role("button", name=tr("pace_step", "en")).get_attribute(
        "class").count("mod-active") == 1
    next_move = page.locator(WIDGET).get_by_role("button", name=tr("next_bot", "en"))
    for _ in range(2):  # the bots wait for the teacher
        next_move.click()
        twin.next_bot_move()
        wait_for_log(page, twin)

    click_button(page, tr("pace_second", "en"))
    twin.set_bot_pace("timed")
    while not twin.state.is_over:
        assert twin.scheduler.advance(1.0) == 1  # type: ignore[attr-defined]
    wait_for_log(page, twin)  # the page's kernel played the same moves on its own clock
    page.locator(f"{WIDGET} .tabletop-end").wait_for(state="visible")
    assert offline_requests(page) == []
