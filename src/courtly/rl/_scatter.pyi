from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from courtly.core.actions import Action

def scatter(
    slots: list[int],
    values: list[float],
    out: npt.NDArray[np.float32],
    scratch: npt.NDArray[np.float64],
) -> None: ...
def mark(actions: Sequence[Action], mask: npt.NDArray[np.int8]) -> None: ...
