"""What the class's pages show of beliefs: a seat's own questions, its own points after the reveal, and the
debrief (the class's beliefs beside the posteriors under each model of play, named in words, each student's
points, which model the class fits) for the projector and the teacher once the table is revealed.

A seat's panel is built from that seat's questions and its own stated beliefs only; the debrief, which shows
every seat's, is built only for a revealed room. Names reach the HTML escaped; the seat's script sets every
text of its panel with `textContent`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..beliefs import (RULE_SENTENCES, BeliefAnswer, BeliefQuestion, DebriefTable, PlayModel, cell_text,
                       rounded_percents)
from ..i18n import register, tr
from .debrief import (HEADINGS, MODEL_COLOURS, calibration_rows, fit_rows, fit_sentence, game_tables,
                      interval_text, models_of, score_rows, simulated_sentence, under_model)
from .export import ClassGames

_WORDS = {
    "en": {"belief.title": "What do you believe?", "belief.total": "Total", "belief.send": "Send",
           "belief.optional": "Optional: the game goes on whether you answer or not.",
           "belief.received": "Received: thank you.", "belief.answered": "Answered",
           "belief.less": "−10", "belief.more": "+10", "belief.clear": "Clear",
           "belief.your_points": "Your points", "belief.debrief": "What the class believed",
           "belief.question": "Question", "belief.class": "Class (mean)", "belief.under": "{model} (mean)",
           "belief.truth": "True answer", "belief.student": "Student", "belief.points": "Points",
           "belief.answers": "answers", "belief.bayes": "Points {model}", "belief.step": "step",
           "belief.rule": "Scoring rule", "belief.none": "No belief was stated in this game.",
           "belief.brier": "quadratic (Brier)", "belief.log": "logarithmic", "belief.colon": ":",
           "belief.option": "Answer", "belief.count": "Answers",
           "belief.calibration": "Calibration: of the answers given about this much, how many were true",
           "belief.said": "Given", "belief.class_true": "Class: true", "belief.under_true": "{model}: true",
           "belief.models": "Models of play: a posterior is exact only under a model of how the others play",
           "belief.fit": "Which model the class's beliefs fit",
           "belief.until_full": "to send, make it 100\u00a0%", "belief.choices": "{count} answers: open to choose",
           "belief.kept": "Kept: sent when the network is back."},
    "fr": {"belief.title": "Que croyez-vous ?", "belief.total": "Total", "belief.send": "Envoyer",
           "belief.optional": "Facultatif : la partie continue que vous répondiez ou non.",
           "belief.received": "Reçu : merci.", "belief.answered": "Répondu",
           "belief.less": "−10", "belief.more": "+10", "belief.clear": "Effacer",
           "belief.your_points": "Vos points", "belief.debrief": "Ce que la classe croyait",
           "belief.question": "Question", "belief.class": "Classe (moyenne)", "belief.under": "{model} (moyenne)",
           "belief.truth": "Vraie réponse", "belief.student": "Élève", "belief.points": "Points",
           "belief.answers": "réponses", "belief.bayes": "Points {model}", "belief.step": "étape",
           "belief.rule": "Règle de score", "belief.none": "Aucune croyance n'a été donnée dans cette partie.",
           "belief.brier": "quadratique (Brier)", "belief.log": "logarithmique", "belief.colon": " :",
           "belief.option": "Réponse", "belief.count": "Réponses",
           "belief.calibration": "Calibration : des réponses données à peu près ce pourcentage, combien "
                                 "étaient vraies",
           "belief.said": "Donné", "belief.class_true": "Classe : vrai", "belief.under_true": "{model} : vrai",
           "belief.models": "Modèles de jeu : un postérieur n'est exact que selon un modèle du jeu des autres",
           "belief.fit": "Le modèle qui correspond aux croyances de la classe",
           "belief.until_full": "pour envoyer, atteignez 100\u00a0%",
           "belief.choices": "{count} réponses : ouvrir pour choisir",
           "belief.kept": "Gardée : envoyée au retour du réseau."},
}
register(_WORDS)


def belief_words(language: str) -> dict[str, str]:
    """The panel's words in `language`, for the seat's script."""
    return {key: tr(key, language) for key in _WORDS["en"]}


def belief_panel(questions: Sequence[BeliefQuestion], answered: Mapping[str, Any], step: int,
                 scoring: str, language: str) -> dict[str, Any]:
    """A seat's questions now, as its page draws them: each option with its label, whether the seat answered it
    (and what it said), the scoring rule's sentence. From this seat's questions and beliefs only."""
    rows = []
    for question in questions:
        mine = answered.get(question.key)
        rows.append({"key": question.key, "text": question.text_in(language),
                     "options": [{"option": option, "label": label}
                                 for option, label in zip(question.options, question.labels_in(language))],
                     "sent": None if mine is None else rounded_percents(mine.belief, question.options)})
    return {"step": step, "rule": scoring, "sentence": RULE_SENTENCES[scoring][language], "questions": rows,
            "words": belief_words(language)}


def seat_points_html(answers: Sequence[BeliefAnswer], seat: int, language: str) -> str:
    """A seat's own points after the reveal (its own answers only)."""
    mine = [answer for answer in answers if answer.seat == seat and answer.score is not None]
    if not mine:
        return ""
    rows = "".join(f"<tr><td>{escape(answer.question.text_in(language))} <small>({escape(tr('belief.step', language))}"
                   f" {answer.step})</small></td><td class='num'>{answer.score:.0f}</td></tr>" for answer in mine)
    mean = sum(answer.score or 0.0 for answer in mine) / len(mine)
    colon = escape(tr("belief.colon", language))
    return (f"<section class='belief-debrief'><h2>{escape(tr('belief.your_points', language))}{colon} {mean:.0f} / 100"
            f"</h2><table>{rows}</table></section>")


#: The bars' colours: what the class said, then what their views implied under each model of play, in the
#: game's order (`debrief.MODEL_COLOURS`; styled inline: the dashboard in a notebook has no stylesheet of the
#: class pages).
CLASS_COLOUR = "#8e24aa"


def _bar(probability: float, kind: str, colour: str) -> str:
    width = max(0.0, min(100.0, 100 * probability))
    return (f"<span class='bd-track' style='display:inline-block;width:7rem;max-width:40vw;height:1rem;"
            f"vertical-align:middle;background:#eceff1;border-radius:3px;overflow:hidden;margin-right:.3rem'>"
            f"<span class='bd-bar {escape(kind)}' style='display:block;height:100%;width:{width:.0f}%;"
            f"background:{colour}'></span></span><span class='num'>{width:.0f} %</span>")


def debrief_html(games: ClassGames, scoring: str, language: str, own: Sequence[DebriefTable] | None = None) -> str:
    """The class's beliefs beside the posteriors of their own views under each model of play, each model named
    and said in words (per question, the mean of each, the true answer marked), each student's points under the
    room's rule beside each model's (from `debrief.score_rows`), which model the class fits best
    (`debrief.fit_rows`, with 95 % intervals), that the students are simulated when they are, and the game's own
    tables (`own`, default `debrief.game_tables`: which lies worked, the picks beside the equilibrium). For a
    revealed room only: `games` holds its one game, beliefs and all."""
    rule = tr(f"belief.{scoring}", language)
    colon = escape(tr("belief.colon", language))
    models = models_of(games, 0)
    simulated = simulated_sentence(games, 0, language)
    head = (f"<section class='belief-debrief'><h2>{escape(tr('belief.debrief', language))}</h2>"
            f"<p>{escape(tr('belief.rule', language))}{colon} <b>{escape(rule)}</b>. "
            f"{escape(RULE_SENTENCES[scoring][language])}</p>"
            + (f"<p class='simulated'>{escape(simulated)}</p>" if simulated else "")
            + f"<h3>{escape(tr('belief.models', language))}</h3><ul class='play-models'>"
            + "".join(f"<li><b>{escape(model.heading(language))}</b>{escape(COLON_AFTER[language])}"
                      f"{escape(model.sentence_in(language))}</li>" for model in models) + "</ul>")
    tables_html = "".join(_game_table(table, language) for table in (game_tables(games, 0) if own is None else own))
    answers = games[0].beliefs
    if not answers:
        return f"{head}<p>{escape(tr('belief.none', language))}</p>{tables_html}</section>"
    groups: dict[str, list[BeliefAnswer]] = {}
    for answer in answers:
        groups.setdefault(answer.question.key, []).append(answer)
    tables = [_question_table(group, models, language) for group in groups.values()]
    score_lines = "".join(f"<tr><td>{escape(row['label'])}</td><td class='num'>{row['points']:.0f}</td>"
                          f"<td class='num'>{row['answers']}</td>"
                          + "".join(_number(row[f"{model.key}_points"]) for model in models) + "</tr>"
                          for row in score_rows(games))
    scores = (f"<h3>{escape(tr('belief.points', language))}</h3><table class='belief-table'><tr>"
              f"<th>{escape(tr('belief.student', language))}</th><th>{escape(tr('belief.points', language))}</th>"
              f"<th>{escape(tr('belief.count', language))}</th>"
              + "".join(f"<th>{escape(tr('belief.bayes', language).format(model=model.heading(language)))}</th>"
                        for model in models) + f"</tr>{score_lines}</table>") if score_lines else ""
    return (f"{head}{''.join(tables)}{scores}{_fit(games, language)}{_calibration(games, models, language)}"
            f"{tables_html}</section>")


#: What follows a model's name in the list of models.
COLON_AFTER = {"en": ": ", "fr": " : "}


def _number(value: float | None) -> str:
    return "<td class='num'>—</td>" if value is None else f"<td class='num'>{value:.0f}</td>"


def _fit(games: ClassGames, language: str) -> str:
    """Which model of play the class's beliefs sit closest to (`debrief.fit_rows`), with 95 % intervals, and
    the sentence saying it (`debrief.fit_sentence`)."""
    rows = fit_rows(games, 0, language)
    if len(rows) < 2:
        return ""
    head = "".join(f"<th>{escape(column)}</th>" for column in HEADINGS[language]["fit"])
    body = "".join(f"<tr{' class=truth' if row['best'] else ''}><td>{escape(row['name'])}</td>"
                   f"<td>{escape(row['sentence'])}</td><td class='num'>{row['answers']}</td>{_number(row['closeness'])}"
                   f"<td class='num'>{interval_text(row['closeness_low'], row['closeness_high'], language)}</td>"
                   f"{_number(row['points'])}"
                   f"<td class='num'>{interval_text(row['points_low'], row['points_high'], language)}</td></tr>"
                   for row in rows)
    return (f"<h3>{escape(tr('belief.fit', language))}</h3><table class='belief-table'><tr>{head}</tr>{body}"
            f"</table><p class='note'>{escape(fit_sentence(games, 0, language))}</p>")


def _calibration(games: ClassGames, models: Sequence[PlayModel], language: str) -> str:
    """The class's calibration (`debrief.calibration_rows`): per band of stated probability, how often those
    answers were true, beside the same for each model's posteriors (a calibrated class says 30 % of what is
    true 30 % of the time)."""
    def cell(true: float | None, count: int) -> str:
        return "<td class='num'>—</td>" if true is None else \
            f"<td class='num'>{true:.0f}\u00a0%<br><small>n\u00a0=\u00a0{count}</small></td>"
    rows = "".join(f"<tr><td>{escape(row['bin'])}</td>{cell(row['said_true'], row['said_count'])}"
                   + "".join(cell(row[f"{model.key}_true"], row[f"{model.key}_count"]) for model in models)
                   + "</tr>" for row in calibration_rows(games))
    heads = "".join(f"<th>{escape(tr('belief.under_true', language).format(model=model.heading(language)))}</th>"
                    for model in models)
    return (f"<h3>{escape(tr('belief.calibration', language))}</h3><table class='belief-table'><tr>"
            f"<th>{escape(tr('belief.said', language))}</th><th>{escape(tr('belief.class_true', language))}</th>"
            f"{heads}</tr>{rows}</table>")


def _game_table(table: DebriefTable, language: str) -> str:
    """A game's own debrief table, each cell carrying its column's name, so that a phone shows one row as a
    short list (no sideways scroll) and a laptop as a table."""
    title, columns, note = table.in_language(language)
    rows = table.rows_fr if language == "fr" and table.rows_fr is not None else table.rows
    colon = tr("belief.colon", language)
    head = "".join(f"<th>{escape(column)}</th>" for column in columns)
    body = "".join("<tr>" + "".join(f"<td data-label='{escape(column + colon)}'>"
                                    f"{escape(cell_text(value, language))}</td>"
                                    for column, value in zip(columns, row)) + "</tr>" for row in rows)
    return (f"<h3>{escape(title)}</h3><table class='belief-table game-debrief'><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>" + (f"<p class='note'>{escape(note)}</p>" if note else ""))


def _question_table(group: Sequence[BeliefAnswer], models: Sequence[PlayModel], language: str) -> str:
    """One question's answers: per option the class's mean probability beside each model's mean."""
    question = group[0].question
    reference = models[0].key if models else None
    rows = []
    for option, label in zip(question.options, question.labels_in(language)):
        said = sum(answer.belief.get(option, 0.0) for answer in group) / len(group)
        true = any(answer.truth == option for answer in group)
        cells = [f"<td class='bd-cell'>{_bar(said, 'class', CLASS_COLOUR)}</td>"]
        for model, colour in zip(models, MODEL_COLOURS):
            found = [under for answer in group if (under := under_model(answer, model.key, reference)) is not None]
            mean = sum(under.get(option, 0.0) for under in found) / len(found) if found else 0.0
            cells.append(f"<td class='bd-cell'>{_bar(mean, 'model-' + model.key, colour)}</td>")
        rows.append(f"<tr{' class=truth' if true else ''}><td>{escape(label)}{' ✔' if true else ''}</td>"
                    f"{''.join(cells)}</tr>")
    steps = sorted({answer.step for answer in group})
    when = f"{steps[0]}" if len(steps) == 1 else f"{steps[0]}–{steps[-1]}"
    colon = escape(tr("belief.colon", language))
    heads = "".join(f"<th>{escape(tr('belief.under', language).format(model=model.heading(language)))}</th>"
                    for model in models)
    return (f"<h3>{escape(question.text_in(language))} <small>({escape(tr('belief.answers', language))}{colon} "
            f"{len(group)}, {escape(tr('belief.step', language))} {when})</small></h3><table class='belief-table'>"
            f"<tr><th>{escape(tr('belief.option', language))}</th><th>{escape(tr('belief.class', language))}</th>"
            f"{heads}</tr>{''.join(rows)}</table>")
