"""Every classroom page in Voila, in a real browser, as a class uses it: it opens on the projector, the bots
are slowed down, a pupil plays a whole game by clicking the move buttons only, the teacher scrubs the
timeline, looks through every seat's eyes, switches to French, and the end of the game is revealed. No
request leaves 127.0.0.1, and the page of seat k holds none of the other seats' secrets in any panel.

The page's game is rebuilt in Python from the notebook's own code cell (same seed, same bots) and the same
buttons are clicked on both, so the test knows every label the page must show and every secret it must not.
"""

from __future__ import annotations

import html
import json
import random
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
    """Run the notebook's code cell here: its last expression is the widget the page shows. Its timed bots
    run on a manual clock (`twin.scheduler.advance`), where the page's run on the kernel's own."""
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


def wait_for_options(page: Any, widget: GameWidget) -> None:
    """Wait until the page offers exactly the twin's move buttons, with the same labels."""
    labels = [button.description for button in widget.moves.option_buttons]
    try:
        page.wait_for_function(f"labels => JSON.stringify({VISIBLE_OPTIONS}) === JSON.stringify(labels)",
                               arg=labels, timeout=30_000)
    finally:
        assert page.evaluate(VISIBLE_OPTIONS) == labels


def click_button(page: Any, name: str) -> None:
    page.locator(WIDGET).get_by_role("button", name=name, exact=True).click()


def play_one_move(page: Any, twin: GameWidget, rng: random.Random) -> None:
    """Choose a legal move at random and play it word by word on the page's buttons, and on the twin's."""
    play_words(page, twin, rng.choice([str(action) for action in twin.state.legal_actions(twin.perspective)]))


def play_words(page: Any, twin: GameWidget, move: str) -> None:
    """Play `move` word by word on the page's buttons and on the twin's, checking the page at every click."""
    for word in move.split():
        index = [option.word for option in twin.moves._shown].index(word)
        page.locator(f"{OPTIONS}:visible").nth(index).click()
        twin.moves.click(word)
        wait_for_options(page, twin)
    if twin.moves.chosen:  # the words make a move that could also go on: "Play this move"
        click_button(page, tr("play_this", twin.language))
        twin.moves.play_this_button.click()
    wait_for_log(page, twin)
    wait_for_options(page, twin)


def assert_no_secret_of_others(page: Any, twin: GameWidget, seat: int) -> None:
    dom, text = page.content(), page.inner_text("body")
    for event in twin.state.events:
        if not event.sees_all(seat) and event.text != event.redacted:
            assert event.text not in text and html.escape(event.text, quote=False) not in dom, \
                f"seat {seat}'s page shows a secret: {event.text!r}"
    assert page.locator(f"{WIDGET} .tabletop-end").count() == 0 or twin.state.is_over  # no reveal before the end


@pytest.mark.parametrize("name", classroom_pages())
def test_a_class_plays_a_whole_game_by_clicking(page: Any, voila: str, screenshot: Any, name: str) -> None:
    twin = twin_widget(name)
    rng = random.Random(name)
    page.goto(f"{voila}/voila/render/classroom/{name}.ipynb")
    page.wait_for_selector(WIDGET, timeout=90_000)

    # It opens on the projector: large type, only the table, the moves and the bots' pace.
    page.wait_for_selector(f"{WIDGET}.tabletop-projector")
    assert not page.locator(f"{WIDGET} .tabletop-timeline").is_visible()
    assert not page.locator(f"{WIDGET} .tabletop-panels").is_visible()
    status_size = page.locator(f"{WIDGET} .tabletop-status .widget-html-content").evaluate(
        "element => parseFloat(getComputedStyle(element).fontSize)")
    assert status_size >= 22  # 14 px x 150 % x 1.15: readable from the back of the room
    page_text = page.inner_text("body")
    assert "make classroom" not in page_text and "Python" not in page_text
    screenshot(f"voila-{name}-projector")
    screenshot(f"voila-{name}-projector-phone", viewport=PHONE)

    # The bots answer at once from now on (the pace is tested on Peek below).
    click_button(page, tr("pace_instant", "en"))
    twin.set_bot_pace("instant")
    wait_for_log(page, twin)
    wait_for_options(page, twin)

    # Leave projector mode: the timeline, the log and the knowledge come back, side by side.
    click_button(page, tr("projector", "en"))
    twin.set_projector(False)
    page.locator(f"{WIDGET} .tabletop-timeline").wait_for(state="visible")
    columns = page.locator(f"{WIDGET} .tabletop-column")
    columns.first.wait_for(state="visible")  # the panels come back a moment after the timeline
    columns.last.wait_for(state="visible")
    log_box, knowledge_box = columns.first.bounding_box(), columns.last.bounding_box()
    assert log_box is not None and knowledge_box is not None
    assert knowledge_box["x"] > log_box["x"] + log_box["width"] - 1  # beside, not below, at 1280 px
    for _ in range(2):
        play_one_move(page, twin, rng)

    # The timeline: start, next, back, the keyboard, live; replaying never offers a move.
    click_button(page, tr("first", "en"))
    twin.timeline_bar.first_button.click()
    wait_for_log(page, twin)
    wait_for_options(page, twin)
    assert twin.moves.option_buttons == [] and page.evaluate(VISIBLE_OPTIONS) == []
    click_button(page, tr("next", "en"))
    twin.timeline_bar.next_button.click()
    wait_for_log(page, twin)
    page.locator(f"{WIDGET} .tabletop-timeline .noUi-handle").focus()
    page.keyboard.press("ArrowRight")
    twin.timeline.value += 1
    wait_for_log(page, twin)
    assert page.locator(f"{WIDGET} .tabletop-step-events b").inner_text() == f"Step {twin.timeline.value} of " \
        f"{len(twin.state.history)}"
    click_button(page, tr("previous", "en"))
    twin.timeline_bar.previous_button.click()
    wait_for_log(page, twin)
    page.locator(f"{WIDGET} .tabletop-timeline .noUi-handle").focus()
    page.keyboard.press("Home")
    twin.timeline_bar.first_button.click()
    wait_for_log(page, twin)
    click_button(page, tr("live", "en"))
    twin.timeline_bar.live_button.click()
    wait_for_log(page, twin)
    wait_for_options(page, twin)

    # Through every seat's eyes: no other seat's secret anywhere in the page (new panels included).
    picker = page.locator(f"{WIDGET} select").first
    choices = [value for _, value in twin.perspective_picker.options]
    for seat in range(len(twin.state.players)):
        picker.select_option(index=choices.index(seat))
        twin.perspective_picker.value = seat
        wait_for_log(page, twin)
        title = html.unescape(twin.log_title.value)
        page.locator(f"{WIDGET} .tabletop-column-title").first.get_by_text(title).wait_for()
        assert_no_secret_of_others(page, twin, seat)
    picker.select_option(index=choices.index(0))
    twin.perspective_picker.value = 0
    wait_for_log(page, twin)

    # In French, to the end, by clicking only.
    click_button(page, "fr")
    twin.language_picker.value = "fr"
    page.get_by_text("Point de vue", exact=True).wait_for()
    page.locator(WIDGET).get_by_text("Journal vu par Ana").wait_for()
    wait_for_log(page, twin)
    wait_for_options(page, twin)
    screenshot(f"voila-{name}-fr")
    for _ in range(twin.state.max_steps):
        if twin.state.is_over:
            break
        play_one_move(page, twin, rng)
    assert twin.state.is_over
    end = page.locator(f"{WIDGET} .tabletop-end")
    end.wait_for(state="visible")
    for seat in twin.state.winners:
        assert twin.state.players[seat] in end.inner_text()
    wait_for_options(page, twin)
    assert page.evaluate(VISIBLE_OPTIONS) == []
    end.scroll_into_view_if_needed()
    screenshot(f"voila-{name}-end")
    click_button(page, tr("projector", "fr"))
    page.wait_for_selector(f"{WIDGET}.tabletop-projector")
    end.scroll_into_view_if_needed()
    screenshot(f"voila-{name}-end-projector")
    assert offline_requests(page) == []


def test_the_bots_pace_a_class_can_follow(page: Any, voila: str) -> None:
    """One move a second through the kernel's own clock, then step by step with "Next move"."""
    twin = twin_widget("peek")
    page.goto(f"{voila}/voila/render/classroom/peek.ipynb")
    page.wait_for_selector(WIDGET, timeout=90_000)
    wait_for_options(page, twin)
    assert page.locator(WIDGET).get_by_role("button", name=tr("pace_second", "en")).get_attribute(
        "class").count("mod-active") == 1
    play_words(page, twin, "peek 1")  # Ana moves; the two bots follow, a second apart
    assert twin.scheduler.advance(1.0) == 1
    wait_for_log(page, twin)
    assert twin.scheduler.advance(1.0) == 1
    wait_for_log(page, twin)
    assert twin.state.current_player == 0

    click_button(page, tr("pace_step", "en"))
    twin.set_bot_pace("step")
    next_move = page.locator(WIDGET).get_by_role("button", name=tr("next_bot", "en"))
    next_move.wait_for(state="visible")
    play_words(page, twin, "peek 2")
    for _ in range(2):  # the bots wait for the teacher
        assert twin.state.current_player != 0
        next_move.click()
        twin.next_bot_move()
        wait_for_log(page, twin)
    assert offline_requests(page) == []
