"""A tournament's results: each game's outcome and record, and the tables, intervals and plots made of them.

Per bot, the table gives seat-games, wins, win rate and mean score, each with a 95% confidence interval
(`mean_ci`, `wilson_ci`); beside it a seat-position and a pairwise breakdown, matplotlib plots, and a reading
in words of which bots the intervals tell apart, and which they tell apart from chance.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from ..core import GameState, load
from ..extras import need
from ..i18n import check_language, tr
from ..student_t import t_quantile
from .words import _interval, _number


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
        """Win rate per bot with its 95% interval, as a matplotlib Figure (labels in `language`), as wide as
        the notebook's column."""
        need("matplotlib", "A tournament's plots")
        from ..knowledge.drawing import DPI, SMALLEST_TYPE, WIDTH, Figure  # a picture in any kernel, no pyplot

        rows = self.rows()
        figure = Figure(figsize=(WIDTH, 4.4), dpi=DPI, layout="constrained")
        axes = figure.subplots()
        positions = range(len(rows))
        rates = [r.win_rate for r in rows]
        errors = [[r.win_rate - r.win_low for r in rows], [r.win_high - r.win_rate for r in rows]]
        axes.bar(positions, rates, yerr=errors, capsize=4, color="#4c72b0")
        chance = self.chance_win_rate()
        axes.axhline(chance, color="#c1121f", linestyle="--", linewidth=1.5,
                     label=tr("tournament.chance", language).format(rate=_number(chance, ".2f", language)))
        axes.legend(loc="upper right", frameon=False, fontsize=SMALLEST_TYPE)
        axes.set_xticks(list(positions), [r.bot for r in rows])
        axes.tick_params(labelsize=SMALLEST_TYPE)
        axes.set_ylabel(tr("tournament.win_rate", check_language(language)), fontsize=SMALLEST_TYPE + 1)
        axes.set_ylim(0, 1)
        axes.yaxis.set_major_formatter(lambda value, _: _number(value, ".1f", language))
        axes.set_title(self.caption(language), fontsize=SMALLEST_TYPE + 1)
        return figure

    def plot_seats(self, language: str = "en") -> Any:
        """Win rate per bot and seat, as a heat map (a matplotlib Figure, labels in `language`), at most as
        wide as the notebook's column."""
        need("matplotlib", "A tournament's plots")
        from ..knowledge.drawing import DPI, SMALLEST_TYPE, WIDTH, Figure  # a picture in any kernel, no pyplot

        table = self.seat_table()
        figure = Figure(figsize=(min(2.6 + 1.2 * self.players, WIDTH), 1.2 + 0.6 * len(table)), dpi=DPI,
                        layout="constrained")
        axes = figure.subplots()
        data = [[0.0 if math.isnan(v) else v for v in rates] for rates in table.values()]
        image = axes.imshow(data, cmap="viridis", vmin=0, vmax=1, aspect="auto")
        axes.set_xticks(range(self.players), [tr("tournament.seat", check_language(language)).format(seat=s)
                                              for s in range(self.players)])
        axes.set_yticks(range(len(table)), list(table))
        axes.tick_params(labelsize=SMALLEST_TYPE)
        for i, rates in enumerate(data):
            for j, value in enumerate(rates):
                axes.text(j, i, _number(value, ".2f", language), ha="center", va="center", fontsize=SMALLEST_TYPE,
                          color="white" if value < 0.6 else "black")
        bar = figure.colorbar(image, ax=axes)
        bar.set_label(tr("tournament.win_rate", language), fontsize=SMALLEST_TYPE)
        bar.ax.tick_params(labelsize=SMALLEST_TYPE)
        bar.ax.yaxis.set_major_formatter(lambda value, _: _number(value, ".1f", language))
        return figure


def _or_low(value: float) -> float:
    """For sorting: nan (no games) after every number."""
    return -math.inf if math.isnan(value) else value


def results_json(result: TournamentResult) -> str:
    """The tournament as JSON: every game's seed, seats, scores and record, and every failure (for archiving
    or sharing)."""
    return json.dumps({"game": result.game, "players": result.players, "seed": result.seed,
                       "lineup": list(result.lineup),
                       "games": [{"index": g.index, "seed": g.seed, "seats": list(g.labels), "scores": list(g.scores),
                                  "winners": list(g.winners), "record": json.loads(g.record),
                                  "failure": None if g.failure is None else vars(g.failure)} for g in result.games],
                       "lost": [vars(failure) for failure in result.lost]})



__all__ = ["FORFEITS", "SEAT_COLUMNS", "BotRow", "Failure", "GameResult", "TournamentResult", "final_scores", "mean_ci",
           "results_json", "wilson_ci"]
