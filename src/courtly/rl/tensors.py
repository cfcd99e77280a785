"""A seat's observation as a NumPy ``float32`` vector, and its legal actions as a mask.

The vector's layout is each game's declaration (:mod:`courtly.core.tensors`); print it with::

    python -m courtly.rl.tensors royal-gambit --players 3

Both are built from a seat's :class:`~courtly.core.game.View` alone, so they hold nothing the
seat may not know (checked in every world consistent with its knowledge by the tests).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..core.errors import InvalidOptions
from ..core.game import Game, View
from ..core.registry import make


def observation_shape(game: Game) -> tuple[int]:
    return (game.tensor_layout().size,)


def observation_tensor(view: View) -> npt.NDArray[np.float32]:
    """The seat's observation as a fixed-size vector (:meth:`Game.tensor_layout`)."""
    return np.asarray(view.game.tensor_layout().encode(view.observation()), dtype=np.float32)


def action_mask(view: View) -> npt.NDArray[np.int8]:
    """1 at the id of every action the seat may take now (all zeros when it is not to move)."""
    mask = np.zeros(view.game.num_actions, dtype=np.int8)
    for action in view.legal_actions():
        mask[action.id] = 1
    return mask


def layout_table(game: Game) -> list[str]:
    """The layout as text lines: which floats mean what."""
    rows = game.tensor_layout().describe()
    width = len(str(rows[-1][1])) if rows else 1
    lines = [f"{game!r}: {game.tensor_layout().size} floats"]
    for first, last, meaning in rows:
        span = f"{first}" if first == last else f"{first}-{last}"
        lines.append(f"{span:>{2 * width + 1}}  {meaning}")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Print a game's observation tensor layout.")
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args(argv)
    try:
        game = make(args.game, players=args.players)
    except InvalidOptions as error:
        parser.exit(2, f"error: {error}\n")
    print("\n".join(layout_table(game)))


if __name__ == "__main__":
    main()
