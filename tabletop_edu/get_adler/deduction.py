"""Deduction in Get Adler, its game theory: the value of a question, Adler's answering policies, the questioning game.

The possible worlds of identities it reasons on are `identities` (the engine draws its worlds from them too):
a world assigns one character to each seat, and public facts cut worlds down. Here: what a question is worth in
bits under a model of Adler's answers (`information_gain`, `question_values`, `best_question`), the policies a
lying Adler may follow (`random_liar`, `mimic`, `hero_answers`), P(Adler) when his answers are weighed by one of
them (`policy_distribution`: Bayes's rule, where `identities.adler_distribution` gives them no weight), the
questioning game between an asker and Adler solved as a zero-sum game (`questioning_game`,
`solve_questioning_game`) and drawn as a game tree with its information sets (`questioning_tree`, built from this
model: the protocol's tree of a whole game is far too big), and the knowledge pictures
(`knowledge_model`, `question_flow`, `draw_candidates`).

Everything here works from public facts plus one seat's own character, so bots can call it on a View.
Drawings import matplotlib lazily and return Figures.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import GameState, View
from ..extras import need
from .identities import AnswerFact, World, adler_distribution, candidate_history, possible_worlds, worlds_for_view
from .rules import ADLER, CAST, TRAIT_COLOURS, TRAITS, has_trait

def _entropy(probabilities: Iterable[float]) -> float:
    return -sum(p * math.log2(p) for p in probabilities if p > 0)


#: Adler's answering policy, a strategy of his: the probability he answers yes to "`colour` `trait`?".
AdlerPolicy = Callable[[str, str], float]


def random_liar(yes: float = 0.5) -> AdlerPolicy:
    """Adler answers yes with probability `yes`, whatever he is asked."""
    return lambda trait, colour: yes


def mimic(characters: Sequence[str]) -> AdlerPolicy:
    """Adler answers as a character drawn uniformly from `characters` would (truthfully: `mimic([ADLER])`)."""
    return lambda trait, colour: sum(has_trait(c, trait, colour) for c in characters) / len(characters)


def hero_answers(worlds: Sequence[World], target: int) -> AdlerPolicy:
    """The answers a hero at `target` gives, in distribution over `worlds`: an Adler answering with this
    policy *pools* with the heroes, so that his answer cannot tell him from them in those worlds."""
    heroes = [world[target] for world in worlds if world[target] != ADLER]
    return mimic(heroes)


def policy_distribution(worlds: Sequence[World], answers: Iterable[AnswerFact], adler: AdlerPolicy
                        ) -> dict[int, float]:
    """P(seat is Adler) by Bayes's rule when every deal is alike and Adler answers each question on his own,
    yes with probability `adler(trait, colour)`: a world where the seat that gave k answers is Adler weighs the
    product of his k answers' probabilities under the policy, one where heroes gave them weighs 1 (`worlds`
    already holds only the worlds where every hero's answer is true). With `random_liar(0.5)` each of Adler's
    answers halves his worlds' weight, where counting (`adler_distribution`) leaves it whole. A ValueError when
    the policy gives every world weight 0 (it cannot have produced these answers)."""
    answers = [tuple(answer) for answer in answers]
    weights: Counter[int] = Counter()
    for world in worlds:
        seat = world.index(ADLER)
        weight = 1.0
        for _, target, trait, colour, yes in answers:
            if target == seat:
                p_yes = adler(trait, colour)
                weight *= p_yes if yes else 1.0 - p_yes
        weights[seat] += weight  # type: ignore[assignment]
    total = sum(weights.values())
    if total <= 0:
        raise ValueError("No world fits these answers under this policy of Adler's.")
    return {seat: weight / total for seat, weight in sorted(weights.items()) if weight > 0}


def information_gain(worlds: Sequence[World], target: int, trait: str, colour: str, *,
                     adler_yes: float | AdlerPolicy = 0.5) -> float:
    """Expected bits of information about "which seat is Adler" from asking `target` about `colour` `trait`.

    Worlds are equally likely; in a world where `target` is Adler he answers yes with probability
    `adler_yes`, a number or his answering policy (he may lie, R4.3: what his answer tells depends on how
    he chooses it)."""
    if not worlds:
        return 0.0
    if callable(adler_yes):
        adler_yes = adler_yes(trait, colour)
    before = _entropy(adler_distribution(worlds).values())
    joint: dict[bool, Counter[int]] = {True: Counter(), False: Counter()}
    weight = 1 / len(worlds)
    for world in worlds:
        adler = world.index(ADLER)
        if world[target] == ADLER:
            joint[True][adler] += weight * adler_yes  # type: ignore[assignment]
            joint[False][adler] += weight * (1 - adler_yes)  # type: ignore[assignment]
        else:
            joint[has_trait(world[target], trait, colour)][adler] += weight  # type: ignore[assignment]
    after = 0.0
    for counts in joint.values():
        mass = sum(counts.values())
        if mass > 0:
            after += mass * _entropy(value / mass for value in counts.values())
    return before - after


# ------------------------------------------------------------------------------------ a questioning game

Question = tuple[str, str]  # (trait, colour)
AskerPlan = tuple[str, Question, int, int]  # (asker's character, question, seat named after yes, after no)


@dataclass(frozen=True)
class QuestioningGame:
    """One question, then a guess: a zero-sum Bayesian game between an asker and Adler.

    Nature deals the characters (the asker is a hero). The asker, knowing only its own character, asks
    seat `target` one question and then names a seat as Adler; it wins 1 if right. Adler, if he sits at
    `target`, chooses his answer knowing only the question (not the asker's character): his strategy is
    the probability of "yes" to each question. `payoff[plan]` is (a, b): the asker's chance of being right
    with that plan is a + b * P(Adler says yes to the plan's question).
    """

    players: int
    asker: int
    target: int
    payoff: dict[AskerPlan, tuple[float, float]]

    @property
    def questions(self) -> list[Question]:
        return [(trait, colour) for trait in TRAITS for colour in TRAIT_COLOURS[trait]]

    @property
    def characters(self) -> list[str]:
        return sorted({plan[0] for plan in self.payoff})

    def chance(self, plan: AskerPlan, adler: AdlerPolicy) -> float:
        """The asker's chance of naming Adler with `plan` against Adler's policy."""
        a, b = self.payoff[plan]
        return a + b * adler(*plan[1])

    def best_chance(self, adler: AdlerPolicy) -> float:
        """The asker's chance of naming Adler when it best-responds to Adler's policy (each character
        equally likely)."""
        best = {character: 0.0 for character in self.characters}
        for plan in self.payoff:
            best[plan[0]] = max(best[plan[0]], self.chance(plan, adler))
        return sum(best.values()) / len(best)

    def adler_best_chance(self, asker_mix: Mapping[AskerPlan, float]) -> float:
        """The asker's chance when Adler best-responds to the asker's mix (the mix's weights add up to 1 for
        each character of the asker, which is equally likely)."""
        constant = sum(q * self.payoff[plan][0] for plan, q in asker_mix.items()) / len(self.characters)
        slopes: Counter[Question] = Counter()
        for plan, q in asker_mix.items():
            slopes[plan[1]] += q * self.payoff[plan][1] / len(self.characters)  # type: ignore[assignment]
        return constant + sum(min(0.0, slope) for slope in slopes.values())


def questioning_game(players: int, asker: int, target: int, *, cast: Sequence[str] | None = None) -> QuestioningGame:
    """The one-question game (see `QuestioningGame`) at a table of `players`, the published cast by default."""
    if asker == target or not (0 <= asker < players and 0 <= target < players):
        raise ValueError(f"The asker and the target must be two different seats from 0 to {players - 1}.")
    in_play = tuple(cast or CAST)[:players]
    suspects = [seat for seat in range(players) if seat != asker]
    payoff: dict[AskerPlan, tuple[float, float]] = {}
    for character in (c for c in in_play if c != ADLER):
        worlds = possible_worlds(players, known={asker: character}, cast=in_play)
        for trait in TRAITS:
            for colour in TRAIT_COLOURS[trait]:
                for named_if_yes, named_if_no in itertools.product(suspects, repeat=2):
                    constant = slope = 0.0
                    for world in worlds:
                        adler = world.index(ADLER)
                        right_if_yes, right_if_no = float(adler == named_if_yes), float(adler == named_if_no)
                        if world[target] == ADLER:
                            constant += right_if_no
                            slope += right_if_yes - right_if_no
                        else:
                            constant += right_if_yes if has_trait(world[target], trait, colour) else right_if_no
                    payoff[(character, (trait, colour), named_if_yes, named_if_no)] = (constant / len(worlds),
                                                                                       slope / len(worlds))
    return QuestioningGame(players, asker, target, payoff)


def solve_questioning_game(game: QuestioningGame) -> tuple[float, dict[Question, float], dict[AskerPlan, float]]:
    """The game's value (the asker's chance of naming Adler), Adler's equilibrium policy (question -> P(yes))
    and the asker's equilibrium mix, by linear programming (scipy): Adler minimises the asker's best chance."""
    np = need("numpy", "Solving the questioning game")
    linprog = need("scipy.optimize", "Solving the questioning game").linprog

    questions, characters, plans = game.questions, game.characters, list(game.payoff)
    rows = np.zeros((len(plans), len(questions) + len(characters)))
    bounds = np.zeros(len(plans))
    for k, plan in enumerate(plans):
        constant, slope = game.payoff[plan]
        rows[k, questions.index(plan[1])] = slope
        rows[k, len(questions) + characters.index(plan[0])] = -1.0
        bounds[k] = -constant
    costs = np.r_[np.zeros(len(questions)), np.full(len(characters), 1 / len(characters))]
    result = linprog(costs, A_ub=rows, b_ub=bounds, method="highs",
                     bounds=[(0, 1)] * len(questions) + [(None, None)] * len(characters))
    weights = -result.ineqlin.marginals * len(characters)
    asker_mix = {plan: float(w) for plan, w in zip(plans, weights) if w > 1e-9}
    return float(result.fun), {q: float(y) for q, y in zip(questions, result.x)}, asker_mix


def questioning_tree(players: int, asker: int, target: int, *, questions: Sequence[Question] | None = None,
                     cast: Sequence[str] | None = None):  # -> tabletop_edu.trees.GameTree
    """The one-question game of `questioning_game` as an extensive form (`tabletop_edu.trees`), built from the
    same model: chance deals the characters (the asker a hero, every deal alike), the asker asks `target` one of
    `questions` (default: all) knowing only its own character, the target answers (Adler chooses, knowing only
    the question; a hero's answer is the truth, a chance node of one branch), and the asker names a seat. The
    asker gets 1 for naming Adler, Adler the opposite: zero-sum, so `trees.solve_zero_sum` gives the value of
    `solve_questioning_game` (5/12 at four seats). `players` may be below the game's four, for a tree small
    enough to draw."""
    from ..trees import Chance, Decision, Terminal, tree_from_spec

    if asker == target or not (0 <= asker < players and 0 <= target < players):
        raise ValueError(f"The asker and the target must be two different seats from 0 to {players - 1}.")
    in_play = tuple(cast or CAST)[:players]
    asked = list(questions or [(trait, colour) for trait in TRAITS for colour in TRAIT_COLOURS[trait]])
    suspects = [seat for seat in range(players) if seat != asker]

    def naming(character: str, question: Question, answer: str, adler: int) -> Decision:
        return Decision(0, ("name", character, question, answer), tuple(
            (f"names {seat}", Terminal((1.0, -1.0) if seat == adler else (0.0, 0.0))) for seat in suspects),
            f"{character}, asked {question[1]} {question[0]}, heard {answer}")

    def answer(character: str, world: World, question: Question) -> Decision | Chance:
        adler = world.index(ADLER)
        if world[target] == ADLER:
            return Decision(1, ("answer", question), tuple(
                (reply, naming(character, question, reply, adler)) for reply in ("yes", "no")),
                f"asked {question[1]} {question[0]}")
        reply = "yes" if has_trait(world[target], *question) else "no"
        return Chance(((reply, 1.0, naming(character, question, reply, adler)),))

    deals = [(character, world) for character in in_play if character != ADLER
             for world in possible_worlds(players, known={asker: character}, cast=in_play)]
    root = Chance(tuple((" ".join(world), 1 / len(deals), Decision(
        0, ("ask", character), tuple((f"{colour} {trait}?", answer(character, world, (trait, colour)))
                                     for trait, colour in asked), f"the asker is {character}"))
        for character, world in deals))
    return tree_from_spec(("Asker", ADLER), root, title=f"Get Adler: one question to seat {target}, then a name "
                          f"({players} seats)")


def question_values(worlds: Sequence[World], asker: int) -> list[tuple[float, int, str, str]]:
    """(gain, target, trait, colour) for every question `asker` could ask, best first."""
    return list(_question_values(tuple(worlds), asker))


@functools.lru_cache(maxsize=512)
def _question_values(worlds: tuple[World, ...], asker: int) -> tuple[tuple[float, int, str, str], ...]:
    """`question_values`, remembered: bots (and searches playing thousands of imagined games with them) meet
    the same few sets of worlds again and again. Bounded, since a key can hold 720 worlds at six seats."""
    players = len(worlds[0]) if worlds else 0
    values = [(information_gain(worlds, target, trait, colour), target, trait, colour)
              for target in range(players) if target != asker
              for trait in TRAITS for colour in TRAIT_COLOURS[trait]]
    return tuple(sorted(values, key=lambda v: (-v[0], v[1], v[2], v[3])))


def best_question(view: View) -> tuple[int, str, str, float] | None:
    """The most informative question for the owner of `view`: (target, trait, colour, bits), or None."""
    worlds = worlds_for_view(view)
    if view.seat is None or not worlds:
        return None
    out = set(view.facts.get("out", ()))
    # A question already answered tells nothing new: a hero repeats the truth, and Adler, who must not be
    # caught contradicting himself, repeats his answer (the coin-flip model of `information_gain` forgets that).
    asked = {(target, trait, colour) for _, target, trait, colour, _ in view.facts.get("answers", ())}
    for gain, target, trait, colour in question_values(worlds, view.seat):
        if target not in out and (target, trait, colour) not in asked:
            return target, trait, colour, gain
    return None


def knowledge_model(state: GameState[Any]):  # -> tabletop_edu.knowledge.Worlds
    """The identities as an S5 model: the public worlds, each seat observing its own character."""
    from ..knowledge import Worlds

    observations: dict[Hashable, Callable[..., Any]] = {seat: (lambda world, seat=seat: world[seat])
                                                        for seat in range(len(state.players))}
    return Worlds(worlds_for_view(state.view(None)), observations)


FLOW_KINDS = ("ask", "answer", "magnify", "binoculars", "give")


def question_flow(state: GameState[Any]):  # -> networkx.MultiDiGraph
    """The information-flow graph restricted to questions, answers, magnifying glasses and binoculars."""
    from ..knowledge import information_flow

    graph = information_flow(state)
    drop = [(u, v, k) for u, v, k, kind in graph.edges(keys=True, data="kind")  # type: ignore[var-annotated]
            if kind not in FLOW_KINDS]
    graph.remove_edges_from(drop)
    return graph


def draw_candidates(state: GameState[Any]):  # -> matplotlib Figure
    """How many seats each seat still suspects, action by action."""
    need("matplotlib", "Drawing Adler's candidates")
    from ..knowledge.drawing import DPI, SMALLEST_TYPE, WIDTH, Figure

    history = candidate_history(state)
    figure = Figure(figsize=(WIDTH, 4.4), dpi=DPI, layout="constrained")
    axes = figure.add_subplot()
    for seat in range(len(state.players)):
        axes.step(range(len(history)), [len(h[seat]) for h in history], where="post", label=state.players[seat])
    axes.set_xlabel("action", fontsize=SMALLEST_TYPE + 1)
    axes.set_ylabel("Adler candidates", fontsize=SMALLEST_TYPE + 1)
    axes.tick_params(labelsize=SMALLEST_TYPE)
    axes.legend(fontsize=SMALLEST_TYPE)
    return figure
