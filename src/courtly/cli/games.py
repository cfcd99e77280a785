"""``courtly games``: each game's facts, options and bots, for people and as JSON."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..agents.registry import bots_for, describe_game
from ..core.game import GameInfo
from ..core.options import Option
from ..core.registry import games, make


def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the games, their player counts, options and bots."""
    infos = games()
    if as_json:
        typer.echo(json.dumps([describe_game(info) for info in infos], indent=2))
        return
    console = Console()
    for info in infos:
        print_game(console, info)


def print_game(console: Console, info: GameInfo) -> None:
    """The game's entry of ``courtly games``: facts, game options, bots and their options."""
    title = Text(info.title, style="bold")
    title.append(f" ({info.id}) · players: {info.players_text()}", style="")
    console.print(title)
    console.print(info.summary, highlight=False)
    facts = [
        fact
        for fact, declared in (
            ("simultaneous moves", info.simultaneous),
            ("hidden information", info.hidden_information),
            ("teams", info.teams),
        )
        if declared
    ]
    if facts:
        console.print(Text(", ".join(facts).capitalize() + ".", style="dim"))
    if info.options:
        rows = [("", option) for option in info.options]
        console.print(_options_table("Game options (-o name=value)", rows, with_bot=False))
    bots = bots_for(make(info.id))
    listing = Table.grid(padding=(0, 2))
    listing.add_column(no_wrap=True)
    listing.add_column()
    for bot in bots:
        listing.add_row(
            bot.name + (" (default)" if bot.name == info.default_bot else ""), bot.summary
        )
    console.print("Bots (--seats name:option=value:...):")
    console.print(listing)
    rows = [(bot.name, option) for bot in bots for option in bot.options]
    if rows:
        console.print(_options_table("Bot options", rows, with_bot=True))
    console.print()


def _options_table(title: str, rows: list[tuple[str, Option]], with_bot: bool) -> Table:
    """Options with their defaults, meaning and allowed values; names are never cut (the
    meaning wraps instead, whatever the terminal's width)."""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    if with_bot:
        table.add_column("bot", no_wrap=True)
    longest = max(len(option.name) for _, option in rows)
    table.add_column("option", no_wrap=True, min_width=longest)
    table.add_column("default", no_wrap=True)
    table.add_column("meaning", ratio=1)
    shown = ""
    for bot, option in rows:
        meaning = Text(option.help)
        meaning.append(f"\nallowed: {option.allowed()}", style="dim")
        cells: list[str | Text] = [option.name, _value_text(option.default), meaning]
        table.add_row(*([bot if bot != shown else ""] if with_bot else []), *cells)
        shown = bot
    return table


def _value_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
