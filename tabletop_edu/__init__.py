"""tabletop_edu: hidden-information tabletop games for teaching game theory in Jupyter.

Three games (Commissario, Get Adler, Mafia de Cuba) share one protocol (`tabletop_edu.core`): seeded states,
text-notated actions, events that know who saw them, and per-seat views. `tabletop_edu.knowledge` turns the
event log into information-flow graphs and possible-worlds models.
"""

from .core import Action, Event, GameState, IllegalAction, RandomBot, RecordError, RulesError, View, load, play_game

__version__ = "0.1.0"

__all__ = ["Action", "Event", "GameState", "IllegalAction", "RandomBot", "RecordError", "RulesError", "View", "load",
           "play_game", "__version__"]
