"""The Get Adler widget driven from Python as a notebook user would: clicks, perspectives, the timeline, the
knowledge panel, and no other seat's secret on any seat's page (table, log or knowledge panel)."""

from __future__ import annotations

import random

import pytest

from tabletop_edu.get_adler import TRAIT_TABLE
from tabletop_edu.get_adler.bots import SmartBot
from tabletop_edu.get_adler.identities import worlds_for_view
from tabletop_edu.get_adler.render import a_card, character_name, event_text
from tabletop_edu.get_adler.panel import knowledge_html
from tabletop_edu.get_adler.widget import play
from tabletop_edu.widgets import OMNISCIENT, GameWidget

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def page(widget: GameWidget) -> str:
    """Everything the widget shows for the current perspective."""
    return widget.table.value + widget.log_panel.value + widget.knowledge_panel.value + widget.status.value


def test_play_seats_smart_bots_everywhere_else_and_waits_for_the_human() -> None:
    widget = play(NAMES[:4], seed=5)
    assert isinstance(widget, GameWidget)
    assert sorted(widget.bots) == [1, 2, 3] and all(isinstance(bot, SmartBot) for bot in widget.bots.values())
    assert widget.perspective == 0 and widget.state.current_player == 0
    assert not widget.action_picker.disabled and widget.action_picker.value in widget.action_picker.options


def test_a_click_plays_the_move_and_the_bots_answer() -> None:
    widget = play(NAMES[:4], seed=5)
    choice = next(option for option in widget.action_picker.options if option.startswith("discard"))
    widget.action_picker.value = choice
    widget.play_button.click()
    assert widget.state.history[0] == (0, choice)
    assert widget.state.current_player == 0 or widget.state.is_over  # the bots played round to Ann again
    assert all(seat != 0 for seat, _ in widget.state.history[1:])
    assert widget.timeline.value == widget.timeline.max == len(widget.state.history)
    card = choice.split()[1]
    assert f"Ann discards {a_card(card)}." in widget.log_panel.value


def test_an_illegal_typed_move_is_refused_with_its_reason() -> None:
    widget = play(NAMES[:4], seed=5)
    before = widget.state.fingerprint()
    widget.action_text.value = "ask 0 hat black"
    widget.play_button.click()
    assert widget.state.fingerprint() == before
    assert "tabletop-error" in widget.message.value


def test_every_seat_page_holds_no_other_seat_secret() -> None:
    widget = play(NAMES[:6], seed=2, bots={})
    rng = random.Random(4)
    state = widget.state
    for _ in range(30):  # hot seat: play random moves through the widget, seat by seat
        seat = state.acting_seats[0]
        widget.perspective_picker.value = seat
        widget.play(str(rng.choice(state.legal_actions(seat))))
        if state.revealed or state.is_over:
            break
        for language in ("en", "fr"):
            widget.language_picker.value = language
            for viewer in [None, *range(6)]:
                widget.perspective_picker.value = viewer
                html = page(widget)
                seen = {event.text for event in state.log(viewer)}
                for other in range(6):
                    if other == viewer:
                        continue
                    character = state.characters[other]
                    if character != "Adler" and (viewer is None or character != state.characters[viewer]):
                        sheet_only = html.replace(f'title="{character_name(character, language)}"', "")
                        assert sheet_only.count(character_name(character, language)) == 1, (viewer, character)
                        # (once: its row of the aid sheet, never a seat's tile, panel or log)
                    for event in state.events:
                        if event.observers == frozenset({other}) and event.text not in seen:
                            for words in (event.text, event_text(event, state.players, language)):
                                assert words.replace("'", "&#x27;") not in html
        widget.language_picker.value = "en"


def test_the_knowledge_panel_follows_the_perspective() -> None:
    widget = play(NAMES[:4], seed=5)
    state = widget.state
    assert f"{len(worlds_for_view(state.view(0)))} possible worlds" in widget.knowledge_panel.value
    widget.perspective_picker.value = None
    assert state.history == [] and "24 possible worlds" in widget.knowledge_panel.value  # 4! before any fact
    assert "Who can be Adler, for the public?" in widget.knowledge_panel.value
    widget.perspective_picker.value = OMNISCIENT
    assert "Who can be Adler, for each player?" in widget.knowledge_panel.value
    for seat in range(4):  # every row of the teacher's matrix is that seat's own candidate set
        suspects = {world.index("Adler") for world in worlds_for_view(state.view(seat))}
        assert len(suspects) >= 1 and state.adler in suspects
    widget.language_picker.value = "fr"
    assert "Qui peut être Adler, pour chaque joueur ?" in widget.knowledge_panel.value


def test_the_knowledge_panel_is_computed_from_the_view_only() -> None:
    """Non-interference: a world the seat cannot tell apart gives the same panel, word for word."""
    widget = play(NAMES[:5], seed=9)
    for _ in range(6):
        widget.play(widget.action_picker.options[0])
    rng = random.Random(0)
    for seat in range(5):
        for _ in range(3):
            other_world = widget.state.resample(seat, rng)
            for language in ("en", "fr"):
                assert (knowledge_html(other_world.view(seat), language)
                        == knowledge_html(widget.state.view(seat), language))


def test_the_timeline_replays_the_table_and_the_knowledge() -> None:
    widget = play(NAMES[:4], seed=5)
    widget.play(widget.action_picker.options[0])
    steps = len(widget.state.history)
    widget.perspective_picker.value = None
    widget.timeline.value = 0
    assert widget.shown_state.history == [] and "24 possible worlds" in widget.knowledge_panel.value
    assert widget.action_picker.disabled
    widget.timeline.value = steps
    assert widget.shown_state is widget.state


def test_french_table_and_labels() -> None:
    widget = play(NAMES[:4], seed=5, language="fr")
    assert widget.play_button.description == "Jouer"
    assert "Vous êtes" in widget.table.value and "Votre main" in widget.table.value
    french = {"document": "DOCUMENT TOP-SECRET", "arrest": "ARRESTATION", "pistol": "revolver", "bomb": "bombe"}
    hand = set(widget.state.hands[0])
    assert any(french[card] in widget.table.value for card in hand & set(french))
    assert character_name(widget.state.characters[0], "fr") in widget.table.value


def test_a_whole_game_through_the_widget_ends_with_the_winners() -> None:
    widget = play(NAMES[:4], seed=1)
    while not widget.state.is_over:
        widget.play(widget.action_picker.options[-1])
    assert "Game over" in widget.status.value
    widget.perspective_picker.value = 2
    assert widget.action_picker.disabled and all(c in widget.table.value for c in TRAIT_TABLE if c in widget.state.characters)


def test_bad_language_is_refused() -> None:
    with pytest.raises(ValueError, match="Language"):
        play(4, seed=0, language="de")
