"""A whole class's beliefs pooled over its tables and rounds: each moment, the class beside each model of play.

A class plays one game at many tables (rooms) over rounds. Its debrief pools every table's answered questions:

- `once_per_seat`: each question of a table with every seat's answer once (a seat asked the same question by
  its game and by the teacher's ask keeps its latest answer), the base of every figure here;
- `moment_rows`: per moment of the game (a question's key without the seat it is about, so that "what is Ben's
  role?" and "what is Cleo's role?" at the same moment pool), over every table, the probability the class gave
  the truth beside each model's, each a mean over students with a 95 % interval (each student one draw, their
  answers averaged first: a talkative student does not narrow it), with how many students and answers stand
  behind it, and beside a previous class's figure when one is given;
- `furthest`: the few questions of one table where the class was furthest below the reference model, the
  summary a teacher teaches from;
- `lies_that_worked`: the rows of the games' own tables of lies (`DebriefTable.lies`) that moved beliefs;
- `table_names`: each table told apart by its round, its number and who sat there.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..beliefs import BeliefAnswer, DebriefTable, PlayModel
from ..tournament import mean_ci
from .debrief import answered, game_tables, models_of, under_model
from .export import BOT_LABEL_SPACE, ClassGame, ClassGames
from .games import ASKED

#: The most questions the summary names (a projector screen holds about this many lines beside the rest).
FURTHEST = 4


def base_key(key: str) -> str:
    """The game's own key behind a teacher's ask ("adler@h3#asked@12" -> "adler@h3")."""
    return key.partition(ASKED)[0]


def moment_of(key: str) -> str:
    """A question's moment: its base key without the seat it is about ("role:3@1" -> "role@1")."""
    return re.sub(r":\d+", "", base_key(key))


def once_per_seat(answers: Sequence[BeliefAnswer]) -> list[list[BeliefAnswer]]:
    """`answers` (with known truths) grouped by table and question (base key), each group holding every seat's
    latest answer once, in seat order; groups in the order first asked."""
    groups: dict[tuple[str, str], dict[int, BeliefAnswer]] = {}
    for answer in sorted(answers, key=lambda found: found.step):
        groups.setdefault((answer.room, base_key(answer.question.key)), {})[answer.seat] = answer
    return [[group[seat] for seat in sorted(group)] for group in groups.values()]


def options_of(group: Sequence[BeliefAnswer], language: str) -> list[tuple[str, str]]:
    """Every option any answer of `group` was offered, with its label in `language`: a seat is never offered
    itself ("who is Adler?"), so no one answer's options are all the question's."""
    found: dict[str, str] = {}
    for answer in group:
        for option, label in zip(answer.question.options, answer.question.labels_in(language)):
            found.setdefault(option, label)
    return sorted(found.items(), key=lambda item: _option_order(item[0]))


def _option_order(option: str) -> tuple[int, int | str]:
    return (0, int(option)) if option.isdigit() else (1, option)


def is_student(label: str) -> bool:
    """Whether an answer's label is a student's (a bot's label holds `BOT_LABEL_SPACE`)."""
    return BOT_LABEL_SPACE not in label


@dataclass(frozen=True)
class Figure:
    """A pooled figure: the mean over students (percent) with its 95 % interval (None when one student) and how
    many students and answers stand behind it."""

    mean: float | None
    low: float | None
    high: float | None
    students: int
    answers: int


def pooled(values: Sequence[tuple[str, float]]) -> Figure:
    """(label, percent) pairs as one `Figure`: each label's values averaged, then the mean over labels (its
    interval kept inside 0-100: a percent)."""
    by_label: dict[str, list[float]] = {}
    for label, value in values:
        by_label.setdefault(label, []).append(value)
    means = [sum(found) / len(found) for found in by_label.values()]
    mean, low, high = mean_ci(means)
    return Figure(_rounded(mean), _rounded(max(low, 0.0)), _rounded(min(high, 100.0)), len(means), len(values))


def _rounded(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 1)


def _on_truth(answer: BeliefAnswer, probabilities: Mapping[str, float] | None) -> float | None:
    return None if probabilities is None else 100 * probabilities.get(str(answer.truth), 0.0)


@dataclass(frozen=True)
class Moment:
    """One moment (or one table's question) of the class's game: its key, a question's words, the truth's
    label where one table's, how many tables asked it, the class's probability of the truth and each model's
    (by key), the previous class's, and the first and last steps it was asked at."""

    key: str
    text: str
    questions: int
    tables: int
    said: Figure
    models: Mapping[str, Figure]
    previous: Figure | None
    step: int
    last_step: int
    room: str = ""
    truth: str = ""

    def gap(self, reference: str) -> float:
        """How far the class sat below the reference model (percentage points; 0 when either is unknown)."""
        model = self.models.get(reference)
        if model is None or model.mean is None or self.said.mean is None:
            return 0.0
        return model.mean - self.said.mean


def _moment(key: str, groups: Sequence[Sequence[BeliefAnswer]], models: Sequence[PlayModel], language: str,
            previous: Figure | None = None) -> Moment:
    answers = [answer for group in groups for answer in group]
    reference = models[0].key if models else None
    said = pooled([(answer.label, 100 * answer.belief.get(str(answer.truth), 0.0)) for answer in answers
                   if is_student(answer.label)])
    under = {model.key: pooled([(answer.label, value) for answer in answers if is_student(answer.label)
                                and (value := _on_truth(answer, under_model(answer, model.key, reference)))
                                is not None]) for model in models}
    texts = list(dict.fromkeys(answer.question.text_in(language) for answer in answers))
    first = answers[0]
    truth = dict(options_of(answers, language)).get(str(first.truth), "") if len(groups) == 1 else ""
    return Moment(key, texts[0], len(texts), len({answer.room for answer in answers}), said, under, previous,
                  min(answer.step for answer in answers), max(answer.step for answer in answers), first.room if len(groups) == 1 else "", truth)


def question_groups(games: ClassGames) -> list[list[BeliefAnswer]]:
    """Every table's questions, every seat's answer once (`once_per_seat`), over the whole class."""
    return once_per_seat(answered(games))


def moment_rows(games: ClassGames, language: str = "en", previous: ClassGames | None = None) -> list[Moment]:
    """Per moment of the game, over every table and round: the class's probability of the truth beside each
    model's (`Moment`), beside `previous` class's when given; in the order of the game."""
    models = models_of(games)
    by_moment: dict[str, list[list[BeliefAnswer]]] = {}
    for group in question_groups(games):
        by_moment.setdefault(moment_of(group[0].question.key), []).append(group)
    before: dict[str, Figure] = {}
    if previous is not None:
        for moment in moment_rows(previous, language):
            before[moment.key] = moment.said
    rows = [_moment(key, groups, models, language, before.get(key)) for key, groups in by_moment.items()]
    return sorted(rows, key=lambda row: (row.step, row.key))


def furthest(games: ClassGames, language: str = "en", count: int = FURTHEST) -> list[Moment]:
    """The `count` questions of one table where the class gave the truth the least beside the reference model
    (largest gap first; only where the class sat below it)."""
    models = models_of(games)
    if not models:
        return []
    rows = [_moment(moment_of(group[0].question.key), [group], models, language) for group in question_groups(games)]
    below = [row for row in rows if row.gap(models[0].key) > 0]
    return sorted(below, key=lambda row: -row.gap(models[0].key))[:count]


@dataclass(frozen=True)
class Lie:
    """A lie that moved beliefs: the table it was told at, and its row's cells (as its game's table says it)."""

    room: str
    title: str
    columns: tuple[str, ...]
    cells: tuple[Any, ...]


def lies_that_worked(games: ClassGames, language: str = "en",
                     tables: Mapping[str, Sequence[DebriefTable]] | None = None) -> list[Lie]:
    """Every row of the games' tables of lies (`DebriefTable.lies`) whose lie worked (its last cell), by table;
    `tables`: each room's game tables when already made (by room code), else they are made here."""
    found = []
    for index, class_game in enumerate(games.games):
        own = tables.get(class_game.code) if tables is not None else None
        for table in (game_tables(games, index) if own is None else own):
            if not table.lies:
                continue
            title, columns, _ = table.in_language(language)
            rows = table.rows_fr if language == "fr" and table.rows_fr is not None else table.rows
            found += [Lie(class_game.code, title, columns, tuple(row)) for row in rows if row and row[-1] is True]
    return found


NAME_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"table": "Table {number}", "round": "round {round}", "colon": ": "},
    "fr": {"table": "Table {number}", "round": "manche {round}", "colon": " : "},
}


def table_names(games: ClassGames, rounds: Sequence[Sequence[str]] | None, language: str = "en", *,
                students: bool = True) -> dict[str, str]:
    """Each room's name for people: "Table 2, round 1: Ana, Ben, Cleo" (the students who sat there, unless
    `students` is False; bots are not named). `rounds`: each round's room codes in table order; None: every game
    one table of one round."""
    words = NAME_WORDS[language]
    by_code = {class_game.code: class_game for class_game in games.games}
    rounds = [[class_game.code for class_game in games.games]] if rounds is None else rounds
    names: dict[str, str] = {}
    for round_number, codes in enumerate(rounds, start=1):
        for number, code in enumerate(codes, start=1):
            class_game = by_code.get(code)
            who = ", ".join(label for label in class_game.labels if is_student(label)) if class_game else ""
            name = words["table"].format(number=number)
            if len(rounds) > 1:
                name += f", {words['round'].format(round=round_number)}"
            names[code] = f"{name}{words['colon']}{who}" if who and students else name
    return names


def students_of(games: ClassGames) -> set[str]:
    """The students who sat at the class's tables (bots left out)."""
    return {label for class_game in games.games for label in class_game.labels if is_student(label)}


def ordered(games: ClassGames, rounds: Sequence[Sequence[str]] | None) -> list[ClassGame]:
    """The class's games in the order of its rounds and tables."""
    if rounds is None:
        return list(games.games)
    by_code = {class_game.code: class_game for class_game in games.games}
    return [by_code[code] for codes in rounds for code in codes if code in by_code]


__all__ = ["FURTHEST", "Figure", "Lie", "Moment", "base_key", "furthest", "is_student", "lies_that_worked",
           "moment_of", "moment_rows", "once_per_seat", "options_of", "ordered", "pooled", "question_groups",
           "students_of", "table_names"]
