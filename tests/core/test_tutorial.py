"""A tutorial's prepared deal and its lessons, counted along a history."""

from __future__ import annotations

import pytest

from courtly.core.events import CHANCE
from courtly.core.tutorial import Tutorial, lesson_number, prepared_outcome


def test_the_prepared_deal_is_used_in_order_then_chance_takes_over() -> None:
    tutorial = Tutorial(players=2, opponents=("heuristic",), deal=("p0", "7H"), lessons=2)
    history: list[tuple[int, object]] = []
    assert prepared_outcome(tutorial, history) == "p0"
    history.append((CHANCE, "p0"))
    assert prepared_outcome(tutorial, history) == "7H"
    history += [(0, "hit"), (CHANCE, "7H")]
    assert prepared_outcome(tutorial, history) is None


def test_lessons_count_the_learners_decisions_only() -> None:
    tutorial = Tutorial(players=2, opponents=("heuristic",), deal=(), lessons=2)
    assert lesson_number(tutorial, []) == 1
    assert lesson_number(tutorial, [(1, "hit"), (CHANCE, "2S")]) == 1
    assert lesson_number(tutorial, [(0, "hit")]) == 2
    assert lesson_number(tutorial, [(0, "hit"), (0, "stay")]) is None


def test_a_tutorial_seats_a_bot_beside_the_learner_everywhere_else() -> None:
    with pytest.raises(ValueError, match="one bot for every seat"):
        Tutorial(players=3, opponents=("heuristic",), deal=())
