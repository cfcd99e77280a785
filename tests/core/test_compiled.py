"""The compiled modules (``make compiled``, courtly/_compiled.py): the same game, only faster.

A compiled module must behave exactly like its source, must be in use when it is built and up to
date, and must give way to its source when the source has changed since the build.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import courtly
from courtly import _compiled

# Every game at its smallest and largest table, whole games of random moves with a bot's search
# every few decisions: each step is recorded as the mover, the legal moves, every seat's
# observation (the public log included) and the move; a playout from a determinized world ends
# each game. Pure Python and compiled code must record exactly the same.
FINGERPRINT = """
import hashlib, json, random
import courtly
from courtly import _compiled
from courtly.agents.ismcts import ISMCTSAgent
records = {}
for info in courtly.games():
    for players in sorted({info.min_players, info.max_players}):
        game = courtly.make(info.id, players=players)
        search = ISMCTSAgent(game, iterations=40)
        rng = random.Random(players)
        lines = []
        while len(lines) < 120:  # whole games (short ones too) until enough decisions
            state = game.new_state()
            for step in range(250):
                if state.is_terminal:
                    break
                if state.is_chance:
                    courtly.sample_chance(state, rng)
                    continue
                seat = state.to_move[0]
                legal = state.legal_actions(seat)
                views = [json.dumps([state.view(s).observation(), state.log(s)],
                                    sort_keys=True, default=str)
                         for s in range(players)]
                action = rng.choice(legal)
                if step % 25 == 0:
                    action = search.act(state.view(seat), random.Random(step))
                lines.append(json.dumps([seat, [str(a) for a in legal], views, str(action)]))
                state.apply(seat, action)
            world = state.view(state.to_move[0] if state.to_move else 0).determinize(rng)
            world.playout(rng)
            lines.append(json.dumps([world.returns(), state.returns()]))
        digest = hashlib.sha256("\\n".join(lines).encode()).hexdigest()
        records[f"{info.id} {players}p"] = [len(lines), digest]
print(json.dumps({"records": records, "compiled": _compiled.running_compiled()}))
"""


def run_fingerprint(pure: bool) -> dict[str, object]:
    env = dict(os.environ, COURTLY_PURE="1" if pure else "0")
    done = subprocess.run(
        [sys.executable, "-c", FINGERPRINT], env=env, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_compiled_and_pure_python_play_and_search_alike() -> None:
    pure = run_fingerprint(pure=True)
    default = run_fingerprint(pure=False)
    assert pure["compiled"] == []
    records = pure["records"]
    games = [g for g in courtly.games() if not g.id.startswith("test-")]  # (not the toy games)
    tables = {f"{g.id} {n}p" for g in games for n in (g.min_players, g.max_players)}
    assert isinstance(records, dict) and set(records) == tables
    assert all(count >= 120 for count, _ in records.values())
    assert default["records"] == records


def test_the_build_is_in_use_when_up_to_date() -> None:
    import importlib

    recorded = _compiled.manifest()
    built = _compiled.extensions()
    for name in recorded:  # (a game's views are imported on first use)
        importlib.import_module(name)
    for name in built:
        with contextlib.suppress(ImportError):  # (withheld when pure or stale)
            importlib.import_module(name)
    everything = sorted([*recorded, *built])
    expected = [] if os.environ.get("COURTLY_PURE", "") not in ("", "0") else everything
    if _compiled.stale_modules(recorded) or _compiled.stale_extensions(built):
        expected = []  # edited since the build: every compiled module gives way to its source
    assert _compiled.running_compiled() == expected


def test_a_source_edited_after_the_build_is_noticed() -> None:
    source = _compiled.source_of("courtly.core.game")
    assert source.name == "game.py" and source.exists()
    digest = _compiled.source_hash(source)
    assert _compiled.stale_modules({"courtly.core.game": digest}) == []
    assert _compiled.stale_modules({"courtly.core.game": "0" * 64}) == ["courtly.core.game"]
    assert _compiled.stale_modules({"courtly.no_such_module": digest}) == ["courtly.no_such_module"]


def test_stale_modules_are_imported_from_source_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_compiled, "manifest", lambda: {"courtly.core.game": "0" * 64})
    monkeypatch.delenv("COURTLY_PURE", raising=False)
    before = list(sys.meta_path)
    try:
        with pytest.warns(RuntimeWarning, match=r"courtly\.core\.game changed.*make compiled"):
            _compiled.choose()
        finder = sys.meta_path[0]
        assert finder not in before
        spec = finder.find_spec("courtly.core.game", None)
        assert spec is not None and spec.origin is not None and spec.origin.endswith("game.py")
        assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
        assert finder.find_spec("courtly.core.cards", None) is None  # only what was compiled
    finally:
        sys.meta_path[:] = before


def test_nothing_to_do_without_a_build_or_with_a_fresh_one(monkeypatch: pytest.MonkeyPatch) -> None:
    digest = _compiled.source_hash(_compiled.source_of("courtly.core.game"))
    monkeypatch.delenv("COURTLY_PURE", raising=False)
    before = list(sys.meta_path)
    for recorded in ({}, {"courtly.core.game": digest}):
        monkeypatch.setattr(_compiled, "manifest", lambda recorded=recorded: recorded)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _compiled.choose()
        assert sys.meta_path == before


def test_a_broken_manifest_counts_as_no_build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bad = tmp_path / "_compiled.json"
    monkeypatch.setattr(_compiled, "MANIFEST", bad)
    assert _compiled.manifest() == {}
    bad.write_text("{not json")
    assert _compiled.manifest() == {}
    bad.write_text(json.dumps({"modules": {"courtly.core.game": "abc"}}))
    assert _compiled.manifest() == {"courtly.core.game": "abc"}


def test_every_registered_game_is_compiled() -> None:
    """The build's list comes from the tree; it must hold each registered game's state machine
    and heuristic (a game outside ``courtly.games`` would need adding by hand)."""
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("_courtly_build", root / "tools" / "compile.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    for info in courtly.games():
        if info.id.startswith("test-"):
            continue  # the test-only games live in tests/
        state_module = type(courtly.make(info.id).new_state()).__module__
        assert state_module in build.MODULES, f"{info.id}: {state_module} is not compiled"
        hooks = info.search_hooks
        assert hooks is not None and hooks.__module__ in build.MODULES
    for name in build.MODULES:
        assert _compiled.source_of(name).exists(), name
    for name in build.EXTENSIONS:
        assert _compiled.extension_source_of(name).exists(), name


KERNEL_IN_USE = """
import json
from courtly import _compiled
from courtly.rl import tensors
print(json.dumps([tensors.scatter_kernel is not None, tensors.mark_kernel is not None,
                  "courtly.rl._scatter" in _compiled.running_compiled()]))
"""


def test_the_c_extension_is_used_when_built_and_fresh_and_never_when_pure() -> None:
    def in_use(pure: bool) -> list[bool]:
        env = dict(os.environ, COURTLY_PURE="1" if pure else "0")
        done = subprocess.run(
            [sys.executable, "-c", KERNEL_IN_USE],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        result: list[bool] = json.loads(done.stdout)
        return result

    built = _compiled.extensions()
    fresh = (
        "courtly.rl._scatter" in built
        and not _compiled.stale_extensions(built)
        and not _compiled.stale_modules(_compiled.manifest())
    )
    assert in_use(pure=True) == [False, False, False]
    assert in_use(pure=False) == [fresh, fresh, fresh]


def test_a_c_source_edited_after_the_build_is_noticed_and_its_extension_withheld(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = _compiled.extension_source_of("courtly.rl._scatter")
    assert source.name == "_scatter.c" and source.exists()
    digest = _compiled.source_hash(source)
    assert _compiled.stale_extensions({"courtly.rl._scatter": digest}) == []
    assert _compiled.stale_extensions({"courtly.rl._scatter": "0" * 64}) == ["courtly.rl._scatter"]
    fresh_game = {
        "courtly.core.game": _compiled.source_hash(_compiled.source_of("courtly.core.game"))
    }
    monkeypatch.setattr(_compiled, "manifest", lambda: fresh_game)
    monkeypatch.setattr(_compiled, "extensions", lambda: {"courtly.rl._scatter": "0" * 64})
    monkeypatch.delenv("COURTLY_PURE", raising=False)
    before = list(sys.meta_path)
    try:
        with pytest.warns(RuntimeWarning, match=r"courtly\.rl\._scatter changed"):
            _compiled.choose()
        finder = sys.meta_path[0]
        assert finder not in before
        with pytest.raises(ModuleNotFoundError, match=r"courtly\.rl\._scatter"):
            finder.find_spec("courtly.rl._scatter", None)
        spec = finder.find_spec("courtly.core.game", None)  # all or none: the group too
        assert spec is not None and isinstance(spec.loader, importlib.machinery.SourceFileLoader)
        assert finder.find_spec("courtly.core.cards", None) is None
    finally:
        sys.meta_path[:] = before


def test_the_manifest_lists_the_c_extensions_apart(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    manifest = tmp_path / "_compiled.json"
    monkeypatch.setattr(_compiled, "MANIFEST", manifest)
    assert _compiled.extensions() == {}
    manifest.write_text(
        json.dumps({"modules": {"courtly.core.game": "a"}, "extensions": {"courtly.rl._x": "b"}})
    )
    assert _compiled.manifest() == {"courtly.core.game": "a"}
    assert _compiled.extensions() == {"courtly.rl._x": "b"}
