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
from .chat import CHAT_RATE
from .headers import SecurityHeaders
from .limits import Guard, Limits
from .messages import Refusal
from .openapi import with_socket_messages
from .people.relying_party import RelyingPartySettings
from .refusals import MAX_BODY as MAX_BODY
from .refusals import BodyLimit, answer_refusals
from .routes import api
from .routes.elsewhere import refuse_elsewhere
from .server import Server
from .static import serve_client
from .storage import default_database_url
from .tables.cache import TableCache
from .turn_mail import Mailing
from .uploads import MAX_RECORD, OFFLINE_GAMES

TOO_MANY_REQUESTS = {
    "model": Refusal,
    "description": "over a limit of the server (requests per minute, tables): detail names it",
    "headers": {
        "Retry-After": {
            "description": "seconds to wait before asking again",
            "schema": {"type": "integer", "minimum": 1},
        }
    },
}
"""Every request may meet a limit of :mod:`courtly.web.limits`: declared on every route."""


def create_app(
    database_url: str | None = None,
    bot_pace: float = 1.0,
    bot_workers: int = 0,
    hint_iterations: int = HINT_ITERATIONS,
    review_iterations: int = SERVER_REVIEW_ITERATIONS,
    limits: Limits | None = None,
    abandon_after: float = 0.0,
    bot_max_iterations: int = BOT_MAX_ITERATIONS,
    bot_max_seconds: float = BOT_MAX_SECONDS,
    admin: str | None = None,
    origin: str | None = None,
    rp_id: str | None = None,
    leaderboard_min_games: int = 5,
    chat_rate: str = CHAT_RATE,
    mailing: Mailing | None = None,
) -> FastAPI:
    """The Courtly server as an ASGI app (``courtly serve`` runs it with uvicorn).

    ``database_url``: SQLAlchemy URL (default: a SQLite file in the user's data folder);
    ``bot_pace``: seconds a bot waits before moving; ``bot_workers``: processes for the bots,
    hints and reviews (0: one per core; -1: threads); ``hint_iterations`` and
    ``review_iterations``: the search budget of a hint, and of each decision of a review.
    ``limits``: what one client may ask (default: :class:`Limits`' defaults, which protect a
    small server; :data:`courtly.web.limits.NO_LIMITS` for none); ``abandon_after``: seconds
    after which a table nobody plays is closed (0: never); ``bot_max_iterations`` and
    ``bot_max_seconds``: the most a search bot may think per move (a table asking for more is
    refused). ``admin``: the name of an account that is an administrator (besides the first
    account made). ``origin`` and ``rp_id``: what passkeys are bound to (default: the scheme
    and host of each request; see :mod:`courtly.web.people.relying_party`).
    ``leaderboard_min_games``: the rated games a person must have played in a pool to appear
    on its leaderboard; ``chat_rate``: how often one sender may say a line (the ``limits``
    library's notation; "0": no limit). ``mailing``: the SMTP server turn e-mails go through,
    and the server's public address for their links (default: no e-mail).
    """
    url = database_url or os.environ.get("COURTLY_DATABASE_URL") or default_database_url()
    budget = BotBudget(bot_max_iterations, bot_max_seconds)
    server = Server(
        url,
        bot_pace,
        bot_workers,
        hint_iterations,
        review_iterations,
        abandon_after,
        bot_budget=budget,
        admin=admin,
        relying_party=RelyingPartySettings(origin, rp_id),
        leaderboard_min_games=leaderboard_min_games,
        chat_rate=chat_rate,
        mailing=mailing,
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = build_app(lifespan, (limits or Limits(), server.tables.cache))
    app.state.server = server
    return app


def build_app(
    lifespan: Callable[[FastAPI], AbstractAsyncContextManager[None]] | None = None,
    guard: tuple[Limits, TableCache] | None = None,
) -> FastAPI:
    """The app's routes, refusals and client, with no server process behind them yet (its
    OpenAPI schema is made from this alone); ``guard``: the limits every client is held to,
    and the tables they count."""
    app = FastAPI(
        title="Courtly",
        summary="Play Courtly's five royal card games online: tables, seats, bots and clocks.",
        version="1",
        lifespan=lifespan,
        # Every route may refuse a request, always in this one shape (not FastAPI's default
        # 422 list of problems: see courtly.web.refusals).
        responses={
            "4XX": {"model": Refusal, "description": "refused: detail says why"},
            429: TOO_MANY_REQUESTS,
        },
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY, wider={OFFLINE_GAMES: MAX_RECORD})
    if guard is not None:
        app.add_middleware(Guard, limits=guard[0], tables=guard[1])
    # Added last, so outermost: every answer has the headers, the limits' refusals too.
    app.add_middleware(SecurityHeaders)
    answer_refusals(app)
    app.include_router(api)
    refuse_elsewhere(app)  # after the API's routes, before the client's files
    with_socket_messages(app)
    serve_client(app)
    return app
