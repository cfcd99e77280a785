"""Royal Gambit's story in a player's words: every flip and what it sets off, each hand's start
and end, the end of the game and its outcome (docs/rules/royal-gambit.md), with every card
forced."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.events import CHANCE, PUBLIC
from courtly.core.story import story_of
from courtly.games.royal_gambit.components import FINAL, NORMAL, TIEBREAK
from courtly.games.royal_gambit.rules import RoyalGambitState

from .helpers import new_game, play


def told(state: RoyalGambitState, step: str) -> list[str]:
    """The lines telling ``step`` (as in :func:`play`), which is then played; every line is
    told to every seat and to spectators, since nothing in Royal Gambit is hidden."""
    seat, _, action = step.partition(" ")
    if action:
        actor = int(seat.removeprefix("p"))
        item = state.parse_action(actor, action)
    else:
        actor, item = CHANCE, state.game.text.parse_chance(state, step)
    lines = state.game.text.tell(state, actor, item)
    assert all(knowers == PUBLIC for knowers, _ in lines)
    texts = [text for _, text in lines]
    for seat_or_none in (None, *range(state.num_players)):
        assert state.narrate(actor, item, seat_or_none) == "\n".join(texts)
    play(state, step)
    return texts


# ------------------------------------------------------------------------------ a hand


def test_the_first_hand_is_announced_with_its_start_player() -> None:
    state = courtly.make("royal-gambit", players=3, target_score=25).new_state()
    assert isinstance(state, RoyalGambitState)
    assert told(state, "p2") == [
        "Hand 1: everyone plays; p2 starts, drawn at random.",
        "When a hand ends with someone on 25 or more, one final hand follows.",
    ]


def test_flips_say_what_the_row_is_worth() -> None:
    state = new_game(2)
    assert told(state, "p0 hit") == ["p0 hits."]
    assert told(state, "3S") == ["p0 flips 3S: the row is worth 3."]
    play(state, "p1 hit")
    assert told(state, "9H") == ["p1 flips 9H, worth no points."]
    play(state, "p0 hit")
    assert told(state, "KS") == ["p0 flips KS: it doubles the row, now worth 6."]
    play(state, "p1 hit")
    assert told(state, "KH") == ["p1 flips KH: it will double the row's points, none yet."]
    play(state, "p0 hit")
    assert told(state, "QD") == ["p0 flips QD: it will pardon p0's next repeated rank (RG-8)."]
    play(state, "p1 hit", "2H")
    assert told(state, "p0 stay") == ["p0 stays and banks 6 points, doubled by the King (total 6)."]


def test_a_bust_names_the_repeated_card_and_the_points_lost() -> None:
    state = new_game(2)
    play(state, "p0 hit", "4S", "p1 hit", "2H", "p0 hit", "5S", "p1 hit", "9H", "p0 hit")
    assert told(state, "4H") == [
        "p0 flips 4H and busts: a second 4 (4S is in the row).",
        "p0 loses the 9 points the row was worth and scores 0 this hand.",
    ]
    play(state, "p1 hit")
    assert told(state, "9C") == [
        "p1 flips 9C and busts: a second 9 (9H is in the row).",
        "p1 loses the 2 points the row was worth and scores 0 this hand.",
        "End of hand 1:",
        "p0 busted: total 0.",
        "p1 busted: total 0.",
        "Nobody has 30 yet. Hand 2: everyone plays; p1 starts.",
    ]


def test_a_face_card_busts_too_and_a_worthless_row_loses_nothing() -> None:
    state = new_game(2)
    play(state, "p0 hit", "KS", "p1 hit", "2H", "p0 hit")
    assert told(state, "KD") == [
        "p0 flips KD and busts: a second King (KS is in the row).",
        "p0 scores 0 this hand.",
    ]


def test_a_pardon_names_the_queen_and_the_pair_set_aside() -> None:
    # docs/rules/royal-gambit.md §8, example 4: a row of 5, Q and K flips another 5.
    state = new_game(2)
    play(state, "p0 hit", "5H", "p1 hit", "2S", "p0 hit", "QH", "p1 hit", "3S")
    play(state, "p0 hit", "KH", "p1 hit", "4S", "p0 hit")
    assert told(state, "5D") == [
        "p0 flips 5D: a second 5 (5H is in the row), pardoned by QH (RG-8).",
        "QH and 5D are set aside; p0 plays on, the row worth 10.",
    ]


def test_a_second_queen_is_pardoned_by_the_first() -> None:
    state = new_game(2)
    play(state, "p0 hit", "QS", "p1 hit", "2S", "p0 hit")
    assert told(state, "QC") == [
        "p0 flips QC: a second Queen, which QS pardons (RG-7).",
        "QS and QC are set aside; p0 plays on, the row worth 0.",
    ]


def test_a_pardoned_seven_has_no_power() -> None:
    # Example 6: a row of Q, 7 and 3 flips a 7.
    state = new_game(2)
    play(state, "p0 hit", "QS", "p1 hit", "7H", "p1 give-7 p0", "p0 hit", "3S", "p1 hit", "4S")
    assert [str(c) for c in state.rows[0]] == ["QS", "7H", "3S"]
    play(state, "p0 hit")
    assert told(state, "7D") == [
        "p0 flips 7D: a second 7 (7H is in the row), pardoned by QS (RG-8).",
        "QS and 7D are set aside; the new 7 has no power (RG-6); p0 plays on, the row worth 3.",
    ]


def test_the_seven_says_who_may_take_it_and_who_got_it() -> None:
    # Example 7: p1 has stayed, p2 shows a 7, p3 may take it.
    state = new_game(4)
    play(state, "p0 hit", "2S", "p1 stay", "p2 hit", "2D", "p3 hit", "7C", "p3 give-7 p2")
    play(state, "p0 hit")
    assert told(state, "7H") == [
        "p0 flips 7H, the hot potato. p0 must give it to p3, the only one who can take it (RG-9)."
    ]
    assert told(state, "p0 give-7 p3") == ["p0 gives 7H to p3."]
    state = new_game(3)
    play(state, "p0 hit")
    assert told(state, "7H") == ["p0 flips 7H, the hot potato. p0 must give it to p1 or p2 (RG-9)."]
    state = new_game(2)
    play(state, "p0 stay", "p1 hit")
    assert told(state, "7H") == [
        "p1 flips 7H, the hot potato. Nobody else in the hand can take a 7, so p1 keeps it (RG-9)."
    ]


def test_a_jack_and_its_forced_flips() -> None:
    # Example 8: the Jack chain J, J, 9, 4, 2.
    state = new_game(3)
    play(state, "p0 hit")
    assert told(state, "JS") == [
        "p0 flips JS, the Court Spy. p0 picks who flips two cards: p0, p1 or p2 (RG-11)."
    ]
    assert told(state, "p0 jack p1") == [
        "p0 sends the Jack at p1: p1 flips two cards, one at a time."
    ]
    assert told(state, "JH") == [
        "p1 flips JH (the Jack's first flip), the Court Spy. "
        "p1 picks who flips two cards: p0, p1 or p2 (RG-11)."
    ]
    play(state, "p1 jack p2")
    assert told(state, "9D") == ["p2 flips 9D (the Jack's first flip), worth no points."]
    assert told(state, "4D") == ["p2 flips 4D (the Jack's second flip): the row is worth 4."]
    assert told(state, "2C") == ["p1 flips 2C (the Jack's second flip): the row is worth 2."]


def test_a_bust_on_a_forced_flip_cancels_the_other() -> None:
    # Example 9: p0's row is {3}; he sends his Jack at himself and flips a 3.
    state = new_game(2)
    play(state, "p0 hit", "3S", "p1 hit", "9H", "p0 hit", "JS")
    assert told(state, "p0 jack p0") == [
        "p0 sends the Jack at himself: p0 flips two cards, one at a time."
    ]
    assert told(state, "3H") == [
        "p0 flips 3H (the Jack's first flip) and busts: a second 3 (3S is in the row).",
        "p0 loses the 3 points the row was worth and scores 0 this hand.",
        "p0's last forced flip is cancelled (RG-10).",
    ]


def test_a_jack_with_nobody_to_pick_does_nothing() -> None:
    state = new_game(2, ten_blocks_jacks=True)
    play(state, "p0 hit")
    assert told(state, "10S") == ["p0 flips 10S: while it shows, no Jack may pick p0 (RG-12)."]
    play(state, "p1 hit", "10H", "p0 hit")
    assert told(state, "JS") == [
        "p0 flips JS, the Court Spy. "
        "Everyone still in the hand shows a 10, so it does nothing (RG-12)."
    ]
    state = new_game(2, ten_blocks_jacks=True)
    play(state, "p0 hit", "2S", "p1 hit", "10H", "p0 hit")
    assert told(state, "JS") == [
        "p0 flips JS, the Court Spy. p0 is the only one it can pick: p0 flips two cards (RG-11)."
    ]


def test_the_end_of_a_hand_with_a_stay() -> None:
    state = new_game(3)
    play(state, "p0 hit", "4S", "p1 hit", "AH", "p2 hit", "5D", "p0 stay", "p1 hit", "KH")
    play(state, "p2 hit", "5C")  # p2 busts
    assert told(state, "p1 stay") == [
        "p1 stays and banks 2 points, doubled by the King (total 2).",
        "End of hand 1:",
        "p0 banked 4: total 4.",
        "p1 banked 2: total 2.",
        "p2 busted: total 0.",
        "Nobody has 30 yet. Hand 2: everyone plays; p1 starts.",
    ]


def test_an_empty_deck_stops_the_hand_and_says_who_stayed() -> None:
    # RG-18 on a hit: nobody busted, so everyone still in the hand banks the row.
    state = new_game(3)
    play(state, "p0 hit", "4S", "p1 hit", "AH", "p2 stay")
    state.deck.clear()
    assert told(state, "p0 hit") == [
        "p0 hits.",
        "The deck is empty: the hand stops, and p0 and p1 stay, banking their rows (RG-18).",
        "End of hand 1:",
        "p0 banked 4: total 4.",
        "p1 banked 1: total 1.",
        "p2 banked 0: total 0.",
        "Nobody has 30 yet. Hand 2: everyone plays; p1 starts.",
    ]
    # RG-18 on a forced flip: the last card is the Jack's first flip.
    state = new_game(2)
    play(state, "p0 hit", "4S", "p1 stay", "p0 hit")
    state.deck[:] = [c for c in state.deck if str(c) in ("JS", "2C")]
    play(state, "JS", "p0 jack p0")
    assert told(state, "2C") == [
        "p0 flips 2C (the Jack's first flip): the row is worth 6.",
        "The deck is empty: the hand stops, and p0 stays, banking the row (RG-18).",
        "End of hand 1:",
        "p0 banked 6: total 6.",
        "p1 banked 0: total 0.",
        "Nobody has 30 yet. Hand 2: everyone plays; p1 starts.",
    ]


# ------------------------------------------------------------------------------ the game's end


def _example_10_up_to_the_final_hand() -> RoyalGambitState:
    state = new_game(4)
    state.totals[:] = [21, 26, 21, 12]
    play(state, "p0 hit", "5S", "p1 stay", "p2 hit", "5H", "p3 hit", "4D")
    play(state, "p0 hit", "KS", "p2 hit", "KH", "p3 hit", "4C", "p0 stay")
    return state


def test_the_final_hand_is_announced_with_who_sits_out_and_why() -> None:
    state = _example_10_up_to_the_final_hand()
    assert told(state, "p2 stay")[1:] == [
        "End of hand 1:",
        "p0 banked 10: total 31.",
        "p1 banked 0: total 26.",
        "p2 banked 10: total 31.",
        "p3 busted: total 12.",
        "p0 and p2 have reached 30: hand 2 is the final hand.",
        "p0 and p2 sit it out as favorites, level on the highest total, 31 (RG-20).",
        "p1 and p3 play it; p1 starts.",
    ]
    picture = state.render(None)
    assert "*" not in picture
    assert picture.splitlines()[0].startswith("Royal Gambit · hand 2 (the final hand) · ")
    assert "sits out: a favorite" in picture.splitlines()[1]


def test_the_final_hand_without_the_players_at_the_target() -> None:
    state = new_game(3, target_score=5, final_hand_excludes="at_or_above_target")
    play(state, "p0 hit", "5S", "p1 hit", "3S", "p2 hit", "KS", "p0 stay", "p1 stay", "p2 hit")
    play(state, "3H")
    assert told(state, "p2 stay")[-3:] == [
        "p0 and p2 have reached 5: hand 2 is the final hand.",
        "p0 and p2 sit it out as favorites, at or above the target (RG-20).",
        "p1 plays it alone; p1 starts.",
    ]


def test_tiebreaks_are_announced_with_who_plays_and_who_drops_out() -> None:
    state = _example_10_up_to_the_final_hand()
    play(state, "p2 stay", "p1 hit", "5D", "p3 hit", "9C", "p1 stay", "p3 hit")
    assert told(state, "9H")[-2:] == [
        "p0, p1 and p2 are level on the highest total, 31.",
        "Hand 3 is a tiebreak for them only (RG-22); p2 starts.",
    ]
    assert "sits out: not in the tiebreak" in state.render(None).splitlines()[4]
    play(state, "p2 stay", "p0 stay")
    assert told(state, "p1 stay")[-1] == (
        "p0, p1 and p2 are still level on 31: hand 4 is another tiebreak (RG-22); p0 starts."
    )
    play(state, "p0 hit", "3S", "p1 hit", "3H", "p2 hit", "3D", "p0 hit", "3C", "p1 stay")
    assert told(state, "p2 stay")[-2:] == [
        "p0 drops out of the tiebreak, no longer level on top.",
        "p1 and p2 are still level on 34: hand 5 is another tiebreak (RG-22); p1 starts.",
    ]
    play(state, "p1 hit", "2S", "p2 stay")
    assert told(state, "p1 stay")[-1] == (
        "p1 wins the game: p1 came out ahead in the tiebreak with 36 (RG-22)."
    )
    outcome = state.game.text.outcome(state)
    assert outcome.reason == "p1 came out ahead in the tiebreak with 36 (RG-22)"
    assert [(s.seat, s.place, s.score, s.note) for s in outcome.standings] == [
        (1, 1, "36 points", "won the tiebreak (banked 2 in its last hand)"),
        (2, 2, "34 points", "lost the tiebreak (banked 0 in its last hand), 2 behind p1"),
        (0, 3, "31 points", "5 behind p1"),
        (3, 4, "12 points", "24 behind p1"),
    ]


def test_a_favorite_nobody_passes_wins() -> None:
    state = new_game(3, target_score=5)
    play(state, "p0 hit", "5S", "p1 hit", "3S", "p2 hit", "2S")
    play(state, "p0 stay", "p1 stay", "p2 stay")
    play(state, "p1 hit", "AS", "p2 hit", "KH", "p1 stay")
    assert told(state, "p2 stay")[-1] == (
        "p0 wins the game: p0 reached 5 and nobody passed them in the final hand."
    )
    outcome = state.game.text.outcome(state)
    assert outcome.reason == "p0 reached 5 and nobody passed them in the final hand"
    assert outcome.winners == (0,)
    assert [(s.seat, s.place, s.score, s.note) for s in outcome.standings] == [
        (0, 1, "5 points", "sat out the final hand as a favorite; nobody passed them"),
        (1, 2, "4 points", "banked 1 in the final hand, 1 behind p0"),
        (2, 3, "2 points", "banked 0 in the final hand, 3 behind p0"),
    ]
    assert state.render(None).splitlines()[1].endswith("sat out the last hand")


def test_a_player_who_passes_the_favorite_in_the_final_hand_wins() -> None:
    state = new_game(2, target_score=3)
    play(state, "p0 hit", "3S", "p1 hit", "2S", "p0 stay", "p1 stay", "p1 hit", "4S")
    assert told(state, "p1 stay")[-1] == (
        "p1 wins the game: p1 passed p0 in the final hand, finishing with 6."
    )
    outcome = state.game.text.outcome(state)
    assert outcome.reason == "p1 passed p0 in the final hand, finishing with 6"
    assert [(s.seat, s.place, s.note) for s in outcome.standings] == [
        (1, 1, "banked 4 in the final hand and passed p0"),
        (0, 2, "sat out the final hand as a favorite; passed by p1"),
    ]


def test_a_skipped_final_hand_says_why() -> None:
    # RG-21: everyone is level at the top, so the final hand is skipped for a tiebreak.
    state = new_game(2, target_score=2)
    play(state, "p0 hit", "2S", "p1 hit", "2H", "p0 stay")
    assert told(state, "p1 stay")[-3:] == [
        "Everyone is a favorite, so nobody plays the final hand (RG-21).",
        "p0 and p1 are level on the highest total, 2.",
        "Hand 2 is a tiebreak for them only (RG-22); p1 starts.",
    ]
    # Everyone at the target sits out, and one of them is ahead: the game is over at once.
    state = new_game(2, target_score=2, final_hand_excludes="at_or_above_target")
    play(state, "p0 hit", "3S", "p1 hit", "2H", "p0 stay")
    assert told(state, "p1 stay")[-1] == (
        "p0 wins the game: everyone reached 2, so nobody played the final hand, "
        "and p0 has the highest total, 3 (RG-21)."
    )
    outcome = state.game.text.outcome(state)
    assert outcome.reason.endswith("p0 has the highest total, 3 (RG-21)")
    assert outcome.standings[0].note == "the highest total; nobody played the final hand"


def test_the_safety_cap_ends_the_game_in_words() -> None:
    state = new_game(2, safety_cap=1)
    play(state, "p0 hit", "2S", "p1 hit", "3S", "p0 stay")
    assert told(state, "p1 stay")[-1] == (
        "The game has reached the safety cap of 1 hand: p1 wins with the highest total, 3 (RG-26)."
    )
    outcome = state.game.text.outcome(state)
    assert outcome.reason == (
        "the safety cap of 1 hand ended the game: p1 wins with the highest total, 3 (RG-26)"
    )
    assert [(s.seat, s.place, s.score, s.note) for s in outcome.standings] == [
        (1, 1, "3 points", "the highest total when the cap was reached"),
        (0, 2, "2 points", "1 behind p1"),
    ]


def test_a_tie_at_the_safety_cap_is_shared_in_words() -> None:
    state = new_game(3, safety_cap=1)
    play(state, "p0 hit", "2S", "p1 hit", "2H", "p2 stay", "p0 stay")
    assert told(state, "p1 stay")[-1] == (
        "The game has reached the safety cap of 1 hand: p0 and p1 share the win, "
        "level on the highest total, 2 (RG-26)."
    )
    outcome = state.game.text.outcome(state)
    assert [(s.seat, s.place) for s in outcome.standings] == [(0, 1), (1, 1), (2, 3)]
    assert outcome.winners == (0, 1)
    assert outcome.standings[2].note == "2 behind p0 and p1"


@pytest.mark.parametrize("seed", range(12))
def test_the_outcome_names_the_hand_that_ended_the_game(seed: int) -> None:
    """Whatever the way a game ended (the final hand, a tiebreak, a skipped final hand), the
    outcome says it, though the finished state no longer keeps its phase."""
    rng = random.Random(seed)
    seen = set()
    for _ in range(40):
        mode = rng.choice(["leaders", "at_or_above_target"])
        state = courtly.make(
            "royal-gambit",
            players=rng.randint(2, 5),
            target_score=rng.randint(1, 6),
            final_hand_excludes=mode,
        ).new_state()
        last = NORMAL
        while not state.is_terminal:
            last = state.phase
            if state.is_chance:
                state.apply_chance(state.sample_chance_outcome(rng))
            else:
                seat = state.to_move[0]
                legal = state.legal_actions(seat)
                hit = str(legal[0]) == "hit" and rng.random() < 0.6
                state.apply(seat, legal[0] if hit else rng.choice(legal))
        reason = state.game.text.outcome(state).reason
        seen.add(last)
        assert ("tiebreak" in reason) == (last == TIEBREAK), reason
        assert ("in the final hand" in reason) == (last == FINAL), reason
        assert ("(RG-21)" in reason) == (last == NORMAL), reason
    assert FINAL in seen


def test_a_whole_game_is_told_the_same_again_from_its_record() -> None:
    state = courtly.make("royal-gambit", players=3, target_score=8).new_state()
    state.playout(random.Random(5))
    story = story_of(state.game, state.history_text())
    lines = [text for _, _, text in story.lines]
    assert lines[0].startswith("Hand 1: everyone plays")
    assert sum(line.startswith("End of hand") for line in lines) == state.hands_played
    assert lines[-1].startswith(f"p{state.winners[0]} wins the game: ")
