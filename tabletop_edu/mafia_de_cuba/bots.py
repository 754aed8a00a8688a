"""Bots for Mafia de Cuba: one small class per idea, combined by `MafiaBot` into a player for any seat.

A `MafiaBot` joins three policies: a taker policy (how to take from the box), a testimony policy (how to
answer, and whether to speak unasked in free talk), and a Godfather policy (hiding, questioning, accusing).
Bots see only the View. Taker policies expose `take_probabilities` so that `inference.policy_model` can use
them as the behaviour model of the chain.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ..core import Action, View
from .actions import Accuse, Ask, Hold, Pass, Saw, SetAside, Silent, Suspect, TakeFromBox, Took, parse_action
from .inference import UNIFORM_WORLDS, Model, PosteriorCache, observation_from_view, with_testimonies
from .rules import TOKEN_ORDER, Rules

# ------------------------------------------------------------------------------- taker policies


class TakerPolicy(Protocol):
    name: str

    def take_probabilities(self, diamonds: int, tokens: Mapping[str, int], legal: Sequence[str]) -> dict[str, float]:
        """Probability of each legal take text ("3", "driver", "nothing") given the box."""
        ...


def _first_of(preferences: Sequence[str], legal: Sequence[str]) -> dict[str, float]:
    for choice in preferences:
        if choice in legal:
            return {choice: 1.0}
    return {text: 1.0 / len(legal) for text in legal}


class RandomTaker:
    """Takes uniformly among the legal takes: the baseline (and the RANDOM_CHOICES model)."""

    name = "random-taker"

    def take_probabilities(self, diamonds: int, tokens: Mapping[str, int], legal: Sequence[str]) -> dict[str, float]:
        return {text: 1.0 / len(legal) for text in legal}


class LoyalTaker:
    """Wants the Godfather to win: a Loyal Henchman token, else a Driver, else as little harm as possible."""

    name = "loyal"

    def take_probabilities(self, diamonds: int, tokens: Mapping[str, int], legal: Sequence[str]) -> dict[str, float]:
        return _first_of(["loyal", "driver", "nothing", "1"], legal)


class CautiousThief:
    """Steals a little (1 or 2 diamonds), hoping the Godfather looks for bigger fish."""

    name = "cautious-thief"

    def take_probabilities(self, diamonds: int, tokens: Mapping[str, int], legal: Sequence[str]) -> dict[str, float]:
        small = [text for text in ("1", "2") if text in legal]
        return {text: 1.0 / len(small) for text in small} if small else _first_of(["loyal", "driver"], legal)


class GreedyThief:
    """Takes every diamond in the box: the richest thief wins if the Godfather falls."""

    name = "greedy-thief"

    def take_probabilities(self, diamonds: int, tokens: Mapping[str, int], legal: Sequence[str]) -> dict[str, float]:
        return _first_of([str(diamonds), "loyal", "driver"], legal)


class TokenSeeker:
    """Takes a character token (any, uniformly) so as never to be caught with diamonds."""

    name = "token-seeker"

    def take_probabilities(self, diamonds: int, tokens: Mapping[str, int], legal: Sequence[str]) -> dict[str, float]:
        present = [name for name in TOKEN_ORDER if name in legal]
        return {name: 1.0 / len(present) for name in present} if present else _first_of(["1"], legal)


class WouldBeAgent:
    """Takes an Agent token if one is left: an accused Agent wins alone."""

    name = "would-be-agent"

    def take_probabilities(self, diamonds: int, tokens: Mapping[str, int], legal: Sequence[str]) -> dict[str, float]:
        agents = [name for name in ("fbi", "cia") if name in legal]
        if agents:
            return {name: 1.0 / len(agents) for name in agents}
        return TokenSeeker().take_probabilities(diamonds, tokens, legal)


# ------------------------------------------------------------------------------- testimony policies


def _living_others(view: View) -> list[int]:
    facts = view.facts
    return [seat for seat in facts["order"] if seat != view.seat and seat not in facts["eliminated"]
            and seat not in facts["revealed"]]


class Truthful:
    """Always tells the truth: what it saw, what it took; suspects a random seat still unexplained.

    In free talk it speaks unasked only if `talkative`: then it volunteers what it took, once; otherwise it
    lets the floor go by (a quiet table keeps games short)."""

    name = "truthful"

    def __init__(self, talkative: bool = False) -> None:
        self.talkative = talkative

    def claims(self, view: View, rng: random.Random) -> dict[str, Action]:
        facts = view.facts
        seen = facts["box_seen"] or {"diamonds": 0, "tokens": []}
        others = _living_others(view) or [s for s in facts["order"] if s != view.seat]
        return {"seen": Saw(seen["diamonds"], tuple(seen["tokens"])),
                "took": parse_action(f"took {facts['my_take'] or 'nothing'}"),
                "suspect": Suspect(rng.choice(others))}

    def answer(self, view: View, kind: str | None, legal: Sequence[Action], rng: random.Random) -> Action:
        """The claim of the asked `kind` (a floor the Godfather opened: what it took), or silence."""
        claims = self.claims(view, rng)
        action = claims[kind or "took"]
        return action if action in legal else (Silent() if Silent() in legal else Pass())

    def volunteer(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Free talk: what it took, said once if `talkative`; otherwise (and afterwards) `pass`."""
        said = any(seat == view.seat and claim.startswith("took") for seat, claim in view.facts["testimonies"])
        if not self.talkative or said:
            return Pass()
        claim = self.claims(view, rng)["took"]
        return claim if claim in legal else Pass()


class ConsistentLiar(Truthful):
    """A thief who invents a box history that fits what later takers may report.

    He says the box already had only the diamonds he left in it (so the next taker's count agrees), plus one
    extra token that he claims to have taken, choosing a token of which the game has a spare copy, and blames the
    seat before him. Non-thieves tell the truth.
    """

    name = "consistent-liar"

    def claims(self, view: View, rng: random.Random) -> dict[str, Action]:
        facts = view.facts
        honest = super().claims(view, rng)
        take = facts["my_take"]
        if not take or not take.isdigit() or facts["box_seen"] is None:
            return honest
        seen = facts["box_seen"]
        left = seen["diamonds"] - int(take)
        tokens = list(seen["tokens"])
        spare = [name for name in ("loyal", "driver", "fbi", "cia")
                 if tokens.count(name) < facts["tokens_in_game"].get(name, 0)]
        order = facts["order"]
        position = order.index(view.seat)
        scapegoat = order[position - 1] if position > 0 else order[1]
        if spare:
            invented = spare[0]
            fake_seen = Saw(left, tuple(sorted(tokens + [invented], key=TOKEN_ORDER.index)))
            fake_took = Took(0, invented)
        else:
            fake_seen, fake_took = Saw(left, tuple(tokens)), Took(0, "loyal")
        return {"seen": fake_seen, "took": fake_took, "suspect": Suspect(scapegoat)}


# ------------------------------------------------------------------------------- Godfather policies


class RandomGodfather:
    """Hides, asks and accuses uniformly at random: the baseline Godfather."""

    name = "random-godfather"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


class PosteriorGodfather:
    """Accuses the seat with the best exact posterior odds, and spends jokers only when it can afford them.

    From what it hid, the box that came back and the pockets already emptied it computes each seat's P(thief)
    and P(agent) (inference.posterior with `model`) and accuses the seat maximising
    P(thief) - P(agent) - cost * P(other), where a wrong accusation costs half as much while a joker is left
    (it only costs a joker) as when none is (it costs the game). With `truth` set, it first asks every living
    taker "what did you take?" and weighs the answers as testimonies true with probability `truth`;
    without it, it asks nothing, since testimonies may be lies.
    """

    name = "posterior-godfather"

    def __init__(self, rules: Rules | None = None, model: Model = UNIFORM_WORLDS, truth: float | None = None) -> None:
        self.rules = rules
        self.model = model
        self.truth = truth
        self.cache = PosteriorCache(model, size=4, chains=1)  # each observation once, extended step by step

    def scores(self, view: View) -> dict[int, float]:
        """Each accusable seat's score (higher: accuse first), computed with the view's own rules (the ones
        given at construction only for views that carry none)."""
        obs = observation_from_view(view, view.rules if view.rules is not None else self.rules or Rules())
        if self.truth is not None:
            obs = with_testimonies(obs, view, self.truth)
        post = self.cache.posterior(obs)
        cost = 0.5 if view.facts["jokers_left"] > 0 else 1.0
        out = {}
        for seat in _living_others(view):
            roles = post.role_probabilities(seat)
            thief = roles.get("thief", 0.0)
            agent = roles.get("fbi", 0.0) + roles.get("cia", 0.0)
            out[seat] = thief - agent - cost * (1.0 - thief - agent)
        return out

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        accusations = [action for action in legal if isinstance(action, Accuse)]
        if view.facts["phase"] != "question" or not accusations:
            return rng.choice(list(legal))
        if self.truth is not None:
            asked = {event.data.get("target") for event in view.log if event.kind == "question"}
            for seat in _living_others(view):
                if seat not in asked and Ask(seat, "took") in legal:
                    return Ask(seat, "took")
        scores = self.scores(view)
        return max(accusations, key=lambda action: (scores.get(action.target, -9.0), -action.target))


# ------------------------------------------------------------------------------- a whole player


class MafiaBot:
    """A player for any seat: takes with `taker`, answers with `testimony`, rules as `godfather` when seated
    there; never sets a token aside unless `set_aside` names one, and always holds fire (Cleaner variant)."""

    def __init__(self, taker: Any = None, testimony: Any = None, godfather: Any = None,
                 set_aside: str | None = None) -> None:
        self.taker = taker or RandomTaker()
        self.testimony = testimony or Truthful()
        self.godfather = godfather or RandomGodfather()
        self.set_aside = set_aside
        self.name = f"{self.taker.name}/{self.testimony.name}/{self.godfather.name}"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = list(legal_actions)
        phase = view.facts["phase"]
        if phase in ("hide", "question") or (phase == "floor" and view.seat == view.facts["godfather"]):
            return self.godfather.choose(view, legal, rng)  # on the floor only with `godfather_closes_floor`
        if phase == "set-aside":
            wanted = SetAside(self.set_aside)
            return wanted if wanted in legal else SetAside(None)
        if phase == "take":
            texts = [str(action)[len("take "):] for action in legal]
            box = view.facts["box_seen"] or {"diamonds": 0, "tokens": []}
            tokens = {name: box["tokens"].count(name) for name in set(box["tokens"])}
            probabilities = self.taker.take_probabilities(box["diamonds"], tokens, texts)
            choices = [text for text in texts if probabilities.get(text, 0) > 0]
            pick = rng.choices(choices, weights=[probabilities[text] for text in choices])[0]
            return next(action for action in legal if isinstance(action, TakeFromBox) and str(action) == f"take {pick}")
        if phase == "answer":
            return self.testimony.answer(view, view.facts["pending"][1], legal, rng)
        if phase == "floor":
            if view.rules.free_talk:
                return self.testimony.volunteer(view, legal, rng)
            return self.testimony.answer(view, None, legal, rng)
        return Hold()

    def __repr__(self) -> str:
        return f"MafiaBot({self.name})"


def default_bots(players: int, rules: Rules | None = None, seed: int = 0) -> list[MafiaBot]:
    """A lively table: a posterior Godfather's mind at every seat, and a seeded mix of takers and witnesses."""
    rng = random.Random(seed)
    takers = [RandomTaker, LoyalTaker, CautiousThief, GreedyThief, TokenSeeker, WouldBeAgent]
    return [MafiaBot(taker=rng.choice(takers)(), testimony=rng.choice([Truthful, ConsistentLiar])(),
                     godfather=PosteriorGodfather(rules)) for _ in range(players)]
