"""The PettingZoo adapter for Mafia de Cuba: observations carry the testimonies (issue 10), and the action
catalogue follows the rule options (diamonds, hiding, tokens, free talk's `pass`)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the `rl` extra (pettingzoo, gymnasium) is not installed")

from tabletop_edu.mafia_de_cuba import Rules  # noqa: E402
from tabletop_edu.pettingzoo_env import TabletopEnv, action_catalogue  # noqa: E402

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]


def observation_after(texts: list[str], agent: str = "player_0") -> np.ndarray:
    game = TabletopEnv("mafia_de_cuba", 6)
    game.reset(seed=0)
    for text in texts:
        game.step(game.index[text])
    return game.observe(agent)["observation"]


def test_observations_carry_the_testimonies() -> None:
    """Two tables that differ only by what seat 1 said on the floor give the Godfather different observations;
    the same words give the same observation."""
    lie, truth = (observation_after(BOX_6 + [said] + ["pass"] * 4) for said in ("took loyal", "took 3"))
    assert (lie != truth).any()
    assert (lie == observation_after(BOX_6 + ["took loyal"] + ["pass"] * 4)).all()
    silent = observation_after(BOX_6 + ["pass"] * 5)
    assert (silent != lie).any() and (silent != truth).any()


def test_the_catalogue_follows_the_rule_options_and_covers_random_games() -> None:
    rules = Rules(diamonds=20, max_hidden=8, jokers=2, cleaner=True, loyal=3)
    catalogue = action_catalogue("mafia_de_cuba", 6, rules)
    assert {"take 20", "hide 8", "saw 20 loyal loyal loyal fbi driver cleaner", "pass"} <= set(catalogue)
    assert "hide 9" not in catalogue and "take 21" not in catalogue
    game = TabletopEnv("mafia_de_cuba", 6, rules=rules)
    rng = random.Random(0)
    for seed in range(3):
        game.reset(seed=seed)
        for agent in game.agent_iter(max_iter=2000):
            _, _, termination, truncation, _ = game.last()
            mask = game.action_mask(agent)  # raises if a legal action is missing from the catalogue
            game.step(None if termination or truncation else int(rng.choice(np.flatnonzero(mask))))
        assert game.state is not None and game.state.is_over
