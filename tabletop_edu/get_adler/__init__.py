"""Get Adler: find the double agent before the seventh hour ends.

The package has the shape of every game (`tabletop_edu.GAME_SHAPE`). Imports inside it go one way, from the
material to the table: `rules` (cards, characters, options) <- `words` (EN/FR, the refusals' too) <- `actions`
(the moves and their notation) <- `identities` (possible worlds of characters) <- `worlds` (determinizations,
built for any state class it is given) <- `engine` (the state, whose `world_from_view` calls `worlds`) <-
`deduction` (the game theory: the value of a question, the questioning game), `bots`, `beliefs`, `plugin` <-
`render`, `panel`, `widget`. No module imports one to its right, not even inside a function.
"""

from .engine import (Answer, Arrest, Ask, Binoculars, Discard, GetAdlerState, Give, Magnify, Pass, Respond, Skip,
                     State, Surrender, new_game, parse_action, world_from_view)
from .rules import CAST, TRAIT_COLOURS, TRAIT_TABLE, TRAITS, Rules

#: The module holding the game's theory (the shape's `analysis`).
ANALYSIS = "deduction"
#: The game's modules beyond the shape, each with the module of the shape it stands beside (on whose floor it is).
OWN_MODULES: dict[str, str] = {"identities": "worlds"}

__all__ = ["ANALYSIS", "OWN_MODULES", "Answer", "Arrest", "Ask", "Binoculars", "CAST", "Discard", "GetAdlerState", "Give", "Magnify", "Pass",
           "Respond", "Rules", "Skip", "State", "Surrender", "TRAITS", "TRAIT_COLOURS", "TRAIT_TABLE",
           "new_game", "parse_action", "world_from_view"]
