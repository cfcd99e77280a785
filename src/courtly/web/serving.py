"""The server process under uvicorn (``courtly serve``): how it meets the network (the client's
address from trusted proxies, connection, header and keep-alive limits) and how it stops.

On SIGTERM (what systemd sends, to the whole process group) or SIGINT (Ctrl+C), uvicorn stops
taking new connections, answers the requests in flight (for ``shutdown_timeout`` seconds at
most), closes the WebSockets (1012, "service restart": the client reconnects), and then runs the
app's shutdown, which stops the bots' worker processes (they ignore the group's signal, so that
they outlive what they work for). The process then exits with status 0: a stop asked for is
not a failure (uvicorn alone would end by re-raising the signal).
"""

from __future__ import annotations

from types import FrameType

import uvicorn
from fastapi import FastAPI

from .limits import MAX_HEADER_BYTES
from .refusals import MAX_FRAME


class GracefulServer(uvicorn.Server):
    """uvicorn's server, which exits with 0 after a graceful stop on a signal."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        # uvicorn re-raises the signals it caught once it has stopped, so that the process ends
        # "killed by SIGTERM": the stop is complete by then, and asked for.
        self._captured_signals.clear()


def run(
    application: FastAPI,
    host: str,
    port: int,
    *,
    trusted_proxies: str = "127.0.0.1",
    max_connections: int = 0,
    keep_alive: int = 5,
    shutdown_timeout: int = 20,
) -> None:
    """Serve ``application`` until a SIGTERM or SIGINT has stopped it gracefully."""
    config = uvicorn.Config(
        application,
        host=host,
        port=port,
        log_level="info",
        # No per-message compression on the WebSockets: views are small, and deflating each one
        # cost a fifth of the server's time under load.
        ws_per_message_deflate=False,
        # Larger than a message may be, so that one up to this size is refused in words.
        ws_max_size=MAX_FRAME,
        # The client's address is the peer's, or the one a trusted proxy names.
        proxy_headers=True,
        forwarded_allow_ips=trusted_proxies,
        limit_concurrency=max_connections or None,
        timeout_keep_alive=keep_alive,
        timeout_graceful_shutdown=shutdown_timeout,
        # h11, not httptools: its limit on a request's line and headers holds (httptools takes
        # headers of any size); the WebSockets, where the moves travel, are the same.
        http="h11",
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
    )
    GracefulServer(config).run()
