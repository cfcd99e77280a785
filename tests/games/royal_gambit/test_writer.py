"""The observation writer (``writer.write_tensor``) against the layout of the seat's view, with
the options that change what it reads: a target's scale for every total and row score, each
player's long turn, the seats sitting out the final hand (the favorites), Jacks blocked by a 10,
a safety cap that ends the game early."""

from __future__ import annotations

import pytest

from courtly.core import make
from courtly.games.royal_gambit.writer import write_tensor
from tests.rl.writers import check_writer_against_views

VARIANTS: list[tuple[int, dict[str, object]]] = [
    (2, {"target_score": 7}),
    (3, {"turn_mode": "full_turn", "auto_hit_on_zero": True}),
    (4, {"final_hand_excludes": "at_or_above_target", "target_score": 12}),
    (5, {"ten_blocks_jacks": True, "target_score": 1000}),
    (5, {"safety_cap": 2}),
]


@pytest.mark.parametrize(
    ("players", "options"),
    VARIANTS,
    ids=[f"{n}p-{'-'.join(options)}" for n, options in VARIANTS],
)
@pytest.mark.parametrize("seed", range(3))
def test_the_writer_writes_the_view_with_every_option(
    players: int, options: dict[str, object], seed: int
) -> None:
    check_writer_against_views(write_tensor, make("royal-gambit", players=players, **options), seed)
