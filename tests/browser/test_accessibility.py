"""Every class page and the widgets' HTML pass axe-core's WCAG 2.2 AA rules with no serious or critical finding,
in English and French, on a projector (1280x800) and a phone (390x844).

One class server for the module (as `serve` runs it). For each game: a room whose other seats are bots, and its
join page, a seat's name page, the seat's page at the student's turn, the projector's page; then the notebook
widget's pieces (the teacher's whole table, a seat's table, the log, the knowledge panel, the reveal) on a page
of their own. What axe finds, rule by rule, goes to test-artifacts/accessibility/<game>.json.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from .conftest import ARTIFACTS, DESKTOP, PHONE, axe_violations

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.pages import reveal_html
from tabletop_edu.classroom.testing import ServerProcess
from tabletop_edu.registry import game as game_plugin
from tabletop_edu.rendering import render_state_html, render_view_html
from tabletop_edu.widgets.panels import log_html

A11Y_ARTIFACTS = ARTIFACTS / "accessibility"
GAMES = {"peek": 2, "commissario": 3, "get_adler": 4, "mafia_de_cuba": 6}
LANGUAGES = ("en", "fr")
SIZES = {"desktop": DESKTOP, "phone": PHONE}
BLOCKING = ("critical", "serious")


@pytest.fixture(scope="module")
def class_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    A11Y_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path_factory.mktemp("a11y") / "class.sqlite3",
                           A11Y_ARTIFACTS / "class-server.log").start()
    try:
        yield server
    finally:
        server.stop()


class Audit:
    """axe-core's findings on every page visited, at every size, by page name."""

    def __init__(self, axe: str) -> None:
        self.axe = axe
        self.found: dict[str, dict[str, list[str]]] = {}

    def check(self, page: Any, name: str) -> None:
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            self.found[f"{name} {size_name}"] = axe_violations(page, self.axe)

    def counts(self) -> dict[str, dict[str, int]]:
        return {name: {impact: len(lines) for impact, lines in found.items()} for name, found in self.found.items()}

    def blocking(self) -> list[str]:
        return [f"{name}: [{impact}] {line}" for name, found in self.found.items() for impact in BLOCKING
                for line in found.get(impact, [])]


def until_turn(page: Any) -> None:
    page.wait_for_function("() => document.getElementById('online').dataset.online === '1' && "
                           "['turn', 'over'].includes(document.getElementById('app').dataset.state) && "
                           "(document.getElementById('app').dataset.state === 'over' || "
                           "document.querySelector('#moves button') !== null)")


def widget_page(name: str, players: int, language: str) -> str:
    """The notebook widget's pieces of a game a few moves in, as one page (a notebook cell holds the same HTML)."""
    plugin = game_plugin(name)
    state, rng = plugin.new_game(players, seed=5), random.Random(5)
    states = []
    while not state.is_over:
        if len(state.history) == 6:
            states.append(state.clone())
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    middle = states[0] if states else state
    knowledge = plugin.knowledge_panel()
    parts = [render_state_html(middle, language), render_view_html(middle.view(0), language),
             log_html(middle, None, language), knowledge(middle, language) if knowledge else "",
             reveal_html(state, language)]
    return (f"<!doctype html><html lang='{language}'><head><meta charset='utf-8'><title>{name}</title></head>"
            f"<body><main><h1>{name}</h1>{''.join(parts)}</main></body></html>")


@pytest.mark.parametrize("name", list(GAMES))
def test_every_page_of_a_game_has_no_serious_or_critical_violation(browser: Any, axe: str,
                                                                   class_server: ServerProcess, name: str) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    players = GAMES[name]
    room = teacher.create_room(name, players, seed=2, bot_delay=0,
                               bots={seat: "random" for seat in range(1, players)})
    seat_link = room["seats"][0]["link"]
    audit = Audit(axe)
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        for language in LANGUAGES:
            page.goto(f"{class_server.url}/j/{room['code']}?lang={language}")
            audit.check(page, f"join {language}")
            page.goto(f"{seat_link}?lang={language}")
            page.locator("input[name=name]").wait_for()
            audit.check(page, f"name {language}")
        page.locator("input[name=name]").fill("Ana")
        page.locator("form button[type=submit]").click()
        for language in LANGUAGES:
            page.goto(f"{seat_link}?lang={language}")
            until_turn(page)
            audit.check(page, f"seat {language}")
            first = page.locator("#moves .options button:not(.final)").first
            if first.count():  # a word chosen: the path so far and the Back button
                drawn = page.locator("#moves").get_attribute("data-drawn")
                first.click()
                page.wait_for_function("d => document.getElementById('moves').dataset.drawn !== d", arg=drawn)
                audit.check(page, f"seat-menu {language}")
            page.goto(f"{room['watch_url']}?lang={language}")
            page.wait_for_function("() => document.getElementById('online').dataset.online === '1'")
            audit.check(page, f"watch {language}")
            page.set_content(widget_page(name, players, language))
            audit.check(page, f"widget {language}")
    finally:
        context.close()
    (A11Y_ARTIFACTS / f"{name}.json").write_text(json.dumps({"counts": audit.counts(), "found": audit.found},
                                                            indent=1, ensure_ascii=False), encoding="utf-8")
    blocking = audit.blocking()
    assert not blocking, f"{len(blocking)} serious or critical:\n" + "\n".join(blocking)
