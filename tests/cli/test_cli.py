"""The ``courtly`` command line, driven through Typer's test runner (stdin via ``input=``)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import Result

import courtly
from courtly.cli.games import print_game
from courtly.cli.shared import ABANDONED
from courtly.sim import rotated
from courtly.testing.cli import invoke

SIM_SEATS = "heuristic,random,random,random"
SIM_ARGS = ["--players", "4", "--seats", SIM_SEATS, "-n", "60", "--seed", "1"]
RECORD_KEYS = {"game_id", "game", "options", "seed", "seats", "returns", "history"}


def assert_clean_error(result: Result, *fragments: str) -> str:
    """Exit code 2, one ``error: ...`` line on stderr, no traceback; returns the line."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("error: "), line
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


def in_order(text: str, *parts: str) -> bool:
    """Whether ``parts`` occur in ``text`` one after the other."""
    position = 0
    for part in parts:
        found = text.find(part, position)
        if found < 0:
            return False
        position = found + len(part)
    return True


# --------------------------------------------------------------------------- games, rules


def test_games_lists_royal_gambit_and_its_options() -> None:
    result = invoke("games")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "royal-gambit" in out
    assert "Royal Gambit" in out
    assert "players: 2–5" in out
    for name in (
        "target_score",
        "turn_mode",
        "ten_blocks_jacks",
        "auto_hit_on_zero",
        "final_hand_excludes",
        "safety_cap",
    ):
        assert name in out
    assert "round_robin" in out
    assert "heuristic" in out


def test_games_json_is_valid_and_has_option_names_and_defaults() -> None:
    result = invoke("games", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, list)
    by_id = {entry["id"]: entry for entry in data}
    assert "royal-gambit" in by_id
    royal = by_id["royal-gambit"]
    assert royal["players"] == [2, 3, 4, 5]
    defaults = {option["name"]: option["default"] for option in royal["options"]}
    assert defaults["target_score"] == 30
    assert defaults["turn_mode"] == "round_robin"
    assert defaults["ten_blocks_jacks"] is False
    assert defaults["auto_hit_on_zero"] is False
    assert defaults["final_hand_excludes"] == "leaders"
    assert defaults["safety_cap"] == 200


def test_games_json_adds_the_facts_and_every_bot_with_its_options() -> None:
    data = json.loads(invoke("games", "--json").stdout)
    by_id = {entry["id"]: entry for entry in data}
    keys = {"id", "title", "players", "default_players", "summary", "options", "agents"}
    facts = {"simultaneous", "hidden_information", "teams", "official_players", "default_bot"}
    for entry in data:
        assert keys | facts | {"bots"} <= set(entry), entry["id"]
        if not entry["id"].startswith("test-"):
            names = [bot["name"] for bot in entry["bots"]]
            assert names == ["random", "heuristic", "ismcts", "human"]
            assert entry["default_bot"] == "heuristic"
    goths = by_id["goths-save-the-queen"]
    assert goths["official_players"] == [4] and goths["teams"] and goths["simultaneous"]
    ismcts = {bot["name"]: bot for bot in goths["bots"]}["ismcts"]
    options = {option["name"]: option for option in ismcts["options"]}
    assert list(options) == [
        "iterations",
        "seconds",
        "c",
        "rollout",
        "depth",
        "bias",
        "guard",
        "partner",
        "worlds",
    ]
    assert options["depth"]["default"] == 8 and options["worlds"]["default"] == "informed"
    assert options["iterations"]["allowed"] == "an integer of at least 1"
    assert all(option["help"] for option in options.values())


def test_games_writes_player_counts_as_people_read_them() -> None:
    out = invoke("games").stdout
    assert "players: 2\n" in out  # Crush the Crown
    assert "players: 4 (2–3 unofficial)" in out  # Goths Save the Queen
    assert "2-2" not in out and "2–2" not in out


def test_games_lists_every_bot_and_never_cuts_a_name_at_80_columns() -> None:
    for info in courtly.games():
        console = Console(width=80, record=True, color_system=None)
        print_game(console, info)
        text = console.export_text()
        words = set(text.split())
        for option in info.options:
            assert option.name in words, (info.id, option.name)
        for bot in ("random", "ismcts", "human", info.default_bot):
            assert bot in words, (info.id, bot)
        for name in ("iterations", "seconds", "rollout", "depth", "partner", "worlds"):
            assert name in words, (info.id, name)
        assert max(len(line.rstrip()) for line in text.splitlines()) <= 80


def test_rules_prints_the_summary() -> None:
    result = invoke("rules", "royal-gambit")
    assert result.exit_code == 0, result.output
    assert "RG-1" in result.stdout
    assert "hit" in result.stdout
    assert "stay" in result.stdout
    assert result.stderr == ""


def test_rules_of_an_unknown_game_names_the_games() -> None:
    assert_clean_error(invoke("rules", "nope"), "nope", "royal-gambit")


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["play", "nope"], ["nope", "royal-gambit"]),
        (["simulate", "nope", "-n", "2"], ["nope", "royal-gambit"]),
        (["play", "royal-gambit", "-o", "target=3"], ["target", "target_score"]),
        (["simulate", "royal-gambit", "-n", "2", "-o", "target=3"], ["target", "target_score"]),
        (["play", "royal-gambit", "-o", "turn_mode=x"], ["turn_mode", "round_robin", "full_turn"]),
        (["play", "royal-gambit", "-o", "target_score=abc"], ["target_score", "abc"]),
        (["play", "royal-gambit", "-o", "target_score"], ["target_score", "name=value"]),
        (["play", "royal-gambit", "--players", "1"], ["1"]),
        (["play", "royal-gambit", "--players", "6"], ["6"]),
        (["simulate", "royal-gambit", "-n", "2", "--players", "6"], ["6"]),
        (["play", "royal-gambit", "--players", "3", "--seats", "human,random"], ["3", "2"]),
        (["play", "royal-gambit", "--seats", "human,robot"], ["robot", "heuristic", "random"]),
        (["simulate", "royal-gambit", "-n", "2", "--seats", "random,robot"], ["robot"]),
        (["simulate", "royal-gambit", "-n", "2", "--seats", "human,random"], ["heuristic"]),
        (["simulate", "royal-gambit", "-n", "0", "--seats", "random,random"], []),
        (["simulate", "royal-gambit", "-n", "2", "--workers", "0"], ["--workers", "1"]),
        (["ladder", "royal-gambit", "-n", "2", "--workers", "-1"], ["--workers", "every core"]),
        (["replay", "games.jsonl", "--seat", "p0", "--game", "x"], ["--game", "integer"]),
        # The parser's own errors, one line too:
        (["play", "royal-gambit", "--seed", "abc"], ["--seed"]),
        (["replay"], ["Missing argument"]),
        (["simulate", "royal-gambit", "--bogus"], ["--bogus"]),
        (["nope"], ["nope"]),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], fragments: list[str]) -> None:
    result = invoke(*args, input="")
    assert_clean_error(result, *fragments)
    assert "Game abandoned" not in result.output


def test_player_counts_in_error_name_the_allowed_counts() -> None:
    line = assert_clean_error(invoke("play", "royal-gambit", "--players", "6"))
    assert "2" in line and "5" in line


# --------------------------------------------------------------------------- play


PLAY = ["play", "royal-gambit", "--seats", "human,heuristic", "--seed", "7"]


def test_play_explains_bad_input_and_asks_again() -> None:
    answers = ["foo", "99", "give-7 p1", "?", "help", "1", "stay"]
    result = invoke(*PLAY, input="".join(a + "\n" for a in answers))
    assert result.exit_code == ABANDONED, result.output
    out = result.stdout
    # Each bad answer is explained, then the prompt comes again.
    assert in_order(out, "p0> ", "foo", "p0> ")
    assert in_order(out, "'foo'", "not an action", "p0> ", "No choice 99", "p0> ")
    assert in_order(out, "No choice 99", "give-7 p1 is not legal", "p0> ")
    assert "pick 1 to 2" in out
    # The move list before the first move, again after "?", and then the rules after "help".
    first_move = out.index("p0 hits.")
    before = out[:first_move]
    assert before.count("p0, your move: 1 hit   2 stay") == 2
    assert "RG-1" in before
    assert in_order(before, "give-7 p1 is not legal", "p0, your move", "RG-1")
    # "1" (a number) hit; "stay" (a text) stayed.
    assert in_order(out, "p0 hits.", "p0 stays and banks")
    # Then the input ran out: a clean goodbye.
    assert "Game abandoned" in out
    assert "Traceback" not in result.output
    assert result.stderr == ""


def test_play_end_of_input_abandons_cleanly() -> None:
    result = invoke(*PLAY, input="")
    assert result.exit_code == ABANDONED, result.output
    assert "Game abandoned" in result.stdout
    assert "Winner" not in result.stdout
    assert "Traceback" not in result.output


def test_play_quit_confirmed_leaves_cleanly() -> None:
    result = invoke(*PLAY, input="quit\ny\nstay\nstay\n")
    assert result.exit_code == ABANDONED, result.output
    assert "Leave this game?" in result.stdout
    assert "Game abandoned" in result.stdout
    assert "p0 stays" not in result.stdout
    assert "Winner" not in result.stdout


def test_play_end_of_input_at_the_quit_question_leaves_at_once() -> None:
    result = invoke(*PLAY, input="quit\n")
    assert result.exit_code == ABANDONED, result.output
    assert in_order(result.stdout, "Leave this game?", "Game abandoned. Goodbye.")


@pytest.mark.parametrize("word", ["q", "quit", "exit"])
def test_play_quit_not_confirmed_goes_on(word: str) -> None:
    result = invoke(*PLAY, input=f"{word}\n\nstay\n")
    assert result.exit_code == ABANDONED, result.output
    out = result.stdout
    assert in_order(out, "Leave this game? It will not be finished. (y/N)", "Going on.", "p0> ")
    assert "p0 stays" in out  # the game went on, and the next answer was the move


def test_play_a_whole_game_then_save_and_replay(tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    result = invoke(*PLAY, "--save", str(saved), input="stay\n" * 400)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Game abandoned" not in out
    assert re.search(r"^(Winner|Shared win): p\d", out, re.MULTILINE), out[-2000:]
    assert "Saved to" in out

    lines = saved.read_text().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert set(record) >= RECORD_KEYS
    assert record["game"] == "royal-gambit"
    assert record["seed"] == 7
    assert record["seats"] == ["human", "heuristic"]
    assert abs(sum(record["returns"]) - 1) < 1e-9
    # Every decision of p0 was "stay" (or a forced single choice).
    human_moves = {event for actor, event in record["history"] if actor == "p0"}
    assert "hit" not in human_moves

    replayed = invoke("replay", str(saved))
    assert replayed.exit_code == 0, replayed.output
    assert "returns match the record" in replayed.stdout
    assert f"Replayed {len(record['history'])} events" in replayed.stdout


def test_play_hot_seat_passes_the_screen_when_the_seat_changes() -> None:
    result = invoke(
        "play", "royal-gambit", "--seats", "human,human", "--seed", "7", input="\nstay\n" * 6
    )
    assert result.exit_code == ABANDONED, result.output
    out = result.stdout
    events = re.findall(r"Pass the screen to (p\d)|(p\d), your move|(p\d): only one choice", out)
    assert events, out
    decisions = 0
    holder: str | None = None
    for passed, asked, forced in events:
        if passed:
            assert passed != holder, "the screen passed to the seat that holds it"
            holder = passed
        elif asked:
            assert holder == asked, "a decision without passing the screen"
            decisions += 1
        else:
            assert forced == holder, "a forced move told to another seat's screen"
    assert decisions >= 4
    assert {"p0", "p1"} <= {asked for _, asked, _ in events}
    assert "Game abandoned" in out


def test_play_human_against_bot_runs_for_royal_gambit() -> None:
    # Royal Gambit is all public: the human sees the table as the game renders it.
    result = invoke(
        "play",
        "royal-gambit",
        "--seats",
        "human,random,heuristic",
        "--seed",
        "3",
        input="stay\n" * 300,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "> p0 (you)" in out
    assert not re.search(r"p[12] \(you\)", out)
    assert re.search(r"^(Winner|Shared win): ", out, re.MULTILINE)


def test_play_human_does_not_see_a_bots_secrets(tmp_path: Path) -> None:
    saved = tmp_path / "bids.jsonl"
    result = invoke(
        "play",
        "test-sealed-bids",
        "--seats",
        "human,random",
        "--seed",
        "3",
        "--save",
        str(saved),
        input="bid 1\n2\n",
    )
    assert result.exit_code == 0, result.output
    record = json.loads(saved.read_text())
    dealt = [event for actor, event in record["history"] if actor == "chance"]
    mine, theirs = dealt[0], dealt[1]
    bot_bids = [event for actor, event in record["history"] if actor == "p1"]
    assert len(bot_bids) == 2
    out = result.stdout
    final = out.rindex("round 2;")
    during = out[:final]
    assert mine in during
    assert theirs not in during
    # The bot's bids are narrated without their amount.
    assert re.findall(r"^p1 bids.*$", out, re.MULTILINE) == ["p1 bids", "p1 bids"]
    assert theirs in out[final:]  # shown once the game is over


# --------------------------------------------------------------------------- simulate


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("sim")
    out, summary = folder / "games.jsonl", folder / "summary.json"
    result = invoke(
        "simulate",
        "royal-gambit",
        *SIM_ARGS,
        "--workers",
        "2",
        "--out",
        str(out),
        "--summary",
        str(summary),
    )
    return {"result": result, "out": out, "summary": summary}


def test_simulate_writes_records_and_summary(simulated: dict[str, Any]) -> None:
    result = simulated["result"]
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.stdout
    assert "win rate" in result.stdout
    lines = simulated["out"].read_text().splitlines()
    assert len(lines) == 60
    records = [json.loads(line) for line in lines]
    for record in records:
        assert set(record) >= RECORD_KEYS
        assert record["game"] == "royal-gambit"
        assert len(record["seats"]) == 4
        assert abs(sum(record["returns"]) - 1) < 1e-9
    assert [r["game_id"] for r in records] == list(range(60))
    assert len({r["seed"] for r in records}) == 60


def test_simulate_rotates_the_seats(simulated: dict[str, Any]) -> None:
    records = [json.loads(line) for line in simulated["out"].read_text().splitlines()]
    specs = SIM_SEATS.split(",")
    heuristic_seats = Counter(r["seats"].index("heuristic") for r in records)
    assert heuristic_seats == {0: 15, 1: 15, 2: 15, 3: 15}
    for record in records:
        assert record["seats"].count("heuristic") == 1
        assert record["seats"] == rotated(specs, record["game_id"])


def test_simulate_summary_json(simulated: dict[str, Any]) -> None:
    summary = json.loads(simulated["summary"].read_text())
    heuristic = summary["agents"]["heuristic"]
    assert 0 <= heuristic["win_rate"] <= 1
    low, high = heuristic["ci95"]
    assert 0 <= low <= high <= 1
    assert low <= heuristic["win_rate"] <= high
    assert heuristic["games"] == 60
    assert summary["agents"]["random"]["games"] == 180
    total = sum(agent["wins"] for agent in summary["agents"].values())
    assert total == pytest.approx(60)
    assert summary["game"] == "royal-gambit"
    assert summary["seed"] == 1


def test_simulate_summary_names_the_agents_of_the_seats(simulated: dict[str, Any]) -> None:
    # The command writes "seats": the agent specs, but the summary's own per-seat tallies (also
    # under "seats") must not wipe them out: the file must say who played.
    summary = json.loads(simulated["summary"].read_text())
    assert SIM_SEATS.split(",") in summary.values(), summary.keys()


def test_replay_a_simulated_game(simulated: dict[str, Any]) -> None:
    result = invoke("replay", str(simulated["out"]), "--game", "5")
    assert result.exit_code == 0, result.output
    assert "game 5" in result.stdout
    assert "returns match the record" in result.stdout


def test_simulate_is_the_same_with_one_or_two_workers(
    simulated: dict[str, Any], tmp_path: Path
) -> None:
    one = tmp_path / "one.jsonl"
    result = invoke("simulate", "royal-gambit", *SIM_ARGS, "--workers", "1", "--out", str(one))
    assert result.exit_code == 0, result.output
    assert one.read_bytes() == simulated["out"].read_bytes()


# --------------------------------------------------------------------------- replay errors


@pytest.fixture
def records(simulated: dict[str, Any]) -> list[str]:
    return simulated["out"].read_text().splitlines(keepends=True)


def test_replay_truncated_file(records: list[str], tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text(records[0] + records[1][: len(records[1]) // 2])
    line = assert_clean_error(invoke("replay", str(path), "--game", "1"), "line 2")
    assert "truncated" in line


def test_replay_record_without_history(records: list[str], tmp_path: Path) -> None:
    data = json.loads(records[1])
    del data["history"]
    path = tmp_path / "nohistory.jsonl"
    path.write_text(records[0] + json.dumps(data) + "\n")
    assert_clean_error(invoke("replay", str(path), "--game", "1"), "line 2", "history")


def test_replay_record_with_an_illegal_event(records: list[str], tmp_path: Path) -> None:
    data = json.loads(records[1])
    index = next(
        i
        for i, (actor, event) in enumerate(data["history"])
        if actor != "chance" and event in ("hit", "stay")
    )
    data["history"][index][1] = "bogus"
    path = tmp_path / "bogus.jsonl"
    path.write_text(records[0] + json.dumps(data) + "\n")
    assert_clean_error(invoke("replay", str(path), "--game", "1"), "line 2", "bogus")


def test_replay_record_with_wrong_returns(records: list[str], tmp_path: Path) -> None:
    data = json.loads(records[1])
    data["returns"] = list(reversed(data["returns"])) if len(set(data["returns"])) > 1 else None
    assert data["returns"] is not None
    path = tmp_path / "returns.jsonl"
    path.write_text(records[0] + json.dumps(data) + "\n")
    assert_clean_error(invoke("replay", str(path), "--game", "1"), "line 2", "returns")


def test_replay_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.jsonl"
    assert_clean_error(invoke("replay", str(path)), "missing.jsonl")


def test_replay_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    assert_clean_error(invoke("replay", str(path)), "empty")


def test_replay_game_not_in_file(simulated: dict[str, Any]) -> None:
    assert_clean_error(invoke("replay", str(simulated["out"]), "--game", "999"), "999")
