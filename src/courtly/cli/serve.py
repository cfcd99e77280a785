"""``courtly serve``: Courtly online, tables for people and bots over HTTP and WebSockets, with
the browser client when it is built."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..agents.estimates import HINT_ITERATIONS, SERVER_REVIEW_ITERATIONS
from ..agents.registry import SERVER_BOT_MAX_ITERATIONS, SERVER_BOT_MAX_SECONDS
from ..core.errors import InvalidOptions
from .shared import clear_errors


def serve_command(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=0, max=65535)] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy database URL, e.g. postgresql+psycopg://user@host/courtly "
            "(default: a SQLite file in ~/.local/share/courtly, created on first start)."
        ),
    ] = None,
    bot_pace: Annotated[
        float,
        typer.Option(help="Seconds a bot waits before each move, so people can follow.", min=0),
    ] = 1.0,
    bot_workers: Annotated[
        int,
        typer.Option(
            help="Processes the bots, hints and reviews think in (0: one per core).", min=0
        ),
    ] = 0,
    hint_iterations: Annotated[
        int,
        typer.Option(help="Search iterations behind a hint (more: surer, slower).", min=4),
    ] = HINT_ITERATIONS,
    review_iterations: Annotated[
        int,
        typer.Option(
            help="Search iterations per decision of a finished game's review (more: surer, slower).",
            min=4,
        ),
    ] = SERVER_REVIEW_ITERATIONS,
    bot_max_iterations: Annotated[
        int,
        typer.Option(
            help="The most iterations a search bot may think per move: a table asking for more "
            "is refused.",
            min=1,
        ),
    ] = SERVER_BOT_MAX_ITERATIONS,
    bot_max_seconds: Annotated[
        float,
        typer.Option(
            help="The most seconds a search bot given a time budget may think per move.",
            min=0.001,
        ),
    ] = SERVER_BOT_MAX_SECONDS,
) -> None:
    """Serve Courtly online: tables for people and bots, over HTTP and WebSockets."""
    # The server's libraries are an extra, loaded only to serve: every other command works
    # without them.
    try:
        import uvicorn

        from .. import web
        from ..web import create_app
        from ..web.refusals import MAX_FRAME
        from ..web.storage import default_database_url
    except ImportError as error:
        raise InvalidOptions(
            f"the server needs the web extra ({error.name} is missing): pip install 'courtly[web]'"
        ) from None
    url = database_url or default_database_url()
    with clear_errors():
        try:
            application = create_app(
                url,
                bot_pace=bot_pace,
                bot_workers=bot_workers,
                hint_iterations=hint_iterations,
                review_iterations=review_iterations,
                bot_max_iterations=bot_max_iterations,
                bot_max_seconds=bot_max_seconds,
            )
        except Exception as error:  # an unreachable or unreadable database, say
            raise InvalidOptions(f"cannot open the database {url}: {error}") from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = f"http://{shown}:{port}"
    if (Path(web.__file__).parent / "static" / "index.html").is_file():
        typer.echo(f"Courtly's lobby: {address} (open it in a browser; Ctrl+C stops the server)")
    else:
        typer.echo(
            "courtly: the browser client is not built (make client): the API alone is served"
        )
    typer.echo(f"API: {address}/api, its schema: {address}/openapi.json; database: {url}")
    # No per-message compression on the WebSockets: views are small, and deflating each one
    # cost a fifth of the server's time under load.
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level="info",
        ws_per_message_deflate=False,
        # Larger than a message may be, so that one up to this size is refused in words.
        ws_max_size=MAX_FRAME,
    )
