"""``courtly learn``: a game's tutorial played at the terminal (in-process, answers typed on
stdin), for every game that teaches: the prepared deal drawn first, each lesson the game's coach
for the position it is shown at, then the learner on their own; the exit statuses, the saved
record replayed."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import courtly
from courtly.cli.learn import ON_YOUR_OWN
from courtly.cli.shared import ABANDONED
from courtly.core.game import State
from courtly.core.records import MatchRecord
from courtly.core.registry import game_class
from courtly.core.replays import replay_record
from courtly.core.tutorial import Tutorial
from courtly.testing.cli import invoke

from .test_cli import assert_clean_error, in_order

TAUGHT = [info.id for info in courtly.games() if info.tutorial is not None]
FIRST_CHOICE = "1\n" * 5000
"""The learner always takes the first move of the menu, until the game ends."""


def flat(text: str) -> str:
    """``text`` with its line breaks and runs of blanks as single spaces (a lesson is wrapped
    to the terminal's width)."""
    return " ".join(text.split())


def tutorial_of(game_id: str) -> Tutorial:
    tutorial = game_class(game_id).info.tutorial
    assert tutorial is not None
    return tutorial


@dataclass
class Learned:
    """A whole tutorial game played with ``courtly learn``: what it printed, its saved record,
    and the coach's words at each of the learner's decisions, worked out again from the
    record (in order)."""

    game_id: str
    tutorial: Tutorial
    out: str
    exit_code: int
    saved: Path
    record: dict[str, Any]
    coached: list[str | None]


@pytest.fixture(scope="module", params=TAUGHT)
def learned(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Learned:
    game_id: str = request.param
    saved = tmp_path_factory.mktemp("learn") / f"{game_id}.jsonl"
    result = invoke("learn", game_id, "--seed", "1", "--save", str(saved), input=FIRST_CHOICE)
    assert result.exit_code == 0, result.output[-3000:]
    lines = saved.read_text().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    tutorial = tutorial_of(game_id)
    coached: list[str | None] = []

    def at(state: State, actor: int, item: Any) -> None:
        if actor == tutorial.learner:
            coached.append(state.game.text.coach(state, actor))

    replay_record(MatchRecord.from_dict(record), at)
    return Learned(game_id, tutorial, result.stdout, result.exit_code, saved, record, coached)


# ----------------------------------------------------------------------------- the tutorial


def test_the_prepared_deal_is_drawn_first(learned: Learned) -> None:
    drawn = [item for actor, item in learned.record["history"] if actor == "chance"]
    deal = list(learned.tutorial.deal)
    assert drawn[: len(deal)] == deal
    # Then chance goes on from the seed, printed.
    assert learned.record["seed"] == 1
    assert "seed 1" in learned.out.splitlines()[0]


def test_the_learner_plays_the_tutorials_seat_against_its_bots(learned: Learned) -> None:
    tutorial = learned.tutorial
    seats = learned.record["seats"]
    assert seats[tutorial.learner] == "human"
    assert [s for i, s in enumerate(seats) if i != tutorial.learner] == list(tutorial.opponents)
    assert learned.record["players"] == tutorial.players


def test_each_lesson_is_the_games_coach_for_its_position(learned: Learned) -> None:
    lessons = learned.tutorial.lessons
    assert len(learned.coached) > lessons, "the learner must decide more often than coached"
    out = flat(learned.out)
    parts: list[str] = []
    for number, words in enumerate(learned.coached[:lessons], 1):
        assert words, f"the coach says nothing at lesson {number}"
        parts += [f"Lesson {number} of {lessons}", flat(words)]
    assert in_order(out, *parts)
    # Each lesson is told once, its words right under its heading.
    for number, words in enumerate(learned.coached[:lessons], 1):
        heading = f"Lesson {number} of {lessons}"
        assert out.count(heading) == 1
        assert out.index(heading) + len(heading) + 1 == out.index(
            flat(words or ""), out.index(heading)
        )


def test_no_lesson_after_the_last_then_the_learner_is_on_their_own(learned: Learned) -> None:
    out = flat(learned.out)
    lessons = learned.tutorial.lessons
    assert out.count("Lesson ") == lessons
    alone = flat(ON_YOUR_OWN)
    assert out.count(alone) == 1
    assert in_order(out, f"Lesson {lessons} of {lessons}", alone)
    after = out[out.index(alone) :]
    assert "Lesson " not in after
    # What the coach would say at the later decisions is never printed (unless a lesson said
    # the same words).
    taught = {flat(words or "") for words in learned.coached[:lessons]}
    for words in learned.coached[lessons:]:
        if words and flat(words) not in taught:
            assert flat(words) not in after


def test_a_lesson_comes_before_its_prompt(learned: Learned) -> None:
    # The table and the moves, then the first lesson, then the prompt for the move it explains.
    out = learned.out
    first = out.index("Lesson 1 of")
    assert out.find("p0> ", first) > first
    assert out.rfind("p0, your move", 0, first) > out.rfind("p0> ", 0, first)


def test_the_saved_tutorial_replays(learned: Learned) -> None:
    assert f"courtly replay {learned.saved}" in learned.out
    replayed = invoke("replay", str(learned.saved))
    assert replayed.exit_code == 0, replayed.output
    assert "returns match the record" in replayed.stdout


# ------------------------------------------------------------------------- the command line


def test_learn_alone_lists_the_games_that_teach() -> None:
    result = invoke("learn")
    assert result.exit_code == 0, result.output
    for game_id in TAUGHT:
        assert game_id in result.stdout
    assert "courtly learn GAME" in result.stdout


def test_help_mentions_learn() -> None:
    result = invoke("--help")
    assert result.exit_code == 0, result.output
    assert "learn" in result.stdout
    assert "Learn a game" in result.stdout


def test_hint_works_as_in_play() -> None:
    result = invoke("learn", "royal-gambit", "--seed", "1", input="hint\n")
    assert result.exit_code == ABANDONED, result.output
    assert in_order(result.stdout, "Lesson 1 of", "p0> ", "Hint for p0", "1. ")


def test_a_bad_game_is_refused_with_the_games_that_teach() -> None:
    result = invoke("learn", "chess")
    assert_clean_error(result, "unknown game 'chess'", "games that teach", "royal-gambit")


def test_a_game_without_a_tutorial_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = game_class("royal-gambit")
    monkeypatch.setattr(game, "info", dataclasses.replace(game.info, tutorial=None))
    result = invoke("learn", "royal-gambit")
    assert_clean_error(result, "Royal Gambit has no tutorial", "courtly play royal-gambit")
    listed = invoke("learn")
    assert listed.exit_code == 0
    assert "royal-gambit" not in listed.stdout
    assert "crush-the-crown" in listed.stdout


def test_quit_leaves_with_status_3_and_saves_nothing(tmp_path: Path) -> None:
    saved = tmp_path / "left.jsonl"
    result = invoke("learn", "royal-gambit", "--save", str(saved), input="quit\ny\n")
    assert result.exit_code == ABANDONED, result.output
    assert in_order(result.stdout, "Lesson 1 of", "Leave this game?", "Game abandoned. Goodbye.")
    assert not saved.exists()


def test_end_of_input_leaves_with_status_3() -> None:
    result = invoke("learn", "kings-court", "--seed", "2", input="")
    assert result.exit_code == ABANDONED, result.output
    assert "Game abandoned" in result.stdout
    assert "Traceback" not in result.output


def test_the_first_lesson_is_the_coach_at_the_tutorials_start() -> None:
    # Worked out without the command: the prepared deal applied until the learner decides.
    for game_id in TAUGHT:
        tutorial = tutorial_of(game_id)
        state = courtly.make(
            game_id, players=tutorial.players, **dict(tutorial.options)
        ).new_state()
        deal = list(tutorial.deal)
        while state.is_chance:
            state.apply_chance(state.game.text.parse_chance(state, deal.pop(0)))
        if tutorial.learner not in state.to_move:
            continue  # a bot moves first: which position the lesson meets depends on it
        words = state.game.text.coach(state, tutorial.learner)
        assert words
        result = invoke("learn", game_id, "--seed", "5", input="")
        assert in_order(flat(result.stdout), "Lesson 1 of", flat(words)), game_id
