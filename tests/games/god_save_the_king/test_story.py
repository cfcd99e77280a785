"""The story of a game in a player's words, each line to the seats that may read it, how the
game ended, and the moves' labels (docs/rules/god-save-the-king.md, the worked examples of §13)."""

from __future__ import annotations

import re

import pytest

import courtly
from courtly.core.cards import Card
from courtly.core.events import CHANCE
from courtly.core.game import Outcome, Standing
from courtly.core.story import story_of

from .helpers import careful_game, new_game, play

SEATS = (None, 0, 1)


def told(state: courtly.State, seat: int | None, step: str) -> list[str]:
    """What ``seat`` is told of ``step``: ``"p1 pass"``, or a card alone for the pending draw."""
    if " " not in step:
        line = state.narrate(CHANCE, Card.parse(step), seat)
    else:
        actor, text = step.split(" ", 1)
        mover = int(actor.removeprefix("p"))
        line = state.narrate(mover, state.parse_action(mover, text), seat)
    return line.splitlines() if line else []


def told_alike(state: courtly.State, step: str, seats: tuple[int | None, ...] = SEATS) -> list[str]:
    """The lines of ``step``, checked to be the same for every seat in ``seats``."""
    lines = told(state, seats[0], step)
    for seat in seats[1:]:
        assert told(state, seat, step) == lines, seat
    return lines


def outcome(state: courtly.State) -> Outcome:
    assert state.is_terminal
    return state.game.text.outcome(state)


# --------------------------------------------------------------------------------- a trick


def test_a_failed_bluff_says_the_declaration_was_wrong_and_what_was_drawn_from_whom() -> None:
    # §13 example 3: P1 declares J on a 6; P2 challenges and draws 9S from P1's hand.
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare j")
    assert told_alike(state, "p1 declare 9") == [
        "p0 declares a Jack, p1 a 9.",
        "p0 wins the blind skirmish (a Jack beats a 9); p1 may challenge.",
    ]
    play(state, "p1 declare 9")
    assert told_alike(state, "p1 challenge") == [
        "p1 challenges: is p0's middle card really a Jack?",
        "Not accurate: p0's middle card is not a Jack.",
        "p1 draws a card blindly from p0's hand.",
    ]
    play(state, "p1 challenge")
    assert told_alike(state, "9S") == [
        "p1 draws 9S from p0's hand and puts it on his trick pile.",
        "p0 takes the trick, 6 cards: his declaration, a Jack, won the blind skirmish, and a "
        "caught bluff does not change that (GSK-9).",
        "Next trick: p1 against p0, p1 with priority.",
    ]


def test_a_trick_won_on_one_column_says_the_draw_and_who_takes_it() -> None:
    # §13 example 2: Q beats 4, 5 and 5 are equal.
    state = new_game()
    play(state, "p0 QS 3S 5S", "p1 5H 9H")
    assert told_alike(state, "p1 form right 4H", (None, 0))[1:] == [
        "Reveal: p0 shows QS left and 5S right; p1 shows 5H left and 4H right.",
        "Skirmishes: p0's QS beats p1's 4H; 5S and 5H are equal: p0 wins one and draws the other.",
    ]
    play(state, "p1 form right 4H", "p0 pass")
    assert told_alike(state, "p1 pass") == [
        "Neither p0 nor p1 routes.",
        "p0 takes the trick, 6 cards: he won the skirmishes.",
        "Next trick: p1 against p0, p1 with priority.",
    ]


def test_a_push_is_explained() -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H")
    assert told_alike(state, "p1 form right QH", (None, 0))[-2:] == [
        "Skirmishes: p0's AS beats p1's QH; p1's 3H beats p0's 2S: one each, a push.",
        "A push: each player declares a rank for his middle card, and the higher declaration "
        "takes the trick (a blind skirmish).",
    ]


def test_a_route_choice_is_its_makers_until_the_window_closes() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H")
    assert told(state, 1, "p1 route") == ["p1 chooses to route p0's middle card."]
    assert told(state, 0, "p1 route") == ["p1 has chosen whether to route."]
    assert told(state, None, "p1 route") == ["p1 has chosen whether to route."]
    assert told(state, 0, "p0 pass") == ["p0 chooses not to route."]


def test_a_missed_route_tells_the_card_and_its_price() -> None:
    # §13 example 7: P2 routes P1's middle card, 2S; P1 draws JH from P2's hand.
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass")
    assert told_alike(state, "p1 route") == [
        "p1 routes p0's middle card; p0 does not route.",
        "p1's route turns up p0's middle card: 2S, not p0's King.",
        "For the miss, p0 draws a card blindly from p1's hand.",
    ]
    play(state, "p1 route")
    assert told_alike(state, "JH") == [
        "p0 draws JH from p1's hand and puts it on his trick pile.",
        "p0 takes the trick, 6 cards: he won the skirmishes.",
        "Next trick: p1 against p0, p1 with priority.",
    ]


def test_a_route_before_the_reveal_names_the_card_it_aims_at() -> None:
    state = new_game(route_window="before_reveal")
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass")
    assert told_alike(state, "p1 route left") == [
        "p1 routes p0's left card; p0 does not route.",
        "p1's route turns up p0's left card: 10S, not p0's King.",
        "For the miss, p0 draws a card blindly from p1's hand.",
    ]


def test_a_tie_with_no_repeat_left_is_a_void_trick() -> None:
    state = new_game(max_redeclare=0)
    play(state, "p0 7S KS 9S", "p1 9H 2H 7H", "p0 pass", "p1 pass", "p0 declare a")
    assert told_alike(state, "p1 declare a") == [
        "p0 declares an Ace, p1 an Ace.",
        "A tie: the trick is void, and each player puts his own cards on his trick pile (GSK-7).",
        "Next trick: p1 against p0, p1 with priority.",
    ]


def test_with_open_trick_piles_only_the_taker_is_told_what_he_takes() -> None:
    state = new_game(trick_pile_private_until_hand_end=False)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass")
    public = [
        "Neither p0 nor p1 routes.",
        "p0 takes the trick, 6 cards: he won the skirmishes.",
        "Next trick: p1 against p0, p1 with priority.",
    ]
    assert told(state, None, "p1 pass") == public
    assert told(state, 1, "p1 pass") == public
    assert told(state, 0, "p1 pass") == [*public[:2], "p0 looks at what he takes: 5H.", public[2]]


def empty_handed() -> courtly.State:
    """A push in which p0 has laid his last three cards: his hand is empty."""
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare j", "p1 declare 9", "p1 challenge", "9S")
    play(state, "p1 2H 4H 5H", "p0 7S 4S 5S", "p1 pass", "p0 pass")
    play(state, "p0 10S 3S 8S", "p1 6H 9H 7H", "p0 pass", "p1 pass")
    play(state, "p1 10H JH AH", "p0 JS KS QS")
    return state


def test_nothing_is_drawn_from_an_empty_hand() -> None:
    state = empty_handed()
    play(state, "p1 pass", "p0 pass", "p1 declare 2", "p0 declare a")
    assert told(state, None, "p1 challenge")[:3] == [
        "p1 challenges: is p0's middle card really an Ace?",
        "Not accurate: p0's middle card is not an Ace.",
        "p0's hand is empty: p1 draws nothing (GSK-10).",
    ]
    state = empty_handed()
    play(state, "p1 pass")
    assert told_alike(state, "p0 route") == [
        "p0 routes p1's middle card; p1 does not route.",
        "p0's route turns up p1's middle card: JH, not p1's King. p0's hand is empty, so the miss "
        "costs him nothing.",
    ]


# --------------------------------------------------------------------------------- players out


def test_a_route_that_finds_the_king_ends_the_game_and_says_why() -> None:
    # §13 example 6.
    state = new_game()
    play(state, "p0 10S KS 8S", "p1 7H 5H 3H", "p0 pass")
    assert told_alike(state, "p1 route")[1:] == [
        "p1's route turns up p0's middle card: KS, p0's King!",
        "p0 is out: his King KS was found by p1's route.",
        "p1 is the last player still in, and wins.",
        "Face down until now: p1's middle card 5H.",
    ]
    play(state, "p1 route")
    result = outcome(state)
    assert result.reason == (
        "p1 is the last player still in, after p0 went out: his King KS was found by p1's route"
    )
    assert result.standings == (
        Standing(1, 1, "last one in", "kept his King hidden to the end"),
        Standing(0, 2, "out in hand 1", "his King KS was found by p1's route"),
    )


def test_a_king_drawn_by_an_accurate_challenge() -> None:
    # §13 example 4: "accurate", and P1 draws KH from P2's hand.
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare 6", "p1 declare 5")
    assert told_alike(state, "p1 challenge") == [
        "p1 challenges: is p0's middle card really a 6?",
        "Accurate: p0's middle card is a 6.",
        "p0 draws a card blindly from p1's hand.",
    ]
    play(state, "p1 challenge")
    assert told_alike(state, "KH") == [
        "p0 draws KH from p1's hand: p1's King!",
        "p1 is out: his King KH was drawn from his hand by p0.",
        "p0 is the last player still in, and wins.",
        "Face down until now: p0's middle card 6S, p1's middle card 8H.",
    ]


def test_a_king_laid_outside_is_out_at_the_reveal() -> None:
    # §13 example 10.
    state = new_game()
    play(state, "p0 KS 4S 9S", "p1 7H 5H")
    assert told_alike(state, "p1 form right 3H", (None, 0))[1:3] == [
        "Reveal: p0 shows KS left and 9S right; p1 shows 7H left and 3H right.",
        "p0 is out: his own King KS was turned up at the reveal (GSK-5).",
    ]


def test_too_few_cards_for_a_new_hand_is_said_and_decides_the_game() -> None:
    # §13 example 9: p1 takes every trick, p0 is left with his King alone for the new hand.
    state = new_game()
    play(state, "p0 2S 10S 3S", "p1 5H 2H 4H", "p0 pass", "p1 pass")
    play(state, "p1 7H 3H 6H", "p0 4S JS 5S", "p1 pass", "p0 pass")
    play(state, "p0 6S QS 7S", "p1 9H QH 8H", "p0 pass", "p1 pass")
    play(state, "p1 JH AH 10H", "p0 8S AS 9S", "p1 pass")
    public = [
        "Neither p1 nor p0 routes.",
        "p1 takes the trick, 6 cards: he won the skirmishes.",
        "Hand 1 ends: p0 and p1 hold only 1 card each, fewer than 3 (GSK-17).",
        "Each player still in looks at his own trick pile.",
        "Each player still in adds his trick pile to his hand.",
        "p0 is out: only 1 card for his new hand, fewer than 3 (GSK-18).",
        "p1 is the last player still in, and wins.",
    ]
    assert told(state, None, "p0 pass") == public
    assert told(state, 0, "p0 pass") == public  # p0's pile is empty: nothing to look at
    assert told(state, 1, "p0 pass")[4].startswith("p1's trick pile: 2S 3S 4S")
    play(state, "p0 pass")
    result = outcome(state)
    assert result.reason == (
        "p1 is the last player still in, after p0 went out: only 1 card for his new hand, fewer "
        "than 3 (GSK-18)"
    )
    assert result.standings[1] == Standing(
        0, 2, "out in hand 1", "only 1 card for his new hand, fewer than 3 (GSK-18)"
    )
    assert "  p0        spades   out in hand 1: only 1 card for his new hand" in state.render(None)


def test_both_kings_found_at_the_end_of_a_hand_is_a_shared_draw() -> None:
    state = new_game()
    play(state, "p0 2S KS 3S", "p1 AH 2H QH", "p0 pass", "p1 pass")
    play(state, "p1 3H KH 4H", "p0 AS 4S QS", "p1 pass", "p0 pass")
    play(state, "p0 JS 5S 10S", "p1 6H 7H 8H", "p0 pass", "p1 pass")
    play(state, "p1 9H 10H JH", "p0 6S 7S 8S", "p1 pass")
    assert told(state, None, "p0 pass")[-3:] == [
        "p1 is out: his King KH was found in p0's trick pile at the end of hand 1.",
        "p0 is out: his King KS was found in p1's trick pile at the end of hand 1.",
        "Nobody is left: p0 and p1 went out together and share a draw (GSK-23).",
    ]
    play(state, "p0 pass")
    result = outcome(state)
    assert result.reason == (
        "p0 and p1 went out at the same moment and nobody is left: they share a draw (GSK-23)"
    )
    assert [(s.seat, s.place, s.score) for s in result.standings] == [
        (0, 1, "out in hand 1"),
        (1, 1, "out in hand 1"),
    ]
    assert result.standings[0].note.endswith("; nobody was left, so a shared draw (GSK-23)")


def test_a_player_out_takes_the_kings_in_his_pile_with_him() -> None:
    # GSK-24: p1 won p2's KD unseen; when p1's own King is shown, KD is found and p2 is out too.
    state = new_game(3)
    play(state, "p0 2S 3S 4S", "p1 5H 6H 7H", "p0 pass", "p1 pass")
    play(state, "p1 AH 8H QH", "p2 2D KD 3D", "p1 pass", "p2 pass")
    play(state, "p2 4D 5D 6D", "p0 8S 5S 9S", "p2 pass", "p0 pass")
    play(state, "p0 10S 6S JS", "p1 KH 2H")
    assert told_alike(state, "p1 form right 3H", (None, 0))[1:] == [
        "Reveal: p0 shows 10S left and JS right; p1 shows KH left and 3H right.",
        "p1 is out: his own King KH was turned up at the reveal (GSK-5).",
        "p2 is out: his King KD was found in p1's trick pile when p1 went out (GSK-24).",
        "p0 is the last player still in, and wins.",
        "Face down until now: p0's middle card 6S, p1's middle card 2H.",
    ]
    play(state, "p1 form right 3H")
    result = outcome(state)
    assert result.reason == "p0 is the last player still in, after p1 and p2 went out together"
    # Out by the same event: the same place.
    assert [(s.seat, s.place) for s in result.standings] == [(0, 1), (1, 2), (2, 2)]


def test_a_route_left_waiting_when_the_trick_ends_is_kept() -> None:
    # GSK-14: p0's route misses and costs him his King; p1's route is never played.
    state = new_game(3)
    play(state, "p0 2S 3S 4S", "p1 5H 6H 7H", "p0 route", "p1 route")
    assert told_alike(state, "KS") == [
        "p1 draws KS from p0's hand: p0's King!",
        "p0 is out: his King KS was drawn from his hand by p1.",
        "p1 takes the trick, 6 cards: p0 is out (GSK-11).",
        "p1's route is not played, as the trick is over: he may still use it this hand (GSK-14).",
        "Two players are left: p1 and p2 play on as in a two-player game, p1 with priority first.",
        "Next trick: p1 against p2, p1 with priority.",
    ]


def test_four_become_three_with_the_letters_explained() -> None:
    # §13 example 12: in round B-C and D-A, A routes D's King; C won the trick B-C.
    state = new_game(4)
    assert told(state, None, "p0 2S")[0] == (
        "First round: p0 against p1, then p2 against p3; all four lay their formations at once."
    )
    play(state, "p0 2S 3S 4S", "p1 5H 6H 7H", "p2 2D 3D 4D", "p3 5C 6C 7C")
    play(state, "p0 pass", "p1 pass", "p2 pass", "p3 pass")
    play(state, "p1 2H 8H 3H", "p2 AD 5D QD", "p3 8C KC 9C", "p0 10S 5S JS")
    play(state, "p1 pass", "p2 pass", "p3 pass")
    assert told_alike(state, "p0 route") == [
        "p0 routes p3's middle card; p3 does not route.",
        "p0's route turns up p3's middle card: KC, p3's King!",
        "p3 is out: his King KC was found by p0's route.",
        "p0 takes the trick, 5 cards: p3 is out (GSK-11).",
        "Three players are left, with new letters: A = p2, who won the other trick; B = p1, who "
        "lost it; C = p0, who put p3 out.",
        "Next trick: p2 against p1, p2 with priority; p0 sits out.",
    ]


# --------------------------------------------------------------------------------- the end


def test_the_safety_cap_ends_the_game_in_words() -> None:
    state = new_game(safety_cap=1)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass")
    assert told_alike(state, "p1 pass")[-1] == (
        "The safety cap of 1 trick is reached: p0 holds the most cards (16) and wins (GSK-29)."
    )
    play(state, "p1 pass")
    result = outcome(state)
    assert result.reason == (
        "the safety cap of 1 trick ended the game: p0 holds the most cards (16) (GSK-29)"
    )
    assert result.standings == (
        Standing(0, 1, "16 cards", "the most cards at the safety cap"),
        Standing(1, 2, "10 cards", "fewer cards than p0 at the safety cap"),
    )
    assert state.render(None).splitlines()[-1] == f"Game over: {result.reason}."


def test_a_tie_at_the_safety_cap_is_shared() -> None:
    state = new_game(safety_cap=1, max_redeclare=0)
    play(state, "p0 7S KS 9S", "p1 9H 2H 7H", "p0 pass", "p1 pass", "p0 declare a")
    assert told_alike(state, "p1 declare a")[-1] == (
        "The safety cap of 1 trick is reached: p0 and p1 hold the most cards (13 each) and share "
        "the win (GSK-29)."
    )
    play(state, "p1 declare a")
    result = outcome(state)
    assert "p0 and p1 hold the most cards (13 each) and share the win" in result.reason
    assert [(s.seat, s.place, s.score) for s in result.standings] == [
        (0, 1, "13 cards"),
        (1, 1, "13 cards"),
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_has_a_place_and_every_player_out_a_reason(players: int) -> None:
    for seed in range(4):
        final = careful_game(players, seed)
        result = outcome(final)
        assert sorted(s.seat for s in result.standings) == list(range(players))
        assert result.winners == final.winners
        assert [s.place for s in result.standings] == sorted(s.place for s in result.standings)
        for standing in result.standings:
            if not final.active[standing.seat]:
                assert standing.score.startswith("out in hand "), standing
                assert standing.note, standing
        assert result.reason and "None" not in result.reason


def test_a_trick_over_is_counted_before_its_round_ends() -> None:
    state = new_game(4)
    play(state, "p0 2S 3S 4S", "p1 5H 6H 7H", "p2 2D 3D 4D", "p3 5C 6C 7C")
    play(state, "p0 pass", "p1 pass")
    # The first trick of the round is over, the second is not.
    assert "· 1 trick played" in state.render(None)


# --------------------------------------------------------------------------------- words


ENGINE_WORDS = re.compile(
    r"->|None|\bslot \d|\bside\b|routes_per_hand|max_redeclare|safety_cap|exposed_king|"
    r"trick_pile_private|route_window|pending|\bT\d|\bD_|\(s\)"
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_line_of_a_whole_game_speaks_the_engines_language(players: int) -> None:
    for seed in range(3):
        final = careful_game(players, seed, routes_per_hand=2)
        story = story_of(final.game, final.history)
        lines = [text for _, _, text in story.lines]
        assert lines and lines[0].startswith("First ")
        for text in lines:
            assert not ENGINE_WORDS.search(text), text
            assert text[0].isupper() or text[0] == "p", text
            assert text.endswith((".", "!", "?")), text
        result = outcome(final)
        for text in (result.reason, *(s.note for s in result.standings)):
            assert not ENGINE_WORDS.search(text), text


def test_the_moves_are_labelled_in_words() -> None:
    state = new_game()
    text = state.game.text

    def label(seat: int, action: str) -> str:
        return text.action_label(state, seat, state.parse_action(seat, action))

    assert label(0, "form left 10S") == "Lay 10S on the left"
    assert label(0, "form left KS") == "Lay KS on the left (your King: shown at the reveal)"
    play(state, "p0 10S", "p1 7H")
    assert label(0, "form middle KS") == "Lay KS in the middle"
    assert label(1, "form middle 5H") == "Lay 5H in the middle"
    play(state, "p0 2S 8S", "p1 5H 3H")
    assert [label(0, str(a)) for a in state.legal_actions(0)] == ["Route", "Pass"]
    play(state, "p0 pass", "p1 pass")
    state = new_game()
    text = state.game.text
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    labels = [label(0, str(a)) for a in state.legal_actions(0)]
    assert labels[0] == "Declare a 2" and labels[6] == "Declare an 8"
    assert labels[-5:] == [
        "Declare a 10",
        "Declare a Jack",
        "Declare a Queen",
        "Declare a King",
        "Declare an Ace",
    ]
    play(state, "p0 declare j", "p1 declare 9")
    assert [label(1, str(a)) for a in state.legal_actions(1)] == ["Challenge", "Pass"]


def test_routes_before_the_reveal_are_labelled_by_the_card_they_aim_at() -> None:
    state = new_game(route_window="before_reveal")
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H")
    labels = [state.game.text.action_label(state, 1, a) for a in state.legal_actions(1)]
    assert labels == ["Route the left", "Route the middle", "Route the right", "Pass"]


def test_every_option_has_a_name_and_a_line_for_a_person() -> None:
    game = courtly.make("god-save-the-king")
    options = [*game.info.options, *(o for bot in game.info.bots for o in bot.options)]
    for option in options:
        assert option.label and option.about, option.name
        assert option.name not in option.about and "GSK" not in option.about, option.name
        assert option.about.endswith("."), option.name
        if option.choices:
            assert len(option.choice_labels) == len(option.choices), option.name
