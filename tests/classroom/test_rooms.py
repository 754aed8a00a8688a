"""The rules of the class server without the web: rooms, seats, names, tokens, moves, bots, and the store.

Every refusal is shown to change nothing: not the game (its fingerprint), not the database (its rows)."""

from __future__ import annotations

import asyncio
import random
import string
import threading
from collections.abc import Awaitable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tabletop_edu.classroom.hall import CODE_ALPHABET, CODE_LENGTH, Hall
from tabletop_edu.classroom.rooms import MAX_NAME, Refused, Room
from tabletop_edu.classroom.store import StorageBusy, Store
from tabletop_edu.classroom.testing import altered, run_now


@pytest.fixture()
def hall(tmp_path: Path) -> Hall:
    return Hall(Store(tmp_path / "class.sqlite3"))


def snapshot(hall: Hall, room: Room) -> tuple[Any, ...]:
    """Everything a refusal must leave as it was: the game, the seats, the flags and the stored rows."""
    store = hall.store
    return (None if room.state is None else room.state.fingerprint(), [vars(seat).copy() for seat in room.seats],
            room.paused, room.revealed, room.closed, store.actions(room.code), store.seats(room.code),
            [row for row in store.rooms() if row.code == room.code])


def refused(code: str, call: Any, hall: Hall, room: Room) -> Refused:
    before = snapshot(hall, room)
    with pytest.raises(Refused) as caught:
        call()
    return changed_nothing(caught.value, code, hall, room, before)


async def refused_on_loop(code: str, work: Awaitable[Any], hall: Hall, room: Room) -> Refused:
    """`refused`, for a coroutine of the hall awaited on the running loop."""
    before = snapshot(hall, room)
    with pytest.raises(Refused) as caught:
        await work
    return changed_nothing(caught.value, code, hall, room, before)


def changed_nothing(refusal: Refused, code: str, hall: Hall, room: Room, before: Any) -> Refused:
    assert refusal.code == code, (refusal.code, str(refusal))
    assert str(refusal), "a refusal says why"
    assert snapshot(hall, room) == before, f"refusal {code} changed something"
    return refusal


def test_a_room_has_a_short_code_and_unguessable_distinct_tokens(hall: Hall) -> None:
    rooms = [run_now(hall.create_room("peek", 4, seed=1)) for _ in range(5)]
    codes = {room.code for room in rooms}
    assert len(codes) == 5 and all(len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) for code in codes)
    tokens = [seat.token for room in rooms for seat in room.seats] + [room.watch_token for room in rooms]
    assert len(set(tokens)) == len(tokens) and all(len(token) >= 22 for token in tokens)
    assert hall.teacher_token not in tokens and len(hall.teacher_token) >= 32


def test_students_join_by_code_or_link_and_the_game_starts_with_their_names(hall: Hall) -> None:
    room = run_now(hall.create_room("peek", 3, seed=4))
    told: list[int] = []
    hall.listeners.append(lambda changed: told.append(changed.step))
    assert run_now(hall.join(room.code.lower(), "  Ada   Lovelace "))[1].number == 0  # codes read in any case
    run_now(hall.claim(room.seats[2].token, "Émile"))
    assert room.state is None and not room.started
    _, seat = run_now(hall.join(room.code, "<b>Bob</b>"))
    assert seat.number == 1 and room.started and room.state is not None
    assert room.state.players == ("Ada Lovelace", "<b>Bob</b>", "Émile")
    assert len(told) == 3
    reopened = Hall(Store(hall.store.path))
    assert reopened.rooms[room.code].state.fingerprint() == room.state.fingerprint()  # type: ignore[union-attr]



def test_students_sitting_down_at_once_hold_their_seats_until_stored_and_the_game_starts_with_every_name(
        hall: Hall) -> None:
    room = run_now(hall.create_room("commissario", 4, seed=5, bots={3: "random"}))
    writer_held = threading.Event()

    async def class_sitting_down() -> None:
        hall.store.submit(lambda db: writer_held.wait(30))  # the writer is busy: nothing below is stored yet
        ann = asyncio.ensure_future(hall.join(room.code, "Ann"))
        bob = asyncio.ensure_future(hall.claim(room.seats[1].token, "Bob"))
        await asyncio.sleep(0)  # both hold their seat, waiting for the writer
        assert room.joining == {0: "Ann", 1: "Bob"} and not any(seat.filled for seat in room.seats[:3])
        # a seat or a name being stored is nobody else's, and the teacher's controls leave it alone
        await refused_on_loop("name_taken", hall.join(room.code, "ANN"), hall, room)
        await refused_on_loop("seat_taken", hall.claim(room.seats[0].token, "Cyd"), hall, room)
        await refused_on_loop("seat_joining", hall.seat_bot(room.code, 1, "random"), hall, room)
        await refused_on_loop("seat_joining", hall.new_link(room.code, 0), hall, room)
        # nor does it empty or move a seat before the start meanwhile: the game could start with a seat empty
        await refused_on_loop("seat_joining", hall.swap_seats(room.code, 2, 3), hall, room)
        await refused_on_loop("seat_joining", hall.remove_bot(room.code, 3), hall, room)
        # the teacher seats a bot at the last seat: stored after both students, so the file says it started
        # the game, which starts here once Ann and Bob are seated too (the players are the seats' names)
        bot = asyncio.ensure_future(hall.seat_bot(room.code, 2, "random"))
        await asyncio.sleep(0)
        assert set(room.joining) == {0, 1, 2} and not room.started  # the bot holds its seat too
        writer_held.set()
        await asyncio.gather(ann, bob, bot)
        assert hall.store.room(room.code).started  # type: ignore[union-attr]
        assert room.started and room.state is not None and not room.joining
        assert list(room.state.players) == ["Ann", "Bob", room.seats[2].name, room.seats[3].name]
        assert [seat.bot for seat in room.seats] == [None, None, "random", "random"]

    asyncio.run(class_sitting_down())
    assert [row.name for row in hall.store.seats(room.code)] == [seat.name for seat in room.seats]
    restarted = Hall(Store(hall.store.path))  # the file holds the same table
    assert restarted.rooms[room.code].state is not None
    assert restarted.rooms[room.code].state.fingerprint() == room.state.fingerprint()
    restarted.store.close()


def test_a_teachers_change_holds_its_seats_until_stored_and_a_student_joining_meanwhile_sits_elsewhere(
        hall: Hall) -> None:
    room = run_now(hall.create_room("commissario", 3, seed=5))
    run_now(hall.join(room.code, "Ann"))
    writer_held = threading.Event()

    async def placing_while_joining() -> None:
        hall.store.submit(lambda db: writer_held.wait(30))
        swap = asyncio.ensure_future(hall.commit(hall.swap_seats_change(room.code, 0, 1)))
        await asyncio.sleep(0)
        assert room.joining == {0: "", 1: "Ann"} and room.seats[0].name == "Ann"  # held, not made yet
        cyd = asyncio.ensure_future(hall.join(room.code, "Cyd"))  # seat 1 is empty, but held
        await asyncio.sleep(0)
        assert room.joining == {0: "", 1: "Ann", 2: "Cyd"}
        writer_held.set()
        await asyncio.gather(swap, cyd)
        assert cyd.result()[1].number == 2 and not room.joining

    asyncio.run(placing_while_joining())
    assert [seat.name for seat in room.seats] == [None, "Ann", "Cyd"] and not room.started
    assert [(row.name, row.token) for row in hall.store.seats(room.code)] == \
        [(seat.name, seat.token) for seat in room.seats]
    assert hall.seat_of(room.seats[1].token)[1] is room.seats[1]  # Ann's link followed her


def test_two_changes_checked_before_either_holds_its_seat_are_not_both_made(hall: Hall) -> None:
    room = run_now(hall.create_room("commissario", 3, seed=5))
    first, second = hall.new_link_change(room.code, 0), hall.new_link_change(room.code, 0)  # checked on one room
    writer_held = threading.Event()

    async def both() -> None:
        hall.store.submit(lambda db: writer_held.wait(30))  # the first is not stored before the second is refused
        made = asyncio.ensure_future(hall.commit(first))
        await asyncio.sleep(0)
        before = snapshot(hall, room)
        with pytest.raises(Refused) as caught:
            await hall.commit(second)
        assert caught.value.code == "seat_joining" and snapshot(hall, room) == before
        writer_held.set()
        await made

    asyncio.run(both())
    assert not room.joining and hall.seat_of(room.seats[0].token)[1] is room.seats[0]
    assert [row.token for row in hall.store.seats(room.code)] == [seat.token for seat in room.seats]


def test_a_teachers_change_the_file_cannot_take_changes_nothing(hall: Hall, monkeypatch: pytest.MonkeyPatch) -> None:
    room = run_now(hall.create_room("commissario", 3, seed=5, bots={2: "random"}))
    told: list[str] = []
    hall.listeners.append(lambda changed: told.append(changed.code))

    def busy(job: Any) -> Any:
        future: Future[Any] = Future()
        future.set_exception(StorageBusy("held by another program"))
        return future

    monkeypatch.setattr(hall.store, "submit", busy)
    changes = [hall.set_paused_change(room.code, True), hall.swap_seats_change(room.code, 0, 2),
               hall.remove_bot_change(room.code, 2), hall.new_link_change(room.code, 1), hall.close_change(room.code),
               hall.seat_bot_change(room.code, 0, "random")]
    for change in changes:
        before = snapshot(hall, room)
        with pytest.raises(Refused) as caught:
            asyncio.run(hall.commit(change))
        assert caught.value.code == "storage_busy" and snapshot(hall, room) == before and not room.joining
    assert told == []  # nobody heard of a change that is not on disk


@pytest.mark.parametrize(("name", "code"), [("", "bad_name"), ("   ", "bad_name"), ("x" * (MAX_NAME + 1), "bad_name"),
                                            ("a\x00b", "bad_name"), ("tab\u200bhidden", "bad_name"),
                                            (None, "bad_name"), (42, "bad_name"), ("ADA", "name_taken")])
def test_bad_or_taken_names_are_refused(hall: Hall, name: Any, code: str) -> None:
    room = run_now(hall.create_room("peek", 3, seed=4))
    run_now(hall.join(room.code, "Ada"))
    refused(code, lambda: run_now(hall.join(room.code, name)), hall, room)
    refused(code, lambda: run_now(hall.claim(room.seats[2].token, name)), hall, room)


def test_a_full_room_a_taken_seat_and_unknown_rooms_are_refused(hall: Hall) -> None:
    room = run_now(hall.create_room("peek", 2, seed=4))
    run_now(hall.join(room.code, "Ada"))
    run_now(hall.join(room.code, "Bob"))
    refused("room_full", lambda: run_now(hall.join(room.code, "Cy")), hall, room)
    refused("seat_taken", lambda: run_now(hall.claim(room.seats[0].token, "Mallory")), hall, room)  # a replayed claim
    refused("unknown_room", lambda: run_now(hall.join("ZZZZZ", "Cy")), hall, room)
    refused("unknown_room", lambda: run_now(hall.join(["list"], "Cy")), hall, room)


@given(st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=1, max_size=64))
@example("t0kenA")  # ending with the replacement letter
@example("x")  # one character long
def test_an_altered_token_is_one_character_away_and_never_the_token_itself(token: str) -> None:
    # A test that altered a token by a fixed last letter passed it unchanged when the token ended with it.
    assert altered(token) != token and len(altered(token)) == len(token) and altered(token)[:-1] == token[:-1]


def test_tokens_that_were_never_valid_or_expired_open_nothing(hall: Hall) -> None:
    room = run_now(hall.create_room("peek", 2, seed=4))
    token = room.seats[1].token
    for bad in (altered(token), "guess", "", None, 12, "x" * 5000):
        refused("unknown_token", lambda bad=bad: hall.seat_of(bad), hall, room)
        refused("unknown_token", lambda bad=bad: hall.watched(bad), hall, room)
    run_now(hall.new_link(room.code, 1))
    assert room.seats[1].token != token and hall.seat_of(room.seats[1].token)[1].number == 1
    error = refused("expired_token", lambda: hall.seat_of(token), hall, room)
    assert error.status == 410
    watch = room.watch_token
    run_now(hall.close(room.code))
    for old in (room.seats[0].token, room.seats[1].token, watch):
        refused("expired_token", lambda old=old: hall.seat_of(old) if old != watch else hall.watched(old), hall, room)
    refused("closed", lambda: run_now(hall.join(room.code, "Late")), hall, room)
    reopened = Hall(Store(hall.store.path))  # expiry survives a restart
    with pytest.raises(Refused, match="expired"):
        reopened.seat_of(token)


def started_peek(hall: Hall, seed: int = 4) -> Room:
    room = run_now(hall.create_room("peek", 2, seed=seed))
    run_now(hall.join(room.code, "Ada"))
    run_now(hall.join(room.code, "Bob"))
    return room


def test_a_move_names_its_step_and_is_refused_out_of_turn_stale_malformed_or_illegal(hall: Hall) -> None:
    room = started_peek(hall)
    assert room.state is not None and room.state.acting_seats == (0,)
    refused("not_your_turn", lambda: run_now(hall.play(room, 1, 0, "pass")), hall, room)
    refused("stale", lambda: run_now(hall.play(room, 0, 1, "pass")), hall, room)
    refused("stale", lambda: run_now(hall.play(room, 0, -1, "pass")), hall, room)
    refused("illegal", lambda: run_now(hall.play(room, 0, 0, "peek 0")), hall, room)
    refused("illegal", lambda: run_now(hall.play(room, 0, 0, "fly away")), hall, room)
    refused("illegal", lambda: run_now(hall.play(room, 0, 0, "x" * 100_000)), hall, room)
    for step, action in ((True, "pass"), ("0", "pass"), (None, "pass"), (0, None), (0, ""), (0, 3), (0.0, "pass")):
        refused("malformed", lambda step=step, action=action: run_now(hall.play(room, 0, step, action)), hall, room)
    run_now(hall.play(room, 0, 0, "peek 1"))
    refused("stale", lambda: run_now(hall.play(room, 0, 0, "peek 1")), hall, room)  # the same move, resent
    assert [(row.step, row.seat, row.action) for row in hall.store.actions(room.code)] == [(0, 0, "peek 1")]


def test_every_move_is_stored_before_anyone_is_told(hall: Hall) -> None:
    room = started_peek(hall)
    stored_when_told: list[tuple[int, int]] = []
    hall.listeners.append(lambda changed: stored_when_told.append((changed.step, len(hall.store.actions(changed.code)))))
    run_now(hall.play(room, 0, 0, "pass"))
    run_now(hall.play(room, 1, 1, "peek 0"))
    assert stored_when_told == [(1, 1), (2, 2)]


def test_a_move_the_store_cannot_write_is_refused_and_not_played(hall: Hall, monkeypatch: pytest.MonkeyPatch) -> None:
    room = started_peek(hall)
    run_now(hall.play(room, 0, 0, "pass"))
    told: list[int] = []
    hall.listeners.append(lambda changed: told.append(changed.step))

    def broken(*args: Any, **kwargs: Any) -> Future[float]:
        failed: Future[float] = Future()
        failed.set_exception(OSError("disk full"))  # as the writer fails a job
        return failed

    monkeypatch.setattr(hall.store, "submit_actions", broken)
    refused("storage", lambda: run_now(hall.play(room, 1, 1, "peek 0")), hall, room)
    assert told == [] and room.step == 1
    monkeypatch.undo()
    run_now(hall.play(room, 1, 1, "peek 0"))
    assert told == [2]


def test_the_store_refuses_two_moves_for_one_step(hall: Hall) -> None:
    room = started_peek(hall)
    run_now(hall.play(room, 0, 0, "pass"))
    import sqlite3

    with pytest.raises(sqlite3.IntegrityError):
        hall.store.add_action(room.code, 0, 0, "pass", "seat")


def test_pause_blocks_students_and_bots_but_not_the_teachers_step(hall: Hall) -> None:
    room = run_now(hall.create_room("peek", 2, seed=4, bots={1: "random"}))
    run_now(hall.join(room.code, "Ada"))
    run_now(hall.set_paused(room.code, True))
    refused("paused", lambda: run_now(hall.play(room, 0, 0, "pass")), hall, room)
    refused("no_bot", lambda: run_now(hall.step_bot(room.code)), hall, room)  # seat 0 (a person) is to move
    run_now(hall.set_paused(room.code, False))
    run_now(hall.play(room, 0, 0, "pass"))
    run_now(hall.set_paused(room.code, True))
    seat, action = run_now(hall.step_bot(room.code))
    assert seat == 1 and room.step == 2 and hall.store.actions(room.code)[-1].actor == "bot"


def test_bots_choose_from_the_view_with_a_seeded_rng(hall: Hall, tmp_path: Path) -> None:
    def bot_game(path: Path) -> list[tuple[int, str]]:
        hall = Hall(Store(path))
        room = run_now(hall.create_room("commissario", 3, seed=9, bots={0: "greedy", 1: "random", 2: "random"}))
        while not room.is_over:
            choice = hall.bot_choice(room)
            assert choice is not None
            run_now(hall.play(room, *choice, actor="bot"))
        return [(row.seat, row.action) for row in hall.store.actions(room.code)]
    assert bot_game(tmp_path / "a.sqlite3") == bot_game(tmp_path / "b.sqlite3")


def test_bots_take_empty_seats_and_a_student_keeps_hers(hall: Hall) -> None:
    room = run_now(hall.create_room("peek", 3, seed=4))
    run_now(hall.join(room.code, "Ada"))
    refused("seat_taken", lambda: run_now(hall.seat_bot(room.code, 0, "random")), hall, room)
    refused("bad_request", lambda: run_now(hall.seat_bot(room.code, 1, "no such bot")), hall, room)
    refused("bad_request", lambda: run_now(hall.seat_bot(room.code, 7, "random")), hall, room)
    run_now(hall.seat_bot(room.code, 1, "random"))
    run_now(hall.remove_bot(room.code, 1))
    assert room.seats[1].name is None
    run_now(hall.seat_bot(room.code, 1, "random"))
    run_now(hall.seat_bot(room.code, 2, "ismcts"))
    assert room.started and room.state is not None and room.state.players[0] == "Ada"
    run_now(hall.remove_bot(room.code, 2))  # after the start, the seat keeps its name for a person to play
    assert room.seats[2].name == room.state.players[2] and room.seats[2].bot is None


def test_reveal_only_at_the_end_and_flags_survive_a_restart(hall: Hall) -> None:
    room = started_peek(hall)
    refused("not_over", lambda: run_now(hall.reveal(room.code)), hall, room)
    rng = random.Random(3)
    while not room.is_over:
        assert room.state is not None
        seat = room.state.acting_seats[0]
        run_now(hall.play(room, seat, room.step, str(rng.choice(room.state.legal_actions(seat)))))
    run_now(hall.set_paused(room.code, True))
    run_now(hall.reveal(room.code))
    again = Hall(Store(hall.store.path)).rooms[room.code]
    assert again.revealed and again.paused and again.is_over
    assert again.state is not None and room.state is not None and again.state.fingerprint() == room.state.fingerprint()


@pytest.mark.parametrize(("arguments", "message"), [
    ({"game": "chess", "players": 2}, "Unknown game"),
    ({"game": "os.path", "players": 2}, "Unknown game"),
    ({"game": "peek", "players": 9}, "2 to 4 players"),
    ({"game": "peek", "players": True}, "2 to 4 players"),
    ({"game": "peek", "players": 2, "seed": -1}, "seed"),
    ({"game": "peek", "players": 2, "seed": "7"}, "seed"),
    ({"game": "peek", "players": 2, "language": "de"}, "language"),
    ({"game": "peek", "players": 2, "rules": {"rounds": 10**9}}, "rules"),
    ({"game": "peek", "players": 2, "rules": {"colour": 1}}, "rules"),
    ({"game": "peek", "players": 2, "bots": {5: "random"}}, "seat"),
    ({"game": "peek", "players": 2, "bots": {0: "wizard"}}, "Unknown bot"),
    ({"game": "peek", "players": 2, "bot_delay": 3600}, "bot_delay"),
])
def test_a_room_that_makes_no_game_is_refused_and_nothing_is_stored(hall: Hall, arguments: dict[str, Any],
                                                                     message: str) -> None:
    arguments = dict(arguments)
    game, players = arguments.pop("game"), arguments.pop("players")
    with pytest.raises((Refused, ValueError), match=message):
        run_now(hall.create_room(game, players, **arguments))
    assert hall.store.rooms() == [] and hall.rooms == {}


def test_students_choosing_at_the_same_moment_all_get_their_choice_in(hall: Hall) -> None:
    """Commissario's picks are simultaneous: a pick sent while the table showed step N is still that seat's
    pick after another seat's pick made it step N + 1. A move after the seat's own, or a seat that was not
    choosing at step N, is still stale."""
    room = run_now(hall.create_room("commissario", 3, seed=2))
    for seat in range(3):
        run_now(hall.join(room.code, f"S{seat}"))
    state = room.state
    assert state is not None
    while len(state.acting_seats) < 3:  # play on to the first simultaneous pick of all three seats
        seat = state.acting_seats[0]
        run_now(hall.play(room, seat, room.step, str(state.legal_actions(seat)[0])))
    step = room.step
    picks = {seat: str(state.legal_actions(seat)[0]) for seat in state.acting_seats}
    run_now(hall.play(room, 0, step, picks[0]))
    run_now(hall.play(room, 1, step, picks[1]))  # answers step N at step N + 1: the same choice, accepted
    assert [mover for mover, _ in state.history[step:]] == [0, 1] and room.step == step + 2
    assert [row.step for row in room.actions[-2:]] == [step, step + 1]  # stored at the step it was played
    refused("stale", lambda: run_now(hall.play(room, 1, step, picks[1])), hall, room)  # seat 1 already chose
    run_now(hall.play(room, 2, step, picks[2]))
    assert room.step == step + 3


@pytest.mark.parametrize(("game", "players"), [("commissario", 3), ("get_adler", 5), ("mafia_de_cuba", 7)])
def test_the_seats_to_act_at_an_earlier_step_are_noted_as_the_game_moves_on(
        hall: Hall, game: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Room.acting_at`, asked by every move and menu that answers an earlier step (most of Mafia's floor): the
    seats a replay to that step finds, at every step of a game, noted as each move was played, in the room that
    played them and in the room read back from its file (no replay); a step not noted is replayed once, then kept."""
    room = run_now(hall.create_room(game, players, seed=3))
    for seat in range(players):
        run_now(hall.join(room.code, f"S{seat}"))
    state = room.state
    assert state is not None
    rng = random.Random(4)
    while not state.is_over and room.step < 60:
        seat = rng.choice(list(state.acting_seats))
        run_now(hall.play(room, seat, room.step, str(rng.choice(state.legal_actions(seat)))))
    replays = []
    real = type(state).from_record.__func__  # type: ignore[attr-defined]
    expected = []
    for step in range(room.step + 1):
        record = state.record()
        record["actions"] = record["actions"][:step]
        expected.append(frozenset(real(type(state), record).acting_seats))
    monkeypatch.setattr(type(state), "from_record", classmethod(lambda cls, record: replays.append(1) or
                                                                real(cls, record)))
    again = Hall(Store(hall.store.path)).room(room.code)
    for played in (room, again):
        assert [played.acting_at(step) for step in range(room.step + 1)] == expected
    assert not replays
    room._acting.clear()  # not noted (a game moved on by other means): replayed once a step, then kept
    for step in range(room.step + 1):
        assert room.acting_at(step) == expected[step] and room.acting_at(step) == expected[step]
    assert len(replays) == room.step  # once per earlier step; the step now is the game's own
    assert room.acting_at(room.step + 1) is None and room.acting_at(-1) is None


def test_the_teacher_places_students_before_the_start_and_each_link_follows_its_student(tmp_path: Path) -> None:
    hall = Hall(Store(tmp_path / "placed.sqlite3"))
    room = run_now(hall.create_room("mafia_de_cuba", 6, seed=4))
    _, ana = run_now(hall.join(room.code, "Ana"))
    _, ben = run_now(hall.join(room.code, "Ben"))
    ana_token, ben_token = ana.token, ben.token
    run_now(hall.seat_bot(room.code, 3, "random"))
    run_now(hall.swap_seats(room.code, 0, 2))  # Ana to an empty seat
    assert room.names()[:3] == [None, "Ben", "Ana"] and hall.seat_of(ana_token)[1].number == 2
    run_now(hall.swap_seats(room.code, 2, 1))  # Ana and Ben exchange seats
    assert room.names()[:3] == [None, "Ana", "Ben"]
    assert [hall.seat_of(token)[1].number for token in (ana_token, ben_token)] == [1, 2]
    run_now(hall.swap_seats(room.code, 4, 3))  # a bot moves, and is named after its new seat
    assert room.seats[4].bot == "random" and room.seats[4].name == "Bot 5 (random)" and not room.seats[3].filled
    assert room.seats[0].token not in (ana_token, ben_token)  # the empty seat keeps a link of its own

    again = Hall(Store(tmp_path / "placed.sqlite3"))  # the placing is on disk
    assert again.rooms[room.code].names() == room.names()
    assert [seat.token for seat in again.rooms[room.code].seats] == [seat.token for seat in room.seats]

    for name in ("Cleo", "Dan", "Eve"):
        run_now(hall.join(room.code, name))
    assert room.state is not None and room.state.players[1] == "Ana" and room.state.players[2] == "Ben"
    error = refused("started", lambda: run_now(hall.swap_seats(room.code, 1, 2)), hall, room)
    assert error.status == 409 and "before the game starts" in str(error)


@pytest.mark.parametrize(("first", "second", "code"), [(1, 1, "bad_request"), (2, 3, "bad_request"),
                                                        (0, 6, "bad_request"), (-1, 0, "bad_request"),
                                                        (True, 0, "bad_request"), ("0", 1, "bad_request")])
def test_placing_refuses_a_seat_with_itself_two_empty_seats_or_no_such_seat(hall: Hall, first: Any, second: Any,
                                                                            code: str) -> None:
    room = run_now(hall.create_room("commissario", 4, seed=2))
    run_now(hall.join(room.code, "Ana"))
    run_now(hall.join(room.code, "Ben"))
    refused(code, lambda: run_now(hall.swap_seats(room.code, first, second)), hall, room)


def test_placing_in_a_closed_room_is_refused(hall: Hall) -> None:
    room = run_now(hall.create_room("commissario", 4, seed=2))
    run_now(hall.join(room.code, "Ana"))
    run_now(hall.close(room.code))
    refused("closed", lambda: run_now(hall.swap_seats(room.code, 0, 1)), hall, room)
