"""The Goths Save the Queen bot: one class for every role, legal everywhere, coordinated by
convention only (the King simulates his Warchief's reading of the back)."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.agents.random_agent import RandomAgent
from courtly.core.game import sample_chance
from courtly.core.match import play_match
from courtly.games.goths_save_the_queen import GothsSaveTheQueenHeuristic
from courtly.games.goths_save_the_queen.components import CATAPULT, FRONT, ORDERS
from courtly.games.goths_save_the_queen.heuristic import warchief_orders
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

from .helpers import OST, VIS, new_game, place, play, turn


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"fog_of_war": True},
        {"solo_clans": "visigoths"},
        {"solo_clans": "both", "fog_of_war": True},
    ],
)
def test_heuristic_plays_every_role_legally(options: dict[str, object]) -> None:
    game = courtly.make("goths-save-the-queen", **options)  # type: ignore[arg-type]
    bot = GothsSaveTheQueenHeuristic(game)
    for seed in range(4):
        agents = [bot if (s + seed) % 2 else RandomAgent(game) for s in range(game.num_players)]
        record = play_match(game, agents, seed)
        assert sum(record.returns) == pytest.approx(1.0)


def test_king_signals_a_lethal_shot_and_the_warchief_reads_it() -> None:
    state = new_game()
    place(state, OST, 1, army=2)  # the Ostrogoths in the open on their Plains1
    state.catapult[VIS] = True
    state.initiative = VIS
    state.to_move = (1,)
    state._legal[1] = state.game.tables.king_card_choices[0xFF]
    state.kings_to_play = (OST,)
    bot = GothsSaveTheQueenHeuristic(state.game)
    rng = random.Random(0)
    card = bot.act(state.view(1), rng)
    assert FRONT[card.value] == CATAPULT  # type: ignore[attr-defined]
    state.apply(1, card)
    state.apply(0, bot.act(state.view(0), rng))
    order = bot.act(state.view(3), rng)
    assert str(order) == "fire"


def test_warchief_uses_a_face_up_card_for_a_sure_success() -> None:
    state = new_game()
    place(state, OST, 1, army=1)  # one figurine in the open: an axe wins
    state.face_up[VIS] = 1 << 6  # B1 lies face up from a failed turn
    state.initiative = VIS
    state.to_move = (1,)
    state._legal[1] = state.game.tables.king_card_choices[0xFF & ~(1 << 6)]
    state.kings_to_play = (OST,)
    state.apply(1, "v1")  # whatever the new card says
    state.apply(0, "c1")
    bot = GothsSaveTheQueenHeuristic(state.game)
    assert str(bot.act(state.view(3), random.Random(1))) == "axe"


def test_heuristic_clan_beats_a_random_clan() -> None:
    game = courtly.make("goths-save-the-queen")
    bot = GothsSaveTheQueenHeuristic(game)
    rnd = RandomAgent(game)
    wins = 0
    for seed in range(30):
        # The bot's clan alternates sides: even seats are the Ostrogoths.
        agents = [bot, rnd, bot, rnd] if seed % 2 == 0 else [rnd, bot, rnd, bot]
        record = play_match(game, agents, seed)
        mine = 0 if seed % 2 == 0 else 1
        wins += record.returns[mine] > 0.4
    assert wins >= 27


def _orders_points(count: int) -> list[tuple[GothsSaveTheQueenState, int]]:
    """(state, Warchief seat) at the orders of heuristic games, both King cards down."""
    game = courtly.make("goths-save-the-queen")
    bot = GothsSaveTheQueenHeuristic(game)
    found: list[tuple[GothsSaveTheQueenState, int]] = []
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_state()
        assert isinstance(state, GothsSaveTheQueenState)
        while not state.is_terminal and len(found) < count:
            if state.is_chance:
                sample_chance(state, rng)
                continue
            if state.phase == ORDERS and len(state.to_move) == 2 and rng.random() < 0.3:
                found.append((state.clone(), game.tables.warchief_seat[seed % 2]))
            seat = state.to_move[0]
            state.apply(seat, bot.act(state.view(seat), rng))
    return found


def test_informed_worlds_agree_with_the_view_and_read_the_king_by_the_convention() -> None:
    # A Warchief who knows the convention tells which card his King (a heuristic) meant far
    # better than a uniform draw of the cards with that back.
    points = _orders_points(25)
    assert len(points) == 25
    bot = GothsSaveTheQueenHeuristic(points[0][0].game)
    informed_hits = uniform_hits = draws = 0
    rng = random.Random(1)
    for state, seat in points:
        view = state.view(seat)
        clan = state.game.tables.clan_of[seat]
        for _ in range(20):
            world = bot.sample_world(view, rng)
            assert world.view(seat).observation() == view.observation()
            informed_hits += world.played[clan] == state.played[clan]
            uniform = view.determinize(rng)
            assert isinstance(uniform, GothsSaveTheQueenState)
            uniform_hits += uniform.played[clan] == state.played[clan]
            draws += 1
    assert informed_hits / draws > 0.75
    assert informed_hits > uniform_hits + 0.15 * draws


def test_a_king_never_doubts_his_own_card() -> None:
    for state, seat in _orders_points(5):
        clan = state.game.tables.clan_of[seat]
        view = state.view(state.game.tables.king_seat[clan])
        bot = GothsSaveTheQueenHeuristic(state.game)
        for seed in range(10):
            world = bot.sample_world(view, random.Random(seed))
            assert world.played[clan] == state.played[clan]


def test_a_views_king_readings_are_worked_out_once_and_change_no_world() -> None:
    # The readings are kept from a view's first world: later worlds of the same view must be
    # exactly those a fresh bot (no kept readings) draws.
    points = _orders_points(6)
    kept = GothsSaveTheQueenHeuristic(points[0][0].game)
    for state, seat in points:
        view = state.view(seat)
        for seed in range(8):
            world = kept.sample_world(view, random.Random(seed))
            fresh = GothsSaveTheQueenHeuristic(state.game).sample_world(view, random.Random(seed))
            assert world.played == fresh.played and world.to_json() == fresh.to_json()


def test_ties_are_broken_with_the_bots_random_source() -> None:
    # With nothing known of the Objectives, all three are as good to enter: the choice follows
    # the rng the bot is given (it used to be Objective 0 every time), and the same rng gives
    # the same choice.
    state = new_game("trap,queen,plains")
    place(state, OST, 2)
    turn(state, o=("b1", "advance"), v=("v1", "rats"))
    bot = GothsSaveTheQueenHeuristic(state.game)
    view = state.view(2)
    picks = {str(bot.act(view, random.Random(seed))) for seed in range(40)}
    assert picks == {"enter obj0", "enter obj1", "enter obj2"}
    assert {str(bot.act(view, random.Random(7))) for _ in range(5)} == {
        str(bot.act(view, random.Random(7)))
    }
    # A Trap seen by the reconnaissance is never among the tied choices.
    seen = new_game("trap,queen,plains")
    place(seen, OST, 2)
    turn(seen, o=("v1", "recon"), v=("v1", "rats"))
    play(seen, "p2 look obj0")
    turn(seen, o=("b1", "advance"), v=("v2", "rats"))
    view = seen.view(2)
    picks = {str(bot.act(view, random.Random(seed))) for seed in range(40)}
    assert picks == {"enter obj1", "enter obj2"}


def test_a_warchief_lists_every_order_as_good_as_the_best() -> None:
    state = new_game()
    play(state, "p0 b1", "p1 c1")
    values = [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 4.0, 4.0, 2.0, 4.0]
    # B1's back is C/B, and C2 (the other card with that back) lies face up: the new card is
    # surely a Barbarian, so the three Barbarian orders worth 4.0 tie.
    assert warchief_orders(state, OST, state.played_back[OST], 1 << 5, values, values, 0.75) == [
        6,
        7,
        9,
    ]
