from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from librt.strings import BytesWriter

from courtly.core.actions import Action
from courtly.core.game import State

def scatter(
    ones: BytesWriter,
    pairs: BytesWriter,
    out: npt.NDArray[np.float32],
    scratch: npt.NDArray[np.float64],
) -> None: ...
def mark(actions: Sequence[Action], mask: npt.NDArray[np.int8]) -> None: ...

class Filler:
    writer: Callable[[State, int, BytesWriter, BytesWriter], None]
    out: npt.NDArray[np.float32]
    sums_clear: bool
    def __init__(
        self,
        writer: Callable[[State, int, BytesWriter, BytesWriter], None],
        out: npt.NDArray[np.float32],
    ) -> None: ...
    def __call__(self, state: State, seat: int, /) -> None: ...

class SetFrom:
    fill: Callable[[State, int], None]
    checked: Callable[[Any, int], None]
    def __init__(
        self,
        fill: Callable[[State, int], None],
        game: object,
        players: int,
        checked: Callable[[Any, int], None],
    ) -> None: ...
    def __call__(self, state: Any, player: int, /) -> None: ...
