"""Chat at the table over the API: who may speak in which channel, the lines stored with the
table and read back (after a restart too), delivered on the WebSocket, limited in length and
rate, closed at hot-seat tables and while Goths Save the Queen is played, hidden by an
administrator.

Each test runs on SQLite and on PostgreSQL (tests/web/conftest.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.testclient import WebSocketTestSession

from courtly.cli import serve as serve_cli
from courtly.core.errors import InvalidOptions
from courtly.web import create_app
from courtly.web.chat import CHAT_RATE, ChatReader
from courtly.web.limits import NO_LIMITS
from courtly.web.people.sessions import CSRF_HEADER
from courtly.web.protocol import MAX_CHAT_LINE, ChatLine
from courtly.web.storage.rows import AdminActRow, ChatLineRow

from .test_accounts import PASSWORD, sign_up
from .test_api import bearer, create, join, no_stack_trace, play_until, receive, started, view


def say(
    client: TestClient,
    table: str,
    text: str,
    seat: int | None = None,
    token: str | None = None,
    channel: str = "players",
    headers: dict[str, str] | None = None,
) -> Any:
    body: dict[str, Any] = {"channel": channel, "text": text}
    if seat is not None:
        body["seat"] = seat
    sent = dict(headers or {})
    if token is not None:
        sent.update(bearer(token))
    return client.post(f"/api/tables/{table}/chat", json=body, headers=sent)


def said(client: TestClient, table: str, channel: str = "players") -> list[str]:
    answer = client.get(f"/api/tables/{table}/chat", params={"channel": channel})
    assert answer.status_code == 200, answer.text
    return [line["text"] for line in answer.json()["lines"]]


def stored(app: FastAPI) -> list[ChatLineRow]:
    with app.state.server.storage.session() as session:
        return list(session.scalars(select(ChatLineRow).order_by(ChatLineRow.id)))


def next_chat(socket: WebSocketTestSession) -> dict[str, Any]:
    """The next chat message on ``socket`` (views are skipped)."""
    for _ in range(50):
        message = receive(socket)
        if message.get("type") == "chat":
            return message
        assert message.get("type") == "view", message
    raise AssertionError("no chat message")


def hello(socket: WebSocketTestSession, seat: int | None, token: str | None) -> dict[str, Any]:
    socket.send_json({"seat": seat, "token": token, "chat": True})
    assert receive(socket)["type"] == "view"
    return next_chat(socket)


def test_seats_talk_and_everyone_at_the_table_reads_them_live_and_later(
    client: TestClient,
) -> None:
    table, tokens = started(client)
    join_names = view(client, table, None)["seats"]
    with (
        client.websocket_connect(f"/api/tables/{table}/ws") as other,
        client.websocket_connect(f"/api/tables/{table}/ws") as watching,
    ):
        assert hello(other, 1, tokens[1]) == {
            "type": "chat",
            "lines": [],
            "hidden": [],
            "closed": None,
        }
        assert hello(watching, None, None)["lines"] == []
        answer = say(client, table, "  good\tluck \u202eto you  ", 0, tokens[0])
        assert answer.status_code == 201, answer.text
        line = answer.json()
        assert line["text"] == "good luck to you"  # white space folded, the override dropped
        assert line["seat"] == 0 and line["channel"] == "players" and line["sender"] == "s0"
        assert line["name"] == join_names[0]["name"] and line["at"] > 0
        for socket in (other, watching):
            assert next_chat(socket)["lines"] == [line]
    assert said(client, table) == ["good luck to you"]
    [row] = stored(client.app)  # type: ignore[arg-type]
    assert row.table_id == table and row.seat == 0 and row.account_id is None


def test_lines_stay_with_the_table_after_a_restart_and_after_the_game(
    database_url: str,
) -> None:
    with TestClient(create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)) as c:
        table, tokens = started(c, seed=1)
        assert say(c, table, "hello", 0, tokens[0]).status_code == 201
        assert say(c, table, "hi <b>there</b>", 1, tokens[1]).status_code == 201
        play_until(c, table, tokens, random.Random(1), lambda shown: False)
        assert view(c, table, None)["status"] == "over"
        assert say(c, table, "good game", 1, tokens[1]).status_code == 201
    with TestClient(create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)) as c:
        # Plain text, as said: the page shows it as text.
        assert said(c, table) == ["hello", "hi <b>there</b>", "good game"]


def test_bad_lines_are_refused_with_the_reason_and_nothing_is_stored(
    app: FastAPI, client: TestClient
) -> None:
    table, tokens = started(client)
    refusals = [
        (say(client, table, "hi", 0), 401),
        (say(client, table, "hi", 0, tokens[1]), 403),
        (say(client, table, "hi", None, tokens[0]), 422),
        (say(client, table, "hi", 7, tokens[0]), 404),
        (say(client, table, "\u200b \n\t", 0, tokens[0]), 422),
        (say(client, table, "x" * (MAX_CHAT_LINE + 1), 0, tokens[0]), 422),
        (say(client, table, "x" * 5000, 0, tokens[0]), 422),
        (say(client, table, "hi", 0, tokens[0], channel="shouting"), 422),
        (say(client, "nosuchtable", "hi", 0, tokens[0]), 404),
        (client.post(f"/api/tables/{table}/chat", content=b"{", headers=bearer(tokens[0])), 422),
        (client.post(f"/api/tables/{table}/chat", json={"text": 3, "seat": 0}), 422),
        # A guest spectator reads the spectators' channel but cannot speak in it.
        (say(client, table, "hi", channel="spectators"), 401),
        (client.get(f"/api/tables/{table}/chat", params={"channel": "x"}), 422),
        (client.get("/api/tables/nosuchtable/chat"), 404),
    ]
    for answer, status in refusals:
        assert answer.status_code == status, answer.text
        assert answer.json()["detail"]
        no_stack_trace(answer.text)
    assert "at most 500 characters" in refusals[5][0].json()["detail"]
    assert stored(app) == []
    # The longest line is taken.
    assert say(client, table, "x" * MAX_CHAT_LINE, 0, tokens[0]).status_code == 201


def test_a_sender_speaking_too_fast_gets_429_and_the_line_is_not_kept(
    app: FastAPI, client: TestClient
) -> None:
    table, tokens = started(client)
    for number in range(5):
        assert say(client, table, f"line {number}", 0, tokens[0]).status_code == 201
    answer = say(client, table, "one too many", 0, tokens[0])
    assert answer.status_code == 429, answer.text
    assert int(answer.headers["Retry-After"]) >= 1
    assert "too fast" in answer.json()["detail"]
    assert len(stored(app)) == 5
    # The limit is the sender's: the other seat still speaks.
    assert say(client, table, "my turn", 1, tokens[1]).status_code == 201


def test_spectators_speak_signed_in_and_a_seat_reads_them_only_when_it_asks(
    app: FastAPI, client: TestClient
) -> None:
    table, tokens = started(client)
    watcher = TestClient(app)
    me = sign_up(watcher, "Vera")
    csrf = {CSRF_HEADER: me["csrf"]}
    with (
        client.websocket_connect(f"/api/tables/{table}/ws") as seat0,
        client.websocket_connect(f"/api/tables/{table}/ws") as spectator,
    ):
        hello(seat0, 0, tokens[0])
        hello(spectator, None, None)
        answer = say(watcher, table, "nice move", channel="spectators", headers=csrf)
        assert answer.status_code == 201, answer.text
        line = answer.json()
        assert line["seat"] is None and line["name"] == "Vera" and line["sender"].startswith("p")
        assert me["id"] not in line["sender"]  # the account's id is never shown
        assert next_chat(spectator)["lines"] == [line]
        # The seat has not asked: a players' line reaches it, the spectators' one did not.
        assert say(client, table, "thanks", 0, tokens[0]).status_code == 201
        players_line = next_chat(seat0)["lines"]
        assert [x["text"] for x in players_line] == ["thanks"]
        seat0.send_json({"type": "chat-read", "spectators": True})
        everything = next_chat(seat0)
        assert [x["text"] for x in everything["lines"]] == ["nice move", "thanks"]
        seat0.send_json({"type": "chat-read", "spectators": "yes"})
        refused = receive(seat0)
        assert refused["type"] == "refused" and refused["status"] == 422
    assert said(client, table, "spectators") == ["nice move"]
    assert said(client, table) == ["thanks"]
    # Without the CSRF token the cookie does not speak.
    assert say(watcher, table, "again", channel="spectators").status_code == 403
    # A person who plays the table speaks in the players' channel, not the spectators'.
    player = TestClient(app)
    pia = {CSRF_HEADER: sign_up(player, "Pia")["csrf"]}
    other = create(client)
    joined = player.post(f"/api/tables/{other['id']}/seats/0/join", json={}, headers=pia)
    assert joined.status_code == 200, joined.text
    answer = say(player, other["id"], "hm", channel="spectators", headers=pia)
    assert answer.status_code == 403 and "players' channel" in answer.json()["detail"]


def test_a_hot_seat_table_has_no_chat(app: FastAPI, client: TestClient) -> None:
    table = create(client)["id"]
    tokens = []
    for seat in range(2):
        answer = client.post(f"/api/tables/{table}/seats/{seat}/join", json={"hot_seat": True})
        tokens.append(answer.json()["token"])
    answer = say(client, table, "hi", 0, tokens[0])
    assert answer.status_code == 409 and "hot-seat" in answer.json()["detail"]
    assert client.get(f"/api/tables/{table}/chat").json()["closed"].startswith("a hot-seat")
    assert stored(app) == []
    # A stranger who takes the last seat of a table "as a hot seat" silences nobody.
    other = create(client)["id"]
    first = join(client, other, 0)
    client.post(f"/api/tables/{other}/seats/1/join", json={"hot_seat": True})
    assert client.get(f"/api/tables/{other}/chat").json()["closed"] is None
    assert say(client, other, "still here", 0, first).status_code == 201


def test_goths_has_no_chat_while_it_is_played_and_opens_when_it_ends(
    app: FastAPI, client: TestClient
) -> None:
    table, tokens = started(
        client, game="goths-save-the-queen", seats=[{"kind": "person"}] * 4, seed=3
    )
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        first = hello(socket, 0, tokens[0])
        assert first["closed"] is not None and "through their cards" in first["closed"]
        answer = say(client, table, "I hold the crown", 0, tokens[0])
        assert answer.status_code == 409, answer.text
        assert "opens when the game ends" in answer.json()["detail"]
        assert stored(app) == []
        play_until(client, table, tokens, random.Random(3), lambda shown: False)
        assert view(client, table, None)["status"] == "over"
        # The socket hears that the chat opened (after the views of every move).
        while True:
            message = receive(socket)
            if message["type"] == "chat" and message["closed"] is None:
                break
            assert message["type"] in ("view", "chat"), message
    assert say(client, table, "well played, partner", 0, tokens[0]).status_code == 201
    assert said(client, table) == ["well played, partner"]


def test_an_administrator_hides_a_line_everywhere_and_the_act_is_logged(
    app: FastAPI, client: TestClient
) -> None:
    admin = TestClient(app)
    boss = sign_up(admin, "Boss")  # the first account: an administrator
    nobody = TestClient(app)
    plain = sign_up(nobody, "Nobody")
    table, tokens = started(client)
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, 1, tokens[1])
        rude = say(client, table, "something rude", 0, tokens[0]).json()
        kind = say(client, table, "sorry", 0, tokens[0]).json()
        assert [x["id"] for x in next_chat(socket)["lines"]] == [rude["id"]]
        assert [x["id"] for x in next_chat(socket)["lines"]] == [kind["id"]]
        path = f"/api/admin/chat/{rude['id']}/hide"
        assert nobody.post(path, headers={CSRF_HEADER: plain["csrf"]}).status_code == 403
        assert client.post(path).status_code == 401
        answer = admin.post(path, json={"reason": "rude"}, headers={CSRF_HEADER: boss["csrf"]})
        assert answer.status_code == 200, answer.text
        assert answer.json()["act"] == "hide-chat-line"
        assert next_chat(socket)["hidden"] == [rude["id"]]
    assert said(client, table) == ["sorry"]
    missing = admin.post("/api/admin/chat/999999/hide", headers={CSRF_HEADER: boss["csrf"]})
    assert missing.status_code == 404
    with app.state.server.storage.session() as session:
        [act] = session.scalars(select(AdminActRow)).all()
        assert (act.act, act.target, act.detail) == ("hide-chat-line", str(rude["id"]), "rude")
    # A page that comes later never gets the hidden line.
    with client.websocket_connect(f"/api/tables/{table}/ws") as late:
        assert [x["text"] for x in hello(late, None, None)["lines"]] == ["sorry"]


def test_the_operator_sets_the_chat_rate_and_a_bad_one_is_refused(database_url: str) -> None:
    assert serve_cli.CHAT_RATE == CHAT_RATE  # what --help shows is the server's default
    with pytest.raises(InvalidOptions, match="is not a rate"):
        serve_cli.check_chat_rate("often")
    serve_cli.check_chat_rate("0")
    app = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS, chat_rate="0")
    with TestClient(app) as client:
        table, tokens = started(client)
        for number in range(12):  # no limit: more than the default's five in ten seconds
            assert say(client, table, f"line {number}", 0, tokens[0]).status_code == 201
    app = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS, chat_rate="1/hour")
    with TestClient(app) as client:
        table, tokens = started(client)
        assert say(client, table, "one", 0, tokens[0]).status_code == 201
        assert say(client, table, "two", 0, tokens[0]).status_code == 429


def test_a_signed_in_person_keeps_whom_they_mute_with_their_account(
    app: FastAPI, client: TestClient
) -> None:
    me = sign_up(client, "Mia")
    csrf = {CSRF_HEADER: me["csrf"]}
    assert client.get("/api/account/muted").json() == {"muted": []}
    keys = ["p0123456789abcdef", "someTable_1/s3", "p0123456789abcdef"]
    answer = client.put("/api/account/muted", json={"muted": keys}, headers=csrf)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"muted": ["p0123456789abcdef", "someTable_1/s3"]}
    # Kept with the account: another browser signed in as Mia reads them.
    other = TestClient(app)
    other.post("/api/account/session", json={"name": "Mia", "password": PASSWORD})
    assert other.get("/api/account/muted").json()["muted"] == [
        "p0123456789abcdef",
        "someTable_1/s3",
    ]
    for bad in (["<script>"], ["p123"], "p0123456789abcdef", [3], ["x" * 40 + "/s1"]):
        refused = client.put("/api/account/muted", json={"muted": bad}, headers=csrf)
        assert refused.status_code == 422, (bad, refused.text)
    assert client.put("/api/account/muted", json={"muted": []}).status_code == 403  # no CSRF
    assert client.get("/api/account/muted").json()["muted"] == [
        "p0123456789abcdef",
        "someTable_1/s3",
    ]
    guest = TestClient(app)
    assert guest.get("/api/account/muted").status_code == 401
    assert guest.put("/api/account/muted", json={"muted": []}).status_code == 401


def test_control_characters_and_lone_surrogates_never_reach_the_database(
    client: TestClient,
) -> None:
    table, tokens = started(client)
    answer = say(client, table, "a\u0000b\u001b[31mc", 0, tokens[0])
    assert answer.status_code == 201, answer.text
    assert answer.json()["text"] == "ab[31mc"
    lone = client.post(
        f"/api/tables/{table}/chat",
        content=b'{"seat": 0, "text": "\\ud800"}',
        headers={**bearer(tokens[0]), "Content-Type": "application/json"},
    )
    assert lone.status_code == 422, lone.text
    assert said(client, table) == ["ab[31mc"]


def test_a_signed_in_person_speaks_for_their_seat_by_cookie(
    app: FastAPI, client: TestClient
) -> None:
    me = sign_up(client, "Sam")
    csrf = {CSRF_HEADER: me["csrf"]}
    table = create(client)["id"]
    joined = client.post(f"/api/tables/{table}/seats/0/join", json={}, headers=csrf)
    assert joined.status_code == 200, joined.text
    answer = say(client, table, "my own seat", 0, headers=csrf)
    assert answer.status_code == 201, answer.text
    line = answer.json()
    assert line["name"] == "Sam" and line["sender"].startswith("p")  # the person, not the seat
    assert say(client, table, "not mine", 1, headers=csrf).status_code in (401, 403)
    [row] = stored(app)
    assert row.account_id == me["id"]


def test_a_line_committed_out_of_the_order_of_ids_still_reaches_every_reader(
    app: FastAPI, client: TestClient
) -> None:
    table, _tokens = started(client)
    chat = app.state.server.chat
    reader = ChatReader(chat, table, spectator=False)
    assert reader.message() == {"type": "chat", "lines": [], "hidden": [], "closed": None}

    def line(number: int) -> ChatLine:
        return {
            "id": number,
            "channel": "players",
            "seat": 0,
            "sender": "s0",
            "name": "p0",
            "text": f"line {number}",
            "at": 1.0,
        }

    # Line 10 is known first (committed first, or heard first from another process), then 9.
    room = chat.room(table)
    room.arrived(line(10))
    assert [x["id"] for x in reader.message()["lines"]] == [10]
    room.arrived(line(9))
    room.arrived(line(10))  # heard again: not sent twice
    assert [x["id"] for x in reader.message()["lines"]] == [9]
    assert reader.message() is None
    assert [x["id"] for x in chat.history(table, "players")["lines"]] == [9, 10]
