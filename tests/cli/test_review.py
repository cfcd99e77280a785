"""``courtly review`` and ``hint`` at the terminal: what they print and write, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtly.cli.shared import ABANDONED
from courtly.testing.cli import invoke

from .test_cli import assert_clean_error


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two short King's Court games between the heuristic and random bots."""
    path = tmp_path_factory.mktemp("review") / "games.jsonl"
    result = invoke(
        "simulate",
        "kings-court",
        "--seats",
        "heuristic,random",
        "-n",
        "2",
        "--seed",
        "3",
        "-o",
        "track_length=12",
        "--out",
        str(path),
    )
    assert result.exit_code == 0, result.output
    return path


def test_review_prints_the_summary_and_writes_both_files(games: Path, tmp_path: Path) -> None:
    prefix = tmp_path / "rev"
    result = invoke(
        "review", str(games), "--game", "1", "--iterations", "40", "--workers", "1",
        "--out", str(prefix),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Review of kings-court game 1" in out
    assert "heuristic" in out and "random" in out
    assert "accuracy" in out and "i/m/b" in out
    assert f"Written {prefix}.json and {prefix}.html" in out
    data = json.loads(prefix.with_suffix(".json").read_text())
    assert data["game_id"] == 1 and data["budget"] == {"iterations": 40}
    assert [s["seat"] for s in data["summaries"]] == ["p0", "p1"]
    assert "<h1>Review of King&#x27;s Court, game 1</h1>" in prefix.with_suffix(".html").read_text()


def test_review_of_one_seat(games: Path, tmp_path: Path) -> None:
    prefix = tmp_path / "one"
    result = invoke(
        "review", str(games), "--seat", "p1", "--iterations", "40", "--workers", "1",
        "--out", str(prefix),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(prefix.with_suffix(".json").read_text())
    assert data["reviewed_seats"] == ["p1"]
    assert {d["seat"] for d in data["decisions"]} == {"p1"}


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--game", "999"], ["no game with game_id 999"]),
        (["--seat", "p5"], ["--seat", "p5"]),
        (["--iterations", "2"], ["--iterations 2", "at least 4"]),
        (["--iterations", "50", "--seconds", "1"], ["not both"]),
        (["--seconds", "0"], ["--seconds"]),
        (["--workers", "-1"], ["--workers -1"]),
        (["--out", "no/such/folder/rev"], ["--out", "does not exist"]),
    ],
)
def test_review_refuses_bad_input(games: Path, args: list[str], fragments: list[str]) -> None:
    assert_clean_error(invoke("review", str(games), *args), *fragments)


def test_review_of_a_missing_or_broken_record(games: Path, tmp_path: Path) -> None:
    assert_clean_error(invoke("review", str(tmp_path / "missing.jsonl")), "missing.jsonl")
    record = json.loads(games.read_text().splitlines()[0])
    record["history"][5] = ["p0", "play 99Z"]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(record) + "\n")
    assert_clean_error(invoke("review", str(broken)), "line 1", "move 6")


# --------------------------------------------------------------------------- hints


def test_hint_lists_the_best_moves_with_their_win_chance() -> None:
    result = invoke("play", "royal-gambit", "--seats", "human,heuristic", "--seed", "4",
                    input="hint\nstay\n")  # fmt: skip
    assert result.exit_code == ABANDONED, result.output
    out = result.stdout
    assert "hint suggests one" in out
    assert "Hint for p0 (estimated win chance, 95% interval; 2000 searches):" in out
    lines = [line for line in out.splitlines() if line.startswith(("  1. ", "  2. "))]
    assert [line.split()[1] for line in lines] == ["hit", "stay"]
    assert "%" in lines[0]


def test_hints_can_be_turned_off() -> None:
    result = invoke("play", "royal-gambit", "--seats", "human,heuristic", "--seed", "4",
                    "--no-hints", input="hint\nstay\n")  # fmt: skip
    assert result.exit_code == ABANDONED, result.output
    assert "Hints are off at this table" in result.stdout
    assert "Hint for" not in result.stdout
    assert "hint suggests one" not in result.stdout
