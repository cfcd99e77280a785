"""What the Gymnasium and PettingZoo adapters hand a seat, in the form the libraries expect: the
observation space (a dict of the vector and its mask, or the flat vector alone), bounded by the
game's layout; the mask at the end of a game; and the render modes.

* ``observation="dict"`` (the default): ``{"observation": float32 vector, "action_mask": int8
  vector}``, as PettingZoo's classic games give it.
* ``observation="flat"``: the float32 vector alone, a ``Box`` (SB3's ``MlpPolicy``, SuperSuit's
  observation wrappers); the mask is then in ``info["action_mask"]`` (and the Gymnasium env's
  ``action_masks()``).

Both boxes run from 0 to the layout's bounds (:meth:`~courtly.core.tensors.TensorLayout.bounds`):
finite and tight, as the checkers ask.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..core.errors import InvalidOptions
from ..core.game import Game

OBSERVATION_FORMS = ("dict", "flat")
RENDER_MODES = ("human", "ansi")

ENDED_ACTION = 0
"""The action id the mask holds alone once the game is over: a mask with no legal action would
make a masked distribution undefined (a softmax over nothing), and an environment never applies
an action after the end (PettingZoo steps a finished agent with ``None``; Gymnasium's
``step`` asks for ``reset``)."""


def checked_settings(observation: str, render_mode: str | None) -> None:
    """Refuse an unknown observation form or render mode, naming the choices."""
    if observation not in OBSERVATION_FORMS:
        raise InvalidOptions(f"observation is 'dict' or 'flat', not {observation!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise InvalidOptions(f"render_mode is 'human', 'ansi' or None, not {render_mode!r}")


def vector_space(game: Game) -> spaces.Box:
    """The float32 vector's box: 0 up to the layout's bound for each float."""
    high = np.asarray(game.tensor_layout().bounds(), dtype=np.float32)
    return spaces.Box(np.zeros_like(high), high, high.shape, np.float32)


def mask_space(game: Game) -> spaces.Box:
    return spaces.Box(0, 1, (game.num_actions,), np.int8)


def observation_space(game: Game, observation: str) -> spaces.Space[Any]:
    """The space of what a seat observes, in the form asked for."""
    if observation == "flat":
        return vector_space(game)
    return spaces.Dict({"observation": vector_space(game), "action_mask": mask_space(game)})


def ended_mask(num_actions: int) -> npt.NDArray[np.int8]:
    """The mask once the game is over: :data:`ENDED_ACTION` alone."""
    mask = np.zeros(num_actions, dtype=np.int8)
    mask[ENDED_ACTION] = 1
    return mask


def packed(observation: str, vector: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
    """The observation in its form: the dict of both, or the vector alone."""
    if observation == "flat":
        return vector
    return {"observation": vector, "action_mask": mask}


def shown(render_mode: str | None, text: str) -> str | None:
    """``render()``'s answer: ``"human"`` prints the text (and returns None, as the libraries'
    own human modes do), ``"ansi"`` returns it."""
    if render_mode == "human":
        print(text)
        return None
    return text if render_mode == "ansi" else None
