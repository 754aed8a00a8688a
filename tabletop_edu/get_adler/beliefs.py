"""Get Adler's belief question: "who is Adler?", asked to every hero at the start of each hour, set beside the
posteriors of that hero's view under two models of how Adler answers (`MODELS`).

The worlds are `identities.worlds_for_view(view)`: every character assignment consistent with what the seat saw
(its own character, the answers given, the seats cleared by a wrong arrest); an answer binds only a seat that is
not Adler, since Adler may lie. Who asks what, and what hands and discards show, are taken to tell nothing.
- counting (`COUNTING`, the reference): every such world counts alike (`identities.adler_distribution`), which is
  Bayes's rule with Adler's answers given no weight, as if any answer were as likely from him as the truth from
  a hero;
- Adler flips a coin (`COIN_FLIP`): Adler answers yes or no with probability 1/2 whatever he is asked
  (`deduction.policy_distribution` with `deduction.random_liar(0.5)`), so each answer of his halves the weight
  of the worlds where he gave it: a "no" from a seat that both other heroes' characters would also say no from
  gives that seat 1/5 where counting gives 1/3.
Adler himself is not asked (he knows), nor is a hero whose view already settles it. The options are the other
seats, the same for every hero.

The debrief (`debrief(state)`): Adler's answers, which were lies, and how each moved the heroes' probability that
Adler is Adler (their mean, from their views just before and just after the answer) under each model, and for
heroes who believe every answer. Under counting an answer of Adler's can never lower it (it binds only the worlds
where he is not Adler): counting is never fooled by construction. Under the coin flip it can; a lie worked when it
lowered the trusting heroes'.

Moments: the key names the hour (`adler@h3`), so a server asks it once per hour; it stays on offer all hour,
and the teacher's ask (`questions_when_asked`) offers it again at any moment of play.
"""

from __future__ import annotations

from typing import Any

from ..beliefs import BeliefQuestion, DebriefTable, PlayModel, fell, on_options, replayed, settled
from ..core import GameState, View
from .deduction import policy_distribution, random_liar
from .identities import adler_distribution, worlds_for_view
from .rules import ADLER, has_trait


#: Traits and colours in French, for the debrief's questions ("cheveux noirs ?"); hair and eyes are plural.
TRAITS_FR: dict[str, str] = {"hat": "chapeau", "hair": "cheveux", "eyes": "yeux", "coat": "manteau"}
COLOURS_FR: dict[str, str] = {"black": "noir", "brown": "marron", "grey": "gris", "blond": "blond", "red": "roux",
                              "blue": "bleu", "green": "vert", "beige": "beige"}
PLURAL_FR: dict[str, str] = {"black": "noirs", "blond": "blonds", "blue": "bleus", "green": "verts"}


def counting(view: View) -> dict[int, float]:
    """P(seat is Adler) from `view`, every world it allows counted alike."""
    return adler_distribution(worlds_for_view(view))


def coin_flip(view: View) -> dict[int, float]:
    """P(seat is Adler) from `view` when Adler answers yes or no with probability 1/2, whatever he is asked."""
    return policy_distribution(worlds_for_view(view), view.facts["answers"], random_liar(0.5))


def _on_seats(found: Any) -> Any:
    """A model of seats (seat -> P(Adler)) as a posterior of the question (option ids are seats as text)."""
    return lambda view, question: on_options(question, {str(seat): p for seat, p in found(view).items()})


COUNTING = PlayModel(
    "counting", "counting", "le comptage",
    "every casting the player cannot rule out counts alike, whatever Adler answered (his answers weigh nothing).",
    "chaque distribution des rôles que le joueur ne peut pas exclure compte autant, quoi qu'Adler ait répondu "
    "(ses réponses ne pèsent rien).", _on_seats(counting))
COIN_FLIP = PlayModel(
    "coin", "a coin-flipping Adler", "un Adler à pile ou face",
    "Adler answers yes or no at random, one chance in two, whatever he is asked; heroes tell the truth.",
    "Adler répond oui ou non au hasard, une chance sur deux, quelle que soit la question ; les héros disent la "
    "vérité.", _on_seats(coin_flip))
#: The models of Adler's answers a posterior can be under, the reference first.
MODELS: tuple[PlayModel, ...] = (COUNTING, COIN_FLIP)
#: Each model's P(seat is Adler) from a view, by model key.
SEAT_DISTRIBUTIONS = {COUNTING.key: counting, COIN_FLIP.key: coin_flip}


class AdlerBeliefs:
    """Who is Adler, from a hero's view; the truth is Adler's seat, told at the end."""

    models = MODELS

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
        """Under counting (`COUNTING`, the reference)."""
        return COUNTING.posterior(view, question)

    def truth(self, state: GameState[Any], question: BeliefQuestion) -> str | None:
        return str(state.characters.index(ADLER)) if state.is_over else None  # type: ignore[attr-defined]

    def debrief(self, state: GameState[Any]) -> list[DebriefTable]:
        """Every answer Adler gave, true or a lie, and how it moved the heroes' posterior under each model."""
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
                    moved = tuple(round(100 * value) for pair in zip(before, after) for value in pair)
                    rows.append((step, state.players[asker], f"{colour} {trait}?", "yes" if yes else "no", not lie,
                                 *moved, lie and fell(before[-1], after[-1])))
            answered, before = len(answers), after
        rows_fr = tuple((*row[:2], question_fr(*row[2].rstrip("?").split()), "oui" if row[3] == "yes" else "non",
                         *row[4:]) for row in rows)
        moved_en = tuple(f"{name} {when} (%)" for name in (*(model.name for model in MODELS), "trusting")
                         for when in ("before", "after"))
        moved_fr = tuple(f"{name}, {when} (%)" for name in (*(model.name_fr for model in MODELS), "crédule")
                         for when in ("avant", "après"))
        return [DebriefTable(
            "Adler's answers: which lies worked", "Les réponses d'Adler : les mensonges qui ont marché",
            ("step", "asked by", "question", "answer", "true", *moved_en, "lie that worked"),
            ("étape", "posée par", "question", "réponse", "vraie", *moved_fr, "mensonge qui a marché"),
            tuple(rows),
            "The heroes' mean probability that Adler is Adler, from their views just before and just after the "
            "answer, " + "; ".join(model.under("en") for model in MODELS) + "; and trusting: every answer "
            "believed, Adler's too. Under counting Adler's answers can never lower it (they weigh nothing); under "
            "the coin flip they can. A lie worked when it lowered the trusting heroes'.",
            "La probabilité moyenne que les héros donnent au vrai Adler, de leur point de vue juste avant et juste "
            "après la réponse, " + " ; ".join(model.under("fr") for model in MODELS) + " ; et crédule : toute "
            "réponse crue, celles d'Adler aussi. Selon le comptage, les réponses d'Adler ne peuvent pas la faire "
            "baisser (elles ne pèsent rien) ; à pile ou face, elles le peuvent. Un mensonge a marché quand il a "
            "fait baisser celle des héros crédules.", rows_fr, lies=True)]


def question_fr(colour: str, trait: str) -> str:
    """ "black hair?" in French: "cheveux noirs ?", "chapeau gris ?"."""
    plural = trait in ("hair", "eyes")
    return f"{TRAITS_FR[trait]} {PLURAL_FR.get(colour, COLOURS_FR[colour]) if plural else COLOURS_FR[colour]} ?"


def _heroes_on_truth(state: GameState[Any], heroes: list[int], adler: int) -> tuple[float, ...]:
    """The heroes' mean probability of Adler's true seat from their views at `state`: under each of `MODELS`,
    then trusting (0 where believing every answer leaves no casting at all)."""
    totals = [0.0] * (len(MODELS) + 1)
    for seat in heroes:
        view = state.view(seat)
        for number, model in enumerate(MODELS):
            totals[number] += SEAT_DISTRIBUTIONS[model.key](view).get(adler, 0.0)
        worlds = worlds_for_view(view, trusting=True)
        totals[-1] += adler_distribution(worlds).get(adler, 0.0) if worlds else 0.0
    return tuple(total / len(heroes) for total in totals)


MODEL = AdlerBeliefs()
