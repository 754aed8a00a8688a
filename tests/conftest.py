"""Every property test draws the same examples on every run (hypothesis derandomized, no example database): a
test that fails in CI fails on every machine, and a green run stays green. No test depends on global randomness;
a budget that should explore more is raised in the test, not left to luck."""

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None)
settings.load_profile("repeatable")
