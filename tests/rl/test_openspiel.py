"""Every game as an OpenSpiel game: OpenSpiel's own random simulation test, its ISMCTS bot
searching a Courtly game, information states (keys, readable strings, perfect-recall tensors)
that hold only what a seat knows and tell apart the same information sets, and OpenSpiel's
exploitability on a tiny configuration."""

from __future__ import annotations

import inspect
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy
from open_spiel.python.algorithms import exploitability, ismcts, mcts
from open_spiel.python.observation import make_observation

from courtly.core import games, make
from courtly.core.errors import IllegalAction
from courtly.core.events import CHANCE
from courtly.rl.openspiel import GAME_NAMES, TINY, game_name
from courtly.rl.recall import decisions_from_history
from courtly.rl.tensors import observation_tensor, set_from_kernel

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


@pytest.mark.parametrize("game_id", sorted({game_id for game_id, _ in CASES}))
def test_random_sim_test_passes_with_readable_strings_and_perfect_recall(game_id: str) -> None:
    parameters = {"safety_cap": 3, "infostate": "readable", "infostate_tensor": "perfect_recall"}
    game = pyspiel.load_game(game_name(game_id), parameters)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


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


INFORMATION = [
    ({}),
    ({"infostate": "readable"}),
    # A small safety cap keeps the perfect-recall vector small (its size follows the bound).
    ({"infostate_tensor": "perfect_recall", "safety_cap": 10}),
]


@pytest.mark.parametrize("parameters", INFORMATION, ids=["key", "readable", "perfect_recall"])
@pytest.mark.parametrize("game_id", ["god-save-the-king", "crush-the-crown", "kings-court"])
def test_information_states_are_the_same_in_every_world_the_seat_cannot_tell_apart(
    game_id: str, parameters: dict[str, Any]
) -> None:
    game = pyspiel.load_game(game_name(game_id), parameters)
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
        if checked % 10 == 0:  # the others' information states in a world: built from it
            for seat in range(game.num_players()):
                assert len(world.information_state_tensor(seat)) == len(tensor)
                assert world.information_state_string(seat).startswith(f"p{seat}")
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


def _play(state: Any, rng: random.Random, steps: int) -> None:
    """Random play until `steps` decisions are made, stopping at a decision (or the end)."""
    while not state.is_terminal() and (steps > 0 or state.is_chance_node()):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            steps -= 1


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_is_constant_sum(name: str) -> None:
    game = pyspiel.load_game(name)
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.utility_sum() == 1.0
    state = game.new_initial_state()
    _play(state, random.Random(1), 10_000)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_exploitability_runs_on_a_tiny_kings_court() -> None:
    game = pyspiel.load_game(game_name("kings-court"), TINY["kings-court"])
    uniform = exploitability.exploitability(game, policy.UniformRandomPolicy(game))
    assert 0.05 < uniform < 1.0
    # Keys asked at some nodes only (the best response's walk) are the keys of the policy table
    # (every node), and a walk's clones keep them: the two measures agree.
    assert exploitability.nash_conv(game, policy.UniformRandomPolicy(game)) == pytest.approx(
        2 * uniform
    )


def _decision_nodes(state: Any, found: list[Any]) -> list[Any]:
    if state.is_terminal():
        return found
    if state.is_chance_node():
        for action, _ in state.chance_outcomes():
            _decision_nodes(state.child(action), found)
        return found
    found.append(state)
    for action in state.legal_actions():
        _decision_nodes(state.child(action), found)
    return found


def test_keys_readable_strings_and_recall_tensors_tell_apart_the_same_information_sets() -> None:
    parameters = {**TINY["kings-court"], "infostate_tensor": "perfect_recall"}
    keyed = pyspiel.load_game(game_name("kings-court"), parameters)
    readable = pyspiel.load_game(game_name("kings-court"), {**parameters, "infostate": "readable"})
    nodes = _decision_nodes(keyed.new_initial_state(), [])
    texts = _decision_nodes(readable.new_initial_state(), [])  # the same walk
    by_key: dict[str, set[int]] = {}
    by_text: dict[str, set[int]] = {}
    by_tensor: dict[bytes, set[int]] = {}
    for index, (node, twin) in enumerate(zip(nodes, texts, strict=True)):
        assert twin.history() == node.history()
        player = node.current_player()
        text = twin.information_state_string(player)
        assert text.startswith(f"p{player}\n")
        by_key.setdefault(node.information_state_string(player), set()).add(index)
        by_text.setdefault(text, set()).add(index)
        tensor = np.asarray(node.information_state_tensor(player), np.float32)
        by_tensor.setdefault(bytes([player]) + tensor.tobytes(), set()).add(index)
    sets = {frozenset(group) for group in by_key.values()}
    assert len(sets) < len(nodes)  # some nodes share an information set
    assert {frozenset(group) for group in by_text.values()} == sets
    assert {frozenset(group) for group in by_tensor.values()} == sets


def test_the_key_does_not_depend_on_when_it_was_asked_for() -> None:
    game = pyspiel.load_game(game_name("kings-court"), {"players": 3})
    asked, silent = game.new_initial_state(), game.new_initial_state()
    rng = random.Random(5)
    for _ in range(40):
        if asked.is_terminal():
            break
        for player in range(3):
            asked.information_state_string(player)
        if asked.is_chance_node():
            action = rng.choice(asked.chance_outcomes())[0]
        else:
            action = rng.choice(asked.legal_actions())
        asked.apply_action(action)
        silent.apply_action(action)
    for player in range(3):
        assert asked.information_state_string(player) == silent.information_state_string(player)


def test_the_perfect_recall_tensor_holds_each_decision_and_the_observation_now() -> None:
    game = pyspiel.load_game(
        game_name("royal-gambit"), {"safety_cap": 2, "infostate_tensor": "perfect_recall"}
    )
    courtly = game.courtly  # type: ignore[attr-defined]
    size, actions = courtly.tensor_layout().size, courtly.num_actions
    slots = courtly.longest_game().decisions
    assert game.information_state_tensor_shape() == [slots * (size + actions) + size]
    assert game.observation_tensor_shape() == [size]
    state = game.new_initial_state()
    _play(state, random.Random(2), 12)
    for seat in range(2):
        # What the seat saw at each of its decisions, found again by replaying the history.
        replayed = make("royal-gambit", safety_cap=2).new_state()
        expected: list[tuple[np.ndarray, int]] = []
        for actor, item in state.courtly.history:
            if actor == CHANCE:
                replayed.apply_chance(item)
                continue
            if actor == seat:
                expected.append((observation_tensor(replayed.view(seat)), item.id))
            replayed.apply(actor, item)
        assert expected
        tensor = np.asarray(state.information_state_tensor(seat), np.float32)
        decisions = tensor[: slots * (size + actions)].reshape(slots, size + actions)
        for slot, (observation, action) in enumerate(expected):
            assert np.array_equal(decisions[slot, :size], observation)
            assert np.flatnonzero(decisions[slot, size:]).tolist() == [action]
        assert not decisions[len(expected) :].any()
        now = observation_tensor(state.courtly.view(seat))
        assert np.array_equal(tensor[-size:], now)
        assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), now)


@pytest.mark.parametrize("game_id", ["royal-gambit", "kings-court", "god-save-the-king"])
def test_a_mover_observed_by_a_recall_observer_is_not_written_again_at_its_move(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A learner reads the mover's perfect-recall tensor, then moves: the decision record takes
    # the observation just written rather than writing it again; every record still equal to
    # the seat's view as it decided (replayed), and a move no observer saw still recorded.
    game = pyspiel.load_game(
        game_name(game_id), {"safety_cap": 3, "infostate_tensor": "perfect_recall"}
    )
    recall, courtly = game.recall, game.courtly  # type: ignore[attr-defined]
    written = []
    decision = recall.decision
    monkeypatch.setattr(
        recall, "decision", lambda *args: written.append(args[1:]) or decision(*args)
    )
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(4)
    moves = unseen = 0
    while moves < 30:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _play(state, rng, 0)
                continue
            mover = state.current_player()
            if rng.random() < 0.8:
                observation.set_from(state, mover)
                if rng.random() < 0.5:  # another seat observed after the mover changes nothing
                    observation.set_from(state, (mover + 1) % game.num_players())
            else:
                unseen += 1
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        for seat in range(game.num_players()):
            expected = decisions_from_history(courtly, state.courtly.history, seat)
            recorded = state.seat_decisions(seat)
            assert [action for _, action in recorded] == [action for _, action in expected]
            for (mine, _), (replayed, _) in zip(recorded, expected, strict=True):
                assert np.array_equal(mine, replayed)
    assert 0 < unseen < moves
    assert len(written) == unseen  # the observed moves were not written again


def test_a_sampled_world_replays_the_other_seats_decisions() -> None:
    game = pyspiel.load_game(
        game_name("kings-court"), {"safety_cap": 6, "infostate_tensor": "perfect_recall"}
    )
    courtly = game.courtly  # type: ignore[attr-defined]
    state = game.new_initial_state()
    _play(state, random.Random(4), 9)
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
    other = 1 - player
    rebuilt = game.new_initial_state()  # the world's own history, played through the adapter
    for actor, item in world.courtly.history:
        rebuilt.apply_action(courtly.chance_outcome_id(item) if actor == CHANCE else item.id)
    assert world.information_state_tensor(other) == rebuilt.information_state_tensor(other)
    assert world.information_state_tensor(player) == state.information_state_tensor(player)
    # Play on in the world (as a search does), the other seat's decisions never yet asked for.
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
    rebuilt = game.new_initial_state()
    for actor, item in world.courtly.history:
        rebuilt.apply_action(courtly.chance_outcome_id(item) if actor == CHANCE else item.id)
    rng = random.Random(8)
    for _ in range(6):
        if world.is_terminal():
            break
        if world.is_chance_node():
            action = rng.choice(world.chance_outcomes())[0]
        else:
            action = rng.choice(world.legal_actions())
        world.apply_action(action)
        rebuilt.apply_action(action)
    for seat in range(2):
        assert world.information_state_tensor(seat) == rebuilt.information_state_tensor(seat)


@pytest.mark.parametrize(
    ("parameter", "value"), [("infostate", "pretty"), ("infostate_tensor", "history")]
)
def test_a_bad_information_choice_is_refused_by_name(parameter: str, value: str) -> None:
    with pytest.raises(Exception, match=f"{parameter} must be one of .*not '{value}'"):
        pyspiel.load_game(game_name("royal-gambit"), {parameter: value})


def test_the_information_choices_are_game_parameters_that_survive_serialization() -> None:
    parameters = {**TINY["kings-court"], "infostate": "readable"}
    game = pyspiel.load_game(
        game_name("kings-court"), {**parameters, "infostate_tensor": "perfect_recall"}
    )
    assert game.get_parameters()["infostate"] == "readable"
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    default = pyspiel.load_game(game_name("kings-court"))
    assert default.get_parameters()["infostate"] == "key"
    assert default.information_state_tensor_shape() == default.observation_tensor_shape()
    with pytest.raises(ValueError, match="only with infostate_tensor='perfect_recall'"):
        default.new_initial_state().seat_decisions(0)


def test_a_clone_keeps_the_game_instead_of_rebuilding_it() -> None:
    game = pyspiel.load_game(game_name("royal-gambit"))
    state = game.new_initial_state()
    _play(state, random.Random(0), 5)
    copies = [state.clone(), state.child(state.legal_actions()[0])]
    for copy in copies:  # OpenSpiel's clone deep-copies each attribute of the state
        assert copy.courtly.game is state.courtly.game
        assert copy.courtly is not state.courtly
    assert copies[0].courtly == state.courtly
    assert len(copies[1].courtly.history) == len(state.courtly.history) + 1


def test_an_observer_shared_between_states_and_seats_writes_each_one_whole() -> None:
    game = pyspiel.load_game(
        game_name("kings-court"), {"safety_cap": 8, "infostate_tensor": "perfect_recall"}
    )
    kind = pyspiel.IIGObservationType(perfect_recall=True)
    shared = make_observation(game, kind)
    state = game.new_initial_state()
    rng = random.Random(6)
    earlier = []
    while not state.is_terminal():
        _play(state, rng, 1)
        earlier.append(state.clone())
        # The same seat again, the other seat, an earlier state, a later one: each whole.
        for seen, seat in [(state, 0), (state, 0), (state, 1), (earlier[len(earlier) // 2], 0)]:
            shared.set_from(seen, seat)
            fresh = make_observation(game, kind)
            fresh.set_from(seen, seat)
            assert np.array_equal(shared.tensor, fresh.tensor)
    assert len(earlier) > 5


@pytest.mark.parametrize("game_id", ["royal-gambit", "kings-court", "goths-save-the-queen"])
def test_the_initial_state_observation_is_written_once_and_equal_every_time(game_id: str) -> None:
    # pyspiel observes a fresh initial state at every observation_tensor call (for the shape):
    # the observer keeps each seat's observation of it, which must stay the reference's, also
    # when other states were observed in between and for an invalid seat.
    game = pyspiel.load_game(game_name(game_id), {"players": 3})
    courtly = make(game_id, players=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(3):
        for seat in range(3):
            expected = observation_tensor(courtly.new_state().view(seat))
            assert np.array_equal(game.new_initial_state().observation_tensor(seat), expected)
            now = observation_tensor(state.courtly.view(seat))
            assert np.array_equal(state.observation_tensor(seat), now)
        _play(state, rng, 5)
    with pytest.raises(Exception):  # noqa: B017 - pyspiel's own error type
        game.new_initial_state().observation_tensor(7)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_initial_states_are_fresh_states_the_play_of_another_never_touches(
    game_id: str, players: int
) -> None:
    # Every initial state is a clone of one the game keeps: equal to a state the Courtly game
    # builds, and whole again after another initial state was played to its end.
    game = pyspiel.load_game(game_name(game_id), {"players": players})
    courtly = make(game_id, players=players)
    rng = random.Random(players)
    for _ in range(2):
        played, untouched = game.new_initial_state(), game.new_initial_state()
        assert played.courtly == courtly.new_state()
        assert played.courtly is not untouched.courtly
        _play(played, rng, 10_000)
        assert played.is_terminal()
        assert untouched.courtly == courtly.new_state()
        assert not untouched.courtly.history
        assert game.new_initial_state().courtly == courtly.new_state()


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_legal_actions_and_chance_outcomes_are_the_states_own_in_id_order(
    game_id: str, players: int
) -> None:
    # The reference: the Courtly state's own lists, numbered by the game and sorted by id, at
    # every node of seeded random play.
    game = pyspiel.load_game(game_name(game_id), {"players": players})
    rng = random.Random(players)
    nodes = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            courtly = state.courtly
            nodes += 1
            if state.is_chance_node():
                expected = sorted(
                    (courtly.game.chance_outcome_id(outcome), p)
                    for outcome, p in courtly.chance_outcomes()
                )
                assert state.chance_outcomes() == expected
                state.apply_action(rng.choice(expected)[0])
                continue
            player = state.current_player()
            assert player == courtly.to_move[0]
            legal = sorted(action.id for action in courtly.legal_actions(player))
            assert state.legal_actions(player) == legal == state.legal_actions()
            for seat in range(players):
                if seat != player:
                    assert state.legal_actions(seat) == []
            state.apply_action(rng.choice(legal))
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert nodes > 20


@pytest.mark.parametrize("game_id", sorted({game_id for game_id, _ in CASES}))
def test_chance_outcomes_are_numbered_alike_for_copies_and_deserialized_states(
    game_id: str,
) -> None:
    # The adapter numbers the game's own outcome objects by identity: an equal copy of each
    # (unpickled) gets the same ids, and a state rebuilt from its serialization (in another
    # game object, with other outcome objects) lists the same outcomes as the original.
    game = pyspiel.load_game(game_name(game_id), {"players": 2})
    rng = random.Random(5)
    state, chance_nodes, games_played = game.new_initial_state(), 0, 0
    while chance_nodes < 6 and games_played < 50:
        if state.is_terminal():  # a game with few chance events: play another
            state, games_played = game.new_initial_state(), games_played + 1
        elif state.is_chance_node():
            chance_nodes += 1
            expected = state.chance_outcomes()
            courtly = state.courtly
            copies = pickle.loads(pickle.dumps(courtly.chance_outcomes()))
            assert all(
                copy is not outcome
                for (copy, _), (outcome, _) in zip(copies, courtly.chance_outcomes(), strict=True)
            )
            assert state.position.chance_ids.numbered(copies) == expected
            numbering = pickle.loads(pickle.dumps(state.position.chance_ids))
            assert numbering.numbered(copies) == expected  # numbers its own objects, not ours
            assert numbering.by_identity == {id(o): i for i, o in enumerate(numbering.space)}
            rebuilt = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state)
            )[1]
            unpickled = pickle.loads(pickle.dumps(state))
            for copy in (rebuilt, unpickled):
                assert copy.chance_outcomes() == expected
                space = copy.courtly.game.chance_outcome_space  # the copy's own objects
                numbering = copy.position.chance_ids.by_identity
                assert numbering == {id(outcome): i for i, outcome in enumerate(space)}
            state.apply_action(rng.choice(expected)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance_nodes > 0


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_python_callers_get_what_pyspiels_own_methods_answer(game_id: str, players: int) -> None:
    # is_chance_node, legal_actions and observation_tensor answer Python callers straight from
    # the Courtly state: equal to pyspiel's own (C++) methods at every node, for every seat and
    # the default one, with one observer of the game's writing every state and seat in turn.
    game = pyspiel.load_game(game_name(game_id), {"players": players})
    rng = random.Random(players)
    earlier: list[Any] = []
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() is pyspiel.State.is_chance_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for seat in range(players):
                assert state.legal_actions(seat) == pyspiel.State.legal_actions(state, seat)
                assert state.legal_actions(np.int64(seat)) == state.legal_actions(seat)
                listed = state.observation_tensor(seat)
                assert type(listed) is list
                assert listed == pyspiel.State.observation_tensor(state, seat)
                assert np.array_equal(listed, observation_tensor(state.courtly.view(seat)))
                informed = state.information_state_tensor(seat)
                assert informed == pyspiel.State.information_state_tensor(state, seat)
            if not state.is_terminal() and not state.is_chance_node():
                mover = state.current_player()
                assert state.observation_tensor() == state.observation_tensor(mover)
            if earlier:  # another state observed in between changes nothing of this one's
                other = rng.choice(earlier)
                seat = rng.randrange(players)
                assert other.observation_tensor(seat) == pyspiel.State.observation_tensor(
                    other, seat
                )
            earlier.append(state.clone())
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(rng.choice(legal))


def test_python_callers_get_pyspiels_errors_for_bad_players() -> None:
    game = pyspiel.load_game(game_name("royal-gambit"), {"players": 3})
    state = game.new_initial_state()
    _play(state, random.Random(0), 2)
    for bad in (-1, 3, 99):
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor(bad)
        with pytest.raises(pyspiel.SpielError):
            pyspiel.State.observation_tensor(state, bad)
        with pytest.raises(pyspiel.SpielError):
            state.information_state_tensor(bad)
    with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
        state.legal_actions(-1)
    assert state.legal_actions(99) == pyspiel.State.legal_actions(state, 99) == []
    for bad_type in (1.0, "1", True):
        with pytest.raises(TypeError):
            state.observation_tensor(bad_type)
        with pytest.raises(TypeError):
            state.legal_actions(bad_type)
    chance = game.new_initial_state()
    assert chance.is_chance_node()
    with pytest.raises(pyspiel.SpielError):  # no player to observe for at a chance node
        chance.observation_tensor()
    assert chance.legal_actions() == pyspiel.State.legal_actions(chance)
    history = state.history()
    assert state.history() == history  # nothing applied by the refusals


def test_a_mostly_zero_tensor_is_listed_as_tolist_lists_it() -> None:
    from courtly.rl.openspiel import _floats

    zeros = [0.0] * 40
    for filled in ([], [3], [0, 39], list(range(0, 40, 3)), list(range(40))):
        tensor = np.zeros(40, np.float32)
        tensor[filled] = np.float32(1 / 3)
        tensor[20] = -0.0  # a negative zero keeps its sign
        listed = _floats(tensor, zeros)
        assert listed == tensor.tolist()
        assert [np.signbit(value) for value in listed] == list(np.signbit(tensor))
    assert zeros == [0.0] * 40


@pytest.mark.parametrize("game_id", sorted({game_id for game_id, _ in CASES}))
def test_python_callers_get_pyspiels_perfect_recall_tensor(game_id: str) -> None:
    # The perfect-recall information-state tensor listed for Python callers is pyspiel's own,
    # for every seat, at decisions along a seeded game (a shared observer writing each in turn).
    parameters = {"players": 2, "safety_cap": 3, "infostate_tensor": "perfect_recall"}
    game = pyspiel.load_game(game_name(game_id), parameters)
    rng = random.Random(7)
    state, compared = game.new_initial_state(), 0
    while not state.is_terminal() and compared < 8:
        if not state.is_chance_node():
            for seat in range(2):
                listed = state.information_state_tensor(seat)
                assert listed == pyspiel.State.information_state_tensor(state, seat)
                assert len(listed) == game.information_state_tensor_size()
            compared += 1
        _play(state, rng, 1)
    assert compared > 0


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_the_observation_buffer_is_the_views_vector_for_every_seat(
    game_id: str, players: int
) -> None:
    # OpenSpiel's buffer path (make_observation, set_from, .tensor), as its Python algorithms
    # read it: one observer for every state and seat in turn, the seat as an int or a NumPy
    # int, exactly the vector of the seat's view at every node of seeded random play.
    game = pyspiel.load_game(game_name(game_id), {"players": players})
    observation = make_observation(game)
    buffer = observation.tensor
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            for seat in range(players):
                expected = observation_tensor(state.courtly.view(seat))
                observation.set_from(state, seat)
                assert observation.tensor is buffer and np.array_equal(buffer, expected)
                buffer.fill(5.0)
                observation.set_from(state, np.int64(seat))
                assert np.array_equal(buffer, expected)
                buffer.fill(5.0)
                observation.set_from(state, seat)
                assert np.array_equal(buffer, expected)
            if state.is_terminal():
                break
            _play(state, rng, 1)


def test_the_observer_sets_from_a_state_in_one_c_call_where_built() -> None:
    # OpenSpiel's set_from at every step: the C call where the kernels are built, unless
    # decisions are kept for a perfect-recall tensor; the observer's Python method otherwise.
    default = pyspiel.load_game(game_name("royal-gambit"))
    recall = pyspiel.load_game(game_name("royal-gambit"), {"infostate_tensor": "perfect_recall"})
    kind = pyspiel.IIGObservationType(perfect_recall=True)
    observers = [make_observation(default), make_observation(recall, kind)]
    if set_from_kernel is None:
        assert all(inspect.ismethod(observer.set_from) for observer in observers)
    else:
        assert type(observers[0].set_from) is set_from_kernel
        assert inspect.ismethod(observers[1].set_from)


def test_the_observation_buffer_refuses_bad_players_and_states_writing_nothing() -> None:
    other = pyspiel.load_game(game_name("kings-court"), {"players": 4})
    foreign = other.new_initial_state()
    _play(foreign, random.Random(2), 3)
    for perfect_recall in (False, True):
        params: dict[str, Any] = {"players": 3, "safety_cap": 4}
        if perfect_recall:
            params["infostate_tensor"] = "perfect_recall"
        game = pyspiel.load_game(game_name("kings-court"), params)
        kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall)
        observation = make_observation(game, kind)
        state = game.new_initial_state()
        _play(state, random.Random(2), 3)
        observation.set_from(state, 1)
        written = observation.tensor.copy()
        for bad in (-1, 3, True, 1.0, "1", None):
            with pytest.raises(IllegalAction, match="not a seat"):
                observation.set_from(state, bad)
            assert np.array_equal(observation.tensor, written)
        # a state of another configuration of the game
        with pytest.raises(TypeError, match="expected a state of"):
            observation.set_from(foreign, 1)
        assert np.array_equal(observation.tensor, written)
