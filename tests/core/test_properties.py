"""Hypothesis properties of the engine, over random seeds and option sets."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

import courtly
from courtly.core import State, load, sample_chance
from courtly.games.royal_gambit.components import ACTIVE, BUSTED, RANK
from courtly.games.royal_gambit.rules import RoyalGambitState

rg_options = st.fixed_dictionaries(
    {
        "players": st.integers(2, 5),
        "target_score": st.integers(1, 60),
        "turn_mode": st.sampled_from(["round_robin", "full_turn"]),
        "ten_blocks_jacks": st.booleans(),
        "auto_hit_on_zero": st.booleans(),
        "final_hand_excludes": st.sampled_from(["leaders", "at_or_above_target"]),
        "max_hands": st.integers(1, 40),
    }
)


def random_game(options: dict[str, object], seed: int, check=None) -> State:  # type: ignore[no-untyped-def]
    game = courtly.make("royal-gambit", **options)  # type: ignore[arg-type]
    state = game.new_state()
    rng = random.Random(seed)
    while not state.is_terminal:
        if check is not None:
            check(state)
        if state.is_chance:
            sample_chance(state, rng)
        else:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@given(rg_options, st.integers(0, 2**32))
def test_royal_gambit_invariants(options: dict[str, object], seed: int) -> None:
    totals_seen: list[list[int]] = []

    def check(state: State) -> None:
        assert isinstance(state, RoyalGambitState)
        totals_seen.append(list(state.totals))
        on_table = [c for row in state.rows for c in row] + state.set_aside
        assert len(on_table) == len(set(on_table)), "a card is in two places"
        assert len(on_table) + len(state.deck) == 52, "every card is on the table or in the deck"
        assert state.left[2:] == [sum(RANK[c] == r for c in state.deck) for r in range(2, 15)]
        for seat, row in enumerate(state.rows):
            ranks = [RANK[c] for c in row]
            if state.status[seat] != BUSTED:
                assert len(ranks) == len(set(ranks)), "only a busted row holds a repeated rank"
            if state.status[seat] == ACTIVE and not state.is_chance and state.to_move:
                assert state.row_score(seat) >= 0

    final = random_game(options, seed, check)
    for before, after in itertools.pairwise(totals_seen):
        assert all(b <= a for b, a in zip(before, after, strict=True)), "totals never go down"
    returns = final.returns()
    assert abs(sum(returns) - 1.0) < 1e-9
    assert final.hands_played <= int(options["max_hands"])  # type: ignore[call-overload]
    winners = final.winners
    assert winners and len({final.totals[s] for s in winners}) == 1


@given(rg_options, st.integers(0, 2**32), st.integers(0, 400))
def test_any_prefix_round_trips_through_json(
    options: dict[str, object], seed: int, cut: int
) -> None:
    final = random_game(options, seed)
    game = final.game
    prefix = courtly.replay(game, final.history[: min(cut, len(final.history))])
    assert load(prefix.to_json()) == prefix
    loaded = load(prefix.to_json())
    assert loaded.game.views.observation(loaded, 0) == prefix.game.views.observation(prefix, 0)
