"""Commissario's belief model: "what did X pick?", asked once the picks are locked, its posterior uniform over
X's legal picks (the engine's own model of hidden picks, `world_from_view`), the truth the pick X made."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from tabletop_edu.commissario import new_game
from tabletop_edu.commissario.actions import picks_allowed
from tabletop_edu.commissario.beliefs import MODEL, MODELS, _may_double, board_at_pick, pick_name
from tabletop_edu.commissario.normal_form import round_gains
from tabletop_edu.commissario.engine import world_from_view
from tabletop_edu.commissario.rules import Rules
from tabletop_edu.registry import game
from tabletop_edu.testing import check_beliefs

PLUGIN = game("commissario")


@pytest.mark.parametrize(("players", "rules"), [(3, None), (4, Rules(double_card_each_round=False))])
def test_posteriors_follow_the_engines_model_of_hidden_picks(players: int, rules: Rules | None) -> None:
    bots = [PLUGIN.make_bot(PLUGIN.bot_names()[0]) for _ in range(players)]
    asked = check_beliefs("commissario", players=players, bots=bots, seed=players, rules=rules)
    assert asked and any(item.when_asked and item.view.facts["phase"] == "pick" for item in asked)
    rng = random.Random(0)
    for item in asked[:12]:
        seat = int(item.question.key.split(":")[1].split("@")[0])
        drawn = Counter(pick_name(world_from_view(item.view, rng).picks[seat]) for _ in range(40))
        support = {pick for pick, p in item.posterior.items() if p > 0}
        assert set(drawn) <= support and len(set(item.posterior[pick] for pick in support)) == 1


def test_asked_when_the_picks_are_locked_about_every_other_seat() -> None:
    state = new_game(3, seed=2)
    while state.phase != "first_reveal":
        assert MODEL.questions(state.view(0)) == []
        seat = state.acting_seats[0]
        state.apply(state.legal_actions(seat)[0], player=seat)
    questions = MODEL.questions(state.view(0))
    assert [question.key for question in questions] == ["pick:1@r1", "pick:2@r1"]
    assert len(questions[0].options) == 21 and questions[0].labels_fr[-1] == "mauve ×2"
    picked = pick_name(state.picks[1])
    while not state.is_over:
        seat = state.acting_seats[0]
        state.apply(state.legal_actions(seat)[0], player=seat)
    assert MODEL.truth(state, questions[0]) == picked


def test_a_used_up_2x_card_is_no_longer_possible() -> None:
    state = new_game(2, seed=1, rules=Rules(double_card_each_round=False))
    while not (state.phase == "first_reveal" and state.round == 2):
        seat = state.acting_seats[0]
        legal = [str(action) for action in state.legal_actions(seat)]
        double = [text for text in legal if text.endswith("2x")]
        state.apply(double[0] if double and state.round == 1 else legal[0], player=seat)
    (question,) = MODEL.questions(state.view(0))
    posterior = MODEL.posterior(state.view(0), question)
    assert all(posterior[name] == 0 for name in posterior if name.endswith("2x"))
    assert posterior["red orange"] == pytest.approx(1 / 15)


def test_the_teachers_ask_is_about_every_locked_unrevealed_pick() -> None:
    state = new_game(3, seed=2)
    while state.phase == "release":
        assert all(MODEL.questions_when_asked(state.view(seat)) == [] for seat in range(3))  # nothing picked yet
        seat = state.acting_seats[0]
        state.apply(state.legal_actions(seat)[0], player=state.acting_seats[0])
    assert MODEL.questions_when_asked(state.view(0)) == []
    state.apply(state.legal_actions(2)[0], player=2)
    assert MODEL.questions(state.view(0)) == []  # the game asks only once every pick is locked
    (question,) = MODEL.questions_when_asked(state.view(0))
    assert question.key == "pick:2@r1" and MODEL.questions_when_asked(state.view(2)) == []
    assert MODEL.posterior(state.view(0), question) == pytest.approx(dict.fromkeys(question.options, 1 / 21))
    picked = pick_name(state.picks[2])
    while state.phase == "pick":
        seat = state.acting_seats[0]
        state.apply(state.legal_actions(seat)[0], player=seat)
    assert MODEL.questions_when_asked(state.view(0)) == MODEL.questions(state.view(0))
    first = state.acting_seats[0]
    state.apply(state.legal_actions(first)[0], player=first)
    assert all(question.key != f"pick:{first}@r1" for seat in range(3)
               for question in MODEL.questions_when_asked(state.view(seat)))  # a revealed colour: not asked
    while state.phase == "first_reveal":
        seat = state.acting_seats[0]
        state.apply(state.legal_actions(seat)[0], player=seat)
    assert state.phase == "second_reveal" and all(MODEL.questions_when_asked(state.view(seat)) == []
                                                  for seat in range(3))
    while not state.is_over:
        seat = state.acting_seats[0]
        state.apply(state.legal_actions(seat)[0], player=seat)
    assert MODEL.truth(state, question) == picked


def best_responses_by_hand(facts: dict, order: list[int], seat: int, picks: list,  # type: ignore[type-arg]
                           mixes: dict) -> set:  # type: ignore[type-arg]
    """The `picks` of `seat` with the most expected points this round, by listing every profile of the others'
    picks with its probability under `mixes` and playing each round out (`strategy.round_gains`)."""
    others = [other for other in order if other != seat]
    values = {}
    for pick in picks:
        total = 0.0
        for profile in itertools.product(*(list(mixes[other].items()) for other in others)):
            chance = math.prod(p for _, p in profile)
            if chance:
                chosen = {other: theirs for other, (theirs, _) in zip(others, profile)}
                total += chance * round_gains(facts, order, {**chosen, seat: pick})[seat]
        values[pick] = total
    top = max(values.values())
    return {pick for pick, value in values.items() if value >= top - 1e-9}


def test_level_k_is_exact_under_its_model() -> None:
    """Three seats: level 1 best-responds to uniform picks, level 2 to level 1, both checked by listing every
    profile of the others' picks; the board is the one the picks were made on, even after reveals."""
    asked = check_beliefs("commissario", players=3, bots=[PLUGIN.make_bot("random") for _ in range(3)], seed=5)
    assert all(set(item.posteriors) == {"uniform", "level-1", "level-2"} for item in asked)
    rounds: dict[int, dict] = {}  # type: ignore[type-arg]
    for item in asked:
        facts = item.view.facts
        if facts["phase"] == "pick":
            rounds.setdefault(facts["round"], {"table": facts["table"], "order": facts["order"]})
    for item in asked:
        board = {colour: list(values) for colour, values in board_at_pick(item.view)}
        assert board == rounds[item.view.facts["round"]]["table"]
    checked = 0
    for item in asked:
        facts = item.view.facts
        if checked >= 4:
            continue
        board = dict(board_at_pick(item.view))
        seat, order = int(item.question.key.split(":")[1].split("@")[0]), facts["order"]
        allowed = {other: picks_allowed(_may_double(item.view, other)) for other in order}
        uniform = {other: {pick: 1 / len(picks) for pick in picks} for other, picks in allowed.items()}
        level_1 = {other: best_responses_by_hand({"table": board}, order, other, allowed[other], uniform)
                   for other in order}
        level_1_mixes = {other: {pick: 1 / len(best) for pick in best} for other, best in level_1.items()}
        level_2 = best_responses_by_hand({"table": board}, order, seat, allowed[seat], level_1_mixes)
        for key, best in (("level-1", level_1[seat]), ("level-2", level_2)):
            expected = {pick_name(pick.colours): 1 / len(best) for pick in best}
            assert item.posteriors[key] == pytest.approx({option: expected.get(option, 0.0)
                                                          for option in item.question.options}), key
        checked += 1
    assert checked == 4


def test_every_model_is_named_in_english_and_french() -> None:
    assert MODEL.models == MODELS and [model.key for model in MODELS] == ["uniform", "level-1", "level-2"]
    for model in MODELS:
        assert model.name and model.name_fr and model.sentence.endswith(".") and model.sentence_fr.endswith(".")
        assert model.under("en").startswith(f"under {model.name}: ") and model.under("fr").startswith("selon ")


def test_the_models_read_the_board_of_the_pick_after_the_first_arrests() -> None:
    state, rng, table = new_game(3, seed=2), random.Random(2), None
    while not (state.view(None).facts["phase"] == "first_reveal" and state.view(None).facts["table"] != table):
        assert not state.is_over
        if state.view(None).facts["phase"] == "pick":
            table = state.view(None).facts["table"]
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    view = state.view(state.view(None).facts["order"][-1])
    assert view.facts["table"] != table
    assert {colour: list(values) for colour, values in board_at_pick(view)} == table
    (question, *_) = MODEL.questions(view)
    assert sum(MODELS[1].posterior(view, question).values()) == pytest.approx(1)
