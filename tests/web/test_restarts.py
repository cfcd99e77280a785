"""A real ``courtly serve`` process stopped with SIGTERM sent to its whole process group (what
systemd sends) in the middle of games stops gracefully, and loses nothing.

When the signal comes, bots are thinking in the worker processes, a review is being made,
and two people are sending moves as fast as the server answers. Every request is answered
(never a 5xx) or refused at the door after the server stopped taking new work; the workers,
which ignore the group's signal, are stopped by the server after it has answered what was in
flight; the process exits with 0; a new process on the same database has every acknowledged
move at its index, the bots carry on, and the review interrupted by the stop is made.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import httpx2

from .served import Serve, Server, serve, wait_for

__all__ = ["serve"]  # the fixture

DEADLINE = 90.0
"""Seconds to wait for a condition: generous, the machine may be busy; never a measure."""

REVIEW = ("--review-iterations", "400")
"""A review that takes some seconds on one worker: it is still being made at the SIGTERM."""


class Players:
    """Two people at one table, moving in turn as fast as the server answers, on a thread,
    until the server stops answering: every answer is kept."""

    def __init__(self, server: Server) -> None:
        self.server = server
        body = {"game": "royal-gambit", "players": 2, "seats": [{"kind": "person"}] * 2}
        self.table = server.ok("POST", "/api/tables", json=body)["id"]
        self.tokens = [
            server.ok("POST", f"/api/tables/{self.table}/seats/{seat}/join", json={"name": "P"})[
                "token"
            ]
            for seat in (0, 1)
        ]
        self.acknowledged: list[dict[str, Any]] = []
        self.statuses: list[int] = []
        self.refused_at_door = 0
        self.thread = threading.Thread(target=self._play, daemon=True)

    def _play(self) -> None:
        http = httpx2.Client(base_url=self.server.url, timeout=60)
        try:
            while True:
                try:
                    view = http.get(f"/api/tables/{self.table}").json()
                    self.statuses.append(200)
                    if view["status"] != "playing":
                        return
                    seat = view["to_move"][0]
                    auth = {"Authorization": f"Bearer {self.tokens[seat]}"}
                    seen = http.get(
                        f"/api/tables/{self.table}/view", params={"seat": seat}, headers=auth
                    ).json()
                    move = {
                        "seat": seat,
                        "action": seen["legal_actions"][0]["text"],
                        "version": seen["version"],
                    }
                    answer = http.post(f"/api/tables/{self.table}/moves", json=move, headers=auth)
                except (httpx2.TransportError, KeyError, ValueError):
                    # The server closed its door (a connection refused or closed, a 503 at
                    # the limit of a stopping server): it stopped taking new work.
                    self.refused_at_door += 1
                    if self.server.process.poll() is not None:
                        return
                    time.sleep(0.01)
                    continue
                self.statuses.append(answer.status_code)
                if answer.status_code == 200:
                    self.acknowledged.append(answer.json())
        finally:
            http.close()


def test_sigterm_to_the_process_group_loses_nothing(serve: Serve) -> None:
    first = serve(*REVIEW)
    # A finished game to review, played by bots.
    bots = [{"kind": "bot", "bot": "heuristic"}] * 2
    body = {"game": "royal-gambit", "players": 2, "seats": bots, "options": {"target_score": 20}}
    finished = first.ok("POST", "/api/tables", json=body)["id"]
    wait_for(
        lambda: first.ok("GET", f"/api/tables/{finished}")["status"] == "over", "bots finished"
    )
    # Search bots thinking in the worker when the signal comes.
    thinker = {"kind": "bot", "bot": "ismcts", "options": {"iterations": 300}}
    body = {"game": "crush-the-crown", "players": 2, "seats": [thinker, thinker]}
    thinking = first.ok("POST", "/api/tables", json=body)["id"]
    started = first.ok("POST", f"/api/tables/{finished}/review")
    assert started["status"] in ("queued", "running"), started
    wait_for(
        lambda: first.ok("GET", f"/api/tables/{finished}/review")["done"] > 0, "review running"
    )
    players = Players(first)
    players.thread.start()
    wait_for(lambda: len(players.acknowledged) >= 5, "the people have moved")
    thought = first.ok("GET", f"/api/tables/{thinking}")["version"]

    os.killpg(first.pid, signal.SIGTERM)
    assert first.process.wait(timeout=DEADLINE) == 0, first.log_tail()
    players.thread.join(timeout=DEADLINE)
    assert not players.thread.is_alive()
    assert all(status < 500 for status in players.statuses), players.statuses
    log = first.log.read_text(errors="replace")
    assert "Application shutdown complete" in log, log[-3000:]

    second = serve(*REVIEW)
    # Every acknowledged move is in the history, at its index.
    auth = {"Authorization": f"Bearer {players.tokens[0]}"}
    view = second.ok("GET", f"/api/tables/{players.table}/view", params={"seat": 0}, headers=auth)
    assert view["version"] >= max(answer["version"] for answer in players.acknowledged)
    for answer in players.acknowledged:
        assert view["log"][answer["index"]] == [f"p{answer['seat']}", answer["action"]]
    # The bots carry on from where they were.
    assert second.ok("GET", f"/api/tables/{thinking}")["version"] >= thought
    wait_for(
        lambda: second.ok("GET", f"/api/tables/{thinking}")["version"] > thought,
        "the search bots moved again",
    )
    # The review the stop interrupted resumes, and is made.
    wait_for(
        lambda: second.ok("GET", f"/api/tables/{finished}/review")["status"] == "done",
        "the review was made after the restart",
        DEADLINE,
    )
