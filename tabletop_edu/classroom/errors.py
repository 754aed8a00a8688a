"""What a client of the class server raises when the server refuses, in a file of its own so that the client and
the dashboard (a widget any client object drives) both use it without importing each other."""

from __future__ import annotations


class ClassroomError(RuntimeError):
    """The server refused a request: `code` is its reason (see `rooms.Refused`), `status` the HTTP status, `fr`
    the French text when the server sent one (a French dashboard shows it)."""

    def __init__(self, code: str, message: str, status: int = 0, *, fr: str | None = None) -> None:
        super().__init__(message)
        self.code, self.status, self.fr = code, status, fr

    def text_in(self, language: str) -> str:
        """The refusal as the teacher reads it in `language`: the French text where the server sent one."""
        return self.fr if language == "fr" and self.fr else str(self)


__all__ = ["ClassroomError"]
