"""Get Adler: find the double agent before the seventh hour ends (engine, rules, bots, deduction, worlds)."""

from .engine import (Answer, Arrest, Ask, Binoculars, Discard, GetAdlerState, Give, Magnify, Pass, Respond, Skip,
                     State, Surrender, new_game, parse_action)
from .rules import CAST, TRAIT_COLOURS, TRAIT_TABLE, TRAITS, Rules
from .worlds import world_from_view

__all__ = ["Answer", "Arrest", "Ask", "Binoculars", "CAST", "Discard", "GetAdlerState", "Give", "Magnify", "Pass",
           "Respond", "Rules", "Skip", "State", "Surrender", "TRAITS", "TRAIT_COLOURS", "TRAIT_TABLE",
           "new_game", "parse_action", "world_from_view"]
