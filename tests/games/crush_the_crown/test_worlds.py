"""Worlds drawn from a seat's view (``determinize``): inside what the seat knows, and proper games
whose history replays to them, so that they save and load like any game."""

from __future__ import annotations

import random
from typing import Any

import pytest

import courtly
from courtly.core.events import CHANCE, HIDDEN
from courtly.games.crush_the_crown.components import UNKNOWN, CrushTheCrownAction
from courtly.games.crush_the_crown.rules import CrushTheCrownState

SEATS = (None, 0, 1)


def states_of_a_game(seed: int, every: int = 9, **options: object) -> list[CrushTheCrownState]:
    """Copies of the decision points of a random game, one every ``every`` events."""
    game = courtly.make("crush-the-crown", **options)
    rng = random.Random(seed)
    state = game.new_state()
    found = []
    while not state.is_terminal:
        if state.is_chance:
            courtly.sample_chance(state, rng)
            continue
        if len(state.history) % every == 0:
            found.append(state.clone())
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert all(isinstance(s, CrushTheCrownState) for s in found)
    return found  # type: ignore[return-value]


def snapshot(state: CrushTheCrownState) -> dict[str, Any]:
    """Every field of the state machine (the draw pile in its order)."""
    return {
        "hands": state.hands,
        "governments": state.governments,
        "spies": state.spies,
        "suits": state.suits,
        "known_to_rival": state.known_to_rival,
        "draw_pile": state.draw_pile,
        "discard_pile": state.discard_pile,
        "executed": state.executed,
        "kings_aside": state.kings_aside,
        "spy_slot_of": state.spy_slot_of,
        "reshuffles": state.reshuffles,
        "seats": (state.dealer, state.first_player, state.marrying, state.turn_player),
        "turn": (state.turns_played, state.tribute_owed, state.extended_this_turn),
        "drawing": (state.drawer, state.refill_target, state.cards_to_deal, state.after_drawing),
        "decision": (state.decision, state.to_move, [a.id for a in state._legal]),
        "chance": (state.is_chance, state.pending_chance, state.is_terminal),
        "secrets": state.secrets.knowers,
    }


@pytest.mark.parametrize("seed", range(4))
def test_a_world_waits_for_the_same_seat_and_looks_the_same_from_its_seat(seed: int) -> None:
    rng = random.Random(seed)
    for state in states_of_a_game(seed):
        for seat in SEATS:
            view = state.view(seat)
            world = view.determinize(rng)
            assert isinstance(world, CrushTheCrownState)
            assert world.to_move == state.to_move
            assert world.view(seat).observation() == view.observation()
            assert world.render(seat) == view.render()
            assert world.log(seat) == state.log(seat)  # it saw the same events
            if seat is not None:
                assert [a.id for a in world.legal_actions(seat)] == [
                    a.id for a in view.legal_actions()
                ]
            assert UNKNOWN not in world.hands[0] + world.hands[1] + world.draw_pile


@pytest.mark.parametrize("seed", range(4))
def test_a_world_saves_and_loads_as_itself(seed: int) -> None:
    rng = random.Random(100 + seed)
    for state in states_of_a_game(seed, every=7):
        for seat in SEATS:
            world = state.view(seat).determinize(rng)
            assert isinstance(world, CrushTheCrownState)
            assert all(item is not HIDDEN for _, item in world.history)
            loaded = courtly.load(world.to_json())
            assert isinstance(loaded, CrushTheCrownState)
            assert snapshot(loaded) == snapshot(world)
            assert loaded.history_text() == world.history_text()
            for other in SEATS:
                assert loaded.game.views.observation(loaded, other) == world.game.views.observation(
                    world, other
                )


@pytest.mark.parametrize(
    "options",
    [
        {"use_jokers": False, "hand_size": 1},
        {"hand_size": 2},
        {"hand_size": 9, "one_gov_card_per_build": False},
    ],
    ids=["no-jokers-hand-1", "hand-2", "hand-9-loose-builds"],
)
def test_worlds_save_and_load_under_other_options(options: dict[str, object]) -> None:
    rng = random.Random(7)
    for seed in range(2):
        for state in states_of_a_game(seed, every=11, **options):
            for seat in SEATS:
                world = state.view(seat).determinize(rng)
                assert isinstance(world, CrushTheCrownState)
                assert world.to_move == state.to_move
                loaded = courtly.load(world.to_json())
                assert isinstance(loaded, CrushTheCrownState)
                assert snapshot(loaded) == snapshot(world)


def test_a_card_reshuffled_after_the_rivals_last_draw_is_never_in_his_hand() -> None:
    # A reshuffle happens only when the draw pile is empty: the cards it brings back can reach a
    # hand only through a later draw.
    checked = 0
    for seed in range(6):
        for state in states_of_a_game(seed, every=3):
            seat = state.to_move[0]
            rival = 1 - seat
            if not state.reshuffles:
                continue
            since, pile = state.reshuffles[-1]
            rival_drew = any(
                state.secrets.knowers.get(i) == 1 << rival
                for i in range(since + 1, len(state.history))
            )
            known = state.known_to_rival[rival]
            if rival_drew or not [c for c in state.hands[rival] if not known >> c & 1]:
                continue
            view = state.view(seat)
            rng = random.Random(seed)
            for _ in range(10):
                world = view.determinize(rng)
                assert isinstance(world, CrushTheCrownState)
                unknown = [c for c in world.hands[rival] if not known >> c & 1]
                assert not set(unknown) & {c for c in pile if c < 52}
            checked += 1
    assert checked >= 5


def test_every_card_the_rival_plays_in_a_world_is_in_his_hand_when_he_plays_it() -> None:
    # The world's history names a card at each of his hidden draws: replayed, it puts every card
    # he plays later into his hand first.
    for state in states_of_a_game(3, every=13)[-4:]:
        seat = state.to_move[0]
        rival = 1 - seat
        world = state.view(seat).determinize(random.Random(1))
        replayed = world.game.new_state()
        assert isinstance(replayed, CrushTheCrownState)
        played = 0
        for actor, item in world.history:
            if actor == CHANCE:
                replayed.apply_chance(item)
                continue
            if actor == rival and isinstance(item, CrushTheCrownAction) and item.card >= 0:
                assert item.card in replayed.hands[rival]
                played += 1
            replayed.apply(actor, item)
        assert played and replayed.hands == world.hands


def test_a_view_that_drew_worlds_still_pickles_and_draws_alike() -> None:
    import pickle

    state = states_of_a_game(5, every=40)[-1]
    view = state.view(state.to_move[0])
    view.determinize(random.Random(0))  # the view now keeps what it read of its log
    shipped = pickle.loads(pickle.dumps(view))
    here = view.determinize(random.Random(9))
    there = shipped.determinize(random.Random(9))
    assert isinstance(here, CrushTheCrownState) and isinstance(there, CrushTheCrownState)
    assert snapshot(here) == snapshot(there)
    assert here.history_text() == there.history_text()
