"""Conformance (check_game), bad input, and property tests for the Commissario engine."""

from __future__ import annotations

import collections
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop_edu.commissario as commissario
from tabletop_edu.commissario import Pick, Release, Reveal, Rules, new_game, parse_action
from tabletop_edu.commissario.actions import ALL_PICKS
from tabletop_edu.core import Action, IllegalAction
from tabletop_edu.testing import check_game


# Two games per table size: each checks every step (views, resampling, twins, illegal moves, replays); the
# option games below and the fuzz suite (tests/core/test_fuzz.py) add the variety more seeds would give.
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_check_game(players: int) -> None:
    report = check_game(commissario, players=players, games=2, seed=1000 * players)
    assert report.games == 2 and report.twins_checked > 0 and report.illegal_rejected > 0


@pytest.mark.parametrize(("players", "rules"), [
    (4, Rules(reveal_choice=False, partial_last_layout=False, released_go_to="table", tie_break="fewest_innocents",
              double_card_each_round=False)),
    (2, Rules(highest_value=3, laid_per_player=3, double_card=False, bonus_values="purple_none",
              bonus_needs_positive=True)),
    (5, Rules(laid_per_player=5, bonus_values=(0, 1, 0, 2, 0, 9), released_go_to="table")),
])
def test_check_game_with_options(players: int, rules: Rules) -> None:
    check_game(commissario, players=players, games=2, seed=7, rules=rules)


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
    refused(state, "release red+10", state.current_player, "worth")
    refused(state, "release red+03", state.current_player, "one digit")
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


def test_numbers_of_any_length_are_refused_with_a_short_message() -> None:
    """Issue 10: 'release red+' with 5,000 digits raised ValueError (int() refuses over 4,300 digits)."""
    state = new_game(3, seed=1)
    for text in ["release red+" + "9" * 5000, "release red-" + "1" * 5000, "release red+٣"]:
        with pytest.raises(IllegalAction) as refusal:
            parse_action(text)
        assert len(str(refusal.value)) < 200 and refusal.value.__cause__ is None
        refused(state, text, state.current_player, "number|character")


def wrong_typed_actions(state: commissario.State) -> list[Action]:
    """For every action class, values whose fields have types other than the notation reads back, some of
    them equal to a legal action (True == 1) or to its text (a list of the same colours)."""
    held = state.arrested[state.current_player]
    plus = next(value for colour, value in held if colour == "purple" and value > 0)
    return [
        Release(("purple", plus == 1)), Release(("purple", float(plus))), Release(["purple", plus]),
        Release(("purple",)), Release(("purple", plus, 0)), Release(("purple", 10**5000)), Release(("purple", -10**30)),
        Release((b"purple", plus)), Release(0), Release(False), Release("purple+1"), Release({"purple": plus}),
        Release(("purple", None)), Release((("purple",), plus)),
        Pick(["red", "blue"]), Pick(("red",)), Pick(("red", "blue", "green")), Pick(("red", 1)), Pick("red blue"),
        Pick((None, None)), Pick(("blue", "red")), Pick(("RED", "blue")), Pick(("red", "x" * 100_000)),
        Reveal(None), Reveal(["red"]), Reveal(b"red"), Reveal(1), Reveal("red "), Reveal("rouge" * 10_000),
    ]


@pytest.mark.parametrize("phase", ["release", "pick", "first_reveal"])
def test_wrong_typed_action_values_are_refused_and_change_nothing(phase: str) -> None:
    """Every action class with wrong-typed fields: IllegalAction, a short message, and no state change."""
    state = new_game(3, seed=1)
    while state.phase != phase:
        seat = state.acting_seats[0]
        state.apply(state.legal_actions(seat)[0], player=seat)
    seat = state.acting_seats[0]
    probe = new_game(3, seed=1)  # the release-phase table: where the purple cards are held
    for action in wrong_typed_actions(probe):
        before = state.fingerprint()
        with pytest.raises(IllegalAction) as refusal:
            state.apply(action, player=seat)
        message = str(refusal.value)
        assert len(message) <= 400 and "x" * 60 not in message and "rouge" * 12 not in message, message
        assert refusal.value.__cause__ is None, f"{refusal.value.__cause__!r} inside the engine"
        assert state.fingerprint() == before


def test_world_from_view_is_the_state_classmethod() -> None:
    """One sampler: the module-level name (looked up by bots and ismcts) is the classmethod itself."""
    assert commissario.world_from_view == commissario.CommissarioState.world_from_view
    state = new_game(3, seed=4)
    for seed in range(3):
        assert state.resample(1, random.Random(seed)).fingerprint() == \
            commissario.world_from_view(state.view(1), random.Random(seed)).fingerprint()


def test_worlds_are_drawn_uniformly_among_the_states_the_view_allows() -> None:
    """Late in a small game seat 0 cannot see the order of the last two characters of the pile, nor seat 1's
    pick beyond the colour it revealed first: 2 x 6 = 12 states fit its view, and 1,200 worlds fall on each of
    them about 100 times (chi-square; the seeds are fixed, so the check is deterministic)."""
    from scipy.stats import chisquare

    rules = Rules(highest_value=2, laid_per_player=3)  # 20 characters in the pile: layouts of 6 leave 2
    rng = random.Random(0)
    state = new_game(2, seed=3, rules=rules)
    while not (len(state.pile) == 2 and state.phase == "first_reveal" and state.order == [1, 0]
               and state.current_player == 0):
        if state.is_over:
            state = new_game(2, seed=rng.randrange(10**6), rules=rules)
        seat = rng.choice(state.acting_seats)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    shown = state.revealed[1][0]
    fitting = {p.colours for p in ALL_PICKS if shown in p.colours}
    assert len(fitting) == 6 and state.picks[1] in fitting
    counts = collections.Counter((tuple(w.pile), w.picks[1])
                                 for w in (state.resample(0, random.Random(k)) for k in range(1200)))
    assert set(counts) == {(order, pick) for order in itertools.permutations(state.pile) for pick in fitting}
    assert chisquare(list(counts.values())).pvalue > 0.001
