"""Rendering: a seat's HTML holds no other seat's secret pick, before or during the reveals."""

from __future__ import annotations

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
    assert all(shown in html for shown in ("red + blue", "orange + green", "yellow + yellow"))
    assert "<b>Bob</b>" not in html and "&lt;b&gt;Bob&lt;/b&gt;" in html
    assert "<b>Bob</b>" not in view_html(state.view(0))


def test_repr_html_of_view_uses_this_renderer(picked_state) -> None:
    state = picked_state(("Ann", "<b>Bob</b>", "Cy"))
    assert "cm-layout" in state.view(1)._repr_html_()


def test_known_picks_before_and_after_reveals(picked_state) -> None:
    from tabletop_edu.commissario.render import known_picks

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
