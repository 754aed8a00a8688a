"""The teacher's side: `classroom.open` starts the server beside the kernel and returns the dashboard, which
follows the room live (who sits where, the projector's and the teacher's views, the knowledge panels) and
drives it (bots, pause, step, reveal); the class's games go to the analysis tools."""

from __future__ import annotations

import csv
import io
import random
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from tabletop_edu import classroom
from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.export import FORMULA_STARTS, ClassGame, ClassGames, spreadsheet_cell
from tabletop_edu.core import RandomBot, play_game
from tabletop_edu.examples import peek
from tabletop_edu.classroom.testing import Student, play_to_the_end
from tabletop_edu.tournament import TournamentResult


@pytest.fixture()
def dashboard(tmp_path: Path) -> Iterator[Any]:
    room = classroom.open("mafia_de_cuba", 6, seed=3, db=tmp_path / "class.sqlite3", bot_delay=0,
                          bots={4: "loyal", 5: "random"})
    try:
        yield room
    finally:
        room.close()
        classroom.stop_all()


def test_the_dashboard_follows_and_drives_a_room(dashboard: Any, tmp_path: Path) -> None:
    dashboard.wait_for(lambda d: d.info["seats"][4]["bot"] == "loyal")
    assert "Bot 5 (loyal)" in dashboard.seats.value and dashboard.state is None
    assert "<svg" in dashboard.seats.value  # QR codes of the links
    assert repr(dashboard) == "<Dashboard of a Mafia de Cuba room>"  # no token, no port: stable in notebooks
    server = classroom.start(tmp_path / "class.sqlite3")
    students = [Student.join(server.url, dashboard.code, name) for name in ("Ada", "Bob", "Cy")]
    try:
        dashboard.wait_for(lambda d: all(seat["name"] for seat in d.info["seats"][:3]) and d.info["seats"][3]["name"] is None)
        assert "Ada" in dashboard.seats.value and "Cy" in dashboard.seats.value
        dashboard.pause()
        dashboard.wait_for(lambda d: d.info["paused"])
        dashboard.seat_picker.value = 3
        dashboard.bot_picker.value = "random"
        dashboard.seat_bot_button.click()  # the last seat: the game starts, paused
        dashboard.wait_for(lambda d: d.state is not None)
        assert dashboard.info["step"] == 0 and "Ada" in dashboard.teacher.value
        dashboard.step_button.click()  # the teacher lets the bot to move (Ada is the Godfather: none) play
        assert "No bot" in dashboard.message.value
        dashboard.pause_button.click()
        dashboard.wait_for(lambda d: not d.info["paused"])
        play_to_the_end(students, random.Random(1))
        dashboard.wait_for(lambda d: d.info["over"])
        assert dashboard.state is not None and dashboard.state.is_over
        dashboard.tabs.selected_index = 3
        dashboard.wait_for(lambda d: "classroom-flow" in d.flow.value, timeout=60)
        assert "mdc-posterior" in dashboard.knowledge.value
        projector = dashboard.projector.value
        godfather_secret = next(event.text for event in dashboard.state.events if event.kind == "hide")
        assert godfather_secret not in projector  # the projector shows the spectator's view only
        dashboard.reveal_button.click()
        dashboard.wait_for(lambda d: d.info["revealed"])
        students[1].next(lambda m: m["type"] == "table" and m["revealed"])
    finally:
        for student in students:
            student.close()

    games = dashboard.games()
    assert isinstance(games, ClassGames) and len(games) == 1 and len(games.finished()) == 1
    (table,) = games.tournament()
    assert isinstance(table, TournamentResult)
    assert {row.bot for row in table.rows()} == {"Ada", "Bob", "Cy", "bot\u00a0random", "bot\u00a0loyal"}
    assert sum(row.games for row in table.rows()) == 6
    assert isinstance(games.flow(0), nx.MultiDiGraph) and games.flow(0).number_of_edges() > 0
    assert games.draw_flow(0).axes
    posterior = games.posteriors(0)
    assert posterior and all(abs(sum(roles.values()) - 1) < 1e-9 for roles in posterior.values())
    moves = games.dataframe()
    assert list(moves.columns)[:4] == ["room", "game", "step", "seat"]
    assert len(moves) == len(games[0].state().history) and set(moves["actor"]) <= {"seat", "bot"}
    results = games.results_dataframe()
    assert len(results) == 6 and results["won"].sum() == len(games[0].state().winners)


def test_without_pandas_the_rows_are_still_there(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # importing it fails, as where it is not installed
    games = ClassGames([])
    with pytest.raises(ImportError, match=r'needs pandas, .* pip install "tabletop_edu\[analysis\]"'):
        games.dataframe()
    assert games.move_rows() == [] and games.result_rows() == []


def test_a_server_restarted_on_its_file_keeps_its_rooms(tmp_path: Path) -> None:
    db = tmp_path / "class.sqlite3"
    room = classroom.open("peek", 2, seed=1, db=db, bot_delay=0, bots={1: "random"})
    try:
        server = classroom.start(db)
        ada = Student.join(server.url, room.code, "Ada")
        ada.wait_step(0)
        ada.tap_move(random.Random(2))
        room.wait_for(lambda d: d.info["step"] >= 2)  # Ada's move, then the bot's
        ada.close()
        room.close()
        classroom.stop_all()
        again = classroom.start(db)
        assert again is not server
        teacher = classroom.connect(again.url, again.teacher_token)
        assert teacher.token == server.teacher_token
        assert len(teacher.record(room.code)["actions"]) >= 2
        ada_again = Student(again.url, ada.token, 0, "Ada")
        assert ada_again.wait_step(len(teacher.record(room.code)["actions"]))["menu"] is not None
        ada_again.close()
    finally:
        classroom.stop_all()


SPREADSHEET_NAMES = ['=HYPERLINK("http://x.example","click")', "+1", "-2", "@x", "Ann"]


@pytest.mark.parametrize("name", SPREADSHEET_NAMES)
def test_names_are_plain_text_in_csv_and_as_typed_in_dataframes(name: str) -> None:
    state = play_game(peek.new_game([name, "Bob"], seed=4), [RandomBot()] * 2)
    game = ClassGame("ABCDE", 1, "Peek", (name, "Bob"), state.record(),
                     tuple((step, seat, action, "seat", 100.0 + step) for step, (seat, action) in
                           enumerate(state.history)))
    games = ClassGames([game])
    for text in (games.moves_csv(), games.results_csv()):
        rows = list(csv.DictReader(io.StringIO(text)))
        players = {row["player"] for row in rows}
        shown = name if name == "Ann" else "'" + name  # a spreadsheet shows the text, never runs a formula
        assert shown in players and "Bob" in players
        assert all(not cell.startswith(FORMULA_STARTS) for row in rows for cell in row.values())
    scores = {row["player"]: row["score"] for row in csv.DictReader(io.StringIO(games.results_csv()))}
    assert all(score.lstrip("-").replace(".", "").isdigit() for score in scores.values())  # numbers stay numbers
    assert spreadsheet_cell(-2) == -2 and spreadsheet_cell("-2") == "'-2" and spreadsheet_cell("\tx") == "'\tx"
    assert name in set(games.dataframe()["player"]) and name in set(games.results_dataframe()["player"])


def test_the_dashboard_shows_the_rooms_that_cannot_be_read_with_their_reasons(tmp_path: Path) -> None:
    db = tmp_path / "class.sqlite3"
    with ClassServer(db) as first:
        teacher = TeacherClient(first.url, first.teacher_token)
        good, bad = (teacher.create_room("peek", 2, seed=seed, bot_delay=0)["code"] for seed in (1, 2))
    with sqlite3.connect(db) as database:
        database.execute("UPDATE rooms SET game = '<b>no_such_game' WHERE code = ?", (bad,))
    with ClassServer(db) as server:
        dashboard = TeacherClient(server.url, server.teacher_token).dashboard(good)
        try:
            shown = dashboard.broken.value
            assert bad in shown and "no_such_game" in shown and "cannot be read" in shown
            assert "<b>no_such" not in shown and "&lt;b&gt;no_such_game" in shown  # the reason is plain text
            dashboard.language_picker.value = "fr"
            assert "illisibles" in dashboard.broken.value and bad in dashboard.broken.value
        finally:
            dashboard.close()
        clean = TeacherClient(server.url, server.teacher_token)
        teacher_room = clean.create_room("peek", 2, seed=3, bot_delay=0)["code"]
    with sqlite3.connect(db) as database:
        database.execute("DELETE FROM seats WHERE room = ?", (bad,))
        database.execute("DELETE FROM rooms WHERE code = ?", (bad,))
    with ClassServer(db) as server:
        dashboard = TeacherClient(server.url, server.teacher_token).dashboard(teacher_room)
        try:
            assert dashboard.broken.value == ""  # every room read: nothing shown
        finally:
            dashboard.close()


@pytest.mark.parametrize(("language", "words", "not_words"), [
    ("fr", "Les élèves se placent avant le début de la partie", "has started"),
    ("en", "this game has started", "commencé"),
])
def test_a_seat_placement_refused_after_the_start_is_told_in_the_dashboards_language(
        tmp_path: Path, language: str, words: str, not_words: str) -> None:
    dashboard = classroom.open("peek", 2, seed=1, db=tmp_path / "class.sqlite3", bot_delay=0, language=language)
    try:
        dashboard.wait_for(lambda d: d.info is not None)
        server = classroom.start(tmp_path / "class.sqlite3")
        students = [Student.join(server.url, dashboard.code, name) for name in ("Ana", "Bo")]
        try:
            dashboard.wait_for(lambda d: d.info["started"])
            dashboard.swap(0, 1)  # as a click that came just before the page greyed the button out
            assert words in dashboard.message.value and not_words not in dashboard.message.value
        finally:
            for student in students:
                student.close()
    finally:
        dashboard.close()
        classroom.stop_all()
