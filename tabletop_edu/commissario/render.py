"""HTML for Commissario, in English or French: pure functions over templates, built from a View for a seat.

`view_html(view, language)` shows only `view.facts` and `view.log`, so a seat's page can never carry another
seat's secret pick: the engine never puts it there. `state_html(state, language)` is the teacher's table
(every pick, read from each seat's view, and the next cards of the pile); `reveal_html` is the end of the game
from the public view: the score table per colour with the bonus cards, every round's picks, the winners and
why. Every colour, card and word goes through `tabletop_edu.i18n.tr`, because the rules came to us in French
and many classes are taught in French. Layout is meant for a projector: large cards, one column per colour
family (bandits above, innocents below), and a banner saying whose turn it is and what to do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import Event, GameState, View
from ..i18n import tr
from ..templates import (Banner, Card, Cell, Name, Row, Swatch, Tag, acting_seats, colon, display_names,
                         join_names, log_lines, page, render, seat_box, short_name, word)
from .rules import COLOURS
from .words import card_word, colour_word, pick_word, split_card


# ---------------------------------------------------------------------------------------------- cards

def _card(text: str, language: str, small: bool = False) -> Card:
    """A character as a tile: bandits bold on white, innocents on grey, the family's colour as its border."""
    colour, value = split_card(text)
    kind = "bandit" if value > 0 else "innocent"
    return Card(card_word(text, language), f"{kind} tt-colour-{colour}" + (" tt-card--small" if small else ""))


def _signed(value: int, plus: bool = False) -> str:
    """A number with a true minus sign ('\u22127'), and a plus sign if asked ('+3')."""
    text = f"{value:+d}" if plus and value else str(value)
    return text.replace("-", "\u2212")


def _points(points: int, language: str) -> str:
    singular = abs(points) == 1 or (language == "fr" and points == 0)
    return tr("cm_point", language).replace("1", _signed(points)) if singular else \
        tr("cm_points", language).format(points=_signed(points))


# ---------------------------------------------------------------------------------------------- log lines

def event_text(event: Event, players: Sequence[str], language: str = "en") -> str:
    """A log line in `language`, rebuilt from the event's data as this seat received it.

    A redacted pick holds only the seat, so a line can no more reveal a secret than the engine's own text.
    An event kind (or shape) this function does not know keeps the engine's English text."""
    try:
        return _event_text(event, players, language)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return event.text


def _event_text(event: Event, players: Sequence[str], language: str) -> str:  # noqa: C901 - one case per kind
    data, kind, en = event.data, event.kind, language == "en"
    name = players[data["seat"]] if isinstance(data.get("seat"), int) else ""
    if kind == "deal":
        cards = (" and " if en else " et ").join(card_word(c, language) for c in data["cards"])
        return (f"{name} is dealt {cards} as first arrests." if en
                else f"{name} reçoit {cards} comme premières arrestations.")
    if kind == "handcuffs":
        if event.step == 0:
            purple = colour_word("purple", language)
            return (f"{name} holds the handcuffs (highest {purple})." if en
                    else f"{name} a les menottes (le plus haut {purple}).")
        return f"The handcuffs pass to {name}." if en else f"Les menottes passent à {name}."
    if kind == "layout":
        cards = ", ".join(card_word(c, language) for c in data["cards"])
        return (f"Round {data['round']}: laid out {cards}." if en else f"Manche {data['round']} : on étale {cards}.")
    if kind == "release":
        if data.get("card") is None:
            return f"{name} releases no one (bid 0)." if en else f"{name} ne libère personne (mise 0)."
        bid = f"{int(data['bid']):+d}".replace("-", "\u2212")
        card = card_word(data["card"], language)
        return f"{name} releases {card} (bid {bid})." if en else f"{name} libère {card} (mise {bid})."
    if kind == "order":
        order = ", ".join(players[s] for s in data["order"])
        return f"Turn order: {order}." if en else f"Ordre du tour : {order}."
    if kind == "pick":
        if "colours" not in data:
            return f"{name} has chosen two commissaires." if en else f"{name} a choisi deux commissaires."
        first, second = data["colours"]
        if first == second:
            what = (f"{colour_word(first, language)} and the 2x card" if en
                    else f"{colour_word(first, language)} et la carte 2x")
        else:
            what = (f"{colour_word(first, language)} and {colour_word(second, language)}" if en
                    else f"{colour_word(first, language)} et {colour_word(second, language)}")
        return f"{name} secretly picks {what}." if en else f"{name} choisit en secret {what}."
    if kind == "reveals":
        return ("Everyone has chosen: commissaires are revealed in turn order." if en
                else "Tout le monde a choisi : les commissaires sont révélés dans l'ordre du tour.")
    if kind == "reveal":
        colour = colour_word(data["colour"], language)
        if en:
            shown = f"the 2x card ({colour} again)" if data.get("double") else f"the {colour} commissaire"
        else:
            shown = f"la carte 2x ({colour} à nouveau)" if data.get("double") else f"le commissaire {colour}"
        if data.get("arrest") is None:
            return (f"{name} reveals {shown}: no {colour} character left, no arrest." if en
                    else f"{name} révèle {shown} : plus de personnage {colour}, pas d'arrestation.")
        arrest = card_word(data["arrest"], language)
        kind_word = tr("cm_bandit" if split_card(data["arrest"])[1] > 0 else "cm_innocent", language)
        return (f"{name} reveals {shown} and arrests {arrest} ({kind_word})." if en
                else f"{name} révèle {shown} et arrête {arrest} ({kind_word}).")
    if kind == "bonus":
        colour = colour_word(data["colour"], language)
        of_colour = tr(f"cm_of_{data['colour']}", language)
        if data.get("seat") is None:
            return (f"Tie for the most {colour} points: nobody takes the {colour} bonus card." if en
                    else f"Égalité en {colour} : personne ne prend la carte bonus {of_colour}.")
        return (f"{name} has the most {colour} points and takes the {colour} bonus card (+{data['bonus']})." if en
                else f"{name} a le plus de points en {colour} et prend la carte bonus {of_colour} (+{data['bonus']}).")
    if kind == "end":
        scores = ", ".join(f"{players[s]} {_signed(t)}" for s, t in enumerate(data["scores"]))
        winners = data["winners"]
        label = ("Winner" if en else "Vainqueur") + ("s" if len(winners) > 1 else "")
        names = join_names((players[s] for s in winners), language)
        return (f"Game over. Scores: {scores}. {label}: {names}." if en
                else f"Partie terminée. Scores : {scores}. {label} : {names}.")
    return event.text


def log_html(view: View, language: str = "en") -> str:
    """The seat's log, in `language`, as an ordered list numbered by step, on its own."""
    return render("fragment_log.html.j2", kind="commissario", language=language, title=tr("tt.log", language),
                  lines=log_lines(view.log, view.players, language, event_text))


# ---------------------------------------------------------------------------------------------- the table

def _banner(view: View, language: str) -> Banner:
    facts = view.facts
    names = display_names(view.players)
    if view.is_over:
        end = next((event for event in reversed(view.log) if event.kind == "end"), None)
        text = event_text(end, names, language) if end is not None else tr("cm_game_over", language)
        return Banner(text, "over")
    acting = acting_seats(view.current_player)
    who = join_names((names[s] for s in acting), language)
    key = f"cm_do_{facts.get('phase')}"
    if key in _BANNERS:
        what = tr(key, language).format(name=who)
    else:
        what = f"{tr('tt.waiting', language)}{colon(language)}{who}"
    if view.seat is not None and view.seat in acting:
        return Banner(tr("cm_your_turn", language).format(what=what), "mine")
    return Banner(what, "turn")


_BANNERS = {f"cm_do_{phase}" for phase in ("release", "pick", "first_reveal", "second_reveal")}


def _phase(facts: Mapping[str, Any], language: str) -> str:
    """The phase in words (a phase this module does not know yet: the engine's name for it)."""
    phase = str(facts.get("phase"))
    return word(f"cm_phase_{phase}", language, phase)


def _families(facts: Mapping[str, Any], language: str) -> list[dict[str, Any]]:
    """One column per colour family: bandits (next to be arrested first) above, innocents below."""
    table, bonus_values = facts.get("table", {}), facts.get("bonus_values", {})
    families = []
    for colour in COLOURS:
        values = list(table.get(colour, []))
        bonus = bonus_values.get(colour, 0)
        families.append({
            "colour": colour, "name": colour_word(colour, language),
            "bonus": tr("cm_bonus", language).format(value=bonus) if bonus else tr("cm_no_bonus", language),
            "bandits": [_card(f"{colour}{v:+d}", language) for v in values if v > 0],
            "innocents": [_card(f"{colour}{v:+d}", language) for v in values if v < 0]})
    return families


def _seats(view: View, language: str, picks: Mapping[int, Sequence[str]]) -> list[Any]:
    """Every seat's public status (handcuffs, turn position, release, pick made, reveals), its points and
    arrests; and the pick itself on the viewer's own tile (the teacher's: every tile)."""
    facts = view.facts
    acting = acting_seats(view.current_player)
    order = facts.get("order") or []
    releases = facts.get("releases", {})
    revealed = facts.get("revealed", {})
    boxes = []
    for seat in range(len(view.players)):
        tags = []
        if seat in acting:
            tags.append(Tag("\u25b6 " + _phase(facts, language), "turn"))
        if seat == facts.get("handcuffs"):
            tags.append(Tag(tr("cm_handcuffs", language), "role"))
        if seat in order:
            tags.append(Tag(tr("cm_bars", language).format(position=order.index(seat) + 1), "info"))
        if seat in releases:
            card = releases[seat]
            tags.append(Tag(tr("cm_released", language).format(card=card_word(card, language)) if card
                            else tr("cm_released_none", language), "warn"))
        if seat in picks:
            tags.append(Tag(pick_word(picks[seat], language), "secret"))
        elif seat in facts.get("picked", []):
            tags.append(Tag(tr("cm_has_chosen", language), "info"))
        shown = revealed.get(seat)
        if shown:
            colours = f" {tr('cm_then', language)} ".join(colour_word(c, language) for c in shown)
            tags.append(Tag(tr("cm_revealed", language).format(colours=colours), "info"))
        arrested = facts.get("arrested", [[]] * len(view.players))[seat]
        score = facts.get("scores", [0] * len(view.players))[seat]
        boxes.append(seat_box(view.players, seat, view.seat, acting, tags=tuple(tags),
                              lines=(_points(score, language),),
                              cards=tuple(_card(card, language, small=True) for card in arrested)))
    return boxes


def _own_pick(view: View, language: str) -> dict[str, Any] | None:
    facts = view.facts
    if view.seat is None or not facts.get("my_pick"):
        return None
    left = list(facts["my_pick"])
    for colour in facts.get("revealed", {}).get(view.seat, []):
        if colour in left:
            left.remove(colour)
    lines = [f"{tr('cm_your_pick', language)}{colon(language)}{pick_word(facts['my_pick'], language)}"]
    if left:
        lines.append(tr("cm_still_hidden", language).format(
            colours=", ".join(colour_word(c, language) for c in left)))
    return {"lines": lines}


def _context(view: View, language: str, log: bool, *, teacher: bool = False,
             picks: Mapping[int, Sequence[str]] | None = None) -> dict[str, Any]:
    facts = view.facts
    context_page = page("commissario", tr("cm_title", language), view.seat, view.players, language,
                        teacher=teacher)
    context_page.banner = _banner(view, language)
    context_page.facts = [(tr("cm_round", language), str(facts.get("round"))),
                          (tr("cm_phase", language), _phase(facts, language)),
                          (tr("cm_pile", language), tr("cm_characters", language).format(count=facts.get("pile_size")))]
    if log:
        context_page.log = log_lines(view.log, view.players, language, event_text)
    own = {view.seat: facts["my_pick"]} if view.seat is not None and facts.get("my_pick") else {}
    return {"page": context_page, "t": lambda key: tr(key, language), "you": tr("tt.you", language),
            "families": _families(facts, language), "seats": _seats(view, language, {**own, **(picks or {})}),
            "own": _own_pick(view, language), "teacher": None}


def view_html(view: View, language: str = "en", log: bool = True) -> str:
    """One seat's (or a spectator's) page: whose turn, the layout, every seat's public status, its own pick, log."""
    return render("commissario/table.html.j2", **_context(view, language, log))


def state_html(state: GameState[Any], language: str = "en", log: bool = True) -> str:
    """The teacher's table: the spectator's page plus every secret pick (each read from that seat's view)
    and the next cards of the pile."""
    picks = {seat: state.view(seat).facts["my_pick"] for seat in range(len(state.players))}
    picks = {seat: pick for seat, pick in picks.items() if pick}
    context = _context(state.view(None), language, False, teacher=True, picks=picks)
    if log:
        context["page"].log = log_lines(state.events, state.players, language, event_text)
    pile = [f"{colour}{value:+d}" for colour, value in getattr(state, "pile", [])]
    lines = [f"{short_name(state.players[seat])}{colon(language)}{pick_word(pick, language)}"
             for seat, pick in sorted(picks.items())]
    context["teacher"] = {"title": tr("cm_secret_picks", language), "lines": lines or [tr("cm_none_yet", language)],
                          "pile_title": tr("cm_pile_next", language),
                          "pile": [_card(card, language) for card in pile[:8]]}
    return render("commissario/table.html.j2", **context)


# ---------------------------------------------------------------------------------------------- the reveal

def _picks_by_round(view: View, language: str) -> tuple[list[str | Name], list[Row]]:
    """Every round's picks as the reveals showed them (all picks are revealed by the end of a round)."""
    shown: dict[int, dict[int, list[str]]] = {}
    current = 0
    for event in view.log:
        if event.kind == "layout":
            current = int(event.data["round"])
        elif event.kind == "reveal" and isinstance(event.data.get("seat"), int):
            shown.setdefault(current, {}).setdefault(event.data["seat"], []).append(event.data["colour"])
    head: list[str | Name] = [tr("cm_round", language), *(Name(name) for name in view.players)]
    rows = []
    for number, seats in sorted(shown.items()):
        cells = tuple(pick_word(seats[seat], language) if len(seats.get(seat, [])) == 2
                      else " + ".join(colour_word(c, language) for c in seats.get(seat, [])) or "\u2014"
                      for seat in range(len(view.players)))
        rows.append(Row((str(number), *cells)))
    return head, rows


def reveal_html(subject: GameState[Any] | View, language: str = "en") -> str:
    """The end of the game for everyone: each player's points per colour with the bonus cards won, the total,
    every round's picks, the winners and why. Built from the public view of the finished game (every pick is
    revealed by then); refused before the end."""
    view = subject if isinstance(subject, View) else subject.view(None)
    if not view.is_over:
        raise ValueError("The reveal is for the end of the game: this game is not over yet.")
    facts, players = view.facts, view.players
    names = display_names(players)
    bonuses, bonus_values = facts.get("bonuses", {}), facts.get("bonus_values", {})
    scores = facts["scores"]
    best = max(scores)
    winners = [seat for seat in range(len(players))
               if any(event.kind == "end" and seat in event.data.get("winners", ()) for event in view.log)]
    rows = []
    for seat in range(len(players)):
        cells: list[Any] = []
        for colour in COLOURS:
            points = facts["colour_scores"][seat].get(colour, 0)
            text = _signed(points, plus=True)
            if bonuses.get(colour) == seat:
                text += f"  ({tr('cm_you_won_bonus', language).format(bonus=bonus_values.get(colour, 0))})"
                cells.append(Cell(text, "yes"))
            else:
                cells.append(text)
        cells.append(Cell(_signed(scores[seat]), "yes" if seat in winners else ""))
        rows.append(Row(tuple(cells), head=players[seat], kind="good" if seat in winners else ""))
    bonus_cells = []
    for colour in COLOURS:
        value = bonus_values.get(colour, 0)
        if not value:
            bonus_cells.append(tr("cm_no_bonus", language))
        else:
            holder = bonuses.get(colour)
            bonus_cells.append(f"+{value} \u2192 {names[holder]}" if holder is not None
                               else f"+{value} \u2192 {tr('cm_tie', language)}")
    rows.append(Row((*bonus_cells, ""), head=tr("cm_bonus_row", language)))
    head = (tr("tt.seat", language), *(Swatch(colour, colour_word(colour, language)) for colour in COLOURS),
            tr("cm_total", language))
    tie_break = getattr(view.rules, "tie_break", "shared") == "fewest_innocents" and \
        sum(score == best for score in scores) > 1
    why = tr("cm_why_tie_break" if tie_break else "cm_why", language).format(
        names=join_names((names[s] for s in winners), language), points=best)
    end = next((event for event in reversed(view.log) if event.kind == "end"), None)
    picks_head, picks = _picks_by_round(view, language)
    return render("commissario/reveal.html.j2", kind="commissario-reveal", language=language,
                  title=f"{tr('cm_title', language)} \u2014 {tr('tt.reveal', language)}",
                  banner=event_text(end, names, language) if end is not None else tr("cm_game_over", language),
                  why=why, scores_title=tr("cm_score_table", language), head=head, rows=rows,
                  picks_title=tr("cm_picks_by_round", language), picks_head=picks_head, picks=picks)


# ---------------------------------------------------------------------------------------------- move buttons

def move_label(view: View, path: Sequence[str], language: str = "en") -> str:
    """The button for the last word of `path`: 'Release a prisoner', 'red \u22123', 'the 2x card (twice
    red)', 'red commissaire'... in `language`."""
    verb, word, depth = path[0], path[-1], len(path)
    if depth == 1:
        key = f"cm_m_{verb}"
        return tr(key, language) if verb in ("release", "pick", "reveal") else word
    if verb == "release" and depth == 2:
        return tr("cm_m_release_none", language) if word == "none" else card_word(word, language)
    if verb == "pick" and word == "2x":
        return tr("cm_m_double", language).format(colour=colour_word(path[1], language))
    if verb == "pick" and word in COLOURS:
        return colour_word(word, language)
    if verb == "reveal" and word in COLOURS:
        return tr("cm_m_reveal_colour", language).format(colour=colour_word(word, language))
    return word


__all__ = ["card_word", "colour_word", "event_text", "log_html", "move_label", "pick_word", "reveal_html", "state_html", "view_html"]
