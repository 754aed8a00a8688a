"""The shared protocol: seeds, records, views, errors, bots."""

from __future__ import annotations

import copy
import importlib
import json
import random

import pytest

import tabletop_edu
from tabletop_edu.core import IllegalAction, RandomBot, RecordError, RulesError, play_game
from tabletop_edu.examples import peek


def played(seed: int, players: int = 3) -> peek.PeekState:
    return play_game(peek.new_game(players, seed=seed), [RandomBot()] * players)


def test_same_seed_same_game_and_record_replays() -> None:
    first, second = played(11), played(11)
    assert first.events == second.events
    replay = tabletop_edu.load(first.to_json())
    assert replay.events == first.events and replay.winners == first.winners
    assert json.loads(first.to_json())["actions"] == [list(entry) for entry in first.history]


def test_different_seeds_deal_differently() -> None:
    deals = {tuple(peek.new_game(4, seed=seed).cards) for seed in range(20)}
    assert len(deals) > 10


def test_a_game_without_seed_still_owns_one_and_replays() -> None:
    state = peek.new_game(2)
    assert isinstance(state.seed, int)
    state.apply("pass")
    assert peek.PeekState.from_json(state.to_json()).events == state.events


def test_clone_is_independent() -> None:
    state = peek.new_game(3, seed=2)
    clone = state.clone()
    clone.apply("peek 1")
    assert state.history == [] and len(clone.history) == 1


@pytest.mark.parametrize("players", [1, 5, ["a", "a"], ["a", ""], "abc", True, 2.5])
def test_bad_player_lists_are_refused(players: object) -> None:
    with pytest.raises(RulesError):
        peek.new_game(players, seed=0)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["7", 1.5, True])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(RulesError, match="seed"):
        peek.new_game(3, seed=seed)  # type: ignore[arg-type]


def test_bad_rules_are_refused() -> None:
    with pytest.raises(RulesError):
        peek.new_game(3, seed=0, rules=peek.Rules(highest_card=2))
    with pytest.raises(RulesError):
        peek.new_game(3, seed=0, rules={"rounds": 2})  # type: ignore[arg-type]
    record = json.loads(played(1).to_json())
    record["rules"]["speed"] = 3
    with pytest.raises(RecordError, match="speed"):
        peek.PeekState.from_record(record)
    record = json.loads(played(1).to_json())
    record["game"] = "os.path"
    with pytest.raises(RecordError, match="game"):
        tabletop_edu.load(record)


def test_views_hold_only_what_the_seat_saw() -> None:
    state = peek.new_game(3, seed=4)
    state.apply("peek 2")
    mine, theirs, spectator = state.view(0), state.view(1), state.view(None)
    assert mine.facts["known_cards"] == {0: state.cards[0], 2: state.cards[2]}
    assert theirs.facts["known_cards"] == {1: state.cards[1]}
    assert spectator.facts["my_card"] is None and spectator.facts["known_cards"] == {}
    assert f"holds the {state.cards[2]}" in mine.log[-1].text
    assert theirs.log[-1].text == "Seat 0 peeks at Seat 2's card."
    assert str(state.cards[2]) not in "".join(event.text for event in theirs.log if event.kind == "peek")
    with pytest.raises(IllegalAction):
        state.view(3)


def test_html_of_a_view_escapes_and_hides_other_cards() -> None:
    state = peek.new_game(["<b>Ann</b>", "Bob"], seed=1)
    html = state.view(1)._repr_html_()
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html
    assert f"dealt the {state.cards[0]}" not in html
    assert f"dealt the {state.cards[1]}" in html


def test_simultaneous_turns_need_a_named_seat_and_game_over_refuses() -> None:
    state = played(3)
    assert state.is_over and state.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply("pass")


def test_random_bot_is_reproducible_from_the_seed() -> None:
    assert played(8).history == played(8).history


def test_events_are_immutable_values_that_copy_and_pickle() -> None:
    import pickle

    from tabletop_edu.core import Event
    from tabletop_edu.core.events import NO_DATA

    state = played(3)
    event = state.events[-1]
    assert isinstance(event, Event) and state.events == [tuple(e) for e in state.events]
    with pytest.raises(AttributeError):
        event.text = "changed"  # type: ignore[misc]
    bare = Event(1, "note", "A note.")
    assert bare.data == {} and bare.data is NO_DATA and repr(bare.data) == "{}"
    with pytest.raises(TypeError):
        bare.data["leak"] = 1  # type: ignore[index]
    assert copy.deepcopy(bare).data is NO_DATA and pickle.loads(pickle.dumps(bare)) == bare
    assert copy.deepcopy(state.events) == state.events


@pytest.mark.parametrize("game", ["tabletop_edu.examples.peek", "tabletop_edu.commissario",
                                  "tabletop_edu.get_adler", "tabletop_edu.mafia_de_cuba"])
def test_check_says_what_apply_would_record_and_changes_nothing(game: str) -> None:
    module = importlib.import_module(game)
    rng = random.Random(7)
    state = module.new_game(module.State.min_players, seed=3)
    while not state.is_over:
        seat = state.acting_seats[0]
        for action in rng.sample(state.legal_actions(seat), min(3, len(state.legal_actions(seat)))):
            before = state.fingerprint()
            text = state.check(str(action), player=seat)
            assert state.fingerprint() == before
            probe = state.clone()
            probe.apply(str(action), player=seat)
            assert probe.history[-1] == (seat, text)
        for wrong in ("fly away", "x" * 500):
            with pytest.raises(IllegalAction) as checked:
                state.check(wrong, player=seat)
            with pytest.raises(IllegalAction) as applied:
                state.apply(wrong, player=seat)
            assert str(checked.value) == str(applied.value) and state.fingerprint() == before
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    with pytest.raises(IllegalAction, match="over"):
        state.check("pass")
