"""The wire protocol is declared once (courtly/web/protocol.py): what the server sends has the
declared shapes, the OpenAPI schema carries them (the WebSocket's messages included), and the
browser client's types are the ones generated from that schema by openapi-typescript."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

import courtly.web
from courtly.web import create_app, protocol
from courtly.web.limits import NO_LIMITS
from courtly.web.schema import schema

CLIENT = Path(courtly.web.__file__).parent / "client"
GENERATOR = CLIENT / "node_modules" / ".bin" / "openapi-typescript"


def test_the_client_types_are_generated_from_the_current_schema(tmp_path: Path) -> None:
    if not GENERATOR.is_file():
        pytest.fail(f"{GENERATOR} is missing: run make client (npm ci)", pytrace=False)
    (tmp_path / "openapi.json").write_text(json.dumps(schema(), indent=2) + "\n")
    # The very command `make protocol` runs (package.json's script), on the current schema.
    scripts = json.loads((CLIENT / "package.json").read_text())["scripts"]
    command = scripts["protocol"].replace("src/protocol.d.ts", str(tmp_path / "protocol.d.ts"))
    subprocess.run(
        [str(GENERATOR), *command.split()[1:]],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        timeout=120,
    )
    generated = (tmp_path / "protocol.d.ts").read_text()
    committed = (CLIENT / "src" / "protocol.d.ts").read_text()
    assert generated == committed, "src/protocol.d.ts is behind the server: run make protocol"


def test_the_schema_declares_every_body_and_message() -> None:
    shapes = schema()["components"]["schemas"]
    for name in ("ClientMessage", "ServerMessage", "Hello", "MoveMessage", "ViewMessage"):
        assert name in shapes, name
    assert {"ErrorMessage", "AnswerMessage", "RefusedMessage", "Refusal"} <= set(shapes)
    for path, operations in schema()["paths"].items():
        for method, operation in operations.items():
            answered = [status for status in operation["responses"] if status.startswith("2")]
            content = operation["responses"][answered[0]]["content"]
            # JSON, but for a file to download (an account's games: JSONL).
            body = content.get("application/json", content.get("application/x-ndjson"))["schema"]
            assert body != {}, f"{method} {path} does not declare what it answers"


def conforms(shape: Any, body: Any) -> None:
    """``body`` has the declared ``shape`` (every declared key, each of its declared type) and
    no key the declaration does not have."""
    TypeAdapter(shape).validate_json(json.dumps(body), strict=True)
    if isinstance(shape, type) and hasattr(shape, "__required_keys__"):
        known = shape.__required_keys__ | shape.__optional_keys__
        assert set(body) <= known, f"{shape.__name__}: undeclared {set(body) - known}"


def test_what_the_server_sends_has_the_declared_shapes(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'courtly.sqlite3'}",
        bot_pace=0,
        bot_workers=-1,
        hint_iterations=20,
        review_iterations=4,
        limits=NO_LIMITS,
    )
    with TestClient(app) as client:
        games = client.get("/api/games").json()
        conforms(list[protocol.GameInfo], games)
        conforms(protocol.Rules, client.get("/api/games/royal-gambit/rules").json())
        people = [{"kind": "person"}, {"kind": "person"}]
        created = client.post("/api/tables", json={"game": "royal-gambit", "seats": people})
        conforms(protocol.TableSummary, created.json())
        table = created.json()["id"]
        joined = [client.post(f"/api/tables/{table}/seats/{n}/join").json() for n in (0, 1)]
        conforms(protocol.SeatToken, joined[0])
        tokens = [seat["token"] for seat in joined]
        conforms(list[protocol.TableSummary], client.get("/api/tables?status=playing").json())
        refused = client.get(f"/api/tables/{table}/record")
        assert refused.status_code == 409
        conforms(protocol.Refusal, refused.json())
        with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
            shown = client.get(f"/api/tables/{table}/view").json()
            seat = shown["to_move"][0]
            socket.send_json({"seat": seat, "token": tokens[seat], "since": 0})
            view = json.loads(socket.receive_text())
            conforms(protocol.ViewMessage, view)
            conforms(protocol.SeatMessage, {k: v for k, v in view.items() if k != "type"})
            hint = client.post(
                f"/api/tables/{table}/hint",
                json={"seat": seat, "version": view["version"]},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            conforms(protocol.Hint, hint.json())
            socket.send_json({"type": "move", "action": "nonsense", "version": view["version"]})
            conforms(protocol.RefusedMessage, json.loads(socket.receive_text()))
            action = view["legal_actions"][0]["id"]
            socket.send_json(
                {"type": "move", "action": action, "version": view["version"], "ref": 1}
            )
            received = [json.loads(socket.receive_text()) for _ in range(2)]
            answer = next(message for message in received if message["type"] == "answer")
            conforms(protocol.AnswerMessage, answer)
        with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
            socket.send_json({"seat": 0, "token": "not the token"})
            conforms(protocol.ErrorMessage, json.loads(socket.receive_text()))
        left = client.post(
            f"/api/tables/{table}/seats/0/leave", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        conforms(protocol.TableSummary, left.json())
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        over = client.post("/api/tables", json={"game": "royal-gambit", "seats": bots}).json()
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{over['id']}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish their game"
            time.sleep(0.05)
        conforms(protocol.GameRecord, client.get(f"/api/tables/{over['id']}/record").json())
        conforms(protocol.ReplayStep, client.get(f"/api/tables/{over['id']}/replay").json())
        conforms(protocol.ReplayStep, client.get(f"/api/tables/{over['id']}/replay?seat=0").json())
