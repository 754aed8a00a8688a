"""`emit_event` makes the same events as `emit`, frozen the same way."""

from __future__ import annotations

import pytest

from tabletop_edu.core import FrozenDict, FrozenList
from tabletop_edu.examples import peek


def test_emit_event_and_emit_make_equal_events_with_frozen_details() -> None:
    state = peek.new_game(3, seed=1)
    cards = ["a", "b"]
    by_keywords = state.emit("look", "Seat 0 looks.", actor=0, observers=[0], redacted="Someone looks.",
                             redacted_data={"seat": 0}, seat=0, cards=cards)
    in_order = state.emit_event("look", "Seat 0 looks.", 0, None, frozenset({0}), "Someone looks.",
                                {"seat": 0, "cards": cards}, {"seat": 0})
    assert in_order == by_keywords and type(in_order.data["cards"]) is FrozenList
    cards.append("c")  # the engine's own list changes; the events keep what was seen
    assert in_order.data["cards"] == ["a", "b"] == by_keywords.data["cards"]
    with pytest.raises(TypeError):
        in_order.data["cards"].append("d")  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        in_order.redacted_data["seat"] = 1  # type: ignore[index]


def test_emit_event_keeps_frozen_details_as_given() -> None:
    state = peek.new_game(3, seed=1)
    details = FrozenDict(seat=1, card="x")
    event = state.emit_event("draw", "Seat 1 draws x.", None, "deck", frozenset({1}), "Seat 1 draws.", details,
                             FrozenDict(seat=1))
    assert event.data is details and event in state.events and event.step == len(state.history)
