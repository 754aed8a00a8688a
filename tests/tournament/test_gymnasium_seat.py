"""One seat against the registered bots as a single-agent Gymnasium environment, with `action_masks()`: it
passes Gymnasium's `check_env`, and an action outside the mask ends the episode with a penalty."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils import env_checker

from tabletop_edu.pettingzoo_env import ILLEGAL_REWARD, SEAT_ENV_ID, SeatEnv

TABLES = [("peek", 3, "random"), ("commissario", 3, "greedy"), ("get_adler", 4, "smart"),
          ("mafia_de_cuba", 6, "random")]


def play(environment: SeatEnv, seed: int) -> tuple[list[int], float]:
    """A game where the seat plays its first legal action each turn: (its actions, its reward)."""
    environment.reset(seed=seed)
    actions, reward, over = [], 0.0, False
    while not over:
        mask = environment.action_masks()
        assert mask.dtype == bool and mask.any()  # the seat is to act whenever the environment waits for it
        actions.append(int(np.flatnonzero(mask)[0]))
        _, reward, over, truncated, info = environment.step(actions[-1])
        assert not truncated and (info["action_mask"] == environment.action_masks()).all()
    return actions, reward


def check_with_gymnasium(game: str, players: int, bots: str) -> None:
    """Gymnasium's own `check_env`, random actions of the whole space included, on the environment as
    `gymnasium.make` builds it (so with its spec: the render modes are checked too); any warning fails."""
    environment = gymnasium.make(SEAT_ENV_ID, game=game, players=players, seat=1, opponents=bots,
                                 disable_env_checker=True).unwrapped
    assert isinstance(environment, SeatEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env_checker.check_env(environment)


@pytest.mark.parametrize(("game", "players", "bots"), TABLES)
def test_gymnasiums_checks_pass_and_a_game_ends_with_the_seats_return(game: str, players: int, bots: str) -> None:
    check_with_gymnasium(game, players, bots)
    environment = SeatEnv(game, players, seat=1, opponents=bots)
    actions, reward = play(environment, seed=5)
    state = environment.table.state
    assert state is not None and state.is_over and reward == state.returns()[1]
    assert [entry for entry in state.history if entry[0] == 1]  # the seat played its own moves
    assert not environment.action_masks().any()
    assert play(SeatEnv(game, players, seat=1, opponents=bots), seed=5) == (actions, reward)  # seeded


def test_observations_are_the_seats_view_and_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    environment = SeatEnv("peek", 3, seat=0, opponents=["random", "ismcts(iterations=4)"])
    observation, info = environment.reset(seed=2)
    assert environment.observation_space.contains(observation)
    assert (observation == environment.table.observe("player_0")["observation"]).all()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    history = list(environment.table.state.history)
    after, reward, terminated, truncated, info = environment.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (ILLEGAL_REWARD, True, False, True)
    assert environment.table.state.history == history and (after == observation).all()  # the game as it was
    with pytest.raises(ValueError, match="The episode is over: call reset"):
        environment.step(int(np.flatnonzero(info["action_mask"])[0]))
    environment.reset(seed=2)
    assert "illegal_action" not in environment.step(int(np.flatnonzero(environment.action_masks())[0]))[4]
    with pytest.raises(ValueError, match="a number from 0 to 2"):
        SeatEnv("peek", 3, seat=3)
    with pytest.raises(ValueError, match="2 opponents sit with seat 0, not 1"):
        SeatEnv("peek", 3, opponents=["random"])
    with pytest.raises(ValueError, match="Unknown bot 'grandmaster'"):
        SeatEnv("peek", 3, opponents="grandmaster")
    play(environment, seed=3)
    with pytest.raises(ValueError, match="The episode is over: call reset"):
        environment.step(0)
