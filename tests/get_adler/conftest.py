"""Helpers for Get Adler scenario tests: play plain turns from a seeded start until a situation arises."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest

from tabletop_edu.get_adler import State, new_game
from tabletop_edu.get_adler.rules import Rules

ALL_CARDS = ("arrest", "escape", "disguise", "bomb", "pistol", "document", "question", "magnify", "binoculars")


def plain_turn(state: State, keep: tuple[str, ...] = ALL_CARDS) -> None:
    """Play the current turn without effect: skip if stunned, else discard the card least worth keeping."""
    if state.phase == "skip":
        state.apply("skip")
        return
    hand = state.hands[state.current_player]
    order = ["plain"] + [card for card in reversed(ALL_CARDS) if card not in keep] + list(reversed(keep))
    card = next(card for card in order if card in hand)
    state.apply(f"discard {card}")


def advance_to_hour(state: State, hour: int, keep: tuple[str, ...] = ALL_CARDS) -> State:
    while not state.is_over and state.hour < hour:
        plain_turn(state, keep)
    return state


def find_state(players: int, situation: Callable[[State], bool], *, hour: int = 1, turns: int = 12,
               keep: tuple[str, ...] = ALL_CARDS, rules: Rules | None = None, seeds: int = 400) -> State:
    """The first seeded game that reaches `situation` at a turn start from `hour` on, playing plain turns."""
    for seed in range(seeds):
        state = advance_to_hour(new_game(players, seed=seed, rules=rules), hour, keep)
        for _ in range(turns):
            if state.is_over:
                break
            if state.phase == "turn" and situation(state):
                return state
            plain_turn(state, keep)
    raise AssertionError("no seed gives the situation")


def hero_to_arrest_adler_holding(card: str | None) -> Callable[[State], bool]:
    """A hero's turn, holding an arrest card, while Adler holds `card` (None: any)."""
    def situation(state: State) -> bool:
        seat = state.current_player
        return (seat != state.adler and "arrest" in state.hands[seat]
                and (card is None or card in state.hands[state.adler]))
    return situation


@pytest.fixture
def helpers() -> SimpleNamespace:
    """The helpers above, for tests (conftest modules are not importable under --import-mode=importlib)."""
    return SimpleNamespace(plain_turn=plain_turn, advance_to_hour=advance_to_hour, find_state=find_state,
                           hero_to_arrest_adler_holding=hero_to_arrest_adler_holding)
