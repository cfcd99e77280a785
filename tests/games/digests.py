"""A fingerprint of random games, to pin that a change to a game's code changes no draw."""

from __future__ import annotations

import hashlib
import random

import courtly
from courtly.core.match import play_randomly


def random_games_digest(game_id: str, players: int, games: int = 5) -> str:
    """The first 16 hex digits of a hash of ``games`` random games seeded with ``players``."""
    game = courtly.make(game_id, players=players)
    rng = random.Random(players)
    texts = []
    for _ in range(games):
        state = game.new_state()
        play_randomly(state, rng)
        texts.append(" ".join(f"{actor}:{event}" for actor, event in state.history_text()))
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
