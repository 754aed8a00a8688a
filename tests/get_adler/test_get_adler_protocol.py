"""Conformance (check_game), bad input and random-sequence properties of the Get Adler engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import tabletop_edu.get_adler as get_adler
from tabletop_edu.core import IllegalAction
from tabletop_edu.get_adler import new_game, parse_action
from tabletop_edu.testing import check_game


@pytest.mark.parametrize("players", [4, 5, 6])
def test_check_game(players):
    report = check_game(get_adler, players=players, games=8, seed=10 * players, illegal_per_step=2,
                        resample_every=2)
    assert report.games == 8


def refused(state, text, word, player=None):
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match=word):
        state.apply(text, player=player)
    assert state.fingerprint() == before


def test_bad_input_arrest_in_hour_two(helpers):
    state = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player], hour=2)
    assert state.hour == 2
    refused(state, f"arrest {(state.current_player + 1) % 4}", "hour")


def test_bad_input_asking_yourself(helpers):
    state = helpers.find_state(4, lambda s: "question" in s.hands[s.current_player])
    refused(state, f"ask {state.current_player} hat black", "yourself")


def test_bad_input_colour_that_does_not_exist():
    state = new_game(4, seed=0)
    refused(state, "ask 1 hat purple", "hat colour")
    refused(state, "ask 1 nose black", "trait")


def test_bad_input_card_not_in_hand():
    state = new_game(4, seed=0)
    missing = next(c for c in get_adler.rules.CARDS if c not in state.hands[0])
    refused(state, f"discard {missing}", "no " + missing)


def test_bad_input_acting_while_stunned(helpers):
    state = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player], hour=4)
    seat = state.current_player
    target = next(s for s in range(4) if s not in (seat, state.adler))
    state.apply(f"arrest {target}")
    while state.current_player != target:
        helpers.plain_turn(state)
    refused(state, f"discard {state.hands[target][0]}", "stunned")


def test_bad_input_out_of_turn():
    state = new_game(4, seed=0)
    refused(state, f"discard {state.hands[1][0]}", "not", player=1)


def test_bad_input_answer_when_not_asked_and_malformed_text():
    state = new_game(4, seed=0)
    refused(state, "answer yes", "asked")
    refused(state, "binoculars 1 take pistol", "give")
    refused(state, "dance", "not a Get Adler action")


def test_notation_round_trip_examples():
    for text in ["ask 2 hat black", "answer yes", "magnify 3", "binoculars 1 give pistol", "arrest 4",
                 "respond pistol", "discard question", "surrender", "pass", "skip"]:
        assert str(parse_action(text)) == text and parse_action(str(parse_action(text))) == parse_action(text)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(4, 6), seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, 10**6), max_size=80))
def test_random_sequences_keep_cards_and_invariants(players, seed, picks):
    state = new_game(players, seed=seed)
    total = len(state.rules.deck(players))
    for pick in picks:
        if state.is_over:
            break
        seat = random.Random(pick).choice(state.acting_seats)
        legal = state.legal_actions(seat)
        state.apply(legal[pick % len(legal)], player=seat)
        assert len(state.deck) + len(state.discard_pile) + sum(map(len, state.hands)) == total
        assert all(skip >= 0 for skip in state.skips)
        assert sorted(state.characters) == sorted(get_adler.CAST[:players])


def test_resample_keeps_what_the_seat_saw_and_redraws_the_rest(helpers):
    state = helpers.find_state(4, lambda s: "magnify" in s.hands[s.current_player])
    seat = state.current_player
    target = (seat + 2) % 4
    state.apply(f"magnify {target}")
    decks, characters = set(), set()
    for k in range(20):
        world = state.resample(seat, random.Random(k))
        assert world.view(seat) == state.view(seat)
        assert sorted(world.hands[target]) == sorted(state.hands[target])  # seen by the magnifying glass
        assert world.characters[seat] == state.characters[seat]
        decks.add(tuple(world.deck))
        characters.add(tuple(world.characters))
    assert len(decks) > 1 and len(characters) > 1
    assert state.resample(seat, random.Random(0)).fingerprint() != state.fingerprint()
