"""Every game plays exactly as it did when these digests were pinned: the same random games,
the same views, logs, pictures and narration, and the same choices from its bots.

A change to how the engine is organised must leave all of it as it was. A change meant to alter
a game (a rule, a line of text) changes a digest on purpose: print the new ones with
``python tests/core/test_pinned_games.py`` and say in the commit why they moved.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator

import pytest

import courtly
from courtly.agents.registry import make_agent
from courtly.core.events import CHANCE
from courtly.core.match import play_match, play_randomly

RANDOM_GAMES = 400
"""Random games a game and player count: a few thousand across every table."""

WATCHED_GAMES = 5
"""Random games a table in which every seat's view, log, picture and narration is hashed at
every step."""

BOT_GAMES = 6
"""Games between the game's own heuristic bots a table."""


GAMES = (
    "royal-gambit",
    "crush-the-crown",
    "kings-court",
    "goths-save-the-queen",
    "god-save-the-king",
)
"""The five games (the tests register toy games of their own beside them)."""


def tables() -> Iterator[tuple[str, int]]:
    for game_id in GAMES:
        for players in courtly.make(game_id).info.player_counts:
            yield game_id, players


def _hash(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def random_games(game_id: str, players: int) -> str:
    """Each random game's history, result and whether the cap ended it."""
    game = courtly.make(game_id, players=players)
    rng = random.Random(f"pinned/{game_id}/{players}")
    lines = []
    for _ in range(RANDOM_GAMES):
        state = game.new_state()
        play_randomly(state, rng)
        events = " ".join(f"{actor}:{item}" for actor, item in state.history_text())
        lines.append(f"{events} = {state.returns()} {state.truncated}")
    return _hash(lines)


def watched_games(game_id: str, players: int) -> str:
    """What every seat and a spectator are shown at every step of a few random games: the
    observation, the new entries of the log, the picture, the legal moves and the narration of
    the event about to happen."""
    game = courtly.make(game_id, players=players)
    rng = random.Random(f"watched/{game_id}/{players}")
    observers: list[int | None] = [*range(players), None]
    lines = []
    for _ in range(WATCHED_GAMES):
        state = game.new_state()
        seen = dict.fromkeys(observers, 0)
        while not state.is_terminal:
            for who in observers:
                view = state.view(who)
                since = view.log_from(seen[who])
                log = view.log(since)
                seen[who] = view.version
                legal = [str(action) for action in view.legal_actions()]
                picture = [view.observation(), since, log, view.render(), legal]
                lines.append(json.dumps(picture, sort_keys=True, default=str))
            if state.is_chance:
                actor, item = CHANCE, state.sample_chance_outcome(rng)
            else:
                actor = state.to_move[0]
                item = rng.choice(state.legal_actions(actor))
            lines.append(json.dumps([state.narrate(actor, item, who) for who in observers]))
            if actor == CHANCE:
                state.apply_chance(item)
            else:
                state.apply(actor, item)
        lines.append(json.dumps([state.view(None).render(), state.returns(), state.scores()]))
    return _hash(lines)


def bot_games(game_id: str, players: int) -> str:
    """The records of games between the game's heuristic bots."""
    game = courtly.make(game_id, players=players)
    agents = [make_agent("heuristic", game) for _ in range(players)]
    lines = []
    for seed in range(BOT_GAMES):
        record = play_match(game, agents, seed)
        lines.append(json.dumps([record.history, record.returns], default=str))
    return _hash(lines)


def search_game(game_id: str) -> str:
    """A game at the default player count between small ISMCTS searches."""
    game = courtly.make(game_id)
    agents = [make_agent("ismcts:iterations=25", game) for _ in range(game.num_players)]
    record = play_match(game, agents, 7)
    return _hash([json.dumps([record.history, record.returns], default=str)])


PINNED: dict[str, dict[str, str]] = {
    "royal-gambit 2p": {
        "random": "529ea481769342a5",
        "watched": "d439c3cc54ca6d4f",
        "bots": "022a7af90589354d",
    },
    "royal-gambit 3p": {
        "random": "464dcaef5d622ecb",
        "watched": "2962f935d8296a2f",
        "bots": "551b2e57052a091c",
    },
    "royal-gambit 4p": {
        "random": "76988730c4b20c07",
        "watched": "fe59d2f3f400a5d8",
        "bots": "b6584fb098a84bb2",
    },
    "royal-gambit 5p": {
        "random": "b6815c705900e97d",
        "watched": "d91225a5447fa0ab",
        "bots": "67e495c7c76242ca",
    },
    "crush-the-crown 2p": {
        "random": "51656a76c897a212",
        "watched": "1eb36658f570543c",
        "bots": "b3168eb8ed6d9cec",
    },
    "kings-court 2p": {
        "random": "49a3ef62d5a19805",
        "watched": "528d5355f12a2197",
        "bots": "ed97152de44c1839",
    },
    "kings-court 3p": {
        "random": "827b56e822633461",
        "watched": "1fe8abcea0180629",
        "bots": "e6b9d220f77a1715",
    },
    "kings-court 4p": {
        "random": "f58992e93af4a7f2",
        "watched": "0b1cc4e9c571a037",
        "bots": "95b23e74612fcd2d",
    },
    "goths-save-the-queen 2p": {
        "random": "3087e6addea0d0d2",
        "watched": "ffa7294422bd8681",
        "bots": "6fc47fda0c494843",
    },
    "goths-save-the-queen 3p": {
        "random": "dd162230f0b714ed",
        "watched": "9d1ae6085bb89cd3",
        "bots": "d91181c3fbe24140",
    },
    "goths-save-the-queen 4p": {
        "random": "b5b29fda2b09b1ce",
        "watched": "f8430ac28d711e9a",
        "bots": "0194e604398eb608",
    },
    "god-save-the-king 2p": {
        "random": "9316b124d0b1745b",
        "watched": "509840a2b97724e7",
        "bots": "6f281f46e22e9048",
    },
    "god-save-the-king 3p": {
        "random": "0032b2a7f159c54c",
        "watched": "e9ea28b1362155a9",
        "bots": "376a8e10e120559e",
    },
    "god-save-the-king 4p": {
        "random": "2a06c96eb5ce35f3",
        "watched": "ba2ebde9a941ce9d",
        "bots": "a27bbfeb01285326",
    },
    "royal-gambit": {"search": "72af0204e7ac6f29"},
    "crush-the-crown": {"search": "bd27602558058659"},
    "kings-court": {"search": "5b0a8e2982876b95"},
    "goths-save-the-queen": {"search": "abc6088d1e9d5ad9"},
    "god-save-the-king": {"search": "3674c5c19c4c44c8"},
}


@pytest.mark.parametrize(("game_id", "players"), list(tables()))
def test_random_games_are_as_pinned(game_id: str, players: int) -> None:
    pinned = PINNED[f"{game_id} {players}p"]
    assert random_games(game_id, players) == pinned["random"]


@pytest.mark.parametrize(("game_id", "players"), list(tables()))
def test_what_each_seat_is_shown_is_as_pinned(game_id: str, players: int) -> None:
    pinned = PINNED[f"{game_id} {players}p"]
    assert watched_games(game_id, players) == pinned["watched"]


@pytest.mark.parametrize(("game_id", "players"), list(tables()))
def test_the_heuristic_bots_play_as_pinned(game_id: str, players: int) -> None:
    pinned = PINNED[f"{game_id} {players}p"]
    assert bot_games(game_id, players) == pinned["bots"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_search_bot_plays_as_pinned(game_id: str) -> None:
    assert search_game(game_id) == PINNED[game_id]["search"]


def main() -> None:
    """Print the digests of the code as it is now, to paste into PINNED."""
    found: dict[str, dict[str, str]] = {}
    for game_id, players in tables():
        found[f"{game_id} {players}p"] = {
            "random": random_games(game_id, players),
            "watched": watched_games(game_id, players),
            "bots": bot_games(game_id, players),
        }
        print(game_id, players, file=sys.stderr)
    for game_id in GAMES:
        found[game_id] = {"search": search_game(game_id)}
    print(json.dumps(found, indent=4))


if __name__ == "__main__":
    main()
