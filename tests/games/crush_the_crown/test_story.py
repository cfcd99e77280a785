"""The story of a game of Crush the Crown (docs/rules/crush-the-crown.md): every event told to
each seat in a player's words, with what it sets off, and each line only to who may know it (§8);
the outcome of a finished game, and the moves as buttons say them."""

from __future__ import annotations

import random
import re

import courtly
from courtly.core.cards import CARDS
from courtly.core.events import CHANCE, PUBLIC
from courtly.core.game import Standing
from courtly.core.match import play_randomly
from courtly.games.crush_the_crown.rules import CrushTheCrownState

from .helpers import deal, new_game, play, position

OBSERVERS: tuple[int | None, ...] = (0, 1, None)


def told(state: CrushTheCrownState, step: str) -> dict[int | None, str | None]:
    """What each observer (p0, p1, a spectator) is told of ``step`` (``"p0 pass"`` or a forced
    card), before it happens."""
    who, _, action = step.partition(" ")
    if action:
        mover = int(who.removeprefix("p"))
        item = state.parse_action(mover, action)
        return {seat: state.narrate(mover, item, seat) for seat in OBSERVERS}
    outcome = state.game.text.parse_chance(state, step)
    return {seat: state.narrate(CHANCE, outcome, seat) for seat in OBSERVERS}


def told_all(state: CrushTheCrownState, step: str) -> str | None:
    """The story of ``step``, checked to be the same for every observer."""
    each = told(state, step)
    assert each[0] == each[1] == each[None], each
    return each[0]


def labels(state: CrushTheCrownState, seat: int) -> list[str]:
    return [state.game.text.action_label(state, seat, a) for a in state.legal_actions(seat)]


# ------------------------------------------------------------------------------- the deal


def test_the_dealer_is_told_to_everyone() -> None:
    state = courtly.make("crush-the-crown").new_state()
    assert isinstance(state, CrushTheCrownState)
    assert told_all(state, "p1") == (
        "p1 deals 5 cards each (the dealer is drawn at random, CTC-3).\n"
        "p0 marries first and plays first (CTC-7)."
    )


def test_the_deal_names_each_card_to_its_receiver_and_counts_it_to_the_others() -> None:
    state = new_game(dealer="p1")
    assert told(state, "2C") == {
        0: "p0 is dealt 2C (1 of 5).",
        1: "p0 is dealt a card (1 of 5).",
        None: "p0 is dealt a card (1 of 5).",
    }
    play(state, "2C", "QS", "3C", "QH", "4C", "6C", "5C", "7C", "QD")
    last = told(state, "8C")
    rest = (
        "The deal is done; 40 cards are left in the draw pile.\n"
        "p0 looks for a Queen to marry first."
    )
    assert last[0] == f"p1 is dealt a card (5 of 5).\np0's hand: QD 2C 3C 4C 5C.\n{rest}"
    assert last[1] == f"p1 is dealt 8C (5 of 5).\np1's hand: QS QH 6C 7C 8C.\n{rest}"
    assert last[None] == f"p1 is dealt a card (5 of 5).\n{rest}"


def test_a_draw_is_one_line_for_the_drawer_and_one_for_everyone_else() -> None:
    """The story is told once for all the observers: each line carries who may read it."""
    state = new_game(dealer="p1")
    card = state.game.text.parse_chance(state, "7H")
    assert state.game.text.tell(state, CHANCE, card) == [
        (1 << 0, "p0 is dealt 7H (1 of 5)."),
        (~(1 << 0), "p0 is dealt a card (1 of 5)."),
    ]
    turn = position(p0_hand="2S")
    passing = turn.parse_action(0, "pass")
    assert turn.game.text.tell(turn, 0, passing) == [(PUBLIC, "p0 builds nothing.")]


# ------------------------------------------------------------------------------- marriage


def test_the_search_for_a_queen_tells_the_drawer_what_he_found() -> None:
    state = new_game(dealer="p1", use_jokers=True)
    deal(state, "2C 3C 4C 5C 6C", "QS QH 7C 8C 9C")
    assert told_all(state, "p0 discard 2C") == (
        "p0 holds no Queen: he discards 2C and draws again (CTC-5)."
    )
    play(state, "p0 discard 2C")
    assert told(state, "7D") == {
        0: "p0 draws 7D: still no Queen.",
        1: "p0 draws a card.",
        None: "p0 draws a card.",
    }
    assert told(state, "Jk")[0] == "p0 draws Jk: a joker is no Queen (CTC-5)."
    assert told(state, "QD")[0] == "p0 draws QD: a Queen, whom he must marry (CTC-4)."
    assert told(state, "QD")[1] == "p0 draws a card."
    play(state, "QD")
    assert told_all(state, "p0 marry QD") == "p0 marries QD to KD: diamonds are his suit."


def test_both_marriages_execute_the_kings_left_and_start_the_first_turn() -> None:
    state = new_game(dealer="p1")
    deal(state, "QD 2C 3C 4C 5C", "QS QH 6C 7C 8C")
    play(state, "p0 marry QD")
    assert told(state, "2D")[0] == "p0 draws 2D.\np1 looks for a Queen to marry."
    play(state, "2D")
    assert told_all(state, "p1 marry QH") == "p1 marries QH to KH: hearts are his suit."
    play(state, "p1 marry QH")
    assert told(state, "3D") == {
        seat: f"p1 draws {'3D' if seat == 1 else 'a card'}.\n"
        "Both are married. The Kings nobody married, KS and KC, are executed: spades and clubs "
        "are the mercenary suits.\n"
        "Turn 1: p0 plays (CTC-7)."
        for seat in OBSERVERS
    }


def test_the_deadlock_guard_names_the_queens_everyone_can_work_out() -> None:
    state = new_game(dealer="p1")
    play(state, "2C", "QS", "3C", "QH", "4C", "QD", "5C", "QC", "6C")
    guard = (
        "p0 holds no Queen, and none is left in the draw or discard pile: every free Queen is in "
        "p1's hand (QS QH QD QC).\n"
        "p1 must give p0 a Queen to marry (CTC-6)."
    )
    story = told(state, "7C")
    done = "The deal is done; 40 cards are left in the draw pile."
    assert story[None] == f"p1 is dealt a card (5 of 5).\n{done}\n{guard}"
    assert story[0] is not None and story[0].endswith(guard)
    play(state, "7C")
    assert labels(state, 1) == [
        "Give the QS to p0 to marry",
        "Give the QH to p0 to marry",
        "Give the QD to p0 to marry",
        "Give the QC to p0 to marry",
    ]
    assert told_all(state, "p1 give QH") == (
        "p1 gives QH to p0 (the deadlock guard, CTC-6).\n"
        "p0 marries QH to KH: hearts are his suit.\n"
        "p1 looks for a Queen to marry."  # p0 holds 5 cards: no refill to wait for
    )


# ------------------------------------------------------------------------------- a turn


def test_an_extension_tells_what_the_government_needs_next() -> None:
    state = position(p0_stack="KD QD JD", p0_hand="10D 9D 4S 2H Jk")  # §12 example 1
    assert told_all(state, "p0 extend 10D") == (
        "p0 extends his government with 10D; his government needs a 9 next."
    )
    on_spy = position(p0_stack="KD QD JD 10D 9D 8C*", p0_hand="7D")
    assert told_all(on_spy, "p0 extend 7D") == (
        "p0 extends his government with 7D (on the spy 8C); his government needs a 6 next; "
        "1 spy left in it."
    )


def test_a_discovery_executes_the_spy() -> None:
    state = position(  # §12 example 5
        p1_stack="KH QH JH 10H 9H 8C* 7H 6H 5H", p1_hand="8H 4H 2C", p0_hand="2S", turn=1
    )
    assert told_all(state, "p1 discover 8H") == (
        "p1 discovers the spy 8C with 8H: 8C is executed; his government needs a 4 next."
    )
    wild = position(p1_stack="KH QH JH 10H 9H QC* 7H", p1_hand="8H", p0_hand="2S", turn=1)
    assert told_all(wild, "p1 discover 8H") == (
        "p1 discovers the wild spy QC (his 8) with 8H: QC is executed; his government needs a 6 "
        "next."
    )


def test_a_spy_and_the_tribute_it_costs() -> None:
    state = position(  # §12 example 3
        p1_stack="KH QH JH 10H 9H 8C* 7H 6S*", p0_hand="5C 10S", p1_hand="3D 2H AS 9C"
    )
    play(state, "p0 pass")
    assert told_all(state, "p0 spy 5C") == (
        "p0 places 5C as a spy in p1's government, as its 5.\n"
        "p1 owes p0 3 cards of tribute, one per spy of p0's in his government (CTC-13)."
    )
    play(state, "p0 spy 5C")
    assert told_all(state, "p1 give 3D") == "p1 gives 3D to p0 as tribute (1 of 3)."
    play(state, "p1 give 3D")
    # A card of another suit shows that he holds no diamond (CTC-14): said once.
    assert told_all(state, "p1 give AS") == (
        "p1 gives AS to p0 as tribute (2 of 3).\n"
        "p1 holds no diamonds, or he would give one (CTC-14)."
    )
    play(state, "p1 give AS")
    assert told_all(state, "p1 give 9C") == "p1 gives 9C to p0 as tribute (3 of 3)."


def test_wild_spies_take_the_rank_of_their_slot() -> None:
    state = position(p1_stack="KH QH JH 10H 9H", p0_hand="8C 8S QC Jk 8H 8D 7C", p1_hand="2D")
    play(state, "p0 pass")
    assert (told_all(state, "p0 spy Jk") or "").startswith(
        "p0 places Jk as a wild spy in p1's government, as its 8.\n"
    )
    assert (told_all(state, "p0 spy QC") or "").startswith(
        "p0 places QC as a wild spy in p1's government, as its 8.\n"
    )


def test_a_short_hand_stops_the_tribute() -> None:
    state = position(  # §12 example 4, a short hand
        p1_stack="KH QH JH 10H 9H 8C* 7H 6S* 5C*", p0_hand="10S 2S", p1_hand="9C 10C"
    )
    play(state, "p0 pass", "p0 pass", "p1 give 9C")
    assert told_all(state, "p1 give 10C") == (
        "p1 gives 10C to p0 as tribute (2 of 3).\n"
        "p1's hand is empty: the tribute stops there (CTC-15)."
    )
    empty = position(p1_stack="KH QH JH 10H 9H 8C*", p0_hand="10S 2S")
    play(empty, "p0 pass")
    assert told_all(empty, "p0 pass") == (
        "p0 places no spy.\np1 owes p0 tribute but has no card to give (CTC-15)."
    )


def test_fire_and_hire_say_why_nothing_is_drawn() -> None:
    state = position(p0_hand="2S 3S 4S 5S 6S 7S 9S", p1_hand="2C 3C 4C 5C 6C")  # §12 example 9
    play(state, "p0 pass", "p0 pass")
    assert told_all(state, "p0 fire 2S") == (
        "p0 fires 2S.\np0 holds 6 cards: he draws none (CTC-16).\nTurn 2: p1 plays."
    )
    # Both piles empty: the fired card comes straight back (CTC-17), then nothing (CTC-18).
    dry = position(p0_hand="2S", draw="", rest_to=1)
    play(dry, "p0 pass", "p0 pass")
    assert told_all(dry, "p0 pass") == (
        "p0 fires no card.\n"
        "Both piles are empty: p0 draws no more and holds 1 card (CTC-18).\n"
        "Turn 2: p1 plays."
    )
    assert told_all(dry, "p0 fire 2S") == (
        "p0 fires 2S.\n"
        "The draw pile is empty: the discard pile (1 card) is shuffled into a new draw pile "
        "(CTC-18)."
    )
    play(dry, "p0 fire 2S")
    assert told(dry, "2S") == {
        seat: f"p0 draws {'2S' if seat == 0 else 'a card'}.\n"
        "Both piles are empty: p0 draws no more and holds 1 card (CTC-18).\n"
        "Turn 2: p1 plays."
        for seat in OBSERVERS
    }


def test_a_turn_with_nothing_to_do_is_told_too() -> None:
    state = position(draw="", rest_to=0)  # p1 holds nothing, and both piles are empty
    play(state, "p0 pass", "p0 pass")
    assert told_all(state, "p0 pass") == (
        "p0 fires no card.\n"
        "p0 holds 48 cards: he draws none (CTC-16).\n"
        "Turn 2: p1 holds no card, and both piles are empty: his turn passes (CTC-18).\n"
        "Turn 3: p0 plays."
    )
    play(state, "p0 pass")
    assert state.turns_played == 2 and state.to_move == (0,)


def test_a_spy_in_the_ace_slot_and_a_government_that_takes_no_more_spies() -> None:
    state = position(  # §12 example 7
        p1_stack="KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H", p0_hand="AC 2S", p1_hand="AH 3C 4C"
    )
    play(state, "p0 pass")
    assert told_all(state, "p0 spy AC") == (
        "p0 places AC as a spy in p1's government, as its Ace.\n"
        "p1's government is complete but not clean: he cannot win until he exposes AC (CTC-12).\n"
        "p1 owes p0 1 card of tribute, for p0's spy in his government (CTC-13)."
    )
    play(state, "p0 spy AC", "p1 give 3C", "p0 pass", "5C", "6C", "7C", "p1 pass")
    play(state, "p1 pass", "p1 pass", "8C", "9C", "10C")
    assert told_all(state, "p0 pass") == (
        "p0 builds nothing.\n"
        "p1's government is complete: no spy can go in.\n"
        "p1 owes p0 1 card of tribute, for p0's spy in his government (CTC-13)."
    )


# ------------------------------------------------------------------------------- the end


FULL = "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D"


def test_a_win_is_told_with_every_hand_shown() -> None:
    state = position(p0_stack=FULL, p0_hand="AD 7S", p1_hand="2C 3C")  # §12 example 6
    story = (told_all(state, "p0 extend AD") or "").split("\n")
    assert story == [
        "p0 extends his government with AD.",
        "p0's government is complete, King to Ace, and free of spies: p0 wins (CTC-19).",
        "The hands are shown: p0 7S; p1 2C 3C.",
        f"The draw pile held: {' '.join(str(CARDS[c]) for c in sorted(state.draw_pile))}.",
    ]
    assert story[-1].startswith("The draw pile held: 2S 3S 4S 5S 6S 8S 9S 10S JS QS AS 2H")
    spied = position(p0_stack=FULL.replace("5D", "5S*"), p0_hand="AD 7S", p1_hand="2C 3C")
    assert told_all(spied, "p0 extend AD") == (
        "p0 extends his government with AD.\n"
        "p0's government is complete, but the spy 5S still stands in it: no win until every spy "
        "is exposed (CTC-19)."
    )


def test_the_outcome_of_a_won_game() -> None:
    state = position(p0_stack=FULL, p0_hand="AD 7S", p1_stack="KH QH JH 10H 9C*", p1_hand="2C")
    play(state, "p0 extend AD")
    outcome = state.game.text.outcome(state)
    assert outcome.reason == (
        "p0 completed his government, King to Ace, free of spies, on turn 1 (CTC-19)"
    )
    assert outcome.winners == (0,)
    assert outcome.standings == (
        Standing(0, 1, "13 of 13 cards in place", "completed his diamonds government first"),
        Standing(1, 2, "4 of 13 cards in place", "hearts government: needs an 8 next, 1 spy in it"),
    )


def test_the_safety_cap_is_told_and_its_outcome_is_a_draw() -> None:
    state = position(p0_hand="2S 3S 4S 5S 6S", p1_hand="2C", safety_cap=1)
    play(state, "p0 pass", "p0 pass")
    assert told_all(state, "p0 pass") == (
        "p0 fires no card.\n"
        "p0 holds 5 cards: he draws none.\n"
        "The safety cap of 1 turn is reached: the game is a draw (CTC-26).\n"
        "The hands are shown: p0 2S 3S 4S 5S 6S; p1 2C.\n"
        f"The draw pile held: {' '.join(str(CARDS[c]) for c in sorted(state.draw_pile))}."
    )
    play(state, "p0 pass")
    assert state.is_terminal and state.truncated
    outcome = state.game.text.outcome(state)
    assert outcome.reason == (
        "the safety cap of 1 turn: no government was completed free of spies in time, so the "
        "game is a draw (CTC-26)"
    )
    assert outcome.winners == (0, 1)
    assert [(s.seat, s.place, s.score, s.note) for s in outcome.standings] == [
        (0, 1, "2 of 13 cards in place", "diamonds government: needs a Jack next"),
        (1, 1, "2 of 13 cards in place", "hearts government: needs a Jack next"),
    ]


def test_a_random_game_ends_with_one_winner_or_a_draw_in_words() -> None:
    for seed in range(4):
        state = courtly.make("crush-the-crown", safety_cap=60).new_state()
        play_randomly(state, random.Random(seed))
        outcome = state.game.text.outcome(state)
        assert "CTC-" in outcome.reason and len(outcome.standings) == 2
        assert outcome.winners == state.winners
        assert all(s.score.endswith("of 13 cards in place") and s.note for s in outcome.standings)


# ------------------------------------------------------------------------------- the buttons


def test_every_move_has_a_label_in_words() -> None:
    marrying = new_game(dealer="p1")
    deal(marrying, "QD 2C 3C 4C 5C", "6C 7C 8C 9C 10C")
    assert labels(marrying, 0) == ["Marry the QD (diamonds)"]
    searching = new_game(dealer="p1")
    deal(searching, "2C 3C 4C 5C 6C", "QD 7C 8C 9C 10C")
    assert labels(searching, 0)[:2] == ["Discard 2C and draw again", "Discard 3C and draw again"]
    state = position(
        p0_stack="KD QD JD 10D 9C*", p0_hand="9D 8D 8C QC 5S Jk", p1_stack="KH QH JH 10H 9H"
    )
    assert labels(state, 0) == [
        "Pass: build nothing",
        "Extend your government with 8D",
        "Discover the spy 9C with 9D",
    ]
    play(state, "p0 pass")
    assert labels(state, 0) == [
        "Pass: place no spy",
        "Place 8C as a spy",
        "Place QC as a wild spy (as p1's 8)",
        "Place Jk as a wild spy (as p1's 8)",
    ]
    play(state, "p0 pass")
    assert state.to_move == (0,)  # no spy of p0's stands: no tribute
    assert labels(state, 0)[:2] == ["Pass: fire no card", "Fire 5S"]
    tribute = position(p1_stack="KH QH JH 10H 9H 8C*", p0_hand="2S 3S", p1_hand="4D 5D 6C")
    play(tribute, "p0 pass", "p0 pass")
    assert labels(tribute, 1) == ["Give 4D as tribute", "Give 5D as tribute"]


def test_labels_name_no_card_the_seat_may_not_know() -> None:
    card = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Za-z])")
    for seed in range(3):
        rng = random.Random(seed)
        state = courtly.make("crush-the-crown").new_state()
        while not state.is_terminal:
            if state.is_chance:
                state.apply_chance(state.sample_chance_outcome(rng))
                continue
            seat = state.to_move[0]
            secret = {str(c) for c in state.game.views.secret_cards(state, seat)}
            for action in state.legal_actions(seat):
                label = state.game.text.action_label(state, seat, action)
                assert label[0].isupper() and label != str(action)
                assert not set(card.findall(label)) & secret, label
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_every_option_has_a_name_and_a_line_without_rule_ids() -> None:
    game = courtly.make("crush-the-crown")
    options = [*game.info.options, *(o for bot in game.info.bots for o in bot.options)]
    assert {o.name for o in game.info.options} == {
        "use_jokers",
        "hand_size",
        "one_gov_card_per_build",
        "safety_cap",
    }
    for option in options:
        assert option.label and option.label[0].isupper(), option.name
        assert option.about and option.about.endswith("."), option.name
        assert "CTC-" not in option.about and "_" not in option.about, option.name
