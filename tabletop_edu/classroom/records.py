"""The class's records as `/api/records` sends them: one room at a time, the loop serving the class in between.

A teacher's export (`TeacherClient.records()`, what `room.games()` calls) reads every started room, the sleeping
ones replayed from the file: at 300 games that held every room for 0.5-0.8 s when built at once. Built here a
room at a time, each its own JSON text, with a turn of the loop between two rooms (`between_rooms`), so a move
waits for one room's record at most while the teacher exports.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from .belief_feed import belief_row_json
from .drawing import seats_public
from .hall import Hall
from .rooms import Room


def room_record(room: Room) -> dict[str, Any]:
    """A started room as the analysis reads it (`export.ClassGames.from_rooms`): its record, seats, moves with
    their times, and its beliefs when it asks them."""
    beliefs = {} if room.scoring is None else {"beliefs": {
        "scoring": room.scoring, "rows": [belief_row_json(row) for row in room.beliefs]}}
    return {"code": room.code, "number": room.number, "title": room.title, "seats": seats_public(room),
            "over": room.is_over, "record": room.record(),
            "moves": [[a.step, a.seat, a.action, a.actor, a.at] for a in room.actions], **beliefs}


async def between_rooms() -> None:
    """A turn of the loop for everyone else, between two rooms of an export."""
    await asyncio.sleep(0)


async def record_texts(hall: Hall) -> AsyncIterator[str]:
    """Each started room's `room_record` as JSON text, by room number, the awake ones as they are when their
    turn comes and the sleeping ones read from the file (and left asleep)."""
    numbers = sorted([(room.number, room.code) for room in hall.rooms.values()] +
                     [(number, code) for code, number in hall.asleep.items()])
    for _, code in numbers:
        room = hall.rooms.get(code) or hall.sleeping(code)
        if room is not None and room.state is not None:
            yield json.dumps(room_record(room))
        await between_rooms()
