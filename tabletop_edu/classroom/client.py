"""Clients of the class server, for Python code: the teacher's (dashboard, exports) and a seat's (a student's
bot, the tests, the benchmark).

The teacher's notebook is a client like any other: it talks to the server over HTTP with the teacher's token
and follows a room over a websocket, so the dashboard works the same whether the server runs beside the
kernel or as its own process on another machine of the classroom.

HTTP calls are synchronous (`urllib`); websockets run on one background event loop per process
(`client_loop()`), so the callbacks of a live feed arrive in that thread.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import tornado.httpclient
import tornado.websocket

from .errors import ClassroomError

_LOOP: asyncio.AbstractEventLoop | None = None
_LOOP_LOCK = threading.Lock()


def client_loop() -> asyncio.AbstractEventLoop:
    """The event loop (in a daemon thread) that runs this process's websocket clients."""
    global _LOOP
    with _LOOP_LOCK:
        if _LOOP is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="classroom-client", daemon=True).start()
            _LOOP = loop
        return _LOOP


def run(coroutine: Any, timeout: float = 30) -> Any:
    """Run a coroutine on the client loop from any other thread and return its result."""
    return asyncio.run_coroutine_threadsafe(coroutine, client_loop()).result(timeout)


def request(url: str, method: str = "GET", body: Any = None, token: str | None = None,
            timeout: float = 30) -> Any:
    """One JSON request; a refusal raises `ClassroomError` with the server's code and message."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    call = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(call, timeout=timeout) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        try:
            reply = json.loads(error.read())
        except ValueError:
            reply = {"error": "http", "message": str(error)}
        french = reply.get("fr")
        raise ClassroomError(str(reply.get("error")), str(reply.get("message")), error.code,
                             fr=french if isinstance(french, str) else None) from None


def request_bytes(url: str, token: str, timeout: float = 60) -> bytes:
    """One GET of a file (a class's download); a refusal raises `ClassroomError` as `request` does."""
    call = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(call, timeout=timeout) as response:
            return bytes(response.read())
    except urllib.error.HTTPError as error:
        reply = json.loads(error.read() or b"{}")
        raise ClassroomError(str(reply.get("error")), str(reply.get("message")), error.code) from None


def websocket_url(url: str, path: str) -> str:
    return url.replace("http://", "ws://", 1).replace("https://", "wss://", 1).rstrip("/") + path


class Feed:
    """A live websocket of the server, its messages handed to `on_message` (in the client loop's thread), or
    kept in `messages` (a queue) when no callback is given. Reconnects after a drop unless `reconnect` is
    False; `close()` ends it. `on_closed` hears when the server ends it for good (a closed room, an expired
    link: `close_code` and `close_reason` say which)."""

    def __init__(self, url: str, *, headers: dict[str, str] | None = None,
                 on_message: Callable[[dict[str, Any]], None] | None = None, reconnect: bool = True,
                 on_closed: Callable[[], None] | None = None) -> None:
        self.url, self.headers, self.on_message, self.reconnect = url, headers or {}, on_message, reconnect
        self.on_closed = on_closed
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.raw: list[str] = []
        self.connected = threading.Event()
        self.closed = False
        self.close_code: int | None = None
        self.close_reason: str | None = None
        self._socket: tornado.websocket.WebSocketClientConnection | None = None
        self._task = asyncio.run_coroutine_threadsafe(self._following(), client_loop())

    async def _following(self) -> None:
        try:
            await self._follow()
        finally:
            if self.on_closed is not None:
                self.on_closed()

    async def _follow(self) -> None:
        delay = 0.1
        while not self.closed:
            try:
                request = tornado.httpclient.HTTPRequest(self.url, headers=self.headers, connect_timeout=10)
                self._socket = await tornado.websocket.websocket_connect(request)
            except (OSError, tornado.httpclient.HTTPClientError) as error:
                if isinstance(error, tornado.httpclient.HTTPClientError) and error.code in (403, 404, 409, 410):
                    self.close_code, self.close_reason = error.code, str(error)
                    self.closed = True
                    self.connected.set()
                    return
                if not self.reconnect:
                    raise
                await asyncio.sleep(delay)  # the server restarts: try again, a little later each time
                delay = min(delay * 2, 2.0)
                continue
            delay = 0.1
            self.connected.set()
            while True:
                text = await self._socket.read_message()
                if text is None:
                    break
                self.raw.append(text if isinstance(text, str) else text.decode("utf-8", "replace"))
                message = json.loads(text)
                if self.on_message is not None:
                    try:
                        self.on_message(message)
                    except Exception:  # a display bug must not stop the feed
                        import logging

                        logging.getLogger("tabletop_edu.classroom").exception("feed callback failed")
                else:
                    self.messages.put(message)
            self.close_code, self.close_reason = self._socket.close_code, self._socket.close_reason
            self.connected.clear()
            if not self.reconnect or (self.close_code or 0) >= 4000:
                self.closed = True
                return

    def send(self, message: dict[str, Any] | str) -> None:
        """Send a message (a dict as JSON, a str as it is)."""
        text = message if isinstance(message, str) else json.dumps(message)
        self.connected.wait(30)
        socket = self._socket
        assert socket is not None, "not connected"
        client_loop().call_soon_threadsafe(lambda: socket.write_message(text))

    def next(self, predicate: Callable[[dict[str, Any]], bool] = lambda message: True,
             timeout: float = 30) -> dict[str, Any]:
        """The next queued message that satisfies `predicate` (earlier ones are dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message from {self.url.split('?')[0].rsplit('/', 1)[0]} "
                                   f"in {timeout} s")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(message):
                return message

    def wait_closed(self, timeout: float = 30) -> None:
        self._task.result(timeout)

    def close(self) -> None:
        self.closed = True
        socket = self._socket
        if socket is not None:
            client_loop().call_soon_threadsafe(socket.close)


class TeacherClient:
    """The teacher's side of a class server at `url`, with the teacher's token (printed by `serve`, or
    `server.teacher_token` for a server started from the notebook)."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url.rstrip("/"), token

    def call(self, method: str, path: str, body: Any = None) -> Any:
        return request(self.url + path, method, body, self.token)

    def rooms(self) -> list[dict[str, Any]]:
        return list(self.call("GET", "/api/rooms")["rooms"])

    def broken_rooms(self) -> dict[str, str]:
        """The rooms of the file that could not be read at start, each with the reason (they are left out)."""
        return dict(self.call("GET", "/api/rooms").get("broken", {}))

    def create_room(self, game: str, players: int, *, seed: int | None = None, rules: dict[str, Any] | None = None,
                    language: str = "en", bots: dict[int, str] | None = None, bot_delay: float = 0.8,
                    draw_seats: bool = False, beliefs: bool = False, scoring: str = "brier",
                    move_time_limit: float | None = None) -> dict[str, Any]:
        """A new room; returns the room's teacher view (its code, links, seats). `draw_seats`: students
        joining by code sit at empty seats drawn at random (from the room's seed), not in arrival order;
        `beliefs`: the students are asked what they believe, scored by `scoring` ("brier" or "log");
        `move_time_limit`: seconds a student has for a move, after which a bot of the game plays it for them."""
        body: dict[str, Any] = {"game": game, "players": players, "language": language, "bot_delay": bot_delay,
                                "bots": {str(seat): bot for seat, bot in (bots or {}).items()}}
        if draw_seats:
            body["draw_seats"] = True
        if beliefs:
            body["beliefs"], body["scoring"] = True, scoring
        if move_time_limit is not None:
            body["move_time_limit"] = move_time_limit
        if seed is not None:
            body["seed"] = seed
        if rules is not None:
            body["rules"] = rules
        return dict(self.call("POST", "/api/rooms", body))

    def room(self, code: str) -> dict[str, Any]:
        return dict(self.call("GET", f"/api/rooms/{code}"))

    def command(self, code: str, what: str, **body: Any) -> dict[str, Any]:
        """pause, resume, step, reveal, close, bot (seat=, bot=), unbot (seat=), new_link (seat=), ask (the
        class's beliefs, now), swap (seat=, to=: before the start, two seats exchange who sits there)."""
        return dict(self.call("POST", f"/api/rooms/{code}/{what}", body))

    def record(self, code: str) -> dict[str, Any] | None:
        return self.call("GET", f"/api/rooms/{code}/record")

    def records(self) -> list[dict[str, Any]]:
        """Every started room's record, seats and moves (with their times): the class's games."""
        return list(self.call("GET", "/api/records")["rooms"])

    def follow(self, code: str, on_message: Callable[[dict[str, Any]], None] | None = None) -> Feed:
        """The room's live feed (a message at every change, first one at once)."""
        return Feed(websocket_url(self.url, f"/ws/teacher/{code}"), headers={"Authorization": f"Bearer {self.token}"},
                    on_message=on_message)

    def open(self, game: str, players: int, *, language: str = "en", **options: Any) -> Any:
        """A new room and its dashboard (the options of `create_room`)."""
        room = self.create_room(game, players, language=language, **options)
        return self.dashboard(room["code"], language=language)

    def dashboard(self, code: str, **options: Any) -> Any:
        """The teacher's dashboard widget of a room."""
        from .dashboard import Dashboard

        return Dashboard(self, code, **options)

    def create_class(self, game: str, **options: Any) -> dict[str, Any]:
        """A new class of `game` (the options of `classes.ClassDesk.open_class`: preferred, fill, placement,
        regroup, students, seed, bot, and the rooms' language, bot_delay, beliefs, scoring, move_time_limit,
        rules); returns the class as the teacher sees it (its code, join link, students, tables)."""
        return dict(self.call("POST", "/api/classes", {"game": game, **options}))

    def school_class(self, code: str, what: str | None = None) -> dict[str, Any]:
        """A class (its students with their personal links, its tables), or with `what="overview"` every table
        of its round at a glance."""
        return dict(self.call("GET", f"/api/classes/{code}" + (f"/{what}" if what else "")))

    def class_command(self, code: str, what: str, **body: Any) -> dict[str, Any]:
        """start_round (regroup=), pause, resume, reveal_all: for every table of the class; play_for (room=,
        seat=), extend (student=, seconds=), note (text=)."""
        return dict(self.call("POST", f"/api/classes/{code}/{what}", body))

    def class_download(self, code: str) -> bytes:
        """The class's moves, results and beliefs as a zip of CSV files (`class_data.class_zip`)."""
        return request_bytes(f"{self.url}/api/classes/{code}/download", self.token)

    def games(self) -> Any:
        """The class's games, ready for the analysis tools (`ClassGames`)."""
        from .export import ClassGames

        return ClassGames.from_rooms(self.records())


def join_room(url: str, code: str, name: str) -> dict[str, Any]:
    """Join a room by its code and a name, as a program: the seat's number, token and link."""
    return dict(request(url.rstrip("/") + "/api/join", "POST", {"code": code, "name": name}))


def seat_feed(url: str, token: str, language: str = "en", *, view: bool = False, **options: Any) -> Feed:
    """A seat's websocket: the table messages of that seat, and `send` for its moves; `view=True` asks for
    the seat's view as data in each table message too (a student's bot)."""
    return Feed(websocket_url(url, f"/ws/seat/{token}?lang={language}{'&view=1' if view else ''}"), **options)
