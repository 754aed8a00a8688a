"""Every class page and the widgets' HTML pass axe-core's WCAG 2.2 AA rules with no serious or critical finding,
in English and French, on a projector (1280x800) and a phone (390x844).

One class server for the module (as `serve` runs it). For each game: a room whose other seats are bots, and its
join page, a seat's name page, the seat's page at the student's turn, the projector's page; then the notebook
widget's pieces (the teacher's whole table, a seat's table, the log, the knowledge panel, the reveal) on a page
of their own. What axe finds, rule by rule, goes to test-artifacts/accessibility/<game>.json.

Then what axe cannot see: Commissario's six families are told apart by more than colour (each card names its
colour, each family has a shape of its own; a greyscale screenshot shows it), a whole game is played from a seat's
page with the keyboard alone, and a system that asks for reduced motion gets none.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from .conftest import ARTIFACTS, DESKTOP, PHONE, axe_violations

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.pages import reveal_html
from tabletop_edu.classroom.testing import ServerProcess
from tabletop_edu.commissario.rules import COLOURS
from tabletop_edu.commissario.words import colour_word
from tabletop_edu.core import GameState
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


def seated(context: Any, seat_link: str) -> Any:
    """A page on the seat's link, the student's name given ("Ana"): the seat's own page follows."""
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(seat_link)
    page.locator("input[name=name]").fill("Ana")
    page.locator("form button[type=submit]").click()
    return page


def played(name: str, players: int, moves: int) -> tuple[GameState[Any], GameState[Any]]:
    """A game of random moves (seeded): its state after `moves` moves, and at its end."""
    state, rng = game_plugin(name).new_game(players, seed=5), random.Random(5)
    middle = state.clone()
    while not state.is_over:
        if len(state.history) == moves:
            middle = state.clone()
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    return middle, state


def widget_page(name: str, players: int, language: str, moves: int = 6) -> str:
    """The notebook widget's pieces of a game `moves` moves in, as one page (a notebook cell holds the same HTML)."""
    plugin = game_plugin(name)
    middle, state = played(name, players, moves)
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


# ------------------------------------------------------------------------------------------ colour is not alone


@pytest.mark.parametrize("language", LANGUAGES)
def test_commissario_families_are_told_apart_without_colour(browser: Any, language: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.set_content(widget_page("commissario", 3, language, moves=40))
        marks = page.evaluate("""() => [...document.querySelectorAll('.tt-card[class*="tt-colour-"],'
            + ' .tt-swatch[class*="tt-colour-"]')].map(element => ({
                colour: [...element.classList].find(name => name.startsWith('tt-colour-')).slice(10),
                swatch: element.classList.contains('tt-swatch'), hidden: element.getAttribute('aria-hidden'),
                text: (element.classList.contains('tt-swatch') ? element.parentElement : element).innerText,
                shape: getComputedStyle(element, '::before').content}))""")
        families = [mark for mark in marks if mark["colour"] in COLOURS]
        assert {mark["colour"] for mark in families} == set(COLOURS) and len(families) > 12
        for mark in families:  # its colour in words, beside it (a swatch is drawn only: its name follows it)
            assert colour_word(mark["colour"], language) in mark["text"], mark
            assert not mark["swatch"] or mark["hidden"] == "true", mark
        shapes = {colour: {mark["shape"] for mark in families if mark["colour"] == colour} for colour in COLOURS}
        assert all(len(shape) == 1 for shape in shapes.values()), shapes  # one shape a family
        assert len({shape.pop() for shape in shapes.values()}) == len(COLOURS)  # and each its own
        page.add_style_tag(content="html { filter: grayscale(1); }")  # as a colour-blind student sees no hue
        for size_name, size in SIZES.items():
            page.set_viewport_size(size)
            page.screenshot(path=str(A11Y_ARTIFACTS / f"commissario-greyscale-{language}-{size_name}.png"),
                            full_page=True)
    finally:
        context.close()


# ------------------------------------------------------------------------------------------ the keyboard alone


def focused(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("() => ({inMoves: document.getElementById('moves').contains(document.activeElement)"
                              " && document.activeElement.tagName === 'BUTTON', name: document.activeElement"
                              ".innerText || document.activeElement.getAttribute('aria-label') || '',"
                              " buttons: document.querySelectorAll('#moves button').length})"))


@pytest.mark.parametrize("name", ["peek", "commissario"])
def test_a_whole_game_is_played_with_the_keyboard_alone(browser: Any, axe: str, class_server: ServerProcess,
                                                        name: str) -> None:
    """Tab to the moves, Tab among them, Enter or Space to press: to "Game over", the mouse never used. After a
    press the focus stays in the moves (the next menu's first button), so a student does not Tab through the
    whole page again at every word. Pressing at a machine's pace meets the server's throttle now and then
    ("Too many messages"): that press is refused, and the student presses again."""
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room(name, 2, seed=4, bot_delay=0, bots={1: "random"})
    rng = random.Random(4)
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(room["seats"][0]["link"])
        page.locator("input[name=name]").wait_for()
        for _ in range(10):  # the name box has the focus at once (autofocus): type, then Enter sits down
            if page.evaluate("() => document.activeElement.name === 'name'"):
                break
            page.keyboard.press("Tab")
        page.keyboard.type("Kim")
        page.keyboard.press("Enter")
        page.wait_for_selector("#app")
        presses, tabs_after_the_first = 0, 0
        for _ in range(400):
            until_turn(page)
            page.wait_for_function("() => document.getElementById('app').dataset.state === 'over' ||"
                                   " document.getElementById('moves').getAttribute('aria-busy') !== 'true'")
            if page.locator("#app").get_attribute("data-state") == "over":
                break
            tabs = 0
            while not focused(page)["inMoves"]:
                page.keyboard.press("Tab")
                tabs += 1
                assert tabs < 40, "no move button takes the keyboard's focus"
            refused = page.locator("#message").get_attribute("class") == "message error"
            tabs_after_the_first += tabs if presses and not refused else 0  # a refusal (too fast) may drop it
            for _ in range(rng.randrange(focused(page)["buttons"])):
                page.keyboard.press("Tab")
            assert focused(page)["name"].strip(), "a button without a name"
            drawn, step = page.locator("#moves").get_attribute("data-drawn"), page.locator("#app").get_attribute("data-step")
            page.keyboard.press(rng.choice(["Enter", "Space"]))
            presses += 1
            # a refusal (the table moved on under the press: "look again") leaves the menu as it was: press again
            page.wait_for_function("([d, s]) => document.getElementById('moves').dataset.drawn !== d"
                                   " || document.getElementById('app').dataset.step !== s"
                                   " || document.getElementById('message').classList.contains('error')",
                                   arg=[drawn, step])
        else:
            raise AssertionError("the game did not end")
        assert "Game over" in page.locator("#status").inner_text() and presses > 2
        assert tabs_after_the_first == 0, "the focus left the moves after a press"
        assert not [line for impact in BLOCKING for line in axe_violations(page, axe).get(impact, [])]
    finally:
        context.close()


# ------------------------------------------------------------------------------------------ what a screen reader says


#: A role and a name with a letter or digit in it, as an aria snapshot gives them: `- button "Peek 1"`,
#: `- text: blue +5`; not `- button`, `- img ""`.
NAMED = re.compile(r'^- [\w-]+(?: "[^"]*\w[^"]*"|: .*\w)')


def unnamed_on(page: Any, where: str) -> list[str]:
    """Each visible button and card that a screen reader would not name (Chromium's accessibility tree, read
    through Playwright's aria snapshot of the element)."""
    found = []
    for kind, selector in (("button", "button, [role=button]"), ("card", ".tt-card")):
        elements = page.locator(selector)
        for index in range(elements.count()):
            element = elements.nth(index)
            if element.is_visible() and not NAMED.match(snapshot := element.aria_snapshot()):
                found.append(f"{where}: {kind} {snapshot!r} ({element.evaluate('e => e.outerHTML')[:120]})")
    return found


@pytest.mark.parametrize("name", list(GAMES))
def test_every_button_and_card_has_a_name_a_screen_reader_says(browser: Any, class_server: ServerProcess,
                                                               name: str) -> None:
    """On a seat's page at its turn, its menu one word deep, and on the widget's pieces, in English and French:
    every button is named, and every card says what it is."""
    teacher = TeacherClient(class_server.url, class_server.token)
    players = GAMES[name]
    room = teacher.create_room(name, players, seed=3, bot_delay=0,
                               bots={seat: "random" for seat in range(1, players)})
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    unnamed: list[str] = []
    try:
        page = seated(context, room["seats"][0]["link"])
        for language in LANGUAGES:
            page.goto(f"{room['seats'][0]['link']}?lang={language}")
            until_turn(page)
            assert page.locator("#moves button").count(), "a seat's page at its turn without a move button"
            unnamed += unnamed_on(page, f"seat {language}")
            first = page.locator("#moves .options button:not(.final)").first
            if first.count():
                drawn = page.locator("#moves").get_attribute("data-drawn")
                first.click()
                page.wait_for_function("d => document.getElementById('moves').dataset.drawn !== d", arg=drawn)
                unnamed += unnamed_on(page, f"seat-menu {language}")
            page.set_content(widget_page(name, players, language))
            assert page.locator(".tt-card").count() or name == "mafia_de_cuba"  # its box holds tokens, not cards
            unnamed += unnamed_on(page, f"widget {language}")
    finally:
        context.close()
    assert not unnamed, "\n".join(unnamed)


# ------------------------------------------------------------------------------------------ motion off


def test_reduced_motion_turns_every_animation_and_transition_off(browser: Any, class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("mafia_de_cuba", 6, seed=2, bot_delay=0, bots={seat: "random" for seat in range(1, 6)})
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    moving = ("() => [...document.querySelectorAll('*')].flatMap(element => [null, '::before', '::after'].map(part =>"
              " [element, getComputedStyle(element, part)])).filter(([element, style]) =>"
              " style.transitionDuration.split(',').some(d => parseFloat(d) > 0) ||"
              " (style.animationName !== 'none' && style.animationDuration.split(',').some(d => parseFloat(d) > 0)))"
              ".map(([element]) => element.className || element.tagName)")
    try:
        # a transition the page might have gained would show here: every element asked, with its ::before/after
        page = seated(context, room["seats"][0]["link"])
        until_turn(page)
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert page.evaluate(moving) == []
        page.add_style_tag(content=".tt-card, .move { transition: transform .3s; animation: spin 1s infinite; }")
        assert page.evaluate(moving) == [], "a motion the stylesheets gain later is turned off too"
        page.set_content(widget_page("commissario", 3, "en"))
        page.add_style_tag(content=".tt-card { transition: transform .3s; }")
        assert page.evaluate(moving) == []
    finally:
        context.close()
