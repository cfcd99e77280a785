"""``server.people``: the accounts' logic and storage: signing up, checking a password, finding
an account, and the sessions (:mod:`.sessions`)."""

from __future__ import annotations

import secrets
import time

from fastapi import HTTPException
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ..names import MAX_NAME
from ..storage import Storage
from ..storage.rows import AccountRow
from .model import RESERVED_NAMES, Account, account_of, name_key
from .passwords import check_password, hash_password
from .sessions import Sessions

WRONG_PASSWORD = "wrong name or password"


class People:
    """The accounts of the server: made, signed in, found."""

    def __init__(self, storage: Storage, admin: str | None = None) -> None:
        self.storage = storage
        self.admin_key = name_key(admin) if admin else None
        """The folded name of the account the operator made administrator (``--admin``)."""
        self.sessions = Sessions(storage)

    def sign_up(self, name: str, password: str) -> Account:
        """A new account (``name`` cleaned already): the first one, or the one named by the
        operator, is an administrator. 409 if the name is taken."""
        key = name_key(name)
        if key in RESERVED_NAMES:
            raise HTTPException(409, f"the name {name!r} is kept for the server: choose another")
        if len(key) > MAX_NAME:
            raise HTTPException(422, f"name: a name is at most {MAX_NAME} characters")
        password_hash = hash_password(password)  # before the transaction: it takes a while
        now = time.time()
        taken = HTTPException(409, f"the name {name!r} is taken: choose another")
        try:
            with self.storage.session() as session:
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

    def check(self, name: str, password: str) -> Account:
        """The account named ``name`` if ``password`` is its password: 401 otherwise (the same
        answer, in the same time, for a name nobody has), 403 if it is disabled."""
        key = name_key(name)
        with self.storage.session() as session:
            row = session.scalars(select(AccountRow).where(AccountRow.name_key == key)).first()
            stored = None if row is None or row.deleted_at is not None else row.password_hash
        matches, new_hash = check_password(password, stored)
        if row is None or not matches:
            raise HTTPException(401, WRONG_PASSWORD)
        if row.disabled:
            raise HTTPException(403, "this account is disabled by an administrator")
        if new_hash is not None:
            with self.storage.session() as session:
                fresh = session.get(AccountRow, row.id)
                if fresh is not None and fresh.password_hash == stored:
                    fresh.password_hash = new_hash
        return account_of(row)

    def get(self, account_id: str) -> Account | None:
        with self.storage.session() as session:
            row = session.get(AccountRow, account_id)
            return None if row is None else account_of(row)
