"""A game ended by its safety cap says so, with how the cap decided it, in every front end: the
outcome's reason (the browser's end panel shows it), the story's last lines, the terminal's end
(``courtly play`` and ``replay``), the record (``truncated``) and the server's result.

Each game at each of its player counts is played out by random seats with a tiny ``safety_cap``
until a game meets the cap."""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console

import courtly
from courtly.cli.shared import print_end
from courtly.core.events import CHANCE
from courtly.core.game import State
from courtly.core.records import MatchRecord
from courtly.core.registry import game_class
from courtly.core.replays import replay_record
from courtly.core.story import Story
from courtly.web.seat_messages import result

CAP_RULES = {
    # The rule that says what happens at each game's cap (docs/rules/<game>.md).
    "royal-gambit": "RG-26",
    "god-save-the-king": "GSK-29",
    "crush-the-crown": "CTC-26",
    "goths-save-the-queen": "GOTH-26",
    "kings-court": "KC-18",
}
TABLES = [(game, players) for game in CAP_RULES for players in game_class(game).info.player_counts]


def capped_game(game_id: str, players: int) -> tuple[State, Story]:
    """The first random game (seed 0, 1, ...) that the cap of one unit ends, with its story."""
    game = courtly.make(game_id, players=players, safety_cap=1)
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_state()
        story = Story()
        while not state.is_terminal:
            if state.is_chance:
                outcome = state.sample_chance_outcome(rng)
                story.tell(state, CHANCE, outcome)
                state.apply_chance(outcome)
            else:
                seat = state.to_move[0]
                action = rng.choice(list(state.legal_actions(seat)))
                story.tell(state, seat, action)
                state.apply(seat, action)
        if state.truncated:
            return state, story
    raise AssertionError(f"no {game_id} game of {players} met a cap of 1 in 100 seeds")


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_a_game_ended_by_the_cap_says_so_everywhere(game_id: str, players: int) -> None:
    state, story = capped_game(game_id, players)
    rule = CAP_RULES[game_id]

    # The outcome: the cap, its rule, and who it made the winner (or a draw).
    reason = state.game.text.outcome(state).reason
    assert "safety cap" in reason.lower() and rule in reason, reason
    winners = state.winners
    decided = "draw" in reason or "share" in reason or any(f"p{s}" in reason for s in winners)
    assert decided or "farthest pawn" in reason, reason

    # The story: one of its last lines, read by anybody, is the cap's, with its rule.
    last = [text for _, _, text in story.lines][-3:]
    assert any("safety cap" in line and rule in line for line in last), last

    # The terminal's end: the table's last line says how the cap ended it, then the note.
    screen = io.StringIO()
    print_end(Console(file=screen, width=200), state, ["random"] * players)
    shown = screen.getvalue()
    assert "cut off at its safety cap (safety_cap = 1), not ended by its rules." in shown
    note = shown.strip().splitlines()[-1]
    assert reason.rstrip(".").lower() in note.lower() and rule in note, note

    # The record, through its JSON, and the state it replays to.
    record = MatchRecord.from_dict(json.loads(state.record().to_json()))
    assert record.truncated
    assert replay_record(record).truncated

    # The server's result, which the browser's end panel shows.
    served = result(state)
    assert served is not None and served["truncated"] and served["reason"] == reason
