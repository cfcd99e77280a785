"""One package per game; importing this package registers them all."""

from ..core.registry import register
from .crush_the_crown import CrushTheCrown
from .kings_court import KingsCourt
from .royal_gambit import RoyalGambit

register(RoyalGambit)
register(CrushTheCrown)
register(KingsCourt)

__all__ = ["CrushTheCrown", "KingsCourt", "RoyalGambit"]
