"""``courtly simulate``: many games between bots, seat-rotated, and the agents' win rates with
their 95% confidence intervals; every game may be written for ``courtly replay``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ..agents.registry import agent_names
from ..core.actions import seat_text
from ..core.errors import InvalidOptions
from ..core.game import Game
from ..core.registry import game_class
from ..sim import Simulation, Summary
from ..sim import run as run_simulation
from ..sim.backends import make_backend
from .shared import (
    AddressArg,
    BackendArg,
    GameArg,
    OptionsArg,
    PlayersArg,
    check_writable,
    clear_errors,
    is_human,
    make_game,
    progress_bar,
    record_writer,
    seats_for,
)


def simulate_command(
    game: GameArg,
    seats: Annotated[
        str | None, typer.Option(help="One agent per seat, comma-separated (rotated across games).")
    ] = None,
    players: PlayersArg = None,
    games_count: Annotated[int, typer.Option("-n", "--games", help="Number of games.")] = 1000,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    seed: Annotated[
        int, typer.Option(help="Simulation seed: the same seed gives the same games.")
    ] = 0,
    option: OptionsArg = None,
    out: Annotated[
        Path | None, typer.Option(help="Write one JSON line per game (replayable).")
    ] = None,
    summary_out: Annotated[
        Path | None, typer.Option("--summary", help="Write the summary as JSON.")
    ] = None,
    rotate: Annotated[
        bool, typer.Option(help="Rotate the agents through the seats across games.")
    ] = True,
    backend_name: BackendArg = "local",
    address: AddressArg = None,
) -> None:
    """Simulate many games between bots and report win rates with 95% confidence intervals."""
    console = Console(stderr=False)
    with clear_errors():
        specs, count = seats_for(
            game,
            seats,
            players,
            game_class(game).info.default_bot,
        )
        the_game = make_game(game, count, option)
        for spec in specs:
            if is_human(spec):
                bots = ", ".join(a for a in agent_names(the_game) if a != "human")
                raise InvalidOptions(f"a simulation is played by bots; agents are: {bots}")
        simulation = Simulation(
            game, tuple(specs), games_count, seed, dict(the_game.options), rotate
        )
        simulation.check()
        if summary_out is not None:
            check_writable(summary_out, "--summary")
        writer = record_writer(out, "w", "--out") if out is not None else None
        backend = make_backend(backend_name, workers, address)
    # Each record is written and counted as it comes, then dropped: memory stays flat however
    # many games are played.
    summary = Summary()
    try:
        with progress_bar() as progress:
            task = progress.add_task(f"{game} ×{games_count}", total=games_count)
            for record in run_simulation(
                simulation, progress=lambda k: progress.advance(task, k), backend=backend
            ):
                summary.add(record.seats, record.returns, record.length, record.truncated)
                if writer is not None:
                    writer.write(record)
    except KeyboardInterrupt:
        console.print(f"Interrupted after {summary.games} games.")
        raise typer.Exit(130) from None
    finally:
        if writer is not None:
            writer.close()
        backend.close()
    _print_summary(console, the_game, specs, summary)
    if out is not None:
        console.print(
            f"Games written to {out} (replay one with: courtly replay {out} --game N)",
            soft_wrap=True,
        )
    if summary_out is not None:
        with clear_errors():
            summary_out.write_text(
                json.dumps(
                    {**the_game.config(), "seats": specs, "seed": seed, **summary.to_dict()},
                    indent=2,
                )
            )


def _print_summary(console: Console, game: Game, specs: list[str], summary: Summary) -> None:
    """Each agent's win rate per seat and share of the games won, then each seat's, then how
    long the games were and how many met the safety cap."""
    table = Table(
        title=f"{game.info.title}, {game.num_players} players, {summary.games} games",
        title_justify="left",
    )
    table.add_column("agent")
    table.add_column("seats/game", justify="right")
    table.add_column("win rate per seat", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("games won (all its seats)", justify="right")
    table.add_column("95% CI", justify="right")
    for name, tally in summary.agents.items():
        low, high = tally.interval
        games = summary.agent_games[name]
        g_low, g_high = games.interval
        table.add_row(
            name,
            f"{specs.count(name)}",
            f"{tally.rate:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{games.rate:.1%}",
            f"{g_low:.1%} – {g_high:.1%}",
        )
    console.print(table)
    seats = Table(title="By seat (all agents)", title_justify="left")
    seats.add_column("seat")
    seats.add_column("win rate", justify="right")
    seats.add_column("95% CI", justify="right")
    for index, tally in enumerate(summary.seats):
        low, high = tally.interval
        seats.add_row(seat_text(index), f"{tally.rate:.1%}", f"{low:.1%} – {high:.1%}")
    console.print(seats)
    console.print(
        f"Game length (steps): mean {summary.mean_length:.1f}, median {summary.median_length:g}"
    )
    if summary.truncated:
        console.print(
            f"Cut off at the safety cap (safety_cap, not the rules): {summary.truncated} of "
            f"{summary.games} games"
        )
