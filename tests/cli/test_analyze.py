"""``courtly analyze`` from the command line: the report and its figures are written,
a variant is compared, a sweep drawn, bad input refused with one clear line before any game;
``simulate`` takes the same backends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtly.testing.cli import invoke


def test_analyze_writes_the_report_and_every_figure(tmp_path: Path) -> None:
    prefix = tmp_path / "rg"
    result = invoke(
        "analyze", "royal-gambit", "--players", "3", "-n", "30", "--skill-games", "20",
        "--seed", "4", "--out", str(prefix),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "win rate p0" in result.output and "Skill against luck" in result.output
    document = json.loads(prefix.with_suffix(".json").read_text())
    assert document["format"] == "courtly-analysis/2"
    assert document["games"] == 30 and document["players"] == 3
    assert document["seats"] == ["heuristic"] * 3
    figures = document["variants"][0]["figures"]
    assert figures["games"] == 30
    assert len(figures["win_rate_by_seat"]) == 3
    assert document["skill"]["games"] == 20
    html = prefix.with_suffix(".html").read_text()
    assert "royal" in html.lower() and "data:image/png;base64," in html
    assert list(tmp_path.glob("rg-*.png"))
    # The same seed, the same figures (but for the time they took).
    again = invoke(
        "analyze", "royal-gambit", "--players", "3", "-n", "30", "--skill-games", "20",
        "--seed", "4", "--workers", "2", "--out", str(tmp_path / "again"),
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    repeated = json.loads((tmp_path / "again.json").read_text())
    for found in (document, repeated):
        for variant in found["variants"]:
            variant["figures"].pop("speed")
    assert repeated == document


def test_analyze_compares_a_variant_and_sweeps_an_option(tmp_path: Path) -> None:
    result = invoke(
        "analyze", "royal-gambit", "--players", "2", "-n", "40", "--skill-games", "0",
        "--compare", "target_score=45", "--out", str(tmp_path / "cmp"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "target_score=45 against default rules" in result.output
    document = json.loads((tmp_path / "cmp.json").read_text())
    assert [v["options"]["target_score"] for v in document["variants"]] == [30, 45]
    assert document["comparison"] and document["skill"] is None
    swept = invoke(
        "analyze", "royal-gambit", "--players", "2", "-n", "10", "--skill-games", "0",
        "--sweep", "target_score=20,30,40", "--out", str(tmp_path / "sweep"),
    )  # fmt: skip
    assert swept.exit_code == 0, swept.output
    document = json.loads((tmp_path / "sweep.json").read_text())
    assert document["sweep"]["values"] == [20, 30, 40]
    assert len(document["variants"]) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game"),
        (["royal-gambit", "-o", "target_score=lots"], "target_score"),
        (["royal-gambit", "-n", "0"], "-n 0"),
        (
            ["royal-gambit", "--compare", "target_score=40", "--sweep", "target_score=20,30"],
            "not both",
        ),
        (["royal-gambit", "--sweep", "target_score=20"], "two values"),
        (["royal-gambit", "--sweep", "speed=1,2"], "speed"),
        (["royal-gambit", "--compare", "target_score=-4"], "target_score"),
        (["royal-gambit", "--seats", "heuristic,human"], "bots"),
        (["royal-gambit", "--skill-bots", "heuristic"], "two bots"),
        (["royal-gambit", "--skill-bots", "heuristic,wizard"], "wizard"),
        (["royal-gambit", "--backend", "spark"], "local, ray"),
        (["royal-gambit", "--address", "ray://nowhere:1"], "--backend ray"),
        (["royal-gambit", "--out", "/nonexistent/folder/x"], "does not exist"),
    ],
)
def test_analyze_refuses_bad_input_with_one_line(args: list[str], message: str) -> None:
    result = invoke("analyze", *args, "--skill-games", "0")
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_simulate_takes_a_backend_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    summary = tmp_path / "summary.json"
    done = invoke(
        "simulate", "crush-the-crown", "-n", "12", "--backend", "local", "--workers", "2",
        "--summary", str(summary),
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert json.loads(summary.read_text())["games"] == 12
    refused = invoke("simulate", "crush-the-crown", "-n", "12", "--backend", "spark")
    assert refused.exit_code == 2 and "local, ray" in refused.output
