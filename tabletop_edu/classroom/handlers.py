"""The class server's web transport: a Tornado handler for each address, and the table that routes them.

One idea, every handler of the server (over 600 lines): the pages, their websockets and the teacher's JSON API
share their checks (tokens, languages, refusals), headers and logs.

Addresses (tokens are `secrets.token_urlsafe`):

- `/` and `/j/CODE`: the join page (room code and name); `POST /join` seats the student at a free seat and
  sends them on to their seat's link.
- `/s/TOKEN`: a seat's page (first a name form if the seat is empty); `/ws/seat/TOKEN` its websocket
  (`?view=1`: each table message also carries the seat's view as data and its legal moves' notation, for a
  student's bot: `classroom.join`).
- `/w/TOKEN`: the projector (the spectator's view and how to join); `/ws/watch/TOKEN` its websocket.
- `/api/...`: the teacher's JSON API (bearer teacher token): create rooms, pause, resume, step a bot,
  reveal, close, seat or remove bots, new links, swap two seats before the start, records.
  `/ws/teacher/CODE`: the dashboard's live feed.
- `POST /api/join`: a program (a student's bot) joins a room by code and name.
- `/static/...`: the pages' script and stylesheet; `/style/tabletop.css?v=...`: the tables' stylesheet, linked
  once by every page (cached while its version holds), so that updates carry the table alone.

Messages from a seat's page are JSON objects of at most `MAX_MESSAGE` bytes: `{"type": "menu", "step": N,
"chosen": [words]}` asks for the next buttons of a move, `{"type": "move", "step": N, "action": text}` plays
it; in a room that asks beliefs, `{"type": "belief", "step": N, "key": question, "percents": {option: whole
percent}}` states a belief, answered with `{"type": "belief_received", ...}` once it is stored (see
`belief_pages`, `belief_desk.BeliefDesk`). Each connection may send `FLOOD_BURST` messages at once and
`FLOOD_RATE` a second after that (`throttles`). Anything else is refused with `{"type": "refused", "code": ...,
"message": ...}` and changes nothing.

Every page carries a Content-Security-Policy that lets it load nothing but this server's own files and open
no connection elsewhere: a class works offline, and a name smuggling markup could not run a script anyway.
Messages are deflated when the browser offers it (`LiveSocket`), and what waits for a socket is bounded (`outbox`).
A link opens at most `MAX_CONNECTIONS_PER_SEAT` or `MAX_CONNECTIONS_PER_PROJECTOR` sockets; no log line holds a
token (`redacted`); a path no file has is a 404.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, cast

import tornado.web
import tornado.websocket

from ..i18n import tr
from ..templates import stylesheet
from . import games
from .commits import STORAGE_RETRIES, STORAGE_RETRY_DELAY, stored
from .connections import CLOSE_FLOOD, CLOSE_SLOW, SLOW_REASON, Connection
from .hall import Hall
from .outbox import Outbox
from .pages import MAX_WORD, MAX_WORDS, language_of, menu_message, page, qr_svg, refusal_text, style_version
from .records import record_texts
from .rooms import MAX_NAME_CODE_POINTS, MAX_NAME_UTF16, Change, Refused, Room, TableSeat, name_key
from .throttles import GuessThrottle, TokenBucket
from .turns import RoomErrors
from .waits import MoveWaits

log = logging.getLogger("tabletop_edu.classroom")

STATIC = Path(__file__).with_name("static")
#: The longest message a page may send (a move is a few words).
MAX_MESSAGE = 2048
#: Past this, Tornado closes the connection itself (code 1009).
MAX_FRAME = 64 * 1024
MAX_BODY = 64 * 1024
#: A connection that keeps flooding after this many refusals is closed.
FLOOD_CLOSE = 100
#: Open connections per seat (a phone and a laptop, a reload that overlaps the old page).
MAX_CONNECTIONS_PER_SEAT = 8
#: Open connections per projector link (the projector, the teacher's laptop, a few screens at the back).
MAX_CONNECTIONS_PER_PROJECTOR = 16
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Server(Protocol):
    """The class server as its handlers use it (`server.ClassServer`, which imports this module to route requests
    here: named by what it does, so that this module does not import it back)."""

    hall: Hall | None
    loop: asyncio.AbstractEventLoop | None
    guesses: GuessThrottle
    controls: asyncio.Lock
    move_waits: MoveWaits
    flood: tuple[int, float]
    compression: bool
    heartbeat: float | None
    errors: dict[str, RoomErrors]

    @property
    def public_url(self) -> str: ...

    def seat_link(self, seat: TableSeat) -> str: ...

    def join_link(self, room: Room) -> str: ...

    def connect(self, connection: Connection) -> None: ...

    def disconnect(self, connection: Connection) -> None: ...

    def seat_connections(self, room: Room, seat: int) -> int: ...

    def watch_connections(self, room: Room) -> int: ...

    def table_for(self, room: Room, seat: int | None, language: str, with_view: bool = False,
                  shown: tuple[Any, ...] | None = None) -> dict[str, Any]: ...

    def send_table(self, room: Room, connection: Connection) -> None: ...

    async def tables_sent(self, room: Room) -> None: ...

    def teacher_message(self, room: Room) -> dict[str, Any]: ...

    def belief_stated(self, room: Room, seat: int, row: Any) -> None: ...

    def class_games(self, codes: Sequence[str]) -> tuple[Any, dict[str, list[Any]], int]: ...

    async def step_bot(self, room: Room) -> tuple[int, str]: ...


#: The addresses whose next part is a credential (a seat's, the projector's, a student's class token, or the
#: teacher's in a class debrief's link).
_TOKEN_PATH = re.compile(r"/(s|w|c|debrief|ws/seat|ws/watch)/[^/?#\s]*")
_QUERY = re.compile(r"\?\S*")


def redacted(text: str) -> str:
    """A request's path (or a line naming one) as a log may show it: any seat's or projector's token cut
    out, queries dropped."""
    return _TOKEN_PATH.sub(r"/\1/<token>", _QUERY.sub("", text))[:300]


def _quiet_log(handler: tornado.web.RequestHandler) -> None:
    """Log failures only, and never a token: seat links carry them, so paths are redacted."""
    status = handler.get_status()
    if status >= 500:
        log.error("%d %s %s", status, handler.request.method, redacted(handler.request.path))


class RedactedLogs:
    """Tornado logs a refused request (an XSRF failure) and an uncaught exception with its URL, which for a
    seat is its credential: these handlers log the redacted path instead, and no request headers."""

    request: Any

    def log_exception(self, kind: type[BaseException] | None, value: BaseException | None,
                      trace: TracebackType | None) -> None:
        where = f"{self.request.method} {redacted(self.request.path)}"
        if isinstance(value, tornado.web.HTTPError):
            if value.log_message:
                log.warning("%d %s: %s", value.status_code, where, redacted(cast(str, value.get_message())))
        else:
            log.error("%s failed", where, exc_info=(kind, value, trace))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ handlers


class LiveSocket(RedactedLogs, tornado.websocket.WebSocketHandler):
    """What every websocket of the server shares: its pongs answer the heartbeat (`ClassServer.beat`; Tornado's own
    pings too), what waits to be written to it is bounded (`outbox`), the server forgets it the moment it starts
    closing (`ClosingProtocol`), and its messages are compressed (permessage-deflate, which every browser offers)
    when the server says so: a table update is much like the one before, so with the compressor's context kept per
    connection it costs a few hundred bytes, not kilobytes, at about 150 KB of memory per open page."""

    connection: Connection | None = None
    server: Server
    _outbox: Outbox | None = None

    def on_pong(self, data: bytes) -> None:
        if self.connection is not None:
            self.connection.unanswered = 0

    def get_compression_options(self) -> dict[str, Any] | None:
        return {"mem_level": 6} if self.server.compression else None

    def get_websocket_protocol(self) -> tornado.websocket.WebSocketProtocol | None:
        protocol = super().get_websocket_protocol()
        if not isinstance(protocol, tornado.websocket.WebSocketProtocol13):
            return protocol
        return ClosingProtocol(self, False, protocol.params)

    @property
    def outbox(self) -> Outbox:
        if self._outbox is None:
            self._outbox = Outbox(self, lambda: self.close(CLOSE_SLOW, SLOW_REASON))
        return self._outbox

    def send(self, text: str) -> None:
        """Send `text` now, or as soon as the page has read what it was sent (`Outbox`)."""
        self.outbox.send(text)

    def queued_bytes(self) -> int:
        """The bytes the server holds for this socket (Tornado's write buffer and the messages waiting)."""
        return self.outbox.queued()

    def closing(self) -> None:
        """The connection started closing (either side, or Tornado for a ping not answered in time): the server
        forgets it now, so the dashboard shows its seat offline at once, not when the socket is gone."""
        if self.connection is not None:
            self.server.disconnect(self.connection)

    def on_close(self) -> None:
        if self._outbox is not None:
            self._outbox.clear()
        self.closing()


class ClosingProtocol(tornado.websocket.WebSocketProtocol13):
    """Tornado's websocket protocol, telling its handler (`LiveSocket.closing`) when the connection starts closing:
    Tornado then waits up to 5 s for the client's answer before it drops the socket and calls `on_close`."""

    def close(self, code: int | None = None, reason: str | None = None) -> None:
        super().close(code, reason)
        closing = getattr(self.handler, "closing", None)
        if closing is not None:
            closing()


class Base(RedactedLogs, tornado.web.RequestHandler):
    server: Server

    def initialize(self, server: Server) -> None:
        self.server = server

    @property
    def hall(self) -> Hall:
        assert self.server.hall is not None
        return self.server.hall

    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)

    @property
    def language(self) -> str:
        return language_of(self.get_query_argument("lang", None))

    def language_in(self, room: Room) -> str:
        """The language asked for in the address, else the room's."""
        return language_of(self.get_query_argument("lang", None), room.language)

    def chosen(self) -> str:
        """"?lang=xx" when the address chose a language (kept across the form's redirect), else ""."""
        value = self.get_query_argument("lang", None)
        return f"?lang={value}" if value in ("en", "fr") else ""

    def notice(self, refusal: Refused, language: str | None = None) -> None:
        language = language or self.language
        self.set_status(refusal.status)
        self.finish(page("notice.html", language, page_title="tabletop_edu", error=refusal_text(refusal, language)))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(page("notice.html", "en", page_title="tabletop_edu",
                         error=f"{status_code}: {self._reason}"))


class JoinPage(Base):
    """The join page: a room code and a name. A browser that already sat at the room sends its seat's token
    (kept by the seat's page in the browser's storage, under the room code) and goes back to its seat."""

    def get(self, code: str = "") -> None:
        self.finish(self.form(code=code.upper()[:8]))

    def form(self, code: str = "", name: str = "", error: str = "", forget: str = "") -> str:
        language = self.join_language(code)
        return page("join.html", language, page_title="tabletop_edu", code=code, name=name, error=error,
                    forget=forget, lang_query=self.chosen(), xsrf=self.xsrf_token.decode("ascii"),
                    max_name=MAX_NAME_UTF16)

    def refused_form(self, refusal: Refused, code: str, name: str, forget: str) -> None:
        """The join form again, with what the student typed and the refusal in the page's language."""
        self.set_status(refusal.status)
        self.finish(self.form(code=code, name=name[:MAX_NAME_CODE_POINTS],
                              error=refusal_text(refusal, self.join_language(code)), forget=forget))

    def join_language(self, code: str) -> str:
        """The language asked for in the address, else that of the room whose code is typed, else English."""
        room = self.hall.rooms.get(code.strip().upper())
        return self.language if room is None else self.language_in(room)

    def returning(self, code: str, token: str, name: str) -> TableSeat | None:
        """The seat `token` opens, if it is a filled seat of the room `code` (a browser coming back) and `name`
        is empty or that seat's (another student on a shared computer types their own name and joins)."""
        try:
            room, seat = self.hall.seat_of(token)
        except Refused:
            return None
        same = not name.strip() or (seat.name is not None and name_key(" ".join(name.split())) == name_key(seat.name))
        return seat if room.code == code.strip().upper() and seat.filled and same else None

    async def post(self) -> None:
        code = self.get_body_argument("code", "")[:16]
        name = self.get_body_argument("name", "")[:200]
        kept = self.get_body_argument("seat", "")[:100]
        seat = self.returning(code, kept, name) if kept else None
        if seat is not None:
            self.redirect(f"/s/{seat.token}{self.chosen()}", status=303)
            return
        forget = code.strip().upper() if kept and not name.strip() else ""  # the kept link expired: forget it
        try:
            room, seat = await self.server.guesses.join(self.hall, self.request.remote_ip or "", code, name)
        except Refused as refusal:
            self.refused_form(refusal, code, name, forget)
            return
        self.redirect(f"/s/{seat.token}{self.chosen()}", status=303)


class SeatPage(Base):
    """A seat's page, or the form to pick a name when the seat is still empty."""

    def get(self, token: str) -> None:
        try:
            room, seat = self.hall.seat_of(token)
        except Refused as refusal:
            self.notice(refusal, self.seat_language(token))
            return
        if not seat.filled:
            self.finish(self.name_form(room, seat))
            return
        language = self.language_in(room)
        message = self.server.table_for(room, seat.number, language)
        self.finish(page("seat.html", language, page_title=room.title, kind="seat", token=token,
                         code=room.code, name=seat.name, message=message, join_url=None,
                         heartbeat=self.server.heartbeat or 0))

    def seat_language(self, token: str) -> str:
        """The language of a page refusing `token`: the address's, else that of the room the link was of (an
        expired link of a French room is refused in French)."""
        code = self.hall.store.expired_room(token) if len(token) < 100 else None
        room = self.hall.rooms.get(code) if isinstance(code, str) else None
        return self.language if room is None else self.language_in(room)

    def name_form(self, room: Room, seat: TableSeat, name: str = "", error: str = "") -> str:
        return page("name.html", self.language_in(room), page_title=room.title, code=room.code, token=seat.token,
                    seat=seat.number, name=name, error=error, xsrf=self.xsrf_token.decode("ascii"),
                    max_name=MAX_NAME_UTF16)

    async def post(self, token: str) -> None:
        name = self.get_body_argument("name", "")[:200]
        try:
            room, seat = await stored(lambda: self.hall.claim(token, name))
        except Refused as refusal:
            if refusal.code in ("bad_name", "name_taken"):
                room, seat = self.hall.seat_of(token)
                self.set_status(refusal.status)
                self.finish(self.name_form(room, seat, name[:MAX_NAME_CODE_POINTS],
                                           refusal_text(refusal, self.language_in(room))))
            else:
                self.notice(refusal, self.seat_language(token))
            return
        self.redirect(f"/s/{seat.token}{self.chosen()}", status=303)


class WatchPage(Base):
    """The projector: the spectator's view, the room code and a QR code to join."""

    def get(self, token: str) -> None:
        try:
            room = self.hall.watched(token)
        except Refused as refusal:
            self.notice(refusal)
            return
        join = self.server.join_link(room)
        language = self.language_in(room)
        message = self.server.table_for(room, None, language)
        self.finish(page("seat.html", language, page_title=room.title, kind="watch", token=token,
                         code=room.code, name=tr("class.projector", language), message=message,
                         join_url=self.server.public_url, join_qr=qr_svg(join), body_class="projector",
                         heartbeat=self.server.heartbeat or 0))


class TableSocket(LiveSocket):
    """A seat's or the projector's live connection (`kind` "seat" or "watch")."""

    def initialize(self, server: Server, kind: str) -> None:
        self.server, self.kind = server, kind
        self.answers: set[asyncio.Future[None]] = set()

    @property
    def hall(self) -> Hall:
        assert self.server.hall is not None
        return self.server.hall

    def prepare(self) -> None:
        """Refuse the upgrade itself (404 unknown, 410 expired) without the seat's token."""
        token = self.path_kwargs.get("token", "")
        try:
            if self.kind == "seat":
                room, seat = self.hall.seat_of(token)
                if not seat.filled:
                    raise Refused("not_seated", "Pick a name on the seat's page first.", 409)
                if self.server.seat_connections(room, seat.number) >= MAX_CONNECTIONS_PER_SEAT:
                    raise Refused("too_many", "Too many pages are open for this seat.", 429)
            else:
                room = self.hall.watched(token)
                if self.server.watch_connections(room) >= MAX_CONNECTIONS_PER_PROJECTOR:
                    raise Refused("too_many", "Too many screens show this room's projector page.", 429)
        except Refused as refusal:
            raise tornado.web.HTTPError(refusal.status, reason=str(refusal)[:200]) from None

    def open(self, token: str) -> None:
        if self.kind == "seat":
            room, seat = self.hall.seat_of(token)
            language = language_of(self.get_query_argument("lang", None), room.language)
            self.connection = Connection(self, room.code, "seat", seat.number, token, language,
                                         TokenBucket(*self.server.flood),
                                         with_view=self.get_query_argument("view", None) == "1")
            self.connection.beats = self.get_query_argument("beat", None) == "1"
        else:
            room = self.hall.watched(token)
            language = language_of(self.get_query_argument("lang", None), room.language)
            self.connection = Connection(self, room.code, "watch", None, token, language,
                                         TokenBucket(*self.server.flood))
            self.connection.beats = self.get_query_argument("beat", None) == "1"
        self.set_nodelay(True)
        self.server.connect(self.connection)

    def refuse(self, refusal: Refused, step: int | None = None, answers: str | None = None) -> None:
        """Say why a message changed nothing; `step`: the step the refused move or menu request answered;
        `answers`: the type of the refused message ("move", "menu", "belief"), so a program tells them apart."""
        connection = self.connection
        language = connection.language if connection else "en"
        text = refusal_text(refusal, language)
        self.send(json.dumps({"type": "refused", "code": refusal.code, "message": str(refusal), "text": text,
                              "step": step, "answers": answers}))

    def on_message(self, message: str | bytes) -> None:
        """Answer in a task of its own: Tornado reads no frame (not even a pong) while `on_message` runs, and a
        move waits for its commit; the connection's `answering` lock keeps its messages in their order."""
        task = asyncio.ensure_future(self.answer_in_turn(message, time.perf_counter()))
        self.answers.add(task)  # the loop holds tasks weakly
        task.add_done_callback(self.answers.discard)

    async def answer_in_turn(self, message: str | bytes, arrived: float) -> None:
        connection = self.connection
        if connection is None:
            return
        if not connection.bucket.take():
            connection.floods += 1
            if connection.floods >= FLOOD_CLOSE:
                self.close(CLOSE_FLOOD, "Too many messages.")
            else:
                self.refuse(Refused("flood", "Too many messages: wait a moment."))
            return
        async with connection.answering:
            await self.answer(connection, message, arrived=arrived)

    async def answer(self, connection: Connection, message: str | bytes, attempt: int = 0,
                     arrived: float | None = None) -> None:
        """Answer a message (read at `arrived`, `time.perf_counter`); a move the database could not take now (held
        by another program) is retried later by the server itself, the student being told so, while the loop
        serves everyone else."""
        if self.ws_connection is None:
            return  # the page closed meanwhile
        step: int | None = None
        answers: str | None = None
        try:
            data = self.read(connection, message)
            step = data["step"] if isinstance(data.get("step"), int) and not isinstance(data["step"], bool) else None
            answers = str(data["type"])
            await self.handle(connection, data, arrived)
        except Refused as refusal:
            self.refuse(refusal, step, answers)
            if refusal.code == "storage_busy" and attempt < STORAGE_RETRIES:
                assert self.server.loop is not None
                self.server.loop.call_later(STORAGE_RETRY_DELAY, lambda: asyncio.ensure_future(
                    self.answer(connection, message, attempt + 1)))
            if refusal.code == "stale":
                room = self.hall.rooms.get(connection.room)
                if room is not None:
                    self.server.send_table(room, connection)

    def read(self, connection: Connection, message: str | bytes) -> dict[str, Any]:
        """A page's message as a JSON object of a known type, from a seat, or `Refused`."""
        if len(message) > MAX_MESSAGE:
            raise Refused("too_big", f"A message has at most {MAX_MESSAGE} bytes, not {len(message)}.")
        if isinstance(message, bytes):
            raise Refused("malformed", "Messages are JSON text.")
        try:
            data = json.loads(message)
        except (ValueError, RecursionError):
            raise Refused("malformed", "A message is a JSON object.") from None
        if not isinstance(data, dict) or data.get("type") not in ("move", "menu", "belief"):
            raise Refused("malformed", "A message is a JSON object whose type is 'move', 'menu' or 'belief'.")
        if connection.kind != "seat" or connection.seat is None:
            raise Refused("forbidden", "The projector only watches.", 403)
        return data

    async def handle(self, connection: Connection, data: dict[str, Any], arrived: float | None = None) -> None:
        assert connection.seat is not None
        room = self.hall.open_room(connection.room)
        if room.seats[connection.seat].token != connection.token:
            raise Refused("expired_token", "This link has expired: ask your teacher for a new one.", 410)
        step = data.get("step")
        if data["type"] == "move":
            committed = await self.hall.play(room, connection.seat, step, data.get("action"))
            await self.server.tables_sent(room)
            if arrived is not None:  # (a move retried after a busy database is not timed)
                self.server.move_waits.note(arrived, committed, time.perf_counter())
            return
        if data["type"] == "belief":
            row = await self.hall.belief_desk.answer(room, connection.seat, step, data.get("key"), data.get("percents"))
            self.server.belief_stated(room, connection.seat, row)
            return
        self.send(json.dumps(menu_for(room, connection.seat, step, data.get("chosen"), connection.language)))


def menu_for(room: Room, seat: int, step: Any, chosen: Any, language: str) -> dict[str, Any]:
    """The next buttons of `seat`'s move after the words `chosen`, or `Refused`."""
    if not (isinstance(chosen, list) and len(chosen) <= MAX_WORDS
            and all(isinstance(word, str) and 0 < len(word) <= MAX_WORD for word in chosen)):
        raise Refused("malformed", f"'chosen' is a list of at most {MAX_WORDS} words.")
    if isinstance(step, bool) or not isinstance(step, int):
        raise Refused("malformed", "A menu request names the step it answers, a whole number.")
    state = room.state
    if state is None:
        raise Refused("not_started", "The game starts when every seat has a player.")
    if step != room.step and not Hall.same_choice_still_open(state, seat, step, room.acting_at):
        raise Refused("stale", f"The table is at step {room.step}, not {step}: look again.", 409)
    if room.paused:
        raise Refused("paused", "The teacher paused the game.", 409)
    if seat not in state.acting_seats or room.seats[seat].bot is not None:
        raise Refused("not_your_turn", "It is not your turn.", 409)
    try:
        return dict(room.remember(("menu", seat, tuple(chosen), language), lambda: menu_message(
            room.view(seat), room.legal_actions(seat), chosen, language, room.step,  # type: ignore[arg-type]
            room.menu_tree(seat))))
    except ValueError:
        raise Refused("stale", "No move starts with these words any more: start again.", 409) from None


class TeacherSocket(LiveSocket):
    """The dashboard's live feed of one room (teacher token in the Authorization header)."""

    def initialize(self, server: Server) -> None:
        self.server = server

    def prepare(self) -> None:
        if not teacher_allowed(self.server, self.request):
            raise tornado.web.HTTPError(403, reason="The teacher's token is needed.")
        assert self.server.hall is not None
        try:
            self.server.hall.room(self.path_kwargs.get("code", ""))
        except Refused as refusal:
            raise tornado.web.HTTPError(refusal.status, reason=str(refusal)[:200]) from None

    def open(self, code: str) -> None:
        assert self.server.hall is not None
        room = self.server.hall.room(code)
        self.connection = Connection(self, room.code, "teacher", None, "", "en", TokenBucket(*self.server.flood))
        self.server.connect(self.connection)

    def on_message(self, message: str | bytes) -> None:
        pass  # the teacher acts through the API


def teacher_allowed(server: Server, request: Any) -> bool:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return scheme == "Bearer" and server.hall is not None and \
        hmac.compare_digest(token.encode("utf-8", "replace"), server.hall.teacher_token.encode("ascii"))


class Api(Base):
    """JSON in, JSON out; refusals as `{"error": code, "message": text}` (and `"fr"`, the French text, when the
    refusal has one) with an HTTP status."""

    teacher_only = True

    def check_xsrf_cookie(self) -> None:
        """Programs, not forms: a JSON body (a cross-site form cannot send one) instead of the XSRF cookie."""
        if self.request.method == "POST" and \
                not self.request.headers.get("Content-Type", "").startswith("application/json"):
            raise tornado.web.HTTPError(415, reason="Send JSON (Content-Type: application/json).")

    def prepare(self) -> None:
        self.set_header("Content-Type", "application/json")
        if self.teacher_only and not teacher_allowed(self.server, self.request):
            self.refused(Refused("forbidden", "The teacher's token is needed.", 403))

    def body(self) -> dict[str, Any]:
        if not self.request.body:
            return {}
        try:
            data = json.loads(self.request.body)
        except (ValueError, RecursionError):
            raise Refused("malformed", "The body is not JSON.") from None
        if not isinstance(data, dict):
            raise Refused("malformed", "The body is a JSON object.")
        return data

    def refused(self, refusal: Refused) -> None:
        self.set_status(refusal.status)
        french = {"fr": refusal.fr} if refusal.fr else {}
        self.finish(json.dumps({"error": refusal.code, "message": str(refusal), **french}))

    def reply(self, data: Any) -> None:
        self.finish(json.dumps(data))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(json.dumps({"error": "http", "message": f"{status_code}: {self._reason}"}))


class RoomsApi(Api):
    def get(self) -> None:
        rooms = [self.server.teacher_message(room) for room in self.hall.rooms.values()]
        listed = [{key: room[key] for key in ("code", "number", "game", "title", "step", "started", "over", "closed")}
                  for room in rooms] + self.hall.sleeping_summaries()
        self.reply({"rooms": sorted(listed, key=lambda room: room["number"]), "broken": self.hall.broken})

    async def post(self) -> None:
        try:
            data = self.body()
            allowed = {"game", "players", "seed", "rules", "language", "bots", "bot_delay", "draw_seats", "beliefs",
                       "scoring", "move_time_limit"}
            unknown = sorted(set(data) - allowed)
            if unknown:
                raise Refused("bad_request", f"Unknown field(s) {', '.join(unknown)[:100]}.")
            bots = data.get("bots") or {}
            if not isinstance(bots, dict) or not all(str(key).isdigit() and len(str(key)) < 4 for key in bots):
                raise Refused("bad_request", "bots maps seat numbers to bot names.")
            try:
                package = games.game_package(data.get("game", ""))
            except ValueError as error:
                raise Refused("bad_request", str(error)) from None
            async with self.server.controls:
                room = await stored(lambda: self.hall.commit(self.hall.create_room_change(
                    package, data.get("players"),  # type: ignore[arg-type]  # the JSON as sent: checked there
                    seed=data.get("seed"), rules=data.get("rules"),
                    language=data.get("language", "en"), bots={int(seat): bot for seat, bot in bots.items()},
                    bot_delay=data.get("bot_delay", 0.8), draw_seats=data.get("draw_seats", False),
                    beliefs=data.get("beliefs", False), scoring=data.get("scoring", "brier"),
                    move_time_limit=data.get("move_time_limit"))))
        except Refused as refusal:
            self.refused(refusal)
            return
        self.set_status(201)
        self.reply(self.server.teacher_message(room))


class RoomApi(Api):
    async def get(self, code: str, what: str | None = None) -> None:
        try:
            room = self.hall.room(code)
        except Refused as refusal:
            self.refused(refusal)
            return
        if what == "record":
            self.reply(room.record())
        else:
            self.reply(self.server.teacher_message(room))

    async def post(self, code: str, what: str | None = None) -> None:
        try:
            data = self.body()
            room = self.hall.room(code)
            async with self.server.controls:  # one at a time, each checked on the room as the last one left it
                await self.command(room, what, data)
        except Refused as refusal:
            self.refused(refusal)
            return
        self.reply(self.server.teacher_message(room))

    async def command(self, room: Room, what: str | None, data: dict[str, Any]) -> None:
        """The teacher's command `what`, committed off the loop (`Hall.commit`), or `Refused`."""
        seat: Any  # the JSON as sent, checked by the hall (Refused: a seat missing or of no number)
        hall, seat = self.hall, data.get("seat")
        if what == "step":
            await stored(lambda: self.server.step_bot(hall.open_room(room.code)))
            return
        if what == "resume":
            self.server.errors.pop(room.code, None)
        changes: dict[str | None, Callable[[], Change[Any]]] = {
            "pause": lambda: hall.set_paused_change(room.code, True),
            "resume": lambda: hall.set_paused_change(room.code, False),
            "reveal": lambda: hall.reveal_change(room.code),
            "close": lambda: hall.close_change(room.code),
            "bot": lambda: hall.seat_bot_change(room.code, seat, data.get("bot")),  # type: ignore[arg-type]
            "unbot": lambda: hall.remove_bot_change(room.code, seat),
            "new_link": lambda: hall.new_link_change(room.code, seat),
            "ask": lambda: hall.belief_desk.ask_change(room.code),
            "swap": lambda: hall.swap_seats_change(room.code, seat, data.get("to")),  # type: ignore[arg-type]
        }
        if what not in changes:
            raise Refused("bad_request", "Unknown command.", 404)
        await stored(lambda: hall.commit(changes[what]()))  # checked again at each try


class RecordsApi(Api):
    async def get(self) -> None:
        """Every started room's record, sent a room at a time (`records.record_texts`): the class plays on."""
        self.write('{"rooms": [')
        separator = ""
        async for text in record_texts(self.hall):
            self.write(separator + text)
            separator = ", "
            await self.flush()
        self.finish("]}")


class JoinApi(Api):
    """A program joins a room by code and name: `{"code": ..., "name": ...}` -> its seat's token."""

    teacher_only = False

    async def post(self) -> None:
        try:
            data = self.body()
            room, seat = await self.server.guesses.join(self.hall, self.request.remote_ip or "", data.get("code"),
                                                  data.get("name"))
        except Refused as refusal:
            self.refused(refusal)
            return
        self.set_status(201)
        self.reply({"code": room.code, "seat": seat.number, "token": seat.token, "link": self.server.seat_link(seat)})


class Static(RedactedLogs, tornado.web.StaticFileHandler):
    """The pages' own files. A path no file can have (a NUL byte, `..`) is a plain 404, like any missing file
    (Tornado answers 403 to a path out of the folder)."""

    @classmethod
    def get_absolute_path(cls, root: str, path: str) -> str:
        try:
            return super().get_absolute_path(root, path)
        except tornado.web.HTTPError as error:
            raise tornado.web.HTTPError(404 if error.status_code == 403 else error.status_code) from None

    def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
        if "\x00" in absolute_path:
            raise tornado.web.HTTPError(404)
        try:
            return super().validate_absolute_path(root, absolute_path)
        except (OSError, ValueError):
            raise tornado.web.HTTPError(404) from None
        except tornado.web.HTTPError as error:
            raise tornado.web.HTTPError(404 if error.status_code == 403 else error.status_code) from None

    def set_default_headers(self) -> None:
        cacheable_headers(self)


def cacheable_headers(handler: tornado.web.RequestHandler) -> None:
    """The security headers of a file a browser may keep (no `no-store`)."""
    for name, value in SECURITY_HEADERS.items():
        if name != "Cache-Control":
            handler.set_header(name, value)


class TableStyle(RedactedLogs, tornado.web.RequestHandler):
    """The tables' stylesheet, linked by every class page (the updates carry no styling). Its address holds
    its version, so a browser keeps it for a day and fetches it again only when it changes."""

    def set_default_headers(self) -> None:
        cacheable_headers(self)

    def get(self) -> None:
        self.set_header("Content-Type", "text/css; charset=utf-8")
        if self.get_query_argument("v", None) == style_version():
            self.set_header("Cache-Control", "public, max-age=86400, immutable")
        else:
            self.set_header("Cache-Control", "no-cache")
        self.finish(stylesheet())


def routes(server: Server) -> list[tuple[str, type] | tuple[str, type, dict[str, Any]]]:
    token = r"(?P<token>[A-Za-z0-9_\-]{1,64})"
    return [
        (r"/", JoinPage, {"server": server}),
        (r"/j/(?P<code>[A-Za-z0-9]{1,8})", JoinPage, {"server": server}),
        (r"/join", JoinPage, {"server": server}),
        (rf"/s/{token}", SeatPage, {"server": server}),
        (rf"/w/{token}", WatchPage, {"server": server}),
        (rf"/ws/seat/{token}", TableSocket, {"server": server, "kind": "seat"}),
        (rf"/ws/watch/{token}", TableSocket, {"server": server, "kind": "watch"}),
        (r"/ws/teacher/(?P<code>[A-Za-z0-9]{1,8})", TeacherSocket, {"server": server}),
        (r"/api/rooms", RoomsApi, {"server": server}),
        (r"/api/rooms/(?P<code>[A-Za-z0-9]{1,8})", RoomApi, {"server": server}),
        (r"/api/rooms/(?P<code>[A-Za-z0-9]{1,8})/(?P<what>[a-z_]{1,20})", RoomApi, {"server": server}),
        (r"/api/records", RecordsApi, {"server": server}),
        (r"/api/join", JoinApi, {"server": server}),
        (r"/static/(.*)", Static, {"path": str(STATIC)}),
        (r"/style/tabletop\.css", TableStyle),
    ]
