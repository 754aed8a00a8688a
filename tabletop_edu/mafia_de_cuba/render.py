"""HTML for Mafia de Cuba, as pure functions: `view_html(view)` is built from the View only, so a seat's page
can never show another seat's secret; `state_html(state)` is the omniscient teacher's table."""

from __future__ import annotations

from html import escape
from typing import Any

from ..core import View
from .engine import MafiaState

STYLE = ("<style>.mdc{font-family:sans-serif;font-size:13px}.mdc table{border-collapse:collapse}"
         ".mdc td,.mdc th{border:1px solid #ccc;padding:2px 6px}.mdc .out{color:#999;text-decoration:line-through}"
         ".mdc .secret{background:#fff3cd}.mdc .box{font-weight:bold}</style>")


def _box(box: dict[str, Any] | None) -> str:
    if not box:
        return "—"
    tokens = ", ".join(box["tokens"]) or "no token"
    return f"{box['diamonds']} diamond(s); {escape(tokens)}"


def _seat_rows(view: View) -> str:
    facts = view.facts
    rows = []
    for seat, name in enumerate(view.players):
        status = []
        if seat == facts["godfather"]:
            status.append("Godfather")
        if seat == facts["box_holder"]:
            status.append("holds the box")
        if seat in facts["jokered"]:
            status.append("joker")
        if seat in facts["revealed"]:
            status.append(f"showed: {facts['revealed'][seat]}")
        if "all_takes" in facts and seat in facts["all_takes"]:
            status.append(f"took: {facts['all_takes'][seat]}")
        if seat in facts["winners"]:
            status.append("WINS")
        css = " class='out'" if seat in facts["eliminated"] else ""
        me = " (you)" if seat == view.seat else ""
        rows.append(f"<tr><td{css}>{seat}</td><td{css}>{escape(name)}{me}</td>"
                    f"<td>{escape('; '.join(status))}</td></tr>")
    return "".join(rows)


def _secrets(view: View) -> str:
    facts = view.facts
    items = []
    if facts["hidden"] is not None and view.seat == facts["godfather"]:
        items.append(f"You hid {facts['hidden']} diamond(s).")
    if facts["box_seen"] is not None:
        items.append(f"When you opened the box: {_box(facts['box_seen'])}.")
    if facts["my_set_aside"] is not None:
        items.append(f"You set aside: {escape(facts['my_set_aside'])}.")
    if facts["my_take"] is not None:
        items.append(f"You took: {escape(facts['my_take'])}.")
    if facts["box_returned"] is not None and view.seat == facts["godfather"]:
        items.append(f"The box came back with {_box(facts['box_returned'])}.")
    if not items:
        return ""
    return "<div class='secret'><b>Only you know</b><ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul></div>"


def view_html(view: View) -> str:
    """The table as `view.seat` sees it (None: a spectator), escaped, from the view alone."""
    facts = view.facts
    who = "Spectator" if view.seat is None else f"Seat {view.seat}: {escape(view.players[view.seat])}"
    tokens = ", ".join(f"{count} {name}" for name, count in facts["tokens_in_game"].items())
    status = (f"phase <b>{escape(facts['phase'])}</b> · jokers left {facts['jokers_left']} · questions left "
              f"{facts['questions_left']} · diamonds recovered {facts['recovered']} · tokens in game: "
              f"{escape(tokens)}")
    if facts["pending"]:
        seat, kind = facts["pending"]
        status += f" · waiting for {escape(view.players[seat])} to answer '{escape(kind)}'"
    end = ""
    if view.is_over:
        end = (f"<p class='box'>Game over. Hidden: {facts['hidden']}; set aside: {escape(str(facts.get('set_aside')))};"
               f" box returned: {_box(facts['box_returned'])}.</p>")
    log = "".join(f"<li>[{event.step}] {escape(event.text)}</li>" for event in view.log)
    return (f"{STYLE}<div class='mdc tabletop-view'><h4>Mafia de Cuba — {who}</h4><p>{status}</p>"
            f"{_secrets(view)}<table><tr><th>seat</th><th>player</th><th>known</th></tr>{_seat_rows(view)}"
            f"</table>{end}<ol class='tabletop-log'>{log}</ol></div>")


def state_html(state: MafiaState) -> str:
    """The omniscient table: every take, the hidden diamonds and the box, for a teacher."""
    rows = "".join(
        f"<tr><td>{seat}</td><td>{escape(state.players[seat])}</td><td>{escape(_take(state, seat))}</td></tr>"
        for seat in range(len(state.players)))
    box = {"diamonds": state.box_diamonds,
           "tokens": [name for name, count in state.box_tokens.items() for _ in range(count)]}
    return (f"{STYLE}<div class='mdc tabletop-state'><h4>{escape(str(state))}</h4>"
            f"<p>Hidden by the Godfather: {state.hidden}; set aside: {escape(str(state.set_aside))}; "
            f"box now: {_box(box)}; stolen {state.stolen}, recovered {state.recovered}.</p>"
            f"<table><tr><th>seat</th><th>player</th><th>take</th></tr>{rows}</table>"
            f"{view_html(state.view(None))}</div>")


def _take(state: MafiaState, seat: int) -> str:
    if seat == state.godfather:
        return "Godfather"
    if seat not in state.takes:
        return "—"
    from .engine import role_of, take_text
    take = state.takes[seat]
    return f"{take_text(take)} ({role_of(take)})"
