"""The test suite repeats itself: property tests draw the same examples on every run (`tests/conftest.py`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

drawn: list[list[int]] = []


@settings(max_examples=20)
@given(st.lists(st.integers(), max_size=5))
def draw(values: list[int]) -> None:
    drawn.append(values)


def test_property_tests_draw_the_same_examples_every_run() -> None:
    assert settings.default.derandomize and settings.default.database is None
    draw()
    first = list(drawn)
    drawn.clear()
    draw()
    assert drawn == first and len(first) == 20
