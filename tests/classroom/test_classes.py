"""A class of many tables over the hall (`classroom.classes`): one code, students who wait, rounds of tables that are
rooms, a restart that keeps it all, personal tokens that lead each student to their own seat only."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tabletop_edu.classroom.classes import ClassDesk, SchoolClass
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.rooms import Refused
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.tables import class_list
from tabletop_edu.classroom.testing import run_now


@pytest.fixture()
def desk(tmp_path: Path) -> ClassDesk:
    return ClassDesk(Hall(Store(tmp_path / "class.sqlite3")))


def reopened(desk: ClassDesk) -> ClassDesk:
    """The same file read by a new hall and desk, as after a restart."""
    path = desk.hall.store.path
    desk.hall.store.close()
    return ClassDesk(Hall(Store(path)))


def seat_of(desk: ClassDesk, token: str) -> tuple[str, int, str]:
    """The room code, seat number and seat token a personal token leads to (the student has a table)."""
    found = desk.seat_of(token)
    assert found is not None, "this student has a table"
    return found[0].code, found[1].number, found[1].token


def seated_names(klass: SchoolClass) -> list[str]:
    return [name for table in klass.tables for name in table.students]


def play_round(desk: ClassDesk, klass: SchoolClass) -> None:
    """Every table of the round played to its end by random legal moves (seeded)."""
    rng = random.Random(3)
    for table in klass.tables:
        room = desk.hall.room(table.room)
        while room.state is not None and not room.state.is_over:
            seat = room.state.acting_seats[0]
            action = rng.choice(room.state.legal_actions(seat))
            run_now(desk.hall.play(room, seat, room.step, str(action)))


def test_twelve_students_of_get_adler_sit_at_tables_of_four_to_six_with_nobody_left_out(desk: ClassDesk) -> None:
    klass = run_now(desk.open_class("get_adler", preferred=5, seed=1, bot_delay=0))
    students = [run_now(desk.join(klass.code.lower(), f"Student {number}")) for number in range(12)]
    assert klass.tables == [] and all(desk.seat_of(student.token) is None for student in students), "they wait"
    tables = run_now(desk.start_round(klass.code))
    assert sorted(seated_names(klass)) == sorted(student.name for student in students)
    assert all(4 <= len(desk.hall.room(table.room).seats) <= 6 and table.bots == 0 for table in tables)
    assert len({table.room for table in tables}) == len(tables), "a room per table"
    for student in students:
        _, seat = run_now(desk.sit(student.token))
        assert seat.name == student.name and seat.token == seat_of(desk, student.token)[2]
    assert all(desk.hall.room(table.room).started for table in tables), "each table starts once all sat"
    assert desk.hall.room(tables[0].room).state.players == tuple(tables[0].students)  # type: ignore[union-attr]


def test_a_personal_token_finds_its_own_seat_only(desk: ClassDesk) -> None:
    klass = run_now(desk.open_class("commissario", preferred=3, seed=2, bot_delay=0))
    students = [run_now(desk.join(klass.code, name)) for name in ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")]
    run_now(desk.start_round(klass.code))
    seats = {student.name: seat_of(desk, student.token) for student in students}
    assert len({(room, number) for room, number, _ in seats.values()}) == 6, "six students, six seats"
    for student in students:
        room, seat = run_now(desk.sit(student.token))
        assert (room.code, seat.number, seat.token) == seats[student.name] and seat.name == student.name
    assert run_now(desk.sit(students[0].token))[1].name == "Ana", "sitting again changes nothing"
    with pytest.raises(Refused) as unknown:
        desk.seat_of(students[0].token[:-1] + ("A" if students[0].token[-1] != "A" else "B"))
    assert unknown.value.code == "unknown_token"
    with pytest.raises(Refused) as taken:
        run_now(desk.join(klass.code, "ANA"))
    assert taken.value.code == "name_taken", "a second Ana is told to pick another name, never given Ana's seat"


def test_a_restart_keeps_the_class_its_students_rounds_and_seats(desk: ClassDesk) -> None:
    klass = run_now(desk.open_class("get_adler", preferred=4, seed=3, bot_delay=0, language="fr"))
    students = [run_now(desk.join(klass.code, f"É{number}")) for number in range(9)]
    run_now(desk.start_round(klass.code))
    for student in students[:5]:
        run_now(desk.sit(student.token))
    before = {student.name: seat_of(desk, student.token) for student in students}
    code, tables = klass.code, [(table.room, list(table.students), table.bots) for table in klass.tables]
    again = reopened(desk)
    restored = again.find(code)
    assert [(table.room, table.students, table.bots) for table in restored.tables] == tables
    assert restored.students == klass.students and restored.seed == 3 and restored.room_options["language"] == "fr"
    assert all(seat_of(again, student.token) == before[student.name] for student in students)
    for student in students[5:]:
        run_now(again.sit(student.token))
    assert all(again.hall.room(table.room).started for table in restored.tables)


def test_a_second_round_forms_the_tables_anew_and_keeps_names_tokens_and_running_scores(desk: ClassDesk) -> None:
    klass = run_now(desk.open_class("get_adler", preferred=4, seed=4, bot_delay=0))
    students = [run_now(desk.join(klass.code, f"S{number}")) for number in range(12)]
    first = run_now(desk.start_round(klass.code))
    for student in students:
        run_now(desk.sit(student.token))
    with pytest.raises(Refused) as playing:
        run_now(desk.start_round(klass.code))
    assert playing.value.code == "round_playing"
    play_round(desk, klass)
    after_one = desk.scores(klass.code)
    assert sum(after_one.values()) > 0 and set(after_one) == {student.name for student in students}
    second = run_now(desk.start_round(klass.code))
    assert {table.room for table in second}.isdisjoint(table.room for table in first), "new rooms"
    assert sorted(seated_names(klass)) == sorted(student.name for student in students)
    assert [table.students for table in second] != [table.students for table in first], "shuffled"
    assert desk.scores(klass.code) == after_one, "a round not played yet adds nothing"
    for student in students:
        run_now(desk.sit(student.token))
    play_round(desk, klass)
    totals = desk.scores(klass.code)
    assert all(totals[name] >= after_one[name] for name in totals) and sum(totals.values()) > sum(after_one.values())
    same = run_now(desk.start_round(klass.code, regroup="same"))
    assert sorted(sorted(table.students) for table in same) == sorted(sorted(table.students) for table in second)
    assert reopened(desk).find(klass.code).rounds == klass.rounds


def test_a_late_student_joins_a_table_not_started_below_the_max_or_waits(desk: ClassDesk) -> None:
    klass = run_now(desk.open_class("get_adler", preferred=4, seed=5, bot_delay=0))
    students = [run_now(desk.join(klass.code, f"S{number}")) for number in range(8)]
    run_now(desk.start_round(klass.code))
    for student in students[:4]:  # the first table sits and starts; the second waits for two students
        run_now(desk.sit(student.token))
    started = next(table for table in klass.tables if desk.hall.room(table.room).started)
    waiting = next(table for table in klass.tables if table is not started)
    old_room, sat = waiting.room, [name for name in waiting.students if desk.hall.room(waiting.room).seats[
        waiting.students.index(name)].filled]
    late = run_now(desk.join(klass.code, "Late"))
    assert waiting.students[-1] == "Late" and waiting.room != old_room, "the table grew by one seat"
    assert desk.hall.room(old_room).closed and len(desk.hall.room(waiting.room).seats) == 5
    assert [seat.name for seat in desk.hall.room(waiting.room).seats if seat.filled] == sat, "who sat still sits"
    for student in [*students[4:], late]:
        run_now(desk.sit(student.token))
    assert desk.hall.room(waiting.room).started
    later = run_now(desk.join(klass.code, "Later"))
    assert desk.seat_of(later.token) is None, "every table started: waits for the next round"
    with pytest.raises(Refused) as not_yet:
        run_now(desk.sit(later.token))
    assert not_yet.value.code == "waiting"


def test_a_class_list_seats_its_students_by_name_and_keeps_groups_together(desk: ClassDesk) -> None:
    listed = class_list("name,group\nAna,a\nana,a\nBo,b\nCy,b\nDi,a\nEd\nFlo,b\nGus\n")
    klass = run_now(desk.open_class("get_adler", preferred=4, placement="together", students=listed, seed=6,
                                    bot_delay=0))
    assert [student.name for student in klass.students] == ["Ana", "ana (2)", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
    with pytest.raises(Refused) as stranger:
        run_now(desk.join(klass.code, "Mallory"))
    assert stranger.value.code == "not_listed"
    for student in klass.students:
        assert run_now(desk.join(klass.code, student.name.upper())) is student, "arrives by name, in any case"
    run_now(desk.start_round(klass.code))
    for group in ("a", "b"):
        assert len({index for index, table in enumerate(klass.tables) for name in table.students
                    if klass.student(name).group == group}) == 1  # type: ignore[union-attr]


def test_a_class_smaller_than_the_minimum_gets_bots_and_refusals_change_nothing(desk: ClassDesk) -> None:
    klass = run_now(desk.open_class("mafia_de_cuba", seed=7, bot_delay=0))
    students = [run_now(desk.join(klass.code, name)) for name in ("Ana", "Bo", "Cy")]
    table, = run_now(desk.start_round(klass.code))
    room = desk.hall.room(table.room)
    assert table.bots == 3 and [seat.bot for seat in room.seats[3:]] == ["random"] * 3
    for student in students:
        run_now(desk.sit(student.token))
    assert room.started
    for bad in ({"preferred": 13}, {"fill": "never"}, {"placement": "alphabetical"}, {"colour": "red"},
                {"bot": "psychic"}, {"language": "de"}):
        with pytest.raises(Refused):
            run_now(desk.open_class("mafia_de_cuba", **bad))  # type: ignore[arg-type]
    assert list(desk.classes) == [klass.code]
    with pytest.raises(Refused) as unknown:
        run_now(desk.join("NOCLAS", "Ana"))
    assert unknown.value.code == "unknown_class"
