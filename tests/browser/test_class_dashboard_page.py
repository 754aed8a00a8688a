"""The teacher's class dashboard page (/t/CODE) in a real browser, over a seeded class of 24 simulated students at
five Get Adler tables (one done, one paused, some pages offline): the teacher's key read from the fragment and taken
off the address bar, "Pause all" pausing every table, the message typed once reaching a student's seat page and a
waiting page, both as text. Screenshots of the dashboard (EN, FR; laptop and phone) and of a student's page with
the message go to test-artifacts/class/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import Feed, request, seat_feed

from .conftest import ARTIFACTS, DESKTOP, PHONE

CLASS_ARTIFACTS = ARTIFACTS / "class"
NAMES = ["Ana", "Bruno", "Chloé", "Dario", "Emma", "Farid", "Giulia", "Hugo", "Inès", "Jonas", "Kenza", "Léo",
         "Maëlle", "Nils", "Olga", "Paulo", "Quentin", "Rania", "Sacha", "Tomás", "Ulla", "Victor", "Wen", "Yasmine"]


@pytest.fixture()
def seeded(tmp_path: Path) -> Iterator[tuple[ClassServer, TeacherClient, dict[str, Any], dict[str, str]]]:
    """A class of 24 students of Get Adler at five tables: one played to its end, one a few moves in and paused,
    the others started; most pages open, some not; a late student waiting for the next round."""
    CLASS_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ClassServer(tmp_path / "class.sqlite3").start()
    feeds: list[Feed] = []
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        klass = teacher.create_class("get_adler", preferred=5, seed=11, bot_delay=0, beliefs=True,
                                     move_time_limit=120)
        assert server.classes is not None and server.hall is not None
        desk, hall = server.classes, server.hall
        tokens = {name: server.call(lambda name=name: desk.join(klass["code"], name)).token for name in NAMES}
        teacher.class_command(klass["code"], "start_round")
        seats = {name: server.call(lambda token=token: desk.sit(token))[1].token
                 for name, token in tokens.items()}
        tables = desk.find(klass["code"]).tables
        rng = random.Random(5)

        def play(room_code: str, moves: int | None) -> None:
            room = hall.room(room_code)
            while room.state is not None and not room.state.is_over and (moves is None or moves > 0):
                seat = room.state.acting_seats[0]
                action = str(rng.choice(room.state.legal_actions(seat)))
                server.call(lambda: hall.play(room, seat, room.step, action))
                moves = None if moves is None else moves - 1

        play(tables[0].room, None)
        play(tables[1].room, 3)
        play(tables[2].room, 1)
        teacher.command(tables[1].room, "pause")
        offline = {tables[3].students[0], tables[3].students[2], tables[4].students[1]}
        feeds = [seat_feed(server.url, seat) for name, seat in seats.items() if name not in offline]
        for feed in feeds:
            feed.connected.wait(30)
        teacher.class_command(klass["code"], "extend", student=tables[2].students[1], seconds=60)
        tokens["Zoé"] = server.call(lambda: desk.join(klass["code"], "Zoé")).token
        yield server, teacher, klass, {**tokens, **{f"seat:{name}": seat for name, seat in seats.items()}}
    finally:
        for feed in feeds:
            feed.close()
        server.stop()


def shoot(page: Any, name: str) -> None:
    for label, size in (("laptop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(CLASS_ARTIFACTS / f"{name}-{label}.png"), full_page=label == "phone")


def test_the_class_dashboard_follows_every_table_and_its_levers_reach_every_student(
        browser: Any, seeded: tuple[ClassServer, TeacherClient, dict[str, Any], dict[str, str]]) -> None:
    server, teacher, klass, tokens = seeded
    code = klass["code"]
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{server.url}/t/{code}?lang=en#token={server.teacher_token}")
        page.wait_for_selector("article.table-card")
        assert "token" not in page.url, "the key is taken off the address bar"
        assert page.locator("article.table-card").count() == 5
        assert page.locator("article.table-card.done").count() == 1
        assert page.locator("article.table-card.paused").count() == 1
        shoot(page, "dashboard-en")
        page.goto(f"{server.url}/t/{code}?lang=fr")  # the key stays in this tab's session storage
        page.wait_for_selector("article.table-card")
        assert "Tableau de bord de la classe" in page.title() and page.locator("text=Tout reprendre").count() == 1
        shoot(page, "dashboard-fr")
        page.set_viewport_size(DESKTOP)
        page.click("button[data-command='pause']")
        page.locator("article.table-card.paused").nth(3).wait_for()  # the four open tables (one is done)
        page.fill("#note-text", "Dernière minute : <b>finissez</b> votre coup")
        page.click("#note-form button[type='submit']")
        student = browser.new_context(viewport=PHONE)
        try:
            seat_page = student.new_page()
            seat_page.goto(f"{server.url}/s/{tokens['seat:Ana']}?lang=fr")
            seat_page.wait_for_selector("#class-note strong")
            assert seat_page.locator("#class-note span").inner_text() == "Dernière minute : <b>finissez</b> votre coup"
            assert seat_page.locator("#class-note b").count() == 0, "shown as text, never as markup"
            seat_page.screenshot(path=str(CLASS_ARTIFACTS / "student-note-fr-phone.png"))
            waiting = student.new_page()
            waiting.goto(f"{server.url}/c/{tokens['Zoé']}?lang=en")
            waiting.wait_for_selector("#class-note strong")
            assert "Message from your teacher" in waiting.locator("#class-note").inner_text()
            waiting.screenshot(path=str(CLASS_ARTIFACTS / "waiting-note-en-phone.png"))
        finally:
            student.close()
        assert request(f"{server.url}/note", "POST", {"token": tokens["Ana"], "seen": 1}, timeout=60)["number"] == 1
    finally:
        context.close()


def test_a_late_join_sends_a_sitting_students_page_on_to_the_new_seat(browser: Any, tmp_path: Path) -> None:
    server = ClassServer(tmp_path / "late.sqlite3").start()
    context = browser.new_context(viewport=PHONE)
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        klass = teacher.create_class("get_adler", preferred=4, seed=3, bot_delay=0, language="fr")
        assert server.classes is not None
        desk = server.classes
        tokens = [server.call(lambda name=name: desk.join(klass["code"], name)).token for name in NAMES[:4]]
        teacher.class_command(klass["code"], "start_round")
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{server.url}/c/{tokens[0]}")  # the waiting page sits Ana down and opens her seat
        page.wait_for_selector("#online[data-online='1']")
        old = page.url
        server.call(lambda: desk.join(klass["code"], "Zoé"))
        page.wait_for_url(lambda address: "/s/" in address and address.split("?")[0] != old.split("?")[0])
        page.wait_for_selector("#online[data-online='1']")
        assert page.locator("#connection").is_hidden(), "no 'the teacher closed this room' on Ana's page"
        assert "Ana" in page.locator(".who").inner_text() and "lang=fr" in page.url
    finally:
        context.close()
        server.stop()
