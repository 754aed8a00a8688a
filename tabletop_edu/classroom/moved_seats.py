"""Students whose table a late join re-opened keep their pages: each is sent on to their new seat, never closed.

A late join opens the table's room anew one seat larger and closes the old one (`ClassDesk._joining_late`). The
pages open at the old room would hear "the teacher closed this room" and stop. Instead, before the old room
closes, each of its seat pages is closed with `CLOSE_MOVED` and its student's personal link as the reason (the
page goes there, and the link opens the new seat); a page that was away (a phone asleep) and comes back with the
old seat's token is sent on the same way, by its page's address (`/s/OLD` redirects) and by its socket (opened,
then closed with `CLOSE_MOVED`). The old tokens are kept with the class (`SchoolClass.moved`), so a restart keeps
this too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .class_handlers import ClassBase
from .classes import ClassDesk, SchoolClass
from .handlers import SeatPage, Server, TableSocket
from .pages import language_of
from .rooms import Room

#: The close code of a seat page whose table moved to a new room: its reason is where the page goes now.
CLOSE_MOVED = 4002


def forwarding(server: Server, desk: ClassDesk) -> Callable[[SchoolClass, Room], None]:
    """What a `ClassDesk` calls when a late join replaced `old`: every seat page of it sent to its student's link."""
    def moved(klass: SchoolClass, old: Room) -> None:
        for connection in list(server.connections.get(old.code, ())):  # type: ignore[attr-defined]
            name = old.seats[connection.seat].name if connection.kind == "seat" and connection.seat is not None \
                else None
            student = klass.student(name) if name is not None else None
            if student is not None:
                connection.handler.close(CLOSE_MOVED, f"/c/{student.token}?lang={connection.language}")
    return moved


class MovedSeatPage(ClassBase, SeatPage):
    """A seat's page; the old seat of a re-opened table redirects to its student's personal link."""

    def get(self, token: str) -> None:
        found = self.desk.moved_student(token)
        if found is None:
            super().get(token)
            return
        klass, student = found
        self.redirect(f"/c/{student.token}?lang={self.class_language(klass)}", status=303)


class MovedSeatSocket(TableSocket):
    """A seat's socket; one opened with an old seat's token is closed at once with `CLOSE_MOVED` and where to go."""

    desk: ClassDesk

    def initialize(self, server: Server, kind: str, desk: ClassDesk) -> None:  # type: ignore[override]
        super().initialize(server, kind)
        self.desk = desk

    def prepare(self) -> None:
        if self.desk.moved_student(self.path_kwargs.get("token", "")) is None:
            super().prepare()

    def open(self, token: str) -> None:
        found = self.desk.moved_student(token)
        if found is None:
            super().open(token)
            return
        klass, student = found
        language = language_of(self.get_query_argument("lang", None), str(klass.room_options.get("language") or "en"))
        self.close(CLOSE_MOVED, f"/c/{student.token}?lang={language}")


def moved_routes(server: Server, desk: ClassDesk) -> list[tuple[str, type, dict[str, Any]]]:
    """The seat page and socket that follow a re-opened table, routed before `handlers.routes`' own."""
    token = r"(?P<token>[A-Za-z0-9_\-]{1,64})"
    return [(rf"/s/{token}", MovedSeatPage, {"server": server, "desk": desk}),
            (rf"/ws/seat/{token}", MovedSeatSocket, {"server": server, "kind": "seat", "desk": desk})]
