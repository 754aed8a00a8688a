"""Inference: the forward-backward posterior equals brute-force enumeration (any token table, free talk, the
investigation's "a diamond is still out"), the cached incremental posterior equals it too, worlds drawn from a
view follow it, and the who-knows-what matrix."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from tabletop_edu.mafia_de_cuba import MafiaState, Rules, new_game, world_from_view
from tabletop_edu.mafia_de_cuba.bots import CautiousThief, GreedyThief, TokenSeeker
from tabletop_edu.mafia_de_cuba.inference import (RANDOM_CHOICES, UNIFORM_WORLDS, Observation, Posterior,
                                                   PosteriorCache, brute_force_posterior, determinize,
                                                   draw_information_flow, draw_who_knows_what, information_flow,
                                                   observation_from_view, policy_model, posterior, view_posterior,
                                                   who_knows_what, with_testimonies)

BOX_6 = ["hide 2", "set-aside none", "take 3", "take loyal", "take 4", "take fbi", "take driver"]
#: Token tables the posterior must handle as exactly as the rulebook's (R1.3 options).
TABLES = [Rules(), Rules(jokers=2), Rules(loyal=0, agents=2, drivers=2, diamonds=9, max_hidden=3),
          Rules(cleaner=True, diamonds=7, max_hidden=7, first_may_set_aside=False),
          Rules(interrogation="budget", last_may_take_nothing=False, nobody_stole_godfather_wins=False)]


def random_box_phase(players: int, seed: int, rules: Rules | None = None) -> MafiaState:
    state, rng = new_game(players, seed=seed, rules=rules), random.Random(seed)
    while state.phase in ("hide", "set-aside", "take"):
        state.apply(rng.choice(state.legal_actions()))
    return state


def random_investigation(players: int, seed: int, rules: Rules, steps: int) -> MafiaState:
    """A game played at random for up to `steps` actions after the box phase, with a taste for accusations (so
    pockets get emptied and "a diamond is still out" matters), never ending it (so the constraint is live)."""
    state, rng = random_box_phase(players, seed, rules), random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = rng.choice(state.acting_seats)
        legal = state.legal_actions(seat)
        accusations = [action for action in legal if str(action).startswith("accuse")]
        quiet = [action for action in legal if str(action) in ("pass", "hold")]
        pool = list(accusations if accusations and rng.random() < 0.4 else (quiet if quiet and rng.random() < 0.8 else legal))
        rng.shuffle(pool)
        going_on = next((action for action in pool if not _ends(state, seat, action)), None)
        if going_on is None:
            break
        state.apply(going_on, player=seat)
    return state


def _ends(state: MafiaState, seat: int, action: object) -> bool:
    trial = state.clone()
    trial.apply(action, player=seat)
    return trial.is_over


def largest_difference(a: Posterior, b: Posterior) -> float:
    return max((abs(x.get(c, 0.0) - y.get(c, 0.0)) for x, y in zip(a.steps, b.steps) for c in {*x, *y}),
               default=0.0)


def assert_exact(obs: Observation, model=UNIFORM_WORLDS) -> None:
    fast, slow = posterior(obs, model), brute_force_posterior(obs, model)
    assert largest_difference(fast, slow) < 1e-9
    assert fast.evidence == pytest.approx(slow.evidence, rel=1e-9)


POLICY = policy_model({1: GreedyThief(), 2: TokenSeeker(), 3: CautiousThief()})
CASES = [(6, seed, seat) for seed in range(4) for seat in (0, 1, 3, 5)] + [(7, 1, 0), (7, 2, 4), (8, 0, 0), (8, 3, 2)]


@pytest.mark.parametrize(("players", "seed", "seat"), CASES)
def test_forward_backward_equals_brute_force(players: int, seed: int, seat: int) -> None:
    state = random_box_phase(players, seed)
    obs = observation_from_view(state.view(seat), state.rules)
    for model in (UNIFORM_WORLDS, RANDOM_CHOICES):
        assert_exact(obs, model)


@pytest.mark.parametrize("table", range(len(TABLES)))
def test_forward_backward_equals_brute_force_under_any_token_table_and_in_the_investigation(table: int) -> None:
    """The Godfather's and the takers' posteriors stay exact under the R1.3 options, in free talk and budgeted,
    after catches, jokers and shots, with and without testimonies weighed as soft evidence."""
    rules = TABLES[table]
    checked = 0
    for seed in range(6):
        state = random_investigation(6, seed, rules, steps=25 + 5 * seed)
        for seat in (0, 2, 5) if seed % 2 else (None, 0, 4):
            view = state.view(seat)
            obs = observation_from_view(view)
            assert_exact(obs)
            if seat == 0:
                assert_exact(with_testimonies(obs, view, truth=0.8), RANDOM_CHOICES)
            checked += obs.diamonds_out
    assert checked  # the "a diamond is still out" constraint was part of the comparison


def test_the_investigation_going_on_says_a_diamond_is_still_out() -> None:
    """After the box returns (nobody stole: the Godfather would have won, R3.6), a spectator knows somebody
    holds diamonds; after a catch that did not end the game, somebody else still does. (The Godfather may hide
    all 15 here, so that "nobody stole" is possible at all.)"""
    state = new_game(6, seed=0, rules=Rules(max_hidden=15))
    for text in ["hide 5", "set-aside none", "take loyal", "take 6", "take fbi", "take driver", "take 4"]:
        state.apply_script([text])
    obs = observation_from_view(state.view(None))
    assert obs.diamonds_out
    believes, unconstrained = posterior(obs), posterior(dataclasses.replace(obs, diamonds_out=False))
    assert believes.evidence < unconstrained.evidence  # the worlds where nobody stole are gone
    for _ in range(5):
        state.apply_script(["pass"])
    state.apply_script(["accuse 2"])  # seat 2 had 6: 4 are still out, and the spectator knows it
    after = posterior(observation_from_view(state.view(None)))
    assert after.of_seat(2) == {"6": pytest.approx(1.0)}
    out = [sum(p for text, p in after.of_seat(seat).items() if text.isdigit()) for seat in (1, 3, 4, 5)]
    assert all(p > 0 for p in out)


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
            assert_exact(observation_from_view(state.view(seat), state.rules), POLICY)


def test_mid_box_phase_and_after_accusations_match_brute_force() -> None:
    state = new_game(6, seed=0)
    for text in BOX_6[:4]:
        state.apply_script([text])
    for seat in (None, 0, 1, 2, 3):
        assert_exact(observation_from_view(state.view(seat), state.rules))
    for text in BOX_6[4:] + ["pass"] * 5 + ["accuse 3"]:
        state.apply_script([text])
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
                text = take[1] or (str(take[0]) if take[0] else "nothing")
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
            text = take[1] or (str(take[0]) if take[0] else "nothing")
            assert post.of_seat(taker)[text] > 0


@pytest.mark.parametrize("seat", [None, 0, 3])
def test_the_cached_incremental_posterior_is_the_from_scratch_one_at_every_step(seat: int | None) -> None:
    """`PosteriorCache` (what a widget calls at every redraw) gives exactly `posterior`'s numbers, step by step,
    and computes each observation once: the box phase extends the previous forward pass."""
    cache = PosteriorCache(size=4)
    state, rng = new_game(8, seed=3, rules=Rules(cleaner=True)), random.Random(3)
    computed = 0
    while not state.is_over and len(state.history) < 50:
        view = state.view(seat)
        obs = observation_from_view(view)
        if obs.steps:
            for truth in (None, 0.75):
                fast = cache.view_posterior(view, truth=truth)
                again = cache.view_posterior(view, truth=truth)
                scratch = posterior(obs if truth is None else with_testimonies(obs, view, truth))
                assert fast is again and largest_difference(fast, scratch) < 1e-12
                assert fast.evidence == pytest.approx(scratch.evidence, rel=1e-12)
                computed += 1
        actor = rng.choice(state.acting_seats)
        legal = state.legal_actions(actor)
        quiet = [action for action in legal if str(action) == "pass"]
        state.apply(rng.choice(quiet or legal), player=actor)
    assert computed > 30 and cache.hits >= computed  # every second call, at least, was a look-up
    assert view_posterior(state.view(seat)) is not None


def test_worlds_from_a_view_are_drawn_uniformly_among_the_consistent_box_histories() -> None:
    """`world_from_view` (issue 10): every world shows the seat the same view, and the worlds' box histories
    follow the exact uniform-worlds posterior (here: the spectator's and seat 3's, mid-investigation)."""
    state = new_game(6, seed=0)
    for text in BOX_6 + ["pass"] * 5 + ["ask 2 took", "took loyal", "pass", "took 1", "pass", "pass", "pass",
                                         "accuse 3"]:
        state.apply_script([text])
    for seat in (None, 3):
        view = state.view(seat)
        rng = random.Random(seat)
        worlds = [world_from_view(view, rng) for _ in range(400)]
        assert all(world.view(seat) == view for world in worlds)
        assert len({world.seed for world in worlds}) > 390 and all(world.seed != state.seed for world in worlds)
        post = posterior(observation_from_view(view))
        for taker in (1, 2, 4):
            counts = Counter(world.takes[taker][1] or str(world.takes[taker][0]) for world in worlds)
            for text, p in post.of_seat(taker).items():
                assert abs(counts[text] / len(worlds) - p) < 0.08, (seat, taker, text, counts[text], p)
        hidden = Counter(world.hidden for world in worlds)
        for value, p in post.hidden().items():
            assert abs(hidden[value] / len(worlds) - p) < 0.08


def test_determinize_draws_worlds_from_the_exact_posterior_of_a_model() -> None:
    state = new_game(6, seed=0)
    for text in BOX_6 + ["pass"] * 5 + ["ask 2 took", "took loyal"]:
        state.apply_script([text])
    rng = random.Random(1)
    worlds = [determinize(state, 3, rng, RANDOM_CHOICES) for _ in range(300)]
    assert all(world.view(3) == state.view(3) for world in worlds)
    post = posterior(observation_from_view(state.view(3), state.rules), RANDOM_CHOICES)
    counts = Counter(world.takes[1][1] or str(world.takes[1][0]) for world in worlds)
    for text, p in post.of_seat(1).items():
        assert abs(counts[text] / 300 - p) < 0.1, (text, counts[text], p)


def test_who_knows_what_matrix_after_the_box_phase() -> None:
    state = new_game(6, seed=0)
    for text in BOX_6:
        state.apply_script([text])
    matrix = who_knows_what(state)
    assert all(matrix[seat][seat]["status"] in ("self", "known") for seat in range(6))
    # seat 2 saw 10 diamonds and every token: seat 1 set nothing aside and took 5 - hidden, i.e. 1 to 5
    assert matrix[2][1] == {"status": "narrowed", "support": ["1", "2", "3", "4", "5"]}
    assert matrix[1][0]["status"] == "-" and matrix[0][0]["status"] == "known"
    for _ in range(5):
        state.apply_script(["pass"])
    state.apply_script(["accuse 3"])
    assert who_knows_what(state)[5][3] == {"status": "known", "support": ["4"]}


def test_information_flow_graph_and_drawings() -> None:
    state = new_game(6, seed=0)
    for text in BOX_6 + ["pass"] * 5 + ["ask 1 took", "took loyal"]:
        state.apply_script([text])
    graph = information_flow(state)
    assert "box" in graph.nodes and graph.number_of_edges() > 0
    assert type(draw_information_flow(state)).__name__ == "Figure"
    from tabletop_edu.knowledge import NOTEBOOK_COLUMN, projected_type
    picture = draw_who_knows_what(state)
    assert type(picture).__name__ == "Figure" and picture.get_figwidth() * picture.dpi <= NOTEBOOK_COLUMN
    smallest, cut = projected_type(picture)
    assert smallest >= 14 and not cut, (smallest, cut)


def test_testimonies_as_soft_evidence_match_brute_force_and_have_a_worth() -> None:
    from tabletop_edu.mafia_de_cuba.inference import testimony_worth

    state = new_game(6, seed=0, rules=Rules(interrogation="budget"))
    for text in BOX_6 + ["ask 3 took", "took 4", "ask 1 seen", "saw 13 loyal fbi driver", "ask 5 took", "took driver"]:
        state.apply_script([text])
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


def test_volunteered_testimonies_weigh_like_answers() -> None:
    """Free talk (R4.2): a testimony given unasked on the floor is soft evidence exactly as an answer is."""
    volunteered = new_game(6, seed=0)
    for text in BOX_6 + ["pass", "pass", "took 4", "pass", "pass"]:
        volunteered.apply_script([text])
    answered = new_game(6, seed=0)
    for text in BOX_6 + ["pass"] * 5 + ["ask 3 took", "took 4"]:
        answered.apply_script([text])
    soft = [with_testimonies(observation_from_view(state.view(0)), state.view(0), 0.8).soft_choices
            for state in (volunteered, answered)]
    assert soft[0] == soft[1] == ((4, (4, None), 0.8),)
