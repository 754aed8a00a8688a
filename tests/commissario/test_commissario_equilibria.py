"""A round's equilibrium checked against the engine: every deviation a seat really has, on the whole score."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_edu.commissario import auction, new_game, normal_form, strategy as S
from tabletop_edu.commissario.bots import BidderBot
from tabletop_edu.commissario.engine import CommissarioState
from tabletop_edu.commissario.rules import COLOURS, Rules
from tabletop_edu.core import play_turn

#: The most a seat may gain by deviating alone from a three-seat round's epsilon-equilibrium, in points.
EPSILON_THREE = 0.1


def at_pick(players: int, seed: int, round_number: int, rules: Rules | None = None) -> CommissarioState:
    """A game between bidder bots stopped at the secret pick of `round_number`."""
    state = new_game(players, seed=seed, rules=rules)
    bots, rng = {seat: BidderBot() for seat in range(players)}, random.Random(seed)
    while not (state.phase == "pick" and state.view(None).facts["round"] == round_number):
        play_turn(state, bots, rng)
    return state


def played(state: CommissarioState, picks: dict[int, Any], firsts: dict[int, str | None]) -> dict[int, float]:
    """Each seat's whole-score change when the engine plays the round: these picks, each seat showing its
    `firsts` colour first (None: the one the rules leave), its other commissaire second."""
    after = state.clone()
    before = {seat: auction.standing(after.view(None).facts, seat, True) for seat in picks}
    for seat, pick in picks.items():
        after.apply(str(pick), player=seat)
    while after.phase in ("first_reveal", "second_reveal"):
        seat = after.current_player
        options = after.legal_actions(seat)
        wanted = [a for a in options if after.phase == "first_reveal" and a.colour == firsts.get(seat)]
        after.apply(wanted[0] if wanted else options[0], player=seat)
    facts = after.view(None).facts
    return {seat: auction.standing(facts, seat, True) - before[seat] for seat in picks}


def test_a_two_seat_round_leaves_no_seat_anything_to_gain_on_the_whole_score() -> None:
    """Round 7 of the tutorial's game: the exact equilibrium's gains are 0, and the engine agrees with every plan
    of each seat played against the other's equilibrium mix."""
    state = at_pick(2, 7, 7)
    facts = state.view(None).facts
    solved = S.solve_round(facts, whole_score=True)
    print("gains by deviating alone:", solved.gains)
    assert solved.exact and max(solved.gains.values()) < S.EXACT
    first, second = facts["order"]
    plans = normal_form.plan_game(facts, majority=True)
    mixes = solved.strategy_mixes
    for row_plan, p in mixes[first].items():
        for col_plan, q in mixes[second].items():
            i, j = plans.row_picks.index(row_plan), plans.col_picks.index(col_plan)
            seen = row_plan.show_first(())
            engine = played(state, {first: row_plan.pick, second: col_plan.pick},
                            {first: seen, second: col_plan.show_first((seen,))})
            assert (plans.row_payoffs[i, j], plans.col_payoffs[i, j]) == (engine[first], engine[second])
    x = normal_form.mix_vector(plans, mixes[first], rows=True)
    y = normal_form.mix_vector(plans, mixes[second], rows=False)
    assert (plans.row_payoffs @ y).max() <= x @ plans.row_payoffs @ y + S.EXACT
    assert (x @ plans.col_payoffs).max() <= x @ plans.col_payoffs @ y + S.EXACT


def test_a_three_seat_round_is_an_epsilon_equilibrium_checked_pick_by_pick() -> None:
    """Three seats: every pure deviation of every seat, recomputed from the tensor by brute force, gains at most
    the printed epsilon; the tensor's cells are the engine's on sampled profiles (reveals greedy)."""
    state = at_pick(3, 7, 4)
    facts = state.view(None).facts
    solved = S.solve_round(facts, whole_score=True)
    print(f"epsilon {solved.epsilon:.4f}; gains {solved.gains}")
    assert not solved.exact and solved.epsilon <= EPSILON_THREE
    order = list(facts["order"])
    picks, payoffs = S.pick_tensor(facts, whole_score=True)
    sigmas = [np.array([solved.mixes[seat].get(pick, 0.0) for pick in picks[seat]]) for seat in order]
    for k, seat in enumerate(order):
        value, best = 0.0, -np.inf
        profiles = list(itertools.product(*(range(len(picks[s])) for s in order)))
        weights = {index: float(np.prod([sigmas[j][index[j]] for j in range(3) if j != k])) for index in profiles}
        for mine in range(len(picks[seat])):
            worth = sum(weights[index] * payoffs[k][index] for index in profiles if index[k] == mine)
            value += sigmas[k][mine] * worth
            best = max(best, worth)
        assert abs((best - value) - solved.gains[seat]) < 1e-9
    rng = random.Random(4)
    for _ in range(20):
        index = tuple(rng.randrange(len(picks[s])) for s in order)
        chosen = {seat: picks[seat][index[k]] for k, seat in enumerate(order)}
        board = {c: sorted(facts["table"][c], reverse=True) for c in COLOURS}
        greedy = {seat: max(pick.colours, key=lambda c: (board[c][0] if board[c] else 0, -COLOURS.index(c)))
                  for seat, pick in chosen.items()}
        if len({greedy[s] for s in order}) < 3:
            continue  # a seat after another in the same colour sees a new top: greedy is then not `firsts`
        engine = played(state, chosen, greedy)
        assert all(payoffs[k][index] == engine[seat] for k, seat in enumerate(order))


def test_the_whole_score_moves_round_seven_s_mix_from_nine_elevenths_to_three_quarters() -> None:
    """The tutorial's round 7 (pick table, reveals greedy): on this round's points Ben plays red + orange 9/11
    and Ana red + green 1/5; on the whole score (the bonus cards held after the round) 3/4 and 1/6. Each mix is
    the one that makes the other seat indifferent, from payoffs the engine plays."""
    state = at_pick(2, 7, 7)
    facts = state.view(None).facts
    ben, ana = facts["order"]
    red_orange, green_2x, red_green = (next(p for p in normal_form.picks_of(facts) if str(p) == f"pick {name}")
                                       for name in ("red orange", "green 2x", "red green"))
    solved = {}
    for whole in (False, True):
        game = normal_form.payoff_table(facts, majority=whole)
        rows, cols = normal_form.equilibrium(game)
        assert max(normal_form.deviation_gains(game, rows, cols)) < S.EXACT
        assert set(rows) == {red_orange, green_2x} and set(cols) == {red_green, green_2x}
        cell = {}
        for b, a in itertools.product((red_orange, green_2x), (red_green, green_2x)):
            if whole:
                gains = played(state, {ben: b, ana: a}, {})
            else:
                gains = {s: float(sum(v for _, v in cards)) for s, cards in
                         normal_form.play_out(facts["table"], facts["order"], {ben: b, ana: a}).items()}
            cell[b, a] = (Fraction(gains[ben]), Fraction(gains[ana]))
        # Ben's p makes Ana indifferent between her two picks; Ana's q makes Ben indifferent between his.
        d = [cell[red_orange, red_green][1] - cell[red_orange, green_2x][1],
             cell[green_2x, red_green][1] - cell[green_2x, green_2x][1]]
        p = -d[1] / (d[0] - d[1])
        e = [cell[red_orange, red_green][0] - cell[green_2x, red_green][0],
             cell[red_orange, green_2x][0] - cell[green_2x, green_2x][0]]
        q = -e[1] / (e[0] - e[1])
        assert abs(rows[red_orange] - float(p)) < 1e-9 and abs(cols[red_green] - float(q)) < 1e-9
        solved[whole] = (p, q)
    print("round points:", solved[False], "whole score:", solved[True])
    assert solved[False] == (Fraction(9, 11), Fraction(1, 5)) and solved[True] == (Fraction(3, 4), Fraction(1, 6))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10_000))
def test_the_best_release_is_the_best_of_every_release_played_out(seed: int) -> None:
    """A short two-seat game: at a release of its second round, every release the seat holds is played through
    the engine (the other seat's release as made), the round then solved; the best release is their maximum."""
    rules = Rules(highest_value=3, laid_per_player=2)
    state = new_game(2, seed=seed, rules=rules)
    bots, rng = {0: BidderBot(), 1: BidderBot()}, random.Random(seed)
    while not (state.phase == "release" and state.view(None).facts["round"] == 2):
        play_turn(state, bots, rng)
    seat = state.current_player
    probe = state.clone()
    probe.apply(bots[seat].choose(probe.view(seat), probe.legal_actions(seat), rng), player=seat)
    other = probe.current_player
    later_move = str(bots[other].choose(probe.view(other), probe.legal_actions(other), rng))
    values = auction.release_values(state, seat, [(other, later_move)])
    brute = {}
    for action in state.legal_actions(seat):
        after = state.clone()
        after.apply(action, player=seat)
        after.apply(later_move, player=other)
        facts = after.view(None).facts
        brute[str(action)] = auction.standing(facts, seat, True) + S.solve_round(facts).values[seat]
    assert values.keys() == brute.keys() and all(abs(values[a] - brute[a]) < 1e-9 for a in brute)
    best, value = auction.best_release_response(values)
    assert value == max(brute.values()) and brute[best] == value


def test_the_debrief_prints_each_seat_s_gain_and_follows_the_best_response() -> None:
    """A short two-seat game's debrief: every pick row gives the seat's gain by deviating alone from one exact
    equilibrium (0 to rounding), its note says so; a release is "followed" exactly when it is the best response,
    and what the best response adds is never below 0."""
    from tabletop_edu.commissario.beliefs import MODEL

    state = new_game(2, seed=5, rules=Rules(highest_value=2, laid_per_player=2))
    bots, rng = {0: BidderBot(), 1: BidderBot()}, random.Random(5)
    while not state.is_over:
        play_turn(state, bots, rng)
    picks, releases = MODEL.debrief(state)
    gains = [row[-1] for row in picks.rows]
    print("gains by deviating alone:", gains)
    assert picks.rows and all(0 <= gain <= S.EXACT for gain in gains)
    assert "exact Nash equilibrium" in picks.note and "équilibre de Nash exact" in picks.note_fr
    assert "whole score" in picks.note and "complete plans" in picks.note
    assert releases.rows and all(row[4] >= 0 and row[5] == (row[2] == row[3]) and (row[4] == 0) >= row[5]
                                 for row in releases.rows)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_pure_equilibria_are_the_profiles_no_seat_leaves(seed: int) -> None:
    """Small random three-seat tensors of whole points: `pure_equilibria` lists exactly the profiles from which
    no seat's other pick pays more, found by trying every deviation."""
    rng = np.random.default_rng(seed)
    payoffs = [rng.integers(0, 3, size=(2, 3, 2)).astype(float) for _ in range(3)]
    brute = []
    for index in itertools.product(range(2), range(3), range(2)):
        if all(payoffs[k][index] >= max(payoffs[k][index[:k] + (other,) + index[k + 1:]]
                                        for other in range(payoffs[k].shape[k])) for k in range(3)):
            brute.append(index)
    assert S.pure_equilibria(payoffs) == brute
