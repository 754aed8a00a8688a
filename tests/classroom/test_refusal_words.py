"""A refusal reaches a student's page in the page's language (issue 45): a French student on a class page reads
why a move is refused in French, an English one in English, over the same protocol a phone speaks."""

from __future__ import annotations

import pytest

from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.testing import seat_students

REASON = {
    "fr": "Les commissaires sont révélés une fois que tout le monde a choisi ; l'étape en cours : libérations.",
    "en": "Commissaires are revealed after everyone picked; now is the release step.",
}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_student_reads_why_a_move_is_refused_in_the_pages_language(server: ClassServer, teacher: TeacherClient,
                                                                     language: str) -> None:
    room = teacher.create_room("commissario", 2, seed=3, language=language, bot_delay=0)
    students = seat_students(server.url, room["code"], ["Zoé", "Sam"], language)
    for student in students:
        student.wait_step(0)
        student.feed.send({"type": "move", "step": 0, "action": "reveal red"})  # the round opens with releases
    codes = {}
    for student in students:
        refusal = student.next(lambda m: m["type"] == "refused")
        codes[refusal["code"]] = refusal
    assert set(codes) == {"illegal", "not_your_turn"}  # one seat is to release first
    illegal = codes["illegal"]
    assert illegal["message"] == REASON["en"]
    if language == "fr":
        assert illegal["text"] == REASON["fr"] and "Ce coup n'est pas permis" not in illegal["text"]
    else:
        assert REASON["en"] in illegal["text"]
    assert teacher.room(room["code"])["step"] == 0


def test_a_plain_text_refusal_of_a_teachers_own_game_reaches_the_page_as_it_is(server: ClassServer,
                                                                              teacher: TeacherClient) -> None:
    """Peek, like a game a teacher writes, refuses in its own words: a French page shows them as they are."""
    room = teacher.create_room("peek", 2, seed=3, language="fr", bot_delay=0)
    first = seat_students(server.url, room["code"], ["Zoé", "Sam"], "fr")[0]
    first.wait_step(0)
    first.feed.send({"type": "move", "step": 0, "action": "guess 1 42"})
    refusal = first.next(lambda m: m["type"] == "refused")
    assert (refusal["code"], refusal["text"]) == ("illegal", "Cards go from 1 to 6, not 42.")
