"""The client's own addresses are answered with its page (the browser then shows the page the
address names), a missing asset or API route with a 404."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from courtly.web import create_app
from courtly.web.limits import NO_LIMITS
from courtly.web.static import CLIENT


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    assert (CLIENT / "index.html").is_file(), "the client is not built: make client"
    return TestClient(create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", limits=NO_LIMITS))


@pytest.mark.parametrize(
    "path", ["/table/abc?seat=1", "/people/Anna", "/people/J.R.", "/people/Dr.%20Who", "/my-games"]
)
def test_a_page_of_the_client_is_its_page(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200, path
    assert answer.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize("path", ["/assets/gone-1234.js", "/table/abc/old.css", "/api/nothing"])
def test_a_missing_file_or_api_route_is_404(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404
