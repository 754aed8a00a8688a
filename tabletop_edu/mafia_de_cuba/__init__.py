"""Mafia de Cuba: the cigar box, the diamonds and the Godfather's interrogation (spec: seeds/mafia_de_cuba.md).

The package has the shape of every game (`tabletop_edu.GAME_SHAPE`). Imports inside it go one way, with no loop
(function-level imports included): rules <- words (EN/FR, the refusals' too) <- actions (the moves and their
notation) <- menus (the shared legal-action menus); rules <- _box (the box chain's model) <- _chain_python,
_chain_numpy (its forward-backward passes) <- chain (posteriors, caches, testimonies as evidence); actions, chain
<- worlds (determinizations, built for the state class it is given) <- engine (the state, whose `world_from_view`
calls `worlds`; with `menus`) <- inference (the game's theory), cheap_talk, bots, beliefs, plugin, series
(rounds where the winners choose the next Godfather) <- render, panel, widget, series_widget.
"""

from __future__ import annotations

from .actions import (Accuse, Ask, Floor, Hide, Hold, Pass, Saw, SetAside, Shoot, Silent, Suspect, TakeFromBox, Took,
                      parse_action)
from .engine import MafiaState, State, new_game, world_from_view
from .rules import Rules, role_of, take_text

#: The module holding the game's theory (the shape's `analysis`).
ANALYSIS = "inference"
#: The game's modules beyond the shape, each with the module of the shape it stands beside (on whose floor it is).
OWN_MODULES: dict[str, str] = {
    "_box": "worlds", "_chain_python": "worlds", "_chain_numpy": "worlds", "chain": "worlds", "menus": "engine",
    "cheap_talk": "analysis", "series": "bots", "series_widget": "widget",
}

__all__ = ["ANALYSIS", "OWN_MODULES", "Accuse", "Ask", "Floor", "Hide", "Hold", "MafiaState", "Pass", "Rules", "Saw", "SetAside", "Shoot",
           "Silent", "State", "Suspect", "TakeFromBox", "Took", "new_game", "parse_action", "role_of", "take_text",
           "world_from_view"]
