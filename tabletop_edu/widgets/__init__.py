"""Front-end pieces shared by every game: a playable table with perspective picker, timeline, log and
knowledge panel. Each game's `widget.py` only chooses its defaults."""

from .game_widget import GameWidget, OMNISCIENT, perspective_html

__all__ = ["GameWidget", "OMNISCIENT", "perspective_html"]
