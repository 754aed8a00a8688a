"""Get Adler: find the double agent before the seventh hour ends (engine, rules, bots, deduction, worlds).

Imports inside the package go one way, from the material to the table: `rules` (cards, characters, options)
<- `words` (EN/FR, the refusals' too) <- `actions` (the moves and their notation) <- `deduction` (possible worlds of characters) <- `worlds`
(determinizations, built for any state class it is given) <- `engine` (the state, whose `world_from_view`
calls `worlds`) <- `bots`, `render`, `widget`, `plugin`. No module imports one to its right, not even inside
a function.
"""

from .engine import (Answer, Arrest, Ask, Binoculars, Discard, GetAdlerState, Give, Magnify, Pass, Respond, Skip,
                     State, Surrender, new_game, parse_action, world_from_view)
from .rules import CAST, TRAIT_COLOURS, TRAIT_TABLE, TRAITS, Rules

__all__ = ["Answer", "Arrest", "Ask", "Binoculars", "CAST", "Discard", "GetAdlerState", "Give", "Magnify", "Pass",
           "Respond", "Rules", "Skip", "State", "Surrender", "TRAITS", "TRAIT_COLOURS", "TRAIT_TABLE",
           "new_game", "parse_action", "world_from_view"]
