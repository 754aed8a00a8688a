"""A message from the teacher to every student of a class: typed once, stored, then shown on every page of it.

A class has at most one message at a time (`Note`: its text, a number that grows with each new message, and when
it was sent); an empty text takes it back. It is written to the store's meta table (`class_note:CODE`) before any
page hears of it, so a restart keeps it and a page opened later shows it too. Pages ask with a long poll
(`ClassNotes.wait`): they are answered as soon as a message newer than the one they show is stored, or after a
while with the same message. The text is plain (pages set it with `textContent`), one paragraph of at most
`MAX_NOTE` characters, control characters refused, runs of white space made one space.
"""

from __future__ import annotations

import asyncio
import json
import time
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any

from ..core.errors import quote
from ..i18n import register
from .commits import storage_refusal
from .rooms import Refused
from .store import Store, meta_job

#: The longest message, in characters (a projector line or two, a phone's screen).
MAX_NOTE = 280

register({"en": {"cnote.title": "Message from your teacher", "cnote.since": "at"},
          "fr": {"cnote.title": "Message de votre enseignant", "cnote.since": "à"}})


def note_key(code: str) -> str:
    """The store's meta key holding class `code`'s message (JSON)."""
    return f"class_note:{code}"


@dataclass(frozen=True)
class Note:
    """A class's message as pages show it: `number` 0 is "no message yet"; `text` "" is "taken back"."""

    number: int = 0
    text: str = ""
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def clean_note(text: Any) -> str:
    """The message as pages show it, or `Refused`: a text of at most `MAX_NOTE` characters once its runs of white
    space are one space, with no control or format character (no hidden direction change)."""
    if not isinstance(text, str):
        raise Refused("bad_note", "A message is a text.", fr="Un message est un texte.")
    words = " ".join(text.split())
    if any(unicodedata.category(character) in ("Cc", "Cf", "Cs", "Co") for character in words):
        raise Refused("bad_note", "A message holds no control characters.",
                      fr="Un message ne contient pas de caractères de contrôle.")
    if len(words) > MAX_NOTE:
        raise Refused("bad_note", f"A message has at most {MAX_NOTE} characters, not {len(words)}: "
                      f"{quote(words[:40])}…", fr=f"Un message a au plus {MAX_NOTE} caractères, pas {len(words)}.")
    return words


class ClassNotes:
    """The messages of every class of a store, and the pages waiting to hear of a new one."""

    def __init__(self, store: Store, clock: Any = time.time) -> None:
        self.store, self.clock = store, clock
        self._notes: dict[str, Note] = {}
        self._news: dict[str, asyncio.Event] = {}

    def note(self, code: str) -> Note:
        """Class `code`'s message now (read from the store once)."""
        if code not in self._notes:
            stored = self.store.meta(note_key(code))
            self._notes[code] = Note(**json.loads(stored)) if stored else Note()
        return self._notes[code]

    async def announce(self, code: str, text: Any) -> Note:
        """A new message for class `code`, stored, then told to the pages waiting for one."""
        note = Note(self.note(code).number + 1, clean_note(text), round(self.clock(), 3))
        try:
            await asyncio.wrap_future(self.store.submit(meta_job(note_key(code), json.dumps(note.to_json()))))
        except Exception as error:  # noqa: BLE001 - a disk full, a file held: refused, nothing announced
            raise storage_refusal(error) from None
        self._notes[code] = note
        event = self._news.pop(code, None)
        if event is not None:
            event.set()
        return note

    async def wait(self, code: str, seen: int, timeout: float) -> Note:
        """Class `code`'s message once it is newer than message number `seen`, or as it is after `timeout`."""
        if self.note(code).number <= seen:
            event = self._news.setdefault(code, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except asyncio.TimeoutError:
                pass
        return self.note(code)
