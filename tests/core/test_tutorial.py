"""A tutorial's prepared deal and its lessons, counted along a history; every game's tutorial
played through, and its coach silent where no seat decides."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.agents.registry import make_agent
from courtly.core.events import CHANCE
from courtly.core.lessons import chance_outcome
from courtly.core.match import play_match
from courtly.core.tutorial import Tutorial, lesson_number, prepared_outcome

from ..games.tutorials import (
    check_the_coach_speaks,
    check_the_deal,
    like_the_bot,
    random_play,
    tutorial_of,
)


def test_the_prepared_deal_is_used_in_order_then_chance_takes_over() -> None:
    tutorial = Tutorial(players=2, opponents=("heuristic",), deal=("p0", "7H"), lessons=2)
    history: list[tuple[int, object]] = []
    assert prepared_outcome(tutorial, history) == "p0"
    history.append((CHANCE, "p0"))
    assert prepared_outcome(tutorial, history) == "7H"
    history += [(0, "hit"), (CHANCE, "7H")]
    assert prepared_outcome(tutorial, history) is None


def test_a_prepared_outcome_that_cannot_happen_is_drawn_instead() -> None:
    """Royal Gambit draws who starts first: a prepared starter who is no seat of this table is
    drawn at random, as at any table, rather than stopping the game."""
    game = courtly.make("royal-gambit", players=2)
    state = game.new_state()
    assert state.is_chance
    possible = {str(outcome) for outcome, _ in state.chance_outcomes()}
    prepared = Tutorial(players=2, opponents=("heuristic",), deal=("p1",))
    assert str(chance_outcome(state, prepared, random.Random(0))) == "p1"
    impossible = Tutorial(players=2, opponents=("heuristic",), deal=("p4",))
    drawn = {str(chance_outcome(state, impossible, random.Random(seed))) for seed in range(20)}
    assert drawn == possible


def test_a_match_plays_the_prepared_deal_then_draws() -> None:
    game = courtly.make("royal-gambit", players=2)
    tutorial = Tutorial(players=2, opponents=("heuristic",), deal=("p1", "KH", "2C"))
    agents = [make_agent("heuristic", game) for _ in range(2)]
    record = play_match(
        game, agents, 3, chance=lambda state, rng: chance_outcome(state, tutorial, rng)
    )
    drawn = [item for actor, item in record.history if actor == "chance"]
    assert drawn[:3] == ["p1", "KH", "2C"]
    again = play_match(
        game, agents, 3, chance=lambda state, rng: chance_outcome(state, tutorial, rng)
    )
    assert again.history == record.history


def test_lessons_count_the_learners_decisions_only() -> None:
    tutorial = Tutorial(players=2, opponents=("heuristic",), deal=(), lessons=2)
    assert lesson_number(tutorial, []) == 1
    assert lesson_number(tutorial, [(1, "hit"), (CHANCE, "2S")]) == 1
    assert lesson_number(tutorial, [(0, "hit")]) == 2
    assert lesson_number(tutorial, [(0, "hit"), (0, "stay")]) is None


def test_a_tutorial_seats_a_bot_beside_the_learner_everywhere_else() -> None:
    with pytest.raises(ValueError, match="one bot for every seat"):
        Tutorial(players=3, opponents=("heuristic",), deal=())


# ------------------------------------------------------------------------- every game

GAMES = [info.id for info in courtly.games() if not info.id.startswith("test-")]
"""The five games (not the tests' toy games, which teach nothing)."""


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_teaches_a_first_game(game_id: str) -> None:
    """Each game declares a tutorial: its deal, parsed by the game's text, applies when it is
    due, and a learner who plays like the heuristic hears the coach at every lesson."""
    tutorial = tutorial_of(game_id)
    assert tutorial.lessons > 0
    played = check_the_deal(game_id, like_the_bot, seed=0)
    assert len(played.lessons) == tutorial.lessons


@pytest.mark.parametrize("game_id", GAMES)
def test_the_coach_is_silent_where_no_seat_decides(game_id: str) -> None:
    """At every chance event and at the end of a game, as at every decision for the seats that
    wait, the coach says nothing; at a decision it speaks to the seats that decide."""
    game = courtly.make(game_id)
    for seed in range(2):
        for state in random_play(game, seed):
            assert check_the_coach_speaks(state) is not (state.is_chance or state.is_terminal)
