"""One package per game; importing this package registers them all."""

from ..core.registry import register
from .royal_gambit import RoyalGambit

register(RoyalGambit)

__all__ = ["RoyalGambit"]
