"""God Save The King's own playout (formation cards placed by their place in the hand) plays
exactly the game the engine's generic playout plays for the same random stream."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core import State, sample_chance
from courtly.games.god_save_the_king.rules import GodSaveTheKingState

CONFIGS = [(players, exposed) for players in (2, 3, 4) for exposed in (True, False)]


def starts(players: int, exposed: bool, seed: int) -> list[State]:
    """Positions along a random game, and search worlds drawn from their views."""
    game = courtly.make("god-save-the-king", players=players, exposed_king_legal=exposed)
    rng = random.Random(seed)
    state = game.new_state()
    found: list[State] = []
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        if rng.random() < 0.15:
            found.append(state.clone())
            view = state.view(state.to_move[rng.randrange(len(state.to_move))])
            found.append(view.search_world(rng))
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def same_position(a: State, b: State) -> None:
    assert a.history == b.history
    assert a.secrets == b.secrets  # who knows each event, and when each was revealed
    assert a.to_move == b.to_move
    assert a.is_terminal == b.is_terminal
    assert a.is_chance == b.is_chance
    for seat in range(a.num_players):
        assert a.legal_actions(seat) == b.legal_actions(seat)
    if a.is_terminal:
        assert a.returns() == b.returns()


@pytest.mark.parametrize(("players", "exposed"), CONFIGS)
def test_the_games_playout_draws_exactly_as_the_generic_one(players: int, exposed: bool) -> None:
    checked = 0
    for seed in range(6):
        for number, start in enumerate(starts(players, exposed, seed)):
            assert isinstance(start, GodSaveTheKingState)
            for cap in (0, 1, 3, 8, 25):
                ours, generic = start.clone(), start.clone()
                rng_ours, rng_generic = (
                    random.Random(number * 31 + cap),
                    random.Random(number * 31 + cap),
                )
                steps = ours.playout(rng_ours, cap)
                assert steps == State.playout(generic, rng_generic, cap)
                same_position(ours, generic)
                assert rng_ours.random() == rng_generic.random()
                # Stopped part way, the position plays on as the generic one's does: the
                # choices left unlisted during the playout are listed again.
                if not ours.is_terminal:
                    ours.playout(rng_ours)
                    State.playout(generic, rng_generic)
                    same_position(ours, generic)
                checked += 1
    assert checked > 100
