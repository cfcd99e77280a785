"""The wheel ships the built browser client and the server's migrations, and not the client's
sources or node_modules: ``pip install courtly-*.whl`` then ``courtly serve`` shows the lobby,
with no Node.js on that machine and nothing fetched from elsewhere."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import courtly.web

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(courtly.web.__file__).parent / "static"


def test_the_wheel_holds_the_built_client_and_no_client_sources(tmp_path: Path) -> None:
    assert (STATIC / "index.html").is_file(), "the client is not built: make client"
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = tmp_path.glob("courtly-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "courtly/web/static/index.html" in names
    shipped = {name.removeprefix("courtly/web/static/") for name in names if "/static/" in name}
    expected = {str(path.relative_to(STATIC)) for path in STATIC.rglob("*") if path.is_file()}
    assert shipped == expected
    assert any(name.startswith("courtly/web/migrations/") for name in names)
    assert not [name for name in names if "/client/" in name or "node_modules" in name]
    # The page loads its scripts and styles from the server itself, never from elsewhere.
    page = (STATIC / "index.html").read_text()
    for link in re.findall(r'(?:src|href)="([^"]*)"', page):
        assert link.startswith(("/assets/", "data:")), link
