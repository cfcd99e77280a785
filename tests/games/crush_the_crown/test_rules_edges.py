"""Crush the Crown rules beyond the worked examples: the deadlock guard, jokers, spies on
spies, real cards on spies, the chance events."""

from __future__ import annotations

import random

import pytest

from courtly import IllegalAction
from courtly.core.cards import CARDS, Card
from courtly.core.match import play_randomly
from courtly.games.crush_the_crown.components import GIVE_QUEEN, JOKER, MARRIAGE, SPY, TRIBUTE

from .helpers import deal, hand, legal, new_game, play, position, stack, texts


def test_marriage_deadlock_the_rival_gives_a_queen() -> None:
    # CTC-6: p0 holds no Queen and neither pile has one: p1 holds them all and must give one.
    state = new_game(dealer="p1")
    deal(state, "2C 3C 4C 5C 6C", "QS QH QD QC 7C")
    assert state.to_move == (1,) and state.decision == GIVE_QUEEN
    assert legal(state, 1) == ["give QS", "give QH", "give QD", "give QC"]
    # Everyone can tell where the Queens are.
    assert state.game.views.observation(state, 0)["hands"][1]["known"] == ["QS", "QH", "QD", "QC"]
    with pytest.raises(IllegalAction, match="Queen"):
        state.apply(1, "give 7C")
    narration = state.narrate(1, state.parse_action(1, "give QD"), 0)
    assert narration is not None and "QD" in narration
    play(state, "p1 give QD")
    assert stack(state, 0) == ["KD", "QD"] and len(state.hands[0]) == 5
    assert state.to_move == (1,) and state.decision == MARRIAGE
    assert legal(state, 1) == ["marry QS", "marry QH", "marry QC"]
    play(state, "p1 marry QC", "8C", "9C")
    assert texts(state.executed) == ["KS", "KH"]
    assert state.to_move == (0,)


def test_marriage_deadlock_of_the_second_player() -> None:
    state = new_game(dealer="p1")
    deal(state, "QD QS QH QC 2C", "3C 4C 5C 6C 7C")
    assert legal(state, 0) == ["marry QS", "marry QH", "marry QD", "marry QC"]
    play(state, "p0 marry QD", "8C")
    # p1 has no Queen, none is in a pile: p0 must give him one of the three he kept.
    assert state.to_move == (0,) and state.decision == GIVE_QUEEN
    assert legal(state, 0) == ["give QS", "give QH", "give QC"]
    play(state, "p0 give QS")
    assert stack(state, 1) == ["KS", "QS"]
    assert state.game.views.observation(state, 1)["hands"][0]["known"] == ["QH", "QC"]
    assert state.to_move == (0,) and state.spy_slot_of  # the play begins with the first player


def test_a_queen_only_in_the_discard_pile_is_no_deadlock() -> None:
    state = new_game(dealer="p1")
    deal(state, "QD 2C 3C 4C 5C", "QS QH QC 6C 7C")
    play(state, "p0 marry QD", "8C", "p1 marry QS", "9C")
    assert state.to_move == (0,)


def test_drawn_jokers_are_one_outcome() -> None:
    state = new_game()
    outcomes = dict((str(o), p) for o, p in state.chance_outcomes())
    assert outcomes["Jk"] == pytest.approx(2 / 50)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert len(outcomes) == 49
    play(state, "Jk")
    assert state.hands[0] == [CARDS[JOKER]]
    assert state.game.text.parse_chance(state, "Jk") == CARDS[JOKER]
    assert dict((str(o), p) for o, p in state.chance_outcomes())["Jk"] == pytest.approx(1 / 49)
    play(state, "2C", "Jk")
    assert state.hands[0] == [CARDS[JOKER], CARDS[JOKER]]
    with pytest.raises(IllegalAction, match="no joker"):
        state.apply_chance("Jk")


def test_the_two_jokers_are_alike_wherever_they_are() -> None:
    # Both jokers are card 52: no state tells them apart, so a world sampled for a seat and
    # its replay agree on where each joker is.
    state = position(p0_hand="Jk 2S", p1_hand="Jk")
    assert state.hands[0] == [Card.parse("2S"), CARDS[JOKER]]
    play(state, "p0 pass", "p0 spy Jk")
    assert state.governments[1][-1] == CARDS[JOKER]
    assert state.hands[1] == [CARDS[JOKER]]
    assert state.game.views.observation(state, None)["governments"][1]["slots"][-1] == {
        "rank": "J",
        "card": "Jk",
        "spy": True,
    }


def test_two_jokers_in_hand_make_one_action_and_the_known_one_goes_first() -> None:
    state = position(p1_stack="KH QH JH 10H 9H 8C*", p0_hand="Jk 2S", p1_hand="Jk")
    play(state, "p0 pass", "p0 pass", "p1 give Jk")  # p1 hands his joker over
    assert legal(state, 0) == ["pass", "fire 2S", "fire Jk"]
    assert state.known_to_rival[0] == 1 << JOKER
    assert state.game.views.observation(state, 1)["hands"][0]["known"] == ["Jk"]
    play(state, "p0 fire Jk")
    # The joker p1 knows of is the one fired: nothing is known of p0's hand any more.
    assert state.known_to_rival[0] == 0 and state.discard_pile == [CARDS[JOKER]]
    assert state.hands[0] == sorted([CARDS[JOKER], Card.parse("2S")])


def test_spies_on_spies_all_count_for_tribute() -> None:
    state = position(p1_stack="KH QH JH 10H 9H 8H 7H 6S*", p0_hand="5C 2S", p1_hand="2D 3C 4C")
    play(state, "p0 pass", "p0 spy 5C")
    assert stack(state, 1)[-2:] == ["6S*", "5C*"]
    assert state.tribute_owed == 2 and state.decision == TRIBUTE
    assert legal(state, 1) == ["give 2D"]
    play(state, "p1 give 2D")
    assert set(legal(state, 1)) == {"give 3C", "give 4C"}


def test_a_real_card_goes_on_a_spy_and_the_spy_can_still_be_discovered() -> None:
    state = position(p1_stack="KH QH JH 10H 9H 8H 7H 6S*", p1_hand="5H 6H", turn=1)
    assert set(legal(state, 1)) == {"pass", "extend 5H", "discover 6H"}
    play(state, "p1 extend 5H")
    assert stack(state, 1)[-2:] == ["6S*", "5H"]


def test_a_complete_government_takes_no_spy() -> None:
    state = position(
        p1_stack="KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AS*", p0_hand="2S 3S", p1_hand="2C"
    )
    play(state, "p0 pass")
    # No Spy step: straight to the tribute for the spy already there.
    assert state.decision == TRIBUTE and state.to_move == (1,)


def test_a_spy_step_is_offered_even_without_a_spy_card() -> None:
    # Skipping it would tell the rival the hand holds no spy that fits
    # (docs/rules/crush-the-crown.md §4, on which steps Courtly asks about).
    state = position(p0_hand="2D 3D")
    play(state, "p0 pass")
    assert state.decision == SPY and legal(state, 0) == ["pass"]


def test_both_piles_empty_nobody_draws() -> None:
    state = position(p1_hand="9C", draw="", rest_to=0, turn=1)
    play(state, "p1 pass", "p1 pass", "p1 fire 9C", "9C")
    assert hand(state, 1) == ["9C"]
    assert state.draw_pile == [] and state.discard_pile == []
    assert not state.is_chance and state.to_move == (0,)


def test_random_games_end_and_every_card_stays_in_play() -> None:
    rng = random.Random(5)
    game_state = new_game()
    game = game_state.game
    for _ in range(30):
        state = game.new_state()
        play_randomly(state, rng)
        assert state.is_terminal
        everything = sorted(
            state.hands[0]
            + state.hands[1]
            + state.governments[0]
            + state.governments[1]
            + state.discard_pile
            + state.draw_pile
            + state.executed
        )
        kings = [c for c in CARDS[:52] if c.rank == 13]
        assert everything == sorted([*game.tables.deck, *kings])
