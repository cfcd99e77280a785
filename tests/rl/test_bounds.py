"""Every float of a game's observation vector stays within the layout's bounds (0 to
``TensorLayout.bounds()``) in random play, at every player count and at options that stretch
the numbers; the bounds are finite, so the adapters' observation spaces are too."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from courtly.core import games, make
from courtly.core.game import Game, sample_chance
from courtly.core.tensors import Cards, Each, Flag, Listed, Number, TensorLayout, Within
from courtly.rl.tensors import observation_tensor

CASES: list[tuple[str, int | None, dict[str, Any]]] = [
    (info.id, n, {})
    for info in games()
    if info.tensor_layout is not None
    for n in info.player_counts
]
# Options that push numbers past their scale: a low target (totals and rows above it), a long
# track, short safety caps (games cut short, truncated).
CASES += [
    ("royal-gambit", 3, {"target_score": 10}),
    ("royal-gambit", 2, {"target_score": 120, "safety_cap": 5}),
    ("kings-court", 3, {"track_length": 45}),
    ("kings-court", 2, {"safety_cap": 6}),
    ("crush-the-crown", 2, {"hand_size": 15, "use_jokers": True, "safety_cap": 40}),
    ("god-save-the-king", 4, {"safety_cap": 5}),
    ("god-save-the-king", 3, {"routes_per_hand": 5}),
    ("goths-save-the-queen", 3, {"safety_cap": 8}),
]
PICKS = ("first", "last", "first-seat-0", "last-seat-0")
IDS = [f"{game_id}-{n}p-{options}" for game_id, n, options in CASES]


def play_and_check(game: Game, seed: int, pick: str = "random") -> int:
    """One game, every seat's vector checked at every step; returns the steps seen. Seats pick
    at random, or always the first or the last legal action, or seat 0 alone does against
    random seats (extremes random play rarely reaches: a hand that only grows)."""
    high = np.asarray(game.tensor_layout().bounds(), dtype=np.float32)
    rng = random.Random(seed)
    state = game.new_state()
    steps = 0
    while True:
        for seat in range(game.num_players):
            tensor = observation_tensor(state.view(seat))
            above = np.flatnonzero(tensor > high)
            assert above.size == 0, [(int(i), float(tensor[i]), float(high[i])) for i in above[:5]]
            assert (tensor >= 0).all()
        if state.is_terminal:
            return steps
        if state.is_chance:
            sample_chance(state, rng)
        else:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            rule = pick.removesuffix("-seat-0") if seat == 0 or "-seat-" not in pick else ""
            chosen = legal[0] if rule == "first" else legal[-1] if rule == "last" else None
            state.apply(seat, rng.choice(legal) if chosen is None else chosen)
        steps += 1


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=IDS)
def test_random_play_stays_within_the_bounds(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = make(game_id, players=players, **options)
    bounds = game.tensor_layout().bounds()
    assert len(bounds) == game.tensor_layout().size
    assert all(np.isfinite(bound) and bound > 0 for bound in bounds)
    assert sum(play_and_check(game, seed) for seed in range(4)) > 0
    assert sum(play_and_check(game, seed, pick) for seed in range(1) for pick in PICKS) > 0


def test_each_kind_of_field_declares_its_bounds() -> None:
    layout = TensorLayout(
        Flag("flag"),
        Number("score", 10),
        Number("turn", 10, high=25),
        Cards("hand"),
        Listed("slots", 2, Number("slot", 2, high=3)),
        Each("rows", 2, Flag("open"), Number("size", 4)),
        Within("inner", Number("points", 5, high=20)),
    )
    assert layout.bounds() == [1.0, 1.0, 2.5, *[1.0] * 52, 2.0, 1.5, 1.5, 1.0, 1.0, 1.0, 1.0, 4.0]
    assert len(layout.bounds()) == layout.size


def test_a_god_save_the_king_hand_may_outgrow_an_even_share_of_the_deck() -> None:
    """Three players always taking the first legal action (seed 4): cards drawn from hands by
    routes and challenges leave a hand of 29 cards, past 26, within the bound of 52."""
    game = make("god-save-the-king", players=3)
    rows = game.tensor_layout().describe()
    sizes = [
        first for first, _, meaning in rows if meaning.endswith("].hand_size: the number / 26")
    ]
    largest = 0.0
    rng = random.Random(4)
    state = game.new_state()
    while not state.is_terminal:
        for seat in range(3):
            largest = max(largest, *(observation_tensor(state.view(seat))[sizes] * 26))
        if state.is_chance:
            sample_chance(state, rng)
        else:
            seat = state.to_move[0]
            state.apply(seat, state.legal_actions(seat)[0])
    assert largest > 26
    play_and_check(game, 4, "first")
