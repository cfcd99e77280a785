"""Worlds drawn from a seat's view (``determinize`` and the heuristic's informed ``sample_world``)
are inside that seat's information set and are proper states: the same seats to move as the
truth (that an order was given is public, which order is not), the same observation, legal
actions and picture for that seat, a history that replays to the world, and a game that plays on.

Found by OpenSpiel's ISMCTS: the worlds used to put a Warchief who had already given his order
back among the seats to move, and their history kept the hidden events as placeholders."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import courtly
from courtly.core.game import known_state, sample_chance
from courtly.core.match import play_randomly
from courtly.core.persist import fields_of
from courtly.games.goths_save_the_queen import GothsSaveTheQueenHeuristic
from courtly.games.goths_save_the_queen.components import ORDERS, UNKNOWN
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

from .helpers import new_game, play

TABLES = [
    {"players": 4},
    {"players": 4, "fog_of_war": True},
    {"players": 3},
    {"players": 3, "solo_clans": "ostrogoths", "fog_of_war": True},
    {"players": 2},
]


def _state_after(
    options: dict[str, Any], seed: int, steps: int, mid_orders: bool = False
) -> GothsSaveTheQueenState:
    """The position after ``steps`` steps of a game between heuristic and random seats (with
    ``mid_orders``, the first one after those where an order is given and another is awaited)."""
    game = courtly.make("goths-save-the-queen", **options)
    bot = GothsSaveTheQueenHeuristic(game)
    rng = random.Random(seed)
    state = game.new_state()
    assert isinstance(state, GothsSaveTheQueenState)
    for step in range(steps + 60 * mid_orders):
        if state.is_terminal:
            break
        if step >= steps and state.phase == ORDERS and state.orders_given:
            break
        if state.is_chance:
            sample_chance(state, rng)
            continue
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        move = bot.act(state.view(seat), rng) if rng.random() < 0.6 else rng.choice(legal)
        state.apply(seat, move)
    return state


def _seen_by(state: courtly.State, seat: int | None) -> tuple[Any, ...]:
    """All ``seat`` can tell of ``state``: who is to move, its observation, its moves, its
    picture."""
    view = state.view(seat)
    return (
        state.to_move,
        json.dumps(view.observation(), sort_keys=True),
        [action.id for action in view.legal_actions()],
        state.render(seat),
    )


def _fields(state: courtly.State) -> dict[str, Any]:
    """A state's fields, comparable across two copies of the game."""
    fields = fields_of(state)
    del fields["game"], fields["tables"]
    # Which events are secret, but not when events were revealed: how a log is resumed, not the
    # position (a world drawn from a view carries its view's).
    fields["secrets"] = state.secrets.knowers
    fields["history"] = state.history_text()
    fields["_legal"] = [[action.id for action in legal] for legal in fields["_legal"]]
    return fields


def _check_world(
    truth: GothsSaveTheQueenState, seat: int | None, world: courtly.State, rng: random.Random
) -> None:
    assert isinstance(world, GothsSaveTheQueenState)
    assert _seen_by(world, seat) == _seen_by(truth, seat)
    assert UNKNOWN not in (*world.objectives, *world.fog, *world.played, *world.orders)
    # A proper state: its record replays to the very same world.
    loaded = courtly.load(world.to_json())
    assert _fields(loaded) == _fields(world)
    play_randomly(world, rng)
    assert world.is_terminal


@pytest.mark.parametrize(
    "options", TABLES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 120), mid_orders=st.booleans())
def test_a_world_is_inside_the_seats_information_and_replays(
    options: dict[str, Any], seed: int, steps: int, mid_orders: bool
) -> None:
    truth = _state_after(options, seed, steps, mid_orders)
    if truth.is_chance:
        return
    before = truth.to_json()
    bot = GothsSaveTheQueenHeuristic(truth.game)
    rng = random.Random(seed)
    for seat in [None, *range(truth.num_players)]:
        view = truth.view(seat)
        _check_world(truth, seat, view.determinize(rng), rng)
        _check_world(truth, seat, bot.sample_world(view, rng), rng)
    assert truth.to_json() == before


def test_an_order_given_stays_given_in_every_world() -> None:
    # p2 has given his order: in every world p3 alone is to move, and p2's order is one of his.
    truth = new_game()
    play(truth, "p0 b1", "p1 c1", "p2 advance")
    rng = random.Random(0)
    drawn = set()
    for _ in range(200):
        world = truth.view(3).determinize(rng)
        assert isinstance(world, GothsSaveTheQueenState)
        assert world.phase == ORDERS and world.to_move == (3,)
        drawn.add(world.orders[0])
        assert world.history[-1][0] == 2 and world.history[-1][1].value == world.orders[0]
        world.apply(3, "load")  # and the turn resolves as it would in the truth
        assert world.last_turn == 1
    assert drawn == set(range(1, 10))  # uniformly among the orders he could give
    assert known_state(truth.view(3)).orders[0] == UNKNOWN


def test_informed_worlds_read_a_given_order_by_the_convention() -> None:
    # The heuristic's worlds weigh the order the convention's Warchief would give, with a tenth
    # of the weight left even, and every world still replays.
    truth = new_game()
    play(truth, "p0 b1", "p1 c1")
    bot = GothsSaveTheQueenHeuristic(truth.game)
    truth.apply(2, bot.act(truth.view(2), random.Random(0)))
    given = truth.orders[0]
    view = truth.view(3)
    rng = random.Random(1)
    worlds = [bot.sample_world(view, rng) for _ in range(300)]
    hits = sum(world.orders[0] == given for world in worlds)
    assert hits > 0.8 * len(worlds)
    assert len({world.orders[0] for world in worlds}) > 1
    for world in worlds[:20]:
        assert courtly.load(world.to_json()).to_json() == world.to_json()


def test_a_solo_chiefs_order_is_drawn_among_those_he_may_give() -> None:
    # GOTH-23: a solo chief who gave a Catapult order last turn cannot have given one now.
    truth = new_game(solo_clans="visigoths")
    play(truth, "p0 b1", "p1 load", "p2 advance", "p0 b1", "p1 rats")
    rng = random.Random(2)
    orders = set()
    for _ in range(200):
        world = truth.view(2).determinize(rng)
        assert isinstance(world, GothsSaveTheQueenState) and world.to_move == (2,)
        orders.add(world.orders[1])
    assert orders == {1, 2, 3, 6, 7, 8, 9}


def test_a_world_drawn_before_the_table_is_set_plays_the_setup_itself() -> None:
    # Before the Objectives (and the Fog tokens) are laid, a world leaves their draw to chance.
    state = courtly.make("goths-save-the-queen", fog_of_war=True).new_state()
    rng = random.Random(3)
    for _ in range(3):
        for seat in (None, 0, 2):
            world = state.view(seat).determinize(rng)
            assert world.is_chance == state.is_chance and len(world.history) == len(state.history)
            play_randomly(world, rng)
            assert world.is_terminal
        if state.is_chance:
            sample_chance(state, rng)
