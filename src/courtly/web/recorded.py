"""A finished game played offline, rebuilt as a table from its record: the record checked as
hostile input first, for the server that keeps an uploaded game (:mod:`courtly.web.uploads`) and
for the browser's engine that replays and reviews a kept one (:mod:`courtly.offline`).

A record is believed only as far as it proves itself: its seed and salt must hash to the
commitment it names (:func:`courtly.core.deals.check_deal`), every chance event must be the one
drawn from that seed, every decision must be legal where it stands, and the game must end as the
record says. What a record cannot prove is who chose the seed or who made the moves: a browser
holds both.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Mapping
from typing import Final

from ..agents.registry import AgentSpec
from ..core.deals import check_deal
from ..core.errors import InvalidOptions, ReplayError
from ..core.game import Game
from ..core.records import MatchRecord
from ..core.replays import record_game, replay_record
from .model import Clock, Seat, Table, TableError
from .playing import seat_of, to_move_history

MAX_EVENTS: Final = 20_000
"""Events an uploaded record may hold, checked before anything is replayed."""
OFFLINE_TABLE: Final = re.compile(r"offline-[0-9a-f]{8,32}")
"""How the browser's engine names its tables (:mod:`courtly.offline.table`): a server table's
record is kept already, and is never taken for an offline one."""


def finished_table(data: object, name: str, account_id: str | None = None) -> Table:
    """The finished table ``data`` (a parsed record of an offline game) holds, its people's
    seats named ``name`` (and ``account_id``'s, if any): refused (422, in words) unless the
    record proves itself completely."""
    if isinstance(data, Mapping):
        history = data.get("history")
        if isinstance(history, list) and len(history) > MAX_EVENTS:
            raise TableError(422, f"a record holds at most {MAX_EVENTS} events")
    try:
        record = MatchRecord.from_dict(data)
        if not record.finished:
            raise ReplayError("the record has no returns: only a finished game is kept")
        if record.deal is None:
            raise ReplayError("the record has no committed deal: it was not played offline here")
        checked = check_deal(record)
        state = replay_record(record, require_end=True)
    except ReplayError as error:
        raise TableError(422, f"the record was refused: {error}") from None
    deal = checked.deal
    if deal.tutorial:
        raise TableError(422, "the record was refused: a tutorial is not played offline")
    if OFFLINE_TABLE.fullmatch(deal.table) is None:
        raise TableError(
            422,
            f"the record was refused: {deal.table!r} is not an offline table's name "
            "(a server's table is kept already)",
        )
    game = record_game(record)
    seats = _seats(record, game, account_id, name)
    now = time.time()
    table = Table(
        id=deal.table,
        game=game,
        mode="turn-based",
        clock=Clock(),
        seed=checked.seed,
        seats=seats,
        state=state,
        status="over",
        created_at=now,
        seed_chosen=deal.chosen,
        seed_salt=deal.salt,
    )
    table.to_move_at = to_move_history(state)
    return table


def _seats(record: MatchRecord, game: Game, account_id: str | None, name: str) -> list[Seat]:
    """The table's seats as the record names them ("person" or a bot's spec), each checked as
    a new table's seat is."""
    if len(record.seats) != game.num_players:
        raise TableError(
            422,
            f"the record was refused: it names {len(record.seats)} seats, the game has "
            f"{game.num_players}",
        )
    seats = []
    for index, spec in enumerate(record.seats):
        if spec == "person":
            seat = seat_of(game, index, {"kind": "person", "name": name})
            # Every person's seat was played on the uploader's device (hot seat included):
            # each is theirs, taken by a token nobody is ever given.
            seat.token_hash = hashlib.sha256(secrets.token_bytes(16)).hexdigest()
            seat.account_id = account_id
        else:
            try:
                agent = AgentSpec.parse(spec)
                seat = seat_of(
                    game, index, {"kind": "bot", "bot": agent.name, "options": agent.options}
                )
            except InvalidOptions as error:
                raise TableError(422, f"the record was refused: seat {index}: {error}") from None
            except TableError as error:
                raise TableError(422, f"the record was refused: {error.message}") from None
        seats.append(seat)
    return seats
