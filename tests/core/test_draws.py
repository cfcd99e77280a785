"""courtly.core.draws draws exactly what ``random.shuffle`` and ``random.choice`` draw."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from courtly.core.draws import below, choice, shuffle


@given(seed=st.integers(0, 2**64), size=st.integers(0, 60))
def test_shuffle_is_the_standard_librarys(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, reference = list(range(size)), list(range(size))
    shuffle(ours, mine)
    theirs.shuffle(reference)
    assert mine == reference
    assert ours.getstate() == theirs.getstate()  # the generator is left where random leaves it


@given(seed=st.integers(0, 2**64), items=st.lists(st.integers(), min_size=1, max_size=300))
def test_choice_is_the_standard_librarys(seed: int, items: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(5):
        assert choice(ours, items) == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()


@given(seed=st.integers(0, 2**64), n=st.integers(1, 2**70))
def test_below_is_randbelow(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert below(ours, n) == theirs._randbelow(n)  # type: ignore[attr-defined]


def test_choice_from_nothing_is_an_index_error_like_random() -> None:
    with pytest.raises(IndexError):
        choice(random.Random(0), [])
    with pytest.raises(IndexError):
        random.Random(0).choice([])
