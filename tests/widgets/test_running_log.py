"""The class server's tables drawn with a running log (`rendering.RunningLog`: only the new events worded at each
step) are exactly the tables drawn whole, for every game, every seat, both languages, every step (and so is their
JSON, written from the pieces that keep theirs); and the memory
of wordings (`templates.remembered_wording`) words an event once and never says anything else."""

from __future__ import annotations

import json
import random
from types import ModuleType
from typing import Any

import pytest

from tabletop_edu import commissario, get_adler, mafia_de_cuba, rendering
from tabletop_edu.core import Event, FrozenDict, freeze
from tabletop_edu.core.events import NO_DATA, SeatLog
from tabletop_edu.examples import peek
from tabletop_edu.mafia_de_cuba import render as mafia_render
from tabletop_edu.rendering import RunningLog, render_view_html
from tabletop_edu.templates import remembered_wording, without_style
from tabletop_edu.templates.drawn import message_json

NAMES = ["<b>Ana</b>", "Ben & Co", "Chloé", "Dee", "Eve", "Farid", "Gus", "Hal"]
GAMES: dict[str, tuple[ModuleType, int]] = {
    "peek": (peek, 3), "commissario": (commissario, 3), "get_adler": (get_adler, 5),
    "mafia_de_cuba": (mafia_de_cuba, 8)}


def play_one(state: Any, rng: random.Random) -> None:
    seat = state.acting_seats[0]
    state.apply(rng.choice(state.legal_actions(seat)), player=seat)


@pytest.mark.parametrize("game", GAMES)
def test_running_log_draws_the_whole_table_at_every_step(game: str) -> None:
    module, players = GAMES[game]
    state = module.new_game(NAMES[:players], seed=7)
    rng = random.Random(3)
    seats = [*range(players), None]
    logs = {(seat, language, style): RunningLog(language, style) for seat in seats for language in ("en", "fr")
            for style in (True, False)}  # with the stylesheet, or for a class page that links it
    steps = 0
    while True:
        public = state.view(None)  # the class server hands it too: a game may draw from it what its tables share
        for (seat, language, style), log in logs.items():
            view = state.view(seat)
            html = log.table_html(view, public) if language == "fr" else log.table_html(view)  # as the class server
            whole = render_view_html(view, language)
            if style:
                assert html == whole, (game, steps, seat, language)
            else:  # a renderer that takes `style` leaves the stylesheet out; any other's is cut (`call_renderer`)
                assert without_style(html) == without_style(whole), (game, steps, seat, language)
                assert "<style>" not in html and "<style>" in whole, (game, steps)
            assert message_json({"html": html}) == json.dumps({"html": str(html)})  # the pieces' kept JSON too
        if state.is_over or steps == 60:
            break
        play_one(state, rng)
        steps += 1
    assert steps >= 5 and len(state.events) > steps  # the log grew through the game


def test_a_running_log_handed_another_game_starts_again() -> None:
    """A room that starts a new game (or a log handed a shorter, or a different, log) words it from the start."""
    first = mafia_de_cuba.new_game(NAMES[:6], seed=1)
    second = mafia_de_cuba.new_game(NAMES[:6], seed=2)
    rng = random.Random(0)
    for _ in range(12):
        play_one(first, rng)
    log = RunningLog("en")
    log.table_html(first.view(2))
    for state in (second, first, mafia_de_cuba.new_game(NAMES[:7], seed=1)):
        assert log.table_html(state.view(2)) == render_view_html(state.view(2), "en")


def test_remembered_wording_words_each_event_once() -> None:
    calls: list[Any] = []

    def wording(event: Event, players: Any, language: str) -> str:
        calls.append(event)
        return f"{players[0]} {event.text} ({language})"

    worded = remembered_wording(wording, limit=3)
    event = Event(1, "say", "hello", actor=0, data=freeze({"claim": "took 3", "box": [1, 2]}))
    again = Event(1, "say", "hello", actor=0, data=freeze({"box": [1, 2], "claim": "took 3"}))  # an equal copy
    assert worded(event, ["Ana"], "en") == "Ana hello (en)" and worded(again, ("Ana",), "en") == "Ana hello (en)"
    assert len(calls) == 1
    assert worded(event, ["Ben"], "en") == "Ben hello (en)" and worded(event, ["Ana"], "fr") == "Ana hello (fr)"
    assert len(calls) == 3  # other names, another language: worded again
    unhashable = Event(2, "say", "odd", data={"box": [1]})  # type: ignore[arg-type] - a plain dict inside
    assert worded(unhashable, ["Ana"], "en") == worded(unhashable, ["Ana"], "en") == "Ana odd (en)"
    assert len(calls) == 5  # not kept, worded each time
    worded(Event(3, "say", "a"), ["Ana"], "en")
    assert worded(event, ["Ana"], "en") == "Ana hello (en)"  # the memory was emptied at its limit, then refilled


def test_events_without_details_are_hashable_like_empty_details() -> None:
    assert NO_DATA == FrozenDict() and hash(NO_DATA) == hash(FrozenDict())
    assert hash(Event(0, "deal", "dealt")) == hash(Event(0, "deal", "dealt", data=FrozenDict()))


def test_mafia_de_cuba_lists_what_was_said_from_the_running_logs_words() -> None:
    """On Mafia de Cuba's floor, a table drawn with a running log lists what was said from the words the log
    already has (`worded`), not worded again: the same tables as drawn whole, at every step of a game of twelve
    with hostile names to its end (over a hundred statements), for two seats and the projector, in both
    languages."""
    names = [*NAMES, "Iris", "<i>Jo</i>", "K&amp;", "Lou"]
    state = mafia_de_cuba.new_game(names, seed=0)
    rng = random.Random(0)
    seats = [0, 5, None]
    kept = {seat: SeatLog(seat) for seat in seats}
    logs = {(seat, language): RunningLog(language) for seat in seats for language in ("en", "fr")}
    while not state.is_over:
        seat = rng.choice(list(state.acting_seats))
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        for (seat, language), log in logs.items():
            view = state.view(seat, kept[seat])
            assert log.table_html(view) == render_view_html(state.view(seat), language), (seat, language)
    said = [event for event in state.events if event.kind in mafia_render._SAID_KINDS]
    assert len(said) > 100 and "&lt;i&gt;Jo&lt;/i&gt;" in logs[(None, "en")].table_html(state.view(None))


def test_a_running_log_hands_mafia_de_cuba_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words of what was said come from the running log: with the renderer's own memory of wordings
    broken, the table drawn through a running log is still whole."""
    state = mafia_de_cuba.new_game(NAMES[:6], seed=1)
    rng = random.Random(1)
    while len(state.view(None).facts["testimonies"]) < 5:
        play_one(state, rng)
    expected = render_view_html(state.view(2), "fr")

    def broken(*_: Any) -> str:
        raise AssertionError("worded again")

    monkeypatch.setattr(mafia_render, "_said_text", broken)
    assert RunningLog("fr").table_html(state.view(2)) == expected
    with pytest.raises(AssertionError, match="worded again"):
        render_view_html(state.view(2), "fr")


def test_the_seats_running_logs_word_each_event_they_saw_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A class server draws every seat's table at every step: the running logs of a game word an event once
    for all the seats that saw that very event (a public one: all of them), and each seat's line still says
    only what it saw (its tables equal those drawn whole, with the wording not shared)."""
    calls: list[tuple[Event, str]] = []

    def counting(event: Event, players: Any, language: str = "en") -> str:
        calls.append((event, language))
        return mafia_render.event_text(event, players, language)

    def renderer(game: str, name: str) -> Any:
        return counting if name == "event_text" else original(game, name)

    original = rendering.game_renderer
    monkeypatch.setattr(rendering, "game_renderer", renderer)
    state = mafia_de_cuba.new_game(NAMES[:6], seed=4)
    rng = random.Random(4)
    seats = [*range(6), None]
    logs = {(seat, language): RunningLog(language) for seat in seats for language in ("en", "fr")}
    seen: set[tuple[Event, str]] = set()
    for _ in range(40):
        play_one(state, rng)
        for (seat, language), log in logs.items():
            view = state.view(seat)
            seen.update((event, language) for event in view.log)
            monkeypatch.setattr(rendering, "game_renderer", original)  # drawn whole: worded afresh, not counted
            whole = render_view_html(view, language)
            monkeypatch.setattr(rendering, "game_renderer", renderer)
            assert log.table_html(view) == whole, (seat, language)
    assert len(calls) == len(set(calls)) == len(seen)  # each event as seen, in each language, worded once
    public = [event for event in state.events if event.observers is None]
    assert len(public) > 10 and len(calls) < len(seats) * 2 * len(state.events) / 2  # not once per seat
