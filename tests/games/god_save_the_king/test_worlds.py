"""Sampled worlds (``view.determinize``) stay inside the seat's information set.

At a simultaneous route or declaration, a seat that has already chosen is no longer to move (that
is public); what it chose is not. A world drawn for another seat must keep it out of ``to_move``
and draw its secret choice itself, so that a searcher never lets it choose twice."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from courtly.core.game import HIDDEN, sample_chance
from courtly.core.match import play_randomly
from courtly.games.god_save_the_king.rules import D_DECLARE, D_ROUTE, GodSaveTheKingState

from .helpers import new_game, play


def random_states(players: int, seed: int) -> list[GodSaveTheKingState]:
    """Clones of every decision point met along a random game."""
    rng = random.Random(seed)
    state = new_game(players)
    found: list[GodSaveTheKingState] = []
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        found.append(state.clone())
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_world_shows_every_seat_what_the_truth_shows_it(players: int) -> None:
    rng = random.Random(players)
    simultaneous = 0
    for seed in range(8):
        for state in random_states(players, seed):
            if state.decision in (D_ROUTE, D_DECLARE) and state.submitted:
                simultaneous += 1
            for seat in (None, *range(players)):
                view = state.view(seat)
                world = view.determinize(rng)
                assert isinstance(world, GodSaveTheKingState)
                assert world.to_move == state.to_move
                assert world.view(seat).observation() == state.observation(seat)
                assert world.render(seat) == state.render(seat)
                assert world.log(seat) == state.log(seat)
                if seat is not None:
                    assert list(world.legal_actions(seat)) == list(state.legal_actions(seat))
                play_randomly(world, rng)
                assert world.is_terminal and sum(world.returns()) == pytest.approx(1.0)
    assert simultaneous, "no state with a choice already submitted was checked"


def test_a_rivals_submitted_route_is_drawn_in_the_world_not_asked_again() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 route")
    assert state.to_move == (1,)
    view = state.view(1)
    rng = random.Random(3)
    drawn: Counter[str] = Counter()
    for _ in range(200):
        world = view.determinize(rng)
        assert isinstance(world, GodSaveTheKingState)
        assert world.to_move == (1,) and world.submitted == state.submitted
        chosen = world.pending_choices[0]
        assert chosen is not None
        assert world.history[-1] == (0, chosen)  # the placeholder event is filled in
        drawn[str(chosen)] += 1
        world.apply(1, "pass")  # the window closes with p1's answer, as in the truth
        assert world.decision != D_ROUTE
    # A uniform draw among p0's legal choices: route or pass, about as often each.
    assert set(drawn) == {"route", "pass"} and min(drawn.values()) > 60


def test_a_seats_own_submitted_choice_stays_in_its_world() -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass", "p1 declare 9")
    assert state.to_move == (0,)
    for seat, mine in ((1, "declare 9"), (0, None)):
        world = state.view(seat).determinize(random.Random(seat))
        assert isinstance(world, GodSaveTheKingState)
        if mine is not None:
            assert str(world.pending_choices[1]) == mine
        assert all(item is not HIDDEN for actor, item in world.history[-1:])
