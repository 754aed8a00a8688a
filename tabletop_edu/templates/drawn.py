"""HTML drawn in pieces that the tables of a step share, and its JSON written from each piece's own.

The class server sends every table as JSON. Escaping a table's HTML for JSON (15 KB late on Mafia de Cuba's
floor) was a seventh of its work, though most of a table (its frame, what was said, the log) is the same on the
13 tables of a step, or grew by a line since the last one. A `Drawn` is the joined HTML, a `str` every reader
takes as it is, which also keeps its pieces; a `Piece` keeps its JSON once written. `message_json` then writes a
message exactly as `json.dumps` does, escaping only the pieces that are new.

JSON escapes a text character by character, so the escaped join of pieces is the join of the escaped pieces.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from json.encoder import encode_basestring_ascii
from typing import Any


class Piece(str):
    """A piece of HTML kept from table to table (the text of a frame, a seat's log): its JSON is written once."""

    def json_body(self) -> str:
        """This text escaped for a JSON string, without the quotes (written at the first call, then kept)."""
        kept = self.__dict__.get("_json")
        if kept is None:
            kept = self.__dict__["_json"] = encode_basestring_ascii(self)[1:-1]
        return kept

    @classmethod
    def grown(cls, piece: Piece, more: str) -> Piece:
        """`piece + more`, its JSON written from `piece`'s: a log that grew by a few lines."""
        joined = cls(piece + more)
        joined.__dict__["_json"] = piece.json_body() + json_body(more)
        return joined

    def cut(self, start: int, end: int) -> Piece:
        """`self[start:end]`, kept for the next table cut the same (a frame without its stylesheet, on every table
        of a step), so that its JSON too is written once."""
        cuts = self.__dict__.setdefault("_cuts", {})
        piece = cuts.get((start, end))
        if piece is None:
            piece = cuts[start, end] = Piece(self[start:end])
        return piece


class Drawn(str):
    """HTML as its pieces joined: a `str`, which also keeps the pieces (those drawn in `Drawn` pieces flattened)."""

    pieces: tuple[str, ...]

    def __new__(cls, pieces: Iterable[str]) -> Drawn:
        flat = tuple(filter(None, pieces))  # looked through at C's speed: a table is made twice, of 20 pieces
        if Drawn in map(type, flat):
            flat = tuple([part for piece in flat for part in (piece.pieces if type(piece) is Drawn else (piece,))])
        drawn = super().__new__(cls, "".join(flat))
        drawn.pieces = flat
        return drawn


def json_body(text: str) -> str:
    """`text` escaped for a JSON string, without the quotes: a kept piece's JSON as it was kept."""
    if type(text) is Piece:
        return text.json_body()
    if type(text) is Drawn:
        return "".join(_pieces_json(text))
    return encode_basestring_ascii(text)[1:-1]


def _pieces_json(drawn: Drawn) -> list[str]:
    """The JSON of each piece of `drawn`, kept pieces' as kept (a drawn table's pieces are flat: no `Drawn`)."""
    return [_kept_json(piece) if type(piece) is Piece else encode_basestring_ascii(piece)[1:-1]
            for piece in drawn.pieces]


def _kept_json(piece: Piece) -> str:
    """A kept piece's JSON (`Piece.json_body`), read in one look-up once written: a table has a dozen pieces."""
    kept = piece.__dict__.get("_json")
    return piece.json_body() if kept is None else kept


def without_prefix(text: str, prefix: str) -> str:
    """`text` without `prefix`, which it starts with; a `Drawn` stays drawn, a kept piece cut is kept."""
    if type(text) is not Drawn or not prefix:
        return text[len(prefix):]
    pieces = list(text.pieces)
    while pieces and len(prefix) >= len(pieces[0]):  # whole pieces of the prefix
        prefix = prefix[len(pieces.pop(0)):]
    if prefix:
        first = pieces[0]
        pieces[0] = first.cut(len(prefix), len(first)) if type(first) is Piece else first[len(prefix):]
    return Drawn(pieces)


def pieces_without_suffix(text: str, suffix: str) -> list[str]:
    """The pieces of `text` without `suffix`, which it ends with (a text not drawn: one piece); a kept piece cut
    is kept. For a table drawn further, joined once at the end (`Drawn`)."""
    if type(text) is not Drawn:
        return [text[:len(text) - len(suffix)]]
    pieces = list(text.pieces)
    while pieces and len(suffix) >= len(pieces[-1]):  # whole pieces of the suffix
        suffix = suffix[:len(suffix) - len(pieces.pop())]
    if suffix:
        last = pieces[-1]
        pieces[-1] = last.cut(0, len(last) - len(suffix)) if type(last) is Piece else last[:len(last) - len(suffix)]
    return pieces


def message_json(message: Mapping[str, Any]) -> str:
    """`json.dumps(message)`, to the byte, with a drawn `html` written from its pieces' kept JSON: one `json.dumps`
    writes the message with a NUL in the html's place, then the html's JSON replaces it (if an entry within the
    others writes the same `"html": "\\u0000"`, `json.dumps` writes it all)."""
    html = message.get("html")
    if type(html) is not Drawn or not all(type(key) is str for key in message):
        return json.dumps(message)
    text = json.dumps({**message, "html": "\0"})
    if text.count(_HTML_MARK) != 1:  # some other entry holds a NUL in an "html" of its own
        return json.dumps({**message, "html": str(html)})
    before, _, after = text.partition(_HTML_MARK)
    return "".join([before, '"html": "', *_pieces_json(html), '"', after])  # a 15 KB table copied once


#: How `json.dumps` writes the html's mark (`message_json`).
_HTML_MARK = '"html": "\\u0000"'


__all__ = ["Drawn", "Piece", "json_body", "message_json", "pieces_without_suffix", "without_prefix"]
