"""Views as JSON (`view_to_json` / `view_from_json`): what a student's bot receives over the network is the
seat's view exactly, for every game at every kind of moment, and anything else is refused with a clear error."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tabletop_edu import registry
from tabletop_edu.core import Event, FrozenDict, RandomBot, View, view_from_json, view_to_json
from tabletop_edu.core.events import NO_DATA


def through_the_wire(view: View) -> View:
    """The view as a program across the network gets it: encoded, written as JSON text, read, decoded."""
    data = json.loads(json.dumps(view_to_json(view)))
    assert data == view_to_json(view)  # the encoding is JSON data already: nothing changes on the way
    return view_from_json(data)


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_game_s_views_round_trip_at_many_steps(name: str) -> None:
    plugin = registry.games()[name]
    for players in sorted({plugin.min_players, plugin.max_players}):
        state = plugin.new_game(players, seed=players + 7)
        rng, bot, checked = random.Random(players), RandomBot(), 0
        every = max(1, state.max_steps // 12)  # a dozen moments of a game, or every step of a short one
        while True:
            if state.is_over or len(state.history) % every == 0:
                for seat in (None, *range(players)):
                    view = state.view(seat)
                    again = through_the_wire(view)
                    assert again == view and again.rules == state.rules and type(again.rules) is type(state.rules)
                    assert [event.data for event in again.log] == [event.data for event in view.log]
                    checked += 1
            if state.is_over:
                break
            seat = state.acting_seats[0]
            state.apply(bot.choose(state.view(seat), state.legal_actions(seat), rng), player=seat)
        assert checked > players + 1


def shaped_view() -> View:
    """A view whose facts and events hold every shape a game may use: tuples, sets, int and tuple keys, keys
    starting with '$', floats, nesting."""
    facts = {"hand": (3, "K", (1, 2)), "seen": {1, 2}, "by_seat": {0: ["a"], 2: {"x": None}},
             "$weird": {"$tuple": 1}, "pairs": {(0, 1): True}, "ratio": 0.25, "empty": {}, "none": None}
    events = (Event(0, "deal", "You got K", actor=None, source="deck", observers=frozenset({1}),
                    redacted="Someone got a card", data=FrozenDict({"card": "K", "order": (2, 1)}),
                    redacted_data=FrozenDict({"count": 1})),
              Event(1, "pass", "Ada passed", actor=0))
    return View("tabletop_edu.examples.peek", 1, ("Ada", "Bo", "Cy"), (0, 2), False, facts, events, None)


def test_tuples_sets_and_other_keys_keep_their_shapes() -> None:
    view = shaped_view()
    again = through_the_wire(view)
    assert again == view
    assert type(again.facts["hand"]) is tuple and type(again.facts["hand"][2]) is tuple
    assert again.facts["seen"] == frozenset({1, 2}) and set(again.facts["by_seat"]) == {0, 2}
    assert again.facts["pairs"] == {(0, 1): True} and again.facts["$weird"] == {"$tuple": 1}
    assert again.current_player == (0, 2) and again.log[1].data is NO_DATA
    with pytest.raises(TypeError, match="read-only"):
        again.facts["by_seat"][0].append("b")  # frozen like every view


def test_what_json_cannot_hold_is_refused_when_encoding() -> None:
    for bad in (object(), float("nan"), b"bytes"):
        with pytest.raises((TypeError, ValueError), match="JSON form"):
            view_to_json(View("g", None, ("A",), None, False, {"x": bad}))


def broken(change: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(view_to_json(shaped_view())))
    change(data)
    return data


BAD = {
    "not an object": (lambda d: None, "keys"),
    "a key missing": (lambda d: d.pop("log"), "keys"),
    "an unknown key": (lambda d: d.update(extra=1), "keys"),
    "game not text": (lambda d: d.update(game=3), "game"),
    "players not names": (lambda d: d.update(players=["A", 2]), "players"),
    "seat off the table": (lambda d: d.update(seat=9), "seat"),
    "seat a boolean": (lambda d: d.update(seat=True), "seat"),
    "current player not a seat": (lambda d: d.update(current_player="0"), "current_player"),
    "is_over not a boolean": (lambda d: d.update(is_over=1), "is_over"),
    "facts not an object": (lambda d: d.update(facts=[1]), "facts"),
    "unknown tag": (lambda d: d["log"][0]["data"].update(x={"$frozen": [1]}), "tags"),
    "tag without a list": (lambda d: d["log"][0]["data"].update(x={"$tuple": 1}), "holds a list"),
    "unhashable set item": (lambda d: d["log"][0]["data"].update(x={"$set": [[1]]}), "key is needed"),
    "dict without pairs": (lambda d: d["log"][0]["data"].update(x={"$dict": [[1, 2, 3]]}), "pairs"),
    "too deep": (lambda d: d["log"][0]["data"].update(x=json.loads("[" * 40 + "]" * 40)), "deeper"),
    "log not a list": (lambda d: d.update(log={}), "log"),
    "event missing a key": (lambda d: d["log"][0].pop("kind"), r"log\[0\]"),
    "event step a text": (lambda d: d["log"][1].update(step="1"), r"log\[1\]"),
    "observers not seats": (lambda d: d["log"][0].update(observers="1"), "observers"),
    "redacted not text": (lambda d: d["log"][0].update(redacted=5), "redacted"),
    "data not an object": (lambda d: d["log"][0].update(data=[1]), "data"),
    "unknown game's rules": (lambda d: d.update(game="no.such_game", rules={"cards": 3}), "no installed game"),
    "bad rules": (lambda d: d.update(game="tabletop_edu.examples.peek", rules={"nonsense": 1}), "rules"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_every_kind_of_malformed_view_json_is_refused_by_name(case: str) -> None:
    change, message = BAD[case]
    data = None if case == "not an object" else broken(change)
    with pytest.raises(ValueError, match=message):
        view_from_json(data)
