"""The shared widget, driven from Python as a notebook user would: clicks, choices, the timeline."""

from __future__ import annotations

import html

import pytest

from tabletop_edu.core import RandomBot
from tabletop_edu.examples import peek
from tabletop_edu.i18n import tr
from tabletop_edu.widgets import OMNISCIENT, GameWidget


def table(seed: int = 1) -> GameWidget:
    return GameWidget(peek.new_game(["Ana", "Ben", "Chloé"], seed=seed), bots={1: RandomBot(), 2: RandomBot()})


def test_a_human_move_is_played_and_the_bots_answer() -> None:
    widget = table()
    assert widget.action_picker.options[0] == widget.action_picker.value == "peek 1"
    widget.action_picker.value = "peek 2"
    widget.play_button.click()
    state = widget.state
    assert state.history[0] == (0, "peek 2")
    assert [seat for seat, _ in state.history] == [0, 1, 2]  # both bots answered, Ana to play again
    assert state.current_player == 0
    assert widget.timeline.value == widget.timeline.max == 3
    assert f"holds the {state.cards[2]}" in widget.log_panel.value


def test_an_illegal_typed_move_shows_the_reason_and_changes_nothing() -> None:
    widget = table()
    before = widget.state.fingerprint()
    widget.action_text.value = "guess 1 42"
    widget.play_button.click()
    assert "Cards go from 1 to 6" in widget.message.value
    assert widget.state.fingerprint() == before


def test_a_seat_sees_only_its_own_card() -> None:
    widget = table(seed=3)
    cards = widget.state.cards
    widget.perspective_picker.value = 1
    assert f"dealt the {cards[1]}" in widget.table.value + widget.log_panel.value
    page = widget.table.value + widget.log_panel.value
    assert f"dealt the {cards[0]}" not in page and f"dealt the {cards[2]}" not in page
    assert widget.action_picker.disabled  # not Ben's turn: no controls
    widget.perspective_picker.value = OMNISCIENT
    assert all(f"dealt the {card}" in widget.log_panel.value for card in cards)


def test_playing_out_of_turn_or_in_the_past_is_refused() -> None:
    widget = table()
    widget.perspective_picker.value = 1
    widget.play("pass")
    assert html.escape(tr("not_your_turn")) in widget.message.value and widget.state.history == []
    widget.perspective_picker.value = 0
    widget.play("pass")
    widget.timeline.value = 1
    widget.play("pass")
    assert "earlier step" in widget.message.value and len(widget.state.history) == 3


def test_the_timeline_replays_earlier_steps() -> None:
    widget = table()
    widget.play("peek 1")
    widget.timeline.value = 0
    assert widget.shown_state.history == [] and "peeks" not in widget.log_panel.value
    widget.timeline.value = widget.timeline.max
    assert "peeks" in widget.log_panel.value


def test_french_labels_and_the_flow_drawing() -> None:
    widget = table()
    widget.language_picker.value = "fr"
    assert widget.play_button.description == "Jouer"
    assert widget.perspective_picker.options[0][0] == "Omniscient (enseignant)"
    widget.flow_button.click()
    assert widget.flow.value.startswith("<img") and "base64," in widget.flow.value
    with pytest.raises(ValueError, match="Language"):
        GameWidget(peek.new_game(2, seed=0), language="de")


def test_static_fallback_shows_the_seat_table_without_other_secrets() -> None:
    widget = table(seed=3)
    bundle = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    static = bundle["text/html"]
    cards = widget.state.cards
    assert f"Ana is dealt the {cards[0]}" in static
    assert f"dealt the {cards[1]}" not in static and f"dealt the {cards[2]}" not in static


def test_a_game_knowledge_panel_gets_the_view_not_the_state() -> None:
    seen: list[object] = []

    def panel(subject: object, language: str) -> str:
        seen.append(subject)
        return f"<p>{type(subject).__name__} {language}</p>"

    widget = GameWidget(peek.new_game(2, seed=0), knowledge=panel, perspective=1)
    assert widget.knowledge_panel.value == "<p>View en</p>" and seen[-1].seat == 1
    widget.perspective_picker.value = OMNISCIENT
    assert widget.knowledge_panel.value == "<p>PeekState en</p>"


def test_switching_language_never_renders_another_perspective() -> None:
    widget = table(seed=3)
    widget.perspective_picker.value = 1
    rendered: list[object] = []
    refresh = widget.refresh

    def recording_refresh() -> None:
        rendered.append(widget.perspective)
        refresh()

    widget.refresh = recording_refresh  # type: ignore[method-assign]
    widget.language_picker.value = "fr"
    assert rendered == [1] and widget.perspective == 1


@pytest.mark.parametrize("perspective", [3, -1, "teacher", 1.5])
def test_an_unknown_perspective_is_refused(perspective: object) -> None:
    with pytest.raises(ValueError, match="perspective"):
        GameWidget(peek.new_game(3, seed=0), perspective=perspective)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["peek", "commissario", "get_adler", "mafia_de_cuba"])
def test_the_log_is_shown_once_in_its_tab_and_the_renderers_still_hold_it_alone(game: str) -> None:
    """On a projector every line counts: the table leaves its log to the Log tab (and to the static picture,
    once). Renderers called on their own, as in the tutorials, still end with the log."""
    import importlib

    from tabletop_edu.core import render_view_html
    from tabletop_edu.core.view import render_state_html

    module = importlib.import_module("tabletop_edu.examples.peek" if game == "peek" else f"tabletop_edu.{game}")
    players = {"peek": 3, "commissario": 3, "get_adler": 4, "mafia_de_cuba": 6}[game]
    state = module.new_game(players, seed=2)
    widget = GameWidget(state, bots={seat: RandomBot() for seat in range(1, players)})
    for perspective in [OMNISCIENT, None, *range(players)]:
        widget.perspective_picker.value = perspective
        assert "tabletop-log" not in widget.table.value and widget.log_panel.value.count("tabletop-log") == 1
        assert widget._repr_mimebundle_()["text/html"].count("tabletop-log") == 1
        alone = render_state_html(state) if perspective == OMNISCIENT else render_view_html(state.view(perspective))
        assert alone.count("tabletop-log") == 1
