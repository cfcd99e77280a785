"""Chance on the hot paths: ``random.shuffle`` and ``random.choice`` (the very same draws,
compiled), and a card drawn face down from a pile as a chance event.

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
from typing import Any, TypeVar

from .cards import CARDS, Card
from .errors import IllegalAction

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


# ------------------------------------------------------------------ a card drawn from a pile
#
# Royal Gambit's deck, Crush the Crown's and King's Court's draw piles and God Save The King's
# blind draw from a hand are one chance event: a card of a pile, every card equally likely. A
# game samples it by its index in the pile and keeps the index, so that applying the card takes
# it out by its place instead of comparing it with every card before it.


def pile_outcomes(pile: Sequence[int]) -> list[tuple[Any, float]]:
    """The outcomes of drawing one card of ``pile`` (cards or their ints), each with its
    chance; equal cards (Crush the Crown's two jokers) are one outcome, as often as they are
    there, listed where the first of them lies."""
    p = 1.0 / len(pile)
    chances: dict[int, float] = {}
    for c in pile:
        chances[c] = chances.get(c, 0.0) + p
    return [(CARDS[c], chance) for c, chance in chances.items()]


def in_pile(outcome: object, pile: Sequence[int]) -> bool:
    """Whether ``outcome`` is a card that may be drawn from ``pile``."""
    return isinstance(outcome, Card) and outcome in pile


def take_drawn(pile: list[T], card: T, index: int) -> None:
    """Take the drawn ``card`` out of ``pile``: at ``index`` when it lies there (where the
    sampler drew it; -1 when it came from elsewhere, a record or a person), else the first copy.

    A pile holding two equal cards passes -1 for them, so that a replayed game, which knows no
    index, takes out the same copy and keeps the pile in the same order."""
    if 0 <= index < len(pile) and pile[index] == card:
        del pile[index]
    else:
        pile.remove(card)


def drawn_card(text: str, pile: Sequence[int], where: str) -> Card:
    """The card of ``pile`` written ``text`` (a chance outcome typed or read from a record), or
    :class:`IllegalAction` saying why not; ``where`` names the pile (``"the draw pile"``)."""
    try:
        found = Card.parse(text)
    except ValueError as error:
        raise IllegalAction(f"a card is drawn now: {error}") from None
    if found not in pile:
        raise IllegalAction(
            f"no joker is left in {where}" if found.is_joker else f"{found} is not in {where}"
        )
    return found
