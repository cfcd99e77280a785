"""Royal Gambit's moves in words: the labels of its buttons, the shortcuts people type, and why
a move is refused."""

from __future__ import annotations

import pytest

import courtly
from courtly.games.royal_gambit.rules import RoyalGambitState

from .helpers import new_game, play


def labels(state: RoyalGambitState, seat: int) -> list[str]:
    return [state.game.text.action_label(state, seat, a) for a in state.legal_actions(seat)]


def refusal(state: RoyalGambitState, seat: int, text: str) -> str:
    with pytest.raises(courtly.IllegalAction) as refused:
        state.parse_action(seat, text)
    return str(refused.value)


def test_labels_say_each_move_in_words() -> None:
    state = new_game(3)
    assert labels(state, 0) == ["Hit", "Stay (bank 0)"]
    play(state, "p0 hit", "3S", "p1 hit", "2S", "p2 hit", "KD", "p0 hit", "AH", "p1 hit", "4S")
    assert labels(state, 2) == ["Hit", "Stay (bank 0)"]
    play(state, "p2 hit", "5D")
    assert labels(state, 0) == ["Hit", "Stay (bank 4)"]
    play(state, "p0 hit", "2H", "p1 hit", "AC")
    assert labels(state, 2) == ["Hit", "Stay (bank 10)"]  # doubled by the King
    play(state, "p2 hit", "7H")
    assert labels(state, 2) == ["Give the 7 to p0", "Give the 7 to p1"]
    play(state, "p2 give-7 p1", "p0 hit", "JS")
    assert labels(state, 0) == [
        "Send the Jack at yourself (two flips)",
        "Send the Jack at p1 (two flips)",
        "Send the Jack at p2 (two flips)",
    ]


def test_the_hit_label_warns_of_an_empty_deck() -> None:
    state = new_game(2)
    state.deck.clear()
    assert labels(state, 0) == ["Hit (the deck is empty: the hand ends)", "Stay (bank 0)"]


@pytest.mark.parametrize(
    "typed", ["give-7 p3", "give 7 p3", "Give 7  P3", "give7 p3", "give p3", "give 7 to p3"]
)
def test_a_seven_may_be_given_with_spaces_for_the_hyphen(typed: str) -> None:
    state = new_game(4)
    play(state, "p0 hit", "2S", "p1 stay", "p2 hit", "2D", "p3 hit", "7C", "p3 give-7 p2")
    play(state, "p0 hit", "7H")
    assert str(state.parse_action(0, typed)) == "give-7 p3"


@pytest.mark.parametrize("typed", ["jack p2", "jack at p2", "Jack 2"])
def test_a_jack_may_be_sent_in_other_words(typed: str) -> None:
    state = new_game(3)
    play(state, "p0 hit", "JS")
    assert str(state.parse_action(0, typed)) == "jack p2"


def test_a_refused_seven_says_why_that_seat_cannot_take_it() -> None:
    # p1 has stayed, p2 shows a 7 (handed on by p3), p3 may take p0's 7.
    state = new_game(4)
    play(state, "p0 hit", "2S", "p1 stay", "p2 hit", "2D", "p3 hit", "7C", "p3 give-7 p2")
    assert refusal(state, 0, "give 7 p1") == (
        "give-7 p1 is not legal now: there is no 7 to give (p0 is to hit or stay); legal: hit, stay"
    )
    play(state, "p0 hit", "7H")
    assert refusal(state, 0, "give-7 p0") == (
        "give-7 p0 is not legal now: p0 flipped the 7 and must hand it to another player "
        "(RG-9); legal: give-7 p3"
    )
    assert refusal(state, 0, "give 7 p1") == (
        "give-7 p1 is not legal now: p1 has stayed, and nothing in this hand can reach a player "
        "who stayed (RG-16); legal: give-7 p3"
    )
    assert refusal(state, 0, "give 7 p2") == (
        "give-7 p2 is not legal now: p2 already shows 7C, and a 7 goes only to a row without one "
        "(RG-9); legal: give-7 p3"
    )
    assert refusal(state, 0, "stay") == (
        "stay is not legal now: p0 must first give 7H to another player (RG-9); legal: give-7 p3"
    )
    assert refusal(state, 0, "give 7 p9") == (
        "p9 is not a seat of this game (p0 to p3); legal: give-7 p3"
    )


def test_a_refused_seven_to_a_busted_player_or_one_sitting_out() -> None:
    state = new_game(3)
    play(state, "p0 hit", "4S", "p1 hit", "2H", "p2 hit", "3D", "p0 hit", "4D", "p1 hit", "7H")
    assert refusal(state, 1, "give-7 p0") == (
        "give-7 p0 is not legal now: p0 has busted and is out of the hand; legal: give-7 p2"
    )
    # p0 sits the final hand out as the favorite.
    state = new_game(3, target_score=2)
    play(state, "p0 hit", "2S", "p1 stay", "p2 stay", "p0 stay", "p1 hit", "7S")
    assert refusal(state, 1, "give 7 p0") == (
        "give-7 p0 is not legal now: p0 sits this hand out; legal: give-7 p2"
    )


def test_a_refused_jack_says_why() -> None:
    state = new_game(3, ten_blocks_jacks=True)
    play(state, "p0 hit", "10S", "p1 stay", "p2 hit", "2H")
    assert refusal(state, 0, "jack p2") == (
        "jack p2 is not legal now: there is no Jack to send (p0 is to hit or stay); "
        "legal: hit, stay"
    )
    play(state, "p0 hit", "JS")
    assert refusal(state, 0, "jack p0") == (
        "jack p0 is not legal now: p0 shows 10S, and a 10 keeps the Jacks away (RG-12); "
        "legal: jack p2"
    )
    assert refusal(state, 0, "jack p1") == (
        "jack p1 is not legal now: p1 has stayed, and nothing in this hand can reach a player "
        "who stayed (RG-16); legal: jack p2"
    )
    assert refusal(state, 0, "hit") == (
        "hit is not legal now: p0 must first pick who flips two cards for the Jack (RG-11); "
        "legal: jack p2"
    )


def test_a_refused_stay_at_zero_says_why() -> None:
    state = new_game(2, auto_hit_on_zero=True)
    assert refusal(state, 0, "stay") == (
        "stay is not legal now: p0's row is worth 0, and at this table a row worth 0 must hit "
        "(RG-13); legal: hit"
    )


def test_every_option_has_a_person_s_name_and_a_line_without_rule_ids() -> None:
    info = courtly.make("royal-gambit").info
    options = [*info.options, *(o for bot in info.bots for o in bot.options)]
    for option in options:
        assert option.label and option.about, option.name
        assert "RG-" not in option.about and "_" not in option.about, option.name
        assert len(option.choice_labels) == len(option.choices), option.name
    turn_mode = next(o for o in info.options if o.name == "turn_mode")
    assert dict(zip(turn_mode.choices, turn_mode.choice_labels, strict=True)) == {
        "round_robin": "One hit or stay per turn",
        "full_turn": "One long turn each",
    }
