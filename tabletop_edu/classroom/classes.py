"""A class of many tables: one join code, students who wait, and rounds whose tables are rooms of the hall.

A `SchoolClass` is a whole class playing one game: students join it with its code and a name (or come from a
class list) and wait; the teacher starts a round, and `tables.form_tables` seats them: each table is a room opened
through the hall (`Hall.create_room`), so every room feature (links, the projector, bots, time limits, beliefs,
records, secrets) works for it as for any room. Each student has a personal token for the class: it finds their
seat of this round (`ClassDesk.seat_of`), never another student's, and their seat's token moves their page there;
they sit (`ClassDesk.sit`) under their class name, and a table's game starts once every student of it sat, as a
room's does. A student who arrives after the tables were formed joins a table that has not started and has a seat
to spare under the game's maximum (`tables.late_join`: its room is opened anew one seat larger, those who sat
seated again, their pages sent on to the new seat: `moved_listeners`, `moved_seats`), or waits for the next round.
A new round forms the tables anew (shuffled, the same students together, or shuffled with last round's winners at
each table's first seat: Mafia de Cuba's Godfather, R7.4) and keeps each student's name, token, running score (their
games' returns, `ClassDesk.scores`) and the extra time the teacher gave them for each move (`ClassDesk.extend`).

A class lives in the store's meta table (`class:CODE`, as JSON; `classes` lists the codes), written in one
transaction after each change, so a restart keeps the class, its students, rounds and tables. A class code is one
letter longer than a room code, so the two never collide.

Each change of a class is one `Plan` (`join_plan`, ...) whose writes are awaited on the server's loop (a class
joining at once never holds the loop up), run by its coroutine (`join`, ...) one change of a class at a time, each
checked on the class as the one before left it.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, Generator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, TypeVar

from ..core import rules_to_dict
from ..core.errors import quote
from . import games
from .commits import storage_refusal
from .hall import CODE_ALPHABET, CODE_LENGTH, Hall
from .rooms import Change, Refused, Room, TableSeat, clean_name, name_key, new_token
from .store import meta_job
from .tables import (FILL_POLICIES, PLACEMENTS, ClassList, FillPolicy, Placement, TableNow, form_tables, late_join,
                     winners_first)

#: A class code: one letter longer than a room's, so that no room ever takes a class's code.
CLASS_CODE_LENGTH = CODE_LENGTH + 1
#: The meta key listing every class's code (JSON), and each class's own key.
CLASSES_KEY = "classes"
#: How a new round seats the class: "shuffle" (tables drawn anew from the class's seed and the round), "same"
#: (each table's students together again, newcomers where there is room), "winners_first" (shuffled, then a winner
#: of the round before at the first seat of each table: Mafia de Cuba's Godfather, seeds/mafia_de_cuba.md R7.4).
Regroup = Literal["shuffle", "same", "winners_first"]
REGROUPS: tuple[Regroup, ...] = ("shuffle", "same", "winners_first")
#: The most seconds a teacher may add to one student's time for each move (`ClassDesk.extend`).
MAX_EXTRA_TIME = 3600.0
#: The options a class passes to each of its rooms (`Hall.create_room_change`), kept as JSON with the class.
ROOM_OPTIONS = frozenset({"rules", "language", "bot_delay", "beliefs", "scoring", "move_time_limit"})


T = TypeVar("T")


#: One write a class's change awaits before it goes on (the loop serves everyone else meanwhile).
Write = Callable[[], Awaitable[T]]
#: A class's change: a generator that yields each `Write` it needs and is sent its result (a write that failed is
#: thrown into it, for it to undo what it changed in memory).
Plan = Generator[Write[Any], Any, T]


async def driven(plan: Plan[T]) -> T:
    """`plan` run to its end, each of its writes awaited; a write that failed is thrown into the plan."""
    result: Any = None
    error: BaseException | None = None
    try:
        while True:
            write = plan.send(result) if error is None else plan.throw(error)
            try:
                result, error = await write(), None
            except BaseException as failure:  # noqa: BLE001 - the plan undoes what it changed, then raises it
                result, error = None, failure
    except StopIteration as done:
        return done.value


def class_key(code: str) -> str:
    """The store's meta key holding a class (JSON)."""
    return f"class:{code}"


@dataclass
class Student:
    """A student of a class: the name they play under (distinct in the class), their personal token, whether they
    came from the class list, whether they have arrived, the group the list named, and the seconds the teacher
    added to their time for each move (WCAG 2.2.1: a time limit one can extend), kept across rounds."""

    name: str
    token: str
    listed: bool = False
    arrived: bool = True
    group: str | None = None
    extra_time: float = 0.0


@dataclass
class ClassTable:
    """A table of a round: its room, the students at its seats in order (seat i is `students[i]`), then bots."""

    room: str
    students: list[str]
    bots: int


@dataclass
class SchoolClass:
    """A class playing `package`: its code, students, rounds of tables, and the teacher's choices for forming
    them (`preferred` size, `fill`, `placement`, `regroup`, the `bot` that fills seats, the rooms' options)."""

    code: str
    package: str
    seed: int
    preferred: int
    fill: FillPolicy
    placement: Placement
    regroup: Regroup
    bot: str
    room_options: dict[str, Any]
    students: list[Student] = field(default_factory=list)
    rounds: list[list[ClassTable]] = field(default_factory=list)
    #: The seat tokens of rooms a late join replaced, each with the student it was for (`ClassDesk.moved_student`).
    moved: dict[str, str] = field(default_factory=dict)

    def student(self, name: str) -> Student | None:
        """The student of that name (any case, joiners), or None."""
        key = name_key(name)
        return next((student for student in self.students if name_key(student.name) == key), None)

    @property
    def tables(self) -> list[ClassTable]:
        """The tables of the round being played (none before the first)."""
        return self.rounds[-1] if self.rounds else []

    def table_of(self, name: str) -> tuple[ClassTable, int] | None:
        """The table and seat of this round the student `name` has, or None (waiting)."""
        for table in self.tables:
            if name in table.students:
                return table, table.students.index(name)
        return None

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> SchoolClass:
        data = json.loads(text)
        students = [Student(**student) for student in data.pop("students")]
        rounds = [[ClassTable(**table) for table in tables] for tables in data.pop("rounds")]
        return cls(**data, students=students, rounds=rounds)


class ClassDesk:
    """Every class of a hall, read back from its store at start; the class's changes go through the hall's own
    controls (rooms opened, seats claimed, rooms closed), then the class is stored."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.classes: dict[str, SchoolClass] = {}
        self._tokens: dict[str, tuple[SchoolClass, Student]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._rounds: dict[str, asyncio.Event] = {}
        self._returns: dict[str, tuple[float, ...]] = {}  # by room: its finished game's returns (`scores`)
        #: Told when a late join replaced a room (the class, the old room) before it is closed: the server sends
        #: the pages of those who sat there on to their new seat instead of closing them (`moved_seats`).
        self.moved_listeners: list[Callable[[SchoolClass, Room], None]] = []
        for code in json.loads(hall.store.meta(CLASSES_KEY) or "[]"):
            stored = hall.store.meta(class_key(code))
            if stored is not None:
                self._add(SchoolClass.from_json(stored))

    def _add(self, klass: SchoolClass) -> None:
        self.classes[klass.code] = klass
        for student in klass.students:
            self._tokens[student.token] = (klass, student)

    def _save_write(self, klass: SchoolClass) -> Write[None]:
        """The class as it is now and the list of classes, in one transaction (a write that fails is refused in
        words a student reads: `storage_refusal`)."""
        entries = {class_key(klass.code): klass.to_json(), CLASSES_KEY: json.dumps(sorted(self.classes))}
        store = self.hall.store

        def job(db: sqlite3.Connection) -> None:
            for key, value in entries.items():
                meta_job(key, value)(db)

        async def write() -> None:
            try:
                await asyncio.wrap_future(store.submit(job))
            except Exception as error:  # noqa: BLE001 - a disk full, a file held: refused, never a crash
                raise storage_refusal(error) from None

        return write

    def _commit_write(self, change: Change[T]) -> Write[T]:
        """A change of the hall (a room opened or closed), committed along its commit path."""
        return lambda: self.hall.commit(change)

    def _claim_write(self, token: str, name: str) -> Write[tuple[Room, TableSeat]]:
        """A seat of the hall taken under `name` (its game starts once every seat is taken)."""
        return lambda: self.hall.claim(token, name)

    async def _done(self, code: Any, plan: Plan[T]) -> T:
        """`plan` run on the server's loop, awaiting each of its writes, after the changes of class `code` before
        it (its checks run once they are done, on the class as they left it)."""
        key = code.strip().upper() if isinstance(code, str) else ""
        async with self._locks.setdefault(key, asyncio.Lock()):
            return await driven(plan)

    def _round_formed(self, code: str) -> None:
        """Wake the pages waiting for class `code`'s tables (`wait_for_round`)."""
        event = self._rounds.pop(code, None)
        if event is not None:
            event.set()

    async def wait_for_round(self, code: str, timeout: float) -> None:
        """Return when class `code` forms its tables or after `timeout` seconds (a waiting page asks again)."""
        event = self._rounds.setdefault(code, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    # ---------------------------------------------------------------- the teacher's

    async def open_class(self, game: str, **options: Any) -> SchoolClass:
        """A new class (`open_class_plan`, which says its `options`)."""
        return await self._done("", self.open_class_plan(game, **options))

    def open_class_plan(self, game: str, *, preferred: int | None = None, fill: FillPolicy = "bots",
                      placement: Placement = "order", regroup: Regroup = "shuffle",
                      students: ClassList | Sequence[str] | None = None, seed: int | None = None,
                      bot: str | None = None, **room_options: Any) -> Plan[SchoolClass]:
        """A new class of `game`: tables of `preferred` players (the game's default number when None), a class
        the range cannot seat completed by `bot`s or left waiting (`fill`), students placed in arrival or list
        order, shuffled, or with their list's groups together (`placement`), a new round shuffled or the same
        (`regroup`). `students`: a class list (`tables.class_list`, or distinct names); its students have their
        tokens at once and arrive when they join by name. `room_options` go to every room
        (`Hall.create_room_change`)."""
        package = games.game_package(game)
        low, high, default = games.player_range(package)
        if preferred is None:
            preferred = default
        if isinstance(preferred, bool) or not isinstance(preferred, int) or not low <= preferred <= high:
            raise Refused("bad_request", f"{games.title(package)} is played by {low} to {high} players, not "
                          f"{quote(repr(preferred))}.")
        for name, value, allowed in (("fill", fill, FILL_POLICIES), ("placement", placement, PLACEMENTS),
                                     ("regroup", regroup, REGROUPS)):
            if value not in allowed:
                raise Refused("bad_request", f"{name} is {' or '.join(map(repr, allowed))}, not {quote(repr(value))}.")
        unknown = sorted(set(room_options) - ROOM_OPTIONS)
        if unknown:
            raise Refused("bad_request", f"A class's rooms take {', '.join(sorted(ROOM_OPTIONS))}, not "
                          f"{quote(', '.join(unknown))}.")
        if room_options.get("rules") is not None and not isinstance(room_options["rules"], Mapping):
            room_options["rules"] = rules_to_dict(room_options["rules"])
        names = games.bot_names(package)
        bot = bot if bot is not None else "random" if "random" in names else names[0]
        if bot not in names:
            raise Refused("bad_request", f"The bot filling seats is one of {', '.join(names)}, not {quote(repr(bot))}.")
        self.hall.create_room_change(package, preferred, bots={0: bot}, **room_options)  # checked, not committed
        if seed is None:
            seed = secrets.randbelow(2**32)
        listed = students if isinstance(students, ClassList) else ClassList(tuple(students or ()), {})
        roster = [Student(clean_name(name), new_token(), listed=True, arrived=False, group=listed.groups.get(name))
                  for name in listed.names]
        if len({name_key(student.name) for student in roster}) != len(roster):
            raise Refused("bad_request", "A class list names each student once: tell duplicates apart "
                          "(tables.class_list does).")
        klass = SchoolClass(self._new_code(), package, seed, preferred, fill, placement, regroup, bot,
                            dict(room_options), roster)
        self._add(klass)
        try:
            yield self._save_write(klass)
        except BaseException:
            self._forget(klass)
            raise
        return klass

    def _forget(self, klass: SchoolClass) -> None:
        """A class whose first write failed, taken out of memory again."""
        del self.classes[klass.code]
        for student in klass.students:
            self._tokens.pop(student.token, None)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CLASS_CODE_LENGTH))
            if code not in self.classes:
                return code

    def find(self, code: Any) -> SchoolClass:
        """The class with this code (any case), or `Refused`."""
        klass = self.classes.get(code.strip().upper() if isinstance(code, str) else "")
        if klass is None:
            raise Refused("unknown_class", f"There is no class {quote(str(code))}: check the code.", 404,
                          fr=f"Il n'y a pas de classe {quote(str(code))} : vérifiez le code.")
        return klass

    async def start_round(self, code: str, regroup: Regroup | None = None) -> list[ClassTable]:
        """A new round (`start_round_plan`); the pages waiting for a table hear of it (`wait_for_round`)."""
        tables = await self._done(code, self.start_round_plan(code, regroup))
        self._round_formed(self.find(code).code)
        return tables

    def start_round_plan(self, code: str, regroup: Regroup | None = None) -> Plan[list[ClassTable]]:
        """A new round: the students who arrived at new tables, each a new room (bots at its last seats), in the
        class's placement for the first round, then shuffled or the same (`regroup`, by default the class's).
        Refused while a table of the round before is still being played; its tables never started are closed."""
        klass = self.find(code)
        regroup = klass.regroup if regroup is None else regroup
        if regroup not in REGROUPS:
            raise Refused("bad_request", f"regroup is {' or '.join(map(repr, REGROUPS))}, not {quote(repr(regroup))}.")
        rooms = [self.hall.room(table.room) for table in klass.tables]
        playing = [room.code for room in rooms if room.started and not room.closed and not room.is_over]
        if playing:
            raise Refused("round_playing", f"Tables {', '.join(playing)} are still playing: a new round starts once "
                          "every table is over (or closed).", 409,
                          fr=f"Les tables {', '.join(playing)} jouent encore : une nouvelle manche commence quand "
                          "toutes les tables ont fini (ou sont fermées).")
        for room in rooms:
            if not room.started and not room.closed:
                yield self._commit_write(self.hall.close_change(room.code))
        present = [student for student in klass.students if student.arrived]
        placement: Placement = klass.placement
        groups = {student.name: student.group for student in present if student.group is not None}
        if klass.rounds and regroup in ("shuffle", "winners_first"):
            placement = "shuffle" if placement != "together" else placement
        elif klass.rounds:
            placement, groups = "together", {name: f"table {index}" for index, table in enumerate(klass.tables)
                                             for name in table.students}
        number = len(klass.rounds) + 1
        rng = random.Random(f"class-{klass.code}-{klass.seed}-round-{number}")
        low, high, _ = games.player_range(klass.package)
        seating = form_tables([student.name for student in present], low, high, klass.preferred, fill=klass.fill,
                              placement=placement, rng=rng, groups=groups)
        formed = seating.tables
        if klass.rounds and regroup == "winners_first":
            formed = winners_first(formed, self.winners(klass, len(klass.rounds) - 1), rng)
        tables = []
        for table in formed:
            room = yield self._open_room_write(klass, len(table.students), table.bots, rng.randrange(2**63))
            tables.append(ClassTable(room.code, list(table.students), table.bots))
        klass.rounds.append(tables)
        try:
            yield self._save_write(klass)
        except BaseException:
            klass.rounds.pop()
            raise
        return tables

    def _open_room_write(self, klass: SchoolClass, students: int, bots: int, seed: int) -> Write[Room]:
        """A room of the class for `students` and then `bots` seats."""
        return self._commit_write(self.hall.create_room_change(klass.package, students + bots, seed=seed,
                                               bots={seat: klass.bot for seat in range(students, students + bots)},
                                               **klass.room_options))

    async def start_now(self, code: str) -> list[str]:
        """Every table started now (`start_now_plan`)."""
        return await self._done(code, self.start_now_plan(code))

    def start_now_plan(self, code: str) -> Plan[list[str]]:
        """Every table of the round that has not started starts now: the class's bot takes each seat whose student
        has not sat (a phone that never came), and that student waits for the next round (`seat_of`). Returns the
        students a bot replaced."""
        klass = self.find(code)
        replaced = []
        for table in klass.tables:
            room = self.hall.room(table.room)
            if room.started or room.closed:
                continue
            for seat, name in enumerate(table.students):
                if not room.seats[seat].filled:
                    yield self._commit_write(self.hall.seat_bot_change(room.code, seat, klass.bot))
                    replaced.append(name)
        return replaced

    def winners(self, klass: SchoolClass, round_index: int) -> list[str]:
        """The students who won their game in round `round_index` (0 the first), table by table."""
        names = []
        for table in klass.rounds[round_index]:
            state = self.hall.room(table.room).state
            if state is not None and state.is_over:
                names += [table.students[seat] for seat in state.winners if seat < len(table.students)]
        return names

    def scores(self, code: str) -> dict[str, float]:
        """Each student's running score: the sum of their returns over the games of every round that are over
        (each finished game's returns read once: a dashboard asking every few seconds wakes no sleeping room)."""
        klass = self.find(code)
        totals = {student.name: 0.0 for student in klass.students}
        for tables in klass.rounds:
            for table in tables:
                returns = self._returns.get(table.room)
                if returns is None:
                    state = self.hall.room(table.room).state
                    if state is None or not state.is_over:
                        continue
                    seats = self.hall.room(table.room).seats
                    returns = self._returns[table.room] = tuple(
                        0.0 if seats[seat].bot is not None else value for seat, value in enumerate(state.returns()))
                for seat, name in enumerate(table.students):
                    totals[name] += returns[seat]
        return totals

    # ---------------------------------------------------------------- the students'

    async def join(self, code: Any, name: Any) -> Student:
        """A student joins (`join_plan`)."""
        return await self._done(code, self.join_plan(code, name))

    def join_plan(self, code: Any, name: Any) -> Plan[Student]:
        """A student typed the class code and a name: a student of its class list arrives (the first to give a
        listed name), anyone else joins a class that has no list. Once a round has tables, the newcomer joins one
        that has not started and has a seat to spare (`late_join`), else waits for the next round."""
        klass = self.find(code)
        text = clean_name(name)
        student = klass.student(text)
        undo: Callable[[], None]
        if student is not None and not student.arrived:
            student.arrived = True
            undo = lambda: setattr(student, "arrived", False)  # noqa: E731
        elif student is not None:
            raise Refused("name_taken", f"{quote(text)} is already in this class: pick another name. If it is you, "
                          "open your own link again, or ask your teacher for it.", 409,
                          fr=f"{quote(text)} est déjà dans cette classe : choisissez un autre nom. Si c'est vous, "
                          "rouvrez votre propre lien, ou demandez-le à l'enseignant.")
        elif any(other.listed for other in klass.students):
            raise Refused("not_listed", f"{quote(text)} is not on this class's list: type your name as your teacher "
                          "wrote it, or ask for your link.", 403,
                          fr=f"{quote(text)} n'est pas sur la liste de cette classe : tapez votre nom comme "
                          "l'enseignant l'a écrit, ou demandez votre lien.")
        else:
            student = Student(text, new_token())
            klass.students.append(student)
            self._tokens[student.token] = (klass, student)
            undo = lambda: self._leave(klass, student)  # noqa: E731
        if klass.rounds and klass.table_of(student.name) is None:
            yield from self._join_late_plan(klass, student)
        try:
            yield self._save_write(klass)
        except BaseException:
            if klass.table_of(student.name) is None:  # seated late, the student keeps the seat its room holds
                undo()
            raise
        return student

    def _leave(self, klass: SchoolClass, student: Student) -> None:
        """A new student whose join could not be stored, taken out of the class again."""
        klass.students.remove(student)
        self._tokens.pop(student.token, None)

    def _join_late_plan(self, klass: SchoolClass, student: Student) -> Plan[None]:
        """The late `student` at the table `late_join` picks: its room opened anew one seat larger (a room's
        seats are fixed), the students who sat there seated again, the old room closed; else they wait."""
        _, high, _ = games.player_range(klass.package)
        rooms = [self.hall.room(table.room) for table in klass.tables]
        index = late_join([TableNow(len(room.seats), room.started or room.closed) for room in rooms], high)
        if index is None:
            return None
        table, old = klass.tables[index], rooms[index]
        new = yield self._open_room_write(klass, len(table.students) + 1, table.bots, old.seed)
        for seat, name in enumerate(table.students):
            if old.seats[seat].filled:
                yield self._claim_write(new.seats[seat].token, name)
                klass.moved[old.seats[seat].token] = name
        for listener in self.moved_listeners:
            listener(klass, old)
        yield self._commit_write(self.hall.close_change(old.code))
        table.room = new.code
        table.students.append(student.name)

    def moved_student(self, seat_token: Any) -> tuple[SchoolClass, Student] | None:
        """The class and student whose seat a late join replaced, for the old seat's token (else None)."""
        for klass in self.classes.values():
            name = klass.moved.get(seat_token) if isinstance(seat_token, str) else None
            student = klass.student(name) if name is not None else None
            if student is not None:
                return klass, student
        return None

    def seat_student(self, room_code: str, seat: int) -> tuple[SchoolClass, Student] | None:
        """The class and student at seat `seat` of room `room_code` in its class's current round, or None (a
        room of no class, a bot's seat)."""
        for klass in self.classes.values():
            for table in klass.tables:
                if table.room == room_code and 0 <= seat < len(table.students):
                    student = klass.student(table.students[seat])
                    return None if student is None else (klass, student)
        return None

    def extra_time(self, room_code: str, seat: int) -> float:
        """The seconds the teacher added to the move time of the student at this seat (0 for anyone else)."""
        found = self.seat_student(room_code, seat)
        return 0.0 if found is None else found[1].extra_time

    async def extend(self, code: str, name: Any, seconds: Any) -> Student:
        """A student's extra time (`extend_plan`)."""
        return await self._done(code, self.extend_plan(code, name, seconds))

    def extend_plan(self, code: str, name: Any, seconds: Any) -> Plan[Student]:
        """The student `name` of class `code` gets `seconds` more for each move from now on, in this round and
        the next ones (0 takes it back), up to `MAX_EXTRA_TIME`."""
        klass = self.find(code)
        student = klass.student(name) if isinstance(name, str) else None
        if student is None:
            raise Refused("unknown_student", f"No student {quote(str(name))} is in this class.", 404,
                          fr=f"Aucun élève {quote(str(name))} dans cette classe.")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or \
                not 0 <= seconds <= MAX_EXTRA_TIME:
            raise Refused("bad_request", f"Extra time is a number of seconds from 0 to {MAX_EXTRA_TIME:.0f}, not "
                          f"{quote(repr(seconds))}.")
        before, student.extra_time = student.extra_time, float(seconds)
        try:
            yield self._save_write(klass)
        except BaseException:
            student.extra_time = before
            raise
        return student

    def student_of(self, token: Any) -> tuple[SchoolClass, Student]:
        """The class and student a personal token is for, or `Refused`."""
        found = self._tokens.get(token) if isinstance(token, str) else None
        if found is None:
            raise Refused("unknown_token", "No student of a class has this link: check it, or ask your teacher.", 404,
                          fr="Aucun élève d'une classe n'a ce lien : vérifiez-le, ou demandez-le à l'enseignant.")
        return found

    def seat_of(self, token: Any) -> tuple[Room, TableSeat] | None:
        """The room and seat of this round the student of a personal token has (their own, never another's), or
        None while they wait for a table (or a bot took their seat: `start_now_plan`)."""
        klass, student = self.student_of(token)
        found = klass.table_of(student.name)
        if found is None:
            return None
        table, seat = found
        room = self.hall.room(table.room)
        return None if room.seats[seat].bot is not None else (room, room.seats[seat])

    async def sit(self, token: Any) -> tuple[Room, TableSeat]:
        """A student sits (`sit_plan`)."""
        return await self._done(self.student_of(token)[0].code, self.sit_plan(token))

    def sit_plan(self, token: Any) -> Plan[tuple[Room, TableSeat]]:
        """The student of a personal token sits at their seat under their class name (the table's game starts
        once every seat is filled); sitting again where they already sit changes nothing. `Refused` while they
        wait for a table."""
        _, student = self.student_of(token)
        found = self.seat_of(token)
        if found is None:
            raise Refused("waiting", "Your table is not ready yet: wait for the next round.", 409,
                          fr="Votre table n'est pas encore prête : attendez la prochaine manche.")
        room, seat = found
        if seat.name == student.name:
            return room, seat
        return (yield self._claim_write(seat.token, student.name))
