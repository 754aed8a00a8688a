"""How fast the bots move, so that a class can follow a game and talk about each move.

Three paces: `INSTANT` (bots answer at once), `TIMED` (one bot move every `delay` seconds) and `STEP` (one bot
move each time someone clicks "Next move"). Timed moves are scheduled through a `Scheduler`, never by sleeping:
in a notebook the `LoopScheduler` puts them on the kernel's running event loop (so the page stays responsive
between moves), and tests hand the widget a `ManualScheduler` whose clock moves only when told to.

    widget = GameWidget(state, bots=bots, bot_pace=TIMED, scheduler=ManualScheduler())
    widget.scheduler.advance(1.0)   # exactly one bot move, without waiting a second
"""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

INSTANT = "instant"
TIMED = "timed"
STEP = "step"
PACES = (INSTANT, TIMED, STEP)


class Timer(Protocol):
    """A scheduled call that may be cancelled before it runs."""

    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Runs `callback` once, `delay` seconds from now, without blocking the caller."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer: ...


class LoopScheduler:
    """Timers on the running asyncio event loop: the kernel's, in JupyterLab and Voila.

    Raises RuntimeError where no event loop runs (a plain script), where timed play cannot work."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback)


@dataclass(order=True)
class _Scheduled:
    when: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """A clock that moves only when told to: `advance(seconds)` runs, in time order, every call that falls due
    (calls scheduled by those calls included). For tests and scripted demonstrations: nothing ever sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self._queue: list[_Scheduled] = []
        self._count = 0

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        self._count += 1
        scheduled = _Scheduled(self.now + delay, self._count, callback)
        heapq.heappush(self._queue, scheduled)
        return scheduled

    @property
    def pending(self) -> int:
        """How many calls are waiting (cancelled ones excluded)."""
        return sum(not scheduled.cancelled for scheduled in self._queue)

    def advance(self, seconds: float) -> int:
        """Move the clock `seconds` forward, running every call that falls due; returns how many ran."""
        until = self.now + seconds
        ran = 0
        while self._queue and self._queue[0].when <= until:
            scheduled = heapq.heappop(self._queue)
            if scheduled.cancelled:
                continue
            self.now = scheduled.when
            scheduled.callback()
            ran += 1
        self.now = until
        return ran
