"""The database's one writer thread (issue 23): writes leave the event loop, queued writes commit together, and
a move is told to nobody before its commit.

- Group commit: whatever is queued while the writer is busy commits in ONE transaction (counted on the writer's
  own connection with SQLite's trace hook); a job that fails takes back its own rows only.
- Another process holding the file's write lock does not freeze the server: a page is served while the lock is
  still held and the move still waits for it; the move is stored once the lock is free, without being resent.
- Every change a listener hears of (what the pages are then sent) is already in the file.
- Both connections, the reader's and the writer's, have the same per-connection settings (a small page cache).
"""

from __future__ import annotations

import asyncio
import inspect
import random
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any
from concurrent.futures import Future
from pathlib import Path

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom import commits as commits_module
from tabletop_edu.classroom.client import join_room
from tabletop_edu.classroom.errors import ClassroomError
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.rooms import Refused, Room
from tabletop_edu.classroom.store import PAGE_CACHE_KIB, StorageBusy, Store
from tabletop_edu.classroom.testing import play_to_the_end, run_now, seat_students



def wait_until(condition: Callable[[], bool], timeout: float = 10) -> None:
    """Wait for a condition another thread reaches (never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never held")
        time.sleep(0.002)


def test_moves_queued_while_the_writer_is_busy_commit_in_one_transaction(tmp_path: Path) -> None:
    hall = Hall(Store(tmp_path / "group.sqlite3"))
    rooms = [run_now(hall.create_room("peek", 2, seed=seed)) for seed in range(8)]
    for room in rooms:
        for seat, name in enumerate(["Ann", "Bob"]):
            run_now(hall.claim(room.seats[seat].token, name))
    statements: list[str] = []
    hall.store.write(lambda db: db.set_trace_callback(statements.append))
    started, gate = threading.Event(), threading.Event()
    blocker = hall.store.submit(lambda db: (started.set(), gate.wait(10)))  # the writer is busy with this one
    assert started.wait(10)
    futures: list[Future[float]] = []
    for room in rooms:
        assert room.state is not None
        seat = room.state.acting_seats[0]
        futures.append(hall.store.submit_action(room.code, 0, seat, "pass", "seat"))
    duplicate = hall.store.submit_action(rooms[0].code, 0, 1, "pass", "seat")  # (room, step) taken: refused
    assert hall.store.writer.queued == len(rooms) + 1
    statements.clear()
    gate.set()
    blocker.result(10)
    assert all(isinstance(future.result(10), float) for future in futures)
    with pytest.raises(sqlite3.IntegrityError):
        duplicate.result(10)
    # since the clear: the blocker's commit, then one transaction for all nine moves
    assert statements.count("BEGIN IMMEDIATE") == 1 and statements.count("COMMIT") == 2, statements
    reader = sqlite3.connect(hall.store.path)
    try:
        stored = reader.execute("SELECT room, step, action FROM actions ORDER BY room").fetchall()
    finally:
        reader.close()
    assert stored == sorted((room.code, 0, "pass") for room in rooms)  # each once, the duplicate taken back
    hall.store.close()


def test_a_lock_held_elsewhere_fails_the_whole_group_as_busy_and_writes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "busy.sqlite3", busy_timeout=0.05)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        futures = [store.submit(lambda db, key=key: db.execute("INSERT INTO meta VALUES (?, 'x')", (key,)))
                   for key in ("a", "b", "c")]
        for future in futures:
            with pytest.raises(StorageBusy):
                future.result(10)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.meta("a") is None and store.meta("c") is None
    store.set_meta("a", "y")  # the file free again: written
    assert store.meta("a") == "y"
    store.close()


HOLD_THE_LOCK = """
import sqlite3, sys
holder = sqlite3.connect(sys.argv[1], isolation_level=None)
holder.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.readline()
holder.execute("ROLLBACK")
"""


def test_a_write_lock_held_by_another_process_does_not_freeze_the_server(tmp_path: Path) -> None:
    # the writer waits up to a minute for the lock: long enough that a write on the loop would freeze every page
    with ClassServer(tmp_path / "held.sqlite3", flood=(10_000, 10_000.0), busy_timeout=60) as server:
        teacher = TeacherClient(server.url, server.teacher_token)
        room = teacher.create_room("peek", 2, seed=3, bot_delay=0)
        students = seat_students(server.url, room["code"], ["Ann", "Bob"])
        try:
            tables = [student.wait_step(0) for student in students]
            mover = next(student for student, table in zip(students, tables) if table["menu"] is not None)
            holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, server.db], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            try:
                assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
                mover.feed.send({"type": "move", "step": 0, "action": "pass"})
                assert server.hall is not None
                writer = server.hall.store.writer
                wait_until(lambda: writer.writing == 1)  # the move waits for the lock, in the writer's thread
                with urllib.request.urlopen(server.url + "/", timeout=10) as response:
                    assert response.status == 200  # a page is served meanwhile...
                assert teacher.room(room["code"])["step"] == 0  # ...and reads show the table as stored
                assert writer.writing == 1 and holder.poll() is None  # the lock is still held, the move waiting
            finally:
                assert holder.stdin is not None
                holder.stdin.write("\n")
                holder.stdin.close()
                holder.wait(30)
            moved = mover.next(lambda message: message["type"] in ("refused", "table") and message.get("step") == 1
                               or message["type"] == "refused")
            assert moved["type"] == "table" and moved["step"] == 1  # stored once free, never refused
            assert [action[1:3] for action in teacher.room(room["code"])["moves"]] == [[mover.seat, "pass"]]
        finally:
            for student in students:
                student.close()


def test_every_change_told_to_the_pages_is_already_in_the_file(fast_server: ClassServer) -> None:
    server = fast_server
    assert server.hall is not None
    hall = server.hall
    unstored: list[str] = []
    reader = sqlite3.connect(server.db, check_same_thread=False)

    def check(room: Room) -> None:  # heard on the loop, before the pages are sent the new table
        rows = reader.execute("SELECT COUNT(*) FROM actions WHERE room = ?", (room.code,)).fetchone()[0]
        if rows != room.step:
            unstored.append(f"{room.code}: step {room.step} told, {rows} moves stored")

    server.call(lambda: hall.listeners.insert(0, check))
    teacher = TeacherClient(server.url, server.teacher_token)
    try:
        room = teacher.create_room("mafia_de_cuba", 6, seed=4, bot_delay=0, bots={4: "loyal", 5: "random"})
        students = seat_students(server.url, room["code"], [f"S{seat}" for seat in range(4)])
        try:
            play_to_the_end(students, random.Random(5))
        finally:
            for student in students:
                student.close()
        assert teacher.room(room["code"])["over"]
        assert not unstored, unstored[:3]
    finally:
        reader.close()


class HeldCommits:
    """A room of three at Commissario's first simultaneous choice (the picks), whose writer is this test: each
    job handed to it (the seats of its moves) waits until the test commits it; `tables` counts the new tables
    the room's listeners were told of."""

    def __init__(self, tmp_path: Path) -> None:
        self.hall = Hall(Store(tmp_path / "together.sqlite3"))
        self.room = room = run_now(self.hall.create_room("commissario", 3, seed=4))
        for seat, name in enumerate(["Ann", "Bob", "Cyd"]):
            run_now(self.hall.claim(room.seats[seat].token, name))
        assert room.state is not None
        while set(room.state.acting_seats) != {0, 1, 2}:  # on to the first simultaneous choice (the picks)
            seat = room.state.acting_seats[0]
            run_now(self.hall.play(room, seat, room.step, str(room.state.legal_actions(seat)[0])))
        self.step = room.step
        self.picks = {seat: [str(pick) for pick in room.state.legal_actions(seat)] for seat in range(3)}
        self.commits: list[tuple[list[int], Future[float]]] = []
        self.tables = 0
        self.hall.store.submit_actions = self.submit_actions  # type: ignore[method-assign]
        self.hall.listeners.append(self.told)

    def submit_actions(self, code: str, moves: list[tuple[int, int, str, str]]) -> Future[float]:
        self.commits.append(([seat for _, seat, _, _ in moves], Future()))
        return self.commits[-1][1]

    def told(self, room: Room) -> None:
        self.tables += 1

    def tap(self, seat: int, pick: int = 0) -> asyncio.Future[None]:
        return asyncio.ensure_future(self.hall.play(self.room, seat, self.step, self.picks[seat][pick]))

    async def until(self, condition: Callable[[], bool]) -> None:
        for _ in range(10000):
            if condition():
                return
            await asyncio.sleep(0)
        raise AssertionError(f"the loop never got there: commits {self.commits}, moving {self.room.committing}")


def test_moves_waiting_for_a_commit_are_checked_together_when_it_is_played(tmp_path: Path) -> None:
    """Students choosing at the same moment: the moves that arrive while one of their room is being committed
    wait for that commit, then are all checked at once. A move out of date is refused then, without waiting for
    the commits of the moves that are still good (behind a lock, each waiter waited for every commit before it),
    and a move already out of date when it arrives is refused without waiting at all."""
    held = HeldCommits(tmp_path)
    room, commits = held.room, held.commits

    async def class_taps() -> list[BaseException | None]:
        first = held.tap(0)
        await held.until(lambda: len(commits) == 1)
        second = held.tap(1)
        again = held.tap(0)  # Ann taps twice
        await held.until(lambda: len(room.waiting) == 2)
        assert len(commits) == 1 and not again.done() and not second.done()  # both wait for Ann's commit
        commits[0][1].set_result(1.0)
        await held.until(lambda: again.done() and len(commits) == 2)
        assert not commits[1][1].done() and not second.done()  # Bob's commit still pending: Ann's tap refused
        late = held.tap(0)  # Ann, a third time
        await held.until(late.done)
        assert not commits[1][1].done()  # refused while Bob's commit is still pending
        commits[1][1].set_result(2.0)
        await asyncio.wait((first, second, again))
        assert isinstance(late.exception(), Refused)
        return [task.exception() for task in (first, second, again)]

    outcomes = asyncio.run(class_taps())
    assert outcomes[0] is None and outcomes[1] is None
    assert isinstance(outcomes[2], Refused) and outcomes[2].code in ("stale", "not_your_turn")
    assert [seat for seat, _ in room.state.history[held.step:]] == [0, 1] and room.committing is None
    assert [seats for seats, _ in commits] == [[0], [1]]


def test_moves_that_waited_together_are_committed_and_told_together(tmp_path: Path) -> None:
    """Bob and Cyd pick while Ann's pick is being committed: their two moves are then stored in ONE commit and
    the room gets ONE new table for both. Cyd taps twice while waiting: her second tap is checked on the game as
    her first leaves it, and refused (she has chosen), though each tap was good when it arrived."""
    held = HeldCommits(tmp_path)
    room, commits = held.room, held.commits

    async def class_taps() -> list[BaseException | None]:
        taps = [held.tap(0)]
        await held.until(lambda: len(commits) == 1)
        taps += [held.tap(1), held.tap(2), held.tap(2, pick=1)]
        await held.until(lambda: len(room.waiting) == 3)
        tables_before = held.tables
        commits[0][1].set_result(1.0)
        await held.until(lambda: len(commits) == 2)
        assert held.tables == tables_before + 1  # Ann's pick told; Bob's and Cyd's not before their commit
        commits[1][1].set_result(2.0)
        await asyncio.wait(taps)
        assert held.tables == tables_before + 2  # one new table for Bob's and Cyd's picks
        return [task.exception() for task in taps]

    outcomes = asyncio.run(class_taps())
    assert outcomes[:3] == [None, None, None]
    assert isinstance(outcomes[3], Refused) and outcomes[3].code == "stale"
    assert [seats for seats, _ in commits] == [[0], [1, 2]]
    assert [seat for seat, _ in room.state.history[held.step:]] == [0, 1, 2] and room.committing is None
    assert [(row.seat, row.at) for row in room.actions[-3:]] == [(0, 1.0), (1, 2.0), (2, 2.0)]


def test_both_connections_keep_a_small_page_cache_and_the_same_safety_settings(tmp_path: Path) -> None:
    """SQLite sets these per connection: the reader's and the writer's must both have them (the page cache bounds
    the server's memory as the file grows; synchronous and foreign keys keep each move safe and whole)."""
    store = Store(tmp_path / "pragmas.sqlite3")
    try:
        def settings(db: sqlite3.Connection) -> tuple[int, ...]:
            return tuple(db.execute(f"PRAGMA {name}").fetchone()[0]
                         for name in ("cache_size", "synchronous", "foreign_keys"))

        expected = (-PAGE_CACHE_KIB, 2, 1)  # a negative cache size is in KiB; synchronous 2 is FULL
        assert settings(store.connection) == expected
        assert store.write(settings) == expected
        assert store.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


# ------------------------------------------------------------------------------------------ a class sitting down


def test_a_class_joining_while_another_program_holds_the_file_is_seated_off_the_loop(tmp_path: Path) -> None:
    # the writer waits up to a minute for the lock: a join committed on the loop would freeze every page meanwhile
    with ClassServer(tmp_path / "held.sqlite3", busy_timeout=60) as server:
        assert server.hall is not None
        hall, writer = server.hall, server.hall.store.writer
        teacher = TeacherClient(server.url, server.teacher_token)
        code = teacher.create_room("mafia_de_cuba", 6, seed=2)["code"]
        holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, server.db], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        names = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"]
        joined: dict[str, dict[str, Any]] = {}
        joins = [threading.Thread(target=lambda name=name: joined.__setitem__(name, join_room(server.url, code, name)))
                 for name in names]
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            for join in joins:
                join.start()
            # every student holds a seat of their own while the first commit waits for the lock
            wait_until(lambda: len(server.call(lambda: dict(hall.rooms[code].joining))) == 6)
            held = server.call(lambda: dict(hall.rooms[code].joining))
            assert sorted(held) == list(range(6)) and sorted(held.values()) == names
            wait_until(lambda: writer.writing + writer.queued == 6)  # all six wait for the held lock
            with urllib.request.urlopen(server.url + "/", timeout=10) as response:
                assert response.status == 200  # a page is served meanwhile...
            shown = teacher.room(code)
            assert not shown["started"] and all(seat["name"] is None for seat in shown["seats"])  # ...none told yet
            # a seat or a name being committed is nobody else's, answered at once
            for name, refusal in (("ann", "name_taken"), ("Gus", "room_full")):
                with pytest.raises(ClassroomError) as refused:
                    join_room(server.url, code, name)
                assert refused.value.code == refusal
            with pytest.raises(ClassroomError) as refused:
                teacher.command(code, "bot", seat=3, bot="random")
            assert refused.value.code == "seat_joining" and refused.value.status == 409
            assert writer.writing + writer.queued == 6 and holder.poll() is None and not joined  # all while held
        finally:
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.close()
            holder.wait(30)
            for join in joins:
                join.join(30)
        assert sorted(seat["seat"] for seat in joined.values()) == list(range(6))
        assert len({seat["token"] for seat in joined.values()}) == 6
        shown = teacher.room(code)
        assert shown["started"] and [seat["name"] for seat in shown["seats"]] == \
            [held[number] for number in range(6)]
        room = hall.rooms[code]
        assert room.state is not None and list(room.state.players) == [held[number] for number in range(6)]
        assert not room.bots and not room.joining
    reader = sqlite3.connect(tmp_path / "held.sqlite3")
    try:
        assert reader.execute("SELECT started FROM rooms").fetchall() == [(1,)]
        assert reader.execute("SELECT seat, name, bot FROM seats ORDER BY seat").fetchall() == \
            [(number, held[number], None) for number in range(6)]
    finally:
        reader.close()


@pytest.fixture()
def quickly_busy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ClassServer]:
    """A server whose writer gives up on a lock held elsewhere after 0.05 s, and whose waiting pages' requests are
    tried three times, 0.01 s apart (`commits.stored`)."""
    monkeypatch.setattr(commits_module, "WAITING_RETRIES", 2)
    monkeypatch.setattr(commits_module, "STORAGE_RETRY_DELAY", 0.01)
    with ClassServer(tmp_path / "busy.sqlite3", busy_timeout=0.05) as server:
        yield server


def counted(store: Store, method: str) -> list[int]:
    """A list that grows by one at each call of `store.<method>` (each try of a write)."""
    calls: list[int] = []
    real = getattr(store, method)
    setattr(store, method, lambda *args, **kwargs: (calls.append(1), real(*args, **kwargs))[1])
    return calls


def test_a_join_the_file_cannot_take_is_tried_again_then_refused_with_nothing_changed(
        quickly_busy: ClassServer, monkeypatch: pytest.MonkeyPatch) -> None:
    server = quickly_busy
    assert server.hall is not None
    hall = server.hall
    tries = counted(hall.store, "submit_fill")
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("peek", 2, seed=2)["code"]
    holder = sqlite3.connect(server.db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        with pytest.raises(ClassroomError) as refused:
            join_room(server.url, code, "Ann")
        assert refused.value.code == "storage_busy" and refused.value.status == 503
        assert "try again in a minute" in str(refused.value) and "réessayez" in str(refused.value.fr)
        assert len(tries) == 3  # the first try and two more
        room = hall.rooms[code]
        assert not room.joining and all(seat.name is None for seat in room.seats)  # nothing changed
        assert all(seat["name"] is None for seat in teacher.room(code)["seats"])
        monkeypatch.setattr(commits_module, "WAITING_RETRIES", 10_000)  # from now on, tried until it is free
        joined: list[dict[str, Any]] = []
        join = threading.Thread(target=lambda: joined.append(join_room(server.url, code, "Ann")))
        join.start()
        wait_until(lambda: len(tries) >= 5)  # tried again while held...
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    join.join(30)
    assert [seat["seat"] for seat in joined] == [0]  # ...and seated once the file is free: the student waited
    assert [seat["name"] for seat in teacher.room(code)["seats"]] == ["Ann", None]


def test_the_teachers_controls_while_another_program_holds_the_file_do_not_freeze_the_server(tmp_path: Path) -> None:
    with ClassServer(tmp_path / "held.sqlite3", busy_timeout=60) as server:
        assert server.hall is not None
        writer = server.hall.store.writer
        teacher = TeacherClient(server.url, server.teacher_token)
        code = teacher.create_room("peek", 2, seed=3, bot_delay=0)["code"]
        holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, server.db], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        answers: dict[str, Any] = {}
        controls = [threading.Thread(target=lambda what=what: answers.__setitem__(what, teacher.command(code, what)))
                    for what in ("pause", "resume")]
        created = threading.Thread(target=lambda: answers.__setitem__("create", teacher.create_room("peek", 3)))
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            controls[0].start()
            wait_until(lambda: writer.writing == 1)  # the pause waits for the lock, in the writer's thread
            controls[1].start()  # the resume waits for the pause (the teacher's changes go one at a time)...
            created.start()  # ...and so does a new room
            with urllib.request.urlopen(server.url + "/", timeout=10) as response:
                assert response.status == 200  # a page is served meanwhile...
            shown = teacher.room(code)
            assert not shown["paused"] and len(teacher.rooms()) == 1  # ...and nothing is told before it is stored
            assert writer.writing == 1 and holder.poll() is None and not answers
        finally:
            assert holder.stdin is not None
            holder.stdin.write("\n")
            holder.stdin.close()
            holder.wait(30)
            for thread in [*controls, created]:
                thread.join(30)
        assert answers["pause"]["paused"] and not answers["resume"]["paused"]  # each answered as it left the room
        assert not teacher.room(code)["paused"] and len(teacher.rooms()) == 2
    reader = sqlite3.connect(tmp_path / "held.sqlite3")
    try:
        assert reader.execute("SELECT paused FROM rooms WHERE code = ?", (code,)).fetchall() == [(0,)]
    finally:
        reader.close()


def test_a_teachers_change_the_file_cannot_take_is_tried_again_then_refused_with_nothing_changed(
        quickly_busy: ClassServer, monkeypatch: pytest.MonkeyPatch) -> None:
    server = quickly_busy
    assert server.hall is not None
    tries = counted(server.hall.store, "submit")
    teacher = TeacherClient(server.url, server.teacher_token)
    code = teacher.create_room("peek", 2, seed=2)["code"]
    tries.clear()
    holder = sqlite3.connect(server.db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        with pytest.raises(ClassroomError) as refused:
            teacher.command(code, "pause")
        assert refused.value.code == "storage_busy" and refused.value.status == 503 and len(tries) == 3
        assert "try again in a minute" in str(refused.value) and "réessayez" in str(refused.value.fr)
        assert not teacher.room(code)["paused"]  # nothing changed
        monkeypatch.setattr(commits_module, "WAITING_RETRIES", 10_000)  # from now on, tried until it is free
        answers: list[dict[str, Any]] = []
        pause = threading.Thread(target=lambda: answers.append(teacher.command(code, "pause")))
        pause.start()
        wait_until(lambda: len(tries) >= 5)  # tried again while held...
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    pause.join(30)
    assert [answer["paused"] for answer in answers] == [True]  # ...and made once the file is free
    assert teacher.room(code)["paused"]


def test_the_teachers_step_while_the_file_is_held_is_refused_as_busy_not_blamed_on_the_bot(
        quickly_busy: ClassServer) -> None:
    server = quickly_busy
    teacher = TeacherClient(server.url, server.teacher_token)
    # bots that would wait 30 s before their first move: paused first, they play only the teacher's steps
    code = teacher.create_room("peek", 2, seed=2, bots={0: "random", 1: "random"}, bot_delay=30)["code"]
    teacher.command(code, "pause")
    step = teacher.room(code)["step"]
    assert step == 0
    holder = sqlite3.connect(server.db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(ClassroomError) as refused:
            teacher.command(code, "step")
        assert refused.value.code == "storage_busy" and "try again in a minute" in str(refused.value)
        assert server.call(lambda: dict(server.errors)) == {}  # no bot blamed...
        assert teacher.room(code)["step"] == step  # ...and no move played
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert teacher.command(code, "step")["step"] == step + 1  # the file free: the step is played


def test_a_waiting_page_is_answered_before_the_teachers_client_gives_up() -> None:
    from tabletop_edu.classroom.client import request
    from tabletop_edu.classroom.store import BUSY_TIMEOUT
    longest = commits_module.WAITING_RETRIES * (commits_module.STORAGE_RETRY_DELAY + BUSY_TIMEOUT) + BUSY_TIMEOUT
    client_waits = inspect.signature(request).parameters["timeout"].default
    assert 1 < longest < client_waits / 2, (longest, client_waits)  # a held file is tried a while, then told
