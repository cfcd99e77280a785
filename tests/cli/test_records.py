"""Records through the command line: ``simulate --out``, ``play --save`` and ``replay`` share
``courtly.core.records``; a record that cannot be read, and an output that cannot be written,
get one clear line and exit status 2 before anything happens."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import random
from pathlib import Path
from typing import Any

import pytest

import courtly
from courtly.cli.shared import ABANDONED
from courtly.core.records import RECORD_FORMAT, find_record
from courtly.core.replays import replay_record
from courtly.testing.cli import invoke

from .test_cli import PLAY, assert_clean_error

GAMES = 6


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file of finished Royal Gambit games, written by ``simulate --out``."""
    out = tmp_path_factory.mktemp("records") / "games.jsonl"
    result = invoke(
        "simulate",
        "royal-gambit",
        "--seats",
        "heuristic,random",
        "-n",
        str(GAMES),
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def lines(recorded: Path) -> list[str]:
    return recorded.read_text().splitlines(keepends=True)


def first(lines: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(lines[0])
    return data


def write(path: Path, *records: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


# --------------------------------------------------------------------------- one format


def test_simulate_writes_records_the_record_module_reads(recorded: Path) -> None:
    for number in range(GAMES):
        line, record = find_record(recorded, number)
        assert line == number + 1
        assert record.game == "royal-gambit" and record.finished
        assert json.loads(recorded.read_text().splitlines()[number])["format"] == RECORD_FORMAT
        assert replay_record(record).is_terminal


def test_replay_reads_a_gzip_compressed_file(lines: list[str], tmp_path: Path) -> None:
    packed = tmp_path / "games.jsonl.gz"
    packed.write_bytes(gzip.compress("".join(lines).encode()))
    plain = invoke("replay", str(packed), "--game", "3")
    assert plain.exit_code == 0, plain.output
    assert "game 3: returns match the record" in plain.stdout


def test_simulate_out_to_a_gz_path_writes_gzip(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl.gz"
    result = invoke(
        "simulate", "royal-gambit", "--seats", "random,random", "-n", "3", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    assert len(gzip.decompress(out.read_bytes()).decode().splitlines()) == 3
    replayed = invoke("replay", str(out), "--game", "2")
    assert replayed.exit_code == 0, replayed.output


def test_play_save_appends_to_a_gz_file_that_replays(tmp_path: Path) -> None:
    saved = tmp_path / "mine.jsonl.gz"
    for _ in range(2):
        result = invoke(*PLAY, "--save", str(saved), input="stay\n" * 400)
        assert result.exit_code == 0, result.output
    assert len(gzip.decompress(saved.read_bytes()).decode().splitlines()) == 2
    assert invoke("replay", str(saved)).exit_code == 0


def test_a_saved_state_in_progress_replays_and_says_the_game_is_not_over(tmp_path: Path) -> None:
    state = courtly.make("royal-gambit", players=2).new_state()
    rng = random.Random(4)
    for _ in range(12):
        if state.is_chance:
            courtly.sample_chance(state, rng)
        else:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert not state.is_terminal
    path = tmp_path / "state.json"
    path.write_text(state.to_json())
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    assert "Replayed 12 events of game 0: the game is not over." in result.stdout


# --------------------------------------------------------------------------- unreadable


def test_replay_of_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"game": "royal-gambit", "note": "été"}\n'.encode("latin-1"))
    assert_clean_error(invoke("replay", str(path)), "latin1.jsonl", "not UTF-8")


def test_replay_of_a_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes(range(256)) * 4)
    assert_clean_error(invoke("replay", str(path)), "noise.bin", "not UTF-8")


def test_replay_of_a_damaged_gzip_file(lines: list[str], tmp_path: Path) -> None:
    packed = gzip.compress("".join(lines).encode())
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(packed[: len(packed) // 2])
    assert_clean_error(invoke("replay", str(path), "--game", str(GAMES - 1)), "damaged gzip")


@pytest.mark.parametrize(("name", "pack"), [("bzip2", bz2.compress), ("xz", lzma.compress)])
def test_replay_of_a_file_compressed_otherwise_says_so(
    name: str, pack: Any, lines: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "games.packed"
    path.write_bytes(pack("".join(lines).encode()))
    assert_clean_error(invoke("replay", str(path)), f"compressed with {name}", "gzip")


def test_replay_of_a_text_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes\n")
    assert_clean_error(invoke("replay", str(path)), "line 1", "not valid JSON")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"game": "royal-gambit\t"}', "Invalid control character at column 23"),
        ('{"game": "royal-gam', "Unterminated string starting at column 10"),
        ("{'game': 1}", "Expecting property name enclosed in double quotes at column 2"),
    ],
)
def test_replay_names_what_is_wrong_with_a_json_line_once(
    text: str, problem: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)  # no line break to end it: the string stays unterminated
    line = assert_clean_error(invoke("replay", str(path)), "line 1", f"({problem});")
    assert "at at" not in line


def test_replay_of_an_unknown_format_version(lines: list[str], tmp_path: Path) -> None:
    path = write(tmp_path / "future.jsonl", {**first(lines), "format": "courtly-game/9"})
    assert_clean_error(invoke("replay", str(path)), "line 1", "courtly-game/9", "newer Courtly")


def test_replay_of_a_file_of_something_else(tmp_path: Path) -> None:
    path = write(tmp_path / "other.jsonl", {"format": "courtly-ladder-journal/1", "game": "x"})
    assert_clean_error(invoke("replay", str(path)), "line 1", "not a game record")


def test_replay_of_a_finished_game_whose_history_stops_early(
    lines: list[str], tmp_path: Path
) -> None:
    data = first(lines)
    data["history"] = data["history"][: len(data["history"]) // 2]
    path = write(tmp_path / "short.jsonl", data)
    assert_clean_error(invoke("replay", str(path)), "line 1", "it is not a finished game")


def test_replay_of_a_move_illegal_where_it_stands_names_its_number_and_seat(
    lines: list[str], tmp_path: Path
) -> None:
    data = first(lines)
    index = next(i for i, (actor, _) in enumerate(data["history"]) if actor == "p1")
    data["history"][index][1] = "give-9 p0"
    path = write(tmp_path / "illegal.jsonl", data)
    line = assert_clean_error(invoke("replay", str(path)), "line 1", f"move {index + 1}", "p1")
    assert "give-9 p0" in line


def test_replay_of_a_move_by_a_seat_not_to_move(lines: list[str], tmp_path: Path) -> None:
    data = first(lines)
    index = next(i for i, (actor, _) in enumerate(data["history"]) if actor == "p0")
    data["history"][index][0] = "p1"
    path = write(tmp_path / "turn.jsonl", data)
    assert_clean_error(invoke("replay", str(path)), f"move {index + 1}", "p1")


def test_replay_of_a_record_of_an_unknown_game(lines: list[str], tmp_path: Path) -> None:
    path = write(tmp_path / "nogame.jsonl", {**first(lines), "game": "chess"})
    assert_clean_error(invoke("replay", str(path)), "line 1", "chess")


def test_replay_with_a_seat_the_game_does_not_have(recorded: Path) -> None:
    assert_clean_error(invoke("replay", str(recorded), "--seat", "p7"), "--seat", "p7", "p0, p1")


def test_replay_of_a_folder(tmp_path: Path) -> None:
    assert_clean_error(invoke("replay", str(tmp_path)), str(tmp_path))


def test_a_bad_record_prints_no_narration_before_its_error(
    lines: list[str], tmp_path: Path
) -> None:
    data = first(lines)
    data["history"][-1][1] = "bogus"
    path = write(tmp_path / "late.jsonl", data)
    result = invoke("replay", str(path))
    assert_clean_error(result, f"move {len(data['history'])}")
    assert result.stdout == ""


# --------------------------------------------------------------------------- outputs


@pytest.mark.parametrize("where", ["missing/game.jsonl", "."])
def test_play_save_where_nothing_can_be_written_fails_before_the_first_move(
    where: str, tmp_path: Path
) -> None:
    target = tmp_path / where
    result = invoke(*PLAY, "--save", str(target), input="stay\n" * 400)
    assert_clean_error(result, "--save", str(target))
    assert "p0>" not in result.stdout and "Winner" not in result.stdout
    assert not (tmp_path / "missing").exists()


def test_play_save_writes_the_game_before_the_summary(tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    result = invoke(*PLAY, "--save", str(saved), input="stay\n" * 400)
    assert result.exit_code == 0, result.output
    assert find_record(saved)[1].finished


def test_an_abandoned_game_leaves_no_empty_save_file(tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    result = invoke(*PLAY, "--save", str(saved), input="")
    assert result.exit_code == ABANDONED, result.output
    assert "Game abandoned" in result.stdout
    assert not saved.exists()


def test_an_abandoned_game_keeps_the_earlier_saved_games(tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    assert invoke(*PLAY, "--save", str(saved), input="stay\n" * 400).exit_code == 0
    before = saved.read_bytes()
    assert invoke(*PLAY, "--save", str(saved), input="").exit_code == ABANDONED
    assert saved.read_bytes() == before


@pytest.mark.parametrize("flag", ["--out", "--summary"])
def test_simulate_outputs_that_cannot_be_written_fail_before_any_game(
    flag: str, tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "x.json"
    result = invoke(
        "simulate", "royal-gambit", "--seats", "random,random", "-n", "5", flag, str(target)
    )
    assert_clean_error(result, flag, "does not exist")
    assert "win rate" not in result.stdout


def test_ladder_outputs_that_cannot_be_written_fail_before_any_game(tmp_path: Path) -> None:
    stem = tmp_path / "missing" / "ladder"
    result = invoke(
        "ladder", "royal-gambit", "--agents", "random,heuristic", "-n", "2", "--out", str(stem)
    )
    assert_clean_error(result, "--out", "does not exist")
