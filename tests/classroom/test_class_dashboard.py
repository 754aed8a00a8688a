"""The teacher's class dashboard over the server's protocol (`classroom.class_teacher`): every table at a glance with
no seat singled out, the levers for all tables, a bot for a stuck seat, one student's extra time, the message to
every student (stored first, escaped, bounded), the class's data out, and a late join that moves the pages of those
who sat instead of closing them."""

from __future__ import annotations

import csv
import io
import json
import random
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.class_board import ClassBoard
from tabletop_edu.classroom.client import ClassroomError, request, seat_feed
from tabletop_edu.classroom.moved_seats import CLOSE_MOVED
from tabletop_edu.classroom.testing import ManualScheduler, run_now, wait_until

from .test_class_server import Browser, personal_token, poll


def seated_class(server: ClassServer, teacher: TeacherClient, names: list[str],
                 **options: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """A Get Adler class whose students joined by the form and sat (each poll opens their seat)."""
    options = {"game": "get_adler", "preferred": 5, "seed": 4, "bot_delay": 0, **options}
    klass = teacher.create_class(options.pop("game"), **options)
    tokens = {name: personal_token(Browser(server.url).join(klass["code"], name)[1]) for name in names}
    teacher.class_command(klass["code"], "start_round")
    for token in tokens.values():
        poll(server, token)
    return klass, tokens


def board(teacher: TeacherClient, code: str, language: str = "en") -> dict[str, Any]:
    return dict(teacher.call("GET", f"/api/classes/{code}/board?lang={language}"))


def play_tables(server: ClassServer, code: str, seed: int = 1) -> None:
    """Every table of the class's round played to its end by seeded random legal moves of its students (its bots
    play their own), each move chosen and played on the server's loop."""
    assert server.classes is not None and server.hall is not None
    hall, rng = server.hall, random.Random(seed)

    async def one_move() -> bool:
        """One student's move at the first table not over; True once every table is over."""
        for table in server.classes.find(code).tables:  # type: ignore[union-attr]
            room = hall.room(table.room)
            state = room.state
            if state is None or state.is_over:
                continue
            seats = [seat for seat in state.acting_seats if room.seats[seat].bot is None]
            if seats:
                await hall.play(room, seats[0], room.step, str(rng.choice(room.state.legal_actions(seats[0]))))
            return False
        return True

    wait_until(lambda: bool(server.call(one_move)), timeout=120)


def test_the_board_shows_every_table_at_a_glance_and_counts_beliefs_per_table_only(server: ClassServer,
                                                                                  teacher: TeacherClient) -> None:
    names = [f"S{number}" for number in range(11)] + ["<b>Eve</b>"]
    klass, _ = seated_class(server, teacher, names, beliefs=True)
    answer = board(teacher, klass["code"])
    overview, page = answer["overview"], answer["html"]
    assert len(overview["tables"]) == 2 and all(table["started"] and table["turn"] for table in overview["tables"])
    for table in overview["tables"]:
        assert table["beliefs"] == 0 and isinstance(table["beliefs"], int), "a count for the table, not per seat"
        assert "counts" not in json.dumps(table)
        assert set(table["turn_seats"]) <= set(range(table["seats"])) and table["watch_url"].startswith(server.url)
    assert "<b>Eve</b>" not in page and "&lt;b&gt;Eve&lt;/b&gt;" in page, "every name escaped"
    assert page.count("<article class='table-card") == 2 and "Bot plays for" in page
    assert "Tableau" not in page and "Le robot joue pour" in board(teacher, klass["code"], "fr")["html"]
    assert {student["name"] for student in overview["students"]} == set(names)
    status, _, dashboard = Browser(server.url).get(f"/t/{klass['code']}?lang=fr")
    assert status == 200 and "Nouvelle manche" in dashboard and server.teacher_token not in dashboard
    with pytest.raises(ClassroomError) as refused:
        request(f"{server.url}/api/classes/{klass['code']}/board", token="wrong")
    assert refused.value.status == 403


def test_a_bot_plays_for_a_stuck_seat_and_reveal_all_reveals_the_finished_tables(server: ClassServer,
                                                                                 teacher: TeacherClient) -> None:
    klass, _ = seated_class(server, teacher, [f"S{number}" for number in range(8)], preferred=4)
    table = board(teacher, klass["code"])["overview"]["tables"][0]
    seat = table["turn_seats"][0]
    after = teacher.class_command(klass["code"], "play_for", room=table["room"], seat=seat)
    moved = next(line for line in after["tables"] if line["room"] == table["room"])
    assert moved["step"] == table["step"] + 1
    assert teacher.room(table["room"])["moves"][-1][3] == "time_up", "stored as the bot's move for the seat"
    with pytest.raises(ClassroomError) as not_due:
        teacher.class_command(klass["code"], "play_for", room=table["room"], seat=99)
    assert not_due.value.status == 409
    play_tables(server, klass["code"])
    teacher.class_command(klass["code"], "reveal_all")
    assert all(teacher.room(line["room"])["revealed"] for line in after["tables"])


def test_one_students_time_is_extended_for_each_move_and_kept_across_rounds(tmp_path: Path) -> None:
    scheduler = ManualScheduler()
    server = ClassServer(tmp_path / "class.sqlite3", scheduler=scheduler).start()
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        klass, _ = seated_class(server, teacher, [f"S{number}" for number in range(5)], move_time_limit=30)
        table = board(teacher, klass["code"])["overview"]["tables"][0]
        name = table["turn"][0]
        assert [timer.delay for timer in scheduler.pending(server)] == [30]
        after = teacher.class_command(klass["code"], "extend", student=name, seconds=90)
        assert [timer.delay for timer in scheduler.pending(server)] == [120], "the move due now gets its time anew"
        assert next(student for student in after["students"] if student["name"] == name)["extra_time"] == 90
        with pytest.raises(ClassroomError) as bad:
            teacher.class_command(klass["code"], "extend", student=name, seconds=-1)
        assert bad.value.status == 400
        with pytest.raises(ClassroomError) as nobody:
            teacher.class_command(klass["code"], "extend", student="Nobody", seconds=10)
        assert nobody.value.status == 404
    finally:
        server.stop()
    again = ClassServer(tmp_path / "class.sqlite3").start()
    try:
        assert again.classes is not None
        assert again.classes.find(klass["code"]).student(name).extra_time == 90  # type: ignore[union-attr]
    finally:
        again.stop()


def note_poll(server: ClassServer, token: str, seen: int = 0, language: str = "en") -> dict[str, Any]:
    return dict(request(f"{server.url}/note?lang={language}", "POST", {"token": token, "seen": seen}))


def test_the_message_reaches_every_student_page_escaped_bounded_and_survives_a_restart(tmp_path: Path) -> None:
    server = ClassServer(tmp_path / "class.sqlite3").start()
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        klass = teacher.create_class("get_adler", preferred=4, seed=2, bot_delay=0, language="fr")
        tokens = [personal_token(Browser(server.url).join(klass["code"], f"P{number}")[1]) for number in range(5)]
        teacher.class_command(klass["code"], "start_round")
        seat = poll(server, tokens[0])["seat"].split("/s/")[1].split("?")[0]
        board_ = ClassBoard(server_client := teacher, klass["code"], language="fr")
        board_.message("Plus que <5> minutes & on débriefe")
        for token in (seat, tokens[-1]):  # a seat's page and a page still waiting (the fifth waits: 4 + 1)
            note = note_poll(server, token, language="fr")
            assert note["text"] == "Plus que <5> minutes & on débriefe" and note["number"] == 1
            assert note["title"] == "Message de votre enseignant"
        assert note_poll(server, seat, language="en")["title"] == "Message from your teacher"
        with pytest.raises(ClassroomError) as long:
            server_client.class_command(klass["code"], "note", text="x" * 281)
        assert long.value.status == 400 and long.value.code == "bad_note"
        with pytest.raises(ClassroomError) as hidden:
            server_client.class_command(klass["code"], "note", text="a\u202eb")
        assert hidden.value.code == "bad_note"
        status, _, page = Browser(server.url).get(f"/s/{seat}")
        assert status == 200 and "/static/class_note.js" in page
    finally:
        server.stop()
    again = ClassServer(tmp_path / "class.sqlite3").start()
    try:
        assert note_poll(again, tokens[-1])["text"] == "Plus que <5> minutes & on débriefe", "stored before shown"
        with pytest.raises(ClassroomError) as unknown:
            note_poll(again, "no-such-token")
        assert unknown.value.status == 404
    finally:
        again.stop()


def test_the_download_gives_a_csv_per_kind_whose_rows_match_the_records(server: ClassServer,
                                                                        teacher: TeacherClient, tmp_path: Path) -> None:
    names = [f"S{number}" for number in range(6)] + ["=HYPERLINK(1)"]
    klass, _ = seated_class(server, teacher, names, preferred=4, fill="bots", beliefs=True)
    play_tables(server, klass["code"])
    records = {record["code"]: record for record in teacher.records()}
    handle = ClassBoard(teacher, klass["code"])
    path = handle.download(tmp_path / "class.zip")
    with zipfile.ZipFile(path) as archive:
        files = {name.split("/")[-1]: list(csv.DictReader(io.StringIO(archive.read(name).decode())))
                 for name in archive.namelist()}
    assert set(files) == {"moves.csv", "results.csv", "beliefs.csv"}
    tables = teacher.school_class(klass["code"])["tables"]
    expected_moves = [(table["room"], move[0], move[1], move[2]) for table in tables
                      for move in records[table["room"]]["moves"]]
    moves = files["moves.csv"]
    assert sorted((row["room"], int(row["step"]), int(row["seat"]), row["action"]) for row in moves) == \
        sorted(expected_moves)
    for row in moves + files["results.csv"]:
        table_index = int(row["table"])
        table = tables[table_index - 1]
        seat = int(row["seat"])
        assert row["class"] == klass["code"] and row["round"] == "1" and row["room"] == table["room"]
        record_seat = records[table["room"]]["seats"][seat]
        if record_seat.get("bot"):
            assert row["kind"] == "bot" and row["student"] == ""
        else:
            assert row["kind"] == "student" and row["student"] in (table["students"][seat],
                                                                   "'" + table["students"][seat])
    assert any(row["student"] == "'=HYPERLINK(1)" for row in moves), "a formula is written as text"
    assert len(files["results.csv"]) == sum(len(records[table["room"]]["seats"]) for table in tables)
    frames = handle.games()
    assert len(frames["moves"]) == len(moves) and set(frames["results"]["student"]) >= {"S0", "=HYPERLINK(1)"}


def test_a_late_join_moves_the_pages_of_those_who_sat_to_their_new_seat(server: ClassServer,
                                                                        teacher: TeacherClient) -> None:
    klass = teacher.create_class("get_adler", preferred=4, seed=5, bot_delay=0)
    tokens = {f"S{number}": personal_token(Browser(server.url).join(klass["code"], f"S{number}")[1])
              for number in range(4)}
    teacher.class_command(klass["code"], "start_round")
    seat = poll(server, tokens["S0"])["seat"].split("/s/")[1].split("?")[0]
    page = seat_feed(server.url, seat)
    page.next(lambda message: message.get("type") == "table")
    personal_token(Browser(server.url).join(klass["code"], "Late")[1])
    wait_until(lambda: page.closed, timeout=30)
    assert page.close_code == CLOSE_MOVED and page.close_reason == f"/c/{tokens['S0']}?lang=en"
    status, address, _ = Browser(server.url).get(page.close_reason)
    assert status == 200 and "/s/" in address and seat not in address, "the personal link opens the new seat"
    status, address, _ = Browser(server.url).get(f"/s/{seat}")
    assert status == 200 and "/s/" in address and seat not in address, "the old seat's page goes there too"
    again = seat_feed(server.url, seat)
    wait_until(lambda: again.closed, timeout=30)
    assert again.close_code == CLOSE_MOVED, "a phone coming back with the old seat is sent on, not closed"


def test_the_notebooks_class_board_shows_every_table_and_links_the_dashboard_page(server: ClassServer,
                                                                                  teacher: TeacherClient) -> None:
    klass, _ = seated_class(server, teacher, [f"S{number}" for number in range(9)], preferred=4, language="fr")
    handle = ClassBoard(teacher, klass["code"], language="fr")
    shown = handle._repr_html_()
    assert shown.count("<article class='table-card") == 2 and "doit jouer" in shown and "<style>" in shown
    assert server.teacher_token not in shown and "<button" not in shown, "no key, no lever in a notebook"
    link = handle.dashboard_link
    assert link.startswith(f"{server.url}/t/{klass['code']}?lang=fr#token=") and link.endswith(server.teacher_token)
    assert len(handle.board()["tables"]) == 2 and handle.table(1).code == handle.board()["tables"][0]["room"]
    handle.close()


def test_serve_prints_the_class_dashboards_page_with_the_key_in_its_fragment(tmp_path: Path) -> None:
    from tabletop_edu.classroom.testing import ServerProcess

    with ServerProcess(tmp_path / "class.sqlite3", tmp_path / "serve.log", "--class", "get_adler:5") as process:
        match = process.wait_for(r"class dashboard \(yours alone\): (http://\S+)/t/([A-Z0-9]{6})#token=(\S+)")
        status, _, page = Browser(match.group(1)).get(f"/t/{match.group(2)}")
        assert status == 200 and match.group(3) not in page
        assert request(f"{match.group(1)}/api/classes/{match.group(2)}/board", token=match.group(3))["overview"]


def test_start_every_table_now_from_the_dashboard(server: ClassServer, teacher: TeacherClient) -> None:
    klass = teacher.create_class("get_adler", preferred=4, seed=6, bot_delay=0)
    tokens = [personal_token(Browser(server.url).join(klass["code"], f"P{number}")[1]) for number in range(4)]
    teacher.class_command(klass["code"], "start_round")
    for token in tokens[:3]:
        poll(server, token)
    after = teacher.class_command(klass["code"], "start_now")
    table = after["tables"][0]
    assert table["started"] and "P3" not in table["offline"] and len(table["offline"]) == 3, "a bot is never offline"
    assert poll_waits(server, tokens[3])


def poll_waits(server: ClassServer, token: str) -> bool:
    """Whether the waiting page of `token` is told to wait (its seat went to a bot)."""
    status, _, page = Browser(server.url).get(f"/c/{token}")
    return status == 200 and 'id="waiting"' in page


def test_a_page_of_a_past_rounds_table_hears_the_message_and_a_plain_rooms_page_is_told_no_class(
        server: ClassServer, teacher: TeacherClient) -> None:
    klass, tokens = seated_class(server, teacher, [f"S{number}" for number in range(4)], preferred=4)
    old_seat = poll(server, tokens["S0"])["seat"].split("/s/")[1].split("?")[0]
    play_tables(server, klass["code"])
    teacher.class_command(klass["code"], "start_round")
    teacher.class_command(klass["code"], "note", text="Round two")
    assert note_poll(server, old_seat)["text"] == "Round two"
    room = teacher.create_room("get_adler", 4)
    with pytest.raises(ClassroomError) as plain:
        note_poll(server, room["seats"][0]["link"].rsplit("/", 1)[1])
    assert plain.value.code == "no_class"
