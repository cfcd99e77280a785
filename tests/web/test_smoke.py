"""A first pass through the server: a person against two bots, to the end."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient


def test_a_person_plays_royal_gambit_against_two_bots_to_the_end(client: TestClient) -> None:
    created = client.post(
        "/api/tables",
        json={
            "game": "royal-gambit",
            "players": 3,
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot"}],
            "seed": 7,
        },
    )
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    joined = client.post(f"/api/tables/{table}/seats/0/join", json={"name": "Ann"})
    assert joined.status_code == 200
    auth = {"Authorization": f"Bearer {joined.json()['token']}"}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = client.get(f"/api/tables/{table}/view", params={"seat": 0}, headers=auth).json()
        if view["status"] == "over":
            break
        if not view["legal_actions"]:
            time.sleep(0.01)
            continue
        move = {"seat": 0, "action": view["legal_actions"][0]["text"], "version": view["version"]}
        first = client.post(f"/api/tables/{table}/moves", json=move, headers=auth)
        assert first.status_code == 200, first.text
        again = client.post(f"/api/tables/{table}/moves", json=move, headers=auth)
        assert again.json() == first.json()  # a retry is answered the same way
    assert view["status"] == "over"
    assert view["result"]["winners"]
    record = client.get(f"/api/tables/{table}/record")
    assert record.status_code == 200
    assert len(record.json()["history"]) == view["version"]
