"""King's Court's story: every event told to each seat in a player's words, from what that seat
may know; the outcome of a finished game; the moves' labels; the options' names."""

from __future__ import annotations

import random

import courtly
from courtly.core.events import CHANCE, PUBLIC, observer_bit
from courtly.core.game import Standing
from courtly.core.match import play_randomly
from courtly.core.story import story_of
from courtly.games.kings_court.rules import KingsCourtState

from .helpers import arrange, new_game, play

Observer = int | None


def told(state: KingsCourtState, step: str) -> dict[Observer, str]:
    """What every seat and the spectator are told of ``step`` (``"p0 play 7H"`` a decision,
    ``"7H"`` the pending draw), before it is played."""
    seat, _, text = step.partition(" ")
    if text:
        actor = int(seat.removeprefix("p"))
        item = state.parse_action(actor, text)
    else:
        actor, item = CHANCE, state.game.text.parse_chance(state, step)
    observers: list[Observer] = [None, *range(state.num_players)]
    return {o: state.narrate(actor, item, o) or "" for o in observers}


def told_all(state: KingsCourtState, step: str) -> str:
    """What ``step`` tells everyone alike (checked to be the same for every observer)."""
    lines = set(told(state, step).values())
    assert len(lines) == 1, lines
    return lines.pop()


def label(state: KingsCourtState, seat: int, text: str) -> str:
    return state.game.text.action_label(state, seat, state.parse_action(seat, text))


# ------------------------------------------------------------------------------ the start


def test_the_start_names_the_suits_the_goal_and_the_cut() -> None:
    state = courtly.make("kings-court", players=2).new_state()
    assert isinstance(state, KingsCourtState)
    assert told_all(state, "p1") == (
        "Suits: p0 hearts, p1 spades. The first pawn to space 30 wins.\n"
        "Nobody plays clubs or diamonds: left out of the deck (KC-2).\n"
        "p1 wins the cut and plays first."
    )
    state = courtly.make("kings-court", players=4, track_length=12).new_state()
    assert isinstance(state, KingsCourtState)
    assert told_all(state, "p3").splitlines() == [
        "Suits: p0 hearts, p1 spades, p2 clubs, p3 diamonds. The first pawn to space 12 wins.",
        "p3 wins the cut and plays first.",
    ]


def test_without_the_prefilter_no_suit_is_said_left_out() -> None:
    state = courtly.make("kings-court", players=3, prefilter_unused_suits=False).new_state()
    assert isinstance(state, KingsCourtState)
    assert "left out" not in told_all(state, "p0")


def test_a_deal_is_announced_and_each_dealt_card_shown_to_its_receiver_only() -> None:
    state = courtly.make("kings-court", players=3, initial_hand_size=2).new_state()
    assert isinstance(state, KingsCourtState)
    assert told_all(state, "p2").endswith("\nEach player is dealt 2 cards, p2 first.")
    play(state, "p2")
    seen = told(state, "5C")
    assert seen[2] == "p2 is dealt 5C."
    assert seen[0] == seen[1] == seen[None] == "p2 is dealt a card."


def test_a_deal_that_empties_the_deck_says_the_first_player_draws_nothing() -> None:
    state = new_game(2, initial_hand_size=13)  # 2 x 13 cards: the whole 26-card deck
    while len(state.draw_pile) > 1:
        play(state, str(courtly.Card(state.draw_pile[0])))
    last = str(courtly.Card(state.draw_pile[0]))
    assert told(state, last)[None] == (
        "p1 is dealt a card.\nBoth piles are empty: p0 draws nothing this turn (KC-6)."
    )
    play(state, last)
    assert not state.is_chance and state.to_move == (0,)


# ------------------------------------------------------------------------------ draws


def test_a_draw_names_its_card_to_the_drawer_alone() -> None:
    state = new_game(4, start="p2")
    seen = told(state, "9C")
    assert seen[2] == "p2 draws 9C."
    assert seen[0] == seen[1] == seen[3] == seen[None] == "p2 draws a card."


def test_a_card_of_nobodys_suit_is_shown_and_removed_and_drawn_again() -> None:
    state = new_game(2, prefilter_unused_suits=False)
    assert told_all(state, "QD") == (
        "p0 draws QD: nobody plays diamonds, so it leaves the game and p0 draws again (KC-2)."
    )


def test_a_removed_last_card_tells_the_reshuffle_before_drawing_again() -> None:
    state = new_game(2, prefilter_unused_suits=False)
    arrange(state, hands={0: "4H"})
    play(state, "2S", "p0 play 4H", "p0 end")
    state.draw_pile[:] = [int(courtly.Card.parse("3C"))]
    assert told_all(state, "3C").splitlines()[1] == (
        "The draw pile is empty: the discard pile (1 card) is shuffled into a new draw pile (KC-6)."
    )
    play(state, "3C")
    assert state.epoch == 1 and state.is_chance


def test_the_end_of_a_turn_tells_a_reshuffle_or_a_draw_of_nothing() -> None:
    state = new_game(2)
    arrange(state, hands={0: "3H 5H"})
    play(state, "2H", "p0 play 2H", "p0 play 3H")
    state.draw_pile.clear()  # pretend the rest was drawn
    assert told_all(state, "p0 end") == (
        "p0 ends the turn.\nThe draw pile is empty: "
        "the discard pile (2 cards) is shuffled into a new draw pile (KC-6)."
    )
    state.discard_pile.clear()
    assert told_all(state, "p0 end") == (
        "p0 ends the turn.\nBoth piles are empty: p1 draws nothing this turn (KC-6)."
    )


# ------------------------------------------------------------------------------ plays


def test_a_number_card_of_ones_own_suit_moves_forward_from_and_to() -> None:
    state = new_game(4)
    arrange(state, positions={0: 4}, hands={0: "7H"})
    play(state, "AH")
    assert told_all(state, "p0 play 7H") == "p0 plays 7H and moves forward 7 spaces, from 4 to 11."
    assert told_all(state, "p0 play AH") == "p0 plays AH and moves forward 1 space, from 4 to 5."


def test_a_push_back_says_by_whom_how_far_and_to_which_space() -> None:
    state = new_game(4)
    arrange(state, positions={1: 12, 2: 3}, hands={0: "4S 5C"})
    play(state, "6D")
    assert told_all(state, "p0 play 4S") == (
        "p0 plays 4S and pushes p1 back 4 spaces, from 12 to 8."
    )
    # Stopped at the start (worked example 2), and from the start (worked example 10).
    assert told_all(state, "p0 play 5C") == (
        "p0 plays 5C and pushes p2 back 3 spaces, from 3 to the start (a pawn goes no lower: KC-7)."
    )
    assert told_all(state, "p0 play 6D") == (
        "p0 plays 6D: p3 stays on the start, and may not be pushed back again this turn (KC-9)."
    )


def test_a_jack_swap_says_where_both_pawns_go() -> None:
    state = new_game(4)
    arrange(state, positions={0: 8, 1: 8, 2: 20, 3: 2})
    play(state, "JH")
    assert told_all(state, "p0 play JH p2") == (
        "p0 plays JH and swaps places with p2: p0 goes from 8 to 20, p2 from 20 to 8."
    )
    assert told_all(state, "p0 play JH p1") == (
        "p0 plays JH and swaps places with p1: both are on 8."
    )
    # A swap that sets its player back is allowed, and the story says why (KC-11).
    assert told_all(state, "p0 play JH p3") == (
        "p0 plays JH and swaps places with p3: p0 goes from 8 to 2, p3 from 2 to 8"
        " (a Jack may set its player back: KC-11)."
    )


def test_a_queens_look_shows_the_hand_to_the_looker_and_its_owner_only() -> None:
    state = new_game(4)
    arrange(state, hands={1: "6H KS 2S"})
    play(state, "QS")
    seen = told(state, "p0 play QS p1")
    public = "p0 plays QS and looks at p1's hand (3 cards)."
    assert seen[0] == seen[1] == f"{public}\np0 sees p1's hand: 2S KS 6H."
    assert seen[2] == seen[3] == seen[None] == public
    lines = state.game.text.tell(state, 0, state.parse_action(0, "play QS p1"))
    assert lines[1][0] == observer_bit(0, 4) | observer_bit(1, 4)


def test_a_queen_on_an_empty_hand_says_there_is_nothing_to_see() -> None:
    state = new_game(2)
    play(state, "QH")
    assert told_all(state, "p0 play QH p1") == (
        "p0 plays QH to look at p1's hand, but it is empty: nothing to see."
    )


def test_a_borrow_or_a_pass_after_a_queen_is_told_to_everyone() -> None:
    state = new_game(4)
    arrange(state, positions={1: 5}, hands={1: "6H KS 2S"})
    play(state, "QS", "p0 play QS p1")
    assert told_all(state, "p0 borrow 6H") == (
        "p0 borrows 6H from p1's hand and moves forward 6 spaces, from 0 to 6."
    )
    assert told_all(state, "p0 borrow 2S") == (
        "p0 borrows 2S from p1's hand and pushes p1 back 2 spaces, from 5 to 3."
    )
    assert told_all(state, "p0 pass") == "p0 passes: nothing borrowed from p1's hand."


def test_a_borrowed_court_card_aimed_at_its_own_hand_leaves_it_first() -> None:
    """Worked example 6: ``borrow KS p1`` throws away the rest of p1's hand, {6H, 2S}."""
    state = new_game(4)
    arrange(state, hands={1: "6H KS 2S"})
    play(state, "QS", "p0 play QS p1")
    assert told_all(state, "p0 borrow KS p1") == (
        "p0 borrows KS from p1's hand: p1 throws the whole hand away, face up: 2S 6H."
    )
    state = new_game(2)
    arrange(state, hands={1: "QS 4S"})
    play(state, "QH", "p0 play QH p1")
    seen = told(state, "p0 borrow QS p1")
    assert seen[None] == "p0 borrows QS from p1's hand and looks at p1's hand (1 card)."
    assert seen[0].endswith("\np0 sees p1's hand: 4S.")


def test_a_kings_discard_is_public() -> None:
    state = new_game(3)
    arrange(state, hands={2: "9C 3H"})
    play(state, "KH")
    assert told_all(state, "p0 play KH p2") == (
        "p0 plays KH: p2 throws the whole hand away, face up: 3H 9C."
    )
    assert told_all(state, "p0 play KH p1") == (
        "p0 plays KH on p1, whose hand is empty: nothing to throw away (KC-13)."
    )


def test_a_plain_end_of_turn() -> None:
    state = new_game(3)
    play(state, "2C")
    assert told_all(state, "p0 end") == "p0 ends the turn."


# ------------------------------------------------------------------------------ the end


def test_the_winning_move_says_so_and_shows_every_hand() -> None:
    """Worked example 4: 26 + 9 stops on 30 and wins at once; the hands are shown without the
    card just played."""
    state = new_game(3)
    arrange(state, positions={0: 26}, hands={0: "2S", 1: "3S 8H"})
    play(state, "9H")
    assert told_all(state, "p0 play 9H") == (
        "p0 plays 9H and moves from 26 to 30, the last space (a pawn stops on it: KC-7).\n"
        "p0 reaches the end of the track and wins!\n"
        "Every hand is shown: p0 holds 2S; p1 holds 3S 8H; p2 holds no card."
    )


def test_a_win_with_a_borrowed_card_shows_the_lenders_hand_without_it() -> None:
    state = new_game(2)
    arrange(state, positions={0: 25}, hands={1: "5H 7S"})
    play(state, "QS", "p0 play QS p1")
    assert told_all(state, "p0 borrow 5H").splitlines()[1:] == [
        "p0 reaches the end of the track and wins!",
        "Every hand is shown: p0 holds no card; p1 holds 7S.",
    ]


def test_the_safety_cap_ends_the_game_in_the_story() -> None:
    state = new_game(3, safety_cap=3)
    play(state, "4H", "p0 play 4H", "p0 end", "4S", "p1 play 4S", "p1 end", "2C")
    assert told_all(state, "p2 end") == (
        "p2 ends the turn.\n"
        "That was turn 3, the safety cap: the game stops (KC-18).\n"
        "p0 and p1 share the win, level at the front on space 4.\n"
        "Every hand is shown: p0 holds no card; p1 holds no card; p2 holds 2C."
    )


def test_the_outcome_of_a_won_race() -> None:
    state = new_game(4)
    arrange(state, positions={0: 26, 1: 12, 2: 12, 3: 3})
    play(state, "7H", "p0 play 7H")
    outcome = state.game.text.outcome(state)
    assert outcome.reason == "p0 reached space 30, the end of the track"
    assert outcome.winners == (0,)
    assert outcome.standings == (
        Standing(0, 1, "space 30", "reached the end of the track"),
        Standing(1, 2, "space 12", "18 spaces short of the end"),
        Standing(2, 2, "space 12", "18 spaces short of the end"),
        Standing(3, 4, "space 3", "27 spaces short of the end"),
    )


def test_the_outcome_at_the_safety_cap_shared_and_alone() -> None:
    state = new_game(3, safety_cap=3)
    play(state, "4H", "p0 play 4H", "p0 end", "4S", "p1 play 4S", "p1 end", "2C", "p2 end")
    outcome = state.game.text.outcome(state)
    assert outcome.reason == (
        "the safety cap of 3 turns ended the game: the farthest pawn wins, "
        "pawns level at the front share the win (KC-18)"
    )
    assert outcome.standings == (
        Standing(0, 1, "space 4", "level at the front with p1"),
        Standing(1, 1, "space 4", "level at the front with p0"),
        Standing(2, 3, "space 0", "4 spaces behind the farthest pawn"),
    )
    state = new_game(2, safety_cap=1)
    play(state, "5H", "p0 play 5H", "p0 end")
    assert state.game.text.outcome(state).standings == (
        Standing(0, 1, "space 5", "the farthest pawn at the safety cap"),
        Standing(1, 2, "space 0", "5 spaces behind the farthest pawn"),
    )


# ------------------------------------------------------------------------------ labels


def test_every_move_has_a_label_in_words() -> None:
    state = new_game(4)
    arrange(state, positions={0: 4, 1: 12, 2: 3}, hands={0: "7H JH QS KD 5C 6D"})
    play(state, "2S")
    labels = {str(a): label(state, 0, str(a)) for a in state.legal_actions(0)}
    assert labels["play 7H"] == "Play 7H: forward 7"
    assert labels["play 2S"] == "Play 2S: p1 back 2"
    assert labels["play 5C"] == "Play 5C: p2 back 3 (to the start)"
    assert labels["play 6D"] == "Play 6D: p3 back 0 (on the start)"
    assert labels["play JH p2"] == "Swap places with p2 (JH)"
    assert labels["play QS p1"] == "Look at p1's hand (QS)"
    assert labels["play KD p3"] == "Discard p3's hand (KD)"
    assert labels["end"] == "End the turn"
    state.positions[0] = 23
    assert label(state, 0, "play 7H") == "Play 7H: reach 30 and win"


def test_borrows_are_labelled_with_their_effect() -> None:
    state = new_game(4)
    arrange(state, positions={1: 9}, hands={1: "4S 6H JS QC"})
    play(state, "QS", "p0 play QS p1")
    labels = [label(state, 0, str(a)) for a in state.legal_actions(0)]
    assert labels == [
        "Borrow 4S: p1 back 4",
        "Borrow JS: swap places with p1",
        "Borrow 6H: forward 6",
        "Borrow QC: look at p2's hand",
        "Pass",
    ]


# ------------------------------------------------------------------------------ names


def test_every_option_has_a_name_and_a_plain_explanation() -> None:
    info = courtly.make("kings-court").info
    options = [*info.options, *(o for bot in info.bots for o in bot.options)]
    for option in options:
        assert option.label and option.label != option.name
        assert option.about.endswith(".")
        assert "KC-" not in option.about and "_" not in option.about


def test_each_seat_is_named_for_its_suit() -> None:
    game = courtly.make("kings-court", players=4)
    assert [game.text.seat_title(game, s) for s in range(4)] == [
        "Hearts",
        "Spades",
        "Clubs",
        "Diamonds",
    ]


def test_every_event_of_a_game_is_told_to_every_observer_in_words() -> None:
    """Along random games, every event tells every observer something, in words (no raw action
    text), the draws privately."""
    for players, seed in ((2, 4), (3, 5), (4, 6)):
        game = courtly.make("kings-court", players=players, initial_hand_size=2)
        state = game.new_state()
        play_randomly(state, random.Random(seed))
        story = story_of(game, state.history_text())
        for observer in [None, *range(players)]:
            told_events = {index for index, _ in story.told_to(observer, players)}
            assert told_events == set(range(len(state.history)))
        texts = [text for _, _, text in story.lines]
        assert not [t for t in texts if t.startswith(("play ", "borrow ", "p0: "))]
        assert any(knowers != PUBLIC for _, knowers, _ in story.lines)  # the draws are private
