"""A copy of a state shares nothing mutable with its original that either then changes: playing
the copy on leaves the original as it was, and the reverse. Copies share some lists (a trick's
declarations and routes to resolve are replaced whole, never changed in place) and the end of a
hand or of a game empties hands and piles in place: this holds them to it."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

import courtly
from courtly.core import sample_chance
from courtly.core.persist import fields_of
from courtly.games.god_save_the_king.rules import GodSaveTheKingState

from .helpers import CASES


def snapshot(state: GodSaveTheKingState) -> bytes:
    """Every field of ``state``, its tricks' and its secrets' included (of the list of reveal
    notes, which copies share by design, the part that is this state's)."""
    fields = fields_of(state)
    secrets = state.secrets
    fields["secrets"] = (secrets.knowers, secrets._noted())
    del fields["world_plan"]  # how a view's copy draws worlds: made and remade on need
    return pickle.dumps(fields)


def check_apart(state: GodSaveTheKingState, copy: GodSaveTheKingState, rng: random.Random) -> None:
    """``copy`` played to the end leaves ``state`` unchanged, and the reverse."""
    saved = snapshot(state)
    copy.playout(rng)
    assert snapshot(state) == saved
    other = state.clone()
    saved = snapshot(other)
    state.playout(rng)
    assert snapshot(other) == saved


@pytest.mark.parametrize(("players", "options"), CASES)
def test_a_copy_and_its_original_play_on_apart(players: int, options: dict[str, Any]) -> None:
    game = courtly.make("god-save-the-king", players=players, **options)
    met = {"routes": 0, "declared": 0, "worlds": 0, "eliminations": 0}
    for seed in range(40):
        if seed >= 4 and all(met.values()):
            break
        rng = random.Random(seed)
        state = game.new_state()
        assert isinstance(state, GodSaveTheKingState)
        step = 0
        while not state.is_terminal:
            step += 1
            routes = sum(1 for t in state.tricks if t.routes_to_resolve)
            declared = sum(1 for t in state.tricks if any(t.declared))
            if step % 3 == 0 or routes or declared:
                met["routes"] += routes
                met["declared"] += declared
                # A full copy (knowledge and journal too) and a copy without them.
                original = state.clone()
                check_apart(original, original.clone(), rng)
                original = state.clone()
                check_apart(original, original._copy(knowledge=False), rng)
                met["eliminations"] += original.players_left < players
                if not state.is_chance:
                    # A world drawn for a search, from the view's copy: the view's copy is
                    # left as it was, whichever of them plays on.
                    view = state.view(state.to_move[0])
                    base = view._state
                    assert isinstance(base, GodSaveTheKingState)
                    saved = snapshot(base)
                    world = view.search_world(rng)
                    assert isinstance(world, GodSaveTheKingState)
                    world.playout(rng)
                    assert snapshot(base) == saved
                    met["worlds"] += 1
            if state.is_chance:
                sample_chance(state, rng)
            else:
                seat = state.to_move[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert all(met.values()), met
