"""The HTML pieces of a table, as pure functions of a state, a perspective and a language.

Every piece a seat's screen shows goes through the seat's view or its log (`log_for`), so the page of seat k
holds exactly what seat k may know; only the omniscient (teacher) perspective reads the whole state. Texts
that come from people (player names) or from games are escaped here or by the game's templates.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from ..core import Event, GameState, Seat, log_for
from ..i18n import tr
from ..rendering import game_renderer, render_state_html, render_view_html

OMNISCIENT = "omniscient"
Perspective = Seat | None | str  # a seat, None for a spectator, or OMNISCIENT


def seat_name(players: Sequence[str], seat: Seat, language: str = "en") -> str:
    """A seat as people call it: its player's name, or "Seat 2" / "Place 2" for unnamed seats."""
    name = players[seat]
    return f"{tr('seat', language)} {seat}" if name == f"Seat {seat}" else name


def perspective_label(players: Sequence[str], perspective: Perspective, language: str = "en") -> str:
    if perspective == OMNISCIENT:
        return tr("omniscient", language)
    if perspective is None:
        return tr("spectator", language)
    return seat_name(players, perspective, language)  # type: ignore[arg-type]


def titled(key: str, players: Sequence[str], perspective: Perspective, language: str = "en") -> str:
    """A panel's title for the perspective: `key` is "knowledge" or "log" ("What Ana knows")."""
    if perspective == OMNISCIENT:
        return tr(f"{key}_of_omniscient", language)
    if perspective is None:
        return tr(f"{key}_of_spectator", language)
    name = seat_name(players, perspective, language)  # type: ignore[arg-type]
    return tr(f"{key}_of_seat", language).format(name=name)


def perspective_html(state: GameState, perspective: Perspective, language: str = "en", log: bool = True) -> str:
    """The table as `perspective` sees it: a seat's or spectator's view, or the whole state for the teacher.
    The widget asks for it without the log, which has a panel of its own."""
    if perspective == OMNISCIENT:
        return render_state_html(state, language, log)
    return render_view_html(state.view(perspective), language, log)  # type: ignore[arg-type]


def perspective_events(state: GameState, perspective: Perspective) -> Sequence[Event]:
    """The events as `perspective` observed them (the omniscient perspective sees every event in full)."""
    return state.events if perspective == OMNISCIENT else log_for(state.events, perspective)  # type: ignore[arg-type]


def _texts(state: GameState, events: Sequence[Event], language: str) -> list[str]:
    """Each event worded by the game's `render.event_text(event, players, language)`, else its own text."""
    event_text: Any = game_renderer(state.game, "event_text")
    if event_text is None:
        return [event.text for event in events]
    return [str(event_text(event, state.players, language)) for event in events]


def log_html(state: GameState, perspective: Perspective, language: str = "en") -> str:
    """The log as `perspective` observed it, oldest first, each line numbered with its step."""
    events = perspective_events(state, perspective)
    items = "".join(f"<li value='{event.step}'>{html.escape(text)}</li>"
                    for event, text in zip(events, _texts(state, events, language)))
    return f"<div class='tabletop-log-scroll'><ol class='tabletop-log'>{items}</ol></div>"


def step_events_html(state: GameState, perspective: Perspective, step: int, language: str = "en") -> str:
    """What happened at `step` (0: the deal), as `perspective` saw it, one event a line, for the timeline."""
    texts = _texts(state, [event for event in perspective_events(state, perspective) if event.step == step],
                   language)
    if not texts:
        return f"<span class='tabletop-hint'>{html.escape(tr('nothing_seen', language))}</span>"
    if step == 0:
        texts = [tr("setup", language).format(events=" ".join(texts))]
    return "".join(f"<div>{html.escape(text)}</div>" for text in texts)


def step_heading(step: int, last: int, language: str = "en") -> str:
    """ "Step 3 of 17", or "Step 17 (live)" for the game as it is now."""
    key = "step_live" if step >= last else "step_of"
    return tr(key, language).format(step=step, last=last)


def status_text(state: GameState, language: str = "en") -> str:
    """Whose turn it is, or who won."""
    if state.is_over:
        names = ", ".join(seat_name(state.players, seat, language) for seat in state.winners)
        if not names:
            return tr("no_winner", language)
        return tr("winner_is" if len(state.winners) == 1 else "winners_are", language).format(names=names)
    waiting = ", ".join(seat_name(state.players, seat, language) for seat in state.acting_seats)
    return tr("to_play", language).format(names=waiting)


def end_html(state: GameState, language: str = "en") -> str:
    """The end of a finished game: the game's own reveal (`render.reveal_html(state, language)`: every seat's
    secret, who lied, the scores), or, where a game has none, who won. Empty while the game goes on."""
    if not state.is_over:
        return ""
    reveal: Any = game_renderer(state.game, "reveal_html")
    if reveal is not None:
        return f"<div class='tabletop-end'>{reveal(state, language)}</div>"
    won = set(state.winners)
    rows = "".join(f"<tr><th>{html.escape(seat_name(state.players, seat, language))}</th>"
                   f"<td>{'★ ' if seat in won else ''}{html.escape(tr('won' if seat in won else 'lost', language))}"
                   f"</td></tr>" for seat in range(len(state.players)))
    return (f"<div class='tabletop-end'><h3>{html.escape(tr('result', language))}</h3>"
            f"<table class='tabletop-results'>{rows}</table></div>")
