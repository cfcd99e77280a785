from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from courtly.core import CARDS, Card, card, cards_text, parse_cards, standard_deck


def test_every_card_has_a_unique_text_that_parses_back() -> None:
    texts = [str(c) for c in CARDS[:52]]
    assert len(set(texts)) == 52
    assert [Card.parse(t) for t in texts] == list(CARDS[:52])
    assert str(CARDS[52]) == "Jk" and Card.parse("jk").is_joker


def test_ranks_suits_and_examples_of_rules_section_0() -> None:
    ten_hearts = Card.parse("10H")
    assert (ten_hearts.rank, ten_hearts.suit_letter, ten_hearts.is_red) == (10, "H", True)
    assert Card.parse("QS").rank == 12 and Card.parse("AD").rank == 14
    assert card("K", "C") == Card.parse("KC") and card(2, 0) == Card.parse("2S")
    assert Card.parse(" 7h ") is Card.parse("7H")  # shared instances, case and spaces ignored


def test_cards_are_cheap_ints() -> None:
    assert isinstance(CARDS[5], int) and hash(CARDS[5]) == 5
    assert sorted([Card.parse("3S"), Card.parse("2S")]) == parse_cards("2S 3S")


@pytest.mark.parametrize("text", ["", "1H", "11S", "QX", "10", "Joker!"])
def test_bad_card_text_is_explained(text: str) -> None:
    with pytest.raises(ValueError, match="rank then suit"):
        Card.parse(text)


def test_decks_and_texts() -> None:
    assert len(standard_deck()) == 52 and len(standard_deck(jokers=2)) == 54
    with pytest.raises(ValueError):
        standard_deck(jokers=3)
    assert cards_text(parse_cards("3H, 5H KS")) == "3H 5H KS"


@given(st.sampled_from(CARDS))
def test_card_round_trip(c: Card) -> None:
    if c.is_joker:
        # The two jokers are interchangeable and share the text Jk: it parses to the first one.
        assert Card.parse(str(c)) is CARDS[52]
    else:
        assert Card.parse(str(c)) is c
        assert Card.parse(str(c).lower()) is c
