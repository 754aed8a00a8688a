"""The release step (R3) of a Commissario round as an all-pay auction for the turn order.

`position_values` and `best_release`: what going first, second, ... is worth in this layout, and which release
gives the best value net of what it costs (myopic: the bidder bot's rule); `release_values` and
`best_release_response`: a release as a best response to the others' releases, the round then played at its
equilibrium (`strategy.solve_round`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .normal_form import bonus_holdings, picks_of, round_gains
from .strategy import EXACT, RoundEquilibrium, solve_round

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
