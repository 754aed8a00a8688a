"""Possible worlds of identities in Get Adler: who may be who, from public facts and one seat's own character.

A world assigns one character to each seat. Public facts cut worlds down: a hero's answer binds only in the
worlds where the answering seat is *not* Adler (Adler may lie, R4.3), and a wrong arrest shows the accused is
not Adler (R5.3). Each seat also knows its own character. The "candidate set" of a seat is the set of seats
that are Adler in some world that seat cannot rule out. Counting every world alike gives the counting model's
P(Adler) (`adler_distribution`); `deduction` weighs worlds under other models of Adler's answers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..core import GameState, View
from .rules import ADLER, CAST, Rules, has_trait

World = tuple[str, ...]
AnswerFact = Sequence[Any]  # [asker, target, trait, colour, yes]


def possible_worlds(players: int, answers: Iterable[AnswerFact] = (), not_adler: Iterable[int] = (),
                    known: Mapping[int, str] | None = None, *, cast: Sequence[str] | None = None,
                    adler_may_lie: bool = True) -> list[World]:
    """All character assignments consistent with the answers, the cleared seats and the `known` seats.

    `cast` is the rules' cast (default: the published one), of which the first `players` are in play (R1.1);
    with `adler_may_lie` False every answer binds, Adler's too (R4.2)."""
    known = dict(known or {})
    cleared = set(not_adler)
    in_play = tuple(cast or CAST)[:players]
    # An answer binds only the answering seat, so each seat's possible characters are found alone first;
    # the worlds are then the ways to give each seat one of its own, every character once (in the order
    # of itertools.permutations, so a seeded choice among them does not depend on how they are found).
    allowed: list[list[str]] = []
    for seat in range(players):
        mine = [(trait, colour, bool(yes)) for _, target, trait, colour, yes in answers if target == seat]
        allowed.append([character for character in in_play
                        if known.get(seat, character) == character
                        and not (character == ADLER and seat in cleared)
                        and ((adler_may_lie and character == ADLER)
                             or all(has_trait(character, trait, colour) == yes for trait, colour, yes in mine))])
    worlds: list[World] = []
    chosen: list[str] = []

    def extend(seat: int) -> None:
        if seat == players:
            worlds.append(tuple(chosen))
            return
        for character in allowed[seat]:
            if character not in chosen:
                chosen.append(character)
                extend(seat + 1)
                chosen.pop()

    extend(0)
    return worlds


def worlds_for_view(view: View, *, trusting: bool = False) -> list[World]:
    """The worlds the owner of `view` cannot rule out (a spectator: the public worlds), under the view's rules;
    with `trusting`, those of a seat that believes every answer, Adler's too (the debrief's fooled hero)."""
    facts = view.facts
    known = {int(seat): character for seat, character in (facts.get("revealed") or {}).items()}
    if view.seat is not None:
        known[view.seat] = facts["my_character"]
    rules = view.rules if isinstance(view.rules, Rules) else Rules()
    return possible_worlds(len(view.players), facts["answers"], facts["not_adler"], known, cast=rules.cast,
                           adler_may_lie=rules.adler_may_lie and not trusting)


def adler_candidates(worlds: Iterable[World]) -> list[int]:
    """The seats that are Adler in at least one of `worlds`."""
    return sorted({world.index(ADLER) for world in worlds})


def adler_distribution(worlds: Sequence[World]) -> dict[int, float]:
    """P(seat is Adler), counting every world as equally likely."""
    counts = Counter(world.index(ADLER) for world in worlds)
    return {seat: count / len(worlds) for seat, count in sorted(counts.items())}


def candidate_sets(state: GameState[Any]) -> dict[int, list[int]]:
    """For each seat, the seats it cannot rule out as Adler now."""
    return {seat: adler_candidates(worlds_for_view(state.view(seat))) for seat in range(len(state.players))}


def candidate_history(state: GameState[Any]) -> list[dict[int, list[int]]]:
    """Candidate sets of every seat after the set-up and after each action (replaying the record)."""
    replay = type(state)(list(state.players), seed=state.seed, rules=state.rules)
    history = [candidate_sets(replay)]
    for seat, text in state.history:
        replay.apply(text, player=seat)
        history.append(candidate_sets(replay))
    return history
