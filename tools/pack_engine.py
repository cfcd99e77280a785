"""Pack Courtly's engine for the browser: the pure-Python modules a table played with no server
needs (the engine, the games, the bots, the offline table, the server's pydantic-free message
modules, the replay and the review), and the two pure-Python libraries they import, into one zip
that the client's Web Worker unpacks into Pyodide's file system.

Run by the client's build (vite.config.ts) as ``python tools/pack_engine.py OUT.zip``; it needs
only the standard library and an installed Courtly's dependencies (mypy_extensions,
typing_extensions). The zip is the same for the same sources: its entries are sorted and dated
1980, so the service worker's precache sees a new file only when the engine changed.
"""

from __future__ import annotations

import importlib.util
import sys
import zipfile
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGES = ("courtly/core", "courtly/games", "courtly/agents", "courtly/offline")
MODULES = (
    "courtly/__init__.py",
    "courtly/_compiled.py",
    "courtly/web/__init__.py",
    "courtly/web/messages.py",
    "courtly/web/model.py",
    "courtly/web/seat_messages.py",
    "courtly/web/playing.py",
    "courtly/web/budgets.py",
    "courtly/web/catalogue.py",
    "courtly/web/recorded.py",
    "courtly/web/replay_steps.py",
    "courtly/sim/__init__.py",
    "courtly/sim/stats.py",
    "courtly/sim/tournament.py",
    "courtly/sim/review.py",
)
LIBRARIES = ("mypy_extensions", "typing_extensions")
"""Single-module libraries the engine imports (the compiled build's markers, typed dicts)."""


def sources() -> list[tuple[str, Path]]:
    """Every file of the zip, by its name in it."""
    files = [(name, SRC / name) for name in MODULES]
    for package in PACKAGES:
        files += [
            (path.relative_to(SRC).as_posix(), path)
            for path in (SRC / package).rglob("*.py")
            if "__pycache__" not in path.parts
        ]
    for library in LIBRARIES:
        spec = importlib.util.find_spec(library)
        if spec is None or spec.origin is None:
            sys.exit(f"pack_engine: {library} is not installed in {sys.executable}")
        files.append((f"{library}.py", Path(spec.origin)))
    return sorted(files)


def pack(out: Path) -> int:
    """Write the zip to ``out``; its size in bytes."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, path in sources():
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, path.read_bytes())
    return out.stat().st_size


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/pack_engine.py OUT.zip")
    size = pack(Path(sys.argv[1]))
    print(f"pack_engine: {sys.argv[1]} ({size} bytes)")
