"""`check_game`: the conformance suite every engine passes, public so a student can check their own game.

It plays random games to the end and checks, at every step, what the protocol promises:

- determinism: the same seed deals the same game, and replaying the record gives identical events;
- records: `to_json` / `from_json` round-trip, mid-game and at the end;
- clones are independent: playing on a clone never changes the original;
- action notation: `parse_action(str(a)) == a` for every legal action;
- illegal actions (a seat not to act, a seat that does not exist, malformed text, out-of-range numbers,
  actions legal elsewhere, acting after the end) raise `IllegalAction` and change nothing;
- legal actions are accepted;
- non-interference: each seat's log is exactly its share of the events, and
  `resample(p, rng).view(p) == view(p)` for every seat and for a spectator;
- resampling knows only the view: a world has a fresh seed, offers the seat the same moves, and two states
  the seat cannot tell apart (the game and a world drawn from the seat's view by `world_from_view`) give
  identical worlds for the same rng;
- views are snapshots: a view taken earlier does not change when the game goes on;
- the game ends within its documented bound `max_steps`.

Usage: `check_game(tabletop_edu.examples.peek, players=3)` returns a `CheckReport` of what it checked, or
raises `GameCheckFailed` with the seed and the record needed to replay the failing game.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from types import ModuleType
from typing import Any

from .core import Action, GameState, IllegalAction, Seat, log_for

MALFORMED_TEXTS = ("", "   ", "xyzzy", "!!! ???", "take take take take take take")


class GameCheckFailed(AssertionError):
    """The game broke a promise of the protocol; the message says which, where, and how to replay it."""


@dataclass
class CheckReport:
    """What `check_game` checked, counted."""

    game: str
    players: int
    games: int = 0
    steps: int = 0
    longest_game: int = 0
    notations_checked: int = 0
    illegal_rejected: int = 0
    legal_accepted: int = 0
    views_checked: int = 0
    resamples_checked: int = 0
    twins_checked: int = 0
    replays_checked: int = 0

    def __str__(self) -> str:
        counts = ", ".join(f"{f.name.replace('_', ' ')}: {getattr(self, f.name)}" for f in fields(self)[2:])
        return f"check_game({self.game}, players={self.players}) passed: {counts}"


def check_game(module: ModuleType, *, players: int, games: int = 10, seed: int = 0, rules: Any = None,
               illegal_per_step: int = 4, resample_every: int = 1) -> CheckReport:
    """Play `games` random games of `module` with `players` seats and check the protocol at every step.

    `module` provides `new_game(players, seed=, rules=)` and `parse_action(text)`. Game k uses seed
    `seed + k`; the random choices of the checker come from `seed` too, so a failure replays exactly.
    """
    report = CheckReport(game=module.__name__, players=players)
    pool: set[str] = set()
    for number in range(games):
        game_seed = seed + number
        _Checker(module, players, game_seed, rules, random.Random(f"check-{game_seed}"), pool,
                 report, illegal_per_step, resample_every).run()
        report.games += 1
    return report


class _Checker:
    """One checked game: keeps the state, the checker's own rng and what it has counted."""

    def __init__(self, module: ModuleType, players: int, seed: int, rules: Any, rng: random.Random,
                 pool: set[str], report: CheckReport, illegal_per_step: int, resample_every: int) -> None:
        self.module, self.players, self.seed, self.rules = module, players, seed, rules
        self.rng, self.pool, self.report = rng, pool, report
        self.illegal_per_step, self.resample_every = illegal_per_step, resample_every
        self.state: GameState[Any] = module.new_game(players, seed=seed, rules=rules)

    def fail(self, message: str) -> GameCheckFailed:
        return GameCheckFailed(f"{self.module.__name__} with {self.players} players, seed {self.seed}, "
                               f"after {len(self.state.history)} actions: {message}\n"
                               f"record: {self.state.to_json()}")

    def run(self) -> None:
        twin = self.module.new_game(self.players, seed=self.seed, rules=self.rules)
        if twin.events != self.state.events or twin.fingerprint() != self.state.fingerprint():
            raise self.fail("two new games with the same seed differ: some randomness is not from the seed")
        midgame = self.rng.randrange(max(1, self.state.max_steps // 2) + 1)
        while not self.state.is_over:
            steps = len(self.state.history)
            if steps >= self.state.max_steps:
                raise self.fail(f"the game did not end within its bound of max_steps={self.state.max_steps}")
            self.check_views()
            self.step()
            if steps == midgame:
                self.check_replay()
        self.check_views()
        self.check_end()
        self.check_replay()
        self.report.steps += len(self.state.history)
        self.report.longest_game = max(self.report.longest_game, len(self.state.history))

    # ------------------------------------------------------------------ one step

    def step(self) -> None:
        state = self.state
        seats = state.acting_seats
        seat = self.rng.choice(seats)
        legal = state.legal_actions(seat)
        if not legal:
            raise self.fail(f"seat {seat} is to act but has no legal action")
        for action in legal:
            self.check_notation(action)
        texts = {str(action) for action in legal}
        self.pool.update(texts)
        self.check_illegal(seat, texts)
        for action in self.rng.sample(legal, min(2, len(legal))):
            self.check_accepted(seat, action)
        choice = self.rng.choice(legal)
        before = len(state.events)
        watched = self.rng.choice([None, *range(len(state.players))])
        view = state.view(watched)
        frozen = copy.deepcopy(view)
        returned = state.apply(choice, player=seat)
        if returned != state.events[before:]:
            raise self.fail(f"apply({choice}) did not return exactly the events it added")
        if view != frozen:
            raise self.fail(f"a view of seat {watched} changed when the game went on: its facts share "
                            "mutable objects with the state (copy them)\n" + _first_difference(frozen, view))

    def check_notation(self, action: Action) -> None:
        if not isinstance(action, Action):
            raise self.fail(f"legal_actions holds {action!r}, which is not an Action")
        text = str(action)
        try:
            parsed = self.module.parse_action(text)
        except IllegalAction as error:
            raise self.fail(f"the text {text!r} of a legal action does not parse: {error}") from None
        if parsed != action or str(parsed) != text:
            raise self.fail(f"notation does not round-trip: {action!r} -> {text!r} -> {parsed!r}")
        self.report.notations_checked += 1

    def illegal_candidates(self, seat: Seat, legal_texts: set[str]) -> list[tuple[Any, Seat | None, str]]:
        """(action, player, why) triples that must all be refused now."""
        state = self.state
        some = next(iter(sorted(legal_texts)))
        others = [s for s in range(len(state.players)) if s not in state.acting_seats]
        candidates: list[tuple[Any, Seat | None, str]] = []
        if others:
            candidates.append((some, self.rng.choice(others), "a seat whose turn it is not"))
        candidates.append((some, len(state.players), "a seat that does not exist"))
        candidates.append((some, -1, "seat -1"))
        candidates += [(text, seat, "malformed text") for text in MALFORMED_TEXTS]
        candidates.append((42, seat, "a number instead of an action"))
        for text in sorted(legal_texts)[:20]:
            for number in re.findall(r"-?\d+", text):
                for wild in ("99", "-1"):
                    mutated = re.sub(rf"(?<![\w-]){re.escape(number)}(?!\w)", wild, text, count=1)
                    if mutated not in legal_texts:
                        candidates.append((mutated, seat, "an out-of-range number"))
        elsewhere = sorted(self.pool - legal_texts)
        candidates += [(text, seat, "an action legal elsewhere but not now")
                       for text in self.rng.sample(elsewhere, min(10, len(elsewhere)))]
        return candidates

    def check_illegal(self, seat: Seat, legal_texts: set[str]) -> None:
        candidates = self.illegal_candidates(seat, legal_texts)
        for action, player, why in self.rng.sample(candidates, min(self.illegal_per_step, len(candidates))):
            self.expect_refused(action, player, why)

    def expect_refused(self, action: Any, player: Seat | None, why: str) -> None:
        state = self.state
        before_print, before_events = state.fingerprint(), len(state.events)
        try:
            state.apply(action, player=player)
        except IllegalAction as error:
            if not str(error).strip():
                raise self.fail(f"refusing {action!r} ({why}) gave an empty message") from None
            cause = error.__cause__
            if cause is not None and not isinstance(cause, IllegalAction):
                raise self.fail(f"{action!r} for seat {player} ({why}) raised {type(cause).__name__}: {cause} "
                                "inside the engine (apply turned it into IllegalAction)") from None
        except Exception as error:  # noqa: BLE001 - any other error is itself the finding
            raise self.fail(f"{action!r} for seat {player} ({why}) raised {type(error).__name__}: {error} "
                            "instead of IllegalAction") from None
        else:
            raise self.fail(f"{action!r} for seat {player} ({why}) was accepted")
        if state.fingerprint() != before_print or len(state.events) != before_events:
            raise self.fail(f"refusing {action!r} ({why}) changed the state: illegal actions must be atomic")
        self.report.illegal_rejected += 1

    def check_accepted(self, seat: Seat, action: Action) -> None:
        original = self.state.fingerprint()
        clone = self.state.clone()
        try:
            clone.apply(action, player=seat)
        except IllegalAction as error:
            raise self.fail(f"legal action {action} of seat {seat} was refused: {error}") from None
        if self.state.fingerprint() != original:
            raise self.fail(f"playing {action} on a clone changed the original state")
        self.report.legal_accepted += 1

    # ------------------------------------------------------------------ views, records, end

    def check_views(self) -> None:
        state = self.state
        seats = [None, *range(len(state.players))]
        twin_checked = self.rng.choice(seats)  # the twin check costs two more worlds: one seat a step
        for seat in seats:
            view = state.view(seat)
            if view.log != log_for(state.events, seat):
                raise self.fail(f"the view of seat {seat} shows events other than its own observations")
            self.report.views_checked += 1
            if len(state.history) % self.resample_every == 0:
                self.check_resample(seat, view, twin=seat == twin_checked)

    def check_resample(self, seat: Seat | None, view: Any, twin: bool = True) -> None:
        state = self.state
        try:
            world = state.resample(seat, random.Random(self.rng.random()))
        except Exception as error:  # noqa: BLE001 - any error is itself the finding
            raise self.fail(f"resample({seat}) raised {type(error).__name__}: {error}: a world must be buildable "
                            "from every view") from None
        if world is state:
            raise self.fail("resample returned the state itself instead of a new one")
        if world.view(seat) != view:
            raise self.fail(f"resample({seat}) changed what seat {seat} sees: its view depends on "
                            "something it should not know\n" + _first_difference(view, world.view(seat)))
        if world.seed == state.seed:
            raise self.fail(f"resample({seat}) kept the game's true seed: re-dealing from it gives the true deal")
        if seat in state.acting_seats and \
                [str(a) for a in world.legal_actions(seat)] != [str(a) for a in state.legal_actions(seat)]:
            raise self.fail(f"resample({seat}) offers seat {seat} other moves than the game does: its legal "
                            "actions depend on something it should not know")
        self.report.resamples_checked += 1
        if not twin:
            return
        # A state the seat cannot tell from this one, drawn by the game's own view-only sampler: resampling
        # both with the same rng must give the same world, whatever their hidden truths.
        other = type(state).world_from_view(view, random.Random(self.rng.random()))
        draw = self.rng.random()
        mine, twins = state.resample(seat, random.Random(draw)), other.resample(seat, random.Random(draw))
        if mine.fingerprint() != twins.fingerprint():
            raise self.fail(f"resample({seat}) depends on more than seat {seat}'s view: two states it cannot tell "
                            "apart (the game and a world drawn from its view) gave different worlds for the same rng")
        self.report.twins_checked += 1

    def check_replay(self) -> None:
        state = self.state
        replay = type(state).from_json(state.to_json())
        if replay.events != state.events:
            raise self.fail("replaying the record gives different events: the engine is not deterministic")
        if replay.fingerprint() != state.fingerprint():
            raise self.fail("replaying the record gives a different state")
        self.report.replays_checked += 1

    def check_end(self) -> None:
        state = self.state
        for seat in range(len(state.players)):
            if state.legal_actions(seat):
                raise self.fail(f"the game is over but seat {seat} still has legal actions")
        if self.pool:
            self.expect_refused(sorted(self.pool)[0], 0, "acting after the end")
        winners = state.winners
        if not all(isinstance(seat, int) and 0 <= seat < len(state.players) for seat in winners):
            raise self.fail(f"winners {winners!r} are not seats of the table")
        if len(state.returns()) != len(state.players):
            raise self.fail("returns() does not give one number per seat")


def _first_difference(expected: Any, got: Any) -> str:
    for key in expected.facts.keys() | got.facts.keys():
        if expected.facts.get(key) != got.facts.get(key):
            return f"fact {key!r}: {expected.facts.get(key)!r} vs {got.facts.get(key)!r}"
    for mine, theirs in zip(expected.log, got.log):
        if mine != theirs:
            return f"log: {mine.text!r} vs {theirs.text!r}"
    return "views differ"


# ------------------------------------------------------------------------------------------ belief models

@dataclass(frozen=True)
class AskedBelief:
    """One question a belief model asked during `check_beliefs`: the seat's view then, the question, the
    model's posterior from that view, the truth once the game ended, whether it came from the model's
    optional `questions_when_asked` (the teacher's ask) rather than its `questions`, and the posterior under
    each of its models of play (`beliefs.play_models`), by model key."""

    view: Any
    question: Any
    posterior: dict[str, float]
    truth: str | None
    when_asked: bool = False
    posteriors: dict[str, dict[str, float]] = field(default_factory=dict)


def check_beliefs(game: str, *, players: int, bots: list[Any], seed: int = 0, rules: Any = None,
                  twins: int = 2) -> list[AskedBelief]:
    """Play one game of `game` (a registered name) with `bots` and check its belief model (`GamePlugin.beliefs`)
    at every step, for every seat: each question is asked from the view alone (a world drawn from the seat's
    view, a different hidden state with the same view, gets the same questions and posteriors, `twins` worlds
    per question); each posterior is on exactly the question's options, non-negative, summing to 1; once the
    game is over every question has a truth, one of its options, to which the posterior gave a positive
    probability. The same for the model's optional `questions_when_asked` (what the teacher's ask offers),
    checked at every step, each question once per posterior it has. Every model of play the belief model
    declares (`beliefs.play_models`) is checked the same way (on the options, summing to 1, from the view
    alone), its first giving `posterior`. Returns what was asked, for a game's own checks (its engine's exact
    inference under each model)."""
    from .beliefs import play_models
    from .registry import game as find_game

    plugin = find_game(game)
    model = plugin.belief_model()
    if model is None:
        raise GameCheckFailed(f"{plugin.title} declares no belief model (GamePlugin.beliefs).")
    state: GameState[Any] = plugin.new_game(players, seed=seed, rules=rules)
    rng = random.Random(f"beliefs-{seed}")
    models = play_models(model)
    sources: list[tuple[bool, Callable[[Any], list[Any]]]] = [(False, model.questions)]
    if callable(getattr(model, "questions_when_asked", None)):
        sources.append((True, model.questions_when_asked))
    asked: dict[tuple[Any, ...], AskedBelief] = {}

    def fail(message: str) -> GameCheckFailed:
        return GameCheckFailed(f"{plugin.title}, seed {seed}, step {len(state.history)}: {message}")

    while not state.is_over:
        for seat in range(len(state.players)):
            view = state.view(seat)
            for when_asked, ask in sources:
                questions = ask(view)
                for question in questions:
                    if not when_asked and (seat, question.key) in asked:
                        continue
                    posterior = model.posterior(view, question)
                    entry = (seat, question.key) if not when_asked else (seat, question.key, *posterior.values())
                    if entry in asked:
                        continue
                    under = {"": posterior, **{play.key: play.posterior(view, question) for play in models}}
                    for key, found in under.items():
                        named = f"the posterior of {question.key}" + (f" under {key!r}" if key else "")
                        if list(found) != list(question.options) or min(found.values()) < 0:
                            raise fail(f"{named} is not on its options: {found}")
                        if abs(sum(found.values()) - 1) > 1e-9:
                            raise fail(f"{named} sums to {sum(found.values())}")
                    if under[models[0].key] != posterior:
                        raise fail(f"the posterior of {question.key} is not its first model's, {models[0].key!r}")
                    for _ in range(twins):
                        twin = state.resample(seat, rng).view(seat)
                        if ask(twin) != questions or any(play.posterior(twin, question) != under[play.key]
                                                         for play in models):
                            raise fail(f"seat {seat}'s question {question.key} reads more than the view")
                    del under[""]
                    asked[entry] = AskedBelief(view, question, posterior, None, when_asked, under)
        seat = state.acting_seats[0]
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions(seat), rng), player=seat)
    found = []
    for item in asked.values():
        truth = model.truth(state, item.question)
        if truth not in item.question.options or item.posterior[truth] <= 0:
            raise fail(f"seat {item.view.seat}'s question {item.question.key}: the truth {truth!r} had no chance "
                       f"in {item.posterior}")
        found.append(replace(item, truth=truth))
    return found
