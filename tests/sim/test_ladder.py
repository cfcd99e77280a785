from __future__ import annotations

import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from courtly.core import InvalidOptions, ReplayError
from courtly.sim.ladder import (
    LadderResult,
    _openskill,
    games_for_margin,
    pair_seats,
    run_ladder,
)
from courtly.testing.cli import invoke


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
    result = invoke(
        "ladder", "royal-gambit", "--agents", "random,heuristic,ismcts:iterations=5:depth=5",
        "-n", "6", "--workers", "1", "--out", str(out),
    )  # fmt: skip
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
    result = invoke(*args)
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


# ----------------------------------------------------------------------------- journal


def _outcome(result: LadderResult) -> tuple[object, ...]:
    return (
        [(p.a, p.b, p.a_score.games, p.a_score.wins) for p in result.pairs],
        result.ratings,
    )


def _ladder(journal: Path | None, **kwargs: object) -> LadderResult:
    settings: dict[str, object] = {"seed": 5, "margin": 0.1, "journal": journal}
    settings.update(kwargs)
    return run_ladder(
        "kings-court", ["random", "heuristic", "heuristic:hoard=false"], 2, **settings
    )  # type: ignore[arg-type]


def test_a_journaled_ladder_run_again_plays_no_game_and_ends_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = tmp_path / "ladder.jsonl"
    first = _ladder(journal)
    lines = journal.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "courtly-ladder-journal/1"
    assert len(lines) == 1 + sum(p.a_score.games for p in first.pairs)
    assert _outcome(first) == _outcome(_ladder(None))

    def no_games(*args: object) -> None:
        raise AssertionError("a game was played again")

    monkeypatch.setattr("courtly.sim.tournament.GamePlayer.play", no_games)
    again = _ladder(journal)
    assert _outcome(again) == _outcome(first)
    assert again.seconds_per_move("heuristic") == first.seconds_per_move("heuristic")
    assert journal.read_text().splitlines() == lines


def test_a_ladder_stopped_midway_goes_on_where_it_stopped(tmp_path: Path) -> None:
    journal = tmp_path / "ladder.jsonl"
    whole = _ladder(None)
    _ladder(journal, games_per_pair=30)  # a first run that stopped early...
    data = journal.read_bytes()
    journal.write_bytes(data[: len(data) - 40])  # ...in the middle of writing a game
    kept = len(journal.read_text().splitlines()) - 2  # the header and the broken line
    played: list[int] = []
    resumed = _ladder(journal, progress=played.append)
    assert _outcome(resumed) == _outcome(whole)
    assert sum(played) == sum(p.a_score.games for p in whole.pairs)
    assert played[0] == kept  # the kept games are counted as done at once


def test_a_journal_of_another_ladder_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "ladder.jsonl"
    _ladder(journal, games_per_pair=2)
    before = journal.read_text()
    with pytest.raises(InvalidOptions, match="journal of another ladder"):
        _ladder(journal, seed=6)
    assert journal.read_text() == before


def test_a_damaged_journal_line_is_named(tmp_path: Path) -> None:
    journal = tmp_path / "ladder.jsonl"
    _ladder(journal, games_per_pair=2)
    lines = journal.read_text().splitlines()
    lines[2] = lines[2][:30]
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError, match="line 3: not JSON"):
        _ladder(journal)


def test_the_ladder_command_keeps_a_journal_and_resumes_from_it(tmp_path: Path) -> None:
    # a long path: the messages print it whole, never wrapped, so it can be copied
    out = tmp_path / ("deep" * 20) / "lad"
    out.parent.mkdir()
    args = ["ladder", "royal-gambit", "--agents", "random,heuristic", "-n", "4"]
    args += ["--workers", "1", "--out", str(out)]
    narrow = {"COLUMNS": "80"}  # a line shorter than the path: were it wrapped, it would be cut
    first = invoke(*args, env=narrow)
    assert first.exit_code == 0, first.output
    assert out.with_suffix(".jsonl").exists() and str(out.with_suffix(".jsonl")) in first.output
    table = out.with_suffix(".md").read_text()
    again = invoke(*args, env=narrow)
    assert again.exit_code == 0, again.output
    assert "Going on from the games in" in again.output
    assert out.with_suffix(".md").read_text() == table


def test_ratings_do_not_lean_on_the_last_games() -> None:
    # "strong" wins 60 of 100 games, but "weak" wins the last 40: a rating updated game by game
    # in that order puts "weak" on top; averaged over orders, the ratings follow the results.
    won, lost = ("strong", "weak", [1.0, 2.0]), ("strong", "weak", [2.0, 1.0])
    games = [won] * 60 + [lost] * 40
    model = PlackettLuce()
    once = {name: model.rating(name=name) for name in ("strong", "weak")}
    for a, b, ranks in games:
        [[once[a]], [once[b]]] = model.rate([[once[a]], [once[b]]], ranks=ranks)
    assert once["weak"].ordinal() > once["strong"].ordinal()  # what the average corrects
    ratings = _openskill(["strong", "weak"], games, seed=0)
    assert ratings["strong"]["ordinal"] > ratings["weak"]["ordinal"]
    assert ratings["strong"]["mu"] > ratings["weak"]["mu"]


# ----------------------------------------------------------------------------- safety cap


def test_a_ladder_counts_and_reports_the_games_cut_off_at_the_safety_cap() -> None:
    # Two King's Court turns end no game by the rules: every game meets the cap.
    capped = run_ladder(
        "kings-court", ["random", "heuristic"], 2, 6, seed=1, options={"safety_cap": 2}
    )
    assert [pair.truncated for pair in capped.pairs] == [6]
    assert capped.truncated == capped.games == 6
    data = json.loads(capped.to_json())
    assert data["truncated"] == 6 and data["games"] == 6
    assert data["pairs"][0]["truncated"] == 6
    assert (
        "Cut off at the safety cap (safety_cap, not the rules): 6 of 6 games "
        "(random v heuristic 6 of 6)" in capped.to_markdown()
    )
    free = run_ladder("royal-gambit", ["random", "heuristic"], 2, 6, seed=1)
    assert free.truncated == 0 and json.loads(free.to_json())["pairs"][0]["truncated"] == 0
    assert "safety cap" not in free.to_markdown()


def test_a_resumed_ladder_still_counts_the_games_cut_off(tmp_path: Path) -> None:
    journal = tmp_path / "ladder.jsonl"
    settings = {"seed": 2, "options": {"safety_cap": 2}, "journal": journal}
    first = run_ladder("kings-court", ["random", "heuristic"], 2, 4, **settings)  # type: ignore[arg-type]
    again = run_ladder("kings-court", ["random", "heuristic"], 2, 4, **settings)  # type: ignore[arg-type]
    assert first.truncated == again.truncated == 4


def test_the_ladder_command_reports_the_games_cut_off(tmp_path: Path) -> None:
    out = tmp_path / "lad"
    args = ["ladder", "kings-court", "--agents", "random,heuristic", "-n", "3"]
    args += ["--workers", "1", "--out", str(out), "-o", "safety_cap=2"]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert "Cut off at the safety cap" in result.output
    assert "Cut off at the safety cap" in out.with_suffix(".md").read_text()
    assert json.loads(out.with_suffix(".json").read_text())["truncated"] == 3
