"""A seat's log kept from one view to the next (`SeatLog`): the same view as a fresh one at every step of every
game, for every seat and the spectator; its copies stay the seat's own; a wrong seat or a new game is handled."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_edu.core import FrozenDict, FrozenList, SeatLog
from tabletop_edu.registry import games


@pytest.mark.parametrize("name", sorted(games()))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
def test_a_kept_log_gives_the_view_a_fresh_one_gives_at_every_step(name: str, seed: int, choices: int) -> None:
    plugin = games()[name]
    state = plugin.new_game(plugin.max_players, seed=seed)
    seats = [None, *range(plugin.max_players)]
    logs = {seat: SeatLog(seat) for seat in seats}
    rng = random.Random(choices)
    for _ in range(400):
        for seat in rng.sample(seats, rng.randrange(1, len(seats) + 1)):  # some seats skip steps
            assert state.view(seat, logs[seat]) == state.view(seat)
        if state.is_over:
            break
        seat = rng.choice(list(state.acting_seats))
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)


def test_a_kept_log_is_the_seats_own_and_starts_again_with_a_new_game() -> None:
    plugin = games()["mafia_de_cuba"]
    state = plugin.new_game(7, seed=3)
    rng = random.Random(1)
    log = SeatLog(0)
    for _ in range(30):
        state.view(0, log)
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    view = state.view(0, log)
    public = next(index for index, event in enumerate(view.log) if event.data)
    expected = dict(state.view(0).log[public].data)
    dict.__setitem__(view.log[public].data, "leak", 1)  # past the read-only guard, into the kept copy
    assert state.view(1).log[public].data == expected and "leak" not in state.events[public].data
    assert state.view(0).log[public].data == expected  # a fresh view is not touched either
    with pytest.raises(ValueError, match="seat 0"):
        state.view(1, log)
    other = plugin.new_game(7, seed=4)
    assert other.view(0, log) == other.view(0)  # a log handed another game starts again
    assert state.view(0, log) == state.view(0)  # and back to the first game: fresh copies, the leak gone


def test_a_kept_logs_facts_share_the_seats_own_copies_and_nothing_else() -> None:
    """A kept log copies only the new testimonies of Mafia de Cuba's facts for each view, keeping its copies of
    the earlier ones, and keeps its whole copy of a fact the engine hands again unchanged (the testimonies at the
    same step, the order of the seats): still the seat's own, which a write past the guard changes for that seat
    alone."""
    plugin = games()["mafia_de_cuba"]
    state = plugin.new_game(7, seed=3)
    rng = random.Random(1)
    log = SeatLog(0)

    def testify() -> None:
        told = len(state.view(None).facts["testimonies"])
        while len(state.view(None).facts["testimonies"]) == told:
            seat = rng.choice(list(state.acting_seats))
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)

    while len(state.view(None).facts["testimonies"]) < 4:
        testify()
    first = state.view(0, log).facts
    again = state.view(0, log).facts
    assert again["testimonies"] is first["testimonies"] and again["order"] is first["order"]  # the same step
    testify()
    later = state.view(0, log).facts["testimonies"]
    assert later is not first["testimonies"] and len(later) > len(first["testimonies"])
    assert all(a is b for a, b in zip(later, first["testimonies"]))  # the earlier pairs' copies kept
    assert first["order"] is not state.view(1).facts["order"]  # another seat's copy is its own
    expected, before = [list(pair) for pair in later], state.fingerprint()
    list.__setitem__(later[0], 1, "leak")  # past the read-only guard, into the seat's kept copy
    list.__setitem__(first["order"], 0, 99)
    assert state.fingerprint() == before and state.view(1).facts["testimonies"] == expected
    assert state.view(0).facts["testimonies"] == expected  # a fresh view of the same seat is not touched
    assert 99 not in state.view(1).facts["order"] and 99 not in state.view(0).facts["order"]


def test_a_kept_logs_facts_follow_a_list_the_engine_changed() -> None:
    """A list of facts whose earlier item the engine replaced, or whose plain item it changed in place, is copied
    again there: a kept copy is shared only for the very frozen item it was made of."""
    log = SeatLog(0)
    frozen = [FrozenList([1, "a"]), FrozenList([2, "b"])]
    plain = [[1], [2]]
    assert log.facts({"said": frozen, "hands": plain}) == {"said": [[1, "a"], [2, "b"]], "hands": [[1], [2]]}
    frozen[0] = FrozenList([9, "z"])
    plain[1].append(3)
    again = log.facts({"said": frozen + [FrozenList([3, "c"])], "hands": plain})
    assert again == {"said": [[9, "z"], [2, "b"], [3, "c"]], "hands": [[1], [2, 3]]}
    assert type(again) is FrozenDict and all(type(value) is FrozenList for value in again.values())


def test_a_kept_logs_facts_keep_the_copy_of_a_value_handed_again_only_when_it_cannot_change() -> None:
    """A frozen value the engine hands again keeps the seat's copy; a plain one (or a frozen one holding a plain
    list) handed again after the engine changed it in place is copied again, as it is now."""
    log = SeatLog(0)
    frozen = FrozenDict(tokens=FrozenList(["loyal"]), diamonds=2)
    plain = {"tokens": ["loyal"]}
    half = FrozenDict(tokens=["loyal"])  # frozen outside, a plain list inside
    first = log.facts({"box": frozen, "hand": plain, "half": half})
    plain["tokens"].append("fbi")
    half["tokens"].append("cia")
    again = log.facts({"box": frozen, "hand": plain, "half": half})
    assert again["box"] is first["box"] and again["box"] is not frozen
    assert again["hand"] == {"tokens": ["loyal", "fbi"]} and again["half"] == {"tokens": ["loyal", "cia"]}
    assert first["hand"] == {"tokens": ["loyal"]} and first["half"] == {"tokens": ["loyal"]}
