"""Read-only means read-only: what a seat or a bot receives cannot write into the game or another seat's view.

A dict subclass cannot refuse `dict.__setitem__(data, ...)` called past its own methods, so the gate hands
every view its own frozen copies: the write then lands in that one view and nowhere else.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from tabletop_edu import mafia_de_cuba
from tabletop_edu.core import (Action, Bot, FrozenDict, FrozenList, GameState, RandomBot, View, play_game,
                               read_only_copy)

WRITES_TO_A_DICT: list[Callable[[Any], Any]] = [
    lambda data: data.__setitem__("leak", 1),
    lambda data: data.__delitem__(next(iter(data))),
    lambda data: data.update(leak=1),
    lambda data: data.pop(next(iter(data))),
    lambda data: data.popitem(),
    lambda data: data.setdefault("leak", 1),
    lambda data: data.clear(),
    lambda data: data.__ior__({"leak": 1}),
]
WRITES_TO_A_LIST: list[Callable[[Any], Any]] = [
    lambda items: items.__setitem__(0, "leak"),
    lambda items: items.__delitem__(0),
    lambda items: items.append("leak"),
    lambda items: items.extend(["leak"]),
    lambda items: items.insert(0, "leak"),
    lambda items: items.pop(),
    lambda items: items.remove(items[0]),
    lambda items: items.clear(),
    lambda items: items.sort(),
    lambda items: items.reverse(),
    lambda items: items.__iadd__(["leak"]),
    lambda items: items.__imul__(2),
]


def started_mafia(players: int = 6, steps: int = 8, seed: int = 1) -> GameState:
    state = mafia_de_cuba.new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = state.acting_seats[0]  # the floor is simultaneous: name the seat
        state.apply(rng.choice(list(state.legal_actions(seat))), player=seat)
    return state


@pytest.mark.parametrize("write", WRITES_TO_A_DICT)
def test_every_write_to_a_frozen_dict_is_refused(write: Callable[[Any], Any]) -> None:
    data = FrozenDict({"card": 3, "seen": FrozenList([1, 2])})
    with pytest.raises(TypeError, match="read-only"):
        write(data)
    assert data == {"card": 3, "seen": [1, 2]}


@pytest.mark.parametrize("write", WRITES_TO_A_LIST)
def test_every_write_to_a_frozen_list_is_refused(write: Callable[[Any], Any]) -> None:
    items = FrozenList([3, 1, 2])
    with pytest.raises(TypeError, match="read-only"):
        write(items)
    assert items == [3, 1, 2]


def test_copies_of_frozen_containers_are_independent() -> None:
    data = FrozenDict({"seen": FrozenList([1, 2]), "by": FrozenDict({"seat": 0})})
    plain = data.copy()
    plain["leak"] = 1
    assert type(plain) is dict and "leak" not in data
    for duplicate in (copy.copy(data), copy.deepcopy(data), pickle.loads(pickle.dumps(data)), read_only_copy(data)):
        assert type(duplicate) is FrozenDict and duplicate == data
        with pytest.raises(TypeError, match="read-only"):
            duplicate["leak"] = 1
    deep = copy.deepcopy(data)
    list.append(deep["seen"], "leak")
    dict.__setitem__(deep["by"], "seat", 9)
    assert data == {"seen": [1, 2], "by": {"seat": 0}}
    frozen = read_only_copy(data)
    assert frozen["seen"] is not data["seen"] and frozen["by"] is not data["by"]


def test_writing_past_the_guard_into_a_views_event_data_reaches_nothing_else() -> None:
    state = started_mafia()
    public = next(index for index, event in enumerate(state.events) if event.is_public and event.data)
    truth_before, other_before = state.events[public].data, state.view(1).log[public].data
    expected = dict(truth_before)
    view = state.view(0)
    assert view.log[public].data == expected
    dict.__setitem__(view.log[public].data, "leak", 1)  # the write the reliability campaign made
    dict.clear(state.view(2).log[public].data)
    assert view.log[public].data["leak"] == 1  # only the writer's own copy changed
    assert state.events[public].data == expected and truth_before == expected and other_before == expected
    assert state.view(0).log[public].data == expected and state.view(1).log[public].data == expected
    assert state.log(None)[public].data == expected


def test_writing_past_the_guard_into_a_views_facts_reaches_nothing_else() -> None:
    state = started_mafia()
    before = state.fingerprint()
    view = state.view(0)
    for key, value in view.facts.items():
        if isinstance(value, list):
            list.append(value, "leak")
        elif isinstance(value, dict):
            dict.__setitem__(value, "leak", 1)
    dict.__setitem__(view.facts, "phase", "leak")
    assert state.fingerprint() == before
    fresh = state.view(0).facts
    assert fresh["phase"] != "leak"
    assert all("leak" not in value for value in fresh.values() if isinstance(value, (list, dict)))


def test_writing_into_a_testimony_of_a_views_facts_reaches_nothing_else() -> None:
    """The [seat, claim] pairs of Mafia de Cuba's testimonies are copied for each view in one call each (their
    items are plain): still copies, which a write past the guard changes alone."""
    state = started_mafia(steps=7)
    while len(state.view(None).facts["testimonies"]) < 3:
        state.apply(state.legal_actions(state.acting_seats[0])[0], player=state.acting_seats[0])
    before, other = state.fingerprint(), state.view(1).facts["testimonies"]
    pair = state.view(0).facts["testimonies"][0]
    list.__setitem__(pair, 1, "leak")
    list.append(pair, "leak")
    assert state.fingerprint() == before and other == state.view(1).facts["testimonies"]
    assert all("leak" not in said for said in state.view(0).facts["testimonies"])


class VandalBot(Bot):
    """A bot that writes, past every guard, into everything its view holds, then plays like RandomBot."""

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        for event in view.log:
            for data in (event.data, event.redacted_data):
                if isinstance(data, dict):
                    dict.__setitem__(data, "leak", view.seat)
        for value in view.facts.values():
            if isinstance(value, list):
                list.append(value, "leak")
        return RandomBot().choose(view, legal_actions, rng)


def test_a_bot_writing_into_its_views_changes_no_game() -> None:
    vandalised = play_game(mafia_de_cuba.new_game(7, seed=3), [VandalBot()] * 7, rng=random.Random(5))
    honest = play_game(mafia_de_cuba.new_game(7, seed=3), [RandomBot()] * 7, rng=random.Random(5))
    assert vandalised.history == honest.history and vandalised.events == honest.events
    assert all("leak" not in event.data for event in vandalised.events)
    assert vandalised.fingerprint() == honest.fingerprint()
