"""One package per game; importing this package registers them all."""

from ..core.registry import register
from .crush_the_crown import CrushTheCrown
from .god_save_the_king import GodSaveTheKing
from .goths_save_the_queen import GothsSaveTheQueen
from .kings_court import KingsCourt
from .royal_gambit import RoyalGambit

register(RoyalGambit)
register(CrushTheCrown)
register(KingsCourt)
register(GothsSaveTheQueen)
register(GodSaveTheKing)

__all__ = ["CrushTheCrown", "GodSaveTheKing", "GothsSaveTheQueen", "KingsCourt", "RoyalGambit"]
