"""HTML for Get Adler, as pure functions, in English or French.

`view_html` is built from a View alone, so a seat's page can hold nothing that seat may not know (not even in
hidden elements); `state_html` is the omniscient table for the teacher. Every card, character, trait, colour
and interface word goes through `tabletop_edu.i18n.tr`, so a class can play in French (the rules came to us
in French). The log is worded from each event's data as the seat saw it (its redacted form for the others),
so the French log goes through the same visibility gate as the English one.

Projector-friendly: large cards, and a banner saying whose turn it is in big letters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..core import Event, View
from ..i18n import register, tr
from .rules import CARDS, TRAIT_COLOURS, TRAIT_TABLE, TRAITS

CARD_COLOURS = {"document": "#c0392b", "question": "#2e86c1", "magnify": "#17a589", "binoculars": "#7d3c98",
                "arrest": "#1c2833", "escape": "#d68910", "disguise": "#a04000", "bomb": "#566573",
                "pistol": "#7b241c", "plain": "#7f8c8d"}

_CARD_NAMES = {
    "en": {"document": "TOP-SECRET DOCUMENT", "question": "QUESTION MARK", "magnify": "MAGNIFYING GLASS",
           "binoculars": "BINOCULARS", "arrest": "ARREST", "escape": "escape", "disguise": "disguise",
           "bomb": "bomb", "pistol": "pistol", "plain": "plain card"},
    "fr": {"document": "DOCUMENT TOP-SECRET", "question": "POINT D'INTERROGATION", "magnify": "LOUPE",
           "binoculars": "PAIRE DE JUMELLES", "arrest": "ARRESTATION", "escape": "s'échapper",
           "disguise": "déguisement", "bomb": "bombe", "pistol": "revolver", "plain": "simple défausse"},
}
_TRAIT_NAMES = {"en": {"hat": "hat", "hair": "hair", "eyes": "eyes", "coat": "coat"},
                "fr": {"hat": "chapeau", "hair": "cheveux", "eyes": "yeux", "coat": "manteau"}}
_COLOUR_NAMES = {
    "en": {c: c for colours in TRAIT_COLOURS.values() for c in colours},
    "fr": {"black": "noir", "brown": "marron", "grey": "gris", "blond": "blond", "red": "roux", "blue": "bleu",
           "green": "vert", "beige": "beige"},
}
_CHARACTER_NAMES = {"en": {c: c for c in TRAIT_TABLE}, "fr": {c: c for c in TRAIT_TABLE}}
_CHARACTER_NAMES["fr"]["Agent Tarasov"] = "Agent Tarassov"
_PHASES = {
    "en": {"turn": "play a card", "skip": "stunned: skip", "answer": "answer the question",
           "confront": "Adler answers the arrest", "escape": "stop the escape?", "duel": "pistol duel",
           "over": "game over"},
    "fr": {"turn": "jouer une carte", "skip": "étourdi : passe son tour", "answer": "répondre à la question",
           "confront": "Adler répond à l'arrestation", "escape": "arrêter la fuite ?", "duel": "duel au revolver",
           "over": "partie terminée"},
}
_UI = {
    "en": {"adler.title": "Get Adler", "adler.you_are": "You are", "adler.your_hand": "Your hand",
           "adler.hour": "Hour", "adler.deck": "Deck", "adler.cards": "cards", "adler.to_play": "To play",
           "adler.character": "character", "adler.name": "name", "adler.known_cards": "known cards",
           "adler.status": "status", "adler.out": "out", "adler.skips": "skips", "adler.not_adler": "not Adler",
           "adler.none": "none", "adler.won_adler": "Adler won.", "adler.won_heroes": "The heroes won.",
           "adler.answers": "Questions and answers", "adler.yes": "yes", "adler.no": "no",
           "adler.asked": "asked", "adler.hand": "hand", "adler.next": "next cards",
           "adler.log": "What you saw", "adler.candidates": "Who can be Adler?",
           "adler.candidates_of": "Seats that cannot rule out each seat as Adler",
           "adler.worlds": "possible worlds", "adler.suspects": "suspects", "adler.chance": "chance",
           "adler.everyone": "row: who wonders; column: who might be Adler",
           "adler.discards": "Discard pile", "adler.traits": "Characters and their traits"},
    "fr": {"adler.title": "Get Adler", "adler.you_are": "Vous êtes", "adler.your_hand": "Votre main",
           "adler.hour": "Heure", "adler.deck": "Pioche", "adler.cards": "cartes", "adler.to_play": "À jouer",
           "adler.character": "personnage", "adler.name": "nom", "adler.known_cards": "cartes connues",
           "adler.status": "état", "adler.out": "hors jeu", "adler.skips": "passe", "adler.not_adler": "pas Adler",
           "adler.none": "aucune", "adler.won_adler": "Adler a gagné.", "adler.won_heroes": "Les héros ont gagné.",
           "adler.answers": "Questions et réponses", "adler.yes": "oui", "adler.no": "non",
           "adler.asked": "demande à", "adler.hand": "main", "adler.next": "prochaines cartes",
           "adler.log": "Ce que vous avez vu", "adler.candidates": "Qui peut être Adler ?",
           "adler.candidates_of": "Pour chaque place, les places qu'elle ne peut pas écarter",
           "adler.worlds": "mondes possibles", "adler.suspects": "suspects", "adler.chance": "chance",
           "adler.everyone": "ligne : qui se demande ; colonne : qui pourrait être Adler",
           "adler.discards": "Défausse", "adler.traits": "Les personnages et leurs signes distinctifs"},
}


def _register_terms() -> None:
    """Put every term in the shared dictionary under a prefixed key (card.X, trait.X, colour.X...)."""
    for language in ("en", "fr"):
        words: dict[str, str] = dict(_UI[language])
        words.update({f"card.{k}": v for k, v in _CARD_NAMES[language].items()})
        words.update({f"trait.{k}": v for k, v in _TRAIT_NAMES[language].items()})
        words.update({f"colour.{k}": v for k, v in _COLOUR_NAMES[language].items()})
        words.update({f"character.{k}": v for k, v in _CHARACTER_NAMES[language].items()})
        words.update({f"adler.phase.{k}": v for k, v in _PHASES[language].items()})
        register({language: words})


_register_terms()


def card_name(card: str, language: str = "en") -> str:
    return tr(f"card.{card}", language)


def trait_name(trait: str, language: str = "en") -> str:
    return tr(f"trait.{trait}", language)


def colour_name(colour: str, language: str = "en") -> str:
    return tr(f"colour.{colour}", language)


def character_name(character: str, language: str = "en") -> str:
    return tr(f"character.{character}", language)


def _colon(language: str) -> str:
    """French typography puts a space before a colon."""
    return " :" if language == "fr" else ":"


def _card(card: str, language: str) -> str:
    colour = CARD_COLOURS.get(card, "#888")
    return (f"<span class='adler-card' style='display:inline-block;margin:3px;padding:8px 12px;"
            f"border-radius:8px;color:white;background:{colour};font-size:120%;font-weight:bold;"
            f"min-width:3em;text-align:center'>{escape(card_name(card, language))}</span>")


def _cards(cards: Sequence[str], language: str) -> str:
    return "".join(_card(card, language) for card in cards) or f"<i>{escape(tr('adler.none', language))}</i>"


def _question(trait: str, colour: str, language: str) -> str:
    """'a black hat?' / 'un chapeau noir ?' (French puts the colour after the noun)."""
    if language == "fr":
        return f"{trait_name(trait, 'fr')} {colour_name(colour, 'fr')} ?"
    return f"{colour} {trait}?"


def event_text(event: Event, players: Sequence[str], language: str = "en") -> str:
    """One log line in `language`, from the event as the seat saw it (its data is already redacted).

    English uses the engine's own text; French is worded from `event.data`, and an event kind this function
    does not know keeps its English text rather than vanish."""
    if language == "en":
        return event.text
    d: Mapping[str, Any] = event.data

    def name(key: str) -> str:
        return players[d[key]]

    def card(key: str) -> str:
        return card_name(d[key], language)

    kind = event.kind
    try:
        if kind == "character":
            if "character" in d:
                return f"{name('seat')} est {character_name(d['character'], language)}."
            return f"{name('seat')} reçoit un personnage secret."
        if kind == "deal":
            if "cards" in d:
                return f"{name('seat')} reçoit {', '.join(card_name(c, language) for c in d['cards'])}."
            return f"{name('seat')} reçoit {d['count']} cartes."
        if kind == "reshuffle":
            return f"La défausse est mélangée : nouvelle pioche de {d['size']} cartes."
        if kind == "draw":
            return f"{name('seat')} pioche {card('card')}." if "card" in d else f"{name('seat')} pioche une carte."
        if kind == "skip":
            return f"{name('seat')} passe son tour."
        if kind == "discard":
            return f"{name('seat')} défausse {card('card')}."
        if kind == "ask":
            return (f"{name('seat')} demande à {name('target')} : avez-vous un "
                    f"{_question(d['trait'], d['colour'], language)}")
        if kind == "answer":
            return (f"{name('seat')} répond {'oui' if d['answer'] else 'non'} "
                    f"({trait_name(d['trait'], language)} {colour_name(d['colour'], language)}).")
        if kind == "magnify":
            if "cards" in d:
                return (f"{name('seat')} regarde la main de {name('target')} : "
                        f"{', '.join(card_name(c, language) for c in d['cards'])}.")
            return f"{name('seat')} regarde la main de {name('target')} avec une loupe."
        if kind == "binoculars":
            if "taken" in d:
                return (f"{name('seat')} prend {card('taken')} à {name('target')} avec les jumelles et donne "
                        f"{card('given')}.")
            return f"{name('seat')} utilise les jumelles sur {name('target')} : une carte change de main dans chaque sens."
        if kind == "binoculars_given":
            return f"{name('seat')} vous a pris {card('taken')} et vous a donné {card('given')}."
        if kind == "arrest":
            if d["right"]:
                return f"{name('seat')} arrête {name('target')} : c'est Adler ! Chacun montre son personnage."
            return f"{name('seat')} arrête {name('target')} : erreur ! Les deux passent leur prochain tour."
        if kind == "reveal":
            listing = ", ".join(f"{players[s]} est {character_name(c, language)}" for s, c in enumerate(d["characters"]))
            return f"Personnages révélés : {listing}."
        if kind == "respond":
            role = d.get("role")
            if role == "stop":
                return f"{name('seat')} arrête la fuite avec {card('card')} : Adler doit répondre à nouveau."
            if role == "shoot":
                return f"{name('seat')} riposte au revolver."
            return f"{name('seat')} (Adler) joue {card('card')}."
        if kind == "pass":
            return f"{name('seat')} n'arrête pas la fuite."
        if kind == "shot":
            return f"{name('seat')} perd le duel et " + ("est hors jeu." if d["out"] else "passe un tour.")
        if kind == "escape":
            how = {"unstoppable": "aucun héros ne peut l'arrêter", "disguise": "il s'éclipse déguisé",
                   "bomb": "une bombe explose et étourdit tous les héros", "escape": "personne ne l'arrête",
                   "duel": "il gagne le duel"}.get(d.get("how", ""), "")
            return f"{name('seat')} (Adler) s'échappe : {how}."
        if kind == "end":
            winner = "Adler gagne" if d["winner"] == "adler" else "les héros gagnent"
            if "documents" in d:
                return (f"La dernière heure s'achève. {name('adler')} était Adler et détient {d['documents']} "
                        f"document(s) top-secret : {winner}.")
            if d.get("how") == "surrender":
                return f"{name('adler')} (Adler) se rend : les héros gagnent."
            return f"{name('adler')} (Adler) ne peut pas riposter et est neutralisé : les héros gagnent."
    except (KeyError, IndexError, TypeError):
        pass
    return event.text


def log_html(events: Sequence[Event], players: Sequence[str], language: str = "en", last: int = 12) -> str:
    """The last `last` events, each worded in `language` (pass the events as the seat saw them)."""
    items = "".join(f"<li value='{event.step}'>{escape(event_text(event, players, language))}</li>"
                    for event in list(events)[-last:])
    return f"<ol class='tabletop-log adler-log' style='font-size:110%'>{items}</ol>"


def _turn_banner(players: Sequence[str], facts: Mapping[str, Any], current: Any, language: str) -> str:
    """Big letters: the hour, whose turn it is and what they must do (or who won)."""
    if facts.get("winner"):
        text = tr("adler.won_adler" if facts["winner"] == "adler" else "adler.won_heroes", language)
    else:
        acting = current if isinstance(current, tuple) else (current,)
        names = ", ".join(players[seat] for seat in acting if seat is not None)
        text = (f"{tr('adler.hour', language)} {facts['hour']} — {tr('adler.to_play', language)}{_colon(language)} {names} "
                f"({tr('adler.phase.' + facts['phase'], language)})")
    return (f"<div class='adler-turn' style='font-size:150%;font-weight:bold;padding:6px 10px;margin:6px 0;"
            f"background:#fdebd0;border-left:8px solid #d35400'>{escape(text)}</div>")


def _seats_table(players: Sequence[str], facts: Mapping[str, Any], current: Any, language: str) -> str:
    acting = set(current) if isinstance(current, tuple) else {current}
    revealed = {int(k): v for k, v in facts.get("revealed", {}).items()}
    known = {int(k): v for k, v in (facts.get("known_cards") or {}).items()}
    rows = []
    for seat, name in enumerate(players):
        status = []
        if seat in facts["out"]:
            status.append(tr("adler.out", language))
        if facts["skips"][seat]:
            status.append(f"{tr('adler.skips', language)} {facts['skips'][seat]}")
        if seat in facts["not_adler"]:
            status.append(tr("adler.not_adler", language))
        marker = "&#9654; " if seat in acting else ""
        style = " style='background:#fdebd0;font-weight:bold'" if seat in acting else ""
        character = character_name(revealed[seat], language) if seat in revealed else "?"
        rows.append(f"<tr{style}><td>{marker}{seat}</td><td>{escape(name)}</td>"
                    f"<td>{escape(character)}</td><td>{facts['hand_sizes'][seat]}</td>"
                    f"<td>{_cards(known[seat], language) if seat in known else ''}</td>"
                    f"<td>{escape(', '.join(status))}</td></tr>")
    head = "".join(f"<th>{escape(word)}</th>" for word in (
        tr("seat", language), tr("adler.name", language), tr("adler.character", language),
        tr("adler.cards", language), tr("adler.known_cards", language), tr("adler.status", language)))
    return f"<table class='adler-seats' style='font-size:120%'><tr>{head}</tr>{''.join(rows)}</table>"


def _answers(players: Sequence[str], answers: Sequence[Sequence[Any]], language: str) -> str:
    items = "".join(
        f"<li>{escape(players[a])} {escape(tr('adler.asked', language))} {escape(players[t])}"
        f"{' :' if language == 'fr' else ':'} {escape(_question(trait, colour, language))} "
        f"<b>{escape(tr('adler.yes' if yes else 'adler.no', language))}</b></li>"
        for a, t, trait, colour, yes in answers)
    if not items:
        return ""
    return f"<h5>{escape(tr('adler.answers', language))}</h5><ol class='adler-answers' style='font-size:115%'>{items}</ol>"


def trait_table_html(language: str = "en") -> str:
    """The players' aid sheet: every character's trait colours (public)."""
    head = "".join(f"<th>{escape(trait_name(t, language))}</th>" for t in TRAITS)
    rows = "".join(f"<tr><td>{escape(character_name(c, language))}</td>"
                   f"{''.join(f'<td>{escape(colour_name(traits[t], language))}</td>' for t in TRAITS)}</tr>"
                   for c, traits in TRAIT_TABLE.items())
    return (f"<table class='adler-traits' style='font-size:120%'><tr><th>{escape(tr('adler.character', language))}"
            f"</th>{head}</tr>{rows}</table>")


def view_html(view: View, language: str = "en", log: bool = True) -> str:
    """One seat's table (or a spectator's) from its View only, in `language`."""
    facts = dict(view.facts)
    who = tr("spectator", language) if view.seat is None else f"{view.players[view.seat]} ({tr('seat', language)} {view.seat})"
    parts = [f"<div class='adler-view'><h3>{escape(tr('adler.title', language))} — {escape(who)}</h3>",
             _turn_banner(view.players, facts, view.current_player, language)]
    if view.seat is not None:
        parts.append(f"<p style='font-size:130%'>{escape(tr('adler.you_are', language))} "
                     f"<b>{escape(character_name(str(facts['my_character']), language))}</b>. "
                     f"{escape(tr('adler.your_hand', language))}{_colon(language)}</p><div>{_cards(facts['hand'], language)}</div>")
    parts.append(f"<p>{escape(tr('adler.deck', language))}{_colon(language)} {facts['deck_size']} {escape(tr('adler.cards', language))}.</p>")
    parts.append(_seats_table(view.players, facts, view.current_player, language))
    parts.append(_answers(view.players, facts["answers"], language))
    if log:
        parts.append(f"<h5>{escape(tr('adler.log', language))}</h5>{log_html(view.log, view.players, language)}")
    return "".join(parts) + "</div>"


def state_html(state: Any, language: str = "en", log: bool = True) -> str:
    """The omniscient table, for a teacher: every character and every hand."""
    rows = "".join(f"<tr><td>{seat}</td><td>{escape(name)}</td>"
                   f"<td><b>{escape(character_name(state.characters[seat], language))}</b></td>"
                   f"<td>{_cards(sorted(state.hands[seat]), language)}</td></tr>"
                   for seat, name in enumerate(state.players))
    facts = state.view(None).facts
    head = "".join(f"<th>{escape(word)}</th>" for word in (
        tr("seat", language), tr("adler.name", language), tr("adler.character", language), tr("adler.hand", language)))
    upcoming = ", ".join(card_name(card, language) for card in reversed(state.deck[-3:]))
    return (f"<div class='adler-state'><h3>{escape(tr('adler.title', language))} — {escape(tr('omniscient', language))}</h3>"
            f"{_turn_banner(state.players, facts, state.current_player, language)}"
            f"<table style='font-size:120%'><tr>{head}</tr>{rows}</table>"
            f"<p>{escape(tr('adler.deck', language))} ({len(state.deck)}), {escape(tr('adler.next', language))}: "
            f"{escape(upcoming)}</p>{_answers(state.players, facts['answers'], language)}"
            f"{log_html(state.events, state.players, language) if log else ''}</div>")


__all__ = ["CARDS", "card_name", "character_name", "colour_name", "event_text", "log_html", "state_html",
           "trait_name", "trait_table_html", "view_html"]
