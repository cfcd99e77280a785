"""Who may act for a seat: the holder of its secret token, checked against the token's hash."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

from ..model import Table, TableError


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_seat_index(table: Table, seat: int) -> None:
    if not 0 <= seat < len(table.seats):
        raise TableError(
            404, f"seat {seat} is not a seat of this table (seats 0 to {len(table.seats) - 1})"
        )


def authorise(
    table: Table,
    seat: int,
    token: str | None,
    reload: Callable[[Table], None] | None = None,
) -> None:
    """401 without a token, 403 with another one. With ``reload``, a token this process does not
    know yet (the seat was joined through another server process) is looked up once in the
    database (``reload(table)`` catches up) before it is refused."""
    check_seat_index(table, seat)
    if not token:
        raise TableError(401, f"seat {seat} needs its token (Authorization: Bearer <token>)")
    expected = table.seats[seat].token_hash
    if expected is None or not hmac.compare_digest(expected, hash_token(token)):
        if reload is not None:
            reload(table)
            authorise(table, seat, token)
            return
        raise TableError(403, f"this token is not the token of seat {seat}")
