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
