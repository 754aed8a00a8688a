"""The teacher's class dashboard over the web: its page, the levers for every table, the message, the data out.

Addresses (the API takes the teacher's token as the rooms' API does; routed before `class_handlers.class_routes`):

- `/t/CODE`: the class dashboard page. It holds no secret: its script reads the teacher's token from the
  address's fragment (`#token`, which no browser sends to a server nor logs), keeps it in the tab's session
  storage, takes it off the address bar, and asks the API below.
- `GET /api/classes/CODE/board?lang=xx`: the overview with what the dashboard draws of each table (the seats to
  play, beliefs counted per table, the projector's address, each student's score and extra time, the message),
  and that drawn (`class_overview.board_html`).
- `POST /api/classes/CODE/start_now` (every table not started starts, bots for the students who have not sat,
  who wait for the next round); `.../reveal_all`; `.../play_for` `{"room", "seat"}` (the game's time-up bot plays a stuck
  student's move now); `.../extend` `{"student", "seconds"}` (extra time for each of their moves, WCAG 2.2.1;
  a move due now gets its time anew); `.../note` `{"text"}` (the message to every student, stored first).
- `GET /api/classes/CODE/data` (the rows as JSON, `class_data.class_rows`) and `.../download` (them as a zip of
  CSV files).
- `POST /note` `{"token", "seen": n}` (a seat's or a student's personal token, in the body: no log keeps it): a
  student page's long poll for the class's message (`class_notes`), answered once a newer one is stored or after `NOTE_POLL` seconds.
"""

from __future__ import annotations

import time
from typing import Any

from ..i18n import tr
from .class_data import class_rows, class_zip
from .class_handlers import ClassApi, ClassBase
from .class_notes import ClassNotes
from .class_overview import board_html, levers_html
from .classes import ClassDesk, SchoolClass
from .commits import stored
from .handlers import Api, Server
from .pages import language_of, page
from .records import between_rooms, room_record
from .rooms import Refused

#: Seconds a student page's poll for the message is held open.
NOTE_POLL = 25.0


class ClassTeacherApi(ClassApi):
    """The dashboard's own part of the class API (`ClassApi`'s overview, with what the dashboard draws)."""

    notes: ClassNotes

    def initialize(self, server: Server, desk: ClassDesk, notes: ClassNotes) -> None:  # type: ignore[override]
        super().initialize(server, desk)
        self.notes = notes

    def board(self, klass: SchoolClass) -> dict[str, Any]:
        """`overview` and, per table, its seats to play, beliefs stated (a count for the table) and projector;
        the students with their table, running score and extra time; the class's message."""
        overview = self.overview(klass)
        public = self.server.public_url
        for line, table in zip(overview["tables"], klass.tables):
            room = self.hall.room(table.room)
            state = room.state
            line["turn_seats"] = list(state.acting_seats) if state is not None and not state.is_over else []
            line["beliefs"] = None if room.scoring is None else len(room.beliefs)
            line["watch_url"] = f"{public}/w/{room.watch_token}"
        tables = {name: index for index, table in enumerate(klass.tables, start=1) for name in table.students}
        scores = self.desk.scores(klass.code)
        overview["students"] = [{"name": student.name, "table": tables.get(student.name),
                                 "score": round(scores.get(student.name, 0.0), 2),
                                 "extra_time": student.extra_time}
                                for student in klass.students if student.arrived]
        overview["note"] = self.notes.note(klass.code).to_json()
        return overview

    async def get(self, code: str, what: str | None = None) -> None:  # Tornado awaits it
        try:
            klass = self.desk.find(code)
            if what == "board":
                overview = self.board(klass)
                language = language_of(self.get_query_argument("lang", None))
                self.reply({"overview": overview, "html": board_html(overview, language, levers=True)})
            elif what == "data":
                self.reply(await self.rows(klass))
            elif what == "download":
                data = class_zip(klass, await self.rows(klass))
                self.set_header("Content-Type", "application/zip")
                self.set_header("Content-Disposition", f'attachment; filename="class-{klass.code}.zip"')
                self.finish(data)
            else:
                raise Refused("bad_request", "Unknown address.", 404)
        except Refused as refusal:
            self.refused(refusal)

    async def rows(self, klass: SchoolClass) -> dict[str, list[dict[str, Any]]]:
        """The class's rows of each kind, its rooms' records read one at a time (the class plays on)."""
        records = []
        for tables in klass.rounds:
            for table in tables:
                room = self.hall.rooms.get(table.room) or self.hall.sleeping(table.room)
                if room is not None and room.state is not None:
                    records.append(room_record(room))
                await between_rooms()
        return class_rows(klass, records)

    async def post(self, code: str, what: str | None = None) -> None:
        try:
            data = self.body()
            klass = self.desk.find(code)
            if what == "note":
                await self.notes.announce(klass.code, data.get("text", ""))
            elif what == "extend":
                await self.extend(klass, data.get("student"), data.get("seconds"))
            else:
                async with self.server.controls:
                    if what == "start_now":
                        await stored(lambda: self.desk.start_now(klass.code))
                    elif what == "reveal_all":
                        await self.reveal_all(klass)
                    elif what == "play_for":
                        await self.play_for(klass, data.get("room"), data.get("seat"))
                    else:
                        raise Refused("bad_request", "Unknown command.", 404)
        except Refused as refusal:
            self.refused(refusal)
            return
        self.reply(self.board(klass))

    async def reveal_all(self, klass: SchoolClass) -> None:
        """Every finished table of the round revealed (the others play on)."""
        hall = self.hall
        for table in klass.tables:
            room = hall.room(table.room)
            if room.is_over and not room.revealed and not room.closed:
                await stored(lambda code=room.code: hall.reveal(code))  # type: ignore[misc]

    async def play_for(self, klass: SchoolClass, code: Any, seat: Any) -> None:
        """The game's time-up bot plays the move due at a student's seat of one of the class's tables, now."""
        if code not in {table.room for table in klass.tables} or isinstance(seat, bool) or not isinstance(seat, int):
            raise Refused("bad_request", "play_for names a table of this round (room) and its seat.")
        action = await self.server.time_up(code, seat)  # type: ignore[attr-defined]
        if action is None:
            raise Refused("not_your_turn", f"No student's move is due at seat {seat} now.", 409,
                          fr=f"Aucun coup d'élève n'est attendu à la place {seat} maintenant.")

    async def extend(self, klass: SchoolClass, name: Any, seconds: Any) -> None:
        """A student's extra time; the move due at their seat now, if any, gets its time anew."""
        student = await stored(lambda: self.desk.extend(klass.code, name, seconds))
        found = klass.table_of(student.name)
        if found is not None:
            self.server.restart_deadline(self.hall.room(found[0].room), found[1])  # type: ignore[attr-defined]


class ClassDashboardPage(ClassBase):
    """The class dashboard's page: the levers, then the board its script asks for every few seconds."""

    def get(self, code: str) -> None:
        try:
            klass = self.desk.find(code)
        except Refused as refusal:
            self.notice(refusal)
            return
        language = self.class_language(klass)
        overview = {"round": len(klass.rounds), "tables": [], "note": self.notes.note(klass.code).to_json()}
        self.finish(page("class_dashboard.html", language, page_title=tr("cdash.title", language),
                         code=klass.code, levers=levers_html(overview, language),
                         body_class="class-dashboard", missing=tr("cdash.token_missing", language)))

    def initialize(self, server: Server, desk: ClassDesk, notes: ClassNotes) -> None:  # type: ignore[override]
        super().initialize(server, desk)
        self.notes = notes


class ClassNoteApi(ClassBase, Api):
    """A student page's long poll for the class's message: its seat's token or the student's personal token."""

    teacher_only = False

    def initialize(self, server: Server, desk: ClassDesk, notes: ClassNotes) -> None:  # type: ignore[override]
        super().initialize(server, desk)
        self.notes = notes

    def class_of(self, token: Any) -> SchoolClass:
        """The class a seat's or a student's token is of, or `Refused` (a room of no class)."""
        try:
            return self.desk.student_of(token)[0]
        except Refused:
            pass
        room, _ = self.hall.seat_of(token)
        for klass in self.desk.classes.values():  # a table of any round: its page shows the reveal meanwhile
            if any(table.room == room.code for tables in klass.rounds for table in tables):
                return klass
        raise Refused("no_class", "This seat is of no class.", 404)

    async def post(self) -> None:
        try:
            data = self.body()
            klass = self.class_of(data.get("token"))
            seen = data.get("seen", 0)
            note = await self.notes.wait(klass.code, seen if isinstance(seen, int) else 0, NOTE_POLL)
        except Refused as refusal:
            self.refused(refusal)
            return
        language = language_of(self.get_query_argument("lang", None), str(klass.room_options.get("language") or "en"))
        self.reply({**note.to_json(), "title": tr("cnote.title", language), "since": tr("cnote.since", language),
                    "at_text": time.strftime("%H:%M", time.localtime(note.at)) if note.at else ""})


def class_teacher_routes(server: Server, desk: ClassDesk,
                         notes: ClassNotes) -> list[tuple[str, type] | tuple[str, type, dict[str, Any]]]:
    """The dashboard's addresses, routed before `class_handlers.class_routes` (whose API answers the others)."""
    options = {"server": server, "desk": desk, "notes": notes}
    code = r"(?P<code>[A-Za-z0-9]{1,8})"
    return [
        (rf"/t/{code}", ClassDashboardPage, options),
        (rf"/api/classes/{code}/(?P<what>board|data|download|start_now|reveal_all|play_for|extend|note)", ClassTeacherApi,
         options),
        (r"/note", ClassNoteApi, options),
    ]
