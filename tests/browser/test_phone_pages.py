"""A student's page on a phone, in a real browser: the table on the first screen with the belief questions below
it (beside it on a laptop), "offline" said in words the moment the network goes, a belief sent offline kept and
sent on return, the page back with its table and its draft when the network or the tab comes back, the screen
kept awake, the countdown of a move's time limit, the move a bot played when it ran out, the language kept.

The server runs as its own process (`serve --port 0`), the other seats are bots. The network is cut with
playwright's `context.set_offline`; a tab hidden and shown again is emulated by a script the test installs
(`document.visibilityState` and its event), as is a Screen Wake Lock that records what the page asks of it.
Screenshots of every game, EN and FR, online and offline, at a phone's and a laptop's size go to
test-artifacts/phones/.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.pages import move_words
from tabletop_edu.classroom.testing import ServerProcess
from tabletop_edu.core import load

from .conftest import axe_violations

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONES = ARTIFACTS / "phones"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
OFFLINE = {"en": "offline", "fr": "hors ligne"}
#: A tab hidden and shown again, and a Screen Wake Lock that counts what the page asks of it (installed before
#: the page's own scripts; a hidden tab releases its lock, as browsers do).
EMULATION = """
window.__wake = {requests: 0, released: 0, sentinel: null};
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request: function (type) {
  var sentinel = new EventTarget();
  sentinel.type = type; sentinel.released = false;
  sentinel.release = function () {
    if (!sentinel.released) { sentinel.released = true; window.__wake.released += 1;
                              sentinel.dispatchEvent(new Event("release")); }
    return Promise.resolve();
  };
  window.__wake.requests += 1; window.__wake.sentinel = sentinel;
  return Promise.resolve(sentinel);
}}});
window.__tabHidden = false;
Object.defineProperty(Document.prototype, "visibilityState",
                      {configurable: true, get: function () { return window.__tabHidden ? "hidden" : "visible"; }});
Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: function () { return window.__tabHidden; }});
window.__setHidden = function (hidden) {
  window.__tabHidden = hidden;
  if (hidden && window.__wake.sentinel) { window.__wake.sentinel.release(); }
  document.dispatchEvent(new Event("visibilitychange"));
};
"""


@pytest.fixture()
def class_server(tmp_path: Path) -> Any:
    ARTIFACTS.mkdir(exist_ok=True)
    server = ServerProcess(tmp_path / "class.sqlite3", ARTIFACTS / "phone-pages-server.log").start()
    try:
        yield server
    finally:
        server.stop()


def seat_page(browser: Any, link: str, name: str, language: str, size: dict[str, Any] = PHONE,
              emulate: bool = False) -> Any:
    """A student's page at `link`, seated under `name` and connected."""
    context = browser.new_context(**size, bypass_csp=True)  # axe-core is injected as an inline script
    if emulate:
        context.add_init_script(EMULATION)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{link}?lang={language}")
    page.locator("input[name=name]").fill(name)
    page.locator("form button[type=submit]").click()
    page.wait_for_selector("#app")
    page.wait_for_function("() => document.getElementById('online').dataset.online === '1'")
    return page


def tap_until(page: Any, condition: str, rng: random.Random, taps: int = 60) -> None:
    """Tap the page's move buttons (as a student would) until `condition` (a JS function's body) holds."""
    from playwright.sync_api import Error as PlaywrightError  # as the browser fixture imports it: when used

    check = f"() => {{ {condition} }}"
    for _ in range(taps):
        if page.evaluate(check):
            return
        state, drawn, step = page.evaluate("() => [document.getElementById('app').dataset.state, "
                                           "document.getElementById('moves').dataset.drawn, "
                                           "document.getElementById('app').dataset.step]")
        buttons = page.locator("#moves .options button")
        count = buttons.count()
        if state == "turn" and count:
            try:  # the menu may be redrawn between counting its buttons and the tap: then look again
                buttons.nth(rng.randrange(count)).click(timeout=5_000)
            except PlaywrightError:
                continue
            page.wait_for_function(f"([d, s]) => document.getElementById('moves').dataset.drawn !== d || "
                                   f"document.getElementById('app').dataset.step !== s || ({check})()",
                                   arg=[drawn, step])
        else:
            page.wait_for_function(f"([d, s]) => document.getElementById('moves').dataset.drawn !== d || "
                                   f"document.getElementById('app').dataset.step !== s || ({check})()",
                                   arg=[drawn, step])
    raise AssertionError(f"not after {taps} taps: {condition}")


def box(page: Any, selector: str) -> dict[str, float]:
    return dict(page.locator(selector).bounding_box())


def shoot(page: Any, name: str) -> None:
    """The page at a phone's size (its first screen, as the student sees it) and a laptop's (the whole page)."""
    PHONES.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(PHONE["viewport"])
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(PHONES / f"{name}-phone.png"))
    page.set_viewport_size(LAPTOP["viewport"])
    page.screenshot(path=str(PHONES / f"{name}-laptop.png"), full_page=True)
    page.set_viewport_size(PHONE["viewport"])


#: Each game at the moment it asks the student a question: the room, and what the page shows then.
GAMES = {
    "mafia_de_cuba": ({"players": 6, "seed": 3}, "return !document.getElementById('beliefs').hidden"),
    "get_adler": ({"players": 4, "seed": 5}, "return !document.getElementById('beliefs').hidden"),
    "commissario": ({"players": 4, "seed": 7}, "return document.querySelector('#beliefs details') !== null && "
                                               "document.getElementById('app').dataset.state === 'turn'"),
}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_is_on_the_first_screen_of_a_phone_and_the_questions_below_or_beside_it(
        browser: Any, axe: str, class_server: ServerProcess, game: str, language: str) -> None:
    options, asked = GAMES[game]
    teacher = TeacherClient(class_server.url, class_server.token)
    players = int(options["players"])
    room = teacher.create_room(game, players, seed=int(options["seed"]), language=language, bot_delay=0,
                               beliefs=True, move_time_limit=600,
                               bots={seat: "random" for seat in range(1, players)})
    page = seat_page(browser, room["seats"][0]["link"], "Ana", language)
    try:
        tap_until(page, asked, random.Random(1))
        table, beliefs = box(page, "#table"), box(page, "#beliefs")
        assert table["y"] < 0.75 * PHONE["viewport"]["height"], f"the table starts {table['y']:.0f}px down"
        assert beliefs["y"] >= table["y"] + table["height"] - 1, "the questions come below the table"
        folded = page.locator("#beliefs details.belief-choices")
        if game == "commissario":  # 21 cards: folded, opened by a tap
            assert folded.count() and not folded.first.evaluate("details => details.open")
            folded.first.locator("summary").click()
            assert folded.first.evaluate("details => details.open")
            assert page.locator("#beliefs .belief-row").first.is_visible()
        total = page.locator("#beliefs .belief-total").first.inner_text()
        assert "100\u00a0%" in total, "a total short of 100 % says in words what it is for"
        assert page.locator("#beliefs .belief-total").first.evaluate("e => getComputedStyle(e).color") \
            != "rgb(183, 28, 28)", "not in an alarming red"
        if page.locator("#app").get_attribute("data-state") == "turn":
            page.locator("#countdown").wait_for()
            assert page.locator("#countdown").inner_text().startswith({"en": "Time left", "fr": "Temps restant"}[language])
        found = axe_violations(page, axe)  # the folded question, the countdown: nothing serious for axe-core
        assert not found.get("critical") and not found.get("serious"), found
        shoot(page, f"{game}-{language}-online")
        page.set_viewport_size(LAPTOP["viewport"])
        table, beliefs = box(page, "#table"), box(page, "#beliefs")
        assert beliefs["x"] + beliefs["width"] <= table["x"] + 1 and beliefs["y"] < LAPTOP["viewport"]["height"], \
            "on a laptop the questions stand beside the table"
        page.set_viewport_size(PHONE["viewport"])
        page.context.set_offline(True)
        page.wait_for_function("w => document.getElementById('online').textContent.includes(w)", arg=OFFLINE[language],
                               timeout=10_000)  # the `offline` event, not the heartbeat's 35 s
        shoot(page, f"{game}-{language}-offline")
        page.context.set_offline(False)
        page.wait_for_function("() => document.getElementById('online').dataset.online === '1'")
    finally:
        page.context.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_offline_is_said_in_words_and_a_belief_sent_offline_is_kept_and_sent_on_return(
        browser: Any, class_server: ServerProcess, language: str) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("get_adler", 4, seed=5, language=language, bot_delay=0, beliefs=True,
                               bots={seat: "smart" for seat in range(1, 4)})
    page = seat_page(browser, room["seats"][0]["link"], "Ana", language)
    try:
        page.wait_for_function("() => !document.getElementById('beliefs').hidden")  # Get Adler asks at once
        page.wait_for_function("() => ['on', 'refused', 'unavailable'].includes("
                               "document.getElementById('app').dataset.wakeLock)")  # Chromium's own: harmless
        page.context.set_offline(True)
        page.wait_for_function("w => document.getElementById('online').textContent.includes(w)", arg=OFFLINE[language],
                               timeout=10_000)
        banner = page.locator("#connection")
        assert banner.is_visible() and {"en": "Offline", "fr": "Hors ligne"}[language] in banner.inner_text()
        assert all(button.is_disabled() for button in page.locator("#moves button").all()), \
            "nothing to tap offline, and the banner says why"
        for _ in range(10):
            page.locator("#beliefs fieldset.belief").first.locator(".belief-row").first.locator("button.more").tap()
        key = page.locator("#beliefs fieldset.belief").first.get_attribute("data-key")
        page.locator("#beliefs fieldset.belief").first.locator("button.send").tap()
        kept = page.locator(f"#beliefs fieldset.belief.kept[data-key='{key}'] .belief-kept")
        kept.wait_for()
        assert {"en": "Kept", "fr": "Gardée"}[language] in kept.inner_text()
        assert teacher.records()[0]["beliefs"]["rows"] == []  # not sent yet
        page.context.set_offline(False)
        page.wait_for_function("k => document.querySelector(`#beliefs fieldset.belief.sent[data-key='${k}']`)",
                               arg=key)
        assert [list(row["belief"].values()).count(1.0) for row in teacher.records()[0]["beliefs"]["rows"]] == [1]
        assert page.locator("#connection").is_hidden()
    finally:
        page.context.close()


def routed_page(browser: Any, link: str, name: str) -> tuple[Any, Any, set[int], list[Any]]:
    """A seat's page on a phone whose sockets pass through the test (their numbers in `silent`: the server's
    messages no longer reach the page, as on a dead line), its clock the test's to move on, and `EMULATION`."""
    context = browser.new_context(**PHONE)
    context.add_init_script(EMULATION)
    context.clock.install()
    silent: set[int] = set()
    sockets: list[Any] = []

    def route(socket: Any) -> None:
        server = socket.connect_to_server()
        number = len(sockets)
        sockets.append(socket)
        server.on_message(lambda message: None if number in silent else socket.send(message))

    context.route_web_socket("**/ws/**", route)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(link)
    page.locator("input[name=name]").fill(name)
    page.locator("form button[type=submit]").click()
    return context, page, silent, sockets


def test_a_tab_shown_again_reconnects_with_its_table_and_its_draft_and_keeps_the_screen_awake(
        browser: Any, class_server: ServerProcess) -> None:
    """A phone asleep keeps a dead socket (it looks open, nothing comes): shown again, the page does not wait for
    the heartbeat's 35 s but reconnects at once. The line is made silent by routing the socket through the test,
    and the page's clock moved 16 s on (two heartbeats of silence, not yet the heartbeat's verdict)."""
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("get_adler", 4, seed=5, bot_delay=0, beliefs=True,
                               bots={seat: "smart" for seat in range(1, 4)})
    context, page, silent, sockets = routed_page(browser, room["seats"][0]["link"], "Ana")
    try:
        page.wait_for_function("() => document.getElementById('app')?.dataset.connects === '1' && "
                               "!document.getElementById('beliefs').hidden")
        page.wait_for_function("() => document.getElementById('app').dataset.wakeLock === 'on'")
        for _ in range(3):  # a draft: 30 % on the first answer, not sent
            page.locator("#beliefs fieldset.belief").first.locator(".belief-row").first.locator("button.more").tap()
        table = page.locator("#table").inner_html()
        page.evaluate("() => window.__setHidden(true)")  # the phone sleeps: its lock is released
        page.wait_for_function("() => document.getElementById('app').dataset.wakeLock === 'released'")
        silent.add(len(sockets) - 1)  # and its socket goes silent
        page.clock.fast_forward(16_000)
        assert page.locator("#app").get_attribute("data-connects") == "1"  # the heartbeat has not given up yet
        page.evaluate("() => window.__setHidden(false)")  # shown again: a new socket at once, the screen awake
        page.wait_for_function("() => document.getElementById('app').dataset.connects === '2' && "
                               "document.getElementById('online').dataset.online === '1'")
        page.wait_for_function("() => window.__wake.requests === 2 && "
                               "document.getElementById('app').dataset.wakeLock === 'on'")
        assert page.locator("#table").inner_html() == table
        value = page.locator("#beliefs fieldset.belief").first.locator(".belief-value").first.inner_text()
        assert value == "30\u00a0%", "the draft survives the reconnection"
        teacher.command(room["code"], "pause")  # the new socket is live: the server's change reaches the page
        page.wait_for_function("() => document.getElementById('app').dataset.state === 'paused'")
    finally:
        context.close()


def test_a_tap_on_a_dead_line_is_refused_in_words_and_the_page_reconnects(
        browser: Any, class_server: ServerProcess) -> None:
    """A classroom's Wi-Fi gone while the phone believes it is on it: no `offline` event, a socket that takes the
    tap and answers nothing. The page says the tap was not sent and reconnects, 8 s on (the page's clock)."""
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("get_adler", 4, seed=5, bot_delay=0, bots={seat: "smart" for seat in range(1, 4)})
    context, page, silent, sockets = routed_page(browser, room["seats"][0]["link"], "Ana")
    try:
        page.wait_for_function("() => document.getElementById('app')?.dataset.state === 'turn' && "
                               "document.querySelectorAll('#moves .options button').length > 0")
        silent.add(len(sockets) - 1)
        page.locator("#moves .options button").first.tap()
        page.clock.fast_forward(9_000)
        page.wait_for_function("() => document.getElementById('app').dataset.connects === '2' && "
                               "document.getElementById('app').dataset.state === 'turn'")
        assert page.locator("#message").inner_text().startswith("Not sent: the connection was lost.")
        assert teacher.room(room["code"])["step"] == 0  # nothing was played
        page.locator("#moves .options button").first.tap()  # the student taps again, on a live line
        page.wait_for_function("() => document.getElementById('message').textContent === ''")
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_time_limit_counts_down_and_a_bot_playing_for_the_student_says_which_move(
        browser: Any, class_server: ServerProcess, language: str) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("mafia_de_cuba", 6, seed=3, language=language, bot_delay=0, move_time_limit=6,
                               bots={seat: "random" for seat in range(1, 6)})
    page = seat_page(browser, room["seats"][0]["link"], "Ana", language)
    try:
        page.wait_for_function("() => document.getElementById('app').dataset.state === 'turn'")
        countdown = page.locator("#countdown")
        countdown.wait_for()
        first = int(countdown.get_attribute("data-seconds") or 0)
        assert 0 < first <= 6
        assert {"en": "Time left for your move", "fr": "Temps restant pour votre coup"}[language] in countdown.inner_text()
        page.wait_for_function("s => Number(document.getElementById('countdown').dataset.seconds) < s", arg=first)
        page.wait_for_function("() => document.getElementById('app').dataset.notice === 'time_up'")
        record = teacher.record(room["code"])
        assert record is not None
        seat, action = record["actions"][0]
        assert seat == 0 and teacher.room(room["code"])["moves"][0][3] == "time_up"
        view = load({**record, "actions": []}).view(0)
        text = page.locator("#message").inner_text()
        start = {"en": "Time's up: a bot played for you: ", "fr": "Temps écoulé : un robot a joué pour vous : "}
        assert text == f"{start[language]}{move_words(view, action, language)}."
        shoot(page, f"time-up-{language}")  # the Godfather's next move has its own countdown
    finally:
        page.context.close()


def test_the_students_language_is_kept_when_they_come_back_by_the_join_page_or_a_new_link(
        browser: Any, class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    french = teacher.create_room("peek", 2, seed=3, bot_delay=0, language="fr", bots={1: "random"})
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0, language="en", bots={1: "random"})
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{class_server.url}/j/{french['code']}")
        assert page.locator("html").get_attribute("lang") == "fr", "a French room's join page is French at once"
        assert page.locator("h1").inner_text() == "Rejoindre une table"
        page.goto(f"{class_server.url}/j/{room['code']}")  # an English room, and a student who reads French
        page.get_by_role("link", name="Français").click()
        page.wait_for_function("() => document.documentElement.lang === 'fr'")
        page.locator("input[name=name]").fill("Ana")
        page.locator("form button[type=submit]").click()
        page.wait_for_function("() => document.getElementById('online')?.dataset.online === '1'")
        assert page.locator("html").get_attribute("lang") == "fr"
        for address in (f"{class_server.url}/", room["seats"][0]["link"], f"{class_server.url}/j/{room['code']}"):
            page.goto(address)  # the join page, the teacher's link, the room's link: no language in the address
            page.wait_for_function("() => document.documentElement.lang === 'fr'")
        page.wait_for_function("() => document.getElementById('online')?.dataset.online === '1'")  # back in the seat
        assert page.locator("#status").inner_text().startswith(("À vous de jouer", "En attente", "Partie terminée"))
    finally:
        context.close()


def test_the_screen_may_sleep_again_once_the_game_is_over(browser: Any, class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0, bots={1: "random"}, move_time_limit=600)
    context, page, _, _ = routed_page(browser, room["seats"][0]["link"], "Ana")
    try:
        page.wait_for_function("() => document.getElementById('app')?.dataset.wakeLock === 'on'")
        countdown = page.locator("#countdown")
        countdown.wait_for()
        assert "10\u00a0min 00\u00a0s" in countdown.inner_text() or "9\u00a0min" in countdown.inner_text()
        tap_until(page, "return document.getElementById('app').dataset.state === 'over'", random.Random(2))
        page.wait_for_function("() => document.getElementById('app').dataset.wakeLock === 'off' && "
                               "window.__wake.sentinel.released")
        assert countdown.is_hidden()
    finally:
        context.close()


def test_the_projector_shows_the_newest_testimony_on_its_screen(browser: Any, class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("mafia_de_cuba", 6, seed=3, bot_delay=0, bots={seat: "random" for seat in range(6)})
    context = browser.new_context(**LAPTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(room["watch_url"])
        page.wait_for_function("() => document.getElementById('app').dataset.state === 'over'")
        said = page.locator("#table .tt-panel", has=page.get_by_role("heading", name="What was said")).locator("ol > li")
        assert said.count() > 10
        newest = said.last.bounding_box()
        assert newest is not None and newest["y"] + newest["height"] <= LAPTOP["viewport"]["height"], \
            f"the newest testimony is {newest} down: below the fold"
        PHONES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(PHONES / "projector-mafia-laptop.png"))
    finally:
        context.close()


def test_the_class_message_is_asked_again_the_moment_the_network_is_back(browser: Any,
                                                                          class_server: ServerProcess) -> None:
    """The waiting page's ask for the teacher's message fails while the network is gone, and waits longer after
    each failure; back online, it asks at once: the page's clock stopped, no timer could have asked for it."""
    teacher = TeacherClient(class_server.url, class_server.token)
    code = teacher.create_class("get_adler", preferred=4, seed=2, bot_delay=0)["code"]
    context = browser.new_context(**PHONE)
    context.clock.install()
    context.route("**/note*", lambda route: route.abort("internetdisconnected"))
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{class_server.url}/j/{code}")
        page.locator("input[name=name]").fill("Ana")

        def note_failed(request: Any) -> bool:
            return "/note" in request.url

        with page.expect_event("requestfailed", note_failed):
            page.locator("form button[type=submit]").click()
        for _ in range(4):  # asked again 1, 2, 4 then 8 s later: the page's clock moved on to each
            with page.expect_event("requestfailed", note_failed):
                page.clock.fast_forward(10_000)
        context.set_offline(True)
        page.clock.pause_at(page.evaluate("() => Date.now()") + 1)
        teacher.class_command(code, "note", text="Bienvenue")
        context.unroute("**/note*")
        context.set_offline(False)
        page.wait_for_selector("#class-note strong")
        assert page.locator("#class-note span").inner_text() == "Bienvenue"
    finally:
        context.close()
