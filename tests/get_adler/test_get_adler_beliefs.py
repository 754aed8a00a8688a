"""Get Adler's belief model: "who is Adler?" asked to the heroes each hour, its posterior the deduction's exact
one (checked against counting every world by hand), Adler never asked."""

from __future__ import annotations

import itertools

import pytest

from tabletop_edu.get_adler import new_game
from tabletop_edu.get_adler.beliefs import MODEL
from tabletop_edu.get_adler.rules import ADLER, Rules, has_trait
from tabletop_edu.registry import game
from tabletop_edu.testing import check_beliefs

PLUGIN = game("get_adler")


def counted_by_hand(view) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """P(seat is Adler) by listing every casting and keeping those the view allows: the reference."""
    facts, rules = view.facts, view.rules or Rules()
    cast = rules.cast[:len(view.players)]
    kept = []
    for world in itertools.permutations(cast):
        if world[view.seat] != facts["my_character"] or world.index(ADLER) in facts["not_adler"]:
            continue
        if all(world[target] == ADLER or has_trait(world[target], trait, colour) == bool(yes)
               for _, target, trait, colour, yes in facts["answers"]):
            kept.append(world.index(ADLER))
    return {str(seat): kept.count(seat) / len(kept) for seat in range(len(view.players)) if seat != view.seat}


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (5, 2), (6, 3)])
def test_posteriors_are_the_exact_deduction_of_the_view(players: int, seed: int) -> None:
    asked = check_beliefs("get_adler", players=players, bots=[PLUGIN.make_bot("smart") for _ in range(players)],
                          seed=seed)
    assert asked
    for item in asked:
        assert item.view.facts["my_character"] != ADLER
        assert item.posterior == pytest.approx(counted_by_hand(item.view))
    hours = {item.question.key for item in asked}
    assert "adler@h1" in hours and len(hours) > 1


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
