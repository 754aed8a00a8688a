"""Tournaments: many seeded games between a line-up of bots, on any `concurrent.futures.Executor`.

Teachers ask "which strategy wins, and by how much?"; this package answers with a table (per bot: seat-games,
wins, win rate and mean score, each with a 95% confidence interval), a seat-position and a pairwise breakdown,
and matplotlib plots, in the spirit of Axelrod's tournaments. Every win rate is read against chance (the share
of seats that won), and `TournamentResult.reading` says in words which bots the intervals tell apart and which
they do not. `meta_game` turns bots into the strategies of a two-player game: its Nash equilibria, their
deviation check, and the replicator dynamics of a population of bots.

Its modules, as Axelrod splits a tournament:

- `running`: playing the games. Seeded jobs (`make_jobs`, `GameJob`), the per-decision budget
  (`DecisionBudget`), one game whatever its bots do (`play_job`), the executors and the saved file an
  interrupted run resumes from (`ResultsFile`), and `run_tournament`, which ties them together.
- `results`: what the games gave. `GameResult` and `Failure` per game, `TournamentResult` with its tables
  (`BotRow`), words and plots, the confidence intervals (`mean_ci`, `wilson_ci`) and `results_json`.
- `metagame`: `MetaGame` and `meta_game`, the bots as the strategies of a two-player game.
- `words`: the tables' and plots' words in English and French.

Games and their bots come from the game registry (`tabletop_edu.registry`): bot names per game, e.g.
"greedy" for Commissario, plus "random" and "ismcts" (the generic information-set search) for every game.
Bots travel as `BotSpec`s, which belong to the registry and are exported here too.
"""

from ..registry import BotSpec, bot_spec
from .metagame import MetaGame, meta_game
from .results import (FORFEITS, SEAT_COLUMNS, BotRow, Failure, GameResult, TournamentResult, final_scores, mean_ci,
                      results_json, wilson_ci)
from .running import (DecisionBudget, GameJob, InProcessExecutor, ResultsFile, TooSlow, bot_names, game_seed,
                      lineup_labels, make_jobs, play_job, run_tournament)

__all__ = ["FORFEITS", "SEAT_COLUMNS", "BotRow", "BotSpec", "DecisionBudget", "Failure", "GameJob", "GameResult",
           "InProcessExecutor", "MetaGame", "ResultsFile", "TooSlow", "TournamentResult", "bot_names", "bot_spec",
           "final_scores", "game_seed", "lineup_labels", "make_jobs", "mean_ci", "meta_game", "play_job",
           "results_json", "run_tournament", "wilson_ci"]
