"""The analysis report on disk: the JSON, a PNG per plot, and one HTML page that
embeds exactly those plots, reads offline, escapes what it is given, and has its tables without
Matplotlib."""

from __future__ import annotations

import base64
import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

import courtly.sim.analysis_page as page
from courtly.sim.analysis import Variant, analysis
from courtly.sim.analysis_page import findings, write_report

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def compared() -> dict[str, Any]:
    variants = [
        Variant("default rules", {"target_score": 30}),
        Variant("target_score=40", {"target_score": 40}),
    ]
    return analysis("royal-gambit", 2, ["heuristic"] * 2, 30, variants, seed=2, skill_games=20)


def test_the_report_embeds_its_plots_and_fetches_nothing(
    tmp_path: Path, compared: dict[str, Any]
) -> None:
    written = write_report(compared, tmp_path / "rg")
    names = {path.name for path in written}
    assert {"rg.json", "rg.html", "rg-seats.png", "rg-length.png", "rg-skill.png"} <= names
    assert json.loads((tmp_path / "rg.json").read_text()) == compared
    html = (tmp_path / "rg.html").read_text()
    embedded = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    pngs = sorted(path for path in written if path.suffix == ".png")
    assert sorted(base64.b64decode(data) for data in embedded) == sorted(
        p.read_bytes() for p in pngs
    )
    assert all(p.read_bytes().startswith(PNG) for p in pngs)
    assert not re.search(r'(src|href)="https?://', html)
    for heading in (
        "Findings",
        "Win rate by seat",
        "Length",
        "Scores and margins",
        "Comebacks",
        "Actions",
        "Skill against luck",
    ):
        assert f"<h2>{heading}</h2>" in html
    assert "target_score=40 against default rules" in html
    # The findings carry the document's own numbers.
    p0 = compared["variants"][0]["figures"]["win_rate_by_seat"][0]
    assert f"{100 * p0['rate']:.0f}%" in " ".join(findings(compared))
    assert "--compare target_score=40" in html


def test_a_sweep_gets_its_grid_and_a_game_without_points_says_so(tmp_path: Path) -> None:
    variants = [Variant(f"target_score={t}", {"target_score": t}) for t in (20, 40)]
    swept = analysis("royal-gambit", 2, ["heuristic"] * 2, 8, variants, sweep="target_score")
    assert (tmp_path / "sw-sweep.png") in write_report(swept, tmp_path / "sw")
    goths = analysis(
        "goths-save-the-queen", 2, ["heuristic"] * 2, 8, [Variant("default rules", {})]
    )
    write_report(goths, tmp_path / "goths")
    assert "keeps no points" in (tmp_path / "goths.html").read_text()
    assert not (tmp_path / "goths-scores.png").exists()


def test_text_from_the_document_is_escaped(tmp_path: Path, compared: dict[str, Any]) -> None:
    hostile = json.loads(json.dumps(compared))
    hostile["variants"][1]["name"] = "<script>alert(1)</script>"
    write_report(hostile, tmp_path / "x")
    html = (tmp_path / "x.html").read_text()
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_without_matplotlib_the_page_has_its_tables_and_the_hint(
    tmp_path: Path, compared: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(page, "has_matplotlib", lambda: False)
    written = write_report(compared, tmp_path / "plain")
    assert not [path for path in written if path.suffix == ".png"]
    html = (tmp_path / "plain.html").read_text()
    assert "courtly[analysis]" in html and "<table>" in html and "data:image" not in html


def test_a_p_value_below_a_floats_range_is_said_to_be_below_it(compared: dict[str, Any]) -> None:
    # Ten thousand games of a lopsided table put the chi-square tail under 1e-308: a float's
    # 0.0, which no sentence should read as "p = 0".
    lopsided = copy.deepcopy(compared)
    lopsided["variants"][0]["figures"]["seat_advantage"]["p_value"] = 0.0
    text = " ".join(findings(lopsided))
    assert "(chi-square p < 1e-300)" in text and "p = 0)" not in text
    assert "(chi-square p = " in " ".join(findings(compared))
