"""IS-MCTS with a playout policy against the hand-written bots it plays out with: seeded tournaments whose win
rates, with their 95% intervals, are printed (never asserted: a benchmark, not a test).

    python benchmarks/bench_ismcts.py                 (both games, the default number of games)
    python benchmarks/bench_ismcts.py --games 20 --workers 2 --only commissario

Each duel seats the search and the bot it is measured against at alternating seats, rotating every game, so
both take every seat equally often; every game is seeded and can be replayed from its record.

Get Adler is a team game (three heroes against Adler at four players), so a mixed table's win rates mix two
questions; its duel also prints each bot's wins by the side it was dealt (replayed from the records): as
Adler, and as a hero. `--only get_adler_sides` measures each side on its own: every seeded deal is played
three times, by the hand-written bot everywhere, with the search playing the heroes, and with the search
playing Adler; the same deals make the comparison paired (the deals the search won that the bot lost, and
the reverse, with a two-sided sign test).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor

from tabletop_edu.get_adler.bots import SidesBot
from tabletop_edu.tournament import InProcessExecutor, TournamentResult, run_tournament, wilson_ci

#: (game, players, the search, the hand-written bot it must beat)
DUELS = {
    "commissario": ("commissario", 2, "ismcts(iterations=64, worlds=8, rollout='greedy', rollout_depth=10, tree_depth=1, "
                    "root='halving')", "greedy"),
    "get_adler": ("get_adler", 4, "ismcts(iterations=200, worlds=32, rollout='smart', rollout_depth=None, tree_depth=1, "
                  "root='halving')", "smart"),
    # The tournaments tutorial's other Commissario rows: the search against a bot it does not play out with,
    # and the earlier root (UCB with prior iterations on the greedy move) against greedy.
    "commissario_bidder": ("commissario", 2, "ismcts(iterations=64, worlds=8, rollout='greedy', rollout_depth=10, "
                           "tree_depth=1, root='halving')", "bidder"),
    "commissario_prior": ("commissario", 2, "ismcts(iterations=64, worlds=4, rollout='greedy', rollout_depth=10, "
                          "prior=16)", "greedy"),
}


def duel(name: str, games: int, seed: int, executor: Executor) -> str:
    """One seeded duel: its table of win rates with 95% intervals, and how long it took."""
    game, players, search, bot = DUELS[name]
    start = time.perf_counter()
    result = run_tournament(game, [bot, search], players=players, games=games, seed=seed, executor=executor,
                            chunk_size=1)
    seconds = time.perf_counter() - start
    lines = [f"{game}, {players} players, {games} games, seed {seed} ({seconds:.0f} s)"]
    for row in result.rows():
        lines.append(f"  {row.bot:<90} win rate {row.win_rate:.3f}  95% CI [{row.win_low:.3f}, {row.win_high:.3f}]"
                     f"  mean score {row.mean_score:.2f}")
    if game == "get_adler":
        lines += adler_sides(result)
    if result.failures:
        lines.append("  " + result.failure_summary())
    return "\n".join(lines)


def adler_sides(result: TournamentResult) -> list[str]:
    """Each bot's wins by the side it was dealt in Get Adler (Adler or a hero), with 95% Wilson intervals."""
    tally: dict[tuple[str, str], list[int]] = {}
    for played in result.finished:
        adler = played.replay().adler
        for seat, label in enumerate(played.labels):
            side = "Adler" if seat == adler else "a hero"
            wins_games = tally.setdefault((label, side), [0, 0])
            wins_games[0] += seat in played.winners
            wins_games[1] += 1
    lines = []
    for (label, side), (wins, games) in sorted(tally.items()):
        low, high = wilson_ci(wins, games)
        lines.append(f"    as {side:<7} {label:<86} won {wins:>3}/{games:<3} = {wins / games:.3f}  "
                     f"95% CI [{low:.3f}, {high:.3f}]")
    return lines


def adler_side_duel(games: int, seed: int, executor: Executor) -> str:
    """Get Adler, each side on its own: the same seeded deals with the search on no side, the heroes' side, or
    Adler's side, the other seats played by the hand-written bot."""
    from scipy.stats import binomtest

    _, players, search, bot = DUELS["get_adler"]
    start = time.perf_counter()
    adler_won: dict[str, dict[int, bool]] = {}
    for table, sides in (("bot", SidesBot(adler=bot, hero=bot)), ("heroes", SidesBot(adler=bot, hero=search)),
                         ("adler", SidesBot(adler=search, hero=bot))):
        result = run_tournament("get_adler", [sides], players=players, games=games, seed=seed, executor=executor,
                                chunk_size=1)
        adler_won[table] = {played.index: played.replay().adler in played.winners for played in result.finished}
    seconds = time.perf_counter() - start
    lines = [f"get_adler, {players} players, {games} deals played three times, seed {seed} ({seconds:.0f} s); "
             f"the search: {search}"]
    gained = lost = 0  # deals the search won that the bot lost, and the reverse, both sides together
    for side, table, side_won in (("heroes", "heroes", lambda won: not won), ("Adler", "adler", lambda won: won)):
        deals = sorted(set(adler_won["bot"]) & set(adler_won[table]))
        by_bot = [side_won(adler_won["bot"][deal]) for deal in deals]
        by_search = [side_won(adler_won[table][deal]) for deal in deals]
        better = sum(s and not b for s, b in zip(by_search, by_bot))
        worse = sum(b and not s for s, b in zip(by_search, by_bot))
        p_value = binomtest(better, better + worse).pvalue if better + worse else 1.0
        for who, won in ((f"{bot} as {side}", by_bot), (f"the search as {side}", by_search)):
            low, high = wilson_ci(sum(won), len(won))
            lines.append(f"  {who:<24} won {sum(won):>3}/{len(won):<3} = {sum(won) / len(won):.3f}  "
                         f"95% CI [{low:.3f}, {high:.3f}]")
        lines.append(f"  same deals: the search won {better} that {bot} lost, lost {worse} that {bot} won "
                     f"(two-sided sign test p = {p_value:.4f})")
        gained, lost = gained + better, lost + worse
    pooled = binomtest(gained, gained + lost).pvalue if gained + lost else 1.0
    lines.append(f"  both sides: the search won {gained} deals that {bot} lost, lost {lost} "
                 f"(two-sided sign test p = {pooled:.4f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=sorted(DUELS) + ["get_adler_sides"], action="append")
    arguments = parser.parse_args(argv)
    print("python benchmarks/bench_ismcts.py " + " ".join(sys.argv[1:] if argv is None else argv))
    executor: Executor = InProcessExecutor() if arguments.workers <= 1 else \
        ProcessPoolExecutor(max_workers=arguments.workers)
    with executor:
        for name in arguments.only or [*sorted(DUELS), "get_adler_sides"]:
            text = adler_side_duel(arguments.games, arguments.seed, executor) if name == "get_adler_sides" else \
                duel(name, arguments.games, arguments.seed, executor)
            print(text, flush=True)


if __name__ == "__main__":
    main()
