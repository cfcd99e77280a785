"""Random play through ``chance_outcomes()`` and ``apply_chance`` (as OpenSpiel's API and a tree
search walk chance nodes): the fast paths that find a listed outcome or a legal action by
identity give the same games as equal copies from elsewhere (unpickled: not the shared
instances), which take the slow paths."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

import courtly
from courtly.core.game import State
from courtly.core.persist import fields_of

CONFIGS = [
    (info.id, players)
    for info in courtly.games()
    if not info.id.startswith("test-")
    for players in info.player_counts
]


def copy_of(item: Any) -> Any:
    """An equal object that is not the same one (as a record or another process gives it)."""
    copy = pickle.loads(pickle.dumps(item))
    assert copy == item
    return copy


def same_position(one: State, other: State) -> bool:
    """Every field alike (piles, rows, hands, tricks, the history, the secrets), not only the
    events."""
    return alike(fields_of(one), fields_of(other))


def alike(one: object, other: object) -> bool:
    if one is other:
        return True
    if type(one) is not type(other):
        return False
    if isinstance(one, (list, tuple)):
        assert isinstance(other, (list, tuple))
        return len(one) == len(other) and all(map(alike, one, other))
    if isinstance(one, dict):
        assert isinstance(other, dict)
        return one.keys() == other.keys() and all(alike(v, other[k]) for k, v in one.items())
    if type(one).__eq__ is object.__eq__:  # a game's own part (a trick): field by field
        return alike(fields_of(one), fields_of(other))
    return one == other


def picked(outcomes: list[tuple[Any, float]], x: float) -> Any:
    for outcome, p in outcomes:
        x -= p
        if x < 0:
            return outcome
    return outcomes[-1][0]


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_copies_of_outcomes_and_actions_play_the_same_games(game_id: str, players: int) -> None:
    game = courtly.make(game_id, players=players)
    rng = random.Random(players)
    for _ in range(3):
        shared, copied = game.new_state(), game.new_state()
        steps = 0
        while not shared.is_terminal and steps < 400:
            if shared.is_chance:
                outcomes = shared.chance_outcomes()
                assert outcomes == copied.chance_outcomes()
                outcome = picked(outcomes, rng.random())
                shared.apply_chance(outcome)
                copied.apply_chance(copy_of(outcome))
            else:
                seat = shared.to_move[0]
                legal = shared.legal_actions(seat)
                action = legal[int(rng.random() * len(legal))]
                shared.apply(seat, action)
                copied.apply(seat, copy_of(action))
            assert same_position(copied, shared)
            steps += 1


def test_royal_gambit_tells_an_equal_copy_of_hit_or_stay_by_its_id() -> None:
    """Royal Gambit's rules read hit or stay off the legal list's own instances; an equal copy
    handed straight to the rules is told by its id, the same answer."""
    game = courtly.make("royal-gambit", players=3)
    rng = random.Random(7)
    state: State = game.new_state()
    decisions = 0
    while not state.is_terminal and decisions < 300:
        if state.is_chance:
            state.apply_chance(picked(state.chance_outcomes(), rng.random()))
            continue
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = legal[int(rng.random() * len(legal))]
        copied = state.clone()
        copied.apply_legal(seat, copy_of(action))
        state.apply_legal(seat, action)
        assert same_position(copied, state)
        decisions += 1
    assert decisions > 50
