"""Rounds of a class (`classes.ClassDesk.start_round`): the tables re-formed shuffled, the same, or with the winners
of the round before at the first seat (Mafia de Cuba's Godfather, seeds/mafia_de_cuba.md R7.4), each student's
name, token and running score kept (read once per finished game); every table started now with bots for absent
students; the seats a late join replaced found again after a restart; and a room dashboard that counts beliefs per
table, never per seat."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tabletop_edu.classroom.classes import ClassDesk, SchoolClass
from tabletop_edu.classroom.dashboard import belief_count_html
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.rooms import Refused
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.tables import Table, winners_first
from tabletop_edu.classroom.testing import run_now


@pytest.fixture()
def desk(tmp_path: Path) -> ClassDesk:
    return ClassDesk(Hall(Store(tmp_path / "class.sqlite3")))


def played_class(desk: ClassDesk, game: str, preferred: int, students: int, seed: int) -> SchoolClass:
    """A class of `students` who joined, sat at the first round's tables and played them to their end."""
    klass = run_now(desk.open_class(game, preferred=preferred, seed=seed, bot_delay=0))
    joined = [run_now(desk.join(klass.code, f"S{number}")) for number in range(students)]
    run_now(desk.start_round(klass.code))
    for student in joined:
        run_now(desk.sit(student.token))
    play_round(desk, klass.code)
    return klass


def play_round(desk: ClassDesk, code: str, seed: int = 3) -> None:
    """Every table of the round played to its end by seeded random legal moves."""
    rng = random.Random(seed)
    for table in desk.find(code).tables:
        room = desk.hall.room(table.room)
        while room.state is not None and not room.state.is_over:
            seat = room.state.acting_seats[0]
            run_now(desk.hall.play(room, seat, room.step, str(rng.choice(room.state.legal_actions(seat)))))


def test_the_winners_of_a_mafia_round_sit_at_the_godfathers_seat_of_the_next_tables(desk: ClassDesk) -> None:
    klass = played_class(desk, "mafia_de_cuba", 6, 12, seed=7)
    winners = desk.winners(klass, 0)
    scores = desk.scores(klass.code)
    assert winners and all(scores[name] > 0 for name in winners)
    tokens = {student.name: student.token for student in klass.students}
    second = run_now(desk.start_round(klass.code, regroup="winners_first"))
    firsts = [table.students[0] for table in second]
    assert all(name in winners for name in firsts[:len(winners)]), "a winner at seat 0 of each table: the Godfather"
    assert len(set(firsts)) == len(firsts)
    assert sorted(name for table in second for name in table.students) == sorted(tokens), "everyone seated once"
    assert {student.name: student.token for student in klass.students} == tokens and desk.scores(klass.code) == scores
    assert all(desk.hall.room(table.room).rules.godfather_seat == 0 for table in second)  # type: ignore[attr-defined]
    with pytest.raises(Refused) as bad:
        run_now(desk.start_round(klass.code, regroup="loudest"))  # type: ignore[arg-type]
    assert bad.value.code == "bad_request"


def test_winners_first_swaps_only_the_first_seats_and_skips_absent_winners() -> None:
    tables = (Table(("a", "b", "c")), Table(("d", "e", "f"), bots=1))
    moved = winners_first(tables, ["f", "gone"], random.Random(1))
    assert moved[0].students == ("f", "b", "c") and moved[1].students == ("d", "e", "a") and moved[1].bots == 1
    both = winners_first(tables, ["e", "c"], random.Random(2))
    assert sorted(table.students[0] for table in both) == ["c", "e"]
    assert sorted(name for table in both for name in table.students) == list("abcdef")


def test_a_room_dashboard_counts_beliefs_for_the_table_never_per_seat() -> None:
    text = belief_count_html({"counts": [3, 0, 2, 1, 4], "asked_steps": [2, 7]}, "fr")
    assert ": 10</p>" in text and "à cette table" in text and "2, 7" in text
    assert "<td" not in text, "no row per seat: a seat never asked (Adler) would single itself out"


def test_running_scores_read_each_finished_game_once_and_wake_no_sleeping_room(desk: ClassDesk) -> None:
    klass = played_class(desk, "get_adler", 4, 8, seed=9)
    scores = desk.scores(klass.code)
    for table in klass.tables:
        run_now(desk.hall.reveal(table.room))
    asleep = desk.hall.sweep(idle=0)
    assert sorted(asleep) == sorted(table.room for table in klass.tables)
    assert desk.scores(klass.code) == scores and not set(asleep) & set(desk.hall.rooms), "still asleep"


def test_start_now_seats_bots_for_absent_students_who_then_wait_for_the_next_round(desk: ClassDesk) -> None:
    klass = run_now(desk.open_class("get_adler", preferred=4, seed=10, bot_delay=0))
    students = [run_now(desk.join(klass.code, f"S{number}")) for number in range(8)]
    run_now(desk.start_round(klass.code))
    absent = {students[1].name, students[6].name}
    for student in students:
        if student.name not in absent:
            run_now(desk.sit(student.token))
    assert not all(desk.hall.room(table.room).started for table in klass.tables)
    assert sorted(run_now(desk.start_now(klass.code))) == sorted(absent)
    assert all(desk.hall.room(table.room).started for table in klass.tables), "every table plays"
    assert all(desk.seat_of(student.token) is None for student in students if student.name in absent)
    with pytest.raises(Refused) as waiting:
        run_now(desk.sit(students[1].token))
    assert waiting.value.code == "waiting"
    assert run_now(desk.start_now(klass.code)) == [], "nothing left to start"
    play_round(desk, klass.code)
    scores = desk.scores(klass.code)
    assert all(scores[name] == 0 for name in absent), "a bot's returns are never a student's"
    run_now(desk.start_round(klass.code))
    assert all(desk.seat_of(student.token) is not None for student in students), "back at a table next round"


def test_the_seats_a_late_join_replaced_lead_to_their_students_after_a_restart(desk: ClassDesk) -> None:
    klass = run_now(desk.open_class("get_adler", preferred=4, seed=12, bot_delay=0))
    students = [run_now(desk.join(klass.code, f"S{number}")) for number in range(4)]
    run_now(desk.start_round(klass.code))
    old = {student.name: run_now(desk.sit(student.token))[1].token for student in students[:2]}
    told: list[str] = []
    desk.moved_listeners.append(lambda _, room: told.append(room.code))
    old_room = klass.tables[0].room
    run_now(desk.join(klass.code, "Late"))
    assert told == [old_room], "told before the old room closed"
    path = desk.hall.store.path
    desk.hall.store.close()
    again = ClassDesk(Hall(Store(path)))
    for name, token in old.items():
        found = again.moved_student(token)
        assert found is not None and found[1].name == name
    assert again.moved_student("not-a-token") is None
