"""Running a tournament: seeded games between bots, played as picklable jobs on any `concurrent.futures.Executor`.

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
"""

from __future__ import annotations

import json
import os
import random
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .. import registry
from ..core import Action, Bot, GameState, IllegalAction, quote, rules_to_dict
from ..registry import BotSpec, bot_spec
from .results import Failure, GameResult, TournamentResult, final_scores

T = TypeVar("T")

#: Longest error text kept in a `Failure` (a bot's exception may quote a whole state).
MAX_ERROR = 300


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
        return outcome["value"]


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
    from ..ismcts import bind_worlds

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



def lineup_labels(game: str, lineup: Iterable[str | Bot | BotSpec]) -> list[str]:
    """The labels a line-up will show in the tables."""
    return [bot_spec(game, bot).label for bot in lineup]


__all__ = ["DecisionBudget", "GameJob", "InProcessExecutor", "ResultsFile", "TooSlow", "bot_names", "game_seed",
           "lineup_labels", "make_jobs", "play_job", "play_jobs", "run_tournament"]
