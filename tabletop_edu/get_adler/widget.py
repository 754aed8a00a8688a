"""Play Get Adler in a notebook: any seat against bots, with the shared `GameWidget` (perspective picker,
timeline, log, information-flow drawing) and the knowledge panel of `panel` answering "who can be Adler?".
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core import Bot
from ..widgets import GameWidget
from .bots import SmartBot
from .engine import new_game
from .panel import knowledge_html


def play(players: int | list[str] = 4, *, seed: int | None = None, seat: int = 0,
         bots: Mapping[int, Bot] | None = None, language: str = "en") -> GameWidget:
    """A table of Get Adler where you play `seat` and bots play the others (default: `SmartBot` everywhere
    else). Pass `bots={}` for hot-seat play by people only; switch the perspective to watch as anyone."""
    state = new_game(players, seed=seed)
    if bots is None:
        bots = {other: SmartBot() for other in range(len(state.players)) if other != seat}
    return GameWidget(state, bots=bots, perspective=seat, language=language, knowledge=knowledge_html)


__all__ = ["play"]
