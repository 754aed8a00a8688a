"""Commissario: arrest bandits, not innocents; an all-pay auction for turn order and a secret simultaneous pick.

Rules: seeds/commissario.md. The package has the shape of every game (`tabletop_edu.GAME_SHAPE`); its game
theory is `strategy.py` (a round solved and checked), beside it `normal_form.py` (the pick as a normal-form
game), `level_k.py`, `game_tree.py` and `auction.py` (the order auction).
"""

from __future__ import annotations

from .actions import Pick, Release, Reveal, parse_action
from .engine import CommissarioState, State, new_game, world_from_view
from .rules import BONUS_READINGS, COLOURS, Rules

#: The module holding the game's theory (the shape's `analysis`).
ANALYSIS = "strategy"
#: The game's modules beyond the shape, each with the module of the shape it stands beside (on whose floor it is).
OWN_MODULES: dict[str, str] = {"normal_form": "strategy", "level_k": "strategy", "game_tree": "strategy",
                               "auction": "strategy"}

__all__ = ["ANALYSIS", "OWN_MODULES", "BONUS_READINGS", "COLOURS", "CommissarioState", "Pick", "Release", "Reveal", "Rules", "State", "new_game",
           "parse_action", "world_from_view"]
