"""Playing together in Chromium against a real server, each person in a browser context of their
own: an invitation sent from the table's page, seen in My games by the invited person and
accepted (the table opens at the held seat), another declined; and a turn e-mail, set on the
account page, sent by the server through a real local SMTP server (aiosmtpd) the test starts,
its unsubscribe link opened signed out.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from .browsing import Server, running_server
from .test_browser_ratings import Person, wait_until
from .test_turn_mail import Inbox, local_smtp_server

SENDER = "courtly@example.org"


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    yield from local_smtp_server()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]) -> Iterator[Server]:
    options = [
        "--smtp-url",
        f"smtp://127.0.0.1:{inbox[1]}",
        "--mail-from",
        SENDER,
        "--mail-every",
        "0.2",
    ]
    yield from running_server(tmp_path_factory.mktemp("invitations-server"), options)


def signed_in(new_page: Callable[..., Page], person: Person) -> Page:
    page = new_page()
    person.sign_in_page(page)
    return page


def test_an_invitation_accepted_in_my_games_and_another_declined(
    new_page: Callable[..., Page], server: Server
) -> None:
    anna, bert, cleo = Person(server, "Anna"), Person(server, "Bert"), Person(server, "Cleo")
    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": "royal-gambit", "players": 3, "seats": [{"kind": "person"}] * 3},
    )["id"]
    anna.join(table, 0)

    host = signed_in(new_page, anna)
    host.goto(f"/table/{table}?seat=0")
    panel = host.locator("section", has=host.get_by_role("heading", name="Invite a person by name"))
    panel.get_by_label("Their name").fill("Bert")
    panel.get_by_role("button", name="Invite").click()
    expect(panel.get_by_role("status")).to_contain_text("Seat p1 is held for Bert")
    panel.get_by_label("Their name").fill("Cleo")
    panel.get_by_role("button", name="Invite").click()
    expect(panel.get_by_role("status")).to_contain_text("Seat p2 is held for Cleo")
    expect(panel.locator(".invitations-sent li")).to_have_count(2)

    # Cleo, on her own device, declines in My games.
    declining = signed_in(new_page, cleo)
    declining.goto("/my-games")
    offered = declining.locator(".invitation")
    expect(offered).to_have_count(1)
    expect(offered).to_contain_text("Anna invites you to Royal Gambit (seat p2)")
    offered.get_by_role("button", name="Decline").click()
    expect(offered).to_have_count(0)
    mine = cleo.http.get("/api/account/invitations").json()
    assert mine["received"] == []

    # Bert, on his, accepts from the lobby's My games: the table opens at the held seat.
    accepting = signed_in(new_page, bert)
    accepting.goto("/")
    invitation = accepting.locator(".my-games .invitation")
    expect(invitation).to_contain_text("Anna invites you to Royal Gambit (seat p1)")
    invitation.get_by_role("button", name="Accept").click()
    expect(accepting).to_have_url(re.compile(rf"/table/{re.escape(table)}\?seat=1"))
    expect(accepting.get_by_test_id("turn")).to_contain_text("Waiting for 1 more player")
    seats = server.ok("GET", f"/api/tables/{table}/view")["seats"]
    assert [s["name"] for s in seats[:2]] == ["Anna", "Bert"] and not seats[2]["taken"]
    # Cleo's seat is free again: anyone may take it, and the game starts.
    server.ok("POST", f"/api/tables/{table}/seats/2/join", json={"name": "Gus"})
    expect(host.get_by_test_id("turn")).not_to_contain_text("more player", timeout=20_000)


def test_a_turn_based_move_sends_an_email_whose_link_unsubscribes(
    new_page: Callable[..., Page], server: Server, inbox: tuple[Inbox, int]
) -> None:
    caught, _port = inbox
    anna, bert = Person(server, "Ada"), Person(server, "Ben")
    page = signed_in(new_page, bert)
    page.goto("/account")
    page.get_by_label("E-mail address").fill("ben@example.org")
    page.get_by_label("After a turn has waited").select_option(label="5 minutes")
    page.get_by_role("button", name="Save the e-mail settings").click()
    expect(page.get_by_role("status")).to_contain_text("Turn e-mails go to ben@example.org")

    table = server.ok(
        "POST",
        "/api/tables",
        json={
            "game": "royal-gambit",
            "seed": 1,
            "seats": [{"kind": "person"}] * 2,
            "mode": "turn-based",
            "clock": {"per_move": 86400},
        },
    )["id"]
    tokens = [anna.join(table, 0), bert.join(table, 1)]
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    mine = server.ok("GET", f"/api/tables/{table}/view", params={"seat": 0}, headers=auth)
    assert mine["to_move"] == [0]
    server.ok(
        "POST",
        f"/api/tables/{table}/moves",
        json={"seat": 0, "action": mine["legal_actions"][0]["text"], "version": mine["version"]},
        headers=auth,
    )
    # Ben's turn began 6 minutes ago (the test does not wait out his 5).
    with sqlite3.connect(server.file, timeout=30) as connection:
        connection.execute(
            "UPDATE seats SET clock_since = ? WHERE table_id = ? AND seat = 1",
            (time.time() - 360, table),
        )
    wait_until(lambda: caught.messages, "the turn e-mail")
    ((recipients, message),) = caught.messages
    assert recipients == ["ben@example.org"]
    assert message["To"] == "ben@example.org" and message["From"] == SENDER
    body = message.get_payload(decode=True)
    assert isinstance(body, bytes)
    (link,) = re.findall(r"http://\S+/api/email/unsubscribe\?token=\S+", body.decode())

    # Opened on a device nobody signed in on: the e-mails stop.
    stranger = new_page()
    stranger.goto(link)
    expect(stranger.locator("body")).to_contain_text("unsubscribed")
    page.reload()
    expect(page.get_by_label("E-mail address")).to_have_value("")
