"""Get Adler's belief question: "who is Adler?", asked to every hero at the start of each hour, set beside the
exact posterior of that hero's view.

The posterior is `deduction.adler_distribution(deduction.worlds_for_view(view))`: every character assignment
consistent with what the seat saw (its own character, the answers given, the seats cleared by a wrong arrest)
counted equally; an answer binds only a seat that is not Adler, since Adler may lie. Adler himself is not asked
(he knows), nor is a hero whose view already settles it. The options are the other seats, the same for every hero.

The debrief (`debrief(state)`): Adler's answers, which were lies, and how each moved the heroes' probability that
Adler is Adler (their mean, from their views just before and just after the answer): exactly (an answer of
Adler's binds only the worlds where he is not Adler, so it can never lower it: exact reasoning is never fooled),
and for heroes who believe every answer, whom a lie can fool (it worked when it lowered theirs).

Moments: the key names the hour (`adler@h3`), so a server asks it once per hour; it stays on offer all hour,
and the teacher's ask (`questions_when_asked`) offers it again at any moment of play.
"""

from __future__ import annotations

from typing import Any

from ..beliefs import BeliefQuestion, DebriefTable, on_options, replayed, settled
from ..core import GameState, View
from .identities import adler_distribution, worlds_for_view
from .rules import ADLER, has_trait


#: Traits and colours in French, for the debrief's questions ("cheveux noirs ?"); hair and eyes are plural.
TRAITS_FR: dict[str, str] = {"hat": "chapeau", "hair": "cheveux", "eyes": "yeux", "coat": "manteau"}
COLOURS_FR: dict[str, str] = {"black": "noir", "brown": "marron", "grey": "gris", "blond": "blond", "red": "roux",
                              "blue": "bleu", "green": "vert", "beige": "beige"}
PLURAL_FR: dict[str, str] = {"black": "noirs", "blond": "blonds", "blue": "bleus", "green": "verts"}


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

    def questions_when_asked(self, view: View) -> list[BeliefQuestion]:
        """What the teacher's ask offers: the hour's question, at any moment of play (a hero's belief moves
        with every answer heard, so it is worth asking again within the hour)."""
        return self.questions(view)

    def posterior(self, view: View, question: BeliefQuestion) -> dict[str, float]:
        found = adler_distribution(worlds_for_view(view))
        return on_options(question, {str(seat): p for seat, p in found.items()})

    def truth(self, state: GameState[Any], question: BeliefQuestion) -> str | None:
        return str(state.characters.index(ADLER)) if state.is_over else None  # type: ignore[attr-defined]

    def debrief(self, state: GameState[Any]) -> list[DebriefTable]:
        """Every answer Adler gave, true or a lie, and how it moved the heroes' exact posterior."""
        adler = state.characters.index(ADLER)  # type: ignore[attr-defined]
        heroes = [seat for seat in range(len(state.players)) if seat != adler]
        start = type(state)(list(state.players), seed=state.seed, rules=state.rules)
        rows, answered, before = [], 0, _heroes_on_truth(start, heroes, adler)
        for step, replay in enumerate(replayed(state), start=1):
            answers = replay.view(None).facts["answers"]
            after = _heroes_on_truth(replay, heroes, adler)
            for asker, target, trait, colour, yes in answers[answered:]:
                if target == adler:
                    lie = bool(yes) != has_trait(ADLER, trait, colour)
                    rows.append((step, state.players[asker], f"{colour} {trait}?", "yes" if yes else "no", not lie,
                                 round(100 * before[0]), round(100 * after[0]), round(100 * before[1]),
                                 round(100 * after[1]), lie and after[1] < before[1]))
            answered, before = len(answers), after
        rows_fr = tuple((*row[:2], question_fr(*row[2].rstrip("?").split()), "oui" if row[3] == "yes" else "non",
                         *row[4:]) for row in rows)
        return [DebriefTable(
            "Adler's answers: which lies worked", "Les réponses d'Adler : les mensonges qui ont marché",
            ("step", "asked by", "question", "answer", "true", "exact before (%)", "exact after (%)",
             "trusting before (%)", "trusting after (%)", "lie that worked"),
            ("étape", "posée par", "question", "réponse", "vraie", "exact avant (%)", "exact après (%)",
             "crédule avant (%)", "crédule après (%)", "mensonge qui a marché"),
            tuple(rows),
            "The heroes' mean probability that Adler is Adler, from their views just before and just after the "
            "answer, every casting their view allows counted equally: exact (Adler may lie: his answers can never "
            "lower it) and trusting (every answer believed): a lie worked when it lowered the trusting heroes'.",
            "La probabilité moyenne que les héros donnent au vrai Adler, de leur point de vue juste avant et juste "
            "après la réponse, chaque distribution des rôles permise comptée à égalité : exacte (Adler peut mentir : "
            "ses réponses ne peuvent pas la faire baisser) et crédule (toute réponse crue) : un mensonge a marché "
            "quand il a fait baisser celle des héros crédules.", rows_fr)]


def question_fr(colour: str, trait: str) -> str:
    """ "black hair?" in French: "cheveux noirs ?", "chapeau gris ?"."""
    plural = trait in ("hair", "eyes")
    return f"{TRAITS_FR[trait]} {PLURAL_FR.get(colour, COLOURS_FR[colour]) if plural else COLOURS_FR[colour]} ?"


def _heroes_on_truth(state: GameState[Any], heroes: list[int], adler: int) -> tuple[float, float]:
    """The heroes' mean probability of Adler's true seat from their views at `state`: exact, and trusting
    (0 where believing every answer leaves no casting at all)."""
    exact = trusting = 0.0
    for seat in heroes:
        view = state.view(seat)
        exact += adler_distribution(worlds_for_view(view)).get(adler, 0.0)
        worlds = worlds_for_view(view, trusting=True)
        trusting += adler_distribution(worlds).get(adler, 0.0) if worlds else 0.0
    return exact / len(heroes), trusting / len(heroes)


MODEL = AdlerBeliefs()
