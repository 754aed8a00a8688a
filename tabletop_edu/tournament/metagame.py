"""The meta-game: bots as the strategies of a two-player game, its Nash equilibria and replicator dynamics.

Empirical game-theoretic analysis: every pairing of bots plays a tournament at a two-player table, and the
mean scores make a symmetric payoff matrix that nashpy solves.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ..extras import need
from ..i18n import check_language, tr
from ..registry import BotSpec, bot_spec
from .results import FORFEITS, _table_html, _table_text
from .running import run_tournament
from .words import _number


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
        shares stay visible; sized for the notebook's column (type of 15 points or more as shown)."""
        need("matplotlib", "A meta-game's pictures")
        from matplotlib.lines import Line2D

        from ..knowledge.drawing import DPI, WIDTH, Figure  # shows itself as a picture in any kernel, no pyplot

        language = check_language(language)
        starts = [None] if starts is None else list(starts)  # type: ignore[list-item]
        figure = Figure(figsize=(WIDTH, 4.8), dpi=DPI, layout="constrained")
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
            heading = tr("tournament.start", language).format(shares=beginning)
            if len(starts) > 1:  # panels side by side in the column: the shares go under "t = 0"
                heading = heading.replace(" (", "\n(", 1)
            axes.set_title(heading, fontsize=16)
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
        figure.legend(handles=handles, loc="outside lower center", ncol=min(len(handles), 3), fontsize=15,
                      frameon=False)
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


__all__ = ["MetaGame", "meta_game"]
