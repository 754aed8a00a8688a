"""The PettingZoo adapter passes PettingZoo's own api_test for every game, with complete action masks."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the `rl` extra (pettingzoo, gymnasium) is not installed")

with warnings.catch_warnings():  # pettingzoo.test imports its classic games through a deprecated path
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test  # noqa: E402

from tabletop_edu.pettingzoo_env import TabletopEnv, action_catalogue, env, random_steps, view_features  # noqa: E402

TABLES = [("peek", 3), ("commissario", 3), ("get_adler", 4), ("mafia_de_cuba", 6)]


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("game", "players"), TABLES)
def test_api_test_passes(game: str, players: int) -> None:
    api_test(env(game, players), num_cycles=100)


@pytest.mark.parametrize(("game", "players"), TABLES + [("commissario", 5), ("get_adler", 6), ("mafia_de_cuba", 9)])
def test_catalogue_covers_every_legal_action_of_random_games(game: str, players: int) -> None:
    # action_mask raises if a legal action is missing from the catalogue
    assert random_steps(env(game, players), seed=3, games=3) > 0
    catalogue = action_catalogue(game, players)
    assert catalogue == sorted(set(catalogue))


def test_masked_out_action_is_refused_with_a_reason() -> None:
    environment = TabletopEnv("peek", 2)
    environment.reset(seed=1)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="action_mask"):
        environment.step(illegal)


def test_rewards_are_the_game_returns_and_reset_is_seeded() -> None:
    first, second = TabletopEnv("peek", 3), TabletopEnv("peek", 3)
    for environment in (first, second):
        random_steps(environment, seed=4, games=1)
    assert first.state is not None and second.state is not None
    assert first.state.history == second.state.history
    environment = TabletopEnv("peek", 3)
    environment.reset(seed=4)
    final: dict[str, float] = {}
    rng = np.random.default_rng(0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        if termination:
            final[agent] = reward
        environment.step(None if termination else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert environment.state is not None and environment.state.is_over
    assert [final[a] for a in environment.possible_agents] == environment.state.returns()


@pytest.mark.parametrize(("game", "players"), [("commissario", 3), ("mafia_de_cuba", 6), ("get_adler", 4)])
def test_observations_come_from_the_view_alone(game: str, players: int) -> None:
    """A world redrawn from a seat's information set gives that seat the same observation: no secret leaks."""
    environment = TabletopEnv(game, players)
    environment.reset(seed=2)
    rng = random.Random(0)
    assert environment.state is not None
    for _ in range(12):
        if environment.state.is_over:
            break
        seat = environment.state.acting_seats[0]
        agent = environment.possible_agents[seat]
        other = environment.state.resample(seat, rng)
        assert (view_features(other.view(seat), 256) == environment.observe(agent)["observation"]).all()
        legal = np.flatnonzero(environment.observe(agent)["action_mask"])
        environment.agent_selection = agent
        environment.step(int(rng.choice(list(legal))))


@pytest.mark.parametrize(("game", "players"), [("commissario", 3), ("mafia_de_cuba", 6), ("get_adler", 4), ("peek", 3)])
def test_remembered_buckets_are_those_of_the_written_tokens(game: str, players: int) -> None:
    """The fast path (buckets remembered by plain values) gives exactly the buckets of `_tokens`' texts,
    for every seat and the spectator, at every step of random games; and a True is not taken for a 1."""
    from tabletop_edu.pettingzoo_env import _bucket, _buckets, _tokens

    environment = TabletopEnv(game, players)
    for seed in range(3):
        environment.reset(seed=seed)
        state, rng = environment.state, random.Random(seed)
        assert state is not None
        while not state.is_over:
            for seat in [None, *range(players)]:
                facts = state.view(seat).facts
                assert _buckets(facts, 256) == [_bucket(token, 256) for token in _tokens(facts)]
            seat = state.acting_seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    for flag, number in [(True, 1), (False, 0)]:
        assert _buckets({"x": flag}, 1 << 20) == [_bucket(f"x={flag!r}", 1 << 20)] != _buckets({"x": number}, 1 << 20)
