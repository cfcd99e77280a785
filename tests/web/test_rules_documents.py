"""Each game's rules document (docs/rules/<game>.md) reaches the browser: served with the summary
by ``GET /api/games/{id}/rules``, shipped in the wheel as package data, and read from there by a
``courtly serve`` installed from that wheel (not from this checkout). The page that draws them is
tested in test_browser_rules.py."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient

from courtly.core import games
from courtly.testing.server import ServerProcess
from courtly.web import documents

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"
IDS = (
    "royal-gambit",
    "god-save-the-king",
    "crush-the-crown",
    "goths-save-the-queen",
    "kings-court",
)
FIVE = {info.id: info.title for info in games() if info.id in IDS}
"""The five games and their titles (the registry may hold the tests' toy games too)."""


def test_each_game_s_rules_come_with_its_whole_document(client: TestClient) -> None:
    for game, title in FIVE.items():
        body = client.get(f"/api/games/{game}/rules").json()
        document = (DOCS / f"{game}.md").read_text(encoding="utf-8")
        assert body["document"] == document
        assert document.startswith(f"# {title}\n")
        assert body["rules"] and body["title"] == title  # the summary is still there


def test_only_a_game_s_id_names_a_document(client: TestClient) -> None:
    """The id in the path names a file only once it is a registered game's: anything else is
    a 404 that lists the games (or no route at all), never a file read from elsewhere."""
    for wrong in ("chess", "README", "royal-gambit.md"):
        answer = client.get(f"/api/games/{wrong}/rules")
        assert answer.status_code == 404, (wrong, answer.text)
        assert "royal-gambit" in answer.json()["detail"]
    for escape in ("..%2F..%2Fpyproject", "%2E%2E%2F%2E%2E%2FREADME", "..%2Fdocs%2Frules%2FREADME"):
        answer = client.get(f"/api/games/{escape}/rules")
        assert "document" not in answer.text and "[build-system]" not in answer.text, escape
        assert "Courtly's rules" not in answer.text and "Courtly plays five" not in answer.text


def test_an_installation_without_the_documents_serves_the_summary_alone(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(documents, "PACKAGED", tmp_path / "not-installed")
    monkeypatch.setattr(documents, "CHECKOUT", tmp_path / "no-checkout")
    body = client.get("/api/games/kings-court/rules").json()
    assert body["document"] is None and "KING'S COURT" in body["rules"]


def test_a_checkout_reads_its_own_documents() -> None:
    """This checkout's install is editable: it reads the documents where they are written (an
    edit shows at once)."""
    assert documents.documents_folder() == DOCS
    assert documents.rules_document("royal-gambit") == (DOCS / "royal-gambit.md").read_text()
    assert documents.rules_document("no-such-game") is None


def test_a_server_installed_from_the_wheel_serves_the_documents_it_ships(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Build the wheel, read its files, install it into a folder of its own and run
    ``courtly serve`` from there, away from this checkout: it serves every document from its
    package data."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), ROOT],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = tmp_path.glob("courtly-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in FIVE:
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
            for game in FIVE:
                body = http.get(f"/api/games/{game}/rules").json()
                assert body["document"] == (DOCS / f"{game}.md").read_text(), game
    finally:
        server.stop()
