"""The debrief as HTML, one builder from one template (`templates/debrief.html`) for one table and a whole class.

`table_debrief_html` is a revealed room's debrief (the projector's and the dashboard's): each question with every
seat's answer once, its options those any seat was offered, the class's mean beside each model of play's; each
student's points; which model the class fits; the calibration; the game's own tables. `class_debrief_html` is the
whole class's, pooled over every table and round (`class_debrief`): a one-screen summary a teacher teaches from
(which model the class sits closest to, the questions where it was furthest below the reference, the lies that
moved beliefs), then on demand (`<details>`) every moment with intervals and counts, the whole class's tables,
and each table's own debrief, tables told apart by name. Everything in the page's language, escaped by the
template; no inline style (bars are `<meter>`s, coloured by the pages' stylesheet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..beliefs import RULE_SENTENCES, BeliefAnswer, DebriefTable, PlayModel, cell_text
from ..i18n import register, tr
from . import class_debrief
from .debrief import (FIT_COLUMNS, calibration_rows, fit_rows, fit_sentence, game_tables, interval_text, models_of,
                      score_rows, simulated_sentence, under_model)
from .export import ClassGames
from .games import title as game_title
from .pages import environment

_WORDS = {
    "en": {"debrief.title": "What the class believed", "debrief.rule": "Scoring rule",
           "debrief.class_mean": "Class (mean)", "debrief.under_mean": "{model} (mean)",
           "debrief.student": "Student", "debrief.points": "Points", "debrief.answers": "answers",
           "debrief.answer_one": "answer", "debrief.students": "students", "debrief.student_one": "student",
           "debrief.points_under": "Points {model}", "debrief.step": "step", "debrief.none":
           "No belief was stated in this game.", "debrief.brier": "quadratic (Brier)",
           "debrief.log": "logarithmic", "debrief.option": "Answer", "debrief.count": "Answers",
           "debrief.calibration": "Calibration: of the answers given about this much, how many were true",
           "debrief.said": "Given", "debrief.class_true": "Class: true", "debrief.under_true": "{model}: true",
           "debrief.models": "Models of play: a posterior is exact only under a model of how the others play",
           "debrief.fit": "Which model the class's beliefs fit", "debrief.truth": "truth",
           "debrief.class_title": "What the class believed: {game}",
           "debrief.counts": "{students} students · {tables} tables · {rounds} rounds · {answers} answers",
           "debrief.counts_one_round": "{students} students · {tables} tables · {answers} answers",
           "debrief.counts_one_table": "{students} students · one table · {answers} answers",
           "debrief.closest": "Closest: the posteriors {model}, {close} of 100 close (95 % interval {low}).",
           "debrief.furthest": "Where the class was furthest below the posteriors {model}",
           "debrief.the_class": "the class gave the truth",
           "debrief.lies": "Lies that moved beliefs", "debrief.more_lies": "and {count} more, in each table below",
           "debrief.unfinished": "{count} tables have not finished: their answers count once the game is over.",
           "debrief.unfinished_one": "One table has not finished: its answers count once the game is over.",
           "debrief.moments": "Every moment of the game, the whole class",
           "debrief.moments_note": "The probability given to the true answer: a mean over students (each "
                                   "student's answers averaged first), with its 95 % interval, and how many "
                                   "students and answers stand behind it.",
           "debrief.question": "Question", "debrief.tables": "Tables", "debrief.class_truth": "The class",
           "debrief.previous": "Previous class", "debrief.like_it": "and {count} like it",
           "debrief.whole_class": "The whole class: points, fit, calibration",
           "debrief.playing": "This table is still playing: its answers are shown once its game is over."},
    "fr": {"debrief.title": "Ce que la classe croyait", "debrief.rule": "Règle de score",
           "debrief.class_mean": "Classe (moyenne)", "debrief.under_mean": "{model} (moyenne)",
           "debrief.student": "Élève", "debrief.points": "Points", "debrief.answers": "réponses",
           "debrief.answer_one": "réponse", "debrief.students": "élèves", "debrief.student_one": "élève",
           "debrief.points_under": "Points {model}", "debrief.step": "étape", "debrief.none":
           "Aucune croyance n'a été donnée dans cette partie.", "debrief.brier": "quadratique (Brier)",
           "debrief.log": "logarithmique", "debrief.option": "Réponse", "debrief.count": "Réponses",
           "debrief.calibration": "Calibration : des réponses données à peu près ce pourcentage, combien "
                                  "étaient vraies",
           "debrief.said": "Donné", "debrief.class_true": "Classe : vrai", "debrief.under_true": "{model} : vrai",
           "debrief.models": "Modèles de jeu : un postérieur n'est exact que selon un modèle du jeu des autres",
           "debrief.fit": "Le modèle qui correspond aux croyances de la classe", "debrief.truth": "vérité",
           "debrief.class_title": "Ce que la classe croyait : {game}",
           "debrief.counts": "{students} élèves · {tables} tables · {rounds} manches · {answers} réponses",
           "debrief.counts_one_round": "{students} élèves · {tables} tables · {answers} réponses",
           "debrief.counts_one_table": "{students} élèves · une table · {answers} réponses",
           "debrief.closest": "Le plus proche : les postérieurs {model}, {close} sur 100 (à 95\u00a0% : {low}).",
           "debrief.furthest": "Là où la classe était le plus en dessous des postérieurs {model}",
           "debrief.the_class": "la classe a donné à la vérité",
           "debrief.lies": "Les mensonges qui ont fait bouger les croyances",
           "debrief.more_lies": "et {count} autres, dans chaque table ci-dessous",
           "debrief.unfinished": "{count} tables n'ont pas fini : leurs réponses comptent une fois la partie "
                                 "terminée.",
           "debrief.unfinished_one": "Une table n'a pas fini : ses réponses comptent une fois la partie terminée.",
           "debrief.moments": "Chaque moment de la partie, toute la classe",
           "debrief.moments_note": "La probabilité donnée à la vraie réponse : une moyenne sur les élèves (les "
                                   "réponses de chaque élève moyennées d'abord), avec son intervalle à 95\u00a0%, "
                                   "et combien d'élèves et de réponses la portent.",
           "debrief.question": "Question", "debrief.tables": "Tables", "debrief.class_truth": "La classe",
           "debrief.previous": "Classe précédente", "debrief.like_it": "et {count} comme elle",
           "debrief.whole_class": "Toute la classe : points, modèle, calibration",
           "debrief.playing": "Cette table joue encore : ses réponses sont montrées une fois sa partie terminée."},
}
register(_WORDS)

#: What follows a model's name in the list of models, and a colon, in each language.
COLON_AFTER = {"en": ": ", "fr": " : "}
COLON = {"en": ":", "fr": " :"}
#: The most lines of the summary's two lists (questions and lies: one projector screen), and of lies.
SUMMARY_LINES, SUMMARY_LIES = 6, 3


def _words(language: str) -> dict[str, Any]:
    words: dict[str, Any] = {key.removeprefix("debrief."): tr(key, language) for key in _WORDS["en"]}
    words.update(answers_word=words.pop("answers"), debrief=words.pop("title"), colon=COLON[language],
                 colon_after=COLON_AFTER[language], fit_columns=FIT_COLUMNS[language])
    return words


def _render(language: str, **values: Any) -> str:
    return environment().get_template("debrief.html").render(
        lang=language, words=_words(language), zip=zip,
        interval=lambda low, high: interval_text(low, high, language), **values)


def _models(models: Sequence[PlayModel], language: str) -> list[dict[str, str]]:
    return [{"key": model.key, "heading": model.heading(language), "sentence": model.sentence_in(language),
             "mean_heading": tr("debrief.under_mean", language).format(model=model.heading(language)),
             "points_heading": tr("debrief.points_under", language).format(model=model.heading(language)),
             "true_heading": tr("debrief.under_true", language).format(model=model.heading(language))}
            for model in models]


def _question(group: Sequence[BeliefAnswer], models: Sequence[PlayModel], language: str) -> dict[str, Any]:
    """One question of one table, every seat's answer once: per option (every option any seat was offered)
    the class's mean percent beside each model's."""
    reference = models[0].key if models else None
    options = []
    for option, label in class_debrief.options_of(group, language):
        said = 100 * sum(answer.belief.get(option, 0.0) for answer in group) / len(group)
        under = []
        for model in models:
            posteriors = [posterior for answer in group
                          if (posterior := under_model(answer, model.key, reference)) is not None]
            under.append(100 * sum(posterior.get(option, 0.0) for posterior in posteriors) / len(posteriors)
                         if posteriors else 0.0)
        options.append({"label": label, "true": any(answer.truth == option for answer in group), "said": said,
                        "models": under})
    steps = sorted({answer.step for answer in group})
    return {"text": group[0].question.text_in(language), "answers": len(group), "options": options,
            "when": f"{steps[0]}" if len(steps) == 1 else f"{steps[0]}–{steps[-1]}"}


def _game_table(table: DebriefTable, language: str) -> dict[str, Any]:
    title, columns, note = table.in_language(language)
    rows = table.rows_fr if language == "fr" and table.rows_fr is not None else table.rows
    return {"title": title, "columns": columns, "note": note,
            "rows": [[cell_text(value, language) for value in row] for row in rows]}


def _body(games: ClassGames, index: int | None, scoring: str, language: str,
          own: Sequence[DebriefTable]) -> dict[str, Any]:
    """What the template shows of one table (`index`) or of every game (None)."""
    models = models_of(games, index)
    chosen = ClassGames(games.games if index is None else [games[index]])
    scores = [{"label": row["label"], "points": row["points"], "answers": row["answers"],
               "models": [row[f"{model.key}_points"] for model in models]} for row in score_rows(chosen)]
    calibration = [{"bin": row["bin"], "cells": [(row["said_true"], row["said_count"])] +
                    [(row[f"{model.key}_true"], row[f"{model.key}_count"]) for model in models]}
                   for row in calibration_rows(games, index=index)] if scores else []
    playing = index is not None and not chosen[0].state().is_over
    groups = class_debrief.question_groups(chosen)
    return {"rule": tr(f"debrief.{scoring}", language), "rule_sentence": RULE_SENTENCES[scoring][language],
            "simulated": simulated_sentence(games, index, language), "models": _models(models, language),
            "questions": [_question(group, models, language) for group in groups] if index is not None else [],
            "whole_class": index is None, "playing": playing, "scores": scores, "fit": fit_rows(games, index, language) if scores else [],
            "fit_sentence": fit_sentence(games, index, language) if scores else "",
            "calibration": calibration, "game_tables": [_game_table(table, language) for table in own]}


def table_debrief_html(games: ClassGames, scoring: str, language: str, own: Sequence[DebriefTable] | None = None,
                       index: int = 0) -> str:
    """Game `index`'s debrief (a revealed room's: `games` holds its game, beliefs and all), with the game's own
    tables `own` (default `debrief.game_tables`, which replay the game: seconds for Commissario)."""
    tables = game_tables(games, index) if own is None else own
    return _render(language, kind="table", body=_body(games, index, scoring, language, tables))


def class_debrief_html(games: ClassGames, language: str = "en", *, scoring: str = "brier",
                       rounds: Sequence[Sequence[str]] | None = None,
                       own: Mapping[str, Sequence[DebriefTable]] | None = None, unfinished: int = 0,
                       previous: ClassGames | None = None, title: str | None = None) -> str:
    """A whole class's debrief: `games` every game of its tables (`rounds`: each round's room codes in table
    order), `own` each room's game tables when already made (else made here), `unfinished` how many tables
    are still playing, `previous` another class's games to set beside it (`ClassGames.load` of its file),
    `title` the game's name (default: that of the games)."""
    models = models_of(games)
    played = class_debrief.ordered(games, rounds)
    names = class_debrief.table_names(games, rounds, language)
    short = class_debrief.table_names(games, rounds, language, students=False)
    own_tables = {class_game.code: list(own[class_game.code]) if own is not None and class_game.code in own
                  else game_tables(games, games.games.index(class_game)) for class_game in played}
    reference = models[0] if models else None
    lies = class_debrief.lies_that_worked(games, language, own_tables)
    furthest = class_debrief.furthest(games, language,
                                      min(class_debrief.FURTHEST, SUMMARY_LINES - min(len(lies), SUMMARY_LIES)))
    fit = [row for row in fit_rows(games, None, language) if row["best"]]
    answers = sum(len(group) for group in class_debrief.question_groups(games))
    count_words = "debrief.counts" if rounds is not None and len(rounds) > 1 else \
        "debrief.counts_one_round" if len(played) > 1 else "debrief.counts_one_table"
    summary = {
        "title": tr("debrief.class_title", language).format(
            game=title if title is not None else game_title(played[0].game) if played else ""),
        "counts": tr(count_words, language).format(students=len(class_debrief.students_of(games)),
                                                    tables=len(played), rounds=len(rounds or [played]),
                                                    answers=answers),
        "fit": tr("debrief.closest", language).format(
            model=_heading(models, fit[0]["model"], language),
            close=_whole(fit[0]["closeness"]), low=f"{_whole(fit[0]['closeness_low'])}–"
                                                   f"{_whole(fit[0]['closeness_high'])}")
        if fit and len(models) > 1 else "",
        "unfinished": tr("debrief.unfinished" if unfinished > 1 else "debrief.unfinished_one",
                         language).format(count=unfinished) if unfinished else "",
        "reference": reference.heading(language) if reference else "",
        "furthest_title": tr("debrief.furthest", language).format(model=reference.heading(language))
        if reference else "",
        "furthest": [{"table": short.get(moment.room, moment.room), "who": names.get(moment.room, ""), "text": moment.text, "step": moment.step,
                      "truth": moment.truth, "said": moment.said,
                      "reference": moment.models[reference.key].mean or 0.0}
                     for moment in furthest] if reference else [],
        "lies_title": tr("debrief.lies", language),
        "lies": [{"table": short.get(lie.room, lie.room), "who": names.get(lie.room, ""), "said": _lie_words(lie, language),
                  "before": lie.cells[-3], "after": lie.cells[-2]} for lie in lies[:SUMMARY_LIES]],
        "more_lies": tr("debrief.more_lies", language).format(count=len(lies) - SUMMARY_LIES)
        if len(lies) > SUMMARY_LIES else ""}
    moments = [{"text": moment.text, "tables": moment.tables, "steps": _steps(moment.step, moment.last_step), "said": moment.said, "previous": moment.previous,
                "more": tr("debrief.like_it", language).format(count=moment.questions - 1)
                if moment.questions > 1 else "",
                "models": [moment.models[model.key] for model in models]}
               for moment in class_debrief.moment_rows(games, language, previous)]
    tables = [{"name": names.get(class_game.code, class_game.code),
               "body": _body(games, games.games.index(class_game), scoring, language, own_tables[class_game.code])}
              for class_game in played]
    return _render(language, kind="class", summary=summary, moments=moments, models=_models(models, language),
                   previous=previous is not None, body=_body(games, None, scoring, language, []), tables=tables)


def _steps(first: int, last: int) -> str:
    return f"{first}" if first == last else f"{first}–{last}"


def _heading(models: Sequence[PlayModel], key: str, language: str) -> str:
    return next((model.heading(language) for model in models if model.key == key), key)


def _whole(value: float | None) -> str:
    return "?" if value is None else f"{value:.0f}"


def _lie_words(lie: class_debrief.Lie, language: str) -> str:
    """A lie's row in a few words: its step, who told it and what (the first cells its game's table gives)."""
    step, who, said = (cell_text(cell, language) for cell in lie.cells[:3])
    quoted = f"«\u00a0{said}\u00a0»" if language == "fr" else f"“{said}”"
    return f"{tr('debrief.step', language)} {step}, {who}{COLON_AFTER[language]}{quoted}"


__all__ = ["class_debrief_html", "table_debrief_html"]
