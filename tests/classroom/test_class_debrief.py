"""The debrief from one template, for one table and a whole class: every seat's answer once, every option any seat
was offered, a teacher's ask never repeating the game's question, lies that "worked" only when the figures show it,
French words in French, and the whole class pooled over its tables and rounds with intervals and counts."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu.beliefs import SimulatedStudent, fell
from tabletop_edu.classroom import class_debrief, debrief, games
from tabletop_edu.classroom.debrief_page import class_debrief_html, table_debrief_html
from tabletop_edu.classroom.export import ClassGames
from tabletop_edu.registry import game

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "notebooks" / "data" / "class_record.json"
NAMES = ("Ana", "Ben", "Chloé", "Dev", "Emma", "Farid", "Gus", "Hana", "Ines", "Jon", "Kim", "Lou", "Max", "Nour",
         "Omar")
STYLES = ("bayesian", "overconfident", "cautious", "uniform")


@pytest.fixture(scope="module")
def shipped() -> ClassGames:
    return ClassGames.load(RECORD)


def adler_class(tables: int = 3, seats: int = 5, seed: int = 11) -> ClassGames:
    """A seeded simulated class of Get Adler: `tables` tables of `seats` students, every one answering."""
    plugin = game("get_adler")
    played = []
    for number in range(tables):
        names = NAMES[number * seats:(number + 1) * seats]
        students = {seat: SimulatedStudent(STYLES[(seat + number) % 4], seed=f"{seed}-{names[seat]}")
                    for seat in range(seats)}
        played.append(debrief.SimulatedTable("get_adler", [plugin.make_bot("smart") for _ in range(seats)], names,
                                             students, seed=seed + number))
    return debrief.record_class(played)


@pytest.fixture(scope="module")
def adler() -> ClassGames:
    return adler_class()


def question_tables(html: str, text: str) -> list[str]:
    """Each question table of `text` in a debrief page."""
    return [part.split("</table>")[0] for part in html.split(f"<h3>{text} <small>")[1:]]


def test_who_is_adler_shows_every_seat_and_the_class_column_sums_to_100(adler: ClassGames) -> None:
    one = ClassGames([adler[0]])
    page = table_debrief_html(one, "brier", "en", own=[])
    tables = question_tables(page, "Who is Adler?")
    assert tables and "style=" not in page
    for table in tables:
        assert all(f"<td>{name}" in table for name in adler[0].labels)  # the first answerer's seat too
        said = [int(value) for value in re.findall(r'bd-class" min="0" max="100" value="(\d+)"', table)]
        assert len(said) == len(adler[0].labels) and abs(sum(said) - 100) <= len(said) // 2 + 1


def test_a_teachers_ask_never_repeats_a_question_the_game_asks_now() -> None:
    plugin = game("get_adler")
    model = plugin.belief_model()
    state = plugin.new_game(5, seed=3)
    view = state.view(0)
    own = model.questions(view)
    assert own  # the game asks "who is Adler?" at the start
    asked = games.belief_questions(model, view, asked_at=0)
    assert len({question.text for question in asked}) == len(asked) == len(own)
    later = games.belief_questions(model, view, asked_at=None)
    assert [question.key for question in later] == [question.key for question in own]


def test_every_question_shows_every_seats_answer_once(adler: ClassGames) -> None:
    answers = list(adler[0].beliefs)
    again = [dataclasses.replace(answer, question=games.asked_question(answer.question, answer.step + 1),
                                 step=answer.step + 1) for answer in answers]
    groups = class_debrief.once_per_seat([answer for answer in answers + again if answer.truth is not None])
    assert all(len({answer.seat for answer in group}) == len(group) for group in groups)
    assert len(groups) == len({answer.question.key for answer in answers})
    doubled = ClassGames([dataclasses.replace(adler[0], beliefs=tuple(answers + again))])
    page = table_debrief_html(doubled, "brier", "en", own=[])
    assert len(question_tables(page, "Who is Adler?")) == len(groups)


def test_a_lie_worked_only_when_the_figures_shown_fell(shipped: ClassGames) -> None:
    assert not fell(0.2604, 0.2598) and fell(0.26, 0.23) and not fell(0.23, 0.26)
    for index in (0, 1):
        for table in debrief.game_tables(shipped, index):
            assert table.lies
            for row in table.rows:
                if row[-1] is True:
                    assert row[-2] < row[-3], row  # after < before, as printed


def test_the_french_commissario_debrief_is_french(shipped: ClassGames) -> None:
    picks, releases = debrief.game_tables(shipped, 2)
    for table in (picks, releases):
        html = table.html("fr")
        assert "strategy." not in html and "strategy." not in table.note
        assert not re.search(r"\b(red|yellow|green|blue|purple)\b", html), html
        assert table.rows_fr is not None and len(table.rows_fr) == len(table.rows)
    assert any("bleu" in str(cell) or "rouge" in str(cell) or "violet" in str(cell)
               for row in (picks.rows_fr or ()) + (releases.rows_fr or ()) for cell in row)


def test_the_class_debrief_pools_every_table_with_counts_and_intervals(adler: ClassGames) -> None:
    rounds = [[adler[0].code, adler[1].code], [adler[2].code]]
    moments = class_debrief.moment_rows(adler)
    models = debrief.models_of(adler)
    assert moments and any(moment.tables == 3 for moment in moments)
    for moment in moments:
        assert moment.said.students <= moment.said.answers and moment.said.students <= 15
        if moment.said.low is not None:
            assert moment.said.low <= moment.said.mean <= moment.said.high  # type: ignore[operator]
        assert set(moment.models) == {model.key for model in models}
    furthest = class_debrief.furthest(adler)
    assert 0 < len(furthest) <= class_debrief.FURTHEST
    gaps = [moment.gap(models[0].key) for moment in furthest]
    assert gaps == sorted(gaps, reverse=True) and all(gap > 0 for gap in gaps)
    for language, table_word, round_word in (("en", "Table 2, round 1", "round"), ("fr", "Table 2, manche 1", "manche")):
        page = class_debrief_html(adler, language, rounds=rounds)
        summary = page.split("<details")[0]
        assert "style=" not in page and "strategy." not in page
        assert table_word in summary or table_word in page
        assert f"Table 1, {round_word} 2" in page
        assert page.count("<details") == 2 + 3  # the moments, the whole class, each table
        assert all(model.heading(language) in page for model in models)
        assert "15 " in summary and summary.count("<li>") <= class_debrief.FURTHEST + 5
        assert re.search(r"\(\d+–\d+\)", summary)  # each figure with its interval
    french = class_debrief_html(adler, "fr", rounds=rounds)
    assert "élèves" in french and "Qui est Adler ?" in french and "Who is Adler" not in french


def test_the_class_debrief_sets_a_previous_class_beside_this_one(adler: ClassGames) -> None:
    previous = adler_class(tables=2, seed=40)
    page = class_debrief_html(adler, "en", previous=previous)
    assert "Previous class" in page
    before = {moment.key: moment.said for moment in class_debrief.moment_rows(previous)}
    now = class_debrief.moment_rows(adler, previous=previous)
    assert any(moment.previous is not None and moment.previous == before[moment.key] for moment in now)


def test_the_class_debrief_names_the_lies_that_worked(shipped: ClassGames) -> None:
    mafia = ClassGames([shipped[0]])
    lies = class_debrief.lies_that_worked(mafia)
    assert lies and all(lie.cells[-1] is True for lie in lies)
    page = class_debrief_html(mafia, "fr")
    summary = page.split("<details")[0]
    assert "Les mensonges qui ont fait bouger les croyances" in summary
    assert f"{lies[0].cells[-3]}&nbsp;%&nbsp;→&nbsp;{lies[0].cells[-2]}&nbsp;%" in summary


def test_the_teacher_reaches_the_class_debrief_by_a_token_link_and_the_api(server: Any, teacher: Any) -> None:
    from tabletop_edu.classroom.client import request

    from .test_class_server import Browser, joined_class, poll

    names = ["Ana", "Ben", "Chloé", "Dev", "Emma"]
    klass, tokens = joined_class(server, teacher, names, beliefs=True, language="fr")
    teacher.class_command(klass["code"], "start_round")
    assert all("seat" in poll(server, token) for token in tokens.values())
    status, _, page = Browser(server.url).get(f"/debrief/{server.teacher_token}/{klass['code']}")
    assert status == 200 and "Ce que la classe croyait : Get Adler" in page
    assert "Une table n&#39;a pas fini" in page and "class-debrief" in page
    status, _, page = Browser(server.url).get(f"/debrief/{'x' * 40}/{klass['code']}")
    assert status == 403 and "Get Adler" not in page
    found = request(f"{server.url}/api/classes/{klass['code']}/debrief?lang=en", "GET", None, server.teacher_token)
    assert "What the class believed: Get Adler" in found["html"]
    assert found["link"].endswith(f"/debrief/{server.teacher_token}/{klass['code']}")
    with pytest.raises(Exception, match="teacher"):
        request(f"{server.url}/api/classes/{klass['code']}/debrief", "GET", None, None)
    from tabletop_edu.classroom.class_board import ClassBoard

    shown = ClassBoard(teacher, klass["code"], language="fr").debrief()
    assert "Ce que la classe croyait" in shown._repr_html_() and repr(shown) == "<ClassDebrief>"
    beside = ClassBoard(teacher, klass["code"], language="fr").debrief(previous=adler_class(tables=1))
    assert "Classe précédente" in beside.html and "Une table n&#39;a pas fini" in beside.html


def test_no_log_line_holds_the_teachers_token_of_a_debrief_link() -> None:
    from tabletop_edu.classroom.handlers import redacted

    assert redacted("GET /debrief/s3cr3t-token/ABCDEF?lang=fr") == "GET /debrief/<token>/ABCDEF"
