"""What a seat's page shows of beliefs: its own questions, and its own points after the reveal.

A seat's panel is built from that seat's questions and its own stated beliefs only (the debrief, which shows
every seat's, is `debrief_page`'s, for a revealed room). Names reach the HTML escaped; the seat's script sets
every text of its panel with `textContent`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from ..beliefs import RULE_SENTENCES, BeliefAnswer, BeliefQuestion, rounded_percents
from ..i18n import register, tr

_WORDS = {
    "en": {"belief.title": "What do you believe?", "belief.total": "Total", "belief.send": "Send",
           "belief.optional": "Optional: the game goes on whether you answer or not.",
           "belief.received": "Received: thank you.", "belief.answered": "Answered",
           "belief.less": "−10", "belief.more": "+10", "belief.clear": "Clear",
           "belief.your_points": "Your points", "belief.step": "step", "belief.colon": ":",
           "belief.until_full": "to send, make it 100\u00a0%", "belief.choices": "{count} answers: open to choose",
           "belief.kept": "Kept: sent when the network is back."},
    "fr": {"belief.title": "Que croyez-vous ?", "belief.total": "Total", "belief.send": "Envoyer",
           "belief.optional": "Facultatif : la partie continue que vous répondiez ou non.",
           "belief.received": "Reçu : merci.", "belief.answered": "Répondu",
           "belief.less": "−10", "belief.more": "+10", "belief.clear": "Effacer",
           "belief.your_points": "Vos points", "belief.step": "étape", "belief.colon": " :",
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
