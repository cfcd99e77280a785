"""Each game's rules document (docs/rules/<game>.md) reaches the browser: served with the summary
by ``GET /api/games/{id}/rules``, from this checkout's files. That the wheel ships them and a
``courtly serve`` installed from it serves them is tested in test_package.py; the page that draws
them, in test_browser_rules.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from courtly.web import documents

from .browsing import GAMES

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"


def test_each_game_s_rules_come_with_its_whole_document(client: TestClient) -> None:
    for game, title in GAMES.items():
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
