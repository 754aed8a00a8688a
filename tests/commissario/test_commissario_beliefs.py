"""Commissario's belief model: "what did X pick?", asked once the picks are locked, its posterior uniform over
X's legal picks (the engine's own model of hidden picks, `world_from_view`), the truth the pick X made."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tabletop_edu.commissario import new_game
from tabletop_edu.commissario.beliefs import MODEL, pick_name
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
