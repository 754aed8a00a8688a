"""Belief questions in the class server: asked, stored before they are acknowledged, kept with the exact
posterior of the seat's own view, secret until the reveal, scored by the room's rule, and back after a restart.

Peek has no belief model of its own: `PeekBeliefs` below is a small one (who holds the next seat's card),
given to Peek's plugin for these tests only, so that the server's part is tested on the smallest game.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu import registry
from tabletop_edu.beliefs import STUDENT_STYLES, BeliefQuestion, SimulatedStudent, rounded_percents
from tabletop_edu.classroom import ClassServer, TeacherClient
from tabletop_edu.classroom.belief_pages import belief_panel
from tabletop_edu.classroom.client import ClassroomError, Feed, websocket_url
from tabletop_edu.classroom.games import ASKED
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.testing import ServerProcess, Student, play_to_the_end, seat_students, simulated_policy
from tabletop_edu.core import GameState, View, load


class PeekBeliefs:
    """Before each of its moves, a seat is asked which card the next seat holds (unless it has seen it), once a
    round (the key names the round); when the teacher asks, every seat is asked that at once."""

    def questions(self, view: View) -> list[BeliefQuestion]:
        return self.questions_when_asked(view) if view.current_player == view.seat else []

    def questions_when_asked(self, view: View) -> list[BeliefQuestion]:
        if view.seat is None or view.is_over:
            return []
        target = (view.seat + 1) % len(view.players)
        if target in view.facts["known_cards"]:
            return []
        values = tuple(str(value) for value in range(1, view.rules.highest_card + 1))
        name = view.players[target]
        return [BeliefQuestion(f"card:{target}@r{view.facts['round']}", f"Which card does {name} hold?",
                               f"Quelle carte {name} a-t-il ?",
                               values, values, values)]

    def posterior(self, view: View, question: BeliefQuestion) -> dict[str, float]:
        """Every deal that fits the view is as likely: count them."""
        target = target_of(question)
        known, ruled_out = view.facts["known_cards"], view.facts["not_cards"]
        hidden = [seat for seat in range(len(view.players)) if seat not in known]
        free = sorted(set(range(1, view.rules.highest_card + 1)) - set(known.values()))
        counts = Counter(deal[hidden.index(target)] for deal in itertools.permutations(free, len(hidden))
                         if all(value not in ruled_out.get(seat, ()) for seat, value in zip(hidden, deal)))
        total = sum(counts.values())
        return {option: counts[int(option)] / total for option in question.options}

    def truth(self, state: GameState[Any], question: BeliefQuestion) -> str | None:
        return str(state.cards[target_of(question)]) if state.is_over else None  # type: ignore[attr-defined]


def target_of(question: BeliefQuestion) -> int:
    """The seat a question of `PeekBeliefs` is about ("card:2@r1": seat 2, round 1)."""
    return int(question.key.split(":")[1].split("@")[0])


MODEL = PeekBeliefs()


@pytest.fixture(autouse=True)
def peek_asks_beliefs(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.games()
    assert registry._installed is not None
    plugin = registry._installed["peek"]
    monkeypatch.setitem(registry._installed, "peek", dataclasses.replace(plugin, beliefs=f"{__name__}:MODEL"))


def lopsided(question: dict[str, Any], table: dict[str, Any], rng: random.Random) -> dict[str, int]:
    """A student sure of nothing much: a random split of 100 over the options."""
    cuts = sorted(rng.randint(0, 100) for _ in range(len(question["options"]) - 1))
    shares = [high - low for low, high in zip([0, *cuts], [*cuts, 100])]
    return {option["option"]: share for option, share in zip(question["options"], shares)}


def asked_again(message: dict[str, Any]) -> bool:
    """A table message that holds the questions of the teacher's ask at step 0."""
    questions = (message.get("beliefs") or {}).get("questions", [])
    return message["type"] == "table" and any("#asked@0" in question["key"] for question in questions)


def stored(db: Path) -> list[tuple[Any, ...]]:
    """The beliefs table as another program reads it."""
    connection = sqlite3.connect(db)
    try:
        return connection.execute("SELECT room, step, seat, key, belief, posterior FROM beliefs "
                                  "ORDER BY rowid").fetchall()
    finally:
        connection.close()


def brier(belief: dict[str, float], truth: str) -> float:
    return 100 * (1 - sum((p - (option == truth)) ** 2 for option, p in belief.items()) / 2)


def log_points(belief: dict[str, float], truth: str) -> float:
    return 100 * (1 + math.log(max(belief[truth], 0.01)) / math.log(100))


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "beliefs.sqlite3"


@pytest.fixture()
def class_server(db: Path) -> Iterator[ClassServer]:
    server = ClassServer(db, flood=(10_000, 10_000.0)).start()
    try:
        yield server
    finally:
        server.stop()


def open_room(server: ClassServer, language: str = "en", scoring: str = "brier",
              seed: int = 3) -> tuple[TeacherClient, dict[str, Any], list[Student]]:
    teacher = TeacherClient(server.url, server.teacher_token)
    room = teacher.create_room("peek", 3, seed=seed, language=language, bot_delay=0, beliefs=True, scoring=scoring)
    students = seat_students(server.url, room["code"], ["Ana", "Bo", "Cy"], language)
    for student in students:
        student.wait_step(0)
    return teacher, room, students


@pytest.mark.parametrize("scoring", ["brier", "log"])
def test_a_game_with_beliefs_stores_exact_posteriors_and_scores_by_the_rule(class_server: ClassServer, db: Path,
                                                                          scoring: str) -> None:
    teacher, room, students = open_room(class_server, scoring=scoring)
    projector = Feed(websocket_url(class_server.url, f"/ws/watch/{room['watch_url'].rsplit('/', 1)[1]}"))
    try:
        steps = play_to_the_end(students, random.Random(4), believe=lopsided)
        rows = stored(db)
        assert len(rows) >= 3, "every seat was asked before its moves"
        record = teacher.record(room["code"])
        assert record is not None and len(record["actions"]) == steps
        for _, step, seat, key, belief, posterior in rows:  # the posterior of the seat's own view at that step
            then = load({**record, "actions": record["actions"][:step]})
            question = next(q for q in MODEL.questions(then.view(seat)) if q.key == key)
            assert json.loads(posterior) == pytest.approx(MODEL.posterior(then.view(seat), question))
            assert sum(json.loads(belief).values()) == pytest.approx(1)
        # Nothing of a belief reached the projector or the teacher before the reveal.
        before = teacher.room(room["code"])
        assert "rows" not in before["beliefs"] and before["beliefs"]["counts"] == \
            [sum(1 for row in rows if row[2] == seat) for seat in range(3)]
        teacher.command(room["code"], "reveal")
        shown = projector.next(lambda m: m["type"] == "table" and m["revealed"])
        games = teacher.games()
        answers = games[0].beliefs
        assert [(a.step, a.seat, a.question.key) for a in answers] == [(r[1], r[2], r[3]) for r in rows]
        cards = load(record).cards  # type: ignore[attr-defined]
        rule = brier if scoring == "brier" else log_points
        for answer in answers:
            assert answer.truth == str(cards[target_of(answer.question)]) and answer.rule == scoring
            assert answer.score == pytest.approx(rule(dict(answer.belief), answer.truth))
        for seat, student in enumerate(students):  # each seat's page shows its own mean, the projector all
            mine = [answer.score for answer in answers if answer.seat == seat]
            table = student.next(lambda m: m["type"] == "table" and m["revealed"])
            assert f"{sum(mine) / len(mine):.0f} / 100" in table["debrief"]
            assert f'<td>{student.name}</td><td class="num">{sum(mine) / len(mine):.0f}</td>' in shown["debrief"]
        frame = games.beliefs_dataframe()  # the export: one row per option of every answer
        assert len(frame) == sum(len(a.question.options) for a in answers)
        assert (frame["option"] == frame["truth"]).sum() == len(answers)
        assert list(frame["belief"]) == [a.belief[option] for a in answers for option in a.question.options]
    finally:
        projector.close()
        for student in students:
            student.close()


def test_no_seat_hears_of_another_seats_belief_before_the_reveal(class_server: ClassServer, db: Path) -> None:
    teacher, room, students = open_room(class_server)
    projector = Feed(websocket_url(class_server.url, f"/ws/watch/{room['watch_url'].rsplit('/', 1)[1]}"))
    try:
        play_to_the_end(students, random.Random(8), believe=lopsided)
        record = teacher.record(room["code"])
        assert record is not None
        rows = stored(db)
        assert rows
        for seat, student in enumerate(students):
            student.drain()
            for message in student.received:
                if message["type"] != "table" or not message["started"]:
                    continue
                assert "debrief" not in message
                # The panel is exactly the one built from this seat's questions and its own beliefs: nothing else.
                step = message["step"]
                state = load({**record, "actions": record["actions"][:step]})
                mine = {r[3]: _Stated(json.loads(r[4])) for r in rows if r[2] == seat and r[1] <= step}
                questions = [] if state.is_over else MODEL.questions(state.view(seat))
                expected = belief_panel(questions, mine, step, "brier", "en")
                sent = message["beliefs"]
                assert [q["key"] for q in sent["questions"]] == [q["key"] for q in expected["questions"]]
                assert all(q["sent"] is None or q["key"] in mine for q in sent["questions"])
            for message in student.received:
                assert message["type"] != "belief_received" or \
                    any(r[2] == seat and r[1] == message["step"] and r[3] == message["key"] for r in rows)
        projector_messages = []
        while True:
            try:
                projector_messages.append(projector.next(timeout=0.5))
            except TimeoutError:
                break
        assert projector_messages
        assert all("beliefs" not in m and "debrief" not in m for m in projector_messages)
    finally:
        projector.close()
        for student in students:
            student.close()


class _Stated:
    """A stored belief as `belief_panel` reads it."""

    def __init__(self, belief: dict[str, float]) -> None:
        self.belief = belief


BAD_BELIEFS = [
    ("not a mapping", ["1", "2"], "bad_belief", "A belief is a percentage"),
    ("unknown option", {"1": 50, "2": 50, "9": 0}, "bad_belief", "not a possible answer"),
    ("a missing option", {"1": 100}, "bad_belief", "every possible answer"),
    ("not whole", {"1": 50.5, "2": 49.5, "3": 0, "4": 0, "5": 0, "6": 0}, "bad_belief", "whole number"),
    ("negative", {"1": 110, "2": -10, "3": 0, "4": 0, "5": 0, "6": 0}, "bad_belief", "whole number"),
    ("true as a number", {"1": True, "2": 99, "3": 0, "4": 0, "5": 0, "6": 0}, "bad_belief", "whole number"),
    ("not summing to 100", {"1": 50, "2": 40, "3": 0, "4": 0, "5": 0, "6": 0}, "bad_belief", "add up to 90"),
]


@pytest.mark.parametrize(("kind", "percents", "code", "words"), BAD_BELIEFS, ids=[kind for kind, *_ in BAD_BELIEFS])
def test_a_bad_belief_is_refused_to_that_seat_and_nothing_is_stored(class_server: ClassServer, db: Path, kind: str,
                                                                    percents: Any, code: str, words: str) -> None:
    _, _, students = open_room(class_server)
    try:
        asker = students[0]  # seat 0 is to move first: it is asked
        question = asker.open_questions()[0]
        asker.feed.send({"type": "belief", "step": 0, "key": question["key"], "percents": percents})
        refusal = asker.next(lambda m: m["type"] in ("refused", "belief_received"))
        assert refusal["type"] == "refused" and refusal["code"] == code and words in refusal["message"], refusal
        assert stored(db) == []
    finally:
        for student in students:
            student.close()


def test_beliefs_out_of_place_are_refused_and_nothing_is_stored(class_server: ClassServer, db: Path) -> None:
    teacher, room, students = open_room(class_server, language="fr")
    try:
        asker, other = students[0], students[1]
        question = asker.open_questions()[0]
        good = {option["option"]: (100 if index == 0 else 0) for index, option in enumerate(question["options"])}
        cases = [
            (other, {"type": "belief", "step": 0, "key": "card:2@r1", "percents": good}, "no_question"),  # not asked
            (asker, {"type": "belief", "step": 0, "key": "card:9@r1", "percents": good}, "no_question"),
            (asker, {"type": "belief", "step": 5, "key": question["key"], "percents": good}, "stale"),  # the future
            (asker, {"type": "belief", "step": "0", "key": question["key"], "percents": good}, "malformed"),
            (asker, {"type": "belief", "step": 0, "key": ["card:1"], "percents": good}, "malformed"),
            (asker, {"type": "belief", "step": 0, "key": question["key"], "percents": {"1": 90}}, "bad_belief"),
        ]
        for student, message, code in cases:
            student.feed.send(message)
            refusal = student.next(lambda m: m["type"] in ("refused", "belief_received"))
            assert refusal["type"] == "refused" and refusal["code"] == code, (message, refusal)
            assert refusal["text"] and "The " not in refusal["text"], "a French page reads French"
        assert stored(db) == []
        asker.feed.send({"type": "belief", "step": 0, "key": question["key"], "percents": good})
        assert asker.next(lambda m: m["type"] in ("refused", "belief_received"))["type"] == "belief_received"
        asker.feed.send({"type": "belief", "step": 0, "key": question["key"], "percents": good})
        again = asker.next(lambda m: m["type"] in ("refused", "belief_received"))
        assert again["code"] == "answered" and len(stored(db)) == 1
        # A question the table left behind (asked at step 1, the seat moved without answering) is closed.
        asker.wait_step(0)
        asker.tap_move(random.Random(1))
        mover = students[1]
        mover.wait_step(1)
        key = mover.open_questions()[0]["key"]
        assert mover.tap_move(random.Random(1)) is not None
        mover.wait_step(2)
        mover.feed.send({"type": "belief", "step": 1, "key": key, "percents": good})
        late = mover.next(lambda m: m["type"] in ("refused", "belief_received"))
        assert late["code"] == "stale" and "la table a avancé" in late["text"]
        assert len(stored(db)) == 1
        projector = Feed(websocket_url(class_server.url, f"/ws/watch/{room['watch_url'].rsplit('/', 1)[1]}"))
        try:
            projector.next(lambda m: m["type"] == "table")
            projector.send({"type": "belief", "step": 1, "key": "card:1@r1", "percents": good})
            assert projector.next(lambda m: m["type"] == "refused")["code"] == "forbidden"
        finally:
            projector.close()
        assert len(stored(db)) == 1
    finally:
        for student in students:
            student.close()


def test_rooms_refuse_bad_belief_options(class_server: ClassServer) -> None:
    teacher = TeacherClient(class_server.url, class_server.teacher_token)
    for options, words in [({"beliefs": True, "scoring": "spherical"}, "scoring rule"),
                           ({"beliefs": "yes"}, "beliefs is true or false")]:
        with pytest.raises(ClassroomError, match=words):
            teacher.call("POST", "/api/rooms", {"game": "peek", "players": 3, **options})
    plain = teacher.create_room("peek", 3, seed=1)
    with pytest.raises(ClassroomError, match="asks no beliefs"):
        teacher.command(plain["code"], "ask")
    assert "beliefs" not in teacher.room(plain["code"])


def test_a_room_without_a_belief_model_cannot_ask(class_server: ClassServer, monkeypatch: pytest.MonkeyPatch) -> None:
    assert registry._installed is not None
    monkeypatch.setitem(registry._installed, "peek", dataclasses.replace(registry._installed["peek"], beliefs=None))
    teacher = TeacherClient(class_server.url, class_server.teacher_token)
    with pytest.raises(ClassroomError, match="asks no belief questions"):
        teacher.create_room("peek", 3, beliefs=True)


def test_the_teacher_asks_every_seat_at_once(class_server: ClassServer, db: Path) -> None:
    teacher, room, students = open_room(class_server)
    try:
        assert [bool(s.open_questions()) for s in students] == [True, False, False]  # the game asks the mover
        teacher.command(room["code"], "ask")
        for student in students[1:]:  # the mover is asked its game's question once, not again in the same words
            student.next(asked_again)
        keys = [[question["key"] for question in student.open_questions()] for student in students]
        assert keys == [["card:1@r1"], ["card:2@r1#asked@0"], ["card:0@r1#asked@0"]]
        for student in students:
            student.answer_beliefs(lopsided, random.Random(2))
        assert sorted(row[2] for row in stored(db)) == [0, 1, 2]
    finally:
        for student in students:
            student.close()


def test_a_belief_is_on_disk_before_it_is_acknowledged(class_server: ClassServer, db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _, room, students = open_room(class_server)
    order: list[str] = []
    submit_belief, stated = Store.submit_belief, ClassServer.belief_stated

    def storing(store: Store, *args: Any) -> Any:
        future = submit_belief(store, *args)
        future.add_done_callback(lambda _: order.append("stored"))  # called at the commit, before the loop hears
        return future

    def telling(server: ClassServer, *args: Any) -> None:
        order.append("told")
        stated(server, *args)
    monkeypatch.setattr(Store, "submit_belief", storing)
    monkeypatch.setattr(ClassServer, "belief_stated", telling)
    try:
        asker = students[0]
        question = asker.open_questions()[0]
        percents = rounded_percents({"1": 0.5, "2": 0.5}, [option["option"] for option in question["options"]])
        asker.feed.send({"type": "belief", "step": 0, "key": question["key"], "percents": percents})
        asker.next(lambda m: m["type"] == "belief_received")
        rows = stored(db)  # read by another connection once acknowledged
        assert order == ["stored", "told"]
        assert [row[:4] for row in rows] == [(room["code"], 0, 0, question["key"])]
        assert json.loads(rows[0][4]) == {option: percent / 100 for option, percent in percents.items()}

        def failing(store: Store, *args: Any) -> Any:
            raise sqlite3.OperationalError("disk I/O error")
        monkeypatch.setattr(Store, "submit_belief", failing)  # a write that fails: refused, never acknowledged
        teacher = TeacherClient(class_server.url, class_server.teacher_token)
        teacher.command(room["code"], "ask")
        other = students[1]
        other.next(lambda m: m["type"] == "table" and bool((m.get("beliefs") or {}).get("questions")))
        key = other.open_questions()[0]["key"]
        other.feed.send({"type": "belief", "step": 0, "key": key, "percents": percents})
        refusal = other.next(lambda m: m["type"] in ("refused", "belief_received"))
        assert refusal["type"] == "refused" and refusal["code"] == "storage"
        assert len(stored(db)) == 1 and order == ["stored", "told"]
    finally:
        for student in students:
            student.close()


def test_beliefs_survive_a_restart(db: Path) -> None:
    server = ClassServer(db, flood=(10_000, 10_000.0)).start()
    try:
        teacher, room, students = open_room(server)
        students[0].answer_beliefs(lopsided, random.Random(3))
        for student in students:
            student.close()
        before = stored(db)
        assert len(before) == 1
    finally:
        server.stop()
    server = ClassServer(db, flood=(10_000, 10_000.0)).start()
    try:
        teacher = TeacherClient(server.url, server.teacher_token)
        info = teacher.room(room["code"])
        assert info["beliefs"]["counts"] == [1, 0, 0] and info["beliefs"]["scoring"] == "brier"
        back = Student(server.url, info["seats"][0]["link"].rsplit("/", 1)[1], 0, "Ana")
        try:
            table = back.wait_step(0)
            assert table["beliefs"]["questions"][0]["sent"] is not None, "the page remembers the answer"
            key = table["beliefs"]["questions"][0]["key"]
            back.feed.send({"type": "belief", "step": 0, "key": key,
                            "percents": table["beliefs"]["questions"][0]["sent"]})
            assert back.next(lambda m: m["type"] == "refused")["code"] == "answered"
        finally:
            back.close()
        records = teacher.records()
        assert len(records[0]["beliefs"]["rows"]) == 1 and stored(db) == before
    finally:
        server.stop()


def test_the_dashboard_asks_counts_and_shows_the_debrief_after_the_reveal(tmp_path: Path) -> None:
    from tabletop_edu import classroom

    dashboard = classroom.open("peek", 3, seed=5, db=tmp_path / "class.sqlite3", bot_delay=0, beliefs=True,
                               language="fr", bots={2: "random"})
    try:
        server = classroom.start(tmp_path / "class.sqlite3")
        students = [Student.join(server.url, dashboard.code, name, "fr") for name in ("Ana", "Bo")]
        dashboard.wait_for(lambda d: d.state is not None)
        assert not dashboard.ask_button.disabled and dashboard.ask_button.description == "Demander ce qu'ils croient"
        dashboard.ask_button.click()
        dashboard.wait_for(lambda d: d.info["beliefs"]["asked_steps"] == [0])
        students[0].wait_step(0)
        students[1].next(asked_again)  # the game asks Ana (to move), the teacher Bo: each once
        for student in students:
            student.answer_beliefs(lopsided, random.Random(6))
        dashboard.wait_for(lambda d: d.info["beliefs"]["counts"] == [1, 1, 0])
        assert "Croyances données" in dashboard.beliefs.value and "%" not in dashboard.beliefs.value
        play_to_the_end(students, random.Random(6), believe=lopsided)
        dashboard.wait_for(lambda d: d.info["over"])
        assert dashboard.ask_button.disabled and "debrief" not in dashboard.info["beliefs"]
        dashboard.reveal()
        dashboard.wait_for(lambda d: "Ce que la classe croyait" in d.beliefs.value)
        assert "Ana" in dashboard.beliefs.value and "Bo" in dashboard.beliefs.value
        assert "Bot" not in dashboard.beliefs.value  # a bot states no belief
        for student in students:
            student.close()
    finally:
        dashboard.close()
        classroom.stop_all()


THREE = [("mafia_de_cuba", 6, "fr", "log"), ("get_adler", 5, "en", "brier"), ("commissario", 3, "en", "brier")]


@pytest.mark.parametrize(("game", "players", "language", "scoring"), THREE, ids=[game for game, *_ in THREE])
def test_each_game_with_beliefs_keeps_posteriors_secrets_and_scores(class_server: ClassServer, db: Path, game: str,
                                                                    players: int, language: str,
                                                                    scoring: str) -> None:
    """Simulated students (seeded styles) answer every question their own page asks while they play; each stored
    posterior is the game model's from that seat's view at that step (the record replayed), no page ever shows
    a belief of another seat, and after the reveal the points follow the rule."""
    teacher = TeacherClient(class_server.url, class_server.teacher_token)
    room = teacher.create_room(game, players, seed=7, language=language, bot_delay=0, beliefs=True, scoring=scoring)
    students = seat_students(class_server.url, room["code"], [f"<img src=x>Élève {seat}" for seat in range(players)],
                             language, views=True)
    styles = list(STUDENT_STYLES)
    policies = [simulated_policy(game, SimulatedStudent(styles[seat % len(styles)], seed=seat, answers=0.8))
                for seat in range(players)]
    model = registry.game(game).belief_model()
    try:
        play_to_the_end(students, random.Random(2), believe=policies)
        record = teacher.record(room["code"])
        assert record is not None
        rows = stored(db)
        asked = {seat for seat, student in enumerate(students) for message in student.received
                 if message["type"] == "table" and message.get("beliefs", {}).get("questions")}
        assert len(rows) >= players and len(asked) >= players - 1
        assert {row[2] for row in rows} == asked, "every seat asked stated beliefs"
        for _, step, seat, key, belief, posterior in rows:
            view = load({**record, "actions": record["actions"][:step]}).view(seat)
            question = next(q for q in model.questions(view) if q.key == key)
            assert json.loads(posterior) == pytest.approx(model.posterior(view, question), abs=1e-12)
        for seat, student in enumerate(students):
            student.drain()
            mine = {row[3] for row in rows if row[2] == seat}
            for message in student.received:
                if message["type"] == "table" and "beliefs" in message:
                    assert {q["key"] for q in message["beliefs"]["questions"] if q["sent"] is not None} <= mine
                    assert "debrief" not in message
        assert "rows" not in teacher.room(room["code"])["beliefs"]
        teacher.command(room["code"], "reveal")
        answers = teacher.games()[0].beliefs
        assert len(answers) == len(rows) and all(answer.truth is not None for answer in answers)
        # The game's own tables come later, from a worker thread: Commissario's solves the round for every release
        # a seat held (tens of seconds of one core at three seats, minutes on a machine whose cores are all busy).
        feed = teacher.follow(room["code"])
        try:
            debrief = feed.next(lambda m: "game-debrief" in
                                ((m.get("beliefs") or {}).get("debrief") or {}).get(language, ""), 900)["beliefs"]
        finally:
            feed.close()
        assert "&lt;img src=x&gt;Élève" in debrief["debrief"][language] and "<img" not in debrief["debrief"][language]
        rule = brier if scoring == "brier" else log_points
        for answer in answers:
            assert answer.truth in answer.question.options
            assert answer.score == pytest.approx(rule(dict(answer.belief), str(answer.truth)))
    finally:
        for student in students:
            student.close()


def test_serve_opens_rooms_that_ask_beliefs_and_a_hard_kill_loses_no_stated_belief(tmp_path: Path) -> None:
    from tabletop_edu.get_adler import new_game
    from tabletop_edu.get_adler.rules import ADLER

    db = tmp_path / "served.sqlite3"
    seed = next(seed for seed in range(100) if new_game(4, seed=seed).characters[0] != ADLER)  # Ada is a hero
    server = ServerProcess(db, tmp_path / "serve.log", "--room", "get_adler:4", "--beliefs", "--scoring", "log",
                           "--seed", str(seed)).start()
    try:
        code = server.wait_for(r"room (\w+) \(Get Adler").group(1)
        teacher = TeacherClient(server.url, server.token)
        assert teacher.room(code)["beliefs"]["scoring"] == "log"
        ada = Student.join(server.url, code, "Ada")
        teacher.command(code, "pause")  # the bots wait: the question stays where it is
        for seat in (1, 2, 3):
            teacher.command(code, "bot", seat=seat, bot="smart")
        ada.wait_step(0)
        acknowledged = ada.answer_beliefs(lopsided, random.Random(1))
        assert len(acknowledged) == 1
        ada.close()
        server.kill()  # SIGKILL, right after the acknowledgement
        server = ServerProcess(db, tmp_path / "serve.log").start()
        teacher = TeacherClient(server.url, server.token)
        rows = teacher.records()[0]["beliefs"]["rows"]
        assert [(row["seat"], row["key"]) for row in rows] == [(0, acknowledged[0]["key"])]
        back = Student(server.url, ada.token, 0, "Ada")
        try:
            assert back.wait_step(0)["beliefs"]["questions"][0]["sent"] is not None
        finally:
            back.close()
    finally:
        server.kill()


def test_the_debrief_shows_calibration_from_the_answers() -> None:
    """The calibration table counts every option of every answer in its band, and says how often it was true."""
    from tabletop_edu.beliefs import BeliefAnswer
    from tabletop_edu.classroom.debrief_page import table_debrief_html
    from tabletop_edu.classroom.export import ClassGame, ClassGames

    question = BeliefQuestion("card:1@r1", "Which card?", "Quelle carte ?", ("1", "2"), ("1", "2"), ("1", "2"))
    from tabletop_edu.examples.peek import new_game

    state = new_game(["Ana", "Bo"], seed=1)
    said = [("Ana", {"1": 0.9, "2": 0.1}), ("Bo", {"1": 0.1, "2": 0.9})]
    answers = tuple(BeliefAnswer("R", 1, "peek", seat, name, 0, question, belief, {"1": 0.5, "2": 0.5}, "1")
                    for seat, (name, belief) in enumerate(said))
    games = ClassGames([ClassGame("R", 1, "Peek", ("Ana", "Bo"), state.record(), (), answers)])
    page = table_debrief_html(games, "brier", "en", own=[])
    # 0.9 and 0.9 are in the top band: one true (Ana's "1"), one false (Bo's "2"); so is the bottom band.
    assert '<td>80-100 %</td><td class="num">50&nbsp;%<br><small>n&nbsp;=&nbsp;2</small></td>' in page
    assert '<td>40-60 %</td><td class="num">—</td><td class="num">50&nbsp;%<br><small>n&nbsp;=&nbsp;4</small></td>' \
        in page
    assert "Calibration" in page and "Ana" in page


def test_the_teachers_ask_in_mafias_box_round_reaches_every_seat_and_stores_the_posterior(
        class_server: ClassServer, db: Path) -> None:
    """During the box round Mafia de Cuba itself asks nothing; the teacher's ask gives every seat the questions
    of its own view then (each taker who has taken, unless the view settles their role), and an answer is stored
    with the model's exact posterior of that view."""
    teacher = TeacherClient(class_server.url, class_server.teacher_token)
    room = teacher.create_room("mafia_de_cuba", 6, seed=7, language="fr", bot_delay=0, beliefs=True)
    students = seat_students(class_server.url, room["code"], [f"Élève {seat}" for seat in range(6)], "fr")
    model = registry.game("mafia_de_cuba").belief_model()
    rng = random.Random(4)
    try:
        box_round = 4  # hide, set aside, two takes: the box is with the third taker
        for step in range(box_round):
            for student in students:
                student.wait_step(step)
            (mover,) = [student for student in students if student.table and student.table["menu"]]
            assert mover.tap_move(rng) is not None
        for student in students:
            student.wait_step(box_round)
            assert student.open_questions() == []  # the game asks nothing in the box round
        record = teacher.record(room["code"])
        assert record is not None and len(record["actions"]) == box_round
        views = [load(record).view(seat) for seat in range(6)]
        assert views[0].facts["phase"] == "take"
        expected = [[f"{question.key}#asked@{box_round}" for question in model.questions_when_asked(view)]
                    for view in views]
        assert sum(map(len, expected)) >= 4 and sum(not keys for keys in expected) <= 2
        teacher.command(room["code"], "ask")
        for student, keys in zip(students, expected):
            if keys:
                student.next(lambda m: m["type"] == "table" and any(
                    ASKED in q["key"] for q in (m.get("beliefs") or {}).get("questions", [])))
            assert [question["key"] for question in student.open_questions()] == keys
        seat = next(seat for seat, keys in enumerate(expected) if keys)

        def first_only(question: dict[str, Any], table: dict[str, Any], rng: random.Random) -> dict[str, int] | None:
            return lopsided(question, table, rng) if question["key"] == expected[seat][0] else None

        (acknowledged,) = students[seat].answer_beliefs(first_only, random.Random(5))
        ((_, step, stored_seat, key, _, posterior),) = stored(db)
        assert (step, stored_seat, key) == (box_round, seat, expected[seat][0]) == (box_round, seat,
                                                                                   acknowledged["key"])
        question = model.questions_when_asked(views[seat])[0]
        assert json.loads(posterior) == pytest.approx(model.posterior(views[seat], question), abs=1e-12)
        assert 0 < max(json.loads(posterior).values()) < 1
    finally:
        for student in students:
            student.close()
