"""Bad input gives a clear IllegalAction and changes nothing (fingerprint and events unchanged)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_edu.core import IllegalAction
from tabletop_edu.mafia_de_cuba import MafiaState, new_game, parse_action

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]


def play(texts: list[str]) -> MafiaState:
    state = new_game(6, seed=0)
    for text in texts:
        state.apply(text)
    return state


CASES = [
    # (actions before, bad action, player, a word the message must hold)
    (BOX_6[:2], "take 0", None, "at least 1"),
    (BOX_6[:2], "take loyal fbi", None, "exactly one"),
    (BOX_6[:2], "take cia", None, "no cia"),
    (BOX_6[:4], "take loyal", None, "no loyal"),
    (BOX_6[:2], "take 14", None, "holds 13"),
    (BOX_6[:2], "take nothing", None, "must take"),
    (BOX_6[:1], "set-aside cia", None, "no cia"),
    (BOX_6, "accuse 0", None, "himself"),
    (BOX_6 + ["accuse 1"], "accuse 1", None, "eliminated"),
    (BOX_6, "accuse 6", None, "no seat"),
    (BOX_6, "accuse 42", None, "no seat"),
    (BOX_6[:3], "take 2", 4, "not"),  # out of turn: seat 4 while seat 2 holds the box
    (BOX_6, "ask 3 took", 3, "not"),  # a taker cannot question
    (BOX_6 + ["ask 3 took"], "suspect 3", None, "asked 'took'"),
    (BOX_6 + ["ask 3 suspect"], "suspect 3", None, "yourself"),
    (BOX_6, "take 2", None, "does not hold the box"),
    ([], "hide 9", None, "0 to 5"),
    ([], "fly away", None, "not a Mafia de Cuba action"),
]


@pytest.mark.parametrize(("before", "bad", "player", "word"), CASES, ids=[case[1] for case in CASES])
def test_bad_input_is_refused_clearly_and_atomically(before: list[str], bad: str, player: int | None,
                                                     word: str) -> None:
    state = play(before)
    fingerprint, events = state.fingerprint(), len(state.events)
    with pytest.raises(IllegalAction, match=word):
        state.apply(bad, player=player)
    assert state.fingerprint() == fingerprint and len(state.events) == events


def test_notation_round_trips_for_examples() -> None:
    for text in ["hide 2", "set-aside fbi", "set-aside none", "take 3", "take driver", "take nothing",
                 "ask 4 seen", "floor", "accuse 4", "saw 12 loyal driver", "saw 0", "took 2", "took loyal",
                 "suspect 3", "silent", "shoot", "hold"]:
        assert str(parse_action(text)) == text
    assert str(parse_action("saw 3 driver loyal")) == "saw 3 loyal driver"


@settings(max_examples=40, deadline=None)
@given(players=st.integers(6, 12), seed=st.integers(0, 10**6), junk=st.lists(st.text(max_size=12), max_size=5))
def test_random_play_with_junk_never_corrupts_the_state(players: int, seed: int, junk: list[str]) -> None:
    """Property: interleaving random legal actions with junk text always ends a valid game."""
    state, rng = new_game(players, seed=seed), random.Random(seed)
    while not state.is_over:
        for text in junk:
            before = state.fingerprint()
            try:
                state.apply(text, player=rng.choice(state.acting_seats))
            except IllegalAction:
                assert state.fingerprint() == before
        seat = rng.choice(state.acting_seats)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        assert len(state.history) <= state.max_steps
    assert state.winners and state.recovered <= state.stolen
