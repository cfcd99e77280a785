"""Simulations: many seat-rotated games between agents, and their statistics."""

from .stats import Summary, Tally, summarize, wilson_interval
from .tournament import Simulation, game_seed, rotated, run

__all__ = [
    "Simulation",
    "Summary",
    "Tally",
    "game_seed",
    "rotated",
    "run",
    "summarize",
    "wilson_interval",
]
