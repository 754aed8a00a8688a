"""Tables formed from a class (`classroom.tables`): every class size of every game seated inside its player range
(or with bots, or waiting, as the teacher chose), nobody left out, nobody twice, sizes balanced and near the
teacher's; class lists with duplicate and hostile names; late arrivals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_edu import registry
from tabletop_edu.classroom.rooms import MAX_NAME, Refused, name_key, name_length
from tabletop_edu.classroom.tables import (Seating, TableNow, class_list, distinct_names, form_tables, late_join,
                                           table_sizes)

GAMES = ["get_adler", "mafia_de_cuba", "commissario"]


def player_range(game: str) -> tuple[int, int]:
    plugin = registry.game(game)
    return plugin.min_players, plugin.max_players


def students(count: int) -> list[str]:
    return [f"Student {number}" for number in range(count)]


def seated_once(seating: Seating, names: list[str]) -> None:
    """Everyone is at one table or waiting, nobody twice, nobody made up."""
    placed = [name for table in seating.tables for name in table.students] + list(seating.waiting)
    assert sorted(placed) == sorted(names)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("fill", ["bots", "wait"])
def test_every_class_from_1_to_40_sits_inside_the_player_range_with_nobody_left_out(game: str, fill: str) -> None:
    low, high = player_range(game)
    for preferred in range(low, high + 1):
        for count in range(1, 41):
            names = students(count)
            seating = form_tables(names, low, high, preferred, fill=fill)  # type: ignore[arg-type]
            seated_once(seating, names)
            assert all(low <= table.size <= high for table in seating.tables), (count, preferred, seating)
            if fill == "bots":
                assert not seating.waiting, "bots fill: nobody waits"
                assert sum(table.bots for table in seating.tables) < low, "bots only where the range needs them"
            else:
                assert all(table.bots == 0 for table in seating.tables), "wait: no bots"
                assert len(seating.waiting) < low, "only the students no table can take wait"
            if count >= low and seating.tables and (fill == "wait" or not any(t.bots for t in seating.tables)):
                sizes = [table.size for table in seating.tables]
                assert max(sizes) - min(sizes) <= 1


def test_a_class_smaller_than_the_minimum_gets_bots_or_waits() -> None:
    assert form_tables(students(2), 4, 6, 5, fill="bots").tables[0].bots == 2
    waiting = form_tables(students(2), 4, 6, 5, fill="wait")
    assert waiting.tables == () and waiting.waiting == tuple(students(2))
    seven = form_tables(students(7), 4, 6, 5, fill="bots")  # 7 fits no tables of 4 to 6: one bot makes 4 + 4
    assert [table.size for table in seven.tables] == [4, 4] and sum(t.bots for t in seven.tables) == 1
    assert form_tables(students(7), 4, 6, 5, fill="wait").waiting == ("Student 6",), "the last to arrive waits"


def test_thirty_students_of_get_adler_at_five_sit_at_six_tables_of_five_and_thirty_one_add_a_sixth_seat() -> None:
    low, high = player_range("get_adler")
    assert [table.size for table in form_tables(students(30), low, high, 5).tables] == [5] * 6
    assert sorted(table.size for table in form_tables(students(31), low, high, 5).tables) == [5] * 5 + [6]
    assert table_sizes(30, low, high, 4) == [(5, 0)] * 2 + [(4, 0)] * 5, "the nearest to 4 the range allows"


def test_students_sit_in_order_or_shuffled_by_the_class_seed() -> None:
    names = students(12)
    in_order = form_tables(names, 4, 6, 4)
    assert [list(table.students) for table in in_order.tables] == [names[0:4], names[4:8], names[8:12]]
    shuffled = form_tables(names, 4, 6, 4, placement="shuffle", rng=random.Random(7))
    assert shuffled == form_tables(names, 4, 6, 4, placement="shuffle", rng=random.Random(7)), "seeded"
    assert shuffled != in_order
    seated_once(shuffled, names)
    with pytest.raises(ValueError, match="random source"):
        form_tables(names, 4, 6, 4, placement="shuffle")


def test_groups_of_a_class_list_stay_at_one_table() -> None:
    names = students(10)
    groups = {names[0]: "a", names[9]: "a", names[5]: "a", names[1]: "b", names[2]: "b", names[8]: "b",
              names[3]: "b"}
    seating = form_tables(names, 4, 6, 5, placement="together", groups=groups)
    seated_once(seating, names)
    for label in ("a", "b"):
        at = {index for index, table in enumerate(seating.tables) for name in table.students if groups.get(name)
              == label}
        assert len(at) == 1, f"group {label} is split: {seating}"
    assert all(4 <= table.size <= 6 for table in seating.tables)
    # 10 students of 4, 3, 3 fit at tables of 6 and 4 only: the sizes move inside the range
    moved = {**{name: "four" for name in names[:4]}, **{name: "x" for name in names[4:7]},
             **{name: "y" for name in names[7:]}}
    assert sorted(t.size for t in form_tables(names, 4, 6, 5, placement="together", groups=moved).tables) == [4, 6]
    with pytest.raises(ValueError, match="'big'"):
        form_tables(names, 4, 6, 5, placement="together", groups={name: "big" for name in names[:7]})


def test_a_class_list_keeps_duplicates_apart_and_refuses_hostile_names_by_line() -> None:
    listed = class_list("Name,Group\nAna,red\nana,red\n\n<img src=x onerror=1>,\nAna\n"
                        "Robert'); DROP TABLE--\nÉmile 👩🏽‍🚀,blue\nAna (2)\n" + "W" * MAX_NAME + "\n"
                        + "W" * MAX_NAME + "\n")
    names = listed.names
    assert len({name_key(name) for name in names}) == len(names) == 9, "duplicates told apart, never merged"
    assert names[0] == "Ana" and names[1] == "ana (3)" and names[3] == "Ana (4)" and names[6] == "Ana (2)"
    assert names[2] == "<img src=x onerror=1>", "kept as typed: every page escapes names"
    assert all(name_length(name) <= MAX_NAME for name in names)
    assert names[8] == "W" * (MAX_NAME - 4) + " (2)"
    assert listed.groups == {"Ana": "red", "ana (3)": "red", "Émile 👩🏽‍🚀": "blue"}
    seated_once(form_tables(names, 4, 6, 5, placement="together", groups=listed.groups), list(names))
    for hostile in ("Eve\x1b[2J", "Mallory\u202eevil", "Z" * (MAX_NAME + 1)):
        with pytest.raises(Refused) as refused:
            class_list(f"Ann\n{hostile}\n")
        assert refused.value.code == "bad_name" and "Line 2" in str(refused.value)
    with pytest.raises(ValueError, match="twice"):
        form_tables(["Ana", "ANA", "Bob", "Cy"], 4, 6)
    assert distinct_names(["Li", "LI", "li"]) == ["Li", "LI (2)", "li (3)"]


def test_a_late_student_joins_a_table_not_started_below_the_max_or_waits() -> None:
    assert late_join([TableNow(5, True), TableNow(6, False), TableNow(5, False), TableNow(4, False)], 6) == 3
    assert late_join([TableNow(5, False), TableNow(5, False)], 6) == 0, "the first of equals"
    assert late_join([TableNow(4, True), TableNow(6, False)], 6) is None, "waits for the next round"
    assert late_join([], 6) is None


@given(st.integers(1, 200), st.integers(1, 8), st.integers(0, 8), st.integers(0, 8), st.sampled_from(["bots",
                                                                                                       "wait"]))
def test_sizes_are_balanced_inside_any_range(count: int, low: int, span: int, over: int, fill: str) -> None:
    high = low + span
    preferred = low + min(over, span)
    pairs = table_sizes(count, low, high, preferred, fill)  # type: ignore[arg-type]
    sizes = [seated + bots for seated, bots in pairs]
    assert all(low <= size <= high for size in sizes)
    assert max(sizes, default=0) - min(sizes, default=0) <= 1, "balanced: the range always allows it"
    seated = sum(seated for seated, _ in pairs)
    assert seated == count if fill == "bots" else count - low < seated <= count
    with_bots = [bots for _, bots in pairs]
    assert max(with_bots, default=0) - min(with_bots, default=0) <= 1 or len(pairs) == 1, "bots spread"


@given(st.integers(1, 60), st.integers(0, 2**32))
def test_every_shuffled_class_of_get_adler_is_seated_once(count: int, seed: int) -> None:
    names = students(count)
    seated_once(form_tables(names, 4, 6, 5, placement="shuffle", rng=random.Random(seed)), names)
