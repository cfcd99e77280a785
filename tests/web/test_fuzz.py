"""Property-based fuzzing of every endpoint of the server from its own OpenAPI schema
(Schemathesis): requests that fit the schema and requests that do not, against made-up ids and
against real tables, seats and tokens.

The server runs with its limits on. Whatever is sent: never a 5xx; every answer conforms to
the schema where the schema declares it (status, content type, body, and every refusal as
``{"detail": "..."}``, a 429 over a limit included); a request that breaks the schema is
refused; and a refused request (4xx) changes nothing, neither in what the server holds in
memory (which every answer is made from) nor in the database.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import select

from courtly.web import create_app
from courtly.web.limits import Limits
from courtly.web.storage.rows import EventRow, NoticeRow, SeatRow, TableRow

EXAMPLES = 10
"""Examples per generation mode of an operation with no ids (a few per table, seat and token
for the others): enough to reach every check at the server's edge, few enough to stay short."""

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

BASE_URL = "http://testserver"

FUZZ_LIMITS = Limits(requests_per_minute=20_000)
"""The limits on, at their defaults (the fuzzer meets the table limits: it creates tables
from one address), but for the requests per minute, which would refuse most of its requests
(429 on every operation is checked on its own, below)."""


@pytest.fixture
def app(database_url: str) -> FastAPI:
    """The server with its limits on (see :data:`FUZZ_LIMITS`)."""
    return create_app(database_url, bot_pace=0, bot_workers=-1, limits=FUZZ_LIMITS)


class Seeds:
    """Real tables for the fuzzer's requests to land on: open, in play and over."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

        def create(seats: list[dict[str, Any]], **extra: Any) -> str:
            body = {"game": "royal-gambit", "players": len(seats), "seats": seats, **extra}
            response = client.post("/api/tables", json=body)
            assert response.status_code == 201, response.text
            table: str = response.json()["id"]
            return table

        person = {"kind": "person"}
        bot = {"kind": "bot", "bot": "heuristic"}
        short = {"target_score": 5}  # when bots take over (a person left), soon over
        # Seat 0 free to join; two people (nothing moves unless a request moves it); bots whose
        # game is over (its record is public).
        self.open = create([person, bot], options=short, seed=1)
        self.playing = create([person, person], options=short, seed=2)
        self.over = create([bot, bot], options=short, seed=3)
        self.tokens = [self._join(self.playing, seat) for seat in (0, 1)]
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{self.over}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots never finished their game"
            time.sleep(0.02)
        self.tables = [self.open, self.playing, self.over]

    def _join(self, table: str, seat: int) -> str:
        joined = self.client.post(f"/api/tables/{table}/seats/{seat}/join", json={"name": "X"})
        assert joined.status_code == 200, joined.text
        token: str = joined.json()["token"]
        return token


def snapshot(app: FastAPI, seeds: Seeds) -> dict[str, Any]:
    """What a refused request must leave as it was: the seeded tables as the server holds them
    in memory (what every answer is made from) and in the database, and which tables exist."""
    server = app.state.server
    shown: dict[str, Any] = {}
    for table_id in seeds.tables:
        table = server.tables.cache.get(table_id)
        with table.lock:
            shown[table_id] = {
                "version": table.version,
                "history": list(table.state.history),
                "status": table.status,
                "seats": [asdict(seat) for seat in table.seats],
                "notices": [dict(notice) for notice in table.notices],
                "rematch": table.rematch_id,
                "answers": sorted(table.answers),
            }
    with server.storage.session() as session:
        shown["table ids"] = sorted(session.scalars(select(TableRow.id)).all())
        for model in (TableRow, SeatRow, EventRow, NoticeRow):
            key = TableRow.id if model is TableRow else model.table_id  # type: ignore[attr-defined]
            rows = session.scalars(select(model).where(key.in_(seeds.tables))).all()
            shown[model.__tablename__] = sorted(
                json.dumps(_columns(row), sort_keys=True, default=str) for row in rows
            )
    return shown


def _columns(row: Any) -> dict[str, Any]:
    # ``seen_at`` says when a WebSocket of the seat was last alive, not what the table is.
    return {
        column.key: getattr(row, column.key)
        for column in row.__table__.columns
        if column.key != "seen_at"
    }


def settled(app: FastAPI, seeds: Seeds) -> dict[str, Any]:
    """The snapshot once nothing moves any more (after an accepted request, bots may play):
    the bots idle and the tables unchanged three reads in a row (on a busy machine a bot's turn
    may start well after the request that woke it)."""
    bots = app.state.server.bots
    before = snapshot(app, seeds)
    calm = 0
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.02)
        now = snapshot(app, seeds)
        calm = calm + 1 if now == before and bots.idle else 0
        if calm == 3:
            return now
        before = now
    pytest.fail("the seeded tables never settled")


def send(client: TestClient, case: Case) -> tuple[Any, dict[str, Any]]:
    """Send ``case`` through the test client (the app's own lifespan, not a second one)."""
    kwargs = case.as_transport_kwargs(base_url=BASE_URL)
    request: dict[str, Any] = {
        "method": kwargs["method"],
        "url": kwargs["url"],
        "headers": kwargs.get("headers") or {},
        "params": kwargs.get("params") or None,
    }
    if "json" in kwargs:
        request["json"] = kwargs["json"]
    elif kwargs.get("data") is not None:
        data = kwargs["data"]
        request["content"] = data if isinstance(data, bytes | str) else json.dumps(data)
    if kwargs.get("cookies"):
        request["headers"] = {
            **request["headers"],
            "Cookie": "; ".join(f"{k}={v}" for k, v in kwargs["cookies"].items()),
        }
    return client.request(**request), kwargs


def variants(operation: APIOperation, seeds: Seeds) -> Iterator[st.SearchStrategy[Case]]:
    """Strategies for ``operation``'s cases: cases that fit its schema against made-up ids and
    against each seeded table (and seat), with no token, a real one or a wrong one; and cases
    that break the schema, against made-up ids and a real table with a real token. The real
    parts are fixed parts of a strategy, so a case that breaks the schema still breaks it."""
    names = {parameter.name for parameter in operation.path_parameters}
    places: list[dict[str, Any]] = []
    if "seat" in names:
        places = [{"table_id": table, "seat": seat} for table in seeds.tables for seat in (0, 1)]
    elif "table_id" in names:
        places = [{"table_id": table} for table in seeds.tables]
    credentials: list[dict[str, str] | None] = [None]
    if operation.definition.raw.get("security"):  # a seat's token, required or optional
        credentials += [
            {"Authorization": f"Bearer {token}"} for token in [*seeds.tokens, "not-a-token"]
        ]
    # What a request can break: any string is a fine path segment, so a path of strings alone
    # cannot break the schema (Hypothesis would find no such case).
    breakable_outside_path = bool(
        list(operation.query) or list(operation.body) or list(operation.headers)
    )
    breakable = breakable_outside_path or any(
        parameter.definition.get("schema", {}).get("type") != "string"
        for parameter in operation.path_parameters
    )
    for mode in GenerationMode:
        if mode is GenerationMode.NEGATIVE:
            if breakable:
                yield operation.as_strategy(mode)
            if places and (list(operation.query) or list(operation.body)):
                # Refused at the edge whatever the table: one real table and token are enough.
                place = {**places[-1], "table_id": seeds.playing}
                token = credentials[1] if len(credentials) > 1 else None  # seat 0's
                yield operation.as_strategy(mode, path_parameters=place, headers=token)
            continue
        yield operation.as_strategy(mode)
        for place in places:
            for headers in credentials:
                yield operation.as_strategy(mode, path_parameters=place, headers=headers)


def test_every_endpoint_refuses_bad_requests_cleanly(app: FastAPI, client: TestClient) -> None:
    schema = schemathesis.openapi.from_dict(app.openapi())
    seeds = Seeds(client)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 12
    before = settled(app, seeds)

    def check(case: Case) -> None:
        nonlocal before
        response, sent = send(client, case)
        case.validate_response(response, checks=CHECKS, transport_kwargs=sent)
        assert "Traceback" not in response.text
        if response.status_code >= 400:
            detail = response.json()["detail"]
            assert isinstance(detail, str) and detail, response.text
            assert snapshot(app, seeds) == before, (case.as_curl_command(), response.text)
        else:
            before = settled(app, seeds)

    for operation in operations:
        strategies = list(variants(operation, seeds))
        # Made-up ids only: more examples; each real table, seat and token: a few each.
        examples = EXAMPLES if len(strategies) <= 2 else 2
        for strategy in strategies:
            fuzz = settings(
                max_examples=examples,
                derandomize=True,
                database=None,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            )(given(case=strategy)(check))
            fuzz()


def test_an_answer_over_the_limit_is_declared_everywhere(database_url: str) -> None:
    """A request over the requests per minute, to every operation, is a 429 the schema
    declares (status, body, ``Retry-After``)."""
    app = create_app(database_url, bot_pace=0, bot_workers=-1, limits=Limits(requests_per_minute=1))
    with TestClient(app) as client:
        schema = schemathesis.openapi.from_dict(app.openapi())
        assert client.get("/api/games").status_code == 200  # the one request of the minute
        operations = [result.ok() for result in schema.get_all_operations()]

        def check(case: Case) -> None:
            response, sent = send(client, case)
            if response.status_code != 429:
                # A minute has passed since the last request let through (a loaded machine
                # takes that long over every operation): this one opened the new window, the
                # same request again is over the limit.
                response, sent = send(client, case)
            assert response.status_code == 429, response.text
            assert int(response.headers["Retry-After"]) >= 1
            case.validate_response(response, checks=CHECKS[:4], transport_kwargs=sent)

        for operation in operations:
            once = settings(
                max_examples=1,
                derandomize=True,
                database=None,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            )(given(case=operation.as_strategy(GenerationMode.POSITIVE))(check))
            once()
