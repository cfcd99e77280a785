"""Invitations: a person seated at an open table invites another person, by name, to one of its
free seats; the seat is held for them (nobody else may take it) until they accept (and take it,
signed in), decline, or the inviter withdraws the invitation.

Every invitation is a stored row (:class:`~courtly.web.storage.rows.InvitationRow`), so any
server process answers for it and a restart loses none. The rules are checked with the table's
row held (:meth:`~courtly.web.storage.Storage.lock_table`, and the join's own hold), so two
processes cannot both invite for one seat, nor seat someone else in a held seat.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Final, cast

from fastapi import HTTPException
from sqlalchemy import select, update
from sqlalchemy.orm import InstrumentedAttribute

from .model import Table, TableError
from .people import Account
from .people.model import name_key, shown_name
from .playing import check_seat_index
from .protocol import Invitation, Invitations, InvitationStatus
from .storage import Storage, Transaction
from .storage.rows import AccountRow, InvitationRow, TableRow
from .tables import Tables
from .tables.access import SignedInPerson

PENDING: Final = "pending"
KEPT: Final = 50
"""Invitations of each kind a person's list shows (the newest)."""

JoinRule = Callable[[Transaction, Table], None]
"""A further rule of a join (:meth:`courtly.web.tables.seats.Seats.join`'s ``may_take``)."""


class InvitationBook:
    """``server.invitations``: invitations made, answered and listed."""

    def __init__(self, storage: Storage, tables: Tables, title: Callable[[str], str]) -> None:
        self.storage = storage
        self.tables = tables
        self.title = title
        """A game's title, from its id (what a list of invitations shows)."""

    # ------------------------------------------------------------------------------ making

    def invite(self, table_id: str, seat: int, inviter: Account, name: str) -> Invitation:
        """Hold ``seat`` of ``table_id`` for the person named ``name``: the ``inviter`` holds a
        seat of that open table, the seat is a free person's seat nobody else is invited to."""
        key = name_key(name)
        with self.storage.session() as session:
            invitee = session.scalars(
                select(AccountRow).where(
                    AccountRow.name_key == key,
                    AccountRow.deleted_at.is_(None),
                    AccountRow.disabled.is_(False),
                )
            ).first()
            if invitee is None:
                raise HTTPException(404, f"there is nobody named {name!r} to invite")
            if invitee.id == inviter.id:
                raise HTTPException(400, "you cannot invite yourself: join the seat")
        table = self.tables.cache.get(table_id)
        with table.lock, self.storage.session() as session:
            self.tables.cache.catch_up(session, table)  # and holds the row against others
            check_seat_index(table, seat)
            if not any(s.account_id == inviter.id for s in table.seats):
                raise TableError(403, "only a person seated at the table may invite to it")
            if table.status != "open" or table.tutorial:
                raise TableError(409, "invitations are for a table waiting for its people")
            chair = table.seats[seat]
            if chair.kind != "person" or chair.taken:
                raise TableError(409, f"seat {seat} is taken")
            if any(s.account_id == invitee.id for s in table.seats):
                raise TableError(409, f"{invitee.name} holds a seat of this table already")
            held = self._pending(session, table_id)
            if any(row.seat == seat for row in held):
                raise TableError(409, f"seat {seat} is held for another invited person")
            if any(row.account_id == invitee.id for row in held):
                raise TableError(409, f"{invitee.name} is invited to this table already")
            row = InvitationRow(
                id=secrets.token_hex(16),
                table_id=table_id,
                seat=seat,
                account_id=invitee.id,
                inviter_id=inviter.id,
                status=PENDING,
                created_at=time.time(),
                decided_at=None,
            )
            session.add(row)
            session.flush()
            return self._shown(session, row)

    @staticmethod
    def _pending(session: Transaction, table_id: str) -> list[InvitationRow]:
        """The table's pending invitations of people who can still answer (a deleted or
        disabled account holds no seat)."""
        return list(
            session.scalars(
                select(InvitationRow)
                .join(AccountRow, AccountRow.id == InvitationRow.account_id)
                .where(
                    InvitationRow.table_id == table_id,
                    InvitationRow.status == PENDING,
                    AccountRow.deleted_at.is_(None),
                    AccountRow.disabled.is_(False),
                )
            )
        )

    def hold(self, account: Account | None, seat: int) -> JoinRule:
        """The join's further rule: a seat held for an invited person is theirs alone."""

        def may_take(session: Transaction, table: Table) -> None:
            for row in self._pending(session, table.id):
                if row.seat != seat:
                    continue
                if account is None or row.account_id != account.id:
                    raise TableError(409, f"seat {seat} is held for an invited person")
                # The invited person joined the seat by its link: the invitation is answered.
                row.status, row.decided_at = "accepted", time.time()

        return may_take

    # ------------------------------------------------------------------------------ answering

    def _own(self, session: Transaction, invitation_id: str, account_id: str) -> InvitationRow:
        """The pending invitation ``invitation_id`` sent to or by ``account_id`` (404
        otherwise: nobody learns of another person's invitations)."""
        row = session.get(InvitationRow, invitation_id)
        if row is None or account_id not in (row.account_id, row.inviter_id):
            raise HTTPException(404, "there is no such invitation of yours")
        if row.status != PENDING:
            raise HTTPException(409, f"the invitation is {row.status} already")
        return row

    def accept(self, invitation_id: str, person: Account) -> tuple[str, Invitation]:
        """The invited person takes the held seat (signed in): its token and the invitation."""
        with self.storage.session() as session:
            row = self._own(session, invitation_id, person.id)
            if row.account_id != person.id:
                raise HTTPException(403, "only the invited person may accept")
            table_id, seat = row.table_id, row.seat
        token, _table = self.tables.seats.join(
            table_id,
            seat,
            person.name,
            SignedInPerson(person.id),
            may_take=self._accepting(invitation_id),
        )
        with self.storage.session() as session:
            accepted = session.get(InvitationRow, invitation_id)
            assert accepted is not None
            return token, self._shown(session, accepted)

    def _accepting(self, invitation_id: str) -> JoinRule:
        """The join's further rule when accepting: the invitation is still pending (checked
        and marked accepted in the join's own transaction: accepted once)."""

        def may_take(session: Transaction, table: Table) -> None:
            done = session.execute(
                update(InvitationRow)
                .where(InvitationRow.id == invitation_id, InvitationRow.status == PENDING)
                .values(status="accepted", decided_at=time.time())
            )
            if getattr(done, "rowcount", 0) != 1:
                raise TableError(409, "the invitation was answered already")

        return may_take

    def decline(self, invitation_id: str, person: Account) -> Invitation:
        """Declined by the invited person, or withdrawn by the inviter: the seat is free."""
        with self.storage.session() as session:
            row = self._own(session, invitation_id, person.id)
            row.status = "declined" if row.account_id == person.id else "withdrawn"
            row.decided_at = time.time()
            session.flush()
            return self._shown(session, row)

    # ------------------------------------------------------------------------------ listing

    def of_person(self, account_id: str) -> Invitations:
        """The pending invitations sent to and by a person, at tables still open, the newest
        first."""
        with self.storage.session() as session:

            def pending(column: InstrumentedAttribute[str]) -> list[Invitation]:
                # Only those still open to an answer: the table waits for its people.
                rows = session.scalars(
                    select(InvitationRow)
                    .join(TableRow, TableRow.id == InvitationRow.table_id)
                    .where(
                        column == account_id,
                        InvitationRow.status == PENDING,
                        TableRow.status == "open",
                    )
                    .order_by(InvitationRow.created_at.desc())
                    .limit(KEPT)
                )
                return [self._shown(session, row) for row in rows]

            return {
                "received": pending(InvitationRow.account_id),
                "sent": pending(InvitationRow.inviter_id),
            }

    def _shown(self, session: Transaction, row: InvitationRow) -> Invitation:
        names = {
            account.id: shown_name(account)
            for account in session.scalars(
                select(AccountRow).where(AccountRow.id.in_([row.account_id, row.inviter_id]))
            )
        }
        game = session.scalar(select(TableRow.game).where(TableRow.id == row.table_id)) or ""
        return {
            "id": row.id,
            "table": row.table_id,
            "seat": row.seat,
            "game": game,
            "title": self.title(game),
            "invited": names.get(row.account_id, ""),
            "inviter": names.get(row.inviter_id, ""),
            "status": cast(InvitationStatus, row.status),
            "at": row.created_at,
        }
