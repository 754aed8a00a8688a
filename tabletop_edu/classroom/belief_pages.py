"""What the class's pages show of beliefs: a seat's own questions, its own points after the reveal, and the
debrief (the class's beliefs beside the exact posteriors, each student's points) for the projector and the
teacher once the table is revealed.

A seat's panel is built from that seat's questions and its own stated beliefs only; the debrief, which shows
every seat's, is built only for a revealed room. Names reach the HTML escaped; the seat's script sets every
text of its panel with `textContent`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..beliefs import RULE_SENTENCES, BeliefAnswer, BeliefQuestion, DebriefTable, cell_text, rounded_percents
from ..i18n import register, tr
from .debrief import calibration_rows, game_tables, score_rows
from .export import ClassGames

_WORDS = {
    "en": {"belief.title": "What do you believe?", "belief.total": "Total", "belief.send": "Send",
           "belief.optional": "Optional: the game goes on whether you answer or not.",
           "belief.received": "Received: thank you.", "belief.answered": "Answered",
           "belief.less": "−10", "belief.more": "+10", "belief.clear": "Clear",
           "belief.your_points": "Your points", "belief.debrief": "What the class believed",
           "belief.question": "Question", "belief.class": "Class (mean)", "belief.exact": "Exact (mean)",
           "belief.truth": "True answer", "belief.student": "Student", "belief.points": "Points",
           "belief.answers": "answers", "belief.bayes": "Exact posterior's points", "belief.step": "step",
           "belief.rule": "Scoring rule", "belief.none": "No belief was stated in this game.",
           "belief.brier": "quadratic (Brier)", "belief.log": "logarithmic", "belief.colon": ":",
           "belief.option": "Answer", "belief.count": "Answers",
           "belief.calibration": "Calibration: of the answers given about this much, how many were true",
           "belief.said": "Given", "belief.class_true": "Class: true", "belief.exact_true": "Exact: true"},
    "fr": {"belief.title": "Que croyez-vous ?", "belief.total": "Total", "belief.send": "Envoyer",
           "belief.optional": "Facultatif : la partie continue que vous répondiez ou non.",
           "belief.received": "Reçu : merci.", "belief.answered": "Répondu",
           "belief.less": "−10", "belief.more": "+10", "belief.clear": "Effacer",
           "belief.your_points": "Vos points", "belief.debrief": "Ce que la classe croyait",
           "belief.question": "Question", "belief.class": "Classe (moyenne)", "belief.exact": "Exact (moyenne)",
           "belief.truth": "Vraie réponse", "belief.student": "Élève", "belief.points": "Points",
           "belief.answers": "réponses", "belief.bayes": "Points du postérieur exact", "belief.step": "étape",
           "belief.rule": "Règle de score", "belief.none": "Aucune croyance n'a été donnée dans cette partie.",
           "belief.brier": "quadratique (Brier)", "belief.log": "logarithmique", "belief.colon": " :",
           "belief.option": "Réponse", "belief.count": "Réponses",
           "belief.calibration": "Calibration : des réponses données à peu près ce pourcentage, combien "
                                 "étaient vraies",
           "belief.said": "Donné", "belief.class_true": "Classe : vrai", "belief.exact_true": "Exact : vrai"},
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


#: The bars' colours: what the class said, what their views implied (styled inline: the dashboard in a notebook
#: has no stylesheet of the class pages).
BAR_COLOURS = {"class": "#8e24aa", "exact": "#00897b"}


def _bar(probability: float, kind: str) -> str:
    width = max(0.0, min(100.0, 100 * probability))
    return (f"<span class='bd-track' style='display:inline-block;width:7rem;max-width:40vw;height:1rem;"
            f"vertical-align:middle;background:#eceff1;border-radius:3px;overflow:hidden;margin-right:.3rem'>"
            f"<span class='bd-bar {kind}' style='display:block;height:100%;width:{width:.0f}%;"
            f"background:{BAR_COLOURS[kind]}'></span></span><span class='num'>{width:.0f} %</span>")


def debrief_html(games: ClassGames, scoring: str, language: str, own: Sequence[DebriefTable] | None = None) -> str:
    """The class's beliefs beside the exact posteriors of their own views (per question, the mean of each, the
    true answer marked), each student's points under the room's rule beside their exact posteriors' (from
    `debrief.score_rows`), and the game's own tables (`own`, default `debrief.game_tables`: which lies worked,
    the picks beside the equilibrium). For a revealed room only: `games` holds its one game, beliefs and all."""
    rule = tr(f"belief.{scoring}", language)
    colon = escape(tr("belief.colon", language))
    head = (f"<section class='belief-debrief'><h2>{escape(tr('belief.debrief', language))}</h2>"
            f"<p>{escape(tr('belief.rule', language))}{colon} <b>{escape(rule)}</b>. "
            f"{escape(RULE_SENTENCES[scoring][language])}</p>")
    tables_html = "".join(_game_table(table, language) for table in (game_tables(games, 0) if own is None else own))
    answers = games[0].beliefs
    if not answers:
        return f"{head}<p>{escape(tr('belief.none', language))}</p>{tables_html}</section>"
    groups: dict[str, list[BeliefAnswer]] = {}
    for answer in answers:
        groups.setdefault(answer.question.key, []).append(answer)
    tables = [_question_table(group, language) for group in groups.values()]
    score_lines = "".join(f"<tr><td>{escape(row['label'])}</td><td class='num'>{row['points']:.0f}</td>"
                          f"<td class='num'>{row['answers']}</td><td class='num'>{row['exact_points']:.0f}</td></tr>"
                          for row in score_rows(games))
    scores = (f"<h3>{escape(tr('belief.points', language))}</h3><table class='belief-table'><tr>"
              f"<th>{escape(tr('belief.student', language))}</th><th>{escape(tr('belief.points', language))}</th>"
              f"<th>{escape(tr('belief.count', language))}</th><th>{escape(tr('belief.bayes', language))}</th></tr>"
              f"{score_lines}</table>") if score_lines else ""
    return f"{head}{''.join(tables)}{scores}{_calibration(games, language)}{tables_html}</section>"


def _calibration(games: ClassGames, language: str) -> str:
    """The class's calibration (`debrief.calibration_rows`): per band of stated probability, how often those
    answers were true, beside the same for the exact posteriors (a calibrated class says 30 % of what is true
    30 % of the time)."""
    def cell(true: float | None, count: int) -> str:
        return "<td class='num'>—</td>" if true is None else \
            f"<td class='num'>{true:.0f}\u00a0%<br><small>n\u00a0=\u00a0{count}</small></td>"
    rows = "".join(f"<tr><td>{escape(row['bin'])}</td>{cell(row['said_true'], row['said_count'])}"
                   f"{cell(row['exact_true'], row['exact_count'])}</tr>" for row in calibration_rows(games))
    return (f"<h3>{escape(tr('belief.calibration', language))}</h3><table class='belief-table'><tr>"
            f"<th>{escape(tr('belief.said', language))}</th><th>{escape(tr('belief.class_true', language))}</th>"
            f"<th>{escape(tr('belief.exact_true', language))}</th></tr>{rows}</table>")


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


def _question_table(group: Sequence[BeliefAnswer], language: str) -> str:
    """One question's answers: per option the class's mean probability beside the exact posteriors' mean."""
    question = group[0].question
    rows = []
    for option, label in zip(question.options, question.labels_in(language)):
        said = sum(answer.belief.get(option, 0.0) for answer in group) / len(group)
        exact = sum(answer.posterior.get(option, 0.0) for answer in group) / len(group)
        true = any(answer.truth == option for answer in group)
        rows.append(f"<tr{' class=truth' if true else ''}><td>{escape(label)}{' ✔' if true else ''}</td>"
                    f"<td class='bd-cell'>{_bar(said, 'class')}</td>"
                    f"<td class='bd-cell'>{_bar(exact, 'exact')}</td></tr>")
    steps = sorted({answer.step for answer in group})
    when = f"{steps[0]}" if len(steps) == 1 else f"{steps[0]}–{steps[-1]}"
    colon = escape(tr("belief.colon", language))
    return (f"<h3>{escape(question.text_in(language))} <small>({escape(tr('belief.answers', language))}{colon} "
            f"{len(group)}, {escape(tr('belief.step', language))} {when})</small></h3><table class='belief-table'>"
            f"<tr><th>{escape(tr('belief.option', language))}</th><th>{escape(tr('belief.class', language))}</th>"
            f"<th>{escape(tr('belief.exact', language))}</th></tr>{''.join(rows)}</table>")
