"""Tournaments: many seeded games between a line-up of bots, on any `concurrent.futures.Executor`.

Teachers ask "which strategy wins, and by how much?"; this module answers with a table (per bot: seat-games,
wins, win rate and mean score, each with a 95% confidence interval), a seat-position and a pairwise breakdown,
and matplotlib plots, in the spirit of Axelrod's tournaments.

Reproducibility is the design constraint everything else follows:

- A tournament owns a `seed`; game k gets its own seed `game_seed(seed, k)` (and its bots an rng seeded from
  it), so any single game replays alone: every `GameResult` keeps its record (JSON: rules, seed, actions).
- Bots travel as `BotSpec`s (a module-qualified factory name plus keyword arguments, or a picklable
  instance), never as lambdas, so a job runs the same in this process, in a `ProcessPoolExecutor`, or on a
  dask cluster (`client.get_executor()`). Results are collected in game order: the same seed gives the same
  table whichever executor ran it.
- Seats rotate: in game k, seat s is taken by bot `(k + s) mod len(lineup)`, so over a multiple of the
  line-up's length every bot sits at every seat equally often (first-player advantage cancels out).

Bots are named per game (`BOTS`, e.g. "greedy" for Commissario) or given as instances. "ismcts" (the generic
information-set Monte Carlo tree search of `tabletop_edu.ismcts`) and "random" exist for every game.
"""

from __future__ import annotations

import ast
import copy
import importlib
import json
import math
import random
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from html import escape
from typing import Any

from .core import Bot, GameState, load

#: Short game names (for the command line) -> the game's package.
GAMES: dict[str, str] = {
    "commissario": "tabletop_edu.commissario",
    "get_adler": "tabletop_edu.get_adler",
    "mafia_de_cuba": "tabletop_edu.mafia_de_cuba",
    "peek": "tabletop_edu.examples.peek",
}

_ISMCTS = "tabletop_edu.ismcts:InformationSetSearch"
_RANDOM = "tabletop_edu.core.bots:RandomBot"

#: Bot names per game -> a factory ("module:attribute") that builds the bot with no arguments.
BOTS: dict[str, dict[str, str]] = {
    "tabletop_edu.commissario": {
        "random": "tabletop_edu.commissario.bots:RandomBot",
        "greedy": "tabletop_edu.commissario.bots:GreedyBot",
        "bidder": "tabletop_edu.commissario.bots:BidderBot",
        "equilibrium": "tabletop_edu.commissario.bots:EquilibriumBot",
        "lookahead": "tabletop_edu.commissario.bots:LookaheadBot",
        "ismcts": _ISMCTS,
    },
    "tabletop_edu.get_adler": {
        "random": "tabletop_edu.get_adler.bots:RandomBot",
        "deducing": "tabletop_edu.get_adler.bots:DeducingHeroBot",
        "adler": "tabletop_edu.get_adler.bots:AdlerBot",
        "smart": "tabletop_edu.get_adler.bots:SmartBot",
        "ismcts": _ISMCTS,
    },
    "tabletop_edu.mafia_de_cuba": {
        "random": _RANDOM,
        "loyal": "tabletop_edu.tournament:mafia_loyal",
        "greedy-thief": "tabletop_edu.tournament:mafia_greedy_thief",
        "cautious-thief": "tabletop_edu.tournament:mafia_cautious_thief",
        "ismcts": _ISMCTS,
    },
    "tabletop_edu.examples.peek": {
        "random": _RANDOM,
        "ismcts": _ISMCTS,
    },
}


def mafia_loyal() -> Bot:
    """Mafia de Cuba: a loyal taker and truthful witness, with a posterior-reasoning Godfather's mind."""
    from .mafia_de_cuba import bots
    return bots.MafiaBot(taker=bots.LoyalTaker(), testimony=bots.Truthful(), godfather=bots.PosteriorGodfather())


def mafia_greedy_thief() -> Bot:
    """Mafia de Cuba: steals as much as it dares, lies consistently, reasons as a Godfather."""
    from .mafia_de_cuba import bots
    return bots.MafiaBot(taker=bots.GreedyThief(), testimony=bots.ConsistentLiar(),
                         godfather=bots.PosteriorGodfather())


def mafia_cautious_thief() -> Bot:
    """Mafia de Cuba: steals a little, lies consistently, reasons as a Godfather."""
    from .mafia_de_cuba import bots
    return bots.MafiaBot(taker=bots.CautiousThief(), testimony=bots.ConsistentLiar(),
                         godfather=bots.PosteriorGodfather())


def game_module(game: str) -> Any:
    """The game's package from a short name ("commissario") or its full module name."""
    return importlib.import_module(GAMES.get(game, game))


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a tournament seeded `seed`: replays that game alone, on any machine."""
    return random.Random(f"{seed}-{index}").randrange(2**32)


# ------------------------------------------------------------------------------------------ bots as data


@dataclass(frozen=True)
class BotSpec:
    """A bot as picklable data: a factory ("module:attribute") and its keyword arguments, or an instance.

    Instances are deep-copied for every game so that no state leaks from one game to the next.
    """

    label: str
    factory: str | None = None
    kwargs: tuple[tuple[str, Any], ...] = ()
    instance: Any = None

    def build(self) -> Bot:
        if self.instance is not None:
            return copy.deepcopy(self.instance)
        assert self.factory is not None
        module_name, _, attribute = self.factory.partition(":")
        target: Callable[..., Bot] = getattr(importlib.import_module(module_name), attribute)
        return target(**dict(self.kwargs))


_CALL = re.compile(r"^\s*([\w.\-]+)\s*(?:\((.*)\))?\s*$")


def bot_spec(game: str, bot: str | Bot | BotSpec) -> BotSpec:
    """A `BotSpec` from a bot name of the game ("greedy", "ismcts(iterations=50)"), a spec or an instance."""
    if isinstance(bot, BotSpec):
        return bot
    if not isinstance(bot, str):
        return BotSpec(label=str(getattr(bot, "name", type(bot).__name__)), instance=bot)
    module = GAMES.get(game, game)
    match = _CALL.match(bot)
    known = BOTS.get(module, {"random": _RANDOM, "ismcts": _ISMCTS})
    if match is None or match.group(1) not in known:
        raise ValueError(f"Unknown bot {bot!r} for {module}; choose from: {', '.join(sorted(known))}.")
    kwargs: dict[str, Any] = {}
    if match.group(2):
        call = ast.parse(f"f({match.group(2)})", mode="eval").body
        assert isinstance(call, ast.Call)
        kwargs = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords if keyword.arg}
    return BotSpec(label=bot.strip(), factory=known[match.group(1)], kwargs=tuple(sorted(kwargs.items())))


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


@dataclass(frozen=True)
class GameResult:
    """One finished game: who sat where, the scores, the winners, and the record to replay it."""

    index: int
    seed: int
    labels: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    steps: int
    record: str

    def replay(self) -> GameState[Any]:
        """The finished game, rebuilt from its record."""
        return load(self.record)


def final_scores(state: GameState[Any]) -> tuple[float, ...]:
    """The game's own points if it keeps them (`state.scores`), else its returns (1 a win, 0 a loss)."""
    scores = getattr(state, "scores", None)
    if isinstance(scores, (list, tuple)) and len(scores) == len(state.players):
        return tuple(float(score) for score in scores)
    return tuple(float(value) for value in state.returns())


def play_job(job: GameJob) -> GameResult:
    """Play one game of a tournament. A module-level function, so process pools and dask can run it."""
    from .ismcts import bind_worlds

    module = game_module(job.game)
    state: GameState[Any] = module.new_game(job.players, seed=job.seed, rules=job.rules)
    bots = [spec.build() for spec in job.seats]
    rng = random.Random(f"bots-{job.seed}")
    for _ in range(state.max_steps + 1):
        if state.is_over:
            break
        seat = state.acting_seats[0]
        bot = bots[seat]
        bind_worlds(bot, state, seat)
        state.apply(bot.choose(state.view(seat), state.legal_actions(seat), rng), player=seat)
    else:
        raise RuntimeError(f"{state.title} did not end within {state.max_steps} actions (game {job.index}).")
    return GameResult(job.index, job.seed, tuple(spec.label for spec in job.seats), final_scores(state),
                      tuple(state.winners), len(state.history), state.to_json())


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


def mean_ci(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and normal-approximation 95% confidence interval (low, high) of the mean."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


def wilson_ci(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score 95% interval of a win rate: sensible even at 0 or n wins, unlike mean ± 1.96 sd."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class BotRow:
    """One line of the table: a bot's results over all the seats it took."""

    bot: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float


def _table_text(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    line = lambda cells: "  ".join(str(c).rjust(w) if i else str(c).ljust(w)  # noqa: E731
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _table_html(headers: Sequence[str], rows: Sequence[Sequence[str]], caption: str) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return (f"<table class='tabletop-tournament'><caption>{escape(caption)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


@dataclass(repr=False)
class TournamentResult:
    """All the games of a tournament, in game order, with the tables and plots built from them."""

    game: str
    players: int
    seed: int
    lineup: tuple[str, ...]
    games: list[GameResult] = field(default_factory=list)

    # ---------------------------------------------------------------- tables

    def rows(self) -> list[BotRow]:
        """Per bot: seat-games, wins (a shared win counts as a win), win rate and mean score with 95% CIs."""
        out = []
        for label in dict.fromkeys(self.lineup):
            scores = [g.scores[s] for g in self.games for s, l in enumerate(g.labels) if l == label]
            wins = sum(1 for g in self.games for s, l in enumerate(g.labels) if l == label and s in g.winners)
            mean, low, high = mean_ci(scores)
            win_low, win_high = wilson_ci(wins, len(scores))
            out.append(BotRow(label, len(scores), wins, wins / len(scores) if scores else math.nan,
                              win_low, win_high, mean, low, high))
        return sorted(out, key=lambda row: (-row.win_rate, -row.mean_score, row.bot))

    def seat_table(self) -> dict[str, list[float]]:
        """Win rate per bot and seat position: does it matter where a strategy sits?"""
        table: dict[str, list[float]] = {}
        for label in dict.fromkeys(self.lineup):
            rates = []
            for seat in range(self.players):
                played = [g for g in self.games if g.labels[seat] == label]
                rates.append(sum(seat in g.winners for g in played) / len(played) if played else math.nan)
            table[label] = rates
        return table

    def pairwise(self) -> dict[str, dict[str, float]]:
        """How often bot A outscored bot B when they met at a table (ties count half)."""
        labels = list(dict.fromkeys(self.lineup))
        won = {a: {b: 0.0 for b in labels} for a in labels}
        met = {a: {b: 0 for b in labels} for a in labels}
        for g in self.games:
            for s, a in enumerate(g.labels):
                for t, b in enumerate(g.labels):
                    if s != t and a != b:
                        met[a][b] += 1
                        won[a][b] += 1.0 if g.scores[s] > g.scores[t] else 0.5 if g.scores[s] == g.scores[t] else 0.0
        return {a: {b: (won[a][b] / met[a][b] if met[a][b] else math.nan) for b in labels} for a in labels}

    def _summary_cells(self) -> tuple[list[str], list[list[str]]]:
        headers = ["bot", "games", "wins", "win rate", "95% CI", "mean score", "95% CI"]
        rows = [[r.bot, str(r.games), str(r.wins), f"{r.win_rate:.3f}", f"[{r.win_low:.3f}, {r.win_high:.3f}]",
                 f"{r.mean_score:.2f}", f"[{r.score_low:.2f}, {r.score_high:.2f}]"] for r in self.rows()]
        return headers, rows

    def _seat_cells(self) -> tuple[list[str], list[list[str]]]:
        headers = ["bot"] + [f"seat {s}" for s in range(self.players)]
        rows = [[label] + [f"{rate:.2f}" for rate in rates] for label, rates in self.seat_table().items()]
        return headers, rows

    def _pair_cells(self) -> tuple[list[str], list[list[str]]]:
        pairs = self.pairwise()
        headers = ["A beats B"] + list(pairs)
        rows = [[a] + ["-" if a == b or math.isnan(v) else f"{v:.2f}" for b, v in row.items()]
                for a, row in pairs.items()]
        return headers, rows

    def caption(self) -> str:
        return (f"{self.game.split('.')[-1]}: {len(self.games)} games, {self.players} players, seed {self.seed}")

    def summary(self) -> str:
        """The main table as text."""
        return self.caption() + "\n" + _table_text(*self._summary_cells())

    def seat_summary(self) -> str:
        return "Win rate by seat\n" + _table_text(*self._seat_cells())

    def pairwise_summary(self) -> str:
        return "Head to head (share of meetings where the row bot outscored the column bot)\n" + \
            _table_text(*self._pair_cells())

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return (f"<TournamentResult {self.game.split('.')[-1]}: {len(self.games)} games, {self.players} players, "
                f"seed {self.seed}, line-up {list(self.lineup)}>")

    def _repr_html_(self) -> str:
        return _table_html(*self._summary_cells(), caption=self.caption())

    def seat_html(self) -> str:
        return _table_html(*self._seat_cells(), caption="Win rate by seat")

    def pairwise_html(self) -> str:
        return _table_html(*self._pair_cells(), caption="Head to head: row outscored column")

    def replay(self, index: int) -> GameState[Any]:
        """Game `index`, replayed alone from its record."""
        return self.games[index].replay()

    # ---------------------------------------------------------------- plots

    def plot(self) -> Any:
        """Win rate per bot with its 95% interval, as a matplotlib Figure."""
        from matplotlib.figure import Figure

        rows = self.rows()
        figure = Figure(figsize=(6, 3))
        axes = figure.subplots()
        positions = range(len(rows))
        rates = [r.win_rate for r in rows]
        errors = [[r.win_rate - r.win_low for r in rows], [r.win_high - r.win_rate for r in rows]]
        axes.bar(positions, rates, yerr=errors, capsize=4, color="#4c72b0")
        axes.set_xticks(list(positions), [r.bot for r in rows])
        axes.set_ylabel("win rate")
        axes.set_ylim(0, 1)
        axes.set_title(self.caption())
        figure.tight_layout()
        return figure

    def plot_seats(self) -> Any:
        """Win rate per bot and seat, as a heat map (a matplotlib Figure)."""
        from matplotlib.figure import Figure

        table = self.seat_table()
        figure = Figure(figsize=(1.2 + 0.9 * self.players, 0.6 + 0.5 * len(table)))
        axes = figure.subplots()
        data = [[0.0 if math.isnan(v) else v for v in rates] for rates in table.values()]
        image = axes.imshow(data, cmap="viridis", vmin=0, vmax=1, aspect="auto")
        axes.set_xticks(range(self.players), [f"seat {s}" for s in range(self.players)])
        axes.set_yticks(range(len(table)), list(table))
        for i, rates in enumerate(data):
            for j, value in enumerate(rates):
                axes.text(j, i, f"{value:.2f}", ha="center", va="center", color="white" if value < 0.6 else "black")
        figure.colorbar(image, ax=axes, label="win rate")
        figure.tight_layout()
        return figure


# ------------------------------------------------------------------------------------------ running


def _progress(total: int, progress: bool | Callable[[int, int], None]) -> tuple[Callable[[int], None],
                                                                               Callable[[], None]]:
    """(advance(n), close()): a callback, a tqdm.auto bar if tqdm is installed, or nothing."""
    if callable(progress):
        done = [0]

        def advance(n: int) -> None:
            done[0] += n
            progress(done[0], total)
        return advance, lambda: None
    if not progress:
        return (lambda n: None), (lambda: None)
    try:
        from tqdm.auto import tqdm
    except ImportError:
        widget = _notebook_bar(total)
        if widget is not None:
            def step(n: int) -> None:
                widget.value += n
                widget.description = f"{widget.value}/{total}"
            return step, lambda: None
        done = [0]

        def report(n: int) -> None:
            done[0] += n
            if done[0] == total or done[0] % max(1, total // 10) < n:
                print(f"\r{done[0]}/{total} games", end="\n" if done[0] == total else "", flush=True,
                      file=sys.stderr)  # stderr: the table on stdout stays clean for pipes
        return report, lambda: None
    bar = tqdm(total=total, unit="game")
    return bar.update, bar.close


def _notebook_bar(total: int) -> Any:
    """An ipywidgets progress bar, displayed, when running in a Jupyter kernel; else None."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None or type(shell).__name__ != "ZMQInteractiveShell":
        return None
    import ipywidgets
    from IPython.display import display

    bar = ipywidgets.IntProgress(value=0, min=0, max=total, description=f"0/{total}")
    display(bar)
    return bar


def _chunks(jobs: Sequence[GameJob], size: int) -> Iterator[list[GameJob]]:
    for start in range(0, len(jobs), size):
        yield list(jobs[start:start + size])


def make_jobs(game: str, lineup: Sequence[str | Bot | BotSpec], *, players: int, games: int, seed: int,
              rules: Any = None) -> list[GameJob]:
    """The games of a tournament, seats rotated so each bot takes each seat equally often."""
    module = GAMES.get(game, game)
    specs = [bot_spec(module, bot) for bot in lineup]
    labels = [spec.label for spec in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"Bots in a line-up need distinct names: {labels}.")
    return [GameJob(k, module, players, game_seed(seed, k),
                    tuple(specs[(k + s) % len(specs)] for s in range(players)), rules) for k in range(games)]


def run_tournament(game: str, lineup: Sequence[str | Bot | BotSpec], *, players: int, games: int,
                   seed: int = 0, executor: Executor | None = None, chunk_size: int | None = None,
                   progress: bool | Callable[[int, int], None] = False, rules: Any = None) -> TournamentResult:
    """Play `games` games of `game` between the bots of `lineup` (names, specs or instances).

    `executor`: any `concurrent.futures.Executor` (default: in this process); `chunk_size` games go in one
    task (default: a sixteenth of the games, at least 1). Results come back in game order,
    so they do not depend on the executor. `progress`: True for a bar (tqdm.auto if installed), or a
    callback `(done, total)`. Without tqdm: an ipywidgets bar in notebooks, a counter line in a terminal.
    """
    if games < 1:
        raise ValueError("A tournament needs at least one game.")
    jobs = make_jobs(game, lineup, players=players, games=games, seed=seed, rules=rules)
    size = chunk_size or max(1, games // 16)
    pool = executor or InProcessExecutor()
    futures = [pool.submit(play_jobs, chunk) for chunk in _chunks(jobs, size)]
    advance, close = _progress(games, progress)
    results: list[GameResult] = []
    try:
        for future in futures:
            chunk = future.result()
            results.extend(chunk)
            advance(len(chunk))
    finally:
        close()
    results.sort(key=lambda r: r.index)
    return TournamentResult(GAMES.get(game, game), players, seed, tuple(lineup_labels(game, lineup)), results)


# ------------------------------------------------------------------------------------------ meta-game


@dataclass(frozen=True)
class MetaGame:
    """Empirical game-theoretic analysis: a two-player meta-game whose strategies are whole bots.

    `payoffs[i][j]` is the mean score of bot i against bot j (both seat orders, `games` games each way);
    the game is symmetric, so the column player's payoffs are the transpose.
    """

    bots: tuple[str, ...]
    payoffs: tuple[tuple[float, ...], ...]
    games: int

    def equilibria(self) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
        """The Nash equilibria of the meta-game (nashpy's support enumeration), probabilities rounded."""
        import nashpy
        import numpy as np

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

    def __str__(self) -> str:
        headers = ["row vs column"] + list(self.bots)
        rows = [[bot] + [f"{v:.2f}" for v in values] for bot, values in zip(self.bots, self.payoffs)]
        return f"Mean score of the row bot ({self.games} games per pairing)\n" + _table_text(headers, rows)

    def _repr_html_(self) -> str:
        headers = ["row vs column"] + list(self.bots)
        rows = [[bot] + [f"{v:.2f}" for v in values] for bot, values in zip(self.bots, self.payoffs)]
        return _table_html(headers, rows, f"Mean score of the row bot ({self.games} games per pairing)")


def meta_game(game: str, bots: Sequence[str], *, games: int, seed: int = 0,
              executor: Executor | None = None, score: str = "win") -> MetaGame:
    """The meta-game of `bots` at a two-player table: every pairing (and self-play) over `games` games.

    `score="win"` scores a game 1 for a win, 0.5 each for a tie (a zero-sum-ish win rate); `"points"` uses
    the game's own points.
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
                if score == "win":
                    value = 1.0 if g.scores[s] > g.scores[t] else 0.5 if g.scores[s] == g.scores[t] else 0.0
                    mine.append(value)
                    theirs.append(1.0 - value)
                else:
                    mine.append(g.scores[s])
                    theirs.append(g.scores[t])
            if i == j:  # a bot against a copy of itself: both copies' results, by symmetry
                payoffs[i][i] = (sum(mine) + sum(theirs)) / (2 * len(mine))
            else:
                payoffs[i][j] = sum(mine) / len(mine)
                payoffs[j][i] = sum(theirs) / len(theirs)
    return MetaGame(tuple(bots), tuple(tuple(round(v, 4) for v in row) for row in payoffs), games)


def lineup_labels(game: str, lineup: Iterable[str | Bot | BotSpec]) -> list[str]:
    """The labels a line-up will show in the tables."""
    return [bot_spec(game, bot).label for bot in lineup]


def results_json(result: TournamentResult) -> str:
    """The tournament as JSON: every game's seed, seats, scores and record (for archiving or sharing)."""
    return json.dumps({"game": result.game, "players": result.players, "seed": result.seed,
                       "lineup": list(result.lineup),
                       "games": [{"index": g.index, "seed": g.seed, "seats": list(g.labels), "scores": list(g.scores),
                                  "winners": list(g.winners), "record": json.loads(g.record)} for g in result.games]})


__all__ = ["BOTS", "GAMES", "BotRow", "BotSpec", "GameJob", "GameResult", "InProcessExecutor", "MetaGame",
           "TournamentResult", "bot_spec", "final_scores", "game_module", "game_seed", "lineup_labels",
           "make_jobs", "mean_ci", "meta_game", "play_job", "results_json", "run_tournament", "wilson_ci"]
