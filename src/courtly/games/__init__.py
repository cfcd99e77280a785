"""One package per game; importing this package registers them all."""

from ..core.registry import register
from .crush_the_crown import CrushTheCrown
from .royal_gambit import RoyalGambit

register(RoyalGambit)
register(CrushTheCrown)

__all__ = ["CrushTheCrown", "RoyalGambit"]
