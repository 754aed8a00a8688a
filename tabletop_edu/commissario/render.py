"""HTML for Commissario: pure functions, built from a View (never the state) for a seat's page.

`view_html(view)` shows only `view.facts` and `view.log`, so a seat's page can never carry another seat's
secret pick: the engine never puts it there. `state_html(state)` is the teacher's omniscient table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..core import View
from .rules import COLOURS

SWATCH = {"red": "#c0392b", "orange": "#e67e22", "yellow": "#d4ac0d", "green": "#27ae60", "blue": "#2e86c1",
          "purple": "#8e44ad"}


def _card(text: str) -> str:
    colour = text.rstrip("+-0123456789")
    value = text[len(colour):]
    innocent = value.startswith("-")
    style = f"border:2px solid {SWATCH.get(colour, '#555')};padding:1px 4px;margin:1px;border-radius:4px;" + \
        ("background:#eee;" if innocent else "background:#fff;font-weight:bold;")
    return f"<span class='cm-card' style='{style}'>{escape(text)}</span>"


def _table_html(table: Mapping[str, Sequence[int]], bonus_values: Mapping[str, int]) -> str:
    cells = []
    for colour in COLOURS:
        cards = "".join(_card(f"{colour}{v:+d}") for v in table.get(colour, [])) or "<i>empty</i>"
        bonus = bonus_values.get(colour, 0)
        head = f"{escape(colour)}" + (f" (bonus {bonus})" if bonus else "")
        cells.append(f"<td style='vertical-align:top;border-top:4px solid {SWATCH[colour]}'>"
                     f"<b>{head}</b><br>{cards}</td>")
    return f"<table class='cm-layout'><tr>{''.join(cells)}</tr></table>"


def _seat_rows(view_facts: Mapping[str, Any], players: Sequence[str], me: int | None) -> str:
    rows = []
    order = view_facts.get("order") or []
    for seat, name in enumerate(players):
        status = []
        if seat == view_facts.get("handcuffs"):
            status.append("handcuffs")
        if seat in order:
            status.append(f"turn {order.index(seat) + 1}")
        releases = view_facts.get("releases", {})
        if seat in releases:
            status.append(f"released {releases[seat] or 'none'}")
        if seat in view_facts.get("picked", []):
            status.append("has chosen")
        shown = view_facts.get("revealed", {}).get(seat)
        if shown:
            status.append("revealed " + " then ".join(shown))
        arrested = "".join(_card(c) for c in view_facts.get("arrested", [[]] * len(players))[seat])
        score = view_facts.get("scores", [0] * len(players))[seat]
        mark = " (you)" if seat == me else ""
        rows.append(f"<tr><th>{escape(name)}{mark}</th><td>{escape(', '.join(status))}</td>"
                    f"<td>{score}</td><td>{arrested}</td></tr>")
    return ("<table class='cm-seats'><tr><th>seat</th><th>this round</th><th>points</th><th>arrested</th></tr>"
            + "".join(rows) + "</table>")


def view_html(view: View) -> str:
    """One seat's (or a spectator's) page: the layout, every seat's public status, its own pick, its log."""
    facts = view.facts
    who = "Spectator" if view.seat is None else f"{escape(view.players[view.seat])} (seat {view.seat})"
    head = (f"<b>Commissario</b>: {who}; round {facts.get('round')}, {escape(str(facts.get('phase')))}, "
            f"pile {facts.get('pile_size')}")
    mine = ""
    if facts.get("my_pick"):
        first, second = facts["my_pick"]
        pick = f"{first} + 2x" if first == second else f"{first} + {second}"
        mine = f"<p class='cm-my-pick'>Your secret pick: <b>{escape(pick)}</b></p>"
    end = ""
    if view.is_over:
        bonuses = ", ".join(f"{c}: {view.players[s]}" for c, s in facts.get("bonuses", {}).items() if s is not None)
        end = f"<p class='cm-end'>Game over. Bonus cards: {escape(bonuses or 'none')}.</p>"
    log = "".join(f"<li>{escape(event.text)}</li>" for event in view.log)
    return (f"<div class='tabletop-view commissario'><p>{head}</p>"
            f"{_table_html(facts.get('table', {}), facts.get('bonus_values', {}))}"
            f"{_seat_rows(facts, view.players, view.seat)}{mine}{end}"
            f"<ol class='tabletop-log'>{log}</ol></div>")


def state_html(state: Any) -> str:
    """The omniscient table for a teacher: the spectator's page plus every secret pick and the pile order."""
    picks = ", ".join(f"{state.players[s]}: {' + '.join(p)}" for s, p in sorted(state.picks.items()))
    pile = " ".join(f"{c}{v:+d}" for c, v in state.pile)
    return (f"<div class='tabletop-state commissario'>{view_html(state.view(None))}"
            f"<p><b>Secret picks</b>: {escape(picks or 'none yet')}</p>"
            f"<p><b>Pile (top first)</b>: {escape(pile or 'empty')}</p></div>")


def known_picks(view: View) -> dict[int, str]:
    """What this view's seat knows of each seat's pick this round (for a knowledge panel).

    "not chosen yet", "chosen, hidden", "red + ?" after one reveal, "red + blue" once both are shown; a seat
    knows its own pick in full. Built from the view's facts only.
    """
    facts = view.facts
    known: dict[int, str] = {}
    for seat in range(len(view.players)):
        if seat == view.seat and facts.get("my_pick"):
            first, second = facts["my_pick"]
            known[seat] = f"{first} + 2x" if first == second else f"{first} + {second}"
            continue
        shown = list(facts.get("revealed", {}).get(seat, []))
        if len(shown) == 2:
            known[seat] = f"{shown[0]} + 2x" if shown[0] == shown[1] else " + ".join(shown)
        elif shown:
            known[seat] = f"{shown[0]} + ?"
        elif seat in facts.get("picked", []):
            known[seat] = "chosen, hidden"
        else:
            known[seat] = "not chosen yet"
    return known
