"""Students' bots (`classroom.join`): a student's notebook seats a `Bot` at a room, which plays its seat over
the network from the seat's view alone (`?view=1` messages), beside room bots and people; what it is sent is
that seat's view and nothing more; a bot that breaks stops its own seat, says why, and breaks nothing else."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from tabletop_edu import load, registry
from tabletop_edu.classroom import ClassroomError, ClassServer, SeatedBot, TeacherClient, join
from tabletop_edu.classroom.testing import leaked, secrets_for
from tabletop_edu.core import Action, RandomBot, View, view_to_json
from tabletop_edu.ismcts import bind_worlds


def seat_bots(server: ClassServer, code: str, bots: Sequence[Any]) -> list[SeatedBot]:
    return [join(server.url, code, bot, name=f"student {index}", seed=index) for index, bot in enumerate(bots)]


def close_all(handles: list[SeatedBot]) -> None:
    for handle in handles:
        handle.close()


def moves_of(record: dict[str, Any], seat: int) -> int:
    return sum(1 for mover, _ in record["actions"] if mover == seat)


def test_a_room_of_student_bots_plays_to_the_end_and_its_record_replays(fast_server: ClassServer) -> None:
    teacher = TeacherClient(fast_server.url, fast_server.teacher_token)
    room = teacher.create_room("peek", 3, seed=4, bot_delay=0)
    bots = [RandomBot(), registry.games()["peek"].make_bot("ismcts", iterations=20), RandomBot()]
    handles = seat_bots(fast_server, room["code"], bots)
    try:
        assert all(handle.wait_until_over(20) for handle in handles), [handle.error for handle in handles]
        record = teacher.record(room["code"])
        assert record is not None and record["players"] == ["student 0", "student 1", "student 2"]
        replayed = load(record)
        assert replayed.is_over and len(record["actions"]) == replayed.max_steps
        for handle in handles:
            assert handle.error is None and handle.refusals == []
            assert handle.moves == moves_of(record, handle.seat) > 0
            last = handle.table
            assert last is not None and last["over"] and last["legal"] == []
            assert last["view"] == view_to_json(replayed.view(handle.seat))  # the same end, seat by seat
        # The same bots with the same seeds, at a table of this process, play the very same game.
        state = load({**record, "actions": []})
        rngs = {handle.seat: random.Random(index) for index, handle in enumerate(handles)}
        again = [RandomBot(), registry.games()["peek"].make_bot("ismcts", iterations=20), RandomBot()]
        while not state.is_over:
            seat = state.acting_seats[0]
            bind_worlds(again[seat], state, seat)  # worlds from the seat's view, as the student's handle draws them
            state.apply(again[seat].choose(state.view(seat), state.legal_actions(seat), rngs[seat]), player=seat)
        assert [list(entry) for entry in state.history] == record["actions"]
    finally:
        close_all(handles)


def test_two_student_bots_and_four_room_bots_play_mafia_de_cuba(fast_server: ClassServer) -> None:
    teacher = TeacherClient(fast_server.url, fast_server.teacher_token)
    plugin = registry.games()["mafia_de_cuba"]
    room = teacher.create_room("mafia_de_cuba", 6, seed=8, bot_delay=0,
                               bots={2: "loyal", 3: "greedy-thief", 4: "random", 5: "cautious-thief"})
    handles = seat_bots(fast_server, room["code"], [plugin.make_bot("greedy-thief"), RandomBot()])
    try:
        assert [handle.seat for handle in handles] == [0, 1]
        assert all(handle.wait_until_over(20) for handle in handles), [handle.error for handle in handles]
        record = teacher.record(room["code"])
        assert record is not None and load(record).is_over
        for handle in handles:
            assert handle.error is None and handle.moves == moves_of(record, handle.seat) > 0
        moves = teacher.room(room["code"])["moves"]
        assert {actor for _, seat, _, actor, _ in moves if seat in (0, 1)} == {"seat"}
        assert {actor for _, seat, _, actor, _ in moves if seat >= 2} == {"bot"}
    finally:
        close_all(handles)


def test_a_seat_s_view_messages_hold_its_own_view_and_no_other_seat_s_secret(fast_server: ClassServer) -> None:
    teacher = TeacherClient(fast_server.url, fast_server.teacher_token)
    room = teacher.create_room("commissario", 3, seed=2, bot_delay=0, language="fr",
                               rules={"highest_value": 3})  # a short game, with simultaneous choices
    handles = seat_bots(fast_server, room["code"], [RandomBot(), RandomBot(), RandomBot()])
    try:
        assert all(handle.wait_until_over(20) for handle in handles), [handle.error for handle in handles]
        record = teacher.record(room["code"])
        assert record is not None
        for handle in handles:  # two seats choosing at once race for a step: the loser is told "stale", no error
            assert handle.error is None and {refusal["code"] for refusal in handle.refusals} <= {"stale", "over"}
            # each refusal names the step of the move it refused, so the handle counts exactly what was played
            assert all(refusal["step"] is not None and refusal["action"] for refusal in handle.refusals)
            assert handle.moves == sum(1 for mover, _ in record["actions"] if mover == handle.seat)
        received = sorted(((json.loads(text), handle.seat) for handle in handles for text in handle.feed.raw),
                          key=lambda pair: pair[0].get("step") or 0)
        state = load({**record, "actions": []})
        checked, secrets_seen = 0, 0
        secrets: dict[int, set[str]] = {}
        for message, seat in received:
            if message["type"] != "table" or not message["started"]:
                continue
            while len(state.history) < message["step"]:
                mover, text = record["actions"][len(state.history)]
                state.apply(text, player=mover)
                secrets = {}
            if seat not in secrets:
                secrets[seat] = secrets_for(state, seat)
                secrets_seen += bool(secrets[seat])
            assert not leaked(message, state, seat, secrets[seat]), f"seat {seat} was told a secret at {message['step']}"
            assert message["view"] == view_to_json(state.view(seat))  # that seat's view, exactly
            acting = not state.is_over and seat in state.acting_seats
            assert message["legal"] == ([str(action) for action in state.legal_actions(seat)] if acting else [])
            checked += 1
        assert checked >= len(record["actions"]) and secrets_seen > 0  # there were secrets to keep
    finally:
        close_all(handles)


class Exploding:
    """A student's bot with a bug."""

    name = "exploding"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        raise ZeroDivisionError("my strategy divides by zero")


class Cheating:
    """A student's bot that sends a move no rule allows."""

    name = "cheating"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Any:
        return "peek 99"


@pytest.mark.parametrize(("bad_bot", "expected"), [(Exploding(), "ZeroDivisionError.*divides by zero"),
                                                   (Cheating(), "refused the move 'peek 99'.*illegal")])
def test_a_broken_bot_stops_its_seat_says_why_and_the_room_goes_on(fast_server: ClassServer, bad_bot: Any,
                                                                   expected: str) -> None:
    teacher = TeacherClient(fast_server.url, fast_server.teacher_token)
    room = teacher.create_room("peek", 2, seed=1, bot_delay=0)
    handles = seat_bots(fast_server, room["code"], [bad_bot, RandomBot()])
    broken, good = handles
    try:
        assert broken.wait_until_over(20) is False
        assert broken.error is not None and broken.moves == 0
        assert re.search(expected, broken.error), broken.error
        if isinstance(bad_bot, Cheating):
            assert [refusal["code"] for refusal in broken.refusals] == ["illegal"]
            assert broken.refusals[0]["action"] == "peek 99"
        else:
            assert isinstance(broken.exception, ZeroDivisionError) and broken.refusals == []
        # The server still answers, and the teacher seats a room bot at the broken seat: the game ends.
        teacher.command(room["code"], "bot", seat=broken.seat, bot="random")
        assert good.wait_until_over(20) and good.error is None
        record = teacher.record(room["code"])
        assert record is not None and load(record).is_over and moves_of(record, good.seat) == good.moves
    finally:
        close_all(handles)


def test_join_refuses_what_cannot_play(server: ClassServer, teacher: TeacherClient) -> None:
    room = teacher.create_room("peek", 2, seed=1)
    with pytest.raises(TypeError, match="choose"):
        join(server.url, room["code"], object(), name="nobody")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="language"):
        join(server.url, room["code"], RandomBot(), name="x", language="de")
    with pytest.raises(ClassroomError) as unknown:
        join(server.url, "ZZZZZ", RandomBot(), name="x")
    assert unknown.value.code == "unknown_room"
    first = join(server.url, room["code"], RandomBot(), name="Ada")
    try:
        with pytest.raises(ClassroomError) as taken:
            join(server.url, room["code"], RandomBot(), name="ada")
        assert taken.value.code == "name_taken"
        assert [seat["name"] for seat in teacher.room(room["code"])["seats"]] == ["Ada", None]  # nothing changed
    finally:
        first.close()
