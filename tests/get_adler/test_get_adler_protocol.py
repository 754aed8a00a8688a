"""Conformance (check_game), bad input and random-sequence properties of the Get Adler engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import tabletop_edu.get_adler as get_adler
from tabletop_edu.core import IllegalAction
from tabletop_edu.get_adler import (Answer, Arrest, Ask, Binoculars, Discard, Give, Magnify, Respond, Rules, new_game,
                                    parse_action)
from tabletop_edu.testing import check_game


@pytest.mark.parametrize("players", [4, 5, 6])
def test_check_game(players):
    report = check_game(get_adler, players=players, games=3, seed=10 * players, illegal_per_step=2,
                        resample_every=2)
    assert report.games == 3 and report.twins_checked > 0


#: Every option away from its default at once: short hands refilled higher, a long game with reshuffles,
#: truthful Adler, no arrests in the last hour, heroes who survive duels, the latest hero facing Adler, another
#: cast.
VARIANT = Rules(hours=9, hand_size=4, refill_to=6, adler_may_lie=False, first_arrest_hour=2, last_arrest_hour=8,
                wrong_arrest_skips=2, stunned_can_respond=True, shot_hero_out=False, shot_hero_skips=2,
                bomb_skips=2, documents_to_win=2, escape_answer_card="pistol", duel_with="latest_hero",
                resume_after="latest_hero",
                cast=("Adler", "Kate Collins", "Agent Tarasov", "Gold", "Sharpe", "Townsend"))


@pytest.mark.parametrize("players", [4, 6])
def test_check_game_with_other_options(players):
    report = check_game(get_adler, players=players, games=2, seed=7, rules=VARIANT, illegal_per_step=2,
                        resample_every=2)
    assert report.games == 2 and report.twins_checked > 0


def refused(state, text, word, player=None):
    before = state.fingerprint()
    with pytest.raises(IllegalAction, match=word):
        state.apply(text, player=player)
    assert state.fingerprint() == before


def test_bad_input_arrest_in_hour_two(helpers):
    state = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player], hour=2)
    assert state.hour == 2
    refused(state, f"arrest {(state.current_player + 1) % 4}", "hour")


def test_bad_input_asking_yourself(helpers):
    state = helpers.find_state(4, lambda s: "question" in s.hands[s.current_player])
    refused(state, f"ask {state.current_player} hat black", "yourself")


def test_bad_input_colour_that_does_not_exist():
    state = new_game(4, seed=0)
    refused(state, "ask 1 hat purple", "hat colour")
    refused(state, "ask 1 nose black", "trait")


def test_bad_input_card_not_in_hand():
    state = new_game(4, seed=0)
    missing = next(c for c in get_adler.rules.CARDS if c not in state.hands[0])
    refused(state, f"discard {missing}", "no " + missing)


def test_bad_input_acting_while_stunned(helpers):
    state = helpers.find_state(4, lambda s: "arrest" in s.hands[s.current_player], hour=4)
    seat = state.current_player
    target = next(s for s in range(4) if s not in (seat, state.adler))
    state.apply(f"arrest {target}")
    while state.current_player != target:
        helpers.plain_turn(state)
    refused(state, f"discard {state.hands[target][0]}", "wrong arrest")


def test_bad_input_out_of_turn():
    state = new_game(4, seed=0)
    refused(state, f"discard {state.hands[1][0]}", "not", player=1)


def test_bad_input_answer_when_not_asked_and_malformed_text():
    state = new_game(4, seed=0)
    refused(state, "answer yes", "asked")
    refused(state, "binoculars 1 give pistol", "binoculars K")  # the old one-step notation (R4.5)
    refused(state, "dance", "not a Get Adler action")


def test_notation_round_trip_examples():
    for text in ["ask 2 hat black", "answer yes", "magnify 3", "binoculars 1", "give pistol", "arrest 4",
                 "respond pistol", "discard question", "surrender", "pass", "skip"]:
        assert str(parse_action(text)) == text and parse_action(str(parse_action(text))) == parse_action(text)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(4, 6), seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, 10**6), max_size=80))
def test_random_sequences_keep_cards_and_invariants(players, seed, picks):
    state = new_game(players, seed=seed)
    total = len(state.rules.deck(players))
    for pick in picks:
        if state.is_over:
            break
        seat = random.Random(pick).choice(state.acting_seats)
        legal = state.legal_actions(seat)
        state.apply(legal[pick % len(legal)], player=seat)
        assert len(state.deck) + len(state.discard_pile) + sum(map(len, state.hands)) == total
        assert all(skip >= 0 for skip in state.skips)
        assert sorted(state.characters) == sorted(get_adler.CAST[:players])


# ------------------------------------------------------------------------------------- typed actions


def _turn_with(helpers, card, hour=1):
    return helpers.find_state(4, lambda s: card in s.hands[s.current_player], hour=hour)


def _answering(helpers):
    state = _turn_with(helpers, "question")
    state.apply(f"ask {(state.current_player + 1) % 4} hat black")
    return state


def _giving(helpers):
    state = _turn_with(helpers, "binoculars")
    state.apply(f"binoculars {(state.current_player + 1) % 4}")
    return state


def _confronted(helpers):
    state = helpers.find_state(4, helpers.hero_to_arrest_adler_holding("disguise"), hour=4)
    state.apply(f"arrest {state.adler}")
    return state


# (situation, a well-typed legal action, the same action with a wrong-typed field)
TYPED = [
    (lambda h: _turn_with(h, "question"), lambda s: Ask((s.current_player + 1) % 4, "hat", "black"),
     lambda s: Ask(float((s.current_player + 1) % 4), "hat", "black")),
    (lambda h: _turn_with(h, "question"), lambda s: Ask((s.current_player + 1) % 4, "hat", "black"),
     lambda s: Ask(True if s.current_player == 0 else False, "hat", "black")),
    (lambda h: _turn_with(h, "question"), lambda s: Ask((s.current_player + 1) % 4, "hat", "black"),
     lambda s: Ask(str((s.current_player + 1) % 4), "hat", "black")),
    (lambda h: _turn_with(h, "question"), lambda s: Discard("question"), lambda s: Discard(1)),
    (lambda h: _turn_with(h, "magnify"), lambda s: Magnify((s.current_player + 1) % 4),
     lambda s: Magnify((s.current_player + 1) % 4 + 0.0)),
    (lambda h: _turn_with(h, "binoculars"), lambda s: Binoculars((s.current_player + 1) % 4),
     lambda s: Binoculars(str((s.current_player + 1) % 4))),
    (lambda h: _turn_with(h, "arrest", hour=4), lambda s: Arrest((s.current_player + 1) % 4),
     lambda s: Arrest(float((s.current_player + 1) % 4))),
    (_answering, lambda s: s.legal_actions()[0], lambda s: Answer(int(s.legal_actions()[0].yes))),
    (_answering, lambda s: s.legal_actions()[0], lambda s: Answer("yes" if s.legal_actions()[0].yes else "")),
    (_giving, lambda s: s.legal_actions()[0], lambda s: Give(0)),
    (_giving, lambda s: s.legal_actions()[0], lambda s: Give((s.legal_actions()[0].card,))),
    (_confronted, lambda s: Respond("disguise"), lambda s: Respond(None)),
]


@pytest.mark.parametrize(("situation", "good", "bad"), TYPED,
                         ids=["ask-float", "ask-bool", "ask-str", "discard-int", "magnify-float", "binoculars-str",
                              "arrest-float", "answer-int", "answer-str", "give-int", "give-tuple",
                              "respond-none"])
def test_wrong_typed_fields_are_refused_and_change_nothing(helpers, situation, good, bad):
    state = situation(helpers)
    seat = state.current_player
    assert str(good(state)) in [str(a) for a in state.legal_actions()]  # the well-typed twin is legal here
    hand, before = list(state.hands[seat]), state.fingerprint()
    with pytest.raises(IllegalAction) as refusal:
        state.apply(bad(state), player=seat)
    assert str(refusal.value) and not isinstance(refusal.value.__cause__, TypeError)
    assert state.fingerprint() == before and state.hands[seat] == hand  # the question card is still in hand


# ------------------------------------------------------------------------------------- worlds from views


def test_resample_knows_only_the_view():
    """Issue 10: the world used to keep the true seed (re-dealing it gave the true characters)."""
    state = new_game(4, seed=7)
    redealt = 0
    for k in range(48):
        world = state.resample(0, random.Random(k))
        assert world.view(0) == state.view(0) and world.seed != state.seed
        redealt += new_game(4, seed=world.seed).characters == state.characters
    assert redealt <= 12  # chance is 1 in 24 (the old sampler: 48 out of 48)


def test_two_games_a_seat_cannot_tell_apart_give_the_same_worlds(helpers):
    state = helpers.find_state(5, lambda s: "binoculars" in s.hands[s.current_player], hour=2)
    state.apply(f"binoculars {(state.current_player + 1) % 5}")
    state.apply(state.legal_actions()[-1])
    for seat in (None, 0, 3):
        twin = get_adler.world_from_view(state.view(seat), random.Random(99))
        assert twin.view(seat) == state.view(seat)
        assert (twin.characters, twin.hands) != (state.characters, state.hands)
        for k in range(3):
            assert twin.resample(seat, random.Random(k)).fingerprint() == \
                state.resample(seat, random.Random(k)).fingerprint()


def test_resample_keeps_what_the_seat_saw_and_redraws_the_rest(helpers):
    state = helpers.find_state(4, lambda s: "magnify" in s.hands[s.current_player])
    seat = state.current_player
    target = (seat + 2) % 4
    state.apply(f"magnify {target}")
    decks, characters = set(), set()
    for k in range(20):
        world = state.resample(seat, random.Random(k))
        assert world.view(seat) == state.view(seat)
        assert sorted(world.hands[target]) == sorted(state.hands[target])  # seen by the magnifying glass
        assert world.characters[seat] == state.characters[seat]
        assert len(world.history) == len(state.history)
        decks.add(tuple(world.deck))
        characters.add(tuple(world.characters))
    assert len(decks) > 1 and len(characters) > 1


def test_worlds_are_whole_games_every_seat_can_resample(helpers):
    """A world is consistent for every seat, not only the one it was drawn for: each of its seats' views
    is explained by a deal (world_from_view raises otherwise) and is kept by resampling."""
    state = new_game(6, seed=3, rules=Rules(hours=20, hand_size=4))
    rng = random.Random(3)
    while len(state.history) < 150 and not state.is_over:
        seat = rng.choice(state.acting_seats)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    assert any(e.kind == "reshuffle" for e in state.events) and any(e.kind == "give" for e in state.events)
    world = state.resample(2, random.Random(5))
    for seat in (None, *range(6)):
        assert world.resample(seat, random.Random(seat or 0)).view(seat) == world.view(seat)


def test_characters_are_drawn_uniformly_among_those_the_view_allows():
    state = new_game(4, seed=5)
    hero = next(seat for seat in range(4) if seat != state.adler)
    counts = {seat: 0 for seat in range(4)}
    for k in range(300):
        counts[state.resample(hero, random.Random(k)).adler] += 1
    assert counts[hero] == 0 and all(60 <= counts[s] <= 140 for s in range(4) if s != hero)  # 100 expected


def test_logs_give_the_moves_back():
    """Each action's first event names its seat (`actor`) for everyone, and a redacted event keeps the
    public parameters of the move: what world_from_view rebuilds histories from."""
    state = new_game(5, seed=8)
    rng = random.Random(8)
    while not state.is_over:
        seat = rng.choice(state.acting_seats)
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    for seat in (None, *range(5)):
        actors = [(e.step, e.actor) for e in state.log(seat) if e.actor is not None]
        assert actors == [(step, actor) for step, (actor, _) in enumerate(state.history, start=1)]
    needed = {"character": {"seat"}, "deal": {"seat", "count"}, "draw": {"seat"}, "magnify": {"seat", "target"},
              "binoculars": {"seat", "target"}, "give": {"seat", "target"}}
    for event in state.events:
        if event.redacted is not None:
            assert set(event.redacted_data) == needed[event.kind]


def test_turn_caches_are_bounded_and_hold_no_cards():
    """Issue 10: a process-wide cache of turn menus keyed by the cards in hand grew without bound."""
    from tabletop_edu.get_adler import engine

    def sizes():
        return {name: len(value) for name, value in vars(engine).items() if isinstance(value, (dict, list, set))}

    before = sizes()
    for seed in range(30):
        state = new_game(4 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.acting_seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    assert sizes() == before
    assert engine._turn_menu.cache_info().maxsize == 512
    assert engine._aimed_actions.cache_info().maxsize == 1024
    assert 0 < engine._hand_menu.cache_info().currsize <= 2 ** len(get_adler.rules.CARDS)  # sets of kinds of card


def test_search_bots_find_world_from_view_at_package_level(helpers):
    from tabletop_edu.ismcts import InformationSetSearch, game_world_builder

    assert game_world_builder("tabletop_edu.get_adler") is get_adler.world_from_view
    state = _giving(helpers)
    seat = state.current_player
    action = InformationSetSearch(iterations=6, worlds=2).choose(state.view(seat), state.legal_actions(seat),
                                                                 random.Random(0))
    assert action in state.legal_actions(seat)
