"""docs/rules/royal-gambit.md §6: every option of Royal Gambit, and the checks on option values."""

from __future__ import annotations

import pytest

import courtly
from courtly.games.royal_gambit.components import ACTIVE, BUSTED, FINAL, NORMAL, OUT, OVER, STAYED

from .helpers import legal, new_game, play, row


def test_defaults() -> None:
    game = courtly.make("royal-gambit")
    assert game.num_players == 2
    assert dict(game.options) == {
        "target_score": 30,
        "turn_mode": "round_robin",
        "ten_blocks_jacks": False,
        "auto_hit_on_zero": False,
        "final_hand_excludes": "leaders",
        "safety_cap": 200,
    }


def test_num_players_alias() -> None:
    assert courtly.make("royal-gambit", num_players=5).num_players == 5


# ------------------------------------------------------------------------------ target_score


def _one_hand_scoring_five(state) -> None:  # type: ignore[no-untyped-def]
    """p0 banks 5, p1 banks 0; the hand ends."""
    play(state, "p0 hit", "5H", "p1 stay", "p0 stay")


def test_target_score_triggers_final_hand() -> None:
    state = new_game(2, target_score=5)
    _one_hand_scoring_five(state)
    assert state.totals == [5, 0]
    assert state.phase == FINAL
    assert state.favorites == (0,)
    assert state.participants == (1,)
    assert state.status == [OUT, ACTIVE]
    assert state.to_move == (1,)
    play(state, "p1 hit", "4S", "p1 stay")  # 4 < 5: p0 wins
    assert state.is_terminal
    assert state.returns() == [1.0, 0.0]


def test_target_score_not_reached_plays_a_normal_hand() -> None:
    state = new_game(2, target_score=6)
    _one_hand_scoring_five(state)
    assert state.totals == [5, 0]
    assert state.phase == NORMAL
    assert state.participants == (0, 1)
    assert state.status == [ACTIVE, ACTIVE]
    assert state.to_move == (1,)


def test_target_score_default_is_30() -> None:
    state = new_game(2)
    state.totals[:] = [29, 0]  # set directly: totals before this hand
    play(state, "p0 stay", "p1 stay")
    assert state.phase == NORMAL
    play(state, "p1 stay", "p0 hit", "AS", "p0 stay")
    assert state.totals == [30, 0]
    assert state.phase == FINAL
    assert state.participants == (1,)


# ------------------------------------------------------------------------------ turn_mode


def test_round_robin_passes_the_turn_after_each_hit() -> None:
    state = new_game(3)
    play(state, "p0 hit", "2S")
    assert state.to_move == (1,)


def test_full_turn_player_hits_until_he_stays() -> None:
    state = new_game(3, turn_mode="full_turn")
    play(state, "p0 hit", "2S")
    assert state.to_move == (0,)
    assert legal(state, 0) == ["hit", "stay"]
    play(state, "p0 hit", "3S", "p0 hit", "4S")
    assert state.to_move == (0,)
    assert state.status == [ACTIVE, ACTIVE, ACTIVE]
    play(state, "p0 stay")
    assert state.banked == [9, 0, 0]
    assert state.to_move == (1,)
    play(state, "p1 hit", "5H", "p1 hit", "5D")  # busts: his turn ends
    assert state.status == [STAYED, BUSTED, ACTIVE]
    assert state.to_move == (2,)
    play(state, "p2 hit", "AC", "p2 hit", "2C", "p2 stay")
    assert state.totals == [9, 0, 3]
    # A new hand: start one seat clockwise, p1.
    assert state.hand_number == 2
    assert state.to_move == (1,)


def test_full_turn_bust_by_jack_before_his_turn_skips_it() -> None:
    state = new_game(3, turn_mode="full_turn")
    play(state, "p0 hit", "2S", "p0 hit", "JS")
    # Players whose turn has not come yet are active: they can be Jack targets.
    assert legal(state, 0) == ["jack p0", "jack p1", "jack p2"]
    play(state, "p0 jack p1", "4H", "4D")
    assert state.status == [ACTIVE, BUSTED, ACTIVE]
    assert row(state, 1) == ["4H", "4D"]
    assert state.to_move == (0,)  # still A's turn
    play(state, "p0 stay")
    assert state.to_move == (2,)  # p1 busted before his turn: skipped
    assert state.turn == 2


def test_full_turn_seven_goes_to_a_player_whose_turn_has_not_come() -> None:
    state = new_game(3, turn_mode="full_turn")
    play(state, "p0 hit", "7S")
    assert legal(state, 0) == ["give-7 p1", "give-7 p2"]
    play(state, "p0 give-7 p2")
    assert row(state, 2) == ["7S"]
    assert state.to_move == (0,)


def test_turn_mode_full_turn_rejects_other_values() -> None:
    with pytest.raises(courtly.InvalidOptions, match="round_robin, full_turn"):
        courtly.make("royal-gambit", turn_mode="fast")


# ------------------------------------------------------------------------------ ten_blocks_jacks


def test_ten_blocks_jacks_off_a_ten_holder_can_be_chosen() -> None:
    state = new_game(2)
    play(state, "p0 hit", "2S", "p1 hit", "10H", "p0 hit", "JS")
    assert legal(state, 0) == ["jack p0", "jack p1"]


def test_ten_blocks_jacks_blocks_the_flipper_himself() -> None:
    state = new_game(2, ten_blocks_jacks=True)
    play(state, "p0 hit", "10S", "p1 hit", "2H", "p0 hit", "JS")
    assert legal(state, 0) == ["jack p1"]
    with pytest.raises(courtly.IllegalAction):
        state.apply(0, "jack p0")


def test_ten_blocks_jacks_no_eligible_target_fizzles() -> None:
    state = new_game(2, ten_blocks_jacks=True)
    play(state, "p0 hit", "10S", "p1 hit", "10H", "p0 hit", "JS")
    # Nobody may be chosen: the Jack has no effect and the turn passes.
    assert not state.is_chance
    assert state.forced_flips == []
    assert row(state, 0) == ["10S", "JS"]
    assert state.to_move == (1,)
    assert legal(state, 1) == ["hit", "stay"]


# ------------------------------------------------------------------------------ auto_hit_on_zero


def test_auto_hit_on_zero_off_stay_with_empty_row_is_legal() -> None:
    state = new_game(2)
    assert legal(state, 0) == ["hit", "stay"]
    play(state, "p0 hit", "KS", "p1 hit", "8H")
    assert legal(state, 0) == ["hit", "stay"]
    play(state, "p0 stay")
    assert state.banked == [0, 0]
    assert state.status == [STAYED, ACTIVE]


def test_auto_hit_on_zero_forces_hit_until_the_row_scores() -> None:
    state = new_game(2, auto_hit_on_zero=True)
    assert legal(state, 0) == ["hit"]
    with pytest.raises(courtly.IllegalAction):
        state.apply(0, "stay")
    play(state, "p0 hit", "KS")
    assert legal(state, 1) == ["hit"]
    play(state, "p1 hit", "3H")
    assert legal(state, 0) == ["hit"]  # {K} scores 0
    play(state, "p0 hit", "8S", "p1 hit", "9H")
    assert legal(state, 0) == ["hit"]  # {K, 8} scores 0
    play(state, "p0 hit", "AS", "p1 stay")
    assert legal(state, 0) == ["hit", "stay"]  # {K, 8, A} scores 2
    play(state, "p0 stay")
    assert state.totals == [2, 3]


# ------------------------------------------------------------------------------ final_hand_excludes


def _hand_with_totals_6_5_0(state) -> None:  # type: ignore[no-untyped-def]
    play(state, "p0 hit", "AS", "p1 hit", "5H", "p2 stay", "p0 hit", "5S", "p1 stay", "p0 stay")


def test_final_hand_excludes_leaders() -> None:
    state = new_game(3, target_score=5)
    _hand_with_totals_6_5_0(state)
    assert state.totals == [6, 5, 0]
    assert state.phase == FINAL
    assert state.favorites == (0,)
    assert state.participants == (1, 2)  # p1 is at the target but not a leader: he plays
    assert state.status == [OUT, ACTIVE, ACTIVE]
    assert state.to_move == (1,)


def test_final_hand_excludes_at_or_above_target() -> None:
    state = new_game(3, target_score=5, final_hand_excludes="at_or_above_target")
    _hand_with_totals_6_5_0(state)
    assert state.totals == [6, 5, 0]
    assert state.phase == FINAL
    assert state.favorites == (0, 1)
    assert state.participants == (2,)
    assert state.status == [OUT, OUT, ACTIVE]
    assert state.to_move == (2,)
    play(state, "p2 hit", "5C", "p2 hit", "AC", "p2 stay")  # 6: ties p0
    assert state.totals == [6, 5, 6]
    assert not state.is_terminal
    assert state.participants == (0, 2)


def test_at_or_above_target_with_everybody_excluded_skips_the_final_hand() -> None:
    state = new_game(2, target_score=2, final_hand_excludes="at_or_above_target")
    play(state, "p0 hit", "3S", "p1 hit", "2H", "p0 stay", "p1 stay")
    assert state.totals == [3, 2]
    assert state.is_terminal
    assert state.hands_played == 1
    assert state.returns() == [1.0, 0.0]


def test_final_hand_excludes_rejects_other_values() -> None:
    with pytest.raises(courtly.InvalidOptions, match="leaders, at_or_above_target"):
        courtly.make("royal-gambit", final_hand_excludes="everyone")


# ------------------------------------------------------------------------------ max_hands


def test_max_hands_cap_highest_total_wins() -> None:
    state = new_game(2, max_hands=2)
    play(state, "p0 hit", "3S", "p1 stay", "p0 stay")
    assert not state.is_terminal
    assert state.totals == [3, 0]
    play(state, "p1 hit", "AH", "p0 stay", "p1 stay")
    assert state.totals == [3, 1]
    assert state.is_terminal
    assert state.phase == OVER
    assert state.hands_played == 2
    assert state.returns() == [1.0, 0.0]
    assert state.to_move == ()


def test_max_hands_cap_tie_is_shared() -> None:
    state = new_game(2, max_hands=1)
    play(state, "p0 hit", "2S", "p1 hit", "2H", "p0 stay", "p1 stay")
    assert state.totals == [2, 2]
    assert state.is_terminal
    assert state.returns() == [0.5, 0.5]
    assert state.winners == (0, 1)


def test_max_hands_cap_pre_empts_the_tiebreak() -> None:
    state = new_game(3, target_score=2, max_hands=2)
    play(state, "p0 hit", "2S", "p1 hit", "2H", "p2 stay", "p0 stay", "p1 stay")
    assert state.totals == [2, 2, 0]
    assert state.phase == FINAL
    assert state.participants == (2,)
    play(state, "p2 stay")
    assert state.is_terminal
    assert state.returns() == [0.5, 0.5, 0.0]


def test_max_hands_default_200() -> None:
    state = new_game(2)
    for _ in range(199):
        first = state.to_move[0]
        play(state, f"p{first} stay", f"p{1 - first} stay")
    assert not state.is_terminal
    assert state.hands_played == 199
    play(state, "p1 stay", "p0 stay")
    assert state.is_terminal
    assert state.hands_played == 200
    assert state.returns() == [0.5, 0.5]


# ------------------------------------------------------------------------------ invalid options


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target_score": 0}, "target_score must be an integer from 1 to 1000"),
        ({"target_score": "lots"}, "target_score must be an integer from 1 to 1000"),
        ({"target_score": True}, "target_score must be an integer from 1 to 1000"),
        ({"turn_mode": "fast"}, "turn_mode must be round_robin, full_turn"),
        ({"ten_blocks_jacks": "maybe"}, "ten_blocks_jacks must be true or false"),
        ({"auto_hit_on_zero": 2}, "auto_hit_on_zero must be true or false"),
        ({"final_hand_excludes": "nobody"}, "must be leaders, at_or_above_target"),
        ({"max_hands": 0}, "safety_cap must be an integer from 1 to 1000"),
        ({"max_hands": -5}, "safety_cap must be an integer from 1 to 1000"),
    ],
)
def test_invalid_option_values(options: dict[str, object], words: str) -> None:
    with pytest.raises(courtly.InvalidOptions) as caught:
        courtly.make("royal-gambit", **options)
    assert words in str(caught.value)


def test_unknown_option_names_the_options() -> None:
    with pytest.raises(courtly.InvalidOptions) as caught:
        courtly.make("royal-gambit", jokers=True)
    message = str(caught.value)
    assert "'jokers'" in message
    for name in (
        "auto_hit_on_zero",
        "final_hand_excludes",
        "safety_cap",
        "target_score",
        "ten_blocks_jacks",
        "turn_mode",
    ):
        assert name in message


@pytest.mark.parametrize("players", [0, 1, 6, "two"])
def test_invalid_player_counts(players: object) -> None:
    with pytest.raises(courtly.InvalidOptions) as caught:
        courtly.make("royal-gambit", players=players)  # type: ignore[arg-type]
    assert "2–5" in str(caught.value)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_valid_player_counts(players: int) -> None:
    state = new_game(players)
    assert state.num_players == players
    assert state.status == [ACTIVE] * players


def test_option_values_as_text_are_coerced() -> None:
    game = courtly.make(
        "royal-gambit",
        players="3",
        target_score="40",
        ten_blocks_jacks="yes",
        auto_hit_on_zero="off",
        max_hands="7",
    )
    assert game.num_players == 3
    assert game.options["target_score"] == 40
    assert game.options["ten_blocks_jacks"] is True
    assert game.options["auto_hit_on_zero"] is False
    assert game.options["safety_cap"] == 7
