"""An open websocket as the class server keeps it: its room, what it shows, its language and its limits.

A seat's page follows its token when the teacher places its student at another seat (`follow_token`); a page is
never sent an older table than it has (`Connection.version`). The close codes from 4000 tell a page to stop
reconnecting.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .drawing import TableKey
from .rooms import Room
from .throttles import TokenBucket

#: Websocket close codes (4000-4999 are the application's own): the page stops reconnecting.
CLOSE_ROOM_CLOSED = 4001
CLOSE_EXPIRED = 4003
CLOSE_FLOOD = 4008
#: A page that let more than `outbox.MAX_QUEUED` bytes pile up is closed with "try again later": it reconnects.
CLOSE_SLOW = 1013
SLOW_REASON = "This page read its messages too slowly: it reconnects to the table as it is now."


@dataclass(eq=False)
class Connection:
    """One open websocket: its room, what it shows (a seat, the projector or the teacher) and its language."""

    handler: Any
    room: str
    kind: str
    seat: int | None
    token: str
    language: str
    bucket: TokenBucket
    floods: int = 0
    with_view: bool = False  # a program's seat connection (`?view=1`): its view as data too
    version: int = 0  # the room's change its page shows (`ClassServer._changes`): never sent an older one
    unanswered: int = 0  # heartbeat pings sent since its last pong (a message is no answer to a ping)
    beats: bool = False  # a page that asked (`?beat=1`) hears each heartbeat too, to find a dead server itself
    answering: asyncio.Lock = field(default_factory=asyncio.Lock)  # one message answered at a time, in order

    @property
    def table(self) -> TableKey | None:
        """The table a drawing process draws for this page (a seat's or the projector's, in its language), or None
        for a page the loop draws (the teacher's dashboard, a program's view)."""
        return None if self.kind == "teacher" or self.with_view else (self.seat, self.language)


def follow_token(room: Room, connection: Connection) -> None:
    """A seat's page follows its token: when the teacher placed its student at another seat (`swap_seats`),
    the connection now shows that seat (a token no seat holds any more leaves it be: it expired)."""
    seat = next((seat.number for seat in room.seats if seat.token == connection.token), None)
    if seat is not None:
        connection.seat = seat
