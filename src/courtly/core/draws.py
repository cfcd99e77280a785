"""``random.shuffle`` and ``random.choice`` for the hot paths: the very same draws, compiled.

Drawing a world for a search shuffles the unseen cards a few times per iteration, and the
standard library's ``shuffle`` is a Python loop. These functions repeat CPython's own algorithm
(``Random._randbelow_with_getrandbits``: as many random bits as the bound needs, drawn again
while too large), so for a given generator they give the same results and leave it in the same
state as ``rng.shuffle(items)`` and ``rng.choice(items)``; a test holds them to it. Being in a
compiled module (courtly/_compiled.py), they run without the interpreter's loop.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)`` (``n >= 1``), as ``rng._randbelow(n)`` draws it."""
    bits = rng.getrandbits
    k = n.bit_length()  # CPython's choice: n's bits, not (n - 1)'s
    r: int = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: Fisher-Yates from the last position down."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """``rng.choice(items)`` (``IndexError`` if ``items`` is empty)."""
    if not items:
        raise IndexError("cannot choose from an empty sequence")
    return items[below(rng, len(items))]
