"""Bad input gives a clear IllegalAction and changes nothing (fingerprint and events unchanged)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_edu.core import Action, IllegalAction
from tabletop_edu.mafia_de_cuba import (Accuse, Ask, Hide, MafiaState, Rules, Saw, SetAside, Suspect, TakeFromBox, Took,
                                        new_game, parse_action)

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]
#: The box phase, then the free-talk floor goes by: the Godfather is to ask or accuse.
INVESTIGATION = BOX_6 + ["pass"] * 5


def play(texts: list[str], rules: Rules | None = None) -> MafiaState:
    """Play `texts` from a seeded start; a "CLOSES" among them means the table plays with
    `godfather_closes_floor`."""
    if "CLOSES" in texts:
        texts, rules = [text for text in texts if text != "CLOSES"], Rules(godfather_closes_floor=True)
    state = new_game(6, seed=0, rules=rules)
    for text in texts:
        state.apply_script([text])
    return state


CASES = [
    # (actions before, bad action, player, a word the message must hold)
    (BOX_6[:2], "take 0", None, "at least 1"),
    (BOX_6[:2], "take loyal fbi", None, "exactly one"),
    (BOX_6[:2], "take cia", None, "no cia"),
    (BOX_6[:4], "take loyal", None, "no loyal"),
    (BOX_6[:2], "take 14", None, "holds 13"),
    (BOX_6[:2], "take nothing", None, "must take"),
    (BOX_6[:1], "set-aside cia", None, "no cia"),
    (INVESTIGATION, "accuse 0", None, "himself"),
    (INVESTIGATION + ["accuse 1"] + ["pass"] * 4, "accuse 1", None, "eliminated"),
    (INVESTIGATION, "accuse 6", None, "no seat"),
    (INVESTIGATION, "accuse 42", None, "no seat"),
    (INVESTIGATION, "floor", None, "by itself"),
    (INVESTIGATION + ["ask 3 took", "took 4"] + ["pass"] * 5, "ask 3 took", None, "already asked"),
    (BOX_6, "ask 3 took", 1, "Only the Godfather"),  # R4.2: the floor is open, but only he asks
    (BOX_6, "silent", 1, "'pass'"),
    (BOX_6, "ask 3 took", 0, "waiting for"),  # R4.2: he waits for the round of answers (by default)
    (BOX_6 + ["took loyal"], "took 3", 1, "not"),  # R4.2: one word per seat per floor
    (BOX_6 + ["pass"], "pass", 1, "not"),
    (BOX_6, "saw 16", 1, "0 to 15"),  # on the floor too, a claim from outside the menu is checked in full
    (BOX_6, "suspect 1", 1, "yourself"),
    (BOX_6, "took cleaner", 2, "not in this game"),
    (BOX_6, "ask 3 took", None, "at the same time"),  # a simultaneous floor: say whose move it is
    (BOX_6[:3], "take 2", 4, "not"),  # out of turn: seat 4 while seat 2 holds the box
    (INVESTIGATION, "ask 3 took", 3, "not"),  # a taker cannot question
    (INVESTIGATION + ["ask 3 took"], "suspect 3", None, "asked 'took'"),
    (INVESTIGATION + ["ask 3 took"], "pass", None, "asked seat answers"),
    (INVESTIGATION + ["ask 3 suspect"], "suspect 3", None, "yourself"),
    (INVESTIGATION + ["ask 3 seen"], "saw 16", None, "0 to 15"),
    (INVESTIGATION + ["ask 3 seen"], "saw 3 cia", None, "only 0 cia"),
    (INVESTIGATION + ["ask 3 took"], "took cleaner", None, "not in this game"),
    (INVESTIGATION, "take 2", None, "does not hold the box"),
    (INVESTIGATION, "hold", None, "Cleaner variant"),
    ([], "hide 9", None, "0 to 5"),
    ([], "fly away", None, "not a Mafia de Cuba action"),
    # with `godfather_closes_floor` he may move on an open floor, but is no witness on it
    (BOX_6 + ["CLOSES"], "took 3", 0, "one word each"),
    (BOX_6 + ["CLOSES"], "pass", 0, "by a taker"),
    (BOX_6 + ["CLOSES"], "floor", 0, "already open"),
]


@pytest.mark.parametrize(("before", "bad", "player", "word"), CASES,
                         ids=[f"{case[1]}-{i}" for i, case in enumerate(CASES)])
def test_bad_input_is_refused_clearly_and_atomically(before: list[str], bad: str, player: int | None,
                                                     word: str) -> None:
    state = play(before)
    fingerprint, events = state.fingerprint(), len(state.events)
    with pytest.raises(IllegalAction, match=word):
        state.apply(bad, player=player)
    assert state.fingerprint() == fingerprint and len(state.events) == events


#: (actions before, a legal action, the same move with wrong-typed fields): issue 10, typed actions.
ASKED = {kind: INVESTIGATION + [f"ask 1 {kind}"] for kind in ("seen", "took", "suspect")}
WRONG_TYPES: list[tuple[list[str], Action, Action]] = [
    ([], Hide(2), Hide(True)), ([], Hide(2), Hide(2.0)), ([], Hide(2), Hide("2")),  # type: ignore[arg-type]
    (BOX_6[:1], SetAside("fbi"), SetAside("FBI")), (BOX_6[:1], SetAside(None), SetAside(0)),  # type: ignore
    (BOX_6[:2], TakeFromBox(1), TakeFromBox(True)), (BOX_6[:2], TakeFromBox(1), TakeFromBox(1.0)),  # type: ignore
    (BOX_6[:2], TakeFromBox(3), TakeFromBox(0, 3)),  # type: ignore[arg-type]
    (BOX_6[:2], TakeFromBox(0, "loyal"), TakeFromBox(2, "loyal")),
    (INVESTIGATION, Ask(1, "took"), Ask(True, "took")),  # type: ignore[arg-type]
    (INVESTIGATION, Ask(1, "took"), Ask(1.0, "took")),  # type: ignore[arg-type]
    (INVESTIGATION, Ask(1, "took"), Ask(1, "TOOK")), (INVESTIGATION, Ask(1, "took"), Ask(1, 2)),  # type: ignore
    (INVESTIGATION, Accuse(1), Accuse(True)), (INVESTIGATION, Accuse(1), Accuse("1")),  # type: ignore[arg-type]
    (ASKED["seen"], Saw(10, ("loyal",)), Saw(10.0, ("loyal",))),  # type: ignore[arg-type]
    (ASKED["seen"], Saw(10, ("loyal",)), Saw(10, ["loyal"])),  # type: ignore[arg-type]
    (ASKED["seen"], Saw(10, ("loyal", "driver")), Saw(10, ("driver", "loyal"))),
    (ASKED["took"], Took(1), Took(True)), (ASKED["took"], Took(), Took(0, "nothing")),  # type: ignore[arg-type]
    (ASKED["suspect"], Suspect(2), Suspect(2.0)), (ASKED["suspect"], Suspect(2), Suspect(False)),  # type: ignore
]


@pytest.mark.parametrize(("before", "good", "bad"), WRONG_TYPES, ids=[repr(case[2]) for case in WRONG_TYPES])
def test_every_action_with_wrong_typed_fields_is_refused_with_no_state_change(before: list[str], good: Action,
                                                                             bad: Action) -> None:
    state = play(before)
    assert good in state.legal_actions()  # the well-typed move is legal: only the types are wrong
    fingerprint, events = state.fingerprint(), len(state.events)
    with pytest.raises(IllegalAction):
        state.apply_script([bad])
    assert state.fingerprint() == fingerprint and len(state.events) == events
    state.apply_script([good])
    assert state.history[-1][1] == str(good) and str(parse_action(state.history[-1][1])) == str(good)


def test_notation_round_trips_for_examples() -> None:
    for text in ["hide 2", "set-aside fbi", "set-aside none", "take 3", "take driver", "take nothing",
                 "ask 4 seen", "floor", "accuse 4", "saw 12 loyal driver", "saw 0", "took 2", "took loyal",
                 "suspect 3", "silent", "pass", "shoot", "hold"]:
        assert str(parse_action(text)) == text
    assert str(parse_action("saw 3 driver loyal")) == "saw 3 loyal driver"


@settings(max_examples=20, deadline=None)
@given(players=st.integers(6, 12), seed=st.integers(0, 10**6), junk=st.lists(st.text(max_size=12), max_size=4),
       budget=st.booleans())
def test_random_play_with_junk_never_corrupts_the_state(players: int, seed: int, junk: list[str],
                                                        budget: bool) -> None:
    """Property: interleaving random legal actions with junk text always ends a valid game."""
    rules = Rules(interrogation="budget") if budget else Rules()
    state, rng = new_game(players, seed=seed, rules=rules), random.Random(seed)
    while not state.is_over:
        for text in junk:
            before = state.fingerprint()
            try:
                state.apply(text, player=rng.choice(state.acting_seats))
            except IllegalAction:
                assert state.fingerprint() == before
        seat = rng.choice(state.acting_seats)
        legal = state.legal_actions(seat)
        quiet = [action for action in legal if str(action) == "pass" and rng.random() < 0.7]
        state.apply(rng.choice(quiet or legal), player=seat)
        assert len(state.history) <= state.max_steps
    assert state.winners
    assert state.recovered <= state.stolen


def test_legal_actions_are_shared_read_only_menus_with_a_clear_error() -> None:
    """Issue 22: menus are built once and shared between states; changing one in place would change every
    game's, so it is refused with a message saying to copy it (the copy can be shuffled)."""
    state = play(BOX_6)
    menu = state.legal_actions(1)
    assert menu is play(BOX_6).legal_actions(1)  # one menu for every state in the same position
    before = list(menu)
    with pytest.raises(TypeError, match=r"copy them first"):
        random.Random(0).shuffle(menu)
    with pytest.raises(TypeError, match=r"list\(state.legal_actions\(\)\)"):
        menu.append(menu[0])
    assert list(menu) == before
    options = list(menu)
    random.Random(0).shuffle(options)
    assert sorted(map(str, options)) == sorted(map(str, before))


def test_a_clone_is_independent_of_its_original() -> None:
    """Issue 22's cheap copy: containers copied one level deep and the generator's state copied must still give
    a clone whose moves and draws never reach the original."""
    state = play(BOX_6 + ["took loyal"])
    fingerprint, draws = state.fingerprint(), state.clone().rng.random()
    clone = state.clone()
    assert clone.fingerprint() == fingerprint
    for seat in (2, 3, 4, 5):
        clone.apply("pass", player=seat)
    clone.apply("accuse 1")
    clone.rng.random()
    assert 1 in clone.eliminated and 1 not in state.eliminated and clone.asked == [] and state.spoke == [1]
    assert state.fingerprint() == fingerprint and state.rng.random() == draws


@pytest.mark.parametrize("rules", [Rules(), Rules(interrogation="budget", question_budget=4),
                                   Rules(cleaner=True, jokered_can_be_accused=True, jokers=3),
                                   Rules(godfather_closes_floor=True, interrogation="budget", cleaner=True)])
def test_the_godfathers_kept_menu_is_the_one_a_fresh_replay_builds(rules: Rules) -> None:
    """Issue 22: the Godfather's menu is kept between his moves; after every question, floor, accusation, vote
    and verdict it must be the menu a replay of the record (which never built one) gives, on the original and on
    clones taken along the way."""
    checked = 0
    for seed in range(6):
        state, rng = new_game(8, seed=seed, rules=rules), random.Random(seed)
        while not state.is_over:
            godfather = state.godfather
            if godfather in state.acting_seats:
                kept = state.legal_actions(godfather)
                assert state.clone().legal_actions(godfather) == kept
                assert kept == MafiaState.from_record(state.record()).legal_actions(godfather)
                checked += 1
            seat = rng.choice(state.acting_seats)
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    assert checked > 20


def test_a_tables_talk_is_shared_by_its_states_clones_and_copies_and_checks_a_foreign_value_in_full() -> None:
    """The floor's menus and the identities of their values are made once per kind of table: clones and pickled
    copies use the same ones (a menu value is known valid by identity), and an equal value made elsewhere is
    still checked in full."""
    import pickle

    state = play(BOX_6)
    copy = pickle.loads(pickle.dumps(state))
    assert copy._talk is state._talk is state.clone()._talk is play(BOX_6)._talk
    assert copy.legal_actions(1) is state.legal_actions(1)
    copy.apply(copy.legal_actions(1)[0], player=1)
    assert copy.events[-1].text.startswith("Seat 1 volunteers:") and state.floor == [1, 2, 3, 4, 5]
    with pytest.raises(IllegalAction, match="only 1 fbi token"):
        state.apply(Saw(3, ("fbi", "fbi")), player=2)
    state.apply(Saw(3, ("fbi",)), player=2)  # equal to a menu value, not one of them: checked and played
    assert state.floor == [1, 3, 4, 5] and new_game(7, seed=0)._talk is not state._talk
