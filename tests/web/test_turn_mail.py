"""Turn e-mails, on SQLite and PostgreSQL, caught by a real SMTP server (aiosmtpd) the test
starts: a turn-based move leaves the other person waiting past their delay, and the server's
background task sends them one e-mail, whose unsubscribe link works without signing in."""

from __future__ import annotations

import email
import re
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from email.message import Message
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from courtly.web import create_app
from courtly.web.limits import NO_LIMITS
from courtly.web.mail import Mailer, MailUrlError
from courtly.web.people.sessions import CSRF_HEADER
from courtly.web.storage import open_storage
from courtly.web.storage.rows import SeatRow, TurnEmailRow
from courtly.web.turn_mail import Mailing, TurnMail

from .test_api import create, move, view, wait_for
from .test_ratings import Someone, add_people, server_of

SENDER = "courtly@example.org"


class Inbox:
    """What the local SMTP server received."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], Message]] = []
        self.refused: list[list[str]] = []
        """Messages refused: those to an address at ``bounce.example`` (a mailbox that is
        not)."""

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.content
        assert isinstance(content, bytes)
        if any(to.endswith("@bounce.example") for to in envelope.rcpt_tos):
            self.refused.append(list(envelope.rcpt_tos))
            return "550 no such mailbox"
        self.messages.append((list(envelope.rcpt_tos), email.message_from_bytes(content)))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def local_smtp_server() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server on a free local port, and what it receives, until the generator
    ends: what an ``inbox`` fixture yields."""
    found = Inbox()
    port = free_port()
    controller = Controller(found, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield found, port
    finally:
        controller.stop()


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    yield from local_smtp_server()


@pytest.fixture
def app(database_url: str, inbox: tuple[Inbox, int]) -> FastAPI:
    mailer = Mailer.from_url(f"smtp://127.0.0.1:{inbox[1]}", SENDER)
    return create_app(
        database_url,
        bot_pace=0,
        bot_workers=-1,
        limits=NO_LIMITS,
        mailing=Mailing(mailer, "http://courtly.example", every=0.1),
    )


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def set_email(someone: Someone, address: str, after: int) -> Any:
    return someone.browser.put(
        "/api/account/email",
        json={"address": address, "after": after},
        headers={CSRF_HEADER: someone.csrf},
    )


def waiting_since(app: FastAPI, table: str, seat: int, seconds: float) -> None:
    """The seat's turn began ``seconds`` ago (the test does not wait out a person's delay)."""
    with server_of(app).storage.session() as session:
        session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table, SeatRow.seat == seat)
            .values(clock_since=time.time() - seconds)
        )


def test_a_turn_waiting_past_the_person_s_delay_sends_one_email_with_a_working_unsubscribe(
    client: TestClient, app: FastAPI, inbox: tuple[Inbox, int]
) -> None:
    caught, _port = inbox
    anna, bert = add_people(app, "Anna", "Bert")
    assert set_email(bert, "bert@example.org", 600).status_code == 200
    settings = bert.browser.get("/api/account/email").json()
    assert settings == {"address": "bert@example.org", "after": 600, "server_sends": True}
    # Royal Gambit, seed 1: p0 moves first; a turn-based day per move.
    table = create(client, seed=1, mode="turn-based", clock={"per_move": 86400})["id"]
    tokens = [anna.join(table, 0), bert.join(table, 1)]
    mine = view(client, table, 0, tokens[0])
    assert mine["to_move"] == [0]
    moved = move(client, table, 0, mine["legal_actions"][0]["text"], mine["version"], tokens[0])
    assert moved.status_code == 200, moved.text
    assert view(client, table, None)["to_move"] == [1]
    time.sleep(0.5)  # several sweeps: Bert has not waited 10 minutes yet
    assert caught.messages == []

    waiting_since(app, table, 1, 601)
    wait_for(lambda: caught.messages, "the turn e-mail")
    time.sleep(0.5)  # more sweeps: still one e-mail for this wait
    ((recipients, message),) = caught.messages
    assert recipients == ["bert@example.org"]
    assert message["From"] == SENDER and "turn" in message["Subject"]
    body = message.get_payload(decode=True)
    assert isinstance(body, bytes)
    text = body.decode()
    assert f"http://courtly.example/table/{table}" in text and "Royal Gambit" in text
    with server_of(app).storage.session() as session:
        rows = list(session.scalars(select(TurnEmailRow)))
    assert [(row.table_id, row.seat, row.sent) for row in rows] == [(table, 1, True)]

    (link,) = re.findall(r"http://courtly\.example/api/email/unsubscribe\?token=\S+", text)
    assert message["List-Unsubscribe"] == f"<{link}>"
    parts = urlsplit(link)
    forged = client.get(parts.path, params={"token": "x" + parts.query.split("=", 1)[1]})
    assert forged.status_code == 400
    # Nobody signed in: the link alone stops the e-mails.
    stopped = TestClient(app).get(f"{parts.path}?{parts.query}")
    assert stopped.status_code == 200, stopped.text
    assert bert.browser.get("/api/account/email").json()["address"] == ""

    # A next wait of Bert's: no e-mail now.
    waiting_since(app, table, 1, 3600)
    time.sleep(0.5)
    assert len(caught.messages) == 1


def test_email_settings_refuse_what_is_no_address_or_delay(
    client: TestClient, app: FastAPI
) -> None:
    (anna,) = add_people(app, "Anna")
    for address, after in (
        ("not an address", 600),
        ("a@b.c", 10),
        ("a@b.c", True),
        ("<a@b.c>", 600),
    ):
        response = set_email(anna, address, after)  # type: ignore[arg-type]
        assert response.status_code == 422, response.text
    assert anna.browser.get("/api/account/email").json()["address"] == ""
    forged = anna.browser.put("/api/account/email", json={"address": "a@b.c", "after": 600})
    assert forged.status_code == 403
    assert client.get("/api/account/email").status_code == 401
    assert (
        client.get("/api/email/unsubscribe", params={"token": "nobody.nothing"}).status_code == 400
    )
    assert client.get("/api/email/unsubscribe").status_code == 422


def test_several_senders_at_once_send_one_email_per_wait(
    client: TestClient, app: FastAPI, database_url: str, inbox: tuple[Inbox, int]
) -> None:
    """The server's own task and four more senders on their own connections (as other server
    processes on the same database would be) race for one wait: one e-mail."""
    caught, port = inbox
    anna, bert = add_people(app, "Anna", "Bert")
    assert set_email(bert, "bert@example.org", 600).status_code == 200
    table = create(client, seed=1, mode="turn-based", clock={"per_move": 86400})["id"]
    tokens = [anna.join(table, 0), bert.join(table, 1)]
    mine = view(client, table, 0, tokens[0])
    moved = move(client, table, 0, mine["legal_actions"][0]["text"], mine["version"], tokens[0])
    assert moved.status_code == 200, moved.text
    storage = open_storage(database_url)
    try:
        others = [
            TurnMail(
                storage,
                Mailer.from_url(f"smtp://127.0.0.1:{port}", SENDER),
                "http://courtly.example",
                f"other-{n}",
                str,
            )
            for n in range(4)
        ]
        waiting_since(app, table, 1, 601)
        with ThreadPoolExecutor(4) as pool:
            sent = list(pool.map(lambda mail: mail.sweep(), others))
        wait_for(lambda: caught.messages, "the turn e-mail")
        time.sleep(0.5)
    finally:
        storage.close()
    assert len(caught.messages) == 1 and sum(sent) <= 1
    with server_of(app).storage.session() as session:
        assert len(list(session.scalars(select(TurnEmailRow)))) == 1


def test_a_refused_email_is_tried_once_and_the_others_still_go(
    client: TestClient, app: FastAPI, inbox: tuple[Inbox, int]
) -> None:
    caught, _port = inbox
    anna, bert, cleo = add_people(app, "Anna", "Bert", "Cleo")
    assert set_email(bert, "bert@bounce.example", 600).status_code == 200
    assert set_email(cleo, "cleo@example.org", 600).status_code == 200
    tables = []
    for other in (bert, cleo):
        table = create(client, seed=1, mode="turn-based", clock={"per_move": 86400})["id"]
        token = anna.join(table, 0)
        other.join(table, 1)
        mine = view(client, table, 0, token)
        moved = move(client, table, 0, mine["legal_actions"][0]["text"], mine["version"], token)
        assert moved.status_code == 200, moved.text
        tables.append(table)
    for table in tables:
        waiting_since(app, table, 1, 601)
    wait_for(lambda: caught.messages and caught.refused, "both e-mails tried")
    time.sleep(0.5)  # more sweeps: the refused one is not tried again
    assert caught.refused == [["bert@bounce.example"]]
    assert [to for to, _message in caught.messages] == [["cleo@example.org"]]
    with server_of(app).storage.session() as session:
        rows = {row.table_id: row.sent for row in session.scalars(select(TurnEmailRow))}
    assert rows == {tables[0]: False, tables[1]: True}


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://host", "begins with"),
        ("smtp://", "names its host"),
        ("smtp://host:99999", "port"),
    ],
)
def test_an_smtp_url_that_cannot_be_used_is_refused(url: str, words: str) -> None:
    with pytest.raises(MailUrlError, match=words):
        Mailer.from_url(url, SENDER)


def test_smtp_url_forms() -> None:
    plain = Mailer.from_url("smtp://us%40er:p%3Ass@mail.example:2525", SENDER)
    assert (plain.host, plain.port, plain.security) == ("mail.example", 2525, "plain")
    assert (plain.user, plain.password) == ("us@er", "p:ss")
    assert Mailer.from_url("smtp+starttls://mail.example", SENDER).port == 587
    assert Mailer.from_url("smtps://mail.example", SENDER).security == "ssl"
