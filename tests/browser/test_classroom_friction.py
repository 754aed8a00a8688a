"""Class play without friction (issue 20) in a real browser: a lost connection greys the table and comes back
by itself (also when the line only goes silent), an expired link leaves no secret on the screen, a student
whose time ran out is told a bot played for them, no class page of any game scrolls sideways on a 360 px phone
(English and French), the teacher places students from the dashboard in JupyterLab before the start, and a
student joining while another program holds the database waits, or is told to try again (issue 23).

The server runs in this process (`ClassServer.start`), so the test stops and restarts it on its own port, and
fires move deadlines itself (`ManualScheduler`): nothing waits on the clock (the dashboard's server is a
process of its own, as in a classroom). Screenshots (1280x800, 390x844, 360x740) go to
test-artifacts/classfriction/.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom import commits as commits_module
from tabletop_edu.classroom.client import join_room
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.handlers import menu_for
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.testing import (ManualScheduler, ServerProcess, Student, leaked, play_to_the_end, run_now,
                                            wait_until)
from tabletop_edu.core import load

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "classfriction"
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844},
         "small": {"width": 360, "height": 740}}
PHONE = {"viewport": SIZES["phone"], "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SMALL = {"viewport": SIZES["small"], "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
BANNER = {"en": "Connection lost", "fr": "Connexion perdue"}
EXPIRED = {"en": "new link", "fr": "nouveau lien"}
TRY_LATER = {"en": "Storage busy: the class's database is held by another program. Nothing was changed: try again in "
                   "a minute.",
             "fr": "Stockage occupé : la base de la classe est prise par un autre programme. Rien n'a changé : "
                   "réessayez dans une minute."}
TIME_UP = {"en": "Time's up: a bot played for you: ", "fr": "Temps écoulé : un robot a joué pour vous : "}
#: The flood limit of servers whose simulated students tap at machine speed (a page's own flood limit, meant for
#: people, is tested in tests/classroom/test_protocol.py): a whole game played flat out may outrun it.
MACHINE_SPEED = (10_000, 10_000.0)
#: Every element that scrolls sideways (the page itself included), as [what, scrollWidth, clientWidth].
SIDEWAYS = """() => [document.documentElement, ...document.querySelectorAll('body *')]
  .filter(e => e === document.documentElement || ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => [e.tagName + '.' + e.className, e.scrollWidth, e.clientWidth])"""


def shoot(page: Any, name: str) -> None:
    """Screenshots of the page at a laptop's, a phone's and a small phone's size."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"), full_page=True)
    page.set_viewport_size(SIZES["phone"])


def wait_connection(page: Any, how: str) -> None:
    page.wait_for_function("how => document.getElementById('app').dataset.connection === how", arg=how)


@pytest.fixture()
def timed_server(tmp_path: Path) -> Iterator[tuple[ClassServer, ManualScheduler]]:
    scheduler = ManualScheduler()
    server = ClassServer(tmp_path / "class.sqlite3", scheduler=scheduler, flood=MACHINE_SPEED).start()
    try:
        yield server, scheduler
    finally:
        server.stop()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_times_up_a_lost_connection_and_an_expired_link_on_a_students_page(
        browser: Any, timed_server: tuple[ClassServer, ManualScheduler], tmp_path: Path, language: str) -> None:
    server, scheduler = timed_server
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("mafia_de_cuba", 6, seed=11, language=language, bot_delay=0, move_time_limit=60,
                               bots={seat: "random" for seat in range(1, 6)})["code"]
    link = join_room(server.url, code, "Zoé")["link"]
    context = browser.new_context(**PHONE)
    servers = [server]

    def restart() -> ClassServer:
        """The same server again, on the same file and port (a laptop woken up)."""
        servers.append(ClassServer(server.db, port=port, scheduler=scheduler, flood=MACHINE_SPEED).start())
        return servers[-1]

    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(link)
        page.wait_for_function("() => document.getElementById('online').dataset.online === '1' && "
                               "document.getElementById('app').dataset.state === 'turn'")

        # time's up: the deadline fires, a bot plays the Godfather's move, the page says so
        wait_until(lambda: len(scheduler.pending(server)) == 1)
        server.call(scheduler.pending(server)[0].callback)
        page.wait_for_function("() => document.getElementById('app').dataset.notice === 'time_up'")
        assert page.locator("#message").inner_text().startswith(TIME_UP[language])  # then the move, in words
        assert teacher.room(code)["moves"][0][3] == "time_up"
        shoot(page, f"times-up-{language}")

        # lost: the server stops; the table greys under a banner and cannot be tapped
        port = server.port
        server.stop()
        wait_connection(page, "lost")
        assert BANNER[language] in page.locator("#connection").inner_text()
        assert page.evaluate("() => getComputedStyle(document.getElementById('table')).pointerEvents") == "none"
        shoot(page, f"connection-lost-{language}")

        # back: the same server comes back on its port, the page by itself
        server = restart()
        wait_connection(page, "ok")
        assert page.locator("#connection").is_hidden()
        assert page.evaluate("() => getComputedStyle(document.getElementById('table')).pointerEvents") == "auto"

        # expired while away: the teacher gave the seat a new link while the page was offline
        server.stop()
        wait_connection(page, "lost")
        hall = Hall(Store(server.db))
        new_link = run_now(hall.new_link(code, 0)).token
        hall.store.close()
        server = restart()
        wait_connection(page, "expired")
        record = teacher.record(code)
        assert record is not None
        shown = page.evaluate("() => ({table: document.getElementById('table').innerHTML, "
                              "moves: document.getElementById('moves').innerHTML, html: document.body.outerHTML})")
        assert shown["table"] == "" and shown["moves"] == ""  # not even the seat's own secrets stay
        assert not leaked(shown["html"], load(record), None), "an expired page still shows a secret"
        assert EXPIRED[language] in page.locator("#connection").inner_text()
        shoot(page, f"link-expired-{language}")

        # the new link opens the seat; a link replaced while the page is open expires at once
        page.goto(f"{server.url}/s/{new_link}")
        wait_connection(page, "ok")
        teacher.command(code, "new_link", seat=0)
        wait_connection(page, "expired")
        assert page.locator("#table").inner_html() == ""
    finally:
        context.close()
        for running in servers:
            running.stop()


def test_a_page_whose_line_goes_silent_drops_it_and_comes_back(browser: Any, tmp_path: Path) -> None:
    """A phone's network gone: the socket may look open for minutes, but no heartbeat comes through. The test
    stops the beats to one page (the server lives on): the page greys, reconnects, and is itself again."""
    server = ClassServer(tmp_path / "silent.sqlite3", heartbeat=1.0, flood=MACHINE_SPEED).start()
    context = browser.new_context(**PHONE)
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        code = teacher.create_room("commissario", 3, language="fr")["code"]
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(join_room(server.url, code, "Zoé")["link"])
        wait_connection(page, "ok")

        def silence() -> None:
            for connection in server.connections[code]:
                connection.beats = False

        server.call(silence)
        wait_connection(page, "lost")
        assert BANNER["fr"] in page.locator("#connection").inner_text()
        wait_connection(page, "ok")  # a new socket, which hears the beats again
        wait_until(lambda: [seat["online"] for seat in teacher.room(code)["seats"]][0] == 1)
    finally:
        context.close()
        server.stop()


def test_the_words_a_student_tapped_stay_when_another_testimony_redraws_the_table(browser: Any,
                                                                                  tmp_path: Path) -> None:
    """Mafia de Cuba's floor: five students testify at once, so the table moves on while a student is still
    tapping the words of a testimony. The words tapped so far stay (the page asks them again at the new step),
    and the testimony made of them is the one stored."""
    server = ClassServer(tmp_path / "floor.sqlite3", flood=MACHINE_SPEED).start()
    context = browser.new_context(**PHONE)
    try:
        assert server.hall is not None
        hall = server.hall
        room = server.call(lambda: hall.create_room("mafia_de_cuba", 6, seed=3, language="fr"))
        for seat in range(6):
            server.call(lambda seat=seat: hall.claim(room.seats[seat].token, f"Élève {seat}"))

        async def play_first(seat: int, action: str | None = None) -> None:
            assert room.state is not None
            await hall.play(room, seat, room.step, action or str(room.state.legal_actions(seat)[0]))

        while server.call(lambda: room.state.view(None).facts["phase"]) != "floor":  # to the floor
            server.call(lambda: play_first(room.state.acting_seats[0]))
        assert server.call(lambda: set(room.state.acting_seats)) == {1, 2, 3, 4, 5}
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(server.seat_link(room.seats[1]))
        page.wait_for_function("() => document.getElementById('app').dataset.state === 'turn' && "
                               "document.querySelector('#moves button.move') !== null")
        said = page.locator("#table .tt-grid ol li").count()
        page.locator("#moves .options button.move:not(.final)").first.click()
        page.wait_for_selector("#moves .path")
        path = page.locator("#moves .path").inner_text()
        options = page.locator("#moves .options button").all_inner_texts()
        drawn = int(page.evaluate("() => document.getElementById('moves').dataset.drawn"))
        step = server.call(lambda: room.step)
        first_word = {option["label"]: option["word"] for option in
                      server.call(lambda: menu_for(room, 1, step, [], "fr"))["options"]}[path]

        server.call(lambda: play_first(2, "saw 0"))  # another student testifies: every table is redrawn
        page.wait_for_function("step => Number(document.getElementById('app').dataset.step) === step", arg=step + 1)
        page.wait_for_function("drawn => Number(document.getElementById('moves').dataset.drawn) > drawn", arg=drawn)
        assert page.locator("#table .tt-grid ol li").count() == said + 1  # the new testimony is on the table
        assert page.locator("#moves .path").inner_text() == path  # and the words tapped so far are still there
        assert page.locator("#moves .options button").all_inner_texts() == options
        shoot(page, "floor-words-kept-fr")

        for _ in range(8):  # on to a whole testimony, and play it
            final = page.locator("#moves button.final")
            if final.count():
                final.first.click()
                break
            drawn = int(page.evaluate("() => document.getElementById('moves').dataset.drawn"))
            page.locator("#moves .options button").first.click()
            page.wait_for_function("drawn => Number(document.getElementById('moves').dataset.drawn) > drawn",
                                   arg=drawn)
        wait_until(lambda: server.call(lambda: room.step) == step + 2)
        seat, action = server.call(lambda: room.state.history[step + 1])
        assert seat == 1 and action.split()[0] == first_word
    finally:
        context.close()
        server.stop()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_student_joining_while_another_program_holds_the_database_waits_or_is_told_to_try_again(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    monkeypatch.setattr(commits_module, "WAITING_RETRIES", 2)  # tried three times, then told
    monkeypatch.setattr(commits_module, "STORAGE_RETRY_DELAY", 0.01)
    server = ClassServer(tmp_path / "held.sqlite3", heartbeat=None, busy_timeout=0.05).start()
    assert server.hall is not None
    store = server.hall.store
    tries: list[int] = []
    fill = store.submit_fill
    store.submit_fill = lambda *args, **kwargs: (tries.append(1), fill(*args, **kwargs))[1]  # type: ignore
    context = browser.new_context(**PHONE)
    holder = sqlite3.connect(server.db, isolation_level=None)
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        code = teacher.create_room("commissario", 3, seed=5, language=language)["code"]
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{server.url}/?lang={language}")
        page.fill("input[name=code]", code)
        page.fill("input[name=name]", "Zoé")
        holder.execute("BEGIN IMMEDIATE")  # another program holds the class's database
        page.click("button[type=submit]")
        page.locator("p.error").wait_for()
        assert page.locator("p.error").inner_text() == TRY_LATER[language] and len(tries) == 3
        assert page.input_value("input[name=name]") == "Zoé"  # the form keeps what the student typed
        shoot(page, f"join-storage-busy-{language}")
        assert all(seat["name"] is None for seat in teacher.room(code)["seats"])  # nothing changed
        monkeypatch.setattr(commits_module, "WAITING_RETRIES", 10_000)  # from now on, tried until it is free
        page.click("button[type=submit]", no_wait_after=True)  # the student taps again; it waits, retried
        wait_until(lambda: len(tries) >= 5)
        holder.execute("ROLLBACK")
        page.wait_for_url(re.compile(r"/s/[A-Za-z0-9_-]+"))
        page.get_by_text("Zoé").first.wait_for()
        assert [seat["name"] for seat in teacher.room(code)["seats"]] == ["Zoé", None, None]
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()
        context.close()
        server.stop()


GAMES = {"commissario": 5, "get_adler": 6, "mafia_de_cuba": 12}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_class_page_scrolls_sideways_on_a_360_px_phone(browser: Any, tmp_path: Path, language: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ClassServer(tmp_path / "narrow.sqlite3", heartbeat=None, flood=MACHINE_SPEED).start()
    context = browser.new_context(**SMALL)
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{server.url}/?lang={language}")  # the join page
        assert page.evaluate(SIDEWAYS) == [], f"the join page ({language}) scrolls sideways"
        for game, players in GAMES.items():
            room = teacher.create_room(game, players, seed=5, language=language, bot_delay=0,
                                       bots={seat: "random" for seat in range(1, players)})
            code = room["code"]
            page.goto(room["seats"][0]["link"])  # the name form
            assert page.evaluate(SIDEWAYS) == [], f"{game}'s name form ({language}) scrolls sideways"
            seat = join_room(server.url, code, "Élodie-Anne Marchand")
            for link in (room["watch_url"], seat["link"]):  # the projector, then the student's seat
                page.goto(link)
                page.wait_for_function("() => document.getElementById('app').dataset.state !== 'lobby'")
                assert page.evaluate(SIDEWAYS) == [], f"{link} ({game}, {language}) scrolls sideways at the start"
            student = Student(server.url, seat["token"], seat["seat"], "Élodie-Anne Marchand", language)
            try:
                play_to_the_end([student], random.Random(2))
            finally:
                student.close()
            teacher.command(code, "reveal")
            page.locator(".classroom-reveal").wait_for()
            assert page.evaluate(SIDEWAYS) == [], f"{game} ({language}) scrolls sideways once revealed"
            if game == "get_adler":
                page.screenshot(path=str(ARTIFACTS / f"get-adler-revealed-360-{language}.png"), full_page=True)
    finally:
        context.close()
        server.stop()


def test_the_teacher_places_students_from_the_dashboard_in_jupyterlab(browser: Any, lab_dashboard: Any,
                                                                      tmp_path: Path) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "placing.sqlite3", ARTIFACTS / "placing-server.log").start()
    context = browser.new_context(viewport=SIZES["laptop"])
    try:
        teacher = TeacherClient(server.url, server.token)
        code = teacher.create_room("mafia_de_cuba", 6, seed=2, language="fr")["code"]
        for name in ("Zoé", "Louis", "Inès"):
            join_room(server.url, code, name)
        lab_page = context.new_page()
        lab_page.set_default_timeout(60_000)
        dashboard = lab_dashboard(lab_page, server.url, server.token, code)
        dashboard.get_by_text("Inès", exact=True).first.wait_for(timeout=120_000)
        pickers = dashboard.locator("select")
        pickers.nth(0).select_option(label="Place 0: Zoé")  # Zoé, first to join, would be the Godfather
        pickers.nth(1).select_option(label="avec Place 4: —")
        dashboard.get_by_role("button", name="Échanger ces places").click()
        wait_until(lambda: [seat["name"] for seat in teacher.room(code)["seats"]][:5] ==
                   [None, "Louis", "Inès", None, "Zoé"], timeout=30)
        # the dashboard shows the swap (its pickers are redrawn before its table) before the next picks: a redraw
        # still on its way would put back the pickers' values as they were (a slow machine failed so)
        dashboard.locator(".classroom-seats tr").nth(5).get_by_text("Zoé", exact=True).wait_for()
        pickers.nth(0).select_option(label="Place 1: Louis")
        pickers.nth(1).select_option(label="avec Place 0: —")
        dashboard.get_by_role("button", name="Échanger ces places").click()  # Louis will be the Godfather
        wait_until(lambda: teacher.room(code)["seats"][0]["name"] == "Louis", timeout=30)
        dashboard.locator(".classroom-seats tr").nth(1).get_by_text("Louis", exact=True).wait_for()  # seat 0's row
        dashboard.locator(".classroom-seats tr").nth(5).get_by_text("Zoé", exact=True).wait_for()  # seat 4's
        for size in ("laptop", "phone"):
            lab_page.set_viewport_size(SIZES[size])
            lab_page.screenshot(path=str(ARTIFACTS / f"dashboard-placing-{size}.png"), full_page=True)
    finally:
        context.close()
        server.stop()
