"""docs/rules/kings-court.md KC-19 and KC-20: the variants for games that end at three and four
players, off by default; and the engine contract in every variant."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable

import pytest

import courtly
from courtly.agents import make_agent
from courtly.core.actions import Action
from courtly.core.match import play_match
from courtly.games.kings_court.rules import KingsCourtState
from tests.core import test_contract as contract

from .helpers import arrange, hand, legal, new_game, play

VARIANTS = [
    {"pushback_cap": 3},
    {"march": 1},
    {"pushback_cap": 2, "march": 2},
    {"march": 1, "track_length": 5, "safety_cap": 12},
    {"hand_limit": 3},
    {"track_cut": 5},
    {"hand_limit": 1, "pushback_cap": 2, "march": 1},
]
CONTRACT = [
    check
    for name, check in sorted(vars(contract).items())
    if name.startswith("test_") and callable(check)
]


def _action(state: KingsCourtState, text: str) -> Action:
    action = state.game.action_from_text(text)
    assert action is not None
    return action


def _ids(options: dict[str, int]) -> str:
    return ",".join(f"{name}={value}" for name, value in options.items())


def test_the_variants_are_off_by_default() -> None:
    options = courtly.make("kings-court").options
    assert options["pushback_cap"] == 0
    assert options["march"] == 0
    assert options["hand_limit"] == 0
    assert options["track_cut"] == 0


@pytest.mark.parametrize(("players", "last"), [(2, 30), (3, 25), (4, 20)])
def test_the_track_shortens_with_each_player_beyond_two(players: int, last: int) -> None:
    """KC-22: with track_cut=5 the track is 30, 25 and 20 spaces; two players keep the sheet's."""
    state = new_game(players=players, track_cut=5)
    assert state.tables.track_length == last
    assert f"first to {last}" in state.render(0)
    arrange(state, {0: last - 3})
    play(state, "3H")
    assert "Play 3H: reach " + str(last) + " and win" in [
        state.game.text.action_label(state, 0, a) for a in state.legal_actions(0)
    ]
    play(state, "p0 play 3H")
    assert state.is_terminal and state.returns()[0] == 1.0


def test_a_track_cut_must_leave_a_track() -> None:
    with pytest.raises(courtly.InvalidOptions, match="track_cut leaves 0 spaces at 4 players"):
        courtly.make("kings-court", players=4, track_length=10, track_cut=5)


@pytest.mark.parametrize("options", VARIANTS, ids=_ids)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("check", CONTRACT, ids=lambda check: check.__name__)
def test_the_contract_holds_in_every_variant(
    check: Callable[..., None], players: int, options: dict[str, int]
) -> None:
    game = courtly.make("kings-court", players=players, **options)
    if "seed" in inspect.signature(check).parameters:
        for seed in (0, 1):
            check(game, seed)
    else:
        check(game)


@pytest.mark.parametrize(
    ("cap", "value", "start", "after"), [(0, 9, 12, 3), (3, 9, 12, 9), (3, 2, 12, 10), (3, 9, 2, 0)]
)
def test_a_push_back_moves_no_more_than_the_cap(
    cap: int, value: int, start: int, after: int
) -> None:
    """KC-19: a rival's card moves him back by its value or the cap, whichever is less, and
    stops at the start (KC-7)."""
    state = new_game(pushback_cap=cap)
    arrange(state, {1: start}, {0: f"{value}S 4C"})
    play(state, "AH", f"p0 play {value}S")
    assert state.positions[1] == after
    assert hand(state, 0) == ["AH", "4C"]
    # KC-9 still holds: spades cannot push p1 again this turn.
    assert not any(a.endswith("S") and "play" in a for a in legal(state, 0))


def test_the_story_and_the_buttons_tell_the_cap() -> None:
    state = new_game(pushback_cap=3)
    arrange(state, {1: 12}, {0: "9S"})
    play(state, "AH")
    action = _action(state, "play 9S")
    assert state.game.text.action_label(state, 0, action) == "Play 9S: p1 back 3"
    told = state.narrate(0, action, None)
    assert told is not None
    assert (
        "pushes p1 back 3 spaces, from 12 to 9 (a push back is capped at 3 spaces: KC-19)" in told
    )
    assert "push back at most 3" in state.render(0)


def test_the_march_moves_the_pawn_as_the_turn_ends() -> None:
    """KC-20: ending the turn moves the ender's pawn forward; the next player then draws."""
    state = new_game(march=2)
    play(state, "AH")
    action = _action(state, "end")
    assert state.game.text.action_label(state, 0, action) == "End the turn: march forward 2"
    told = state.narrate(0, action, None)
    assert told is not None and "p0 marches forward 2 spaces, from 0 to 2 (KC-20)." in told
    play(state, "p0 end")
    assert state.positions == [2, 0, 0, 0]
    assert state.turn == 1 and state.is_chance


def test_a_march_to_the_end_wins_by_the_rules() -> None:
    state = new_game(march=2, track_length=10)
    arrange(state, {0: 8})
    play(state, "AS")
    action = _action(state, "end")
    assert (
        state.game.text.action_label(state, 0, action) == "End the turn: march to the end and win"
    )
    play(state, "p0 end")
    assert state.is_terminal and not state.truncated
    assert state.returns() == [1.0, 0.0, 0.0, 0.0]
    assert state.positions[0] == 10


def test_the_march_comes_before_the_safety_cap() -> None:
    """KC-20 and KC-18: the last turn's march counts for the farthest pawn."""
    state = new_game(players=2, march=1, safety_cap=1)
    arrange(state, {1: 1})
    play(state, "AS")
    told = state.narrate(0, state.game.action_from_text("end"), None)
    assert told is not None and "p0 and p1 share the win, level at the front on space 1." in told
    play(state, "p0 end")
    assert state.truncated
    assert state.returns() == [0.5, 0.5]


@pytest.mark.parametrize("options", VARIANTS[:3], ids=_ids)
def test_heuristic_games_in_a_variant_end(options: dict[str, int]) -> None:
    game = courtly.make("kings-court", players=3, **options)
    agents = [make_agent("heuristic", game) for _ in range(3)]
    record = play_match(game, agents, seed=5)
    assert sum(record.returns) == pytest.approx(1.0)


def test_no_turn_ends_over_the_hand_limit() -> None:
    """KC-21: over the limit, ``end`` is refused and any card of the hand may be thrown away."""
    state = new_game(hand_limit=2)
    arrange(state, {1: 0}, {0: "9S 4C"})
    play(state, "KH")
    assert "end" not in legal(state, 0)
    assert {"discard 9S", "discard 4C", "discard KH"} <= set(legal(state, 0))
    with pytest.raises(courtly.IllegalAction, match="more than the hand limit of 2"):
        state.apply(0, "end")
    coach = state.game.text.coach(state, 0)
    assert coach is not None and coach.startswith("Before ending the turn, play or throw away 1")
    discard = _action(state, "discard 4C")
    assert state.game.text.action_label(state, 0, discard) == "Discard 4C: over the hand limit"
    told = state.narrate(0, discard, None)
    assert told is not None and "p0 throws 4C away, face up" in told
    play(state, "p0 discard 4C")
    assert hand(state, 0) == ["9S", "KH"]
    assert state.discard_pile[-1] == courtly.core.cards.Card.parse("4C")
    assert state.moved_back == 0  # a discard pushes nobody back (KC-9)
    assert "end" in legal(state, 0) and not any(a.startswith("discard") for a in legal(state, 0))
    with pytest.raises(courtly.IllegalAction, match="only to come down to the hand limit"):
        state.apply(0, "discard 9S")
    play(state, "p0 end")
    assert state.turn == 1


def test_without_a_hand_limit_there_is_no_discard_action() -> None:
    """The sheet's game keeps its action space (and its actions' ids) exactly."""
    plain = courtly.make("kings-court", players=4)
    limited = courtly.make("kings-court", players=4, hand_limit=5)
    assert not any(str(a).startswith("discard") for a in plain.actions)
    assert [str(a) for a in limited.actions[: len(plain.actions)]] == [
        str(a) for a in plain.actions
    ]
    assert len(limited.actions) == len(plain.actions) + 52


def test_the_heuristic_throws_away_a_useless_push_back_first() -> None:
    state = new_game(hand_limit=2)
    arrange(state, {}, {0: "2S 9H JH"})
    play(state, "3C")  # p2 on the start: the clubs push nobody back
    game = state.game
    bot = make_agent("heuristic", game)
    action = bot.act(state.view(0), random.Random(1))
    assert str(action) == "discard 2S"
