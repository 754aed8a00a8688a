"""Tournaments: many seeded games between a line-up of bots, on any `concurrent.futures.Executor`.

Teachers ask "which strategy wins, and by how much?"; this module answers with a table (per bot: seat-games,
wins, win rate and mean score, each with a 95% confidence interval), a seat-position and a pairwise breakdown,
and matplotlib plots, in the spirit of Axelrod's tournaments. Every win rate is read against chance (the share
of seats that won), and `TournamentResult.reading` says in words which bots the intervals tell apart and which
they do not. `meta_game` turns bots into the strategies of a two-player game: its Nash equilibria, their
deviation check, and the replicator dynamics of a population of bots.

Reproducibility is the design constraint everything else follows:

- A tournament owns a `seed`; game k gets its own seed `game_seed(seed, k)` (and its bots an rng seeded from
  it), so any single game replays alone: every `GameResult` keeps its record (JSON: rules, seed, actions).
- Bots travel as `BotSpec`s (a module-qualified factory name plus keyword arguments, or a picklable
  instance), never as lambdas, so a job runs the same in this process, in a `ProcessPoolExecutor`, or on a
  dask cluster (`client.get_executor()`). Results are collected in game order: the same seed gives the same
  table whichever executor ran it.
- Seats rotate: in game k, seat s is taken by bot `(k + s) mod len(lineup)`, so over a multiple of the
  line-up's length every bot sits at every seat equally often (first-player advantage cancels out).

Faults stay inside the game they happen in. A bot that raises, answers None or something that is not an
action, plays an illegal move, or overruns the optional per-decision `budget` forfeits that game: the game
is recorded with a `Failure` (game index, seed, seat, bot, what went wrong) and the run goes on. A forfeit
counts as a loss for the bot at fault; the other seats of that game are left out of the statistics. A chunk
of games lost with its worker (a killed process, `BrokenProcessPool`) is reported in `lost`, never dropped in
silence. With `save="results.jsonl"` every finished game is written down as it comes back, and running the
same tournament with the same file plays only the games it does not hold yet (an interrupted run resumes).

Games and their bots come from the game registry (`tabletop_edu.registry`): bot names per game, e.g.
"greedy" for Commissario, plus "random" and "ismcts" (the generic information-set search) for every game.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, TypeVar

from . import registry
from .core import Action, Bot, GameState, IllegalAction, load, quote, rules_to_dict
from .extras import need
from .i18n import check_language, register, tr
from .registry import BotSpec, bot_spec  # bots as data: part of the registry, re-exported here
from .student_t import t_quantile

T = TypeVar("T")

#: Longest error text kept in a `Failure` (a bot's exception may quote a whole state).
MAX_ERROR = 300


#: The tables' and plots' words (a French class reads "taux de victoire", and "0,75" with a decimal comma).
register({
    "en": {"tournament.bot": "bot", "tournament.games": "games", "tournament.wins": "wins",
           "tournament.win_rate": "win rate", "tournament.ci": "95% CI", "tournament.mean_score": "mean score",
           "tournament.forfeits": "forfeits", "tournament.seat": "seat {seat}",
           "tournament.by_seat": "Win rate by seat", "tournament.a_beats_b": "A beats B",
           "tournament.pairs_text": "Head to head (share of meetings where the row bot outscored the column bot)",
           "tournament.pairs_caption": "Head to head: row outscored column",
           "tournament.caption": "{game}: {games} games, {players} players, seed {seed}",
           "tournament.chance": "chance ({rate})",
           "tournament.reading": "{game} ({games} games, {players} players): chance is a win rate of {rate}.",
           "tournament.apart": "Told apart (95% intervals do not overlap): {pairs}.",
           "tournament.close": "Too close to tell (95% intervals overlap): {pairs}.",
           "tournament.above": "Above chance: {bots}.", "tournament.below": "Below chance: {bots}.",
           "tournament.at_chance": "Not told apart from chance: {bots}.", "tournament.none": "none",
           "tournament.replicator_title": "Replicator dynamics: shares of the population",
           "tournament.time": "time", "tournament.share": "share of the population",
           "tournament.nash": "Nash equilibrium (right end)", "tournament.start": "t = 0: ({shares})"},
    "fr": {"tournament.bot": "robot", "tournament.games": "parties", "tournament.wins": "victoires",
           "tournament.win_rate": "taux de victoire", "tournament.ci": "IC à 95 %",
           "tournament.mean_score": "score moyen", "tournament.forfeits": "forfaits", "tournament.seat": "place {seat}",
           "tournament.by_seat": "Taux de victoire par place", "tournament.a_beats_b": "A bat B",
           "tournament.pairs_text": "Face à face (part des rencontres où le robot de la ligne a marqué plus "
                                    "que celui de la colonne)",
           "tournament.pairs_caption": "Face à face : la ligne a marqué plus que la colonne",
           "tournament.caption": "{game} : {games} parties, {players} joueurs, graine {seed}",
           "tournament.chance": "hasard ({rate})",
           "tournament.reading": "{game} ({games} parties, {players} joueurs) : le hasard donne un taux de "
                                 "victoire de {rate}.",
           "tournament.apart": "Départagés (intervalles à 95 % disjoints) : {pairs}.",
           "tournament.close": "Trop proches pour conclure (intervalles à 95 % qui se chevauchent) : {pairs}.",
           "tournament.above": "Au-dessus du hasard : {bots}.", "tournament.below": "Au-dessous du hasard : {bots}.",
           "tournament.at_chance": "Pas départagés du hasard : {bots}.", "tournament.none": "aucun",
           "tournament.replicator_title": "Dynamique du réplicateur : parts de la population",
           "tournament.time": "temps", "tournament.share": "part de la population",
           "tournament.nash": "équilibre de Nash (à droite)", "tournament.start": "t = 0 : ({shares})"},
})


def _number(value: float, spec: str, language: str) -> str:
    """`value` formatted by `spec`, with a decimal comma in French."""
    text = format(value, spec)
    return text.replace(".", ",") if language == "fr" else text


def _interval(low: float, high: float, spec: str, language: str) -> str:
    """`[0.520, 0.799]`; in French `[0,520 ; 0,799]`, since the comma is already the decimal mark."""
    separator = " ; " if language == "fr" else ", "
    return f"[{_number(low, spec, language)}{separator}{_number(high, spec, language)}]"


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a tournament seeded `seed`: replays that game alone, on any machine."""
    return random.Random(f"{seed}-{index}").randrange(2**32)


def bot_names(game: str) -> list[str]:
    """The bot names a line-up of `game` may use (its own bots, then "random" and "ismcts")."""
    return registry.game(game).bot_names()


# ------------------------------------------------------------------------------------------ one decision


class TooSlow(Exception):
    """A bot did not decide within its budget."""


class _Abandoned(BaseException):
    """Raised inside an abandoned decision's thread to stop a bot that keeps computing (not an Exception, so
    a bot's `except Exception` does not swallow it)."""


@dataclass(frozen=True)
class DecisionBudget:
    """At most `seconds` of wall-clock time per decision; past it the bot forfeits the game.

    The decision runs in a daemon thread. When the budget runs out the thread is abandoned (and, if it is
    still running Python code, interrupted), so a bot that loops or waits forever costs `seconds`, not the
    whole run. Wall-clock time on a shared machine is noisy: the budget catches bots that hang, so give
    it a wide margin over a normal decision. Needs threads (not in a Pyodide kernel).
    """

    seconds: float

    def __post_init__(self) -> None:
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)) or not self.seconds > 0:
            raise ValueError(f"A decision budget is a positive number of seconds, not {self.seconds!r}.")

    def run(self, decide: Callable[[], T]) -> T:
        """`decide()`, or `TooSlow` if it has not returned within the budget."""
        outcome: dict[str, Any] = {}

        def target() -> None:
            try:
                outcome["value"] = decide()
            except BaseException as error:  # noqa: BLE001 - handed back to the referee's thread below
                outcome["error"] = error

        thread = threading.Thread(target=target, name="tabletop-bot-decision", daemon=True)
        thread.start()
        thread.join(self.seconds)
        if thread.is_alive():
            _interrupt(thread)
            raise TooSlow(f"no decision within {self.seconds:g} s")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]  # type: ignore[no-any-return]


def _interrupt(thread: threading.Thread) -> None:
    """Ask an abandoned decision's thread to stop: raises `_Abandoned` in it at its next Python instruction
    (CPython; a thread blocked in C, e.g. waiting on a lock, uses no CPU and stays asleep)."""
    import ctypes

    set_async_exc = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
    if set_async_exc is not None and thread.ident is not None:
        set_async_exc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Abandoned))


# ------------------------------------------------------------------------------------------ one game


@dataclass(frozen=True)
class GameJob:
    """Everything needed to play one game, as picklable data."""

    index: int
    game: str
    players: int
    seed: int
    seats: tuple[BotSpec, ...]
    rules: Any = None
    budget: DecisionBudget | None = None


@dataclass(frozen=True)
class Failure:
    """Why a game has no result: a bot's fault (it forfeits), the engine's, or a lost worker.

    `kind` is one of "raised", "no action", "not an action", "illegal action", "too slow" (the bot at
    `seat` forfeits), "engine" (the game itself failed: `seat` and `bot` are None) or "worker" (the game was
    never played: its worker died; running again with the same `save` file plays it)."""

    index: int
    seed: int
    kind: str
    error: str
    seat: int | None = None
    bot: str | None = None
    step: int = 0

    def __str__(self) -> str:
        who = "" if self.bot is None else f"{self.bot} (seat {self.seat}) "
        return f"game {self.index} (seed {self.seed}), step {self.step}: {who}{self.kind}: {self.error}"


#: The columns of `TournamentResult.seat_rows()` and `to_dataframe()`.
SEAT_COLUMNS = ("game", "seed", "seat", "bot", "score", "won", "steps", "failure", "at_fault")

#: The kinds of failure that are a bot's fault: the bot forfeits the game.
FORFEITS = ("raised", "no action", "not an action", "illegal action", "too slow")


@dataclass(frozen=True)
class GameResult:
    """One game: who sat where, the scores, the winners, and the record to replay it.

    A game that did not finish has a `failure` (and no scores nor winners); its record replays the game up
    to the step where it stopped."""

    index: int
    seed: int
    labels: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    steps: int
    record: str
    failure: Failure | None = None

    @property
    def finished(self) -> bool:
        return self.failure is None

    def replay(self) -> GameState[Any]:
        """The game, rebuilt from its record (finished, or as far as it went)."""
        return load(self.record)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (the record stays the exact text that replays)."""
        return {"index": self.index, "seed": self.seed, "labels": list(self.labels), "scores": list(self.scores),
                "winners": list(self.winners), "steps": self.steps, "record": self.record,
                "failure": None if self.failure is None else vars(self.failure)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        failure = data["failure"]
        result = cls(int(data["index"]), int(data["seed"]), tuple(str(label) for label in data["labels"]),
                     tuple(float(score) for score in data["scores"]), tuple(int(seat) for seat in data["winners"]),
                     int(data["steps"]), str(data["record"]), None if failure is None else Failure(**failure))
        return result

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{seat}</td><td>{escape(label)}</td>"
                       f"<td>{'' if not self.scores else f'{self.scores[seat]:g}'}</td>"
                       f"<td>{'&#10003;' if seat in self.winners else ''}</td></tr>"
                       for seat, label in enumerate(self.labels))
        status = (f"{self.steps} actions" if self.failure is None
                  else f"stopped: {escape(str(self.failure))}")
        return (f"<table class='tabletop-game-result'><caption>Game {self.index} (seed {self.seed}): {status}"
                f"</caption><thead><tr><th>seat</th><th>bot</th><th>score</th><th>won</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>")


def final_scores(state: GameState[Any]) -> tuple[float, ...]:
    """The game's own points if it keeps them (`state.scores`), else its returns (1 a win, 0 a loss)."""
    scores = getattr(state, "scores", None)
    if isinstance(scores, (list, tuple)) and len(scores) == len(state.players):
        return tuple(float(score) for score in scores)
    return tuple(float(value) for value in state.returns())


def _error_text(error: BaseException | str) -> str:
    """A failure's message, cut to `MAX_ERROR` characters; an exception whose text cannot even be written is
    named by its type."""
    if isinstance(error, str):
        text = error
    else:
        text = f"{type(error).__name__}: {_text(error, str)}"
    return text if len(text) <= MAX_ERROR else text[:MAX_ERROR] + "..."


def _text(value: Any, write: Callable[[Any], str] = repr) -> str:
    """`write(value)`, or the value's type when a bot's object fails even at that."""
    try:
        return write(value)
    except Exception:  # noqa: BLE001 - a broken __str__/__repr__ must not stop the referee
        return f"<{type(value).__name__} that cannot be written out>"


def play_job(job: GameJob) -> GameResult:
    """Play one game of a tournament. A module-level function, so process pools and dask can run it.

    Whatever a bot does, this returns: a finished game, or one stopped by a `Failure`."""
    from .ismcts import bind_worlds

    labels = tuple(spec.label for spec in job.seats)
    try:
        state: GameState[Any] = registry.game(job.game).new_game(job.players, seed=job.seed, rules=job.rules)
    except Exception as error:  # noqa: BLE001 - the game could not even be dealt: no record to keep
        return GameResult(job.index, job.seed, labels, (), (), 0, "",
                          Failure(job.index, job.seed, "engine", _error_text(error)))
    rng = random.Random(f"bots-{job.seed}")

    def stopped(kind: str, error: BaseException | str, seat: int | None = None) -> GameResult:
        failure = Failure(job.index, job.seed, kind, _error_text(error), seat,
                          None if seat is None else labels[seat], len(state.history))
        return GameResult(job.index, job.seed, labels, (), (), len(state.history), state.to_json(), failure)

    bots = []
    for seat, spec in enumerate(job.seats):
        try:
            bots.append(spec.build())
        except Exception as error:  # noqa: BLE001 - a bot that cannot even be built forfeits too
            return stopped("raised", error, seat)
    for _ in range(state.max_steps + 1):
        if state.is_over:
            return GameResult(job.index, job.seed, labels, final_scores(state), tuple(state.winners),
                              len(state.history), state.to_json())
        seat = state.acting_seats[0]
        bot = bots[seat]
        try:
            bind_worlds(bot, state, seat)
            view, legal = state.view(seat), state.legal_actions(seat)
        except Exception as error:  # noqa: BLE001 - the engine failed, not a bot
            return stopped("engine", error)
        try:
            decide = lambda: bot.choose(view, legal, rng)  # noqa: E731
            action = decide() if job.budget is None else job.budget.run(decide)
        except TooSlow as error:
            return stopped("too slow", str(error), seat)
        except Exception as error:  # noqa: BLE001 - the bot's fault: it forfeits this game
            return stopped("raised", error, seat)
        if action is None:
            return stopped("no action", "choose() returned None", seat)
        if not isinstance(action, (Action, str)):
            return stopped("not an action", f"choose() returned {type(action).__name__} {_text(action):.80}", seat)
        try:
            state.apply(action, player=seat)
        except IllegalAction as error:
            return stopped("illegal action", f"{quote(_text(action, str))}: {error}", seat)
        except Exception as error:  # noqa: BLE001 - apply turns every bad move into IllegalAction: an engine bug
            return stopped("engine", error)
    return stopped("engine", f"{state.title} did not end within {state.max_steps} actions")


def play_jobs(jobs: Sequence[GameJob]) -> list[GameResult]:
    """A chunk of games in one task: fewer, larger tasks keep a pool's overhead small."""
    return [play_job(job) for job in jobs]


class InProcessExecutor(Executor):
    """Runs each task at once in this process: the default, and the easiest to debug."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to the caller through the future, as pools do
            future.set_exception(error)
        return future


# ------------------------------------------------------------------------------------------ statistics


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and Student's t confidence interval (low, high) of the mean: honest at small samples, where the
    normal approximation is too narrow (at n = 5: mean ± 2.78 standard errors, not ± 1.96). Undefined (nan)
    for a single value. The t quantile is our own pure-Python one (`student_t`): no scipy in a browser kernel."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if n == 1:
        return (mean, math.nan, math.nan)
    sd = statistics.stdev(values)
    if sd == 0:
        return (mean, mean, mean)
    half = t_quantile(n - 1, (1 + confidence) / 2) * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


def wilson_ci(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a win rate: sensible even at 0 or n wins, unlike mean ± 1.96 sd."""
    if n == 0:
        return (math.nan, math.nan)
    z = statistics.NormalDist().inv_cdf((1 + confidence) / 2)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if wins == 0 else centre - half, 1.0 if wins == n else centre + half)


@dataclass(frozen=True)
class BotRow:
    """One line of the table: a bot's results over all the seats it took (a forfeit is a game lost)."""

    bot: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    forfeits: int = 0


def _table_text(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    line = lambda cells: "  ".join(str(c).rjust(w) if i else str(c).ljust(w)  # noqa: E731
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _table_html(headers: Sequence[str], rows: Sequence[Sequence[str]], caption: str, footer: str = "") -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return (f"<table class='tabletop-tournament'><caption>{escape(caption)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{footer}")


@dataclass(repr=False)
class TournamentResult:
    """All the games of a tournament, in game order, with the tables and plots built from them.

    `games` holds every game played (finished, or stopped by a failure); `lost` the games a broken worker
    never returned."""

    game: str
    players: int
    seed: int
    lineup: tuple[str, ...]
    games: list[GameResult] = field(default_factory=list)
    lost: list[Failure] = field(default_factory=list)

    @property
    def finished(self) -> list[GameResult]:
        """The games played to their end: the ones the statistics are made of."""
        return [g for g in self.games if g.failure is None]

    @property
    def failures(self) -> list[Failure]:
        """Every game without a result, in game order: forfeits, engine failures, games lost with a worker."""
        return sorted([g.failure for g in self.games if g.failure is not None] + self.lost, key=lambda f: f.index)

    # ---------------------------------------------------------------- tables

    def rows(self) -> list[BotRow]:
        """Per bot: seat-games, wins (a shared win counts as a win), win rate and mean score with 95% CIs.

        A forfeit counts as a game the bot lost (its score is left out of the mean); the other seats of a
        game that did not finish are not counted."""
        finished = self.finished
        out = []
        for label in dict.fromkeys(self.lineup):
            scores = [g.scores[s] for g in finished for s, l in enumerate(g.labels) if l == label]
            wins = sum(1 for g in finished for s, l in enumerate(g.labels) if l == label and s in g.winners)
            forfeits = sum(1 for g in self.games if g.failure is not None and g.failure.bot == label
                           and g.failure.kind in FORFEITS)
            games = len(scores) + forfeits
            mean, low, high = mean_ci(scores)
            win_low, win_high = wilson_ci(wins, games)
            out.append(BotRow(label, games, wins, wins / games if games else math.nan,
                              win_low, win_high, mean, low, high, forfeits))
        return sorted(out, key=lambda row: (-_or_low(row.win_rate), -_or_low(row.mean_score), row.bot))

    def chance_win_rate(self) -> float:
        """The win rate of a seat no better than the table: the share of all seat-games that won. It is
        1/players when each game has one winner, more with shared wins or teams (Get Adler's heroes win
        together): the chance baseline of the win-rate plots."""
        finished = self.finished
        seats = sum(len(g.labels) for g in finished)
        return sum(len(g.winners) for g in finished) / seats if seats else math.nan

    def overlaps(self) -> list[tuple[str, str]]:
        """The pairs of bots (better first, in table order) whose 95% win-rate intervals overlap: the games
        played do not tell them apart. The pairs not listed are told apart."""
        rows = self.rows()
        return [(a.bot, b.bot) for i, a in enumerate(rows) for b in rows[i + 1:]
                if a.win_low <= b.win_high and b.win_low <= a.win_high]

    def reading(self, language: str = "en") -> str:
        """What the table says and what it cannot, in words: which bots the 95% intervals tell apart, which
        they do not, and which are told apart from chance (`chance_win_rate`)."""
        language = check_language(language)
        rows, close, chance = self.rows(), set(self.overlaps()), self.chance_win_rate()
        pairs = [(a.bot, b.bot) for i, a in enumerate(rows) for b in rows[i + 1:]]
        words = lambda items: ", ".join(items) or tr("tournament.none", language)  # noqa: E731
        lines = [tr("tournament.reading", language).format(game=self.game, games=len(self.finished),
                                                           players=self.players,
                                                           rate=_number(chance, ".2f", language)),
                 tr("tournament.apart", language).format(pairs=words([f"{a} > {b}" for a, b in pairs
                                                                      if (a, b) not in close])),
                 tr("tournament.close", language).format(pairs=words([f"{a} ~ {b}" for a, b in pairs
                                                                      if (a, b) in close]))]
        for key, keep in (("above", lambda r: r.win_low > chance), ("below", lambda r: r.win_high < chance),
                          ("at_chance", lambda r: r.win_low <= chance <= r.win_high)):
            lines.append(tr(f"tournament.{key}", language).format(bots=words([r.bot for r in rows if keep(r)])))
        return "\n".join(lines)

    def seat_rows(self) -> list[dict[str, Any]]:
        """One row per seat of every game played (`SEAT_COLUMNS`): the game, its seed, the seat, its bot, the
        score and whether it won (None for a game that did not finish), the game's length, and the failure's
        kind and culprit seat. The tidy data of `to_dataframe`, with no pandas needed."""
        return [{"game": g.index, "seed": g.seed, "seat": seat, "bot": label,
                 "score": g.scores[seat] if g.finished else None, "won": seat in g.winners if g.finished else None,
                 "steps": g.steps, "failure": None if g.failure is None else g.failure.kind,
                 "at_fault": None if g.failure is None else g.failure.seat == seat}
                for g in self.games for seat, label in enumerate(g.labels)]

    def to_dataframe(self) -> Any:
        """`seat_rows()` as a pandas DataFrame (the analysis extra), e.g. `df.groupby(["bot", "seat"]).won.mean()`."""
        pandas = need("pandas", "A tournament's DataFrame (seat_rows() holds the same rows without it)")
        return pandas.DataFrame(self.seat_rows(), columns=list(SEAT_COLUMNS))

    def seat_table(self) -> dict[str, list[float]]:
        """Win rate per bot and seat position, over finished games: does it matter where a strategy sits?"""
        table: dict[str, list[float]] = {}
        for label in dict.fromkeys(self.lineup):
            rates = []
            for seat in range(self.players):
                played = [g for g in self.finished if g.labels[seat] == label]
                rates.append(sum(seat in g.winners for g in played) / len(played) if played else math.nan)
            table[label] = rates
        return table

    def pairwise(self) -> dict[str, dict[str, float]]:
        """How often bot A outscored bot B when they met at a finished game (ties count half)."""
        labels = list(dict.fromkeys(self.lineup))
        won = {a: {b: 0.0 for b in labels} for a in labels}
        met = {a: {b: 0 for b in labels} for a in labels}
        for g in self.finished:
            for s, a in enumerate(g.labels):
                for t, b in enumerate(g.labels):
                    if s != t and a != b:
                        met[a][b] += 1
                        won[a][b] += 1.0 if g.scores[s] > g.scores[t] else 0.5 if g.scores[s] == g.scores[t] else 0.0
        return {a: {b: (won[a][b] / met[a][b] if met[a][b] else math.nan) for b in labels} for a in labels}

    def _summary_cells(self, language: str = "en") -> tuple[list[str], list[list[str]]]:
        rows = self.rows()
        with_forfeits = any(r.forfeits for r in rows)
        headers = [tr(f"tournament.{key}", language)
                   for key in ("bot", "games", "wins", "win_rate", "ci", "mean_score", "ci")]
        headers += [tr("tournament.forfeits", language)] if with_forfeits else []
        cells = [[r.bot, str(r.games), str(r.wins), _number(r.win_rate, ".3f", language),
                  _interval(r.win_low, r.win_high, ".3f", language), _number(r.mean_score, ".2f", language),
                  _interval(r.score_low, r.score_high, ".2f", language)]
                 + ([str(r.forfeits)] if with_forfeits else []) for r in rows]
        return headers, cells

    def _seat_cells(self, language: str = "en") -> tuple[list[str], list[list[str]]]:
        headers = [tr("tournament.bot", language)] + [tr("tournament.seat", language).format(seat=s)
                                                      for s in range(self.players)]
        rows = [[label] + [_number(rate, ".2f", language) for rate in rates]
                for label, rates in self.seat_table().items()]
        return headers, rows

    def _pair_cells(self, language: str = "en") -> tuple[list[str], list[list[str]]]:
        pairs = self.pairwise()
        headers = [tr("tournament.a_beats_b", language)] + list(pairs)
        rows = [[a] + ["-" if a == b or math.isnan(v) else _number(v, ".2f", language) for b, v in row.items()]
                for a, row in pairs.items()]
        return headers, rows

    def caption(self, language: str = "en") -> str:
        """What the table is: game, games played, players, seed (in `language`)."""
        return tr("tournament.caption", check_language(language)).format(
            game=self.game, games=len(self.games), players=self.players, seed=self.seed)

    def failure_summary(self, limit: int = 10) -> str:
        """The games without a result, one line each (the first `limit`); empty when every game finished."""
        failures = self.failures
        if not failures:
            return ""
        forfeits = sum(f.kind in FORFEITS for f in failures)
        lines = [f"{len(failures)} games without a result: {forfeits} forfeited by a bot, "
                 f"{sum(f.kind == 'engine' for f in failures)} stopped by the engine, "
                 f"{len(self.lost)} lost with a worker (run again with the same save file to play them)"]
        lines += [f"  {failure}" for failure in failures[:limit]]
        lines += [f"  ... and {len(failures) - limit} more"] if len(failures) > limit else []
        return "\n".join(lines)

    def summary(self) -> str:
        """The main table as text, then the failures if any."""
        failures = self.failure_summary()
        return self.caption() + "\n" + _table_text(*self._summary_cells()) + (f"\n\n{failures}" if failures else "")

    def seat_summary(self, language: str = "en") -> str:
        """Win rate per bot and seat, as text (in `language`)."""
        return tr("tournament.by_seat", check_language(language)) + "\n" + _table_text(*self._seat_cells(language))

    def pairwise_summary(self, language: str = "en") -> str:
        """How often each bot outscored each other one, as text (in `language`)."""
        return tr("tournament.pairs_text", check_language(language)) + "\n" + _table_text(*self._pair_cells(language))

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return (f"<TournamentResult {self.game}: {len(self.games)} games, {self.players} players, "
                f"seed {self.seed}, line-up {list(self.lineup)}>")

    def _repr_html_(self) -> str:
        return self.html()

    def html(self, language: str = "en") -> str:
        """The main table as HTML in `language` (a notebook shows the English one by itself)."""
        failures = self.failure_summary()
        footer = f"<pre class='tabletop-failures'>{escape(failures)}</pre>" if failures else ""
        return _table_html(*self._summary_cells(language), caption=self.caption(language), footer=footer)

    def seat_html(self, language: str = "en") -> str:
        return _table_html(*self._seat_cells(language), caption=tr("tournament.by_seat", check_language(language)))

    def pairwise_html(self, language: str = "en") -> str:
        return _table_html(*self._pair_cells(language),
                           caption=tr("tournament.pairs_caption", check_language(language)))

    def replay(self, index: int) -> GameState[Any]:
        """Game `index`, replayed alone from its record."""
        for game in self.games:
            if game.index == index:
                return game.replay()
        raise ValueError(f"Game {index} has no record: " + ("it was lost with its worker." if any(
            failure.index == index for failure in self.lost) else f"this tournament has {len(self.games)} games."))

    # ---------------------------------------------------------------- plots

    def plot(self, language: str = "en") -> Any:
        """Win rate per bot with its 95% interval, as a matplotlib Figure (labels in `language`)."""
        need("matplotlib", "A tournament's plots")
        from .knowledge.drawing import Figure  # shows itself as a picture in any kernel, no pyplot

        rows = self.rows()
        figure = Figure(figsize=(6, 3))
        axes = figure.subplots()
        positions = range(len(rows))
        rates = [r.win_rate for r in rows]
        errors = [[r.win_rate - r.win_low for r in rows], [r.win_high - r.win_rate for r in rows]]
        axes.bar(positions, rates, yerr=errors, capsize=4, color="#4c72b0")
        chance = self.chance_win_rate()
        axes.axhline(chance, color="#c1121f", linestyle="--", linewidth=1.5,
                     label=tr("tournament.chance", language).format(rate=_number(chance, ".2f", language)))
        axes.legend(loc="upper right", frameon=False)
        axes.set_xticks(list(positions), [r.bot for r in rows])
        axes.set_ylabel(tr("tournament.win_rate", check_language(language)))
        axes.set_ylim(0, 1)
        axes.yaxis.set_major_formatter(lambda value, _: _number(value, ".1f", language))
        axes.set_title(self.caption(language))
        figure.tight_layout()
        return figure

    def plot_seats(self, language: str = "en") -> Any:
        """Win rate per bot and seat, as a heat map (a matplotlib Figure, labels in `language`)."""
        need("matplotlib", "A tournament's plots")
        from .knowledge.drawing import Figure  # shows itself as a picture in any kernel, no pyplot

        table = self.seat_table()
        figure = Figure(figsize=(1.2 + 0.9 * self.players, 0.6 + 0.5 * len(table)))
        axes = figure.subplots()
        data = [[0.0 if math.isnan(v) else v for v in rates] for rates in table.values()]
        image = axes.imshow(data, cmap="viridis", vmin=0, vmax=1, aspect="auto")
        axes.set_xticks(range(self.players), [tr("tournament.seat", check_language(language)).format(seat=s)
                                              for s in range(self.players)])
        axes.set_yticks(range(len(table)), list(table))
        for i, rates in enumerate(data):
            for j, value in enumerate(rates):
                axes.text(j, i, _number(value, ".2f", language), ha="center", va="center",
                          color="white" if value < 0.6 else "black")
        bar = figure.colorbar(image, ax=axes, label=tr("tournament.win_rate", language))
        bar.ax.yaxis.set_major_formatter(lambda value, _: _number(value, ".1f", language))
        figure.tight_layout()
        return figure


def _or_low(value: float) -> float:
    """For sorting: nan (no games) after every number."""
    return -math.inf if math.isnan(value) else value


# ------------------------------------------------------------------------------------------ saved results


class ResultsFile:
    """Finished games as JSON lines, written as they come back, so an interrupted tournament resumes.

    The first line describes the tournament (game, players, seed, line-up, rules); each further line is one
    `GameResult`. Resuming checks that the file describes the same tournament (the number of games may
    differ: more games extend the run) and keeps every complete line; a line cut short by the interruption
    is dropped and its game played again. Games lost with a worker are never written, so they are played
    again too.
    """

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = header

    def resume(self, jobs: Sequence[GameJob]) -> dict[int, GameResult]:
        """The results the file holds for `jobs` (creating the file with its header if it has none)."""
        lines = self.path.read_text(encoding="utf-8").splitlines(keepends=True) if self.path.exists() else []
        if not lines:
            self._rewrite([self._header_line()])
            return {}
        try:
            header = json.loads(lines[0])
        except ValueError:
            header = None
        if header != json.loads(self._header_line()):
            raise ValueError(f"{self.path} holds another tournament ({_short(lines[0])}), not "
                             f"{_short(self._header_line())}: choose another file to save to.")
        expected = {job.index: job for job in jobs}
        kept, results = [lines[0]], {}
        for number, line in enumerate(lines[1:], start=2):
            if not line.endswith("\n"):
                break  # cut short by an interruption: that game is played again
            try:
                result = GameResult.from_dict(json.loads(line))
            except (ValueError, KeyError, TypeError):
                continue  # unreadable: played again
            job = expected.get(result.index)
            if job is not None and (result.seed != job.seed or result.labels != tuple(s.label for s in job.seats)):
                raise ValueError(f"{self.path}, line {number}: game {result.index} does not belong to this "
                                 "tournament (another seed or seating).")
            kept.append(line)
            if job is not None:
                results[result.index] = result
        if kept != lines:
            self._rewrite(kept)
        return results

    def append(self, result: GameResult) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(result.to_dict()) + "\n")

    def _header_line(self) -> str:
        return json.dumps({"tournament": 1, **self.header}) + "\n"

    def _rewrite(self, lines: list[str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text("".join(lines), encoding="utf-8")
        os.replace(temporary, self.path)


def _short(text: str, limit: int = 160) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "..."


# ------------------------------------------------------------------------------------------ running


def _progress(total: int, done: int, progress: bool | Callable[[int, int], None]) -> tuple[
        Callable[[int], object], Callable[[], None]]:
    """(advance(n), close()): a callback `(done, total)`, a `tqdm.auto` bar (a widget in notebooks, a text
    bar in a terminal), or nothing."""
    if callable(progress):
        count = [done]

        def advance(n: int) -> None:
            count[0] += n
            progress(count[0], total)
        return advance, lambda: None
    if not progress:
        return (lambda n: None), (lambda: None)
    from tqdm.auto import tqdm

    bar = tqdm(total=total, initial=done, unit="game")
    return bar.update, bar.close


def _chunks(jobs: Sequence[GameJob], size: int) -> Iterator[list[GameJob]]:
    for start in range(0, len(jobs), size):
        yield list(jobs[start:start + size])


def make_jobs(game: str, lineup: Sequence[str | Bot | BotSpec], *, players: int | None = None, games: int,
              seed: int, rules: Any = None, budget: float | DecisionBudget | None = None) -> list[GameJob]:
    """The games of a tournament, seats rotated so each bot takes each seat equally often."""
    plugin = registry.game(game)
    players = plugin.default_players if players is None else players
    assert players is not None
    if isinstance(players, bool) or not isinstance(players, int) or \
            not plugin.min_players <= players <= plugin.max_players:
        raise ValueError(f"{plugin.title} is played by {plugin.min_players} to {plugin.max_players} players, "
                         f"not {players!r}.")
    if not lineup:
        raise ValueError("A tournament needs at least one bot in its line-up.")
    specs = [bot_spec(plugin.name, bot) for bot in lineup]
    labels = [spec.label for spec in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"Bots in a line-up need distinct names: {labels}.")
    for spec in specs:  # a misspelt option is one clear error now, not a forfeit in every game
        try:
            spec.build()
        except Exception as error:  # noqa: BLE001 - whatever the factory raises, said with the bot's name
            raise ValueError(f"The bot {spec.label!r} cannot be built: {type(error).__name__}: {error}") from None
    if budget is not None and not isinstance(budget, DecisionBudget):
        budget = DecisionBudget(budget)
    return [GameJob(k, plugin.name, players, game_seed(seed, k),
                    tuple(specs[(k + s) % len(specs)] for s in range(players)), rules, budget) for k in range(games)]


def _in_flight(pool: Executor) -> int:
    """How many chunks to keep submitted at once: one in this process (so each is saved before the next is
    played), enough to keep every worker of a pool busy otherwise."""
    return 1 if isinstance(pool, InProcessExecutor) else max(16, 4 * (os.cpu_count() or 1))


def run_tournament(game: str, lineup: Sequence[str | Bot | BotSpec], *, players: int | None = None, games: int,
                   seed: int = 0, executor: Executor | None = None, chunk_size: int | None = None,
                   progress: bool | Callable[[int, int], None] = False, rules: Any = None,
                   budget: float | DecisionBudget | None = None, save: str | Path | None = None) -> TournamentResult:
    """Play `games` games of `game` between the bots of `lineup` (names, specs or instances).

    `players`: the table size (default: the game's usual one). `executor`: any `concurrent.futures.Executor`
    (default: in this process); `chunk_size` games go in one task (default: a sixteenth of the games, at least
    1). Results come back in game order, so they do not depend on the executor. `progress`: True for a
    `tqdm.auto` bar, or a callback `(done, total)`. `budget`: seconds per decision (or a `DecisionBudget`); a
    slower bot forfeits. `save`: a JSON-lines file where each game is written as it finishes; if it already
    holds games of this tournament, only the missing ones are played.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"A tournament needs at least one game, not {games!r}.")
    plugin = registry.game(game)
    jobs = make_jobs(plugin.name, lineup, players=players, games=games, seed=seed, rules=rules, budget=budget)
    _check_table(jobs[0])
    table = jobs[0].players
    labels = tuple(lineup_labels(plugin.name, lineup))
    done: dict[int, GameResult] = {}
    saved = None
    if save is not None:
        header = {"game": plugin.name, "players": table, "seed": seed, "lineup": list(labels),
                  "rules": None if rules is None else rules_to_dict(rules)}
        saved = ResultsFile(save, header)
        done = saved.resume(jobs)
    todo = [job for job in jobs if job.index not in done]
    pool = executor or InProcessExecutor()
    chunks = list(_chunks(todo, chunk_size or max(1, games // 16)))
    advance, close = _progress(games, len(done), progress)
    lost: list[Failure] = []
    pending: dict[Future[list[GameResult]], list[GameJob]] = {}
    try:
        while chunks or pending:
            while chunks and len(pending) < _in_flight(pool):
                chunk = chunks.pop(0)
                try:
                    pending[pool.submit(play_jobs, chunk)] = chunk
                except Exception as error:  # noqa: BLE001 - a broken pool refuses work: report, never drop
                    lost += _lost(chunk, error)
                    advance(len(chunk))
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: pending[f][0].index):
                chunk = pending.pop(future)
                try:
                    results = future.result()
                except Exception as error:  # noqa: BLE001 - the worker died (BrokenProcessPool) or could not ship
                    lost += _lost(chunk, error)
                    advance(len(chunk))
                    continue
                for result in results:
                    done[result.index] = result
                    if saved is not None:
                        saved.append(result)
                advance(len(results))
    finally:
        close()
    return TournamentResult(plugin.name, table, seed, labels,
                            [done[k] for k in sorted(done)], sorted(lost, key=lambda f: f.index))


def _check_table(job: GameJob) -> None:
    """Refuse, before anything runs, a table the game cannot seat or rules it does not take."""
    try:
        registry.game(job.game).new_game(job.players, seed=job.seed, rules=job.rules)
    except ValueError as error:
        raise ValueError(f"{job.game}: {error}") from None


def _lost(chunk: Sequence[GameJob], error: BaseException) -> list[Failure]:
    return [Failure(job.index, job.seed, "worker", _error_text(error)) for job in chunk]


# ------------------------------------------------------------------------------------------ meta-game


@dataclass(frozen=True)
class MetaGame:
    """Empirical game-theoretic analysis: a two-player meta-game whose strategies are whole bots.

    `payoffs[i][j]` is the mean score of bot i against bot j (both seat orders, `games` games each way);
    the game is symmetric, so the column player's payoffs are the transpose. `equilibria` solves it,
    `deviation_gains` checks a mix against every bot, `replicator` lets a population of bots evolve.
    """

    bots: tuple[str, ...]
    payoffs: tuple[tuple[float, ...], ...]
    games: int
    score: str = "win"

    def caption(self) -> str:
        """What an entry is: a share of wins (`score="win"`) or a mean of the game's own points."""
        what = "Share of wins of the row bot" if self.score == "win" else "Mean points of the row bot"
        return f"{what} against the column bot ({self.games} games per pairing)"

    def equilibria(self) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
        """The Nash equilibria of the meta-game (nashpy's support enumeration), probabilities rounded."""
        nashpy = need("nashpy", "A meta-game's equilibria")
        np = need("numpy", "A meta-game's equilibria")

        matrix = np.array(self.payoffs, dtype=float)
        found = []
        with warnings.catch_warnings():  # nashpy warns on degenerate games; we report what it finds
            warnings.simplefilter("ignore", RuntimeWarning)
            equilibria = list(nashpy.Game(matrix, matrix.T).support_enumeration())
        for row, column in equilibria:
            pair = (tuple(round(float(p), 3) + 0.0 for p in row), tuple(round(float(p), 3) + 0.0 for p in column))
            if pair not in found:
                found.append(pair)
        return sorted(found)

    def symmetric_equilibria(self) -> list[tuple[float, ...]]:
        """The equilibria where both players use the same mix: the strategy a population settles on."""
        return [row for row, column in self.equilibria() if row == column]

    def _mix(self, mix: Sequence[float], what: str) -> list[float]:
        """`mix` checked: one non-negative share per bot, adding up to 1."""
        shares = [float(p) for p in mix]
        if len(shares) != len(self.bots) or any(not p >= 0 for p in shares) or abs(sum(shares) - 1) > 1e-6:
            raise ValueError(f"{what} needs one share per bot ({len(self.bots)}: {', '.join(self.bots)}), none "
                             f"negative, adding up to 1; got {tuple(mix)}.")
        return shares

    def deviation_gains(self, mix: Sequence[float]) -> tuple[float, ...]:
        """What each bot, played alone, would gain over `mix` in a population playing `mix` (its score against
        the mix minus the mix's score against itself): none is above 0 at a symmetric equilibrium, so this is
        the deviation check of an equilibrium, over every bot of the meta-game."""
        shares = self._mix(mix, "A mix")
        against = [sum(value * share for value, share in zip(row, shares)) for row in self.payoffs]
        value = sum(share * score for share, score in zip(shares, against))
        return tuple(round(score - value, 9) + 0.0 for score in against)

    def replicator(self, start: Sequence[float] | None = None, *, until: float = 40.0,
                   points: int = 401) -> tuple[list[float], list[tuple[float, ...]]]:
        """Replicator dynamics (nashpy): a population of bots where each bot's share grows in proportion to how
        much better than average it scores against the population. Returns the times and the shares at each
        (from `start`, default every bot equally often). A bot absent at the start never appears."""
        nashpy = need("nashpy", "Replicator dynamics")
        np = need("numpy", "Replicator dynamics")

        shares = self._mix([1 / len(self.bots)] * len(self.bots) if start is None else start, "A start")
        times = np.linspace(0.0, until, points)
        matrix = np.array(self.payoffs, dtype=float)
        path = nashpy.Game(matrix, matrix.T).replicator_dynamics(y0=np.array(shares), timepoints=times)
        return [float(t) for t in times], [tuple(float(p) for p in row) for row in path]

    def plot_replicator(self, starts: Sequence[Sequence[float]] | None = None, *, until: float = 40.0,
                        equilibrium: Sequence[float] | None = None, title: str | None = None,
                        language: str = "en") -> Any:
        """The shares of each bot over time under `replicator`, one panel per start (default: the uniform
        start), the `equilibrium` shares (if given) as diamonds past the right end, side by side so that equal
        shares stay visible; sized for a projector (1280 pixels wide, type of 15 points or more)."""
        need("matplotlib", "A meta-game's pictures")
        from matplotlib.lines import Line2D

        from .knowledge.drawing import Figure  # shows itself as a picture in any kernel, no pyplot

        language = check_language(language)
        starts = [None] if starts is None else list(starts)  # type: ignore[list-item]
        figure = Figure(figsize=(12.8, 5.2), dpi=100, layout="constrained")
        panels = figure.subplots(1, len(starts), squeeze=False, sharey=True)[0]
        colours = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3"]
        target = None if equilibrium is None else self._mix(equilibrium, "An equilibrium")
        for axes, start in zip(panels, starts):
            times, path = self.replicator(start, until=until)
            for k, bot in enumerate(self.bots):
                axes.plot(times, [shares[k] for shares in path], color=colours[k % len(colours)], linewidth=3)
                if target is not None:
                    axes.plot([until * (1.04 + 0.03 * k)], [target[k]], marker="D", markersize=11,
                              color=colours[k % len(colours)], markeredgecolor="black", clip_on=False)
            beginning = (" ; " if language == "fr" else ", ").join(_number(p, ".2f", language) for p in path[0])
            axes.set_title(tr("tournament.start", language).format(shares=beginning), fontsize=16)
            axes.set_xlabel(tr("tournament.time", language), fontsize=16)
            axes.set_ylim(-0.02, 1.02)
            axes.tick_params(labelsize=15)
            axes.grid(alpha=0.3)
            axes.yaxis.set_major_formatter(lambda value, _: _number(value, ".1f", language))
        panels[0].set_ylabel(tr("tournament.share", language), fontsize=16)
        handles = [Line2D([], [], color=colours[k % len(colours)], linewidth=3, label=bot)
                   for k, bot in enumerate(self.bots)]
        if target is not None:
            handles.append(Line2D([], [], linestyle="none", marker="D", markersize=11, color="#777777",
                                  markeredgecolor="black", label=tr("tournament.nash", language)))
        figure.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=15, frameon=False)
        figure.suptitle(title or tr("tournament.replicator_title", language), fontsize=18)
        return figure

    def __str__(self) -> str:
        headers = ["row vs column"] + list(self.bots)
        rows = [[bot] + [f"{v:.2f}" for v in values] for bot, values in zip(self.bots, self.payoffs)]
        return f"{self.caption()}\n" + _table_text(headers, rows)

    def _repr_html_(self) -> str:
        headers = ["row vs column"] + list(self.bots)
        rows = [[bot] + [f"{v:.2f}" for v in values] for bot, values in zip(self.bots, self.payoffs)]
        return _table_html(headers, rows, self.caption())


def meta_game(game: str, bots: Sequence[str], *, games: int, seed: int = 0,
              executor: Executor | None = None, score: str = "win") -> MetaGame:
    """The meta-game of `bots` at a two-player table: every pairing (and self-play) over `games` games.

    `score="win"` scores a game 1 for a win, 0.5 each for a tie (a zero-sum-ish win rate), a forfeit 0 for
    the bot at fault and 1 for the other; `"points"` uses the game's own points (games without a result are
    left out).
    """
    n = len(bots)
    payoffs = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            pair = [bots[i], bots[j]] if i != j else [bots[i], f"{bots[i]}"]
            specs = [bot_spec(game, b) for b in pair]
            if i == j:
                specs = [specs[0], BotSpec(specs[0].label + "'", specs[0].factory, specs[0].kwargs,
                                           specs[0].instance)]
            result = run_tournament(game, specs, players=2, games=games, seed=seed * 1000 + i * n + j,
                                    executor=executor)
            mine, theirs = [], []
            for g in result.games:
                s = g.labels.index(specs[0].label)
                t = 1 - s
                if g.failure is not None:  # a forfeit is a lost game; a failure of the engine is no result
                    if score == "win" and g.failure.kind in FORFEITS:
                        mine.append(0.0 if g.failure.seat == s else 1.0)
                        theirs.append(1.0 - mine[-1])
                elif score == "win":
                    value = 1.0 if g.scores[s] > g.scores[t] else 0.5 if g.scores[s] == g.scores[t] else 0.0
                    mine.append(value)
                    theirs.append(1.0 - value)
                else:
                    mine.append(g.scores[s])
                    theirs.append(g.scores[t])
            if not mine:
                raise ValueError(f"No game between {specs[0].label} and {specs[1].label} gave a result: "
                                 f"{result.failure_summary()}")
            if i == j:  # a bot against a copy of itself: both copies' results, by symmetry
                payoffs[i][i] = (sum(mine) + sum(theirs)) / (2 * len(mine))
            else:
                payoffs[i][j] = sum(mine) / len(mine)
                payoffs[j][i] = sum(theirs) / len(theirs)
    return MetaGame(tuple(bots), tuple(tuple(round(v, 4) for v in row) for row in payoffs), games, score)


def lineup_labels(game: str, lineup: Iterable[str | Bot | BotSpec]) -> list[str]:
    """The labels a line-up will show in the tables."""
    return [bot_spec(game, bot).label for bot in lineup]


def results_json(result: TournamentResult) -> str:
    """The tournament as JSON: every game's seed, seats, scores and record, and every failure (for archiving
    or sharing)."""
    return json.dumps({"game": result.game, "players": result.players, "seed": result.seed,
                       "lineup": list(result.lineup),
                       "games": [{"index": g.index, "seed": g.seed, "seats": list(g.labels), "scores": list(g.scores),
                                  "winners": list(g.winners), "record": json.loads(g.record),
                                  "failure": None if g.failure is None else vars(g.failure)} for g in result.games],
                       "lost": [vars(failure) for failure in result.lost]})


__all__ = ["FORFEITS", "BotRow", "BotSpec", "DecisionBudget", "Failure", "GameJob", "GameResult", "InProcessExecutor",
           "MetaGame", "ResultsFile", "TooSlow", "TournamentResult", "bot_names", "bot_spec", "final_scores",
           "game_seed", "lineup_labels", "make_jobs", "mean_ci", "meta_game", "play_job", "results_json",
           "run_tournament", "wilson_ci"]
