from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from courtly.cli import app
from courtly.core import InvalidOptions
from courtly.sim.ladder import games_for_margin, pair_seats, run_ladder


def test_games_for_a_three_point_interval() -> None:
    assert games_for_margin(0.03) == 1068
    assert games_for_margin(0.05) == 385


def test_pair_seats_alternate() -> None:
    assert pair_seats("a", "b", 2) == ("a", "b")
    assert pair_seats("a", "b", 5) == ("a", "b", "a", "b", "a")


def test_ladder_ranks_the_heuristic_above_random() -> None:
    result = run_ladder("royal-gambit", ["random", "heuristic"], 2, 60, seed=3)
    assert [(p.a, p.b) for p in result.pairs] == [("random", "heuristic")]
    rate, low, high = result.score("heuristic", "random") or (0, 0, 0)
    assert low > 0.8 and low <= rate <= high
    assert result.ratings["heuristic"]["ordinal"] > result.ratings["random"]["ordinal"]
    markdown = result.to_markdown()
    assert "| heuristic |" in markdown and "Games per pair: 60." in markdown
    assert json.loads(result.to_json())["pairs"][0]["games"] == 60


def test_ladder_needs_two_agents() -> None:
    with pytest.raises(InvalidOptions, match="two different agents"):
        run_ladder("royal-gambit", ["random", "random"], 2, 5)


def test_ladder_command_writes_markdown_and_json(tmp_path: Path) -> None:
    out = tmp_path / "lad"
    result = CliRunner().invoke(
        app,
        [
            "ladder",
            "royal-gambit",
            "--agents",
            "random,heuristic,ismcts:iterations=5:depth=5",
            "-n",
            "6",
            "--workers",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.with_suffix(".json").read_text())
    assert len(data["pairs"]) == 3 and set(data["ratings"]) == {
        "random",
        "heuristic",
        "ismcts:iterations=5:depth=5",
    }
    assert "OpenSkill" in out.with_suffix(".md").read_text()


@pytest.mark.parametrize(
    "args",
    [
        ["ladder", "royal-gambit", "--agents", "random,wizard"],
        ["ladder", "royal-gambit", "--agents", "random,human"],
        ["ladder", "royal-gambit", "--margin", "2"],
        ["ladder", "nope"],
    ],
)
def test_ladder_bad_input(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "error:" in result.output and "Traceback" not in result.output
