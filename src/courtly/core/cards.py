"""The one card type every game uses.

A :class:`Card` is an ``int`` underneath (``suit * 13 + rank - 2`` for the 52 standard cards,
52 and 53 for the two jokers), so cards are as cheap to compare, hash and store as ints. Every
card exists once: :data:`CARDS` holds them all and :func:`card` / :meth:`Card.parse` return the
shared instances, so games can keep cards in plain lists and tuples on their hot paths.

Text forms follow docs/rules/README.md §1: rank then suit letter (``10H``, ``QS``, ``AD``);
``Jk`` is a joker. The two jokers are interchangeable and share the text ``Jk``, which parses to
the first; a game that deals both maps ``Jk`` to whichever joker the player holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SUITS: Final = ("S", "H", "D", "C")
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_TEXT: Final = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
_RANK_OF_TEXT: Final = {text: rank for rank, text in RANK_TEXT.items()}

JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
ACE: Final = 14
JOKER_RANK: Final = 0
"""The rank reported by a joker: it has no suit and no place in the 2..A order."""

NUM_STANDARD_CARDS: Final = 52
NUM_CARDS: Final = 54


class Card(int):
    """A playing card; compare, hash and sort it like the int it is."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """2..10, 11 = J, 12 = Q, 13 = K, 14 = A; 0 for a joker."""
        return _RANK[self]

    @property
    def suit(self) -> int:
        """Index into :data:`SUITS`; -1 for a joker."""
        return _SUIT[self]

    @property
    def suit_letter(self) -> str:
        return SUITS[_SUIT[self]] if self < NUM_STANDARD_CARDS else ""

    @property
    def is_joker(self) -> bool:
        return self >= NUM_STANDARD_CARDS

    @property
    def is_red(self) -> bool:
        return _SUIT[self] in (1, 2)

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]})"

    @staticmethod
    def parse(text: str) -> Card:
        """The card named by ``text`` (``10h``, ``QS``, ``jk``; case and spaces ignored).

        Raises ``ValueError`` with the accepted forms when ``text`` names no card.
        """
        found = _BY_TEXT.get(text.strip().upper())
        if found is None:
            raise ValueError(
                f"{text!r} is not a card; write rank then suit, e.g. 10H, QS, AD, 7C, or Jk for a joker"
            )
        return found


def _make_cards() -> tuple[Card, ...]:
    return tuple(Card(i) for i in range(NUM_CARDS))


CARDS: Final[tuple[Card, ...]] = _make_cards()
"""Every card, indexed by its int value."""

_RANK: Final = tuple([2 + i % 13 for i in range(NUM_STANDARD_CARDS)] + [JOKER_RANK, JOKER_RANK])
_SUIT: Final = tuple([i // 13 for i in range(NUM_STANDARD_CARDS)] + [-1, -1])
_TEXT: Final = tuple(
    [RANK_TEXT[2 + i % 13] + SUITS[i // 13] for i in range(NUM_STANDARD_CARDS)] + ["Jk", "Jk"]
)
_BY_TEXT: Final = {_TEXT[i].upper(): CARDS[i] for i in range(NUM_STANDARD_CARDS)} | {
    "JK": CARDS[52],
    "JOKER": CARDS[52],
}


def card(rank: int | str, suit: int | str) -> Card:
    """The card of ``rank`` (2..14 or its text ``"Q"``) and ``suit`` (0..3 or ``"H"``)."""
    r = _RANK_OF_TEXT[rank.upper()] if isinstance(rank, str) else rank
    s = SUITS.index(suit.upper()) if isinstance(suit, str) else suit
    if not 2 <= r <= 14 or not 0 <= s <= 3:
        raise ValueError(f"no card of rank {rank!r} and suit {suit!r}")
    return CARDS[s * 13 + r - 2]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from ``"3H 5H KS"`` (spaces or commas) or from a sequence of card texts."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(part) for part in parts]


def standard_deck(jokers: int = 0) -> list[Card]:
    """The 52 standard cards in suit-then-rank order, plus up to two jokers."""
    if not 0 <= jokers <= 2:
        raise ValueError("a deck holds 0, 1 or 2 jokers")
    return list(CARDS[: NUM_STANDARD_CARDS + jokers])


def rank_text(rank: int) -> str:
    """``"10"``, ``"J"``, ``"A"`` ... for a rank 2..14."""
    return RANK_TEXT[rank]


def cards_text(cards: Iterable[Card]) -> str:
    """``"3H 5H KS"``: cards joined by spaces (empty string for no cards)."""
    return " ".join(_TEXT[c] for c in cards)
