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
from typing import Any, Final, TypeVar

from .cards import CARDS, Card
from .errors import IllegalAction

T = TypeVar("T")

_CARD: Final = Card
"""The card type, held where a compiled build reads it at once (a name imported from a module
that is not compiled is looked up in a dict at each use)."""


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
    # below() inlined, the generator's method bound once for the whole shuffle: compiled, each
    # below() call looks the method up and makes a bound method (the same draws either way).
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = bits(k)
        while j >= n:
            j = bits(k)
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


_DRAW_CHANCES: list[tuple[Any, ...]] = []
"""``_DRAW_CHANCES[n][c]``: the outcome pair ``(CARDS[c], 1.0 / n)`` of card ``c`` drawn from a
pile of ``n`` cards, built once (row by row, on first use): ``chance_outcomes()`` is every chance
step of OpenSpiel's API and of a tree search, and listing shared pairs allocates no tuple. A
pair is typed ``Any`` on purpose: compiled, one typed ``tuple[Any, float]`` would be unboxed on
reading and boxed anew on listing."""


def _draw_chances(n: int) -> tuple[Any, ...]:
    """The row of ``_DRAW_CHANCES`` for a pile of ``n`` cards (``n >= 1``)."""
    table = _DRAW_CHANCES
    while len(table) <= n:
        size = len(table)
        p = 1.0 / size if size else 0.0
        table.append(tuple([(card, p) for card in CARDS]))
    return table[n]


def pile_outcomes(pile: Sequence[int]) -> list[tuple[Any, float]]:
    """The outcomes of drawing one card of ``pile`` (cards or their ints), each with its
    chance; equal cards (Crush the Crown's two jokers) are one outcome, as often as they are
    there, listed where the first of them lies. A fresh list (the caller may keep or change it)
    of shared ``(card, chance)`` pairs; only a merged pair of equal cards is built anew."""
    row = _draw_chances(len(pile))
    # Compiled, a list is walked by index (any other sequence through its iterator).
    cards: list[int] = pile if isinstance(pile, list) else list(pile)
    outcomes: list[Any] = []
    seen = 0  # bit c: card c is listed already
    merged: dict[int, int] | None = None  # card -> where its (merged) outcome lies
    for i in range(len(cards)):
        c = cards[i]
        bit = 1 << c
        if not seen & bit:
            seen |= bit
            outcomes.append(row[c])
            continue
        # Another copy of a listed card: its chance adds to the first copy's, summed one copy
        # at a time (the same float, whatever the order of the copies).
        if merged is None:
            merged = {}
        at = merged.get(c, -1)
        if at < 0:
            at = _index_of(outcomes, row[c])  # the first copy's pair is the shared one
            merged[c] = at
        pair: tuple[Any, float] = outcomes[at]
        outcomes[at] = (pair[0], pair[1] + row[c][1])
    return outcomes


def _index_of(items: list[Any], item: object) -> int:
    """Where ``item`` itself (not an equal object) lies in ``items``, which holds it."""
    for i in range(len(items)):
        if items[i] is item:
            return i
    raise ValueError("not listed")


def in_pile(outcome: object, pile: Sequence[int]) -> bool:
    """Whether ``outcome`` is a card that may be drawn from ``pile``."""
    return isinstance(outcome, _CARD) and outcome in pile


def distinct_pile_outcomes(pile: Sequence[int]) -> list[tuple[Any, float]]:
    """:func:`pile_outcomes` of a pile that never holds two equal cards (a deck of one of each
    card, a hand): the same list, without looking for copies."""
    row = _draw_chances(len(pile))
    if isinstance(pile, list):
        # Compiled, a list is walked by index (any other sequence through its iterator).
        cards: list[int] = pile
        return [row[c] for c in cards]
    return [row[c] for c in pile]


def pile_index(outcome: object, pile: Sequence[int]) -> int:
    """Where the first card equal to ``outcome`` lies in ``pile``; -1 if ``outcome`` is not a
    card of it. A game checking a given outcome keeps the place, so that applying the card takes
    it out by its place (:func:`take_drawn`) instead of looking for it twice."""
    if not isinstance(outcome, _CARD):
        return -1
    if isinstance(pile, list):
        # Compiled, the cards compare as machine integers (``list.index`` calls the generic
        # comparison for every card before the one drawn).
        cards: list[int] = pile
        card: int = outcome
        for i in range(len(cards)):
            if cards[i] == card:
                return i
        return -1
    try:
        return pile.index(outcome)
    except ValueError:
        return -1


def take_drawn(pile: list[T], card: T, index: int) -> None:
    """Take the drawn ``card`` out of ``pile``: at ``index`` when it lies there (where the
    sampler drew it; -1 when it came from elsewhere, a record or a person), else the first copy.

    A pile holding two equal cards passes -1 for them, so that a replayed game, which knows no
    index, takes out the same copy and keeps the pile in the same order."""
    if 0 <= index < len(pile) and (pile[index] is card or pile[index] == card):
        pile.pop(index)
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
