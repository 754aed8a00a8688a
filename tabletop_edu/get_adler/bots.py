"""Bots for Get Adler. Each sees only its View; the smart ones play either role, since nobody knows in
advance which seat will be Adler."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import Action, View
from .identities import adler_candidates, adler_distribution, possible_worlds, worlds_for_view
from .deduction import best_question
from .engine import Answer, Arrest, Ask, Binoculars, Discard, Give, Pass, Respond, Skip, Surrender
from .rules import ADLER

HERO_DISCARD_ORDER = ("document", "plain", "magnify", "escape", "disguise", "bomb", "binoculars", "question",
                      "pistol", "arrest")
ADLER_DISCARD_ORDER = ("plain", "magnify", "question", "binoculars", "arrest", "pistol", "bomb", "escape",
                       "disguise", "document")
#: What a hero hands back after binoculars (R4.5): never a document while the other seat may be Adler.
HERO_GIVE_ORDER = ("plain", "magnify", "disguise", "bomb", "escape", "question", "binoculars", "pistol", "arrest",
                   "document")


def _first(legal: Sequence[Action], kind: type, **fields: object) -> Action | None:
    for action in legal:
        if isinstance(action, kind) and all(getattr(action, k) == v for k, v in fields.items()):
            return action
    return None


def _by_order(kind: type, order: Sequence[str], legal: Sequence[Action]) -> Action:
    """The first card of `order` that `legal` lets this seat play as `kind` (Discard or Give)."""
    for card in order:
        action = _first(legal, kind, card=card)
        if action is not None:
            return action
    return legal[0]


def _discard_by(order: Sequence[str], legal: Sequence[Action]) -> Action:
    return _by_order(Discard, order, legal)


class RandomBot:
    """Plays a uniformly random legal action: the baseline."""

    name = "random"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal_actions))


class DeducingHeroBot:
    """A hero that tracks the possible worlds: asks the most informative question, arrests when only one
    seat can be Adler (or the clock demands it: from `hurry_hour`, the likeliest seat), steals from a
    revealed Adler with binoculars, shoots back and stops escapes, and discards documents first (a signal to
    the other heroes, and fewer documents left for Adler); after binoculars it gives back its least useful card
    (a document last). Seated as Adler, it plays like `AdlerBot`."""

    name = "deducing hero"

    def __init__(self, hurry_hour: int = 6) -> None:
        self.hurry_hour = hurry_hour

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        facts = view.facts
        if facts["my_character"] == ADLER:
            return AdlerBot().choose(view, legal_actions, rng)
        legal = list(legal_actions)
        if facts["phase"] == "give":
            return _by_order(Give, HERO_GIVE_ORDER, legal)
        if facts["phase"] != "turn":
            return (_first(legal, Respond) or _first(legal, Answer) or _first(legal, Skip)
                    or _first(legal, Pass) or legal[0])
        adler = facts["adler_seat"]
        worlds = worlds_for_view(view)
        distribution = adler_distribution(worlds)
        suspect = adler if adler is not None else max(distribution, key=lambda s: (distribution[s], -s))
        sure = adler is not None or distribution[suspect] == 1.0
        arrest = _first(legal, Arrest, target=suspect)
        if arrest is not None and (sure or facts["hour"] >= self.hurry_hour):
            return arrest
        steal = None if adler is None else _first(legal, Binoculars, target=adler)
        if steal is not None:
            return steal
        if not sure and any(isinstance(a, Ask) for a in legal):
            question = best_question(view)
            if question is not None and question[3] > 0:
                target, trait, colour, _ = question
                return _first(legal, Ask, target=target, trait=trait, colour=colour) or legal[0]
        return _discard_by(HERO_DISCARD_ORDER, legal)


class AdlerBot:
    """Adler who lies to keep the most candidates alive (ties: the truth), hoards top-secret documents
    (discarding one only as a bluff when holding three), steals documents with binoculars when he has none
    (giving back his least useful card),
    and answers an arrest with the surest card: disguise, then bomb, then escape (or pistol when he holds
    more pistols than escapes), surrendering only with nothing left. Seated as a hero, it plays like
    `DeducingHeroBot`."""

    name = "adler"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        facts = view.facts
        legal = list(legal_actions)
        if facts["my_character"] != ADLER:
            return DeducingHeroBot().choose(view, legal, rng)
        phase, hand = facts["phase"], list(facts["hand"])
        if phase == "answer":
            return self._answer(view, legal)
        if phase == "give":
            return _by_order(Give, ADLER_DISCARD_ORDER, legal)
        if phase == "confront":
            order = ["disguise", "bomb"]
            order += ["pistol", "escape"] if hand.count("pistol") > hand.count("escape") else ["escape", "pistol"]
            for card in order:
                action = _first(legal, Respond, card=card)
                if action is not None:
                    return action
            return _first(legal, Surrender) or legal[0]
        if phase != "turn":
            return _first(legal, Respond) or _first(legal, Skip) or _first(legal, Pass) or legal[0]
        if "document" not in hand:
            known = {int(seat): cards for seat, cards in (facts.get("known_cards") or {}).items()}
            holders = [seat for seat, cards in known.items() if "document" in cards]
            targets = holders + [seat for seat in range(len(view.players)) if seat not in holders]
            for target in targets:
                steal = _first(legal, Binoculars, target=target)
                if steal is not None:
                    return steal
        if hand.count("document") >= 3:
            return _first(legal, Discard, card="document") or legal[0]
        return _discard_by(ADLER_DISCARD_ORDER, legal)

    def _answer(self, view: View, legal: list[Action]) -> Action:
        facts = view.facts
        question = facts["question"]
        if len(legal) == 1:
            return legal[0]
        truth = Answer(facts["my_traits"][question[2]] == question[3])
        best, best_score = truth, (-1, -1)
        for answer in (truth, Answer(not truth.yes)):
            answers = [*facts["answers"], [*question, answer.yes]]
            worlds = possible_worlds(len(view.players), answers, facts["not_adler"], cast=getattr(view.rules, "cast", None))
            score = (len(adler_candidates(worlds)), len(worlds))
            if score > best_score:
                best, best_score = answer, score
        return best


class SmartBot(DeducingHeroBot):
    """A deducing hero when a hero, `AdlerBot` when Adler: the bot to seat everywhere."""

    name = "smart"


class SidesBot:
    """Plays Adler with one bot of the game and the heroes with another (bots named as in a line-up): how a team
    game measures a strategy on one side while the other side plays as usual. Seated at every seat:
    `run_tournament("get_adler", [SidesBot(hero="ismcts(iterations=200)")], ...)`. Not a bot of the game's
    list (a teacher seating a bot wants one strategy), hence no registry name."""

    name = "sides"

    def __init__(self, adler: str = "smart", hero: str = "smart") -> None:
        from ..tournament import bot_spec  # at call time: the tournament finds this module through the registry
        for side, bot in (("adler", adler), ("hero", hero)):
            if not isinstance(bot, str) or bot.partition("(")[0].strip() == self.name:
                raise ValueError(f"{side}= names another bot of Get Adler (not sides), not {bot!r:.80}.")
        self.adler = bot_spec("get_adler", adler).build()
        self.hero = bot_spec("get_adler", hero).build()
        self.name = f"Adler: {adler}, heroes: {hero}"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        bot = self.adler if view.facts["my_character"] == ADLER else self.hero
        return bot.choose(view, legal_actions, rng)
