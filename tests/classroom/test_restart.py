"""A hard kill of the server mid-game (SIGKILL of `python -m tabletop_edu serve`), then a restart on the same
SQLite file: every room resumes where it was, every move anyone was told of is there, none is applied twice,
and the links and the teacher's token still work. Also the command line's join page and its refusals."""

from __future__ import annotations

import random
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.testing import ServerProcess, Student, play_to_the_end
from tabletop_edu.core import load


def test_a_hard_kill_mid_game_loses_nothing_and_applies_nothing_twice(tmp_path: Path) -> None:
    db, log = tmp_path / "class.sqlite3", tmp_path / "server.log"
    server = ServerProcess(db, log).start()
    students: list[Student] = []
    try:
        teacher = TeacherClient(server.url, server.token)
        mafia = teacher.create_room("mafia_de_cuba", 6, seed=5, bot_delay=0, bots={4: "loyal", 5: "random"})
        adler = teacher.create_room("get_adler", 4, seed=6, bot_delay=0)
        mafia_students = [Student.join(server.url, mafia["code"], f"M{seat}") for seat in range(4)]
        adler_students = [Student.join(server.url, adler["code"], f"A{seat}") for seat in range(4)]
        students = mafia_students + adler_students
        rng = random.Random(2)
        for group in (mafia_students, adler_students):  # a few moves each, every one acknowledged
            step = 0
            while step < 4:
                tables = [student.wait_step(step) for student in group]
                movers = [student for student, table in zip(group, tables) if table["menu"] is not None]
                if movers:
                    movers[0].tap_move(rng)
                step += 1
        acknowledged = {code: teacher.record(code)["actions"] for code in (mafia["code"], adler["code"])}
        step = len(acknowledged[adler["code"]])
        tables = [student.wait_step(step) for student in adler_students]
        mover = next(student for student, table in zip(adler_students, tables) if table["menu"] is not None)
        in_flight = next(option for option in mover.table["menu"]["options"] if option["action"]) \
            if any(option["action"] for option in mover.table["menu"]["options"]) else None
        if in_flight is not None:
            mover.feed.send({"type": "move", "step": step, "action": in_flight["action"]})
        server.kill()  # SIGKILL, perhaps while that move is being written
        for student in students:
            student.close()

        server = ServerProcess(db, log).start()
        assert server.token == teacher.token, "the teacher's token survives a restart"
        teacher = TeacherClient(server.url, server.token)
        for code, actions in acknowledged.items():
            record = teacher.record(code)
            assert record["actions"][:len(actions)] == actions, "a move someone was told of was lost"
            assert len(record["actions"]) <= len(actions) + 1, "more moves than were ever sent"
        resumed = teacher.record(adler["code"])["actions"]
        again = [Student(server.url, student.token, student.seat, student.name) for student in adler_students]
        students = again
        if in_flight is not None:  # the page resends the move it never heard back about: applied at most once
            again[mover.seat].feed.send({"type": "move", "step": step, "action": in_flight["action"]})
            reply = again[mover.seat].next(lambda m: m["type"] == "refused" or (m["type"] == "table" and m["step"] == step + 1))
            if len(resumed) == step + 1:
                assert reply["type"] == "refused" and reply["code"] in ("stale", "not_your_turn")
        record = teacher.record(adler["code"])
        assert record["actions"][:step] == acknowledged[adler["code"]] and len(record["actions"]) == step + (in_flight is not None)
        play_to_the_end(again, random.Random(3), first_step=len(record["actions"]))
        final = load(teacher.record(adler["code"]))
        assert final.is_over and [list(entry) for entry in final.history[:step]] == acknowledged[adler["code"]]
        mafia_again = [Student(server.url, student.token, student.seat, student.name) for student in mafia_students]
        students += mafia_again
        play_to_the_end(mafia_again, random.Random(4), first_step=len(acknowledged[mafia["code"]]))
        assert load(teacher.record(mafia["code"])).is_over
    finally:
        for student in students:
            student.close()
        server.stop()


def test_serve_answers_with_a_join_page_and_prints_the_rooms(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "class.sqlite3", tmp_path / "server.log", "--room", "peek:2",
                       "--language", "fr") as server:
        room = server.wait_for(r"room (\w+) \(Peek, 2 seats, 0 of 2 seated\): join at (\S+)")
        seat = server.wait_for(r"seat 0: (\S+)")
        with urllib.request.urlopen(server.url + "/", timeout=10) as response:
            page = response.read().decode()
        assert "<form" in page and 'name="code"' in page and 'name="name"' in page
        with urllib.request.urlopen(seat.group(1), timeout=10) as response:
            assert 'name="name"' in response.read().decode()  # an empty seat asks for a name first
        assert TeacherClient(server.url, server.token).room(room.group(1))["language"] == "fr"


def test_serve_refuses_a_bad_room_argument(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "tabletop_edu", "serve", "--port", "0", "--db",
                             str(tmp_path / "x.sqlite3"), "--room", "peek"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and "GAME:PLAYERS" in result.stderr


def test_a_room_opened_as_soon_as_serve_prints_its_address_is_not_listed_as_reopened(tmp_path: Path) -> None:
    """serve lists the file's open rooms before it prints its address: a program that opens a room as soon as it
    reads the address (the class bench does) never sees its new room listed as one the restart reopened."""
    with ServerProcess(tmp_path / "class.sqlite3", tmp_path / "server.log") as server:  # start(): the address
        code = TeacherClient(server.url, server.token).create_room("peek", 2)["code"]
        server.wait_for(r"^stop: Ctrl-C")
        assert "reopened" not in "".join(server.output) and code not in "".join(server.output)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="Python 3.10 puts the working folder first on the path "
                    "of `python -m` whatever the environment says (PYTHONSAFEPATH came with 3.11)")
def test_a_server_process_runs_the_package_its_caller_imported_whatever_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bench run from another copy of the code (a git worktree, to compare two versions) timed that copy's
    students against the server of the folder it was run from: `python -m` imported the working folder's package."""
    decoy = tmp_path / "tabletop_edu"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise SystemExit('the package of the working folder was imported')\n")
    monkeypatch.chdir(tmp_path)
    with ServerProcess(tmp_path / "class.sqlite3", tmp_path / "server.log") as server:
        code = TeacherClient(server.url, server.token).create_room("peek", 2)["code"]
        assert len(code) > 0 and "imported" not in "".join(server.output)


def test_serve_again_reopens_the_open_rooms_instead_of_opening_new_ones(tmp_path: Path) -> None:
    db, log = tmp_path / "class.sqlite3", tmp_path / "server.log"
    with ServerProcess(db, log, "--room", "peek:2") as server:
        code = server.wait_for(r"room (\w+) \(Peek, 2 seats, 0 of 2 seated\)").group(1)
        server.wait_for(r"^stop: Ctrl-C")
        Student.join(server.url, code, "Ana").close()
    with ServerProcess(db, log, "--room", "peek:2") as server:  # the same command, after a restart
        server.wait_for(r"^reopened 1 open room\(s\) of .*--new-room opens one beside them")
        assert server.wait_for(r"^room (\w+) \(Peek, 2 seats, 1 of 2 seated\): join at (\S+)").group(1) == code
        dashboard = server.wait_for(r"^  dashboard: (classroom\.connect\('(\S+)', '(\S+)'\)\.dashboard\('(\w+)'\))")
        assert (dashboard.group(2), dashboard.group(3), dashboard.group(4)) == (server.url, server.token, code)
        server.wait_for(rf"^  seat 0 \(Ana\): {server.url}/s/\S+")
        server.wait_for(r"^stop: Ctrl-C")
        teacher = TeacherClient(server.url, server.token)
        assert [room["code"] for room in teacher.rooms()] == [code]
    with ServerProcess(db, log, "--room", "peek:3", "--new-room") as server:  # asked for: a new room beside it
        server.wait_for(r"^room \w+ \(Peek, 2 seats, 1 of 2 seated\)")
        new = server.wait_for(r"^room (\w+) \(Peek, 3 seats, 0 of 3 seated\)").group(1)
        server.wait_for(r"^stop: Ctrl-C")
        teacher = TeacherClient(server.url, server.token)
        assert [room["code"] for room in teacher.rooms()] == [code, new]
        for room in (code, new):
            teacher.command(room, "close")
    with ServerProcess(db, log, "--room", "peek:2") as server:  # every room closed: the command opens a new one
        fresh = server.wait_for(r"^room (\w+) \(Peek, 2 seats, 0 of 2 seated\)").group(1)
        server.wait_for(r"^stop: Ctrl-C")
        assert fresh not in (code, new) and "reopened" not in "".join(server.output)
        assert len(TeacherClient(server.url, server.token).rooms()) == 3
