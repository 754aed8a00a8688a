"""Mafia de Cuba's belief model: each taker's role, asked from a seat's view when the box is back and after each
accusation; posteriors under each model of play (counting, random choices, testimonies believed) equal the
engine's exact inference and brute force over every box history weighed by that model, settled questions are not
asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop_edu.beliefs import BeliefQuestion
from tabletop_edu.classroom.export import ClassGames
from tabletop_edu.mafia_de_cuba import new_game
from tabletop_edu.mafia_de_cuba.beliefs import MODEL, MODELS, TESTIMONY_TRUST, claim_words
from tabletop_edu.mafia_de_cuba.inference import (RANDOM_CHOICES, UNIFORM_WORLDS, brute_force_posterior,
                                                  observation_from_view, view_posterior, with_testimonies)
from tabletop_edu.registry import game
from tabletop_edu.testing import check_beliefs

PLUGIN = game("mafia_de_cuba")
LINEUP = ["loyal", "greedy-thief", "cautious-thief", "loyal", "greedy-thief", "loyal", "cautious-thief"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_posteriors_are_the_exact_inference_of_the_view(seed: int) -> None:
    asked = check_beliefs("mafia_de_cuba", players=7, bots=[PLUGIN.make_bot(name) for name in LINEUP], seed=seed)
    assert asked, "no question was asked in a whole game"
    assert any(item.question.key.endswith("@box") for item in asked if item.when_asked), "no ask in the box round"
    by_kind = {False: 0, True: 0}
    for item in asked:
        seat = int(item.question.key.split(":")[1].split("@")[0])
        by_kind[item.when_asked] += 1
        if by_kind[item.when_asked] <= 3:  # brute force, slow: a few of each kind
            exact = brute_force_posterior(observation_from_view(item.view, item.view.rules)).role_probabilities(seat)
        else:
            exact = view_posterior(item.view, item.view.rules).role_probabilities(seat)  # type: ignore[union-attr]
        assert item.posterior == pytest.approx({role: exact.get(role, 0.0) for role in item.question.options})
        assert item.view.seat != seat and max(item.posterior.values()) < 1


def brute_force_by_model(view, seat: int) -> dict[str, dict[str, float]]:  # type: ignore[no-untyped-def]
    """Each model's P(role of `seat`) by brute force: every box history, weighed by the model's probabilities
    of each choice, testimonies as the model's factors."""
    observation = observation_from_view(view, view.rules)
    found = {"counting": brute_force_posterior(observation, UNIFORM_WORLDS),
             "random": brute_force_posterior(observation, RANDOM_CHOICES),
             "testimonies": brute_force_posterior(with_testimonies(observation, view, TESTIMONY_TRUST), UNIFORM_WORLDS)}
    return {key: posterior.role_probabilities(seat) for key, posterior in found.items()}


def test_each_model_of_play_is_exact_under_its_model() -> None:
    asked = check_beliefs("mafia_de_cuba", players=6, bots=[PLUGIN.make_bot(name) for name in LINEUP[:6]],
                          seed=1, twins=1)
    assert asked and all(set(item.posteriors) == {"counting", "random", "testimonies"} for item in asked)
    for item in asked[:2] + asked[-2:]:
        seat = int(item.question.key.split(":")[1].split("@")[0])
        for key, roles in brute_force_by_model(item.view, seat).items():
            assert item.posteriors[key] == pytest.approx({role: roles.get(role, 0.0)
                                                          for role in item.question.options}), key
    assert any(item.posteriors["random"] != pytest.approx(item.posterior) for item in asked)


def test_testimonies_believed_are_exact_under_their_model_on_the_recorded_class() -> None:
    """The recorded class's Godfather asked the takers: answers given after testimonies, brute-forced."""
    shipped = ClassGames.load(Path(__file__).resolve().parents[2] / "notebooks" / "data" / "class_record.json")
    state = shipped[0].state()
    heard = []
    for answer in shipped[0].beliefs:
        view = replayed_to(state, answer.step).view(answer.seat)
        if any(event.kind == "testimony" for event in view.log):
            heard.append((answer, view))
    assert heard
    moved = 0
    for answer, view in heard[:2]:
        seat = int(answer.question.key.split(":")[1].split("@")[0])
        roles = brute_force_by_model(view, seat)["testimonies"]
        assert answer.posteriors["testimonies"] == pytest.approx({role: roles.get(role, 0.0)
                                                                  for role in answer.question.options})
        moved += answer.posteriors["testimonies"] != pytest.approx(answer.posterior)
    assert moved


def replayed_to(state, step: int):  # type: ignore[no-untyped-def]
    """The game of `state` after its first `step` actions."""
    replay = type(state)(list(state.players), seed=state.seed, rules=state.rules)
    for seat, action in state.history[:step]:
        replay.apply(action, player=seat)
    return replay


def test_every_model_is_named_in_english_and_french() -> None:
    assert MODEL.models == MODELS and MODELS[0].key == "counting"
    for model in MODELS:
        assert model.name and model.name_fr and model.sentence.endswith(".") and model.sentence_fr.endswith(".")
        assert "70" in MODELS[2].name and "70" in MODELS[2].name_fr
        assert model.under("en").startswith(f"under {model.name}: ") and model.under("fr").startswith("selon ")


def test_a_french_question_elides_de_before_a_name_with_a_vowel() -> None:
    state = new_game(["Gil", "Ana", "Bob", "Inès", "Cy", "Dan"], seed=4)
    for action in ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]:
        state.apply(action)
    texts = [question.text_fr for question in MODEL.questions(state.view(state.godfather))]
    assert texts[:3] == ["Quel est le rôle d'Ana ?", "Quel est le rôle de Bob ?", "Quel est le rôle d'Inès ?"]


def test_the_godfather_is_asked_after_the_box_and_after_each_accusation() -> None:
    state = new_game(6, seed=4)
    for action in ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]:
        assert MODEL.questions(state.view(0)) == []
        state.apply(action)
    asked = MODEL.questions(state.view(state.godfather))
    assert [question.key for question in asked] == [f"role:{seat}@0" for seat in range(1, 6)]
    assert asked[0].options == ("thief", "loyal", "fbi", "driver", "street-kid")
    assert asked[0].labels_fr[0] == "Voleur" and asked[0].text_fr == "Quel est le rôle de Seat 1 ?"
    while state.phase == "floor":
        state.apply("pass", player=state.current_player[0])
    state.apply("accuse 2")  # a loyal henchman: a wrong accusation, the game goes on with a joker or ends
    if not state.is_over:
        keys = [question.key for question in MODEL.questions(state.view(state.godfather))]
        assert keys and all(key.endswith("@1") for key in keys) and "role:2@1" not in keys
    assert MODEL.questions(state.view(None)) == []


def test_the_teachers_ask_in_the_box_round_is_about_every_taker_who_has_taken() -> None:
    state = new_game(6, seed=4)
    for action in ["hide 2", "set-aside none", "take 3"]:
        # Before the first take nothing is hidden yet: the ask has no question for anyone.
        assert all(MODEL.questions_when_asked(state.view(seat)) == [] for seat in range(6))
        state.apply(action)
    state.apply("take loyal")
    keys = {seat: [question.key for question in MODEL.questions_when_asked(state.view(seat))] for seat in range(6)}
    # Seat 2 saw every token still in the box after seat 1 took: seat 1 is a thief, settled, not asked.
    assert keys == {0: ["role:1@box", "role:2@box"], 1: ["role:2@box"], 2: [], 3: ["role:1@box", "role:2@box"],
                    4: ["role:1@box", "role:2@box"], 5: ["role:1@box", "role:2@box"]}
    assert MODEL.questions(state.view(0)) == []  # the game itself asks nothing in the box round
    question = MODEL.questions_when_asked(state.view(0))[0]
    posterior = MODEL.posterior(state.view(0), question)
    assert question.options == ("thief", "loyal", "fbi", "driver", "street-kid") and 0 < posterior["thief"] < 1
    for action in ["take 4", "take fbi", "take driver"]:
        state.apply(action)
    assert MODEL.questions_when_asked(state.view(0)) == MODEL.questions(state.view(0)) != []  # after: the moment's
    while not state.is_over:
        state.apply(state.legal_actions(state.acting_seats[0])[0], player=state.acting_seats[0])
    assert MODEL.truth(state, question) == "thief"
    assert MODEL.questions_when_asked(state.view(0)) == [] and MODEL.questions_when_asked(state.view(None)) == []


def test_a_taker_is_not_asked_about_what_the_view_settles() -> None:
    state = new_game(6, seed=4)
    for action in ["hide 0", "set-aside none", "take 3", "take 3", "take 3", "take 3", "take 3"]:
        state.apply(action)
    # The last taker saw every token in the box: every earlier taker is a thief. Every token came back to the
    # Godfather: every taker took diamonds, but the last may have found none left and taken nothing.
    assert MODEL.questions(state.view(5)) == []
    assert [question.key for question in MODEL.questions(state.view(0))] == ["role:5@0"]
    assert set(MODEL.posterior(state.view(0), MODEL.questions(state.view(0))[0]).values()) > {0.0}
    assert [question.key for question in MODEL.questions(state.view(1))] == [f"role:{seat}@0" for seat in (2, 3, 4, 5)]


def test_truth_is_told_at_the_end_only() -> None:
    state = new_game(6, seed=4)
    for action in ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]:
        state.apply(action)
    question = MODEL.questions(state.view(0))[0]
    assert MODEL.truth(state, question) is None
    while not state.is_over:
        state.apply(state.legal_actions(state.acting_seats[0])[0], player=state.acting_seats[0])
    assert MODEL.truth(state, question) == "thief"
    with pytest.raises(ValueError, match="no option"):
        MODEL.posterior(state.view(0), BeliefQuestion("role:1@0", "?", "?", ("loyal", "fbi"), ("a", "b"),
                                                      ("a", "b")))


@pytest.mark.parametrize(("claim", "english", "french"), [
    ("took 3", "took: 3 diamonds", "a pris : 3 diamants"),
    ("took 1", "took: 1 diamond", "a pris : 1 diamant"),
    ("took loyal", "took: Loyal Henchman", "a pris : Fidèle"),
    ("saw 10 loyal fbi", "saw: 10 diamonds, Loyal Henchman, FBI Agent", "a vu : 10 diamants, Fidèle, Agent du FBI"),
    ("suspect 2", "suspect 2", "suspect 2"),
])
def test_testimonies_in_words_for_the_debrief(claim: str, english: str, french: str) -> None:
    assert (claim_words(claim), claim_words(claim, "fr")) == (english, french)
