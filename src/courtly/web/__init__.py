"""Courtly online: the server (``courtly serve``) that the browser client and remote players
talk to. It needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic, psycopg).

The server is imported only when asked for: what a seat is sent (:mod:`.messages`,
:mod:`.model`, :mod:`.seat_messages`) is imported without it by the browser's own engine,
which has none of those libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app as create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
