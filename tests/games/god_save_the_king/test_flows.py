"""Whole games and the player-count transitions of docs/rules/god-save-the-king.md §7
(GSK-25..28), forced step by step."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.agents.random_agent import RandomAgent
from courtly.core.match import play_match
from courtly.core.replays import replay_record
from courtly.games.god_save_the_king.components import D_FORM, KING_OF, PUBLIC
from courtly.games.god_save_the_king.heuristic import GodSaveTheKingHeuristic
from courtly.games.god_save_the_king.rules import GodSaveTheKingState

from .helpers import careful_game, finish_trick, new_game, play


def high_cards(state: GodSaveTheKingState, seat: int) -> str:
    """The formation of a player out to win: his two best cards outside (never his King)."""
    cards = sorted((c for c in state.hands[seat] if c != KING_OF[seat]), key=lambda c: -c.rank)
    return f"{cards[0]} {cards[2]} {cards[1]}"


def low_cards(state: GodSaveTheKingState, seat: int) -> str:
    cards = sorted((c for c in state.hands[seat] if c != KING_OF[seat]), key=lambda c: c.rank)
    return " ".join(str(c) for c in cards[:3])


def round_of(state: GodSaveTheKingState, winners: dict[int, bool]) -> None:
    """Every participant forms (winners high, others low), then the round is resolved."""
    for seat in sorted(state.to_move):
        form = high_cards(state, seat) if winners.get(seat) else low_cards(state, seat)
        play(state, f"p{seat} {form}")
    finish_trick(state)


# --------------------------------------------------------------------------- 2 players


@pytest.mark.parametrize("seed", range(4))
def test_two_player_game_heuristic_against_random_replays_exactly(seed: int) -> None:
    game = courtly.make("god-save-the-king")
    agents = [GodSaveTheKingHeuristic(game), RandomAgent(game)]
    record = play_match(game, agents if seed % 2 else agents[::-1], seed)
    final = replay_record(record)
    assert final.is_terminal and sum(final.returns()) == pytest.approx(1.0)
    assert courtly.load(final.to_json()) == final


# --------------------------------------------------------------------------- 3 players


def test_three_players_become_two_lower_seat_first() -> None:
    state = new_game(3)
    play(state, "p0 2S 3S 4S", "p1 KH 5H 6H")  # A-B: B shows his own King
    assert not state.active[1]
    assert state.schedule == 2 and state.duelists == (0, 2)
    assert state.tricks[0].seats == (0, 2)  # the lower original seat has priority first
    play(state, "p0 5S 6S 7S", "p2 2D 3D 4D", "p0 pass", "p2 pass")
    assert state.tricks[0].seats == (2, 0)  # then it alternates


def test_three_players_chain_elimination_from_an_eliminated_pile() -> None:
    """A King lying in an eliminated player's trick pile is found and eliminates its owner."""
    state = new_game(3)
    play(state, "p0 5S 6S 7S", "p1 2H 3H 4H", "p0 pass", "p1 pass")  # A-B
    play(state, "p1 5H 6H 7H", "p2 2D 3D 4D", "p1 pass", "p2 pass")  # B-C
    play(state, "p2 AD 5D QD", "p0 2S KS 3S", "p2 pass", "p0 pass")  # C-A: KS goes to p2
    assert "KS" in [str(c) for c in state.piles[2]]
    play(state, "p0 10S 8S 9S", "p1 8H 9H 10H", "p0 pass", "p1 pass")  # A-B
    play(state, "p1 JH QH AH", "p2 KD 6D 7D")  # B-C: p2 shows KD
    assert state.is_terminal
    assert state.winners == (1,)
    face_up = {
        str(c) for c, m in zip(state.removed, state.removed_knowers, strict=True) if m == PUBLIC
    }
    assert {"KS", "KD"} <= face_up


@pytest.mark.parametrize("seed", range(6))
def test_three_player_careful_games_end_properly(seed: int) -> None:
    schedules: list[int] = []

    def visit(state: GodSaveTheKingState, rng: random.Random) -> None:
        if not schedules or schedules[-1] != state.schedule:
            schedules.append(state.schedule)

    final = careful_game(3, seed, visit)
    assert final.is_terminal and sum(final.returns()) == pytest.approx(1.0)
    assert schedules[0] == 3 and schedules == sorted(schedules, reverse=True)


# --------------------------------------------------------------------------- 4 players


def test_four_players_double_elimination_goes_straight_to_two() -> None:
    state = new_game(4)
    play(state, "p0 KS 2S 3S", "p1 2H 3H 4H", "p2 KD 2D 3D", "p3 2C 3C 4C")
    assert state.active == [False, True, False, True]
    assert state.schedule == 2 and state.duelists == (1, 3) and state.tricks[0].seats == (1, 3)


def test_four_to_three_fallback_when_the_other_trick_is_void() -> None:
    state = new_game(4, max_redeclare=0)
    # A-B is a push declared equal (void); in C-D, C shows his own King.
    play(state, "p0 7S 2S 9S", "p1 9H 2H 7H", "p2 KD 3D 4D", "p3 2C 3C 4C")
    play(state, "p0 pass", "p1 pass", "p0 declare 5", "p1 declare 5")
    assert not state.active[2]
    # Letters clockwise from the player after the eliminated C: D, A, B.
    assert state.schedule == 3 and state.seat_of_letter == (3, 0, 1)
    assert state.tricks[0].seats == (3, 0)


def test_four_to_three_after_an_end_of_hand_elimination_uses_the_fallback() -> None:
    state = new_game(4)
    # Round 1: C lays his King in the middle and loses it to D.
    play(state, "p0 2S 3S 4S", "p1 AH QH JH", "p2 2D KD 3D", "p3 AC QC JC")
    finish_trick(state)
    assert "KD" in [str(c) for c in state.piles[3]]
    round_of(state, {2: True, 0: True})  # {B-C, D-A}
    round_of(state, {0: True, 2: True})  # {A-B, C-D}
    round_of(state, {1: True, 3: True})  # {B-C, D-A}
    # Everyone is down to one card: the hand ended and KD was found in D's pile.
    assert state.hand_number == 2 and not state.active[2]
    assert all(state.active[s] for s in (0, 1, 3))
    assert state.schedule == 3 and state.seat_of_letter == (3, 0, 1)
    assert state.tricks[0].seats == (3, 0) and state.decision == D_FORM


@pytest.mark.parametrize("seed", range(6))
def test_four_player_careful_games_end_properly(seed: int) -> None:
    schedules: list[int] = []

    def visit(state: GodSaveTheKingState, rng: random.Random) -> None:
        if not schedules or schedules[-1] != state.schedule:
            schedules.append(state.schedule)

    final = careful_game(4, seed, visit)
    assert final.is_terminal and sum(final.returns()) == pytest.approx(1.0)
    assert schedules[0] == 4 and schedules == sorted(schedules, reverse=True)


def test_four_to_three_to_two_over_a_whole_game() -> None:
    """Some careful 4-player game passes through the 3-player rota and the duel."""
    seen: set[tuple[int, ...]] = set()
    for seed in range(30):
        schedules: list[int] = []

        def visit(
            state: GodSaveTheKingState, rng: random.Random, schedules: list[int] = schedules
        ) -> None:
            if not schedules or schedules[-1] != state.schedule:
                schedules.append(state.schedule)

        careful_game(4, seed, visit)
        seen.add(tuple(schedules))
        if (4, 3, 2) in seen:
            break
    assert (4, 3, 2) in seen
