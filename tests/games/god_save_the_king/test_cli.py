"""God Save The King through the ``courtly`` command line: play, rules, simulate, replay."""

from __future__ import annotations

import json
from pathlib import Path

from courtly.testing.cli import invoke

PLAY = ["play", "god-save-the-king", "--seats", "human,heuristic", "--seed", "3"]


def test_a_formation_typed_on_one_line_is_played_card_by_card() -> None:
    result = invoke(*PLAY, input="2S 3S 4S\npass\n")
    assert result.exit_code == 3, result.output  # unfinished: the input ran out
    out = result.stdout
    # The table shows which slot is being chosen and the whole hand to choose from.
    assert "Choose the card for the LEFT slot" in out
    assert "Your hand: 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS" in out
    # One line, three actions: left, then middle and right typed ahead.
    assert "p0 puts 2S in the left slot." in out
    assert "p0 puts 3S in the middle slot. (typed ahead)" in out and "p0: form" not in out
    assert out.index("p0 puts 2S in the left slot.") < out.index("p0 puts 4S in the right slot.")
    # The bot's formation stays face down until the reveal, then the table shows it.
    assert "p1 lays a card face down (left)." in out
    assert "Reveal: p0 shows 2S left and 4S right" in out
    assert "left 2S  middle [3S]  right 4S" in out
    assert "Game abandoned" in out and "Traceback" not in result.output


def test_bad_formations_are_explained_and_asked_again() -> None:
    result = invoke(*PLAY, input="10S 10S 8S\n5H 2S 3S\nform right 2S\n2S 3S 4S\n")
    assert result.exit_code == 3, result.output  # unfinished: the input ran out
    out = result.stdout
    assert "10S is named twice" in out
    assert "5H is not in p0's hand" in out
    assert "p0 fills the left slot now" in out
    assert "p0 puts 2S in the left slot." in out
    assert out.count("p0> ") >= 4


def test_a_whole_game_in_the_terminal_then_replay(tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    result = invoke(*PLAY, "--save", str(saved), input="2\ny\n" * 1500)
    assert result.exit_code == 0, result.output
    assert "Winner" in result.stdout or "Shared win" in result.stdout
    record = json.loads(saved.read_text().splitlines()[0])
    assert record["game"] == "god-save-the-king"
    replayed = invoke("replay", str(saved), "--seat", "p1")
    assert replayed.exit_code == 0, replayed.output
    assert "returns match the record" in replayed.stdout


def test_rules_summary() -> None:
    result = invoke("rules", "god-save-the-king")
    assert result.exit_code == 0, result.output
    for fragment in ("GOD SAVE THE KING", "GSK-7", "GSK-27", "form left 10S", "declare q"):
        assert fragment in result.stdout


def test_simulate_and_replay_a_simulated_game(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke(
        "simulate",
        "god-save-the-king",
        "--players",
        "4",
        "--seats",
        "heuristic,random,random,random",
        "-n",
        "12",
        "--seed",
        "1",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.stdout and "win rate" in result.stdout
    assert len(out.read_text().splitlines()) == 12
    replayed = invoke("replay", str(out), "--game", "3")
    assert replayed.exit_code == 0, replayed.output
    assert "returns match the record" in replayed.stdout
