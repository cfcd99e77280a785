"""A new round's tricks are renewed in place from the last round's (no dozen lists allocated per
trick): each must be exactly the trick a fresh ``Trick(x, y)`` makes."""

from __future__ import annotations

import pickle
import random

import pytest

import courtly
from courtly.core import sample_chance
from courtly.core.persist import fields_of
from courtly.games.god_save_the_king.components import T_FORM
from courtly.games.god_save_the_king.rules import GodSaveTheKingState, Trick


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("exposed", [True, False])
def test_every_round_starts_with_fresh_tricks(players: int, exposed: bool) -> None:
    game = courtly.make("god-save-the-king", players=players, exposed_king_legal=exposed)
    renewed = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_state()
        assert isinstance(state, GodSaveTheKingState)
        while not state.is_terminal:
            before = state.tricks
            kept = list(before)
            if state.is_chance:
                sample_chance(state, rng)
            else:
                seat = state.to_move[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            if state.is_terminal or state.tricks[0].step != T_FORM:
                continue
            if all(t.placed == [0, 0] for t in state.tricks):
                # A round has just started: every trick is as a fresh one, and a trick object
                # was reused only by the state that held it.
                for t in state.tricks:
                    assert fields_of(t) == fields_of(Trick(t.seats[0], t.seats[1]))
                renewed += sum(1 for t in state.tricks if any(t is k for k in kept))
            # A copy's tricks are its own: renewing them leaves the original's alone.
            if rng.random() < 0.1:
                copy = state.clone()
                saved = pickle.dumps(state.tricks)
                copy.playout(random.Random(seed))
                assert pickle.dumps(state.tricks) == saved
    assert renewed  # the reuse was exercised
