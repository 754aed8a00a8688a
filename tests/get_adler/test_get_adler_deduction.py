"""Possible worlds, candidate sets, information gain and the knowledge model of Get Adler."""

from __future__ import annotations

import math
import random

from tabletop_edu.get_adler import new_game
from tabletop_edu.get_adler.deduction import (best_question, draw_candidates, information_gain, knowledge_model,
                                              question_flow, question_values)
from tabletop_edu.get_adler.identities import (adler_candidates, candidate_history, candidate_sets, possible_worlds,
                                               worlds_for_view)
from tabletop_edu.get_adler.rules import CAST, TRAIT_TABLE


def asking_state(helpers, players=4):
    return helpers.find_state(players, lambda s: "question" in s.hands[s.current_player]
                              and s.current_player != s.adler)


def test_no_facts_every_assignment():
    assert len(possible_worlds(4)) == math.factorial(4)
    assert len(possible_worlds(6)) == math.factorial(6)


def test_hero_answer_binds_only_where_seat_is_not_adler():
    # seat 1 says it has no black hat: worlds where seat 1 is Adler survive, Gold (black hat) at seat 1 does not
    worlds = possible_worlds(4, [[0, 1, "hat", "black", False]])
    assert any(w[1] == "Adler" for w in worlds)
    assert not any(w[1] == "Gold" for w in worlds)
    assert all(w[1] == "Adler" or TRAIT_TABLE[w[1]]["hat"] != "black" for w in worlds)


def test_own_character_and_cleared_seats_prune():
    worlds = possible_worlds(4, not_adler=[2], known={0: "Gold"})
    assert adler_candidates(worlds) == [1, 3]


def test_candidate_sets_shrink_and_contain_truth(helpers):
    state = asking_state(helpers)
    asker = state.current_player
    target = next(s for s in range(4) if s not in (asker, state.adler))
    before = candidate_sets(state)
    state.apply(f"ask {target} hat black")
    state.apply(state.legal_actions()[0])
    after = candidate_sets(state)
    for seat in range(4):
        assert set(after[seat]) <= set(before[seat])
        assert state.adler in after[seat] or seat == state.adler
    history = candidate_history(state)
    assert len(history) == len(state.history) + 1 and history[-1] == after


def test_information_gain_and_the_limits_of_lies():
    worlds = possible_worlds(4, known={0: "Adler"})
    # Adler knows everything about who is Adler: no question can tell him more
    assert all(value[0] == 0 for value in question_values(worlds, 0))
    fresh = possible_worlds(4, known={0: "Gold"})
    gains = question_values(fresh, 0)
    assert gains[0][0] > 0 and gains[0][0] <= math.log2(3)
    # nobody wears a grey hat with 4 players: only a lying Adler could say yes, so the question has value
    # exactly as far as Adler might give himself away; an Adler who never says yes makes it worthless
    assert information_gain(fresh, 1, "hat", "grey") > 0
    assert information_gain(fresh, 1, "hat", "grey", adler_yes=0.0) == 0


def test_best_question_from_a_view():
    state = new_game(4, seed=2)
    hero = next(s for s in range(4) if s != state.adler)
    target, trait, colour, bits = best_question(state.view(hero))
    assert target != hero and bits > 0


def test_knowledge_model_for_four_players(helpers):
    state = new_game(4, seed=2)
    model = knowledge_model(state)
    truth = tuple(state.characters)
    assert len(model.worlds) == 24
    adler = state.adler
    assert model.knows(adler, lambda w: w[adler] == "Adler", truth)
    hero = (adler + 1) % 4
    assert not model.knows_whether(hero, lambda w: w[adler] == "Adler", truth)
    assert model.to_networkx().number_of_nodes() == 24


def test_question_flow_and_drawing(helpers):
    state = asking_state(helpers)
    asker = state.current_player
    state.apply(f"ask {(asker + 1) % 4} eyes blue")
    state.apply(state.legal_actions()[0])
    graph = question_flow(state)
    kinds = {kind for _, _, kind in graph.edges(data="kind")}
    assert kinds == {"ask", "answer"}
    from tabletop_edu.knowledge import NOTEBOOK_COLUMN, projected_type
    figure = draw_candidates(state)
    assert figure.axes and figure.get_figwidth() * figure.dpi <= NOTEBOOK_COLUMN
    smallest, cut = projected_type(figure)
    assert smallest >= 14 and not cut


def test_spectator_worlds_hold_the_truth(helpers):
    state = asking_state(helpers, players=6)
    state.apply(f"ask {state.adler} coat grey")
    state.apply("answer no")  # a lie
    assert tuple(state.characters) in worlds_for_view(state.view(None))
    assert sorted(CAST) == sorted(state.characters)


def test_best_question_never_repeats_an_answered_question():
    """Asking again teaches nothing: heroes repeat the truth and Adler repeats his answer."""
    from tabletop_edu.core import RandomBot, play_turn
    from tabletop_edu.get_adler.bots import SmartBot

    checked = 0
    for seed in range(6):
        state = new_game(4, seed=seed)
        bots = [SmartBot() if seat != state.adler else RandomBot() for seat in range(4)]
        rng = random.Random(seed)
        while not state.is_over:
            for seat in range(4):
                view = state.view(seat)
                asked = {(t, trait, colour) for _, t, trait, colour, _ in view.facts["answers"]}
                question = best_question(view)
                if question and asked:
                    assert question[:3] not in asked
                    checked += 1
            play_turn(state, bots, rng)
    assert checked > 50


def test_question_values_are_remembered_but_handed_out_fresh():
    """Bots ask for the same worlds' question values thousands of times in a search: they are computed once
    (a bounded cache), and each caller still gets its own list, so changing it changes nothing later."""
    from tabletop_edu.get_adler import deduction

    worlds = possible_worlds(4)
    first = question_values(worlds, 0)
    hits = deduction._question_values.cache_info().hits
    first.clear()
    again = question_values(list(worlds), 0)
    assert again and again == question_values(worlds, 0)
    assert deduction._question_values.cache_info().hits >= hits + 2
    assert deduction._question_values.cache_info().maxsize == 512  # a 6-seat opening holds 720 worlds


def test_adlers_answering_policy_sets_the_value_of_a_question() -> None:
    """Gold (seat 3) asks Ana at the start of a four-player game. Against a coin-flipping Adler "grey coat?" is
    worth 0.317 bits; against a truthful Adler (grey coat: only Adler's) it names him outright when yes; an
    Adler who answers as the heroes Gold cannot rule out (Sharpe, Townsend) makes every question worth 0."""
    from tabletop_edu.get_adler.deduction import hero_answers, mimic, random_liar
    from tabletop_edu.get_adler.rules import TRAIT_COLOURS, TRAITS
    worlds = possible_worlds(4, known={3: "Gold"})
    assert math.isclose(information_gain(worlds, 0, "coat", "grey", adler_yes=random_liar()), 0.3166, abs_tol=1e-4)
    assert information_gain(worlds, 0, "coat", "grey", adler_yes=mimic(["Adler"])) > 0.9
    pooling = hero_answers(worlds, 0)
    assert pooling("hat", "brown") == 1.0 and pooling("coat", "black") == 0.5 and pooling("coat", "grey") == 0.0
    for trait in TRAITS:
        for colour in TRAIT_COLOURS[trait]:
            assert abs(information_gain(worlds, 0, trait, colour, adler_yes=pooling)) < 1e-12


def test_questioning_game_equilibrium_has_no_profitable_deviation() -> None:
    """One question then a guess, four players: without a question the asker names Adler 1 time in 3; in
    equilibrium 5 times in 12, as both best-response checks confirm; a coin-flipping Adler concedes 1/2, a
    truthful one 2/3."""
    from tabletop_edu.get_adler.deduction import mimic, questioning_game, random_liar, solve_questioning_game
    game = questioning_game(4, asker=3, target=0)
    value, adler, asker_mix = solve_questioning_game(game)
    assert math.isclose(value, 5 / 12)
    assert math.isclose(game.best_chance(lambda trait, colour: adler[(trait, colour)]), value)
    assert math.isclose(game.adler_best_chance(asker_mix), value)
    for character in game.characters:
        assert math.isclose(sum(q for plan, q in asker_mix.items() if plan[0] == character), 1)
    assert math.isclose(game.best_chance(random_liar()), 1 / 2)
    assert math.isclose(game.best_chance(mimic(["Adler"])), 2 / 3)


def test_questioning_game_refuses_bad_seats() -> None:
    import pytest

    from tabletop_edu.get_adler.deduction import questioning_game
    with pytest.raises(ValueError, match="two different seats"):
        questioning_game(4, asker=2, target=2)
    with pytest.raises(ValueError, match="two different seats"):
        questioning_game(4, asker=0, target=4)
