"""Class play in a real browser: every student on a page of their own (one browser context each, phones and
laptops), moves made by tapping the buttons, the teacher's dashboard open in JupyterLab.

The server runs as its own process (`python -m tabletop_edu serve --port 0`), as in a classroom. After every
move each student's page (its DOM, the full HTML) and every websocket frame it received are checked against
the secrets of the other seats at that step. No page may request anything from another host.
Screenshots (phone, laptop, dashboard) go to test-artifacts/.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.testing import ServerProcess, leaked, secrets_for
from tabletop_edu.core import GameState, load

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
#: How long a student's tap waits for the button it looked at (ms): past this, the page has redrawn it.
REDRAWN_WAIT = 5_000


@pytest.fixture()
def class_server(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    """`serve` in a process of its own; a test parametrized indirectly gives its number of drawing processes."""
    ARTIFACTS.mkdir(exist_ok=True)
    workers = str(getattr(request, "param", 0))
    server = ServerProcess(tmp_path / "class.sqlite3", ARTIFACTS / f"classroom-server-{workers}.log",
                           "--draw-workers", workers).start()
    try:
        if workers != "0":  # the pages are drawn by them from the first move, not by the loop until they start
            server.wait_for(rf"drawing the students' tables in {workers} processes \({workers} asked\)")
        yield server
    finally:
        server.stop()


class Pupil:
    """A student's device: a browser context, the seat's page, the frames its websocket received."""

    def __init__(self, browser: Any, server: str, link: str, name: str, phone: bool, language: str) -> None:
        self.name, self.phone, self.server = name, phone, server
        self.context = browser.new_context(**(PHONE if phone else LAPTOP))
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.frames: list[str] = []
        self.requests: list[str] = []
        self.page.on("websocket", lambda socket: socket.on("framereceived", self._frame))
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.goto(f"{link}?lang={language}")
        self.page.locator("input[name=name]").fill(name)
        self.page.locator("form button[type=submit]").click()
        self.page.wait_for_selector("#app")
        # a function, not an expression: Playwright evals an expression inside the page, which its CSP forbids
        self.page.wait_for_function("() => document.getElementById('online').dataset.online === '1'")

    def _frame(self, payload: Any) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))

    @property
    def seat(self) -> int:
        return int(json.loads(self.frames[0])["seat"])

    def wait_step_at_least(self, step: int) -> tuple[int, str]:
        """Wait until the page shows `step` or a later one (or the end); (its step, its state: turn, wait,
        paused, over)."""
        self.page.wait_for_function("s => { const app = document.getElementById('app'); return app.dataset.state"
                                    " !== 'lobby' && (Number(app.dataset.step) >= s || app.dataset.state === 'over'); }",
                                    arg=step)
        app = self.page.locator("#app")
        return int(app.get_attribute("data-step") or 0), str(app.get_attribute("data-state"))

    def tap_move(self, rng: random.Random) -> list[str]:
        """Tap buttons until a move is sent, as a student would; the labels tapped. The button tapped is the very
        one looked at: if the page redrew its buttons in between (a table arriving redraws them), the student
        looks again. A locator would have waited for a fourth button that the new menu no longer had. A move sent
        earlier may land only now (a bot's simultaneous move moved the step first): then there is nothing to tap."""
        from playwright.sync_api import Error as PlaywrightError  # as the browser fixture imports it: when used

        tapped = []
        for _ in range(20):
            drawn = self.page.locator("#moves").get_attribute("data-drawn")
            complete = self.page.locator("#moves button.complete")
            options = self.page.locator("#moves .options button")
            count = options.count()
            if complete.count() and (count == 0 or rng.random() < 0.3):
                button = complete
            elif count:
                button = options.nth(rng.randrange(count))
            elif self.page.locator("#app").get_attribute("data-state") != "turn":
                return tapped  # the move in flight (or another seat's) landed meanwhile: no longer this seat's turn
            else:  # the page redrew under the student's eyes: look again once a menu is drawn
                self.page.wait_for_function(
                    "d => document.getElementById('moves').dataset.drawn !== d"
                    " || document.getElementById('app').dataset.state !== 'turn'", arg=drawn)
                continue
            try:
                handle = button.element_handle(timeout=REDRAWN_WAIT)
                final = "final" in (handle.get_attribute("class") or "")
                label = handle.inner_text()
                handle.tap(timeout=REDRAWN_WAIT) if self.phone else handle.click(timeout=REDRAWN_WAIT)
            except PlaywrightError:
                if self.page.locator("#moves").get_attribute("data-drawn") == drawn:
                    raise  # the buttons are as they were: the tap itself failed
                continue
            tapped.append(label)
            if final:
                return tapped
            self.page.wait_for_function("d => document.getElementById('moves').dataset.drawn !== d", arg=drawn)
        raise AssertionError(f"{self.name}: no move after 20 taps")

    def check(self, state: GameState[Any], secrets: set[str]) -> None:
        """The page's DOM and its text hold no other seat's secret (read together with the step they show,
        which must be `state`'s); the page asked nothing of another host."""
        seat = self.seat
        page = self.page.evaluate("() => ({step: document.getElementById('app').dataset.step, "
                                  "html: document.documentElement.outerHTML, text: document.body.innerText})")
        if int(page["step"]) == len(state.history):
            for text in (page["html"], page["text"]):
                assert not leaked(text, state, seat, secrets), f"{self.name}'s page shows a secret"
        assert all(url.startswith(self.server) for url in self.requests), \
            [url for url in self.requests if not url.startswith(self.server)]

    def answer_a_question(self) -> bool:
        """If the page asks a belief question not yet answered, tap "+10" ten times on its first answer and send
        it, as a student would (True once it is acknowledged); False if there is none."""
        open_question = self.page.locator("#beliefs fieldset.belief:not(.sent)")
        if not open_question.count():
            return False
        key = open_question.first.get_attribute("data-key")
        for _ in range(10):
            button = self.page.locator(f"#beliefs fieldset.belief[data-key='{key}'] .belief-row").first \
                .locator("button.more")
            button.tap() if self.phone else button.click()
        send = self.page.locator(f"#beliefs fieldset.belief[data-key='{key}'] button.send")
        send.tap() if self.phone else send.click()
        self.page.wait_for_function("k => [...document.querySelectorAll('#beliefs fieldset.belief.sent')]"
                                    ".some(box => box.dataset.key === k) || document.getElementById('message')"
                                    ".classList.contains('error')", arg=key)
        return True

    def close(self) -> None:
        self.context.close()


def check_frames(pupils: list[Pupil], record: dict[str, Any]) -> int:
    """Every frame each page received, against the secrets of its step; returns how many were checked."""
    frames = sorted(((json.loads(frame), pupil.seat) for pupil in pupils for frame in pupil.frames),
                    key=lambda pair: pair[0].get("step") or 0)
    state = load({**record, "actions": []})
    secrets: dict[int, set[str]] = {}
    for message, seat in frames:
        while len(state.history) < (message.get("step") or 0):
            seat_of_move, action = record["actions"][len(state.history)]
            state.apply(action, player=seat_of_move)
            secrets = {}
        if seat not in secrets:
            secrets[seat] = secrets_for(state, seat)
        assert not leaked(message, state, seat, secrets[seat]), f"a frame to seat {seat} holds a secret"
    return len(frames)


class Replay:
    """The room's game at any step, replayed from its record (fetched again when a page is ahead of it)."""

    def __init__(self, teacher: TeacherClient, code: str) -> None:
        self.teacher, self.code = teacher, code
        self.actions: list[list[Any]] = []
        self.states: list[GameState[Any]] = []
        self.secrets: dict[tuple[int, int], set[str]] = {}
        self.refresh()

    def refresh(self) -> int:
        record = self.teacher.record(self.code)
        assert record is not None
        if not self.states:
            self.states.append(load({**record, "actions": []}))
        for seat, action in record["actions"][len(self.actions):]:
            state = self.states[-1].clone()
            state.apply(action, player=seat)
            self.states.append(state)
        self.actions = record["actions"]
        return len(self.actions)

    def secrets_of(self, step: int, seat: int) -> set[str]:
        if (step, seat) not in self.secrets:
            self.secrets[step, seat] = secrets_for(self.states[step], seat)
        return self.secrets[step, seat]


def play_in_browsers(pupils: list[Pupil], teacher: TeacherClient, code: str, rng: random.Random,
                     shots: dict[int, str] | None = None, believers: tuple[Pupil, ...] = ()) -> GameState[Any]:
    """Play the room to the end by tapping (bots, if any, play at once); after every move, check every page
    against the secrets of the step it shows. Each of `believers` answers the first belief question its page
    asks, by tapping."""
    replay = Replay(teacher, code)
    to_answer = set(believers)
    for _ in range(500):
        step = replay.refresh()
        shown = [pupil.wait_step_at_least(step) for pupil in pupils]
        if max(page_step for page_step, _ in shown) > step:
            replay.refresh()
        for pupil, (page_step, _) in zip(pupils, shown):
            pupil.check(replay.states[page_step], replay.secrets_of(page_step, pupil.seat))
        if all(state == "over" for _, state in shown):
            assert replay.states[-1].is_over
            return replay.states[-1]
        for pupil in [pupil for pupil in pupils if pupil in to_answer]:
            if pupil.answer_a_question():
                to_answer.discard(pupil)
        movers = [pupil for pupil, (page_step, state) in zip(pupils, shown)
                  if state == "turn" and page_step == len(replay.actions)]
        if shots and step >= min(shots) and movers:  # a student's turn, on a phone and on a laptop
            name = shots.pop(min(shots))
            for phone in (True, False):
                pupil = next((p for p in movers if p.phone == phone), None) or \
                    next(p for p in pupils if p.phone == phone)
                pupil.page.screenshot(path=str(ARTIFACTS / f"{name}-{'phone' if phone else 'laptop'}.png"),
                                      full_page=True)
        if movers:
            movers[0].tap_move(rng)
            movers[0].wait_step_at_least(step + 1)
        else:  # a bot is to move, or a page has not caught up: wait for the next step on the first page
            pupils[0].wait_step_at_least(step + 1)
    raise AssertionError("the game did not end")


def seat_pupils(browser: Any, server: ServerProcess, room: dict[str, Any], names: list[str], language: str,
                phones: int) -> list[Pupil]:
    links = [seat["link"] for seat in room["seats"] if seat["bot"] is None]
    return [Pupil(browser, server.url, link, name, index < phones, language)
            for index, (link, name) in enumerate(zip(links, names))]


# ------------------------------------------------------------------------------------------ the dashboard


def test_mafia_de_cuba_eight_students_with_the_dashboard_in_jupyterlab(browser: Any, lab_dashboard: Any,
                                                                       class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("mafia_de_cuba", 8, seed=21, language="fr", bot_delay=0, beliefs=True)
    lab_context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pupils: list[Pupil] = []
    try:
        lab_page = lab_context.new_page()
        lab_page.set_default_timeout(60_000)
        dashboard = lab_dashboard(lab_page, class_server.url, class_server.token, room["code"])
        dashboard.wait_for(timeout=120_000)
        names = ["Zoé", "Louis", "Inès", "Hugo", "Léa", "Nathan", "Chloé", "Jules"]
        pupils = seat_pupils(browser, class_server, room, names, "fr", phones=4)
        for name in names:  # the dashboard lists every student as they sit down
            dashboard.get_by_text(name, exact=True).first.wait_for()
        lab_page.screenshot(path=str(ARTIFACTS / "classroom-dashboard-seats.png"), full_page=True)
        final = play_in_browsers(pupils, teacher, room["code"], random.Random(8),
                                 shots={6: "classroom-mafia", 20: "classroom-mafia-said"},  # the box; what was said
                                 believers=(pupils[0], pupils[-1]))  # a phone and a laptop
        assert check_frames(pupils, teacher.record(room["code"])) > 8 * len(final.history)
        stated = teacher.records()[0]["beliefs"]["rows"]
        assert {row["seat"] for row in stated} == {pupils[0].seat, pupils[-1].seat}
        assert all(list(row["belief"].values())[0] == 1.0 for row in stated)  # ten taps on the first answer
        dashboard.get_by_role("button", name="Révéler la table").click()  # the teacher's control, in the browser
        for pupil in pupils:
            pupil.page.locator(".classroom-reveal").wait_for()
        pupils[0].page.screenshot(path=str(ARTIFACTS / "classroom-mafia-revealed-phone.png"), full_page=True)
        dashboard.get_by_role("tab", name="Connaissances").click()
        dashboard.locator(".classroom-flow svg").wait_for(timeout=60_000)  # drawn as SVG, no matplotlib
        dashboard.get_by_role("tab", name="Enseignant (tout)").click()
        lab_page.screenshot(path=str(ARTIFACTS / "classroom-dashboard.png"), full_page=True)
        dashboard.get_by_role("tab", name="Connaissances").click()
        lab_page.screenshot(path=str(ARTIFACTS / "classroom-dashboard-knowledge.png"), full_page=True)
        dashboard.get_by_role("tab", name="Croyances").click()  # the debrief, once the table is revealed
        dashboard.get_by_text("Ce que la classe croyait").wait_for()
        BELIEFS_ARTIFACTS.mkdir(parents=True, exist_ok=True)
        lab_page.screenshot(path=str(BELIEFS_ARTIFACTS / "dashboard-debrief-fr.png"), full_page=True)
    finally:
        for pupil in pupils:
            pupil.close()
        lab_context.close()


@pytest.mark.parametrize(("language", "class_server"), [("en", 0), ("fr", 2)], indirect=["class_server"],
                         ids=["en", "fr-drawn-by-2-workers"])
def test_get_adler_five_students_by_tapping(browser: Any, class_server: ServerProcess, language: str) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("get_adler", 5, seed=4, language=language, bot_delay=0)
    pupils = seat_pupils(browser, class_server, room, ["Ada", "Ben", "Cleo", "Dev", "Eve"], language, phones=2)
    try:
        for pupil in pupils:  # the aid sheet, a student's tool for every question: on a laptop, all its columns
            pupil.wait_step_at_least(0)  # in view (a phone scrolls it sideways, as phones do with tables)
            sheet = pupil.page.locator(".tt-table.tt-keep").first.locator("xpath=..")
            overflow = sheet.evaluate("box => box.scrollWidth - box.clientWidth")
            assert pupil.phone or overflow <= 1, f"{pupil.name}: the aid sheet is {overflow}px too wide"
        final = play_in_browsers(pupils, teacher, room["code"], random.Random(5),
                                 shots={3: f"classroom-adler-{language}"})
        assert check_frames(pupils, teacher.record(room["code"])) > 5 * len(final.history)
    finally:
        for pupil in pupils:
            pupil.close()


def test_commissario_four_students_by_tapping(browser: Any, class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("commissario", 4, seed=7, language="fr", bot_delay=0, beliefs=True,
                               bots={1: "greedy", 3: "random"})  # for time: 112 moves, half of them by bots
    pupils = seat_pupils(browser, class_server, room, ["Anna", "Camille"], "fr", phones=1)
    try:
        final = play_in_browsers(pupils, teacher, room["code"], random.Random(6), shots={9: "classroom-commissario"})
        assert check_frames(pupils, teacher.record(room["code"])) > len(pupils) * len(final.history)
        asked = [json.loads(frame).get("beliefs") for pupil in pupils for frame in pupil.frames]
        assert any(panel and panel["questions"] for panel in asked), "the pages asked what X picked"
    finally:
        for pupil in pupils:
            pupil.close()


# ------------------------------------------------------------------------------------------ seats back


SEATS_ARTIFACTS = ARTIFACTS / "seats"


def shoot(page: Any, name: str) -> None:
    """Screenshots of `page` at a laptop's and a phone's size, under test-artifacts/seats/."""
    SEATS_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("laptop", LAPTOP["viewport"]), ("phone", PHONE["viewport"])):
        page.set_viewport_size(size)
        page.screenshot(path=str(SEATS_ARTIFACTS / f"{name}-{label}.png"), full_page=True)


def seated(page: Any) -> str:
    """The seat's page, once it is connected and shows the table at the student's turn: its table's HTML."""
    page.wait_for_selector("#app")
    page.wait_for_function("() => document.getElementById('online').dataset.online === '1' && "
                           "document.getElementById('app').dataset.state === 'turn'")
    return str(page.locator("#table").inner_html())


def test_a_student_who_closed_the_tab_gets_the_seat_back_and_no_one_else_does(browser: Any,
                                                                              class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0, bots={1: "random"})
    ana = browser.new_context(**PHONE)
    other = browser.new_context(**LAPTOP)
    try:
        page = ana.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{class_server.url}/")
        shoot(page, "join")
        page.locator("input[name=code]").fill(room["code"])
        page.locator("input[name=name]").fill("Ana \U0001F469\U0001F3FD\u200d\U0001F680")  # 👩🏽‍🚀 is a name
        page.locator("form button[type=submit]").click()
        table = seated(page)
        seat_url = page.url
        shoot(page, "seat")
        page.close()  # the tab is closed

        page = ana.new_page()  # the same browser: the join page with the same code, and no name
        page.set_default_timeout(30_000)
        page.goto(f"{class_server.url}/")
        page.locator("input[name=code]").fill(room["code"].lower())
        page.locator("form button[type=submit]").click()
        assert seated(page) == table and page.url == seat_url, "back in the seat, with the same view"
        page.close()
        page = ana.new_page()  # the room's join link: straight back
        page.goto(f"{class_server.url}/j/{room['code']}")
        assert seated(page) == table and page.url == seat_url
        stored = page.evaluate("() => Object.entries(localStorage)")
        assert stored == [[f"tabletop_edu.seat.{room['code']}", seat_url.rsplit("/s/", 1)[1].split("?")[0]]], \
            "the browser keeps its own seat's token only"

        for language, how in (("en", "ask your teacher for your link"), ("fr", "demandez votre lien à l'enseignant")):
            intruder = other.new_page()  # another browser, the same name: refused, and told how to get back in
            intruder.goto(f"{class_server.url}/?lang={language}")
            intruder.locator("input[name=code]").fill(room["code"])
            intruder.locator("input[name=name]").fill("ana \U0001F469\U0001F3FD\u200d\U0001F680")
            intruder.locator("form button[type=submit]").click()
            error = intruder.locator("p.error")
            error.wait_for()
            assert how in error.inner_text()
            assert intruder.evaluate("() => Object.keys(localStorage)") == ["tabletop_edu.lang"]  # no seat's token
            shoot(intruder, f"name-taken-{language}")
            intruder.close()
        assert [seat["name"] for seat in teacher.room(room["code"])["seats"]][0].startswith("Ana")
    finally:
        ana.close()
        other.close()


def test_a_french_seat_page_speaks_french(browser: Any, class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("mafia_de_cuba", 6, seed=3, bot_delay=0, language="fr",
                               bots={seat: "random" for seat in range(1, 6)})
    context = browser.new_context(**LAPTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{class_server.url}/j/{room['code']}")  # a French room's join page is French
        page.locator("input[name=name]").fill("Inès")
        page.locator("form button[type=submit]").click()
        seated(page)
        text = page.locator("body").inner_text()
        assert "Vue d'Inès" in text and "Robot 2 (random)" in text
        english = [word for word in (" the ", "Seat ", "Bot ", "Waiting", "Your move", "lets the floor", "Play:")
                   if word in text]
        assert not english, english
        shoot(page, "seat-fr")
    finally:
        context.close()


# ------------------------------------------------------------------------------------------ beliefs


BELIEFS_ARTIFACTS = ARTIFACTS / "beliefs"


def shoot_beliefs(page: Any, name: str, sizes: tuple[str, ...] = ("laptop", "phone")) -> None:
    """Screenshots of `page` at a laptop's and a phone's size, under test-artifacts/beliefs/."""
    BELIEFS_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label in sizes:
        page.set_viewport_size((LAPTOP if label == "laptop" else PHONE)["viewport"])
        page.screenshot(path=str(BELIEFS_ARTIFACTS / f"{name}-{label}.png"), full_page=True)


def tap_belief(page: Any, phone: bool, tens: list[int]) -> None:
    """Tap "+10" on each option of the first open question `tens[i]` times, as a student does."""
    for index, count in enumerate(tens):
        for _ in range(count):
            button = page.locator("#beliefs fieldset.belief:not(.sent)").first.locator(".belief-row").nth(index) \
                .locator("button.more")
            button.tap() if phone else button.click()


def test_get_adler_with_beliefs_a_student_answers_by_tapping_and_the_projector_shows_the_debrief(
        browser: Any, class_server: ServerProcess) -> None:
    from tabletop_edu.get_adler import new_game
    from tabletop_edu.get_adler.rules import ADLER

    seed = next(seed for seed in range(100) if ADLER not in new_game(4, seed=seed).characters[:2])  # two heroes
    teacher = TeacherClient(class_server.url, class_server.token)
    room = teacher.create_room("get_adler", 4, seed=seed, language="en", bot_delay=0, beliefs=True,
                               bots={2: "smart", 3: "smart"})
    pupils = seat_pupils(browser, class_server, room, ["Ada", "Ben"], "en", phones=1)
    ada, ben = pupils
    french = browser.new_context(**PHONE).new_page()  # Ada's seat open in French too (a second device)
    projector = browser.new_context(**LAPTOP).new_page()
    try:
        ada.page.wait_for_function("() => !document.getElementById('beliefs').hidden")  # the game asks at once
        french.goto(f"{room['seats'][0]['link']}?lang=fr")
        french.wait_for_function("() => !document.getElementById('beliefs').hidden")
        assert "Que croyez-vous ?" in french.locator("#beliefs").inner_text()
        assert "Des points sur 100" in french.locator("#beliefs").inner_text()
        tap_belief(ada.page, True, [5, 2])
        send = ada.page.locator("#beliefs button.send").first
        assert send.is_disabled() and "70\u00a0%" in ada.page.locator("#beliefs .belief-total").first.inner_text()
        shoot_beliefs(ada.page, "question-en")  # ends at the phone's size
        shoot_beliefs(french, "question-fr")
        tap_belief(ada.page, True, [0, 1, 2])
        assert not send.is_disabled()
        send.tap()
        ada.page.wait_for_function("() => document.querySelector('#beliefs fieldset.belief.sent') !== null")
        shoot_beliefs(ada.page, "question-sent-en", ("laptop",))
        rows = teacher.records()[0]["beliefs"]["rows"]
        assert [(row["seat"], sorted(row["belief"].values())) for row in rows] == [(0, [0.2, 0.3, 0.5])]
        final = play_in_browsers(pupils, teacher, room["code"], random.Random(3))
        assert final.is_over
        for frame in ben.frames:  # Ada's belief never reached Ben's page
            message = json.loads(frame)
            assert message["type"] != "belief_received" and "debrief" not in message
            assert all(question["sent"] is None for question in (message.get("beliefs") or {}).get("questions", []))
        teacher.command(room["code"], "reveal")
        answers = teacher.games()[0].beliefs
        points = [answer.score for answer in answers if answer.seat == 0]
        for language in ("en", "fr"):
            projector.goto(f"{room['watch_url']}?lang={language}")
            projector.wait_for_selector("#debrief .belief-debrief")
            text = projector.locator("#debrief").inner_text()
            heading = "What the class believed" if language == "en" else "Ce que la classe croyait"
            assert heading in text and "Ada" in text and f"{sum(points) / len(points):.0f}" in text
            shoot_beliefs(projector, f"debrief-{language}")  # ends at a phone's size: the debrief fits it
            debrief = projector.locator("#debrief .belief-debrief")
            assert debrief.evaluate("box => box.scrollWidth - box.clientWidth") <= 1
            projector.set_viewport_size(LAPTOP["viewport"])
        ada.page.wait_for_selector("#debrief .belief-debrief")
        assert f"{sum(points) / len(points):.0f} / 100" in ada.page.locator("#debrief").inner_text()
    finally:
        for page in (french, projector):
            page.context.close()
        for pupil in pupils:
            pupil.close()
