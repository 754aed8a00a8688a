"""Records are checked as strictly as the moves and names they replay: each bad field is a `RecordError` naming it.

A record is a promise that loading it gives the same game every time: a missing seed, a seat left unsaid or a name
of any length would each break it (five loads of `"seed": null` dealt five different games).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import tabletop_edu
from tabletop_edu.core import RandomBot, RecordError, RulesError, play_game
from tabletop_edu.core.state import MAX_PLAYER_NAME, MAX_SEED
from tabletop_edu.examples import peek


def finished_record(seed: int = 7) -> dict[str, Any]:
    state = play_game(peek.new_game(["Ann", "Bob", "Cleo"], seed=seed), [RandomBot()] * 3)
    record: dict[str, Any] = json.loads(state.to_json())
    return record


def with_change(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    record = finished_record()
    change(record)
    return record


BAD_RECORDS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("null seed", lambda record: record.update(seed=None), "seed"),
    ("text seed", lambda record: record.update(seed="7"), "seed"),
    ("float seed", lambda record: record.update(seed=7.0), "seed"),
    ("bool seed", lambda record: record.update(seed=True), "seed"),
    ("negative seed", lambda record: record.update(seed=-1), "seed"),
    ("huge seed", lambda record: record.update(seed=MAX_SEED), "seed"),
    ("null seat", lambda record: record["actions"][0].__setitem__(0, None), "step 1: the seat"),
    ("text seat", lambda record: record["actions"][1].__setitem__(0, "0"), "step 2: the seat"),
    ("bool seat", lambda record: record["actions"][0].__setitem__(0, False), "step 1: the seat"),
    ("seat out of the table", lambda record: record["actions"][0].__setitem__(0, 3), "step 1: the seat"),
    ("negative seat", lambda record: record["actions"][0].__setitem__(0, -1), "step 1: the seat"),
    ("long name", lambda record: record["players"].__setitem__(0, "A" * 10_000_000), "players: .*at most"),
    ("control character in a name", lambda record: record["players"].__setitem__(1, "Bob\x1b[2J"), "players: .*control"),
    ("name not a text", lambda record: record["players"].__setitem__(1, 5), "players"),
    ("same name twice", lambda record: record["players"].__setitem__(1, "Ann"), "players"),
]


@pytest.mark.parametrize(("bad", "change", "complaint"), BAD_RECORDS, ids=[bad for bad, _, _ in BAD_RECORDS])
def test_a_bad_field_is_a_record_error_naming_it(bad: str, change: Callable[[dict[str, Any]], None],
                                                 complaint: str) -> None:
    record = with_change(change)
    with pytest.raises(RecordError, match=complaint):
        tabletop_edu.load(record)
    with pytest.raises(RecordError, match=complaint):
        tabletop_edu.load(json.dumps(record))


def test_a_good_record_loads_to_the_same_game_every_time() -> None:
    record = finished_record()
    games = [tabletop_edu.load(json.dumps(record)) for _ in range(5)]
    assert len({game.to_json() for game in games}) == 1
    assert games[0].players == ("Ann", "Bob", "Cleo") and games[0].seed == 7


def test_names_are_bounded_on_the_way_in_too() -> None:
    longest = "N" * MAX_PLAYER_NAME
    assert peek.new_game([longest, "Bob"], seed=1).players[0] == longest
    with pytest.raises(RulesError, match="at most"):
        peek.new_game([longest + "N", "Bob"], seed=1)
    with pytest.raises(RulesError, match="control"):
        peek.new_game(["Ann\n", "Bob"], seed=1)
