"""Commissario's belief question: "what did X pick?", asked once all picks of a round are locked and before X
reveals anything, about every other seat.

A pick is secret until it is revealed and nothing a seat sees tells it how another seat picked, so a posterior
is only as good as its model of how the others play (`MODELS`), each exact under its model:
- uniform picks (`UNIFORM`, the reference, the engine's own `world_from_view`): each other seat picks uniformly
  among the picks the rules allow it (21, or the 15 pairs once its 2x card is used up with
  `double_card_each_round` off);
- level 1 (`LEVEL_1`): X picks uniformly among the picks that score most this round if everyone else picked
  uniformly (`level_k.level_k`, exact expected points, reveals greedy as `normal_form.play_out`, bonuses not
  counted);
- level 2 (`LEVEL_2`): X best-responds in the same way to everyone else at level 1.
Why level-k rather than the round's equilibrium: at 3 to 5 seats an exact equilibrium is not cheap to compute
(the debrief's is an epsilon-equilibrium), and at 2 seats the round's equilibria can form continua
(`strategy.equilibrium_set`), so "the" equilibrium mix need not be one distribution. Level-k is one distribution,
exact, in milliseconds. These models read the board as it was when the picks were made (the arrests of this
round's reveals put back).

The debrief (`debrief(state)`): every seat's pick of every round beside the round's equilibrium
(`strategy.solve_round`: exact at two seats over every complete plan, an epsilon-equilibrium of the picks with
greedy reveals at three to five; the whole score at two and three seats, the round's points beyond), with what
each seat could gain by deviating alone from it. And every release beside the best response to the others'
releases as made (`auction.release_values`: each release the seat held, the round then played at its
equilibrium in the turn order that release gives).

Moments: the key names the round (`pick:2@r3`), so a server asks it once; it stays on offer until X reveals.
The teacher's ask (`questions_when_asked`) may come earlier: in the pick phase, about every other seat that has
already picked (its pick is locked, the same uniform posterior). Not during the releases: "what will X bid?" has
no posterior from the view alone, only a guess at how X plays.
"""

from __future__ import annotations

from typing import Any

import functools
from collections.abc import Callable, Mapping

from ..beliefs import BeliefQuestion, DebriefTable, PlayModel, on_options, replayed
from ..core import GameState, View
from .actions import Pick, picks_allowed
from .level_k import level_k
from .strategy import EXACT, PAYOFFS, RoundEquilibrium

#: A colour's name in French (the notation's are English).
COLOURS_FR: dict[str, str] = {"red": "rouge", "orange": "orange", "yellow": "jaune", "green": "vert",
                              "blue": "bleu", "purple": "mauve"}


def _uniform(view: View, question: BeliefQuestion) -> dict[str, float]:
    picks = [pick_name(pick.colours) for pick in picks_allowed(_may_double(view, _subject(question)))]
    return on_options(question, {name: 1 / len(picks) for name in picks})


def _level(k: int) -> Callable[[View, BeliefQuestion], dict[str, float]]:
    """The posterior of "what did X pick?" when X plays at level `k` (`level_k.level_k`)."""
    def posterior(view: View, question: BeliefQuestion) -> dict[str, float]:
        table, order = board_at_pick(view), tuple(view.facts["order"])
        doubles = tuple(_may_double(view, seat) for seat in range(len(view.players)))
        mix = _level_mixes(table, order, doubles, k)[_subject(question)]
        return on_options(question, {pick_name(pick.colours): p for pick, p in mix.items()})
    return posterior


@functools.lru_cache(maxsize=64)
def _level_mixes(table: tuple[tuple[str, tuple[int, ...]], ...], order: tuple[int, ...], doubles: tuple[bool, ...],
                 k: int) -> dict[int, dict[Pick, float]]:
    """`level_k.level_k` of a round, remembered: every seat's question of a round reads the same mixes."""
    allowed = {seat: picks_allowed(doubles[seat]) for seat in order}
    return level_k(dict(table), order, allowed, k)


def board_at_pick(view: View) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The table as it was when this round's picks were made: the characters arrested by this round's reveals
    (public) put back, each column highest first."""
    table = {colour: list(values) for colour, values in view.facts["table"].items()}
    order_at = max((index for index, event in enumerate(view.log) if event.kind == "order"), default=0)
    for event in view.log[order_at:]:
        if event.kind == "reveal" and event.data.get("arrest"):
            card = str(event.data["arrest"])
            colour = card.rstrip("+-0123456789")
            table[colour].append(int(card[len(colour):]))
    return tuple((colour, tuple(sorted(values, reverse=True))) for colour, values in table.items())


UNIFORM = PlayModel(
    "uniform", "uniform picks", "des choix au hasard",
    "every other player picks at random among the picks the rules allow them, each alike.",
    "chaque autre joueur choisit au hasard parmi les choix que les règles lui permettent, chacun autant.", _uniform)
LEVEL_1 = PlayModel(
    "level-1", "level 1", "le niveau 1",
    "each player picks what scores most this round if everyone else picked at random (ties shared evenly; "
    "bonuses not counted).",
    "chaque joueur choisit ce qui rapporte le plus dans la manche si tous les autres choisissaient au hasard "
    "(égalités partagées ; bonus non comptés).", _level(1))
LEVEL_2 = PlayModel(
    "level-2", "level 2", "le niveau 2",
    "each player picks what scores most this round against players of level 1 (ties shared evenly; bonuses "
    "not counted).",
    "chaque joueur choisit ce qui rapporte le plus dans la manche face à des joueurs de niveau 1 (égalités "
    "partagées ; bonus non comptés).", _level(2))
#: The models of play a posterior can be under, the reference first.
MODELS: tuple[PlayModel, ...] = (UNIFORM, LEVEL_1, LEVEL_2)


class PickBeliefs:
    """What each other seat picked this round, under each of `MODELS` (the reference: the others pick uniformly
    among their legal picks); the truth is the pick the seat made, told at the end."""

    models = MODELS

    def questions(self, view: View) -> list[BeliefQuestion]:
        facts = view.facts
        if view.seat is None or facts["phase"] != "first_reveal":
            return []
        return [_pick_question(view, seat) for seat in range(len(view.players))
                if seat != view.seat and seat not in facts["revealed"]]

    def questions_when_asked(self, view: View) -> list[BeliefQuestion]:
        """What the teacher's ask offers: "what did X pick?" for every other seat whose pick is locked and not
        yet revealed in any part (a first reveal would narrow the uniform posterior), so in the pick phase and
        the first reveals. None during the releases (nothing is picked; what X will release is a strategy, not
        hidden information) nor the second reveals (every seat has shown a colour)."""
        facts = view.facts
        if view.seat is None or facts["phase"] not in ("pick", "first_reveal"):
            return []
        return [_pick_question(view, seat) for seat in facts["picked"]
                if seat != view.seat and seat not in facts["revealed"]]

    def posterior(self, view: View, question: BeliefQuestion) -> dict[str, float]:
        """Under uniform picks (`UNIFORM`, the reference)."""
        return UNIFORM.posterior(view, question)

    def truth(self, state: GameState[Any], question: BeliefQuestion) -> str | None:
        return _picks_of_round(state, _round(question)).get(_subject(question)) if state.is_over else None

    def debrief(self, state: GameState[Any], iterations: int = 400) -> list[DebriefTable]:
        """Each seat's picks beside the round's equilibrium (`strategy.solve_round`, on the whole score at two
        and three seats), with what each seat could gain by deviating alone from it; each release beside the
        best response to the others' releases (`auction.release_values`)."""
        solve = _round_solver(iterations)
        rows = []
        for replay in replayed(state):
            facts = replay.view(None).facts
            if facts["phase"] != "pick" or facts["picked"]:
                continue
            solved = solve(facts)
            picks = _picks_of_round(state, facts["round"])
            for seat, pick in sorted(picks.items()):
                mix = {pick_name(option.colours): p for option, p in solved.mixes[seat].items()}
                favourite = max(mix, key=lambda name: mix[name])
                rows.append((facts["round"], state.players[seat], pick, round(100 * mix.get(pick, 0.0)), favourite,
                             round(100 * mix[favourite]), round(solved.gains[seat], 3)))
        players = len(state.players)
        sample = solve(_first_pick_facts(state)) if rows else None
        return [DebriefTable(
            "Picks beside the equilibrium", "Les choix face à l'équilibre",
            ("round", "who", "picked", "equilibrium's chance of it (%)", "equilibrium's favourite", "its chance (%)",
             "most the seat gains by deviating alone"),
            ("manche", "qui", "a choisi", "chance à l'équilibre (%)", "favori de l'équilibre", "sa chance (%)",
             "le plus que la place gagne en déviant seule"),
            tuple(rows), _equilibrium_note(sample, players, "en"), _equilibrium_note(sample, players, "fr"),
            tuple((*row[:2], pick_words(row[2], True), row[3], pick_words(row[4], True), *row[5:]) for row in rows)),
            _releases_table(state, solve)]


def _round_solver(iterations: int) -> Callable[[Mapping[str, Any]], RoundEquilibrium]:
    """`strategy.solve_round` remembered by what it reads (a release table asks for the same round often, and
    each page for the same game): the whole score at two and three seats, the round's points beyond."""
    from .strategy import solve_round

    def solve(facts: Mapping[str, Any]) -> RoundEquilibrium:
        whole = len(facts["order"]) <= 3
        key = repr((facts["order"], facts["table"], facts["colour_scores"] if whole else None,
                    facts.get("doubles_spent"), facts.get("round"), facts.get("rules"), iterations))
        if key not in _SOLVED:
            if len(_SOLVED) >= 4096:
                del _SOLVED[next(iter(_SOLVED))]
            _SOLVED[key] = solve_round(facts, whole_score=whole, iterations=iterations)
        return _SOLVED[key]
    return solve


#: The rounds `_round_solver` has solved, by what they read (the oldest dropped first): a debrief is asked for again
#: by each page and table that shows it.
_SOLVED: dict[str, RoundEquilibrium] = {}


def _first_pick_facts(state: GameState[Any]) -> dict[str, Any]:
    for replay in replayed(state):
        facts = replay.view(None).facts
        if facts["phase"] == "pick" and not facts["picked"]:
            return dict(facts)
    raise ValueError("The game has no pick phase.")


def _equilibrium_note(sample: RoundEquilibrium | None, players: int, language: str) -> str:
    """How the picks table's equilibria were computed and checked, in words (`language` "en" or "fr")."""
    french = language == "fr"
    if sample is None:
        return "Aucune manche jouée." if french else "No round was played."
    payoff = PAYOFFS[sample.whole_score][1 if french else 0]
    strategies, method = (sample.strategies[1], sample.method[1]) if french else (sample.strategies[0], sample.method[0])
    if players == 2:
        kind = ("un équilibre de Nash exact de la manche (elle peut en avoir d'autres, aux chances différentes)"
                if french else "one exact Nash equilibrium of the round (it may have others, with other chances)")
    else:
        kind = ("un epsilon-équilibre de la manche, epsilon le plus grand gain de la dernière colonne (elle peut en "
                "avoir d'autres)" if french else "an epsilon-equilibrium of the round, epsilon the largest gain in "
                "the last column (it may have others)")
    if french:
        return (f"Pour chaque manche, {kind} ; stratégies : {strategies} ; gain : {payoff} ; calcul : {method}. "
                "La dernière colonne dit ce que la place gagnerait en changeant seule de stratégie (0 à un "
                "équilibre exact).")
    return (f"For each round, {kind}; strategies: {strategies}; payoff: {payoff}; computed by {method}. The last "
            "column says what the seat would gain by changing its strategy alone (0 at an exact equilibrium).")


def _releases_table(state: GameState[Any], solve: Callable[[Mapping[str, Any]], RoundEquilibrium]) -> DebriefTable:
    """Every release beside the best response to the others' releases as they were made (`auction.
    release_values`), the round then played at its equilibrium (`solve`)."""
    from .auction import best_release_response, release_values

    rows = []
    history = list(state.history)
    for step, (replay, (seat, action)) in enumerate(zip(replayed(state, start=True), history)):
        if not action.startswith("release"):
            continue
        later = []
        for other, move in history[step + 1:]:
            if not move.startswith("release"):
                break
            later.append((other, move))
        whole = len(state.players) <= 3
        values = release_values(replay, seat, later, whole_score=whole, solve=solve)
        best, value = best_release_response(values)
        made = values[action]
        if made >= value - EXACT:  # the release made ties the best: it is a best response too
            best = action
        rows.append((replay.view(None).facts["round"], state.players[seat], action.removeprefix("release "),
                     best.removeprefix("release "), round(value - made, 2), action == best))
    payoff_en, payoff_fr = PAYOFFS[len(state.players) <= 3]
    return DebriefTable(
        "Releases beside the best response", "Les libérations face à la meilleure réponse",
        ("round", "who", "released", "best response", "points it adds", "followed"),
        ("manche", "qui", "a libéré", "meilleure réponse", "points qu'elle ajoute", "suivie"),
        tuple(rows),
        "The best release against the releases the other seats made: each release valued by what the seat expects "
        "once the round is played at its equilibrium (the picks table's) in the turn order it gives, and the points "
        f"the best adds to the release made (0 when followed); payoff: {payoff_en}. The seats after it are held to "
        "the releases they made, which the seat could not see.",
        "La meilleure libération face aux libérations des autres places : chaque libération estimée par ce que la "
        "place espère une fois la manche jouée à son équilibre (celui du tableau des choix) dans l'ordre du tour "
        f"qu'elle donne, et les points que la meilleure ajoute à la libération faite (0 si suivie) ; gain : "
        f"{payoff_fr}. Les "
        "places suivantes gardent les libérations qu'elles ont faites, que la place ne pouvait pas voir.",
        tuple((*row[:2], card_words(row[2], True), card_words(row[3], True), *row[4:]) for row in rows))


def _card_value(card: str) -> int:
    """The value of a released character, "red-3" -> -3."""
    return int(card[len(card.rstrip("+-0123456789")):])


def _picks_of_round(state: GameState[Any], round_number: int) -> dict[int, str]:
    """Every seat's pick in round `round_number`, read from the whole state's events."""
    picks, current = {}, 0
    for event in state.events:
        if event.kind == "layout":
            current = event.data["round"]
        elif event.kind == "pick" and current == round_number:
            picks[event.data["seat"]] = pick_name(tuple(event.data["colours"]))
    return picks


def pick_name(colours: tuple[str, ...]) -> str:
    """A pick's option id: "red blue" for two colours, "green 2x" for a colour with the 2x card."""
    first, second = colours
    return f"{first} 2x" if first == second else f"{first} {second}"


def _pick_question(view: View, seat: int) -> BeliefQuestion:
    rules = view.rules
    picks = picks_allowed(rules.double_card)
    names = tuple(pick_name(pick.colours) for pick in picks)
    name = view.players[seat]
    return BeliefQuestion(f"pick:{seat}@r{view.facts['round']}", f"What did {name} pick?",
                          f"Qu'a choisi {name} ?", names, tuple(_label(pick.colours, False) for pick in picks),
                          tuple(_label(pick.colours, True) for pick in picks))


def pick_words(name: str, french: bool) -> str:
    """A pick's option id ("red blue", "green 2x") in words: "rouge + bleu", "vert ×2"."""
    first, second = name.split()
    return _label((first, first if second == "2x" else second), french)


def card_words(card: str, french: bool) -> str:
    """A released character ("purple-4") or "none" in words: "violet-4", "aucune"."""
    if card == "none":
        return "aucune" if french else "none"
    colour = card.rstrip("+-0123456789")
    return f"{COLOURS_FR.get(colour, colour) if french else colour}{card[len(colour):]}"


def _label(colours: tuple[str, ...], french: bool) -> str:
    words = [COLOURS_FR[colour] if french else colour for colour in colours]
    return f"{words[0]} ×2" if colours[0] == colours[1] else f"{words[0]} + {words[1]}"


def _may_double(view: View, seat: int) -> bool:
    """Whether `seat` may pick with its 2x card this round: the rules deal one, and it comes back every round
    or the seat has not been seen playing it (a played 2x card is public)."""
    rules = view.rules
    if not rules.double_card or rules.double_card_each_round:
        return bool(rules.double_card)
    this_round = max((index for index, event in enumerate(view.log) if event.kind == "layout"), default=0)
    return not any(event.kind == "reveal" and event.actor == seat and event.data["double"]
                   for event in view.log[:this_round])


def _subject(question: BeliefQuestion) -> int:
    return int(question.key.split(":")[1].split("@")[0])


def _round(question: BeliefQuestion) -> int:
    return int(question.key.split("@r")[1])


MODEL = PickBeliefs()
