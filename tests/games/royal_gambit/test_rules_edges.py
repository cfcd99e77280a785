"""Edge cases of the Royal Gambit rules (docs/rules/royal-gambit.md §3, §7), every card forced."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import courtly
from courtly import Card
from courtly.games.royal_gambit.components import (
    ACTIVE,
    BUSTED,
    HIT_OR_STAY,
    NORMAL,
    OUT,
    STAYED,
    TIEBREAK,
)
from courtly.games.royal_gambit.rules import RoyalGambitState

from .helpers import legal, new_game, play, row, set_aside

# ------------------------------------------------------------------------------ 7: hot potato


def test_seven_is_kept_when_nobody_is_eligible() -> None:
    state = new_game(2)
    play(state, "p0 hit", "2S", "p1 stay", "p0 hit", "7S")
    assert not state.is_chance
    assert row(state, 0) == ["2S", "7S"]
    assert row(state, 1) == []
    assert state.to_move == (0,)
    assert legal(state, 0) == ["hit", "stay"]


def test_seven_is_kept_when_every_other_active_player_holds_a_seven() -> None:
    state = new_game(3)
    play(state, "p0 hit", "7S", "p0 give-7 p1", "p1 hit", "2H", "p2 hit", "7D", "p2 give-7 p0")
    assert row(state, 0) == ["7D"]
    assert row(state, 1) == ["7S", "2H"]
    assert row(state, 2) == []
    play(state, "p0 stay", "p1 hit", "3H", "p2 hit", "7C")  # p0 stayed, p1 holds a 7
    assert row(state, 2) == ["7C"]
    assert state.to_move == (1,)


def test_seven_matching_ones_own_seven_busts_and_is_not_passed() -> None:
    state = new_game(3)
    play(state, "p0 hit", "2S", "p1 hit", "7S")
    assert legal(state, 1) == ["give-7 p0", "give-7 p2"]
    play(state, "p1 give-7 p0", "p2 hit", "3D", "p0 hit", "7H")
    # p1 and p2 are eligible, but the bust check comes first.
    assert state.status == [BUSTED, ACTIVE, ACTIVE]
    assert row(state, 0) == ["2S", "7S", "7H"]
    assert row(state, 1) == []
    assert row(state, 2) == ["3D"]
    assert state.to_move == (1,)
    assert legal(state, 1) == ["hit", "stay"]


def test_pardoned_seven_is_not_passed_and_forced_flips_go_on() -> None:
    state = new_game(3)
    play(state, "p0 hit", "QS", "p1 hit", "7H", "p1 give-7 p0", "p2 hit", "2D")
    play(state, "p0 hit", "JS", "p0 jack p0", "7C")
    assert row(state, 0) == ["7H", "JS"]
    assert set_aside(state) == ["QS", "7C"]
    assert state.is_chance  # no give-7 decision: forced flip 2 follows
    assert state.flipper == 0
    play(state, "4S")
    assert row(state, 0) == ["7H", "JS", "4S"]
    assert state.to_move == (1,)


# ------------------------------------------------------------------------------ Queens


def test_two_queens_both_leave_and_the_pardon_is_used() -> None:
    state = new_game(2)
    play(state, "p0 hit", "5S", "p1 hit", "2H", "p0 hit", "QS", "p1 hit", "3H", "p0 hit", "QH")
    assert row(state, 0) == ["5S"]
    assert set_aside(state) == ["QS", "QH"]
    assert state.status == [ACTIVE, ACTIVE]
    play(state, "p1 hit", "4H", "p0 hit", "5D")  # no Queen held any more
    assert state.status == [BUSTED, ACTIVE]
    assert row(state, 0) == ["5S", "5D"]
    assert set_aside(state) == ["QS", "QH"]


def test_queen_pardons_once_and_the_first_card_stays() -> None:
    state = new_game(2)
    play(state, "p0 hit", "QS", "p1 hit", "2H", "p0 hit", "4S", "p1 hit", "3H", "p0 hit", "4D")
    assert row(state, 0) == ["4S"]
    assert set_aside(state) == ["QS", "4D"]
    play(state, "p1 hit", "5H", "p0 hit", "QD")  # a new Queen, held again
    assert row(state, 0) == ["4S", "QD"]
    play(state, "p1 hit", "6H", "p0 hit", "4H")
    assert row(state, 0) == ["4S"]
    assert set_aside(state) == ["QS", "4D", "QD", "4H"]
    play(state, "p1 hit", "8H", "p0 hit", "4C")
    assert state.status == [BUSTED, ACTIVE]


def test_second_king_busts() -> None:
    state = new_game(2)
    play(state, "p0 hit", "KS", "p1 hit", "2H", "p0 hit", "3S", "p1 hit", "3H", "p0 hit", "KD")
    assert state.status == [BUSTED, ACTIVE]
    assert state.banked == [0, 0]


# ------------------------------------------------------------------------------ Jacks


def test_busting_jack_has_no_power() -> None:
    state = new_game(2)
    play(state, "p0 hit", "JS", "p0 jack p1", "2H", "3H", "p1 hit", "4H", "p0 hit", "JH")
    assert state.status == [BUSTED, ACTIVE]
    assert row(state, 0) == ["JS", "JH"]
    assert not state.is_chance
    assert state.to_move == (1,)
    assert state.decision == HIT_OR_STAY
    assert legal(state, 1) == ["hit", "stay"]


def test_pardoned_jack_has_no_power() -> None:
    state = new_game(2)
    play(state, "p0 hit", "QS", "p1 hit", "2H", "p0 hit", "JS", "p0 jack p1", "3H", "4H")
    play(state, "p1 hit", "5H", "p0 hit", "JH")
    assert state.status == [ACTIVE, ACTIVE]
    assert row(state, 0) == ["JS"]
    assert set_aside(state) == ["QS", "JH"]
    assert not state.is_chance
    assert state.to_move == (1,)
    assert legal(state, 1) == ["hit", "stay"]


def test_jack_targets_only_active_players() -> None:
    state = new_game(3)
    play(state, "p0 hit", "2S", "p1 stay", "p2 hit", "3D", "p0 hit", "JS")
    assert legal(state, 0) == ["jack p0", "jack p2"]


def test_forced_flips_use_no_turn_and_bust_cancels_the_rest() -> None:
    state = new_game(3)
    play(state, "p0 hit", "2S", "p1 hit", "3H", "p2 hit", "4D", "p0 hit", "JS", "p0 jack p2")
    play(state, "4C")  # p2 busts on forced flip 1: flip 2 is cancelled
    assert state.status == [ACTIVE, ACTIVE, BUSTED]
    assert not state.is_chance
    assert state.to_move == (1,)  # the player after the turn player, p0
    play(state, "p1 hit", "5H")
    assert state.to_move == (0,)  # p2 is out of the hand


def test_single_participant_keeps_the_seven_and_must_jack_himself() -> None:
    # RG-23: a final hand played by p1 alone.
    state = new_game(2, target_score=3)
    play(state, "p0 hit", "3S", "p1 stay", "p0 stay")
    assert state.participants == (1,)
    assert state.status == [OUT, ACTIVE]
    play(state, "p1 hit", "7H")
    assert row(state, 1) == ["7H"]
    assert state.to_move == (1,)
    play(state, "p1 hit", "JH")
    assert legal(state, 1) == ["jack p1"]
    play(state, "p1 jack p1", "2H", "AH")
    assert row(state, 1) == ["7H", "JH", "2H", "AH"]
    play(state, "p1 stay")
    assert state.totals == [3, 3]
    assert state.phase == TIEBREAK
    assert state.participants == (0, 1)


# ------------------------------------------------------------------------------ hands


def test_first_start_player_is_a_uniform_chance_event() -> None:
    state = courtly.make("royal-gambit", players=3).new_state()
    assert state.is_chance
    assert state.to_move == ()
    assert [(str(o), p) for o, p in state.chance_outcomes()] == [
        ("p0", pytest.approx(1 / 3)),
        ("p1", pytest.approx(1 / 3)),
        ("p2", pytest.approx(1 / 3)),
    ]
    state.apply_chance("p2")
    assert state.to_move == (2,)
    assert state.start_player == 2
    assert state.turn == 2


def test_start_player_rotates_clockwise_each_hand() -> None:
    state = new_game(3, start="p1")
    assert state.to_move == (1,)
    starts = []
    for _ in range(4):
        starts.append(state.start_player)
        first = state.start_player
        for step in range(3):
            play(state, f"p{(first + step) % 3} stay")
    assert starts == [1, 2, 0, 1]
    assert state.hand_number == 5
    assert state.to_move == (2,)


def test_start_player_skips_a_seat_that_sits_out() -> None:
    state = new_game(3, target_score=5)
    play(state, "p0 stay", "p1 hit", "5H", "p2 stay", "p1 stay")
    # The next start would be p1, a favorite sitting out the final hand: p2 starts.
    assert state.participants == (0, 2)
    assert state.status == [ACTIVE, OUT, ACTIVE]
    assert state.start_player == 2
    assert state.to_move == (2,)


def test_final_hand_with_nobody_eligible_is_skipped() -> None:
    # RG-21: everybody tied for the lead at the trigger: straight to a tiebreak.
    state = new_game(2, target_score=2)
    play(state, "p0 hit", "2S", "p1 hit", "2H", "p0 stay", "p1 stay")
    assert state.totals == [2, 2]
    assert state.phase == TIEBREAK
    assert state.hands_played == 1
    assert state.participants == (0, 1)
    assert state.status == [ACTIVE, ACTIVE]
    assert state.to_move == (1,)


def test_totals_are_only_checked_at_the_end_of_a_hand() -> None:
    # RG-19: reaching the target by staying does not stop the hand for the others.
    state = new_game(2, target_score=3)
    play(state, "p0 hit", "3S", "p1 hit", "2H", "p0 stay")
    assert state.totals == [3, 0]
    assert state.phase == NORMAL
    assert state.status == [STAYED, ACTIVE]
    assert state.to_move == (1,)


def test_deck_exhaustion_ends_the_hand_and_every_active_player_stays() -> None:
    # RG-18, 4 players: all 52 cards are drawn without a bust, each row ending with 13 ranks.
    # The last card is p1's forced flip 1 of p0's Jack; forced flip 2 finds the deck empty.
    queues = {
        0: "AS 2S 3S 4S 5S 6S 8S 9S 10S QS KS JS",
        1: "AH 2H 3H 4H 5H 6H 8H 9H JH 10H QH KH",
        2: "7D AD 2D 3D 4D 5D 6D 8D 9D JD 10D QD KD",
        3: "7S 7H 7C AC 2C 3C 4C 5C 6C 8C 9C JC 10C QC KC",
    }
    cards = {seat: text.split() for seat, text in queues.items()}
    decisions = {
        "7D": "give-7 p0",
        "7S": "give-7 p1",
        "7H": "give-7 p2",
        "JH": "jack p3",
        "JD": "jack p3",
        "JC": "jack p2",
        "JS": "jack p1",
    }
    state = new_game(4, target_score=100)
    while sum(map(len, cards.values())) > 1 or not state.is_chance:
        if state.is_chance:
            play(state, cards[state.flipper].pop(0))
        elif state.decision == HIT_OR_STAY:
            play(state, f"p{state.to_move[0]} hit")
        else:
            play(state, f"p{state.to_move[0]} {decisions[str(state.history[-1][1])]}")

    assert [str(c) for c in state.deck] == ["KH"]
    assert state.flipper == 1
    assert state.turn == 0
    assert state.status == [ACTIVE] * 4
    assert sorted(row(state, 0)) == sorted(["7D", *queues[0].split()])
    assert sorted(row(state, 1)) == sorted([*queues[1].split()[:-1], "7S"])
    assert sorted(row(state, 2)) == sorted(["7H", *queues[2].split()[1:]])
    assert sorted(row(state, 3)) == sorted(["7C", *queues[3].split()[3:]])
    assert state.game.views.observation(state, None)["forced_flips"] == [["p1", 1]]
    events = len(state.history)

    play(state, "KH")
    # Every player stayed with 2 x (1 + 2 + 3 + 4 + 5) = 30; the hand is over.
    assert state.totals == [30, 30, 30, 30]
    assert len(state.history) == events + 1
    assert state.history_text()[-1] == ["chance", "KH"]
    assert state.hands_played == 1
    assert state.hand_number == 2
    assert state.phase == NORMAL
    assert state.forced_flips == []
    assert len(state.deck) == 52
    assert state.status == [ACTIVE] * 4
    assert state.to_move == (1,)
    assert legal(state, 1) == ["hit", "stay"]


# ------------------------------------------------------------------------------ illegal input


def _snapshot(state: RoyalGambitState) -> tuple[str, list[object], dict[str, object]]:
    return state.to_json(), list(state.history), state.game.views.observation(state, None)


def _rejected(state: RoyalGambitState, attempt: Callable[[], object]) -> None:
    before = _snapshot(state)
    with pytest.raises(courtly.IllegalAction):
        attempt()
    assert _snapshot(state) == before


def test_illegal_actions_at_hit_or_stay_change_nothing() -> None:
    state = new_game(3)
    play(state, "p0 hit", "2S")
    assert state.to_move == (1,)
    _rejected(state, lambda: state.apply(0, "hit"))  # wrong seat
    _rejected(state, lambda: state.apply(2, "stay"))
    _rejected(state, lambda: state.apply(7, "hit"))  # not a seat
    _rejected(state, lambda: state.apply(1, "fold"))  # not an action
    _rejected(state, lambda: state.apply(1, "give-7 p0"))  # not legal now
    _rejected(state, lambda: state.apply(1, "jack p1"))
    _rejected(state, lambda: state.apply(1, 999))  # not an action id
    _rejected(state, lambda: state.apply_chance("3S"))  # no chance event pending
    play(state, "p1 hit", "3H")
    assert state.to_move == (2,)


def test_give_seven_to_an_ineligible_seat_changes_nothing() -> None:
    state = new_game(4)
    play(state, "p0 hit", "7S", "p0 give-7 p2", "p1 stay", "p2 hit", "2H", "p3 hit", "3D")
    play(state, "p0 hit", "7H")
    assert legal(state, 0) == ["give-7 p3"]
    _rejected(state, lambda: state.apply(0, "give-7 p0"))  # himself
    _rejected(state, lambda: state.apply(0, "give-7 p1"))  # stayed
    _rejected(state, lambda: state.apply(0, "give-7 p2"))  # holds a 7
    _rejected(state, lambda: state.apply(0, "hit"))
    _rejected(state, lambda: state.apply(0, "stay"))
    _rejected(state, lambda: state.apply(3, "give-7 p3"))  # not his decision
    with pytest.raises(courtly.IllegalAction, match="legal: give-7 p3"):
        state.apply(0, "give-7 p1")
    play(state, "p0 give-7 p3")
    assert row(state, 3) == ["3D", "7H"]


def test_jack_at_an_inactive_seat_changes_nothing() -> None:
    state = new_game(3)
    play(state, "p0 hit", "2S", "p1 stay", "p2 hit", "2D", "p0 hit", "JS")
    _rejected(state, lambda: state.apply(0, "jack p1"))
    _rejected(state, lambda: state.apply(0, "give-7 p2"))
    play(state, "p0 jack p2", "3D", "4D")
    assert row(state, 2) == ["2D", "3D", "4D"]


def test_impossible_cards_change_nothing() -> None:
    state = new_game(2)
    play(state, "p0 hit", "7S", "p0 give-7 p1", "p1 hit")
    assert state.is_chance
    _rejected(state, lambda: state.apply_chance("7S"))  # already in a row
    _rejected(state, lambda: state.apply_chance(Card.parse("7S")))
    _rejected(state, lambda: state.apply_chance("Jk"))  # no jokers in the deck
    _rejected(state, lambda: state.apply_chance("ZZ"))  # not a card
    _rejected(state, lambda: state.apply_chance("p0"))
    _rejected(state, lambda: state.apply(1, "hit"))  # a card must be drawn first
    play(state, "8S")
    assert row(state, 1) == ["7S", "8S"]


def test_impossible_start_player_changes_nothing() -> None:
    state = courtly.make("royal-gambit", players=3).new_state()
    _rejected(state, lambda: state.apply_chance("p3"))
    _rejected(state, lambda: state.apply_chance("7H"))
    _rejected(state, lambda: state.apply(0, "hit"))
    state.apply_chance("p1")
    assert state.to_move == (1,)


def test_no_action_after_the_game_is_over() -> None:
    state = new_game(2, max_hands=1)
    play(state, "p0 stay", "p1 stay")
    assert state.is_terminal
    _rejected(state, lambda: state.apply(0, "hit"))
    _rejected(state, lambda: state.apply_chance("2S"))
