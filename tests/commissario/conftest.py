"""Shared set-ups for the Commissario tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tabletop_edu.commissario import new_game
from tabletop_edu.commissario.engine import CommissarioState

#: Three secret picks made at once, one of them with the 2x card.
PICKS = {0: "pick red blue", 1: "pick orange green", 2: "pick yellow 2x"}


@pytest.fixture()
def picked_state() -> Callable[..., CommissarioState]:
    """A factory: a 3-player game (seed 1) right after everyone released nothing and made the PICKS."""
    def make(names: tuple[str, str, str] = ("Ann", "Bob", "Cy")) -> CommissarioState:
        state = new_game(list(names), seed=1)
        while state.phase == "release":
            state.apply("release none", player=state.current_player)
        for seat, text in PICKS.items():
            state.apply(text, player=seat)
        return state
    return make
