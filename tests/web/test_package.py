"""The wheel ships the built browser client, the server's migrations and the games' rules
documents, and not the client's sources or node_modules: ``pip install courtly-*.whl`` then
``courtly serve`` shows the lobby and every game's rules, with no Node.js on that machine and
nothing fetched from elsewhere."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx2
import pytest

import courtly.web
from courtly.testing.server import ServerProcess

from .browsing import GAMES

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(courtly.web.__file__).parent / "static"
DOCS = ROOT / "docs" / "rules"


def build_wheel(folder: Path) -> Path:
    """This checkout's wheel, built into ``folder``."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(folder), ROOT],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = folder.glob("courtly-*.whl")
    return wheel


def test_the_wheel_holds_the_built_client_and_no_client_sources(tmp_path: Path) -> None:
    assert (STATIC / "index.html").is_file(), "the client is not built: make client"
    names = set(zipfile.ZipFile(build_wheel(tmp_path)).namelist())
    assert "courtly/web/static/index.html" in names
    shipped = {name.removeprefix("courtly/web/static/") for name in names if "/static/" in name}
    expected = {str(path.relative_to(STATIC)) for path in STATIC.rglob("*") if path.is_file()}
    assert shipped == expected
    assert any(name.startswith("courtly/web/migrations/") for name in names)
    assert not [name for name in names if "/client/" in name or "node_modules" in name]
    # The page loads its scripts, styles and manifest from the server itself, never from
    # elsewhere (a path of this origin, not a protocol-relative "//host").
    page = (STATIC / "index.html").read_text()
    for link in re.findall(r'(?:src|href)="([^"]*)"', page):
        own = link.startswith("/") and not link.startswith("//")
        assert own or link.startswith("data:"), link


def test_a_server_installed_from_the_wheel_serves_the_documents_it_ships(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Build the wheel, read its files, install it into a folder of its own and run
    ``courtly serve`` from there, away from this checkout: it serves every document from its
    package data."""
    wheel = build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in GAMES:
        assert f"courtly/docs/rules/{game}.md" in names, sorted(names)[:20]

    installed = tmp_path / "installed"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--quiet",
            "--target",
            installed,
            wheel,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    away = tmp_path / "elsewhere"  # the working folder: this checkout is not on the path
    away.mkdir()
    monkeypatch.setenv("PYTHONPATH", str(installed))
    monkeypatch.setenv("COURTLY_PURE", "1")
    where = subprocess.run(
        [sys.executable, "-c", "import courtly.web.documents as d; print(d.documents_folder())"],
        capture_output=True,
        text=True,
        cwd=away,
        timeout=120,
    )
    assert where.stdout.strip() == str(installed / "courtly" / "docs" / "rules"), where.stderr

    server = ServerProcess(f"sqlite:///{tmp_path / 'courtly.sqlite3'}", tmp_path / "log", cwd=away)
    try:
        server.wait_ready()
        with httpx2.Client(base_url=server.url, timeout=30) as http:
            for game in GAMES:
                body = http.get(f"/api/games/{game}/rules").json()
                assert body["document"] == (DOCS / f"{game}.md").read_text(), game
            page = http.get("/rules/royal-gambit")  # the page that draws them: the client's
            assert page.status_code == 200 and '<div id="app">' in page.text
    finally:
        server.stop()
