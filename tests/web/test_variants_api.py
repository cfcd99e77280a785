"""The recommended variants and a table's variant through the API: the catalogue lists each
game's recommended variants by player count (the rules as written stay the defaults), a table
tells its options that are not the rules as written in words (the lobby's list, the table, and
every seat's and spectator's message), and creating a table never picks a variant by itself."""

from __future__ import annotations

from typing import Any, cast

from fastapi.testclient import TestClient

from courtly.core.registry import game_class

GAME = "kings-court"


def created(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": GAME, **body})
    assert response.status_code == 201, response.text
    return cast(dict[str, Any], response.json())


def test_the_catalogue_lists_the_recommended_variants(client: TestClient) -> None:
    entries = {entry["id"]: entry for entry in client.get("/api/games").json()}
    recommended = {v["players"]: v for v in entries[GAME]["recommended"]}
    info = game_class(GAME).info
    assert sorted(recommended) == [3, 4]
    for players, variant in recommended.items():
        assert variant["options"] == dict(info.recommended[players].options)
        assert variant["reason"] == info.recommended[players].reason
    # The defaults the form starts from stay the rules as written.
    track_cut = next(o for o in entries[GAME]["options"] if o["name"] == "track_cut")
    assert track_cut["default"] == 0
    assert entries["royal-gambit"]["recommended"] == []
    # The rules summary says the same as `courtly rules`.
    rules = client.get(f"/api/games/{GAME}/rules").json()["rules"]
    assert info.recommended[4].reason.split(";")[0] in " ".join(rules.split())


def test_a_table_tells_its_variant_to_everyone(client: TestClient) -> None:
    people = [{"kind": "person"}] * 4
    plain = created(client, players=4, seats=people)
    assert plain["options"]["track_cut"] == 0  # the API never picks a variant by itself
    assert plain["variant"] == []
    table = created(client, players=4, seats=people, options={"track_cut": 5, "march": 1})
    words = ["Shorter track for more players: 5", "March: 1"]
    assert table["variant"] == words
    assert client.get(f"/api/tables/{table['id']}").json()["variant"] == words
    listed = client.get("/api/tables", params={"status": "open"}).json()
    assert next(t for t in listed if t["id"] == table["id"])["variant"] == words
    view = client.get(f"/api/tables/{table['id']}/view").json()  # a spectator's message
    assert view["variant"] == words
