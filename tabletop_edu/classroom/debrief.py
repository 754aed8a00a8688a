"""The debrief: what the class said it believed, beside what each student could know under each model of play.

Every answered belief question (`ClassGame.beliefs`) holds what the student said and the posteriors of their own
view at that moment under each of the game's models of play (`beliefs.PlayModel`: counting, Adler flips a coin,
random choices, level 1...), each exact under its model and none "the" exact one; once the game is over, the
truth. From these:

- `question_rows` / `draw_question`: one question of one game, each student's stated probability of the truth
  beside each model's, and the chance baseline (every option equally likely);
- `calibration_rows` / `draw_calibration`: stated probabilities in bins against how often those options were
  true, with counts (a calibrated class sits on the diagonal), each model's posteriors beside them;
- `summary_rows`: per question of a game, the class's mean probability of the truth beside each model's mean;
- `score_rows`: each student's mean points beside the points each model's posteriors would have scored;
- `fit_rows` / `fit_sentence`: which model the class's beliefs sit closest to (how close, and each model's own
  points, with 95 % intervals), said in words;
- `simulated_sentence`: says so when the students are simulated (`beliefs.SimulatedStudent`), as in the recorded
  class the notebooks teach from;
- `game_tables`: the game's own part (its belief model's `debrief`: which lies worked, the picks beside the
  equilibrium), reached through the game's plugin, so this module names no game;
- `record_class`: a class played by bots and simulated students (`beliefs.SimulatedStudent`), with no server, as
  `ClassGames` (what `room.games()` gives for a real class), for tests and the recorded class of the notebook.

Pictures are `knowledge.Figure`s (PNG in any kernel), as wide as the notebook's column, type 14 points or more as shown.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..beliefs import (BeliefAnswer, DebriefTable, PlayModel, SimulatedStudent, play_models, play_with_beliefs,
                       score)
from ..core import Bot
from ..registry import game as find_game
from ..tournament import mean_ci
from .export import ClassGame, ClassGames
from .games import short_name

#: The smallest type of the pictures, in points as a notebook shows them.
SMALLEST_TYPE = 14
SAID_COLOUR, CHANCE_COLOUR = "#1f77b4", "#555555"
#: One colour per model of play, in the order the game declares them.
MODEL_COLOURS = ("#ff7f0e", "#2ca02c", "#d62728", "#9467bd")

WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"said": "the student said", "chance": "chance",
           "p_truth": "probability given to the truth (%)", "truth": "truth", "stated": "stated probability (%)",
           "often": "how often it was true (%)", "class": "the class", "calibration": "Calibration",
           "calibrated": "calibrated", "colon": ": "},
    "fr": {"said": "ce que l'élève a dit", "chance": "hasard",
           "p_truth": "probabilité donnée à la vérité (%)", "truth": "vérité", "stated": "probabilité annoncée (%)",
           "often": "fréquence où c'était vrai (%)", "class": "la classe", "calibration": "Calibration",
           "calibrated": "bien calibré", "colon": " : "},
}


def answered(games: ClassGames, index: int | None = None) -> list[BeliefAnswer]:
    """The answers whose truth is known, of every game or of game `index`, oldest first."""
    chosen = games.games if index is None else [games[index]]
    return [answer for class_game in chosen for answer in class_game.beliefs if answer.truth is not None]


def models_of(games: ClassGames, index: int | None = None) -> tuple[PlayModel, ...]:
    """The models of play of game `index` (of every game, each key once, if None), the reference first."""
    chosen = games.games if index is None else [games[index]]
    found: dict[str, PlayModel] = {}
    for class_game in chosen:
        for play_model in play_models(_plugin_of(class_game).belief_model()):
            found.setdefault(play_model.key, play_model)
    return tuple(found.values())


def under_model(answer: BeliefAnswer, key: str, reference: str | None) -> Mapping[str, float] | None:
    """The answer's posterior under the model `key`: computed for it, or its stored one if `key` is its
    game's reference."""
    found = answer.posterior_under(key)
    return answer.posterior if found is None and key == reference else found


def _references(games: ClassGames, index: int | None) -> dict[str, str]:
    """Each game's reference model key, by the answers' game name."""
    chosen = games.games if index is None else [games[index]]
    return {short_name(class_game.game): play_models(_plugin_of(class_game).belief_model())[0].key
            for class_game in chosen}


def _percent(probabilities: Mapping[str, float] | None, option: str) -> float | None:
    return None if probabilities is None else round(100 * probabilities.get(option, 0.0), 1)


def _mean(values: Sequence[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return round(sum(present) / len(present), 1) if present else None


# ------------------------------------------------------------------------------------------ one question

def question_keys(games: ClassGames, index: int) -> list[str]:
    """The questions asked in game `index`, in the order they were first asked."""
    return list(dict.fromkeys(answer.question.key for answer in answered(games, index)))


def question_rows(games: ClassGames, index: int, key: str | None = None,
                  language: str = "en") -> list[dict[str, Any]]:
    """One row per answer of game `index` (of question `key` only, if given): who, the question, the truth,
    the probability the student gave it and each model's (percents, under the model's key), chance, and the
    points of the student and of each model (`<key>_points`)."""
    models = models_of(games, index)
    reference = models[0].key if models else None
    rows = []
    for answer in answered(games, index):
        if key is not None and answer.question.key != key:
            continue
        question, truth = answer.question, str(answer.truth)
        row = {"label": answer.label, "step": answer.step, "question": question.key,
               "text": question.text_in(language),
               "truth": question.labels_in(language)[question.options.index(truth)],
               "said": round(100 * answer.belief[truth], 1),
               **{model.key: _percent(under_model(answer, model.key, reference), truth) for model in models},
               "chance": round(100 / len(question.options), 1), "points": round(answer.score or 0.0, 1)}
        for model in models:
            under = under_model(answer, model.key, reference)
            row[f"{model.key}_points"] = None if under is None else round(_score_of(answer, under), 1)
        rows.append(row)
    return rows


def _score_of(answer: BeliefAnswer, probabilities: Mapping[str, float]) -> float:
    """The points `probabilities` would have scored on the answer's question, under its rule."""
    return score(probabilities, str(answer.truth), answer.rule)


def draw_question(games: ClassGames, index: int, key: str, language: str = "en") -> Any:
    """Each student's stated probability of the truth beside each model's, for question `key` of game `index`,
    with the chance baseline (a Figure)."""
    from ..knowledge.drawing import DPI, WIDTH, Figure, plain

    rows = question_rows(games, index, key, language)
    if not rows:
        raise ValueError(f"Game {index} has no answered question {key!r}; its questions: "
                         f"{', '.join(question_keys(games, index)) or 'none'}.")
    words, models = WORDS[language], models_of(games, index)
    bars = [("said", SAID_COLOUR, words["said"])] + [(model.key, colour, model.heading(language))
                                                    for model, colour in zip(models, MODEL_COLOURS)]
    height = 0.84 / len(bars)
    figure = Figure(figsize=(WIDTH, 2.2 + 0.3 * len(bars) * len(rows)), dpi=DPI)
    axes = figure.subplots()
    places = range(len(rows))
    for number, (name, colour, label) in enumerate(bars):
        offset = (number - (len(bars) - 1) / 2) * height
        axes.barh([y + offset for y in places], [row[name] or 0.0 for row in rows], height=height * 0.92,
                  color=colour, label=label)
    axes.axvline(rows[0]["chance"], color=CHANCE_COLOUR, linestyle="--", linewidth=2, label=words["chance"])
    axes.set_yticks(list(places), labels=[plain(row["label"]) for row in rows], fontsize=SMALLEST_TYPE + 1)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.tick_params(axis="x", labelsize=SMALLEST_TYPE)
    axes.set_xlabel(words["p_truth"], fontsize=SMALLEST_TYPE + 1)
    title = f"{rows[0]['text']} ({words['truth']}{words['colon']}{rows[0]['truth']})"
    axes.set_title(plain(title), fontsize=SMALLEST_TYPE + 4)
    axes.legend(fontsize=SMALLEST_TYPE, loc="best", framealpha=0.9)  # where it hides the fewest bars
    figure.tight_layout()
    return figure


def summary_rows(games: ClassGames, index: int, language: str = "en") -> list[dict[str, Any]]:
    """One row per question of game `index`: its text, the truth, how many answered, and the class's mean
    probability of the truth beside each model's mean (percents, under the model's key)."""
    models = models_of(games, index)
    rows = []
    for key in question_keys(games, index):
        answers = question_rows(games, index, key, language)
        rows.append({"question": key, "text": answers[0]["text"], "truth": answers[0]["truth"],
                     "answers": len(answers), "said": round(sum(row["said"] for row in answers) / len(answers), 1),
                     **{model.key: _mean([row[model.key] for row in answers]) for model in models},
                     "chance": answers[0]["chance"]})
    return rows


# ------------------------------------------------------------------------------------------ calibration

def calibration_rows(games: ClassGames, bins: int = 5, index: int | None = None) -> list[dict[str, Any]]:
    """Every option of every answered question (of game `index` only, if given), its stated probability in one
    of `bins` equal bins: per bin, how many, the mean stated probability and how often those options were true
    (percents, `said_count`, `said_mean`, `said_true`), and the same for each game's reference posteriors
    (`reference_count`...) and for each model's (`<key>_count`...; a bin with no option of theirs has None)."""
    references = _references(games, index)

    def binned(of: str | None) -> list[list[tuple[float, bool]]]:
        found: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
        for answer in answered(games, index):
            said = answer.belief if of is None else answer.posterior if of == "reference" else \
                under_model(answer, of, references.get(short_name(answer.game)))
            if said is None:
                continue
            for option in answer.question.options:
                p = said.get(option, 0.0)
                found[min(int(p * bins), bins - 1)].append((p, option == answer.truth))
        return found

    names = {"said": binned(None), "reference": binned("reference"),
             **{model.key: binned(model.key) for model in models_of(games, index)}}
    rows = []
    for number in range(bins):
        row: dict[str, Any] = {"bin": f"{100 * number // bins}-{100 * (number + 1) // bins} %"}
        for name, cells in ((name, found[number]) for name, found in names.items()):
            row[f"{name}_count"] = len(cells)
            row[f"{name}_mean"] = round(100 * sum(p for p, _ in cells) / len(cells), 1) if cells else None
            row[f"{name}_true"] = round(100 * sum(hit for _, hit in cells) / len(cells), 1) if cells else None
        rows.append(row)
    return rows


def draw_calibration(games: ClassGames, bins: int = 5, index: int | None = None, language: str = "en") -> Any:
    """Stated probability against how often it was true (every game, or game `index`), the class and each
    model's posteriors, the class's and the reference model's points labelled with their counts; the diagonal
    is perfect calibration (a Figure)."""
    from ..knowledge.drawing import DPI, WIDTH, Figure

    words = WORDS[language]
    rows = calibration_rows(games, bins, index)
    models = models_of(games, index)
    figure = Figure(figsize=(WIDTH, 6.4), dpi=DPI)
    axes = figure.subplots()
    axes.plot([0, 100], [0, 100], color=CHANCE_COLOUR, linestyle="--", linewidth=2, label=words["calibrated"])
    lines = [("said", SAID_COLOUR, words["class"])] + [(model.key, colour, model.heading(language))
                                                       for model, colour in zip(models, MODEL_COLOURS)]
    for number, (name, colour, label) in enumerate(lines):
        points = [(row[f"{name}_mean"], row[f"{name}_true"], row[f"{name}_count"]) for row in rows
                  if row[f"{name}_count"]]
        axes.plot([x for x, _, _ in points], [y for _, y, _ in points], marker="o", markersize=10, linewidth=2.5,
                  color=colour, label=label)
        if number > 1:
            continue  # the counts of the class (up and left) and of the reference model (down and right)
        above = name == "said"
        for x, y, count in points:
            axes.annotate(str(count), (x, y), textcoords="offset points", xytext=(-10, 10) if above else (10, -24),
                          ha="right" if above else "left", fontsize=SMALLEST_TYPE, color=colour)
    axes.set_xlim(-2, 102)
    axes.set_ylim(-2, 108)
    axes.tick_params(labelsize=SMALLEST_TYPE)
    axes.set_xlabel(words["stated"], fontsize=SMALLEST_TYPE + 1)
    axes.set_ylabel(words["often"], fontsize=SMALLEST_TYPE + 1)
    axes.set_title(words["calibration"], fontsize=SMALLEST_TYPE + 4)
    axes.legend(fontsize=SMALLEST_TYPE, loc="upper left")
    figure.tight_layout()
    return figure


# ------------------------------------------------------------------------------------------ scores

def score_rows(games: ClassGames) -> list[dict[str, Any]]:
    """Each student (label) with answered questions: how many, their mean points, the mean points the
    posteriors of their views would have scored under each model (`<key>_points`, over the answers of the
    games that have that model) and under each game's reference model (`reference_points`), and the gap
    (reference minus said), best first."""
    references = _references(games, None)
    keys = [model.key for model in models_of(games)]
    by_label: dict[str, list[BeliefAnswer]] = {}
    for answer in answered(games):
        by_label.setdefault(answer.label, []).append(answer)
    rows = []
    for label, answers in by_label.items():
        said = sum(answer.score or 0.0 for answer in answers) / len(answers)
        reference = sum(answer.posterior_score or 0.0 for answer in answers) / len(answers)
        row: dict[str, Any] = {"label": label, "answers": len(answers), "points": round(said, 1),
                               "reference_points": round(reference, 1), "gap": round(reference - said, 1) + 0.0}
        for key in keys:
            scored = [_score_of(answer, under) for answer in answers
                      if (under := under_model(answer, key, references.get(short_name(answer.game)))) is not None]
            row[f"{key}_points"] = round(sum(scored) / len(scored), 1) if scored else None
        rows.append(row)
    return sorted(rows, key=lambda row: (-row["points"], row["label"]))


# ------------------------------------------------------------------------------------------ which model fits

def closeness(belief: Mapping[str, float], posterior: Mapping[str, float]) -> float:
    """How close a stated belief is to a model's posterior, out of 100: 100 x (1 - sum of (p - q)^2 / 2), 100 when
    the student said exactly the model's posterior, 0 when each was sure of a different answer."""
    options = set(belief) | set(posterior)
    return 100 * (1 - sum((belief.get(o, 0.0) - posterior.get(o, 0.0)) ** 2 for o in options) / 2)


def fit_rows(games: ClassGames, index: int | None, language: str = "en") -> list[dict[str, Any]]:
    """One row per model of play of game `index`: its key, name and sentence in `language`, how many answers,
    how close the class's beliefs sit to its posteriors (`closeness`: mean and 95 % Student-t interval, each
    answer counted as one draw) and the points its own posteriors would have scored (mean and interval), and
    whether it is the model the class sits closest to (`best`)."""
    models = models_of(games, index)
    reference = models[0].key if models else None
    rows: list[dict[str, Any]] = []
    for model in models:
        pairs = [(answer, under) for answer in answered(games, index)
                 if (under := under_model(answer, model.key, reference)) is not None]
        close = mean_ci([closeness(answer.belief, under) for answer, under in pairs])
        points = mean_ci([_score_of(answer, under) for answer, under in pairs])
        rows.append({"model": model.key, "name": model.name_in(language), "sentence": model.sentence_in(language),
                     "answers": len(pairs), "closeness": _round(close[0]), "closeness_low": _round(close[1]),
                     "closeness_high": _round(close[2]), "points": _round(points[0]), "points_low": _round(points[1]),
                     "points_high": _round(points[2]), "best": False})
    ranked = [row for row in rows if row["closeness"] is not None]
    if ranked:
        max(ranked, key=lambda row: float(row["closeness"]))["best"] = True
    return rows


def _round(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 1)


FIT_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"closest": "The class's beliefs sit closest to the posteriors {under} ({close} of 100 close, 95 % "
                      "interval {low} to {high}, {answers} answers).",
           "next": "Next: {name} ({close}, {low} to {high}).",
           "overlap": "The two intervals overlap: these answers do not tell the two models apart.",
           "apart": "The two intervals do not overlap.",
           "one": "This game's posteriors were computed under one model only: nothing to compare.",
           "none": "No answer with a known truth yet."},
    "fr": {"closest": "Les croyances de la classe sont les plus proches des postérieurs {under} ({close} sur 100 "
                      "de proximité, intervalle à 95\u00a0% de {low} à {high}, {answers} réponses).",
           "next": "Ensuite : {name} ({close}, de {low} à {high}).",
           "overlap": "Les deux intervalles se chevauchent : ces réponses ne départagent pas les deux modèles.",
           "apart": "Les deux intervalles ne se chevauchent pas.",
           "one": "Les postérieurs de ce jeu n'ont été calculés que selon un modèle : rien à comparer.",
           "none": "Aucune réponse dont la vérité est connue pour l'instant."},
}


def fit_sentence(games: ClassGames, index: int | None, language: str = "en") -> str:
    """Which model of play the class's beliefs in game `index` (every game: None) sit closest to, and whether the next one is told
    apart by the 95 % intervals, in words."""
    words = FIT_WORDS[language]
    rows = [row for row in fit_rows(games, index, language) if row["closeness"] is not None]
    if not rows:
        return words["none"]
    if len(rows) == 1:
        return words["one"]
    models = {model.key: model for model in models_of(games, index)}
    ranked = sorted(rows, key=lambda row: -row["closeness"])
    best, second = ranked[0], ranked[1]

    def number(value: float | None) -> str:
        text = "?" if value is None else f"{value:.1f}"
        return text.replace(".", ",") if language == "fr" else text

    said = words["closest"].format(under=models[best["model"]].heading(language), close=number(best["closeness"]),
                                   low=number(best["closeness_low"]), high=number(best["closeness_high"]),
                                   answers=best["answers"])
    said += " " + words["next"].format(name=second["name"], close=number(second["closeness"]),
                                       low=number(second["closeness_low"]), high=number(second["closeness_high"]))
    bounds = (best["closeness_low"], second["closeness_high"])
    if None not in bounds:
        said += " " + words["apart" if bounds[0] > bounds[1] else "overlap"]
    return said


SIMULATED_WORDS: Mapping[str, str] = {
    "en": "These students are simulated, not real: each answers from the posterior {reference} with a "
          "style of its own ({styles}). A simulated \"bayesian\" says that posterior, so it fits them by "
          "construction.",
    "fr": "Ces élèves sont simulés, pas réels : chacun répond à partir du postérieur {reference}, avec un style "
          "à lui ({styles}). Un « bayesian » simulé dit ce postérieur : il lui correspond par construction.",
}


def simulated_sentence(games: ClassGames, index: int | None = None, language: str = "en") -> str:
    """A sentence saying the students of `games` (of game `index`) are simulated (`beliefs.SimulatedStudent`,
    marked in each answer's `extra`), naming their styles; "" for a real class."""
    chosen = games.games if index is None else [games[index]]
    styles = sorted({str(answer.extra["simulated"]) for class_game in chosen for answer in class_game.beliefs
                     if "simulated" in answer.extra})
    if not styles:
        return ""
    models = models_of(games, index)
    reference = models[0].heading(language) if models else ""
    if index is None and len({model.key for model in models}) > 1:
        reference = ("selon le modèle de référence de chaque jeu" if language == "fr"
                     else "under each game's reference model")
    return SIMULATED_WORDS[language].format(reference=reference, styles=", ".join(styles))


# ------------------------------------------------------------------------------------------ the game's own part

def game_tables(games: ClassGames, index: int) -> list[DebriefTable]:
    """Game `index`'s own debrief tables (its belief model's `debrief`), once the game is over; [] for a game
    without them."""
    class_game = games[index]
    state = class_game.state()
    model = _plugin_of(class_game).belief_model()
    debrief = getattr(model, "debrief", None)
    return list(debrief(state)) if debrief is not None and state.is_over else []


def _plugin_of(class_game: ClassGame) -> Any:
    return find_game(short_name(class_game.game))


# ------------------------------------------------------------------------------------------ for a page

#: The columns of the table of which model fits (`fit_rows`), in each language.
FIT_COLUMNS: Mapping[str, tuple[str, ...]] = {
    "en": ("model of play", "what it assumes", "answers", "closeness to the class", "95 % interval",
           "its own points", "95 % interval"),
    "fr": ("modèle de jeu", "ce qu'il suppose", "réponses", "proximité avec la classe", "intervalle à 95\u00a0%",
           "ses propres points", "intervalle à 95\u00a0%"),
}


def interval_text(low: float | None, high: float | None, language: str) -> str:
    """An interval as a page shows it ("61.2–70.4", "61,2–70,4"), "—" when unknown."""
    if low is None or high is None:
        return "—"
    text = f"{low:.1f}–{high:.1f}"
    return text.replace(".", ",") if language == "fr" else text


# ------------------------------------------------------------------------------------------ a simulated class

@dataclass(frozen=True)
class SimulatedTable:
    """One game of a simulated class: the game (registered name), the bots that play each seat, the seats'
    names, the students answering the belief questions (seat -> student), the seed and the rules."""

    game: str
    bots: Sequence[Bot]
    names: Sequence[str]
    students: Mapping[int, SimulatedStudent]
    seed: int
    rules: Any = None
    rule: str = "brier"
    title: str = ""


def record_class(tables: Sequence[SimulatedTable]) -> ClassGames:
    """Play `tables` (room i+1 each, codes "SIM1"...) with their students answering, and give the class's
    games as a server's `room.games()` would: records, moves (one second apart: simulated), beliefs."""
    played = []
    for number, table in enumerate(tables, start=1):
        code = f"SIM{number}"
        state, answers = play_with_beliefs(table.game, list(table.names), table.bots, table.students,
                                           seed=table.seed, rules=table.rules, room=code, number=number,
                                           rule=table.rule)
        moves = tuple((step, seat, action, table.names[seat], float(step))
                      for step, (seat, action) in enumerate(state.history))
        played.append(ClassGame(code, number, table.title or find_game(table.game).title, tuple(table.names),
                                state.record(), moves, tuple(answers)))
    return ClassGames(played)


__all__ = ["FIT_COLUMNS", "SimulatedTable", "answered", "calibration_rows", "closeness", "draw_calibration",
           "draw_question", "fit_rows", "fit_sentence", "game_tables", "interval_text", "models_of", "question_keys",
           "question_rows", "record_class", "score_rows", "simulated_sentence", "summary_rows"]
