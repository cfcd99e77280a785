"""Two real ``courtly serve`` processes on one PostgreSQL share Play now's queue: people
arriving through both at once are each seated once, at tables formed once, and a person who
waits through one process meets one who arrives through the other.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import create_engine, text

from courtly.web.tables.access import hash_token

from .test_processes import Server, two_servers, wait_for

__all__ = ["two_servers"]  # the fixture, used by the tests below

GAME = "royal-gambit"


def test_people_arriving_through_two_processes_are_each_seated_once(
    two_servers: tuple[Server, Server], postgres_database: str
) -> None:
    a, b = two_servers
    waiting = a.ok("POST", "/api/play-now", {"game": GAME, "players": 2, "name": "through A"})
    assert waiting["state"] == "waiting"
    met = b.ok("POST", "/api/play-now", {"game": GAME, "players": 2, "name": "through B"})
    first = wait_for(
        "the first person seated",
        lambda: (s := a.ok("POST", "/api/play-now/wait", token=waiting["ticket"]))["table"] and s,
        (a, b),
    )
    assert met["state"] in ("waiting", "seated")
    assert first["table"] == b.ok("POST", "/api/play-now/wait", token=met["ticket"])["table"]

    # Many at once, half through each process, for 2- and 3-player tables.
    def arrive(index: int) -> dict[str, Any]:
        server = (a, b)[index % 2]
        players = 2 if index % 3 else 3
        answer: dict[str, Any] = server.ok(
            "POST", "/api/play-now", {"game": GAME, "players": players, "name": f"p{index}"}
        )
        return answer

    with ThreadPoolExecutor(8) as pool:
        places = list(pool.map(arrive, range(45)))

    def all_seated() -> list[dict[str, Any]] | None:
        found = [
            (a, b)[i % 2].ok("POST", "/api/play-now/wait", token=place["ticket"])
            for i, place in enumerate(places)
        ]
        return found if all(f["state"] == "seated" for f in found) else None

    seated = wait_for("everyone seated", all_seated, (a, b))
    assert len({(s["table"], s["seat"]) for s in seated}) == len(places)
    engine = create_engine(postgres_database.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.begin() as connection:
            for place, where in zip(places, seated, strict=True):
                holders = connection.execute(
                    text("SELECT table_id, seat FROM seats WHERE token_hash = :h"),
                    {"h": hash_token(place["ticket"])},
                ).all()
                assert [tuple(row) for row in holders] == [(where["table"], where["seat"])]
            tables = connection.execute(
                text("SELECT count(*) FROM tables WHERE status = 'playing'")
            ).scalar_one()
    finally:
        engine.dispose()
    # 30 people want 2 seats and 15 want 3: 15 + 5 tables, each formed once; and the first pair's.
    assert len({s["table"] for s in seated}) == 20
    assert tables == 21
