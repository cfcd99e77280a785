"""The fast observer: exactly the layout's encoding of the seat's view and its legal-action
mask, in every game and player count, in every world the seat cannot tell apart, and a clear
error that writes nothing on bad input."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from librt.strings import BytesWriter, write_f64_le, write_i16_le

from courtly.core import games, make
from courtly.core.errors import IllegalAction
from courtly.core.game import Game
from courtly.core.tensors import MAX_SLOTS
from courtly.rl.tensors import (
    Observer,
    action_mask,
    observation_tensor,
    scatter_kernel,
    tensor_writer,
    written,
)
from tests.core.test_contract import sampled_states

CASES = [
    (info.id, n) for info in games() if info.tensor_layout is not None for n in info.player_counts
]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]


@pytest.fixture(params=CASES, ids=IDS)
def game(request: pytest.FixtureRequest) -> Game:
    game_id, players = request.param
    return make(game_id, players=players)


@pytest.mark.parametrize("seed", range(4))
def test_observer_equals_the_layout_of_the_view_in_every_world(game: Game, seed: int) -> None:
    observer = Observer(game)
    rng = random.Random(seed)
    observation_out = np.full(observer.size, 7.0, dtype=np.float32)
    mask_out = np.full(game.num_actions, 7, dtype=np.int8)
    for state in sampled_states(game, seed, every=1):
        for seat in range(game.num_players):
            view = state.view(seat)
            expected = observation_tensor(view)
            expected_mask = action_mask(view)
            observation, mask = observer.observe(state, seat)
            assert observation.dtype == np.float32 and mask.dtype == np.int8
            assert np.array_equal(observation, expected)
            assert np.array_equal(mask, expected_mask)
            observer.write(state, seat, observation_out, mask_out)
            assert np.array_equal(observation_out, expected)
            assert np.array_equal(mask_out, expected_mask)
            observation_out.fill(7.0)
            observer.write_observation(state, seat, observation_out)
            assert np.array_equal(observation_out, expected)
            if seed == 0:  # the seat cannot tell these worlds from the truth
                world = view.determinize(rng)
                again, again_mask = observer.observe(world, seat)
                assert np.array_equal(again, expected)
                assert np.array_equal(again_mask, expected_mask)


@pytest.mark.parametrize("game_id", sorted({game_id for game_id, _ in CASES}))
def test_every_game_writes_from_the_state(game_id: str) -> None:
    game = make(game_id)
    assert tensor_writer(game) is not None
    assert Observer(game).writer is not None


def test_a_slot_named_twice_sums_in_float64_before_rounding() -> None:
    # The layout's list adds a slot's values in float64 and rounds once to float32; a writer
    # may name a slot twice (two cards of one kind), so the observer must sum the same way.
    game = make("royal-gambit", players=2)
    observer = Observer(game)
    third = 1 / 3

    def repeating(state: object, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
        for slot, value in [(4, third), (9, 0.1), *[(4, third)] * 4, (0, 0.5)]:
            write_i16_le(pairs, slot)
            write_f64_le(pairs, value)
        for slot in (0, 9, 0):
            write_i16_le(ones, slot)

    observer.writer = repeating
    state = game.new_state()
    expected = np.zeros(observer.size, np.float64)
    expected[4] = third + third + third + third + third
    expected[9] = 0.1 + 1.0  # the pairs' values first, then the ones
    expected[0] = 0.5 + 1.0 + 1.0
    observation, _ = observer.observe(state, 0)
    assert np.array_equal(observation, expected.astype(np.float32))
    in_float32 = np.float32(0.0)
    for _ in range(5):
        in_float32 = np.float32(in_float32 + np.float32(third))
    assert observation[4] != in_float32  # summing in float32 would have been caught
    out = np.full(observer.size, 5.0, np.float32)
    observer.write_observation(state, 1, out)
    assert np.array_equal(out, expected.astype(np.float32))


def test_observe_returns_fresh_arrays() -> None:
    game = make("royal-gambit", players=3)
    observer = Observer(game)
    state = sampled_states(game, 2, every=9)[3]
    first = observer.observe(state, 0)
    second = observer.observe(state, 0)
    assert first[0] is not second[0] and first[1] is not second[1]
    first[0][:] = 5.0
    assert not np.array_equal(first[0], second[0])


def test_bad_input_raises_and_writes_nothing() -> None:
    game = make("kings-court", players=3)
    observer = Observer(game)
    state = sampled_states(game, 1, every=9)[2]
    observation_out = np.full(observer.size, 3.0, dtype=np.float32)
    mask_out = np.full(game.num_actions, 3, dtype=np.int8)
    bad_calls = [
        (IllegalAction, (state, 3, observation_out, mask_out)),
        (IllegalAction, (state, -1, observation_out, mask_out)),
        (IllegalAction, (state, True, observation_out, mask_out)),
        (IllegalAction, (state, "p0", observation_out, mask_out)),
        (ValueError, (state, 0, observation_out[:-1], mask_out)),
        (ValueError, (state, 0, observation_out.astype(np.float64), mask_out)),
        (ValueError, (state, 0, observation_out, mask_out.astype(np.int32))),
        (ValueError, (state, 0, list(observation_out), mask_out)),
        (TypeError, (make("royal-gambit", players=3).new_state(), 0, observation_out, mask_out)),
        (TypeError, (make("kings-court", players=4).new_state(), 0, observation_out, mask_out)),
        (TypeError, (None, 0, observation_out, mask_out)),
    ]
    # Refused alike before and after the observer has checked a good state of its game (whose
    # class it then takes for a state's check).
    for _ in range(2):
        for error, arguments in bad_calls:
            with pytest.raises(error):
                observer.write(*arguments)  # type: ignore[arg-type]
            assert (observation_out == 3.0).all() and (mask_out == 3).all()
        observer.observe(state, 0)
    observer.write(state, np.int64(1), observation_out, None)  # NumPy seats are seats
    assert np.array_equal(observation_out, observation_tensor(state.view(1)))
    assert (mask_out == 3).all()  # no mask asked: none written


# The options that change what the two fast writers of Crush the Crown and Goths Save the Queen
# read (jokers, hand size, build rule; Fog of War, King card backs, solo clans, initiative), at
# every player count: the defaults above never lay a Fog token nor deal without jokers.
VARIANTS: list[tuple[str, int, dict[str, object]]] = [
    ("crush-the-crown", 2, {"use_jokers": False}),
    ("crush-the-crown", 2, {"hand_size": 12, "one_gov_card_per_build": False}),
    ("crush-the-crown", 2, {"hand_size": 1}),
    ("goths-save-the-queen", 2, {"fog_of_war": True}),
    ("goths-save-the-queen", 3, {"fog_of_war": True, "first_initiative": "visigoths"}),
    ("goths-save-the-queen", 4, {"fog_of_war": True}),
    (
        "goths-save-the-queen",
        4,
        {"fog_of_war": True, "king_backs": "vr,vb,rv,rc,cr,cb,bc,bv", "safety_cap": 6},
    ),
    ("goths-save-the-queen", 3, {"fog_of_war": True, "solo_clans": "ostrogoths"}),
]


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    VARIANTS,
    ids=[f"{game_id}-{n}p-{'-'.join(options)}" for game_id, n, options in VARIANTS],
)
@pytest.mark.parametrize("seed", range(3))
def test_the_writers_equal_the_view_with_every_option(
    game_id: str, players: int, options: dict[str, object], seed: int
) -> None:
    game = make(game_id, players=players, **options)
    observer = Observer(game)
    assert observer.writer is not None
    rng = random.Random(seed)
    for state in sampled_states(game, seed, every=1):
        for seat in range(game.num_players):
            view = state.view(seat)
            expected = observation_tensor(view)
            assert np.array_equal(observer.observe(state, seat)[0], expected)
            world = view.determinize(rng)  # a world the seat cannot tell from the truth
            assert np.array_equal(observer.observe(world, seat)[0], expected)


# God Save The King's writer (its tensor module) against the layout of the view, in every
# variant its options make: a route aimed at a slot (a choice the layout does not name), trick
# piles seen as they are won, the King kept from the outside slots with no repeat declaration
# and three routes a hand, and a safety cap that ends the game early. The tutorial plays the
# default two-player game, covered above and here.
GSK_VARIANTS = [
    {},
    {"route_window": "before_reveal"},
    {"trick_pile_private_until_hand_end": False},
    {"exposed_king_legal": False, "max_redeclare": 0, "routes_per_hand": 3},
    {"safety_cap": 2},
]


@pytest.mark.parametrize("players", (2, 3, 4))
@pytest.mark.parametrize("options", GSK_VARIANTS, ids=lambda o: ",".join(o) or "default")
def test_god_save_the_king_writes_the_view_layout_from_the_state(
    players: int, options: dict[str, object]
) -> None:
    game = make("god-save-the-king", players=players, **options)
    observer = Observer(game)
    assert observer.writer is not None  # the fast path, not the view's encoding
    rng = random.Random(players)
    for seed in range(2):
        states = sampled_states(game, seed, every=1)
        assert states[-1].is_terminal  # the end of the game, every card shown
        for state in states:
            for seat in range(players):
                expected = observation_tensor(state.view(seat))
                assert np.array_equal(observer.observe(state, seat)[0], expected)
                if not state.is_terminal:  # nor can the seat tell a world drawn from its view
                    world = state.view(seat).determinize(rng)
                    assert np.array_equal(observer.observe(world, seat)[0], expected)


# A writer's sinks name a slot in 16 bits: every layout must fit, and what a writer writes must
# read back as whole records (no partial pair) of slots inside its layout.
def test_every_layout_fits_the_writers_slots_and_writes_whole_records() -> None:
    for game_id, players in CASES:
        game = make(game_id, players=players)
        size = game.tensor_layout().size
        assert size <= MAX_SLOTS
        writer = tensor_writer(game)
        assert writer is not None
        for state in sampled_states(game, 0, every=5):
            for seat in range(players):
                ones, pairs = BytesWriter(), BytesWriter()
                writer(state, seat, ones, pairs)
                named, valued = written(ones.getvalue(), pairs.getvalue())
                assert all(slot < size for slot in named + [slot for slot, _ in valued])
                assert all(value != 0.0 for _, value in valued)


# Every writer names each slot at most once (Crush the Crown's two jokers of a pile are one pair
# of value 2), so the observer may assign the values rather than sum them: checked over random
# play of every game and count, the option variants above, every seat, and a world the seat
# cannot tell from the truth.
NO_REPEAT_CASES = (
    [(game_id, n, {}) for game_id, n in CASES]
    + VARIANTS
    + [("god-save-the-king", n, options) for n in (2, 3, 4) for options in GSK_VARIANTS[1:]]
)


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    NO_REPEAT_CASES,
    ids=[f"{game_id}-{n}p-{'-'.join(options)}" for game_id, n, options in NO_REPEAT_CASES],
)
def test_no_writer_names_a_slot_twice(
    game_id: str, players: int, options: dict[str, object]
) -> None:
    game = make(game_id, players=players, **options)
    writer = tensor_writer(game)
    assert writer is not None
    rng = random.Random(players)
    for seed in range(2):
        for state in sampled_states(game, seed, every=1):
            for seat in range(players):
                for seen in (state, state.view(seat).determinize(rng)):
                    ones, pairs = BytesWriter(), BytesWriter()
                    writer(seen, seat, ones, pairs)
                    named, valued = written(ones.getvalue(), pairs.getvalue())
                    slots = named + [slot for slot, _ in valued]
                    assert len(set(slots)) == len(slots)


# Goths' writer reads each clan's cell once rather than testing every cell: where both clans
# stand on one cell the view names only the first, and so must the writer; every barricade and
# revealed objective is written too.
@pytest.mark.parametrize("players", (2, 3, 4))
def test_goths_writes_two_clans_on_one_cell_as_the_view(players: int) -> None:
    game = make("goths-save-the-queen", players=players)
    observer = Observer(game)
    assert observer.writer is not None
    checked = 0
    for state in sampled_states(game, players, every=7):
        shared: Any = state.clone()
        shared.position[1] = shared.position[0]
        shared.barricade[:] = [cell % 2 == 0 for cell in range(len(shared.barricade))]
        shared.revealed_objectives = 0b101
        for seat in range(players):
            expected = observation_tensor(shared.view(seat))
            assert np.array_equal(observer.observe(shared, seat)[0], expected)
            checked += 1
    assert checked


# The writers need librt (an extra of the RL adapters); the engine must not: the browser's
# Pyodide runs it without librt. Without it every game still plays and lays out its tensor, and
# the adapters say what is missing.
WITHOUT_LIBRT = """
import sys

sys.modules["librt"] = None  # any import of librt now fails
import courtly
from courtly.core import play_randomly
import random
import subprocess
import sys

for info in courtly.games():
    if info.id.startswith("test-"):
        continue
    game = courtly.make(info.id)
    state = game.new_state()
    play_randomly(state, random.Random(0))
    assert state.is_terminal and game.tensor_layout().size > 0
try:
    import courtly.rl.tensors
except ModuleNotFoundError as error:
    print("missing", error.name)
"""


def test_the_engine_plays_without_librt_and_the_adapters_say_they_need_it() -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_LIBRT], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["missing", "librt.strings"]


# The C scatter where it is built (tests/rl/test_scatter.py builds it from its source), and the
# NumPy read-back.
SCATTERS = ["NumPy"] + (["C"] if scatter_kernel is not None else [])


@pytest.mark.parametrize("scatter", SCATTERS)
def test_a_writers_error_leaves_nothing_for_the_next_observation(scatter: str) -> None:
    game = make("royal-gambit", players=2)
    observer = Observer(game)
    if scatter == "NumPy":
        observer.scatter = None
    writer = observer.writer
    assert writer is not None
    failing: list[bool] = []  # whether each next call fails

    def half_written(state: Any, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
        if failing.pop():
            write_i16_le(ones, 7)
            write_i16_le(pairs, 3)  # a slot without its value: what a failed call may leave
            raise KeyError("the writer's own error")
        writer(state, seat, ones, pairs)

    observer.writer = half_written
    state = sampled_states(game, 0, every=5)[2]
    expected = observation_tensor(state.view(0))
    out = np.zeros(observer.size, np.float32)
    failing.append(True)
    with pytest.raises(KeyError):
        observer.observe(state, 0)
    failing.append(False)
    assert np.array_equal(observer.observe(state, 0)[0], expected)
    failing.append(True)
    with pytest.raises(KeyError):
        observer.write_observation(state, 0, out)
    failing.append(False)
    observer.write_observation(state, 0, out)
    assert np.array_equal(out, expected)
