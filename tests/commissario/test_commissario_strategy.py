"""The game theory of one round: payoff tables, best responses, dominance, equilibria, the order auction."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from tabletop_edu.commissario import new_game
from tabletop_edu.commissario import auction, normal_form
from tabletop_edu.commissario.actions import ALL_PICKS, make_pick
from tabletop_edu.commissario.engine import CommissarioState


def pick_facts(players: int, seed: int) -> tuple[CommissarioState, dict]:
    state = new_game(players, seed=seed)
    while state.phase == "release":
        state.apply("release none", player=state.current_player)
    return state, dict(state.view(None).facts)


def test_play_out_matches_the_engine() -> None:
    """The analysis's arrests equal the engine's when seats reveal greedily."""
    for seed in range(10):
        state, facts = pick_facts(3, seed)
        rng = random.Random(seed)
        picks = {s: rng.choice(ALL_PICKS) for s in range(3)}
        caught = normal_form.play_out(facts["table"], facts["order"], picks)
        before = [len(cards) for cards in state.arrested]
        for seat, pick in picks.items():
            state.apply(str(pick), player=seat)
        while state.phase in ("first_reveal", "second_reveal"):
            seat = state.current_player
            options = state.legal_actions(seat)
            table = state.view(None).facts["table"]
            best = max(options, key=lambda a: (table[a.colour][0] if table[a.colour] else 0,
                                               -["red", "orange", "yellow", "green", "blue", "purple"].index(a.colour)))
            state.apply(best, player=seat)
        for seat in range(3):
            assert state.arrested[seat][before[seat]:] == caught[seat]


def test_payoff_table_and_best_responses() -> None:
    _, facts = pick_facts(2, 1)
    game = normal_form.payoff_table(facts)
    assert game.row_payoffs.shape == (21, 21)
    rows, cols = normal_form.best_responses(game)
    for j, best in enumerate(rows):
        assert all(game.row_payoffs[i, j] == game.row_payoffs[:, j].max() for i in best)
    for i, best in enumerate(cols):
        assert all(game.col_payoffs[i, j] == game.col_payoffs[i].max() for j in best)


def test_dominated_strategies() -> None:
    payoffs = np.array([[1.0, 2.0], [0.0, 1.0], [3.0, 0.0]])
    assert normal_form.dominated_strategies(payoffs) == [1]


def test_equilibrium_is_a_nash_equilibrium() -> None:
    for seed in range(4):
        _, facts = pick_facts(2, seed)
        game = normal_form.payoff_table(facts)
        row_mix, col_mix = normal_form.equilibrium(game)
        assert np.isclose(sum(row_mix.values()), 1) and np.isclose(sum(col_mix.values()), 1)
        x = np.array([row_mix.get(p, 0.0) for p in ALL_PICKS])
        y = np.array([col_mix.get(p, 0.0) for p in ALL_PICKS])
        row_value, col_value = x @ game.row_payoffs @ y, x @ game.col_payoffs @ y
        assert (game.row_payoffs @ y).max() <= row_value + 1e-6  # no profitable deviation
        assert (x @ game.col_payoffs).max() <= col_value + 1e-6


def test_matching_pennies_like_game_has_a_mixed_equilibrium() -> None:
    """A hand-built round: two seats, one big bandit each in red and blue; the first mover takes the best."""
    game = normal_form.RoundGame((0, 1), (make_pick("red", "green"), make_pick("blue", "green")),
                       (make_pick("red", "green"), make_pick("blue", "green")),
                       np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]))
    row_mix, col_mix = normal_form.equilibrium(game)
    assert all(np.isclose(p, 0.5) for p in [*row_mix.values(), *col_mix.values()])


def test_regret_matching_gives_distributions() -> None:
    _, facts = pick_facts(4, 2)
    mixes = normal_form.regret_matching(facts, iterations=40, rng=random.Random(1))
    assert set(mixes) == set(range(4))
    assert all(np.isclose(sum(mix.values()), 1) for mix in mixes.values())


def test_order_auction_values_and_release() -> None:
    _, facts = pick_facts(3, 1)
    values = auction.position_values(facts, 3, samples=100, rng=random.Random(0))
    assert len(values) == 3
    card, net = auction.best_release(["purple+2", "purple-2"], [0], 1, values)
    # net value of the chosen release is at least that of every alternative (computed by the same rule)
    assert net >= values[1] - 0  # release none: behind the earlier 0 bid, ahead of the later seat
    assert net >= values[2] + 2  # release purple-2: last, but +2 points
    assert net >= values[0] - 2  # release purple+2: first, costs 2
    assert auction.most_worth_paying(values) == max(values) - min(values)


def test_explain_mentions_reduction_and_equilibrium() -> None:
    _, facts = pick_facts(2, 3)
    text = normal_form.explain(normal_form.payoff_table(facts, majority=True))
    assert "reduce to" in text and "degenerate" in text and "plays" in text


def test_plans_are_complete_strategies() -> None:
    """36 plans for the seat revealing first (15 pairs x 2 orders + 6 with 2x), 966 for the second
    (15 pairs x 2**6 answers to the colour it has seen + 6 with 2x); labels are distinct."""
    _, facts = pick_facts(2, 3)
    game = normal_form.plan_game(facts)
    assert game.row_payoffs.shape == (36, 966)
    rows, cols = game.labels()
    assert len(set(rows)) == 36 and len(set(cols)) == 966
    assert "orange blue, blue first" in rows and "green 2x" in cols


def test_plan_game_plays_the_engine_with_the_chosen_reveals() -> None:
    """Each cell of the plan game equals the engine's round when the seats reveal as their plans say."""
    state, facts = pick_facts(2, 3)
    game = normal_form.plan_game(facts)
    rng = random.Random(5)
    for _ in range(40):
        i, j = rng.randrange(36), rng.randrange(966)
        plans = {facts["order"][0]: game.row_picks[i], facts["order"][1]: game.col_picks[j]}
        played = state.clone()
        before = list(played.scores)
        for seat, plan in plans.items():
            played.apply(str(plan.pick), player=seat)
        shown: list[str] = []
        while played.phase == "first_reveal":
            seat = played.current_player
            colour = plans[seat].show_first(tuple(shown))
            played.apply(f"reveal {colour}", player=seat)
            shown.append(colour)
        while played.phase == "second_reveal":
            played.apply(played.legal_actions(played.current_player)[0], player=played.current_player)
        gained = [after - b for after, b in zip(played.scores, before)]
        assert (gained[facts["order"][0]], gained[facts["order"][1]]) == (game.row_payoffs[i, j], game.col_payoffs[i, j])


def test_reveal_order_changes_the_equilibrium() -> None:
    """Round 1 of seed 3: with greedy reveals Ana takes the orange 5 for sure; with the reveal order a
    choice, that is no longer an equilibrium (she gains 2 by keeping the orange 5 for her second reveal), and the
    equilibrium of the plan game has no profitable deviation among all 36 x 966 plans."""
    _, facts = pick_facts(2, 3)
    naive, plans = normal_form.payoff_table(facts), normal_form.plan_game(facts)
    naive_mixes = normal_form.equilibrium(naive)
    assert normal_form.deviation_gains(naive, *naive_mixes) == (0.0, 0.0)
    assert normal_form.deviation_gains(plans, *normal_form.greedy_plans(facts, naive_mixes)) == (2.0, 0.0)
    row_gain, col_gain = normal_form.deviation_gains(plans, *normal_form.equilibrium(plans))
    assert abs(row_gain) < 1e-9 and abs(col_gain) < 1e-9


def test_deviation_gains_rejects_bad_mixes() -> None:
    _, facts = pick_facts(2, 3)
    game = normal_form.payoff_table(facts)
    with pytest.raises(ValueError, match="not a strategy"):
        normal_form.deviation_gains(game, {"red 3x": 1.0}, {"red orange": 1.0})
    with pytest.raises(ValueError, match="add up to 1"):
        normal_form.deviation_gains(game, {"red orange": 0.5}, {"red orange": 1.0})
    with pytest.raises(ValueError, match="two-player"):
        normal_form.plan_game(pick_facts(3, 1)[1])


def test_regret_matching_curve_approaches_an_equilibrium() -> None:
    """Uneven matching pennies (row wins 2 on the first diagonal cell, 1 on the second): the equilibrium is
    row 1/2-1/2, column 1/3-2/3; regret matching's averages approach it and their exploitability falls."""
    game = normal_form.RoundGame((0, 1), (make_pick("red", "green"), make_pick("blue", "green")),
                       (make_pick("red", "green"), make_pick("blue", "green")),
                       np.array([[2.0, 0.0], [0.0, 1.0]]), np.array([[0.0, 1.0], [1.0, 0.0]]))
    x, y, curve = normal_form.regret_matching_curve(game, 2000)
    assert len(curve) == 2000 and curve[-1] < 0.05 < curve[0]
    assert np.allclose(x, [1 / 2, 1 / 2], atol=0.05) and np.allclose(y, [1 / 3, 2 / 3], atol=0.05)


def test_best_deviations_name_the_profitable_plan() -> None:
    """Round 1 of seed 3 with the greedy solution as plans: Ana's best deviation shows green before orange."""
    _, facts = pick_facts(2, 3)
    plans = normal_form.plan_game(facts)
    (row_label, row_gain), (_, col_gain) = normal_form.best_deviations(plans, *normal_form.greedy_plans(facts, normal_form.equilibrium(normal_form.payoff_table(facts))))
    assert (row_label, row_gain, col_gain) == ("orange green, green first", 2.0, 0.0)


def test_expected_values_weigh_the_cells() -> None:
    """A pure profile's expected values are its cell; a half-half mix averages two cells."""
    _, facts = pick_facts(2, 3)
    game = normal_form.plan_game(facts)
    rows, cols = game.labels()
    assert normal_form.expected_values(game, {rows[4]: 1.0}, {cols[7]: 1.0}) == (game.row_payoffs[4, 7], game.col_payoffs[4, 7])
    half = normal_form.expected_values(game, {rows[4]: 0.5, rows[5]: 0.5}, {cols[7]: 1.0})
    assert np.isclose(half[0], (game.row_payoffs[4, 7] + game.row_payoffs[5, 7]) / 2)


def test_a_spent_2x_card_leaves_the_analysis_with_the_option_double_card_each_round_off() -> None:
    """R5.1 option off: once a seat has played its 2x card, every analysis offers it only the 15 pairs, and
    the other seats learn it was spent only when its second reveal shows it."""
    from tabletop_edu.commissario import Rules
    from tabletop_edu.commissario.actions import PAIR_PICKS

    state = new_game(2, seed=4, rules=Rules(double_card_each_round=False))
    while state.phase == "release":
        state.apply("release none", player=state.current_player)
    first, second = state.view(None).facts["order"]
    state.apply("pick red 2x", player=first)
    assert state.view(first).facts["doubles_spent"] == [first]
    assert state.view(second).facts["doubles_spent"] == [] == state.view(None).facts["doubles_spent"]
    state.apply("pick red blue", player=second)
    while state.phase != "release":
        state.apply(state.legal_actions(state.current_player)[0], player=state.current_player)
    while state.phase == "release":
        state.apply("release none", player=state.current_player)
    facts = dict(state.view(second).facts)
    assert facts["doubles_spent"] == [first] == state.view(None).facts["doubles_spent"]
    assert normal_form.picks_of(facts, first) == PAIR_PICKS and normal_form.picks_of(facts, second) == ALL_PICKS
    assert set(normal_form.picks_of(facts, first)) == set(state.legal_actions(first))
    game = normal_form.payoff_table(facts, (first, second))
    assert game.row_picks == PAIR_PICKS and game.col_picks == ALL_PICKS and game.row_payoffs.shape == (15, 21)
    mixes = normal_form.regret_matching(facts, iterations=20)
    assert not any(pick.double for pick in mixes[first]) and len(mixes[second]) <= 21
    plans = normal_form.plan_game(facts)
    spent_side, holding_side = ((plans.row_picks, plans.col_picks) if plans.seats[0] == first
                                else (plans.col_picks, plans.row_picks))
    assert not any(plan.pick.double for plan in spent_side) and any(plan.pick.double for plan in holding_side)
    default = new_game(2, seed=4)  # with the option on (the default) the 2x card comes back: nothing spent
    assert default.view(None).facts["doubles_spent"] == []


def test_every_equilibrium_of_a_degenerate_round_in_a_fixed_order_each_with_its_deviation_check() -> None:
    """Round 1 of the tutorial (seed 3) with the reveal order as a choice: several equilibria, each one checked
    against all 36 x 966 plans, the smallest supports first."""
    _, facts = pick_facts(2, 3)
    plans = normal_form.plan_game(facts)
    found = normal_form.equilibria(plans)
    assert len(found) == len({repr(pair) for pair in found}) >= 2
    for row_mix, col_mix in found:
        assert normal_form.deviation_gains(plans, row_mix, col_mix) == (0.0, 0.0)  # exactly 0: no rounding noise shown
        assert sum(row_mix.values()) == pytest.approx(1) and sum(col_mix.values()) == pytest.approx(1)
    supports = [len(row_mix) + len(col_mix) for row_mix, col_mix in found]
    assert supports == sorted(supports)
    with pytest.raises(ValueError, match="6 x 6"):
        normal_form.equilibria(_seven_by_seven())


def _seven_by_seven() -> normal_form.RoundGame:
    """A game whose reduced form is 7 x 7 (rock-paper-scissors-like cycles keep every strategy)."""
    size = 7
    row = np.array([[(j - i) % size for j in range(size)] for i in range(size)], dtype=float)
    picks = tuple(ALL_PICKS[:size])
    return normal_form.RoundGame((0, 1), picks, picks, row, -row)


LESSON_NUMBERS = """
import random
from tabletop_edu.commissario import new_game, strategy
from tabletop_edu.commissario.bots import BidderBot
from tabletop_edu.core import play_turn
late = new_game(["Ana", "Ben"], seed=7)
bots, rng = {0: BidderBot(), 1: BidderBot()}, random.Random(7)
while not (late.phase == "pick" and late.view(None).facts["round"] == 7):
    play_turn(late, bots, rng)
plans = strategy.plan_game(late.view(None).facts)
_, _, curve = strategy.regret_matching_curve(plans, 5000)
first = new_game(["Ana", "Ben"], seed=3)
while first.phase == "release":
    first.apply("release none")
round_plans = strategy.plan_game(first.view(None).facts)
found = strategy.equilibria(round_plans)
print(round(curve[-1], 9), [[sorted(map(str, mix.items())) for mix in pair] for pair in found],
      strategy.deviation_gains(round_plans, *found[0]))
"""


def test_the_lessons_numbers_are_the_same_whatever_blas_kernel_numpy_runs() -> None:
    """The game theory tutorial's regret matching and equilibria, computed by numpy with two of OpenBLAS's kernels
    (each adds in its own order, as other processors do): the same numbers. Unrounded, regret matching's
    exploitability after 5,000 iterations was 0.12499 with one and 0.12495 with the other."""
    outputs = []
    for kernel in ("Prescott", "Sandybridge"):
        run = subprocess.run([sys.executable, "-c", LESSON_NUMBERS], capture_output=True, text=True, timeout=300,
                             env={**os.environ, "OPENBLAS_CORETYPE": kernel}, check=True)
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1] and outputs[0].strip()
