"""Tournaments survive faults: a bot that raises, cheats, answers nonsense or hangs forfeits its game, a dead
worker's games are reported, and a run saved as JSON lines resumes where it stopped.

No test waits on the wall clock for its outcome: the slow bot waits on an event nobody sets, so it overruns
any budget; the budget itself is generous next to the microseconds the other bots take.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from tabletop_edu.core import Action, View
from tabletop_edu.examples import peek
from tabletop_edu.tournament import DecisionBudget, Failure, TooSlow, game_seed, run_tournament

NEVER = threading.Event()  # set by nobody until the tests end: a bot waiting on it hangs
STOPPED = threading.Event()


class Raising:
    name = "raising"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("the bot's own bug")


class Illegal:
    name = "illegal"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return peek.Peek(view.seat)  # its own card: refused by the rules


class WrongTyped:
    name = "wrong-typed"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return peek.Peek(1.0)  # type: ignore[arg-type]  # a float seat: refused before anything changes


class NoAction:
    name = "none"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return None  # type: ignore[return-value]


class NotAnAction:
    name = "not-an-action"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        return 42  # type: ignore[return-value]


class Slow:
    name = "slow"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        NEVER.wait()
        return legal[0]


@pytest.fixture(autouse=True, scope="module")
def release_hung_bots() -> Iterator[None]:
    yield
    NEVER.set()


def test_a_raising_an_illegal_and_a_slow_bot_forfeit_and_the_run_goes_on() -> None:
    lineup = ["random", "ismcts(iterations=4)", Raising(), Illegal(), Slow(), NoAction(), WrongTyped(), NotAnAction()]
    result = run_tournament("peek", lineup, players=2, games=8, seed=3, budget=1.0)
    # game k seats bot k at seat 0 and bot k + 1 at seat 1; seat 0 moves first
    found = [(f.index, f.kind, f.seat, f.bot, f.step) for f in result.failures]
    assert found == [(1, "raised", 1, "raising", 1), (2, "raised", 0, "raising", 0),
                     (3, "illegal action", 0, "illegal", 0), (4, "too slow", 0, "slow", 0),
                     (5, "no action", 0, "none", 0), (6, "illegal action", 0, "wrong-typed", 0),
                     (7, "not an action", 0, "not-an-action", 0)]
    assert [f.seed for f in result.failures] == [game_seed(3, k) for k in range(1, 8)]
    errors = {f.bot: f.error for f in result.failures}
    assert errors["raising"] == "RuntimeError: the bot's own bug"
    assert errors["slow"] == "no decision within 1 s"
    assert errors["illegal"] == "'peek 0': You already know your own card: pick another seat."
    assert errors["wrong-typed"].startswith("'peek 1.0': '1.0' is not a number")
    assert errors["not-an-action"] == "choose() returned int 42"
    assert [g.index for g in result.games] == list(range(8)) and result.games[0].finished and not result.lost
    assert result.replay(1).history == result.games[1].replay().history and len(result.replay(1).history) == 1
    rows = {row.bot: row for row in result.rows()}
    assert (rows["raising"].games, rows["raising"].wins, rows["raising"].forfeits) == (2, 0, 2)
    game_one = [row for row in result.seat_rows() if row["game"] == 1]
    assert [(row["bot"], row["failure"], row["at_fault"], row["score"], row["won"]) for row in game_one] == [
        ("ismcts(iterations=4)", "raised", False, None, None), ("raising", "raised", True, None, None)]
    assert rows["random"].games == 1  # game 7 did not finish, through no fault of the random bot
    text = result.summary()
    assert "7 games without a result: 7 forfeited by a bot" in text and "forfeits" in text
    assert f"game 4 (seed {game_seed(3, 4)}), step 0: slow (seat 0) too slow: no decision within 1 s" in text
    assert "tabletop-failures" in result._repr_html_() and "stopped: game 4" in result.games[4]._repr_html_()


def test_without_a_budget_a_raising_bot_forfeits_too() -> None:
    result = run_tournament("commissario", ["greedy", Raising()], players=2, games=2, seed=0)
    assert [(f.kind, f.bot) for f in result.failures] == [("raised", "raising")] * 2


def test_a_bot_that_computes_forever_is_stopped_once_abandoned() -> None:
    def busy() -> None:
        try:
            while True:
                pass
        finally:
            STOPPED.set()

    with pytest.raises(TooSlow, match="no decision within 0.2 s"):
        DecisionBudget(0.2).run(busy)
    assert STOPPED.wait(timeout=60)  # the thread was interrupted, not left burning a core
    assert DecisionBudget(5).run(lambda: "quick") == "quick"
    for bad in (0, -1, True, "1"):
        with pytest.raises(ValueError, match="positive number of seconds"):
            DecisionBudget(bad)  # type: ignore[arg-type]


def test_an_interrupted_run_resumes_from_its_file(tmp_path: Path) -> None:
    lineup = ["random", "ismcts(iterations=4)", Raising()]
    whole = run_tournament("peek", lineup, players=2, games=9, seed=4)
    path = tmp_path / "run.jsonl"
    saved = run_tournament("peek", lineup, players=2, games=9, seed=4, chunk_size=1, save=path)
    assert saved.games == whole.games and len(whole.failures) == 6
    lines = path.read_text().splitlines(keepends=True)
    assert len(lines) == 10 and json.loads(lines[0]) == {
        "tournament": 1, "game": "peek", "players": 2, "seed": 4,
        "lineup": ["random", "ismcts(iterations=4)", "raising"], "rules": None}
    path.write_text("".join(lines[:5]) + lines[5][: len(lines[5]) // 2])  # stopped while writing a line
    seen: list[tuple[int, int]] = []
    resumed = run_tournament("peek", lineup, players=2, games=9, seed=4, chunk_size=1, save=path,
                             progress=lambda done, total: seen.append((done, total)))
    assert seen == [(5, 9), (6, 9), (7, 9), (8, 9), (9, 9)]  # only the five missing games were played
    assert resumed.games == whole.games and resumed.summary() == whole.summary()
    assert len(path.read_text().splitlines()) == 10
    seen.clear()
    longer = run_tournament("peek", lineup, players=2, games=11, seed=4, chunk_size=1, save=path,
                            progress=lambda done, total: seen.append((done, total)))
    assert seen == [(10, 11), (11, 11)] and longer.games[:9] == whole.games
    with pytest.raises(ValueError, match="holds another tournament"):
        run_tournament("peek", lineup, players=2, games=9, seed=5, save=path)
    lines = path.read_text().splitlines(keepends=True)
    forged = json.loads(lines[3])
    forged["seed"] += 1
    path.write_text(lines[0] + json.dumps(forged) + "\n")
    with pytest.raises(ValueError, match="line 2: game 2 does not belong to this tournament"):
        run_tournament("peek", lineup, players=2, games=9, seed=4, save=path)


FRAGILE = '''
import multiprocessing
import os

from tabletop_edu.core import RandomBot


class FragileBot(RandomBot):
    """Plays at random; in a worker process, its first decision kills the process (as the OOM killer would)."""

    name = "fragile"

    def choose(self, view, legal_actions, rng):
        if multiprocessing.parent_process() is not None:
            os._exit(1)
        return super().choose(view, legal_actions, rng)
'''


def test_games_of_a_killed_worker_are_reported_and_played_on_resume(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fragile_bots.py").write_text(FRAGILE)
    monkeypatch.syspath_prepend(str(tmp_path))  # worker processes find the module too
    from fragile_bots import FragileBot  # type: ignore[import-not-found]

    lineup = ["random", "ismcts(iterations=4)", FragileBot()]
    path = tmp_path / "run.jsonl"
    with ProcessPoolExecutor(max_workers=2) as pool:
        broken = run_tournament("peek", lineup, players=2, games=6, seed=2, executor=pool, chunk_size=1, save=path)
    lost = {failure.index for failure in broken.lost}
    assert {1, 2, 4, 5} <= lost  # every game where the fragile bot sits (at least those) is reported
    assert lost | {g.index for g in broken.games} == set(range(6)) and not lost & {g.index for g in broken.games}
    assert all(f.kind == "worker" and "BrokenProcessPool" in f.error and f.seat is None for f in broken.lost)
    assert "lost with a worker" in broken.summary()
    with pytest.raises(ValueError, match="lost with its worker"):
        broken.replay(min(lost))
    saved = {json.loads(line)["index"] for line in path.read_text().splitlines()[1:]}
    assert saved == {g.index for g in broken.games}  # lost games are never written down
    resumed = run_tournament("peek", lineup, players=2, games=6, seed=2, save=path)  # in this process
    assert resumed.games == run_tournament("peek", lineup, players=2, games=6, seed=2).games
    assert not resumed.failures and isinstance(broken.lost[0], Failure)
