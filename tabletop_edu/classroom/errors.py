"""What a client of the class server raises when the server refuses, in a file of its own so that the client and
the dashboard (a widget any client object drives) both use it without importing each other."""

from __future__ import annotations


class ClassroomError(RuntimeError):
    """The server refused a request: `code` is its reason (see `rooms.Refused`), `status` the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.code, self.status = code, status


__all__ = ["ClassroomError"]
