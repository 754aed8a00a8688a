"""The drawing queue: each changed room's tables drawn and sent to its pages, on the loop in turns or by workers.

Drawing the tables is most of the server's work: a changed room is drawn at a coming turn of the loop, one room
a turn, once for all the moves it took meanwhile (`_draw_soon`), or, with `draw_workers`, by processes of their
own on the machine's other cores (`drawing.DrawWorker`, `_draw_by_worker`); a page is never sent an older table
than it has (`Connection.version`), and a seat's page keeps the words its student tapped when another seat's
move redraws it.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from ..templates.drawn import message_json
from .connections import CLOSE_EXPIRED, CLOSE_ROOM_CLOSED, Connection, follow_token
from .drawing import DrawWorker, TableKey, render_table
from .rooms import Room

log = logging.getLogger("tabletop_edu.classroom")

#: The most drawing processes a server starts (`draw_workers`).
MAX_DRAW_WORKERS = 16
#: Rooms sent to a worker at once: it draws one while the next is on its way.
WORKER_PIPELINE = 2


@dataclass(eq=False)
class DrawJob:
    """A changed room a worker is to draw: waiting in its worker's queue (`queued`), or being drawn. `sent` is
    done once its tables are sent; `again`, once those of its next drawing are (it changed during this one)."""

    room: Room
    sent: asyncio.Future[None]
    queued: bool = True
    again: asyncio.Future[None] | None = None


class ServerDrawing:
    """The class server's drawing of its rooms' tables (`server.ClassServer` is one: it holds what is declared
    here)."""

    loop: asyncio.AbstractEventLoop | None
    connections: dict[str, set[Connection]]
    _drawers: list[DrawWorker]
    _drawers_started: asyncio.Future[Any] | None
    _to_draw: dict[str, tuple[Room, asyncio.Future[None]]]
    _drawing: dict[str, DrawJob]
    _queues: list[OrderedDict[str, DrawJob]]
    _pumps: list[int]
    _changes: dict[str, int]
    _last_drawn: dict[str, tuple[int, dict[TableKey, str]]]
    _game_tables: dict[str, list[Any]]
    teacher_message: Callable[[Room], dict[str, Any]]
    add_beliefs: Callable[[dict[str, Any], Room, int | None, str], None]

    def _draw_now(self, room: Room) -> None:
        """Send `room`'s connections their new messages now (also for the moves waiting for its turn)."""
        pending = self._to_draw.pop(room.code, None)
        try:
            self.broadcast(room)
        finally:
            if pending is not None:
                pending[1].set_result(None)

    def _draw_soon(self, room: Room) -> None:
        """Send `room`'s connections their new messages at a coming turn of the loop, one room a turn, in the
        order they changed; a room that changes again before its turn is drawn once, for all its changes.

        Drawing a room's tables is most of the server's work (13 tables on Mafia's floor): when several rooms
        change at once, each waits its turn while the loop still reads every move and menu in between, and a
        busy room's moves share a drawing instead of queueing one each. Off the loop (no server running) the
        tables are drawn at once."""
        try:
            on_loop = asyncio.get_running_loop() is self.loop
        except RuntimeError:
            on_loop = False
        if not on_loop:
            self.broadcast(room)
            return
        assert self.loop is not None
        job = self._drawing.get(room.code)
        if job is not None:
            if not job.queued and job.again is None:  # changed while being drawn: drawn again, at the back
                job.again = self.loop.create_future()
            return  # (a room still in its queue is drawn as it is when its turn comes)
        drawer = self._drawer_for(room)
        if drawer is not None and drawer.usable and drawer.draws(room):
            number = self._drawers.index(drawer)
            self._queues[number][room.code] = self._drawing[room.code] = DrawJob(room, self.loop.create_future())
            while self._pumps[number] < WORKER_PIPELINE:
                self._pumps[number] += 1
                asyncio.ensure_future(self._draw_by_worker(number))
            return
        if room.code not in self._to_draw:
            self._to_draw[room.code] = (room, self.loop.create_future())
            if len(self._to_draw) == 1:
                self.loop.call_soon(self._draw_next)

    def _draw_next(self) -> None:
        """Draw the room whose turn it is, then leave the loop to the others until the next turn."""
        if not self._to_draw:
            return  # drawn at once meanwhile (`_draw_now`)
        room = next(iter(self._to_draw.values()))[0]
        try:
            self._draw_now(room)
        finally:
            if self._to_draw and self.loop is not None:
                self.loop.call_soon(self._draw_next)

    async def _draw_by_worker(self, number: int) -> None:
        """Feed worker `number` the rooms of its queue in turn, each as it is when its turn comes (all the moves it
        took while it waited share one drawing, as on the loop), and send their tables to the pages that have no
        newer one; a room that changed while it was drawn goes to the back of the queue. `WORKER_PIPELINE` of
        these run per worker, so that it has the next room as soon as it sent one. A room the worker cannot draw
        (it stopped, the room was revealed meanwhile) is drawn here."""
        drawer, queue = self._drawers[number], self._queues[number]
        try:
            while queue:
                code, job = queue.popitem(last=False)
                job.queued = False
                try:
                    version = self._changes.get(code, 0)
                    drawn = await drawer.draw(job.room, self._worker_tables(job.room)) \
                        if drawer.draws(job.room) else None
                    if drawn is None:
                        self.broadcast(job.room)
                    else:
                        self.broadcast(job.room, drawn, version)
                        self._last_drawn[code] = (version, drawn)
                except Exception:  # noqa: BLE001 - logged; the room's next change draws it again
                    log.exception("room %s could not be drawn", code)
                job.sent.set_result(None)
                if job.again is not None:
                    job.sent, job.again, job.queued = job.again, None, True
                    queue[code] = job
                else:
                    del self._drawing[code]
        finally:
            self._pumps[number] -= 1

    async def drawers_started(self) -> int:
        """Once every drawing process has started (or failed to): how many draw (on the loop)."""
        if self._drawers_started is not None:
            await asyncio.shield(self._drawers_started)
        return sum(drawer.usable for drawer in self._drawers)

    @property
    def drawers(self) -> list[DrawWorker]:
        """The drawing processes (`draw_workers` of them), read on the loop (`call`)."""
        return list(self._drawers)

    def _drawer_for(self, room: Room) -> DrawWorker | None:
        """The worker that draws `room` (always the same: it keeps the room's replica), or None."""
        if not self._drawers:
            return None
        return self._drawers[zlib.crc32(room.code.encode()) % len(self._drawers)]

    def _shown(self, room: Room) -> tuple[Any, ...]:
        """All a table depends on (with the seat and language): two equal values draw the same tables."""
        beliefs = (len(room.beliefs), len(room.asked_steps), room.code in self._game_tables)  # asked, answered
        return (id(room.state), room.step, room.paused, room.revealed, room.closed,
                tuple((seat.name, seat.bot) for seat in room.seats), beliefs)

    def _worker_tables(self, room: Room) -> tuple[TableKey, ...]:
        """The tables the worker draws for the room's pages: each seat's and the projector's, by language (the
        teacher's dashboard and a program's view are drawn on the loop)."""
        tables = {table for connection in self.connections.get(room.code, ()) if (table := connection.table)}
        return tuple(sorted(tables, key=lambda table: (table[0] is None, table[0] or 0, table[1])))

    async def tables_sent(self, room: Room) -> None:
        """Wait until `room`'s latest change has been sent to its connections (a seat's next message is answered
        after the table of its move, as when the table was sent with the move)."""
        job = self._drawing.get(room.code)
        if job is not None:
            await asyncio.shield(job.again or job.sent)
        pending = self._to_draw.get(room.code)
        if pending is not None:
            await asyncio.shield(pending[1])

    def broadcast(self, room: Room, drawn: dict[TableKey, str] | None = None, version: int | None = None) -> None:
        """Send every connection of `room` its message. `drawn`: the tables the worker drew at the room's change
        `version`, by seat and language (the others are drawn here), sent only to pages that have no newer one."""
        connections = self.connections.get(room.code, set())
        current = self._changes.get(room.code, 0)
        version = current if version is None else version
        cache: dict[tuple[str, int | None, str, bool], tuple[str, int]] = {}  # a text and the change it shows
        shown = self._shown(room)  # what the room's tables show now: read once for its 13
        for connection in list(connections):
            if room.closed:
                connection.handler.close(CLOSE_ROOM_CLOSED, "The teacher closed this room.")
                continue
            if connection.kind == "seat":
                follow_token(room, connection)
            if connection.kind == "seat" and room.seats[cast(int, connection.seat)].token != connection.token:
                connection.handler.close(CLOSE_EXPIRED, "This link has expired: ask your teacher for a new one.")
                continue
            if connection.version > version:
                continue  # it has a newer table (opened, or sent again after a late move, meanwhile)
            key = (connection.kind, connection.seat, connection.language, connection.with_view)
            if key not in cache:
                table = connection.table
                if drawn is not None and table is not None and table in drawn:
                    cache[key] = (drawn[table], version)
                else:  # what the worker does not draw is drawn now, at the room's current change
                    cache[key] = (message_json(self.message_for(room, connection, shown)), current)
            text, connection.version = cache[key]
            connection.handler.send(text)

    def send_table(self, room: Room, connection: Connection) -> None:
        """Send one page its message now, as the room is (a page opened, a late move refused): the text a worker
        drew for its table at the room's current change if there is one, else drawn here."""
        current = self._changes.get(room.code, 0)
        version, drawn = self._last_drawn.get(room.code, (-1, {}))
        table = connection.table
        if version == current and table is not None and table in drawn:
            connection.handler.send(drawn[table])
        else:
            connection.handler.send(message_json(self.message_for(room, connection)))
        connection.version = current

    def message_for(self, room: Room, connection: Connection, shown: tuple[Any, ...] | None = None) -> dict[str, Any]:
        """The message `connection`'s page shows now (`shown`: the room's `_shown`, when the caller read it)."""
        if connection.kind == "teacher":
            return self.teacher_message(room)
        return self.table_for(room, connection.seat, connection.language, connection.with_view, shown)

    def table_for(self, room: Room, seat: int | None, language: str, with_view: bool = False,
                  shown: tuple[Any, ...] | None = None) -> dict[str, Any]:
        """A seat's (or the projector's) message: from its view and its own legal actions only.

        `with_view` (a seat's program asked for it) adds `view`, the seat's view as data (`view_to_json`),
        and `legal`, the notation of its legal actions when it is to act: what a bot needs to choose. `shown`:
        the room's `_shown`, when the caller read it (a broadcast reads it once for the room's 13 tables).

        Rendered once per step and what it shows (a page opened, a refused out-of-date move and the broadcast
        of the step share it): rendering a seat's table is most of the server's work."""
        return dict(room.remember(("table", seat, language, with_view, shown or self._shown(room)),
                                  lambda: self._render_table(room, seat, language, with_view)))

    def _render_table(self, room: Room, seat: int | None, language: str, with_view: bool) -> dict[str, Any]:
        message = render_table(room, seat, language, with_view)
        if room.scoring is not None and room.view(seat) is not None:
            self.add_beliefs(message, room, seat, language)
        return message
