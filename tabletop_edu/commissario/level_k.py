"""Level-k play in a Commissario round: a seat's exact expected points for each pick against others' mixes.

`expected_pick_gains` is exact and cheap at any table size, where an equilibrium of 3 to 5 players is not;
`level_k`: level 0 picks uniformly, level k best responds to level k-1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .actions import Pick
from .normal_form import Table
from .rules import COLOURS

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
