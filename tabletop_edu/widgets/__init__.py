"""Front-end pieces shared by every game: a playable table with perspective picker, timeline, move buttons,
bot pace, projector mode, log and knowledge panel; and one screen for a whole table (`pass_and_play`). Each
game's `widget.py` only chooses its defaults."""

from .game_widget import GameWidget
from .pace import INSTANT, PACES, STEP, TIMED, LoopScheduler, ManualScheduler, Scheduler
from .panels import OMNISCIENT, perspective_html
from .pass_and_play import PassAndPlay, pass_and_play

__all__ = ["GameWidget", "INSTANT", "LoopScheduler", "ManualScheduler", "OMNISCIENT", "PACES", "PassAndPlay",
           "STEP", "Scheduler", "TIMED", "pass_and_play", "perspective_html"]
