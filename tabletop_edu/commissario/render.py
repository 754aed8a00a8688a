"""HTML for Commissario, in English or French: pure functions, built from a View (never the state) for a seat.

`view_html(view, language)` shows only `view.facts` and `view.log`, so a seat's page can never carry another
seat's secret pick: the engine never puts it there. `state_html(state, language)` is the teacher's omniscient
table. Every colour, card and word of the page goes through `tabletop_edu.i18n.tr`, because the rules came
to us in French and many classes are taught in French. Layout is meant for a projector: large cards, one
column per colour family (bandits above, innocents below), and a banner saying whose turn it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..core import Event, View
from ..i18n import register, tr
from .rules import COLOURS

SWATCH = {"red": "#c0392b", "orange": "#e67e22", "yellow": "#d4ac0d", "green": "#27ae60", "blue": "#2e86c1",
          "purple": "#8e44ad"}

register({
    "en": {
        "cm_red": "red", "cm_orange": "orange", "cm_yellow": "yellow", "cm_green": "green", "cm_blue": "blue",
        "cm_purple": "purple", "cm_commissaire": "commissaire", "cm_bandit": "bandit", "cm_innocent": "innocent",
        "cm_handcuffs": "handcuffs", "cm_bars": "bars", "cm_bonus": "bonus card", "cm_double": "2x",
        "cm_round": "Round", "cm_pile": "Pile", "cm_empty": "empty", "cm_you": "you", "cm_points": "Points",
        "cm_arrested": "Arrested", "cm_this_round": "This round", "cm_released": "released",
        "cm_none": "none", "cm_has_chosen": "has chosen", "cm_revealed": "revealed", "cm_then": "then",
        "cm_your_pick": "Your secret pick", "cm_turn_of": "To play", "cm_everyone_picks": "secret pick, still to "
        "choose", "cm_game_over": "Game over", "cm_bonus_cards": "Bonus cards", "cm_spectator": "Spectator",
        "cm_secret_picks": "Secret picks", "cm_none_yet": "none yet", "cm_pile_order": "Pile (top first)",
        "cm_phase_release": "release step (bids for turn order)", "cm_phase_pick": "secret pick",
        "cm_phase_first_reveal": "first reveal", "cm_phase_second_reveal": "second reveal",
        "cm_phase_over": "end of the game", "cm_not_chosen": "not chosen yet", "cm_hidden_pick": "chosen, hidden",
        "cm_knows": "knows", "cm_of_pick": "pick of", "cm_own_hidden": "knows its own pick",
        "cm_own_rest": "(it knows which)",
        "cm_knowledge_title": "Who knows what of this round's picks",
        "cm_knowledge_note": "Rows: who knows; columns: whose pick. Before the reveals each seat knows only its "
        "own pick; every reveal is public, so afterwards everybody knows the same.",
        "cm_log": "Log",
    },
    "fr": {
        "cm_red": "rouge", "cm_orange": "orange", "cm_yellow": "jaune", "cm_green": "vert", "cm_blue": "bleu",
        "cm_purple": "mauve", "cm_commissaire": "commissaire", "cm_bandit": "bandit", "cm_innocent": "citoyen innocent",
        "cm_handcuffs": "menottes", "cm_bars": "barreaux", "cm_bonus": "carte bonus", "cm_double": "2x",
        "cm_round": "Manche", "cm_pile": "Pioche", "cm_empty": "vide", "cm_you": "vous", "cm_points": "Points",
        "cm_arrested": "Arrêtés", "cm_this_round": "Cette manche", "cm_released": "a écarté",
        "cm_none": "personne", "cm_has_chosen": "a choisi", "cm_revealed": "a révélé", "cm_then": "puis",
        "cm_your_pick": "Votre choix secret", "cm_turn_of": "À jouer", "cm_everyone_picks": "choix secret, "
        "doivent encore choisir", "cm_game_over": "Partie terminée", "cm_bonus_cards": "Cartes bonus",
        "cm_spectator": "Spectateur", "cm_secret_picks": "Choix secrets", "cm_none_yet": "aucun pour l'instant",
        "cm_pile_order": "Pioche (du dessus)",
        "cm_phase_release": "libérations (enchères pour l'ordre du tour)", "cm_phase_pick": "choix secret",
        "cm_phase_first_reveal": "première révélation", "cm_phase_second_reveal": "seconde révélation",
        "cm_phase_over": "fin de la partie", "cm_not_chosen": "pas encore choisi", "cm_hidden_pick": "choisi, caché",
        "cm_knows": "sait", "cm_of_pick": "choix de", "cm_own_hidden": "connaît son propre choix",
        "cm_own_rest": "(il sait lequel)",
        "cm_knowledge_title": "Qui sait quoi des choix de cette manche",
        "cm_knowledge_note": "Lignes : qui sait ; colonnes : le choix de qui. Avant les révélations, chaque place "
        "ne connaît que son propre choix ; chaque révélation est publique, ensuite tout le monde sait la même "
        "chose.",
        "cm_log": "Journal",
    },
})


def colour_word(colour: str, language: str = "en") -> str:
    """A colour's name in `language` (purple is "mauve" in French, as in the seed)."""
    return tr(f"cm_{colour}", language)


def card_word(text: str, language: str = "en") -> str:
    """`red+3` in `language`: `rouge+3` in French."""
    colour = text.rstrip("+-0123456789")
    return colour_word(colour, language) + text[len(colour):]


def pick_word(colours: Sequence[str], language: str = "en") -> str:
    """A pick as people say it: `red + blue`, or `yellow + 2x` for the 2x card."""
    first, second = colours
    if first == second:
        return f"{colour_word(first, language)} + {tr('cm_double', language)}"
    return f"{colour_word(first, language)} + {colour_word(second, language)}"


def _card(text: str, language: str) -> str:
    """A card as a large coloured tile: bandits bold on white, innocents on grey (projector-friendly)."""
    colour = text.rstrip("+-0123456789")
    innocent = text[len(colour):].startswith("-")
    kind = tr("cm_innocent" if innocent else "cm_bandit", language)
    style = (f"display:inline-block;border:3px solid {SWATCH.get(colour, '#555')};padding:2px 6px;margin:2px;"
             "border-radius:6px;font-size:1.1em;"
             + ("background:#ddd;" if innocent else "background:#fff;font-weight:bold;"))
    return f"<span class='cm-card' title='{escape(kind)}' style='{style}'>{escape(card_word(text, language))}</span>"


def _table_html(table: Mapping[str, Sequence[int]], bonus_values: Mapping[str, int], language: str) -> str:
    """One column per colour family: bandits (next to be arrested first) above, innocents below."""
    cells = []
    for colour in COLOURS:
        values = list(table.get(colour, []))
        bandits = "".join(_card(f"{colour}{v:+d}", language) for v in values if v > 0)
        innocents = "".join(_card(f"{colour}{v:+d}", language) for v in values if v < 0)
        cards = (f"<div>{bandits}</div><div>{innocents}</div>" if values
                 else f"<i>{escape(tr('cm_empty', language))}</i>")
        bonus = bonus_values.get(colour, 0)
        head = escape(colour_word(colour, language)) + (
            f" <small>({escape(tr('cm_bonus', language))} {bonus})</small>" if bonus else "")
        cells.append(f"<td style='vertical-align:top;min-width:7em;padding:4px;border-top:6px solid {SWATCH[colour]}'>"
                     f"<b>{head}</b><br>{cards}</td>")
    return f"<table class='cm-layout'><tr>{''.join(cells)}</tr></table>"


def _seat_rows(facts: Mapping[str, Any], players: Sequence[str], me: int | None, acting: Sequence[int],
               language: str) -> str:
    """Every seat's public status: handcuffs, bars (turn position), release, pick made, reveals, arrests."""
    rows = []
    order = facts.get("order") or []
    releases = facts.get("releases", {})
    for seat, name in enumerate(players):
        status = []
        if seat == facts.get("handcuffs"):
            status.append(tr("cm_handcuffs", language))
        if seat in order:
            status.append(f"{tr('cm_bars', language)} {order.index(seat) + 1}")
        if seat in releases:
            card = releases[seat]
            status.append(f"{tr('cm_released', language)} "
                          f"{card_word(card, language) if card else tr('cm_none', language)}")
        if seat in facts.get("picked", []):
            status.append(tr("cm_has_chosen", language))
        shown = facts.get("revealed", {}).get(seat)
        if shown:
            status.append(f"{tr('cm_revealed', language)} " +
                          f" {tr('cm_then', language)} ".join(colour_word(c, language) for c in shown))
        arrested = "".join(_card(c, language) for c in facts.get("arrested", [[]] * len(players))[seat])
        score = facts.get("scores", [0] * len(players))[seat]
        mark = f" ({escape(tr('cm_you', language))})" if seat == me else ""
        turn = "&#9654; " if seat in acting else ""
        style = " style='background:#fff3c4'" if seat in acting else ""
        rows.append(f"<tr{style}><th>{turn}{escape(name)}{mark}</th><td>{escape(', '.join(status))}</td>"
                    f"<td>{score}</td><td>{arrested}</td></tr>")
    head = "".join(f"<th>{escape(tr(key, language))}</th>"
                   for key in ("seat", "cm_this_round", "cm_points", "cm_arrested"))
    return f"<table class='cm-seats'><tr>{head}</tr>{''.join(rows)}</table>"


def _acting(view: View) -> tuple[int, ...]:
    current = view.current_player
    if current is None:
        return ()
    return current if isinstance(current, tuple) else (current,)


def event_text(event: Event, players: Sequence[str], language: str = "en") -> str:
    """A log line in `language`, rebuilt from the event's data as this seat received it.

    English uses the engine's own text. French is composed from `event.data`, which for a redacted pick
    holds only the seat, so a translated line can no more reveal a secret than the English one.
    """
    if language == "en":
        return event.text
    data = event.data
    name = players[data["seat"]] if isinstance(data.get("seat"), int) else ""
    kind = event.kind
    if kind == "deal":
        cards = " et ".join(card_word(c, language) for c in data["cards"])
        return f"{name} reçoit {cards} comme premières arrestations."
    if kind == "handcuffs":
        if event.step == 0:
            return f"{name} a les menottes (le plus haut mauve)."
        return f"Les menottes passent à {name}."
    if kind == "layout":
        return f"Manche {data['round']} : on étale " + ", ".join(card_word(c, language) for c in data["cards"]) + "."
    if kind == "release":
        if data.get("card") is None:
            return f"{name} n'écarte personne (mise 0)."
        return f"{name} écarte {card_word(data['card'], language)} (mise {data['bid']:+d})."
    if kind == "order":
        return "Ordre du tour : " + ", ".join(players[s] for s in data["order"]) + "."
    if kind == "pick":
        if "colours" not in data:
            return f"{name} a choisi deux commissaires."
        first, second = data["colours"]
        what = (f"{colour_word(first, language)} et la carte 2x" if first == second
                else f"{colour_word(first, language)} et {colour_word(second, language)}")
        return f"{name} choisit en secret {what}."
    if kind == "reveals":
        return "Tout le monde a choisi : les commissaires sont révélés dans l'ordre du tour."
    if kind == "reveal":
        colour = colour_word(data["colour"], language)
        shown = f"la carte 2x ({colour} à nouveau)" if data.get("double") else f"le commissaire {colour}"
        if data.get("arrest") is None:
            return f"{name} révèle {shown} : plus de personnage {colour}, pas d'arrestation."
        kind_word = tr("cm_bandit" if "+" in data["arrest"] else "cm_innocent", language)
        return f"{name} révèle {shown} et arrête {card_word(data['arrest'], language)} ({kind_word})."
    if kind == "bonus":
        colour = colour_word(data["colour"], language)
        if data.get("seat") is None:
            return f"Égalité en {colour} : personne ne prend la carte bonus {colour}."
        return f"{name} a le plus de points en {colour} et prend la carte bonus {colour} ({data['bonus']})."
    if kind == "end":
        scores = ", ".join(f"{players[s]} {t}" for s, t in enumerate(data["scores"]))
        winners = ", ".join(players[s] for s in data["winners"])
        return f"Partie terminée. Scores : {scores}. Vainqueur(s) : {winners}."
    return event.text


def log_html(view: View, language: str = "en") -> str:
    """The seat's log, in `language`, as an ordered list numbered by step."""
    items = "".join(f"<li value='{event.step}'>{escape(event_text(event, view.players, language))}</li>"
                    for event in view.log)
    return f"<ol class='tabletop-log'>{items}</ol>"


def view_html(view: View, language: str = "en", log: bool = True) -> str:
    """One seat's (or a spectator's) page: whose turn, the layout, every seat's public status, its own pick, log."""
    facts = view.facts
    who = (escape(tr("cm_spectator", language)) if view.seat is None
           else f"{escape(view.players[view.seat])} ({escape(tr('seat', language))} {view.seat})")
    phase = tr(f"cm_phase_{facts.get('phase')}", language)
    head = (f"<b>Commissario</b> &middot; {who} &middot; {escape(tr('cm_round', language))} {facts.get('round')}"
            f" &middot; {escape(phase)} &middot; {escape(tr('cm_pile', language))} {facts.get('pile_size')}")
    acting = _acting(view)
    turn = ""
    if acting:
        names = ", ".join(escape(view.players[s]) for s in acting)
        turn = (f"<p class='cm-turn' style='font-size:1.3em;background:#fff3c4;padding:4px'>"
                f"&#9654; {escape(tr('cm_turn_of', language))}: <b>{names}</b></p>")
    mine = ""
    if facts.get("my_pick"):
        mine = (f"<p class='cm-my-pick' style='font-size:1.2em'>{escape(tr('cm_your_pick', language))}: "
                f"<b>{escape(pick_word(facts['my_pick'], language))}</b></p>")
    end = ""
    if view.is_over:
        bonuses = ", ".join(f"{colour_word(c, language)}: {view.players[s]}"
                            for c, s in facts.get("bonuses", {}).items() if s is not None)
        end = (f"<p class='cm-end'><b>{escape(tr('cm_game_over', language))}</b>. "
               f"{escape(tr('cm_bonus_cards', language))}: {escape(bonuses or tr('cm_none', language))}.</p>")
    return (f"<div class='tabletop-view commissario'><p>{head}</p>{turn}"
            f"{_table_html(facts.get('table', {}), facts.get('bonus_values', {}), language)}"
            f"{_seat_rows(facts, view.players, view.seat, acting, language)}{mine}{end}"
            f"{log_html(view, language) if log else ''}</div>")


def state_html(state: Any, language: str = "en", log: bool = True) -> str:
    """The omniscient table for a teacher: the spectator's page plus every secret pick and the pile order."""
    picks = ", ".join(f"{state.players[s]}: {' + '.join(colour_word(c, language) for c in p)}"
                      for s, p in sorted(state.picks.items()))
    pile = " ".join(card_word(f"{c}{v:+d}", language) for c, v in state.pile)
    return (f"<div class='tabletop-state commissario'>{view_html(state.view(None), language, log)}"
            f"<p><b>{escape(tr('cm_secret_picks', language))}</b>: {escape(picks or tr('cm_none_yet', language))}</p>"
            f"<p><b>{escape(tr('cm_pile_order', language))}</b>: {escape(pile or tr('cm_empty', language))}</p></div>")


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


def _matrix_html(players: Sequence[str], rows: Sequence[Sequence[str]], language: str) -> str:
    head = "".join(f"<th>{escape(tr('cm_of_pick', language))} {escape(name)}</th>" for name in players)
    body = "".join(f"<tr><th>{escape(players[k])} {escape(tr('cm_knows', language))}</th>"
                   + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
                   for k, row in enumerate(rows))
    return (f"<div class='cm-knowledge'><b>{escape(tr('cm_knowledge_title', language))}</b>"
            f"<table><tr><th></th>{head}</tr>{body}</table>"
            f"<p><small>{escape(tr('cm_knowledge_note', language))}</small></p></div>")


def knowledge_html(subject: View | Any, language: str = "en") -> str:
    """The knowledge panel: who knows what of this round's picks.

    A View gives the matrix as that seat (or spectator) can know it; the state itself (the teacher's
    omniscient perspective) gives every seat's actual knowledge, read from each seat's own view.
    """
    if isinstance(subject, View):
        return _matrix_html(subject.players, knowledge_matrix(subject, language), language)
    players = subject.players
    rows = []
    for knower in range(len(players)):
        known = known_picks(subject.view(knower), language)
        rows.append([known[target] for target in range(len(players))])
    return _matrix_html(players, rows, language)
