"""The game protocol shared by every engine: state, actions, events with visibility, views, records."""

from .actions import A_SEAT, Action, expect_arity, parse_choice, parse_int, words
from .errors import RecordError, quote, quote_repr
from .bots import Bot, RandomBot, play_game, play_turn
from .errors import IllegalAction, RulesError, Term
from .events import Event, FrozenDict, FrozenList, Seat, SeatLog, Source, freeze, log_for, read_only_copy
from .rules import GameRules, option, rules_from_dict, rules_to_dict
from .state import GameState, copy_rng, load, player_names, shuffle
from .view import View, view_from_json, view_to_json

__all__ = [
    "A_SEAT", "Action", "Bot", "Event", "FrozenDict", "FrozenList", "GameRules", "GameState", "IllegalAction",
    "RandomBot", "RecordError", "RulesError", "Seat", "SeatLog", "Source", "Term", "View", "copy_rng", "expect_arity", "freeze",
    "load", "log_for", "option", "parse_choice", "parse_int", "play_game", "play_turn", "player_names", "quote",
    "quote_repr", "read_only_copy", "rules_from_dict", "rules_to_dict", "shuffle", "view_from_json", "view_to_json",
    "words",
]
