"""Rendering: a seat's HTML shows its own secrets and none of the other seats' secrets."""

from __future__ import annotations

import random

import pytest

from tabletop_edu.core import RandomBot, play_turn
from tabletop_edu.get_adler import new_game
from tabletop_edu.get_adler.render import state_html, view_html

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


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
        if not state.revealed:
            for seat in range(players):
                html = view_html(state.view(seat))
                assert f"You are <b>{state.characters[seat]}</b>" in html
                for other in range(players):
                    if other != seat:
                        assert f"You are <b>{state.characters[other]}</b>" not in html
                        for secret in secrets_of(state, other):
                            if not any(e.text == secret for e in state.view(seat).log):
                                assert secret.replace("'", "&#x27;") not in html


def test_hand_of_other_seats_not_shown():
    state = new_game(NAMES[:4], seed=3)
    html = view_html(state.view(1))
    hand0 = ", ".join(sorted(state.hands[0]))
    assert hand0 not in html and "Your hand" in html


def test_state_html_shows_everything_escaped():
    state = new_game(["<b>x</b>", "Bob", "Cy", "Dee"], seed=1)
    html = state_html(state)
    assert all(c in html for c in state.characters) and "<b>x</b>" not in html.replace("<b>Get", "")
    assert "&lt;b&gt;x&lt;/b&gt;" in html


# ---------------------------------------------------------------------------------------------- languages

from tabletop_edu.get_adler.render import character_name, event_text  # noqa: E402


def test_french_rendering_uses_french_names():
    state = new_game(NAMES[:4], seed=3)
    seat = 0
    html = view_html(state.view(seat), language="fr")
    english = view_html(state.view(seat), language="en")
    assert "Vous êtes" in html and "Votre main" in html and "Heure 1" in html
    french_cards = {"document": "DOCUMENT TOP-SECRET", "question": "POINT D&#x27;INTERROGATION", "magnify": "LOUPE",
                    "binoculars": "PAIRE DE JUMELLES", "arrest": "ARRESTATION", "escape": "s&#x27;échapper",
                    "disguise": "déguisement", "bomb": "bombe", "pistol": "revolver"}
    for card in set(state.hands[seat]) & set(french_cards):
        assert french_cards[card] in html and french_cards[card] not in english
    assert "You are" in english and "Vous êtes" not in english
    omniscient = state_html(state, language="fr")
    assert "ARRESTATION" in omniscient or "LOUPE" in omniscient or "DOCUMENT TOP-SECRET" in omniscient


def test_french_trait_words_in_questions():
    state = new_game(NAMES[:4], seed=1)
    target = (state.current_player + 1) % 4
    while "question" not in state.hands[state.current_player]:
        state.apply(f"discard {sorted(state.hands[state.current_player])[0]}")
        target = (state.current_player + 1) % 4
    state.apply(f"ask {target} hat black")
    html = view_html(state.view(None), language="fr")
    assert "chapeau noir ?" in html and "répondre à la question" in html


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
            seen = {e.text for e in state.view(seat).log}
            for other in range(players):
                if other == seat:
                    continue
                character = state.characters[other]
                if character != "Adler" and character != state.characters[seat]:
                    assert character not in html and character_name(character, language) not in html
                for event in state.events:
                    if event.observers == frozenset({other}) and event.text not in seen:
                        secret = event_text(event, state.players, language)
                        assert secret.replace("'", "&#x27;") not in html
