"""A whole class over the class server's protocol (`classroom.class_handlers`): one code joins the class through the
room's join form, a waiting page's poll leads each student to their own seat, and the teacher's API opens, seats,
follows, pauses and resumes every table; class writes are awaited on the loop, which serves everyone meanwhile."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu import classroom
from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import ClassroomError, request
from tabletop_edu.classroom.testing import altered, wait_until


class Browser:
    """One student's browser: its cookies (the join form's XSRF token) and the pages it was sent to."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> tuple[int, str, str]:
        """(status, address after redirects, page)."""
        try:
            with self.opener.open(self.url + path, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.geturl(), error.read().decode()

    def join(self, code: str, name: str, kept: str = "", path: str = "/") -> tuple[int, str, str]:
        """The join form of `path` sent with a code and a name (and a token the browser kept)."""
        _, _, form = self.get(path)
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form)
        assert xsrf is not None
        data = urllib.parse.urlencode({"_xsrf": xsrf.group(1), "code": code, "name": name, "seat": kept}).encode()
        try:
            with self.opener.open(self.url + "/join", data, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.geturl(), error.read().decode()


def personal_token(address: str) -> str:
    match = re.search(r"/c/([A-Za-z0-9_\-]+)", address)
    assert match is not None, f"{address} is no personal link"
    return match.group(1)


def poll(server: ClassServer, token: str) -> dict[str, Any]:
    """The waiting page's poll: the seat's address once the student has a table."""
    return dict(request(f"{server.url}/c/{token}/seat", "POST", {}))


def joined_class(server: ClassServer, teacher: TeacherClient, names: list[str],
                 **options: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """A class of Get Adler and its students joined by the form: the class and each name's personal token."""
    klass = teacher.create_class("get_adler", preferred=5, seed=4, bot_delay=0, **options)
    tokens = {}
    for name in names:
        status, address, page = Browser(server.url).join(klass["code"].lower(), name)
        assert status == 200 and name in page, page
        tokens[name] = personal_token(address)
    return klass, tokens


def test_twelve_students_join_one_code_and_each_poll_opens_their_own_seat(server: ClassServer,
                                                                           teacher: TeacherClient) -> None:
    names = [f"Student {number}" for number in range(12)]
    klass, tokens = joined_class(server, teacher, names)
    info = teacher.school_class(klass["code"])
    assert [student["name"] for student in info["students"]] == names and info["tables"] == []
    teacher.class_command(klass["code"], "start_round")
    seats = {name: poll(server, token)["seat"] for name, token in tokens.items()}
    assert len(set(seats.values())) == 12, "twelve students, twelve seats"
    info = teacher.school_class(klass["code"])
    assert sorted(name for table in info["tables"] for name in table["students"]) == sorted(names)
    assert all(4 <= len(table["students"]) <= 6 and table["bots"] == 0 for table in info["tables"])
    for table in info["tables"]:
        room = teacher.room(table["room"])
        assert room["started"] and [seat["name"] for seat in room["seats"]] == table["students"]
    for name, token in tokens.items():
        status, address, page = Browser(server.url).get(f"/c/{token}")
        assert status == 200 and address.split("?")[0].endswith(seats[name].split("?")[0]), "back to one's own seat"
        assert f'class="who">{name}<' in page
    assert Browser(server.url).get(f"/c/{altered(tokens[names[0]])}")[0] == 404


def test_a_waiting_page_hears_of_its_table_as_soon_as_the_round_starts(server: ClassServer,
                                                                       teacher: TeacherClient) -> None:
    klass, tokens = joined_class(server, teacher, ["Ana", "Bo", "Cy", "Di"])
    with ThreadPoolExecutor(max_workers=1) as pool:
        waiting: Future[dict[str, Any]] = pool.submit(poll, server, tokens["Ana"])
        assert server.classes is not None
        wait_until(lambda: server.call(lambda: klass["code"] in server.classes._rounds), timeout=30)  # it waits
        teacher.class_command(klass["code"], "start_round")
        assert waiting.result(30)["seat"].startswith("/s/")


def test_the_join_form_sends_a_room_code_to_the_room_and_a_class_code_to_the_class(server: ClassServer,
                                                                                   teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 2, seed=1, bot_delay=0)
    status, address, _ = Browser(server.url).join(room["code"], "Ana")
    assert status == 200 and "/s/" in address
    klass = teacher.create_class("get_adler", bot_delay=0)
    status, address, _ = Browser(server.url).join(klass["code"], "Ana")
    assert status == 200 and "/c/" in address
    status, _, page = Browser(server.url).join(klass["code"], "ana")
    assert status == 409 and "already in this class" in page, "a name is one student's"
    status, _, page = Browser(server.url).join("ZZZZZ9", "Bo")
    assert status == 404 and "no class" in page


def test_a_french_class_link_is_french_before_the_code_is_typed_and_a_kept_token_comes_back(
        server: ClassServer, teacher: TeacherClient) -> None:
    klass = teacher.create_class("get_adler", language="fr", bot_delay=0)
    status, _, page = Browser(server.url).get(f"/j/{klass['code']}")
    assert status == 200 and '<html lang="fr">' in page and "Code de la classe" in page
    assert '<html lang="en">' in Browser(server.url).get(f"/j/{klass['code']}?lang=en")[2], "unless asked"
    browser = Browser(server.url)
    _, address, page = browser.join(klass["code"], "Élodie", path=f"/j/{klass['code']}")
    assert '<html lang="fr">' in page and "Bonjour Élodie" in page and "Votre lien personnel" in page
    token = personal_token(address)
    _, back, _ = browser.join(klass["code"], "", kept=token)
    assert personal_token(back) == token, "the browser's kept token brings the student back without a name"
    other = teacher.create_class("get_adler", bot_delay=0)
    status, address, _ = browser.join(other["code"], "", kept=token)
    assert status == 400 and "/c/" not in address, "a token of another class opens nothing there"


def test_the_teachers_class_api_needs_the_token_and_follows_every_table(server: ClassServer,
                                                                        teacher: TeacherClient) -> None:
    for method, path in (("GET", "/api/classes"), ("POST", "/api/classes")):
        with pytest.raises(ClassroomError) as refused:
            request(server.url + path, method, {"game": "get_adler"}, "wrong")
        assert refused.value.status == 403
    with pytest.raises(ClassroomError) as bad:
        teacher.create_class("get_adler", preferred=9)
    assert bad.value.status == 400
    klass, tokens = joined_class(server, teacher, [f"S{number}" for number in range(9)])
    overview = teacher.school_class(klass["code"], "overview")
    assert overview["tables"] == [] and len(overview["waiting"]) == 9
    teacher.class_command(klass["code"], "start_round")
    for token in tokens.values():
        poll(server, token)
    overview = teacher.school_class(klass["code"], "overview")
    assert overview["round"] == 1 and overview["waiting"] == [] and len(overview["tables"]) == 2
    for table in overview["tables"]:
        assert table["started"] and table["step"] == 0 and not table["done"] and table["turn"]
        assert table["offline"] == table["students"], "no seat page is open yet"
    teacher.class_command(klass["code"], "pause")
    assert all(teacher.room(table["room"])["paused"] for table in overview["tables"])
    assert all(table["paused"] for table in teacher.school_class(klass["code"], "overview")["tables"])
    teacher.class_command(klass["code"], "resume")
    assert not any(teacher.room(table["room"])["paused"] for table in overview["tables"])
    with pytest.raises(ClassroomError) as playing:
        teacher.class_command(klass["code"], "start_round")
    assert playing.value.code == "round_playing"


class HeldWrites:
    """A store whose next write is held until the test releases it (then written as usual): a class's write
    caught while it is committed, with no wait on the clock."""

    def __init__(self, server: ClassServer) -> None:
        assert server.hall is not None
        self.store, self.real = server.hall.store, server.hall.store.submit
        self.held: list[tuple[Callable[..., Any], Future[Any]]] = []
        self.store.submit = self.submit  # type: ignore[method-assign]

    def submit(self, job: Callable[..., Any]) -> Future[Any]:
        future: Future[Any] = Future()
        self.held.append((job, future))
        return future

    def release(self) -> None:
        self.store.submit = self.real  # type: ignore[method-assign]
        for job, future in self.held:
            self.real(job).add_done_callback(lambda done, future=future: future.set_result(done.result()))


def test_a_class_join_awaits_its_write_while_the_loop_serves_everyone(server: ClassServer,
                                                                      teacher: TeacherClient) -> None:
    klass = teacher.create_class("get_adler", bot_delay=0)
    browser = Browser(server.url)
    browser.get("/")
    held = server.call(lambda: HeldWrites(server))
    with ThreadPoolExecutor(max_workers=1) as pool:
        joining = pool.submit(browser.join, klass["code"], "Ana")
        wait_until(lambda: bool(held.held), timeout=30)
        assert teacher.school_class(klass["code"])["code"] == klass["code"], "the loop answers meanwhile"
        assert not joining.done()
        server.call(held.release)
        status, address, _ = joining.result(30)
    assert status == 200 and "/c/" in address


def test_a_notebook_opens_a_class_and_gets_its_tables_as_rooms(tmp_path: Path) -> None:
    board = classroom.open_class("get_adler", preferred=4, seed=2, bot_delay=0, db=tmp_path / "class.sqlite3")
    try:
        assert len(board.code) == 6 and board.link.endswith(f"/j/{board.code}") and board.qr.startswith("<svg")
        server = classroom.start(tmp_path / "class.sqlite3")
        tokens = [personal_token(Browser(server.url).join(board.code, f"P{number}")[1]) for number in range(8)]
        assert [student["name"] for student in board.students()] == [f"P{number}" for number in range(8)]
        tables = board.start_round()
        for token in tokens:
            poll(server, token)
        assert len(tables) == 2 and all(len(table.links) == 4 for table in tables)
        for table in tables:
            table.wait_for(lambda dashboard: dashboard.info is not None and dashboard.info["started"])
        assert "P0" in board._repr_html_() and "ClassBoard" in repr(board)
        board.close()
    finally:
        classroom.stop_all()


def test_serve_prints_the_class_code_and_link(tmp_path: Path) -> None:
    from tabletop_edu.classroom.testing import ServerProcess

    with ServerProcess(tmp_path / "class.sqlite3", tmp_path / "serve.log", "--class", "get_adler:5") as process:
        match = process.wait_for(r"class ([A-Z0-9]{6}) \(Get Adler, tables of about 5\): join at (\S+)")
        assert match.group(2).endswith(f"/j/{match.group(1)}")

