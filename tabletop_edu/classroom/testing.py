"""Checks for the class server, public like `tabletop_edu.testing`: the leak check of pages and messages,
a server process to start, kill and restart, and students who play by tapping through the protocol (they
ask the menu one word at a time, as the page does, and keep every message their connection receives).

`ManualScheduler`: deadlines a test fires by hand; `wait_until`: a condition reached in the server's thread;
`altered`: a token one character away from a real one; `run_now`: a coroutine of the `Hall` run to its end
from code without an event loop.

`leaked(text, state, seat)` lists the secrets of the other seats that a page's text or a message holds:
the full text (in English and French) of every event `seat` does not see in full, unless the seat sees that
same text through another event. Markup is stripped and entities unescaped first, so a secret cannot hide
behind `<b>` or `&#x27;`.
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..core import GameState
from ..rendering import game_renderer
from .client import Feed, join_room, seat_feed

if TYPE_CHECKING:
    from .hall import Hall
    from .server import ClassServer

T = TypeVar("T")
_TAG = re.compile(r"<[^>]*>")


_WORDED: dict[tuple[Any, ...], frozenset[str]] = {}


def _worded(game: str, players: tuple[str, ...], event: Any) -> frozenset[str]:
    """An event's text in English and French, as the game's `event_text` words it (from its kind, text and
    data alone, so the wording is kept for the next check)."""
    key = (game, players, event.kind, event.text, repr(event.data))
    texts = _WORDED.get(key)
    if texts is None:
        wording = game_renderer(game, "event_text")
        words = {event.text}
        if wording is not None:
            words |= {str(wording(event, players, language)) for language in ("en", "fr")}
        if len(_WORDED) > 200_000:
            _WORDED.clear()
        texts = _WORDED[key] = frozenset(words)
    return texts


def secrets_for(state: GameState[Any], seat: int | None) -> set[str]:
    """What `seat` (None: the projector) must not be shown now: the full texts of the events it does not see
    in full, in English and French, minus any text it does see (check a message against the state of its
    step: what is secret changes as the game goes)."""
    hidden: set[str] = set()
    seen: set[str] = set()
    for event in state.events:
        if event.sees_all(seat):
            seen |= _worded(state.game, state.players, event)
        else:
            hidden |= _worded(state.game, state.players, event)
            shown = event.seen_by(seat)
            if shown is not None:
                seen |= _worded(state.game, state.players, shown)
    # A secret that became public (a reveal at the end lists every character) is no longer one.
    everything_seen = "\n".join(seen)
    return {text for text in hidden - seen if len(text) >= 8 and text not in everything_seen}


def plain_forms(text: str) -> list[str]:
    """The text as it is, unescaped, and with its markup stripped then unescaped."""
    return [text, html.unescape(text), html.unescape(_TAG.sub(" ", text)), " ".join(html.unescape(
        _TAG.sub("", text)).split())]


def strings_of(value: Any) -> list[str]:
    """Every string inside a decoded JSON value (keys too)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in [str(key), *strings_of(item)]]
    if isinstance(value, list):
        return [text for item in value for text in strings_of(item)]
    return []


def leaked(text_or_message: str | dict[str, Any], state: GameState[Any], seat: int | None,
           secrets: set[str] | None = None) -> list[str]:
    """The secrets of others found in a page (its HTML or inner text) or a message (JSON text or dict);
    `secrets` is `secrets_for(state, seat)` when already computed."""
    if isinstance(text_or_message, dict):
        pieces = strings_of(text_or_message)
    else:
        try:
            decoded = json.loads(text_or_message)
            pieces = strings_of(decoded) if isinstance(decoded, (dict, list)) else [text_or_message]
        except ValueError:
            pieces = [text_or_message]
    whole = "\n".join(form for piece in pieces for form in plain_forms(piece))
    if secrets is None:
        secrets = secrets_for(state, seat)
    return sorted(secret for secret in secrets if secret in whole)


class ServerProcess:
    """`python -m tabletop_edu serve --port 0` in its own process group, on an SQLite file.

    `start()` waits for the line giving its address (a condition, not a sleep); `kill()` sends SIGKILL (a hard
    kill: nothing is flushed or closed); `stop()` ends it politely and is safe to call twice."""

    def __init__(self, db: str | Path, log: str | Path, *extra: str, python_options: Sequence[str] = ()) -> None:
        """`extra`: more arguments of `serve`; `python_options`: of the interpreter, before `-m tabletop_edu`
        (`-m cProfile -o FILE` profiles the server: the profile is written when it stops politely)."""
        self.db, self.log_path, self.extra = str(db), Path(log), list(extra)
        self.python_options = list(python_options)
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str] = queue.Queue()
        self.url = ""
        self.token = ""
        self.output: list[str] = []

    def start(self, timeout: float = 60) -> ServerProcess:
        """Start the server of the `tabletop_edu` this module was imported from, not the working folder's: `python
        -m` put the working folder first, so a bench run from a second copy of the code (a git worktree, to compare
        two versions) timed the first copy's server (PYTHONSAFEPATH, Python 3.11+, keeps the folder out)."""
        package_root = str(Path(__file__).resolve().parents[2])
        python_path = os.pathsep.join([package_root, *filter(None, [os.environ.get("PYTHONPATH")])])
        self.process = subprocess.Popen(
            [sys.executable, *self.python_options, "-m", "tabletop_edu", "serve", "--port", "0", "--db", self.db,
             *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONSAFEPATH": "1", "PYTHONPATH": python_path})
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        self.url = self.wait_for(r"serving on (http://\S+?)/? ", timeout).group(1)
        self.token = self.wait_for(r"teacher token: (\S+)", timeout).group(1)
        return self

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        with self.log_path.open("a", encoding="utf-8") as log:
            for line in process.stdout:
                log.write(line)
                log.flush()
                self.output.append(line)
                self.lines.put(line)

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        """The first new output line matching `pattern`."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the server printed no line matching {pattern!r} in {timeout} s: "
                                   f"{''.join(self.output)[-2000:]}")
            try:
                line = self.lines.get(timeout=min(left, 1.0))
            except queue.Empty:
                if self.process is not None and self.process.poll() is not None and self.lines.empty():
                    raise RuntimeError(f"the server stopped: {''.join(self.output)[-2000:]}") from None
                continue
            match = regex.search(line)
            if match:
                return match

    def kill(self) -> None:
        """SIGKILL the whole process group, and wait for it."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def wait_until(condition: Callable[[], bool], timeout: float = 10) -> None:
    """Wait for a condition the server reaches in its own thread (never a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never held")
        time.sleep(0.005)


def altered(token: str) -> str:
    """The token with its last character changed, as a guesser would try: never the token itself, whatever
    character the random token happens to end with (a fixed replacement letter equals it one time in 64)."""
    return token[:-1] + ("A" if token[-1] != "A" else "B")


@dataclass
class Timer:
    """A deadline the server set (`ClassServer(scheduler=...)`): fired by the test, never by the clock."""

    delay: float
    callback: Callable[[], object]  # (a deadline's: the task playing the bot's move)
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """A class server's scheduler for tests: it records every deadline (a move's time limit) and lets the test
    fire it (`timer.callback` through `server.call`), so no test waits on the clock."""

    def __init__(self) -> None:
        self.timers: list[Timer] = []

    def __call__(self, delay: float, callback: Callable[[], object]) -> Timer:
        timer = Timer(delay, callback)
        self.timers.append(timer)
        return timer

    def pending(self, server: ClassServer) -> list[Timer]:
        return list(server.call(lambda: [timer for timer in self.timers if not timer.cancelled]))


class FirstCommitHeld:
    """A hall's writer that holds the first job of moves handed to it (`Store.submit_actions`) until the test
    calls `release`, and writes the later ones as usual: a move caught while it is being committed, with no wait
    on the clock."""

    def __init__(self, hall: Hall) -> None:
        self.hall, self.real = hall, hall.store.submit_actions
        self.first: Future[float] | None = None
        hall.store.submit_actions = self.submit_actions  # type: ignore[method-assign, assignment]

    def submit_actions(self, code: str, moves: Any) -> Future[float]:
        if self.first is not None:
            return self.real(code, moves)
        self.first = Future()
        return self.first

    def release(self) -> None:
        """The held moves are committed (as far as the hall knows); the writer writes as usual from now on."""
        assert self.first is not None
        self.first.set_result(time.time())
        self.hall.store.submit_actions = self.real  # type: ignore[method-assign]


#: Refusals that tell a page its table is out of date: the student looks again.
LOOK_AGAIN = ("stale", "not_your_turn")

#: How a simulated student states a belief: from the question as its page shows it (key, text, options), the
#: table message it came with (its own view as data too, for a student asking with `views=True`) and an rng,
#: whole percents by option summing to 100, or None to leave it unanswered.
BeliefPolicy = Callable[[dict[str, Any], dict[str, Any], random.Random], "dict[str, int] | None"]


def simulated_policy(game: str, student: Any) -> BeliefPolicy:
    """The policy of a simulated student (`beliefs.SimulatedStudent`, its own seeded style and noise) at a table
    of `game`: the reference posterior of the seat's own view (from its table message: a `Student` with
    `views=True`), bent by the student's style."""
    from ..beliefs import BeliefQuestion
    from ..core.view import view_from_json
    from ..registry import game as find_game
    from .games import base_question

    model = find_game(game).belief_model()
    assert model is not None, f"{game} asks no beliefs"

    def policy(shown: dict[str, Any], table: dict[str, Any], rng: random.Random) -> dict[str, int] | None:
        assert "view" in table, "a simulated student reads its own view: join with views=True"
        options = tuple(option["option"] for option in shown["options"])
        labels = tuple(option["label"] for option in shown["options"])
        question = BeliefQuestion(shown["key"], shown["text"], shown["text"], options, labels, labels)
        posterior = model.posterior(view_from_json(table["view"]), base_question(question))
        answer: dict[str, int] | None = student.answer(question, posterior)
        return answer
    return policy


class Student:
    """A seat's connection: every message it received, the latest table, and moves made by tapping."""

    def __init__(self, url: str, token: str, seat: int, name: str, language: str = "en", *,
                 views: bool = False) -> None:
        self.url, self.token, self.seat, self.name = url, token, seat, name
        self.feed: Feed = seat_feed(url, token, language, view=views)
        self.received: list[dict[str, Any]] = []
        self.table: dict[str, Any] | None = None
        self.passed: set[str] = set()  # the belief questions this student chose to leave unanswered

    @classmethod
    def join(cls, url: str, code: str, name: str, language: str = "en", *, views: bool = False) -> Student:
        seat = join_room(url, code, name)
        return cls(url, seat["token"], seat["seat"], name, language, views=views)

    def next(self, predicate: Any = lambda message: True, timeout: float = 30) -> dict[str, Any]:
        def keep(message: dict[str, Any]) -> bool:
            self.received.append(message)
            if message["type"] == "table":
                self.table = message
            return bool(predicate(message))
        return self.feed.next(keep, timeout)

    def drain(self) -> None:
        """Take every message already received, keeping the latest table."""
        while True:
            try:
                message = self.feed.messages.get_nowait()
            except queue.Empty:
                return
            self.received.append(message)
            if message["type"] == "table":
                self.table = message

    def wait_step(self, step: int, timeout: float = 30) -> dict[str, Any]:
        """The latest table message, once it shows `step` or a later one."""
        self.drain()
        if self.table is not None and self.table["started"] and self.table["step"] >= step:
            return self.table
        return self.next(lambda m: m["type"] == "table" and m["started"] and m["step"] >= step, timeout)

    def tap_move(self, rng: random.Random) -> str | None:
        """Choose a move as a person on the page does: one button at a time, each a new menu from the server.
        None when the server says the table moved on under the student's finger ("look again"): a page can
        show a table from before its own move was applied while others choose at the same step."""
        assert self.table is not None and self.table["menu"] is not None, f"{self.name} has no move to make"
        step, menu = self.table["step"], self.table["menu"]
        while True:
            options = menu["options"]
            if menu["complete"] is not None and (not options or rng.random() < 0.3):
                action = menu["complete"]
                break
            option = rng.choice(options)
            if option["action"] is not None:
                action = option["action"]
                break
            self.feed.send({"type": "menu", "step": step, "chosen": [*menu["chosen"], option["word"]]})
            menu = self.next(lambda m: m["type"] in ("menu", "refused"))
            if menu["type"] == "refused" and menu["code"] in LOOK_AGAIN:
                return None
            assert menu["type"] == "menu", menu
        self.feed.send({"type": "move", "step": step, "action": action})
        outcome = self.next(lambda m: m["type"] == "refused" or (m["type"] == "table" and m["step"] > step))
        if outcome["type"] == "refused" and outcome["code"] in LOOK_AGAIN:
            return None
        assert outcome["type"] == "table", f"{self.name}'s move {action!r} was refused: {outcome}"
        return str(action)

    def open_questions(self) -> list[dict[str, Any]]:
        """The belief questions the latest table asks this seat, not answered yet nor passed over."""
        panel = (self.table or {}).get("beliefs")
        return [] if panel is None else [question for question in panel["questions"]
                                         if question["sent"] is None and question["key"] not in self.passed]

    def answer_beliefs(self, policy: BeliefPolicy, rng: random.Random) -> list[dict[str, Any]]:
        """State a belief for every open question of the latest table, as a person taps it on the page, each
        sent once the previous one is acknowledged; returns the acknowledgements (a question the table moved
        past meanwhile is refused as stale and skipped)."""
        received = []
        for question in self.open_questions():
            assert self.table is not None
            step = self.table["beliefs"]["step"]
            percents = policy(question, self.table, rng)
            if percents is None:
                self.passed.add(question["key"])
                continue
            self.feed.send({"type": "belief", "step": step, "key": question["key"], "percents": percents})
            outcome = self.next(lambda m: m["type"] in ("belief_received", "refused"))
            if outcome["type"] == "refused" and outcome["code"] == "stale":
                continue
            assert outcome["type"] == "belief_received", f"{self.name}'s belief was refused: {outcome}"
            received.append(outcome)
        return received

    def close(self) -> None:
        self.feed.close()


def seat_students(url: str, code: str, names: list[str], language: str = "en", *,
                  views: bool = False) -> list[Student]:
    return [Student.join(url, code, name, language, views=views) for name in names]


def play_to_the_end(students: list[Student], rng: random.Random, *, first_step: int = 0,
                    limit: int = 400, believe: BeliefPolicy | list[BeliefPolicy] | None = None) -> int:
    """Every student taps moves whenever their seat is to act (bots of the room play the other seats), until
    the game is over; returns the number of moves played. With `believe` (one policy, or one per student), each
    student first states a belief for every question its page asks (in a room that asks beliefs)."""
    policies = believe if isinstance(believe, list) else [believe] * len(students)
    step = first_step
    for _ in range(limit):
        tables = [student.wait_step(step) for student in students]
        current = max(table["step"] for table in tables)
        if any(table["over"] for table in tables):
            return current
        if any(table["step"] < current for table in tables):  # a page has not heard of the latest move yet:
            step = current                                      # wait until every page has, then look again
            continue
        for student, policy in zip(students, policies):
            if policy is not None:
                student.answer_beliefs(policy, rng)
        movers = [student for student, table in zip(students, tables)
                  if table["menu"] is not None and table["step"] == current]
        if movers:
            movers[0].tap_move(rng)  # played, or refused as out of date: either way the table is past `current`
            step = current + 1
        else:  # a bot is to move, or the teacher paused: every change reaches every seat, so wait for the next
            students[0].next(lambda m: m["type"] == "table")
            step = current
    raise AssertionError(f"the game did not end within {limit} moves")


def run_now(work: Coroutine[Any, Any, T]) -> T:
    """`work` (a coroutine of the `Hall`: a room opened, a seat taken, a move played) run to its end here, on an
    event loop of its own, for code that has none (tests, benchmarks). A server's rooms are the server loop's:
    there, pass the coroutine to `ClassServer.call` instead. Where this thread already runs a loop (a browser
    test's playwright), it runs on a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with ThreadPoolExecutor(max_workers=1) as runner:
        return runner.submit(asyncio.run, work).result()
