"""Mafia de Cuba's belief questions: "what is this taker's role?", asked when the box is back at the Godfather
and again after each accusation, set beside the engine's exact posterior of the asking seat's view.

The posterior is `inference.view_posterior` (what the knowledge panel shows): every box history consistent with
what the seat saw counted equally (`UNIFORM_WORLDS`), testimonies heard but not trusted, since any of them may be
a lie. A seat is asked about every taker but itself whose role its own view does not already settle (the
Godfather knows the box that came back, a taker knows the box it opened, an emptied pocket is public), so a
question never gives away what the view cannot see: the options are every role the table's tokens allow, the
same for every seat.

Moments: a question's key names its moment (`role:3@0` when the box came back, `role:3@1` after the first
accusation...), so a server asks each key once; the questions of a moment stay on offer until the next one.
"""

from __future__ import annotations

from typing import Any

from ..beliefs import BeliefQuestion, on_options, settled
from ..core import GameState, View
from ._box import BOX_PHASES
from .chain import view_posterior
from .engine import role_of
from .rules import TOKEN_ORDER

#: A role's name as a student reads it, in English and French.
ROLE_LABELS: dict[str, tuple[str, str]] = {
    "thief": ("Thief", "Voleur"), "loyal": ("Loyal Henchman", "Fidèle"), "fbi": ("FBI Agent", "Agent du FBI"),
    "cia": ("CIA Agent", "Agent de la CIA"), "driver": ("Driver", "Chauffeur"), "cleaner": ("Cleaner", "Nettoyeur"),
    "street-kid": ("Street Kid", "Enfant des rues"),
}


class MafiaBeliefs:
    """Each taker's role, from the seat's view; the truth is the role their take gave them, told at the end."""

    def questions(self, view: View) -> list[BeliefQuestion]:
        facts = view.facts
        if view.seat is None or view.is_over or facts["phase"] in BOX_PHASES:
            return []
        moment = len(facts["revealed"])
        roles = ("thief", *(token for token in TOKEN_ORDER if facts["tokens_in_game"].get(token, 0)), "street-kid")
        asked = []
        for seat in facts["order"]:
            if seat == view.seat or seat in facts["revealed"] or seat in facts["eliminated"]:
                continue
            question = _role_question(view, seat, moment, roles)
            if not settled(self.posterior(view, question)):
                asked.append(question)
        return asked

    def posterior(self, view: View, question: BeliefQuestion) -> dict[str, float]:
        found = view_posterior(view, view.rules)
        if found is None:
            raise ValueError(f"No box history fits this view, so {question.key!r} has no posterior.")
        return on_options(question, found.role_probabilities(_subject(question)))

    def truth(self, state: GameState[Any], question: BeliefQuestion) -> str | None:
        takes = state.takes  # type: ignore[attr-defined]
        seat = _subject(question)
        return role_of(takes[seat]) if state.is_over and seat in takes else None


def _role_question(view: View, seat: int, moment: int, roles: tuple[str, ...]) -> BeliefQuestion:
    name = view.players[seat]
    return BeliefQuestion(f"role:{seat}@{moment}", f"What is {name}'s role?", f"Quel est le rôle de {name} ?",
                          roles, tuple(ROLE_LABELS[role][0] for role in roles),
                          tuple(ROLE_LABELS[role][1] for role in roles))


def _subject(question: BeliefQuestion) -> int:
    """The taker a question is about: `role:3@1` -> 3."""
    return int(question.key.split(":")[1].split("@")[0])


MODEL = MafiaBeliefs()
