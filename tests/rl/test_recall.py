"""The perfect-recall information state (:mod:`courtly.rl.recall`) written by the game's fast
observer is exactly what the seat's views give: over seeded random play of every game and player
count, for every seat, the decisions the OpenSpiel adapter keeps, those replayed from a history,
and the whole tensor equal vectors built from ``state.view(seat)``."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

from courtly.core import games
from courtly.core.game import State
from courtly.rl.openspiel import game_name
from courtly.rl.recall import Decision, RecallLayout, decisions_from_history
from courtly.rl.tensors import observation_tensor

CASES = [
    (info.id, n) for info in games() if not info.id.startswith("test-") for n in info.player_counts
]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]
SEEDS = (0, 1, 2)


def same(kept: list[Decision], expected: list[Decision]) -> bool:
    return len(kept) == len(expected) and all(
        observation.dtype == np.float32 and np.array_equal(observation, want) and action == chosen
        for (observation, action), (want, chosen) in zip(kept, expected, strict=True)
    )


def recall_vector(
    recall: RecallLayout, decisions: list[Decision], state: State, seat: int
) -> np.ndarray:
    """The perfect-recall vector assembled from the views, as the module's docstring lays it."""
    vector = np.zeros(recall.size, np.float32)
    for slot, (observation, action) in enumerate(decisions):
        at = slot * recall.slot_size
        vector[at : at + recall.observation_size] = observation
        vector[at + recall.observation_size + action] = 1.0
    vector[recall.now :] = observation_tensor(state.view(seat))
    return vector


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_the_fast_recall_equals_the_views_for_every_seat(game_id: str, players: int) -> None:
    parameters = {"players": players, "safety_cap": 10, "infostate_tensor": "perfect_recall"}
    game = pyspiel.load_game(game_name(game_id), parameters)
    recall: RecallLayout = game.recall  # type: ignore[attr-defined]
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_initial_state()
        expected: list[list[Decision]] = [[] for _ in range(players)]
        decided = 0
        while not state.is_terminal():
            courtly = state.courtly
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            for seat in range(players):  # every seat's vector here, the deciding one's or not
                observation, action = recall.decision(courtly, seat, 5)
                assert action == 5 and observation.dtype == np.float32
                assert np.array_equal(observation, observation_tensor(courtly.view(seat)))
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            expected[seat].append((observation_tensor(courtly.view(seat)), action))
            state.apply_action(action)
            assert same(state.seat_decisions(seat), expected[seat])
            decided += 1
            if decided % 7 == 0 or state.is_terminal():
                for other in range(players):
                    observer.set_from(state, other)
                    want = recall_vector(recall, expected[other], state.courtly, other)
                    assert np.array_equal(observer.tensor, want)
        assert decided > players
        history = state.courtly.history
        for seat in range(players):
            assert same(state.seat_decisions(seat), expected[seat])
            assert same(decisions_from_history(state.courtly.game, history, seat), expected[seat])
