"""HTML for Peek, the template game, in English and French: the smallest table built from the shared templates.

Peek is one module (`examples/peek.py`), so its renderer sits beside it as `peek_render`, the module its plugin names
as its renderer (`GamePlugin.render`, found by `rendering.game_renderer`). Everything follows the big games:
`view_html` from a View alone, `state_html` for the teacher, `reveal_html` at the end, `event_text` for the
log in both languages, `move_label` for the buttons.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import Event, GameState, View
from ..i18n import register, tr
from ..templates import (Banner, Card, Row, Tag, acting_seats, colon, display_names, elide, join_names, log_lines,
                         page, render, seat_box, short_name)

register({
    "en": {"peek.title": "Peek", "peek.round": "Round", "peek.round_of": "{round} of {rounds}",
           "peek.cards": "Cards", "peek.cards_range": "1 to {highest}", "peek.your_card": "Your card: {card}.",
           "peek.not": "not {values}", "peek.point": "1 point", "peek.points": "{points} points",
           "peek.do": "{name}: peek at a card, guess one aloud, or pass", "peek.your_turn": "Your turn \u2014 {what}",
           "peek.all_cards": "Teacher only: every card", "peek.card_of": "Card", "peek.score": "Points",
           "peek.guesses": "Every guess", "peek.right": "right", "peek.wrong": "wrong", "peek.no_guess":
           "Nobody guessed.", "peek.guess_of": "{name} guesses {target} holds the {value}",
           "peek.m_peek": "Peek at a card", "peek.m_guess": "Guess a card aloud", "peek.m_pass": "Pass",
           "peek.m_value": "the {value}", "peek.wins": "wins", "peek.face_down": "face down"},
    "fr": {"peek.title": "Peek", "peek.round": "Tour", "peek.round_of": "{round} sur {rounds}",
           "peek.cards": "Cartes", "peek.cards_range": "de 1 à {highest}", "peek.your_card": "Votre carte : {card}.",
           "peek.not": "pas {values}", "peek.point": "1 point", "peek.points": "{points} points",
           "peek.do": "{name} : regarder une carte, en deviner une à voix haute, ou passer",
           "peek.your_turn": "À vous \u2014 {what}",
           "peek.all_cards": "Pour l'enseignant seulement : toutes les cartes",
           "peek.card_of": "Carte", "peek.score": "Points", "peek.guesses": "Toutes les devinettes",
           "peek.right": "juste", "peek.wrong": "faux", "peek.no_guess": "Personne n'a deviné.",
           "peek.guess_of": "{name} devine {que_target} a le {value}",
           "peek.m_peek": "Regarder une carte", "peek.m_guess": "Deviner une carte à voix haute",
           "peek.m_pass": "Passer", "peek.m_value": "le {value}", "peek.wins": "gagne",
           "peek.face_down": "face cachée"},
})


def _points(points: int, language: str) -> str:
    """'1 point', '3 points'; French keeps 0 singular ('0 point')."""
    singular = points == 1 or (language == "fr" and points == 0)
    return tr("peek.point", language).replace("1", str(points)) if singular else \
        tr("peek.points", language).format(points=points)


def event_text(event: Event, players: Sequence[str], language: str = "en") -> str:
    """One log line in `language` from the event as the seat saw it; unknown events keep their English text."""
    try:
        return _event_text(event, players, language)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return event.text


def _event_text(event: Event, players: Sequence[str], language: str) -> str:
    data, kind, en = event.data, event.kind, language == "en"
    name = players[event.actor] if event.actor is not None else ""
    if kind == "deal":
        if "card" not in data:  # the others' view of a deal names nobody in its data
            return event.text if en else "Une carte est distribuée, face cachée."
        who = players[data["seat"]]
        return f"{who} is dealt the {data['card']}." if en else f"{who} reçoit le {data['card']}."
    if kind == "peek":
        target = players[data["target"]]
        if "card" in data:
            return (f"{name} peeks: {target} holds the {data['card']}." if en
                    else f"{name} regarde : {target} a le {data['card']}.")
        return f"{name} peeks at {target}'s card." if en else f"{name} regarde la carte {elide('de', target)}."
    if kind == "guess":
        target, value = players[data["target"]], data["value"]
        if en:
            return f"{name} guesses {target} holds the {value}: " + ("right!" if data["right"] else "wrong.")
        return f"{name} devine {elide('que', target)} a le {value} : " + ("juste !" if data["right"] else "faux.")
    if kind == "pass":
        return f"{name} passes." if en else f"{name} passe."
    return event.text


def _context(view: View, language: str, log: bool, *, teacher: bool = False,
             cards: dict[int, int] | None = None) -> dict[str, Any]:
    facts = view.facts
    names = display_names(view.players)
    context_page = page("peek", tr("peek.title", language), view.seat, view.players, language, teacher=teacher)
    acting = acting_seats(view.current_player)
    if view.is_over:
        winners = _winners(facts["scores"])
        context_page.banner = Banner(f"{tr('tt.game_over', language)}. {tr('tt.winners', language)}"
                                     f"{colon(language)}{join_names((names[s] for s in winners), language)}.",
                                     "over")
    else:
        what = tr("peek.do", language).format(name=join_names((names[s] for s in acting), language))
        mine = view.seat is not None and view.seat in acting
        context_page.banner = Banner(tr("peek.your_turn", language).format(what=what) if mine else what,
                                     "mine" if mine else "turn")
    rules = view.rules
    context_page.facts = [(tr("peek.round", language), tr("peek.round_of", language).format(
                               round=facts["round"], rounds=getattr(rules, "rounds", "?"))),
                          (tr("peek.cards", language), tr("peek.cards_range", language).format(
                               highest=getattr(rules, "highest_card", "?")))]
    if log:
        context_page.log = log_lines(view.log, view.players, language, event_text)
    known = {int(seat): card for seat, card in facts["known_cards"].items()}
    known.update(cards or {})
    seats = []
    for seat in range(len(view.players)):
        ruled_out = facts["not_cards"].get(seat, [])
        tags: tuple[Tag, ...] = (Tag(tr("peek.not", language).format(values=", ".join(map(str, ruled_out))), "warn"),) \
            if ruled_out and seat not in known else ()
        if view.is_over and seat in _winners(facts["scores"]):
            tags += (Tag(tr("peek.wins", language), "good"),)
        card = Card(str(known[seat]), "plain tt-card--big") if seat in known else \
            Card("?", "hidden tt-card--big", tr("peek.face_down", language))  # a screen reader says what "?" is
        seats.append(seat_box(view.players, seat, view.seat, acting, tags=tags, cards=(card,),
                              lines=(_points(facts["scores"][seat], language),)))
    own = [tr("peek.your_card", language).format(card=facts["my_card"])] if view.seat is not None else []
    return {"page": context_page, "you": tr("tt.you", language), "t": lambda key: tr(key, language),
            "seats": seats, "own": own, "teacher": None}


def _winners(scores: Sequence[int]) -> list[int]:
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def view_html(view: View, language: str = "en", log: bool = True) -> str:
    """The table as `view.seat` sees it (None: a spectator), from the view alone."""
    return render("peek/table.html.j2", **_context(view, language, log))


def state_html(state: GameState[Any], language: str = "en", log: bool = True) -> str:
    """The teacher's table: every card (each read from its seat's view) and the whole log."""
    cards = {seat: state.view(seat).facts["my_card"] for seat in range(len(state.players))}
    context = _context(state.view(None), language, False, teacher=True, cards=cards)
    if log:
        context["page"].log = log_lines(state.events, state.players, language, event_text)
    context["teacher"] = {"title": tr("peek.all_cards", language),
                          "lines": [f"{short_name(state.players[seat])}{colon(language)}{card}"
                                    for seat, card in cards.items()]}
    return render("peek/table.html.j2", **context)


def reveal_html(subject: GameState[Any] | View, language: str = "en") -> str:
    """The end: every card, every guess against the truth, the scores and the winners (from the public view
    of the finished game, completed by the cards each seat held, which the end makes public)."""
    if isinstance(subject, View):
        raise ValueError("Peek never makes every card public: its reveal needs the finished game itself.")
    if not subject.is_over:
        raise ValueError("The reveal is for the end of the game: this game is not over yet.")
    view = subject.view(None)
    cards = {seat: subject.view(seat).facts["my_card"] for seat in range(len(subject.players))}
    names = display_names(subject.players)
    winners = _winners(view.facts["scores"])
    rows = [Row((Card(str(cards[seat]), "plain"), _points(view.facts["scores"][seat], language),
                 Tag(tr("peek.wins", language), "good") if seat in winners else ""),
                head=subject.players[seat], kind="good" if seat in winners else "")
            for seat in range(len(subject.players))]
    guesses = []
    for event in view.log:
        if event.kind == "guess" and event.actor is not None:
            right = bool(event.data["right"])
            guesses.append(Row((tr("peek.guess_of", language).format(
                name=names[event.actor], target=names[event.data["target"]], value=event.data["value"],
                que_target=elide("que", names[event.data["target"]])),
                Tag("\u2714 " + tr("peek.right", language), "good") if right
                else Tag("\u2718 " + tr("peek.wrong", language), "bad")), kind="" if right else "bad"))
    return render("peek/reveal.html.j2", kind="peek-reveal", language=language,
                  title=f"{tr('peek.title', language)} \u2014 {tr('tt.reveal', language)}",
                  banner=f"{tr('tt.winners', language)}{colon(language)}"
                         f"{join_names((names[s] for s in winners), language)}.",
                  head=(tr("tt.seat", language), tr("peek.card_of", language), tr("peek.score", language), ""),
                  rows=rows, guesses_title=tr("peek.guesses", language), guesses=guesses,
                  no_guess=tr("peek.no_guess", language))


def move_label(view: View, path: Sequence[str], language: str = "en") -> str:
    """The button for the last word of `path`: 'Peek at a card', a player's name, 'the 4'."""
    verb, word, depth = path[0], path[-1], len(path)
    if depth == 1:
        return tr(f"peek.m_{verb}", language) if verb in ("peek", "guess", "pass") else word
    if depth == 2 and word.isdigit() and int(word) < len(view.players):
        return short_name(view.players[int(word)])
    if verb == "guess" and depth == 3:
        return tr("peek.m_value", language).format(value=word)
    return word


__all__ = ["event_text", "move_label", "reveal_html", "state_html", "view_html"]
