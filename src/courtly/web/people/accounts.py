"""``server.people``: the accounts' logic and storage: signing up, checking a password (its
wrong guesses throttled), changing it, deleting an account, and the sessions
(:mod:`.sessions`)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from fastapi import HTTPException
from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import IntegrityError

from ..names import MAX_NAME
from ..storage import Storage
from ..storage.rows import AccountRow, PasskeyRow, SessionRow
from .model import DELETED_NAME, RESERVED_NAMES, Account, account_of, name_key
from .passwords import check_password, hash_password
from .sessions import Sessions, secret_hash
from .throttle import PasswordLimits, PasswordThrottle

SIGN_UP_LOCK = 0x636F75727432
"""PostgreSQL advisory lock key held while an account is made (``"court2"`` in ASCII): two
processes making the first accounts at once cannot both find the table empty (and both make an
administrator)."""

WRONG_PASSWORD = "wrong name or password"
DISABLED = "this account is disabled by an administrator"


class People:
    """The accounts of the server: made, signed in, changed, deleted.

    ``renamed(table_ids)`` is called after the seats of an account were renamed in the
    database (a deleted account's), so that this process's tables catch up and their watchers
    are told."""

    def __init__(
        self,
        storage: Storage,
        admin: str | None = None,
        renamed: Callable[[list[str]], None] | None = None,
        password_limits: PasswordLimits | None = None,
    ) -> None:
        self.storage = storage
        self.admin_key = name_key(admin) if admin else None
        """The folded name of the account the operator made administrator (``--admin``)."""
        self.sessions = Sessions(storage)
        self.throttle = PasswordThrottle(password_limits)
        self.renamed = renamed or (lambda _tables: None)
        if self.admin_key is not None:
            self._promote(self.admin_key)

    def _promote(self, key: str) -> None:
        """Make the account of the folded name ``key`` an administrator, if it exists (if
        not, it will be when it signs up)."""
        with self.storage.session() as session:
            session.execute(
                update(AccountRow)
                .where(AccountRow.name_key == key, AccountRow.deleted_at.is_(None))
                .values(admin=True)
            )

    # ------------------------------------------------------------------------------ signing up

    def sign_up(self, name: str, password: str, address: str = "") -> Account:
        """A new account (``name`` cleaned already): the first one, or the one named by the
        operator, is an administrator. 409 if the name is taken; 429 if ``address`` made too
        many lately."""
        key = name_key(name)
        if key in RESERVED_NAMES:
            raise HTTPException(409, f"the name {name!r} is kept for the server: choose another")
        if len(key) > MAX_NAME:
            raise HTTPException(422, f"name: a name is at most {MAX_NAME} characters")
        self.throttle.sign_up(address)
        password_hash = hash_password(password)  # before the transaction: it takes a while
        now = time.time()
        taken = HTTPException(409, f"the name {name!r} is taken: choose another")
        try:
            with self.storage.session() as session:
                if session.get_bind().dialect.name == "postgresql":
                    session.execute(
                        text("SELECT pg_advisory_xact_lock(:key)"), {"key": SIGN_UP_LOCK}
                    )
                if session.scalar(select(AccountRow.id).where(AccountRow.name_key == key)):
                    raise taken
                first = not session.scalar(select(func.count()).select_from(AccountRow))
                row = AccountRow(
                    id=secrets.token_hex(16),
                    name=name,
                    name_key=key,
                    password_hash=password_hash,
                    created_at=now,
                    admin=first or key == self.admin_key,
                    disabled=False,
                    name_hidden=False,
                    deleted_at=None,
                    preferences={},
                )
                session.add(row)
                session.flush()
                return account_of(row)
        except IntegrityError:  # the same name, signed up at the same moment elsewhere
            raise taken from None

    # ------------------------------------------------------------------------------ passwords

    def check(self, name: str, password: str, address: str = "") -> Account:
        """The account named ``name`` if ``password`` is its password: 401 otherwise (the same
        answer, in the same time, for a name nobody has), 403 if it is disabled, 429 after too
        many wrong passwords for the name or from ``address``."""
        key = name_key(name)
        self.throttle.check(key, address)
        with self.storage.session() as session:
            row = session.scalars(select(AccountRow).where(AccountRow.name_key == key)).first()
            stored = None if row is None or row.deleted_at is not None else row.password_hash
        matches, new_hash = check_password(password, stored)
        if row is None or not matches:
            self.throttle.wrong(key, address)
            raise HTTPException(401, WRONG_PASSWORD)
        self.throttle.right(key)
        if row.disabled:
            raise HTTPException(403, DISABLED)
        if new_hash is not None:
            self._rehash(row.id, stored, new_hash)
        return account_of(row)

    def _rehash(self, account_id: str, old: str | None, new: str) -> None:
        with self.storage.session() as session:
            fresh = session.get(AccountRow, account_id)
            if fresh is not None and fresh.password_hash == old:
                fresh.password_hash = new

    def _confirm(self, account_id: str, password: str, address: str) -> AccountRow:
        """The account's row once ``password`` is its password (an account with no password,
        signed in by passkey, needs none): 403 otherwise, 429 after too many wrong ones."""
        with self.storage.session() as session:
            row = session.get(AccountRow, account_id)
        if row is None or row.deleted_at is not None:
            raise HTTPException(404, "no such account")
        if row.password_hash is None:
            return row
        self.throttle.check(row.name_key, address)
        matches, _new_hash = check_password(password, row.password_hash)
        if not matches:
            self.throttle.wrong(row.name_key, address)
            raise HTTPException(403, "the current password is wrong")
        self.throttle.right(row.name_key)
        return row

    def change_password(
        self, account_id: str, current: str, new: str, keep: str | None, address: str = ""
    ) -> int:
        """Set a new password once the ``current`` one is confirmed; every other session of the
        account ends (a thief who knew the old one is signed out), but the one whose secret is
        ``keep``. How many sessions ended."""
        old = self._confirm(account_id, current, address)
        new_hash = hash_password(new)
        with self.storage.session() as session:
            row = session.get(AccountRow, account_id)
            if row is None or row.password_hash != old.password_hash:
                raise HTTPException(409, "the password changed meanwhile: try again")
            row.password_hash = new_hash
            ending = delete(SessionRow).where(SessionRow.account_id == account_id)
            if keep:
                ending = ending.where(SessionRow.id_hash != secret_hash(keep))
            result = session.execute(ending)
            return int(getattr(result, "rowcount", 0) or 0)

    # ------------------------------------------------------------------------------ deleting

    def delete(self, account_id: str, password: str, address: str = "") -> list[str]:
        """Delete the account once its password is confirmed: its name, password, sessions and
        passkeys go; its games stay, every seat of it named "deleted player" (its ratings'
        history stays, under that name). The name is free again. The tables renamed."""
        self._confirm(account_id, password, address)
        with self.storage.session() as session:
            row = session.get(AccountRow, account_id)
            if row is None or row.deleted_at is not None:
                raise HTTPException(404, "no such account")
            row.deleted_at = time.time()
            row.name = DELETED_NAME
            # Not a name anyone can type (clean_name drops control characters): the name the
            # person had is free again, and never collides with this one.
            row.name_key = f"\x01deleted {account_id}"
            row.password_hash = None
            row.preferences = {}
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            session.execute(delete(PasskeyRow).where(PasskeyRow.account_id == account_id))
            tables = self.storage.rename_account_seats(session, account_id, DELETED_NAME)
        self.renamed(tables)
        return tables

    # ------------------------------------------------------------------------------ reading

    def get(self, account_id: str) -> Account | None:
        with self.storage.session() as session:
            row = session.get(AccountRow, account_id)
            return None if row is None else account_of(row)
