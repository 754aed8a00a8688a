"""Every property test draws the same examples on every run (hypothesis derandomized, no example database): a
test that fails in CI fails on every machine, and a green run stays green. No test depends on global randomness;
a budget that should explore more is raised in the test, not left to luck. No test leaves a class feed
reconnecting behind it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

from tabletop_edu.classroom.client import Feed

settings.register_profile("repeatable", derandomize=True, database=None)
settings.load_profile("repeatable")


@pytest.fixture(autouse=True)
def feeds_closed_after_each_test(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Feed]]:
    """Every class feed a test opens is closed after it, also on failure. A feed left open reconnects to its
    stopped server every 2 s for the rest of the run (15 of them did): a test that stands in for tornado's
    `websocket_connect` then hands its fake socket to them too."""
    opened: list[Feed] = []
    opening = Feed.__init__

    def noted(feed: Feed, *args: Any, **options: Any) -> None:
        opening(feed, *args, **options)
        opened.append(feed)

    monkeypatch.setattr(Feed, "__init__", noted)
    yield opened
    for feed in opened:
        feed.close()
