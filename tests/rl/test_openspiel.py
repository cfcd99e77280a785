"""Every game as an OpenSpiel game: OpenSpiel's own random simulation test, its ISMCTS bot
searching a Courtly game, and information states that hold only what a seat knows."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from courtly.core import games
from courtly.rl.openspiel import GAME_NAMES, game_name

CASES = [
    (info.id, n) for info in games() if not info.id.startswith("test-") for n in info.player_counts
]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]


def test_every_game_is_registered() -> None:
    assert game_name("royal-gambit") == "python_courtly_royal_gambit"
    assert set(GAME_NAMES) <= set(pyspiel.registered_names())
    assert len(GAME_NAMES) == 5


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_random_sim_test_passes(game_id: str, players: int) -> None:
    game = pyspiel.load_game(game_name(game_id), {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_parameters_are_the_game_options() -> None:
    game = pyspiel.load_game("python_courtly_royal_gambit", {"players": 3, "target_score": 40})
    assert game.get_parameters()["target_score"] == 40
    assert game.courtly.options["target_score"] == 40  # type: ignore[attr-defined]
    assert game.num_distinct_actions() == game.courtly.num_actions  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="target_score"):
        pyspiel.load_game("python_courtly_royal_gambit", {"target_score": -5})


@pytest.mark.parametrize("game_id", sorted({game_id for game_id, _ in CASES}))
def test_openspiel_ismcts_plays_courtly_games(game_id: str) -> None:
    game = pyspiel.load_game(game_name(game_id))
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 40, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 4:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [o for o, _ in outcomes] == sorted(o for o, _ in outcomes)
            state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 0


@pytest.mark.parametrize("game_id", ["god-save-the-king", "crush-the-crown", "kings-court"])
def test_information_states_are_the_same_in_every_world_the_seat_cannot_tell_apart(
    game_id: str,
) -> None:
    game = pyspiel.load_game(game_name(game_id))
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    while checked < 30:
        if state.is_terminal():  # random play ends some games at once: another one
            state = game.new_initial_state()
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        tensor = state.information_state_tensor(player)
        for _ in range(2):
            world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
            assert world.information_state_string(player) == key
            assert world.information_state_tensor(player) == tensor
            assert world.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
        checked += 1


def test_states_serialize_and_pickle_with_their_keys() -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game("python_courtly_royal_gambit"), num_sims=1, serialize=True, verbose=False
    )
    game = pyspiel.load_game("python_courtly_kings_court", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.move_number() < 12 or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    copy = state.clone()
    assert copy.history() == state.history()
    assert copy.information_state_string(player) == state.information_state_string(player)
