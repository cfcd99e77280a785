"""What an administrator may do: close a table, hide a person's name, disable (or enable) an
account; each act logged in ``admin_acts``, which administrators read."""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi import HTTPException
from sqlalchemy import delete, select

from ..model import TableError
from ..protocol import AdminAct
from ..storage import Storage, Transaction
from ..storage.rows import AccountRow, AdminActRow, SessionRow
from ..tables import Tables
from ..tables.abandonment import close_table
from .model import HIDDEN_NAME, Account, name_key

CLOSABLE = ("open", "playing")


class Administration:
    """The administrators' acts. ``changed(table_id)`` wakes a table's watchers;
    ``renamed(table_ids)`` makes this process's tables catch up with renamed seats."""

    def __init__(
        self,
        storage: Storage,
        tables: Tables,
        changed: Callable[[str], None],
        renamed: Callable[[list[str]], None],
    ) -> None:
        self.storage = storage
        self.tables = tables
        self.changed = changed
        self.renamed = renamed

    def close(self, admin: Account, table_id: str, reason: str) -> AdminAct:
        """Close a table that is open or in play (409 for one that has ended)."""
        cache = self.tables.cache
        table = cache.get(table_id)
        now = time.time()
        with table.lock, self.storage.session() as session:
            cache.catch_up(session, table)
            if table.status not in CLOSABLE:
                raise TableError(409, f"the table is {table.status} already")
            why = "an administrator closed it" + (f" ({reason})" if reason else "")
            close_table(cache, session, table, why, now)
            act = self._log(session, admin, "close-table", table_id, reason, now)
        cache.forget(table_id)
        self.changed(table_id)
        return act

    def hide_name(self, admin: Account, name: str, reason: str) -> AdminAct:
        """Show the account's name as "hidden name" everywhere, its seats' names too."""
        now = time.time()
        with self.storage.session() as session:
            row = self._account(session, name)
            row.name_hidden = True
            tables = self.storage.rename_account_seats(session, row.id, HIDDEN_NAME)
            act = self._log(session, admin, "hide-name", row.name, reason, now)
        self.renamed(tables)
        return act

    def disable(self, admin: Account, name: str, disabled: bool, reason: str) -> AdminAct:
        """Disable an account (it cannot sign in; its sessions end), or enable it again."""
        now = time.time()
        with self.storage.session() as session:
            row = self._account(session, name)
            if row.id == admin.id and disabled:
                raise HTTPException(409, "an administrator cannot disable their own account")
            row.disabled = disabled
            if disabled:
                session.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
            kind = "disable-account" if disabled else "enable-account"
            return self._log(session, admin, kind, row.name, reason, now)

    def acts(self, limit: int) -> list[AdminAct]:
        """The latest acts, the newest first, with the administrators' names."""
        with self.storage.session() as session:
            rows = session.execute(
                select(AdminActRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == AdminActRow.admin_id, isouter=True)
                .order_by(AdminActRow.id.desc())
                .limit(limit)
            ).all()
            return [
                {
                    "at": act.at,
                    "admin": admin_name or "",
                    "act": act.act,
                    "target": act.target,
                    "detail": act.detail,
                }
                for act, admin_name in rows
            ]

    @staticmethod
    def _account(session: Transaction, name: str) -> AccountRow:
        row = session.scalars(
            select(AccountRow).where(
                AccountRow.name_key == name_key(name), AccountRow.deleted_at.is_(None)
            )
        ).first()
        if row is None:
            raise HTTPException(404, f"there is no account named {name!r}")
        return row

    @staticmethod
    def _log(
        session: Transaction, admin: Account, act: str, target: str, detail: str, now: float
    ) -> AdminAct:
        detail = detail[:300]
        session.add(AdminActRow(at=now, admin_id=admin.id, act=act, target=target, detail=detail))
        return {"at": now, "admin": admin.name, "act": act, "target": target, "detail": detail}
