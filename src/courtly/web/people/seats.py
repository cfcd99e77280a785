"""A guest's seats given to their account: the seats a browser held by their tokens, attached
at sign-up or sign-in (or later), each token checked by the table."""

from __future__ import annotations

from collections.abc import Sequence

from ..model import TableError
from ..protocol import HeldSeat, SeatsAttached
from ..tables import Tables
from ..tables.access import SignedInPerson


def attach_seats(tables: Tables, account_id: str, held: Sequence[HeldSeat]) -> SeatsAttached:
    """Give each of the ``held`` seats whose token is right to ``account_id``; the others are
    refused, each with why (a table gone, a wrong token, a seat of another person)."""
    person = SignedInPerson(account_id)
    answer: SeatsAttached = {"attached": [], "refused": []}
    for seat in held:
        try:
            tables.seats.attach(seat.table, seat.seat, seat.token, person)
        except TableError as error:
            answer["refused"].append(
                {"table": seat.table, "seat": seat.seat, "detail": error.message}
            )
        else:
            answer["attached"].append({"table": seat.table, "seat": seat.seat})
    return answer
