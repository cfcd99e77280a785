"""Estimates from a seat's view (courtly.agents.estimates): the clearly best action ranks first
in every game, every action is measured, the true state is never read, and the same seed gives
the same estimates whatever the number of workers."""

from __future__ import annotations

import itertools
import random

import pytest

import courtly
from courtly.agents.estimates import (
    EXPLORE,
    Budget,
    estimate,
    interval,
    position_value,
    search_position,
)
from courtly.agents.registry import make_agent
from courtly.core import InvalidOptions, State, View, sample_chance
from courtly.core.actions import Action

from ..games.goths_save_the_queen.helpers import OST, place, turn

SMALL = Budget(240)


def played(game_id: str, *steps: str, players: int = 2, **options: object) -> State:
    """A game driven step by step: ``"p0 hit"`` is a seat's decision, anything else the forced
    chance outcome."""
    state = courtly.make(game_id, players=players, **options).new_state()
    for step in steps:
        seat, _, action = step.partition(" ")
        if action:
            state.apply(int(seat[1:]), action)
        else:
            state.apply_chance(step)
    return state


def ranking(view: View, budget: Budget = SMALL, seed: int = 1) -> list[str]:
    return [found.text for found in estimate(view, budget, seed, workers=1)]


# ----------------------------------------------------------------------------- clearly best


def test_rg_stay_on_a_row_that_wins_the_game_rather_than_risk_a_bust() -> None:
    # docs/rules/royal-gambit.md §3 (scoring a row): p0's row 5, 4, 3, 2, K, A scores
    # (5+4+3+2+1) x 2 = 30 = the target; six ranks of thirteen would bust it. Staying all but
    # wins (p0 sits out the final hand as the favourite).
    state = played(
        "royal-gambit",
        "p0",
        *("p0 hit", "5H", "p1 hit", "9C", "p0 hit", "4H", "p1 hit", "8C"),
        *("p0 hit", "3H", "p1 hit", "10C", "p0 hit", "2H", "p1 hit", "6C"),
        *("p0 hit", "KH", "p1 stay", "p0 hit", "AH"),
    )
    assert state.to_move == (0,)
    assert ranking(state.view(0))[0] == "stay"


def test_rg_jack_targets_the_rival_not_the_own_doubled_row() -> None:
    # RG example 9's danger, turned round: p0's row 5, 4, 3, K is worth 24; a Jack's two forced
    # flips on himself may bust it, on p1 they may only bust p1's row.
    state = played(
        "royal-gambit",
        "p0",
        *("p0 hit", "5H", "p1 hit", "5C", "p0 hit", "4H", "p1 hit", "4C"),
        *("p0 hit", "3H", "p1 hit", "3C", "p0 hit", "KH", "p1 hit", "9C", "p0 hit", "JH"),
    )
    assert {str(a) for a in state.legal_actions(0)} == {"jack p0", "jack p1"}
    assert ranking(state.view(0))[0] == "jack p1"


def test_kc_plays_the_winning_card() -> None:
    # KC example 4 on a short track: p0 on 0 holds 5H with the finish at 5.
    state = played("kings-court", "p0", "5H", track_length=5)
    assert state.to_move == (0,)
    found = estimate(state.view(0), SMALL, 1, workers=1)
    assert found[0].text == "play 5H"
    assert found[0].mean == 1.0


def test_goths_enters_the_queens_objective_not_the_trap() -> None:
    # GOTH example 8 and 9 at two players: the Ostrogoth army (1 figurine) advances onto the
    # Objectives with the Queen (Objective 1) and the Trap (Objective 2) already face up.
    state = courtly.make("goths-save-the-queen", players=2).new_state()
    state.apply_chance("plains,queen,trap")
    place(state, OST, 2, army=1)  # type: ignore[arg-type]
    state.revealed_objectives |= 0b110  # type: ignore[attr-defined]
    turn(state, o=(None, "advance"), v=(None, "rats"))  # type: ignore[arg-type]
    found = estimate(state.view(0), SMALL, 1, workers=1)
    assert found[0].text == "enter obj1"
    assert found[-1].text == "enter obj2"
    assert found[-1].mean == 0.0


def wins_at_once(view: View, action: Action, rng: random.Random, worlds: int = 3) -> bool:
    """Whether ``action`` wins the game at once whatever the other seats then choose, in every
    world of a few drawn from ``view``."""
    seat = view.seat
    assert seat is not None
    for _ in range(worlds):
        world = view.determinize(rng)
        world.apply(seat, action)
        others = [s for s in world.to_move if s != seat]
        if seat in world.to_move:
            return False
        for replies in itertools.product(*(world.legal_actions(s) for s in others)):
            after = world.clone()
            for other, reply in zip(others, replies, strict=True):
                after.apply(other, reply)
            while after.is_chance:
                sample_chance(after, rng)
            if not (after.is_terminal and after.returns()[seat] == 1.0):
                return False
    return True


def winning_moves(game_id: str, seeds: range, wanted: int) -> list[tuple[View, set[str]]]:
    """Decisions met in heuristic games where some legal actions win at once and others do not
    (CTC example 6, a completed government; KC example 4, the pawn reaching the finish)."""
    game = courtly.make(game_id, players=2)
    found: list[tuple[View, set[str]]] = []
    rng = random.Random(0)
    for seed in seeds:
        bots = [make_agent("heuristic", game) for _ in range(2)]
        chance, moves = random.Random(seed), random.Random(-seed)
        state = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                sample_chance(state, chance)
                continue
            choices = []
            for seat in state.to_move:
                view = state.view(seat)
                legal = view.legal_actions()
                if 1 < len(legal) <= 30:
                    winning = {str(a) for a in legal if wins_at_once(view, a, rng)}
                    if winning and len(winning) < len(legal):
                        found.append((view, winning))
                        if len(found) == wanted:
                            return found
                choices.append((seat, bots[seat].act(view, moves)))
            for seat, action in choices:
                state.apply(seat, action)
    return found


@pytest.mark.parametrize("game_id", ["crush-the-crown", "kings-court"])
def test_a_move_that_wins_at_once_ranks_first(game_id: str) -> None:
    positions = winning_moves(game_id, range(8), wanted=2)
    assert positions, f"no winning move met in {game_id}'s sample games"
    for view, winning in positions:
        found = estimate(view, SMALL, 3, workers=1)
        # A sure win is worth exactly 1; another move may be a sure win too (a turn later).
        assert found[0].mean == 1.0
        assert all(f.mean == 1.0 for f in found if f.text in winning)


def test_gsk_never_ranks_an_exposed_king_first() -> None:
    # GSK example 10: the own King laid in a slot turned up at the reveal eliminates its owner
    # (the terminal warns of it: View.caution). It must come last, a blunder below the best.
    game = courtly.make("god-save-the-king", players=2)
    rng = random.Random(0)
    state = game.new_state()
    checked = 0
    while checked < 2:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        seat = state.to_move[0]
        view = state.view(seat)
        legal = view.legal_actions()
        exposing = {str(a) for a in legal if view.caution(a) is not None}
        if exposing and len(exposing) < len(legal):
            found = estimate(view, SMALL, 3, workers=1)
            assert found[0].text not in exposing
            assert {f.text for f in found[-len(exposing) :]} == exposing
            assert all(found[0].mean - f.mean >= 0.15 for f in found if f.text in exposing)
            checked += 1
        state.apply(seat, rng.choice(legal))


# ----------------------------------------------------------------------------- the estimator


def decision(game_id: str, seed: int, min_choices: int = 2) -> State:
    """A state some random steps into a game where a seat chooses among several actions."""
    game = courtly.make(game_id, players=2)
    rng = random.Random(seed)
    while True:
        state = game.new_state()
        steps = 0
        while not state.is_terminal:
            if state.is_chance:
                sample_chance(state, rng)
                continue
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            if steps >= 4 and len(legal) >= min_choices:
                return state
            state.apply(seat, rng.choice(legal))
            steps += 1


def test_every_action_gets_its_share_of_the_visits() -> None:
    state = decision("god-save-the-king", 2, min_choices=6)
    seat = state.to_move[0]
    found = estimate(state.view(seat), Budget(600), 5, workers=1)
    floor = EXPLORE * 600 / len(found)
    assert sum(f.visits for f in found) == 600
    assert all(f.visits >= floor - 4 for f in found)  # 4 searches, each a visit short at most
    for f in found:
        assert 0.0 <= f.low <= f.mean <= f.high <= 1.0
    assert [f.mean for f in found] == sorted((f.mean for f in found), reverse=True)


def test_the_interval_never_collapses() -> None:
    every_win = interval(20.0, 20.0, 20)
    assert every_win.mean == 1.0 and every_win.high == 1.0 and every_win.low < 0.95
    half = interval(50.0, 50.0, 100)
    assert half.low == pytest.approx(0.5 - 1.96 * 0.05, abs=0.01)
    assert interval(0.0, 0.0, 0).visits == 0


@pytest.mark.parametrize("game_id", ["god-save-the-king", "kings-court", "crush-the-crown"])
def test_estimates_read_only_the_view(game_id: str) -> None:
    """Two worlds the seat cannot tell apart (drawn by ``view.determinize``) get the same
    estimates and value for the same seed: the true state is never read."""
    state = decision(game_id, 4)
    seat = state.to_move[0]
    view = state.view(seat)
    worlds = [view.determinize(random.Random(k)) for k in (1, 2)]
    assert worlds[0].history_text() != worlds[1].history_text()  # other cards differ
    results = [search_position(world.view(seat), SMALL, 7, workers=1) for world in worlds]
    assert results[0] == results[1]
    values = [position_value(world.view(seat), Budget(80), 7, workers=1) for world in worlds]
    assert values[0] == values[1]


def test_the_same_seed_gives_the_same_estimates_whatever_the_workers() -> None:
    state = decision("crush-the-crown", 1)
    view = state.view(state.to_move[0])
    one = search_position(view, SMALL, 11, workers=1)
    two = search_position(view, SMALL, 11, workers=2)
    assert one == two
    assert search_position(view, SMALL, 12, workers=1) != one


def test_position_values() -> None:
    state = decision("royal-gambit", 3)
    other = 1 - state.to_move[0]
    value = position_value(state.view(other), Budget(80), 1, workers=1)
    assert 0.0 <= value.low <= value.mean <= value.high <= 1.0
    assert value.visits == 80
    game = courtly.make("royal-gambit", players=2)
    finished = game.new_state()
    rng = random.Random(2)
    while not finished.is_terminal:
        if finished.is_chance:
            sample_chance(finished, rng)
        else:
            seat = finished.to_move[0]
            finished.apply(seat, rng.choice(finished.legal_actions(seat)))
    for seat in (0, 1):
        assert position_value(finished.view(seat), workers=1).mean == finished.returns()[seat]


def test_bad_requests_are_refused() -> None:
    state = decision("royal-gambit", 3)
    with pytest.raises(InvalidOptions, match="spectator"):
        estimate(state.view(None))
    with pytest.raises(InvalidOptions, match="budget"):
        Budget(2)
    assert estimate(state.view(1 - state.to_move[0]), SMALL, workers=1) == []
