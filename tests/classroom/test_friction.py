"""Class play without friction (issue 20), the second part: heartbeats find half-open connections, the teacher
places students before the start, an optional time limit per move lets the room's bot play for a seat that ran
out of time, and updates carry no styling. Nothing here waits on wall time: heartbeats and deadlines are
triggered by the test."""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import tornado.websocket

from tabletop_edu import classroom
from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import ClassroomError, Feed, join_room, run, seat_feed, websocket_url
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.pages import move_words
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.testing import FirstCommitHeld, ManualScheduler, ServerProcess, Student, run_now, wait_until
from tabletop_edu.templates import stylesheet


@pytest.fixture()
def quiet_server(tmp_path: Path) -> Iterator[ClassServer]:
    """A server whose heartbeats and deadlines happen only when the test calls them."""
    server = ClassServer(tmp_path / "quiet.sqlite3", heartbeat=None).start()
    try:
        yield server
    finally:
        server.stop()


def half_open_socket(url: str, path: str) -> socket.socket:
    """A websocket that opens and then never answers anything (a phone gone out of range: the server's
    side of the connection stays open, nothing comes back)."""
    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=10)
    connection.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += connection.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:100]
    return connection


def online(teacher: TeacherClient, code: str) -> list[int]:
    return [seat["online"] for seat in teacher.room(code)["seats"]]


def latest(feed: Feed, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return feed.next(condition, timeout=10)


def test_a_half_open_connection_is_shown_offline_two_missed_heartbeats_later(quiet_server: ClassServer) -> None:
    server = quiet_server
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("commissario", 2)["code"]
    alive, gone = join_room(server.url, code, "Ana"), join_room(server.url, code, "Ben")
    live = seat_feed(server.url, alive["token"])
    silent = half_open_socket(server.url, f"/ws/seat/{gone['token']}")
    dashboard = teacher.follow(code)

    def unanswered() -> list[int]:
        seats = server.call(lambda: sorted((c.seat, c.unanswered) for c in server.connections[code] if c.kind == "seat"))
        return [count for _, count in seats]

    try:
        wait_until(lambda: online(teacher, code) == [1, 1])
        for missed in (1, 2):  # a ping the silent one leaves unanswered is forgiven, once
            assert server.call(server.beat) == []
            wait_until(lambda: unanswered() == [0, missed])  # the live one answers each
        assert online(teacher, code) == [1, 1]
        dead = server.call(server.beat)  # two pings unanswered: the silent one is gone
        assert [(connection.kind, connection.seat) for connection in dead] == [("seat", gone["seat"])]
        shown = latest(dashboard, lambda message: [seat["online"] for seat in message["seats"]] == [1, 0])
        assert shown["code"] == code
        assert online(teacher, code) == [1, 0]
        live.send({"type": "move", "step": 0, "action": "nonsense"})  # the live page is still heard
        assert live.next(lambda message: message["type"] == "refused")["code"] in ("illegal", "not_your_turn")
    finally:
        silent.close()
        live.close()
        dashboard.close()


def test_a_page_that_answers_every_heartbeat_stays_online(quiet_server: ClassServer) -> None:
    server = quiet_server
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("commissario", 2)["code"]
    seat = join_room(server.url, code, "Ana")
    live = seat_feed(server.url, seat["token"])
    try:
        wait_until(lambda: online(teacher, code)[0] == 1)
        for _ in range(4):
            assert server.call(server.beat) == []
            wait_until(lambda: server.call(lambda: all(c.unanswered == 0 for c in server.connections[code])))
        assert online(teacher, code)[0] == 1
    finally:
        live.close()


def test_a_placed_students_page_follows_them_to_their_new_seat(server: ClassServer, teacher: TeacherClient) -> None:
    code = teacher.create_room("commissario", 3)["code"]
    ana = join_room(server.url, code, "Ana")
    page = seat_feed(server.url, ana["token"])
    try:
        assert latest(page, lambda message: message["type"] == "table")["seat"] == 0
        placed = teacher.command(code, "swap", seat=0, to=2)
        assert [seat["name"] for seat in placed["seats"]] == [None, None, "Ana"]
        moved = latest(page, lambda message: message["type"] == "table" and message["seat"] == 2)
        assert "Ana" in moved["html"] and not page.closed  # the same link, the same page, the new seat
        join_room(server.url, code, "Ben")
        join_room(server.url, code, "Cleo")
        started = latest(page, lambda message: message["type"] == "table" and message["started"])
        assert started["seat"] == 2
        with pytest.raises(ClassroomError) as refusal:
            teacher.command(code, "swap", seat=0, to=2)
        assert refusal.value.code == "started" and refusal.value.status == 409
        assert [seat["name"] for seat in teacher.room(code)["seats"]] == ["Ben", "Cleo", "Ana"]
    finally:
        page.close()


def test_updates_carry_the_table_without_its_stylesheet_which_the_page_links_once(
        server: ClassServer, teacher: TeacherClient) -> None:
    code = teacher.create_room("mafia_de_cuba", 6, bots={seat: "random" for seat in range(1, 6)}, bot_delay=0)["code"]
    seat = join_room(server.url, code, "Ana")
    page = seat_feed(server.url, seat["token"])
    try:
        table = latest(page, lambda message: message["type"] == "table" and message["started"])
        assert "tt-ring" in table["html"] and "<style" not in table["html"]
        assert len(table["html"]) < len(stylesheet())  # the styling was most of every update
        with urllib.request.urlopen(f"{server.url}/s/{seat['token']}", timeout=10) as response:
            html = response.read().decode("utf-8")
        link = re.search(r'href="(/style/tabletop\.css\?v=[0-9a-f]+)"', html)
        assert link is not None and "<style" not in html
        with urllib.request.urlopen(server.url + link.group(1), timeout=10) as response:
            assert response.read().decode("utf-8") == stylesheet()
            assert response.headers["Content-Type"].startswith("text/css")
            assert "max-age" in response.headers["Cache-Control"]
            assert "default-src 'none'" in response.headers["Content-Security-Policy"]
        with urllib.request.urlopen(f"{server.url}/style/tabletop.css?v=old", timeout=10) as response:
            assert response.headers["Cache-Control"] == "no-cache"  # an old version is not kept
    finally:
        page.close()


def test_the_dashboard_places_students_before_the_start_only(tmp_path: Path) -> None:
    dashboard = classroom.open("commissario", 3, seed=1, db=tmp_path / "placing.sqlite3", bot_delay=0)
    students: list[Student] = []
    try:
        url = classroom.start(tmp_path / "placing.sqlite3").url
        students = [Student.join(url, dashboard.code, name) for name in ("Ana", "Ben")]
        dashboard.wait_for(lambda d: d.info["seats"][1]["name"] == "Ben")
        assert not dashboard.swap_button.disabled and dashboard.swap_button.description == "Swap these seats"
        dashboard.seat_picker.value, dashboard.place_picker.value = 1, 2
        dashboard.swap_button.click()
        dashboard.wait_for(lambda d: [seat["name"] for seat in d.info["seats"]] == ["Ana", None, "Ben"])
        assert students[1].next(lambda message: message["type"] == "table" and message["seat"] == 2)
        students.append(Student.join(url, dashboard.code, "Cleo"))
        dashboard.wait_for(lambda d: d.state is not None)
        assert dashboard.state is not None and dashboard.state.players == ("Ana", "Cleo", "Ben")
        assert dashboard.swap_button.disabled and dashboard.place_picker.disabled
        dashboard.swap(0, 2)  # a script's call is refused by the server, and the dashboard says why
        assert "before the game starts" in dashboard.message.value
        dashboard.wait_for(lambda d: [seat["name"] for seat in d.info["seats"]] == ["Ana", "Cleo", "Ben"])
    finally:
        for student in students:
            student.close()
        dashboard.close()
        classroom.stop_all()


# ------------------------------------------------------------------------------------------ time limits


@pytest.fixture()
def timed(tmp_path: Path) -> Iterator[tuple[ClassServer, ManualScheduler]]:
    scheduler = ManualScheduler()
    server = ClassServer(tmp_path / "timed.sqlite3", heartbeat=None, scheduler=scheduler).start()
    try:
        yield server, scheduler
    finally:
        server.stop()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_when_a_students_time_is_up_a_bot_plays_for_them_and_their_page_says_so(
        timed: tuple[ClassServer, ManualScheduler], language: str) -> None:
    server, scheduler = timed
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("mafia_de_cuba", 6, bots={seat: "random" for seat in range(1, 6)}, bot_delay=0,
                               move_time_limit=45, language=language)["code"]
    assert teacher.room(code)["move_time_limit"] == 45
    ana = Student.join(server.url, code, "Ana", language)
    try:
        table = ana.wait_step(0)
        assert table["menu"] is not None  # the Godfather opens the game
        due = ana.next(lambda message: message["type"] == "deadline")  # the page counts down from it
        assert due["step"] == 0 and 0 < due["seconds"] <= 45
        wait_until(lambda: len(scheduler.pending(server)) == 1)
        [deadline] = scheduler.pending(server)
        assert deadline.delay == 45
        view = server.call(lambda: server.hall.rooms[code].view(0))
        action = server.call(deadline.callback)
        notice = ana.next(lambda message: message["type"] == "notice")
        expected = {"en": "Time's up: a bot played for you: ", "fr": "Temps écoulé : un robot a joué pour vous : "}
        played = move_words(view, action, language)  # the move in the words of the seat's buttons
        assert notice == {"type": "notice", "code": "time_up", "text": f"{expected[language]}{played}.", "move": action}
        moves = teacher.room(code)["moves"]
        assert moves[0][:3] == [0, 0, action] and moves[0][3] == "time_up"
        ana.feed.send({"type": "move", "step": 0, "action": table["menu"]["options"][0]["action"] or "hide 0"})
        late = ana.next(lambda message: message["type"] == "refused")
        assert late["code"] in ("stale", "not_your_turn")  # too late: the bot's move stands
        assert teacher.room(code)["moves"][0] == moves[0]
        teacher.command(code, "pause")  # the bots stop before the server does
    finally:
        ana.close()


def test_a_simultaneous_choice_keeps_its_deadlines_and_a_pause_stops_them(
        timed: tuple[ClassServer, ManualScheduler]) -> None:
    server, scheduler = timed
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("commissario", 3, seed=7, move_time_limit=20)["code"]
    for name in ("Ana", "Ben", "Cleo"):
        join_room(server.url, code, name)
    assert server.hall is not None
    room = server.hall.rooms[code]
    rng = random.Random(3)

    def acting() -> tuple[int, ...]:
        return tuple(server.call(lambda: room.state.acting_seats))

    def play_one() -> None:
        async def move() -> None:
            seat = room.state.acting_seats[0]
            await server.hall.play(room, seat, room.step, str(rng.choice(room.legal_actions(seat))))
        server.call(move)

    for _ in range(100):  # students play until several choose at once (Commissario's picks)
        if len(acting()) > 1:
            break
        assert [timer.delay for timer in scheduler.pending(server)] == [20]  # one deadline: the one to move
        play_one()
    seats = acting()
    assert len(seats) > 1, "no simultaneous choice in 100 moves"
    timers = scheduler.pending(server)
    assert len(timers) == len(seats)
    play_one()  # the first of them chooses: the others keep the deadlines they had
    assert [id(timer) for timer in scheduler.pending(server)] == [id(timer) for timer in timers[1:]]
    teacher.command(code, "pause")
    assert scheduler.pending(server) == []
    teacher.command(code, "resume")
    assert len(scheduler.pending(server)) == len(seats) - 1
    step = server.call(lambda: room.step)
    server.call(scheduler.pending(server)[0].callback)  # one runs out of time: a bot chooses for them
    assert server.call(lambda: room.step) == step + 1
    assert server.call(lambda: room.actions[-1].actor) == "time_up"


def test_a_class_whose_time_runs_out_at_once_is_played_off_the_loop(
        timed: tuple[ClassServer, ManualScheduler]) -> None:
    """Two rooms at a simultaneous choice nobody made: their six deadlines pass together. The bots' moves are
    handed to the writer without the loop waiting for a commit (here the writer is held: the loop still answers;
    each room's first move is queued, its two others wait to be committed together after it), then committed
    and played. (Before, each deadline committed its move on the loop, one after the other: a frozen server for
    as long as the writer took.)"""
    server, scheduler = timed
    hall = server.hall
    assert hall is not None
    teacher = TeacherClient(server.url, server.teacher_token)
    codes = [teacher.create_room("commissario", 3, seed=7, move_time_limit=20)["code"] for _ in range(2)]
    rng = random.Random(3)

    async def at_the_picks(code: str) -> None:
        room = hall.rooms[code]
        while room.state is None or set(room.state.acting_seats) != {0, 1, 2}:
            if room.state is None:
                await hall.claim(next(seat for seat in room.seats if not seat.filled).token, f"S{rng.random():.6f}")
                continue
            seat = room.state.acting_seats[0]
            await hall.play(room, seat, room.step, str(rng.choice(room.legal_actions(seat))))

    async def everyone_at_the_picks() -> list[int]:
        for code in codes:
            await at_the_picks(code)
        return [hall.rooms[code].step for code in codes]

    steps = server.call(everyone_at_the_picks)
    timers = scheduler.pending(server)
    assert len(timers) == 6
    started, gate = threading.Event(), threading.Event()

    def hold(db: object) -> None:
        started.set()
        gate.wait(30)

    def waiting() -> int:
        return sum(len(hall.rooms[code].waiting) for code in codes)

    blocker = hall.store.submit(hold)
    assert started.wait(10)
    try:
        tasks: list[Any] = server.call(lambda: [timer.callback() for timer in timers], timeout=10)
        # the loop answers while each room's first move is queued and the others wait to be committed with it
        wait_until(lambda: hall.store.writer.queued == 2 and server.call(waiting) == 4)
        assert not any(task.done() for task in tasks) and teacher.room(codes[0])["moves"][-1][3] != "time_up"
    finally:
        gate.set()
    blocker.result(10)
    wait_until(lambda: server.call(lambda: all(task.done() for task in tasks)))
    assert all(isinstance(task.result(), str) for task in tasks)
    for code, step in zip(codes, steps):
        moves = teacher.room(code)["moves"][step:]
        assert sorted(move[1] for move in moves) == [0, 1, 2] and {move[3] for move in moves} == {"time_up"}


def test_a_move_tapped_as_the_time_runs_out_wins_over_the_bots(timed: tuple[ClassServer, ManualScheduler]) -> None:
    """Ana taps her move a moment before her deadline passes; it is still being committed when the deadline's bot
    chooses for her. The bot's move is checked after hers: refused, nothing played for her twice, and her page
    is not told that her time ran out."""
    server, scheduler = timed
    hall = server.hall
    assert hall is not None
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("mafia_de_cuba", 6, bots={seat: "random" for seat in range(1, 6)}, bot_delay=0,
                               move_time_limit=45)["code"]
    ana = Student.join(server.url, code, "Ana")
    try:
        table = ana.wait_step(0)
        wait_until(lambda: len(scheduler.pending(server)) == 1)
        [deadline] = scheduler.pending(server)
        room = hall.rooms[code]
        held = FirstCommitHeld(hall)
        mine = table["menu"]["options"][0]["action"] or "hide 0"
        server.call(lambda: [asyncio.ensure_future(hall.play(room, 0, 0, mine))])
        [late_bot] = server.call(lambda: [deadline.callback()])  # while Ana's move is being committed
        held.release()
        wait_until(lambda: server.call(late_bot.done))
        assert late_bot.result() is None  # nothing was due any more
        moves = teacher.room(code)["moves"]
        assert moves[0][:4] == [0, 0, mine, "seat"] and [move[1] for move in moves].count(0) == 1
        teacher.command(code, "pause")  # the bots stop; Ana's page is sent the paused table after all the rest
        ana.next(lambda message: message["type"] == "table" and message["paused"])
        assert not any(message["type"] == "notice" for message in ana.received)
    finally:
        ana.close()


@pytest.mark.parametrize("limit", [0, -1, 4, 3601, True, "30", [30]])
def test_a_time_limit_out_of_range_is_refused_and_opens_no_room(server: ClassServer, teacher: TeacherClient,
                                                                 limit: Any) -> None:
    before = teacher.rooms()
    with pytest.raises(ClassroomError) as refusal:
        teacher.create_room("commissario", 3, move_time_limit=limit)
    assert refusal.value.code == "bad_request" and "move_time_limit" in str(refusal.value)
    assert teacher.rooms() == before


def test_a_rooms_time_limit_is_kept_on_disk(tmp_path: Path) -> None:
    hall = Hall(Store(tmp_path / "limit.sqlite3"))
    limited = run_now(hall.create_room("get_adler", 4, move_time_limit=90.5))
    free = run_now(hall.create_room("get_adler", 4))
    again = Hall(Store(tmp_path / "limit.sqlite3"))
    assert again.rooms[limited.code].move_time_limit == 90.5 and again.rooms[free.code].move_time_limit is None


def test_serve_sets_the_time_limit_of_the_rooms_it_opens(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "served.sqlite3", tmp_path / "served.log", "--room", "commissario:3",
                       "--move-time-limit", "30") as served:
        code = served.wait_for(r"room (\w+) \(Commissario, 3 seats, 30 s per move, 0 of 3 seated\)").group(1)
        assert TeacherClient(served.url, served.token).room(code)["move_time_limit"] == 30


@pytest.mark.parametrize("compression", [True, False])
def test_websockets_are_deflated_when_the_client_offers_it_and_the_server_allows_it(tmp_path: Path,
                                                                                    compression: bool) -> None:
    server = ClassServer(tmp_path / "deflate.sqlite3", heartbeat=None, compression=compression).start()
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        code = teacher.create_room("commissario", 3)["code"]
        token = join_room(server.url, code, "Ana")["token"]

        async def extensions() -> str:
            socket = await tornado.websocket.websocket_connect(websocket_url(server.url, f"/ws/seat/{token}"),
                                                               compression_options={})
            try:
                assert json.loads(await socket.read_message())["type"] == "table"  # and it reads as usual
                return str(socket.headers.get("Sec-WebSocket-Extensions", ""))
            finally:
                socket.close()

        offered = run(extensions())
        assert ("permessage-deflate" in offered) is compression
    finally:
        server.stop()


def test_a_page_that_asks_for_beats_hears_each_heartbeat_and_programs_do_not(quiet_server: ClassServer) -> None:
    server = quiet_server
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("commissario", 3)["code"]
    token = join_room(server.url, code, "Ana")["token"]
    page = Feed(websocket_url(server.url, f"/ws/seat/{token}?lang=en&beat=1"))
    program = seat_feed(server.url, token)
    try:
        for feed in (page, program):
            assert latest(feed, lambda message: message["type"] == "table")["seat"] == 0
        server.call(server.beat)
        assert latest(page, lambda message: True) == {"type": "beat"}
        teacher.command(code, "pause")  # the next message the program hears is the pause, no beat before it
        assert latest(program, lambda message: True)["paused"] is True
    finally:
        page.close()
        program.close()
