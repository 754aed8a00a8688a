"""Mafia de Cuba's belief questions: "what is this taker's role?", asked when the box is back at the Godfather
and again after each accusation, set beside the posteriors of the asking seat's view under three models of play
(`MODELS`), each exact under its model (the box chain's forward-backward pass, `inference`):
- counting (`COUNTING`, the reference): every box history consistent with what the seat saw counts alike
  (`UNIFORM_WORLDS`), testimonies heard but not weighed, since any of them may be a lie;
- random choices (`RANDOM_CHOICES_MODEL`): every seat picks uniformly among the choices open to it (what the
  Godfather hides, what each taker takes), so a history of many narrow choices weighs more than counting says;
- testimonies believed (`TESTIMONIES`): counting, with each testimony ("took...", "saw...") weighed as evidence
  believed with probability `TESTIMONY_TRUST` (`with_testimonies`: a history where it is true weighs 0.7, one
  where it is a lie 0.3), what the knowledge panel shows once testimonies are heard.
Questions are decided under counting (the others have the same support). A seat is asked about every taker but
itself whose role its own view does not already settle (the
Godfather knows the box that came back, a taker knows the box it opened, an emptied pocket is public), so a
question never gives away what the view cannot see: the options are every role the table's tokens allow, the
same for every seat.

The debrief (`debrief(state)`): which testimonies were lies, and whether each moved the Godfather's posterior
under testimonies believed the wrong way (his mean probability of every taker's true role).

Moments: a question's key names its moment (`role:3@0` when the box came back, `role:3@1` after the first
accusation...), so a server asks each key once; the questions of a moment stay on offer until the next one.
When the teacher asks (`questions_when_asked`), the box round has questions too (`role:3@box`): every taker who
has already taken, as soon as the box has left the Godfather.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from ..beliefs import BeliefQuestion, DebriefTable, PlayModel, fell, on_options, replayed, settled
from ..core import Event, GameState, View
from ..i18n import elide
from ._box import BOX_PHASES, RANDOM_CHOICES, Posterior, observation_from_view
from .chain import PosteriorCache, view_posterior
from .rules import TOKEN_ORDER, role_of, take_text

#: How far the debrief's Godfather believes a testimony (the knowledge panel's `with_testimonies` default).
TESTIMONY_TRUST = 0.7

#: A role's name as a student reads it, in English and French.
ROLE_LABELS: dict[str, tuple[str, str]] = {
    "thief": ("Thief", "Voleur"), "loyal": ("Loyal Henchman", "Fidèle"), "fbi": ("FBI Agent", "Agent du FBI"),
    "cia": ("CIA Agent", "Agent de la CIA"), "driver": ("Driver", "Chauffeur"), "cleaner": ("Cleaner", "Nettoyeur"),
    "street-kid": ("Street Kid", "Enfant des rues"),
}


#: The posteriors under random choices, computed once per observation (as `view_posterior`'s are for counting).
_RANDOM_CHOICES = PosteriorCache(RANDOM_CHOICES, size=64, chains=4)


def _role_model(found: Any) -> Any:
    """A model of the box (view -> Posterior or None) as a posterior of a question about one taker's role."""
    def posterior(view: View, question: BeliefQuestion) -> dict[str, float]:
        chain: Posterior | None = found(view)
        if chain is None:
            raise ValueError(f"No box history fits this view, so {question.key!r} has no posterior.")
        return on_options(question, chain.role_probabilities(_subject(question)))
    return posterior


COUNTING = PlayModel(
    "counting", "counting", "le comptage",
    "every box history the player cannot rule out counts alike; what the others said is not weighed (any of "
    "it may be a lie).",
    "chaque histoire de la boîte que le joueur ne peut pas exclure compte autant ; ce que les autres ont dit ne "
    "pèse rien (tout peut être mensonge).", _role_model(lambda view: view_posterior(view, view.rules)))
RANDOM_CHOICES_MODEL = PlayModel(
    "random", "random choices", "des choix au hasard",
    "everyone chooses at random among what they may do (what the Godfather hides, what each taker takes), each "
    "choice alike; what the others said is not weighed.",
    "chacun choisit au hasard parmi ce qu'il peut faire (ce que cache le Parrain, ce que prend chaque preneur), "
    "chaque choix autant ; ce que les autres ont dit ne pèse rien.",
    _role_model(lambda view: _RANDOM_CHOICES.view_posterior(view, view.rules)))
TESTIMONIES = PlayModel(
    "testimonies", f"testimonies believed {round(100 * TESTIMONY_TRUST)} %",
    f"des témoignages crus à {round(100 * TESTIMONY_TRUST)}\u00a0%",
    f"counting, and every testimony (\"took...\", \"saw...\") believed: a history where it is true counts "
    f"{round(10 * TESTIMONY_TRUST)} against {round(10 * (1 - TESTIMONY_TRUST))} for one where it is a lie.",
    f"le comptage, et chaque témoignage (« a pris... », « a vu... ») cru : une histoire où il est vrai compte "
    f"{round(10 * TESTIMONY_TRUST)} contre {round(10 * (1 - TESTIMONY_TRUST))} pour une où il est mensonger.",
    _role_model(lambda view: view_posterior(view, view.rules, truth=TESTIMONY_TRUST)))
#: The models of play a posterior can be under, the reference first.
MODELS: tuple[PlayModel, ...] = (COUNTING, RANDOM_CHOICES_MODEL, TESTIMONIES)


class MafiaBeliefs:
    """Each taker's role, from the seat's view; the truth is the role their take gave them, told at the end."""

    models = MODELS

    def questions(self, view: View) -> list[BeliefQuestion]:
        facts = view.facts
        if view.seat is None or view.is_over or facts["phase"] in BOX_PHASES:
            return []
        moment = len(facts["revealed"])
        roles = _roles(view)
        asked = []
        for seat in facts["order"]:
            if seat == view.seat or seat in facts["revealed"] or seat in facts["eliminated"]:
                continue
            question = _role_question(view, seat, moment, roles)
            if not settled(self.posterior(view, question)):
                asked.append(question)
        return asked

    def questions_when_asked(self, view: View) -> list[BeliefQuestion]:
        """What the teacher's ask offers at any moment: during the box round, every taker who has already
        taken and whose role the view does not settle (before the first take nothing is hidden yet: none);
        after it, the questions of the moment."""
        facts = view.facts
        if view.seat is None or view.is_over:
            return []
        if facts["phase"] not in BOX_PHASES:
            return self.questions(view)
        takers = [seat for kind, seat in observation_from_view(view).steps if kind == "take" and seat != view.seat]
        questions = [_role_question(view, seat, "box", _roles(view)) for seat in takers]
        return [question for question in questions if not settled(self.posterior(view, question))]

    def posterior(self, view: View, question: BeliefQuestion) -> dict[str, float]:
        """Under counting (`COUNTING`, the reference)."""
        return COUNTING.posterior(view, question)

    def truth(self, state: GameState[Any], question: BeliefQuestion) -> str | None:
        takes = state.takes  # type: ignore[attr-defined]
        seat = _subject(question)
        return role_of(takes[seat]) if state.is_over and seat in takes else None

    def debrief(self, state: GameState[Any]) -> list[DebriefTable]:
        """The factual testimonies ("took", "saw"), each true or a lie, and how it moved the Godfather."""
        rows, heard = [], 0
        takers = list(state.order)  # type: ignore[attr-defined]
        for replay in replayed(state):
            view = replay.view(state.godfather)  # type: ignore[attr-defined]
            testimonies = [event for event in view.log if event.kind == "testimony"]
            for event in testimonies[heard:]:
                claim = str(event.data["claim"])
                if event.actor is None or claim.split()[0] not in ("took", "saw"):
                    continue
                before = _on_truth(state, replace(view, log=tuple(e for e in view.log if e is not event)), takers)
                after = _on_truth(state, view, takers)
                if before is None or after is None:
                    continue
                true = _claim_is_true(state, event)
                rows.append((event.step, state.players[event.actor], claim, true, round(100 * before),
                             round(100 * after), not true and fell(before, after)))
            heard = len(testimonies)
        said = [(*row[:2], claim_words(row[2], language), *row[3:]) for language in ("en", "fr") for row in rows]
        return [DebriefTable(
            "Which lies worked", "Les mensonges qui ont marché",
            ("step", "who", "said", "true", "Godfather before (%)", "after (%)", "lie that worked"),
            ("étape", "qui", "a dit", "vrai", "Parrain avant (%)", "après (%)", "mensonge qui a marché"),
            tuple(said[:len(rows)]),
            "The Godfather's mean probability of every taker's true role, from his view just before and just after "
            f"the testimony, {TESTIMONIES.under('en')} A lie worked when it lowered it.",
            "La probabilité moyenne que le Parrain donne au vrai rôle de chaque preneur, de son point de vue juste "
            f"avant et juste après le témoignage, {TESTIMONIES.under('fr')} Un mensonge a marché quand il l'a fait "
            "baisser.", tuple(said[len(rows):]), lies=True)]


def claim_words(claim: str, language: str = "en") -> str:
    """A factual testimony in words: "took 3" -> "took: 3 diamonds" / "a pris : 3 diamants"; "saw 10 loyal"
    -> "saw: 10 diamonds, Loyal Henchman" / "a vu : 10 diamants, Fidèle"; any other claim as it is."""
    french = language == "fr"
    verb, *words = claim.split()
    if verb not in ("took", "saw") or not words:
        return claim
    things = []
    for position, word in enumerate(words):
        if word.isdigit() and (verb == "took" or position == 0):
            things.append(f"{word} {'diamants' if french else 'diamonds'}" if word != "1" else
                          ("1 diamant" if french else "1 diamond"))
        elif word == "nothing":
            things.append("rien" if french else "nothing")
        else:
            things.append(ROLE_LABELS[word][french] if word in ROLE_LABELS else word)
    said = {"took": ("took", "a pris"), "saw": ("saw", "a vu")}[verb][french]
    return f"{said}{' : ' if french else ': '}{', '.join(things)}"


def _on_truth(state: GameState[Any], view: View, takers: list[int]) -> float | None:
    """The Godfather's mean probability of the takers' true roles, from `view` with testimonies weighed."""
    found = view_posterior(view, view.rules, truth=TESTIMONY_TRUST)
    if found is None:
        return None
    takes = state.takes  # type: ignore[attr-defined]
    return sum(found.role_probabilities(seat).get(role_of(takes[seat]), 0.0) for seat in takers) / len(takers)


def _claim_is_true(state: GameState[Any], event: Event) -> bool:
    """Whether "took X" names the speaker's take, or "saw D tokens..." the box they opened."""
    verb, *words = str(event.data["claim"]).split()
    if verb == "took":
        return words[0] == take_text(state.takes[event.actor])  # type: ignore[attr-defined]
    seen = state.view(event.actor).facts["box_seen"]
    return int(words[0]) == seen["diamonds"] and Counter(words[1:]) == Counter(seen["tokens"])


def _roles(view: View) -> tuple[str, ...]:
    """Every role the table's tokens allow, the options of every question (the same for every seat)."""
    tokens = view.facts["tokens_in_game"]
    return ("thief", *(token for token in TOKEN_ORDER if tokens.get(token, 0)), "street-kid")


def _role_question(view: View, seat: int, moment: int | str, roles: tuple[str, ...]) -> BeliefQuestion:
    name = view.players[seat]
    return BeliefQuestion(f"role:{seat}@{moment}", f"What is {name}'s role?", f"Quel est le rôle {elide('de', name)} ?",
                          roles, tuple(ROLE_LABELS[role][0] for role in roles),
                          tuple(ROLE_LABELS[role][1] for role in roles))


def _subject(question: BeliefQuestion) -> int:
    """The taker a question is about: `role:3@1` -> 3."""
    return int(question.key.split(":")[1].split("@")[0])


MODEL = MafiaBeliefs()
