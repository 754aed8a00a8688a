"""A student's move takes one short path: read once, checked once, its game looked up once, its step worked out once."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tabletop_edu import registry, rendering
from tabletop_edu.classroom import ClassServer
from tabletop_edu.classroom.hall import Hall
from tabletop_edu.classroom.rooms import Room
from tabletop_edu.classroom.store import Store
from tabletop_edu.classroom.testing import run_now


def mafia_room_on_its_floor(tmp_path: Path) -> tuple[Hall, Room]:
    """A seeded 12-seat Mafia room whose seats all sat down, played by random moves until the floor (where
    several students are to act at once)."""
    hall = Hall(Store(tmp_path / "path.sqlite3"))
    room = run_now(hall.create_room("mafia_de_cuba", 12, seed=3))
    for seat in range(12):
        run_now(hall.claim(room.seats[seat].token, f"Student {seat}"))
    rng = random.Random(3)
    assert room.state is not None
    while len(room.state.acting_seats) < 2:
        seat = room.state.acting_seats[0]
        run_now(hall.play(room, seat, room.step, str(rng.choice(room.state.legal_actions(seat)))))
    return hall, room


def counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, counts: Counter[str]) -> None:
    """Count the calls of `owner.name` (a function or a classmethod) in `counts[name]`."""
    original = getattr(owner, name)
    wrapped = original.__func__ if hasattr(original, "__func__") else original

    def counting(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return wrapped(*args, **kwargs)

    monkeypatch.setattr(owner, name, classmethod(counting) if hasattr(original, "__func__") else counting)


def test_a_move_is_read_and_checked_once_on_its_way_from_the_page_to_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From `Hall.play` (what the websocket handler calls) to the move played in the room's game: its text is
    read into an action once and validated once (it was three times: on arrival, before its commit, when
    played), and the game is as `apply` would have left it."""
    hall, room = mafia_room_on_its_floor(tmp_path)
    assert room.state is not None
    state_class = type(room.state)
    seat = room.state.acting_seats[0]
    text = str(random.Random(4).choice(room.state.legal_actions(seat)))
    expected = room.state.clone()
    expected.apply(text, player=seat)
    counts: Counter[str] = Counter()
    counted(monkeypatch, state_class, "_validate", counts)
    counted(monkeypatch, state_class, "parse_action", counts)

    run_now(hall.play(room, seat, room.step, text))

    assert counts == {"_validate": 1, "parse_action": 1}
    assert room.state.fingerprint() == expected.fingerprint()
    assert room.state.history[-1] == (seat, text)


def test_moves_that_waited_behind_a_commit_are_checked_again_on_the_game_as_it_then_is(tmp_path: Path) -> None:
    """A check made on arrival stands only while the game has not moved: two students testifying at once are
    both played, the second checked on the game the first left (each move then once more)."""
    hall, room = mafia_room_on_its_floor(tmp_path)
    assert room.state is not None
    first, second = room.state.acting_seats[:2]
    step = room.step
    moves = {seat: str(room.state.legal_actions(seat)[0]) for seat in (first, second)}

    async def together() -> None:
        await asyncio.gather(*(hall.play(room, seat, step, moves[seat]) for seat in (first, second)))

    asyncio.run(together())
    assert room.state.history[step:] == [(first, moves[first]), (second, moves[second])]


def test_a_move_asks_the_registry_at_most_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The room holds its game's plugin: a move, its commit and every seat's and the projector's new table ask
    the registry at most once (it was 26 times a move)."""
    server = ClassServer(tmp_path / "server.sqlite3")
    hall, room = mafia_room_on_its_floor(tmp_path)
    server.hall = hall
    assert room.state is not None
    for perspective in [*range(12), None]:
        server.table_for(room, perspective, "en")  # the pages of the room, open before the move
    seat = room.state.acting_seats[0]
    text = str(random.Random(5).choice(room.state.legal_actions(seat)))
    asks = Counter[str]()
    find_game = registry.find_game

    def counting(name: str) -> registry.GamePlugin | None:
        asks[name] += 1
        return find_game(name)

    monkeypatch.setattr(registry, "find_game", counting)
    monkeypatch.setattr(rendering, "find_game", counting)  # imported there by name

    run_now(hall.play(room, seat, room.step, text))
    for perspective in [*range(12), None]:
        server.table_for(room, perspective, "en")

    assert sum(asks.values()) <= 1, asks


def test_a_room_keeps_one_snapshot_a_step_and_drops_it_once_when_its_game_moves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page of a room asks the same step's views and menus: each is worked out once into the step's
    snapshot, which the room replaces when a move is played, or when another game (even one at the same step, an
    equal copy) takes the room's place."""
    hall, room = mafia_room_on_its_floor(tmp_path)
    assert room.state is not None
    views = Counter[int | None]()
    state_class = type(room.state)
    original_view = state_class.view

    def counting_view(state: Any, seat: int | None, log: Any = None) -> Any:
        views[seat] += 1
        return original_view(state, seat, log)

    monkeypatch.setattr(state_class, "view", counting_view)
    snapshot, seat = room.snapshot, room.state.acting_seats[0]
    drawn = [room.view(perspective) for perspective in [*range(12), None] * 3]
    assert room.menu_tree(seat) is room.menu_tree(seat) and room.legal_actions(seat) == room.legal_actions(seat)
    assert room.snapshot is snapshot and drawn[0] is room.view(0) and set(views.values()) == {1}

    run_now(hall.play(room, seat, room.step, str(room.legal_actions(seat)[0])))
    assert room.snapshot is not snapshot and room.snapshot.is_of(room.state, room.step)
    assert room.view(0) is not drawn[0] and views[0] == 2

    moved = room.snapshot
    room.state = room.state.clone()
    assert room.snapshot is not moved and room.snapshot.step == moved.step
