"""Rendering in English and French: game words translated, and no other seat's secret in either language."""

from __future__ import annotations

import random
from html import escape

import pytest

from tabletop_edu.mafia_de_cuba import MafiaState, new_game
from tabletop_edu.mafia_de_cuba.render import event_text, state_html, view_html

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]
FLOOR = ["pass"] * 5  # free talk: every taker lets the floor go by before the Godfather's move


def played(texts: list[str], players: int = 6) -> MafiaState:
    state = new_game(players, seed=0)
    for text in texts:
        state.apply(text)
    return state


def test_french_names_in_french_rendering() -> None:
    state = played(BOX_6 + FLOOR + ["accuse 1"])
    godfather, loyal, driver = (view_html(state.view(seat), language="fr") for seat in (0, 2, 5))
    assert "Parrain" in godfather and "Vous avez caché 2 diamant(s)." in godfather
    assert "Vide tes poches !" in godfather and "Voleur" in godfather  # seat 1 emptied his pockets: a thief
    assert "Vous avez pris : Fidèle." in loyal and "Fidèle, Agent FBI, Chauffeur" in loyal
    assert "Vous avez pris : Chauffeur." in driver and "boîte à cigares" in driver
    teacher = state_html(state, language="fr")
    assert "Agent (FBI)" in teacher and "Chauffeur" in teacher and "Cachés par le Parrain : 2" in teacher
    assert "Godfather" not in godfather and "Empty your pockets" not in godfather


def test_english_roles_and_tokens() -> None:
    state = played(BOX_6)
    assert "Loyal Henchman" in view_html(state.view(2)) and "Agent (FBI)" in view_html(state.view(4))
    assert "Street Kid" not in view_html(state.view(2))


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("players", [6, 9, 12])
def test_no_secret_of_another_seat_in_either_language(language: str, players: int) -> None:
    for seed in range(3):
        state = new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = rng.choice(state.acting_seats)
            legal = state.legal_actions(seat)
            quiet = [action for action in legal if str(action) == "pass" and rng.random() < 0.8]
            state.apply(rng.choice(quiet or legal), player=seat)  # a mostly quiet floor keeps games short
            if len(state.history) % 5:
                continue
            for viewer in [None, *range(players)]:
                page = view_html(state.view(viewer), language=language)
                for event in state.events:
                    if not event.sees_all(viewer):
                        secret = event_text(event, state.players, language)
                        assert secret not in page and escape(secret) not in page
                for other in state.takes:  # another seat's whole "only you know" block
                    if other != viewer and other not in state.revealed and not state.is_over:
                        own = view_html(state.view(other), language=language)
                        secret = own[own.index("<div class='secret'>"):own.index("</div>", own.index("<div class='secret'>"))]
                        assert secret not in page  # its box, its take and its role line
