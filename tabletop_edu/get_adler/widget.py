"""Play Get Adler in a notebook: any seat against bots, with the shared `GameWidget` (perspective picker,
timeline, log, information-flow drawing) and the knowledge panel of `panel` answering "who can be Adler?".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Bot, Seat
from ..widgets import GameWidget
from .bots import SmartBot
from .engine import new_game
from .panel import knowledge_html


def play(players: int | list[str] = 4, *, seed: int | None = None, seat: Seat | None = 0,
         bots: Mapping[Seat, Bot] | None = None, language: str = "en", **options: Any) -> GameWidget:
    """A table of Get Adler where you play `seat` and bots play the others (default: `SmartBot` everywhere
    else). `seat=None` gives a table of bots watched from the spectator's chair; pass `bots={}` for hot-seat
    play by people only; switch the perspective to watch as anyone. `options` go to `GameWidget`
    (`projector`, `bot_pace`, `lock_perspective`...)."""
    state = new_game(players, seed=seed)
    if bots is None:
        bots = {other: SmartBot() for other in range(len(state.players)) if other != seat}
    return GameWidget(state, bots=bots, perspective=seat, language=language, knowledge=knowledge_html, **options)


__all__ = ["play"]
