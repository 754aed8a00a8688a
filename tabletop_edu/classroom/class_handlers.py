"""A whole class over the web: one code joins the class, a waiting page leads each student to their own seat, and
the teacher's JSON API opens, seats and follows every table of it.

Addresses (a class code has `CLASS_CODE_LENGTH` letters, a room code one fewer, so one join form serves both):

- `/`, `/j/CODE` and `POST /join`: the join page of `handlers.JoinPage`, which sends a class's code to the class
  (`ClassDesk.join`) and a room's code on to the room as before. `/j/CLASSCODE` is in the class's language
  before anything is typed.
- `/c/TOKEN`: a student's personal class link, their own and nobody else's: the waiting page until their table is
  formed, then their seat's page. `POST /c/TOKEN/seat` (JSON) is the waiting page's long poll: it answers at
  once with the seat's address once the student has a table (sitting them down under their class name), or after
  `WAIT_POLL` seconds or the start of a round with `{"waiting": true}`.
- `/api/classes` (teacher's token, as the rooms' API): `GET` the classes, `POST` a new one;
  `/api/classes/CODE`: its students (with their personal links) and tables; `/overview`: every table at a glance
  (step, whose turn, waiting since, offline seats, done); `/debrief`: the debrief of the whole class (`{"html",
  "link", "rounds"}`, `?lang=`); `POST .../start_round`, `.../pause`, `.../resume`.
- `/debrief/TEACHER_TOKEN/CODE`: the class's debrief as a page for the teacher's browser and the projector
  (`debrief_page.class_debrief_html`, pooled over every table and round), in the class's language or `?lang=`.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from typing import Any

from markupsafe import Markup

from ..i18n import register, tr
from . import games
from .classes import CLASS_CODE_LENGTH, ClassDesk, SchoolClass, Student
from .commits import stored
from .debrief_page import class_debrief_html
from .handlers import Api, Base, JoinPage, Server
from .pages import page
from .rooms import MAX_NAME_UTF16, Refused, Room, name_key

#: Seconds a waiting page's poll is held open when the student has no table yet (it asks again at once).
WAIT_POLL = 20.0
#: The options of a class a teacher's `POST /api/classes` may set (`ClassDesk.open_class`).
CLASS_FIELDS = frozenset({"game", "preferred", "fill", "placement", "regroup", "students", "seed", "bot", "rules",
                          "language", "bot_delay", "beliefs", "scoring", "move_time_limit"})

register({
    "en": {"klass.join": "Join your class", "klass.code": "Class code",
           "klass.waiting_title": "You are in the class",
           "klass.hello": "Hello", "klass.wait": "Wait here: your teacher is forming the tables. This page opens "
                                                 "your seat by itself.",
"klass.your_link": "Your own link",
           "klass.link_help": "It brings you back to your seat (keep it; share it with nobody).",
           "klass.opening": "Your table is ready: opening your seat…",
           "klass.retry": "Connection lost: trying again…"},
    "fr": {"klass.join": "Rejoindre votre classe", "klass.code": "Code de la classe",
           "klass.waiting_title": "Vous êtes dans la classe",
           "klass.hello": "Bonjour", "klass.wait": "Attendez ici : l'enseignant forme les tables. Cette page ouvre "
                                                  "votre place toute seule.",
"klass.your_link": "Votre lien personnel",
           "klass.link_help": "Il vous ramène à votre place (gardez-le ; ne le donnez à personne).",
           "klass.opening": "Votre table est prête : ouverture de votre place…",
           "klass.retry": "Connexion perdue : nouvel essai…"},
})


def is_class_code(code: str) -> bool:
    """Whether `code` has a class code's length (a room code is shorter)."""
    return len(code.strip()) == CLASS_CODE_LENGTH


class ClassBase(Base):
    """A handler of the class's pages: the server and its `ClassDesk`."""

    desk: ClassDesk

    def initialize(self, server: Server, desk: ClassDesk) -> None:  # type: ignore[override]
        super().initialize(server)
        self.desk = desk

    def class_language(self, klass: SchoolClass) -> str:
        """The language asked for in the address, else the class's."""
        value = self.get_query_argument("lang", None)
        return value if value in ("en", "fr") else str(klass.room_options.get("language") or "en")


class ClassJoinPage(ClassBase, JoinPage):
    """The join page for rooms and classes: a class's code and a name join the class and lead to the student's
    personal link; a room's code goes on to the room (`JoinPage`). A browser whose waiting page kept its personal
    token under the class code (class.js) sends it back and goes to its own link without a name."""

    def join_language(self, code: str) -> str:
        klass = self.desk.classes.get(code.strip().upper()) if is_class_code(code) else None
        return super().join_language(code) if klass is None else self.class_language(klass)

    def form(self, code: str = "", name: str = "", error: str = "", forget: str = "") -> str:
        language = self.join_language(code)
        words = {"heading": tr("klass.join", language), "code_label": tr("klass.code", language)} \
            if code.strip().upper() in self.desk.classes else {}
        return page("join.html", language, page_title="tabletop_edu", code=code, name=name, error=error,
                    forget=forget, lang_query=self.chosen(), xsrf=self.xsrf_token.decode("ascii"),
                    max_name=MAX_NAME_UTF16, **words)

    async def post(self) -> None:
        code = self.get_body_argument("code", "")[:16]
        if not is_class_code(code):
            await super().post()
            return
        name = self.get_body_argument("name", "")[:200]
        kept = self.get_body_argument("seat", "")[:100]
        student = self.returning_student(code, kept, name) if kept else None
        if student is not None:
            self.redirect(f"/c/{student.token}{self.chosen()}", status=303)
            return
        forget = code.strip().upper() if kept and not name.strip() else ""
        client = self.request.remote_ip or ""
        try:
            self.server.guesses.check(client)
            student = await stored(lambda: self.desk.join(code, name))
        except Refused as refusal:
            if refusal.code == "unknown_class":
                self.server.guesses.missed(client)
            self.refused_form(refusal, code, name, forget)
            return
        self.redirect(f"/c/{student.token}{self.chosen()}", status=303)

    def returning_student(self, code: str, token: str, name: str) -> Student | None:
        """The student of `token`, if it is a personal token of the class `code` and `name` is empty or theirs."""
        try:
            klass, student = self.desk.student_of(token)
        except Refused:
            return None
        same = not name.strip() or name_key(" ".join(name.split())) == name_key(student.name)
        return student if klass.code == code.strip().upper() and same else None


class ClassWaitPage(ClassBase):
    """A student's personal link: their seat's page once they sit at a table of this round, else the waiting
    page, which sits them down and moves there as soon as their table is formed."""

    def get(self, token: str) -> None:
        try:
            klass, student = self.desk.student_of(token)
        except Refused as refusal:
            self.notice(refusal)
            return
        language = self.class_language(klass)
        found = self.desk.seat_of(token)
        if found is not None and found[1].name == student.name:
            self.redirect(f"/s/{found[1].token}?lang={language}", status=303)
            return
        self.finish(page("class_wait.html", language, page_title=tr("klass.waiting_title", language),
                         code=klass.code, name=student.name, token=token,
                         link=f"{self.server.public_url}/c/{token}"))


class ClassSeatApi(ClassBase, Api):
    """The waiting page's long poll: `{"seat": address}` once the student has a table (and sits there), else
    `{"waiting": true}` after `WAIT_POLL` seconds or the start of a round."""

    teacher_only = False

    async def post(self, token: str) -> None:
        try:
            klass, _ = self.desk.student_of(token)
            if self.desk.seat_of(token) is None:
                await self.desk.wait_for_round(klass.code, WAIT_POLL)
            if self.desk.seat_of(token) is None:
                self.reply({"waiting": True})
                return
            _, seat = await stored(lambda: self.desk.sit(token))
        except Refused as refusal:
            self.refused(refusal)
            return
        self.reply({"seat": f"/s/{seat.token}?lang={self.class_language(klass)}"})


# ------------------------------------------------------------------------------------------ the teacher's


class ClassApiBase(ClassBase, Api):
    """The teacher's JSON API of classes (teacher token), each class as `class_message` tells it."""

    def class_message(self, klass: SchoolClass) -> dict[str, Any]:
        """A class for the teacher: its options, links, students (with their personal links) and tables."""
        seats = {name: (table.room, seat) for table in klass.tables for seat, name in enumerate(table.students)}
        public = self.server.public_url
        return {"type": "class", "code": klass.code, "game": klass.package, "title": games.title(klass.package),
                "language": klass.room_options.get("language") or "en", "preferred": klass.preferred,
                "fill": klass.fill, "placement": klass.placement, "regroup": klass.regroup, "bot": klass.bot,
                "round": len(klass.rounds), "join_url": f"{public}/j/{klass.code}", "public_url": public,
                "students": [{"name": student.name, "arrived": student.arrived, "listed": student.listed,
                              "link": f"{public}/c/{student.token}",
                              "room": seats.get(student.name, (None, None))[0],
                              "seat": seats.get(student.name, (None, None))[1]} for student in klass.students],
                "tables": [{"room": table.room, "students": list(table.students), "bots": table.bots}
                           for table in klass.tables]}


class ClassesApi(ClassApiBase):
    def get(self) -> None:
        self.reply({"classes": [self.class_message(klass) for klass in self.desk.classes.values()]})

    async def post(self) -> None:
        try:
            data = self.body()
            unknown = sorted(set(data) - CLASS_FIELDS)
            if unknown:
                raise Refused("bad_request", f"Unknown field(s) {', '.join(unknown)[:100]}.")
            students = data.get("students")
            if students is not None and not (isinstance(students, list) and
                                             all(isinstance(name, str) for name in students)):
                raise Refused("bad_request", "students is a list of names.")
            options = {key: value for key, value in data.items() if key != "game"}
            try:
                klass = await stored(lambda: self.desk.open_class(data.get("game", ""), **options))
            except ValueError as error:
                raise Refused("bad_request", str(error)[:300]) from None
        except Refused as refusal:
            self.refused(refusal)
            return
        self.set_status(201)
        self.reply(self.class_message(klass))


class ClassApi(ClassApiBase):
    async def get(self, code: str, what: str | None = None) -> None:
        try:
            klass = self.desk.find(code)
        except Refused as refusal:
            self.refused(refusal)
            return
        if what == "overview":
            self.reply(self.overview(klass))
        elif what == "debrief":
            html = await class_debrief(self.server, klass, self.class_language(klass))
            link = f"{self.server.public_url}/debrief/{self.hall.teacher_token}/{klass.code}"
            rounds = [[table.room for table in tables] for tables in klass.rounds]
            self.reply({"html": html, "link": link, "rounds": rounds})
        elif what is None:
            self.reply(self.class_message(klass))
        else:
            self.refused(Refused("bad_request", "Unknown address.", 404))

    async def post(self, code: str, what: str | None = None) -> None:
        try:
            data = self.body()
            klass = self.desk.find(code)
            if what == "start_round":
                await stored(lambda: self.desk.start_round(klass.code, data.get("regroup")))
            elif what in ("pause", "resume"):
                await self.pause_all(klass, what == "pause")
            else:
                raise Refused("bad_request", "Unknown command.", 404)
        except Refused as refusal:
            self.refused(refusal)
            return
        self.reply(self.class_message(klass))

    async def pause_all(self, klass: SchoolClass, paused: bool) -> None:
        """Every open table of the round paused (or resumed), one teacher's change at a time."""
        hall = self.hall
        async with self.server.controls:
            for table in klass.tables:
                room = hall.room(table.room)
                if room.closed or room.paused == paused:
                    continue
                if not paused:
                    self.server.errors.pop(room.code, None)
                await stored(lambda code=room.code: hall.set_paused(code, paused))  # type: ignore[misc]

    def overview(self, klass: SchoolClass) -> dict[str, Any]:
        """Every table of the round at a glance, and the students still waiting for one."""
        now = time.time()
        seated = {name for table in klass.tables for name in table.students}
        return {"code": klass.code, "round": len(klass.rounds),
                "tables": [self.table_line(self.hall.room(table.room), table.students, now)
                           for table in klass.tables],
                "waiting": [student.name for student in klass.students
                            if student.arrived and student.name not in seated]}

    def table_line(self, room: Room, students: list[str], now: float) -> dict[str, Any]:
        """One table: its step, whose turn it is, since when (seconds since the last move, or since the start),
        its students' seats with no page open, and whether it is done."""
        state = room.state
        acting = list(state.acting_seats) if state is not None and not state.is_over else []
        last = room.actions[-1].at if room.actions else None
        return {"room": room.code, "number": room.number, "students": list(students), "seats": len(room.seats),
                "sat": sum(seat.filled for seat in room.seats), "started": room.started, "step": room.step,
                "turn": [room.seats[seat].name for seat in acting], "waiting_since": last,
                "waiting_seconds": None if last is None or not acting else round(now - last, 1),
                "offline": [seat.name or f"#{seat.number}" for seat in room.seats[:len(students)]
                            if seat.bot is None and self.server.seat_connections(room, seat.number) == 0],
                "done": room.is_over, "paused": room.paused, "closed": room.closed}


async def class_debrief(server: Server, klass: SchoolClass, language: str) -> str:
    """The whole class's debrief in `language`: its tables' games read on the loop, the page built in a thread
    (the games' own tables replay each game: seconds for Commissario)."""
    rounds = [[table.room for table in tables] for tables in klass.rounds]
    games_now, own, unfinished = server.class_games([code for codes in rounds for code in codes])
    scoring = str(klass.room_options.get("scoring") or "brier")
    return await asyncio.get_running_loop().run_in_executor(None, lambda: class_debrief_html(
        games_now, language, scoring=scoring, rounds=rounds, own=own, unfinished=unfinished,
        title=games.title(klass.package)))


class ClassDebriefPage(ClassBase):
    """The class's debrief for the teacher's browser (and the projector): the teacher's token in the address."""

    async def get(self, token: str, code: str) -> None:
        if not hmac.compare_digest(token.encode("utf-8", "replace"), self.hall.teacher_token.encode("ascii")):
            self.notice(Refused("forbidden", "The teacher's token is needed.", 403))
            return
        try:
            klass = self.desk.find(code)
        except Refused as refusal:
            self.notice(refusal)
            return
        language = self.class_language(klass)
        html = await class_debrief(self.server, klass, language)
        self.finish(page("class_debrief.html", language, page_title=games.title(klass.package),
                         debrief=Markup(html), body_class="class-debrief-page"))


def class_routes(server: Server, desk: ClassDesk) -> list[tuple[str, type] | tuple[str, type, dict[str, Any]]]:
    """The addresses of the classes of `desk`, routed before `handlers.routes` (its join page answers for rooms
    too)."""
    options = {"server": server, "desk": desk}
    token = r"(?P<token>[A-Za-z0-9_\-]{1,64})"
    code = r"(?P<code>[A-Za-z0-9]{1,8})"
    return [
        (r"/", ClassJoinPage, options),
        (rf"/j/{code}", ClassJoinPage, options),
        (r"/join", ClassJoinPage, options),
        (rf"/c/{token}", ClassWaitPage, options),
        (rf"/c/{token}/seat", ClassSeatApi, options),
        (r"/api/classes", ClassesApi, options),
        (rf"/api/classes/{code}", ClassApi, options),
        (rf"/api/classes/{code}/(?P<what>[a-z_]{{1,20}})", ClassApi, options),
        (rf"/debrief/(?P<token>[A-Za-z0-9_\-]{{1,100}})/{code}", ClassDebriefPage, options),
    ]

