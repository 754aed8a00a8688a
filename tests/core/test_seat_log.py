"""A seat's log kept from one view to the next (`SeatLog`): the same view as a fresh one at every step of every
game, for every seat and the spectator; its copies stay the seat's own; a wrong seat or a new game is handled."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_edu.core import SeatLog
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
