"""Throttles: a flood of messages from one page refused, and wrong room codes counted per client.

Each connection may send `FLOOD_BURST` messages at once and `FLOOD_RATE` a second after that (`TokenBucket`);
wrong room codes are throttled per client (`GuessThrottle`), so that guessing a room's code takes years.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .commits import stored
from .hall import Hall
from .rooms import Refused, Room, TableSeat

FLOOD_BURST = 40
FLOOD_RATE = 20.0
#: Wrong room codes a client may type at once, then one every 1 / GUESS_RATE seconds: a student's typos pass,
#: while guessing one of the 28 million codes takes years.
GUESS_BURST = 10
GUESS_RATE = 0.2
#: Clients whose wrong guesses are remembered at once (past this, those that may guess again are forgotten).
MAX_GUESSERS = 10_000


class TokenBucket:
    """At most `burst` messages at once and `rate` per second after: a flood is refused, not queued."""

    def __init__(self, burst: int = FLOOD_BURST, rate: float = FLOOD_RATE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> bool:
        if not self.ready():
            return False
        self.tokens -= 1
        return True

    def ready(self) -> bool:
        """Whether a message may pass now (without taking its token)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        return self.tokens >= 1


class GuessThrottle:
    """Wrong room codes, counted per client: `GUESS_BURST` at once and `GUESS_RATE` a second after, then
    every join from that client is refused until it may guess again (right codes cost nothing)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, burst: int = GUESS_BURST,
                 rate: float = GUESS_RATE) -> None:
        self.clock, self.burst, self.rate = clock, burst, rate
        self.guessers: dict[str, TokenBucket] = {}

    def check(self, client: str) -> None:
        """`Refused` (429) if `client` has used up its wrong guesses."""
        bucket = self.guessers.get(client)
        if bucket is not None and not bucket.ready():
            raise Refused("too_many_guesses", "Too many wrong room codes: check the code on the projector and "
                          "try again in a minute.", 429)

    def missed(self, client: str) -> None:
        """`client` typed a code no room has."""
        if client not in self.guessers and len(self.guessers) >= MAX_GUESSERS:
            self.guessers = {who: bucket for who, bucket in self.guessers.items() if not bucket.ready()}
            if len(self.guessers) >= MAX_GUESSERS:
                self.guessers.clear()  # a flood from everywhere: forget rather than grow
        bucket = self.guessers.setdefault(client, TokenBucket(self.burst, self.rate, self.clock))
        bucket.take()

    async def join(self, hall: Hall, client: str, code: Any, name: Any) -> tuple[Room, TableSeat]:
        """`hall.join(code, name)` for `client`, counting its wrong codes (tried again while the database
        is held elsewhere: `stored`)."""
        self.check(client)
        try:
            return await stored(lambda: hall.join(code, name))
        except Refused as refusal:
            if refusal.code == "unknown_room":
                self.missed(client)
            raise
