"""The longest game each game declares (``GameInfo.longest_game``) is a true bound: no game, at
any player count and option set, random or played by the game's own bots, lasts longer, in
decisions, in chance events or in history events. The bounds are derived from the rules in each
game's ``game.py``; these tests hold them to the engine's actual play, safety caps included."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from courtly.agents.registry import describe_game, make_agent
from courtly.core import CHANCE, GameInfo, GameLength, InvalidOptions, games, make, play_match
from courtly.core.events import Event
from courtly.core.game import Game
from courtly.core.match import play_randomly
from courtly.core.options import Option
from courtly.core.registry import describe, game_class
from courtly.core.replays import replay_record

CASES = [(info.id, n) for info in games() for n in info.player_counts]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]
SMALL_CAPS = (1, 2, 5)


def counted(history: list[Event]) -> GameLength:
    decisions = sum(1 for actor, _ in history if actor != CHANCE)
    return GameLength(decisions=decisions, chance=len(history) - decisions)


def assert_within(game: Game, history: list[Event]) -> None:
    bound = game.longest_game()
    seen = counted(history)
    where = f"{game!r}: {seen} against the declared {bound}"
    assert seen.decisions <= bound.decisions, where
    assert seen.chance <= bound.chance, where
    assert len(history) <= game.max_game_length() == bound.events, where


def extremes(option: Option) -> list[Any]:
    """Values of ``option`` at the edges of what it allows (where games run longest)."""
    if option.kind == "bool":
        return [not option.default]
    if option.choices:
        return [choice for choice in option.choices if choice != option.default]
    if option.kind == "int":
        low = int(option.minimum if option.minimum is not None else 0)
        high = int(option.maximum) if option.maximum is not None else 3 * int(option.default)
        return [low, high]
    return []


def option_sets(info: GameInfo) -> list[dict[str, Any]]:
    """The defaults, small safety caps, and each option at its edges, with the default cap and
    under a small one (so that a game that would run long meets its cap)."""
    capped = any(option.name == "safety_cap" for option in info.options)
    found: list[dict[str, Any]] = [{}]
    if capped:
        found += [{"safety_cap": cap} for cap in SMALL_CAPS]
    for option in info.options:
        if option.name == "safety_cap":
            continue
        for value in extremes(option):
            found.append({option.name: value})
            if capped:
                found.append({option.name: value, "safety_cap": 8})
    return found


def made(game_id: str, players: int, options: dict[str, Any]) -> Game | None:
    try:
        return make(game_id, players=players, **options)
    except InvalidOptions:
        return None  # a combination the game refuses (Goths' solo clans and seat counts)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_no_random_game_outlasts_the_declared_longest_game(game_id: str, players: int) -> None:
    info = make(game_id, players=players).info
    rng = random.Random(f"{game_id}/{players}")
    for options in option_sets(info):
        game = made(game_id, players, options)
        if game is None:
            continue
        for _ in range(25):
            state = game.new_state()
            play_randomly(state, rng)
            assert state.is_terminal
            assert_within(game, state.history)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_no_game_of_the_default_bots_outlasts_the_declared_longest_game(
    game_id: str, players: int
) -> None:
    info = make(game_id, players=players).info
    for options in option_sets(info):
        game = made(game_id, players, options)
        if game is None:
            continue
        agents = [make_agent(info.default_bot, game) for _ in range(players)]
        for seed in range(2):
            record = play_match(game, agents, seed)
            assert_within(game, replay_record(record).history)


def drawn_options(data: st.DataObject, info: GameInfo) -> dict[str, Any]:
    """Any allowed value of every option; the safety cap kept small so that games meet it."""
    options: dict[str, Any] = {}
    for option in info.options:
        if option.name == "safety_cap":
            cap = st.one_of(st.integers(1, 12), st.just(option.default))
            options[option.name] = data.draw(cap, label="safety_cap")
        elif option.kind == "bool":
            options[option.name] = data.draw(st.booleans(), label=option.name)
        elif option.choices:
            options[option.name] = data.draw(st.sampled_from(option.choices), label=option.name)
        elif option.kind == "int":
            low = int(option.minimum if option.minimum is not None else 0)
            high = int(option.maximum) if option.maximum is not None else 3 * int(option.default)
            options[option.name] = data.draw(st.integers(low, high), label=option.name)
    return options


@settings(max_examples=150)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_any_options_any_random_game_stays_within_the_declared_longest_game(
    case: tuple[str, int], seed: int, data: st.DataObject
) -> None:
    game_id, players = case
    info = make(game_id, players=players).info
    game = made(game_id, players, drawn_options(data, info))
    if game is None:
        return
    state = game.new_state()
    play_randomly(state, random.Random(seed))
    assert_within(game, state.history)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_every_game_declares_its_longest_game_and_a_larger_cap_never_shortens_it(
    game_id: str, players: int
) -> None:
    game = make(game_id, players=players)
    bound = game.longest_game()
    assert bound.decisions > 0 and bound.chance >= 0
    assert game.max_game_length() == bound.events == bound.decisions + bound.chance
    if any(option.name == "safety_cap" for option in game.info.options):
        lengths = [
            make(game_id, players=players, safety_cap=cap).max_game_length() for cap in (1, 2, 50)
        ]
        assert lengths == sorted(lengths) and lengths[0] < lengths[-1]


def test_the_longest_game_is_listed_per_player_count_with_the_default_options() -> None:
    for info in games():
        listed = describe(game_class(info.id))["longest_game"]
        assert [entry["players"] for entry in listed] == list(info.player_counts)
        for entry in listed:
            bound = make(info.id, players=entry["players"]).longest_game()
            assert entry == {
                "players": entry["players"],
                "decisions": bound.decisions,
                "chance": bound.chance,
                "events": bound.events,
            }
        assert json.loads(json.dumps(describe_game(info)))["longest_game"] == listed


def test_a_game_that_declares_no_longest_game_says_so() -> None:
    from ..toy_games import SealedBids

    class Undeclared(SealedBids):
        info = GameInfo(
            id="test-undeclared",
            title="Undeclared (test only)",
            min_players=2,
            max_players=2,
            summary="No longest game.",
            text=SealedBids.info.text,
            views=SealedBids.info.views,
        )

    with pytest.raises(NotImplementedError, match="test-undeclared declares no longest game"):
        Undeclared(2).max_game_length()
    assert describe(Undeclared)["longest_game"] is None
