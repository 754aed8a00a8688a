"""The generic IS-MCTS bot: plays every game through the protocol, within its budget, reproducibly."""

from __future__ import annotations

import random

import pytest

from tabletop_edu import commissario
from tabletop_edu.examples import peek
from tabletop_edu.ismcts import InformationSetSearch, bind_worlds, cutoff_rewards
from tabletop_edu.tournament import run_tournament


def test_builds_worlds_from_the_view_when_the_game_can() -> None:
    state = commissario.new_game(3, seed=4)
    bot = InformationSetSearch(iterations=6, worlds=2)
    seat = state.acting_seats[0]
    action = bot.choose(state.view(seat), state.legal_actions(seat), random.Random(0))
    assert action in state.legal_actions(seat)


def test_needs_a_referee_sampler_for_games_without_world_from_view() -> None:
    state = peek.new_game(3, seed=1)
    bot = InformationSetSearch(iterations=8)
    with pytest.raises(RuntimeError, match="bind_worlds"):
        bot.choose(state.view(0), state.legal_actions(0), random.Random(0))
    bind_worlds(bot, state, 0)
    assert bot.choose(state.view(0), state.legal_actions(0), random.Random(0)) in state.legal_actions(0)


def test_same_rng_same_choice() -> None:
    state = peek.new_game(3, seed=2)
    picks = set()
    for _ in range(2):
        bot = InformationSetSearch(iterations=20)
        bind_worlds(bot, state, 0)
        picks.add(str(bot.choose(state.view(0), state.legal_actions(0), random.Random(7))))
    assert len(picks) == 1


def test_guesses_a_card_it_has_peeked_at() -> None:
    """Peek: once it knows a card, guessing it right is the clear best move, and the search finds it."""
    state = peek.new_game(2, seed=3)
    state.apply("peek 1", player=0)
    state.apply("pass", player=1)
    bot = InformationSetSearch(iterations=60)
    bind_worlds(bot, state, 0)
    card = state.view(0).facts["known_cards"][1]
    assert str(bot.choose(state.view(0), state.legal_actions(0), random.Random(0))) == f"guess 1 {card}"


def test_cutoff_rewards_share_the_lead() -> None:
    state = peek.new_game(2, seed=0)
    assert cutoff_rewards(state) == [0.5, 0.5]


def test_beats_random_at_peek() -> None:
    result = run_tournament("peek", ["random", "ismcts(iterations=24)"], players=2, games=40, seed=0)
    rows = {row.bot: row for row in result.rows()}
    assert rows["ismcts(iterations=24)"].mean_score > rows["random"].mean_score


def test_pickles_without_its_bound_sampler() -> None:
    import pickle
    bot = InformationSetSearch(iterations=3)
    bind_worlds(bot, peek.new_game(2, seed=0), 0)
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.bound_sampler is None and copy.iterations == 3
