"""Every worked example of docs/rules/crush-the-crown.md (§12), every draw forced.

P1 of the examples is p0 (diamonds, the non-dealer), P2 is p1 (hearts); clubs and spades are the
mercenary suits; the jokers are in.
"""

from __future__ import annotations

import json

import pytest

from courtly import IllegalAction
from courtly.core.cards import CARDS, Card
from courtly.games.crush_the_crown.components import BUILD, FIRE, SPY, TRIBUTE, WILD

from .helpers import deal, hand, legal, new_game, play, position, stack, texts


def test_ctc_example_1_build_only_the_next_rank() -> None:
    state = position(p0_stack="KD QD JD", p0_hand="10D 9D 4S 2H Jk")
    assert state.to_move == (0,) and state.decision == BUILD
    assert legal(state, 0) == ["pass", "extend 10D"]  # 9D must wait for the 10
    with pytest.raises(IllegalAction, match="needs 10 next"):
        state.apply(0, "extend 9D")
    play(state, "p0 extend 10D")
    assert stack(state, 0) == ["KD", "QD", "JD", "10D"]
    assert state.next_needed(0) == 9
    assert state.decision == SPY  # one government card per Build: on to the Spy step


def test_ctc_example_2_spy_legality() -> None:
    state = position(p1_stack="KH QH JH 10H 9H", p0_hand="8C 8S QC Jk 8H 8D 7C")
    play(state, "p0 pass")
    assert state.decision == SPY
    assert state.next_needed(1) == 8
    assert set(legal(state, 0)) == {"pass", "spy 8C", "spy 8S", "spy QC", "spy Jk"}
    before = state.to_json(), state.render(0), json.dumps(state.game.views.observation(state, 0))
    for bad, reason in [
        ("spy 8H", "p1's suit"),
        ("spy 8D", "your own suit"),
        ("spy 7C", "needs 8 next"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(0, bad)
    assert (
        state.to_json(),
        state.render(0),
        json.dumps(state.game.views.observation(state, 0)),
    ) == before
    # The wild ones take the rank of the slot: a mercenary Queen as an 8, and so the joker.
    for wild in ("spy QC", "spy Jk"):
        copy = state.clone()
        play(copy, f"p0 {wild}")
        assert copy.governments[1][-1] in (CARDS[49], CARDS[52])
        assert copy.spies[1] == 1 << 5  # the 8 slot
        assert copy.spy_slot_of[copy.governments[1][-1]] == WILD


def test_ctc_example_3_tribute_of_three() -> None:
    state = position(p1_stack="KH QH JH 10H 9H 8C* 7H 6S*", p0_hand="5C 10S", p1_hand="3D 2H AS 9C")
    play(state, "p0 pass", "p0 spy 5C")
    assert stack(state, 1)[-3:] == ["7H", "6S*", "5C*"]
    assert state.tribute_owed == 3
    assert state.to_move == (1,) and state.decision == TRIBUTE
    assert legal(state, 1) == ["give 3D"]  # p1 holds a diamond: it must go first
    before = state.to_json()
    with pytest.raises(IllegalAction, match="diamonds"):
        state.apply(1, "give 2H")
    assert state.to_json() == before
    play(state, "p1 give 3D")
    assert set(legal(state, 1)) == {"give 2H", "give AS", "give 9C"}
    play(state, "p1 give AS", "p1 give 9C")
    assert hand(state, 1) == ["2H"]
    assert sorted(hand(state, 0)) == sorted(["10S", "3D", "AS", "9C"])
    # Both players saw the tribute: p1's view knows them in p0's hand.
    assert state.game.views.observation(state, 1)["hands"][0]["known"] == ["AS", "3D", "9C"]
    assert state.to_move == (0,) and state.decision == FIRE
    play(state, "p0 pass", "4D")  # p0 refills to 5
    assert len(state.hands[0]) == 5
    # p1 keeps his single card until his own Fire & Hire.
    assert state.to_move == (1,) and state.decision == BUILD
    assert len(state.hands[1]) == 1
    play(state, "p1 pass", "p1 pass", "p1 pass")
    assert state.is_chance and state.drawer == 1
    play(state, "2C", "3C", "4C", "7C")
    assert len(state.hands[1]) == 5


def test_ctc_example_4_tribute_without_placement() -> None:
    # Three spies stand; p0 places nothing and still receives three cards.
    state = position(
        p1_stack="KH QH JH 10H 9H 8C* 7H 6S* 5C*",
        p0_hand="10S 2S",
        p1_hand="4D 2H 3S 9C 10C",
    )
    play(state, "p0 pass", "p0 pass")
    assert state.tribute_owed == 3
    assert legal(state, 1) == ["give 4D"]
    play(state, "p1 give 4D", "p1 give 3S", "p1 give 2H")
    assert hand(state, 1) == ["9C", "10C"]
    assert state.decision == FIRE and state.to_move == (0,)
    # With fewer cards than spies he gives all he has.
    short = position(p1_stack="KH QH JH 10H 9H 8C* 7H 6S* 5C*", p0_hand="10S 2S", p1_hand="9C 10C")
    play(short, "p0 pass", "p0 pass", "p1 give 9C", "p1 give 10C")
    assert short.hands[1] == []
    assert short.tribute_owed == 0
    assert short.decision == FIRE and short.to_move == (0,)


def test_ctc_example_5_one_government_card() -> None:
    state = position(
        p1_stack="KH QH JH 10H 9H 8C* 7H 6H 5H", p1_hand="8H 4H 2C", p0_hand="2S", turn=1
    )
    assert state.next_needed(1) == 4
    assert set(legal(state, 1)) == {"pass", "discover 8H", "extend 4H"}
    discovered = state.clone()
    play(discovered, "p1 discover 8H")
    assert stack(discovered, 1)[5] == "8H"
    assert texts(discovered.executed)[-1] == "8C"
    assert discovered.decision == SPY  # no extension after it
    extended = state.clone()
    play(extended, "p1 extend 4H")
    assert stack(extended, 1)[5] == "8C*" and stack(extended, 1)[-1] == "4H"
    assert extended.decision == SPY
    with pytest.raises(IllegalAction):
        extended.apply(1, "discover 8H")


def test_ctc_example_6_win() -> None:
    full = "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D"
    state = position(p0_stack=full, p0_hand="AD 7S")
    play(state, "p0 extend AD")
    assert state.is_terminal and state.returns() == [1.0, 0.0] and state.winners == (0,)
    # Variant: the spy 5S still stands when the Ace goes on: complete, not clean, no win.
    state = position(p0_stack=full.replace("5D", "5S*"), p0_hand="AD 7S", p1_hand="2C 3C")
    play(state, "p0 extend AD")
    assert not state.is_terminal
    assert len(state.governments[0]) == 13 and state.spies[0]
    play(state, "p0 pass", "p0 pass", "5D", "2S", "3S", "4S")
    # p1's turn: p0's government is complete, so p1 has no Spy placement, but his spy 5S
    # still earns a tribute card.
    play(state, "p1 pass")
    assert state.decision == TRIBUTE and state.to_move == (0,)
    play(state, "p0 give 2S", "p1 pass", "4C", "5C")
    assert state.to_move == (0,) and "discover 5D" in legal(state, 0)
    play(state, "p0 discover 5D")
    assert state.is_terminal and state.winners == (0,)
    assert "5S" in texts(state.executed)


def test_ctc_example_7_spy_in_the_ace_slot() -> None:
    state = position(
        p1_stack="KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        p0_hand="AC 2S",
        p1_hand="AH 3C 4C",
    )
    play(state, "p0 pass", "p0 spy AC")
    assert len(state.governments[1]) == 13 and stack(state, 1)[-1] == "AC*"
    assert not state.is_terminal  # complete with a spy: no win
    play(state, "p1 give 3C", "p0 pass", "5C", "6C", "7C")
    assert state.to_move == (1,) and set(legal(state, 1)) == {"pass", "discover AH"}
    later = state.clone()
    play(later, "p1 pass")
    # p0's stack is not complete, so p1 may spy; the complete p1 stack takes no more spies.
    play(later, "p1 pass", "p1 pass", "8C", "9C", "10C")
    play(later, "p0 pass")
    assert later.decision == TRIBUTE and later.to_move == (1,)  # no Spy step for p0
    play(state, "p1 discover AH")
    assert state.is_terminal and state.winners == (1,)


def test_ctc_example_8_refill_with_reshuffle() -> None:
    state = position(
        p1_hand="9C",
        draw="2C 3C",
        discard="4C 5C 6C 7C 8C 10C JC QC",
        rest_to=0,
        turn=1,
    )
    play(state, "p1 pass", "p1 pass")
    assert state.decision == FIRE
    play(state, "p1 fire 9C")
    assert state.hands[1] == [] and len(state.discard_pile) == 9
    assert state.is_chance and {str(o) for o, _ in state.chance_outcomes()} == {"2C", "3C"}
    play(state, "2C")
    # The last card of the draw pile: the nine discards (the fired 9C too) become the new draw
    # pile, and everyone is told so with that draw.
    assert state.narrate(-1, CARDS[40], 0) == (
        "p1 draws a card.\nThe draw pile is empty: the discard pile (9 cards) is shuffled into a "
        "new draw pile (CTC-18)."
    )
    play(state, "3C")
    assert len(state.draw_pile) == 9 and state.discard_pile == []
    play(state, "9C", "QC", "4C")
    assert len(state.hands[1]) == 5 and len(state.draw_pile) == 6
    assert not state.is_chance and state.to_move == (0,)


def test_ctc_example_9_over_five() -> None:
    state = position(p0_hand="2S 3S 4S 5S 6S 7S 9S", p1_hand="2C 3C 4C 5C 6C")
    play(state, "p0 pass", "p0 pass")
    assert len(state.hands[0]) == 7 and state.decision == FIRE
    play(state, "p0 fire 2S")
    assert len(state.hands[0]) == 6
    assert not state.is_chance and state.to_move == (1,) and state.decision == BUILD


def test_ctc_example_10_marriage() -> None:
    state = new_game(dealer="p1")
    assert state.first_player == 0
    deal(state, "3C 7D 9S JH 2D", "QS QH 4C 5H 6H")
    assert state.to_move == (0,)
    assert legal(state, 0) == ["discard 9S", "discard JH", "discard 2D", "discard 7D", "discard 3C"]
    play(state, "p0 discard 3C", "5S", "p0 discard 5S", "QD")
    assert legal(state, 0) == ["marry QD"]
    play(state, "p0 marry QD")
    assert stack(state, 0) == ["KD", "QD"] and len(state.hands[0]) == 4
    play(state, "8C")
    assert len(state.hands[0]) == 5
    assert state.to_move == (1,) and legal(state, 1) == ["marry QS", "marry QH"]
    play(state, "p1 marry QH", "9C")
    assert stack(state, 1) == ["KH", "QH"]
    assert texts(state.executed) == ["KS", "KC"]
    assert state.game.views.observation(state, None)["mercenary_suits"] == ["spades", "clubs"]
    queen_of_spades = Card.parse("QS")
    assert queen_of_spades in state.hands[1] and state.spy_slot_of[queen_of_spades] == WILD
    assert state.to_move == (0,) and state.decision == BUILD  # CTC-7: the first player starts
