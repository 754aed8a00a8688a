"""Commissario bots: each sees only its View (facts and log), never the state.

- `RandomBot`: uniformly random legal actions (the baseline).
- `GreedyBot`: never releases, picks the two arrests worth most right now, reveals the best first.
- `BidderBot`: like Greedy, but prices turn order: releases whatever maximises position value minus cost.
- `EquilibriumBot`: plays the round's equilibrium mixed strategy (nashpy for 2 players, regret matching
  for 3 to 5) in the secret pick; bids like the Bidder.
- `LookaheadBot`: rebuilds full worlds from its view (`world_from_view`, the sampler `State.resample` uses:
  hidden picks and the pile redrawn) and plays the pick or reveal that scores best on average across them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..core import Action, View
from ..core import RandomBot as _CoreRandom
from . import auction, normal_form
from .actions import Pick, Release, Reveal, parse_action
from .engine import world_from_view
from .rules import COLOURS


def _top(facts: Mapping[str, Any], colour: str) -> int:
    column = facts["table"][colour]
    return column[0] if column else 0


def _reveal_best(facts: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """Reveal first the colour whose top character is worth most now."""
    return max(legal, key=lambda a: _top(facts, a.colour) if isinstance(a, Reveal) else -99)


def _greedy_pick(facts: Mapping[str, Any], legal: Sequence[Action]) -> Pick:
    """The legal pick whose two arrests, made alone on this table, are worth most."""
    picks = _legal_picks(facts, legal)

    def worth(pick: Pick) -> tuple[int, int]:
        board = {c: list(vs) for c, vs in facts["table"].items()}
        total = 0
        for colour in pick.colours:
            if board[colour]:
                total += board[colour].pop(0)
        return total, -picks.index(pick)
    return max(picks, key=worth)


def _legal_picks(facts: Mapping[str, Any], legal: Sequence[Action]) -> list[Pick]:
    """The picks the rules allow (`normal_form.picks_of`, in its order) that are legal for this seat now: without
    its 2x card once played, with the option `double_card_each_round` off."""
    return [pick for pick in normal_form.picks_of(facts) if pick in legal]


class RandomBot(_CoreRandom):
    """A uniformly random legal action: the baseline every strategy should beat."""

    name = "random"


class GreedyBot:
    """Best immediate catch: release nothing, pick the two most valuable arrests, reveal the best first."""

    name = "greedy"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        facts = view.facts
        if facts["phase"] == "release":
            return Release(None)
        if facts["phase"] == "pick":
            return _greedy_pick(facts, legal_actions)
        return _reveal_best(facts, legal_actions)


class BidderBot(GreedyBot):
    """Prices turn order: values each position by simulation, releases the card with the best net value.

    Releasing an innocent (-k) gains k points but bids low; releasing a bandit (+k) costs k but bids high.
    """

    name = "bidder"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        facts = view.facts
        if facts["phase"] != "release":
            return super().choose(view, legal_actions, rng)
        players = len(view.players)
        values = auction.position_values(facts, players, samples=60, rng=rng)
        earlier = [0 if card is None else int(card[len(card.rstrip("+-0123456789")):])
                   for card in facts["releases"].values()]
        later = players - len(earlier) - 1
        held = [str(a).removeprefix("release ") for a in legal_actions
                if isinstance(a, Release) and a.card is not None]
        card, _ = auction.best_release(held, earlier, later, values)
        return parse_action("release none" if card is None else f"release {card}")


class EquilibriumBot(BidderBot):
    """Plays the round's equilibrium mixed strategy in the secret pick (R4.1), drawn with its rng.

    Two players: a Nash equilibrium of the payoff table (nashpy); 3 to 5: sampled regret matching.
    """

    name = "equilibrium"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        facts = view.facts
        if facts["phase"] != "pick" or view.seat is None:
            return super().choose(view, legal_actions, rng)
        order = facts["order"]
        if len(order) == 2:
            game = normal_form.payoff_table(facts, (order[0], order[1]))
            mixes = dict(zip(game.seats, normal_form.equilibrium(game, rng=rng)))
            mix = mixes[view.seat]
        else:
            mix = normal_form.regret_matching(facts, iterations=60, rng=rng)[view.seat]
        allowed = normal_form.picks_of(facts, view.seat)
        picks = sorted(mix, key=allowed.index)
        choice = rng.choices(picks, weights=[mix[p] for p in picks])[0]
        return choice if choice in legal_actions else _greedy_pick(facts, legal_actions)


class LookaheadBot(BidderBot):
    """Information-set sampling: draws full worlds consistent with its view (`world_from_view`, the sampler
    `State.resample` uses, which redraws hidden picks and the pile) and plays what scores best on average in them.

    Pick: the others' hidden picks come from each world; seats still to choose are modelled as greedy half
    the time and random otherwise. First reveal: each option is played out to the end of the round in
    every world (everyone revealing greedily), and the best average gain wins. Bids like the Bidder.
    """

    name = "lookahead"

    def __init__(self, worlds: int = 8) -> None:
        self.worlds = worlds

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        facts, me = view.facts, view.seat
        if me is None or len(legal_actions) == 1:
            return legal_actions[0]
        if facts["phase"] == "pick":
            return self._pick(view, legal_actions, rng)
        if facts["phase"] == "first_reveal":
            return self._reveal(view, legal_actions, rng)
        return super().choose(view, legal_actions, rng)

    def _pick(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        facts, me = view.facts, view.seat
        assert me is not None  # `choose` answers a view without a seat itself, before any pick
        order = facts["order"]
        greedy = _greedy_pick(facts, legal_actions)
        samples = []
        for _ in range(self.worlds):
            world = world_from_view(view, rng)
            samples.append({s: Pick(world.picks[s]) if s in world.picks
                            else (greedy if rng.random() < 0.5 else rng.choice(normal_form.picks_of(facts, s)))
                            for s in order if s != me})

        def average(pick: Pick) -> float:
            return sum(normal_form.round_gains(facts, order, {**others, me: pick}, True)[me]
                       for others in samples) / len(samples)
        mine = _legal_picks(facts, legal_actions)
        return max(mine, key=lambda p: (average(p), -mine.index(p)))

    def _reveal(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        me = view.seat
        assert me is not None  # `choose` answers a view without a seat itself, before any reveal
        totals = {action: 0.0 for action in legal_actions}
        for _ in range(self.worlds):
            world = world_from_view(view, rng)
            for action in legal_actions:
                future = world.clone()
                before = future.scores[me]
                future.apply(action, player=me)
                round_now = future.round
                while not future.is_over and future.round == round_now:
                    seat = future.current_player
                    assert isinstance(seat, int)  # the reveals of one round: one seat at a time
                    future.apply(_reveal_best(future.view(seat).facts, future.legal_actions(seat)), player=seat)
                totals[action] += future.scores[me] - before
        return max(legal_actions, key=lambda a: (totals[a], -COLOURS.index(cast(Reveal, a).colour)))


ALL_BOTS = (RandomBot, GreedyBot, BidderBot, EquilibriumBot, LookaheadBot)
__all__ = ["ALL_BOTS", "BidderBot", "EquilibriumBot", "GreedyBot", "LookaheadBot", "RandomBot"]
