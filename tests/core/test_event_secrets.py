"""EventSecrets.reveal_all (every secret shown at the end of a game, the end of every rollout)
notes exactly what noting each secret in turn notes, whoever shares the list of notes."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core import State, sample_chance
from courtly.core.events import PUBLIC, EventSecrets

CASES = [
    (info.id, players)
    for info in courtly.games()
    for players in info.player_counts
    if info.id != "royal-gambit"  # every card of it is played face up: it keeps no secrets
]


def reveal_one_by_one(secrets: EventSecrets, at: int) -> None:
    """The reference: each secret event noted public in the order of the history."""
    for index in sorted(secrets.knowers):
        secrets.note(at, index, PUBLIC)
    secrets.knowers.clear()


def positions(game_id: str, players: int, seed: int) -> list[State]:
    """States along a random game (secrets pending in most of them)."""
    rng = random.Random(seed)
    state = courtly.make(game_id, players=players).new_state()
    found: list[State] = []
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, rng)
        else:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if rng.random() < 0.2:
            found.append(state.clone())
    return found


def notes(secrets: EventSecrets) -> tuple[dict[int, int], list[int], int]:
    reveals = secrets.reveals
    held = [] if reveals is None else reveals[: secrets.reveal_count]
    return dict(secrets.knowers), held, secrets.reveal_count


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_reveal_all_notes_what_noting_each_secret_notes(game_id: str, players: int) -> None:
    checked = 0
    for state in positions(game_id, players, seed=players):
        at = len(state.history)
        # Alone, then sharing the list of notes with a copy that appended first (the copy
        # must take its own list, and the first keep its notes unchanged).
        for shared in (False, True):
            fast, slow = state.secrets.copy(), state.secrets.copy()
            if shared:
                first = state.secrets.copy()
                first.note(at, 0, PUBLIC)
                kept = notes(first)
            fast.reveal_all(at)
            reveal_one_by_one(slow, at)
            assert notes(fast) == notes(slow)
            assert fast == slow
            assert not fast.knowers
            if shared:
                assert notes(first) == kept
        checked += bool(state.secrets.knowers)
    assert checked  # some positions had secrets to show


def test_reveal_all_with_nothing_secret_notes_nothing() -> None:
    secrets = EventSecrets()
    secrets.reveal_all(7)
    assert notes(secrets) == ({}, [], 0)
    assert secrets.reveals is None


# ----------------------------------------------------------------------------- unnoted states


def all_cases() -> list[tuple[str, int]]:
    return [(info.id, players) for info in courtly.games() for players in info.player_counts]


@pytest.mark.parametrize(("game_id", "players"), all_cases())
def test_a_state_that_stops_noting_secrets_plays_the_same_game_and_shows_no_view(
    game_id: str, players: int
) -> None:
    """A search's world notes no secrets (State.stop_noting_secrets): the rules play exactly the
    game they play when noting them, the secrets stay as they were, and once the state has
    played on, its views and logs are refused rather than told from stale notes."""
    checked = 0
    for index, state in enumerate(positions(game_id, players, seed=players + 11)[::3]):
        if state.is_terminal:
            continue
        noted, quiet = state.clone(), state.clone()
        quiet.stop_noting_secrets()
        kept = notes(quiet.secrets)
        # Nothing played since: what a seat may know is still known.
        assert quiet.view(0).observation() == state.view(0).observation()
        assert quiet.log(None) == state.log(None)
        steps = noted.playout(random.Random(index), 12)
        assert quiet.playout(random.Random(index), 12) == steps
        assert quiet.history == noted.history
        assert quiet.to_move == noted.to_move and quiet.is_terminal == noted.is_terminal
        if noted.is_terminal:
            assert quiet.returns() == noted.returns()
        assert notes(quiet.secrets) == kept
        for copy in (quiet, quiet.clone()):
            with pytest.raises(RuntimeError, match="has no views or logs"):
                copy.view(0)
            with pytest.raises(RuntimeError, match="has no views or logs"):
                copy.view(None)
            with pytest.raises(RuntimeError, match="has no views or logs"):
                copy.log(0)
            with pytest.raises(RuntimeError, match="has no views or logs"):
                copy.log_from(0, 0)
        noted.view(0)  # (the state that kept noting still has them)
        checked += 1
    assert checked
