"""When the database file fails the class server (issue 49): one writer per file for real, and loud storage failure.

- One writer per database *file*: a hard link of a served file, a symlink to it, or the `.lock` note beside it
  removed while serving give no second server (in this process or another); the refusal names the first's address.
- A database the server cannot write (a read-only file, a read-only folder) is refused at start, one sentence.
- While serving, the file deleted, replaced, or turned read-only stops the writes with a `StorageError` (never an
  acknowledged write that is lost, never a SIGBUS), and the store says why (`Store.problem`).
- Rows read back are checked as on the way in: asked steps, time limits, seats and their bots.

Read-only files are made with `chattr +i` when the tests run as root (root writes through a `chmod`), with `chmod`
otherwise; a file system without `chattr` skips those tests.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop_edu.classroom import ClassServer, DatabaseInUse, StorageError
from tabletop_edu.classroom import store as store_module
from tabletop_edu.classroom.store import SeatRow, Store, WriterLock, meta_job
from tabletop_edu.classroom.testing import ServerProcess
from tabletop_edu.core import RecordError

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


# ------------------------------------------------------------------------------------------ one writer per file


def refused_naming(path: Path, address: str) -> None:
    """A second server on `path` is refused at once, naming `address`, and opens nothing."""
    second = ClassServer(path)
    with pytest.raises(DatabaseInUse, match="already served by the class server at " + address) as refusal:
        second.start()
    assert second.hall is None and refusal.value.address == address


def test_a_hard_link_of_a_served_file_gives_no_second_server(server: ClassServer, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = elsewhere / "same.sqlite3"
    os.link(server.db, link)
    refused_naming(link, server.url)


def test_a_symlink_to_a_served_file_gives_no_second_server(server: ClassServer, tmp_path: Path) -> None:
    link = tmp_path / "pointer.sqlite3"
    link.symlink_to(server.db)
    refused_naming(link, server.url)


def test_the_lock_note_removed_while_serving_gives_no_second_server(server: ClassServer) -> None:
    note = Path(os.path.realpath(server.db) + ".lock")
    assert note.exists()
    note.unlink()
    refused_naming(Path(server.db), server.url)


def test_a_server_in_another_process_holds_its_file_through_links_and_a_removed_note(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    with ServerProcess(path, tmp_path / "server.log") as process:
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        os.link(path, elsewhere / "same.sqlite3")
        (tmp_path / "pointer.sqlite3").symlink_to(path)
        Path(str(path.resolve()) + ".lock").unlink()
        for spelling in (elsewhere / "same.sqlite3", tmp_path / "pointer.sqlite3", path):
            refused_naming(spelling, process.url)
    with ClassServer(elsewhere / "same.sqlite3"):  # once it stopped, the file is free, by any of its names
        pass


def test_a_lock_is_released_for_the_next_server_in_the_same_process(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    for _ in range(3):
        lock = WriterLock(path)
        lock.acquire()
        with pytest.raises(DatabaseInUse):
            WriterLock(tmp_path / "." / path.name).acquire()
        lock.release()


# ------------------------------------------------------------------------------------------ refused at start


@contextlib.contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """`paths` made read-only for this process: `chattr +i` as root (skipped where it is not supported),
    `chmod` otherwise; restored afterwards (a test's folder must stay removable)."""
    as_root = os.geteuid() == 0
    if as_root and shutil.which("chattr") is None:
        pytest.skip("chattr is needed to make a file read-only for root")
    done: list[Path] = []
    try:
        for path in paths:
            if as_root:
                if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
                    pytest.skip(f"this file system does not support chattr +i ({path.parent})")
            else:
                path.chmod(0o555 if path.is_dir() else 0o444)
            done.append(path)
        yield
    finally:
        for path in reversed(done):
            if as_root:
                subprocess.run(["chattr", "-i", str(path)], check=True)
            else:
                path.chmod(0o755 if path.is_dir() else 0o644)


def class_database(path: Path) -> Path:
    """A class database with a room's worth of rows, closed (no -wal, no -shm beside it)."""
    with ClassServer(path):
        pass
    return path


def test_a_read_only_database_is_refused_at_start_in_one_sentence(tmp_path: Path) -> None:
    path = class_database(tmp_path / "class.sqlite3")
    with read_only(path):
        for start in (lambda: ClassServer(path).start(), lambda: Store(path)):
            with pytest.raises(StorageError) as refusal:
                start()
            message = str(refusal.value)
            assert message.startswith(f"{path} cannot be used as the class's database: ") and "\n" not in message
            assert "read-only" in message


def test_a_database_in_a_read_only_folder_is_refused_at_start_in_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    path = class_database(folder / "class.sqlite3")
    with read_only(folder):
        with pytest.raises(StorageError) as refusal:
            Store(path)
        message = str(refusal.value)
        assert message.startswith(f"{path} cannot be used as the class's database: ") and "\n" not in message
        assert "folder" in message and "read-only" in message


# ------------------------------------------------------------------------------------------ failing while serving


def test_the_database_deleted_while_serving_stops_the_writes(tmp_path: Path,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "class.sqlite3"
    store = Store(path)
    try:
        store.set_meta("before", "1")
        for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            name.unlink()
        caplog.set_level(logging.WARNING)
        for key in ("after", "later"):
            with pytest.raises(StorageError, match="deleted"):
                store.set_meta(key, "1")  # refused, never acknowledged then lost
        assert store.problem is not None and "deleted" in store.problem
        assert [record.getMessage() for record in caplog.records] == [str(StorageError(str(path), store.problem))]
    finally:
        store.close()
    assert not path.exists()


def test_the_database_replaced_while_serving_stops_the_writes(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    store = Store(path)
    try:
        store.set_meta("before", "1")
        copy = tmp_path / "copy.sqlite3"
        shutil.copyfile(path, copy)
        os.replace(copy, path)  # another file now has the name
        with pytest.raises(StorageError, match="replaced"):
            store.set_meta("after", "1")
        with pytest.raises(StorageError, match="replaced"):  # and so on: the file served is not the one named
            store.set_meta("later", "1")
    finally:
        store.close()


def test_a_database_turned_read_only_while_serving_stops_the_writes_without_a_sigbus(tmp_path: Path) -> None:
    """The shared-memory file made read-only under the server killed it by SIGBUS (the kernel refuses the page
    SQLite writes through its mapping): the store, in a process of its own, refuses the write in a sentence."""
    path = tmp_path / "class.sqlite3"
    store = Store(path)
    store.set_meta("before", "1")
    store.close()
    if os.geteuid() == 0 and shutil.which("chattr") is None:
        pytest.skip("chattr is needed to make a file read-only for root")
    make, undo = (["chattr", "+i"], ["chattr", "-i"]) if os.geteuid() == 0 else (["chmod", "444"], ["chmod", "644"])
    script = f"""
import subprocess, sys
from tabletop_edu.classroom.store import Store, StorageError, meta_job
path = {str(path)!r}
store = Store(path)
store.set_meta("opened", "1")
for suffix in ("", "-wal", "-shm"):
    subprocess.run({make!r} + [path + suffix], check=True)
try:
    store.set_meta("after", "1")
except StorageError as error:
    print("refused:", error)
else:
    print("acknowledged")
print("problem:", store.problem)
for suffix in ("", "-wal", "-shm"):
    subprocess.run({undo!r} + [path + suffix], check=True)
store.set_meta("again", "1")
print("written again")
store.close()
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": PACKAGE_ROOT})
    for suffix in ("", "-wal", "-shm"):
        subprocess.run(undo + [f"{path}{suffix}"], capture_output=True)
    if "Operation not supported" in result.stderr:
        pytest.skip("this file system does not support chattr +i")
    assert result.returncode == 0, (result.returncode, result.stderr[-2000:])
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"refused: {path} cannot be used as the class's database: ") and \
        "read-only" in lines[0], lines
    assert lines[1].startswith("problem: ") and "read-only" in lines[1]
    assert lines[2] == "written again"  # writable again: the writes go on
    with sqlite3.connect(path) as database:
        keys = {row[0] for row in database.execute("SELECT key FROM meta")}
    assert {"before", "opened", "again"} <= keys and "after" not in keys


def test_checking_the_file_before_a_commit_costs_no_write_and_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "class.sqlite3")
    try:
        assert store.problem is None
        futures = [store.submit(meta_job(f"key{number}", "x")) for number in range(50)]
        assert [future.result(10) for future in futures] == [None] * 50
        assert store.problem is None
    finally:
        store.close()


# ------------------------------------------------------------------------------------------ rows read back


def test_asked_steps_read_back_are_a_list_of_steps() -> None:
    assert store_module.asked_steps_of("AB12", None) == set()
    assert store_module.asked_steps_of("AB12", "[0, 3, 7]") == {0, 3, 7}
    for stored in ('{"0": 1}', "[1.5]", "[-1]", "[true]", '"3"', "not json", "[" * 5000):
        with pytest.raises(RecordError, match="room AB12: its stored asked steps"):
            store_module.asked_steps_of("AB12", stored)


def test_a_time_limit_read_back_is_a_number_of_seconds_within_the_bounds() -> None:
    assert store_module.time_limit_of("AB12", None, low=5.0, high=3600.0) is None
    assert store_module.time_limit_of("AB12", "30.0", low=5.0, high=3600.0) == 30.0
    for stored in ("-5", "nan", "inf", "1e400", "3", "3601", "thirty", "", repr(math.nan)):
        with pytest.raises(RecordError, match="room AB12: its stored time limit"):
            store_module.time_limit_of("AB12", stored, low=5.0, high=3600.0)


def test_seats_read_back_have_their_types_and_known_bots() -> None:
    good = [SeatRow("AB12", 0, "t0", "Ann", None), SeatRow("AB12", 1, "t1", "Bot 1", "random")]
    store_module.check_seats("AB12", good, 2, {"random", "greedy"})
    bad = {"an unknown bot": [good[0], SeatRow("AB12", 1, "t1", "Bot 1", "os.system")],
           "a bot that is no text": [good[0], SeatRow("AB12", 1, "t1", "Bot 1", 7)],  # type: ignore[arg-type]
           "a name that is no text": [SeatRow("AB12", 0, "t0", b"Ann", None), good[1]],  # type: ignore[arg-type]
           "a token that is no text": [SeatRow("AB12", 0, None, "Ann", None), good[1]],  # type: ignore[arg-type]
           "a seat missing": good[:1], "seats out of order": good[::-1]}
    for kind, seats in bad.items():
        with pytest.raises(RecordError, match="room AB12: ") as refusal:
            store_module.check_seats("AB12", seats, 2, {"random", "greedy"})
        assert "\n" not in str(refusal.value), kind
    with pytest.raises(RecordError, match="os.system"):
        store_module.check_seats("AB12", bad["an unknown bot"], 2, {"random", "greedy"})
