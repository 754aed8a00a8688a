"""Peek's declaration to the game registry (entry point `peek` in pyproject.toml): the template a new game
copies. A game needs no bots of its own ("random" and "ismcts" exist for every game) and no renderer (the
generic tables: Peek has one, `peek_render`, to show the shared templates at their smallest); `actions` is only
needed by fixed-action-space adapters (PettingZoo)."""

from __future__ import annotations

from typing import Any

from ..core import Action
from ..registry import GamePlugin


def peek_actions(players: int, rules: Any = None) -> list[Action]:
    """Every peek, guess and pass at a table of `players` with these rules."""
    from . import peek
    highest = (rules or peek.Rules()).highest_card
    seats = range(players)
    return ([peek.Peek(t) for t in seats] + [peek.Guess(t, v) for t in seats for v in range(1, highest + 1)]
            + [peek.Pass()])


PEEK = GamePlugin(
    name="peek",
    module="tabletop_edu.examples.peek",
    title="Peek",
    min_players=2,
    max_players=4,
    default_players=3,
    actions=peek_actions,
    summary="the smallest hidden-information game: peek at a card, guess a card, or pass",
    render="tabletop_edu.examples.peek_render",
)
