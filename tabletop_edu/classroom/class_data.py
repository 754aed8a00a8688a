"""A class's data out: its moves, results and beliefs, every row naming the class, round, table, seat and student.

The rows are `export.ClassGames`' own (`move_rows`, `result_rows`, `belief_rows`), read from the records of the
rooms the class's rounds played (`records.room_record`), with five columns put first: `class` (its code),
`round` (1 the first), `table` (1 the first of its round), `seat` and `student` (the name the student plays under;
empty for a bot's seat, whose row says `kind` "bot" as every export does). `class_zip` writes them as one CSV per
kind in a zip (moves.csv, results.csv, beliefs.csv), each cell safe in a spreadsheet (`export.csv_text`).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Mapping
from typing import Any

from .classes import SchoolClass
from .export import ClassGames, csv_text, label_kind

#: The kinds of rows, each a CSV file of the zip.
KINDS = ("moves", "results", "beliefs")


def class_rooms(klass: SchoolClass) -> dict[str, tuple[int, int, list[str]]]:
    """Each room of the class's rounds: (round, table, the students at its first seats), rounds and tables from 1."""
    return {table.room: (number, index, list(table.students))
            for number, tables in enumerate(klass.rounds, start=1)
            for index, table in enumerate(tables, start=1)}


def class_rows(klass: SchoolClass, records: Iterable[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The class's rows of each kind (`KINDS`), from the records of its rooms (others in `records` are left out)."""
    rooms = class_rooms(klass)
    played = ClassGames.from_rooms(record for record in records if record.get("code") in rooms)
    kinds = {"moves": played.move_rows(), "results": played.result_rows(), "beliefs": played.belief_rows()}
    labelled: dict[str, list[dict[str, Any]]] = {}
    for kind, rows in kinds.items():
        labelled[kind] = []
        for row in rows:
            number, table, students = rooms[row["room"]]
            seat = int(row["seat"])
            bot = label_kind(str(row.get("player", row.get("label", "")))) == "bot"
            student = "" if bot or seat >= len(students) else students[seat]
            rest = {key: value for key, value in row.items() if key != "seat"}
            labelled[kind].append({"class": klass.code, "round": number, "table": table, "seat": seat,
                                   "student": student, **rest})
    return labelled


def class_zip(klass: SchoolClass, rows: Mapping[str, list[dict[str, Any]]]) -> bytes:
    """`rows` (`class_rows`) as a zip of one CSV per kind, named after the class."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for kind in KINDS:
            archive.writestr(f"{klass.code}/{kind}.csv", csv_text(rows.get(kind, [])))
    return buffer.getvalue()
