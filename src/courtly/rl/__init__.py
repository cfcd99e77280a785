"""Courtly for learning agents: every game as NumPy tensors and action masks
(:mod:`.tensors`), a PettingZoo AEC environment (:mod:`.pettingzoo`), a Gymnasium single-agent
environment (:mod:`.gymnasium`), an OpenSpiel game (:mod:`.openspiel`), and :func:`evaluate`, a
learned policy against Courtly's bots (:mod:`.evaluation`).

Each adapter stands on the engine contract alone and gives a seat its view and nothing more:
observations are built from ``state.view(seat)``. The libraries are the optional extra
``courtly[rl]``; this package imports none of them until an adapter module is imported (or
``evaluate`` first used).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .evaluation import evaluate

__all__ = ["evaluate"]


def __getattr__(name: str) -> Any:
    # Lazily, so that importing courtly.rl needs none of the optional libraries.
    if name == "evaluate":
        from .evaluation import evaluate

        return evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
