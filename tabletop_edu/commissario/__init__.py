"""Commissario: arrest bandits, not innocents; an all-pay auction for turn order and a secret simultaneous pick.

Rules: seeds/commissario.md. Rule options: `rules.py`; moves and their notation: `actions.py`; engine: `engine.py`;
bots: `bots.py`; game theory of one round: `strategy.py`; HTML: `render.py`.
"""

from __future__ import annotations

from .actions import Pick, Release, Reveal, parse_action
from .engine import CommissarioState, State, new_game, world_from_view
from .rules import BONUS_READINGS, COLOURS, Rules

__all__ = ["BONUS_READINGS", "COLOURS", "CommissarioState", "Pick", "Release", "Reveal", "Rules", "State", "new_game",
           "parse_action", "world_from_view"]
