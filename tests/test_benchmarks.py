"""The benchmark harness counts what it says it counts, and every benchmark script still imports.

Speed itself is never asserted here (shared machines are noisy): `python -m tabletop_edu bench` prints it.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import math
import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tabletop_edu import commissario, mafia_de_cuba
from tabletop_edu.examples import peek

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    """A benchmark script as a module, without running its main()."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


@pytest.mark.parametrize("script", sorted(path.stem for path in BENCHMARKS.glob("bench_*.py")))
def test_every_benchmark_script_imports_and_has_a_main(script: str) -> None:
    assert callable(load(script).main)


def test_our_games_count_every_step_as_a_decision_and_replay_the_same_games() -> None:
    reference = load("reference")
    name, play_one = reference.our_game(commissario, 3)
    result = reference.measure(name, play_one, 0.05)
    assert result.games >= 1 and result.steps == result.decisions
    replayed = sum(len(play_with_seed(seed).history) for seed in range(result.games))
    assert result.steps == replayed  # seeds 0, 1, ... and nothing else decides the games


def play_with_seed(seed: int) -> commissario.CommissarioState:
    state, rng = commissario.new_game(3, seed=seed), random.Random(seed)
    while not state.is_over:
        seat = state.acting_seats[0]
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    return state


def test_side_by_side_keeps_each_contenders_best_turn_and_report_prints_each_ratio() -> None:
    reference = load("reference")
    turns: dict[str, int] = {}

    def counting(name: str, steps: int, decisions: int) -> tuple[str, Callable[[int], tuple[int, int]]]:
        """A stand-in whose every game is `steps` long with `decisions` of them, like a dealt card game."""
        def play_one(seed: int) -> tuple[int, int]:
            turns[name] = turns.get(name, 0) + (seed == 0)
            return steps, decisions
        return name, play_one

    mine, theirs = reference.side_by_side([reference.our_game(peek, 3), counting("dealt", 10, 4)], 0.06, turns=3)
    assert turns == {"dealt": 3}  # each contender measured once per turn, starting again from seed 0
    assert theirs.steps == theirs.games * 10 and theirs.decisions == theirs.games * 4
    text = reference.report([mine], [theirs])
    expected = mine.decisions_per_second / theirs.decisions_per_second
    assert f"decisions/s x{expected:.2f}" in text and "steps/s x" in text and "games/s x" in text


def test_bench_engines_prints_each_game_against_the_faster_peer_and_the_slowest_ratio() -> None:
    engines = load("bench_engines")
    reference = load("reference")
    peers = [reference.Throughput("slow peer", 10, 10, 5, 1.0), reference.Throughput("fast peer", 40, 40, 20, 1.0)]
    ours = [reference.Throughput("game (2 players)", 100, 100, 2, 1.0),
            reference.Throughput("game (3 players)", 60, 60, 1, 1.0)]
    lines = engines.ratio_lines(ours, peers)
    assert lines[2].endswith("x2.50 of fast peer") and lines[3].endswith("x1.50 of fast peer")
    assert lines[-1] == "slowest ratio x1.50 (game (3 players))"
    assert {players for module, tables in engines.TABLES for players in tables} >= set(range(2, 7)) | {9, 12}


def test_bench_engines_searches_a_real_decision_of_every_game() -> None:
    engines = load("bench_engines")
    for module, _ in engines.TABLES:
        state, seat = engines.searched_decision(module)
        assert len(state.legal_actions(seat)) >= 2  # a search with one move would not play out anything
    assert engines.playouts_per_second(commissario, iterations=4, repeats=1) > 0


def test_the_classroom_bench_tells_a_refused_move_from_a_refused_menu_and_times_every_screen() -> None:
    bench = load("bench_classroom")
    room = bench.RoomLoad("ABCDE", 2)

    class Socket:
        """What the server sends, when the test says so (a read waits, like a socket's)."""

        def __init__(self) -> None:
            self.arriving: asyncio.Queue[str] = asyncio.Queue()
            self.sent: list[str] = []

        def feed(self, *messages: dict[str, object]) -> None:
            for message in messages:
                self.arriving.put_nowait(json.dumps(message))

        async def read_message(self) -> str | None:
            return await self.arriving.get()

        async def write_message(self, text: str) -> None:
            self.sent.append(text)

        def close(self) -> None:
            pass

    def table(step: int, seat: int) -> dict[str, object]:
        return {"type": "table", "started": True, "step": step, "over": False, "seat": seat}

    refused = [{"type": "refused", "code": "stale", "step": 3, "answers": "move"},
               {"type": "refused", "code": "stale", "step": 4, "answers": "move"},
               {"type": "refused", "code": "stale", "step": 3, "answers": "menu"}]  # a menu's, at a move's step
    first: Any = None

    async def play() -> None:
        nonlocal first
        first, second = bench.Screen(room, Socket()), bench.Screen(room, Socket())
        first.socket.feed(table(3, 0))
        second.socket.feed(table(3, 1))
        await first.next()
        await second.next()
        await first.move(3, "pass")
        await first.move(3, "pass")  # the same step's move sent twice: two refusals can answer it
        first.socket.feed(*refused, table(4, 0), table(4, 0))
        second.socket.feed(table(4, 1))
        for _ in range(5):
            await first.next()
        await second.next()
        for screen in (first, second):
            screen.close()

    asyncio.run(play())
    assert room.moves == 2 and room.refused_moves == 1  # the refusal of step 4 answered a menu, not a move
    assert len(room.refusals) == 3  # a table sent again counts once:
    assert {screen: [step for step, _ in shown] for screen, shown in room.shown.items()} == {0: [3, 4], 1: [3, 4]}
    room.measure([[1, "x"], [1, "x"], [1, "x"], [0, "pass"]])  # step 4 is seat 0's move: timed from its last send
    last_screen = max(shown[-1][1] for shown in room.shown.values())
    assert len(room.latencies) == 1 and 0 <= room.latencies[0] == last_screen - room.sends[0][-1]
    assert first is not None and first.seat == 0 and room.last_step_shown == 4
    # the room's first screen alone deflates (its 3 tables; the second's 2 are not), and a table is timed as it
    # came off the socket, not when this process got round to reading it
    assert len(room.update_bytes) == 5 and len(room.deflated_bytes) == 3
    first.note(table(5, 0), arrived=123.0)
    assert room.shown[0][-1] == (5, 123.0)


def story_table(step: int, menu: dict[str, Any] | None, over: bool = False) -> dict[str, Any]:
    """A table as a bench student's page gets it, for seat 0."""
    return {"type": "table", "started": True, "step": step, "over": over, "seat": 0, "menu": menu}


class StorySocket:
    """The server of a bench student's story: the first table, then for each message the student sends the
    answers `answer(message, sent)` gives (`sent`: every message so far, this one last)."""

    def __init__(self, first: dict[str, Any],
                 answer: Callable[[dict[str, Any], list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
        self.arriving: asyncio.Queue[str] = asyncio.Queue()
        self.arriving.put_nowait(json.dumps(first))
        self.answer = answer
        self.sent: list[dict[str, Any]] = []

    async def read_message(self) -> str | None:
        return await self.arriving.get()

    async def write_message(self, text: str) -> None:
        message = json.loads(text)
        self.sent.append(message)
        for reply in self.answer(message, self.sent):
            self.arriving.put_nowait(json.dumps(reply))

    def close(self) -> None:
        pass


def play_story(bench: ModuleType, room: Any, socket: StorySocket) -> None:
    """Run a bench student on `socket` to its end; one left waiting for ever fails, saying what it sent and was
    shown."""
    async def connect(*_: Any, **__: Any) -> StorySocket:
        return socket

    student = bench.student("http://127.0.0.1:1", "token", room, random.Random(0), deadline=float("inf"),
                            connect=connect)
    try:
        asyncio.run(asyncio.wait_for(student, 30))
    except asyncio.TimeoutError:
        pytest.fail(f"the student waited for ever after sending {socket.sent}; its room was shown {room.shown} and "
                    f"refused {room.refusals}")


def test_a_bench_student_whose_words_no_longer_start_a_move_plays_from_the_tables_own_menu() -> None:
    """A student taps a word; another seat's move redraws its table; the words asked again at the new step start
    no move there and are refused. Like its page (seat.js), the student then plays from the new table's own
    menu: left waiting for another table, it waited for ever when it was the last seat to act."""
    bench = load("bench_classroom")
    room = bench.RoomLoad("ABCDE", 2)

    def menu(step: int, word: str, action: str | None) -> dict[str, Any]:
        return {"type": "menu", "step": step, "chosen": [], "complete": None,
                "options": [{"word": word, "label": word, "action": action}]}

    def answer(message: dict[str, Any], sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if message["type"] == "menu" and message["step"] == 3:  # another seat moves meanwhile
            return [story_table(4, menu(4, "pass", "pass"))]
        if message["type"] == "menu":  # "saw", asked again at step 4, starts no move there
            return [{"type": "refused", "code": "illegal", "step": 4, "answers": "menu"}]
        return [story_table(5, None, over=True)]

    socket = StorySocket(story_table(3, menu(3, "saw", None)), answer)
    play_story(bench, room, socket)
    assert [(message["type"], message["step"]) for message in socket.sent] == [("menu", 3), ("menu", 4),
                                                                              ("move", 4)]
    assert socket.sent[1]["chosen"] == ["saw"] and socket.sent[2]["action"] == "pass"


@pytest.mark.parametrize("refused", ["menu", "move"])
def test_a_bench_student_told_to_slow_down_taps_again(monkeypatch: pytest.MonkeyPatch, refused: str) -> None:
    """A page's message refused as `flood` (too many at once) says not which message it was: the student taps again
    on the newest table, like a person reading "slow down". Left waiting, it waited for ever when the refused
    message was its room's awaited move (or the menu on the way to it)."""
    bench = load("bench_classroom")
    monkeypatch.setattr(bench, "FLOOD_RATE", 1000.0)  # a token's time: a millisecond here
    room = bench.RoomLoad("ABCDE", 1)
    first_menu = {"type": "menu", "step": 3, "chosen": [], "complete": None,
                  "options": [{"word": "take", "label": "take", "action": None}]}
    second_menu = {"type": "menu", "step": 3, "chosen": ["take"], "complete": None,
                   "options": [{"word": "3", "label": "3", "action": "take 3"}]}

    def answer(message: dict[str, Any], sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Refuses the first message of the kind this case floods, answers the others."""
        if message["type"] == refused and sum(earlier["type"] == refused for earlier in sent) == 1:
            return [{"type": "refused", "code": "flood", "step": None, "answers": None}]
        if message["type"] == "menu":
            return [second_menu]
        return [story_table(4, None, over=True)]

    socket = StorySocket(story_table(3, first_menu), answer)
    play_story(bench, room, socket)
    sent = [(message["type"], message.get("chosen", message.get("action"))) for message in socket.sent]
    assert sent == [("menu", ["take"]), ("menu", ["take"]), ("move", "take 3")] if refused == "menu" else \
        [("menu", ["take"]), ("move", "take 3"), ("menu", ["take"]), ("move", "take 3")]
    assert room.over and [refusal["code"] for refusal in room.refusals] == ["flood"]


def test_a_bench_student_told_to_slow_down_taps_again_on_the_newest_table_it_was_shown() -> None:
    """A student asks its menu; another seat's move brings a new table, and the student plays its move there; the
    move is refused as `flood`. It taps again on that newest table. Once it tapped again on the table it had last
    played from the top of its loop, a step long gone: its menus were answered at the room's step and never
    matched, and the room waited for ever (1 run in 30 flat out)."""
    bench = load("bench_classroom")
    bench.FLOOD_RATE = 1000.0  # a token's time: a millisecond here (the module is this test's own)
    room = bench.RoomLoad("ABCDE", 1)

    def menu(step: int, chosen: list[str], word: str, action: str | None) -> dict[str, Any]:
        return {"type": "menu", "step": step, "chosen": chosen, "complete": None,
                "options": [{"word": word, "label": word, "action": action}]}

    def answer(message: dict[str, Any], sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if message["type"] == "menu" and message["step"] == 3:  # another seat moves meanwhile
            return [story_table(4, menu(4, [], "take", None))]
        if message["type"] == "menu":
            return [menu(4, ["take"], "3", "take 3")]
        if sum(earlier["type"] == "move" for earlier in sent) == 1:
            return [{"type": "refused", "code": "flood", "step": None, "answers": None}]
        return [story_table(5, None, over=True)]

    socket = StorySocket(story_table(3, menu(3, [], "take", None)), answer)
    play_story(bench, room, socket)
    assert [(message["type"], message["step"]) for message in socket.sent] == [
        ("menu", 3), ("menu", 4), ("move", 4), ("menu", 4), ("move", 4)]
    assert room.over and [refusal["code"] for refusal in room.refusals] == ["flood"]


@pytest.mark.parametrize("flat_out", [True, False])
def test_the_classroom_bench_fails_a_run_on_a_refusal_it_should_not_have_had(flat_out: bool) -> None:
    """Flat out, students that never think are slowed down (`flood`) as the server must; at a human pace a flood
    fails the run. Any other refusal but a table that moved on or ended fails it in both."""
    bench = load("bench_classroom")
    refusals = [{"type": "refused", "code": code} for code in ("stale", "over", "flood", "not_your_turn", "malformed")]
    failing = [refusal["code"] for refusal in bench.unexpected_refusals(refusals, flat_out=flat_out)]
    assert failing == (["not_your_turn", "malformed"] if flat_out else ["flood", "not_your_turn", "malformed"])
    assert bench.unexpected_refusals(refusals[:2], flat_out=flat_out) == []


def test_the_classroom_bench_times_moves_committed_together_until_the_table_that_shows_them() -> None:
    """Two moves committed together reach the screens in one table (step 0, then 2): each counts from its own
    seat's send until every screen showed step 2; none is left out for want of a table of its own."""
    bench = load("bench_classroom")
    room = bench.RoomLoad("ABCDE", 2)
    room.sends = {0: [1.0], 1: [1.5, 3.0]}  # seat 1's second send comes after the table: not this move's
    room.shown = {0: [(0, 0.5), (2, 2.0)], 1: [(0, 0.5), (2, 2.5)]}
    room.measure([[0, "a"], [1, "b"]])
    assert room.latencies == [1.5, 1.0] and room.last_step_shown == 2
    assert room.timed == [(1.0, 1.5), (1.5, 1.0)]  # each latency with its move's send
    room.latencies = []
    room.shown = {0: [(0, 0.5), (2, 2.0)]}  # a screen never shown anything: nothing can be timed
    room.measure([[0, "a"], [1, "b"]])
    assert room.latencies == []


def test_the_classroom_bench_splits_the_latencies_by_the_rooms_busy_phase() -> None:
    """A quiet start and end (2 moves a second, 10 ms) around a busy phase (20 a second, 100 ms, then 40 ms in its
    last seconds): the busy phase is found from its first to its last busy window, and each part has its own p95."""
    bench = load("bench_classroom")
    quiet = [(100.0 + second + half / 2, 0.010) for second in [*range(10), *range(25, 35)] for half in range(2)]
    busy = [(110.0 + tenth / 20, 0.100 if tenth < 200 else 0.040) for tenth in range(300)]
    timed = quiet + busy
    assert bench.busy_phase(timed) == (10.0, 25.0, 20.0)
    text = bench.phases_text(timed)
    assert text == ("by phase: the rooms' busiest, 10-25 s after the first move (20 moves/s): p50 100.0 ms, p95 100.0 "
                    "ms over 300 moves; before and after it: p50 10.0 ms, p95 10.0 ms over the 40 others")
    assert bench.phases_text(busy).endswith("before and after it: no other move")
    assert bench.phases_text([]) == "no move was timed"


def test_the_classroom_bench_counts_the_moves_in_flight_by_littles_law() -> None:
    bench = load("bench_classroom")
    # 40 moves of 0.25 s each over 5 s of play: 2 in flight at once on average; 100 menus for 40 moves
    text = bench.closed_loop_text([0.25] * 40, 5.0, 24, 100, 40, flat_out=True)
    assert text == ("moves in flight at once, on average: 2.0 of 24 students (Little's law), each move after 2.5 menu "
                    "requests; flat out, a closed loop: a faster server is sent more moves at once")
    assert not bench.closed_loop_text([0.25] * 40, 5.0, 24, 100, 40, flat_out=False).endswith("at once")
    assert bench.closed_loop_text([], 5.0, 24, 0, 0, flat_out=True) == "moves in flight: none timed"


def test_the_class_tables_bench_draws_every_move_both_ways_and_prints_the_ratio() -> None:
    bench = load("bench_class_tables")
    moves = bench.drawing_times(1, 6)
    state = mafia_de_cuba.new_game(6, seed=0)
    rng = random.Random(0)
    while not state.is_over:  # the same seeded game, move for move
        seat = state.acting_seats[0]
        state.apply(str(rng.choice(state.legal_actions(seat))), player=seat)
    assert len(moves) == len(state.history) and all(server > 0 and scratch > 0 for _, server, scratch in moves)
    assert {phase for phase, _, _ in moves} >= {"floor", "over"}
    line = bench.summary("every move", moves)
    assert line.startswith(f"every move ({len(moves)} moves): class server p50 ") and "ratio" in line


def test_the_classroom_bench_seats_rooms_of_a_drawn_size_and_refuses_sizes_mafia_cannot_seat() -> None:
    bench = load("bench_classroom")
    assert bench.room_sizes("12") == (12, 12) and bench.room_sizes("8-12") == (8, 12)
    sizes = bench.drawn_sizes(30, (8, 12), 5)
    assert sizes == bench.drawn_sizes(30, (8, 12), 5) != bench.drawn_sizes(30, (8, 12), 6)  # the seed's, only
    assert set(sizes) == set(range(8, 13))  # 30 rooms: every size between the bounds, none outside
    assert bench.drawn_sizes(3, (12, 12), 5) == [12, 12, 12]
    for text in ("", "twelve", "8-", "-12", "12-8", "5", "8-13", "8.5-12"):
        with pytest.raises(argparse.ArgumentTypeError, match="--students"):
            bench.room_sizes(text)


def test_the_classroom_bench_finds_the_servers_busiest_window_not_its_average() -> None:
    bench = load("bench_classroom")
    shares = [0.3] * 10 + [1.0] * 6 + [0.2] * 10  # a share of one core in each second: the floor in the middle
    samples, cpu = [(0.0, 0.0)], 0.0
    for second, share in enumerate(shares, start=1):
        cpu += share
        samples.append((float(second), cpu))
    assert bench.busiest_share(samples, window=5) == pytest.approx(1.0)
    assert bench.busiest_share(samples, window=len(shares)) == pytest.approx(sum(shares) / len(shares))
    assert bench.busiest_share(samples[:4], window=5) is None  # three seconds sampled: no window of five
    uneven = [(0.0, 0.0), (2.0, 1.0), (7.5, 2.0), (8.0, 2.5)]  # late samples: the shortest span of 5 s or more
    assert bench.busiest_share(uneven, window=5) == pytest.approx(max(1.0 / 5.5, 1.5 / 6.0))


def test_the_classroom_bench_times_drawing_steps_of_the_floor_to_show_the_machines_speed() -> None:
    bench = load("bench_classroom")
    times = bench.floor_draw_ms(seats=6, seed=3, moves=4)
    assert len(times) == 4 and all(ms > 0 for ms in times)


def test_the_draw_workers_bench_draws_the_same_rounds_every_way_and_prints_each_ratio() -> None:
    bench = load("bench_draw_workers")
    rates = asyncio.run(bench.rooms_drawn_per_second(rooms=2, seats=6, steps=3))
    assert set(rates) == set(bench.WAYS) and all(rate > 0 for rate in rates.values())
    lines = bench.report(rates)
    assert lines[0].startswith("on the loop (the reference): ")
    assert [line.split(" ")[0] for line in lines[1:]] == ["1", "2"] and all("ratio to the loop" in line
                                                                            for line in lines[1:])


def test_the_classroom_bench_tells_the_cpu_its_host_took() -> None:
    """On a shared virtual machine the same run's latencies double when the host takes the cores: the bench says
    how much it took (CPU steal), over the run and its worst window, and says so when it could not measure it."""
    bench = load("bench_classroom")
    stolen = [(float(second), 0.1 * min(second, 10) + 0.5 * max(0, second - 10)) for second in range(16)]
    assert bench.stolen_text(stolen) == "its host took 23 % of a core from it (CPU steal), 50 % over its worst 5 s"
    assert bench.stolen_text(stolen[:1]) == bench.stolen_text([]) == "the CPU its host took was not measured"
    measured = bench.host_stolen_seconds()
    assert measured is None or measured >= 0.0


def test_the_classroom_bench_names_the_code_it_timed_and_whether_it_had_changes(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Two copies of the code timed side by side must say which is which: the folder, its commit, and whether
    the package had changes not committed (a folder outside git: the folder only)."""
    bench = load("bench_classroom")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # a temporary folder inside a checkout is outside
    package = tmp_path / "copy" / "tabletop_edu"
    package.mkdir(parents=True)
    assert bench.timed_code(package) == f"the code in {package.parent}"
    (package / "__init__.py").write_text("VERSION = 1\n", encoding="utf-8")
    git = ["git", "-C", str(package.parent), "-c", "user.name=bench", "-c", "user.email=bench@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first"], check=True)
    commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    assert bench.timed_code(package) == f"the code in {package.parent} (commit {commit})"
    (package / "__init__.py").write_text("VERSION = 2\n", encoding="utf-8")
    assert bench.timed_code(package) == \
        f"the code in {package.parent} (commit {commit}, with changes not committed)"


def test_the_classroom_bench_keeps_the_server_and_the_students_on_cpus_of_their_own() -> None:
    """`--separate-cores`: the server (spawned while this process is on the server's CPUs) keeps them, and every
    thread here moves to the students' CPU; one CPU cannot be split, and says so."""
    bench = load("bench_classroom")
    assert bench.split_cores({3, 0, 1}) == ({0, 1}, {3})
    for single in ({2}, set()):
        with pytest.raises(ValueError, match="--separate-cores needs two CPUs"):
            bench.split_cores(single)
    assert bench.cores_text(None) == "the server and the students sharing this machine's CPUs"
    assert bench.cores_text(({0, 1}, {3})) == "the server on CPU 0, 1, the students on CPU 3 (--separate-cores)"
    assert bench.started_apart(lambda: "no move", None) == "no move"

    mine = os.sched_getaffinity(0)
    first = min(mine)
    readers: list[threading.Thread] = []

    def start() -> str:
        """As `ServerProcess.start`: spawn a process, and leave a thread here reading it."""
        readers.append(threading.Thread(target=threading.Event().wait, args=(5,), daemon=True))
        readers[0].start()
        return subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                              capture_output=True, text=True, check=True).stdout

    try:
        assert bench.started_apart(start, ({first}, mine)).strip() == f"[{first}]"  # the server's CPUs only
        assert os.sched_getaffinity(0) == mine and os.sched_getaffinity(readers[0].native_id) == mine
    finally:
        os.sched_setaffinity(0, mine)


def test_the_deadlines_bench_plays_every_move_of_a_class_whose_time_ran_out(capsys: pytest.CaptureFixture[str]) -> None:
    """Two rooms of three at the picks: six deadlines at once, six bots' moves played, and the figures printed."""
    assert load("bench_deadlines").main(["--rooms", "2", "--seats", "3", "--seed", "5"]) == 0
    printed = capsys.readouterr().out
    assert "2 rooms x 3 students of Commissario at the picks, 6 deadlines passing at once" in printed
    assert "6 of their 6 moves played after" in printed and "a message's wait for the loop meanwhile: max" in printed


def test_the_lecture_hall_bench_seats_a_small_class_by_its_join_page_and_every_screen_sees_every_move() -> None:
    """The lecture-hall bench's own code path on twelve students of Get Adler and a one-hour game: all join one code
    through the join page and sit, every table plays to its end, every screen is shown every move, and every
    figure the bench prints is a number (no time asserted: the figures are the bench's to print)."""
    bench = load("bench_lecture_hall")
    think = (0.0, 0.05)
    hall = bench.lecture_hall("get_adler", 12, arrive_within=0.5, think=think, seed=3,
                              rules={"hours": 1, "first_arrest_hour": 1}, seconds=300)
    assert hall.seated == 12 and sum(room.students for room in hall.rooms.values()) == 12
    assert all(4 <= room.students <= 6 for room in hall.rooms.values())
    assert bench.failures(hall, think) == []
    for code, room in hall.rooms.items():
        moves = hall.moves[code]
        assert moves and room.over, f"table {code} played to its end"
        assert len(room.shown) == room.students
        for shown in room.shown.values():
            assert shown[-1][0] == len(moves), "every screen was shown the table after the last move"
    assert hall.unseen == 0 and len(hall.every_screen) == sum(len(moves) for moves in hall.moves.values())
    values = bench.figures(hall)
    assert all(math.isfinite(value) for value in values.values()), values
    text = bench.table_text(values, "get_adler", think)
    assert "seconds to seat everyone" in text and "move -> every screen" in text and "nan" not in text
