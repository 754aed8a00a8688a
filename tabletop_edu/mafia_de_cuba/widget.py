"""Play Mafia de Cuba in a notebook: `play(7, seed=1)` seats you as the Godfather against the colleague bots.

The widget is the shared `GameWidget` (perspective picker, timeline, log, information flow) with a Mafia de
Cuba knowledge panel: what the perspective can infer about every take (an exact posterior from
`inference.observation_from_view`, drawn as an HTML bar table) and the who-knows-what matrix. Every piece is
computed from the perspective's View, so a seat's page holds nothing that seat could not know; only the
omniscient (teacher) perspective receives the state, and even there the posterior shown is the Godfather's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from ..core import Bot, GameState, Seat, View
from ..i18n import tr
from ..widgets import GameWidget
from .bots import default_bots
from .engine import MafiaState, new_game
from .inference import Posterior, observation_from_view, posterior, who_knows_what, with_testimonies
from .render import take_word
from .rules import Rules

BAR_COLOURS = {"thief": "#c92a2a", "agent": "#1c7ed6", "other": "#adb5bd"}


def perspective_posterior(view: View, rules: Rules, truth: float | None = None) -> Posterior | None:
    """The exact posterior of every take given `view` alone (testimonies weighed with `truth` if given).

    None before any box step was played, or if no world fits (possible only with believed lies)."""
    observation = observation_from_view(view, rules)
    if not observation.steps:
        return None
    if truth is not None:
        observation = with_testimonies(observation, view, truth)
    try:
        return posterior(observation)
    except ValueError:
        return None


def posterior_bars_html(view: View, rules: Rules, language: str = "en", truth: float | None = None) -> str:
    """An HTML bar table: for each taker, P(thief), P(agent) and P(anything else) as the viewer computes them."""
    post = perspective_posterior(view, rules, truth)
    who = tr("mdc_spectator", language) if view.seat is None else escape(view.players[view.seat])
    title = f"<b>{tr('mdc_posterior', language)}</b> — {who} ({tr('mdc_posterior_from', language)})"
    if post is None:
        return f"<div class='mdc-posterior'>{title}<p>—</p></div>"
    rows = []
    for kind, seat in post.observation.steps:
        if kind != "take":
            continue
        roles = post.role_probabilities(seat)
        thief = roles.get("thief", 0.0)
        agent = roles.get("fbi", 0.0) + roles.get("cia", 0.0)
        parts = {"thief": thief, "agent": agent, "other": max(0.0, 1.0 - thief - agent)}
        bar = "".join(f"<span style='display:inline-block;height:14px;width:{round(200 * p)}px;"
                      f"background:{BAR_COLOURS[name]}'></span>" for name, p in parts.items())
        rows.append(f"<tr><td>{seat}. {escape(view.players[seat])}</td><td>{bar}</td>"
                    f"<td>{thief:.2f}</td><td>{agent:.2f}</td><td>{parts['other']:.2f}</td></tr>")
    header = (f"<tr><th>{tr('mdc_seat', language)}</th><th></th><th>{tr('mdc_p_thief', language)}</th>"
              f"<th>{tr('mdc_p_agent', language)}</th><th>{tr('mdc_p_other', language)}</th></tr>")
    return f"<div class='mdc-posterior'>{title}<table>{header}{''.join(rows)}</table></div>"


def own_row_html(view: View, rules: Rules, language: str = "en") -> str:
    """The viewer's row of the who-knows-what matrix: the takes each other seat may still have made."""
    post = perspective_posterior(view, rules)
    if post is None:
        return ""
    rows = []
    for kind, seat in post.observation.steps:
        if kind != "take" or seat == view.seat:
            continue
        support = [text for text, p in sorted(post.of_seat(seat).items(), key=lambda kv: _take_order(kv[0])) if p > 0]
        words = ", ".join(take_word(text, language) for text in support)
        rows.append(f"<tr><td>{seat}. {escape(view.players[seat])}</td><td>{escape(words)}</td></tr>")
    return f"<div class='mdc-row'><b>{tr('mdc_your_row', language)}</b><table>{''.join(rows)}</table></div>"


def _take_order(text: str) -> tuple[int, int, str]:
    """Diamonds first by number, then tokens, then nothing: a stable order for printing supports."""
    if text.isdigit():
        return 0, int(text), ""
    return (2, 0, text) if text == "nothing" else (1, 0, text)


def matrix_html(state: MafiaState, language: str = "en") -> str:
    """The full who-knows-what matrix (every seat's row): needs every view, so it is for the teacher only."""
    matrix = who_knows_what(state)
    players = state.players
    header = "".join(f"<th>{seat}</th>" for seat in range(len(players)))
    colours = {"known": "#b2f2bb", "self": "#d3f9d8", "narrowed": "#ffec99", "unknown": "#ffffff", "-": "#e9ecef"}
    rows = []
    for observer, row in enumerate(matrix):
        cells = "".join(f"<td style='background:{colours[cell['status']]}' title='{escape(', '.join(cell['support']))}'>"
                        f"{escape(tr('mdc_status_' + cell['status'], language))}</td>" for cell in row)
        rows.append(f"<tr><th>{observer}. {escape(players[observer])}</th>{cells}</tr>")
    return (f"<div class='mdc-matrix'><b>{tr('mdc_matrix', language)}</b><table>"
            f"<tr><th>{tr('mdc_observer', language)}</th>{header}</tr>{''.join(rows)}</table></div>")


def knowledge_html(subject: View | GameState, language: str = "en", rules: Rules | None = None) -> str:
    """The knowledge panel: the perspective's posterior bars and what it can deduce (the matrix for the teacher).

    A View gets only what that View implies; the State (omniscient perspective) gets the Godfather's posterior
    and the whole matrix."""
    if isinstance(subject, MafiaState):
        godfather_view = subject.view(subject.godfather)
        return (posterior_bars_html(godfather_view, subject.rules, language)
                + (matrix_html(subject, language) if subject.phase not in ("hide", "set-aside", "take") else ""))
    assert isinstance(subject, View)
    rules = rules or Rules(godfather_seat=subject.facts["godfather"])
    return posterior_bars_html(subject, rules, language) + own_row_html(subject, rules, language)


def play(players: int | list[str] = 7, *, seed: int | None = None, seat: Seat = 0,
         bots: Mapping[Seat, Bot] | Sequence[Bot] | None = None, language: str = "en",
         rules: Rules | None = None) -> GameWidget:
    """A table where you sit at `seat` (0 is the Godfather by default) and bots play every other seat.

    `bots` is a seat -> bot mapping or one bot per seat (the entry for `seat` is ignored); by default the
    colleague's `default_bots`, seeded with `seed`, so a seeded table plays the same game every time."""
    state = new_game(players, seed=seed, rules=rules)
    count = len(state.players)
    if bots is None:
        bots = default_bots(count, state.rules, seed=state.seed)
    table = dict(bots) if isinstance(bots, Mapping) else dict(enumerate(bots))
    table.pop(seat, None)

    def knowledge(subject: View | GameState, language: str) -> str:
        return knowledge_html(subject, language, state.rules)

    return GameWidget(state, bots=table, perspective=seat, language=language, knowledge=knowledge)


__all__ = ["knowledge_html", "matrix_html", "own_row_html", "perspective_posterior", "play",
           "posterior_bars_html"]
