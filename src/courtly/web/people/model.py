"""An account as the rest of the server knows it, and the names others see for it."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Final

from ..storage.rows import AccountRow

DELETED_NAME: Final = "deleted player"
"""The name a deleted account's seats and games show."""
HIDDEN_NAME: Final = "hidden name"
"""The name shown for an account whose name an administrator hid."""
RESERVED_NAMES: Final = frozenset({DELETED_NAME, HIDDEN_NAME})
"""Names nobody may take: they would pass for the server's placeholders."""


@dataclass(frozen=True)
class Account:
    """A person with an account: ``name`` as others see it ("deleted player" once deleted)."""

    id: str
    name: str
    admin: bool
    disabled: bool


def name_key(name: str) -> str:
    """``name`` folded for comparison (NFKC, casefolded): "Anna", "ANNA" and "Ａｎｎａ" are one
    name, so nobody can pass for another."""
    return unicodedata.normalize("NFKC", name).casefold()


def shown_name(row: AccountRow) -> str:
    """The account's name as others see it."""
    if row.deleted_at is not None:
        return DELETED_NAME
    if row.name_hidden:
        return HIDDEN_NAME
    return row.name


def account_of(row: AccountRow) -> Account:
    return Account(id=row.id, name=shown_name(row), admin=row.admin, disabled=row.disabled)
