"""The class server over the network, as a student's phone or an attacker meets it.

- Whole games of every game played by tapping through the protocol: every message a seat's connection
  receives holds none of the other seats' secrets, and is exactly the message built from that seat's view
  (so it cannot hold more).
- Tokens: guessed, altered, expired and replayed ones open nothing; the teacher's API needs the teacher's token.
- Bad messages (out of turn, malformed, oversized, a flood) get a clear refusal and change nothing.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from typing import Any

import pytest
import tornado.httpclient

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.client import ClassroomError, Feed, join_room, request, websocket_url
from tabletop_edu.classroom.drawing import seats_public
from tabletop_edu.classroom.handlers import MAX_MESSAGE
from tabletop_edu.classroom.pages import table_message, view_step
from tabletop_edu.classroom.testing import Student, altered, leaked, play_to_the_end, seat_students, secrets_for
from tabletop_edu.classroom.throttles import FLOOD_BURST
from tabletop_edu.core import load

GAMES = [("peek", 3, "en"), ("commissario", 4, "fr"), ("get_adler", 5, "en"), ("mafia_de_cuba", 8, "fr")]


@pytest.mark.parametrize(("game", "players", "language"), GAMES, ids=[game for game, _, _ in GAMES])
def test_a_whole_game_by_tapping_leaks_nothing_to_any_seat(fast_server: ClassServer, game: str, players: int,
                                                           language: str) -> None:
    play_a_whole_game_by_tapping(fast_server, game, players, language)


def play_a_whole_game_by_tapping(server: ClassServer, game: str, players: int, language: str) -> None:
    """Seat students, tap a whole game through and check every message each seat and the projector got: no
    secret of another seat, no markup of a name, and exactly the table of its view at its step."""
    teacher = TeacherClient(server.url, server.teacher_token)
    room = teacher.create_room(game, players, seed=11, language=language, bot_delay=0)
    # Markup in names: escaped in the HTML; the status line and button labels are set as text by the page.
    names = [f"<img src=x>Élève {seat}" for seat in range(players)]
    students = seat_students(server.url, room["code"], names, language)
    projector = Feed(websocket_url(server.url, f"/ws/watch/{room['watch_url'].rsplit('/', 1)[1]}?lang={language}"))
    try:
        steps = play_to_the_end(students, random.Random(5))
        record = teacher.record(room["code"])
        assert record is not None and len(record["actions"]) == steps > 0
        assert load(record).is_over
        projector_messages = []
        while not projector_messages or projector_messages[-1]["step"] != steps:
            projector_messages.append(projector.next(lambda m: m["type"] == "table" and m["started"]))
        received = [(message, None) for message in projector_messages]
        received += [(message, seat) for seat, student in enumerate(students) for message in student.received
                     if message["type"] in ("table", "menu")]
        assert {seat for _, seat in received} == {None, *range(players)}
        received.sort(key=lambda pair: pair[0]["step"] or 0)
        state = load({**record, "actions": []})  # replayed alongside the messages, step by step
        secrets: dict[int | None, set[str]] = {}
        for message, seat in received:
            while len(state.history) < (message["step"] or 0):
                state.apply(record["actions"][len(state.history)][1], player=record["actions"][len(state.history)][0])
                secrets = {}
            if seat not in secrets:
                secrets[seat] = secrets_for(state, seat)
            assert not leaked(message, state, seat, secrets[seat]), \
                f"seat {seat} was told a secret at step {message['step']}"
            assert "<img" not in message.get("html", ""), "a name's markup reached the HTML unescaped"
            if message["type"] != "table" or not message["started"]:
                continue
            view = state.view(seat)
            assert view_step(view) == message["step"]  # the step tells the seat nothing its view does not
            legal = state.legal_actions(seat) if seat is not None and seat in state.acting_seats else []
            expected = table_message(view, language, seats=seats_public_of(names), step=message["step"],
                                     legal_actions=legal, title=message["title"], style=False)
            assert message == json.loads(json.dumps(expected)), f"seat {seat}, step {message['step']}"
    finally:
        projector.close()
        for student in students:
            student.close()


def seats_public_of(names: list[str]) -> list[dict[str, Any]]:
    return [{"seat": seat, "name": name, "bot": None} for seat, name in enumerate(names)]


# ------------------------------------------------------------------------------------------ tokens


def http_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def ws_status(url: str) -> int:
    feed = Feed(url, reconnect=False)
    feed.connected.wait(10)
    try:
        feed.wait_closed(10)
    except tornado.httpclient.HTTPClientError as error:
        return int(error.code)
    return int(feed.close_code or 0)


def started_room(teacher: TeacherClient, server: ClassServer, game: str = "peek", players: int = 2,
                 **options: Any) -> tuple[dict[str, Any], list[Student]]:
    room = teacher.create_room(game, players, seed=3, bot_delay=0, **options)
    students = seat_students(server.url, room["code"], [f"S{seat}" for seat in range(players)])
    for student in students:
        student.wait_step(0)
    return teacher.room(room["code"]), students


def test_guessed_altered_and_expired_tokens_open_no_seat(server: ClassServer, teacher: TeacherClient) -> None:
    room, students = started_room(teacher, server)
    token = students[1].token
    for bad in ("guessed-token-1234567890", altered(token), token.upper() if token.upper() != token else token + "x"):
        assert http_status(f"{server.url}/s/{bad}") == 404
        assert ws_status(websocket_url(server.url, f"/ws/seat/{bad}")) == 404
        assert ws_status(websocket_url(server.url, f"/ws/watch/{bad}")) == 404
    assert http_status(f"{server.url}/s/{token}") == 200
    teacher.command(room["code"], "new_link", seat=1)
    closed = students[1].feed  # the open page of the old link is told, and closed for good
    closed.wait_closed(10)
    assert closed.close_code == 4003 and "expired" in (closed.close_reason or "")
    assert http_status(f"{server.url}/s/{token}") == 410
    assert ws_status(websocket_url(server.url, f"/ws/seat/{token}")) == 410
    new = teacher.room(room["code"])["seats"][1]["link"]
    assert http_status(new) == 200
    teacher.command(room["code"], "close")
    assert http_status(new) == 410 and http_status(room["watch_url"]) == 410
    students[0].feed.wait_closed(10)
    assert students[0].feed.close_code == 4001


def test_the_projector_only_watches_and_a_seat_acts_for_itself_only(server: ClassServer,
                                                                    teacher: TeacherClient) -> None:
    room, students = started_room(teacher, server)
    projector = Feed(websocket_url(server.url, f"/ws/watch/{room['watch_url'].rsplit('/', 1)[1]}"))
    projector.next(lambda m: m["type"] == "table")
    projector.send({"type": "move", "step": 0, "action": "pass"})
    assert projector.next(lambda m: m["type"] == "refused")["code"] == "forbidden"
    students[1].feed.send({"type": "move", "step": 0, "action": "pass"})  # seat 0 is to move, not seat 1
    assert students[1].next(lambda m: m["type"] == "refused")["code"] == "not_your_turn"
    students[1].feed.send({"type": "menu", "step": 0, "chosen": []})
    assert students[1].next(lambda m: m["type"] == "refused")["code"] == "not_your_turn"
    assert teacher.record(room["code"])["actions"] == []
    projector.close()


def test_the_teachers_api_and_feed_need_the_teachers_token(server: ClassServer, teacher: TeacherClient) -> None:
    room, students = started_room(teacher, server)
    code = room["code"]
    for token in (None, "", "wrong", students[0].token, room["watch_url"].rsplit("/", 1)[1],
                  altered(server.teacher_token)):
        for method, path, body in (("GET", "/api/rooms", None), ("POST", "/api/rooms", {"game": "peek", "players": 2}),
                                   ("GET", f"/api/rooms/{code}", None), ("GET", f"/api/rooms/{code}/record", None),
                                   ("POST", f"/api/rooms/{code}/pause", {}), ("POST", f"/api/rooms/{code}/close", {}),
                                   ("POST", f"/api/rooms/{code}/new_link", {"seat": 0}), ("GET", "/api/records", None)):
            with pytest.raises(ClassroomError) as error:
                request(server.url + path, method, body, token)
            assert error.value.status == 403 and error.value.code == "forbidden"
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        feed = Feed(websocket_url(server.url, f"/ws/teacher/{code}"), headers=headers, reconnect=False)
        feed.wait_closed(10)
        assert feed.close_code == 403 and feed.messages.empty()
    assert not teacher.room(code)["paused"] and len(teacher.rooms()) == 1
    assert teacher.room(code)["seats"][0]["link"].endswith(students[0].token)  # nothing changed


def test_a_move_resent_or_answering_an_old_step_is_refused_and_never_applied_twice(
        server: ClassServer, teacher: TeacherClient) -> None:
    room, (ada, bob) = started_room(teacher, server)
    ada.feed.send({"type": "move", "step": 0, "action": "peek 1"})
    ada.wait_step(1)
    ada.feed.send({"type": "move", "step": 0, "action": "peek 1"})  # resent (a flaky network, a double tap)
    refusal = ada.next(lambda m: m["type"] == "refused")
    assert refusal["code"] in ("stale", "not_your_turn")
    bob.wait_step(1)
    bob.feed.send({"type": "move", "step": 0, "action": "pass"})  # Bob answers a table he no longer sees
    assert bob.next(lambda m: m["type"] == "refused")["code"] == "stale"
    assert bob.next(lambda m: m["type"] == "table")["step"] == 1  # and is shown the table again
    assert teacher.record(room["code"])["actions"] == [[0, "peek 1"]]


BAD_MESSAGES: list[tuple[str | bytes, str]] = [
    ("not json", "malformed"), ("[1, 2]", "malformed"), ('"move"', "malformed"), ("{}", "malformed"),
    ('{"type": "dance"}', "malformed"), ('{"type": "move"}', "malformed"),
    ('{"type": "move", "step": true, "action": "pass"}', "malformed"),
    ('{"type": "move", "step": "0", "action": "pass"}', "malformed"),
    ('{"type": "move", "step": 0, "action": 7}', "malformed"),
    ('{"type": "move", "step": 0, "action": ["pass"]}', "malformed"),
    ('{"type": "move", "step": 0, "action": "fly"}', "illegal"),
    ('{"type": "move", "step": 0, "action": "peek 0"}', "illegal"),
    ('{"type": "move", "step": 99, "action": "pass"}', "stale"),
    ('{"type": "menu", "step": 0, "chosen": "peek"}', "malformed"),
    ('{"type": "menu", "step": 0, "chosen": [1]}', "malformed"),
    (json.dumps({"type": "menu", "step": 0, "chosen": ["peek"] * 40}), "malformed"),
    ('{"type": "menu", "step": 0, "chosen": ["nonsense"]}', "stale"),
    ("[" * 1000 + "]" * 1000, "malformed"),
    (b"\x00\x01binary", "malformed"),
    ("x" * (MAX_MESSAGE + 1), "too_big"),
]


def test_bad_messages_are_refused_clearly_and_change_nothing(server: ClassServer, teacher: TeacherClient) -> None:
    room, (ada, bob) = started_room(teacher, server)
    before = teacher.room(room["code"])
    for message, code in BAD_MESSAGES:
        if isinstance(message, bytes):
            socket = ada.feed._socket
            assert socket is not None
            from tabletop_edu.classroom.client import client_loop

            client_loop().call_soon_threadsafe(lambda: socket.write_message(message, binary=True))
        else:
            ada.feed.send(message)
        refusal = ada.next(lambda m: m["type"] == "refused")
        assert refusal["code"] == code, (message[:60], refusal)
        assert refusal["message"] and len(refusal["message"]) < 500
    after = teacher.room(room["code"])
    assert after["record"] == before["record"] and after["step"] == 0
    ada.feed.send({"type": "move", "step": 0, "action": "pass"})  # the connection still works
    assert ada.wait_step(1)["step"] == 1


def test_an_oversized_frame_closes_the_connection_and_changes_nothing(server: ClassServer,
                                                                     teacher: TeacherClient) -> None:
    room, (ada, bob) = started_room(teacher, server)
    page = Feed(websocket_url(server.url, f"/ws/seat/{ada.token}"), reconnect=False)
    page.next(lambda m: m["type"] == "table")
    page.send("x" * 200_000)
    page.wait_closed(10)
    assert page.close_code == 1009
    assert teacher.record(room["code"])["actions"] == []
    again = Student(server.url, ada.token, 0, "again")  # a reload gets the seat back
    assert again.wait_step(0)["menu"] is not None
    again.close()


def test_a_flood_is_refused_and_changes_nothing(server: ClassServer, teacher: TeacherClient) -> None:
    room, (ada, bob) = started_room(teacher, server)
    flood = 3 * FLOOD_BURST
    for _ in range(flood):
        ada.feed.send({"type": "move", "step": 7, "action": "pass"})  # stale: none of them could play
    codes = [ada.next(lambda m: m["type"] == "refused")["code"] for _ in range(flood)]
    assert codes.count("flood") >= flood - 2 * FLOOD_BURST and set(codes) <= {"flood", "stale"}
    assert teacher.record(room["code"])["actions"] == []


def test_a_reloaded_page_keeps_its_seat(server: ClassServer, teacher: TeacherClient) -> None:
    room, (ada, bob) = started_room(teacher, server)
    ada.close()
    ada_again = Student(server.url, ada.token, 0, "Ada")
    table = ada_again.wait_step(0)
    assert table["menu"] is not None and table["seat"] == 0
    ada_again.tap_move(random.Random(1))
    assert bob.wait_step(1)["step"] == 1
    ada_again.close()


# ------------------------------------------------------------------------------------------ pages


def fetch(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    call = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(call, timeout=10) as response:
            return int(response.status), dict(response.headers), response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return int(error.code), dict(error.headers), error.read().decode("utf-8")


def test_pages_load_nothing_from_elsewhere_and_escape_names(server: ClassServer, teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
    evil = "<script>x()</script>"
    seat = join_room(server.url, room["code"], evil)
    for url in (server.url + "/", f"{server.url}/j/{room['code']}", seat["link"], seat["link"] + "?lang=fr",
                room["watch_url"]):
        status, headers, body = fetch(url)
        assert status == 200
        assert "default-src 'none'" in headers["Content-Security-Policy"]
        assert headers["Referrer-Policy"] == "no-referrer"
        assert evil not in body and "<script>x()" not in body
        for attribute in ("src=", "href="):
            for piece in body.split(attribute)[1:]:
                target = piece[1:].split(piece[0], 1)[0]
                assert not target.startswith(("http:", "https:", "//")) or target.startswith(server.url), target
    status, _, body = fetch(room["watch_url"])
    assert "<svg" in body and room["code"] in body  # the QR code and the code to join, on the projector
    status, _, body = fetch(seat["link"] + "?lang=fr")
    assert "Salle" in body or "Français" in body


def test_the_join_form_needs_its_xsrf_token(server: ClassServer, teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
    status, _, _ = fetch(server.url + "/join", data=f"code={room['code']}&name=Eve".encode())
    assert status == 403
    assert all(seat["name"] is None for seat in teacher.room(room["code"])["seats"])
    with pytest.raises(ClassroomError) as error:  # the JSON join refuses form posts (no cross-site forms)
        fetch_json_as_form(server.url + "/api/join", room["code"])
    assert error.value.status == 415


def fetch_json_as_form(url: str, code: str) -> None:
    status, _, body = fetch(url, data=f"code={code}&name=Eve".encode(),
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
    raise ClassroomError("http", body, status)


def test_a_room_is_created_only_from_good_json(server: ClassServer, teacher: TeacherClient) -> None:
    for body, field in (({"game": "peek"}, "players"), ({"game": "peek", "players": 2, "evil": 1}, "Unknown field"),
                        ({"game": "../etc", "players": 2}, "Unknown game"),
                        ({"game": "peek", "players": 2, "bots": {"x": "random"}}, "bots")):
        with pytest.raises(ClassroomError, match=field) as error:
            teacher.call("POST", "/api/rooms", body)
        assert error.value.status == 400
    assert teacher.rooms() == []


def test_seats_public_never_holds_tokens(server: ClassServer, teacher: TeacherClient) -> None:
    room, students = started_room(teacher, server)
    hall = server.hall
    assert hall is not None
    public = json.dumps(seats_public(hall.rooms[room["code"]]))
    assert all(student.token not in public for student in students)
    for student in students:
        for other in students:
            if other is not student:
                assert all(other.token not in json.dumps(message) for message in student.received)
