"""Courtly's recommended variants in the terminal: ``courtly play`` chooses the variant where
the game recommends one at the player count (King's Court at three and four players) and says
why; ``--as-written`` keeps the rules as written, and so do options the person gave; ``courtly
rules`` says the same; the engine's own default stays the rules as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtly.cli.shared import recommended_variant
from courtly.core.registry import game_class, games, make
from courtly.testing.cli import invoke

GAME = "kings-court"
BOTS = {3: "random,random,random", 4: "random,random,random,random"}


def test_every_recommended_variant_is_valid_and_the_engine_keeps_the_rules_as_written() -> None:
    for info in games():
        for players, variant in info.recommended.items():
            assert players in info.player_counts, (info.id, players)
            game = make(info.id, players=players, **variant.options)
            assert {k: game.config()["options"][k] for k in variant.options} == variant.options
            assert variant.reason and variant.name, info.id
            # The engine's default is the reference: the rules as written.
            plain = make(info.id, players=players).config()["options"]
            assert plain == {option.name: option.default for option in info.options}
    recommended = game_class(GAME).info.recommended
    assert sorted(recommended) == [3, 4]
    assert "49%" in recommended[4].reason


def test_the_variant_is_added_unless_the_person_chose_otherwise() -> None:
    assert recommended_variant(GAME, 2, None, False) == ([], None)
    options, note = recommended_variant(GAME, 4, ["safety_cap=400"], False)
    assert options == ["safety_cap=400", "track_cut=5"]
    assert note is not None and "49%" in note and "--as-written" in note
    options, note = recommended_variant(GAME, 4, None, True)
    assert options == [] and note is not None and "rules as written" in note
    # An option of the variant given by hand is the person's choice: nothing added or said.
    assert recommended_variant(GAME, 3, ["track_cut=2"], False) == (["track_cut=2"], None)
    assert recommended_variant("royal-gambit", 5, None, False) == ([], None)


@pytest.mark.parametrize(("players", "written"), [(4, False), (3, False), (4, True)])
def test_courtly_play_plays_the_variant_and_says_why(
    tmp_path: Path, players: int, written: bool
) -> None:
    saved = tmp_path / "games.jsonl"
    args = ["play", GAME, "--seats", BOTS[players], "--seed", "5", "--save", str(saved)]
    result = invoke(*args, *(["--as-written"] if written else []), input="")
    assert result.exit_code == 0, result.output
    record = json.loads(saved.read_text().splitlines()[0])
    reason = game_class(GAME).info.recommended[players].reason
    assert reason in " ".join(result.stdout.split())
    assert record["options"].get("track_cut", 0) == (0 if written else 5)


def test_courtly_play_at_two_players_is_the_sheet_s_game(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    result = invoke("play", GAME, "--seats", "random,random", "--seed", "5", "--save", str(saved))
    assert result.exit_code == 0, result.output
    assert "variant" not in result.stdout.lower()
    assert json.loads(saved.read_text())["options"].get("track_cut", 0) == 0


def test_courtly_rules_names_the_variants_and_why() -> None:
    result = invoke("rules", GAME)
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert "Recommended variants" in said
    for players, variant in game_class(GAME).info.recommended.items():
        assert f"{players} players: {variant.name}, -o track_cut=5. {variant.reason}" in said
    assert "--as-written" in said
    assert "Recommended variants" not in invoke("rules", "royal-gambit").stdout
