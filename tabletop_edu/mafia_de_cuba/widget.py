"""Play Mafia de Cuba in a notebook: `play(7, seed=1)` seats you as the Godfather against the colleague bots.

The widget is the shared `GameWidget` (perspective picker, timeline, log, information flow) with the knowledge
panel of `panel`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import Bot, GameState, Seat, View
from ..widgets import GameWidget
from .bots import default_bots
from .engine import new_game
from .panel import DEFAULT_TRUST, knowledge_html
from .rules import Rules


def play(players: int | list[str] = 7, *, seed: int | None = None, seat: Seat | None = 0,
         bots: Mapping[Seat, Bot] | Sequence[Bot] | None = None, language: str = "en",
         rules: Rules | None = None, trust: float | None = DEFAULT_TRUST, **options: Any) -> GameWidget:
    """A table where you sit at `seat` (0 is the Godfather by default) and bots play every other seat.

    `bots` is a seat -> bot mapping or one bot per seat (the entry for `seat` is ignored); by default the
    colleague's `default_bots`, seeded with `seed`, so a seeded table plays the same game every time. `trust`
    is how far the knowledge panel believes testimonies (None: it ignores them). `seat=None` gives a table of
    bots watched from the spectator's chair. `options` go to `GameWidget` (`projector`, `bot_pace`,
    `lock_perspective`...)."""
    state = new_game(players, seed=seed, rules=rules)
    count = len(state.players)
    if bots is None:
        bots = default_bots(count, state.rules, seed=state.seed)
    table = dict(bots) if isinstance(bots, Mapping) else dict(enumerate(bots))
    if seat is not None:
        table.pop(seat, None)

    def knowledge(subject: View | GameState[Any], language: str) -> str:
        return knowledge_html(subject, language, state.rules, trust)

    return GameWidget(state, bots=table, perspective=seat, language=language, knowledge=knowledge, **options)


__all__ = ["play"]
