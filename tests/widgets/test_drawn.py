"""HTML drawn in pieces (`templates.drawn`): a `Drawn` is its pieces joined, and the JSON written from the pieces'
kept JSON is, to the byte, what `json.dumps` writes for the joined text, however the pieces are cut, grown and
joined again, for any text (quotes, backslashes, control characters, accents, characters beyond the BMP)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_edu.templates.drawn import Drawn, Piece, json_body, message_json, pieces_without_suffix, without_prefix

TEXT = st.text(st.sampled_from(list('ab<>&"\\\n\t\x00\x1féé«»\u2028\U0001F600')), max_size=12)


def piece(kind: str, text: str) -> str:
    """`text` as a plain `str`, a `Piece` whose JSON is not written yet, or one whose JSON is kept already."""
    if kind == "str":
        return text
    kept = Piece(text)
    if kind == "kept":
        kept.json_body()
    return kept


PIECES = st.lists(st.tuples(st.sampled_from(["str", "piece", "kept"]), TEXT), max_size=6).map(
    lambda pairs: [piece(kind, text) for kind, text in pairs])


def json_of(text: str) -> str:
    return json.dumps(str(text))[1:-1]


@settings(max_examples=150, deadline=None)
@given(PIECES, PIECES, st.integers(0, 40), st.integers(0, 40))
def test_drawn_text_and_its_json_are_the_joined_text_and_its_json(first: list[str], second: list[str], cut_start: int,
                                                                  cut_end: int) -> None:
    drawn = Drawn([*first, Drawn(second)])  # a drawn text among the pieces is flattened
    joined = "".join(first) + "".join(second)
    assert drawn == joined and all(type(part) is not Drawn and part for part in drawn.pieces)
    assert json_body(drawn) == json_of(joined) and json_body(drawn) == json_of(joined)  # JSON kept, still right
    prefix = joined[:min(cut_start, len(joined))]
    suffix = joined[len(joined) - min(cut_end, len(joined) - len(prefix)):]
    rest = Drawn(pieces_without_suffix(without_prefix(drawn, prefix), suffix))
    assert rest == joined[len(prefix):len(joined) - len(suffix)]
    assert json_body(rest) == json_of(rest)
    again = Drawn(pieces_without_suffix(without_prefix(drawn, prefix), suffix))
    assert type(again) is type(rest) and json_body(again) == json_of(rest)

    def kept(text: str) -> list[str]:
        return [part for part in getattr(text, "pieces", ()) if type(part) is Piece]

    assert len(kept(again)) == len(kept(rest)) and all(a is b for a, b in zip(kept(again), kept(rest)))  # cut once


@settings(max_examples=100, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=6))
def test_a_piece_grown_line_by_line_keeps_the_json_of_all_its_lines(lines: list[str]) -> None:
    grown = Piece("")
    for line in lines:
        grown = Piece.grown(grown, line)
        assert json_body(grown) == json_of(grown)
    assert grown == "".join(lines)


@settings(max_examples=100, deadline=None)
@given(PIECES, st.dictionaries(st.sampled_from(["type", "step", "title", "menu", "view"]),
                               st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                                            lambda inner: st.lists(inner, max_size=3) |
                                            st.dictionaries(TEXT, inner, max_size=3), max_leaves=6)))
def test_a_message_is_written_as_json_dumps_writes_it(pieces: list[str], others: dict[str, Any]) -> None:
    """`message_json` of a table message holding a drawn `html`, wherever the key falls among the others: the text
    `json.dumps` writes, to the byte; without a drawn `html` (or with a key that is not a text), `json.dumps` itself."""
    for message in ({**others, "html": Drawn(pieces)}, {"html": Drawn(pieces), **others}, others,
                    {**others, "html": "".join(pieces)}, {1: "one", "html": Drawn(pieces)}):
        plain = {key: str(value) if key == "html" else value for key, value in message.items()}
        assert message_json(message) == json.dumps(plain)


def test_a_message_whose_other_entries_write_the_html_mark_is_written_whole() -> None:
    """`message_json` puts the html's JSON in place of the mark `json.dumps` writes for a NUL: an entry that holds
    an "html" of its own with a NUL, before or after the table's, is no place for it."""
    html = Drawn(["<p>", Piece('a "b"'), "\x00</p>"])
    for message in ({"menu": {"html": "\x00"}, "html": html}, {"html": html, "menu": [{"html": "\x00"}]},
                    {"title": '"html": "\x00"', "html": html}):
        assert message_json(message) == json.dumps({**message, "html": str(html)})
