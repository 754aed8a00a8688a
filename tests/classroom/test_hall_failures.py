"""How the hall lives with bad rows, failing bots, look-alike names and a long export (issue 49).

- Rows read at start are checked as on the way in: asked steps stored as a JSON object, a time limit of -5 or NaN,
  an unknown bot name list their room as broken with the reason; the other rooms serve, no seat page is a 500.
- Storage that stops is said in words: a refused write quotes the store's sentence, and the teacher's message
  says "Storage stopped: ..." while the file cannot be written.
- A bot whose moves the store refuses tries `BOT_STORAGE_TRIES` times, then its room is paused (in memory when
  the store refuses the pause too); a room's errors are one line each, with a count, `MAX_ROOM_ERRORS` at most.
- The records a teacher exports are sent a room at a time: a move on another room is answered meanwhile.
- A student named "bot random" is never merged with the random bot: a bot's label is no name a student can
  take, and the exported rows say which is which (`kind`).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient, records
from tabletop_edu.classroom.belief_desk import asked_key
from tabletop_edu.classroom.commits import storage_refusal
from tabletop_edu.classroom.export import ClassGames, seat_label
from tabletop_edu.classroom.hall import Hall, time_limit_key
from tabletop_edu.classroom.rooms import Refused, Room, clean_name
from tabletop_edu.classroom.store import StorageError, Store
from tabletop_edu.classroom.testing import run_now, seat_students, wait_until
from tabletop_edu.classroom.turns import BOT_STORAGE_TRIES, MAX_ROOM_ERRORS, RoomErrors


def fetch(url: str) -> int:
    """The status of a GET of `url`."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def page_of(link: str) -> str:
    """The path of a link (the server it named has stopped: its port is another's now)."""
    return urllib.parse.urlsplit(link).path


@pytest.fixture()
def quiet_server(tmp_path: Path) -> Iterator[ClassServer]:
    """A server with no heartbeat (the tests say when things happen), stopped after the test, also on failure."""
    server = ClassServer(tmp_path / "class.sqlite3", heartbeat=None).start()
    try:
        yield server
    finally:
        server.stop()


# ------------------------------------------------------------------------------------------ rows read at start


def test_a_restart_lists_each_room_with_a_bad_row_as_broken_and_serves_the_others(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    with ClassServer(path, heartbeat=None) as server:
        teacher = TeacherClient(server.url, server.teacher_token)
        good = teacher.create_room("commissario", 3, seed=1, bot_delay=0, beliefs=True, move_time_limit=60)
        rooms = {why: teacher.create_room("commissario", 3, seed=2, bot_delay=0, beliefs=True,
                                                move_time_limit=60)
                 for why in ("asked steps", "time limit -5", "time limit NaN", "bot")}
    with sqlite3.connect(path) as database:
        database.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                         (asked_key(rooms["asked steps"]["code"]), '{"3": 1}'))
        for why, text in (("time limit -5", "-5"), ("time limit NaN", "nan")):
            database.execute("UPDATE meta SET value = ? WHERE key = ?", (text, time_limit_key(rooms[why]["code"])))
        database.execute("UPDATE seats SET bot = 'flying', name = 'Bot 0 (flying)' WHERE room = ? AND seat = 0",
                         (rooms["bot"]["code"],))
    with ClassServer(path, heartbeat=None) as server:
        teacher = TeacherClient(server.url, server.teacher_token)
        broken = teacher.broken_rooms()
        reasons = {"asked steps": "asked steps", "time limit -5": "time limit", "time limit NaN": "time limit",
                   "bot": "'flying' is no bot"}
        for why, room in rooms.items():
            assert reasons[why] in broken.get(room["code"], ""), (why, broken)
        assert set(broken) == {room["code"] for room in rooms.values()}
        assert teacher.room(good["code"])["move_time_limit"] == 60
        assert fetch(server.url + page_of(good["seats"][0]["link"])) == 200
        for room in rooms.values():
            for seat in room["seats"]:
                assert fetch(server.url + page_of(seat["link"])) == 404  # left out: no seat of it opens or fails


# ------------------------------------------------------------------------------------------ storage said in words


def test_a_write_refused_by_the_store_quotes_its_sentence(tmp_path: Path) -> None:
    error = StorageError(str(tmp_path / "class.sqlite3"), "it turned read-only while being served")
    refusal = storage_refusal(error)
    assert refusal.code == "storage" and "it turned read-only while being served" in str(refusal), refusal
    assert "(StorageError)" not in str(refusal)


def test_the_teacher_reads_that_storage_stopped_in_words(quiet_server: ClassServer) -> None:
    teacher = TeacherClient(quiet_server.url, quiet_server.teacher_token)
    room = teacher.create_room("peek", 3, seed=1)
    assert teacher.room(room["code"])["errors"] == []
    for name in (quiet_server.db, f"{quiet_server.db}-wal", f"{quiet_server.db}-shm"):
        Path(name).unlink()
    errors = teacher.room(room["code"])["errors"]
    assert len(errors) == 1 and errors[0].startswith("Storage stopped: ") and "deleted" in errors[0], errors


# ------------------------------------------------------------------------------------------ a bot the store refuses


def bot_to_move(server: ClassServer) -> Room:
    """A room of Commissario with two students and a bot at seat 2 (no delay), on at the bot's first move. The
    server is told its bot already has a move coming until then, so that the test says when the bot plays."""
    hall = server.hall
    assert hall is not None

    async def seated() -> Room:
        room = await hall.create_room("commissario", 3, seed=4, bots={2: "random"}, bot_delay=0)
        server._bots_pending.add(room.code)
        for seat, name in enumerate(["Ann", "Bob"]):
            await hall.claim(room.seats[seat].token, name)
        assert room.state is not None
        while room.bot_to_move() is None:
            seat = room.state.acting_seats[0]
            await hall.play(room, seat, room.step, str(room.state.legal_actions(seat)[0]))
        return room

    room: Room = server.call(seated)
    return room


def test_a_bot_whose_moves_the_store_refuses_pauses_its_room_after_a_few_tries(quiet_server: ClassServer) -> None:
    server, hall = quiet_server, quiet_server.hall
    assert hall is not None
    room = bot_to_move(server)
    step = room.step
    tries: list[int] = []
    real = hall.store.submit_actions

    def counted(code: str, moves: Any) -> Future[float]:
        tries.append(len(moves))
        return real(code, moves)

    hall.store.submit_actions = counted  # type: ignore[method-assign]
    for name in (server.db, f"{server.db}-wal", f"{server.db}-shm"):
        Path(name).unlink()  # every write is refused from now on

    def let_the_bot_play() -> None:
        server._bots_pending.discard(room.code)
        server._schedule_bots(room)

    server.call(let_the_bot_play)
    wait_until(lambda: server.call(lambda: room.paused and room.code not in server._bots_pending))
    assert len(tries) == BOT_STORAGE_TRIES and room.step == step  # then no more tries: nothing is scheduled
    assert server.call(lambda: room.code not in server._bots_pending and room.bot_to_move() == 2)
    errors = server.call(lambda: server.teacher_message(room))["errors"]
    assert errors[0].startswith("Storage stopped: ") and "deleted" in errors[0], errors
    assert errors[1].startswith("The bot at seat 2 could not save its move: The server could not save this: ") \
        and errors[1].endswith(f"({BOT_STORAGE_TRIES} times)"), errors
    assert errors[2] == f"The bot could not save its move {BOT_STORAGE_TRIES} times in a row; the room is paused."
    assert errors[3].startswith("The pause could not be saved (") and len(errors) == 4, errors
    with pytest.raises(Refused) as refusal:  # the teacher's step is told why, and counts as no try
        server.call(lambda: server.step_bot(room))
    assert refusal.value.code == "storage" and "deleted" in str(refusal.value)
    assert len(server.call(lambda: server.teacher_message(room))["errors"]) == 4


def test_a_rooms_errors_are_one_line_each_with_a_count_and_bounded() -> None:
    errors = RoomErrors()
    for _ in range(5):
        errors.add("The bot at seat 1 could not save its move.")
    assert errors.lines() == ["The bot at seat 1 could not save its move. (5 times)"]
    for number in range(3 * MAX_ROOM_ERRORS):
        errors.add(f"error {number}")
    errors.add("error 0")
    assert len(errors.lines()) == MAX_ROOM_ERRORS
    assert errors.lines()[-1] == "error 0" and errors.lines()[0] == f"error {2 * MAX_ROOM_ERRORS + 1}"


# ------------------------------------------------------------------------------------------ an export in flight


def test_a_move_is_answered_while_the_teacher_exports_the_records(quiet_server: ClassServer,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The export is held after its first room (an injected turn of the loop): a student's move on another room
    is answered meanwhile, and the export, let go, has every started room, the sleeping ones too."""
    server, hall = quiet_server, quiet_server.hall
    assert hall is not None
    teacher = TeacherClient(server.url, server.teacher_token)
    finished = [teacher.create_room("commissario", 3, seed=seed, bot_delay=0,
                                    bots={0: "random", 1: "random", 2: "random"})["code"] for seed in range(4)]
    wait_until(lambda: server.call(lambda: all(hall.rooms[code].is_over for code in finished)))
    for code in finished[:2]:
        teacher.command(code, "reveal")
    assert set(server.call(lambda: server.sweep(idle=0))) == set(finished[:2])  # two of them asleep
    playing = teacher.create_room("peek", 2, seed=1)
    students = seat_students(server.url, playing["code"], ["Ann", "Bob"])
    try:
        tables = [student.wait_step(0) for student in students]
        mover = next(student for student, table in zip(students, tables) if table["menu"] is not None)
        held, resume = threading.Event(), server.call(asyncio.Event)
        real = records.between_rooms

        async def held_once() -> None:
            if not held.is_set():
                held.set()
                await resume.wait()
            await real()

        monkeypatch.setattr(records, "between_rooms", held_once)
        exported: list[Any] = []
        export = threading.Thread(target=lambda: exported.append(teacher.records()))
        export.start()
        try:
            assert held.wait(30), "the export never let the loop serve anyone else"
            assert mover.tap_move(random.Random(0)) is not None  # answered: its next table came
            assert export.is_alive() and not exported  # the export is still in flight
        finally:
            server.call(lambda: resume.set())
            export.join(30)
    finally:
        for student in students:
            student.close()
    (rooms,) = exported
    assert [room["code"] for room in rooms] == [*finished, playing["code"]]
    assert len(rooms[-1]["moves"]) == 1 and len(ClassGames.from_rooms(rooms).finished()) == 4


# ------------------------------------------------------------------------------------------ labels


def test_a_student_named_like_a_bot_is_never_merged_with_it(tmp_path: Path) -> None:
    """A student who names themselves "bot random" beside the random bot: two lines of the tournament table,
    two players in the CSV files, each row saying which is the bot."""
    hall = Hall(Store(tmp_path / "class.sqlite3"))
    try:
        shown = []
        for seed in range(2):
            room = run_now(hall.create_room("commissario", 3, seed=seed, bots={2: "random"}))
            for seat, name in enumerate(["bot random", "Ann"]):
                run_now(hall.claim(room.seats[seat].token, name))
            assert room.state is not None
            while not room.is_over:
                seat = room.state.acting_seats[0]
                run_now(hall.play(room, seat, room.step, str(room.state.legal_actions(seat)[0]),
                          actor="bot" if room.seats[seat].bot else "seat"))
            shown.append(records.room_record(room))
    finally:
        hall.store.close()
    games = ClassGames.from_rooms(json.loads(json.dumps(shown)))
    (table,) = games.tournament()
    lines = {row.bot: row.games for row in table.rows()}
    assert len(lines) == 3 and lines["bot random"] == 2 and lines[seat_label({"bot": "random"})] == 2, lines
    assert clean_name(seat_label({"bot": "random"})) == "bot random"  # no student can take the bot's label
    for text in (games.moves_csv(), games.results_csv()):
        kinds = {(row["player"], row["kind"]) for row in csv.DictReader(io.StringIO(text))}
        assert {("bot random", "student"), ("Ann", "student"), (seat_label({"bot": "random"}), "bot")} == kinds
