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


def test_an_adaptive_ladder_stops_a_lopsided_pair_early_and_an_even_one_late() -> None:
    # heuristic vs random is ~99%: its ±5-point interval is reached after the first round;
    # the heuristic against itself (two specs, one bot) is even and needs the worst-case count.
    same = "heuristic:caution=1.0"
    result = run_ladder("royal-gambit", ["random", "heuristic", same], 2, seed=1, margin=0.05)
    games = {(p.a, p.b): p.a_score.games for p in result.pairs}
    assert games[("random", "heuristic")] == 100
    assert games[("heuristic", same)] > 300
    for pair in result.pairs:
        low, high = pair.a_score.interval
        assert max(
            pair.a_score.rate - low, high - pair.a_score.rate
        ) <= 0.05 or pair.a_score.games == games_for_margin(0.05)
    assert "or narrower" in result.to_markdown()


def test_a_ladder_is_the_same_for_any_number_of_workers() -> None:
    one = run_ladder("kings-court", ["random", "heuristic"], 2, seed=4, margin=0.1, workers=1)
    two = run_ladder("kings-court", ["random", "heuristic"], 2, seed=4, margin=0.1, workers=2)
    assert [p.to_dict()["games"] for p in one.pairs] == [p.to_dict()["games"] for p in two.pairs]
    assert one.ratings == two.ratings
    assert one.pairs[0].a_score == two.pairs[0].a_score


def test_a_ladder_reports_each_agents_time_per_move() -> None:
    result = run_ladder("royal-gambit", ["random", "ismcts:iterations=30"], 2, 4, seed=2)
    assert 0 < result.seconds_per_move("random") < result.seconds_per_move("ismcts:iterations=30")
    assert "ms/move" in result.to_markdown()
    assert json.loads(result.to_json())["seconds_per_move"]["random"] > 0
