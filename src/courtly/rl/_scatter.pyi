import numpy as np
import numpy.typing as npt

def scatter(
    slots: list[int],
    values: list[float],
    out: npt.NDArray[np.float32],
    scratch: npt.NDArray[np.float64],
) -> None: ...
