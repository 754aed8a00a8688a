"""Tables formed from a class: sizes balanced inside the game's player range, near the teacher's size, nobody twice.

A pure function of the class and the teacher's choices, no server: `form_tables` takes the students (in arrival
order, or a class list's order), the game's player range, the preferred size and a fill policy, and returns the
tables and who waits. Sizes first (`table_sizes`): everyone seated when the range allows it; with `fill="bots"` a
class the range cannot seat (smaller than the minimum, or 7 students of a 4-6 game) gets the fewest bot seats that
make it fit; with `fill="wait"` the fewest students wait for the next round. Among the table counts left, the one
whose balanced sizes (no two differing by more than one) stray least from the preferred size wins: 30 students of
Get Adler at 5 sit at six tables of 5, 31 at five of 5 and one of 6. Then who sits where (`Placement`): in the
given order, shuffled by a seeded `random.Random` the class owns, or with the groups a class list names kept at one
table. `late_join` says where a student arriving after the tables were formed goes; `class_list` makes a class
list's names fit to be players' names (cleaned as a room cleans them, duplicates told apart, never merged).
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .rooms import MAX_NAME, Refused, clean_name, name_key, name_length

#: "bots": bot seats complete a class the player range cannot seat; "wait": the students left over wait.
FillPolicy = Literal["bots", "wait"]
FILL_POLICIES: tuple[FillPolicy, ...] = ("bots", "wait")
#: "order": tables filled in the given order; "shuffle": in an order drawn from the class's random source;
#: "together": in the given order, each group a class list names kept at one table.
Placement = Literal["order", "shuffle", "together"]
PLACEMENTS: tuple[Placement, ...] = ("order", "shuffle", "together")
#: The first cell of a class list's header row, when it has one (any case).
NAME_HEADERS = frozenset({"name", "names", "nom", "noms", "student", "students", "élève", "élèves"})


@dataclass(frozen=True)
class Table:
    """One table of a class: its students in seat order, then `bots` bot seats."""

    students: tuple[str, ...]
    bots: int = 0

    @property
    def size(self) -> int:
        """The table's players, students and bots."""
        return len(self.students) + self.bots


@dataclass(frozen=True)
class Seating:
    """A class at its tables: `waiting` holds the students no table could take (only with `fill="wait"`)."""

    tables: tuple[Table, ...]
    waiting: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableNow:
    """A table as `late_join` sees it: its players now and whether its game has started."""

    players: int
    started: bool


@dataclass(frozen=True)
class ClassList:
    """A class list's students (names fit to play under, all distinct) and the group each named, if any."""

    names: tuple[str, ...]
    groups: Mapping[str, str]


def check_range(low: int, high: int, preferred: int | None = None) -> int:
    """The preferred size (`low` when None), after checking that `low <= preferred <= high` and `1 <= low`."""
    if not 1 <= low <= high:
        raise ValueError(f"A player range runs from at least 1 up, not {low} to {high}.")
    size = low if preferred is None else preferred
    if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= high:
        raise ValueError(f"The preferred table size is a whole number from {low} to {high}, not {size!r}.")
    return size


def _fits(count: int, low: int, high: int) -> bool:
    """Whether `count` players sit at some number of tables of `low` to `high` each."""
    return count == 0 or any(tables * low <= count <= tables * high for tables in range(1, count // low + 1))


def _balanced(total: int, tables: int) -> list[int]:
    """`total` split into `tables` sizes differing by at most one, the larger first."""
    base, extra = divmod(total, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def table_sizes(count: int, low: int, high: int, preferred: int | None = None,
                fill: FillPolicy = "bots") -> list[tuple[int, int]]:
    """The tables for `count` students, as (students, bot seats) pairs, largest tables first.

    Every table holds `low` to `high` players and no two differ by more than one, with the fewest bots (`fill=
    "bots"`) or the fewest students left out (`fill="wait"`: the students the pairs do not count wait); among the
    table counts that do it, the one whose sizes are nearest `preferred` (the sum of their distances, then the
    largest distance, then fewer tables). The bot seats go one by one to the largest tables."""
    size = check_range(low, high, preferred)
    if fill not in FILL_POLICIES:
        raise ValueError(f"The fill policy is {' or '.join(map(repr, FILL_POLICIES))}, not {fill!r}.")
    if count < 0:
        raise ValueError(f"A class has no fewer than 0 students, not {count}.")
    if fill == "wait":
        seated = next(seated for seated in range(count, -1, -1) if _fits(seated, low, high))
        total = seated
    else:
        seated = count
        total = next(total for total in range(max(count, low), count + low + 1) if _fits(total, low, high))
    if seated == 0:
        return []
    counts = [tables for tables in range(1, total // low + 1) if tables * low <= total <= tables * high]

    def distance(tables: int) -> tuple[int, int, int]:
        sizes = _balanced(total, tables)
        return sum(abs(one - size) for one in sizes), max(abs(one - size) for one in sizes), tables

    sizes = _balanced(total, min(counts, key=distance))
    bots = [0] * len(sizes)
    for extra in range(total - seated):
        bots[extra % len(sizes)] += 1
    return [(players - bot, bot) for players, bot in zip(sizes, bots)]


def form_tables(students: Sequence[str], low: int, high: int, preferred: int | None = None, *,
                fill: FillPolicy = "bots", placement: Placement = "order", rng: random.Random | None = None,
                groups: Mapping[str, str] | None = None) -> Seating:
    """`students` (distinct names, in arrival or class-list order) at tables of `low` to `high` players.

    Sizes as `table_sizes` gives them; the students who wait (`fill="wait"`) are the last in `students`.
    `placement="shuffle"` seats the others in an order drawn from `rng` (required: the class's own, seeded, so a
    class's tables are the same after a restart); `"together"` keeps the students of each group of `groups` (name ->
    group) at one table, moving sizes inside the range where a group needs it, and refuses (`ValueError`, saying
    which group) groups no tables can hold. Everyone is at one table or waiting, nobody twice."""
    keys = [name_key(name) for name in students]
    if len(set(keys)) != len(keys):
        twice = next(name for name, key in zip(students, keys) if keys.count(key) > 1)
        raise ValueError(f"{twice!r} is in the class twice: tell the students apart first (`class_list`).")
    if placement not in PLACEMENTS:
        raise ValueError(f"The placement is {' or '.join(map(repr, PLACEMENTS))}, not {placement!r}.")
    pairs = table_sizes(len(students), low, high, preferred, fill)
    seated_count = sum(seated for seated, _ in pairs)
    seated, waiting = list(students[:seated_count]), tuple(students[seated_count:])
    if placement == "shuffle":
        if rng is None:
            raise ValueError("Shuffled tables need the class's random source (rng=random.Random(seed)).")
        rng.shuffle(seated)
    if placement == "together":
        members = _packed(seated, pairs, low, high, dict(groups or {}))
    else:
        members, start = [], 0
        for count, _ in pairs:
            members.append(seated[start:start + count])
            start += count
    return Seating(tuple(Table(tuple(names), bots) for names, (_, bots) in zip(members, pairs)), waiting)


def _packed(students: list[str], pairs: list[tuple[int, int]], low: int, high: int,
            groups: dict[str, str]) -> list[list[str]]:
    """The students at the tables `pairs` sizes, each group of two or more at one table: the groups placed largest
    first, each at the table with most room (backtracking when that fails), the others filling the tables toward
    their balanced sizes; each table's members kept in `students`' order."""
    order = {name: index for index, name in enumerate(students)}
    bunches: dict[str, list[str]] = {}
    for name in students:
        bunches.setdefault(groups.get(name, f"\0{name}"), []).append(name)
    together = sorted((bunch for bunch in bunches.values() if len(bunch) > 1), key=lambda bunch: (-len(bunch),
                                                                                                   order[bunch[0]]))
    alone = [bunch[0] for bunch in bunches.values() if len(bunch) == 1]
    wanted = [count for count, _ in pairs]
    room = [high - bots for _, bots in pairs]
    least = [max(low - bots, 0) for _, bots in pairs]
    for bunch in together:
        if len(bunch) > max(room, default=0):
            label = groups[bunch[0]]
            raise ValueError(f"Group {label!r} has {len(bunch)} students; a table here holds at most "
                             f"{max(room, default=0)}: split the group.")
    loads = [0] * len(pairs)
    tables: list[list[str]] = [[] for _ in pairs]

    def place(index: int) -> bool:
        if sum(max(load, need) for load, need in zip(loads, least)) > len(students):
            return False
        if index == len(together):
            return True
        bunch, tried = together[index], set()
        for table in sorted(range(len(pairs)), key=lambda table: (loads[table] - wanted[table], table)):
            if loads[table] + len(bunch) > room[table] or (loads[table], room[table], least[table]) in tried:
                continue
            tried.add((loads[table], room[table], least[table]))
            loads[table] += len(bunch)
            tables[table].extend(bunch)
            if place(index + 1):
                return True
            loads[table] -= len(bunch)
            del tables[table][-len(bunch):]
        return False

    if not place(0):
        raise ValueError(f"These groups ({', '.join(repr(groups[bunch[0]]) for bunch in together)}) cannot sit at "
                         f"{len(pairs)} tables of {low} to {high}: split a group or seat them in order.")
    for name in alone:
        short = [table for table in range(len(pairs)) if loads[table] < least[table]]
        free = short or [table for table in range(len(pairs)) if loads[table] < room[table]]
        table = min(free, key=lambda table: (loads[table] - wanted[table], table))
        loads[table] += 1
        tables[table].append(name)
    return [sorted(names, key=order.__getitem__) for names in tables]


def winners_first(tables: Sequence[Table], winners: Sequence[str], rng: random.Random) -> tuple[Table, ...]:
    """`tables` with a winner of the round before at the first seat of as many tables as there are winners (Mafia
    de Cuba's Godfather seat, seeds/mafia_de_cuba.md R7.4): the winners drawn by `rng` (the lot R7.2's bots use),
    each swapped with whoever sat first; the others keep their tables. Winners absent from `tables` are skipped."""
    members = [list(table.students) for table in tables]
    where = {name: index for index, names in enumerate(members) for name in names}
    drawn = [name for name in winners if name in where]
    rng.shuffle(drawn)
    for index, winner in zip(range(len(members)), drawn):
        if not members[index]:
            continue
        other, first = where[winner], members[index][0]
        spot = members[other].index(winner)
        members[index][0], members[other][spot] = winner, first
        where[winner], where[first] = index, other
    return tuple(Table(tuple(names), table.bots) for names, table in zip(members, tables))


def late_join(tables: Sequence[TableNow], high: int) -> int | None:
    """The table a student arriving after the tables were formed joins: the smallest of those whose game has not
    started and that seat fewer than `high` players (the first of equals); None when there is none, and the student
    waits for the next round."""
    open_tables = [index for index, table in enumerate(tables) if not table.started and table.players < high]
    return min(open_tables, key=lambda index: (tables[index].players, index)) if open_tables else None


def distinct_names(names: Iterable[str]) -> list[str]:
    """Names fit to play under, all distinct: each cleaned as a room cleans it (`Refused` "bad_name" for a name no
    room takes), and a name already there (by `name_key`: case, joiners) told apart by its count, "Ana (2)", cut
    short to fit `MAX_NAME`, never merged with the other and never taking a name the list itself holds."""
    cleaned = [clean_name(name) for name in names]
    listed = {name_key(name) for name in cleaned}
    taken: set[str] = set()
    distinct = []
    for name in cleaned:
        fresh, count = name, 1
        while name_key(fresh) in taken or (count > 1 and name_key(fresh) in listed):
            count += 1
            suffix, base = f" ({count})", name
            while name_length(base + suffix) > MAX_NAME:
                base = base[:-1]
            fresh = base.rstrip() + suffix
        taken.add(name_key(fresh))
        distinct.append(fresh)
    return distinct


def class_list(text: str) -> ClassList:
    """A class list from CSV text: a name per row, optionally a group in the second column (students of one group
    stay at one table with `placement="together"`); a first row headed "name" (or "nom", "student", "élève") is a
    header; blank rows are skipped. A name no room takes is refused with its line (`Refused` "bad_name")."""
    rows = [(line, row) for line, row in enumerate(csv.reader(io.StringIO(text)), start=1)
            if row and any(cell.strip() for cell in row)]
    if rows and rows[0][1][0].strip().casefold() in NAME_HEADERS:
        rows = rows[1:]
    for line, row in rows:
        try:
            clean_name(row[0])
        except Refused as refusal:
            raise Refused("bad_name", f"Line {line} of the class list: {refusal}",
                          fr=f"Ligne {line} de la liste de classe : {refusal.fr or refusal}") from None
    names = distinct_names(row[0] for _, row in rows)
    groups = {name: " ".join(row[1].split()) for name, (_, row) in zip(names, rows)
              if len(row) > 1 and row[1].strip()}
    return ClassList(tuple(names), groups)
