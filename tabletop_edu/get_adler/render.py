"""HTML for Get Adler, as pure functions over templates, in English or French.

`view_html` is built from a View alone, so a seat's page can hold nothing that seat may not know (not even in
hidden elements); `state_html` is the teacher's table (every character and hand, read from each seat's view,
and the next cards of the deck); `reveal_html` is the end of the game from the public view once it is over:
every character, every answer against the answering seat's true traits (Adler's lies marked), the winner and
why. Every card, character, trait, colour and word goes through `tabletop_edu.i18n.tr`, so a class can play in
French (the rules came to us in French). The log is worded here from each event's data as the seat saw it
(its redacted form for the others); an event this module does not know keeps the engine's English text.

Projector-friendly: large cards, the players' aid sheet (who has which hat, hair, eyes, coat), and a banner
saying whose turn it is and what they must do, the pending question in full.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import Event, GameState, View
from ..i18n import tr
from ..templates import (Banner, Card, Name, Row, Swatch, Tag, acting_seats, colon, display_names, elide,
                         join_names, log_lines, page, render, seat_box, short_name, word)
from .rules import CARDS, TRAIT_TABLE, TRAITS, cast_for
from .words import FRENCH_PLURAL

# ---------------------------------------------------------------------------------------------- words

def card_name(card: str, language: str = "en") -> str:
    """A card's name as printed on it ('TOP-SECRET DOCUMENT', 'bombe')."""
    return tr(f"card.{card}", language)


def a_card(card: str, language: str = "en") -> str:
    """A card in a sentence, with its article ('a bomb', 'une bombe')."""
    return tr(f"a_card.{card}", language)


def trait_name(trait: str, language: str = "en") -> str:
    return tr(f"trait.{trait}", language)


def colour_name(colour: str, language: str = "en") -> str:
    return tr(f"colour.{colour}", language)


def trait_colour(trait: str, colour: str, language: str = "en") -> str:
    """The colour as it reads for the trait: French agrees ('noirs' for hair and eyes)."""
    if language == "fr" and trait in ("hair", "eyes"):
        return FRENCH_PLURAL.get(colour, colour_name(colour, language))
    return colour_name(colour, language)


def character_name(character: str, language: str = "en") -> str:
    return tr(f"character.{character}", language)


def trait_phrase(trait: str, colour: str, language: str = "en") -> str:
    """'a black hat', 'black hair', 'blue eyes'; 'un chapeau noir', 'les cheveux noirs', 'les yeux bleus'."""
    word = trait_colour(trait, colour, language)
    if language == "fr":
        return f"les {trait_name(trait, 'fr')} {word}" if trait in ("hair", "eyes") else \
            f"un {trait_name(trait, 'fr')} {word}"
    return f"{colour} {trait}" if trait in ("hair", "eyes") else f"a {colour} {trait}"


def question_text(trait: str, colour: str, language: str = "en") -> str:
    """'Do you have a black hat?' / 'As-tu les yeux verts ?'"""
    phrase = trait_phrase(trait, colour, language)
    return f"As-tu {phrase} ?" if language == "fr" else f"Do you have {phrase}?"


def _short_trait(trait: str, colour: str, language: str) -> str:
    """'black hat', 'chapeau noir', 'cheveux noirs' (a button, a table cell)."""
    if language == "fr":
        return f"{trait_name(trait, 'fr')} {trait_colour(trait, colour, 'fr')}"
    return f"{colour} {trait}"


def _cards_list(cards: Sequence[str], language: str) -> str:
    return ", ".join(card_name(card, language) for card in cards) or tr("adler.none", language)


def _count_cards(count: int, language: str) -> str:
    if count == 0:
        return tr("adler.no_card", language)
    return tr("adler.card_count", language) if count == 1 else tr("adler.cards_count", language).format(count=count)


# ---------------------------------------------------------------------------------------------- log lines

def event_text(event: Event, players: Sequence[str], language: str = "en") -> str:
    """One log line in `language`, from the event as the seat saw it (its data is already redacted).

    An event kind (or shape) this function does not know keeps the engine's English text rather than vanish."""
    try:
        return _event_text(event, players, language)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return event.text


def _event_text(event: Event, players: Sequence[str], language: str) -> str:  # noqa: C901 - one case per kind
    d: Mapping[str, Any] = event.data
    en, kind = language == "en", event.kind

    def name(key: str) -> str:
        return players[d[key]]

    if kind == "character":
        if "character" in d:
            return f"{name('seat')} {'is' if en else 'est'} {character_name(d['character'], language)}."
        return (f"{name('seat')} gets a secret character." if en
                else f"{name('seat')} reçoit un personnage secret.")
    if kind == "deal":
        if "cards" in d:
            cards = _cards_list(d["cards"], language)
            return f"{name('seat')} is dealt: {cards}." if en else f"{name('seat')} reçoit : {cards}."
        count = _count_cards(int(d["count"]), language)
        return f"{name('seat')} is dealt {count}." if en else f"{name('seat')} reçoit {count}."
    if kind == "reshuffle":
        return (f"The discard pile is shuffled into a new deck of {d['size']} cards." if en
                else f"La défausse est mélangée : nouvelle pioche de {d['size']} cartes.")
    if kind == "draw":
        card = a_card(d["card"], language) if "card" in d else ("a card" if en else "une carte")
        return f"{name('seat')} draws {card}." if en else f"{name('seat')} pioche {card}."
    if kind == "skip":
        return f"{name('seat')} skips this turn." if en else f"{name('seat')} passe son tour."
    if kind == "discard":
        card = a_card(d["card"], language)
        return f"{name('seat')} discards {card}." if en else f"{name('seat')} défausse {card}."
    if kind == "ask":
        question = question_text(d["trait"], d["colour"], language)
        return (f"{name('seat')} asks {name('target')}: \u201c{question}\u201d" if en
                else f"{name('seat')} demande à {name('target')} : « {question} »")
    if kind == "answer":
        answer = tr("adler.yes" if d["answer"] else "adler.no", language)
        about = _short_trait(d["trait"], d["colour"], language)
        return (f"{name('seat')} answers \u201c{answer}\u201d ({about})." if en
                else f"{name('seat')} répond « {answer} » ({about}).")
    if kind == "magnify":
        if "cards" in d:
            cards = _cards_list(d["cards"], language)
            return (f"{name('seat')} looks at {name('target')}'s hand: {cards}." if en
                    else f"{name('seat')} regarde la main {elide('de', name('target'))} : {cards}.")
        return (f"{name('seat')} looks at {name('target')}'s hand with a magnifying glass." if en
                else f"{name('seat')} regarde la main {elide('de', name('target'))} avec une loupe.")
    if kind == "binoculars":
        if "taken" in d and "given" in d:
            taken, given = a_card(d["taken"], language), a_card(d["given"], language)
            return (f"{name('seat')} takes {taken} from {name('target')} with binoculars and gives {given}." if en
                    else f"{name('seat')} prend {taken} à {name('target')} avec les jumelles et lui donne {given}.")
        if "taken" in d:  # binoculars in two steps: the take, then `give`
            taken = a_card(d["taken"], language)
            return (f"{name('seat')} takes {taken} from {name('target')} with binoculars." if en
                    else f"{name('seat')} prend {taken} à {name('target')} avec les jumelles.")
        return (f"{name('seat')} uses binoculars on {name('target')} and takes a card at random." if en
                else f"{name('seat')} utilise les jumelles sur {name('target')} et lui prend une carte au hasard.")
    if kind == "give":
        if "card" in d:
            card = a_card(d["card"], language)
            return (f"{name('seat')} gives {card} to {name('target')}." if en
                    else f"{name('seat')} donne {card} à {name('target')}.")
        return (f"{name('seat')} gives {name('target')} a card in return." if en
                else f"{name('seat')} donne une carte en retour à {name('target')}.")
    if kind == "binoculars_given":
        taken, given = a_card(d["taken"], language), a_card(d["given"], language)
        return (f"{name('seat')} took {taken} from you and gave you {given}." if en
                else f"{name('seat')} vous a pris {taken} et vous a donné {given}.")
    if kind == "arrest":
        if d["right"]:
            return (f"{name('seat')} arrests {name('target')}: it is Adler! Everyone shows their character." if en
                    else f"{name('seat')} arrête {name('target')} : c'est Adler ! Tout le monde montre son "
                         "personnage.")
        return (f"{name('seat')} arrests {name('target')}: a wrong arrest! Both skip their next turn." if en
                else f"{name('seat')} arrête {name('target')} : erreur ! Les deux passent leur prochain tour.")
    if kind == "reveal":
        verb = "is" if en else "est"
        listing = ", ".join(f"{players[s]} {verb} {character_name(c, language)}" for s, c in enumerate(d["characters"]))
        return f"Characters revealed: {listing}." if en else f"Personnages révélés : {listing}."
    if kind == "respond":
        role, card = d.get("role"), a_card(d["card"], language)
        if role == "stop":
            return (f"{name('seat')} stops the escape with {card}: Adler must answer again." if en
                    else f"{name('seat')} arrête la fuite avec {card} : Adler doit répondre à nouveau.")
        if role == "shoot":
            return f"{name('seat')} shoots back with a pistol." if en else f"{name('seat')} riposte au revolver."
        return f"{name('seat')} (Adler) plays {card}." if en else f"{name('seat')} (Adler) joue {card}."
    if kind == "pass":
        return f"{name('seat')} does not stop the escape." if en else f"{name('seat')} n'arrête pas la fuite."
    if kind == "shot":
        if en:
            return f"{name('seat')} loses the duel and " + ("is out of the game." if d["out"] else "skips a turn.")
        return f"{name('seat')} perd le duel et " + ("quitte la partie." if d["out"] else "passe un tour.")
    if kind == "escape":
        how = _ESCAPES[language][d["how"]]
        return f"{name('seat')} (Adler) escapes: {how}." if en else f"{name('seat')} (Adler) s'échappe : {how}."
    if kind == "end":
        return _end_text(d, players, language)
    return event.text


_ESCAPES = {
    "en": {"unstoppable": "no hero can stop the escape", "disguise": "in disguise",
           "bomb": "a bomb stuns every hero", "escape": "nobody stops the escape", "duel": "by winning the duel"},
    "fr": {"unstoppable": "aucun héros ne peut arrêter la fuite", "disguise": "grâce au déguisement",
           "bomb": "une bombe étourdit tous les héros", "escape": "personne n'arrête la fuite",
           "duel": "en gagnant le duel"},
}


def _end_text(d: Mapping[str, Any], players: Sequence[str], language: str) -> str:
    en = language == "en"
    adler = players[d["adler"]]
    winner = tr("adler.won_adler" if d["winner"] == "adler" else "adler.won_heroes", language)
    if "documents" in d:
        count = int(d["documents"])
        if en:
            documents = ("no top-secret document" if count == 0 else
                         f"{count} top-secret document" + ("s" if count > 1 else ""))
            return f"The last hour ends. {adler} was Adler and holds {documents}. {winner}"
        documents = ("aucun document top-secret" if count == 0 else
                     f"{count} document" + ("s" if count > 1 else "") + " top-secret")
        verb = "ne détient" if count == 0 else "détient"
        return f"La dernière heure s'achève. {adler} était Adler et {verb} {documents}. {winner}"
    if d.get("how") == "surrender":
        return f"{adler} (Adler) surrenders. {winner}" if en else f"{adler} (Adler) se rend. {winner}"
    return (f"{adler} (Adler) cannot shoot back and is taken down. {winner}" if en
            else f"{adler} (Adler) ne peut pas riposter. {winner}")


def log_html(events: Sequence[Event], players: Sequence[str], language: str = "en", last: int | None = None) -> str:
    """The log (pass the events as the seat saw them), each line worded in `language`; `last` keeps the end."""
    lines = log_lines(events, players, language, event_text)
    return render("fragment_log.html.j2", kind="adler", language=language, title=tr("tt.log", language),
                  lines=lines if last is None else lines[-last:])


# ---------------------------------------------------------------------------------------------- the table

def skip_reason(facts: Mapping[str, Any], seat: int) -> str:
    """Why `seat` skips its turn now: its next reason in the facts (a bomb, a wrong arrest, a lost duel), or
    "no_cards" when it skips for want of a card (R3.4)."""
    reasons = facts.get("skip_reasons") or []
    return reasons[seat][0] if seat < len(reasons) and reasons[seat] else "no_cards"


def _banner(view: View, facts: Mapping[str, Any], language: str) -> Banner:
    names = display_names(view.players)
    if view.is_over or facts["winner"]:
        end = next((event for event in reversed(view.log) if event.kind == "end"), None)
        text = event_text(end, names, language) if end is not None else \
            tr("adler.won_adler" if facts["winner"] == "adler" else "adler.won_heroes", language)
        return Banner(f"{tr('tt.game_over', language)}. {text}", "over")
    acting = acting_seats(view.current_player)
    who = join_names((names[s] for s in acting), language)
    phase = facts["phase"]
    confrontation = facts.get("confrontation") or {}
    accuser = confrontation.get("accuser")
    if phase == "answer" and facts.get("question"):
        asker, _, trait, colour = facts["question"]
        what = tr("adler.do_answer", language).format(name=who, asker=names[asker],
                                                      question=question_text(trait, colour, language))
    elif phase == "skip" and acting:
        what = tr(f"adler.do_skip.{skip_reason(facts, acting[0])}", language).format(name=who)
    elif f"adler.do_{phase}" in _BANNERS:
        what = tr(f"adler.do_{phase}", language).format(
            name=who, accuser=names[accuser] if isinstance(accuser, int) else "?")
    else:
        what = f"{tr('tt.waiting', language)}{colon(language)}{who}"
    if view.seat is not None and view.seat in acting:
        return Banner(tr("adler.your_turn", language).format(what=what), "mine")
    return Banner(what, "turn")


_BANNERS = {f"adler.do_{phase}" for phase in ("turn", "skip", "confront", "escape", "duel")}


def _facts_line(view: View, facts: Mapping[str, Any], language: str) -> list[tuple[str, str]]:
    rules = view.rules
    hours = getattr(rules, "hours", 7)
    line = [(tr("adler.hour", language), tr("adler.hour_of", language).format(hour=facts["hour"], hours=hours)),
            (tr("adler.deck", language), _count_cards(int(facts["deck_size"]), language))]
    first_arrest = getattr(rules, "first_arrest_hour", None)
    if first_arrest is not None and facts["hour"] < first_arrest and not view.is_over:
        line.append((tr("adler.arrests_from", language), str(first_arrest)))
    return line


def _seats(view: View, facts: Mapping[str, Any], language: str,
           characters: Mapping[int, str], hands: Mapping[int, Sequence[str]]) -> list[Any]:
    """Every seat: its hand size, its public status, the cards the viewer knows it holds, and (on the
    viewer's own tile or the teacher's) its character and hand."""
    acting = acting_seats(view.current_player)
    revealed = {int(k): v for k, v in (facts.get("revealed") or {}).items()}
    known = {int(k): v for k, v in (facts.get("known_cards") or {}).items()}
    boxes = []
    for seat in range(len(view.players)):
        tags = []
        if seat in acting:
            label = tr(f"adler.skip.{skip_reason(facts, seat)}", language) if facts["phase"] == "skip" else \
                word("adler.phase." + facts["phase"], language, facts["phase"])
            tags.append(Tag("\u25b6 " + label, "turn"))
        if seat in revealed:
            tags.append(Tag(character_name(revealed[seat], language), "role" if revealed[seat] != "Adler" else "bad"))
        elif seat in characters:
            tags.append(Tag(character_name(characters[seat], language), "secret"))
        if seat in facts["out"]:
            tags.append(Tag(tr("adler.out", language), "bad"))
        if facts["skips"][seat]:
            tags.append(Tag(tr("adler.skips", language).format(count=facts["skips"][seat]), "warn"))
        if seat in facts["not_adler"]:
            tags.append(Tag(tr("adler.not_adler", language), "good"))
        lines = [_count_cards(int(facts["hand_sizes"][seat]), language)]
        cards: tuple[Card, ...] = ()
        if seat in hands:
            cards = tuple(_hand(hands[seat], language))
        elif seat in known:
            lines.append(f"{tr('adler.known_cards', language)}{colon(language).rstrip()}")
            cards = tuple(_hand(known[seat], language))
        boxes.append(seat_box(view.players, seat, view.seat, acting, tags=tuple(tags), lines=tuple(lines),
                              cards=cards, out=seat in facts["out"]))
    return boxes


def _answers(players: Sequence[str], answers: Sequence[Sequence[Any]], language: str) -> list[tuple[str, Tag]]:
    """Every answered question, as a line and its answer: “Bob asked Chloé: Do you have green eyes?” yes."""
    names = display_names(players)
    lines = []
    for asker, target, trait, colour, yes in answers:
        line = f"{names[asker]} \u2192 {names[target]}{colon(language)}{question_text(trait, colour, language)}"
        lines.append((line, Tag(tr("adler.yes" if yes else "adler.no", language), "good" if yes else "info")))
    return lines


def trait_rows(players: int | None, language: str) -> tuple[tuple[str, ...], list[Row]]:
    """The players' aid sheet: each character in play (every character if `players` is None) and its traits."""
    cast = cast_for(players) if players is not None else tuple(TRAIT_TABLE)
    head = (tr("adler.character", language), *(trait_name(t, language) for t in TRAITS))
    rows = [Row(tuple(Swatch(TRAIT_TABLE[c][t], trait_colour(t, TRAIT_TABLE[c][t], language)) for t in TRAITS),
                head=character_name(c, language)) for c in cast]
    return head, rows


def trait_table_html(language: str = "en", players: int | None = None) -> str:
    """The players' aid sheet on its own: every character's trait colours (public)."""
    head, rows = trait_rows(players, language)
    return render("get_adler/traits.html.j2", kind="adler-traits", language=language,
                  title=tr("adler.traits", language), head=head, rows=rows)


def _own(view: View, facts: Mapping[str, Any], language: str) -> dict[str, Any] | None:
    if view.seat is None:
        return None
    character = str(facts["my_character"])
    intro = tr("adler.you_are_adler", language) if character == "Adler" else \
        tr("adler.you_are", language).format(character=character_name(character, language))
    traits = [f"{trait_name(t, language)}{colon(language)}{trait_colour(t, c, language)}"
              for t, c in (facts.get("my_traits") or {}).items()]
    return {"intro": intro, "traits_title": tr("adler.your_traits", language), "traits": traits,
            "hand_title": tr("adler.your_hand", language),
            "hand": _hand(facts["hand"], language)}


def _hand(cards: Sequence[str], language: str) -> list[Card]:
    """A hand as tiles, equal cards once with their count ('TOP-SECRET DOCUMENT \u00d73')."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return [Card(card_name(card, language), card, f"\u00d7{count}" if count > 1 else "")
            for card, count in counts.items()]


def _discards(facts: Mapping[str, Any], language: str) -> list[Card]:
    return [Card(card_name(card, language), card, f"\u00d7{count}")
            for card, count in facts.get("discards", {}).items() if count]


def _context(view: View, language: str, log: bool, *, teacher: bool = False,
             characters: Mapping[int, str] | None = None, hands: Mapping[int, Sequence[str]] | None = None
             ) -> dict[str, Any]:
    facts = view.facts
    context_page = page("adler", tr("adler.title", language), view.seat, view.players, language, teacher=teacher)
    context_page.banner = _banner(view, facts, language)
    context_page.facts = _facts_line(view, facts, language)
    if log:
        context_page.log = log_lines(view.log, view.players, language, event_text)
    own_character = {view.seat: facts["my_character"]} if view.seat is not None else {}
    traits_head, traits = trait_rows(len(view.players), language)
    return {"page": context_page, "t": lambda key: tr(key, language), "you": tr("tt.you", language),
            "own": _own(view, facts, language),
            "seats": _seats(view, facts, language, {**own_character, **(characters or {})}, hands or {}),
            "answers": _answers(view.players, facts["answers"], language),
            "traits_head": traits_head, "traits": traits, "discards": _discards(facts, language),
            "teacher": None}


def view_html(view: View, language: str = "en", log: bool = True) -> str:
    """One seat's table (or a spectator's) from its View only, in `language`."""
    return render("get_adler/table.html.j2", **_context(view, language, log))


def state_html(state: GameState[Any], language: str = "en", log: bool = True) -> str:
    """The teacher's table: every character and every hand (each read from that seat's view), the next
    cards of the deck, and the whole log."""
    views = [state.view(seat) for seat in range(len(state.players))]
    characters = {seat: view.facts["my_character"] for seat, view in enumerate(views)}
    hands = {seat: view.facts["hand"] for seat, view in enumerate(views)}
    context = _context(state.view(None), language, False, teacher=True, characters=characters, hands=hands)
    if log:
        context["page"].log = log_lines(state.events, state.players, language, event_text)
    deck = list(getattr(state, "deck", []))
    context["teacher"] = {"title": tr("adler.next", language),
                          "cards": [Card(card_name(card, language), card) for card in reversed(deck[-3:])]}
    return render("get_adler/table.html.j2", **context)


# ---------------------------------------------------------------------------------------------- the reveal

def reveal_html(subject: GameState[Any] | View, language: str = "en") -> str:
    """The end of the game for everyone: who was who, every answer against the answering seat's true traits
    (Adler's lies marked), the winner and why. Built from the public view of the finished game (every
    character is shown at the end); refused before the end."""
    view = subject if isinstance(subject, View) else subject.view(None)
    if not view.is_over:
        raise ValueError("The reveal is for the end of the game: this game is not over yet.")
    facts = view.facts
    names = display_names(view.players)
    characters = {int(seat): character for seat, character in facts["revealed"].items()}
    liars: set[int] = set()
    rows = []
    for asker, target, trait, colour, yes in facts["answers"]:
        truth = TRAIT_TABLE[characters[target]][trait]
        honest = (truth == colour) == bool(yes)
        if not honest:
            liars.add(target)
        rows.append(Row((Name(view.players[target]), question_text(trait, colour, language),
                         tr("adler.yes" if yes else "adler.no", language),
                         _short_trait(trait, truth, language),
                         Tag("\u2714 " + tr("tt.true", language), "good") if honest
                         else Tag("\u2718 " + tr("tt.lie", language), "bad")),
                        head=view.players[asker], kind="" if honest else "bad"))
    who = []
    for seat in range(len(view.players)):
        character = characters[seat]
        is_adler = character == "Adler"
        won = (facts["winner"] == "adler") == is_adler
        traits = ", ".join(_short_trait(t, TRAIT_TABLE[character][t], language) for t in TRAITS)
        who.append(Row((Tag(character_name(character, language), "bad" if is_adler else "role"),
                        tr("adler.adler", language) if is_adler else tr("adler.hero", language), traits,
                        Tag("\u2718 " + tr("tt.liar", language), "bad") if seat in liars else "",
                        Tag(tr("tt.wins", language), "good") if won else Tag(tr("tt.loses", language), "info")),
                       head=view.players[seat], kind="good" if won else ""))
    end = next((event for event in reversed(view.log) if event.kind == "end"), None)
    banner = event_text(end, names, language) if end is not None else \
        tr("adler.won_adler" if facts["winner"] == "adler" else "adler.won_heroes", language)
    return render("get_adler/reveal.html.j2", kind="adler-reveal", language=language,
                  title=f"{tr('adler.title', language)} \u2014 {tr('tt.reveal', language)}", banner=banner,
                  who_title=tr("adler.who_was_who", language),
                  who_head=(tr("tt.seat", language), tr("adler.character", language), tr("adler.side", language),
                            tr("adler.truth", language), tr("adler.answers_column", language),
                            tr("tt.result", language)),
                  who=who, answers_title=tr("adler.answers_truth", language),
                  answers_head=(tr("adler.asker", language), tr("adler.target", language),
                                tr("adler.question", language), tr("adler.answer", language),
                                tr("adler.truth", language), ""),
                  answers=rows, no_answers=tr("adler.no_answers", language))


# ---------------------------------------------------------------------------------------------- move buttons

_SEAT_VERBS = {"ask", "magnify", "binoculars", "arrest"}
_CARD_VERBS = {"discard", "respond", "give"}


def move_label(view: View, path: Sequence[str], language: str = "en") -> str:
    """The button for the last word of `path`: verbs become sentences (the answer names the question), seats
    become names, traits and colours words of the language, cards their printed names."""
    verb, word, depth = path[0], path[-1], len(path)
    if depth == 1:
        if verb == "answer":
            question = view.facts.get("question")
            if question:
                return tr("adler.m_answer", language).format(question=question_text(question[2], question[3],
                                                                                      language))
            return tr("adler.m_answer_plain", language)
        if verb == "pass" and view.facts.get("phase") in ("escape", "duel"):
            return tr(f"adler.m_pass_{view.facts['phase']}", language)
        key = f"adler.m_{verb}"
        return tr(key, language) if key in _MOVE_KEYS else word
    if verb in _SEAT_VERBS and depth == 2 and word.isdigit() and int(word) < len(view.players):
        return short_name(view.players[int(word)])
    if verb == "ask" and depth == 3:
        return trait_name(word, language)
    if verb == "ask" and depth == 4:
        return _short_trait(path[2], word, language)
    if verb == "answer" and depth == 2:
        return tr(f"adler.m_{word}", language) if word in ("yes", "no") else word
    if verb == "binoculars" and word == "give":
        return tr("adler.m_give", language)
    if (verb in _CARD_VERBS and depth == 2 or verb == "binoculars" and depth == 4) and word in CARDS:
        return card_name(word, language)
    return word


_MOVE_KEYS = {f"adler.m_{verb}" for verb in ("discard", "ask", "magnify", "binoculars", "give", "arrest",
                                             "respond", "surrender", "pass", "skip")}


__all__ = ["CARDS", "a_card", "card_name", "character_name", "colour_name", "event_text", "log_html",
           "move_label", "question_text", "reveal_html", "state_html", "trait_name", "trait_phrase",
           "trait_table_html", "view_html"]
