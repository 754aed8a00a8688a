"""The Mafia de Cuba widget driven from Python as a teacher or student would: clicks, choices, perspectives,
the timeline; every assertion is on the HTML the page would hold."""

from __future__ import annotations

from html import escape

import pytest

from tabletop_edu.mafia_de_cuba import MafiaState
from tabletop_edu.mafia_de_cuba.bots import MafiaBot, PosteriorGodfather, default_bots
from tabletop_edu.mafia_de_cuba.render import event_text
from tabletop_edu.mafia_de_cuba.panel import knowledge_html
from tabletop_edu.mafia_de_cuba.widget import play
from tabletop_edu.widgets import GameWidget
from tabletop_edu.widgets import OMNISCIENT


def click(widget: GameWidget, action: str) -> None:
    """Choose `action` in the picker and press Play, as a person would."""
    assert action in widget.action_picker.options, (action, widget.action_picker.options)
    widget.action_picker.value = action
    widget.play_button.click()


def page(widget: GameWidget) -> str:
    return widget.table.value + widget.log_panel.value + widget.knowledge_panel.value + widget.status.value


def secrets_hidden_from(state: MafiaState, seat: int | None) -> list[str]:
    """The full texts, in both languages, of every event `seat` saw only in redacted form (or not at all)."""
    hidden = [event for event in state.events if not event.sees_all(seat)]
    texts = [event_text(event, state.players, language) for event in hidden for language in ("en", "fr")]
    return texts + [escape(text) for text in texts]  # as written in the page, and raw


def asking_godfather_bots(players: int, seed: int) -> list[MafiaBot]:
    """The default table, but the Godfather asks every taker "what did you take?" before accusing."""
    bots = default_bots(players, seed=seed)
    bots[0] = MafiaBot(godfather=PosteriorGodfather(truth=0.7))
    return bots


def test_the_godfather_hides_asks_and_accuses_by_clicks() -> None:
    widget = play(7, seed=1)
    assert widget.perspective == 0 and widget.action_picker.options[0] == "hide 0"
    assert "Only you know" not in widget.table.value  # nothing hidden yet
    click(widget, "hide 2")
    assert "You hid 2 diamonds." in widget.table.value and "The box came back with" in widget.table.value
    assert widget.state.phase == "question"
    click(widget, "ask 1 took")
    assert "The Godfather asks Seat 1: \u201cWhat did you take?\u201d" in widget.log_panel.value
    assert "Seat 1 says:" in widget.log_panel.value or "Seat 1 keeps silent." in widget.log_panel.value
    click(widget, "accuse 1")
    assert "Empty your pockets!" in widget.log_panel.value
    assert "Seat 1 empties their pockets:" in widget.log_panel.value
    assert "P(Thief)" in widget.knowledge_panel.value and "What Seat 0 can infer" in widget.knowledge_panel.value


def test_a_taker_opens_the_box_takes_and_answers() -> None:
    widget = play(7, seed=3, seat=3, bots=asking_godfather_bots(7, 3))
    state = widget.state
    assert state.current_player == 3 and state.phase == "take"
    assert "When you opened the box:" in widget.table.value
    assert 'class="tt-seat is-turn is-me' in widget.table.value  # the projector shows whose turn it is
    take = "take loyal" if "take loyal" in widget.action_picker.options else "take 1"
    click(widget, take)
    took = "a Loyal Henchman token" if take == "take loyal" else "1 diamond"
    assert f"You took {took}." in widget.table.value
    # free talk (R4.2): the bots have answered on the floor, seat 3 is the last to, and speaks up
    assert state.phase == "floor" and state.current_player == (3,) and "pass" in widget.action_picker.options
    click(widget, "suspect 2")
    assert "Seat 3 says: \u201cI suspect Seat 2.\u201d" in widget.log_panel.value
    said = [event for event in state.events if event.kind == "testimony" and event.actor == 3]
    assert said[-1].data == {"claim": "suspect 2", "testimony": "suspect", "volunteered": True}  # unasked
    while state.pending != (3, "took"):  # then lets the floor go by until the Godfather asks
        assert state.current_player == (3,) and state.phase == "floor"
        click(widget, "pass")
    assert "Your turn \u2014 Seat 3 must answer the Godfather: \u201cWhat did you take?\u201d" in widget.table.value
    click(widget, "took driver")
    assert "Seat 3 says: \u201cI took a Driver token.\u201d" in widget.log_panel.value
    assert "floor go by" not in widget.log_panel.value  # R4.2: passes on the floor are moves, not log lines


def test_out_of_turn_and_illegal_moves_change_nothing() -> None:
    widget = play(7, seed=1)
    widget.perspective_picker.value = 2
    assert widget.action_picker.disabled
    widget.play("take 1")
    assert "It is not this seat" in widget.message.value and widget.state.history == []
    widget.perspective_picker.value = 0
    widget.action_text.value = "hide 9"
    widget.play_button.click()
    assert "tabletop-error" in widget.message.value and widget.state.history == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_seat_page_holds_another_seats_secret(language: str) -> None:
    widget = play(8, seed=5, seat=0, bots=asking_godfather_bots(8, 5), language=language)
    click(widget, "hide 3")
    click(widget, "ask 2 took")
    click(widget, "accuse 4")
    state = widget.state
    for perspective in [None, *range(8)]:
        widget.perspective_picker.value = perspective
        html = page(widget)
        for secret in secrets_hidden_from(state, perspective):
            assert secret not in html, (perspective, secret)
        if perspective not in (None, 0):
            own = "You took" if language == "en" else "Vous avez pris"
            assert own in html and "You hid" not in html and "Vous avez caché" not in html
            you = "you" if language == "en" else "vous"
            assert f'data-seat="{perspective}">\n<div class="tt-seat-head"><span class="tt-name" ' \
                   f'title="{state.players[perspective]}">{state.players[perspective]}</span> ' \
                   f'<span class="tt-tag tt-tag--info">{you}</span>' in html  # "you" on the ring
    widget.perspective_picker.value = OMNISCIENT
    omniscient = page(widget)
    assert all(escape(event_text(event, state.players, language)) in omniscient for event in state.events)


def test_perspective_changes_redraw_the_knowledge_panel_from_the_view() -> None:
    widget = play(7, seed=1)
    click(widget, "hide 1")
    godfather = widget.knowledge_panel.value
    assert "What Seat 0 can infer" in godfather and "P(Agent)" in godfather
    widget.perspective_picker.value = 4
    assert widget.knowledge_panel.value == knowledge_html(widget.state.view(4), "en", widget.state.rules)
    assert widget.knowledge_panel.value != godfather
    assert "What Seat 4 can infer" in widget.knowledge_panel.value
    widget.perspective_picker.value = None
    assert "What the public can infer" in widget.knowledge_panel.value
    widget.perspective_picker.value = OMNISCIENT
    assert "Who knows what about each take" in widget.knowledge_panel.value
    assert "What the Godfather can infer" in widget.knowledge_panel.value


def test_the_timeline_replays_the_round_and_refuses_moves_in_the_past() -> None:
    widget = play(7, seed=1)
    click(widget, "hide 2")
    end = widget.timeline.max
    assert end == len(widget.state.history) == 14  # hide, set-aside, 6 takes, the 6 takers' words on the floor
    widget.timeline.value = 0
    assert widget.shown_state.history == [] and "hides" not in widget.log_panel.value
    assert widget.action_picker.disabled
    widget.timeline.value = 2
    assert "Seat 1 may set a token aside." in widget.log_panel.value and "Seat 1 takes" not in widget.log_panel.value
    widget.play("ask 1 took")
    assert "earlier step" in widget.message.value and len(widget.state.history) == end
    widget.timeline.value = end
    assert "The box returns to the Godfather" in widget.log_panel.value


def test_french_table_log_and_controls() -> None:
    widget = play(7, seed=1, language="fr")
    assert widget.play_button.description == "Jouer"
    click(widget, "hide 2")
    click(widget, "accuse 2")
    html = page(widget)
    for word in ("Parrain", "Boîte à cigares", "Vide tes poches !", "Vous avez caché 2 diamants.", "P(Voleur)",
                 "Vue de Seat 0", "Ce que Seat 0 peut déduire"):
        assert word in html, word
    assert "Godfather" not in widget.table.value and "Empty your pockets" not in html
