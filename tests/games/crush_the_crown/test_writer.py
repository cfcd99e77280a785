"""What Crush the Crown's observation writer relies on, checked on its own (the RL tests compare
the writer with the layout of the view over random play).

The writer writes a government's run of slots without a spy as one prebuilt part (bytes), which
holds for each slot the card of the government's suit and of the slot's rank: so no rule may fill
a slot otherwise, with every option. And its slots are constants of the two-player layout.
"""

from __future__ import annotations

import numpy as np
import pytest

from courtly.core import make
from courtly.games.crush_the_crown import writer
from courtly.games.crush_the_crown.components import LADDER, RANK, SUIT
from courtly.games.crush_the_crown.rules import CrushTheCrownState
from courtly.rl.tensors import Observer, observation_tensor
from tests.core.test_contract import sampled_states

OPTIONS: list[dict[str, object]] = [
    {},
    {"use_jokers": False},
    {"hand_size": 12, "one_gov_card_per_build": False},
    {"hand_size": 1},
]


@pytest.mark.parametrize("options", OPTIONS, ids=["-".join(o) or "default" for o in OPTIONS])
@pytest.mark.parametrize("seed", range(6))
def test_a_slot_without_a_spy_holds_its_own_card(options: dict[str, object], seed: int) -> None:
    game = make("crush-the-crown", **options)
    spies_seen = 0
    for state in sampled_states(game, seed, every=1):
        assert isinstance(state, CrushTheCrownState)
        for h in (0, 1):
            government = state.governments[h]
            suit = state.suits[h]
            assert (suit >= 0) == bool(government)
            for slot, card in enumerate(government):
                if state.spies[h] >> slot & 1:
                    spies_seen += 1
                else:
                    assert (SUIT[card], RANK[card]) == (suit, LADDER[slot])
            assert state.spies[h] >> len(government) == 0  # no spy beyond the slots filled
    assert spies_seen or options.get("hand_size") == 1


def test_the_slots_are_the_layouts() -> None:
    game = make("crush-the-crown")
    layout = game.tensor_layout()
    assert layout.size == writer._DRAW + 1
    starts: dict[str, int] = {}
    for first, _, text in layout.describe():  # "hands[0].size: ...": the field "hands"
        starts.setdefault(text.split(":")[0].split("[")[0].split(".")[0], first)
    assert starts["governments"] == writer._GOVERNMENTS
    assert starts["hands"] == writer._HANDS
    assert starts["discard_pile"] == writer._DISCARD_PILE
    assert starts["winners"] == writer._WINNERS


def test_spies_anywhere_in_a_government_write_as_the_view() -> None:
    # Spy flags added by hand (on slots of their own cards) at slots 2 to 4 and the last, apart
    # and side by side: the runs between them, and after the last, are the prebuilt parts.
    game = make("crush-the-crown")
    observer = Observer(game)
    checked = 0
    states = [state for seed in range(4) for state in sampled_states(game, seed, every=5)]
    for state in states:
        assert isinstance(state, CrushTheCrownState)
        if len(state.governments[0]) < 5:
            continue
        for spies in (0b100, 0b1100, 0b10100, 1 << (len(state.governments[0]) - 1)):
            changed = state.clone()
            assert isinstance(changed, CrushTheCrownState)
            changed.spies[0] |= spies  # the real spies stay: their slots hold other cards
            for seat in (0, 1):
                expected = observation_tensor(changed.view(seat))
                assert np.array_equal(observer.observe(changed, seat)[0], expected)
                checked += 1
    assert checked
