"""The shared widget, driven from Python as a notebook user would: move buttons, the timeline, the bots' pace,
projector mode, locked screens, errors, and one redraw per change."""

from __future__ import annotations

import asyncio
import html
import importlib
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import traitlets

from tabletop_edu import commissario
from tabletop_edu.core import RandomBot
from tabletop_edu.examples import peek
from tabletop_edu.i18n import tr
from tabletop_edu.widgets import OMNISCIENT, GameWidget, ManualScheduler
from tabletop_edu.widgets.move_picker import MovePicker


def table(seed: int = 1, **options: Any) -> GameWidget:
    return GameWidget(peek.new_game(["Ana", "Ben", "Chloé"], seed=seed), bots={1: RandomBot(), 2: RandomBot()},
                      **options)


def labels(widget: GameWidget) -> list[str]:
    return [button.description for button in widget.moves.option_buttons]


def visible(piece: Any) -> bool:
    return piece.layout.display != "none"


# ---------------------------------------------------------------- moves by clicking

def test_a_move_is_built_word_by_word_and_plays_on_its_last_click() -> None:
    widget = table()
    assert labels(widget) == ["Peek at a card", "Guess a card aloud", "Pass"] and "Choose a move" in widget.moves.built.value
    widget.moves.click("peek")
    assert labels(widget) == ["Ben", "Chloé"] and "Peek at a card ›" in widget.moves.built.value
    assert widget.state.history == [] and visible(widget.moves.back_button)
    widget.moves.click("2")
    state = widget.state
    assert state.history[0] == (0, "peek 2")
    assert [seat for seat, _ in state.history] == [0, 1, 2]  # both bots answered, Ana to play again
    assert widget.timeline.value == widget.timeline.max == 3
    assert labels(widget) == ["Peek at a card", "Guess a card aloud", "Pass"]  # a fresh move
    assert f"holds the {state.cards[2]}" in widget.log_panel.value


def test_back_and_start_again_undo_words_not_moves() -> None:
    widget = table()
    widget.moves.click("guess", "1")
    assert "Guess a card aloud › Ben › …" in widget.moves.built.value
    widget.moves.back_button.click()
    assert widget.moves.chosen == ("guess",) and labels(widget) == ["Ben", "Chloé"]
    widget.moves.click("2")
    widget.moves.clear_button.click()
    assert widget.moves.chosen == () and not visible(widget.moves.back_button) and widget.state.history == []
    with pytest.raises(ValueError, match="No button"):
        widget.moves.click("7")


def test_a_move_that_is_also_the_start_of_longer_ones_needs_play_this_move() -> None:
    played: list[str] = []
    legal = ["saw 3", "saw 3 fbi", "silent"]

    def redraw() -> None:
        picker.show(legal, lambda path: path[-1].upper())

    picker = MovePicker(lambda move: (played.append(move), redraw()), redraw, "en")
    redraw()
    assert not visible(picker.play_this_button)
    picker.click("saw", "3")
    assert [b.description for b in picker.option_buttons] == ["FBI"] and visible(picker.play_this_button)
    assert "SAW › 3 › …" in picker.built.value and played == []
    picker.play_this_button.click()
    assert played == ["saw 3"] and picker.chosen == ()
    picker.click("saw", "3", "fbi")
    assert played == ["saw 3", "saw 3 fbi"]
    picker.click("silent")
    assert played[-1] == "silent"


def test_words_are_labelled_by_the_games_move_label_with_the_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[object, tuple[str, ...], str]] = []

    def move_label(view: Any, path: tuple[str, ...], language: str) -> str:
        seen.append((view.seat, path, language))
        return f"<{path[-1]}-{language}>"

    monkeypatch.setattr("tabletop_edu.moves.game_renderer",
                        lambda game, name: move_label if name == "move_label" else None)
    widget = table()
    assert labels(widget) == ["<peek-en>", "<guess-en>", "<pass-en>"]
    assert {seat for seat, _, _ in seen} == {0}  # labelled from Ana's own view
    widget.moves.click("guess")
    assert "&lt;guess-en&gt; ›" in widget.moves.built.value  # labels are text, escaped
    widget.language_picker.value = "fr"
    assert labels(widget) == ["<1-fr>", "<2-fr>"] and ("guess", "1") in [path for _, path, _ in seen]


def test_the_text_box_stays_for_those_who_like_notation() -> None:
    widget = table()
    widget.action_text.value = "peek 1"
    widget.play_button.click()
    assert widget.state.history[0] == (0, "peek 1") and widget.action_text.value == ""
    assert widget.action_picker.options == tuple(str(a) for a in widget.state.legal_actions(0))


def test_an_illegal_typed_move_shows_the_reason_and_changes_nothing() -> None:
    widget = table()
    before = widget.state.fingerprint()
    widget.action_text.value = "guess 1 42"
    widget.play_button.click()
    assert "Cards go from 1 to 6" in widget.message.value and "tabletop-error" in widget.message.value
    assert widget.state.fingerprint() == before


def test_an_illegal_move_is_refused_in_the_widgets_language() -> None:
    """A keyed refusal is worded in the widget's language; a plain-text one (Peek's, as a teacher's own game
    may raise) shows as it is."""
    widget = GameWidget(commissario.new_game(["Ana", "Ben"], seed=1), language="fr")
    widget.action_text.value = "reveal red"
    widget.play_button.click()
    assert html.escape("l'étape en cours : libérations") in widget.message.value and widget.state.history == []
    french_peek = table(language="fr")
    french_peek.action_text.value = "guess 1 42"
    french_peek.play_button.click()
    assert "Cards go from 1 to 6, not 42." in french_peek.message.value


class FailingBot:
    name = "failing"

    def choose(self, view: Any, legal_actions: Any, rng: random.Random) -> Any:
        raise RuntimeError("the bot's battery is flat")


def test_any_error_is_shown_in_the_widget_which_goes_on_working(monkeypatch: pytest.MonkeyPatch) -> None:
    widget = GameWidget(peek.new_game(3, seed=1), bots={1: FailingBot(), 2: RandomBot()})
    widget.moves.click("pass")
    assert "RuntimeError: the bot&#x27;s battery is flat" in widget.message.value
    assert widget.state.history == [(0, "pass")] and widget.timeline.max == 1  # the page still follows
    widget.bots[1] = RandomBot()
    widget.next_bot_move()
    assert len(widget.state.history) == 2
    opening = GameWidget(peek.new_game(3, seed=1), bots={0: FailingBot()}, perspective=1)  # a bot opens
    assert "battery is flat" in opening.message.value and opening.state.history == []

    def broken_apply(*args: Any, **kwargs: Any) -> None:
        raise KeyError("deep inside an engine")

    widget = table()
    monkeypatch.setattr(widget.state, "apply", broken_apply)
    widget.moves.click("pass")
    assert "KeyError" in widget.message.value and "Something went wrong" in widget.message.value
    monkeypatch.undo()
    widget.moves.click("pass")
    assert widget.state.history[0] == (0, "pass")


def test_a_failing_move_label_or_table_template_leaves_the_moves_working(monkeypatch: pytest.MonkeyPatch) -> None:
    def move_label(view: Any, path: tuple[str, ...], language: str) -> str:
        raise LookupError("no label yet")

    monkeypatch.setattr("tabletop_edu.moves.game_renderer",
                        lambda game, name: move_label if name == "move_label" else None)
    monkeypatch.setattr("tabletop_edu.widgets.game_widget.perspective_html",
                        lambda *args, **kwargs: 1 / 0)
    widget = table()
    assert labels(widget) == ["peek", "guess", "pass"]  # the words themselves
    assert "ZeroDivisionError" in widget.table.value and "Ana is dealt" in widget.log_panel.value
    widget.moves.click("pass")
    assert widget.state.history[0] == (0, "pass") and widget.message.value == ""


def test_a_failing_knowledge_panel_leaves_the_table_working() -> None:
    def panel(subject: object, language: str) -> str:
        raise ZeroDivisionError("no worlds")

    widget = GameWidget(peek.new_game(2, seed=0), knowledge=panel)
    assert "ZeroDivisionError: no worlds" in widget.knowledge_panel.value and "Seat 0" in widget.table.value
    widget.moves.click("pass")
    assert widget.state.history == [(0, "pass")]


# ---------------------------------------------------------------- who sees what

def test_a_seat_sees_only_its_own_card() -> None:
    widget = table(seed=3)
    cards = widget.state.cards
    widget.perspective_picker.value = 1
    page = widget.table.value + widget.log_panel.value + widget.timeline_bar.events.value
    assert f"dealt the {cards[1]}" in page
    assert f"dealt the {cards[0]}" not in page and f"dealt the {cards[2]}" not in page
    assert widget.moves.option_buttons == [] and widget.action_picker.disabled  # not Ben's turn
    widget.perspective_picker.value = OMNISCIENT
    assert all(f"dealt the {card}" in widget.log_panel.value for card in cards)
    assert "Choose a seat to play" in widget.moves.built.value


def test_panels_are_titled_for_the_perspective_and_side_by_side() -> None:
    widget = table()
    log_column, knowledge_column = widget.panels.children
    assert widget.log_title in log_column.children and widget.knowledge_title in knowledge_column.children
    assert widget.knowledge_title.value == "What Ana knows" and widget.log_title.value == "Log as Ana saw it"
    widget.perspective_picker.value = None
    assert widget.knowledge_title.value == "What a spectator knows"
    widget.perspective_picker.value = OMNISCIENT
    assert widget.knowledge_title.value == "What each seat knows"
    widget.language_picker.value = "fr"
    widget.perspective_picker.value = 2
    assert widget.knowledge_title.value == "Ce que sait Chloé" and widget.log_title.value == "Journal vu par Chloé"
    unnamed = GameWidget(peek.new_game(2, seed=0), language="fr")
    assert unnamed.knowledge_title.value == "Ce que sait Place 0"
    assert [label for label, _ in unnamed.perspective_picker.options][2:] == ["Place 0", "Place 1"]


def test_a_game_knowledge_panel_gets_the_view_not_the_state() -> None:
    seen: list[object] = []

    def panel(subject: object, language: str) -> str:
        seen.append(subject)
        return f"<p>{type(subject).__name__} {language}</p>"

    widget = GameWidget(peek.new_game(2, seed=0), knowledge=panel, perspective=1)
    assert widget.knowledge_panel.value == "<p>View en</p>" and seen[-1].seat == 1  # type: ignore[attr-defined]
    widget.perspective_picker.value = OMNISCIENT
    assert widget.knowledge_panel.value == "<p>PeekState en</p>"


def test_a_locked_screen_shows_one_seat_only() -> None:
    widget = table(perspective=2, lock_perspective=True)
    picker = widget.perspective_picker
    assert picker.disabled and not visible(picker) and [value for _, value in picker.options] == [2]
    with pytest.raises(traitlets.TraitError):
        picker.value = 0
    with pytest.raises(ValueError, match="Chloé only"):
        widget.set_perspective(0)
    widget.language_picker.value = "fr"
    widget.set_projector(True)
    widget.set_projector(False)
    assert widget.perspective == 2 and not visible(widget.perspective_picker)
    assert [value for _, value in widget.perspective_picker.options] == [2] and widget.perspective_picker.disabled
    assert f"dealt the {widget.state.cards[0]}" not in widget.log_panel.value + widget.table.value


# ---------------------------------------------------------------- the timeline

def test_the_timeline_buttons_replay_and_replaying_lets_nobody_act() -> None:
    widget = table()
    widget.moves.click("peek", "1")
    bar = widget.timeline_bar
    assert bar.next_button.disabled and bar.live_button.disabled and not bar.first_button.disabled
    assert "Step 3 (live)" in bar.events.value
    bar.first_button.click()
    assert widget.shown_state.history == [] and "peeks" not in widget.log_panel.value
    assert "Step 0 of 3" in bar.events.value and "The deal: Ana is dealt the" in bar.events.value
    assert widget.moves.option_buttons == [] and widget.action_picker.disabled
    assert not visible(widget.notation)  # no empty list of moves to choose from while replaying
    assert "Replaying an earlier step" in widget.moves.built.value
    widget.play("pass")
    assert "earlier step" in widget.message.value and len(widget.state.history) == 3
    bar.next_button.click()
    assert "Ana peeks: Ben holds the" in bar.events.value and "Step 1 of 3" in bar.events.value
    widget.perspective_picker.value = 2  # Chloé saw only that Ana peeked
    assert "Ana peeks at Ben&#x27;s card" in bar.events.value and "holds the" not in bar.events.value
    bar.previous_button.click()
    assert widget.timeline.value == 0 and bar.previous_button.disabled
    widget.perspective_picker.value = 0
    bar.live_button.click()
    assert widget.live and labels(widget) == ["Peek at a card", "Guess a card aloud", "Pass"]
    assert visible(widget.notation) and widget.action_picker.value in widget.action_picker.options


def test_playing_out_of_turn_is_refused() -> None:
    widget = table()
    widget.perspective_picker.value = 1
    widget.play("pass")
    assert html.escape(tr("not_your_turn")) in widget.message.value and widget.state.history == []


def test_the_timeline_stays_on_a_replayed_step_while_the_game_goes_on() -> None:
    clock = ManualScheduler()
    widget = table(bot_pace="timed", scheduler=clock)
    widget.moves.click("pass")
    widget.timeline_bar.first_button.click()
    assert clock.advance(10) == 0 and len(widget.state.history) == 1  # replaying pauses the bots
    widget.timeline_bar.live_button.click()
    assert clock.advance(1.0) == 1 and len(widget.state.history) == 2
    widget.timeline_bar.go(1)
    widget.state.apply("pass", player=2)  # the game moves on outside the widget
    widget.refresh()
    assert widget.timeline.value == 1 and widget.timeline.max == 3


# ---------------------------------------------------------------- the bots' pace

def test_timed_bots_move_once_a_second_on_the_injected_clock() -> None:
    clock = ManualScheduler()
    widget = table(bot_pace="timed", scheduler=clock)
    widget.moves.click("pass")
    assert len(widget.state.history) == 1 and clock.pending == 1
    assert clock.advance(0.5) == 0
    assert clock.advance(0.5) == 1 and len(widget.state.history) == 2 and widget.timeline.value == 2
    assert clock.advance(1.0) == 1 and widget.state.current_player == 0 and clock.pending == 0
    assert widget.moves.option_buttons  # Ana's turn again


def test_step_by_step_bots_wait_for_next_move_and_instant_catches_up() -> None:
    widget = table(bot_pace="step")
    widget.moves.click("pass")
    assert len(widget.state.history) == 1 and visible(widget.next_bot_button)
    assert not widget.next_bot_button.disabled
    widget.next_bot_button.click()
    assert len(widget.state.history) == 2
    widget.set_bot_pace("instant")
    assert widget.state.current_player == 0 and not visible(widget.next_bot_button)
    with pytest.raises(ValueError, match="pace"):
        widget.set_bot_pace("fast")


def test_in_a_kernel_timed_bots_run_on_the_running_event_loop() -> None:
    """The default scheduler puts the bots' moves on the running asyncio loop (the kernel's in a notebook),
    and the widget answers between moves; the test waits for the moves themselves, not for time."""
    async def game() -> GameWidget:
        widget = table(bot_pace="timed", bot_delay=0.001)
        answered = asyncio.Event()
        widget.timeline.observe(lambda _: widget.state.current_player == 0 and answered.set(), names="max")
        widget.moves.click("pass")
        assert len(widget.state.history) == 1  # nobody moved yet: the bots wait for the loop
        await asyncio.wait_for(answered.wait(), timeout=30)
        return widget

    with ThreadPoolExecutor(1) as thread:  # a thread of its own: no other test's event loop is running there
        widget = thread.submit(asyncio.run, game()).result(timeout=60)
    assert [seat for seat, _ in widget.state.history] == [0, 1, 2] and widget.timeline.value == 3


class NoEventLoop:
    """The default scheduler outside a kernel: asyncio has no running loop to put timers on."""

    def call_later(self, delay: float, callback: Any) -> Any:
        raise RuntimeError("no running event loop")


def test_timed_play_without_a_running_kernel_falls_back_to_step_by_step() -> None:
    widget = table(bot_pace="timed", scheduler=NoEventLoop())
    widget.moves.click("pass")
    assert widget.bot_pace == "step" and "Timed play needs a running notebook kernel" in widget.message.value
    widget.next_bot_button.click()
    assert len(widget.state.history) == 2


def test_the_pace_survives_a_language_change() -> None:
    clock = ManualScheduler()
    widget = table(bot_pace="timed", scheduler=clock)
    widget.moves.click("pass")
    widget.language_picker.value = "fr"
    assert widget.bot_pace == "timed" and len(widget.state.history) == 1  # nothing played for a moment
    assert [label for label, _ in widget.pace_picker.options] == ["Immédiat", "1 coup / s", "Pas à pas"]
    assert clock.advance(1) == 1


# ---------------------------------------------------------------- projector mode

def test_projector_mode_keeps_only_the_table_in_large_type() -> None:
    widget = table()
    assert "--tabletop-scale: 1;" in widget.style_sheet.value
    widget.set_projector(True)
    assert "tabletop-projector" in widget._dom_classes and widget.projector_toggle.value
    assert widget.size_picker.value == 150 and "--tabletop-scale: 1.5;" in widget.style_sheet.value
    for piece in (widget.perspective_picker, widget.language_picker, widget.timeline_bar, widget.notation,
                  widget.panels):
        assert not visible(piece)
    for piece in (widget.table, widget.moves, widget.status, widget.bots_row, widget.projector_toggle):
        assert visible(piece)
    widget.size_picker.value = 200
    assert "--tabletop-scale: 2;" in widget.style_sheet.value
    widget.language_picker.value = "fr"
    assert not visible(widget.perspective_picker)  # the new picker is hidden too
    widget.projector_toggle.value = False
    assert widget.size_picker.value == 100 and visible(widget.panels) and visible(widget.perspective_picker)
    assert visible(widget.notation)  # Ana's turn: her moves in the notation box again
    assert "tabletop-projector" not in widget._dom_classes


def test_each_widget_scales_only_itself() -> None:
    first, second = table(), table(size=125)
    assert first._instance != second._instance
    assert f".{second._instance} {{ --tabletop-scale: 1.25; }}" in second.style_sheet.value
    assert second._instance in second._dom_classes and second._instance not in first.style_sheet.value


# ---------------------------------------------------------------- the end

def test_the_end_shows_the_games_reveal_or_who_won(monkeypatch: pytest.MonkeyPatch) -> None:
    widget = table()
    assert widget.end_panel.value == "" and not visible(widget.end_panel)
    widget.moves.click("guess", "1", str(widget.state.cards[1]))
    while not widget.state.is_over:
        widget.play(str(widget.state.legal_actions(0)[-1]))
    assert visible(widget.end_panel) and "tabletop-peek-reveal" in widget.end_panel.value  # Peek's own reveal
    for seat, name in enumerate(widget.state.players):
        assert name in widget.end_panel.value
    widget.timeline_bar.first_button.click()
    assert widget.end_panel.value == ""  # not at an earlier step

    monkeypatch.setattr("tabletop_edu.widgets.panels.game_renderer", lambda game, name: None)
    widget.invalidate()
    widget.timeline_bar.live_button.click()  # a game without a reveal of its own: who won
    assert visible(widget.end_panel) and "tabletop-results" in widget.end_panel.value
    for seat, name in enumerate(widget.state.players):
        assert name in widget.end_panel.value
    assert ("★" in widget.end_panel.value) == bool(widget.state.winners) and "Result" in widget.end_panel.value
    widget.timeline_bar.first_button.click()

    monkeypatch.setattr("tabletop_edu.widgets.panels.game_renderer",
                        lambda game, name: (lambda state, language: f"<p>reveal {language}</p>")
                        if name == "reveal_html" else None)
    widget.invalidate()
    widget.timeline_bar.live_button.click()
    assert widget.end_panel.value == "<div class='tabletop-end'><p>reveal en</p></div>"


# ---------------------------------------------------------------- redraws

def test_every_change_redraws_once_and_each_piece_is_computed_once() -> None:
    calls: list[tuple[object, str]] = []

    def panel(subject: Any, language: str) -> str:
        calls.append((getattr(subject, "seat", "state"), language))
        return "<p>panel</p>"

    widget = GameWidget(peek.new_game(3, seed=1), bots={1: RandomBot(), 2: RandomBot()}, knowledge=panel)
    for change in (lambda: widget.moves.click("pass"),  # a move, and both bots answering
                   lambda: widget.moves.click("peek"),  # a word: only the move buttons
                   lambda: widget.timeline_bar.first_button.click(),
                   lambda: widget.timeline_bar.next_button.click(),
                   lambda: setattr(widget.perspective_picker, "value", 1),
                   lambda: setattr(widget.language_picker, "value", "fr")):
        before = widget.redraws
        change()
        assert widget.redraws - before <= 1, change
    # computed once each: the deal and step 3 for Ana; step 1 for Ana, for Ben, for Ben in French
    assert calls == [(0, "en"), (0, "en"), (0, "en"), (1, "en"), (1, "fr")]
    widget.language_picker.value = "en"
    widget.perspective_picker.value = 0
    widget.timeline_bar.first_button.click()
    widget.timeline_bar.live_button.click()
    assert len(calls) == 5  # every piece seen before came from the cache


def test_switching_language_never_renders_another_perspective() -> None:
    widget = table(seed=3)
    widget.perspective_picker.value = 1
    rendered: list[object] = []
    redraw = widget._redraw

    def recording_redraw() -> None:
        rendered.append(widget.perspective)
        redraw()

    widget._redraw = recording_redraw  # type: ignore[method-assign]
    widget.language_picker.value = "fr"
    assert rendered == [1] and widget.perspective == 1


# ---------------------------------------------------------------- notebooks

def test_static_fallback_shows_the_seat_table_without_other_secrets() -> None:
    widget = table(seed=3)
    bundle = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == "<GameWidget: Peek, 3 players, step 0 of 0, seen by Ana>"
    static = bundle["text/html"]
    cards = widget.state.cards
    assert f"Ana is dealt the {cards[0]}" in static
    assert f"dealt the {cards[1]}" not in static and f"dealt the {cards[2]}" not in static


def test_french_labels_and_the_flow_drawing() -> None:
    widget = table()
    widget.moves.click("pass")
    widget.language_picker.value = "fr"
    assert widget.play_button.description == "Jouer" and widget.timeline_bar.live_button.description == "Direct ▶|"
    assert widget.perspective_picker.options[0][0] == "Enseignant (voit tout)"
    assert widget.status.value == "À jouer : Ana"
    widget.flow_button.click()
    assert "<svg" in widget.flow.value and "aria-label=\"Flux d&#39;information : Ana" in widget.flow.value
    widget.timeline_bar.first_button.click()
    assert widget.flow.value == ""  # drawn on request only: a step change stays fast
    widget.timeline_bar.live_button.click()
    assert "<svg" in widget.flow.value  # the drawing already made comes back


@pytest.mark.parametrize("options", [{"perspective": 3}, {"perspective": -1}, {"perspective": "teacher"},
                                     {"perspective": 1.5}, {"perspective": True}, {"language": "de"},
                                     {"bot_pace": "fast"}, {"size": 90}, {"bot_delay": 0}, {"bot_delay": "1"}])
def test_bad_options_are_refused_clearly(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="(?i)" + next(iter(options)).split("_")[-1]):
        GameWidget(peek.new_game(3, seed=0), **options)


@pytest.mark.parametrize("game", ["peek", "commissario", "get_adler", "mafia_de_cuba"])
def test_the_log_is_shown_once_in_its_panel_and_the_renderers_still_hold_it_alone(game: str) -> None:
    """On a projector every line counts: the table leaves its log to the log panel (and to the static
    picture, once). Renderers called on their own, as in the tutorials, still end with the log."""
    from tabletop_edu.rendering import render_state_html, render_view_html

    module = importlib.import_module("tabletop_edu.examples.peek" if game == "peek" else f"tabletop_edu.{game}")
    players = {"peek": 3, "commissario": 3, "get_adler": 4, "mafia_de_cuba": 6}[game]
    state = module.new_game(players, seed=2)
    widget = GameWidget(state, bots={seat: RandomBot() for seat in range(1, players)})
    for perspective in [OMNISCIENT, None, *range(players)]:
        widget.perspective_picker.value = perspective
        assert "tabletop-log" not in widget.table.value and widget.log_panel.value.count("class='tabletop-log'") == 1
        assert widget._repr_mimebundle_()["text/html"].count("class='tabletop-log'") == 1
        alone = render_state_html(state) if perspective == OMNISCIENT else render_view_html(state.view(perspective))
        assert alone.count("tabletop-log") == 1
