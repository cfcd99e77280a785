"""Goths Save the Queen through the ``courtly`` command line: rules, terminal play, simulate and
replay, with no game-specific code outside the game's package."""

from __future__ import annotations

import json
from pathlib import Path

from courtly.testing.cli import invoke

from .helpers import OST, VIS, new_game, place, play, turn

GAME = "goths-save-the-queen"


def test_rules_command_prints_the_summary() -> None:
    result = invoke("rules", GAME)
    assert result.exit_code == 0, result.output
    for text in ("GOTHS SAVE THE QUEEN", "GOTH-1", "GOTH-23", "look obj0", "discard-fog", "p3"):
        assert text in result.stdout


def test_play_as_the_ostrogoth_king() -> None:
    result = invoke(
        "play",
        GAME,
        "--seats",
        "human,heuristic,heuristic,heuristic",
        "--seed",
        "3",
        input="b1\nc1\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    # The board line with both armies, then the King's own hand.
    assert "Ostrogoths" in out and "Objectives" in out and "Visigoths" in out
    assert "Obj 0   Obj 1   Obj 2" in out
    assert "OO" in out and "VV" in out
    assert "Your hand (p0): V1 (Vulture, back V/R), V2 (Vulture, back V/B), R1" in out
    assert "p0 (Ostrogoth King) lays B1 (Barbarian) face down; the others see its back, C/B." in out
    assert "The cards are turned up:" in out
    assert "Game abandoned" in out or "Game over" in out  # end of input, or a quick win


def test_play_as_a_warchief_sees_backs_not_faces() -> None:
    result = invoke(
        "play",
        GAME,
        "--seats",
        "heuristic,heuristic,human,heuristic",
        "--seed",
        "5",
        input="sabotage\nrecruit\n",
    )
    assert result.exit_code == 3, result.output  # unfinished: the input ran out
    out = result.stdout
    assert "p2, your move: 1 recon   2 sabotage   3 recruit   4 load   5 fire" in out
    assert "face down: back" in out
    assert "Your hand" not in out
    assert "(It is" not in out  # nobody's King card is named to the Warchief before the reveal


def test_hot_seat_play_of_all_four_seats() -> None:
    result = invoke(
        "play",
        GAME,
        "--seats",
        "human,human,human,human",
        "--seed",
        "1",
        input="\nb1\n\nc1\n\nadvance\n\nload\n\n",
    )
    assert result.exit_code == 3, result.output  # unfinished: the input ran out
    assert "Pass the screen to p1" in result.stdout
    assert "The Ostrogoth army advances from O-Forest to O-Plains1." in result.stdout


def test_render_draws_barricades_catapults_and_revealed_objectives() -> None:
    state = new_game("plains,queen,trap")
    place(state, VIS, 3, army=3)  # on Objective 0, revealed: the Plains
    place(state, OST, 1, army=2, barricade=True)
    state.catapult[OST] = True
    text = state.render(None)
    assert "plains#" in text  # the barricaded O-Plains1
    assert "PLAINS" in text and text.count("hidden") == 2
    assert "catapult ACTIVE" in text and "catapult inactive" in text
    rows = text.splitlines()
    armies = next(row for row in rows if "VVV" in row)
    assert armies.index("OO") < armies.index("VVV")
    turn(state, o=("v1", "recon"), v=("v1", "rats"))
    play(state, "p2 look obj2")
    assert "trap?" in state.render(2) and "trap?" not in state.render(0)


def test_simulate_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    summary = tmp_path / "summary.json"
    result = invoke(
        "simulate",
        GAME,
        "--seats",
        "heuristic,random,heuristic,random",
        "-n",
        "12",
        "--seed",
        "1",
        "--out",
        str(out),
        "--summary",
        str(summary),
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 12
    assert all(len(r["returns"]) == 4 for r in records)
    replayed = invoke("replay", str(out), "--game", "3", "--seat", "p2")
    assert replayed.exit_code == 0, replayed.output
    assert "returns match the record" in replayed.stdout
    assert "The cards are turned up:" in replayed.stdout


def test_simulate_solo_clans() -> None:
    result = invoke(
        "simulate",
        GAME,
        "--seats",
        "heuristic,random",
        "-o",
        "solo_clans=both",
        "-n",
        "6",
    )
    assert result.exit_code == 0, result.output


def test_an_explicit_solo_clans_none_with_three_seats_is_refused() -> None:
    result = invoke("simulate", GAME, "--players", "3", "-o", "solo_clans=none", "-n", "2")
    assert result.exit_code == 2
    assert "solo_clans=none" in result.output and "with 3 players choose" in result.output
