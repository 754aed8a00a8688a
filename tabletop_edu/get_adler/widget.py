"""Play Get Adler in a notebook: any seat against bots, with the shared `GameWidget` (perspective picker,
timeline, log, information-flow drawing) and a knowledge panel answering "who can be Adler?".

The panel is computed from what the perspective may know and nothing else: for a seat, from its View (the
public answers and arrests, plus its own character); for the spectator, from the public View; for the teacher
(omniscient), every seat's candidate set, each computed from that seat's own View. So the panel of seat k
holds no more than seat k's page already does.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from ..core import Bot, GameState, View
from ..i18n import check_language, tr
from ..widgets import GameWidget
from .bots import SmartBot
from .deduction import adler_distribution, worlds_for_view
from .engine import new_game


def _candidates_html(view: View, language: str) -> str:
    """One perspective's candidate set: each seat that may still be Adler, with its share of the worlds."""
    worlds = worlds_for_view(view)
    distribution = adler_distribution(worlds) if worlds else {}
    rows = []
    for seat, name in enumerate(view.players):
        share = distribution.get(seat, 0.0)
        width = round(200 * share)
        bar = (f"<span style='display:inline-block;height:14px;width:{width}px;background:#c0392b'></span>"
               if share else "")
        mark = "&#10004;" if share else "&#10008;"
        rows.append(f"<tr><td>{seat}</td><td>{escape(name)}</td><td style='text-align:center'>{mark}</td>"
                    f"<td>{bar} {share:.0%}</td></tr>")
    head = "".join(f"<th>{escape(word)}</th>" for word in (
        tr("seat", language), tr("adler.name", language), tr("adler.suspects", language), tr("adler.chance", language)))
    return (f"<div class='adler-knowledge' style='font-size:115%'><h4>{escape(tr('adler.candidates', language))}</h4>"
            f"<p>{len(worlds)} {escape(tr('adler.worlds', language))}</p>"
            f"<table class='adler-candidates'><tr>{head}</tr>{''.join(rows)}</table></div>")


def _matrix_html(state: GameState[Any], language: str) -> str:
    """The teacher's panel: for every seat, the seats it cannot rule out (each row from that seat's View)."""
    players = state.players
    head = "".join(f"<th>{seat}</th>" for seat in range(len(players)))
    rows = []
    for seat, name in enumerate(players):
        view = state.view(seat)
        worlds = worlds_for_view(view)
        suspects = {world.index("Adler") for world in worlds}
        cells = "".join(f"<td style='text-align:center'>{'&#10004;' if other in suspects else ''}</td>"
                        for other in range(len(players)))
        rows.append(f"<tr><th>{seat} {escape(name)}</th>{cells}<td>{len(worlds)}</td></tr>")
    public = len(worlds_for_view(state.view(None)))
    return (f"<div class='adler-knowledge' style='font-size:115%'><h4>{escape(tr('adler.candidates', language))}</h4>"
            f"<p>{escape(tr('adler.everyone', language))}</p>"
            f"<table class='adler-matrix'><tr><th></th>{head}<th>{escape(tr('adler.worlds', language))}</th></tr>"
            f"{''.join(rows)}<tr><th>{escape(tr('spectator', language))}</th>"
            f"<td colspan='{len(players)}'></td><td>{public}</td></tr></table></div>")


def knowledge_html(subject: View | GameState[Any], language: str = "en") -> str:
    """The knowledge panel: a View's candidate set, or every seat's candidate set for the whole state."""
    language = check_language(language)
    if isinstance(subject, View):
        return _candidates_html(subject, language)
    return _matrix_html(subject, language)


def play(players: int | list[str] = 4, *, seed: int | None = None, seat: int = 0,
         bots: Mapping[int, Bot] | None = None, language: str = "en") -> GameWidget:
    """A table of Get Adler where you play `seat` and bots play the others (default: `SmartBot` everywhere
    else). Pass `bots={}` for hot-seat play by people only; switch the perspective to watch as anyone."""
    state = new_game(players, seed=seed)
    if bots is None:
        bots = {other: SmartBot() for other in range(len(state.players)) if other != seat}
    return GameWidget(state, bots=bots, perspective=seat, language=language, knowledge=knowledge_html)


__all__ = ["knowledge_html", "play"]
