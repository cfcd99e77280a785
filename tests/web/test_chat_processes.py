"""Two real ``courtly serve`` processes against one PostgreSQL share every table's chat: a line
said through one reaches the WebSockets held by the other (PostgreSQL ``NOTIFY``), and both
serve the same history.

The servers and helpers are those of :mod:`tests.web.test_processes`.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from websockets.sync.client import ClientConnection, connect

from .test_processes import Server, receive_first, two_people, two_servers

__all__ = ["two_servers"]  # the fixture, used by name


@contextlib.contextmanager
def chat_socket(
    server: Server, table: str, seat: int | None, token: str | None
) -> Iterator[ClientConnection]:
    """A WebSocket on ``table`` of ``server`` that asks for the chat."""
    with connect(f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws", open_timeout=30) as ws:
        ws.send(json.dumps({"seat": seat, "token": token, "chat": True}))
        yield ws


def test_a_line_said_through_one_process_reaches_sockets_held_by_the_other(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    table, tokens = two_people(a, b, seed=11)

    def chat_with(text: str) -> Any:
        return lambda message: (
            message["type"] == "chat" and any(line["text"] == text for line in message["lines"])
        )

    with (
        chat_socket(b, table, 1, tokens[1]) as seat_socket,
        chat_socket(a, table, None, None) as watching,
    ):
        for socket in (seat_socket, watching):
            receive_first(socket, lambda m: m["type"] == "chat", "the first chat", two_servers)
        a.ok("POST", f"/api/tables/{table}/chat", {"seat": 0, "text": "from A"}, tokens[0])
        line = receive_first(seat_socket, chat_with("from A"), "A's line on B", two_servers)
        assert line["lines"][-1]["name"] == "Ann"
        b.ok("POST", f"/api/tables/{table}/chat", {"seat": 1, "text": "from B"}, tokens[1])
        for socket in (seat_socket, watching):
            receive_first(socket, chat_with("from B"), "B's line", two_servers)
    for server in (a, b):
        lines = server.ok("GET", f"/api/tables/{table}/chat")["lines"]
        assert [line["text"] for line in lines] == ["from A", "from B"]
