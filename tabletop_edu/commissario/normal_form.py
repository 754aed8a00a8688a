"""One Commissario round's secret pick as a normal-form game: payoffs, reductions, two-seat equilibria, plans.

The secret pick (R4.1) is a simultaneous game: every seat chooses one of 21 picks (15 pairs of colours and
6 "colour + 2x"; the 15 pairs alone when the game has no 2x card, option `double_card`), and the round's
arrests follow from the picks, the turn order and the layout. Here:

- `play_out` plays the arrests of one round for a profile of picks (reveals: each seat shows first the colour
  whose top character is worth most now, a greedy but natural reveal policy);
- `payoff_table` builds the two-player payoff matrices (points gained this round, optionally plus the change
  in bonus cards the seat would hold if the game ended now: the colour-majority effect);
- `best_responses`, `dominated_strategies`, `reduce_game`, `equilibrium` and `equilibria` (nashpy) analyse it
  (`equilibria`: all those the enumerations find, in an order that does not depend on the processor). The game is
  usually *degenerate*: many picks give the same payoffs (a colour with nothing on the table is worth 0 to
  everyone), so equilibria come in continua and support enumeration would list many. We first merge
  identical strategies and remove strictly dominated ones, then solve the reduced game;
- `plan_game`: the same game over complete plans (a pick and which commissaire to show first after what the
  seat has seen), and `deviation_gains`, `best_deviations`, `regret_matching_curve` to check a pair of mixes;
- `regret_matching` approximates an equilibrium for 3 to 5 players by sampled regret matching
  (its average play converges to a coarse correlated equilibrium).
"""

from __future__ import annotations

import functools
import itertools
import random
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..extras import need
from .actions import ALL_PICKS, Pick, picks_allowed
from .engine import bonus_winner
from .rules import COLOURS

if TYPE_CHECKING:  # numpy is imported by the functions that compute with it: playing needs no numpy
    import numpy as np
    from numpy import ndarray  # for annotations inside a function whose `np` is its own import, or none

#: What numpy and nashpy are for here, in the sentence a lean install shows instead of a traceback.
_PURPOSE = "Commissario's exact strategies (payoff tables, equilibria, the equilibrium bot)"


def _numpy() -> ModuleType:
    return need("numpy", _PURPOSE)


Table = Mapping[str, Sequence[int]]
#: A seat's rule for its first reveal: the colours shown before it this round -> the colour it shows.
ShowFirst = Callable[[tuple[str, ...]], str]
PICK_NAMES: tuple[str, ...] = tuple(str(p).removeprefix("pick ") for p in ALL_PICKS)


def picks_of(facts: Mapping[str, Any], seat: int | None = None) -> tuple[Pick, ...]:
    """The picks the rules in a view's facts allow `seat` (R4.1): only pairs without the 2x card (option
    `double_card`) or, with the option `double_card_each_round` off, once `seat` has spent it (`doubles_spent`).
    Without a seat: the picks of a seat that still holds its 2x card."""
    rules = facts.get("rules", {})
    spent = seat is not None and seat in facts.get("doubles_spent", ())
    return picks_allowed(rules.get("double_card", True) and not spent)


def _top(table: Mapping[str, list[int]], colour: str) -> int:
    return table[colour][0] if table[colour] else 0


def play_out(table: Table, order: Sequence[int], picks: Mapping[int, Pick],
             shown_first: Mapping[int, ShowFirst] | None = None) -> dict[int, list[tuple[str, int]]]:
    """The characters each seat arrests this round (R4.2-R4.6).

    A seat in `shown_first` chooses its first reveal with that rule (from the colours shown before it this
    round); every other seat reveals greedily: the colour whose top character is worth most now, ties to
    the colour earlier in colour order.
    """
    board = {c: sorted(table.get(c, []), reverse=True) for c in COLOURS}
    left = {seat: list(picks[seat].colours) for seat in order}
    caught: dict[int, list[tuple[str, int]]] = {seat: [] for seat in order}
    shown: list[str] = []
    for turn, seat in enumerate(list(order) + list(order)[::-1]):
        if turn < len(order) and shown_first and seat in shown_first:
            colour = shown_first[seat](tuple(shown))
        else:
            colour = max(left[seat], key=lambda c: (_top(board, c), -COLOURS.index(c)))
        left[seat].remove(colour)
        shown.append(colour)
        if board[colour]:
            caught[seat].append((colour, board[colour].pop(0)))
    return caught


def bonus_holdings(colour_scores: Sequence[Mapping[str, int]], bonus_values: Mapping[str, int],
                   needs_positive: bool = False) -> list[int]:
    """The bonus points each seat would hold if the game ended now (R6.2, R6.3, R6.5)."""
    held = [0] * len(colour_scores)
    for colour in COLOURS:
        winner, _ = bonus_winner([scores.get(colour, 0) for scores in colour_scores], needs_positive)
        if winner is not None:
            held[winner] += bonus_values.get(colour, 0)
    return held


def round_gains(facts: Mapping[str, Any], order: Sequence[int], picks: Mapping[int, Pick],
                majority: bool = False, shown_first: Mapping[int, ShowFirst] | None = None) -> dict[int, float]:
    """Points each seat gains this round (plus the change in bonus holdings when `majority`)."""
    return _scorer(facts, majority)(play_out(facts["table"], order, picks, shown_first))


@functools.lru_cache(maxsize=1 << 16)
def _played_with_firsts(table: tuple[tuple[str, tuple[int, ...]], ...], order: tuple[int, ...],
                        picks: tuple[Pick, ...], firsts: tuple[str, ...]) -> dict[int, list[tuple[str, int]]]:
    """`play_out` with each seat's first reveal given (`firsts`, in turn order), remembered: a debrief solves
    the same board in one turn order for every release a seat might have made."""
    rules = {seat: (lambda _shown, colour=colour: colour) for seat, colour in zip(order, firsts)}
    return play_out(dict(table), order, dict(zip(order, picks)), rules)


Caught = Mapping[int, list[tuple[str, int]]]


def _scorer(facts: Mapping[str, Any], majority: bool) -> Callable[[Caught], dict[int, float]]:
    """The points of the characters each seat caught, plus the change in its bonus holdings when `majority`
    (R6.2, R6.3, R6.5: only the colours caught in can change hands)."""
    needs_positive = facts.get("rules", {}).get("bonus_needs_positive", False)
    carried = {colour: [scores.get(colour, 0) for scores in facts["colour_scores"]] for colour in COLOURS} \
        if majority else {}
    held_before = {colour: bonus_winner(carried[colour], needs_positive)[0] for colour in carried}

    def score(caught: Caught) -> dict[int, float]:
        gains = {seat: float(sum(v for _, v in cards)) for seat, cards in caught.items()}
        if majority:
            added: dict[str, list[int]] = {}
            for seat, cards in caught.items():
                for colour, value in cards:
                    added.setdefault(colour, list(carried[colour]))[seat] += value
            for colour, scores in added.items():
                before, after = held_before[colour], bonus_winner(scores, needs_positive)[0]
                if before != after:
                    value = facts["bonus_values"].get(colour, 0)
                    if before is not None and before in gains:
                        gains[before] -= value
                    if after is not None and after in gains:
                        gains[after] += value
        return gains
    return score


# ------------------------------------------------------------------------------------ two-player game

@dataclass(frozen=True)
class RoundGame:
    """A two-player normal-form game: row player `seats[0]`, column player `seats[1]`. The strategies are
    picks (`payoff_table`, reveals greedy), complete plans (`plan_game`), or any strategies whose `str` is
    their label (bids in a tutorial's auction)."""

    seats: tuple[int, int]
    row_picks: tuple[Any, ...]
    col_picks: tuple[Any, ...]
    row_payoffs: np.ndarray
    col_payoffs: np.ndarray

    def labels(self) -> tuple[list[str], list[str]]:
        return ([str(p).removeprefix("pick ") for p in self.row_picks],
                [str(p).removeprefix("pick ") for p in self.col_picks])

    def _repr_html_(self) -> str:
        """The bimatrix in a notebook: one row per pick of seat `seats[0]`, one column per pick of `seats[1]`,
        each cell "row player's points, column player's points"."""
        from html import escape

        rows, cols = self.labels()
        head = "".join(f"<th>{escape(c)}</th>" for c in cols)
        body = "".join(f"<tr><th>{escape(r)}</th>" + "".join(
            f"<td>{self.row_payoffs[i][j]:g}, {self.col_payoffs[i][j]:g}</td>" for j in range(len(cols))) + "</tr>"
            for i, r in enumerate(rows))
        caption = f"Seat {self.seats[0]} (rows) against seat {self.seats[1]} (columns): points this round"
        return (f"<table class='tabletop-round-game'><caption>{escape(caption)}</caption>"
                f"<thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table>")


def payoff_table(facts: Mapping[str, Any], seats: tuple[int, int] | None = None, *,
                 others: Mapping[int, Pick] | None = None, majority: bool = False) -> RoundGame:
    """Payoffs of every pair of picks of two seats (others, if any, play the fixed `others` picks).

    `facts` are a view's facts once the turn order is known (the pick phase); the picks are those its rules
    allow each seat (21, or 15 without the 2x card or once a seat has spent it).
    """
    np = _numpy()
    order = list(facts["order"])
    if seats is None:
        seats = (order[0], order[1])
    row_picks, col_picks = picks_of(facts, seats[0]), picks_of(facts, seats[1])
    others = dict(others or {})
    for seat in order:
        if seat not in seats and seat not in others:
            others[seat] = picks_of(facts, seat)[0]
    rows = np.zeros((len(row_picks), len(col_picks)))
    cols = np.zeros_like(rows)
    for i, a in enumerate(row_picks):
        for j, b in enumerate(col_picks):
            gains = round_gains(facts, order, {**others, seats[0]: a, seats[1]: b}, majority)
            rows[i, j], cols[i, j] = gains[seats[0]], gains[seats[1]]
    return RoundGame(seats, row_picks, col_picks, rows, cols)


def best_responses(game: RoundGame) -> tuple[list[list[int]], list[list[int]]]:
    """Row's best replies to each column pick, and column's best replies to each row pick (indices)."""
    np = _numpy()
    rows = [list(np.flatnonzero(np.isclose(col, col.max()))) for col in game.row_payoffs.T]
    cols = [list(np.flatnonzero(np.isclose(row, row.max()))) for row in game.col_payoffs]
    return rows, cols


def dominated_strategies(payoffs: np.ndarray) -> list[int]:
    """Rows strictly dominated by another pure row (payoffs[i] < payoffs[k] everywhere)."""
    np = _numpy()
    below = np.all(payoffs[:, None, :] < payoffs[None, :, :], axis=2)  # below[i, k]: row i loses to k everywhere
    return [int(i) for i in np.flatnonzero(np.any(below, axis=1))]


def reduce_game(game: RoundGame) -> RoundGame:
    """Merge picks with identical payoffs, then iteratively remove strictly dominated picks."""
    np = _numpy()
    rows, cols = list(range(len(game.row_picks))), list(range(len(game.col_picks)))
    changed = True
    while changed:
        a = game.row_payoffs[np.ix_(rows, cols)]
        b = game.col_payoffs[np.ix_(rows, cols)]
        keep_r = _distinct(np.hstack([a, b]))
        keep_c = _distinct(np.vstack([a, b]).T)
        a, b = a[np.ix_(keep_r, keep_c)], b[np.ix_(keep_r, keep_c)]
        rows, cols = [rows[i] for i in keep_r], [cols[j] for j in keep_c]
        drop_r, drop_c = set(dominated_strategies(a)), set(dominated_strategies(b.T))
        rows = [r for i, r in enumerate(rows) if i not in drop_r]
        cols = [c for j, c in enumerate(cols) if j not in drop_c]
        changed = bool(drop_r or drop_c)
    return RoundGame(game.seats, tuple(game.row_picks[i] for i in rows), tuple(game.col_picks[j] for j in cols),
                     game.row_payoffs[np.ix_(rows, cols)], game.col_payoffs[np.ix_(rows, cols)])


def _distinct(matrix: np.ndarray) -> list[int]:
    np = _numpy()
    seen: set[bytes] = set()
    keep = []
    for i, row in enumerate(matrix):
        key = np.round(row, 9).tobytes()
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return keep


def equilibrium(game: RoundGame, *, rng: random.Random | None = None) -> tuple[dict[Any, float], dict[Any, float]]:
    """One mixed Nash equilibrium of the (reduced) game via nashpy, as strategy -> probability for each seat.

    Candidates come from support enumeration and vertex enumeration on small reduced games (the games are
    degenerate, so one method may miss what the other finds), else from Lemke-Howson from each starting
    label; the first candidate no pure deviation improves on is returned. Regret matching is the fallback.
    """
    nashpy = need("nashpy", _PURPOSE)
    _numpy()  # a lean install is told numpy is missing in the sentence the other functions give
    small = reduce_game(game)
    nash = nashpy.Game(small.row_payoffs, small.col_payoffs)

    def candidates() -> Iterator[tuple[ndarray, ndarray]]:
        if min(small.row_payoffs.shape) <= 6:
            yield from nash.support_enumeration()
            yield from nash.vertex_enumeration()
        for label in range(sum(small.row_payoffs.shape)):
            try:
                yield nash.lemke_howson(initial_dropped_label=label)
            except Exception:  # noqa: BLE001 - nashpy can fail on degenerate games
                continue

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for candidate in candidates():
            checked = _checked_equilibrium(small, *candidate)
            if checked is not None:
                sigma_r, sigma_c = checked
                break
        else:
            sigma_r, sigma_c = _two_player_regret(small, rng or random.Random(0))
    return (_mix(small.row_picks, sigma_r), _mix(small.col_picks, sigma_c))


def _checked_equilibrium(small: RoundGame, sigma_r: np.ndarray, sigma_c: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray] | None:
    """A candidate of nashpy's (degenerate games bring nonsense too) clipped at 0, if both are probabilities to
    rounding and no pure deviation gains 1e-7 against them; else None."""
    np = _numpy()
    if not all(np.all(np.isfinite(p)) and np.isclose(p.sum(), 1) and np.all(p >= -1e-9) for p in (sigma_r, sigma_c)):
        return None
    sigma_r, sigma_c = np.clip(sigma_r, 0, None), np.clip(sigma_c, 0, None)
    row_gain, col_gain = _gains(small, sigma_r / sigma_r.sum(), sigma_c / sigma_c.sum())
    return (sigma_r, sigma_c) if max(row_gain, col_gain) < 1e-7 else None


def equilibria(game: RoundGame, decimals: int = 6) -> list[tuple[dict[Any, float], dict[Any, float]]]:
    """Every equilibrium that support enumeration and vertex enumeration (nashpy) find on the reduced game, each
    checked against every pure deviation, told apart and ordered by its probabilities rounded to `decimals`:
    the smallest supports first, then the most weight on the earliest strategies. A degenerate round has
    several; which one a method meets first depends on the processor's rounding, this list does not
    (`equilibrium` returns one quickly). For reduced games of at most 6 x 6 (enumeration is exponential):
    ValueError beyond."""
    nashpy = need("nashpy", _PURPOSE)
    np = _numpy()
    small = reduce_game(game)
    if max(small.row_payoffs.shape) > 6:
        raise ValueError(f"equilibria enumerates reduced games of at most 6 x 6, not {small.row_payoffs.shape}.")
    nash = nashpy.Game(small.row_payoffs, small.col_payoffs)
    found: dict[tuple[tuple[float, ...], tuple[float, ...]], tuple[ndarray, ndarray]] = {}  # rounded -> found
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for candidate in itertools.chain(nash.support_enumeration(), nash.vertex_enumeration()):
            checked = _checked_equilibrium(small, *candidate)
            if checked is None:
                continue
            sigma_r, sigma_c = checked[0] / checked[0].sum(), checked[1] / checked[1].sum()
            key = (tuple(float(p) + 0.0 for p in np.round(sigma_r, decimals)),
                   tuple(float(q) + 0.0 for q in np.round(sigma_c, decimals)))
            found.setdefault(key, (sigma_r, sigma_c))

    def order(key: tuple[tuple[float, ...], tuple[float, ...]]) -> tuple[Any, ...]:
        rows, cols = key
        return (sum(p > 0 for p in rows) + sum(q > 0 for q in cols), tuple(-p for p in rows), tuple(-q for q in cols))

    return [(_mix(small.row_picks, found[key][0]), _mix(small.col_picks, found[key][1]))
            for key in sorted(found, key=order)]


def explain(game: RoundGame) -> str:
    """A few sentences on the game's structure, for a tutorial: duplicates, dominance, one equilibrium."""
    small = reduce_game(game)
    rows, cols = equilibrium(game)
    def show(mix: Mapping[Pick, float]) -> str:
        return ", ".join(f"{str(p).removeprefix('pick ')} {q:.2f}" for p, q in sorted(mix.items(), key=lambda x: -x[1]))
    a, b = game.seats
    return (f"{len(game.row_picks)} x {len(game.col_picks)} picks reduce to {len(small.row_picks)} x "
            f"{len(small.col_picks)} after merging picks with identical payoffs and removing strictly dominated "
            f"ones. Many picks tie (a colour with nothing on the table is worth 0 to everyone), so the game is "
            f"degenerate and equilibria can come in continua; one equilibrium: seat {a} plays {show(rows)}; "
            f"seat {b} plays {show(cols)}.")


def _mix(picks: Sequence[Pick], sigma: np.ndarray) -> dict[Pick, float]:
    return {pick: float(p) for pick, p in zip(picks, sigma) if p > 1e-9}


def _two_player_regret(game: RoundGame, rng: random.Random, iterations: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    row_mix, col_mix, _ = regret_matching_curve(game, iterations)
    return row_mix, col_mix


def _regret_policy(regret: np.ndarray) -> np.ndarray:
    np = _numpy()
    positive = np.maximum(regret, 0)
    return positive / positive.sum() if positive.sum() > 0 else np.full(len(regret), 1 / len(regret))


# ------------------------------------------------------------------------------------ complete plans

@dataclass(frozen=True)
class Plan:
    """A complete plan for one seat of a two-player round: its pick and which commissaire it shows first.

    The pick alone is not a strategy: R4.2 lets a seat choose which of its two commissaires to show first.
    The seat revealing first (`first`) has seen nothing; the seat revealing second has seen one colour, so
    its plan says what it shows after each colour it might see (`after[k]` answers `COLOURS[k]`). A 2x pick
    leaves no choice (the 2x card is the second arrest, R4.6).
    """

    pick: Pick
    first: str | None = None
    after: tuple[str, ...] = ()

    def show_first(self, shown: tuple[str, ...]) -> str:
        """The colour this plan shows first, given the colours shown before it this round."""
        if self.pick.double:
            return self.pick.colours[0]
        if self.after:
            return self.after[COLOURS.index(shown[-1])]
        assert self.first is not None
        return self.first

    def __str__(self) -> str:
        a, b = self.pick.colours
        if self.pick.double:
            return f"{a} 2x"
        if not self.after:
            return f"{a} {b}, {self.first} first"
        switch = [seen for seen, shown in zip(COLOURS, self.after) if shown == b]
        if len(switch) in (0, len(COLOURS)):
            return f"{a} {b}, {b if switch else a} first"
        return f"{a} {b}, {b} first after {'/'.join(switch)}, else {a}"


def first_seat_plans(picks: Sequence[Pick]) -> tuple[Plan, ...]:
    """Every plan of the seat revealing first: each pick, with each of its two colours shown first."""
    return tuple(plan for pick in picks for plan in (
        [Plan(pick)] if pick.double else [Plan(pick, first=colour) for colour in pick.colours]))


def second_seat_plans(picks: Sequence[Pick]) -> tuple[Plan, ...]:
    """Every plan of the seat revealing second: each pick, with a colour to show for each colour it may see."""
    return tuple(plan for pick in picks for plan in (
        [Plan(pick)] if pick.double else
        [Plan(pick, after=answers) for answers in itertools.product(pick.colours, repeat=len(COLOURS))]))


def plan_game(facts: Mapping[str, Any], *, majority: bool = False) -> RoundGame:
    """The two-player round as the extensive game it is, in normal form: every complete plan of each seat.

    Rows are the plans of the seat revealing first (36 with the 2x card), columns those of the seat revealing
    second (966). The payoffs are points gained this round, as in `payoff_table`.
    """
    np = _numpy()
    order = list(facts["order"])
    if len(order) != 2:
        raise ValueError(f"plan_game solves two-player rounds; this round has {len(order)} players.")
    if not facts.get("rules", {}).get("reveal_choice", True):
        raise ValueError("With the option reveal_choice off, the reveal order is fixed: use payoff_table.")
    rows, cols = first_seat_plans(picks_of(facts, order[0])), second_seat_plans(picks_of(facts, order[1]))
    row_payoffs, col_payoffs = np.zeros((len(rows), len(cols))), np.zeros((len(rows), len(cols)))
    table = tuple((colour, tuple(values)) for colour, values in facts["table"].items())
    score = _scorer(facts, majority)
    replies = _second_seat_replies(cols)
    for i, row in enumerate(rows):
        seen = row.show_first(())
        distinct, columns = replies[seen]
        outcomes = [score(_played_with_firsts(table, (order[0], order[1]), (row.pick, pick), (seen, shown)))
                    for pick, shown in distinct]
        row_payoffs[i] = np.array([outcome[order[0]] for outcome in outcomes])[columns]
        col_payoffs[i] = np.array([outcome[order[1]] for outcome in outcomes])[columns]
    return RoundGame((order[0], order[1]), rows, cols, row_payoffs, col_payoffs)


@functools.lru_cache(maxsize=8)
def _second_seat_replies(cols: tuple[Plan, ...]) -> dict[str, tuple[list[tuple[Pick, str]], Any]]:
    """For each colour the second seat may see first: its distinct replies (pick, colour shown first) and, for
    each of its plans, which of them it makes."""
    np = _numpy()
    replies = {}
    for seen in COLOURS:
        keys = [(col.pick, col.show_first((seen,))) for col in cols]
        distinct = list(dict.fromkeys(keys))
        index = {key: k for k, key in enumerate(distinct)}
        replies[seen] = (distinct, np.array([index[key] for key in keys]))
    return replies


def greedy_plans(facts: Mapping[str, Any], mixes: tuple[Mapping[Pick, float], Mapping[Pick, float]]
                 ) -> tuple[dict[Plan, float], dict[Plan, float]]:
    """The plans that play the picks of `mixes` with the greedy reveal of `play_out` (best top character
    first): a pick-only solution written as complete plans, to test it in `plan_game`."""
    board = {c: sorted(facts["table"].get(c, []), reverse=True) for c in COLOURS}

    def greedy(pick: Pick, taken: str | None) -> str:
        left = {c: board[c][1:] if c == taken else board[c] for c in pick.colours}
        return max(pick.colours, key=lambda c: (left[c][0] if left[c] else 0, -COLOURS.index(c)))

    def first(pick: Pick) -> Plan:
        return Plan(pick) if pick.double else Plan(pick, first=greedy(pick, None))

    def second(pick: Pick) -> Plan:
        return Plan(pick) if pick.double else Plan(pick, after=tuple(greedy(pick, seen) for seen in COLOURS))

    return ({first(p): q for p, q in mixes[0].items()}, {second(p): q for p, q in mixes[1].items()})


#: Below this, a gain or a value is the rounding of a sum of products: its last bits depend on the processor (the
#: order in which its BLAS kernel adds), not on the game, whose points are whole numbers.
ROUNDING_NOISE = 1e-12
#: The decimals regret matching keeps of each value, so that its path is the same on every processor.
REGRET_DECIMALS = 9


def _without_noise(value: float) -> float:
    """`value`, or 0.0 (never -0.0) when it is rounding noise."""
    return 0.0 if abs(value) < ROUNDING_NOISE else value


def deviation_gains(game: RoundGame, row_mix: Mapping[Any, float], col_mix: Mapping[Any, float]
                    ) -> tuple[float, float]:
    """What each player gains by its best pure deviation from the mixes, over the game's full strategy set.

    Both are 0 exactly at an equilibrium; their sum is the mixes' exploitability (NashConv). Mixes map
    strategies (picks or plans, or their labels) to probabilities.
    """
    gains = _gains(game, mix_vector(game, row_mix, rows=True), mix_vector(game, col_mix, rows=False))
    return _without_noise(gains[0]), _without_noise(gains[1])


def expected_values(game: RoundGame, row_mix: Mapping[Any, float], col_mix: Mapping[Any, float]
                    ) -> tuple[float, float]:
    """Each player's expected points when both play their mixes."""
    x, y = mix_vector(game, row_mix, rows=True), mix_vector(game, col_mix, rows=False)
    return float(x @ game.row_payoffs @ y), float(x @ game.col_payoffs @ y)


def best_deviations(game: RoundGame, row_mix: Mapping[Any, float], col_mix: Mapping[Any, float]
                    ) -> tuple[tuple[str, float], tuple[str, float]]:
    """Each player's best pure strategy against the other's mix (its label) and what it gains over its own mix."""
    x, y = mix_vector(game, row_mix, rows=True), mix_vector(game, col_mix, rows=False)
    row_values, col_values = game.row_payoffs @ y, x @ game.col_payoffs
    rows, cols = game.labels()
    row_best, col_best = int(row_values.argmax()), int(col_values.argmax())
    return ((rows[row_best], float(row_values[row_best] - x @ row_values)),
            (cols[col_best], float(col_values[col_best] - col_values @ y)))


def _gains(game: RoundGame, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    row_values, col_values = game.row_payoffs @ y, x @ game.col_payoffs
    return float(row_values.max() - x @ row_values), float(col_values.max() - col_values @ y)


def mix_vector(game: RoundGame, mix: Mapping[Any, float], *, rows: bool) -> np.ndarray:
    """A mix (strategy or label -> probability) as a probability vector over the game's rows or columns."""
    np = _numpy()
    strategies = game.row_picks if rows else game.col_picks
    position = {strategy: k for k, strategy in enumerate(strategies)}
    labels: list[str] = []
    vector = np.zeros(len(strategies))
    for key, probability in mix.items():
        if key in position:
            vector[position[key]] += probability
        elif key in (labels := labels or game.labels()[0 if rows else 1]):
            vector[labels.index(key)] += probability
        else:
            raise ValueError(f"{key!s} is not a strategy of seat {game.seats[0 if rows else 1]} in this game.")
    if np.any(vector < 0) or not np.isclose(vector.sum(), 1):
        raise ValueError(f"A mix's probabilities must be at least 0 and add up to 1 (they add up to {vector.sum():.3f}).")
    return vector


def regret_matching_curve(game: RoundGame, iterations: int) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Regret matching by both players (full information, simultaneous updates): the average strategies and,
    after every iteration, the exploitability (sum of `deviation_gains`) of the averages so far.

    Each iteration's values are rounded to `REGRET_DECIMALS`: unrounded, the exploitability after 5,000
    iterations of a tutorial's round was 0.12524, 0.12495 or 0.12499 by the BLAS kernel numpy ran."""
    np = _numpy()
    mats = (game.row_payoffs, game.col_payoffs.T)
    regrets = [np.zeros(m.shape[0]) for m in mats]
    totals = [np.zeros(m.shape[0]) for m in mats]
    curve = []
    for _ in range(iterations):
        sigmas = [_regret_policy(r) for r in regrets]
        for me in (0, 1):  # rounded: a path of thousands of iterations amplifies the processor's last bits
            values = np.round(mats[me] @ sigmas[1 - me], REGRET_DECIMALS)
            regrets[me] += values - round(float(sigmas[me] @ values), REGRET_DECIMALS)
            totals[me] += sigmas[me]
        curve.append(sum(_gains(game, totals[0] / totals[0].sum(), totals[1] / totals[1].sum())))
    return totals[0] / totals[0].sum(), totals[1] / totals[1].sum(), curve


# ------------------------------------------------------------------------------------ 3 to 5 players

def regret_matching(facts: Mapping[str, Any], *, iterations: int = 300, rng: random.Random | None = None,
                    majority: bool = False) -> dict[int, dict[Pick, float]]:
    """Sampled regret matching over every seat's picks (21, or 15 without the 2x card): the average
    strategies (any player count).

    Each iteration samples a profile from the current strategies and, for each seat, adds the regret of
    every alternative pick against the others' sampled picks.
    """
    np = _numpy()
    rng = rng or random.Random(0)
    order = list(facts["order"])
    picks = {s: picks_of(facts, s) for s in order}
    regrets = {s: np.zeros(len(picks[s])) for s in order}
    totals = {s: np.zeros(len(picks[s])) for s in order}
    score = _scorer(facts, majority)
    for _ in range(iterations):
        sigmas = {s: _regret_policy(regrets[s]) for s in order}
        profile = {s: picks[s][rng.choices(range(len(picks[s])), weights=list(sigmas[s]))[0]] for s in order}
        for seat in order:
            values = np.array([score(play_out(facts["table"], order, {**profile, seat: p}))[seat] for p in picks[seat]])
            regrets[seat] += values - values[picks[seat].index(profile[seat])]
            totals[seat] += sigmas[seat]
    return {s: _mix(picks[s], totals[s] / totals[s].sum()) for s in order}
