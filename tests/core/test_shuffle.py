"""`core.shuffle` deals exactly what `random.Random.shuffle` deals, so seeds keep their games."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from tabletop_edu.core import shuffle


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), size=st.integers(min_value=0, max_value=130))
def test_shuffle_gives_the_standard_permutation_and_leaves_the_generator_as_it_does(seed: int, size: int) -> None:
    mine, theirs = random.Random(seed), random.Random(seed)
    items, expected = list(range(size)), list(range(size))
    shuffle(mine, items)
    theirs.shuffle(expected)
    assert items == expected and mine.getstate() == theirs.getstate()


def test_a_generator_of_another_class_shuffles_its_own_way() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reversing(0), items)
    assert items == [3, 2, 1]
