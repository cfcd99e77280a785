from __future__ import annotations

import pytest

import courtly
from courtly.core import InvalidOptions, parse_option_assignments
from courtly.core.registry import describe, game_class


def test_text_values_from_a_command_line_are_coerced() -> None:
    game = courtly.make("royal-gambit", players="3", target_score="40", ten_blocks_jacks="yes")  # type: ignore[arg-type]
    assert game.num_players == 3
    assert game.options["target_score"] == 40 and game.options["ten_blocks_jacks"] is True
    assert courtly.make("royal-gambit", num_players=4).num_players == 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": 3}, "unknown option 'target'; its options are: auto_hit_on_zero"),
        ({"target_score": 0}, "target_score must be an integer from 1 to 1000"),
        ({"target_score": 10**30}, "target_score must be an integer from 1 to 1000"),
        ({"target_score": "many"}, "target_score must be an integer"),
        ({"target_score": True}, "target_score must be an integer"),
        ({"turn_mode": "both"}, "turn_mode must be round_robin, full_turn"),
        ({"ten_blocks_jacks": "maybe"}, "ten_blocks_jacks must be true or false"),
        ({"players": 1}, "played by 2–5 players, not 1"),
        ({"players": 6}, "played by 2–5 players, not 6"),
    ],
)
def test_bad_options_name_the_allowed_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message.replace("(", r"\(")):
        courtly.make("royal-gambit", **kwargs)  # type: ignore[arg-type]


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(InvalidOptions, match="unknown game 'chess'; games are: royal-gambit"):
        courtly.make("chess")


def test_games_describe_themselves() -> None:
    described = describe(game_class("royal-gambit"))
    assert described["players"] == [2, 3, 4, 5]
    assert {o["name"] for o in described["options"]} >= {"target_score", "turn_mode", "safety_cap"}
    assert "heuristic" in described["agents"]


def test_option_assignments() -> None:
    assert parse_option_assignments(["target_score=40", "turn-mode = full_turn"]) == {
        "target_score": "40",
        "turn_mode": "full_turn",
    }
    with pytest.raises(InvalidOptions, match="name=value"):
        parse_option_assignments(["target_score"])
