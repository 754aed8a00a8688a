"""Rendering in English and French: game words translated, and no other seat's secret in either language."""

from __future__ import annotations

import random
from html import escape

import pytest

from tabletop_edu.core import Event
from tabletop_edu.mafia_de_cuba import MafiaState, new_game
from tabletop_edu.mafia_de_cuba.render import event_text, state_html, view_html

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]
FLOOR = ["pass"] * 5  # free talk: every taker lets the floor go by before the Godfather's move


def played(texts: list[str], players: int = 6) -> MafiaState:
    state = new_game(players, seed=0)
    for text in texts:
        state.apply_script([text])
    return state


def test_french_names_in_french_rendering() -> None:
    state = played(BOX_6 + FLOOR + ["accuse 1"])
    godfather, loyal, driver = (view_html(state.view(seat), language="fr") for seat in (0, 2, 5))
    assert "Parrain" in godfather and "Vous avez caché 2 diamants." in godfather
    assert "Vide tes poches !" in godfather and "Voleur" in godfather  # seat 1 emptied the pockets: a thief
    assert "Vous avez pris un jeton Fidèle." in loyal and "1 Fidèle, 1 Agent du FBI, 1 Chauffeur" in loyal
    assert "Vous avez pris un jeton Chauffeur." in driver and "Boîte à cigares" in driver
    teacher = state_html(state, language="fr")
    assert "Agent du FBI" in teacher and "Chauffeur" in teacher and "Cachés par le Parrain : 2 diamants" in teacher
    assert "Godfather" not in godfather and "Empty your pockets" not in godfather


def test_english_roles_and_tokens() -> None:
    state = played(BOX_6)
    assert "Loyal Henchman" in view_html(state.view(2)) and "FBI Agent" in view_html(state.view(4))
    assert "Street Kid" not in view_html(state.view(2))


@pytest.mark.parametrize(("event", "english", "french"), [
    (Event(0, "setup", "", data={"godfather": 0, "tokens": {"loyal": 2, "fbi": 1, "driver": 1}, "jokers": 0,
                                 "diamonds": 15}),
     "Seat 0 is the Godfather. The cigar box holds 15 diamonds and 2 Loyal Henchmen, 1 FBI Agent, 1 Driver; "
     "the Godfather has no joker.",
     "Seat 0 est le Parrain. La boîte à cigares contient 15 diamants et 2 Fidèles, 1 Agent du FBI, 1 Chauffeur ; "
     "le Parrain n'a aucun joker."),
    (Event(3, "take", "", actor=2, data={"take": "1"}), "Seat 2 takes 1 diamond.", "Seat 2 prend 1 diamant."),
    (Event(3, "take", "", actor=2, data={"take": "nothing"}), "Seat 2 takes nothing.", "Seat 2 ne prend rien."),
    (Event(9, "reveal", "", actor=3, data={"seat": 3, "take": "2", "role": "thief"}),
     "Seat 3 empties their pockets: 2 diamonds (Thief).", "Seat 3 vide ses poches : 2 diamants (Voleur)."),
    (Event(9, "caught", "", data={"target": 3}),
     "Thief caught: Seat 3 gives the diamonds back and leaves the game.",
     "Voleur démasqué : Seat 3 rend les diamants et quitte la partie."),
    (Event(9, "testimony", "", actor=3, data={"claim": "took nothing"}),
     "Seat 3 says: \u201cI took nothing.\u201d", "Seat 3 dit : « Je n'ai rien pris. »"),
    (Event(9, "testimony", "", actor=3, data={"claim": "saw 4"}),
     "Seat 3 says: \u201cI saw 4 diamonds, no token.\u201d", "Seat 3 dit : « J'ai vu 4 diamants, aucun jeton. »"),
])
def test_log_lines_in_correct_grammar(event: Event, english: str, french: str) -> None:
    players = tuple(f"Seat {seat}" for seat in range(6))
    assert event_text(event, players, "en") == english
    assert event_text(event, players, "fr") == french


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("players", [6, 9, 12])
def test_no_secret_of_another_seat_in_either_language(language: str, players: int) -> None:
    for seed in range(2):
        state = new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = rng.choice(state.acting_seats)
            legal = state.legal_actions(seat)
            quiet = [action for action in legal if str(action) == "pass" and rng.random() < 0.8]
            state.apply(rng.choice(quiet or legal), player=seat)  # a mostly quiet floor keeps games short
            if len(state.history) % 5:
                continue
            secrets = {other: _secret_lines(state, other, language) for other in state.takes}
            for viewer in [None, *range(players)]:
                page = view_html(state.view(viewer), language=language)
                for event in state.events:
                    if not event.sees_all(viewer):
                        secret = event_text(event, state.players, language)
                        assert secret not in page and escape(secret) not in page
                for other, panel in secrets.items():  # another seat's whole "only you know" panel
                    if other != viewer and other not in state.revealed and not state.is_over:
                        assert panel not in page, (viewer, other)


def _secret_lines(state: MafiaState, seat: int, language: str) -> str:
    """`seat`'s own "only you know" panel (its lines), as its page shows it."""
    own = view_html(state.view(seat), language=language)
    panel = own[own.index('class="tt-panel tt-secret"'):]
    return panel[panel.index("<ul>"):panel.index("</section>")]


def test_a_godfather_who_hid_nothing_reads_a_whole_sentence_in_both_languages() -> None:
    state = played(["hide 0"])
    assert "Vous n&#39;avez caché aucun diamant." in view_html(state.view(0), language="fr")
    assert "You hid no diamond." in view_html(state.view(0))
