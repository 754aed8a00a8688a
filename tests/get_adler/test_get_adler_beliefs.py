"""Get Adler's belief model: "who is Adler?" asked to the heroes each hour, its posteriors under counting and
under a coin-flipping Adler each exact under its model (checked against every casting weighed by hand), Adler
never asked; a "no" that both other heroes would give: 1/5 under the coin, 1/3 by counting."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from tabletop_edu.get_adler import new_game
from tabletop_edu.get_adler.beliefs import COIN_FLIP, COUNTING, MODEL, MODELS
from tabletop_edu.get_adler.rules import ADLER, TRAIT_COLOURS, TRAITS, Rules, has_trait
from tabletop_edu.registry import game
from tabletop_edu.testing import check_beliefs

PLUGIN = game("get_adler")


def weighed_by_hand(view, adler_answer: float) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """P(seat is Adler) by listing every casting (each dealt alike), keeping those the view allows, and weighing
    each by the chance of the answers heard: a hero's is 1 if true, 0 if not; each of Adler's is `adler_answer`
    (1: counting, his answers weigh nothing; 1/2: he flips a coin)."""
    facts, rules = view.facts, view.rules or Rules()
    cast = rules.cast[:len(view.players)]
    revealed = {int(seat): character for seat, character in (facts.get("revealed") or {}).items()}
    weights = dict.fromkeys(range(len(view.players)), 0.0)
    for world in itertools.permutations(cast):
        if world[view.seat] != facts["my_character"] or world.index(ADLER) in facts["not_adler"]:
            continue
        if any(world[seat] != character for seat, character in revealed.items()):
            continue
        weight = 1.0
        for _, target, trait, colour, yes in facts["answers"]:
            if world[target] == ADLER:
                weight *= adler_answer
            elif has_trait(world[target], trait, colour) != bool(yes):
                weight = 0.0
        weights[world.index(ADLER)] += weight
    total = sum(weights.values())
    return {str(seat): weights[seat] / total for seat in range(len(view.players)) if seat != view.seat}


def counted_by_hand(view) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """P(seat is Adler) by listing every casting and keeping those the view allows: counting."""
    return weighed_by_hand(view, 1.0)


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (5, 2), (6, 3)])
def test_posteriors_are_the_exact_deduction_of_the_view(players: int, seed: int) -> None:
    asked = check_beliefs("get_adler", players=players, bots=[PLUGIN.make_bot("smart") for _ in range(players)],
                          seed=seed)
    assert asked
    for item in asked:
        assert item.view.facts["my_character"] != ADLER
        assert item.posterior == pytest.approx(counted_by_hand(item.view))
        assert item.posteriors["counting"] == item.posterior
        assert item.posteriors["coin"] == pytest.approx(weighed_by_hand(item.view, 0.5))
    hours = {item.question.key for item in asked}
    assert "adler@h1" in hours and len(hours) > 1
    assert any(item.posteriors["coin"] != pytest.approx(item.posterior) for item in asked)  # the models differ


def test_a_no_both_other_heroes_would_give_is_one_in_five_under_the_coin_one_in_three_by_counting() -> None:
    """Four seats: a hero (seat 0) hears seat 1 answer "no" to a question whose "no" both other heroes'
    characters would also give. Counting keeps the 2 castings where seat 1 is Adler beside the 4 where it is
    a hero: 1/3. A coin-flipping Adler says that "no" half the time: 2 x 1/2 against 4, so 1/5."""
    state = new_game(4, seed=1)
    hero = next(seat for seat in range(4) if state.characters[seat] != ADLER)  # type: ignore[attr-defined]
    view = state.view(hero)
    target = (hero + 1) % 4
    others = [c for c in Rules().cast[:4] if c not in (ADLER, view.facts["my_character"])]
    trait, colour = next((trait, colour) for trait in TRAITS for colour in TRAIT_COLOURS[trait]
                         if not any(has_trait(character, trait, colour) for character in others))
    heard = dataclasses.replace(view, facts={**view.facts, "answers": [[hero, target, trait, colour, False]]})
    (question,) = MODEL.questions(heard)
    assert COUNTING.posterior(heard, question)[str(target)] == pytest.approx(1 / 3)
    assert COIN_FLIP.posterior(heard, question)[str(target)] == pytest.approx(1 / 5)
    assert MODEL.posterior(heard, question) == COUNTING.posterior(heard, question)  # counting is the reference


def test_every_model_is_named_in_english_and_french() -> None:
    assert MODEL.models == MODELS and [model.key for model in MODELS] == ["counting", "coin"]
    for model in MODELS:
        assert model.name and model.name_fr and model.sentence.endswith(".") and model.sentence_fr.endswith(".")
        assert model.under("en").startswith(f"under {model.name}: ")
        assert model.under("fr").startswith(f"selon {model.name_fr} : ")


def test_adler_and_spectators_are_not_asked_heroes_are_asked_about_the_others() -> None:
    state = new_game(5, seed=7)
    adler = state.characters.index(ADLER)
    assert MODEL.questions(state.view(adler)) == [] and MODEL.questions(state.view(None)) == []
    hero = (adler + 1) % 5
    (question,) = MODEL.questions(state.view(hero))
    assert question.key == "adler@h1" and str(hero) not in question.options and len(question.options) == 4
    assert MODEL.posterior(state.view(hero), question) == dict.fromkeys(question.options, 0.25)
    assert MODEL.truth(state, question) is None


def test_the_teachers_ask_offers_heroes_the_hours_question_at_any_moment_of_play() -> None:
    state = new_game(5, seed=7)
    adler = state.characters.index(ADLER)
    moments = 0
    while not state.is_over:
        for seat in range(5):
            offered = MODEL.questions_when_asked(state.view(seat))
            assert offered == MODEL.questions(state.view(seat))
            if seat == adler:
                assert offered == []
            elif state.view(seat).facts["adler_seat"] is None:
                moments += bool(offered)
        state.apply(state.legal_actions(state.acting_seats[0])[0], player=state.acting_seats[0])
    assert moments > 5
    assert all(MODEL.questions_when_asked(state.view(seat)) == [] for seat in (*range(5), None))
