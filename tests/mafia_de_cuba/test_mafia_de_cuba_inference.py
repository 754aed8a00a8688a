"""Inference: the forward-backward posterior equals brute-force enumeration, and the who-knows-what matrix."""

from __future__ import annotations

import random

import pytest

from tabletop_edu.mafia_de_cuba import MafiaState, new_game
from tabletop_edu.mafia_de_cuba.bots import CautiousThief, GreedyThief, TokenSeeker
from tabletop_edu.mafia_de_cuba.inference import (RANDOM_CHOICES, UNIFORM_WORLDS, Posterior, brute_force_posterior,
                                                   draw_information_flow, draw_who_knows_what, information_flow,
                                                   observation_from_view, policy_model, posterior, who_knows_what)

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]


def random_box_phase(players: int, seed: int) -> MafiaState:
    state, rng = new_game(players, seed=seed), random.Random(seed)
    while state.phase in ("hide", "set-aside", "take"):
        state.apply(rng.choice(state.legal_actions()))
    return state


def largest_difference(a: Posterior, b: Posterior) -> float:
    return max((abs(x.get(c, 0.0) - y.get(c, 0.0)) for x, y in zip(a.steps, b.steps) for c in {*x, *y}),
               default=0.0)


POLICY = policy_model({1: GreedyThief(), 2: TokenSeeker(), 3: CautiousThief()})
CASES = [(6, seed, seat) for seed in range(4) for seat in (0, 1, 3, 5)] + [(7, 1, 0), (7, 2, 4), (8, 0, 0), (8, 3, 2)]


@pytest.mark.parametrize(("players", "seed", "seat"), CASES)
def test_forward_backward_equals_brute_force(players: int, seed: int, seat: int) -> None:
    state = random_box_phase(players, seed)
    obs = observation_from_view(state.view(seat), state.rules)
    for model in (UNIFORM_WORLDS, RANDOM_CHOICES):
        fast, slow = posterior(obs, model), brute_force_posterior(obs, model)
        assert largest_difference(fast, slow) < 1e-9
        assert fast.evidence == pytest.approx(slow.evidence, rel=1e-9)


def test_bot_policy_model_equals_brute_force() -> None:
    """The behaviour model of the bots seated at the table (greedy, token seeker, cautious, random, random)."""
    from tabletop_edu.core import play_turn
    from tabletop_edu.mafia_de_cuba.bots import MafiaBot

    for seed in range(4):
        state = new_game(6, seed=seed)
        bots = [MafiaBot(), MafiaBot(GreedyThief()), MafiaBot(TokenSeeker()), MafiaBot(CautiousThief()),
                MafiaBot(), MafiaBot()]
        rng = random.Random(seed)
        while state.phase in ("hide", "set-aside", "take"):
            play_turn(state, bots, rng)
        for seat in (0, 2, 4):
            obs = observation_from_view(state.view(seat), state.rules)
            assert largest_difference(posterior(obs, POLICY), brute_force_posterior(obs, POLICY)) < 1e-9


def test_mid_box_phase_and_after_accusations_match_brute_force() -> None:
    state = new_game(6, seed=0)
    for text in BOX_6[:4]:
        state.apply(text)
    for seat in (None, 0, 1, 2, 3):
        obs = observation_from_view(state.view(seat), state.rules)
        assert largest_difference(posterior(obs), brute_force_posterior(obs)) < 1e-9
    for text in BOX_6[4:] + ["accuse 3"]:
        state.apply(text)
    post = posterior(observation_from_view(state.view(0), state.rules))
    assert post.of_seat(3) == {"4": pytest.approx(1.0)}
    # the Godfather knows 7 were stolen and loyal, fbi, driver are gone: seat 1 took the other 3 or a token
    assert post.of_seat(1)["3"] > 0 and "4" not in post.of_seat(1)


def test_posterior_puts_weight_on_the_truth_and_sums_to_one() -> None:
    for seed in range(10):
        state = random_box_phase(9, seed)
        for seat in range(9):
            post = posterior(observation_from_view(state.view(seat), state.rules), RANDOM_CHOICES)
            for taker, take in state.takes.items():
                dist = post.of_seat(taker)
                assert sum(dist.values()) == pytest.approx(1.0)
                text = take if isinstance(take, str) else (take[1] or (str(take[0]) if take[0] else "nothing"))
                assert dist[text] > 0


def test_twelve_players_posterior_is_a_distribution_that_covers_the_truth() -> None:
    """The full table, where enumeration is out of reach (its speed is in benchmarks/bench_mafia_de_cuba.py)."""
    state = random_box_phase(12, 5)
    for seat in (None, 0, 6):
        post = posterior(observation_from_view(state.view(seat), state.rules), RANDOM_CHOICES)
        assert post.evidence > 0
        for step in post.steps:
            assert sum(step.values()) == pytest.approx(1.0)
        for taker, take in state.takes.items():
            text = take if isinstance(take, str) else (take[1] or (str(take[0]) if take[0] else "nothing"))
            assert post.of_seat(taker)[text] > 0


def test_who_knows_what_matrix_after_the_box_phase() -> None:
    state = new_game(6, seed=0)
    for text in BOX_6:
        state.apply(text)
    matrix = who_knows_what(state)
    assert all(matrix[seat][seat]["status"] in ("self", "known") for seat in range(6))
    # seat 2 saw 10 diamonds and every token: seat 1 set nothing aside and took 5 - hidden, i.e. 1 to 5
    assert matrix[2][1] == {"status": "narrowed", "support": ["1", "2", "3", "4", "5"]}
    assert matrix[1][0]["status"] == "-" and matrix[0][0]["status"] == "known"
    state.apply("accuse 3")
    assert who_knows_what(state)[5][3] == {"status": "known", "support": ["4"]}


def test_information_flow_graph_and_drawings() -> None:
    state = new_game(6, seed=0)
    for text in BOX_6 + ["ask 1 took", "took loyal"]:
        state.apply(text)
    graph = information_flow(state)
    assert "box" in graph.nodes and graph.number_of_edges() > 0
    assert type(draw_information_flow(state)).__name__ == "Figure"
    assert type(draw_who_knows_what(state)).__name__ == "Figure"


def test_testimonies_as_soft_evidence_match_brute_force_and_have_a_worth() -> None:
    from tabletop_edu.mafia_de_cuba.inference import testimony_worth, with_testimonies

    state = new_game(6, seed=0)
    for text in BOX_6 + ["ask 3 took", "took 4", "ask 1 seen", "saw 13 loyal fbi driver", "ask 5 took", "took driver"]:
        state.apply(text)
    view = state.view(0)
    base = posterior(observation_from_view(view, state.rules))
    obs = with_testimonies(observation_from_view(view, state.rules), view, truth=0.9)
    assert len(obs.soft_choices) == 2 and len(obs.soft_boxes) == 1
    soft = posterior(obs)
    assert largest_difference(soft, brute_force_posterior(obs)) < 1e-9
    # seat 3 truthfully admits 4 diamonds: believing him (0.9) raises his P(thief)
    assert soft.role_probabilities(3)["thief"] > base.role_probabilities(3)["thief"]
    worth = testimony_worth(view, state.rules, truth=0.9)
    assert [text for text, _ in worth] == [e.text for e in view.log if e.kind == "testimony"]
    assert all(0.0 <= value <= 1.0 for _, value in worth) and max(value for _, value in worth) > 0.05


def test_determinize_draws_worlds_from_the_exact_posterior() -> None:
    from collections import Counter

    from tabletop_edu.mafia_de_cuba.inference import determinize

    state = new_game(6, seed=0)
    for text in BOX_6 + ["ask 2 took", "took loyal"]:
        state.apply(text)
    rng = random.Random(1)
    worlds = [determinize(state, 3, rng) for _ in range(300)]
    assert all(world.view(3) == state.view(3) for world in worlds)
    post = posterior(observation_from_view(state.view(3), state.rules))
    counts = Counter(world.takes[1][1] or str(world.takes[1][0]) for world in worlds)
    for text, p in post.of_seat(1).items():
        assert abs(counts[text] / 300 - p) < 0.1, (text, counts[text], p)
