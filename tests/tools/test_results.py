"""tools/results.py (``make results``): every game at every player count, its rows and marks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import courtly
from courtly.core.registry import game_class, game_ids


def _load() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tools" / "results.py"
    spec = importlib.util.spec_from_file_location("_courtly_results", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


results = _load()


def shipped_games() -> set[str]:
    """The games Courtly ships (tests register toy games of their own)."""
    return {i for i in game_ids() if game_class(i).__module__.startswith("courtly.games.")}


def document(game: str = "kings-court", players: int = 4, cap: float = 0.57) -> dict[str, Any]:
    """The parts of an analysis document a row reads."""
    figures = {
        "win_rate_by_seat": [{"rate": 1 / players} for _ in range(players)],
        "seat_advantage": {"p_value": 0.5},
        "length": {
            "steps": {"median": 900},
            "decisions": {"median": 684},
            "seat turns": {"median": 500},
            "reshuffles": {"median": 12},
            "turns": {"median": 500},
        },
        "comebacks": {"leader_at_middle_wins": {"rate": 0.25, "of": 100}},
        "safety_cap": {"rate": cap},
    }
    return {
        "game": game,
        "players": players,
        "variants": [{"figures": figures, "options": {"safety_cap": 500}}],
        "skill": {"eta_squared_skill": 0.6},
        "minutes": {"median": 56.0, "p10": 11.2, "p90": 58.8},
    }


def test_every_registered_game_is_reported_with_its_cap_unit_and_pace() -> None:
    assert set(results.GAMES) == shipped_games()
    assert set(results.CAP_UNITS) == set(results.PACES) == shipped_games()
    for game_id in results.GAMES:
        # The unit the cap counts is one the game measures its length in (State.progress)...
        state = courtly.make(game_id).new_state()
        assert results.CAP_UNITS[game_id] in state.progress()
        # ...and the one its safety_cap option speaks of.
        option = next(o for o in game_class(game_id).info.options if o.name == "safety_cap")
        assert results.CAP_UNITS[game_id][:-1] in (option.help + option.label).lower()
        redeal = results.PACES[game_id].redeal_unit
        assert not redeal or redeal in state.progress()


@pytest.mark.parametrize(
    ("rate", "cell"),
    [(0.0, "0.0%"), (0.008, "0.8%"), (0.01, "1.0%"), (0.0221, "⚠ **2.2%**"), (0.565, "⚠ **56%**")],
)
def test_a_cap_rate_above_one_percent_is_marked(rate: float, cell: str) -> None:
    assert results.cap_cell(document(cap=rate)) == cell
    assert results.capped(document(cap=rate)) == (rate > 0.01)


def test_a_row_has_its_report_length_minutes_and_cap() -> None:
    row = results.row(document())
    assert row.startswith("| [King's Court](docs/results/kings-court-4p.html) | 4 | ")
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[4] == "500 turns (12 reshuffles)"  # the cap's unit first, not seat turns
    assert cells[5] == "684"
    assert cells[6] == "56 (11–59)"
    assert cells[8] == "⚠ **57%** of 500 turns"


def test_the_section_flags_the_worst_rows_first_and_says_how_it_was_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    documents = [
        document("royal-gambit", 2, 0.0),
        document("kings-court", 3, 0.1),
        document("kings-court", 4, 0.57),
    ]
    documents[0]["variants"][0]["figures"]["length"] = {
        "steps": {"median": 110},
        "decisions": {"median": 60},
        "seat turns": {"median": 37},
        "hands": {"median": 6},
    }
    flag = results.flagged(documents)
    assert flag.index("King's Court at 4 players (57%)") < flag.index("at 3 players (10%)")
    assert "Royal Gambit" not in flag
    assert "more often than" in results.flagged(documents[:1])
    for each in documents:
        each["made"] = {"games": 100, "skill_games": 20, "pace_games": 30, "workers": 1}
        each["made"]["seconds"] = 31.7
    # The findings of a row come from the analysis page; here only the table is read.
    monkeypatch.setattr(results, "findings", lambda _document: ["Found."])
    text = results.section(documents)
    assert text.startswith(results.START) and text.endswith(results.END)
    assert "--games 100 --skill-games 20 --pace-games 30 --workers 1" in text
    assert "in 2 minutes" in text
    assert "- *4 players ⚠.* Found." in text and "- *2 players.* Found." in text


def test_a_p_value_too_small_for_a_float_is_not_zero() -> None:
    underflow = document()
    underflow["variants"][0]["figures"]["seat_advantage"]["p_value"] = 0.0
    assert "| < 1e-300 |" in results.row(underflow)


def test_a_recommended_variant_has_a_row_of_its_own_after_the_rules_as_written() -> None:
    listed = results.rows()
    info = game_class("kings-court").info
    at = listed.index(("kings-court", 4, None))
    assert listed[at + 1] == ("kings-court", 4, info.recommended[4])
    assert ("kings-court", 2, None) in listed
    assert not [r for r in listed if r[0] == "kings-court" and r[1] == 2 and r[2] is not None]
    variant = document(cap=0.001)
    variant["variants"][0]["options"]["track_cut"] = 5
    row = results.row(variant)
    assert row.startswith(
        "| [King's Court, Courtly's variant: the shorter track (20 spaces) (`-o track_cut=5`)]"
        "(docs/results/kings-court-4p-track_cut5.html) | 4 | "
    )
    assert results.recommended_of(document()) is None
