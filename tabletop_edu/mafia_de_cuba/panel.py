"""Mafia de Cuba's knowledge panel: what a perspective can infer about every take, as HTML.

A posterior from `inference.observation_from_view` under counting (`beliefs.COUNTING`), testimonies weighed
as evidence believed with probability `trust` (`beliefs.TESTIMONIES` at the default trust), its model named in
words, drawn as bars, and what the perspective can still rule in about each take. Every piece is
computed from the perspective's View, so a seat's page holds nothing that seat could not know; only the
omniscient (teacher) perspective receives the state, and there the panel shows the Godfather's inference and the
whole who-knows-what matrix.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

from ..core import GameState, View
from ..i18n import check_language, tr
from ..templates import Bar, Name, Row, Tag, render, short_name
from .engine import MafiaState
from .beliefs import COUNTING, TESTIMONIES, TESTIMONY_TRUST
from .inference import Observation, Posterior, observation_from_view, posterior, who_knows_what, with_testimonies
from .words import diamonds_text, take_word
from .rules import Rules

#: How far a testimony is believed by default: true with this probability (a lie otherwise).
DEFAULT_TRUST = TESTIMONY_TRUST


#: Posteriors already computed, by observation: a redraw (another perspective, the other language, a step of
#: the timeline seen before) costs nothing. A posterior is a function of the observation alone, so sharing
#: them between perspectives shares nothing a seat could not compute itself.
_POSTERIORS: OrderedDict[Hashable, Posterior | None] = OrderedDict()
_CACHE_SIZE = 256


def _observation_key(observation: Observation) -> Hashable:
    return (observation.steps, observation.start, observation.max_hidden, observation.last_may_take_nothing,
            observation.last_taker, tuple(sorted(observation.pinned_choices.items(), key=repr)),
            tuple(sorted(observation.pinned_boxes.items(), key=repr)), observation.soft_choices,
            observation.soft_boxes)


def _posterior_of(observation: Observation) -> Posterior | None:
    """`posterior(observation)`, remembered; None if no world fits the observation."""
    key = _observation_key(observation)
    if key in _POSTERIORS:
        _POSTERIORS.move_to_end(key)
        return _POSTERIORS[key]
    try:
        found: Posterior | None = posterior(observation)
    except ValueError:
        found = None
    _POSTERIORS[key] = found
    if len(_POSTERIORS) > _CACHE_SIZE:
        _POSTERIORS.popitem(last=False)
    return found


def perspective_posterior(view: View, rules: Rules, truth: float | None = None) -> Posterior | None:
    """The posterior of every take given `view` alone under counting (testimonies weighed with `truth` if given).

    None before any box step was played, or if no world fits (possible only with believed lies)."""
    observation = observation_from_view(view, rules)
    if not observation.steps:
        return None
    if truth is not None:
        observation = with_testimonies(observation, view, truth)
    return _posterior_of(observation)


def _weighed_posterior(view: View, rules: Rules, trust: float | None) -> tuple[Posterior | None, str]:
    """The posterior the panel shows, computed once, and the note saying how testimonies were weighed."""
    says = any(event.kind == "testimony" for event in view.log)
    if trust is not None and says:
        weighed = perspective_posterior(view, rules, trust)
        if weighed is not None:
            return weighed, "trust"
        return perspective_posterior(view, rules), "impossible"
    return perspective_posterior(view, rules), "none" if trust is None and says else ""


def _panel_title(view: View, language: str, teacher: bool) -> str:
    if teacher:
        return tr("mdc_knowledge_teacher", language)
    if view.seat is None:
        return tr("mdc_knowledge_public", language)
    return tr("mdc_knowledge_of", language).format(name=short_name(view.players[view.seat]))


def _bars(post: Posterior, view: View) -> list[Row]:
    rows = []
    for kind, seat in post.observation.steps:
        if kind != "take":
            continue
        roles = post.role_probabilities(seat)
        thief = roles.get("thief", 0.0)
        agent = roles.get("fbi", 0.0) + roles.get("cia", 0.0)
        other = max(0.0, 1.0 - thief - agent)
        rows.append(Row((Bar((("thief", thief), ("agent", agent), ("other", other))),
                         f"{thief:.2f}", f"{agent:.2f}", f"{other:.2f}"), head=view.players[seat]))
    return rows


def _supports(post: Posterior, view: View, language: str) -> list[Row]:
    """For each other taker, every take the viewer cannot rule out."""
    rows = []
    for kind, seat in post.observation.steps:
        if kind != "take" or seat == view.seat:
            continue
        support = [text for text, p in sorted(post.of_seat(seat).items(), key=lambda kv: _take_order(kv[0])) if p > 0]
        rows.append(Row((_support_text(support, language),), head=view.players[seat]))
    return rows


def _support_text(takes: Sequence[str], language: str) -> str:
    """The takes a seat may have made, diamonds as a range: '1 to 8 diamonds, a Driver token, nothing'."""
    counts = [int(take) for take in takes if take.isdigit()]
    words = [take_word(take, language) for take in takes if not take.isdigit()]
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        joined = "to" if language == "en" else "à"
        words.insert(0, f"{counts[0]} {joined} {diamonds_text(counts[-1], language)}")
    else:
        words[:0] = [diamonds_text(count, language) for count in counts]
    return ", ".join(words)


def _take_order(text: str) -> tuple[int, int, str]:
    """Diamonds first by number, then tokens, then nothing: a stable order for printing supports."""
    if text.isdigit():
        return 0, int(text), ""
    return (2, 0, text) if text == "nothing" else (1, 0, text)


def _posterior_context(view: View, rules: Rules, language: str, trust: float | None,
                       teacher: bool = False) -> dict[str, Any]:
    post, weighing = _weighed_posterior(view, rules, trust)
    model = TESTIMONIES if weighing == "trust" and trust == TESTIMONY_TRUST else COUNTING
    notes = [model.under(language), tr("mdc_posterior_note", language)]
    extra_class = "mdc-posterior"  # the hook other pages (the class dashboard) look for
    if weighing == "trust" and model is COUNTING:
        percent = f"{trust:.0%}"
        notes.append(tr("mdc_trust_note", language).format(trust=percent.replace("%", "\u00a0%") if language == "fr"
                                                           else percent))
    elif weighing == "impossible":
        notes.append(tr("mdc_trust_impossible", language))
    elif weighing == "none":
        notes.append(tr("mdc_no_trust_note", language))
    viewer = view.players[view.seat] if view.seat is not None else None
    return {
        "extra_class": extra_class, "title": _panel_title(view, language, teacher), "notes": notes,
        "empty": tr("mdc_no_posterior", language) if post is None else "",
        "head": (tr("mdc_player", language), "", tr("mdc_p_thief", language), tr("mdc_p_agent", language),
                 tr("mdc_p_other", language)),
        "bars": [] if post is None else _bars(post, view),
        "legend": [("thief", tr("mdc_thief", language)), ("agent", tr("mdc_agent", language)),
                   ("other", tr("mdc_other", language))],
        "support_title": tr("mdc_your_row", language).format(name=short_name(viewer)) if viewer else "",
        "support_head": (tr("mdc_player", language), tr("mdc_could_have", language)),
        "supports": [] if post is None or viewer is None else _supports(post, view, language),
    }


def posterior_bars_html(view: View, rules: Rules, language: str = "en", truth: float | None = None) -> str:
    """The perspective's inference as bars: for each taker, P(thief), P(agent) and P(anything else)."""
    context = _posterior_context(view, rules, check_language(language), truth)
    context["supports"] = []
    return render("mafia_de_cuba/knowledge.html.j2", kind="mafia-knowledge", language=language, matrix=None,
                  **context)


def own_row_html(view: View, rules: Rules, language: str = "en") -> str:
    """The viewer's row of the who-knows-what matrix: the takes each other seat may still have made."""
    context = _posterior_context(view, rules, check_language(language), None)
    context["bars"], context["empty"], context["notes"] = [], "", []
    return render("mafia_de_cuba/knowledge.html.j2", kind="mafia-knowledge", language=language, matrix=None,
                  **context)


_MATRICES: OrderedDict[Hashable, list[list[dict[str, Any]]]] = OrderedDict()


def _who_knows_what(state: MafiaState) -> list[list[dict[str, Any]]]:
    """`inference.who_knows_what(state)`, remembered by what every seat and the spectator observe."""
    key = tuple(_observation_key(observation_from_view(state.view(seat), state.rules))
                for seat in [None, *range(len(state.players))])
    if key not in _MATRICES:
        _MATRICES[key] = who_knows_what(state)
        if len(_MATRICES) > _CACHE_SIZE // 8:
            _MATRICES.popitem(last=False)
    return _MATRICES[key]


def _matrix_context(state: MafiaState, language: str) -> dict[str, Any]:
    """The full who-knows-what matrix (every seat's row): needs every view, so it is for the teacher only."""
    matrix = _who_knows_what(state)
    players = state.players
    rows = []
    for observer, row in enumerate(matrix):
        cells = tuple(Tag(tr("mdc_status_" + cell["status"], language), _STATUS_LOOK.get(cell["status"], "info"))
                      for cell in row)
        rows.append(Row(cells, head=players[observer]))
    return {"title": tr("mdc_matrix", language), "head": (tr("mdc_observer", language),
                                                           *(Name(name) for name in players)), "rows": rows}


_STATUS_LOOK = {"known": "good", "self": "good", "narrowed": "warn", "unknown": "info", "-": "info"}


def matrix_html(state: MafiaState, language: str = "en") -> str:
    """The who-knows-what matrix on its own (teacher only: it is built from every seat's view)."""
    return render("mafia_de_cuba/knowledge.html.j2", kind="mafia-knowledge", language=check_language(language),
                  title="", notes=[], empty="", bars=[], supports=[], head=(), legend=[], support_title="",
                  support_head=(), matrix=_matrix_context(state, language))


def knowledge_html(subject: View | GameState[Any], language: str = "en", rules: Rules | None = None,
                   trust: float | None = DEFAULT_TRUST) -> str:
    """The knowledge panel: what the perspective can infer of every take (testimonies believed with probability
    `trust`; None ignores them) and what it can still rule in.

    A View gets only what that View implies; the State (omniscient perspective) gets the Godfather's inference
    and, once the box is back, the whole who-knows-what matrix."""
    language = check_language(language)
    if isinstance(subject, GameState):
        godfather = subject.view(subject.godfather)  # type: ignore[attr-defined]
        context = _posterior_context(godfather, subject.rules, language, trust, teacher=True)
        context["supports"] = []
        box_back = godfather.facts["phase"] not in ("hide", "set-aside", "take")
        return render("mafia_de_cuba/knowledge.html.j2", kind="mafia-knowledge", language=language,
                      matrix=_matrix_context(subject, language) if box_back else None,  # type: ignore[arg-type]
                      **context)
    rules = rules or subject.rules or Rules(godfather_seat=subject.facts["godfather"])
    return render("mafia_de_cuba/knowledge.html.j2", kind="mafia-knowledge", language=language, matrix=None,
                  **_posterior_context(subject, rules, language, trust))


__all__ = ["DEFAULT_TRUST", "knowledge_html", "matrix_html", "own_row_html", "perspective_posterior",
           "posterior_bars_html"]
