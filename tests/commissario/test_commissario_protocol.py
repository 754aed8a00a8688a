"""Conformance (check_game), bad input, and property tests for the Commissario engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop_edu.commissario as commissario
from tabletop_edu.commissario import Rules, new_game, parse_action
from tabletop_edu.core import IllegalAction
from tabletop_edu.testing import check_game


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_game(players: int) -> None:
    report = check_game(commissario, players=players, games=5, seed=1000 * players)
    assert report.games == 5


def test_check_game_with_options() -> None:
    rules = Rules(reveal_choice=False, partial_last_layout=False, released_go_to="table", tie_break="fewest_innocents")
    check_game(commissario, players=4, games=2, seed=7, rules=rules)


@pytest.mark.parametrize("text", ["release red-3", "release none", "pick red blue", "pick green 2x", "reveal blue",
                                  "release purple+2"])
def test_notation_round_trips(text: str) -> None:
    assert str(parse_action(text)) == text


def test_pick_colour_order_does_not_matter() -> None:
    assert parse_action("pick blue red") == parse_action("pick red blue")
    assert parse_action("pick 2x green") == parse_action("pick green 2x")


def refused(state: commissario.State, text: str, player: int | None, word: str) -> None:
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match=word):
        state.apply(text, player=player)
    assert state.fingerprint() == before


def test_bad_release_of_a_card_not_held() -> None:
    state = new_game(3, seed=1)
    h = state.handcuffs
    refused(state, "release red+5", h, "do not hold")
    other = next(c for s, cards in enumerate(state.arrested) if s != h for c in cards)
    refused(state, f"release {other[0]}{other[1]:+d}", h, "do not hold")


def test_bad_pick_one_colour_twice_without_2x() -> None:
    state = new_game(3, seed=1)
    while state.phase == "release":
        state.apply("release none", player=state.current_player)
    refused(state, "pick red red", 0, "2x")


def test_bad_reveal_of_a_colour_not_picked() -> None:
    state = new_game(3, seed=1)
    while state.phase == "release":
        state.apply("release none", player=state.current_player)
    for seat in range(3):
        state.apply("pick red blue", player=seat)
    refused(state, "reveal green", state.current_player, "did not pick")


def test_bad_acting_out_of_turn() -> None:
    state = new_game(3, seed=1)
    h = state.handcuffs
    refused(state, "release none", (h + 1) % 3, "not")
    while state.phase == "release":
        state.apply("release none", player=state.current_player)
    refused(state, "pick red blue", None, "player=")  # several act at once: say who
    state.apply("pick red blue", player=0)
    refused(state, "pick red green", 0, "turn")  # already picked
    refused(state, "reveal red", 0, "turn")
    for seat in (1, 2):
        state.apply("pick red blue", player=seat)
    late = state.order[-1]
    refused(state, "reveal red", late, "turn")


def test_bad_phase_and_text() -> None:
    state = new_game(3, seed=1)
    refused(state, "pick red blue", state.current_player, "after the releases")
    refused(state, "reveal red", state.current_player, "revealed after")
    refused(state, "release red+9", state.current_player, "worth")
    refused(state, "arrest red", state.current_player, "not a Commissario action")
    refused(state, "pick pink blue", state.current_player, "colour")


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000), choices=st.lists(st.integers(0, 10_000), max_size=80))
def test_random_action_sequences_keep_the_state_sound(players: int, seed: int, choices: list[int]) -> None:
    """Any mix of legal and illegal texts keeps 60 characters in play and a consistent turn."""
    state = new_game(players, seed=seed)
    texts = ["release none", "pick red red", "reveal orange", "pick blue 2x", "release purple+1"]
    for choice in choices:
        if state.is_over:
            break
        seat = state.acting_seats[choice % len(state.acting_seats)]
        legal = state.legal_actions(seat)
        text = texts[choice % len(texts)] if choice % 3 == 0 else str(legal[choice % len(legal)])
        try:
            state.apply(text, player=seat)
        except IllegalAction:
            pass
        table = sum(len(v) for v in state.table.values())
        held = sum(len(c) for c in state.arrested)
        released = sum(1 for s, t in state.history if t.startswith("release ") and t != "release none")
        assert table + held + len(state.pile) + released == 60
        assert state.view(seat).facts["scores"] == state.scores


def test_resample_keeps_own_pick_and_redraws_hidden_ones() -> None:
    """Hidden information: others' unrevealed picks and the pile order are redrawn, nothing public changes."""
    import random

    state = new_game(3, seed=1)
    while state.phase == "release":
        state.apply("release none", player=state.current_player)
    for seat, text in {0: "pick red blue", 1: "pick orange green", 2: "pick yellow 2x"}.items():
        state.apply(text, player=seat)
    first = state.current_player
    state.apply(f"reveal {state.picks[first][0]}", player=first)
    worlds = [state.resample(0, random.Random(k)) for k in range(30)]
    assert all(world.picks[0] == ("red", "blue") and world.view(0) == state.view(0) for world in worlds)
    assert any(world.picks[s] != state.picks[s] for world in worlds for s in (1, 2))
    shown = state.revealed[first][0]
    assert all(shown in world.picks[first] for world in worlds)  # what was revealed stays true


@pytest.mark.parametrize("players", [2, 3, 5])
def test_world_from_view_is_consistent_with_the_view(players: int) -> None:
    """Bots rebuild full worlds from their view alone; each world looks exactly the same to that seat."""
    import random

    from tabletop_edu.commissario.engine import world_from_view

    rng = random.Random(players)
    for seed in range(2):
        state = new_game(players, seed=seed, rules=Rules(released_go_to="table" if seed else "box"))
        while not state.is_over:
            if len(state.history) % 3 == 0:
                for seat in [None, *range(players)]:
                    assert world_from_view(state.view(seat), rng).view(seat) == state.view(seat)
            seat = rng.choice(state.acting_seats)
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
