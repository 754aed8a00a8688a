"""A whole class in real browsers: twelve students (a browser context each) type one class code for Get Adler, wait,
and land on their own seats at tables of 4 to 6 when the teacher starts the round, nobody left out; no page of one
table holds another table's private facts (nor its own table's other seats'). The server runs as `serve` does in a
classroom. Screenshots of the class's join and waiting pages (EN, FR; laptop and phone) go to test-artifacts/class/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.testing import ServerProcess, leaked, secrets_for
from tabletop_edu.core import load

from .conftest import ARTIFACTS, DESKTOP, PHONE, offline_requests

CLASS_ARTIFACTS = ARTIFACTS / "class"
#: Names no one of which is part of another, so that a table's private fact naming one is never found by chance.
NAMES = ["Ana", "Bruno", "Chloé", "Dario", "Emma", "Farid", "Giulia", "Hugo", "Inès", "Jonas", "Kenza", "Léo"]


@pytest.fixture()
def class_server(tmp_path: Path) -> Any:
    CLASS_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(tmp_path / "class.sqlite3", ARTIFACTS / "class-server.log").start()
    try:
        yield server
    finally:
        server.stop()


def shoot(page: Any, name: str) -> None:
    """Screenshots of `page` at a laptop's and a phone's size."""
    for label, size in (("laptop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=str(CLASS_ARTIFACTS / f"{name}-{label}.png"), full_page=True)


class Student:
    """A student's browser: a context of its own, the class's join page, then the waiting page."""

    def __init__(self, browser: Any, server: ServerProcess, code: str, name: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport=PHONE if len(name) % 2 else DESKTOP)
        self.page = self.context.new_page()
        self.page.set_default_timeout(45_000)
        self.requests: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.goto(f"{server.url}/j/{code}")

    def join(self) -> None:
        self.page.locator("input[name=name]").fill(self.name)
        self.page.locator("form button[type=submit]").click()
        self.page.wait_for_selector("#waiting")

    def wait_for_table(self) -> str:
        """The seat's page once its game shows (connected, past the lobby): its seat token."""
        self.page.wait_for_selector("#app")
        self.page.wait_for_function("() => document.getElementById('online').dataset.online === '1' && "
                                    "['turn', 'wait'].includes(document.getElementById('app').dataset.state)")
        return str(self.page.url.split("/s/")[1].split("?")[0])


def test_twelve_students_join_one_class_code_and_sit_at_their_own_tables(browser: Any,
                                                                         class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    klass = teacher.create_class("get_adler", preferred=5, seed=8, bot_delay=0)
    french = teacher.create_class("get_adler", preferred=5, seed=9, bot_delay=0, language="fr")
    students = [Student(browser, class_server, klass["code"], name) for name in NAMES]
    try:
        shoot(students[0].page, "join-en")
        for student in students:
            student.join()
        shoot(students[0].page, "waiting-en")
        pierre = Student(browser, class_server, french["code"], "Pierre")
        try:
            assert pierre.page.locator("html").get_attribute("lang") == "fr", "French before the code is typed"
            shoot(pierre.page, "join-fr")
            pierre.join()
            assert "Bonjour Pierre" in pierre.page.content()
            shoot(pierre.page, "waiting-fr")
        finally:
            pierre.context.close()
        teacher.class_command(klass["code"], "start_round")
        seat_tokens = {student.name: student.wait_for_table() for student in students}
        info = teacher.school_class(klass["code"])
        assert sorted(name for table in info["tables"] for name in table["students"]) == sorted(NAMES), \
            "nobody left out, nobody twice"
        assert all(4 <= len(table["students"]) <= 6 for table in info["tables"]) and len(info["tables"]) >= 2
        rooms = {table["room"]: teacher.room(table["room"]) for table in info["tables"]}
        place = {seat["name"]: (code, seat["seat"], seat["link"]) for code, room in rooms.items()
                 for seat in room["seats"]}
        states = {code: load(teacher.record(code)) for code in rooms}
        private = {code: secrets_for(state, None) for code, state in states.items()}
        assert all(private.values()), "every table has private facts to keep"
        for student in students:
            code, seat, link = place[student.name]
            assert link.endswith(seat_tokens[student.name]), f"{student.name} is at their own seat"
            assert student.page.locator(".who").inner_text() == student.name
            html = student.page.content()
            for other, facts in private.items():
                if other != code:
                    found = sorted(fact for fact in facts if fact in html) or leaked(html, states[other], None, facts)
                    assert not found, f"{student.name}'s page (table {code}) holds table {other}'s {found}"
            assert not leaked(html, states[code], seat), f"{student.name}'s page holds a secret of their table"
            assert not offline_requests(student), "a page asked another host"
        overview = teacher.school_class(klass["code"], "overview")
        assert all(table["started"] and not table["offline"] for table in overview["tables"]), "every page online"
    finally:
        for student in students:
            student.context.close()
