"""One seat against the registered bots as a single-agent Gymnasium environment, with `action_masks()`."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils import env_checker, passive_env_checker

from tabletop_edu.pettingzoo_env import SeatEnv

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


def check_with_gymnasium(environment: SeatEnv) -> None:
    """Gymnasium's own checks, but with legal actions: its `check_env` steps with unmasked random actions,
    which this environment refuses (an illegal move raises and changes nothing, as everywhere here)."""
    env_checker.check_action_space(environment.action_space)
    env_checker.check_observation_space(environment.observation_space)
    env_checker.check_reset_return_type(environment)
    env_checker.check_reset_seed_determinism(environment)
    env_checker.check_reset_options(environment)
    passive_env_checker.env_reset_passive_checker(environment, seed=0)
    for _ in range(3):
        if not environment.action_masks().any():
            break
        legal = int(np.flatnonzero(environment.action_masks())[0])
        passive_env_checker.env_step_passive_checker(environment, legal)


@pytest.mark.parametrize(("game", "players", "bots"), TABLES)
def test_gymnasiums_checks_pass_and_a_game_ends_with_the_seats_return(game: str, players: int, bots: str) -> None:
    environment = SeatEnv(game, players, seat=1, opponents=bots)
    check_with_gymnasium(environment)
    actions, reward = play(environment, seed=5)
    state = environment.table.state
    assert state is not None and state.is_over and reward == state.returns()[1]
    assert [entry for entry in state.history if entry[0] == 1]  # the seat played its own moves
    assert not environment.action_masks().any()
    assert play(SeatEnv(game, players, seat=1, opponents=bots), seed=5) == (actions, reward)  # seeded


def test_observations_are_the_seats_view_and_bad_input_is_refused() -> None:
    environment = SeatEnv("peek", 3, seat=0, opponents=["random", "ismcts(iterations=4)"])
    observation, info = environment.reset(seed=2)
    assert environment.observation_space.contains(observation)
    assert (observation == environment.table.observe("player_0")["observation"]).all()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    history = list(environment.table.state.history)
    with pytest.raises(ValueError, match="not legal for player_0 now"):
        environment.step(illegal)
    assert environment.table.state.history == history  # nothing changed
    with pytest.raises(ValueError, match="a number from 0 to 2"):
        SeatEnv("peek", 3, seat=3)
    with pytest.raises(ValueError, match="2 opponents sit with seat 0, not 1"):
        SeatEnv("peek", 3, opponents=["random"])
    with pytest.raises(ValueError, match="Unknown bot 'grandmaster'"):
        SeatEnv("peek", 3, opponents="grandmaster")
    play(environment, seed=3)
    with pytest.raises(ValueError, match="The game is over: call reset"):
        environment.step(0)
