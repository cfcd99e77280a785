"""A server holds its tables in play, and only the most recently finished ones: any other
finished table is read again from the database when asked for, the same as it was."""

from __future__ import annotations

import random
from pathlib import Path

from courtly.web.storage import open_storage
from courtly.web.tables import Tables


def play_to_the_end(tables: Tables, seed: int) -> str:
    """A two-person Royal Gambit table played at random to its end; its id."""
    table = tables.seats.create(
        "royal-gambit", 2, {"target_score": 5}, [{"kind": "person"}] * 2, seed=seed
    )
    tokens = [tables.seats.join(table.id, seat)[0] for seat in (0, 1)]
    rng = random.Random(seed)
    while True:
        shown = tables.views.message(table.id, None, None, 0)
        if shown["status"] == "over":
            return table.id
        seat = shown["to_move"][0]
        mine = tables.views.message(table.id, seat, tokens[seat], 0)
        action = rng.choice(mine["legal_actions"])["id"]
        tables.moves.submit(table.id, seat, action, mine["version"], tokens[seat])


def test_only_the_latest_finished_tables_stay_in_memory(tmp_path: Path) -> None:
    tables = Tables(open_storage(f"sqlite:///{tmp_path / 'courtly.sqlite3'}"))
    tables.cache.finished_kept = 2
    finished = [play_to_the_end(tables, seed) for seed in range(4)]
    held = {table.id for table in tables.cache.held()}
    assert held == set(finished[-2:]), "the two latest finished tables, and no other"
    # A table let go is read back whole: the same view, the same record.
    again = Tables(open_storage(f"sqlite:///{tmp_path / 'courtly.sqlite3'}"))
    for table_id in finished:
        assert tables.views.message(table_id, None, None, 0) == again.views.message(
            table_id, None, None, 0
        )
        assert tables.replays.record(table_id) == again.replays.record(table_id)
    assert len(tables.cache) == 2  # reading them back keeps the bound
    # A table in play is never let go.
    playing = tables.seats.create("royal-gambit", 2, {}, [{"kind": "person"}] * 2, seed=9)
    for seed in range(4, 7):
        play_to_the_end(tables, seed)
    assert playing.id in tables.cache
