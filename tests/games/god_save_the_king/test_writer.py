"""God Save The King's observation writer in a long game: the hand number, the tricks played, a
past trick's hand and a trick's redeclarations far past the usual (a high safety cap, many
repeats after a tie) are written as the view's layout writes them."""

from __future__ import annotations

import numpy as np
import pytest

from courtly.core import make
from courtly.core.tensors import CARD_SLOTS
from courtly.games.god_save_the_king import writer
from courtly.games.god_save_the_king.components import DECISION_TEXT
from courtly.games.god_save_the_king.rules import GodSaveTheKingState
from courtly.games.god_save_the_king.tensor import RANKS
from courtly.rl.tensors import Observer, observation_tensor
from tests.core.test_contract import sampled_states


@pytest.mark.parametrize("players", (2, 3, 4))
def test_counts_of_a_long_game_are_written_as_the_view(players: int) -> None:
    game = make("god-save-the-king", players=players, safety_cap=1000, max_redeclare=50)
    observer = Observer(game)
    assert observer.writer is not None
    for state in sampled_states(game, players, every=3):
        assert isinstance(state, GodSaveTheKingState)
        # As far on as a long game gets.
        state.hand_number += 100
        state.tricks_played += 100
        state.past_tricks = [
            (hand + 100, seats, collector, first, second, answer)
            for hand, seats, collector, first, second, answer in state.past_tricks
        ]
        for trick in state.tricks:
            trick.redeclarations += 70
        for seat in range(players):
            expected = observation_tensor(state.view(seat))
            assert np.array_equal(observer.observe(state, seat)[0], expected)


def test_the_writers_constants_are_the_layouts() -> None:
    # The writer folds these as literals; they must stay the layout's own sizes.
    assert writer._CARD_SLOTS == CARD_SLOTS
    assert len(RANKS) == writer._RANKS
    assert len(DECISION_TEXT) + 1 == writer._DECISIONS  # and "draw"
    for players in (2, 3, 4):
        layout = make("god-save-the-king", players=players).tensor_layout()
        starts: dict[str, int] = {}
        for first, _, text in layout.describe():
            starts.setdefault(text.split(":")[0].split("[")[0].split(".")[0], first)
        assert starts["waiting_for"] - starts["decision"] == writer._DECISIONS
        assert starts["players"] - starts["your_choice"] == writer._CHOICES
        assert starts["your_hand"] - starts["players"] == players * writer._PLAYER
