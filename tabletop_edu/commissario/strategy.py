"""Game theory of one Commissario round: the secret pick as a normal-form game, and the order auction.

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
- `regret_matching` approximates an equilibrium for 3 to 5 players by sampled regret matching
  (its average play converges to a coarse correlated equilibrium);
- `expected_pick_gains` and `level_k`: a seat's exact expected points this round for each of its picks when
  the others pick independently from given mixes, and level-k play (level 0 picks uniformly, level k best
  responds to level k-1): cheap and exact at any table size, where an equilibrium of 3 to 5 players is not;
- `round_tree` builds a two-player round from its pick phase as a game tree with its information sets, from the
  protocol itself (`tabletop_edu.trees`): the picks, then every reveal, the seat picking second and every seat
  revealing not knowing the other's pick; `small_round` is a round small enough to draw;
- `position_values` and `best_release` treat the release step (R3) as an all-pay auction: what going first,
  second, ... is worth in this layout, and which release gives the best value net of what it costs (myopic:
  the bidder bot's rule);
- `solve_round`: one equilibrium of a round, on its points or on the whole score, with what each seat still
  gains by deviating alone (exact at two seats over every complete plan; an epsilon-equilibrium of the picks at
  three to five, its epsilon computed); `release_values` and `best_release_response`: a release as a best
  response to the others' releases, the round then played at that equilibrium;
- `equilibrium_set`: every equilibrium of a two-player round, as its maximal Nash subsets in exact fractions.
"""

from __future__ import annotations

import functools
import itertools
import random
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
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


# ------------------------------------------------------------------------------------ the round as a tree

def small_round(seed: int = 0) -> Any:
    """A two-player round at its pick phase small enough to draw as a tree: values up to 2, four characters laid
    out, no 2x card (`Rules` options), each seat releasing none."""
    from .engine import new_game
    from .rules import Rules

    state = new_game(2, seed=seed, rules=Rules(highest_value=2, laid_per_player=2, double_card=False))
    while state.phase == "release":
        state.apply("release none")
    return state


def round_tree(state: Any, picks: Sequence[Pick] | None = None, *, max_nodes: int | None = None) -> Any:
    """The rest of a two-player round, from its pick phase, as a tree built from the protocol (`trees.
    tree_from_states`): each seat picks (the picks secret and simultaneous, so the seat picking second cannot
    tell the first's picks apart), then reveals in turn, choosing which commissaire to show first (a reveal left
    with one colour is played without a node). `picks` limits the menu (a smaller game; default: the pairs of
    colours with characters on the table). Payoffs: the points each seat gains this round minus the other's,
    zero-sum (the whole score, bonuses and what carries over, left out)."""
    from ..trees import MAX_NODES, tree_from_states

    if len(state.players) != 2 or state.phase != "pick":
        raise ValueError("round_tree starts from the pick phase of a two-player round.")
    menu = tuple(picks) if picks is not None else None
    start, round_number = list(state.scores), state.round

    def lead(after: Any) -> list[float]:
        gained = [after.scores[seat] - start[seat] for seat in (0, 1)]
        return [float(gained[0] - gained[1]), float(gained[1] - gained[0])]

    def actions(now: Any, seat: int) -> list[Any]:
        legal = now.legal_actions(seat)
        return [action for action in legal if action in menu] if menu and now.phase == "pick" else legal

    def round_over(now: Any) -> bool:
        return bool(now.round != round_number or now.is_over)

    laid_out = ", ".join(f"{colour}{value:+d}" for colour in COLOURS for value in state.table[colour])
    return tree_from_states(state, payoff=lead, stop=round_over,
                            actions=actions, max_nodes=max_nodes or MAX_NODES,
                            title=f"Commissario, a two-player round from its picks (laid out: {laid_out})")


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


# ------------------------------------------------------------------------------------ level-k

Mix = Mapping[Pick, float]
Popped = tuple[int, ...]  # characters arrested so far this round, per colour in COLOURS order


def _shown_first(board: Mapping[str, Sequence[int]], popped: Popped, pick: Pick) -> str:
    """The colour a greedy seat shows first (as `play_out`): the one whose top character is worth most now."""
    return max(pick.colours, key=lambda c: (_top_after(board, popped, c), -COLOURS.index(c)))


def _top_after(board: Mapping[str, Sequence[int]], popped: Popped, colour: str) -> int:
    column, taken = board[colour], popped[COLOURS.index(colour)]
    return column[taken] if taken < len(column) else 0


def _popping(popped: Popped, colours: Sequence[str]) -> Popped:
    counts = list(popped)
    for colour in colours:
        counts[COLOURS.index(colour)] += 1
    return tuple(counts)


def expected_pick_gains(table: Table, order: Sequence[int], seat: int, mixes: Mapping[int, Mix],
                        picks: Sequence[Pick]) -> dict[Pick, float]:
    """The points `seat` gains this round with each of `picks`, in expectation when every other seat s picks
    independently from `mixes[s]` and everyone reveals greedily (`play_out`): exact, with no enumeration of
    profiles. A seat's first reveal meets the board left by the first reveals of the seats before it; between
    its two reveals every seat after it shows both its colours (the second reveals go back in reverse order),
    so only those colours, not their order, change what is left for its second."""
    board = {c: sorted(table.get(c, []), reverse=True) for c in COLOURS}
    position = list(order).index(seat)
    before: dict[Popped, float] = {tuple(0 for _ in COLOURS): 1.0}
    for other in order[:position]:
        step: dict[Popped, float] = {}
        for popped, p in before.items():
            for pick, q in mixes[other].items():
                if q > 0:
                    key = _popping(popped, (_shown_first(board, popped, pick),))
                    step[key] = step.get(key, 0.0) + p * q
        before = step
    after: dict[Popped, float] = {tuple(0 for _ in COLOURS): 1.0}
    for other in order[position + 1:]:
        step = {}
        for added, p in after.items():
            for pick, q in mixes[other].items():
                if q > 0:
                    key = _popping(added, pick.colours)
                    step[key] = step.get(key, 0.0) + p * q
        after = step
    gains = {}
    for pick in picks:
        total = 0.0
        for popped, p in before.items():
            first = _shown_first(board, popped, pick)
            second = list(pick.colours)
            second.remove(first)
            then = _popping(popped, (first,))
            total += p * _top_after(board, popped, first)
            for added, q in after.items():
                total += p * q * _top_after(board, tuple(a + b for a, b in zip(then, added)), second[0])
        gains[pick] = total
    return gains


def level_k(table: Table, order: Sequence[int], allowed: Mapping[int, Sequence[Pick]], k: int
            ) -> dict[int, dict[Pick, float]]:
    """Every seat's level-k mix over its `allowed` picks this round: level 0 picks uniformly; level k picks
    uniformly among its best responses (most expected points this round, ties within 1e-9) to everyone else at
    level k-1. Round points only: bonuses and later rounds do not count."""
    mixes: dict[int, dict[Pick, float]] = {s: {pick: 1 / len(allowed[s]) for pick in allowed[s]} for s in order}
    for _ in range(k):
        best = {}
        for seat in order:
            gains = expected_pick_gains(table, order, seat, mixes, allowed[seat])
            top = max(gains.values())
            chosen = [pick for pick, gain in gains.items() if gain >= top - 1e-9]
            best[seat] = {pick: 1 / len(chosen) for pick in chosen}
        mixes = best
    return mixes


# ------------------------------------------------------------------------------------ the order auction

def position_values(facts: Mapping[str, Any], players: int, *, samples: int = 200,
                    rng: random.Random | None = None) -> list[float]:
    """Expected points of turn positions 1..N this round when every seat picks uniformly at random."""
    rng = rng or random.Random(0)
    order = list(range(players))
    allowed = picks_of(facts)
    totals = [0.0] * players
    for _ in range(samples):
        picks = {s: rng.choice(allowed) for s in order}
        gains = round_gains(facts, order, picks)
        for position, seat in enumerate(order):
            totals[position] += gains[seat]
    return [t / samples for t in totals]


def most_worth_paying(values: Sequence[float]) -> float:
    """The most a rational seat pays (in points released) to move from the worst position to the best."""
    return max(values) - min(values)


def best_release(held: Sequence[str], earlier_bids: Sequence[int], later: int, values: Sequence[float]) -> tuple[str | None, float]:
    """The release with the best net value: position value minus the card's value (R3.2), myopically.

    `earlier_bids` are the bids of the seats before us in release order (they win ties), `later` the number
    of seats after us, assumed to bid 0 (they win no tie against us). Returns (card text or None, net value).
    """
    options: list[tuple[str | None, int]] = [(None, 0)] + [(card, _value(card)) for card in held]
    best: tuple[str | None, float] = (None, float("-inf"))
    for card, bid in options:
        ahead = sum(1 for b in earlier_bids if b >= bid) + (later if bid < 0 else 0)
        net = values[ahead] - bid
        if net > best[1] + 1e-9:
            best = (card, net)
    return best


def _value(card: str) -> int:
    colour = card.rstrip("+-0123456789")
    return int(card[len(colour):])


# ------------------------------------------------------------------------------------ a round solved and checked

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


# ------------------------------------------------------------------------------------ a release as a best response

def standing(facts: Mapping[str, Any], seat: int, whole_score: bool) -> float:
    """`seat`'s score now, plus the bonus cards it would hold if the game ended now when `whole_score`."""
    score = float(facts["scores"][seat])
    if whole_score:
        needs_positive = facts.get("rules", {}).get("bonus_needs_positive", False)
        score += bonus_holdings(facts["colour_scores"], facts["bonus_values"], needs_positive)[seat]
    return score


def release_values(state: Any, seat: int, later: Sequence[tuple[int, str]], *, whole_score: bool = True,
                   solve: Callable[[Mapping[str, Any]], RoundEquilibrium] | None = None) -> dict[str, float]:
    """What each release `seat` may make now is worth to it: its standing (`standing`) once every release is
    made (the seats after it making the releases `later`, (seat, action) in their turn, as they did) plus its
    expected payoff in the round's equilibrium in the turn order that follows (`solve`, default `solve_round`
    on the same payoff). The best of them is a best response to the others' releases, the round then played at
    that equilibrium. `state` is at `seat`'s release."""
    solve = solve or (lambda facts: solve_round(facts, whole_score=whole_score))
    values = {}
    for action in state.legal_actions(seat):
        after = state.clone()
        after.apply(action, player=seat)
        for other, move in later:
            after.apply(move, player=other)
        facts = after.view(None).facts
        values[str(action)] = standing(facts, seat, whole_score) + solve(facts).values[seat]
    return values


def best_release_response(values: Mapping[str, float]) -> tuple[str, float]:
    """The release of `release_values` worth most (ties: the first in the order given, "release none" first),
    and its value."""
    top = max(values.values())
    best = next(action for action, value in values.items() if value >= top - EXACT)
    return best, values[best]


# ------------------------------------------------------------------------------------ every equilibrium

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
