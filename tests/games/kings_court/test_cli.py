"""King's Court through the ``courtly`` command line: terminal play, rules, simulate, replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

from courtly.testing.cli import invoke

PLAY = ["play", "kings-court", "--seats", "human,heuristic", "--seed", "3"]


def test_rules_prints_the_summary() -> None:
    result = invoke("rules", "kings-court")
    assert result.exit_code == 0, result.output
    for fragment in ("KING'S COURT", "KC-9", "KC-12", "play 7H", "borrow 6H", "end"):
        assert fragment in result.stdout


def test_games_lists_the_options() -> None:
    result = invoke("games")
    assert result.exit_code == 0, result.output
    for name in ("kings-court", "track_length", "initial_hand_size", "prefilter_unused_suits"):
        assert name in result.stdout


def test_play_draws_the_track_with_every_pawn_and_the_own_hand() -> None:
    result = invoke(*PLAY, input="end\n")
    assert result.exit_code == 3, result.output  # unfinished: the input ran out
    out = result.stdout
    assert re.search(r"^track +0 +10 +20 +30$", out, re.MULTILINE), out
    assert re.search(r"^> p0 \(you\) H \|o·{30}\| +0  hand 1: \S+$", out, re.MULTILINE), out
    assert re.search(r"^  p1       S \|o·{30}\| +0  hand \d+$", out, re.MULTILINE), out
    assert "p0, your move: 1 play" in out
    assert "Game abandoned" in out  # the input ran out: a clean goodbye


def test_play_end_of_input_exits_cleanly() -> None:
    result = invoke(*PLAY, input="")
    assert result.exit_code == 3, result.output  # unfinished: the input ran out
    assert "Game abandoned" in result.stdout
    assert "Traceback" not in result.output


def test_play_explains_bad_input() -> None:
    result = invoke(*PLAY, input="play 2C\nborrow 5s\nplay 7h p1\nend\n")
    assert result.exit_code == 3, result.output  # unfinished: the input ran out
    out = " ".join(result.stdout.split())  # the terminal wraps long lines
    assert "p0 does not hold 2C" in out
    assert "borrow is only possible right after playing a Queen" in out
    assert "'play 7h p1' is not an action of King's Court" in out
    assert "p0 ends the turn." in out


def test_play_a_whole_game_hides_the_bots_draws(tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    result = invoke(*PLAY, "--save", str(saved), input="end\n" * 600)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"^Winner: p\d", out, re.MULTILINE), out[-2000:]
    record = json.loads(saved.read_text())
    history = record["history"]
    # Narration names p0's draws to p0 and never p1's.
    assert re.search(r"^  p0 draws (10|[2-9JQKA])[HS]\.$", out, re.MULTILINE)
    assert re.search(r"^  p1 draws a card\.$", out, re.MULTILINE)
    assert not re.search(r"^  p1 draws (10|[2-9JQKA])[SHDC]", out, re.MULTILINE)
    # Until the end, no picture shows p1's cards.
    final = out.rindex("King's Court · p0 hearts")
    pictures = out[:final]
    assert not re.search(r"^  p1 .*hand \d+: ", pictures, re.MULTILINE)
    replayed = invoke("replay", str(saved))
    assert replayed.exit_code == 0, replayed.output
    assert "returns match the record" in replayed.stdout
    assert f"Replayed {len(history)} events" in replayed.stdout


def test_simulate_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke(
        "simulate",
        "kings-court",
        "--seats",
        "heuristic,random,random",
        "-n",
        "6",
        "--seed",
        "1",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert "King's Court, 3 players, 6 games" in result.stdout
    assert "heuristic" in result.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6
    assert all(abs(sum(r["returns"]) - 1) < 1e-9 for r in records)
    replayed = invoke("replay", str(out), "--game", "4", "--seat", "p1")
    assert replayed.exit_code == 0, replayed.output
    assert "returns match the record" in replayed.stdout
    assert "track" in replayed.stdout
