"""A whole class in real browsers: twelve students (a browser context each, phones and laptops) type one class code for
Get Adler, wait, and land on their own seats at tables of 4 to 6 when the teacher starts the round, nobody left out;
both tables play to their end by tapping, students' pages only; the teacher starts a second round that forms the
tables anew, and each student's finished page goes on to their new seat by itself, under the same name, with the
running score kept. No page of one table ever holds another table's private texts (any it had, at any step), nor its
own table's other seats' (checked after every move). The server runs as `serve` does in a classroom. Screenshots of
the class's join and waiting pages, of the dashboard and of a student's page in the second round (EN, FR; laptop and
phone) go to test-artifacts/class/.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.testing import ServerProcess, leaked, secrets_for
from tabletop_edu.core import load

from .conftest import ARTIFACTS, DESKTOP, PHONE, offline_requests
from .test_classroom import LAPTOP, Pupil, Replay, check_frames, play_in_browsers
from .test_classroom import PHONE as PHONE_DEVICE

CLASS_ARTIFACTS = ARTIFACTS / "class"
#: Names no one of which is part of another, so that a table's private fact naming one is never found by chance.
NAMES = ["Ana", "Bruno", "Chloé", "Dario", "Emma", "Farid", "Giulia", "Hugo", "Inès", "Jonas", "Kenza", "Léo"]
#: How long a page may take to show what is awaited (ms): generous, the machine's two cores may both be busy.
CONDITION_WAIT = 120_000


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


class Student(Pupil):
    """A student's device in a class: `Pupil`'s taps and checks, on the seat the class code led to. The frames
    kept are those of the socket of the seat the page shows now (a new round is a new seat)."""

    def __init__(self, browser: Any, server: ServerProcess, code: str, name: str, phone: bool) -> None:
        self.name, self.phone, self.server = name, phone, server.url
        self.context = browser.new_context(**(PHONE_DEVICE if phone else LAPTOP))
        self.page = self.context.new_page()
        self.page.set_default_timeout(CONDITION_WAIT)
        self.sockets: dict[str, list[str]] = {}
        self.requests: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.goto(f"{server.url}/j/{code}")

    def _socket(self, socket: Any) -> None:
        frames = self.sockets.setdefault(socket.url, [])
        socket.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    @property
    def token(self) -> str:
        """The token of the seat the page shows."""
        return str(self.page.url.split("/s/")[1].split("?")[0])

    @property
    def frames(self) -> list[str]:  # type: ignore[override]
        return [frame for url, frames in self.sockets.items() if f"/{self.token}?" in url for frame in frames]

    def join(self) -> None:
        self.page.locator("input[name=name]").fill(self.name)
        self.page.locator("form button[type=submit]").click()
        self.page.wait_for_selector("#waiting")

    def wait_for_table(self, left: str | None = None) -> str:
        """The seat's page once its game shows (connected, past the lobby): its seat token (another than `left`,
        the seat of the round before, when given)."""
        self.page.wait_for_url(lambda address: "/s/" in address and (left is None or f"/s/{left}" not in address))
        self.page.wait_for_function("() => document.getElementById('online').dataset.online === '1' && "
                                    "['turn', 'wait'].includes(document.getElementById('app').dataset.state)")
        return self.token


def private_texts(teacher: TeacherClient, room: str) -> set[str]:
    """Every text a table kept from the class at any step of its game so far (what its projector never showed)."""
    replay = Replay(teacher, room)
    return {text for state in replay.states for text in secrets_for(state, None)}


def check_tables(students: list[Student], teacher: TeacherClient, tables: list[dict[str, Any]]) -> None:
    """Each student's page holds no private text of another table (a text private at both tables is theirs too)."""
    private = {table["room"]: private_texts(teacher, table["room"]) for table in tables}
    assert all(private.values()), "every table has private facts to keep"
    table_of = {name: table["room"] for table in tables for name in table["students"]}
    for student in students:
        own = table_of[student.name]
        html = student.page.content()
        for other, facts in private.items():
            if other != own:
                found = sorted(fact for fact in facts - private[own] if fact in html)
                assert not found, f"{student.name}'s page (table {own}) holds table {other}'s {found}"
        assert not offline_requests(student), "a page asked another host"


def seated(students: list[Student], teacher: TeacherClient, code: str,
           left: dict[str, str] | None = None) -> dict[str, Any]:
    """The class once every student's page shows their seat (not the seat each `left`, by name): each at their
    own, under their name, nobody left out, tables of 4 to 6, none of their own table's secrets on their page."""
    seat_tokens = {student.name: student.wait_for_table((left or {}).get(student.name)) for student in students}
    info = teacher.school_class(code)
    assert sorted(name for table in info["tables"] for name in table["students"]) == sorted(NAMES), \
        "nobody left out, nobody twice"
    assert all(4 <= len(table["students"]) <= 6 for table in info["tables"]) and len(info["tables"]) >= 2
    rooms = {table["room"]: teacher.room(table["room"]) for table in info["tables"]}
    place = {seat["name"]: (room_code, seat["seat"], seat["link"]) for room_code, room in rooms.items()
             for seat in room["seats"]}
    for student in students:
        room_code, seat, link = place[student.name]
        assert link.endswith(seat_tokens[student.name]), f"{student.name} is at their own seat"
        assert student.page.locator(".who").inner_text() == student.name
        state = load(teacher.record(room_code))
        assert not leaked(student.page.content(), state, seat), f"{student.name}'s page holds a secret of their table"
    check_tables(students, teacher, info["tables"])
    overview = teacher.school_class(code, "overview")
    assert all(table["started"] and not table["offline"] for table in overview["tables"]), "every page online"
    return info


def running_scores(teacher: TeacherClient, code: str) -> dict[str, float]:
    """Each student's running score, as the class dashboard shows it."""
    return {row["name"]: row["score"] for row in teacher.school_class(code, "board")["overview"]["students"]}


def test_twelve_students_play_two_rounds_of_one_class_code_at_their_own_tables(browser: Any,
                                                                                class_server: ServerProcess) -> None:
    teacher = TeacherClient(class_server.url, class_server.token)
    klass = teacher.create_class("get_adler", preferred=5, seed=8, bot_delay=0)
    code = klass["code"]
    french = teacher.create_class("get_adler", preferred=5, seed=9, bot_delay=0, language="fr")
    students = [Student(browser, class_server, code, name, phone=index % 3 == 0) for index, name in enumerate(NAMES)]
    try:
        shoot(students[1].page, "join-en")
        for student in students:
            student.join()
        shoot(students[1].page, "waiting-en")
        pierre = Student(browser, class_server, french["code"], "Pierre", phone=False)
        try:
            assert pierre.page.locator("html").get_attribute("lang") == "fr", "French before the code is typed"
            shoot(pierre.page, "join-fr")
            pierre.join()
            assert "Bonjour Pierre" in pierre.page.content()
            shoot(pierre.page, "waiting-fr")
        finally:
            pierre.context.close()
        teacher.class_command(code, "start_round")
        first = seated(students, teacher, code)
        by_name = {student.name: student for student in students}
        rng = random.Random(5)
        for table in first["tables"]:
            pupils = [by_name[name] for name in table["students"]]
            final = play_in_browsers(pupils, teacher, table["room"], rng)
            assert check_frames(pupils, teacher.record(table["room"])) >= len(pupils) * len(final.history)
            check_tables(students, teacher, first["tables"])
        record = {table["room"]: teacher.record(table["room"]) for table in first["tables"]}
        assert all(seat["bot"] is None for room in record for seat in teacher.room(room)["seats"]), \
            "no bot at any table (no time limit: no bot played for a student either)"
        scores = running_scores(teacher, code)
        returns = {name: round(load(record[table["room"]]).returns()[seat], 2) for table in first["tables"]
                   for seat, name in enumerate(table["students"])}
        assert scores == returns and any(scores.values()), "each student's score is their game's return"
        links = {row["name"]: row["link"] for row in first["students"]}

        left = {student.name: student.token for student in students}
        teacher.class_command(code, "start_round")  # each page, over, goes on to its student's new seat
        second = seated(students, teacher, code, left)
        assert second["round"] == 2
        assert {row["name"]: row["link"] for row in second["students"]} == links, "the same students, same links"
        assert [table["students"] for table in second["tables"]] != [table["students"] for table in first["tables"]]
        assert running_scores(teacher, code) == scores, "the running scores kept"
        shoot_second_round(browser, class_server, code, by_name[second["tables"][0]["students"][0]])
    finally:
        for student in students:
            student.close()


def shoot_second_round(browser: Any, server: ServerProcess, code: str, student: Student) -> None:
    """The class dashboard (1280x800) and a student's page (390x844) in the second round, in English and French."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(CONDITION_WAIT)
        for language in ("en", "fr"):
            page.goto(f"{server.url}/t/{code}?lang={language}#token={server.token}")
            page.wait_for_selector("article.table-card")
            page.screenshot(path=str(CLASS_ARTIFACTS / f"round2-dashboard-{language}-laptop.png"))
    finally:
        context.close()
    student.page.set_viewport_size(PHONE)
    for language in ("en", "fr"):
        student.page.goto(f"{server.url}/s/{student.token}?lang={language}")
        student.wait_for_table()
        student.page.screenshot(path=str(CLASS_ARTIFACTS / f"round2-student-{language}-phone.png"))
