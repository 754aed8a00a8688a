"""The debrief: what the class said it believed, beside what each student could know, from the class's own games.

Every answered belief question (`ClassGame.beliefs`) holds what the student said and the exact posterior of
their own view at that moment; once the game is over, the truth. From these:

- `question_rows` / `draw_question`: one question of one game, each student's stated probability of the truth
  beside their exact posterior's, and the chance baseline (every option equally likely);
- `calibration_rows` / `draw_calibration`: stated probabilities in bins against how often those options were
  true, with counts (a calibrated class sits on the diagonal), the exact posteriors beside them;
- `summary_rows`: per question of a game, the class's mean probability of the truth beside the exact
  posteriors' mean;
- `score_rows`: each student's mean points beside the points their exact posteriors would have scored, and the
  gap (what reasoning exactly would have gained them);
- `game_tables`: the game's own part (its belief model's `debrief`: which lies worked, the picks beside the
  equilibrium), reached through the game's plugin, so this module names no game;
- `debrief_html`: a game's debrief as plain escaped HTML tables, for the projector page and the dashboard;
- `record_class`: a class played by bots and simulated students (`beliefs.SimulatedStudent`), with no server, as
  `ClassGames` (what `room.games()` gives for a real class), for tests and the recorded class of the notebook.

Pictures are `knowledge.Figure`s (PNG in any kernel), 1280 pixels wide, type 14 points or more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..beliefs import BeliefAnswer, DebriefTable, SimulatedStudent, play_with_beliefs
from ..core import Bot
from ..registry import game as find_game
from .export import ClassGame, ClassGames
from .games import short_name

#: Width of every picture in inches at `DPI`: 1280 pixels, a projector's width.
WIDTH, DPI = 12.8, 100
#: The smallest type of the pictures, in points at 1280 pixels.
SMALLEST_TYPE = 14
SAID_COLOUR, EXACT_COLOUR, CHANCE_COLOUR = "#1f77b4", "#ff7f0e", "#555555"

WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"said": "the student said", "exact": "their view's exact posterior", "chance": "chance",
           "p_truth": "probability given to the truth (%)", "truth": "truth", "stated": "stated probability (%)",
           "often": "how often it was true (%)", "class": "the class", "calibration": "Calibration",
           "calibrated": "calibrated", "colon": ": "},
    "fr": {"said": "ce que l'élève a dit", "exact": "le posterior exact de son point de vue", "chance": "hasard",
           "p_truth": "probabilité donnée à la vérité (%)", "truth": "vérité", "stated": "probabilité annoncée (%)",
           "often": "fréquence où c'était vrai (%)", "class": "la classe", "calibration": "Calibration",
           "calibrated": "bien calibré", "colon": " : "},
}


def answered(games: ClassGames, index: int | None = None) -> list[BeliefAnswer]:
    """The answers whose truth is known, of every game or of game `index`, oldest first."""
    chosen = games.games if index is None else [games[index]]
    return [answer for class_game in chosen for answer in class_game.beliefs if answer.truth is not None]


# ------------------------------------------------------------------------------------------ one question

def question_keys(games: ClassGames, index: int) -> list[str]:
    """The questions asked in game `index`, in the order they were first asked."""
    return list(dict.fromkeys(answer.question.key for answer in answered(games, index)))


def question_rows(games: ClassGames, index: int, key: str | None = None,
                  language: str = "en") -> list[dict[str, Any]]:
    """One row per answer of game `index` (of question `key` only, if given): who, the question, the truth,
    the probability the student gave it and the exact posterior's (percents), chance, and both scores."""
    rows = []
    for answer in answered(games, index):
        if key is not None and answer.question.key != key:
            continue
        question, truth = answer.question, str(answer.truth)
        rows.append({"label": answer.label, "step": answer.step, "question": question.key,
                     "text": question.text_in(language),
                     "truth": question.labels_in(language)[question.options.index(truth)],
                     "said": round(100 * answer.belief[truth], 1), "exact": round(100 * answer.posterior[truth], 1),
                     "chance": round(100 / len(question.options), 1), "points": round(answer.score or 0.0, 1),
                     "exact_points": round(answer.posterior_score or 0.0, 1)})
    return rows


def draw_question(games: ClassGames, index: int, key: str, language: str = "en") -> Any:
    """Each student's stated probability of the truth beside their exact posterior's, for question `key` of
    game `index`, with the chance baseline (a Figure)."""
    from ..knowledge import Figure
    from ..knowledge.drawing import plain

    rows = question_rows(games, index, key, language)
    if not rows:
        raise ValueError(f"Game {index} has no answered question {key!r}; its questions: "
                         f"{', '.join(question_keys(games, index)) or 'none'}.")
    words = WORDS[language]
    figure = Figure(figsize=(WIDTH, 1.6 + 0.62 * len(rows)), dpi=DPI)
    axes = figure.subplots()
    places = range(len(rows))
    axes.barh([y - 0.2 for y in places], [row["said"] for row in rows], height=0.38, color=SAID_COLOUR,
              label=words["said"])
    axes.barh([y + 0.2 for y in places], [row["exact"] for row in rows], height=0.38, color=EXACT_COLOUR,
              label=words["exact"])
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
    probability of the truth beside the mean of their exact posteriors (percents)."""
    rows = []
    for key in question_keys(games, index):
        answers = question_rows(games, index, key, language)
        rows.append({"question": key, "text": answers[0]["text"], "truth": answers[0]["truth"],
                     "answers": len(answers), "said": round(sum(row["said"] for row in answers) / len(answers), 1),
                     "exact": round(sum(row["exact"] for row in answers) / len(answers), 1),
                     "chance": answers[0]["chance"]})
    return rows


# ------------------------------------------------------------------------------------------ calibration

def calibration_rows(games: ClassGames, bins: int = 5, index: int | None = None) -> list[dict[str, Any]]:
    """Every option of every answered question (of game `index` only, if given), its stated probability in one
    of `bins` equal bins: per bin,
    how many, the mean stated probability and how often those options were true (percents), and the same for
    the exact posteriors (a bin with no option of theirs has None)."""
    def binned(of: str) -> list[list[tuple[float, bool]]]:
        found: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
        for answer in answered(games, index):
            said = answer.belief if of == "said" else answer.posterior
            for option in answer.question.options:
                found[min(int(said[option] * bins), bins - 1)].append((said[option], option == answer.truth))
        return found

    said, exact = binned("said"), binned("exact")
    rows = []
    for number in range(bins):
        row: dict[str, Any] = {"bin": f"{100 * number // bins}-{100 * (number + 1) // bins} %"}
        for name, cells in (("said", said[number]), ("exact", exact[number])):
            row[f"{name}_count"] = len(cells)
            row[f"{name}_mean"] = round(100 * sum(p for p, _ in cells) / len(cells), 1) if cells else None
            row[f"{name}_true"] = round(100 * sum(hit for _, hit in cells) / len(cells), 1) if cells else None
        rows.append(row)
    return rows


def draw_calibration(games: ClassGames, bins: int = 5, index: int | None = None, language: str = "en") -> Any:
    """Stated probability against how often it was true (every game, or game `index`), the class and the exact
    posteriors, each point labelled with its count; the diagonal is perfect calibration (a Figure)."""
    from ..knowledge import Figure

    words = WORDS[language]
    rows = calibration_rows(games, bins, index)
    figure = Figure(figsize=(WIDTH, 7.2), dpi=DPI)
    axes = figure.subplots()
    axes.plot([0, 100], [0, 100], color=CHANCE_COLOUR, linestyle="--", linewidth=2, label=words["calibrated"])
    for name, colour, label in (("said", SAID_COLOUR, words["class"]), ("exact", EXACT_COLOUR, words["exact"])):
        points = [(row[f"{name}_mean"], row[f"{name}_true"], row[f"{name}_count"]) for row in rows
                  if row[f"{name}_count"]]
        axes.plot([x for x, _, _ in points], [y for _, y, _ in points], marker="o", markersize=10, linewidth=2.5,
                  color=colour, label=label)
        above = name == "said"  # the class's counts up and left of its points, the posteriors' down and right
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
    """Each student (label) with answered questions: how many, their mean points, the mean points their exact
    posteriors would have scored, and the gap (exact minus said), best first."""
    by_label: dict[str, list[BeliefAnswer]] = {}
    for answer in answered(games):
        by_label.setdefault(answer.label, []).append(answer)
    rows = []
    for label, answers in by_label.items():
        said = sum(answer.score or 0.0 for answer in answers) / len(answers)
        exact = sum(answer.posterior_score or 0.0 for answer in answers) / len(answers)
        rows.append({"label": label, "answers": len(answers), "points": round(said, 1),
                     "exact_points": round(exact, 1), "gap": round(exact - said, 1) + 0.0})
    return sorted(rows, key=lambda row: (-row["points"], row["label"]))


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

HEADINGS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "en": {"summary": ("question", "truth", "answers", "the class said (%)", "exact posteriors (%)", "chance (%)"),
           "scores": ("student", "answers", "points", "exact posterior's points", "gap"),
           "titles": ("What the class believed, beside what it could know", "Points out of 100")},
    "fr": {"summary": ("question", "vérité", "réponses", "la classe a dit (%)", "posteriors exacts (%)",
                       "hasard (%)"),
           "scores": ("élève", "réponses", "points", "points du posterior exact", "écart"),
           "titles": ("Ce que la classe a cru, à côté de ce qu'elle pouvait savoir", "Points sur 100")},
}


def debrief_html(games: ClassGames, index: int, language: str = "en", *, game_parts: bool = True) -> str:
    """Game `index`'s debrief as plain, escaped HTML tables (for the projector page and the dashboard): each
    question's class mean beside the exact posteriors' mean, each student's points, and the game's own tables
    (`game_parts`; Commissario's take seconds to compute: build this page off the server's event loop)."""
    headings = HEADINGS[language]
    summary = tuple((row["text"], row["truth"], row["answers"], row["said"], row["exact"], row["chance"])
                    for row in summary_rows(games, index, language))
    scores = tuple((row["label"], row["answers"], row["points"], row["exact_points"], row["gap"])
                   for row in score_rows(ClassGames([games[index]])))
    parts = [DebriefTable(title, title, columns, columns, rows, "", "")
             for title, columns, rows in ((headings["titles"][0], headings["summary"], summary),
                                          (headings["titles"][1], headings["scores"], scores))]
    if game_parts:
        parts += game_tables(games, index)
    return "".join(part.html(language) for part in parts)


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


__all__ = ["SimulatedTable", "answered", "calibration_rows", "debrief_html", "draw_calibration", "draw_question",
           "game_tables", "question_keys", "question_rows", "record_class", "score_rows", "summary_rows"]
