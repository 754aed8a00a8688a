"""Where the students' moves waited inside the class server (`MoveWaits`): the figures of the moves kept, the
oldest dropped past the limit, bad limits refused, and `serve` saying it for every move its students played."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.classroom import TeacherClient
from tabletop_edu.classroom.testing import ServerProcess, Student, play_to_the_end
from tabletop_edu.classroom.waits import MoveWaits


def test_the_summary_gives_each_waits_median_95th_percentile_and_maximum() -> None:
    waits = MoveWaits()
    assert waits.summary() == ""
    for move in range(1, 21):  # committed `move` ms after it arrived, its tables sent 2 * `move` ms later
        arrived = 100.0 + move
        waits.note(arrived, arrived + move / 1000, arrived + 3 * move / 1000)
    assert waits.moves == 20
    assert waits.summary() == ("moves inside the server (20): to their commit p50 11.0 ms, p95 20.0 ms, "
                               "max 20.0 ms; then to their tables sent p50 22.0 ms, p95 40.0 ms, max 40.0 ms")


def test_past_its_limit_it_keeps_the_latest_moves_only() -> None:
    waits = MoveWaits(kept=3)
    waits.note(0.0, 5.0, 5.0)  # a five-second commit, long ago
    for _ in range(4):
        waits.note(0.0, 0.002, 0.003)
    assert waits.moves == 5
    assert waits.summary() == ("moves inside the server (the latest 3 of 5): to their commit p50 2.0 ms, "
                               "p95 2.0 ms, max 2.0 ms; then to their tables sent p50 1.0 ms, p95 1.0 ms, "
                               "max 1.0 ms")


@pytest.mark.parametrize("kept", [0, -1, 2.5, True, "10", None])
def test_a_limit_that_is_not_a_whole_number_of_moves_is_refused(kept: Any) -> None:
    with pytest.raises(ValueError, match="kept is a whole number of moves"):
        MoveWaits(kept=kept)


def test_serve_says_where_every_move_of_its_students_waited_when_it_stops(tmp_path: Path) -> None:
    students: list[Student] = []
    with ServerProcess(tmp_path / "class.sqlite3", tmp_path / "server.log") as server:
        try:
            room = TeacherClient(server.url, server.token).create_room("peek", 2, seed=3)
            students = [Student.join(server.url, room["code"], f"S{seat}") for seat in range(2)]
            played = play_to_the_end(students, random.Random(1))
        finally:
            for student in students:
                student.close()
    line = server.wait_for(r"^moves inside the server.*", timeout=30).group(0)
    numbers = re.fullmatch(r"moves inside the server \((\d+)\): to their commit p50 ([\d.]+) ms, p95 ([\d.]+) ms, "
                           r"max ([\d.]+) ms; then to their tables sent p50 ([\d.]+) ms, p95 ([\d.]+) ms, "
                           r"max ([\d.]+) ms", line)
    assert numbers is not None, line
    assert int(numbers.group(1)) == played > 0
    commit, tables = [float(value) for value in numbers.groups()[1:4]], [float(value) for value in numbers.groups()[4:]]
    assert commit == sorted(commit) and tables == sorted(tables)  # p50 <= p95 <= max
