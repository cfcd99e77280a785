"""courtly.core.draws draws exactly what ``random.shuffle`` and ``random.choice`` draw, and a
card drawn from a pile is one chance outcome per card, taken out where it was drawn."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from courtly.core.cards import CARDS, Card
from courtly.core.draws import (
    below,
    choice,
    distinct_pile_outcomes,
    drawn_card,
    in_pile,
    pile_index,
    pile_outcomes,
    shuffle,
    take_drawn,
)
from courtly.core.errors import IllegalAction


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


@given(pile=st.lists(st.integers(0, 53), min_size=1, max_size=60))
def test_a_pile_draws_each_card_as_often_as_it_is_there(pile: list[int]) -> None:
    outcomes = pile_outcomes(pile)
    assert [card for card, _ in outcomes] == list(dict.fromkeys(pile))  # first places, once
    for card, chance in outcomes:
        assert type(card) is Card and card is CARDS[card]
        assert chance == pytest.approx(pile.count(card) / len(pile))
    assert sum(chance for _, chance in outcomes) == pytest.approx(1.0)
    assert all(in_pile(card, pile) for card, _ in outcomes)
    assert not in_pile(int(outcomes[0][0]), pile)  # an outcome is a card, not its number


@given(pile=st.lists(st.integers(0, 53), min_size=1, max_size=60))
def test_a_piles_chances_are_exactly_the_copies_summed_in_order(pile: list[int]) -> None:
    """The same floats as adding ``1 / len(pile)`` once per copy, in pile order (what the
    outcomes were before they were built from shared pairs): probabilities compare exactly."""
    p = 1.0 / len(pile)
    summed: dict[int, float] = {}
    for card in pile:
        summed[card] = summed.get(card, 0.0) + p
    assert pile_outcomes(pile) == [(CARDS[card], chance) for card, chance in summed.items()]


@given(pile=st.lists(st.integers(0, 53), min_size=1, max_size=60, unique=True))
def test_a_piles_outcomes_share_their_pairs_in_a_fresh_list(pile: list[int]) -> None:
    """Listing a pile's outcomes builds no pair (a chance step of a tree search allocates one
    list), and the list is the caller's: changing it changes no later answer."""
    first, second = pile_outcomes(pile), pile_outcomes(list(pile))
    assert distinct_pile_outcomes(pile) == first  # what a pile of one card of each may use
    assert first is not second
    assert all(a is b for a, b in zip(first, second, strict=True))
    expected = list(first)
    first.clear()
    assert pile_outcomes(pile) == expected


@given(pile=st.lists(st.integers(0, 53), min_size=1, max_size=60), card=st.integers(0, 53))
def test_a_given_card_is_found_where_its_first_copy_lies(pile: list[int], card: int) -> None:
    assert pile_index(CARDS[card], pile) == (pile.index(card) if card in pile else -1)
    assert pile_index(card, pile) == -1  # a card's number is no card
    assert pile_index("QS", pile) == -1


@given(pile=st.lists(st.integers(0, 53), min_size=1, max_size=60), card=st.integers(0, 53))
def test_any_pile_and_any_equal_card_are_found_where_list_index_finds_them(
    pile: list[int], card: int
) -> None:
    """The compiled scan of a list compares values, as ``list.index`` does: a card that is not
    the shared instance (unpickled, built anew) and a pile of such cards, or a pile that is not
    a list, give the same place."""
    expected = pile.index(card) if card in pile else -1
    fresh = [Card(c) for c in pile]
    assert pile_index(Card(card), pile) == expected
    assert pile_index(CARDS[card], fresh) == expected
    assert pile_index(Card(card), tuple(fresh)) == expected
    assert pile_index(card, tuple(pile)) == -1


@given(pile=st.lists(st.integers(50, 53), min_size=1, max_size=40))
def test_many_copies_of_a_card_are_one_outcome_whatever_the_pile(pile: list[int]) -> None:
    """Three copies and more merge into one outcome each time, the same from any sequence."""
    p = 1.0 / len(pile)
    summed: dict[int, float] = {}
    for card in pile:
        summed[card] = summed.get(card, 0.0) + p
    expected = [(CARDS[card], chance) for card, chance in summed.items()]
    assert pile_outcomes(pile) == expected
    assert pile_outcomes(tuple(pile)) == expected


@given(pile=st.lists(st.integers(0, 53), min_size=1, max_size=60), data=st.data())
def test_a_drawn_card_leaves_the_pile_where_it_lay(pile: list[int], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(pile) - 1))
    card = pile[index]
    sampled, given_from_elsewhere = list(pile), list(pile)
    take_drawn(sampled, card, index)
    take_drawn(given_from_elsewhere, card, -1)
    assert sampled == pile[:index] + pile[index + 1 :]
    first = pile.index(card)
    assert given_from_elsewhere == pile[:first] + pile[first + 1 :]


def test_a_drawn_card_is_read_from_its_text_and_must_be_in_the_pile() -> None:
    pile = [Card.parse("QS"), CARDS[52]]
    assert drawn_card(" qs ", pile, "the deck") is Card.parse("QS")
    assert drawn_card("Jk", pile, "the deck") is CARDS[52]
    with pytest.raises(IllegalAction, match="7H is not in the deck"):
        drawn_card("7H", pile, "the deck")
    with pytest.raises(IllegalAction, match="no joker is left in the deck"):
        drawn_card("Jk", pile[:1], "the deck")
    with pytest.raises(IllegalAction, match="a card is drawn now: 'Z9' is not a card"):
        drawn_card("Z9", pile, "the deck")
