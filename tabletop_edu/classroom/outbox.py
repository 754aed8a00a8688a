"""What waits to be written to one websocket, bounded: a page that reads slowly gets the latest table only, and one
that lets answers pile up past `MAX_QUEUED` bytes is closed, saying why.

Tornado's `write_message` hands every message to the socket's write buffer, which grows without bound while the
client reads nothing (a phone asleep with its page open, a hostile client). So a message is written only while
that buffer holds at most `HOLD_ABOVE` bytes; past it, messages wait here until the buffer is written out, and a
whole-state message (a table, the teacher's room, a heartbeat) replaces any older one of its type still waiting.
The answers that cannot be replaced (refusals, menus) are what can pile up: past `MAX_QUEUED` bytes in all the
socket is closed with `CLOSE_SLOW`, which a page answers by reconnecting to the room as it is.
"""

from __future__ import annotations

from asyncio import Future
from collections.abc import Callable
from typing import Any

import tornado.websocket

#: Past this many bytes in the socket's write buffer, messages wait (the newest table only) instead of piling up.
HOLD_ABOVE = 64 * 1024
#: Past this many bytes in all (written and waiting), the socket is closed (`CLOSE_SLOW`).
MAX_QUEUED = 1024 * 1024
#: The whole-state messages: a newer one makes an older one not yet written useless.
_REPLACEABLE = ('{"type": "table"', '{"type": "room"', '{"type": "beat"')


def replaces(text: str) -> str | None:
    """The type of whole-state message `text` is (a newer one of the same type replaces it), or None."""
    return next((prefix for prefix in _REPLACEABLE if text.startswith(prefix)), None)


class Outbox:
    """The messages of one websocket handler (`handler.write_message`, `handler.ws_connection`) on their way out;
    `overflow` is called once when it holds more than `MAX_QUEUED` bytes (it closes the socket)."""

    def __init__(self, handler: tornado.websocket.WebSocketHandler, overflow: Callable[[], Any]) -> None:
        self.handler, self.overflow = handler, overflow
        self.waiting: list[str | None] = []  # in order; None where a newer message of its type replaced one
        self.latest: dict[str, int] = {}  # by whole-state type: where its newest waits in `waiting`
        self.waiting_bytes = 0
        self.draining = False  # waiting for the write buffer to be written out

    def buffered(self) -> int:
        """The bytes in the socket's write buffer (written by Tornado, not yet taken by the kernel)."""
        protocol = self.handler.ws_connection
        stream = getattr(protocol, "stream", None)
        buffer = getattr(stream, "_write_buffer", None)
        return len(buffer) if buffer is not None else 0

    def queued(self) -> int:
        """The bytes this socket holds in the server: buffered and waiting."""
        return self.buffered() + self.waiting_bytes

    def send(self, text: str) -> None:
        """Write `text` now, or hold it until the socket has taken what it was sent (dropping an older message of
        its type); a closed socket drops it."""
        protocol = self.handler.ws_connection
        if protocol is None or protocol.is_closing():
            return
        if self.waiting or self.buffered() > HOLD_ABOVE:
            self.hold(text)
            return
        try:
            written = self.handler.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            return
        written.add_done_callback(_heard)  # a socket closed meanwhile is no error to log

    def hold(self, text: str) -> None:
        kind = replaces(text)
        if kind is not None:
            older = self.latest.get(kind)
            if older is not None:
                self.waiting_bytes -= len(self.waiting[older] or "")
                self.waiting[older] = None
            self.latest[kind] = len(self.waiting)
        self.waiting.append(text)
        self.waiting_bytes += len(text)
        if self.queued() > MAX_QUEUED:
            self.clear()
            self.overflow()
            return
        if not self.draining:
            self.draining = True
            stream = getattr(self.handler.ws_connection, "stream", None)
            if stream is None:
                return
            stream.write(b"").add_done_callback(lambda _: self.drained())  # done once all before it is written

    def drained(self) -> None:
        """The socket took all it was sent: write what waited (or hold it again, if it is still slow)."""
        self.draining = False
        waiting = self.waiting
        self.clear()
        for text in waiting:
            if text is not None:
                self.send(text)

    def clear(self) -> None:
        self.waiting, self.latest, self.waiting_bytes = [], {}, 0


def _heard(written: Future[None]) -> None:
    if not written.cancelled():
        written.exception()
