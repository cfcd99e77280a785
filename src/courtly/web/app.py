"""The ASGI app: the wiring of a server process (:mod:`.server`) to its routes (:mod:`.routes`),
the way refusals are answered (:mod:`.refusals`) and the built client (:mod:`.static`).

Games are known through the contract and the registry; tables through :mod:`courtly.web.tables`;
the database through :mod:`courtly.web.storage`; every message to a seat is made by
:func:`courtly.web.tables.seat_message` from that seat's view.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

from ..agents.estimates import HINT_ITERATIONS, SERVER_REVIEW_ITERATIONS
from .budgets import BOT_MAX_ITERATIONS, BOT_MAX_SECONDS, BotBudget
from .openapi import with_socket_messages
from .protocol import Refusal
from .refusals import MAX_BODY as MAX_BODY
from .refusals import BodyLimit, answer_refusals
from .routes import api
from .routes.elsewhere import refuse_elsewhere
from .server import Server
from .static import serve_client
from .storage import default_database_url


def create_app(
    database_url: str | None = None,
    bot_pace: float = 1.0,
    bot_workers: int = 0,
    hint_iterations: int = HINT_ITERATIONS,
    review_iterations: int = SERVER_REVIEW_ITERATIONS,
    bot_max_iterations: int = BOT_MAX_ITERATIONS,
    bot_max_seconds: float = BOT_MAX_SECONDS,
) -> FastAPI:
    """The Courtly server as an ASGI app (``courtly serve`` runs it with uvicorn).

    ``database_url``: SQLAlchemy URL (default: a SQLite file in the user's data folder);
    ``bot_pace``: seconds a bot waits before moving; ``bot_workers``: processes for the bots,
    hints and reviews (0: one per core; -1: threads); ``hint_iterations`` and
    ``review_iterations``: the search budget of a hint, and of each decision of a review;
    ``bot_max_iterations`` and ``bot_max_seconds``: the most a search bot may think per move
    (a table asking for more is refused).
    """
    url = database_url or os.environ.get("COURTLY_DATABASE_URL") or default_database_url()
    budget = BotBudget(bot_max_iterations, bot_max_seconds)
    server = Server(
        url, bot_pace, bot_workers, hint_iterations, review_iterations, bot_budget=budget
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = build_app(lifespan)
    app.state.server = server
    return app


def build_app(
    lifespan: Callable[[FastAPI], AbstractAsyncContextManager[None]] | None = None,
) -> FastAPI:
    """The app's routes, refusals and client, with no server process behind them yet (its
    OpenAPI schema is made from this alone)."""
    app = FastAPI(
        title="Courtly",
        summary="Play Courtly's five royal card games online: tables, seats, bots and clocks.",
        version="1",
        lifespan=lifespan,
        # Every route may refuse a request, always in this one shape (not FastAPI's default
        # 422 list of problems: see courtly.web.refusals).
        responses={"4XX": {"model": Refusal, "description": "refused: detail says why"}},
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    answer_refusals(app)
    app.include_router(api)
    refuse_elsewhere(app)  # after the API's routes, before the client's files
    with_socket_messages(app)
    serve_client(app)
    return app
