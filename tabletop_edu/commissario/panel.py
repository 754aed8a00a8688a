"""Commissario's knowledge panel: who knows what of this round's picks, for a perspective, as HTML.

Built from views only: a seat's panel says what that seat knows (its own pick in full, the others' only as far as
they are revealed); the teacher's reads each seat's own view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import GameState, View
from ..i18n import tr
from ..templates import Row, render, short_name
from .words import colour_word, pick_word


def known_picks(view: View, language: str = "en") -> dict[int, str]:
    """What this view's seat knows of each seat's pick this round (for a knowledge panel).

    "not chosen yet", "chosen, hidden", "red + ?" after one reveal, "red + blue" once both are shown; a seat
    knows its own pick in full. Built from the view's facts only.
    """
    facts = view.facts
    known: dict[int, str] = {}
    for seat in range(len(view.players)):
        if seat == view.seat and facts.get("my_pick"):
            known[seat] = pick_word(facts["my_pick"], language)
            continue
        known[seat] = _public_pick(facts, seat, language)
    return known


def _public_pick(facts: Mapping[str, Any], seat: int, language: str) -> str:
    """What everybody knows of `seat`'s pick: only what it has revealed (reveals are public)."""
    shown = list(facts.get("revealed", {}).get(seat, []))
    if len(shown) == 2:
        return pick_word(shown, language)
    if shown:
        return f"{colour_word(shown[0], language)} + ?"
    if seat in facts.get("picked", []):
        return tr("cm_hidden_pick", language)
    return tr("cm_not_chosen", language)


def knowledge_matrix(view: View, language: str = "en") -> list[list[str]]:
    """Rows: knower seat; columns: whose pick; what the knower knows, as far as this view can tell.

    From one seat's view: its own row is `known_picks`; for any other knower, the viewer can only say that
    it knows its own pick (without learning it) and what has been revealed publicly. So nothing here goes
    beyond the view.
    """
    n = len(view.players)
    matrix: list[list[str]] = []
    for knower in range(n):
        if knower == view.seat:
            mine = known_picks(view, language)
            matrix.append([mine[target] for target in range(n)])
            continue
        row = []
        for target in range(n):
            public = _public_pick(view.facts, target, language)
            shown = view.facts.get("revealed", {}).get(target, [])
            if target == knower and target in view.facts.get("picked", []) and len(shown) < 2:
                public = (tr("cm_own_hidden", language) if not shown
                          else f"{colour_word(shown[0], language)} + {tr('cm_own_rest', language)}")
            row.append(public)
        matrix.append(row)
    return matrix


def _matrix_html(title: str, players: Sequence[str], rows: Sequence[Sequence[str]], language: str) -> str:
    head = ("", *(f"{tr('cm_of_pick', language)} {short_name(name)}" for name in players))
    table = [Row(tuple(row), head=f"{short_name(players[k])} {tr('cm_knows', language)}")
             for k, row in enumerate(rows)]
    return render("commissario/knowledge.html.j2", kind="commissario-knowledge", language=language, title=title,
                  head=head, rows=table, note=tr("cm_knowledge_note", language))


def knowledge_html(subject: View | GameState[Any], language: str = "en") -> str:
    """The knowledge panel: who knows what of this round's picks, titled for the perspective.

    A View gives the matrix as that seat (or spectator) can know it; the state itself (the teacher's
    omniscient perspective) gives every seat's actual knowledge, read from each seat's own view.
    """
    if isinstance(subject, View):
        title = (tr("cm_knowledge_public", language) if subject.seat is None else
                 tr("cm_knowledge_for", language).format(name=short_name(subject.players[subject.seat])))
        return _matrix_html(title, subject.players, knowledge_matrix(subject, language), language)
    players = subject.players
    rows = []
    for knower in range(len(players)):
        known = known_picks(subject.view(knower), language)
        rows.append([known[target] for target in range(len(players))])
    return _matrix_html(tr("cm_knowledge_all", language), players, rows, language)


__all__ = ["knowledge_html", "knowledge_matrix", "known_picks"]
