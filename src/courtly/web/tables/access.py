"""Who may act for a seat: the holder of its secret token, checked against the token's hash, or
the signed-in person the seat belongs to (known by their session's cookie)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass

from ..model import Table, TableError
from ..playing import check_seat_index


@dataclass(frozen=True, slots=True)
class SignedInPerson:
    """A signed-in person acting for a seat of theirs, in place of its token."""

    account_id: str


Credential = str | SignedInPerson | None
"""What a request offers for a seat: its token, its signed-in person, or nothing."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def authorise(
    table: Table,
    seat: int,
    token: Credential,
    reload: Callable[[Table], None] | None = None,
) -> None:
    """401 without a token (nor a signed-in person), 403 with another seat's token or another
    person. With ``reload``, a token or person this process does not know for the seat yet (the
    seat was joined through another server process) is looked up once in the database
    (``reload(table)`` catches up) before it is refused."""
    check_seat_index(table, seat)
    if not token:
        raise TableError(
            401, f"seat {seat} needs its token (Authorization: Bearer <token>), or sign in"
        )
    if isinstance(token, SignedInPerson):
        owner = table.seats[seat].account_id
        if owner is not None and hmac.compare_digest(owner, token.account_id):
            return
        problem = f"seat {seat} is not yours: it belongs to another person, or to a guest's token"
    else:
        expected = table.seats[seat].token_hash
        if expected is not None and hmac.compare_digest(expected, hash_token(token)):
            return
        problem = f"this token is not the token of seat {seat}"
    if reload is not None:
        reload(table)
        authorise(table, seat, token)
        return
    raise TableError(403, problem)
