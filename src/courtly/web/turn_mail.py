"""Turn e-mails: a person who gave an address (their account's settings) hears by e-mail when
their turn at a turn-based table has waited longer than the delay they chose; once per wait.

Any server process may run :meth:`TurnMail.sweep` (every process does, on a timer): a wait is
one seat's turn that began at a moment (the seat's ``clock_since``), and an e-mail for it is
claimed by inserting its :class:`~courtly.web.storage.rows.TurnEmailRow`, whose primary key is
the wait, before it is sent: of several processes, one claims it; a restart finds it claimed.
An e-mail the SMTP server refused stays claimed (marked unsent, logged): a wait is worth one
try, never a flood.

Every e-mail carries a link that stops them without signing in: a token that names the account,
signed with HMAC-SHA256 by a key the server keeps in its database (the same in every process,
kept across restarts). Nothing is sent, and no key made, when the operator set no SMTP URL.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import logging
import secrets
import smtplib
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any, Final
from urllib.parse import quote

from fastapi import HTTPException
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from .mail import Mailer
from .protocol import EmailSettings, EmailSettingsInfo
from .storage import Storage
from .storage.rows import AccountRow, SeatRow, ServerSecretRow, TableRow, TurnEmailRow

log = logging.getLogger("courtly.web")

PREFERENCE: Final = "turn_email"
"""The key of an account's preferences that holds its turn e-mail settings."""
DEFAULT_AFTER: Final = 3600
KEY_NAME: Final = "unsubscribe"
UNSUBSCRIBE_PATH: Final = "/api/email/unsubscribe"


def settings_of(preferences: dict[str, Any]) -> EmailSettingsInfo:
    found = preferences.get(PREFERENCE) or {}
    return {
        "address": str(found.get("address", "")),
        "after": int(found.get("after", DEFAULT_AFTER)),
        "server_sends": False,
    }


@dataclass(frozen=True)
class Mailing:
    """The operator's choices for e-mail: the SMTP server (None: nothing is sent), the address
    people reach the server at (the e-mails' links), and how often waits are looked for."""

    mailer: Mailer | None = None
    public_url: str = "http://127.0.0.1:8000"
    every: float = 30.0


@dataclass(frozen=True)
class Wait:
    """A person's turn waiting at a table, long enough for an e-mail."""

    table_id: str
    seat: int
    since: float
    account_id: str
    name: str
    address: str
    game: str


class TurnMail:
    """``server.turn_mail``: the settings, the sweep that sends, the unsubscribe links."""

    def __init__(
        self,
        storage: Storage,
        mailer: Mailer | None,
        public_url: str,
        process: str,
        title: Callable[[str], str],
    ) -> None:
        self.storage = storage
        self.title = title
        """A game's title, from its id."""
        self.mailer = mailer
        """None: the operator set no SMTP URL, and nothing is sent."""
        self.public_url = public_url.rstrip("/")
        """The address people reach the server at, for the e-mails' links."""
        self.process = process
        self._key: bytes | None = None

    # ------------------------------------------------------------------------------ settings

    def settings(self, account_id: str) -> EmailSettingsInfo:
        with self.storage.session() as session:
            row = session.get(AccountRow, account_id)
            found = settings_of(row.preferences if row is not None else {})
        found["server_sends"] = self.mailer is not None
        return found

    def change(self, account_id: str, settings: EmailSettings) -> EmailSettingsInfo:
        with self.storage.session() as session:
            # Held while the preferences are rewritten: another change of them waits.
            row = session.get(AccountRow, account_id, with_for_update=True)
            if row is None:
                raise HTTPException(404, "there is no such account")
            preferences = dict(row.preferences or {})
            preferences[PREFERENCE] = {"address": settings.address, "after": settings.after}
            row.preferences = preferences  # a new dict: the JSON column sees the change
        return self.settings(account_id)

    # ------------------------------------------------------------------------------ links

    def _secret(self) -> bytes:
        """The key that signs unsubscribe links: made once, by whichever process asks first."""
        if self._key is None:
            with self.storage.session() as session:
                value = session.scalar(
                    select(ServerSecretRow.value).where(ServerSecretRow.name == KEY_NAME)
                )
            if value is None:
                try:
                    with self.storage.session() as session:
                        value = secrets.token_hex(32)
                        session.add(ServerSecretRow(name=KEY_NAME, value=value))
                except IntegrityError:  # made at the same moment by another process
                    with self.storage.session() as session:
                        value = session.scalar(
                            select(ServerSecretRow.value).where(ServerSecretRow.name == KEY_NAME)
                        )
            assert value is not None
            self._key = bytes.fromhex(value)
        return self._key

    def _signature(self, account_id: str) -> str:
        digest = hmac.new(
            self._secret(), f"unsubscribe {account_id}".encode(), hashlib.sha256
        ).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def unsubscribe_token(self, account_id: str) -> str:
        return f"{account_id}.{self._signature(account_id)}"

    def unsubscribe_link(self, account_id: str) -> str:
        token = quote(self.unsubscribe_token(account_id), safe="")
        return f"{self.public_url}{UNSUBSCRIBE_PATH}?token={token}"

    def unsubscribe(self, token: str) -> None:
        """Stop the turn e-mails of the account the signed ``token`` names (400 if it is not
        a token this server signed)."""
        account_id, _, signature = token.partition(".")
        if not account_id or not hmac.compare_digest(
            signature.encode(), self._signature(account_id).encode()
        ):
            raise HTTPException(400, "this unsubscribe link is not one this server made")
        with self.storage.session() as session:
            row = session.get(AccountRow, account_id, with_for_update=True)
            if row is None:
                return  # an unknown account gets no e-mail anyway
            preferences = dict(row.preferences or {})
            found = settings_of(preferences)
            preferences[PREFERENCE] = {"address": "", "after": found["after"]}
            row.preferences = preferences

    # ------------------------------------------------------------------------------ sending

    def waiting(self, now: float) -> list[Wait]:
        """The turns of people with an address that waited past their delay at turn-based
        tables in play, for which no e-mail was claimed yet."""
        with self.storage.session() as session:
            rows = session.execute(
                select(
                    SeatRow.table_id,
                    SeatRow.seat,
                    SeatRow.clock_since,
                    SeatRow.name,
                    TableRow.game,
                    AccountRow.id,
                    AccountRow.preferences,
                )
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .join(AccountRow, AccountRow.id == SeatRow.account_id)
                # The waits with no e-mail claimed yet (one query, not one per wait).
                .outerjoin(
                    TurnEmailRow,
                    (TurnEmailRow.table_id == SeatRow.table_id)
                    & (TurnEmailRow.seat == SeatRow.seat)
                    & (TurnEmailRow.since == SeatRow.clock_since),
                )
                .where(
                    TurnEmailRow.table_id.is_(None),
                    TableRow.mode == "turn-based",
                    TableRow.status == "playing",
                    SeatRow.clock_since.is_not(None),
                    SeatRow.bot_control.is_(False),
                    SeatRow.kind == "person",
                    AccountRow.deleted_at.is_(None),
                    AccountRow.disabled.is_(False),
                )
            ).all()
            waits = []
            for table_id, seat, since, name, game, account_id, preferences in rows:
                found = settings_of(preferences or {})
                if not found["address"] or since is None or now - since < found["after"]:
                    continue
                waits.append(Wait(table_id, seat, since, account_id, name, found["address"], game))
            return waits

    def _claim(self, wait: Wait, now: float) -> bool:
        try:
            with self.storage.session() as session:
                session.add(
                    TurnEmailRow(
                        table_id=wait.table_id,
                        seat=wait.seat,
                        since=wait.since,
                        account_id=wait.account_id,
                        process=self.process,
                        at=now,
                        sent=False,
                    )
                )
            return True
        except IntegrityError:  # another process claimed it first
            return False

    def sweep(self, now: float | None = None) -> int:
        """Send the e-mail of every wait past its delay not claimed yet, on one connection to
        the SMTP server (opened again after a refusal); returns how many were sent (blocking:
        run it in a thread)."""
        if self.mailer is None:
            return 0
        now = time.time() if now is None else now
        sent = 0
        smtp: smtplib.SMTP | None = None
        try:
            for wait in self.waiting(now):
                if not self._claim(wait, now):
                    continue
                try:
                    smtp = smtp or self.mailer.connect()
                    smtp.send_message(self._message(wait))
                except Exception:
                    log.exception("the SMTP server refused the turn e-mail to %s", wait.address)
                    if smtp is not None:
                        smtp.close()
                    smtp = None
                    continue
                self._sent(wait)
                sent += 1
        finally:
            if smtp is not None:
                with contextlib.suppress(Exception):
                    smtp.quit()
        return sent

    def _sent(self, wait: Wait) -> None:
        with self.storage.session() as session:
            session.execute(
                update(TurnEmailRow)
                .where(
                    TurnEmailRow.table_id == wait.table_id,
                    TurnEmailRow.seat == wait.seat,
                    TurnEmailRow.since == wait.since,
                )
                .values(sent=True)
            )

    def _message(self, wait: Wait) -> EmailMessage:
        assert self.mailer is not None
        table_link = f"{self.public_url}/table/{quote(wait.table_id, safe='')}"
        unsubscribe = self.unsubscribe_link(wait.account_id)
        minutes = max(1, round((time.time() - wait.since) / 60))
        text = (
            f"Hello {wait.name},\n\n"
            f"Your turn at a game of {self.title(wait.game)} has waited for {minutes} minutes.\n"
            f"Play it here: {table_link}\n\n"
            f"To stop these e-mails (no sign-in needed): {unsubscribe}\n"
        )
        return self.mailer.message(
            wait.address,
            "Courtly: your turn is waiting",
            text,
            {
                "List-Unsubscribe": f"<{unsubscribe}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )
