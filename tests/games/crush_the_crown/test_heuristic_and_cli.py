"""The heuristic bot, and the terminal, ``rules``, ``simulate`` and ``replay`` commands."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import courtly
from courtly.agents.random_agent import RandomAgent
from courtly.core.match import play_match
from courtly.games.crush_the_crown import CrushTheCrownHeuristic
from courtly.testing.cli import invoke

from .helpers import deal, new_game, play, position


def test_the_heuristic_beats_random() -> None:
    game = courtly.make("crush-the-crown")
    wins = 0.0
    for seed in range(20):
        bots = [CrushTheCrownHeuristic(game), RandomAgent(game)]
        if seed % 2:
            bots.reverse()
        record = play_match(game, bots, seed=seed)
        wins += record.returns[seed % 2]
    assert wins >= 17


def test_the_heuristic_plays_from_its_view_only() -> None:
    game = courtly.make("crush-the-crown")
    bot = CrushTheCrownHeuristic(game)
    rng = random.Random(4)
    state = game.new_state()
    while not state.is_terminal:
        if state.is_chance:
            courtly.sample_chance(state, rng)
            continue
        seat = state.to_move[0]
        view = state.view(seat)
        action = bot.act(view, rng)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)


def test_rules_names_the_resolutions_and_actions() -> None:
    result = invoke("rules", "crush-the-crown")
    assert result.exit_code == 0, result.output
    for fragment in ("CTC-9", "CTC-6", "spy QC", "discover 8D", "safety_cap"):
        assert fragment in result.stdout


def test_terminal_play_shows_both_governments_as_ladders_with_spies() -> None:
    result = invoke(
        "play", "crush-the-crown", "--seats", "human,heuristic", "--seed", "3", input="1\n" * 400
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Traceback" not in result.output
    assert re.search(r"p0 \(you\) \w+.*p1 \w+", out)
    for label in ("  K  ", "  Q  ", " 10  ", "  A  "):
        assert label in out
    assert "SPY" in out  # the bot's spies in p0's government, marked
    assert re.search(r"p1 hand: \d+ cards", out)
    assert "Game abandoned" in out or re.search(r"^(Winner|Shared win)", out, re.MULTILINE)


def test_terminal_end_of_input_exits_cleanly() -> None:
    result = invoke(
        "play", "crush-the-crown", "--seats", "human,heuristic", "--seed", "3", input=""
    )
    assert result.exit_code == 3, result.output  # unfinished: the input ran out
    assert "Game abandoned" in result.stdout


def test_simulate_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke(
        "simulate",
        "crush-the-crown",
        "--seats",
        "heuristic,random",
        "-n",
        "6",
        "--seed",
        "1",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert "win rate" in result.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6 and all(r["game"] == "crush-the-crown" for r in records)
    replayed = invoke("replay", str(out), "--game", "3")
    assert replayed.exit_code == 0, replayed.output
    assert "returns match the record" in replayed.stdout


def test_the_heuristic_breaks_ties_with_its_random_source() -> None:
    # 8C and 8S are equally good spies for p1's 8 slot: the bot's random source picks one.
    state = position(p1_stack="KH QH JH 10H 9H", p0_hand="8C 8S 2S", p1_hand="2C")
    play(state, "p0 pass")
    bot = CrushTheCrownHeuristic(state.game)
    view = state.view(0)
    picks = [str(bot.act(view, random.Random(seed))) for seed in range(16)]
    assert set(picks) == {"spy 8C", "spy 8S"}
    assert picks == [str(bot.act(view, random.Random(seed))) for seed in range(16)]


def test_the_heuristic_marries_either_of_two_equally_good_queens() -> None:
    state = new_game(dealer="p1")
    deal(state, "QD QS 2D 2S 3C", "4C 5C 6C 7C 8C")
    bot = CrushTheCrownHeuristic(state.game)
    view = state.view(0)
    assert {str(bot.act(view, random.Random(seed))) for seed in range(16)} == {
        "marry QD",
        "marry QS",
    }
