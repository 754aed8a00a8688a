"""Front-end pieces shared by every game: a playable table with perspective picker, timeline, move buttons,
bot pace, projector mode, log and knowledge panel. Each game's `widget.py` only chooses its defaults."""

from .game_widget import GameWidget
from .pace import INSTANT, PACES, STEP, TIMED, LoopScheduler, ManualScheduler, Scheduler
from .panels import OMNISCIENT, perspective_html

__all__ = ["GameWidget", "INSTANT", "LoopScheduler", "ManualScheduler", "OMNISCIENT", "PACES", "STEP",
           "Scheduler", "TIMED", "perspective_html"]
