"""Get Adler's belief question: "who is Adler?", asked to every hero at the start of each hour, set beside the
exact posterior of that hero's view.

The posterior is `deduction.adler_distribution(deduction.worlds_for_view(view))`: every character assignment
consistent with what the seat saw (its own character, the answers given, the seats cleared by a wrong arrest)
counted equally; an answer binds only a seat that is not Adler, since Adler may lie. Adler himself is not asked
(he knows), nor is a hero whose view already settles it. The options are the other seats, the same for every hero.

Moments: the key names the hour (`adler@h3`), so a server asks it once per hour; it stays on offer all hour.
"""

from __future__ import annotations

from typing import Any

from ..beliefs import BeliefQuestion, on_options, settled
from ..core import GameState, View
from .deduction import adler_distribution, worlds_for_view
from .rules import ADLER


class AdlerBeliefs:
    """Who is Adler, from a hero's view; the truth is Adler's seat, told at the end."""

    def questions(self, view: View) -> list[BeliefQuestion]:
        facts = view.facts
        if view.seat is None or view.is_over or facts["my_character"] == ADLER or facts["adler_seat"] is not None:
            return []
        others = tuple(seat for seat in range(len(view.players)) if seat != view.seat)
        names = tuple(view.players[seat] for seat in others)
        question = BeliefQuestion(f"adler@h{facts['hour']}", "Who is Adler?", "Qui est Adler ?",
                                  tuple(str(seat) for seat in others), names, names)
        return [] if settled(self.posterior(view, question)) else [question]

    def posterior(self, view: View, question: BeliefQuestion) -> dict[str, float]:
        found = adler_distribution(worlds_for_view(view))
        return on_options(question, {str(seat): p for seat, p in found.items()})

    def truth(self, state: GameState[Any], question: BeliefQuestion) -> str | None:
        return str(state.characters.index(ADLER)) if state.is_over else None  # type: ignore[attr-defined]


MODEL = AdlerBeliefs()
