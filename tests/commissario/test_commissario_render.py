"""Rendering: a seat's HTML holds no other seat's secret pick, before or during the reveals."""

from __future__ import annotations

import re

from tabletop_edu.commissario.engine import CommissarioState
from tabletop_edu.commissario.render import state_html, view_html

SHOWN = {0: "red + blue", 1: "orange + green", 2: "yellow + 2x"}
PICK_TEXT = {0: "secretly picks red and blue", 1: "secretly picks orange and green",
             2: "secretly picks yellow and the 2x card"}


def assert_no_foreign_secret(state: CommissarioState) -> None:
    for seat in (None, 0, 1, 2):
        html = view_html(state.view(seat))
        for other in range(3):
            if other == seat:
                continue
            secrets = [PICK_TEXT[other], SHOWN[other]]
            assert not any(secret in html for secret in secrets), (seat, other)


def test_own_pick_shown_to_its_seat_only(picked_state) -> None:
    state = picked_state(("Ann", "<b>Bob</b>", "Cy"))
    for seat in range(3):
        html = view_html(state.view(seat))
        assert SHOWN[seat] in html and PICK_TEXT[seat] in html
    assert_no_foreign_secret(state)


def test_no_secret_leaks_during_first_reveal(picked_state) -> None:
    state = picked_state(("Ann", "<b>Bob</b>", "Cy"))
    state.apply(str(state.legal_actions(state.current_player)[0]), player=state.current_player)
    assert_no_foreign_secret(state)


def test_state_html_is_omniscient_and_escaped(picked_state) -> None:
    state = picked_state(("Ann", "<b>Bob</b>", "Cy"))
    html = state_html(state)
    assert all(shown in html for shown in SHOWN.values()) and "Teacher&#39;s view: everything" in html
    assert "Teacher only: the secret picks and the pile" in html
    pile = [f"{colour} {value:+d}".replace("-", "\u2212") for colour, value in state.pile[:3]]
    assert all(card in html for card in pile)  # the next cards of the pile, in order
    assert "<b>Bob</b>" not in html and "&lt;b&gt;Bob&lt;/b&gt;" in html
    assert "<b>Bob</b>" not in view_html(state.view(0)) and "Teacher only" not in view_html(state.view(0))


def test_repr_html_of_view_uses_this_renderer(picked_state) -> None:
    state = picked_state(("Ann", "<b>Bob</b>", "Cy"))
    assert "tabletop-commissario" in state.view(1)._repr_html_()


def test_the_banner_says_who_acts_and_what_to_do(picked_state) -> None:
    state = picked_state(("Ann", "Bob", "Cy"))
    first = state.current_player
    name = state.players[first]
    assert f"{name}: reveal a commissaire and arrest" in view_html(state.view(None))
    assert f"Your turn \u2014 {name}: reveal a commissaire and arrest" in view_html(state.view(first))
    assert f"{name} : révéler un commissaire et arrêter" in view_html(state.view(None), language="fr")


def test_the_reveal_is_the_score_table_per_colour_with_the_bonus_cards() -> None:
    from tabletop_edu.commissario import new_game
    from tabletop_edu.commissario.bots import GreedyBot
    from tabletop_edu.commissario.engine import COLOURS, colour_points
    from tabletop_edu.commissario.render import reveal_html
    from tabletop_edu.core import play_game

    state = new_game(["Ann", "Bob", "Cy"], seed=4)
    play_game(state, [GreedyBot()] * 3)
    for language, tied in (("en", "tie: nobody"), ("fr", "égalité : personne")):
        html = reveal_html(state, language)
        rows = re.findall(r"<tr[^>]*><th scope=\"row\">(.*?)</tr>", html, flags=re.S)
        for seat, name in enumerate(state.players):
            row = next(row for row in rows if f">{name}</span>" in row)
            cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for colour, cell in zip(COLOURS, cells):
                points = colour_points(state.arrested[seat], colour)
                assert cell.startswith(f"{points:+d}".replace("-", "\u2212") if points else "0"), (name, colour)
                assert ("bonus" in cell) == (state.bonus_winners.get(colour) == seat), (name, colour, cell)
            assert cells[-1] == str(state.scores[seat]).replace("-", "\u2212")
        for colour in COLOURS:
            holder = state.bonus_winners.get(colour)
            if state.rules.bonus(colour) and holder is None:
                assert tied in html
        winners = " and ".join(state.players[seat] for seat in state.winners)
        if language == "en":
            assert f"{winners}: the most points ({max(state.scores)})" in html
        assert html.count("<tr>") >= 2  # the picks of every round, from the public reveals


def test_the_reveal_is_refused_before_the_end(picked_state) -> None:
    import pytest

    from tabletop_edu.commissario.render import reveal_html

    with pytest.raises(ValueError, match="not over"):
        reveal_html(picked_state())


def test_known_picks_before_and_after_reveals(picked_state) -> None:
    from tabletop_edu.commissario.panel import known_picks

    state = picked_state(("Ann", "<b>Bob</b>", "Cy"))
    assert known_picks(state.view(0)) == {0: "red + blue", 1: "chosen, hidden", 2: "chosen, hidden"}
    assert known_picks(state.view(None)) == {0: "chosen, hidden", 1: "chosen, hidden", 2: "chosen, hidden"}
    first = state.current_player
    colour = state.picks[first][0]
    state.apply(f"reveal {colour}", player=first)
    if first != 0:
        assert known_picks(state.view(0))[first] == f"{colour} + ?"
    while not state.phase == "release":
        state.apply(str(state.legal_actions(state.current_player)[0]), player=state.current_player)
    # a new round: the revealed picks of the last round are no longer "this round"
    assert set(known_picks(state.view(1)).values()) == {"not chosen yet"}
