"""Worlds drawn from a seat's view (``view.determinize``) are proper states: the seat cannot tell
them from the truth, and their history is a real one that replays to them, draw by draw."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import courtly
from courtly.core.events import CHANCE, HIDDEN
from courtly.core.game import sample_chance
from courtly.core.match import play_randomly
from courtly.core.persist import fields_of
from courtly.games.kings_court.components import CARD_BIT
from courtly.games.kings_court.rules import KingsCourtState

from .helpers import arrange, new_game, play

CACHES = {"world_plan", "_draw_at"}
"""Fields that are not the position: a view's plan of worlds, a sampler's hint."""

OPTION_SETS = [
    {},
    {"initial_hand_size": 3},
    {"prefilter_unused_suits": False},
    {"track_length": 80},  # long games: reshuffles, Kings and Queens again and again
]


def position(state: KingsCourtState) -> dict[str, object]:
    """Every field of ``state`` that makes the position (the history is compared apart)."""
    fields = fields_of(state)
    # The game's own objects, and when events were revealed (how a log is resumed, not the
    # position: a world drawn from a view carries its view's): only which events are secret.
    apart = CACHES | {"history", "game", "tables"}
    found = {k: v for k, v in fields.items() if k not in apart}
    found["secrets"] = state.secrets.knowers
    return found


def decision_points(
    players: int, seed: int, count: int = 0, **options: object
) -> list[KingsCourtState]:
    """Copies of the decision points met along a random game (``count`` of them, spread along
    it; 0: all)."""
    state = courtly.make("kings-court", players=players, **options).new_state()
    rng = random.Random(seed)
    found: list[KingsCourtState] = []
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        copy = state.clone()
        assert isinstance(copy, KingsCourtState)
        found.append(copy)
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    if count:
        step = max(1, len(found) // count)
        found = found[step - 1 :: step][:count]
    return found


def check_world(truth: KingsCourtState, seat: int | None, world: KingsCourtState) -> None:
    view = truth.view(seat)
    assert world.to_move == truth.to_move
    assert world.view(seat).observation() == view.observation()
    assert world.render(seat) == view.render()
    if seat is not None:
        assert [a.id for a in world.legal_actions(seat)] == [a.id for a in view.legal_actions()]
    assert not world._partial
    assert all(item is not HIDDEN for _, item in world.history)
    loaded = courtly.load(world.to_json())
    assert isinstance(loaded, KingsCourtState)
    assert position(loaded) == position(world)
    assert loaded.history_text() == world.history_text()
    assert loaded.secrets.knowers == world.secrets.knowers


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_a_world_is_inside_every_seats_information_and_replays_to_itself(
    players: int, options: dict[str, object]
) -> None:
    rng = random.Random(players)
    for truth in decision_points(players, seed=players, count=12, **options):
        for seat in [None, *range(players)]:
            world = truth.view(seat).determinize(rng)
            assert isinstance(world, KingsCourtState)
            check_world(truth, seat, world)


@settings(max_examples=15, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.integers(0, 400),
    st.sampled_from(OPTION_SETS),
)
def test_any_decision_point_gives_worlds_that_replay(
    players: int, seed: int, cut: int, options: dict[str, object]
) -> None:
    points = decision_points(players, seed, **options)
    truth = points[min(cut, len(points) - 1)]
    rng = random.Random(seed)
    for seat in [None, *range(players)]:
        world = truth.view(seat).determinize(rng)
        assert isinstance(world, KingsCourtState)
        check_world(truth, seat, world)


def test_a_world_pickles_and_plays_on_like_its_replay() -> None:
    truth = decision_points(3, seed=11, track_length=60)[-1]
    world = truth.view(1).determinize(random.Random(1))
    assert isinstance(world, KingsCourtState)
    shipped = pickle.loads(pickle.dumps(world))
    loaded = courtly.load(world.to_json())
    assert isinstance(shipped, KingsCourtState) and isinstance(loaded, KingsCourtState)
    assert position(shipped) == position(world) == position(loaded)
    # Even the draw pile is in the order the history gives it: the same draws follow.
    for state in (world, loaded):
        play_randomly(state, random.Random(7))
    assert world.history_text() == loaded.history_text()


def test_drawing_worlds_leaves_the_view_as_it_was() -> None:
    truth = decision_points(4, seed=3)[-1]
    view = truth.view(2)
    before = (view.log(), json.dumps(view.observation()), view.render())
    for _ in range(5):
        view.determinize(random.Random(0))
    assert (view.log(), json.dumps(view.observation()), view.render()) == before
    hidden = [index for index, item in enumerate(view.log()) if item == ["chance", "?"]]
    assert hidden, "the view still hides the others' draws"


# ------------------------------------------------------------------------------ worked scenes


def _two_looks_at_one_hand() -> KingsCourtState:
    """4 players: p1 looks at p3's hand (7D), p3 draws 8D, p2 looks (7D 8D), p3 draws 9D. p0
    saw neither look; to him p3 holds three cards drawn before, between and after them."""
    state = new_game(4, start="p1")
    play(state, "QS", "p1 end", "QC", "p2 end", "7D", "p3 end", "2H", "p0 end")
    play(state, "3S", "p1 play QS p3", "p1 pass", "p1 end", "5C", "p2 end")
    play(state, "8D", "p3 end", "3H", "p0 end", "4S", "p1 end")
    play(state, "6C", "p2 play QC p3", "p2 pass", "p2 end", "9D")
    return state


def test_a_later_look_at_a_hand_remembers_every_card_an_earlier_one_does() -> None:
    state = _two_looks_at_one_hand()
    n = 4
    assert state.memory_floor[1 * n + 3] == 1 and state.memory_floor[2 * n + 3] == 2
    rng = random.Random(2)
    for _ in range(40):
        world = state.view(0).determinize(rng)
        assert isinstance(world, KingsCourtState)
        check_world(state, 0, world)
        early, late = world.memories[1 * n + 3], world.memories[2 * n + 3]
        assert bin(early).count("1") == 1 and bin(late).count("1") == 2
        assert early & late == early  # p1's card was drawn before p2 looked too


def test_a_look_after_mine_remembers_what_i_remember() -> None:
    state = new_game(3, start="p2")
    play(state, "4C", "p2 end", "QC", "p0 play QC p2", "p0 pass", "p0 end")  # p0 sees 4C
    play(state, "QS", "p1 end", "9C", "p2 end", "2H", "p0 end")
    play(state, "3S", "p1 play QS p2", "p1 pass", "p1 end")  # p1 sees 4C 9C
    play(state, "5C", "p2 play 9C")  # p2 holds 4C and a card nobody saw
    four = CARD_BIT[courtly.Card.parse("4C")]
    assert state.memories[0 * 3 + 2] == state.memories[1 * 3 + 2] == four
    rng = random.Random(4)
    for _ in range(30):
        world = state.view(0).determinize(rng)
        assert isinstance(world, KingsCourtState)
        check_world(state, 0, world)
        assert world.memories[0 * 3 + 2] == world.memories[1 * 3 + 2] == four


def test_a_scene_set_up_by_hand_gives_worlds_the_seat_cannot_tell_apart() -> None:
    # ``arrange`` puts cards in hands with no draw in the history: no history can explain
    # them, so the world keeps that gap too (and says so), but it is the same to the seat.
    state = new_game(3)
    arrange(state, hands={1: "6H KS 2S", 2: "4C"})
    play(state, "QS", "p0 play QS p1", "p0 pass", "p0 end", "9S", "p1 end", "8C")
    for seat in (0, 1, 2, None):
        world = state.view(seat).determinize(random.Random(0))
        assert isinstance(world, KingsCourtState)
        assert world.to_move == state.to_move
        assert world.view(seat).observation() == state.view(seat).observation()
        assert world._partial  # it does not replay, like the scene itself
    world = state.view(0).determinize(random.Random(0))
    assert world.history[-1][0] == CHANCE and world.history[-1][1] is not HIDDEN
