"""The browser's engine plays the very games the native engine plays: recorded games of every game,
at every player count, replayed by the packed engine under Pyodide (the WebAssembly CPython the
Web Worker runs, loaded from the lockfile's ``pyodide`` package by Node), give the same history,
returns, and the same view (observation and log) to every seat as in CPython.

Both sides run the same digest code (:data:`DIGEST`), so a difference is the engine's.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import courtly
from courtly.core.match import play_randomly
from courtly.core.registry import game_class
from courtly.testing.postgres import must_run

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "src" / "courtly" / "web" / "client" / "node_modules" / "pyodide" / "pyodide.mjs"
GAMES_PER_GAME = 300
"""Recorded games of each game, shared out over its player counts."""

DIGEST = """
import hashlib, json
import courtly

def digest(record):
    state = courtly.load(record)
    seen = [
        [state.view(seat).observation(), state.view(seat).log(0)]
        for seat in range(state.num_players)
    ]
    shown = [[str(actor), str(item)] for actor, item in state.history]
    body = json.dumps([shown, state.returns(), seen], sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()
"""

NODE = """
import {{ loadPyodide }} from {pyodide};
import {{ readFileSync }} from "node:fs";
const pyodide = await loadPyodide();
pyodide.unpackArchive(new Uint8Array(readFileSync({engine})), "zip", {{ extractDir: "/engine" }});
pyodide.runPython("import sys\\nsys.path.insert(0, '/engine')");
pyodide.runPython({digest});
pyodide.globals.set("records_text", readFileSync({records}, "utf8"));
const out = pyodide.runPython(
  "import json\\njson.dumps([digest(line) for line in records_text.splitlines() if line])"
);
process.stdout.write(out);
"""


def records() -> list[str]:
    lines = []
    for info in courtly.games():
        if not game_class(info.id).__module__.startswith("courtly.games."):
            continue  # (a test's own game, which the packed engine does not have)
        counts = list(info.player_counts)
        for players in counts:
            game = courtly.make(info.id, players=players)
            for index in range(-(-GAMES_PER_GAME // len(counts))):
                state = game.new_state()
                play_randomly(state, random.Random(f"{info.id}/{players}/{index}"))
                lines.append(state.to_json())
    return lines


def test_recorded_games_replay_identically_under_pyodide(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not PYODIDE.is_file():
        message = "Node.js and the client's node_modules (make client) are needed"
        if must_run():
            pytest.fail(message)
        pytest.skip(message)
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from pack_engine import pack
    finally:
        sys.path.pop(0)
    engine = tmp_path / "courtly.zip"
    pack(engine)
    lines = records()
    (tmp_path / "records.jsonl").write_text("\n".join(lines) + "\n")
    script = tmp_path / "replay.mjs"
    script.write_text(
        NODE.format(
            pyodide=json.dumps(PYODIDE.as_uri()),
            engine=json.dumps(str(engine)),
            records=json.dumps(str(tmp_path / "records.jsonl")),
            digest=json.dumps(DIGEST),
        )
    )
    run = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr[-3000:]
    in_pyodide = json.loads(run.stdout)
    namespace: dict[str, object] = {}
    exec(DIGEST, namespace)
    native = [namespace["digest"](line) for line in lines]  # type: ignore[operator]
    assert len(in_pyodide) == len(native) == len(lines)
    different = [
        json.loads(lines[i])["game"]
        for i, (a, b) in enumerate(zip(in_pyodide, native, strict=True))
        if a != b
    ]
    assert not different, f"{len(different)} games differ under Pyodide, e.g. {different[:5]}"
