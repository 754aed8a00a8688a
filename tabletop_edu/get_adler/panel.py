"""Get Adler's knowledge panel: "who can be Adler?" for a perspective, as HTML.

The panel is computed from what the perspective may know and nothing else: for a seat, from its View (the
public answers and arrests, plus its own character); for the spectator, from the public View; for the teacher
(omniscient), every seat's candidate set, each computed from that seat's own View. So the panel of seat k
holds no more than seat k's page already does. Its chances are under counting (`beliefs.COUNTING`: every world
the perspective cannot rule out counts alike), and the panel says so in words.
"""

from __future__ import annotations

from typing import Any

from ..core import GameState, View
from ..i18n import check_language, tr
from ..templates import Bar, Cell, Name, Row, render, short_name
from .beliefs import COUNTING
from .identities import adler_distribution, worlds_for_view
from . import words as _words  # noqa: F401 - importing it registers the adler.* words this panel uses


def _worlds(count: int, language: str) -> str:
    """'1 possible world', '24 possible worlds' ('1 monde possible', '24 mondes possibles')."""
    return f"{count} {tr('adler.world' if count == 1 else 'adler.worlds', language)}"


def _candidates_context(view: View, language: str) -> dict[str, Any]:
    """One perspective's candidate set: each seat that may still be Adler, with its share of the worlds."""
    worlds = worlds_for_view(view)
    distribution = adler_distribution(worlds) if worlds else {}
    rows = []
    for seat, name in enumerate(view.players):
        share = distribution.get(seat, 0.0)
        rows.append(Row((Cell("\u2714" if share else "\u2718", "yes" if share else ""),
                         Bar((("adler", share), ("other", 1.0 - share))), f"{share:.0%}"), head=name))
    title = (tr("adler.candidates_public", language) if view.seat is None else
             tr("adler.candidates_for", language).format(name=short_name(view.players[view.seat])))
    return {"title": title, "note": f"{_worlds(len(worlds), language)}; {COUNTING.under(language)}",
            "head": (tr("adler.name", language), tr("adler.suspect", language), "", tr("adler.chance", language)),
            "rows": rows}


def _matrix_context(state: GameState[Any], language: str) -> dict[str, Any]:
    """The teacher's panel: for every seat, the seats it cannot rule out (each row from that seat's View)."""
    players = state.players
    rows = []
    for seat, name in enumerate(players):
        worlds = worlds_for_view(state.view(seat))
        suspects = {world.index("Adler") for world in worlds}
        rows.append(Row((*(Cell("\u2714", "yes") if other in suspects else "" for other in range(len(players))),
                         _worlds(len(worlds), language)), head=name))
    public = worlds_for_view(state.view(None))
    suspects = {world.index("Adler") for world in public}
    rows.append(Row((*(Cell("\u2714", "yes") if other in suspects else "" for other in range(len(players))),
                     _worlds(len(public), language)), head=tr("spectator", language)))
    return {"title": tr("adler.candidates_all", language), "note": tr("adler.everyone", language),
            "head": ("", *(Name(name) for name in players), ""), "rows": rows}


def knowledge_html(subject: View | GameState[Any], language: str = "en") -> str:
    """The knowledge panel: a View's candidate set, or every seat's candidate set for the whole state."""
    language = check_language(language)
    context = _candidates_context(subject, language) if isinstance(subject, View) else \
        _matrix_context(subject, language)
    return render("get_adler/knowledge.html.j2", kind="adler-knowledge", language=language, **context)


__all__ = ["knowledge_html"]
