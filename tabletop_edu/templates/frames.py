"""The frame cache: what a step's tables share drawn once around their holes, each table's own HTML put in.

The 13 tables of a step of Mafia de Cuba (each seat's and the projector's) differ in a few places only: whose
view it is, the seat's own box, its secrets. Those are `Hole`s; `render_framed` draws the rest of the template
once (a frame, kept by everything else its context holds) and fills in each table's holes, so a table drawn
around a kept frame is the template drawn whole. A seat's secret is in a hole or in the key, never in a frame
another seat is given.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from .drawn import Drawn, Piece
from .values import Words, render


class Hole(Markup):
    """Drawn HTML that differs between the tables of a step (whose view it is, the seat's own box, its secrets):
    given to `render_framed` as a context value (or a field of one, such as `Page.who`), it is left out of the
    frame that the other tables share, and put in its place."""

    @classmethod
    def of_pieces(cls, pieces: Iterable[str]) -> Hole:
        """A hole drawn in pieces, some of them kept (`drawn.Piece`: a ring's public seats): the table keeps them."""
        parts = tuple(pieces)
        hole = cls("".join(parts))
        hole.__dict__["pieces"] = parts
        return hole



#: How many frames `render_framed` keeps (then it starts again): a step's few, for a class of rooms.
FRAMES_KEPT = 256
_frames: dict[Any, tuple[tuple[str, ...], tuple[int, ...]]] = {}
_MARK = re.compile("\x00(\\d+)\x00")


def render_framed(template: str, *, style: bool = True, frame_key: Hashable = None, **context: Any) -> str:
    """`render(template, style=style, **context)`, with all but the context's holes (`Hole`) drawn once and kept
    (a `Drawn`: the frame's pieces keep their JSON for the class server).

    The 13 tables of a step of Mafia de Cuba (each seat's and the projector's) differ in a few places only; the
    class server draws them one after another. The frame around the holes is kept by everything else the context
    holds, so two tables share a frame only when all they show outside their holes is the same: a seat's secret is
    in a hole or in the key, never in a frame another seat is given.

    `frame_key`: what the caller keeps the frame by instead, when it hands every table of that key the very same
    values outside the holes (Mafia de Cuba's, drawn once for a step from the spectator's view): they are then
    not read through for a key."""
    if frame_key is not None:
        key: Any = (template, style, ("given", frame_key))
        frame = _frames.get(key)
        if frame is not None:
            return _filled(frame, _holes_in(context))
    fills: list[str | tuple[str, ...]] = []
    key_parts = []
    frame_context = {}
    for name in sorted(context):
        key_part, frame_context[name] = _frame_value(context[name], fills, keyed=frame_key is None)
        key_parts.append((name, key_part))
    if frame_key is None:
        key = (template, style, tuple(key_parts))
    frame = _frames.get(key)
    if frame is None:
        frame = _draw_frame(template, style, frame_context, len(fills))
        if frame is None:  # a text of the table holds a mark: drawn whole, not kept
            return render(template, style=style, **context)
        if len(_frames) >= FRAMES_KEPT:
            _frames.clear()
        _frames[key] = frame
    return _filled(frame, fills)


def frame_key(context: Mapping[str, Any]) -> tuple[Any, ...]:
    """All a frame drawn around `context` shows outside its holes (the key `render_framed` builds for a context given
    without one): for a caller that draws many tables around the same values to read them once and give it as
    `frame_key` (Mafia de Cuba's step frame), and for the steps that show the same frame (its floor, a statement
    after another, the list of what was said a hole) to share it."""
    fills: list[str | tuple[str, ...]] = []
    return tuple((name, _frame_value(context[name], fills)[0]) for name in sorted(context))


def _filled(frame: tuple[tuple[str, ...], tuple[int, ...]], fills: Sequence[str | tuple[str, ...]]) -> Drawn:
    """The frame's texts with the holes' HTML put in at their marks."""
    segments, order = frame
    if len(fills) != len(order):
        raise ValueError(f"A frame with {len(order)} holes was given {len(fills)}: a frame's key must be given "
                         "for contexts of the same holes only.")
    parts = [segments[0]]
    for index, segment in zip(order, segments[1:]):
        fill = fills[index]
        if type(fill) is tuple:  # a hole drawn in pieces
            parts += (*fill, segment)
        else:
            parts += (fill, segment)  # type: ignore[arg-type]
    return Drawn(parts)


def _holes_in(context: dict[str, Any]) -> list[str | tuple[str, ...]]:
    """The HTML of the context's holes, numbered as `_frame_value` numbers them (a frame kept by a given key)."""
    fills: list[str | tuple[str, ...]] = []
    for name in sorted(context):
        value = context[name]
        if isinstance(value, Hole):
            parts: Iterable[Any] = (value,)
        elif type(value) not in _PLAIN and _is_plain_dataclass(type(value)):  # type: ignore[arg-type]
            parts = vars(value).values()
        else:
            continue
        fills += [part.__dict__.get("pieces") or str(part) for part in parts if isinstance(part, Hole)]
    return fills


def _frame_value(value: Any, fills: list[str | tuple[str, ...]], keyed: bool = True) -> tuple[Any, Any]:
    """(what a frame is kept by, what the frame is drawn with) for a context value: a hole (a value, or a field of
    a plain dataclass value such as `Page`) becomes a numbered mark, and its HTML is added to `fills`;
    `keyed=False`: the caller gives the frame's key (`render_framed`'s `frame_key`), the value is not read for one."""
    if isinstance(value, Hole):
        fills.append(value.__dict__.get("pieces") or str(value))
        return ("hole",), Markup(f"\x00{len(fills) - 1}\x00")
    if type(value) not in _PLAIN and _is_plain_dataclass(type(value)):  # type: ignore[arg-type]
        marks = {}
        key: list[Any] = [type(value)]
        for name, part in vars(value).items():
            if isinstance(part, Hole):
                key.append((name, "hole"))
                marks[name] = _frame_value(part, fills)[1]
            elif keyed:
                key.append((name, _frozen(part)))
        return tuple(key), dataclasses.replace(value, **marks) if marks else value
    return (_frozen(value) if keyed else None), value


#: Values that are their own key.
_PLAIN = frozenset({str, int, float, bool, type(None)})


@lru_cache(maxsize=None)
def _is_plain_dataclass(kind: type) -> bool:
    """A dataclass whose instances can change (`Page`): kept by its fields' values, not by its hash."""
    return dataclasses.is_dataclass(kind) and not kind.__dataclass_params__.frozen  # type: ignore[attr-defined]


def _frozen(value: Any) -> Any:
    """`value` as a dictionary key that holds everything it shows (a list as a tuple, a plain dataclass as its
    fields); a value kept only by its identity (a function, an object) is refused: a frame must not outlive it."""
    kind: type = type(value)
    if kind in _PLAIN:
        return value
    if isinstance(value, str):  # Markup("a&b") equals "a&b", but it is drawn unescaped
        return (kind, str(value))
    if kind is list or kind is tuple:
        if all(type(item) is str for item in value):  # what was said: many lines, each a plain text
            return (kind, tuple(value))
        return (kind, tuple([_frozen(item) for item in value]))
    if kind is dict:
        return (dict, *[(key, _frozen(item)) for key, item in value.items()])
    if _is_plain_dataclass(kind):
        return (kind, *[(name, _frozen(part)) for name, part in vars(value).items()])
    if kind.__hash__ is object.__hash__ or callable(value) and not isinstance(value, Words):
        raise TypeError(f"a frame cannot be kept by a {kind.__name__}: give the template plain values")
    hash(value)
    return value


def _draw_frame(template: str, style: bool, context: dict[str, Any],
                holes: int) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    """The template drawn with a mark in each hole, cut at the marks: (the texts between them, which hole each
    mark is); None if the marks are not each found once (a text of the table holding one)."""
    pieces = _MARK.split(render(template, style=style, **context))
    segments, order = tuple(map(Piece, pieces[::2])), tuple(int(number) for number in pieces[1::2])
    if sorted(order) != list(range(holes)) or any("\x00" in segment for segment in segments):
        return None
    return segments, order



__all__ = ["FRAMES_KEPT", "Hole", "frame_key", "render_framed"]
