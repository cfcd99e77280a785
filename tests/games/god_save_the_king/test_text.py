"""What people type and read: shortcuts, the King's caution, the hint, wording, the final table,
and the narration of what a seat may know."""

from __future__ import annotations

import random
import re

import pytest

import courtly
from courtly.core.cards import Card
from courtly.core.events import CHANCE
from courtly.core.game import sample_chance
from courtly.games.god_save_the_king.components import D_DECLARE, D_FORM, KING_OF, MIDDLE
from courtly.games.god_save_the_king.text import counted

from .helpers import careful_game, new_game, play


def told(state: courtly.State, seat: int | None, step: str) -> list[str]:
    """The narration of ``step`` (``"p1 pass"``) to ``seat``, line by line."""
    actor, text = step.split(" ", 1)
    mover = int(actor.removeprefix("p"))
    line = state.narrate(mover, state.parse_action(mover, text), seat)
    return line.splitlines() if line else []


# --------------------------------------------------------------------------------- typing


@pytest.mark.parametrize(
    ("typed", "declared"),
    [("10", "declare 10"), ("k", "declare k"), ("K", "declare k"), ("q", "declare q"),
     ("Queen", "declare q"), (" a ", "declare a"), ("2", "declare 2")],
)  # fmt: skip
def test_a_bare_rank_typed_while_declaring_declares_it(typed: str, declared: str) -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    assert state.decision == D_DECLARE
    assert str(state.parse_action(0, typed)) == declared
    with pytest.raises(courtly.IllegalAction, match="'1' is not a rank"):
        state.parse_action(0, "1")


def test_a_bare_rank_means_nothing_outside_a_declaration() -> None:
    state = new_game()
    with pytest.raises(courtly.IllegalAction, match="not an action"):
        state.parse_action(0, "10")


def test_a_bare_card_typed_while_forming_fills_the_next_slot() -> None:
    state = new_game()
    assert str(state.parse_action(0, "10s")) == "form left 10S"
    play(state, "p0 10S")
    assert str(state.parse_action(0, "2S")) == "form middle 2S"
    with pytest.raises(courtly.IllegalAction, match="5H is not in p0's hand"):
        state.parse_action(0, "5H")


def test_laying_ones_own_king_outside_is_cautioned() -> None:
    state = new_game()
    view = state.view(0)
    warning = view.caution(state.parse_action(0, "form left KS"))
    assert warning is not None and "KS is your King" in warning and "GSK-5" in warning
    assert view.caution(state.parse_action(0, "form left 2S")) is None
    assert state.view(1).caution(state.parse_action(1, "form left KH")) is not None
    play(state, "p0 2S")
    assert state.game.text.caution(state, 0, state.parse_action(0, "form middle KS")) is None
    play(state, "p0 3S")
    assert state.game.text.caution(state, 0, state.parse_action(0, "form right KS")) is not None


def test_the_formation_hint_never_lays_the_king_outside() -> None:
    hinted = 0

    def visit(state: courtly.State, rng: random.Random) -> None:
        nonlocal hinted
        if state.is_chance:
            return
        for seat in state.to_move:
            text = state.render(seat)
            found = re.search(r"e\.g\. ([0-9JQKA SHDC]+) \(([a-z, ]+)\)", text)
            if state.decision != D_FORM or found is None:
                continue
            hinted += 1
            cards = [Card.parse(c) for c in found.group(1).split()]
            slots = found.group(2).split(", ")
            for card, slot in zip(cards, slots, strict=True):
                assert card != KING_OF[seat] or slot == "middle", text
            # The hint is a formation the seat may type as it stands.
            for step in state.game.text.input_steps(state, seat, found.group(1)):
                assert step.startswith("form ")

    for seed in range(3):
        careful_game(2, seed, visit)
    assert hinted > 20


def test_a_small_hand_is_hinted_with_the_king_in_the_middle() -> None:
    state = new_game(exposed_king_legal=False)
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare j", "p1 declare 9", "p1 challenge", "3S")
    play(state, "p1 2H 4H 5H", "p0 7S 4S 5S", "p1 pass", "p0 pass")
    play(state, "p0 10S 8S 9S", "p1 6H 7H 9H", "p0 pass", "p1 pass")
    assert [str(c) for c in state.hands[0]] == ["JS", "QS", "KS"]
    assert "e.g. JS KS QS (left, middle, right)" in state.render(0)


# --------------------------------------------------------------------------------- wording


def test_counts_are_worded_with_their_plural() -> None:
    assert [counted(n, "trick") for n in (0, 1, 2)] == ["0 tricks", "1 trick", "2 tricks"]
    state = new_game()
    assert "· 0 tricks played" in state.render(None)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 pass")
    assert "· 1 trick played" in state.render(None)


def test_no_text_of_a_whole_game_hedges_a_plural() -> None:
    texts: list[str] = []

    def visit(state: courtly.State, rng: random.Random) -> None:
        for seat in (None, *range(state.num_players)):
            texts.append(state.render(seat))
        if not state.is_chance:
            seat = state.to_move[0]
            for action in state.legal_actions(seat)[:2]:
                texts.append(state.narrate(seat, action, seat) or "")

    for players in (2, 3, 4):
        final = careful_game(players, players, visit)
        texts.append(final.render(None))
    joined = "\n".join(texts)
    assert "(s)" not in joined and " 1 tricks" not in joined and " 1 cards" not in joined
    assert "at at" not in joined


# --------------------------------------------------------------------------------- the end


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_final_table_is_the_one_summary_with_every_card_shown(players: int) -> None:
    final = careful_game(players, 5)
    summary = final.render(None)
    assert summary.count("Game over") == 1 and summary.splitlines()[-1].startswith("Game over: ")
    winners = " and ".join(f"p{s}" for s in final.winners)
    assert f"Game over: {winners} " in summary
    # Every card of the game is shown somewhere: hands, piles, a trick, the removed area.
    for card in courtly.core.cards.CARDS[: 13 * players]:
        assert re.search(rf"(?<![0-9A-Z]){card}(?![0-9A-Z])", summary), card
    # The same summary for every seat (each marked as "you"), and no secrets left anywhere.
    for seat in range(players):
        assert final.render(seat).replace(" (you)", "      ") == summary
        assert not final.game.views.secret_cards(final, seat)
        assert final.view(seat).render() == final.render(seat)
        assert "?" not in [text for _, text in final.log(seat)]


def test_a_route_that_finds_the_king_ends_the_game_in_words() -> None:
    state = new_game()
    play(state, "p0 10S KS 8S", "p1 7H 5H 3H", "p0 pass")
    assert told(state, None, "p1 route") == [
        "p1 routes p0's middle card; p0 does not route.",
        "p1's route turns up p0's middle card: KS, p0's King!",
        "p0 is out: his King KS was found by p1's route.",
        "p1 is the last player still in, and wins.",
        "Face down until now: p1's middle card 5H.",
    ]
    play(state, "p1 route")
    # The trick that ended the game counts: no "0 tricks played" at the end (§8).
    assert "· 1 trick played" in state.render(None)
    assert state.render(None).splitlines()[-1] == (
        "Game over: p1 is the last player still in, after p0 went out: his King KS was found by "
        "p1's route."
    )


# --------------------------------------------------------------------------------- narration


def test_formations_are_narrated_face_down_to_the_others() -> None:
    state = new_game()
    first = "First trick: p0 against p1, p0 with priority."
    assert told(state, 0, "p0 form left 10S") == [first, "p0 puts 10S in the left slot."]
    assert told(state, 1, "p0 form left 10S") == [first, "p0 lays a card face down (left)."]
    assert told(state, None, "p0 form left 10S") == [first, "p0 lays a card face down (left)."]
    play(state, "p0 10S 2S 8S", "p1 7H 5H")
    assert told(state, None, "p1 form right 3H") == [
        "p1 lays a card face down (right).",
        "Reveal: p0 shows 10S left and 8S right; p1 shows 7H left and 3H right.",
        "Skirmishes: p0's 10S beats p1's 3H; p0's 8S beats p1's 7H: p0 wins both.",
    ]


def test_a_blind_skirmish_is_narrated_declaration_tie_and_challenge() -> None:
    state = new_game()
    play(state, "p0 7S KS 9S", "p1 9H 2H 7H", "p0 pass", "p1 pass")
    # A declaration stays its declarer's until the other one is in (§9).
    assert told(state, 0, "p0 declare a") == ["p0 declares an Ace."]
    assert told(state, 1, "p0 declare a") == ["p0 has declared."]
    play(state, "p0 declare a")
    assert told(state, 0, "p1 declare a") == [
        "p0 declares an Ace, p1 an Ace.",
        "A tie: both declare again, repeat 1 of 2 (GSK-7).",
    ]
    play(state, "p1 declare a", "p0 declare a")
    assert told(state, 1, "p1 declare q") == [
        "p0 declares an Ace, p1 a Queen.",
        "p0 wins the blind skirmish (an Ace beats a Queen); p1 may challenge.",
    ]
    play(state, "p1 declare q")
    # The answer is one word: the true rank of KS is never told (§9).
    assert told(state, None, "p1 challenge") == [
        "p1 challenges: is p0's middle card really an Ace?",
        "Not accurate: p0's middle card is not an Ace.",
        "p1 draws a card blindly from p0's hand.",
    ]
    play(state, "p1 challenge")
    assert state.narrate(CHANCE, Card.parse("3S"), None) == "\n".join(
        [
            "p1 draws 3S from p0's hand and puts it on his trick pile.",
            "p0 takes the trick, 6 cards: his declaration, an Ace, won the blind skirmish, and a "
            "caught bluff does not change that (GSK-9).",
            "Next trick: p1 against p0, p1 with priority.",
        ]
    )


def test_the_end_of_a_hand_tells_each_player_his_own_pile_only() -> None:
    state = new_game(routes_per_hand=2)
    play(state, "p0 2S 9S 3S", "p1 AH 2H QH", "p0 pass", "p1 pass")
    play(state, "p1 3H 4H 5H", "p0 AS 4S QS", "p1 pass", "p0 pass")
    play(state, "p0 JS 5S 10S", "p1 6H 7H 8H", "p0 pass", "p1 pass")
    play(state, "p1 9H 10H JH", "p0 6S 7S 8S", "p1 pass")
    before = [
        "Neither p1 nor p0 routes.",
        "p1 takes the trick, 6 cards: he won the skirmishes.",
        "Hand 1 ends: p0 and p1 hold only 1 card each, fewer than 3 (GSK-17).",
        "Each player still in looks at his own trick pile.",
    ]
    after = [
        "Each player still in adds his trick pile to his hand.",
        "Hand 2 begins with these cards in hand: p0 13, p1 13. Every route may be used again.",
        "Next trick: p0 against p1, p0 with priority.",
    ]
    assert told(state, None, "p0 pass") == before + after
    piles = {
        0: "p0's trick pile: 4S 5S 10S JS QS AS 3H 4H 5H 6H 7H 8H.",
        1: "p1's trick pile: 2S 3S 6S 7S 8S 9S 2H 9H 10H JH QH AH.",  # 9S, p0's middle card
    }
    for seat, pile in piles.items():
        assert told(state, seat, "p0 pass") == [*before, pile, *after]


def test_a_king_found_at_the_end_of_a_hand_is_narrated() -> None:
    state = new_game()
    play(state, "p0 2S KS 3S", "p1 AH 2H QH", "p0 pass", "p1 pass")
    play(state, "p1 3H 4H 5H", "p0 AS 4S QS", "p1 pass", "p0 pass")
    play(state, "p0 JS 5S 10S", "p1 6H 7H 8H", "p0 pass", "p1 pass")
    play(state, "p1 9H 10H JH", "p0 6S 7S 8S", "p1 pass")
    assert told(state, None, "p0 pass") == [
        "Neither p1 nor p0 routes.",
        "p1 takes the trick, 6 cards: he won the skirmishes.",
        "Hand 1 ends: p0 and p1 hold only 1 card each, fewer than 3 (GSK-17).",
        "Each player still in looks at his own trick pile.",
        "p0 is out: his King KS was found in p1's trick pile at the end of hand 1.",
        "p1 is the last player still in, and wins.",
    ]


def test_a_four_player_hand_ends_with_a_king_found_and_new_letters() -> None:
    state = new_game(4)
    play(state, "p0 2S 3S 4S", "p1 AH QH JH", "p2 2D KD 3D", "p3 AC QC JC")
    for step in ("p0 pass", "p1 pass", "p2 pass", "p3 pass"):
        play(state, step)
    lines: list[str] = []
    rng = random.Random(0)
    while state.active[2]:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = next((a for a in legal if str(a) in ("pass", "declare a")), None)
        if action is None:
            safe = [a for a in legal if a.card != KING_OF[seat] or a.slot == MIDDLE]
            action = min(safe, key=lambda a: a.card.rank)
        lines += (state.narrate(seat, action, None) or "").splitlines()
        state.apply(seat, action)
    assert "p2 is out: his King KD was found in p3's trick pile at the end of hand 1." in lines
    assert lines[-7:] == [
        "Hand 1 ends: p0, p1, p2 and p3 hold only 1 card each, fewer than 3 (GSK-17).",
        "Each player still in looks at his own trick pile.",
        "p2 is out: his King KD was found in p3's trick pile at the end of hand 1.",
        "Each player still in adds his trick pile to his hand.",
        # GSK-27: an end-of-hand elimination has no "other trick" to letter the three by.
        "Three players are left, lettered in seat order from the seat after p2: A = p3, B = p0, "
        "C = p1 (GSK-27).",
        "Hand 2 begins with these cards in hand: p0 19, p1 7, p3 6. Every route may be used again.",
        "Next trick: p3 against p0, p3 with priority; p1 sits out.",
    ]
