"""How the class server lives with its file, its day and hostile requests (issue 23).

- Bad paths are plain 404s, never a 500 with a traceback; tokens never reach any log line.
- Bounds: sockets per link are capped; wrong room codes are throttled per client (an injected clock).
- One writer per file: a second server on a file already served refuses at once, naming the first's address.
- Partial failure: a room that cannot be read is listed as broken with its reason and the others serve; a file
  that is no class database is one clear sentence (and exit code 2 from `serve`), not a traceback.
- Finished rooms leave memory after the reveal and an idle time (an injected clock), and come back from the
  database when opened.
- A database held by another program: the move is refused as "storage busy, retrying", the server serves on and
  plays it once the file is free.
- A room bot's move overtaken before its commit (a student's move just before it, the teacher's pause) is no
  failure of the bot: its room is not paused for it; a bot's own bug (a move no game has) still pauses it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import sqlite3
import subprocess
import sys
import types
import urllib.error
import weakref
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tornado.httpclient

from tabletop_edu import classroom
from tabletop_edu.classroom import ClassServer, DatabaseInUse, StorageError, TeacherClient
from tabletop_edu.classroom.cli import add_command
from tabletop_edu.classroom.hall import FINISHED_IDLE, Hall
from tabletop_edu.classroom.rooms import Refused, Room
from tabletop_edu.classroom.client import ClassroomError, Feed, join_room, websocket_url
from tabletop_edu.classroom.handlers import MAX_CONNECTIONS_PER_PROJECTOR, MAX_CONNECTIONS_PER_SEAT, redacted
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.testing import FirstCommitHeld, ServerProcess, run_now, seat_students, wait_until
from tabletop_edu.classroom.throttles import GUESS_BURST, GUESS_RATE, GuessThrottle


def fetch(url: str, data: bytes | None = None) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=10) as response:
            return int(response.status), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode("utf-8", "replace")


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Every line the server's and Tornado's loggers wrote, tracebacks included."""
    lines = []
    for record in caplog.records:
        lines.append(record.getMessage())
        if record.exc_info:
            lines.append(logging.Formatter().formatException(record.exc_info))
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ paths and logs


BAD_PATHS = ["/static/seat.js%00.png", "/static/%00", "/static/nowhere.js", "/static/" + "a" * 300,
             "/s/%00", "/s/" + "A" * 65, "/w/bad%00token", "/j/%00", "/nowhere", "/api/rooms/%00"]


@pytest.mark.parametrize("path", BAD_PATHS)
def test_a_bad_path_is_a_plain_404_without_a_traceback(server: ClassServer, caplog: pytest.LogCaptureFixture,
                                                      path: str) -> None:
    caplog.set_level(logging.DEBUG)
    status, body = fetch(server.url + path)
    assert status == 404, (path, status)
    assert "Traceback" not in body and "Traceback" not in logged(caplog)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert fetch(server.url + "/static/seat.js")[0] == 200  # and the server still serves


def test_paths_are_redacted_of_their_tokens() -> None:
    assert redacted("/s/abcDEF_-123?lang=fr") == "/s/<token>"
    assert redacted("/ws/seat/abc") == "/ws/seat/<token>" and redacted("/ws/watch/abc") == "/ws/watch/<token>"
    assert redacted("/w/abc") == "/w/<token>" and redacted("/j/K7QPX") == "/j/K7QPX"
    assert redacted("403 POST /s/abc (127.0.0.1)") == "403 POST /s/<token> (127.0.0.1)"


def test_no_token_reaches_any_log_line(server: ClassServer, teacher: TeacherClient,
                                      caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    caplog.set_level(logging.DEBUG)
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
    seat = join_room(server.url, room["code"], "Ann")
    empty = teacher.room(room["code"])["seats"][1]
    tokens = [seat["token"], empty["link"].rsplit("/", 1)[1], room["watch_url"].rsplit("/", 1)[1]]
    assert fetch(empty["link"], data=b"name=Eve")[0] == 403  # no XSRF token: Tornado logs the refusal
    assert fetch(seat["link"] + "?lang=fr", data=b"name=Eve&_xsrf=forged")[0] == 403

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in a page")

    monkeypatch.setattr(server, "table_for", broken)
    assert fetch(room["watch_url"])[0] == 500  # an uncaught exception: logged with its traceback
    text = logged(caplog)
    assert "403" in text and "a bug in a page" in text and "/w/<token>" in text  # the failures are logged...
    assert not [token for token in tokens if token in text]  # ...without any token


# ------------------------------------------------------------------------------------------ bounds


class FakeClock:
    """A clock that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def refused_status(url: str) -> int:
    """The HTTP status refusing a websocket at `url` (a socket that opens instead fails the test)."""
    feed = Feed(url, reconnect=False)
    try:
        feed.wait_closed(10)
    except tornado.httpclient.HTTPClientError as error:
        return int(error.code)
    finally:
        feed.close()
    raise AssertionError(f"the socket opened and closed with {feed.close_code}")


@pytest.mark.parametrize("kind", ["watch", "seat"])
def test_the_sockets_of_one_link_are_capped(server: ClassServer, teacher: TeacherClient, kind: str) -> None:
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
    if kind == "watch":
        path, cap = "/ws/watch/" + room["watch_url"].rsplit("/", 1)[1], MAX_CONNECTIONS_PER_PROJECTOR
    else:
        path, cap = "/ws/seat/" + join_room(server.url, room["code"], "Ann")["token"], MAX_CONNECTIONS_PER_SEAT
    url = websocket_url(server.url, path)
    feeds = [Feed(url, reconnect=False) for _ in range(cap)]
    try:
        for feed in feeds:
            feed.next(timeout=10)  # each one open and told the table
        assert refused_status(url) == 429
        feeds.pop().close()
        hall = server.hall
        assert hall is not None
        wait_until(lambda: server.call(lambda: len(server.connections[room["code"]])) == cap - 1)
        extra = Feed(url, reconnect=False)
        extra.next(timeout=10)  # a place freed: a screen may open again
        feeds.append(extra)
    finally:
        for feed in feeds:
            feed.close()


def test_wrong_guesses_are_throttled_per_client() -> None:
    clock = FakeClock()
    throttle = GuessThrottle(clock)
    for _ in range(GUESS_BURST):
        throttle.check("10.0.0.7")
        throttle.missed("10.0.0.7")
    with pytest.raises(Exception, match="Too many wrong room codes"):
        throttle.check("10.0.0.7")
    throttle.check("10.0.0.8")  # another phone of the class is not slowed down
    clock.advance(0.99 / GUESS_RATE)
    with pytest.raises(Exception, match="Too many wrong room codes"):
        throttle.check("10.0.0.7")
    clock.advance(0.02 / GUESS_RATE)
    throttle.check("10.0.0.7")  # one more guess, after its wait


@pytest.fixture()
def clocked(tmp_path: Path) -> Iterator[tuple[ClassServer, FakeClock]]:
    clock = FakeClock()
    server = ClassServer(tmp_path / "clocked.sqlite3", clock=clock).start()
    try:
        yield server, clock
    finally:
        server.stop()


def test_a_client_guessing_room_codes_is_refused_until_it_waits(clocked: tuple[ClassServer, FakeClock]) -> None:
    server, clock = clocked
    teacher = TeacherClient(server.url, server.teacher_token)
    room = teacher.create_room("peek", 3, seed=3, bot_delay=0)
    for guess in range(GUESS_BURST):
        with pytest.raises(ClassroomError) as wrong:
            join_room(server.url, f"ZZZ{guess:02d}", f"Guesser {guess}")
        assert wrong.value.status == 404
    with pytest.raises(ClassroomError) as throttled:  # even the right code, while it must wait
        join_room(server.url, room["code"], "Eve")
    assert throttled.value.status == 429 and "wrong room codes" in str(throttled.value)
    status, body = fetch(server.url + "/join", data=f"code={room['code']}&name=Eve".encode())
    assert status == 403  # the form needs its XSRF token first: nothing of the throttle leaks without it
    assert all(seat["name"] is None for seat in teacher.room(room["code"])["seats"])
    clock.advance(1 / GUESS_RATE)
    assert join_room(server.url, room["code"], "Eve")["seat"] == 0  # right codes cost nothing
    assert join_room(server.url, room["code"], "Fay")["seat"] == 1


# ------------------------------------------------------------------------------------------ one writer per file


def serve(database: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`python -m tabletop_edu serve` on `database`, run to its end (it refuses, or this times out)."""
    environment = {**os.environ, "PYTHONPATH": str(Path(classroom.__file__).parents[2])}
    return subprocess.run([sys.executable, "-m", "tabletop_edu", "serve", "--port", "0", "--db", str(database),
                           *arguments], capture_output=True, text=True, timeout=60, env=environment)


def test_a_second_server_on_a_served_file_refuses_at_once_naming_the_first(server: ClassServer,
                                                                           teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
    path = Path(server.db)
    for spelling in (path, Path(os.path.relpath(path)), path.parent / "." / path.name):
        second = ClassServer(spelling)
        with pytest.raises(DatabaseInUse, match="already served by the class server at " + server.url) as refusal:
            second.start()
        assert second.hall is None and refusal.value.address == server.url
    assert [listed["code"] for listed in teacher.rooms()] == [room["code"]]  # the first one serves on
    assert join_room(server.url, room["code"], "Ann")["seat"] == 0
    server.stop()
    again = ClassServer(path).start()  # once the first stopped, the file is free
    try:
        assert TeacherClient(again.url, again.teacher_token).room(room["code"])["seats"][0]["name"] == "Ann"
    finally:
        again.stop()


def test_serve_on_a_served_file_says_where_the_server_is_and_exits_2(server: ClassServer) -> None:
    result = serve(Path(server.db))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0 and server.url in result.stderr


def test_the_lock_file_goes_with_a_clean_stop_and_a_crash_leaves_it_harmless(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    lock = Path(str(path.resolve()) + ".lock")
    with ClassServer(path) as server:
        assert server.url in lock.read_text()
    assert not lock.exists()  # a clean stop (the notebook's, Ctrl-C's, SIGTERM's) removes it
    with ServerProcess(path, tmp_path / "server.log") as process:
        assert process.url in lock.read_text()
        process.kill()  # a crash: the file stays, its lock went with the process
    assert lock.exists()
    with ServerProcess(path, tmp_path / "server.log") as process:  # the next server is not held up by it
        assert process.url in lock.read_text()
    assert not lock.exists()  # SIGTERM is a clean stop


def test_a_notebook_on_a_served_file_is_offered_the_running_server(server: ClassServer,
                                                                   teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
    with pytest.raises(DatabaseInUse, match=r"classroom\.connect\(") as refusal:
        classroom.open("peek", 2, db=server.db)
    assert refusal.value.address == server.url
    client = classroom.connect(refusal.value.address, db=server.db)  # what the message offers
    assert [listed["code"] for listed in client.rooms()] == [room["code"]]


def test_the_notebook_and_serve_do_not_share_a_default_file() -> None:
    parser = argparse.ArgumentParser()
    add_command(parser.add_subparsers())
    assert parser.parse_args(["serve"]).db != classroom.DEFAULT_DB


# ------------------------------------------------------------------------------------------ partial failure


def test_a_room_that_cannot_be_read_is_listed_as_broken_and_the_others_serve(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "class.sqlite3"
    with ClassServer(path) as first:
        teacher = TeacherClient(first.url, first.teacher_token)
        codes = [teacher.create_room("peek", 2, seed=seed, bot_delay=0)["code"] for seed in range(4)]
        join_room(first.url, codes[3], "Ann")
    with sqlite3.connect(path) as database:  # what the campaign did by hand
        database.execute("UPDATE rooms SET rules = '{not json' WHERE code = ?", (codes[0],))
        database.execute("UPDATE rooms SET seed = 'x' WHERE code = ?", (codes[1],))
        database.execute("UPDATE rooms SET game = ? WHERE code = ?", ("os.path\nCRITICAL forged line", codes[2]))
    caplog.set_level(logging.WARNING)
    with ClassServer(path) as second:
        teacher = TeacherClient(second.url, second.teacher_token)
        listing = teacher.call("GET", "/api/rooms")
        assert [room["code"] for room in listing["rooms"]] == [codes[3]]
        broken = listing["broken"]
        assert sorted(broken) == sorted(codes[:3])
        assert "not JSON" in broken[codes[0]] and "seed" in broken[codes[1]] and "os.path" in broken[codes[2]]
        assert all(code in caplog.text for code in codes[:3])  # the log says so too, one line each
        assert "\nCRITICAL forged" not in caplog.text and "\n" not in broken[codes[2]]
        assert join_room(second.url, codes[3], "Bob")["seat"] == 1  # the readable room serves on
        new = teacher.create_room("peek", 2, seed=9, bot_delay=0)  # numbers of broken rooms stay taken
        assert new["number"] == 5 and new["code"] not in codes


def damaged_files(tmp_path: Path) -> dict[str, Path]:
    """A file of random bytes, a database cut short, another program's database and a directory."""
    noise = tmp_path / "noise.sqlite3"
    noise.write_bytes(random.Random(1).randbytes(20_000))
    whole = tmp_path / "whole.sqlite3"
    with ClassServer(whole) as server:
        teacher = TeacherClient(server.url, server.teacher_token)
        for seed in range(30):
            teacher.create_room("mafia_de_cuba", 12, seed=seed, bot_delay=0)
    cut = tmp_path / "cut.sqlite3"
    data = whole.read_bytes()
    cut.write_bytes(data[:len(data) // 2])
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as database:
        database.execute("CREATE TABLE rooms (id INTEGER PRIMARY KEY, owner TEXT)")
    folder = tmp_path / "folder.sqlite3"
    folder.mkdir()
    return {"random bytes": noise, "cut short": cut, "another program's": other, "a directory": folder}


def test_a_file_that_is_no_class_database_is_one_clear_sentence(tmp_path: Path) -> None:
    for kind, path in damaged_files(tmp_path).items():
        before = path.read_bytes() if path.is_file() else None
        with pytest.raises(StorageError) as refusal:
            ClassServer(path).start()
        message = str(refusal.value)
        assert message.startswith(f"{path} cannot be used as the class's database: ") and "\n" not in message, kind
        assert (path.read_bytes() if path.is_file() else None) == before, kind  # left as it was
        result = serve(path)
        assert result.returncode == 2 and "Traceback" not in result.stderr, (kind, result.stderr)
        assert result.stderr.strip() == message, kind


# ------------------------------------------------------------------------------------------ finished rooms


def finished_game(hall: Hall, seed: int) -> Room:
    """A game of Peek played to its end by two bots, then revealed."""
    room = run_now(hall.create_room("peek", 2, seed=seed, bots={0: "random", 1: "random"}, bot_delay=0))
    while not room.is_over:
        run_now(hall.step_bot(room.code))
    return run_now(hall.reveal(room.code))


def held_by(root: object) -> int:
    """The bytes of every object `root` holds, directly or not (classes, modules and functions left out): what
    a hall keeps in memory, measured apart from the other threads of the test process."""
    seen: set[int] = set()
    waiting, total = [root], 0
    while waiting:
        item = waiting.pop()
        if id(item) in seen or isinstance(item, (type, types.ModuleType, types.FunctionType,
                                                   types.BuiltinFunctionType)):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        waiting.extend(gc.get_referents(item))
    return total


def test_finished_rooms_leave_memory_after_an_idle_time_and_come_back_when_opened(tmp_path: Path) -> None:
    clock = FakeClock()
    hall = Hall(Store(tmp_path / "day.sqlite3"), clock=clock)
    for seed in range(5):  # warm every cache up first
        finished_game(hall, seed)
    clock.advance(FINISHED_IDLE)
    hall.sweep()
    baseline = held_by(hall)
    rooms = [finished_game(hall, seed) for seed in range(5, 205)]
    states = [weakref.ref(room.state) for room in rooms]
    fingerprints = {room.code: hash(room.state.fingerprint()) for room in rooms if room.state is not None}
    tokens = {room.code: room.seats[1].token for room in rooms}
    code = rooms[0].code
    del rooms
    grown = held_by(hall) - baseline
    clock.advance(FINISHED_IDLE - 1)
    assert hall.sweep() == []  # not idle long enough yet
    clock.advance(1)
    assert hall.room(code).is_over  # opened: used just now, so it stays awake
    assert len(hall.sweep()) == 199 and code in hall.rooms
    clock.advance(FINISHED_IDLE)
    assert hall.sweep() == [code]
    gc.collect()
    left = held_by(hall) - baseline
    assert all(state() is None for state in states)  # every finished game left memory...
    assert grown > 0 and left < 0.1 * grown, (grown, left)  # ...and the memory held is back to its level
    assert len(hall.asleep) == 205 and not hall.rooms
    woken = hall.room(code)  # opened again: back from the database, the same game
    assert woken.state is not None and hash(woken.state.fingerprint()) == fingerprints[code] and woken.revealed
    other, seat = hall.seat_of(tokens[list(tokens)[7]])  # a seat's link wakes its room too
    assert other.state is not None and hash(other.state.fingerprint()) == fingerprints[other.code] and seat.number == 1
    assert finished_game(hall, 999).number == 206  # sleeping rooms keep their numbers


def test_closed_rooms_never_revealed_leave_memory_too_and_come_back_when_opened(tmp_path: Path) -> None:
    clock = FakeClock()
    hall = Hall(Store(tmp_path / "closed.sqlite3"), clock=clock)
    midway = run_now(hall.create_room("peek", 2, seed=4, bots={0: "random", 1: "random"}, bot_delay=0))
    run_now(hall.step_bot(midway.code))  # one move, then the teacher closes it: never over, never revealed
    unseated = run_now(hall.create_room("peek", 3, seed=5))
    playing = run_now(hall.create_room("peek", 2, seed=6, bots={0: "random", 1: "random"}, bot_delay=0))
    assert midway.state is not None
    fingerprint = hash(midway.state.fingerprint())
    tokens = [seat.token for seat in midway.seats]
    for room in (midway, unseated):
        run_now(hall.close(room.code))
    clock.advance(FINISHED_IDLE - 1)
    assert hall.sweep() == []  # not idle long enough yet
    clock.advance(1)
    assert sorted(hall.sweep()) == sorted([midway.code, unseated.code])  # the open room stays
    assert list(hall.rooms) == [playing.code]
    listed = {row["code"]: row for row in hall.sleeping_summaries()}
    assert listed[midway.code]["closed"] and not listed[midway.code]["over"] and listed[midway.code]["step"] == 1
    with pytest.raises(Exception, match="expired"):
        hall.seat_of(tokens[0])  # its links stay expired, asleep or not
    woken = hall.room(midway.code)  # opened by the teacher: back from the database, the same game
    assert woken.closed and woken.state is not None and hash(woken.state.fingerprint()) == fingerprint
    assert midway.code in hall.rooms and midway.code not in hall.asleep


def test_a_revealed_room_sleeps_only_when_no_page_shows_it(clocked: tuple[ClassServer, FakeClock]) -> None:
    server, clock = clocked
    teacher = TeacherClient(server.url, server.teacher_token)
    room = teacher.create_room("peek", 2, seed=1, bots={0: "random", 1: "random"}, bot_delay=0)
    wait_until(lambda: teacher.room(room["code"])["over"])
    teacher.command(room["code"], "reveal")
    projector = Feed(websocket_url(server.url, "/ws/watch/" + room["watch_url"].rsplit("/", 1)[1]), reconnect=False)
    projector.next(timeout=10)
    clock.advance(FINISHED_IDLE)
    assert server.call(server.sweep) == []  # the projector still shows it
    projector.close()
    wait_until(lambda: not server.call(lambda: server.connections.get(room["code"])))
    assert server.call(server.sweep) == [room["code"]]
    assert [listed["code"] for listed in teacher.rooms()] == [room["code"]]  # still listed, asleep
    records = teacher.call("GET", "/api/records")["rooms"]
    assert records[0]["code"] == room["code"] and records[0]["over"]  # its record is still there
    status, body = fetch(room["watch_url"])  # the projector's link wakes it
    assert status == 200 and room["code"] in body
    assert teacher.room(room["code"])["revealed"]


# ------------------------------------------------------------------------------------------ a busy database


def test_a_held_write_lock_gives_storage_busy_and_the_server_retries_the_move(
        fast_server: ClassServer) -> None:
    server = fast_server
    teacher = TeacherClient(server.url, server.teacher_token)
    room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
    students = seat_students(server.url, room["code"], ["Ann", "Bob"])
    tables = [student.wait_step(0) for student in students]
    mover = next(student for student, table in zip(students, tables) if table["menu"] is not None)
    holder = sqlite3.connect(server.db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        mover.feed.send({"type": "move", "step": 0, "action": "pass"})
        busy = mover.next(lambda message: message["type"] == "refused")
        assert busy["code"] == "storage_busy" and "retrying" in busy["message"] and busy["step"] == 0
        assert fetch(server.url + "/")[0] == 200  # the server is not frozen meanwhile
        assert teacher.room(room["code"])["step"] == 0  # and the move is not played while unsaved
        again = mover.next(lambda message: message["type"] == "refused")  # still held: retried, told again
        assert again["code"] == "storage_busy"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert mover.wait_step(1)["step"] == 1  # saved at the next try, without the student sending it again
    assert [action[1:3] for action in teacher.room(room["code"])["moves"]] == [[mover.seat, "pass"]]
    for student in students:
        student.close()


# ------------------------------------------------------------------------------------------ bots overtaken


class IllegalBot:
    """A room bot with a bug: it plays a move no game has."""

    def choose(self, view: Any, legal_actions: Any, rng: Any) -> str:
        return "fly to the moon"


def bot_at_the_picks(server: ClassServer) -> Room:
    """A room of Commissario with two students and a bot at seat 2, on at its first simultaneous choice (the
    picks: the three seats choose at once). The server is told its bot already has a move coming, so that it
    schedules none: the test makes the bot's moves."""
    hall = server.hall
    assert hall is not None

    async def seated() -> Room:
        room = await hall.create_room("commissario", 3, seed=4, bots={2: "random"})
        server._bots_pending.add(room.code)
        for seat, name in enumerate(["Ann", "Bob"]):
            await hall.claim(room.seats[seat].token, name)
        assert room.state is not None
        while set(room.state.acting_seats) != {0, 1, 2}:
            seat = room.state.acting_seats[0]
            actor = "bot" if seat == 2 else "seat"
            await hall.play(room, seat, room.step, str(room.state.legal_actions(seat)[0]), actor=actor)
        return room

    room: Room = server.call(seated)
    return room


def history_since(server: ClassServer, room: Room, step: int) -> list[int]:
    return server.call(lambda: [seat for seat, _ in room.state.history[step:]] if room.state else [])


def test_a_bot_whose_move_the_table_overtook_before_its_commit_thinks_again_and_pauses_nothing(
        server: ClassServer) -> None:
    """The bot chose its pick; it waits for the commit of Ann's, which arrived just before it; meanwhile the
    teacher pauses the room. Checked again after Ann's commit, the bot's pick is refused (the game is paused): the
    bot did nothing wrong, so the room keeps no error for the teacher, and the bot chooses again once the room
    goes on. (Before, the refusal counted as the bot's failure: "The bot at seat 2 failed ...".)"""
    hall = server.hall
    assert hall is not None
    room = bot_at_the_picks(server)
    step = room.step
    held = FirstCommitHeld(hall)

    def taps() -> None:
        assert room.state is not None
        asyncio.ensure_future(hall.play(room, 0, step, str(room.state.legal_actions(0)[0])))
        asyncio.ensure_future(server._bot_move(room))

    server.call(taps)
    wait_until(lambda: server.call(lambda: len(room.waiting)) == 1)  # the bot's pick waits for Ann's commit
    server.call(lambda: hall.set_paused(room.code, True))
    held.release()
    wait_until(lambda: server.call(lambda: room.code not in server._bots_pending))  # the bot's move is over
    assert server.call(lambda: server.errors.get(room.code)) is None
    assert history_since(server, room, step) == [0]  # Ann's pick only
    server.call(lambda: hall.set_paused(room.code, False))
    assert server.call(lambda: server.step_bot(room))[0] == 2  # the bot chooses again, and plays
    assert history_since(server, room, step) == [0, 2]


def test_the_teachers_step_overtaken_by_another_is_refused_with_its_reason(server: ClassServer) -> None:
    """The teacher taps "step" twice on a paused room: the second step chose the bot's pick on the same table as
    the first and waited for its commit; checked again after it, it is refused to the teacher with the reason
    (the bot has chosen already), and the room keeps no error."""
    hall = server.hall
    assert hall is not None
    room = bot_at_the_picks(server)
    step = room.step
    server.call(lambda: hall.set_paused(room.code, True))
    held = FirstCommitHeld(hall)
    steps = server.call(lambda: [asyncio.ensure_future(server.step_bot(room)) for _ in range(2)])
    wait_until(lambda: server.call(lambda: len(room.waiting)) == 1)
    held.release()
    wait_until(lambda: server.call(lambda: all(step.done() for step in steps)))
    assert steps[0].result()[0] == 2
    refusal = steps[1].exception()
    assert isinstance(refusal, Refused) and refusal.code in ("stale", "not_your_turn"), refusal
    assert server.call(lambda: server.errors.get(room.code)) is None and room.paused
    assert history_since(server, room, step) == [2]


def test_a_bot_that_plays_a_move_no_game_has_pauses_its_room_and_says_why(server: ClassServer) -> None:
    """A bot's own bug is the teacher's to see: the room pauses and lists the bot's error."""
    room = bot_at_the_picks(server)
    room.bots[2] = IllegalBot()  # type: ignore[assignment]
    assert server.call(lambda: server._bot_move(room)) is None
    errors = server.call(lambda: server.room_errors(room))
    assert room.paused and errors and "bot at seat 2 failed ('fly to the moon'" in errors[0], errors
