"""Play Commissario in a notebook: the shared `GameWidget` with Commissario's defaults and knowledge panel.

`play(3, seed=1)` seats you at seat 0 against bidder bots. The secret pick is simultaneous, so the widget
lets every human seat pick in turn (hot-seat: switch the perspective to that seat) and the bots pick too;
nobody's choice shows on another seat's page until it is revealed. The knowledge panel
(`panel.knowledge_html`) shows who knows what of this round's picks, computed from the perspective's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Bot, Seat
from ..widgets import GameWidget
from .bots import BidderBot
from .engine import new_game
from .panel import knowledge_html


def default_bots(players: int, human_seat: Seat | None) -> dict[Seat, Bot]:
    """A bidder bot (prices turn order, picks the best immediate catch) at every seat but the human's."""
    return {seat: BidderBot() for seat in range(players) if seat != human_seat}


def play(players: int | list[str] = 3, *, seed: int | None = None, seat: Seat | None = 0,
         bots: Mapping[Seat, Bot] | None = None, language: str = "en", **options: Any) -> GameWidget:
    """A playable Commissario table: you at `seat`, bots elsewhere (`bots` overrides the default ones).

    `seat=None` with no `bots` gives a table of bots to watch from the spectator's chair; pass `bots={}`
    for a hot-seat game where people play every seat. `options` go to `GameWidget` (`projector`,
    `bot_pace`, `lock_perspective`...).
    """
    state = new_game(players, seed=seed)
    count = len(state.players)
    if seat is not None and not 0 <= seat < count:
        raise ValueError(f"seat must be between 0 and {count - 1} for {count} players.")
    chosen = default_bots(count, seat) if bots is None else dict(bots)
    return GameWidget(state, bots=chosen, perspective=seat, language=language, knowledge=knowledge_html, **options)


__all__ = ["default_bots", "play"]
