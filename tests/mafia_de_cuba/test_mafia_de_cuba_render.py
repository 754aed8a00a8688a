"""Rendering: a seat's HTML holds its own secrets and none of the other seats' secrets."""

from __future__ import annotations

import random

import pytest

from tabletop_edu.core import RandomBot, play_game
from tabletop_edu.mafia_de_cuba import MafiaState, new_game
from tabletop_edu.mafia_de_cuba.render import state_html, view_html

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]
FLOOR = ["pass"] * 5  # free talk: every taker lets the floor go by before the Godfather's move


def play(players: int, texts: list[str]) -> MafiaState:
    state = new_game(players, seed=0)
    for text in texts:
        state.apply(text)
    return state


def private_texts_hidden_from(state: MafiaState, seat: int | None) -> list[str]:
    return [event.text for event in state.events if not event.sees_all(seat)]


def test_each_seat_sees_its_own_secret_and_no_other() -> None:
    state = play(6, BOX_6 + FLOOR + ["ask 2 took", "took 5"])
    pages = {seat: view_html(state.view(seat)) for seat in [None, *range(6)]}
    assert "You hid 2 diamond(s)" in pages[0] and "6 diamond(s); no token" in pages[0]
    assert "You took: 3" in pages[1] and "You took: loyal" in pages[2]
    assert "10 diamond(s); loyal, fbi, driver" in pages[2]
    for seat, page in pages.items():
        for secret in private_texts_hidden_from(state, seat):
            assert secret not in page, (seat, secret)
        if seat != 0:
            assert "You hid" not in page and "came back" not in page
    assert "Seat 1 takes 3." in pages[1] and all("Seat 1 takes 3." not in pages[s] for s in (None, 0, 2, 3, 4, 5))


@pytest.mark.parametrize("players", [6, 9, 12])
def test_no_private_event_text_leaks_in_random_games(players: int) -> None:
    for seed in range(4):
        state = new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in [None, *range(players)]:
                page = view_html(state.view(seat))
                for secret in private_texts_hidden_from(state, seat):
                    assert secret not in page
            seat = rng.choice(state.acting_seats)
            legal = state.legal_actions(seat)
            quiet = [action for action in legal if str(action) == "pass" and rng.random() < 0.8]
            state.apply(rng.choice(quiet or legal), player=seat)  # a mostly quiet floor keeps games short


def test_html_is_escaped_and_state_html_is_omniscient() -> None:
    state = new_game(["<b>Vito</b>", "Ann", "Bo", "Cy", "Di", "Ed"], seed=1)
    play_game(state, [RandomBot()] * 6)
    page = view_html(state.view(1))
    assert "<b>Vito</b>" not in page and "&lt;b&gt;Vito&lt;/b&gt;" in page
    omniscient = state_html(state)
    assert "Hidden by the Godfather" in omniscient and state._repr_html_() == omniscient
