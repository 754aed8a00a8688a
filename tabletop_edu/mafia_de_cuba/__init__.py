"""Mafia de Cuba: the cigar box, the diamonds and the Godfather's interrogation (spec: seeds/mafia_de_cuba.md).

Imports inside the package go one way, with no loop (function-level imports included):
rules <- _box (the box chain's model) <- _chain_python, _chain_numpy (its forward-backward passes) <- chain
(posteriors, caches, testimonies as evidence) <- engine (which draws `world_from_view` from the chain) <-
inference, bots, render, plugin <- widget, series <- series_widget.
"""

from __future__ import annotations

from .engine import (Accuse, Ask, Floor, Hide, Hold, MafiaState, Pass, Saw, SetAside, Shoot, Silent, State, Suspect,
                     TakeFromBox, Took, new_game, parse_action, role_of, take_text, world_from_view)
from .rules import Rules

__all__ = ["Accuse", "Ask", "Floor", "Hide", "Hold", "MafiaState", "Pass", "Rules", "Saw", "SetAside", "Shoot",
           "Silent", "State", "Suspect", "TakeFromBox", "Took", "new_game", "parse_action", "role_of", "take_text",
           "world_from_view"]
