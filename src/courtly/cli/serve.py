"""``courtly serve``: Courtly online, tables for people and bots over HTTP and WebSockets, with
the browser client when it is built."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..agents.estimates import HINT_ITERATIONS, SERVER_REVIEW_ITERATIONS
from ..agents.registry import SERVER_BOT_MAX_ITERATIONS, SERVER_BOT_MAX_SECONDS
from ..core.errors import InvalidOptions
from .shared import clear_errors

# The web extra may be missing, so the limits' defaults (courtly.web.limits.Limits) are repeated
# here as plain numbers for ``--help`` to show (a test keeps the two the same).
REQUESTS_PER_MINUTE = 600
TABLES_PER_ADDRESS = 20
TABLES = 2000
SOCKETS_PER_TABLE = 50
SOCKETS_PER_ADDRESS = 50
READ_TIMEOUT = 10.0
MAX_CONNECTIONS = 1000
"""Connections the server holds at once (uvicorn's limit_concurrency)."""
KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection waits for its next request (uvicorn's default)."""
CHAT_RATE = "5/10 seconds;30/minute"
"""How often one sender may speak at the tables (courtly.web.chat.CHAT_RATE)."""
ABANDON_AFTER = 3600.0
"""Seconds after which a table nobody plays is closed."""
SHUTDOWN_TIMEOUT = 20
"""Seconds a graceful shutdown waits for requests in flight (within systemd's 90 s)."""


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
    # What one client may ask, and how the server meets the network (docs/operating.md).
    max_requests_per_minute: Annotated[
        int,
        typer.Option(
            help="HTTP requests and WebSocket connections one client address may make per "
            "minute (0: no limit); over it: 429 with Retry-After.",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = REQUESTS_PER_MINUTE,
    max_tables_per_address: Annotated[
        int,
        typer.Option(
            help="Tables open or in play one client address may have created (0: no limit).",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = TABLES_PER_ADDRESS,
    max_tables: Annotated[
        int,
        typer.Option(
            help="Tables open or in play on the server (0: no limit).",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = TABLES,
    max_sockets_per_table: Annotated[
        int,
        typer.Option(
            help="WebSockets watching one table, seats and spectators (0: no limit).",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = SOCKETS_PER_TABLE,
    max_sockets_per_address: Annotated[
        int,
        typer.Option(
            help="WebSockets open from one client address (0: no limit).",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = SOCKETS_PER_ADDRESS,
    max_connections: Annotated[
        int,
        typer.Option(
            help="Connections the server holds at once, WebSockets included; beyond, "
            "503 (0: no limit).",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = MAX_CONNECTIONS,
    read_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a request body may take to arrive (0: no limit); after: 408.",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = READ_TIMEOUT,
    keep_alive: Annotated[
        int,
        typer.Option(
            help="Seconds an idle HTTP connection is kept open for its next request.",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = KEEP_ALIVE,
    abandon_after: Annotated[
        float,
        typer.Option(
            help="Seconds after which a table nobody plays is closed: open and never started, "
            "or in play with every person away (0: never).",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = ABANDON_AFTER,
    trusted_proxies: Annotated[
        str,
        typer.Option(
            help="Addresses (comma-separated, CIDR ranges, or *) of the reverse proxies whose "
            "X-Forwarded-For and X-Forwarded-Proto are believed.",
            rich_help_panel="Limits",
        ),
    ] = "127.0.0.1",
    shutdown_timeout: Annotated[
        int,
        typer.Option(
            help="Seconds a SIGTERM or Ctrl+C waits for requests in flight before closing "
            "what is left.",
            min=0,
            rich_help_panel="Limits",
        ),
    ] = SHUTDOWN_TIMEOUT,
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
    admin: Annotated[
        str | None,
        typer.Option(
            help="The name of an account that is an administrator (closes tables, hides names, "
            "disables accounts), besides the first account made; made so when it signs up.",
        ),
    ] = None,
    # Passkeys (docs/server.md, "Passkeys"): bound to the address the browser uses.
    origin: Annotated[
        str | None,
        typer.Option(
            help="The address browsers use, e.g. https://cards.example.org, which passkeys "
            "are bound to (default: each request's scheme and Host; name it behind a proxy "
            "that rewrites Host).",
            rich_help_panel="Passkeys",
        ),
    ] = None,
    rp_id: Annotated[
        str | None,
        typer.Option(
            help="The host name passkeys belong to: the origin's host (the default) or a "
            "domain it is in, e.g. example.org, to share them with the domain's other hosts.",
            rich_help_panel="Passkeys",
        ),
    ] = None,
    leaderboard_min_games: Annotated[
        int,
        typer.Option(
            help="Rated games a person must have played in a pool (a game, a player count) "
            "before they appear on its leaderboard.",
            min=1,
        ),
    ] = 5,
    chat_rate: Annotated[
        str,
        typer.Option(
            help="How often one person (or a guest's seat) may say a line at the tables, in the "
            "limits library's notation ('5/10 seconds;30/minute'; 0: no limit); over it: 429.",
        ),
    ] = CHAT_RATE,
    smtp_url: Annotated[
        str | None,
        typer.Option(
            help="The SMTP server turn e-mails go through: smtp://user:pass@host:port (plain), "
            "smtp+starttls://... (STARTTLS) or smtps://... (TLS); none: no e-mail is sent.",
        ),
    ] = None,
    mail_from: Annotated[
        str,
        typer.Option(help="The sender address of the server's e-mails."),
    ] = "courtly@localhost",
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address people reach the server at, for the links in its e-mails "
            "(default: http://HOST:PORT).",
        ),
    ] = None,
    mail_every: Annotated[
        float,
        typer.Option(
            help="Seconds between two looks for turns waiting past a person's delay.", min=0.1
        ),
    ] = 30.0,
) -> None:
    """Serve Courtly online: tables for people and bots, over HTTP and WebSockets."""
    # The server's libraries are an extra, loaded only to serve: every other command works
    # without them.
    try:
        from .. import web
        from ..web import create_app, serving
        from ..web.limits import Limits
        from ..web.people.relying_party import RelyingPartySettings
        from ..web.storage import default_database_url
    except ImportError as error:
        raise InvalidOptions(
            f"the server needs the web extra ({error.name} is missing): pip install 'courtly[web]'"
        ) from None
    url = database_url or default_database_url()
    check_chat_rate(chat_rate)
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    mailing = _mailing(smtp_url, mail_from, public_url or f"http://{local}:{port}", mail_every)
    with clear_errors():
        try:
            RelyingPartySettings(origin, rp_id)
        except ValueError as error:
            raise InvalidOptions(str(error)) from None
        try:
            application = create_app(
                url,
                bot_pace=bot_pace,
                bot_workers=bot_workers,
                hint_iterations=hint_iterations,
                review_iterations=review_iterations,
                limits=Limits(
                    requests_per_minute=max_requests_per_minute,
                    tables_per_address=max_tables_per_address,
                    tables=max_tables,
                    sockets_per_table=max_sockets_per_table,
                    sockets_per_address=max_sockets_per_address,
                    read_timeout=read_timeout,
                ),
                abandon_after=abandon_after,
                bot_max_iterations=bot_max_iterations,
                bot_max_seconds=bot_max_seconds,
                admin=admin,
                origin=origin,
                rp_id=rp_id,
                leaderboard_min_games=leaderboard_min_games,
                chat_rate=chat_rate,
                mailing=mailing,
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
    serving.run(
        application,
        host,
        port,
        trusted_proxies=trusted_proxies,
        max_connections=max_connections,
        keep_alive=keep_alive,
        shutdown_timeout=shutdown_timeout,
    )


def check_chat_rate(rate: str) -> None:
    """Refuse a ``--chat-rate`` the limits library cannot read, before anything starts."""
    from limits import parse_many

    if rate.strip() in ("", "0"):
        return
    try:
        parse_many(rate)
    except ValueError:
        raise InvalidOptions(
            f"--chat-rate {rate!r} is not a rate: write it as '5/10 seconds;30/minute' (or 0)"
        ) from None


def _mailing(smtp_url: str | None, mail_from: str, public_url: str, every: float) -> Any:
    """The server's e-mail settings from ``--smtp-url``, ``--mail-from`` and ``--public-url``
    (refused with the reason when the URL or the sender cannot be used)."""
    from ..web.mail import Mailer, MailUrlError
    from ..web.turn_mail import Mailing

    if not smtp_url:
        return Mailing(None, public_url, every)
    try:
        return Mailing(Mailer.from_url(smtp_url, mail_from), public_url, every)
    except MailUrlError as error:
        raise InvalidOptions(f"--smtp-url / --mail-from: {error}") from None
