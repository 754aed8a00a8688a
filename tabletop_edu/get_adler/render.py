"""HTML for Get Adler, as pure functions: `view_html` is built from a View alone, so a seat's page can hold
nothing that seat may not know (not even in hidden elements); `state_html` is the omniscient table."""

from __future__ import annotations

from html import escape
from typing import Any

from ..core import View
from .rules import TRAIT_TABLE, TRAITS

CARD_COLOURS = {"document": "#c0392b", "question": "#2e86c1", "magnify": "#17a589", "binoculars": "#7d3c98",
                "arrest": "#1c2833", "escape": "#d68910", "disguise": "#a04000", "bomb": "#566573",
                "pistol": "#7b241c", "plain": "#aab7b8"}


def _card(card: str) -> str:
    colour = CARD_COLOURS.get(card, "#888")
    return (f"<span class='adler-card' style='display:inline-block;margin:1px;padding:2px 5px;border-radius:4px;"
            f"color:white;background:{colour};font-size:90%'>{escape(card)}</span>")


def _cards(cards: list[str]) -> str:
    return "".join(_card(card) for card in cards) or "<i>none</i>"


def _seats_table(players: tuple[str, ...], facts: dict[str, Any], current: Any) -> str:
    acting = set(current) if isinstance(current, tuple) else {current}
    revealed = {int(k): v for k, v in facts.get("revealed", {}).items()}
    known = {int(k): v for k, v in (facts.get("known_cards") or {}).items()}
    rows = []
    for seat, name in enumerate(players):
        status = []
        if seat in facts["out"]:
            status.append("out")
        if facts["skips"][seat]:
            status.append(f"skips {facts['skips'][seat]}")
        if seat in facts["not_adler"]:
            status.append("not Adler")
        marker = "&#9654; " if seat in acting else ""
        rows.append(f"<tr><td>{marker}{seat}</td><td>{escape(name)}</td>"
                    f"<td>{escape(revealed.get(seat, '?'))}</td><td>{facts['hand_sizes'][seat]}</td>"
                    f"<td>{_cards(known[seat]) if seat in known else ''}</td><td>{escape(', '.join(status))}</td></tr>")
    head = "<tr><th>seat</th><th>name</th><th>character</th><th>cards</th><th>known cards</th><th></th></tr>"
    return f"<table class='adler-seats'>{head}{''.join(rows)}</table>"


def _answers(players: tuple[str, ...], answers: list[list[Any]]) -> str:
    items = "".join(f"<li>{escape(players[a])} asked {escape(players[t])}: {escape(colour)} {escape(trait)}? "
                    f"<b>{'yes' if yes else 'no'}</b></li>" for a, t, trait, colour, yes in answers)
    return f"<ol class='adler-answers'>{items}</ol>" if items else ""


def trait_table_html() -> str:
    """The players' aid sheet: every character's trait colours (public)."""
    head = "".join(f"<th>{escape(t)}</th>" for t in TRAITS)
    rows = "".join(f"<tr><td>{escape(c)}</td>{''.join(f'<td>{escape(traits[t])}</td>' for t in TRAITS)}</tr>"
                   for c, traits in TRAIT_TABLE.items())
    return f"<table class='adler-traits'><tr><th>character</th>{head}</tr>{rows}</table>"


def view_html(view: View) -> str:
    """One seat's table (or a spectator's) from its View only."""
    facts = dict(view.facts)
    who = "Spectator" if view.seat is None else f"{escape(view.players[view.seat])} (seat {view.seat})"
    parts = [f"<div class='adler-view'><h4>Get Adler — {who}</h4>"]
    if view.seat is not None:
        parts.append(f"<p>You are <b>{escape(str(facts['my_character']))}</b>. Your hand: "
                     f"{_cards(facts['hand'])}</p>")
    status = f"Hour {facts['hour']}, phase {escape(facts['phase'])}, deck {facts['deck_size']} cards."
    if facts.get("winner"):
        status += f" <b>{'Adler' if facts['winner'] == 'adler' else 'The heroes'} won.</b>"
    parts.append(f"<p>{status}</p>")
    parts.append(_seats_table(view.players, facts, view.current_player))
    parts.append(_answers(view.players, facts["answers"]))
    log = "".join(f"<li>{escape(event.text)}</li>" for event in view.log[-12:])
    parts.append(f"<ol class='adler-log'>{log}</ol></div>")
    return "".join(parts)


def state_html(state: Any) -> str:
    """The omniscient table, for a teacher: every character and every hand."""
    rows = "".join(f"<tr><td>{seat}</td><td>{escape(name)}</td><td>{escape(state.characters[seat])}</td>"
                   f"<td>{_cards(sorted(state.hands[seat]))}</td></tr>" for seat, name in enumerate(state.players))
    return (f"<div class='adler-state'><b>{escape(str(state))}</b><table><tr><th>seat</th><th>name</th>"
            f"<th>character</th><th>hand</th></tr>{rows}</table>"
            f"<p>Deck ({len(state.deck)}): next {escape(', '.join(reversed(state.deck[-3:])))}</p></div>")
