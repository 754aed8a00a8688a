"""One Commissario round solved and checked: an equilibrium at any table size, every one at two seats.

- `solve_round`: one equilibrium of a round, on its points or on the whole score, with what each seat still
  gains by deviating alone (exact at two seats over every complete plan; an epsilon-equilibrium of the picks at
  three to five, its epsilon computed), from `pick_tensor`, `pure_equilibria`, `regret_matching_plus`;
- `equilibrium_set`: every equilibrium of a two-player round, as its maximal Nash subsets in exact fractions.

This is the game's `ANALYSIS` module: the lessons reach the round's normal form (`normal_form`) and its tree
(`game_tree`) through it too, so it re-exports those names (`__all__`); the order auction is `auction`, level-k
play `level_k`.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .actions import Pick
from .game_tree import round_tree, small_round
from .level_k import expected_pick_gains
from .normal_form import (REGRET_DECIMALS, Plan, RoundGame, _mix, _numpy, _regret_policy, _scorer, _without_noise,
                          best_deviations, best_responses, deviation_gains, dominated_strategies, equilibria,
                          equilibrium, expected_values, greedy_plans, mix_vector, payoff_table, picks_of,
                          plan_game, play_out, reduce_game, regret_matching, regret_matching_curve)

__all__ = ["EXACT", "PAYOFFS", "NashSubset", "RoundEquilibrium", "equilibrium_set", "pick_tensor", "pure_equilibria",
           "regret_matching_plus", "solve_round", "tensor_gains", "tensor_values",
           # re-exported for the lessons, which reach them as `strategy.<name>`:
           "RoundGame", "best_deviations", "best_responses", "deviation_gains", "dominated_strategies", "equilibria",
           "equilibrium", "expected_values", "greedy_plans", "mix_vector", "payoff_table", "plan_game", "play_out",
           "reduce_game", "regret_matching", "regret_matching_curve", "round_tree", "small_round"]

#: What a round's payoff counts: this round's points, or the whole score (`majority`: plus the change in the
#: bonus cards each seat would hold if the game ended after this round, from the colour points carried over).
PAYOFFS = {False: ("this round's points", "les points de la manche"),
           True: ("the whole score (the round's points and the bonus cards held after it, from the colour points "
                  "carried over; later rounds not counted)",
                  "le score entier (les points de la manche et les cartes bonus détenues après elle, à partir des "
                  "points par couleur déjà acquis ; les manches suivantes non comptées)")}


@dataclass(frozen=True)
class RoundEquilibrium:
    """An equilibrium of one round from its pick phase, with what each seat could still gain by deviating alone
    over every strategy of `strategies` (0 for an exact equilibrium; at most `epsilon` for an epsilon-equilibrium).

    `mixes` are each seat's pick probabilities (a plan's reveal order summed out), `strategy_mixes` its
    probabilities over its strategies (plans or picks); `values` each seat's expected payoff; `whole_score` says what the payoff counts (`PAYOFFS`); `strategies` and `method`, in English and
    French, say which choices the game gives a seat and how the mixes were found."""

    mixes: dict[int, dict[Pick, float]]
    strategy_mixes: dict[int, dict[Any, float]]
    gains: dict[int, float]
    values: dict[int, float]
    whole_score: bool
    exact: bool
    strategies: tuple[str, str]
    method: tuple[str, str]

    @property
    def epsilon(self) -> float:
        """The most any seat gains by deviating alone (its NashConv is the sum of `gains`)."""
        return max(self.gains.values())


#: The tolerance under which a seat's gain by deviating is rounding, and the equilibrium exact.
EXACT = 1e-9


def solve_round(facts: Mapping[str, Any], *, whole_score: bool = True, iterations: int = 400) -> RoundEquilibrium:
    """One equilibrium of the round whose pick phase `facts` are, checked against every deviation.

    Two seats: the plan game (`plan_game`, every pick with every reveal order a seat may choose after what it
    has seen) solved exactly on the reduced game (`equilibrium`, nashpy), its gains computed over all plans.
    Three seats: the pick game (reveals greedy, `play_out`) as a payoff tensor: a pure equilibrium when one
    exists (exact), else regret matching+ on exact expectations, its gains computed exactly over every pick: an
    epsilon-equilibrium of the pick game.
    Four or five: the same on this round's points only, the expectations from `expected_pick_gains` (a tensor
    of 21^4 profiles is too slow to build for a page)."""
    order = list(facts["order"])
    if len(order) == 2:
        return _two_seat_round(facts, whole_score)
    if len(order) == 3:
        return _tensor_round(facts, whole_score, iterations)
    return _expected_round(facts, iterations)


def _two_seat_round(facts: Mapping[str, Any], whole_score: bool) -> RoundEquilibrium:
    planned = facts.get("rules", {}).get("reveal_choice", True)
    game = plan_game(facts, majority=whole_score) if planned else payoff_table(facts, majority=whole_score)
    row_mix, col_mix = equilibrium(game)
    gains = deviation_gains(game, row_mix, col_mix)
    values = expected_values(game, row_mix, col_mix)
    seats = game.seats

    def picks(mix: Mapping[Any, float]) -> dict[Pick, float]:
        summed: dict[Pick, float] = {}
        for strategy, q in mix.items():
            pick = strategy.pick if isinstance(strategy, Plan) else strategy
            summed[pick] = summed.get(pick, 0.0) + q
        return summed

    words = (("complete plans: a pick and which commissaire to show first after what the seat has seen",
              "plans complets : un choix et le commissaire à montrer d'abord selon ce que la place a vu")
             if planned else ("picks (the reveal order is fixed by the rules)",
                              "choix (l'ordre des révélations est fixé par les règles)"))
    exact = max(gains) < EXACT
    return RoundEquilibrium({seats[0]: picks(row_mix), seats[1]: picks(col_mix)},
                            {seats[0]: dict(row_mix), seats[1]: dict(col_mix)}, {seats[0]: gains[0], seats[1]: gains[1]}, {seats[0]: values[0], seats[1]: values[1]},
                            whole_score, exact, words,
                            ("nashpy's enumerations on the reduced game, every deviation checked",
                             "les énumérations de nashpy sur le jeu réduit, chaque déviation vérifiée"))


_GREEDY_PICKS = ("picks, each seat showing first the colour whose best character is worth most (reveal order "
                 "not a choice)",
                 "choix, chaque place montrant d'abord la couleur dont le meilleur personnage vaut le plus (l'ordre "
                 "des révélations n'est pas un choix)")


def pick_tensor(facts: Mapping[str, Any], *, whole_score: bool = True) -> tuple[dict[int, tuple[Pick, ...]], list[Any]]:
    """Every seat's picks and, for each seat in turn order, its payoff for every profile of picks (an array with
    one axis per seat in turn order): the round's pick game with greedy reveals, for any table size (21^N
    profiles: seconds at 3 seats, minutes at 5)."""
    np = _numpy()
    order = list(facts["order"])
    picks = {seat: picks_of(facts, seat) for seat in order}
    shape = tuple(len(picks[seat]) for seat in order)
    payoffs = [np.zeros(shape) for _ in order]
    score = _scorer(facts, whole_score)
    table = tuple((colour, tuple(values)) for colour, values in facts["table"].items())
    caught = _every_profile_played(table, tuple(order), tuple(tuple(picks[seat]) for seat in order))
    for index, cards in zip(itertools.product(*(range(n) for n in shape)), caught):
        gains = score(cards)
        for k, seat in enumerate(order):
            payoffs[k][index] = gains[seat]
    return picks, payoffs


@functools.lru_cache(maxsize=4)
def _every_profile_played(table: tuple[tuple[str, tuple[int, ...]], ...], order: tuple[int, ...],
                          picks: tuple[tuple[Pick, ...], ...]) -> list[dict[int, list[tuple[str, int]]]]:
    """`play_out` of every profile of `picks` (one tuple per seat in turn order, profiles in `itertools.product`
    order), remembered: the releases a debrief weighs change the colour points, not the arrests."""
    board = dict(table)
    return [play_out(board, order, dict(zip(order, profile))) for profile in itertools.product(*picks)]


def tensor_values(payoffs: Sequence[Any], sigmas: Sequence[Any], k: int) -> Any:
    """The expected payoff of each pick of the seat at position `k` when every other seat plays its mix."""
    np = _numpy()
    values = payoffs[k]
    for j in reversed(range(len(sigmas))):
        if j != k:
            values = np.tensordot(values, sigmas[j], axes=([j], [0]))
    return values


def tensor_gains(payoffs: Sequence[Any], sigmas: Sequence[Any]) -> list[float]:
    """What each seat gains by its best pure deviation from the mixes `sigmas` (exact)."""
    gains = []
    for k, sigma in enumerate(sigmas):
        values = tensor_values(payoffs, sigmas, k)
        gains.append(_without_noise(float(values.max() - sigma @ values)))
    return gains


def regret_matching_plus(payoffs: Sequence[Any], iterations: int) -> tuple[list[Any], list[float]]:
    """Regret matching+ on exact expectations (no sampling): every seat at once, regrets floored at 0, the
    average weighted by the iteration's number. Returns the average mixes with the smallest largest gain seen
    (checked every tenth iteration) and those gains. No guarantee of reaching a Nash equilibrium beyond two
    players: the gains say how far it got."""
    np = _numpy()
    sizes = [p.shape[k] for k, p in enumerate(payoffs)]
    regrets = [np.zeros(n) for n in sizes]
    totals = [np.zeros(n) for n in sizes]
    best: tuple[float, list[Any], list[float]] = (float("inf"), [], [])
    for t in range(1, iterations + 1):
        sigmas = [_regret_policy(r) for r in regrets]
        for k in range(len(sizes)):
            values = np.round(tensor_values(payoffs, sigmas, k), REGRET_DECIMALS)
            regrets[k] = np.maximum(regrets[k] + values - round(float(sigmas[k] @ values), REGRET_DECIMALS), 0)
            totals[k] += t * sigmas[k]
        if t % 10 == 0 or t == iterations:
            average = [total / total.sum() for total in totals]
            gains = tensor_gains(payoffs, average)
            if max(gains) < best[0]:
                best = (max(gains), average, gains)
    return best[1], best[2]


def pure_equilibria(payoffs: Sequence[Any]) -> list[tuple[int, ...]]:
    """Every profile (an index per seat) where no seat gains by another pick: the pure Nash equilibria of the
    tensor, exact (ties within `EXACT`)."""
    np = _numpy()
    stable = np.ones(payoffs[0].shape, dtype=bool)
    for k, payoff in enumerate(payoffs):
        stable &= payoff >= payoff.max(axis=k, keepdims=True) - EXACT
    return [tuple(int(i) for i in index) for index in np.argwhere(stable)]


def _tensor_round(facts: Mapping[str, Any], whole_score: bool, iterations: int) -> RoundEquilibrium:
    np = _numpy()
    order = list(facts["order"])
    picks, payoffs = pick_tensor(facts, whole_score=whole_score)
    pure = pure_equilibria(payoffs)
    if pure:
        sigmas = [np.eye(len(picks[seat]))[pure[0][k]] for k, seat in enumerate(order)]
        values = [float(payoffs[k][pure[0]]) for k in range(len(order))]
        mixes = {seat: _mix(picks[seat], sigmas[k]) for k, seat in enumerate(order)}
        return RoundEquilibrium(mixes, {seat: dict(mix) for seat, mix in mixes.items()},
                                dict(zip(order, tensor_gains(payoffs, sigmas))), dict(zip(order, values)), whole_score,
                                True, _GREEDY_PICKS,
                                ("a search of every profile for a pure equilibrium, every pick checked",
                                 "une recherche d'un équilibre pur parmi tous les profils, chaque choix vérifié"))
    sigmas, gains = regret_matching_plus(payoffs, iterations)
    values = [float(sigmas[k] @ tensor_values(payoffs, sigmas, k)) for k in range(len(order))]
    mixes = {seat: _mix(picks[seat], sigmas[k]) for k, seat in enumerate(order)}
    return RoundEquilibrium(mixes, {seat: dict(mix) for seat, mix in mixes.items()}, dict(zip(order, gains)), dict(zip(order, values)), whole_score,
                            max(gains) < EXACT, _GREEDY_PICKS,
                            (f"regret matching+ on exact expectations ({iterations} iterations), every pick checked",
                             f"regret matching+ sur les espérances exactes ({iterations} itérations), chaque choix "
                             "vérifié"))


def _expected_round(facts: Mapping[str, Any], iterations: int) -> RoundEquilibrium:
    """Four or five seats: sampled regret matching (`regret_matching`, round points), then each seat's gain
    computed exactly by `expected_pick_gains`."""
    order = list(facts["order"])
    mixes = regret_matching(facts, iterations=iterations, rng=random.Random(f"round-{facts.get('round')}"))
    gains, values = {}, {}
    for seat in order:
        each = expected_pick_gains(facts["table"], order, seat, mixes, picks_of(facts, seat))
        values[seat] = sum(each[pick] * q for pick, q in mixes[seat].items())
        gains[seat] = _without_noise(max(each.values()) - values[seat])
    return RoundEquilibrium(mixes, {seat: dict(mix) for seat, mix in mixes.items()}, gains, values, False,
                            max(gains.values()) < EXACT, _GREEDY_PICKS,
                            (f"sampled regret matching ({iterations} iterations, seeded), every pick checked exactly",
                             f"regret matching échantillonné ({iterations} itérations, graine fixe), chaque choix "
                             "vérifié exactement"))


@dataclass(frozen=True)
class NashSubset:
    """A maximal Nash subset of a two-player game: every pair (x, y) with x a mix of the `rows` mixes and y a mix
    of the `cols` mixes is an equilibrium. The whole set of equilibria is the union of these convex sets; two
    that share a mix are joined. `row_values` and `col_values` are the least and most each player expects over
    the subset (a bilinear payoff is extreme at a pair of its corners)."""

    rows: tuple[dict[Any, Fraction], ...]
    cols: tuple[dict[Any, Fraction], ...]
    row_values: tuple[Fraction, Fraction]
    col_values: tuple[Fraction, Fraction]


def equilibrium_set(game: RoundGame) -> list[NashSubset]:
    """Every Nash equilibrium of the (reduced, `reduce_game`) two-player game, as its maximal Nash subsets, in
    exact fractions: the extreme equilibria are the completely labelled pairs of vertices of the two best-response
    polytopes, every vertex found by solving each set of tight constraints (degenerate vertices included); the
    subsets are the maximal bicliques of "x and y are an equilibrium together" among them (Avis, Rosenberg,
    Savani and von Stengel 2010). A merged strategy stands for any split among the strategies it merges. For
    reduced games of at most 8 x 8 (the count of constraint sets grows as a binomial): ValueError beyond."""
    small = reduce_game(game)
    m, n = small.row_payoffs.shape
    if max(m, n) > 8:
        raise ValueError(f"equilibrium_set enumerates reduced games of at most 8 x 8, not {m} x {n}.")
    a = [[Fraction(int(v)) if float(v).is_integer() else Fraction(float(v)) for v in row] for row in small.row_payoffs]
    b = [[Fraction(int(v)) if float(v).is_integer() else Fraction(float(v)) for v in row] for row in small.col_payoffs]
    shift = 1 - min(min(min(row) for row in a), min(min(row) for row in b))
    a_pos = [[v + shift for v in row] for row in a]
    b_pos = [[v + shift for v in row] for row in b]
    # P = {x >= 0, B^T x <= 1}: label i when x_i = 0, label m + j when (B^T x)_j = 1.
    p_rows = [[Fraction(int(i == k)) for k in range(m)] for i in range(m)] + [[b_pos[i][j] for i in range(m)]
                                                                            for j in range(n)]
    p_bounds = [Fraction(0)] * m + [Fraction(1)] * n
    # Q = {A y <= 1, y >= 0}: label i when (A y)_i = 1, label m + j when y_j = 0.
    q_rows = [list(a_pos[i]) for i in range(m)] + [[Fraction(int(j == k)) for k in range(n)] for j in range(n)]
    q_bounds = [Fraction(1)] * m + [Fraction(0)] * n
    p_vertices = _vertices(p_rows, p_bounds, m)
    q_vertices = _vertices(q_rows, q_bounds, n)
    pairs = [(x, y) for x, x_labels in p_vertices.items() for y, y_labels in q_vertices.items()
             if any(x) and any(y) and (x_labels | y_labels) == set(range(m + n))]
    xs = sorted({x for x, _ in pairs})
    ys = sorted({y for _, y in pairs})
    together = {(x, y) for x, y in pairs}
    subsets = []
    for size in range(len(xs), 0, -1):
        for chosen in itertools.combinations(xs, size):
            cols = tuple(y for y in ys if all((x, y) in together for x in chosen))
            rows = tuple(x for x in xs if all((x, y) in together for y in cols))
            if cols and rows == chosen and (rows, cols) not in subsets:
                subsets.append((rows, cols))

    def normal(v: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        total = sum(v)
        return tuple(p / total for p in v)

    def value(payoffs: list[list[Fraction]], x: tuple[Fraction, ...], y: tuple[Fraction, ...]) -> Fraction:
        return sum((x[i] * payoffs[i][j] * y[j] for i in range(m) for j in range(n)), Fraction(0))

    result = []
    for rows, cols in subsets:
        row_mixes, col_mixes = [normal(x) for x in rows], [normal(y) for y in cols]
        row_values = [value(a, x, y) for x in row_mixes for y in col_mixes]
        col_values = [value(b, x, y) for x in row_mixes for y in col_mixes]
        result.append(NashSubset(
            tuple({small.row_picks[i]: p for i, p in enumerate(x) if p} for x in row_mixes),
            tuple({small.col_picks[j]: q for j, q in enumerate(y) if q} for y in col_mixes),
            (min(row_values), max(row_values)), (min(col_values), max(col_values))))
    return result


def _vertices(rows: list[list[Fraction]], bounds: list[Fraction], size: int
              ) -> dict[tuple[Fraction, ...], frozenset[int]]:
    """Every vertex of the polytope {v : rows[k] . v <= bounds[k]} in `size` dimensions, where a row with bound 0
    is a unit row read as v_i >= 0 (see `equilibrium_set`), with the labels (row numbers) of all its tight
    constraints."""
    found: dict[tuple[Fraction, ...], frozenset[int]] = {}
    nonnegative = [k for k, row in enumerate(rows) if bounds[k] == 0]
    for tight in itertools.combinations(range(len(rows)), size):
        point = _solve_exactly([rows[k] for k in tight], [bounds[k] for k in tight])
        if point is None or point in found:
            continue
        if any(point[rows[k].index(Fraction(1))] < 0 for k in nonnegative):
            continue
        if any(sum((c * p for c, p in zip(rows[k], point)), Fraction(0)) > bounds[k]
               for k in range(len(rows)) if k not in nonnegative):
            continue
        labels = frozenset(k for k in range(len(rows))
                           if sum((c * p for c, p in zip(rows[k], point)), Fraction(0)) == bounds[k])
        found[point] = labels
    return found


def _solve_exactly(matrix: list[list[Fraction]], rhs: list[Fraction]) -> tuple[Fraction, ...] | None:
    """The one solution of a square system in fractions (Gauss-Jordan), or None when it is singular."""
    size = len(matrix)
    work = [list(row) + [value] for row, value in zip(matrix, rhs)]
    for column in range(size):
        pivot = next((r for r in range(column, size) if work[r][column] != 0), None)
        if pivot is None:
            return None
        work[column], work[pivot] = work[pivot], work[column]
        head = work[column][column]
        work[column] = [v / head for v in work[column]]
        for r in range(size):
            if r != column and work[r][column] != 0:
                factor = work[r][column]
                work[r] = [v - factor * w for v, w in zip(work[r], work[column])]
    return tuple(work[r][size] for r in range(size))
