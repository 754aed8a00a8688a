"""Belief questions: what a student says they believe, scored by a proper rule, beside what they could know.

The central idea of these games is reasoning under hidden information, so the class is asked what it believes
("who is Adler?", "what is Cleo's role?") and each answer is set beside the Bayesian posterior of that student's
own information set, something only an engine that knows every seat's view can compute. A posterior needs a
model of how the others play (does Adler lie at random? do the takers choose at random?), so it is always a
posterior *under a model*: a `PlayModel` names one in words a student reads (English and French) and computes
its posterior, exact under that model. Each game declares several (its belief model's `models`, the first
being its reference), and the debrief sets the class beside each.

A game's belief model (its `GamePlugin.beliefs`, a "module:attribute" giving an object with the methods of
`BeliefModel`) says which questions a seat may be asked at a moment, from that seat's view only; the posterior
of a question from that view under its reference model of play, and under each of its `models`; and, once the
game is over, the true answer. This module holds what every game shares: the question, the models of play, the
student's answer (whole percents summing to 100, checked), the scoring rules, and `BeliefAnswer`, the record of
one answered question that the debrief reads.

Scores are points out of 100, so a class reads them at a glance:
- quadratic (Brier), the default: 100 x (1 - sum over options of (p - y)^2 / 2), y = 1 for the true option;
  a sure right answer scores 100, a sure wrong one 0, "50-50" between two options 75.
- log: 100 x (1 + ln p / ln 100), p the probability given to the true option, floored at 1 % (so 0 % costs
  the same as 1 %: 0 points); 100 % on the truth scores 100.
Both are proper: a student maximises their expected score by saying exactly what they believe (the log rule's
floor bends this only below 1 %).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .core import Bot, GameState, View

#: The scoring rules a room can use; the first is the default.
SCORING_RULES: tuple[str, ...] = ("brier", "log")

#: One sentence per rule and language, for the student's page.
RULE_SENTENCES: Mapping[str, Mapping[str, str]] = {
    "brier": {
        "en": "Points out of 100: the closer your percentages are to what really happened, the more you score; "
              "saying exactly what you believe scores best on average.",
        "fr": "Des points sur 100 : plus vos pourcentages sont proches de ce qui s'est vraiment passé, plus vous "
              "marquez ; dire exactement ce que vous croyez rapporte le plus en moyenne.",
    },
    "log": {
        "en": "Points out of 100 from the percentage you gave to what really happened: 100 % scores 100, 1 % or "
              "less scores 0; saying exactly what you believe scores best on average.",
        "fr": "Des points sur 100 selon le pourcentage donné à ce qui s'est vraiment passé : 100 % rapporte 100, "
              "1 % ou moins rapporte 0 ; dire exactement ce que vous croyez rapporte le plus en moyenne.",
    },
}

#: The log rule's floor: a probability under 1 % counts as 1 %.
LOG_FLOOR = 0.01


class BeliefError(ValueError):
    """A belief that cannot be taken (unknown option, not whole percents, not summing to 100): nothing is stored."""


@dataclass(frozen=True)
class BeliefQuestion:
    """One question a seat may be asked: its key (stable within a game, e.g. "adler", "role:3"), its text and
    options' labels in English and French, and its options' ids (what answers and posteriors are keyed by)."""

    key: str
    text: str
    text_fr: str
    options: tuple[str, ...]
    labels: tuple[str, ...]
    labels_fr: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.key or len(self.options) < 2 or len(set(self.options)) != len(self.options):
            raise ValueError(f"A belief question needs a key and at least two distinct options: {self!r}.")
        if not len(self.labels) == len(self.labels_fr) == len(self.options):
            raise ValueError(f"Question {self.key!r}: one English and one French label per option.")

    def text_in(self, language: str) -> str:
        return self.text_fr if language == "fr" else self.text

    def labels_in(self, language: str) -> tuple[str, ...]:
        return self.labels_fr if language == "fr" else self.labels

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "text": self.text, "text_fr": self.text_fr, "options": list(self.options),
                "labels": list(self.labels), "labels_fr": list(self.labels_fr)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BeliefQuestion:
        return cls(str(data["key"]), str(data["text"]), str(data["text_fr"]), tuple(data["options"]),
                   tuple(data["labels"]), tuple(data["labels_fr"]))


@dataclass(frozen=True)
class PlayModel:
    """A model of how the others play, under which a posterior is exact: its key (stable, e.g. "counting"), its
    name and one sentence saying what it assumes, in English and French, for students ("counting": "every world
    the seat cannot rule out counts alike"), and the posterior it gives a question from a view."""

    key: str
    name: str
    name_fr: str
    sentence: str
    sentence_fr: str
    posterior: Callable[[View, BeliefQuestion], dict[str, float]] = field(compare=False, repr=False)

    def name_in(self, language: str) -> str:
        return self.name_fr if language == "fr" else self.name

    def sentence_in(self, language: str) -> str:
        return self.sentence_fr if language == "fr" else self.sentence

    def under(self, language: str) -> str:
        """"under counting: every world the seat cannot rule out counts alike" ("selon le comptage : ...")."""
        return f"{UNDER[language]} {self.name_in(language)}{COLON[language]}{self.sentence_in(language)}"

    def heading(self, language: str) -> str:
        """A column's name: "under counting" ("selon le comptage")."""
        return f"{UNDER[language]} {self.name_in(language)}"

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "name": self.name, "name_fr": self.name_fr, "sentence": self.sentence,
                "sentence_fr": self.sentence_fr}


#: How a posterior names its model: "under counting", "selon le comptage".
UNDER: Mapping[str, str] = {"en": "under", "fr": "selon"}
COLON: Mapping[str, str] = {"en": ": ", "fr": " : "}


def play_models(model: Any) -> tuple[PlayModel, ...]:
    """The models of play a game's belief model declares (its `models`, the reference first). A game that
    declares none has one, its own `posterior` (none at all for a game without a belief model), named for what
    it is: the game's model, which does not say what it assumes."""
    declared = tuple(getattr(model, "models", ()) or ())
    if declared:
        return declared

    def unknown(view: View, question: BeliefQuestion) -> dict[str, float]:
        raise ValueError(f"This game has no belief model, so {question.key!r} has no posterior.")
    return (PlayModel("reference", "the game's model", "le modèle du jeu",
                      "the posterior this game computes; the game does not say what it assumes of the others' play.",
                      "le postérieur que calcule ce jeu ; le jeu ne dit pas ce qu'il suppose du jeu des autres.",
                      unknown if model is None else model.posterior),)


def posteriors_under(models: Sequence[PlayModel], view: View, question: BeliefQuestion) -> dict[str, dict[str, float]]:
    """The posterior of `question` from `view` under each of `models`, by model key, on the question's options."""
    return {model.key: on_options(question, model.posterior(view, question)) for model in models}


class BeliefModel(Protocol):
    """What a game declares (`GamePlugin.beliefs`) so that its players can be asked what they believe. It may
    also declare `models`, a tuple of `PlayModel`s (the first the one `posterior` uses): `play_models` reads them."""

    def questions(self, view: View) -> list[BeliefQuestion]:
        """The questions this seat may be asked now, decided from its view alone (a question never reveals
        what the seat cannot see); empty when this is not a moment to ask."""
        ...

    def posterior(self, view: View, question: BeliefQuestion) -> dict[str, float]:
        """The posterior of `question` from this view under the game's reference model of play (its first
        `models`): what a Bayesian in that seat would say if the others played as that model says."""
        ...

    def truth(self, state: GameState[Any], question: BeliefQuestion) -> str | None:
        """The true option, from the whole state (None while the game has not settled it)."""
        ...


def parse_belief(question: BeliefQuestion, percents: Mapping[str, Any]) -> dict[str, float]:
    """A student's answer as probabilities: every option of `question` given a whole percent from 0 to 100,
    summing to 100; anything else raises `BeliefError` with a sentence a student understands."""
    if not isinstance(percents, Mapping):
        raise BeliefError("A belief is a percentage for each possible answer.")
    unknown = [str(option) for option in percents if option not in question.options]
    if unknown:
        raise BeliefError(f"{', '.join(unknown)[:80]} is not a possible answer to this question.")
    missing = [option for option in question.options if option not in percents]
    if missing:
        raise BeliefError("Give a percentage for every possible answer (0 is fine).")
    values: dict[str, int] = {}
    for option in question.options:
        value = percents[option]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
            raise BeliefError("Each percentage is a whole number from 0 to 100.")
        values[option] = value
    total = sum(values.values())
    if total != 100:
        raise BeliefError(f"The percentages add up to {total}, not 100.")
    return {option: value / 100 for option, value in values.items()}


def score(belief: Mapping[str, float], truth: str, rule: str = "brier") -> float:
    """The points out of 100 that `belief` earns when `truth` is the true option, under `rule`."""
    if rule not in SCORING_RULES:
        raise ValueError(f"Unknown scoring rule {rule!r}; choose from {', '.join(SCORING_RULES)}.")
    if truth not in belief:
        raise ValueError(f"{truth!r} is not one of the belief's options.")
    if rule == "brier":
        squared = sum((p - (option == truth)) ** 2 for option, p in belief.items())
        return 100 * (1 - squared / 2)
    return 100 * (1 - math.log(max(belief[truth], LOG_FLOOR)) / math.log(LOG_FLOOR))  # exactly 0 at the floor


@dataclass(frozen=True)
class BeliefAnswer:
    """One answered question of a class game, as the debrief reads it: who answered (seat and the name or bot
    label of the class tables), at which step of the game, what they said, what their own view implied under
    the game's reference model (`posterior`) and under each of its models (`posteriors`, by model key), and,
    once known, the truth and the points."""

    room: str
    number: int
    game: str
    seat: int
    label: str
    step: int
    question: BeliefQuestion
    belief: Mapping[str, float]
    posterior: Mapping[str, float]
    truth: str | None
    rule: str = "brier"
    extra: Mapping[str, Any] = field(default_factory=dict)
    posteriors: Mapping[str, Mapping[str, float]] = field(default_factory=dict)

    @property
    def score(self) -> float | None:
        """Points out of 100 under the room's rule, once the truth is known."""
        return None if self.truth is None else score(self.belief, self.truth, self.rule)

    @property
    def posterior_score(self) -> float | None:
        """What the posterior under the reference model would have scored."""
        return None if self.truth is None else score(self.posterior, self.truth, self.rule)

    def posterior_under(self, key: str) -> Mapping[str, float] | None:
        """The posterior under the model `key`, None if it was not computed for this answer."""
        return self.posteriors.get(key)

    def score_under(self, key: str) -> float | None:
        """What the posterior under the model `key` would have scored (None: no truth yet, or not computed)."""
        found = self.posteriors.get(key)
        return None if self.truth is None or found is None else score(found, self.truth, self.rule)


def on_options(question: BeliefQuestion, probabilities: Mapping[str, float]) -> dict[str, float]:
    """`probabilities` on exactly the question's options (an option the model never names gets 0), so a
    posterior and a student's answer are keyed alike; a ValueError if the model names some other value or its
    probabilities do not sum to 1."""
    stray = [value for value, p in probabilities.items() if value not in question.options and p > 0]
    if stray:
        raise ValueError(f"Question {question.key!r} has no option {stray[0]!r}.")
    found = {option: float(probabilities.get(option, 0.0)) for option in question.options}
    if abs(sum(found.values()) - 1) > 1e-9:
        raise ValueError(f"Question {question.key!r}: the probabilities sum to {sum(found.values())}, not 1.")
    return found


def settled(posterior: Mapping[str, float], tolerance: float = 1e-9) -> bool:
    """Whether one option holds all the probability: the seat's view already answers the question, so it is
    not asked."""
    return max(posterior.values(), default=1.0) >= 1 - tolerance


def rounded_percents(probabilities: Mapping[str, float], options: Sequence[str]) -> dict[str, int]:
    """Probabilities as whole percents summing to exactly 100 (largest remainders), e.g. for a bot's answer."""
    raw = {option: 100 * float(probabilities.get(option, 0.0)) for option in options}
    floors = {option: math.floor(value) for option, value in raw.items()}
    left = 100 - sum(floors.values())
    by_remainder = sorted(options, key=lambda option: (floors[option] - raw[option], options.index(option)))
    for option in by_remainder[:left]:
        floors[option] += 1
    return floors


# ------------------------------------------------------------------------------------------ a game's debrief

@dataclass(frozen=True)
class DebriefTable:
    """A game's own part of the class's debrief (a belief model's optional `debrief(state)` gives a list):
    which lies worked, the picks beside the equilibrium... A title, column names and a note saying how the
    numbers were computed, in English and French, and rows of plain values (texts, numbers, booleans); `rows_fr`
    when some cells are words that French says otherwise (a testimony, a question), else the same rows. `lies`:
    a table of lies whose last cell says whether the lie worked (a class's debrief sums those up)."""

    title: str
    title_fr: str
    columns: tuple[str, ...]
    columns_fr: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str
    note_fr: str
    rows_fr: tuple[tuple[Any, ...], ...] | None = None
    lies: bool = False

    def in_language(self, language: str) -> tuple[str, tuple[str, ...], str]:
        """The title, columns and note in `language` ("en" or "fr")."""
        if language == "fr":
            return self.title_fr, self.columns_fr, self.note_fr
        return self.title, self.columns, self.note

    def html(self, language: str = "en") -> str:
        from html import escape

        title, columns, note = self.in_language(language)
        rows = self.rows_fr if language == "fr" and self.rows_fr is not None else self.rows
        head = "".join(f"<th>{escape(column)}</th>" for column in columns)
        body = "".join("<tr>" + "".join(f"<td>{escape(cell_text(value, language))}</td>" for value in row) + "</tr>"
                       for row in rows)
        return (f"<table class='tabletop-debrief'><caption>{escape(title)}</caption><thead><tr>{head}</tr></thead>"
                f"<tbody>{body}</tbody></table>" + (f"<p>{escape(note)}</p>" if note else ""))

    def _repr_html_(self) -> str:
        return self.html()


def fell(before: float, after: float) -> bool:
    """Whether a probability fell by at least the whole percent a debrief shows it in (a lie that "worked" by
    a hundredth of a percent would show the same number before and after)."""
    return round(100 * after) < round(100 * before)


def cell_text(value: Any, language: str) -> str:
    """A debrief table's cell as text: yes/no (oui/non) for a truth value, a decimal comma for a French decimal,
    the value's own text otherwise."""
    if isinstance(value, bool):
        return ("oui" if value else "non") if language == "fr" else ("yes" if value else "no")
    if isinstance(value, float) and language == "fr":
        return str(value).replace(".", ",")
    return str(value)


def replayed(state: GameState[Any], *, start: bool = False) -> Iterator[GameState[Any]]:
    """The game of `state` replayed from its seed, yielding the one replay after each action (and first, with
    `start`, before any), so a debrief can read every seat's view as it was at every step (the replay changes
    between yields: read, don't keep)."""
    replay = type(state)(list(state.players), seed=state.seed, rules=state.rules)
    if start:
        yield replay
    for seat, action in state.history:
        replay.apply(action, player=seat)
        yield replay


# ------------------------------------------------------------------------------------------ simulated students

#: How a simulated student turns the posterior of their view (under the game's reference model) into an answer
#: (`SimulatedStudent.style`).
STUDENT_STYLES: Mapping[str, str] = {
    "bayesian": "says the posterior of their view under the game's reference model, a little noise aside",
    "overconfident": "sharpens the posterior (squares it): too sure of the likeliest answer",
    "cautious": "half the posterior, half an even spread: too unsure",
    "uniform": "spreads evenly over every answer whatever they saw",
}


class SimulatedStudent:
    """A student who answers belief questions, for class tests, benchmarks and the recorded class: a `style`
    (`STUDENT_STYLES`) applied to the reference posterior, with seeded noise (`noise`: the spread of a log-normal
    factor on each probability), answering a share `answers` of the questions. Every random choice comes from
    the student's own `random.Random(seed)`, so the same student answers the same questions the same way."""

    def __init__(self, style: str = "bayesian", *, seed: int | str = 0, noise: float = 0.25,
                 answers: float = 1.0) -> None:
        if style not in STUDENT_STYLES:
            raise ValueError(f"Unknown student style {style!r}; choose from {', '.join(STUDENT_STYLES)}.")
        if noise < 0 or not 0 <= answers <= 1:
            raise ValueError("The noise is at least 0 and the share of questions answered from 0 to 1.")
        self.style, self.noise, self.answers = style, noise, answers
        self.rng = random.Random(f"student-{style}-{seed}")

    def __repr__(self) -> str:
        return f"SimulatedStudent({self.style!r}, noise={self.noise}, answers={self.answers})"

    def answer(self, question: BeliefQuestion, posterior: Mapping[str, float]) -> dict[str, int] | None:
        """Whole percents for every option, summing to 100 (what a page sends), or None: not answered."""
        if self.rng.random() >= self.answers:
            return None
        even = 1 / len(question.options)
        exact = [float(posterior.get(option, 0.0)) for option in question.options]
        if self.style == "uniform":
            return rounded_percents(dict.fromkeys(question.options, even), question.options)
        if self.style == "overconfident":
            exact = [p * p for p in exact]
        elif self.style == "cautious":
            exact = [(p + even) / 2 for p in exact]
        noisy = [p * math.exp(self.rng.gauss(0, self.noise)) for p in exact]
        total = sum(noisy)
        return rounded_percents({option: p / total for option, p in zip(question.options, noisy)},
                                question.options)


def play_with_beliefs(game: str, players: int | Sequence[str], bots: Sequence[Bot],
                      students: Mapping[int, SimulatedStudent], *, seed: int, rules: Any = None,
                      room: str = "sim", number: int = 1, labels: Sequence[str] | None = None,
                      rule: str = "brier") -> tuple[GameState[Any], list[BeliefAnswer]]:
    """One game of `game` (a registered name) played by `bots` (one per seat), in which the seats of
    `students` answer every belief question the game's model asks them, at the step it is first asked,
    beside the posteriors of their view then under each of the game's models of play (each answer's `extra`
    says it is simulated, and the student's style); the truths are filled in once the game is over. What a
    class server records, without the server: the class test harness and the recorded class use it."""
    from .registry import game as find_game

    plugin = find_game(game)
    model = plugin.belief_model()
    if model is None:
        raise ValueError(f"{plugin.title} asks no belief questions.")
    rng = random.Random(f"bots-{seed}")
    state: GameState[Any] = plugin.new_game(list(players) if not isinstance(players, int) else players,
                                            seed=seed, rules=rules)
    names = tuple(labels) if labels is not None else tuple(state.players)
    models = play_models(model)
    asked: set[tuple[int, str]] = set()
    said: list[tuple[int, int, BeliefQuestion, dict[str, float], dict[str, dict[str, float]]]] = []
    while not state.is_over:
        step = len(state.history)
        for seat, student in sorted(students.items()):
            view = state.view(seat)
            for question in model.questions(view):
                if (seat, question.key) in asked:
                    continue
                asked.add((seat, question.key))
                posteriors = posteriors_under(models, view, question)
                percents = student.answer(question, posteriors[models[0].key])
                if percents is not None:
                    said.append((step, seat, question, parse_belief(question, percents), posteriors))
        seat = state.acting_seats[0]
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions(seat), rng), player=seat)
    answers = [BeliefAnswer(room, number, plugin.name, seat, names[seat], step, question, belief,
                            posteriors[models[0].key], model.truth(state, question), rule,
                            {"simulated": students[seat].style}, posteriors)
               for step, seat, question, belief, posteriors in said]
    return state, answers
