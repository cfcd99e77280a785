"""Two server processes on one PostgreSQL database, where each statement reads what is
committed when it starts: a process loading a table while the other moves on it holds the
table its row describes, and the announcement of that move, heard during the load, waits for
the load and then brings the table up to date (had it been dropped, nothing would announce the
end of a game whose last move it was)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from courtly.web.model import Table
from courtly.web.storage import StoredTable, Transaction, open_storage
from courtly.web.tables import Tables

PATIENCE = 30.0
"""Seconds to wait for the listener's stand-in: generous, never a measure."""


def test_a_move_committed_while_another_process_loads_the_table_reaches_it(
    postgres_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    mover = Tables(open_storage(postgres_database))
    created = mover.seats.create(
        "royal-gambit", 2, {"target_score": 5}, [{"kind": "person"}] * 2, seed=3
    )
    tokens = [mover.seats.join(created.id, seat)[0] for seat in (0, 1)]
    rng = random.Random(3)

    def move() -> None:
        seat = mover.views.message(created.id, None, None, 0)["to_move"][0]
        mine = mover.views.message(created.id, seat, tokens[seat], 0)
        action = rng.choice(mine["legal_actions"])["id"]
        mover.moves.submit(created.id, seat, action, mine["version"], tokens[seat])

    for _ in range(3):
        move()
    loader = Tables(open_storage(postgres_database))
    read_row = loader.storage.table
    rows: list[StoredTable] = []
    heard: list[bool] = []
    listening = threading.Event()

    def hear() -> None:
        # The listener's thread hears the announcement of the move while the load goes on.
        listening.set()
        heard.append(loader.cache.refresh(created.id))

    listener = threading.Thread(target=hear)
    catch_up = loader.cache.reload
    loaded: list[tuple[int, int]] = []

    def as_loaded_then_catch_up(table: Table) -> None:
        loaded.append((table.version, table.revision))
        catch_up(table)

    loader.cache.reload = as_loaded_then_catch_up  # type: ignore[method-assign]

    def row_then_a_move(session: Transaction, table_id: str) -> StoredTable | None:
        row = read_row(session, table_id)
        assert row is not None
        rows.append(row)
        move()  # committed by the other process between the row and its events
        listener.start()
        assert listening.wait(PATIENCE)
        time.sleep(0.2)  # the announcement reaches the cache while the table is loading
        return row

    monkeypatch.setattr(loader.storage, "table", row_then_a_move)
    table = loader.cache.get(created.id)
    monkeypatch.undo()
    listener.join(PATIENCE)
    assert not listener.is_alive()
    assert heard == [True], "the announcement heard during the load must catch the table up"
    # Loaded as the row it read said, whatever was committed since: catching up found the move.
    assert loaded == [(rows[0].version, rows[0].revision)]
    moved: dict[str, Any] = mover.views.message(created.id, None, None, 0)
    assert moved["version"] == rows[0].version + 1
    assert (
        table.version == moved["version"] and table.revision == mover.cache.get(created.id).revision
    )
    assert loader.views.message(created.id, None, None, 0) == moved
