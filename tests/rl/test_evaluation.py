"""courtly.rl.evaluate: a policy against Courtly's bots, seat-rotated, with Wilson intervals."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from courtly.core import IllegalAction, InvalidOptions, make
from courtly.rl import evaluate
from courtly.sim.stats import wilson_interval


def lowest(observation: Any, mask: npt.NDArray[np.int8]) -> int:
    return int(np.flatnonzero(mask)[0])


class MaskedModel:
    """Stands for an sb3-contrib model: ``predict`` with ``action_masks``."""

    def __init__(self) -> None:
        self.calls: list[tuple[bool, bool]] = []

    def predict(
        self,
        observation: Any,
        state: Any = None,
        episode_start: Any = None,
        deterministic: bool = False,
        action_masks: npt.NDArray[np.int8] | None = None,
    ) -> tuple[npt.NDArray[np.int64], None]:
        assert action_masks is not None
        self.calls.append((deterministic, isinstance(observation, dict)))
        return np.array(int(np.flatnonzero(action_masks)[-1])), None


def test_seats_rotate_and_intervals_are_wilson() -> None:
    result = evaluate(lowest, "royal-gambit", "random", 30, players=3)
    assert [tally.games for tally in result.seats] == [10, 10, 10]
    assert result.overall.games == 30
    assert result.overall.wins == pytest.approx(sum(tally.wins for tally in result.seats))
    assert result.interval == wilson_interval(result.overall.wins, 30)
    assert result.seats[1].interval == wilson_interval(result.seats[1].wins, 10)
    assert result.opponents == ("random", "random")
    assert "over 30 games" in str(result) and "seat p2" in str(result)
    assert result.to_dict()["ci95"] == list(result.interval)


def test_the_same_seed_gives_the_same_games_and_a_game_object_works() -> None:
    game = make("kings-court", players=2, track_length=15)
    first = evaluate(lowest, game, "heuristic", 6, seed=11)
    again = evaluate(lowest, "kings-court", "heuristic", 6, seed=11, players=2, track_length=15)
    assert first.to_dict() == again.to_dict()


def test_a_model_with_predict_gets_the_mask_and_plays_deterministically() -> None:
    model = MaskedModel()
    result = evaluate(model, "royal-gambit", ["heuristic"], 4)
    assert result.overall.games == 4 and model.calls
    assert set(model.calls) == {(True, True)}
    flat = MaskedModel()
    evaluate(flat, "royal-gambit", "random", 2, observation="flat", deterministic=False)
    assert set(flat.calls) == {(False, False)}


def test_bad_arguments_get_clear_errors() -> None:
    with pytest.raises(InvalidOptions, match="positive integer"):
        evaluate(lowest, "royal-gambit", "random", 0)
    with pytest.raises(InvalidOptions, match="opponents"):
        evaluate(lowest, "royal-gambit", ["random", "random"], 2)
    with pytest.raises(InvalidOptions, match="carries"):
        evaluate(lowest, make("royal-gambit"), "random", 2, players=3)
    with pytest.raises(TypeError, match="policy"):
        evaluate(42, "royal-gambit", "random", 2)
    with pytest.raises(IllegalAction):
        evaluate(lambda observation, mask: int(np.flatnonzero(mask == 0)[0]), "royal-gambit")
