"""HTML for Mafia de Cuba, in English and French, as pure functions.

`view_html(view, language)` is built from the View only, so a seat's page can never show another seat's secret
(not even in an attribute); `state_html(state, language)` is the omniscient teacher's table. The table is drawn
round, with the cigar box in the middle and the seat whose turn it is outlined, so it reads on a projector.
Log lines are rebuilt in the chosen language from each event's kind and data, as the seat saw the event (a
redacted event carries only its redacted data), and fall back to the engine's English text.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from ..core import Event, View
from ..i18n import register, tr
from .engine import MafiaState, role_of, take_text
from .rules import DIAMONDS, TOKEN_ORDER

register({
    "en": {
        "mdc_title": "Mafia de Cuba", "mdc_godfather": "Godfather", "mdc_role_loyal": "Loyal Henchman",
        "mdc_role_fbi": "Agent (FBI)", "mdc_role_cia": "Agent (CIA)", "mdc_role_driver": "Driver",
        "mdc_role_cleaner": "Cleaner", "mdc_role_street-kid": "Street Kid", "mdc_role_thief": "Thief",
        "mdc_token_loyal": "loyal", "mdc_token_fbi": "fbi", "mdc_token_cia": "cia", "mdc_token_driver": "driver",
        "mdc_token_cleaner": "cleaner", "mdc_joker": "joker", "mdc_jokers_left": "jokers left",
        "mdc_diamonds": "diamond(s)", "mdc_no_token": "no token", "mdc_nothing": "nothing",
        "mdc_box": "cigar box", "mdc_empty_pockets": "Empty your pockets!", "mdc_phase": "phase",
        "mdc_phase_hide": "the Godfather hides diamonds", "mdc_phase_set-aside": "first taker may set a token aside",
        "mdc_phase_take": "the box goes round", "mdc_phase_question": "interrogation",
        "mdc_phase_answer": "waiting for an answer", "mdc_phase_floor": "the floor is open",
        "mdc_phase_cleaner": "the Cleaner may shoot", "mdc_phase_over": "game over",
        "mdc_questions_left": "questions left", "mdc_recovered": "diamonds recovered",
        "mdc_tokens_in_game": "tokens in game", "mdc_spectator": "Spectator", "mdc_you": "you",
        "mdc_holds_box": "holds the box", "mdc_showed": "showed", "mdc_took": "took", "mdc_wins": "WINS",
        "mdc_turn": "to play", "mdc_only_you": "Only you know", "mdc_you_hid": "You hid {d} diamond(s).",
        "mdc_you_opened": "When you opened the box: {box}.", "mdc_you_set_aside": "You set aside: {t}.",
        "mdc_you_took": "You took: {t}.", "mdc_came_back": "The box came back with {box}.",
        "mdc_waiting_answer": "waiting for {name} to answer '{kind}'",
        "mdc_game_over": "Game over. Hidden: {hidden}; set aside: {aside}; box returned: {box}.",
        "mdc_hidden_by": "Hidden by the Godfather: {hidden}; set aside: {aside}; box now: {box}; stolen {stolen}, "
                         "recovered {recovered}.",
        "mdc_seat": "seat", "mdc_player": "player", "mdc_known": "known", "mdc_take": "take",
        "mdc_box_in_hands": "The box is with {name}.", "mdc_box_with_godfather": "The box is with the Godfather.",
        "mdc_posterior": "The Godfather's posterior", "mdc_p_thief": "P(thief)", "mdc_p_agent": "P(agent)",
        "mdc_p_other": "P(other)", "mdc_matrix": "Who knows what about each take",
        "mdc_posterior_from": "computed from this perspective's view only",
        "mdc_posterior_hidden": "Only the Godfather (or the teacher) sees his posterior once the box is back.",
        "mdc_status_known": "known", "mdc_status_narrowed": "narrowed", "mdc_status_unknown": "unknown",
        "mdc_status_self": "self", "mdc_status_-": "-", "mdc_observer": "observer \u2193 / subject \u2192",
        "mdc_matrix_hidden": "The who-knows-what matrix is for the teacher (omniscient perspective).",
        "mdc_your_row": "What you can deduce of each take",
    },
    "fr": {
        "mdc_title": "Mafia de Cuba", "mdc_godfather": "Parrain", "mdc_role_loyal": "Fidèle",
        "mdc_role_fbi": "Agent (FBI)", "mdc_role_cia": "Agent (CIA)", "mdc_role_driver": "Chauffeur",
        "mdc_role_cleaner": "Nettoyeur", "mdc_role_street-kid": "Enfant des rues", "mdc_role_thief": "Voleur",
        "mdc_token_loyal": "Fidèle", "mdc_token_fbi": "Agent FBI", "mdc_token_cia": "Agent CIA",
        "mdc_token_driver": "Chauffeur", "mdc_token_cleaner": "Nettoyeur", "mdc_joker": "joker",
        "mdc_jokers_left": "jokers restants", "mdc_diamonds": "diamant(s)", "mdc_no_token": "aucun jeton",
        "mdc_nothing": "rien", "mdc_box": "boîte à cigares", "mdc_empty_pockets": "Vide tes poches !",
        "mdc_phase": "phase", "mdc_phase_hide": "le Parrain cache des diamants",
        "mdc_phase_set-aside": "le premier peut écarter un jeton", "mdc_phase_take": "la boîte fait le tour",
        "mdc_phase_question": "interrogatoire", "mdc_phase_answer": "en attente d'une réponse",
        "mdc_phase_floor": "la parole est ouverte", "mdc_phase_cleaner": "le Nettoyeur peut tirer",
        "mdc_phase_over": "partie terminée", "mdc_questions_left": "questions restantes",
        "mdc_recovered": "diamants récupérés", "mdc_tokens_in_game": "jetons en jeu", "mdc_spectator": "Spectateur",
        "mdc_you": "vous", "mdc_holds_box": "tient la boîte", "mdc_showed": "a montré", "mdc_took": "a pris",
        "mdc_wins": "GAGNE", "mdc_turn": "à jouer", "mdc_only_you": "Vous seul savez",
        "mdc_you_hid": "Vous avez caché {d} diamant(s).",
        "mdc_you_opened": "Quand vous avez ouvert la boîte : {box}.", "mdc_you_set_aside": "Vous avez écarté : {t}.",
        "mdc_you_took": "Vous avez pris : {t}.", "mdc_came_back": "La boîte est revenue avec {box}.",
        "mdc_waiting_answer": "on attend la réponse de {name} à « {kind} »",
        "mdc_game_over": "Partie terminée. Cachés : {hidden} ; écarté : {aside} ; boîte revenue : {box}.",
        "mdc_hidden_by": "Cachés par le Parrain : {hidden} ; écarté : {aside} ; boîte maintenant : {box} ; volés "
                         "{stolen}, récupérés {recovered}.",
        "mdc_seat": "place", "mdc_player": "joueur", "mdc_known": "connu", "mdc_take": "prise",
        "mdc_box_in_hands": "La boîte est chez {name}.", "mdc_box_with_godfather": "La boîte est chez le Parrain.",
        "mdc_posterior": "Ce que croit le Parrain (probabilités a posteriori)", "mdc_p_thief": "P(voleur)",
        "mdc_p_agent": "P(agent)", "mdc_p_other": "P(autre)", "mdc_matrix": "Qui sait quoi de chaque prise",
        "mdc_posterior_from": "calculé à partir de ce point de vue seulement",
        "mdc_posterior_hidden": "Seul le Parrain (ou l'enseignant) voit ses probabilités une fois la boîte revenue.",
        "mdc_status_known": "connu", "mdc_status_narrowed": "restreint", "mdc_status_unknown": "inconnu",
        "mdc_status_self": "soi", "mdc_status_-": "-", "mdc_observer": "observateur \u2193 / sujet \u2192",
        "mdc_matrix_hidden": "La matrice « qui sait quoi » est pour l'enseignant (point de vue omniscient).",
        "mdc_your_row": "Ce que vous pouvez déduire de chaque prise",
    },
})

QUESTION_WORDS = {
    "en": {"seen": "what did you see in the box?", "took": "what did you take?", "suspect": "whom do you suspect?"},
    "fr": {"seen": "qu'as-tu vu dans la boîte ?", "took": "qu'as-tu pris ?", "suspect": "qui soupçonnes-tu ?"},
}

STYLE = ("<style>.mdc{font-family:sans-serif;font-size:15px}.mdc table{border-collapse:collapse}"
         ".mdc td,.mdc th{border:1px solid #ccc;padding:3px 8px}.mdc .out{color:#999;text-decoration:line-through}"
         ".mdc .secret{background:#fff3cd;padding:4px 10px;border-radius:6px}.mdc .box{font-weight:bold}"
         ".mdc .ring{position:relative;width:440px;height:440px;margin:8px auto}"
         ".mdc .seat{position:absolute;width:104px;margin-left:-52px;margin-top:-30px;text-align:center;"
         "border:2px solid #bbb;border-radius:10px;background:#fafafa;padding:3px;font-size:14px}"
         ".mdc .seat.turn{border:4px solid #d9480f;background:#fff4e6}.mdc .seat.me{box-shadow:0 0 0 3px #1c7ed6}"
         ".mdc .seat.gf{background:#343a40;color:#fff}.mdc .cigarbox{position:absolute;left:170px;top:185px;"
         "width:100px;height:70px;background:#8b5a2b;color:#fff;border-radius:8px;text-align:center;"
         "font-size:13px;padding-top:6px}</style>")


def token_word(token: str, language: str) -> str:
    """A token's name: the notation word in English (as the actions write it), the French name in French."""
    return tr(f"mdc_token_{token}", language) if token in TOKEN_ORDER else token


def take_word(take: str, language: str) -> str:
    """A take text ('3', 'driver', 'nothing') in `language`."""
    if take == "nothing":
        return tr("mdc_nothing", language)
    if take.isdigit():
        return f"{take} {tr('mdc_diamonds', language)}" if language != "en" else take
    return token_word(take, language)


def role_word(role: str, language: str) -> str:
    """A role ('thief', 'loyal', 'street-kid'...) in `language`."""
    return tr(f"mdc_role_{role}", language)


def box_text(box: dict[str, Any] | None, language: str = "en") -> str:
    """'6 diamond(s); loyal, fbi' — a box content as someone saw it."""
    if not box:
        return "—"
    tokens = ", ".join(token_word(token, language) for token in box["tokens"]) or tr("mdc_no_token", language)
    return f"{box['diamonds']} {tr('mdc_diamonds', language)}; {escape(tokens)}"


def _tokens_listing(tokens: dict[str, int], language: str) -> str:
    return ", ".join(f"{count} {token_word(name, language)}" for name, count in tokens.items() if count) \
        or tr("mdc_no_token", language)


# ------------------------------------------------------------------------------------------ log lines

def _claim_text(claim: str, players: tuple[str, ...], language: str) -> str:
    parts = claim.split()
    if parts[0] == "saw":
        tokens = ", ".join(token_word(t, language) for t in parts[2:]) or tr("mdc_no_token", language)
        return (f"« J'ai vu {parts[1]} diamant(s) et : {tokens}. »" if language == "fr"
                else f"\"I saw {parts[1]} diamond(s) and tokens: {tokens}.\"")
    if parts[0] == "took":
        return (f"« J'ai pris {take_word(parts[1], language)}. »" if language == "fr"
                else f"\"I took {parts[1]}.\"")
    if parts[0] == "suspect":
        name = players[int(parts[1])]
        return f"« Je soupçonne {name}. »" if language == "fr" else f"\"I suspect {name}.\""
    return claim


def event_text(event: Event, players: tuple[str, ...], language: str = "en") -> str:
    """One log line in `language`, from the event as it was seen (its data is redacted when the event is)."""
    if language == "en":
        return event.text
    data, kind = event.data, event.kind
    name = players[event.actor] if event.actor is not None else ""
    gf = "Le Parrain"
    if kind == "setup":
        return (f"{players[data['godfather']]} est le Parrain. La boîte à cigares contient {DIAMONDS} diamants et "
                f"{_tokens_listing(data['tokens'], language)} ; le Parrain a {data['jokers']} joker(s).")
    if kind == "hide":
        return f"{gf} cache {data['diamonds']} diamant(s)." if "diamonds" in data else f"{gf} cache des diamants."
    if kind == "open":
        who = players[data["seat"]]
        if "diamonds" not in data:
            return f"{who} ouvre la boîte."
        return f"{who} ouvre la boîte : {box_text(data, language)}."
    if kind == "return":
        if "diamonds" not in data:
            return "La boîte revient au Parrain, qui regarde dedans."
        return f"La boîte revient au Parrain : {box_text(data, language)}."
    if kind == "set-aside":
        if "token" not in data:
            return f"{name} peut écarter un jeton."
        return f"{name} écarte : {token_word(data['token'], language) if data['token'] else 'rien'}."
    if kind == "take":
        if "take" not in data:
            return f"{name} prend quelque chose dans la boîte et la passe."
        return f"{name} prend : {take_word(data['take'], language)}."
    if kind == "question":
        return f"{gf} demande à {players[data['target']]} : {QUESTION_WORDS['fr'][data['question']]}"
    if kind == "floor":
        return f"{gf} donne la parole : chacun peut parler."
    if kind == "testimony":
        return f"{name} dit : {_claim_text(data['claim'], players, language)}"
    if kind == "silent":
        return f"{name} garde le silence."
    if kind == "accuse":
        return f"{gf} à {players[data['target']]} : « {tr('mdc_empty_pockets', language)} »"
    if kind == "vote":
        if "shoot" not in data:
            return f"{name} décide."
        return f"{name} dit : {'je tire' if data['shoot'] else 'je ne tire pas'}."
    if kind == "reveal":
        return (f"{players[data['seat']]} vide ses poches : {take_word(data['take'], language)} "
                f"({role_word(data['role'], language)}).")
    if kind == "caught":
        return f"{players[data['target']]} est un Voleur : ses diamants reviennent, il est éliminé."
    if kind == "joker":
        return f"Mauvaise accusation : le Parrain donne un joker à {players[data['target']]}."
    if kind == "shoot":
        return f"{name}, le Nettoyeur, tire sur {players[data['target']]} !"
    if kind == "end":
        return {"godfather": "Le Parrain gagne.", "thieves": "Le Parrain est éliminé : les voleurs gagnent.",
                "agent": "Un Agent accusé gagne seul.", "cleaner": "Le Nettoyeur a abattu un Agent et gagne seul."
                }.get(data.get("outcome", ""), event.text)
    if kind == "final-reveal":
        takes = "; ".join(f"{players[int(s)]} : {take_word(t, language)}" for s, t in data["takes"].items())
        winners = ", ".join(players[s] for s in data["winners"]) or "personne"
        aside = token_word(data["set_aside"], language) if data["set_aside"] else "rien"
        return (f"Chacun montre sa prise : {takes}. Le Parrain avait caché {data['hidden']} ; écarté : {aside}. "
                f"Vainqueurs : {winners}.")
    return event.text


def log_html(events: tuple[Event, ...] | list[Event], players: tuple[str, ...], language: str = "en") -> str:
    """The log lines (already filtered for a perspective), escaped, in `language`."""
    items = "".join(f"<li value='{event.step}'>{escape(event_text(event, players, language))}</li>"
                    for event in events)
    return f"<ol class='tabletop-log'>{items}</ol>"


# ------------------------------------------------------------------------------------------ the table

def _acting(view: View) -> set[int]:
    current = view.current_player
    if current is None:
        return set()
    return set(current) if isinstance(current, tuple) else {current}


def _seat_status(view: View, seat: int, language: str) -> list[str]:
    facts = view.facts
    status = []
    if seat == facts["godfather"]:
        status.append(tr("mdc_godfather", language))
    if seat == facts["box_holder"]:
        status.append(tr("mdc_holds_box", language))
    if seat in facts["jokered"]:
        status.append(tr("mdc_joker", language))
    if seat in facts["revealed"]:
        status.append(f"{tr('mdc_showed', language)}: {take_word(facts['revealed'][seat], language)}")
    if "all_takes" in facts and seat in facts["all_takes"]:
        status.append(f"{tr('mdc_took', language)}: {take_word(facts['all_takes'][seat], language)}")
    if seat in facts["winners"]:
        status.append(tr("mdc_wins", language))
    return status


def _ring(view: View, language: str) -> str:
    """The round table: seats on a circle in box order (clockwise), the cigar box in the middle."""
    facts = view.facts
    count = len(view.players)
    acting = _acting(view)
    seats = []
    for seat, name in enumerate(view.players):
        angle = 2 * math.pi * ((seat - facts["godfather"]) % count) / count
        left, top = round(220 + 175 * math.sin(angle)), round(220 - 175 * math.cos(angle))
        classes = ["seat"] + (["turn"] if seat in acting else []) + (["me"] if seat == view.seat else []) \
            + (["gf"] if seat == facts["godfather"] else []) + (["out"] if seat in facts["eliminated"] else [])
        me = f" ({tr('mdc_you', language)})" if seat == view.seat else ""
        turn = f"<br><b>\u25b6 {tr('mdc_turn', language)}</b>" if seat in acting else ""
        status = "<br>".join(escape(item) for item in _seat_status(view, seat, language))
        seats.append(f"<div class='{' '.join(classes)}' style='left:{left}px;top:{top}px'>{seat}. {escape(name)}{me}"
                     f"{'<br>' + status if status else ''}{turn}</div>")
    holder = facts["box_holder"]
    where = (tr("mdc_box_in_hands", language).format(name=escape(view.players[holder])) if holder is not None
             else tr("mdc_box_with_godfather", language))
    box = f"<div class='cigarbox'>\U0001f4e6 {tr('mdc_box', language)}<br>{where}</div>"
    return f"<div class='ring'>{''.join(seats)}{box}</div>"


def _secrets(view: View, language: str) -> str:
    facts = view.facts
    items = []
    if facts["hidden"] is not None and view.seat == facts["godfather"]:
        items.append(tr("mdc_you_hid", language).format(d=facts["hidden"]))
    if facts["box_seen"] is not None:
        items.append(tr("mdc_you_opened", language).format(box=box_text(facts["box_seen"], language)))
    if facts["my_set_aside"] is not None:
        aside = facts["my_set_aside"]
        items.append(tr("mdc_you_set_aside", language).format(
            t=escape(tr("mdc_nothing", language) if aside == "none" else token_word(aside, language))))
    if facts["my_take"] is not None:
        items.append(tr("mdc_you_took", language).format(t=escape(take_word(facts["my_take"], language))))
        items.append(escape(f"\u2192 {role_word(role_of(_parse_take(facts['my_take'])), language)}"))
    if facts["box_returned"] is not None and view.seat == facts["godfather"]:
        items.append(tr("mdc_came_back", language).format(box=box_text(facts["box_returned"], language)))
    if not items:
        return ""
    return (f"<div class='secret'><b>{tr('mdc_only_you', language)}</b><ul>"
            + "".join(f"<li>{item}</li>" for item in items) + "</ul></div>")


def _parse_take(text: str) -> tuple[int, str | None]:
    if text == "nothing":
        return 0, None
    return (int(text), None) if text.isdigit() else (0, text)


def view_html(view: View, language: str = "en", log: bool = True) -> str:
    """The table as `view.seat` sees it (None: a spectator), escaped, from the view alone."""
    facts = view.facts
    who = (tr("mdc_spectator", language) if view.seat is None
           else f"{tr('seat', language)} {view.seat}: {escape(view.players[view.seat])}")
    status = (f"{tr('mdc_phase', language)} <b>{escape(tr('mdc_phase_' + facts['phase'], language))}</b> · "
              f"{tr('mdc_jokers_left', language)} {facts['jokers_left']} · {tr('mdc_questions_left', language)} "
              f"{facts['questions_left']} · {tr('mdc_recovered', language)} {facts['recovered']} · "
              f"{tr('mdc_tokens_in_game', language)}: {escape(_tokens_listing(facts['tokens_in_game'], language))}")
    if facts["pending"]:
        seat, kind = facts["pending"]
        status += " · " + escape(tr("mdc_waiting_answer", language).format(
            name=view.players[seat], kind=QUESTION_WORDS[language][kind]))
    end = ""
    if view.is_over:
        aside = facts.get("set_aside", "none")
        end = "<p class='box'>" + tr("mdc_game_over", language).format(
            hidden=facts["hidden"], aside=escape(tr("mdc_nothing", language) if aside == "none"
                                                 else token_word(aside, language)),
            box=box_text(facts["box_returned"], language)) + "</p>"
    rows = "".join(
        f"<tr><td{' class=out' if seat in facts['eliminated'] else ''}>{seat}</td>"
        f"<td>{escape(name)}{' (' + tr('mdc_you', language) + ')' if seat == view.seat else ''}</td>"
        f"<td>{escape('; '.join(_seat_status(view, seat, language)))}</td></tr>"
        for seat, name in enumerate(view.players))
    table = (f"<table><tr><th>{tr('mdc_seat', language)}</th><th>{tr('mdc_player', language)}</th>"
             f"<th>{tr('mdc_known', language)}</th></tr>{rows}</table>")
    return (f"{STYLE}<div class='mdc tabletop-view'><h4>{tr('mdc_title', language)} — {who}</h4><p>{status}</p>"
            f"{_secrets(view, language)}{_ring(view, language)}{table}{end}"
            f"{log_html(view.log, view.players, language) if log else ''}</div>")


def state_html(state: MafiaState, language: str = "en", log: bool = True) -> str:
    """The omniscient table: every take and role, the hidden diamonds and the box, for a teacher."""
    rows = "".join(
        f"<tr><td>{seat}</td><td>{escape(state.players[seat])}</td><td>{escape(_take(state, seat, language))}</td></tr>"
        for seat in range(len(state.players)))
    box = {"diamonds": state.box_diamonds,
           "tokens": [name for name, count in state.box_tokens.items() for _ in range(count)]}
    aside = token_word(state.set_aside, language) if state.set_aside else tr("mdc_nothing", language)
    summary = tr("mdc_hidden_by", language).format(hidden=state.hidden, aside=escape(aside), box=box_text(box, language),
                                                   stolen=state.stolen, recovered=state.recovered)
    return (f"{STYLE}<div class='mdc tabletop-state'><h4>{escape(str(state))}</h4><p>{summary}</p>"
            f"<table><tr><th>{tr('mdc_seat', language)}</th><th>{tr('mdc_player', language)}</th>"
            f"<th>{tr('mdc_take', language)}</th></tr>{rows}</table>"
            f"{view_html(state.view(None), language, log)}</div>")


def _take(state: MafiaState, seat: int, language: str = "en") -> str:
    if seat == state.godfather:
        return tr("mdc_godfather", language)
    if seat not in state.takes:
        return "—"
    take = state.takes[seat]
    return f"{take_word(take_text(take), language)} ({role_word(role_of(take), language)})"
