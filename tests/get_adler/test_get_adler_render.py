"""Rendering: a seat's HTML shows its own secrets and none of the other seats' secrets; the aid sheet, the
question being answered, the reveal against the true traits, both languages."""

from __future__ import annotations

import random
import re
from html import escape
from html.parser import HTMLParser

import pytest
from markupsafe import escape as html_escape

from tabletop_edu.core import RandomBot, play_game, play_turn
from tabletop_edu.get_adler import TRAIT_TABLE, new_game
from tabletop_edu.get_adler.render import (character_name, event_text, question_text, reveal_html, state_html,
                                           trait_table_html, view_html)

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def own_line(character: str, language: str = "en") -> str:
    """The first line of a seat's "only you know" panel."""
    if character == "Adler":
        return "You are Adler, the double agent" if language == "en" else "Vous êtes Adler, l&#39;agent double"
    return f"You are {character}." if language == "en" else f"Vous êtes {character_name(character, 'fr')}."


class _Tiles(HTMLParser):
    """Collects the text inside each element marked `data-seat` (a seat's tile), words apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.seat: str | None = None
        self.depth = 0
        self.texts: dict[int, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += 1
        elif dict(attrs).get("data-seat") is not None:
            self.seat, self.depth = dict(attrs)["data-seat"], 1

    def handle_endtag(self, tag: str) -> None:
        self.depth = max(0, self.depth - 1)

    def handle_data(self, data: str) -> None:
        if self.depth and self.seat is not None:
            self.texts[int(self.seat)] = f"{self.texts.get(int(self.seat), '')} {data}"


def tiles(html: str) -> dict[int, str]:
    """The text of every seat's tile on the table (its name, tags and cards), by seat."""
    parser = _Tiles()
    parser.feed(re.sub(r"<style>.*?</style>", "", html, flags=re.S))
    return parser.texts


def tile(html: str, seat: int) -> str:
    return tiles(html)[seat]


def secrets_of(state, seat):
    """Strings that only `seat` may see: its character line and its private card events."""
    texts = [f"{state.players[seat]} is {state.characters[seat]}."]
    texts += [e.text for e in state.events if e.observers == frozenset({seat})]
    return texts


@pytest.mark.parametrize("players", [4, 6])
def test_view_html_holds_no_other_seat_secret(players):
    state = new_game(NAMES[:players], seed=7)
    rng = random.Random(1)
    for _ in range(60):
        if state.is_over:
            break
        play_turn(state, [RandomBot()] * players, rng)
        if not state.revealed and not state.is_over:  # at the end every character is public
            for seat in range(players):
                html = view_html(state.view(seat))
                on_tiles = tiles(html)
                seen = {event.text for event in state.view(seat).log}
                assert own_line(state.characters[seat]) in html
                for other in range(players):
                    if other != seat:
                        if state.characters[other] != state.characters[seat]:
                            assert own_line(state.characters[other]) not in html
                        assert state.characters[other] not in on_tiles[other].replace("not Adler", "")
                        for secret in secrets_of(state, other):
                            if secret not in seen:
                                assert escape(secret) not in html and html_escape(secret) not in html


def test_hand_of_other_seats_not_shown():
    state = new_game(NAMES[:4], seed=3)
    html = view_html(state.view(1))
    assert "Your hand" in html and set(tile(html, 0).split()) <= {"Ann", "\u25b6", "play", "a", "card", "8", "cards"}
    own = {"Bob", "you", "7", "cards", *state.characters[1].split()}
    assert set(tile(html, 1).split()) <= own  # a hand is shown once, in the own panel


def test_state_html_shows_everything_escaped():
    state = new_game(["<b>x</b>", "Bob", "Cy", "Dee"], seed=1)
    html = state_html(state)
    for seat, character in enumerate(state.characters):
        assert character in tile(html, seat)
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert "Next cards of the deck" in html and "Teacher&#39;s view: everything" in html


def test_the_aid_sheet_lists_the_traits_of_the_characters_in_play():
    state = new_game(NAMES[:4], seed=1)
    html = view_html(state.view(None))
    assert "Who has which traits (the aid sheet)" in html
    rows = re.findall(r'<th scope="row"><span class="tt-name" title="([^"]+)">', html)
    assert [row for row in rows if row in TRAIT_TABLE] == ["Adler", "Gold", "Sharpe", "Townsend"]
    assert "Kate Collins" not in html  # not in a game of four
    sheet = trait_table_html("fr", players=6)
    assert "cheveux" in sheet and "roux" in sheet and "Agent Tarassov" in sheet and "yeux" in sheet


# ---------------------------------------------------------------------------------------------- languages

def test_french_rendering_uses_french_names():
    state = new_game(NAMES[:4], seed=3)
    seat = 0
    html = view_html(state.view(seat), language="fr")
    english = view_html(state.view(seat), language="en")
    assert "Vous êtes" in html and "Votre main" in html and "Heure" in html and "1 sur 7" in html
    french_cards = {"document": "DOCUMENT TOP-SECRET", "question": "POINT D&#39;INTERROGATION", "magnify": "LOUPE",
                    "binoculars": "PAIRE DE JUMELLES", "arrest": "ARRESTATION", "escape": "s&#39;échapper",
                    "disguise": "déguisement", "bomb": "bombe", "pistol": "revolver"}
    for card in set(state.hands[seat]) & set(french_cards):
        assert french_cards[card] in html and french_cards[card] not in english
    assert "You are" in english and "Vous êtes" not in english
    omniscient = state_html(state, language="fr")
    assert "ARRESTATION" in omniscient or "LOUPE" in omniscient or "DOCUMENT TOP-SECRET" in omniscient


def test_french_trait_words_in_questions():
    state = new_game(NAMES[:4], seed=1)
    while "question" not in state.hands[state.current_player]:
        state.apply(f"discard {sorted(state.hands[state.current_player])[0]}")
    asker = state.current_player
    target = (asker + 1) % 4
    state.apply(f"ask {target} hat black")
    html = view_html(state.view(None), language="fr")
    assert f"{NAMES[target]} doit répondre à {NAMES[asker]} : « As-tu un chapeau noir ? »" in html
    english = view_html(state.view(None))
    assert f"{NAMES[target]} must answer {NAMES[asker]}: \u201cDo you have a black hat?\u201d" in english


@pytest.mark.parametrize(("trait", "colour", "english", "french"), [
    ("hat", "black", "Do you have a black hat?", "As-tu un chapeau noir ?"),
    ("hair", "black", "Do you have black hair?", "As-tu les cheveux noirs ?"),
    ("hair", "red", "Do you have red hair?", "As-tu les cheveux roux ?"),
    ("eyes", "brown", "Do you have brown eyes?", "As-tu les yeux marron ?"),
    ("eyes", "green", "Do you have green eyes?", "As-tu les yeux verts ?"),
    ("coat", "beige", "Do you have a beige coat?", "As-tu un manteau beige ?"),
])
def test_questions_in_correct_grammar(trait, colour, english, french):
    assert question_text(trait, colour, "en") == english and question_text(trait, colour, "fr") == french


def test_the_end_line_agrees_in_number():
    from tabletop_edu.core import Event

    names = NAMES[:4]
    one = Event(9, "end", "", data={"adler": 1, "documents": 1, "winner": "adler", "characters": []})
    none = Event(9, "end", "", data={"adler": 1, "documents": 0, "winner": "heroes", "characters": []})
    assert event_text(one, names, "en") == "The last hour ends. Bob was Adler and holds 1 top-secret document. " \
                                           "Adler wins."
    assert event_text(none, names, "en").endswith("holds no top-secret document. The heroes win.")
    assert event_text(none, names, "fr") == ("La dernière heure s'achève. Bob était Adler et ne détient aucun "
                                             "document top-secret. Les héros gagnent.")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("players", [4, 6])
def test_no_other_seat_secret_in_either_language(players, language):
    state = new_game(NAMES[:players], seed=11)
    rng = random.Random(2)
    for _ in range(40):
        if state.is_over or state.revealed:
            break
        play_turn(state, [RandomBot()] * players, rng)
        if state.revealed or state.is_over:  # every character is public now
            break
        for seat in range(players):
            html = view_html(state.view(seat), language=language)
            on_tiles = tiles(html)
            seen = {e.text for e in state.view(seat).log}
            for other in range(players):
                if other == seat:
                    continue
                character = state.characters[other]
                if character != state.characters[seat]:
                    assert character_name(character, language) not in on_tiles[other]
                    assert own_line(character, language) not in html
                for event in state.events:
                    if event.observers == frozenset({other}) and event.text not in seen:
                        secret = event_text(event, state.players, language)
                        assert html_escape(secret) not in html


# ---------------------------------------------------------------------------------------------- the reveal

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_reveal_shows_every_character_and_marks_every_lie(seed):
    state = new_game(NAMES[:5], seed=seed)
    play_game(state, [RandomBot()] * 5)
    for language in ("en", "fr"):
        html = reveal_html(state, language)
        lies = 0
        for asker, target, trait, colour, yes in state.answers:
            truth = TRAIT_TABLE[state.characters[target]][trait] == colour
            lies += truth != yes
        assert html.count("\u2718 LIE" if language == "en" else "\u2718 MENSONGE") == lies
        rows = re.findall(r'<th scope="row"><span class="tt-name" title="([^"]+)">.*?</th><td[^>]*>'
                          r'<span class="tt-tag tt-tag--(?:role|bad)">([^<]+)</span>', html)
        assert dict(rows) == {name: character_name(c, language) for name, c in zip(state.players, state.characters)}
        winner = "Adler wins." if language == "en" else "Adler gagne."
        assert (winner in html) == (state.winner == "adler")
    with pytest.raises(ValueError, match="not over"):
        reveal_html(new_game(4, seed=0))


def test_binoculars_in_two_steps_are_worded_for_the_two_players_and_for_the_others():
    from tabletop_edu.core import Event

    names = NAMES[:4]
    take = Event(5, "binoculars", "", actor=0, data={"seat": 0, "target": 2, "taken": "bomb"},
                 redacted="", redacted_data={"seat": 0, "target": 2}, observers=frozenset({0, 2}))
    give = Event(6, "give", "", actor=0, data={"seat": 0, "target": 2, "card": "pistol"},
                 redacted="", redacted_data={"seat": 0, "target": 2}, observers=frozenset({0, 2}))
    assert event_text(take, names, "en") == "Ann takes a bomb from Cy with binoculars."
    assert event_text(take, names, "fr") == "Ann prend une bombe à Cy avec les jumelles."
    assert event_text(take.seen_by(1), names, "fr") == \
        "Ann utilise les jumelles sur Cy et lui prend une carte au hasard."
    assert event_text(give, names, "en") == "Ann gives a pistol to Cy."
    assert event_text(give.seen_by(3), names, "en") == "Ann gives Cy a card in return."
    assert event_text(give.seen_by(3), names, "fr") == "Ann donne une carte en retour à Cy."


def test_a_plain_discard_reads_naturally_in_both_languages():
    """The seed's name for the plain card is « simple défausse »: « X défausse une simple défausse » said the
    card's name twice; the sentence names what the card is, and keeps the seed's word in brackets."""
    from tabletop_edu.core.events import Event

    event = Event(3, "discard", "", actor=0, data={"seat": 0, "card": "plain"})
    assert event_text(event, NAMES, "fr") == "Ann défausse une carte sans effet (simple défausse)."
    assert event_text(event, NAMES, "en") == "Ann discards a plain card."
