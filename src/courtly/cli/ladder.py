"""``courtly ladder``: agents ranked against each other, every pair in seat-rotated games, with
win rates, 95% confidence intervals and OpenSkill ratings; every game is kept in a journal, so a
stopped ladder goes on where it stopped."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..agents.registry import make_agent, parse_seats
from ..core.errors import InvalidOptions
from ..sim.ladder import DEFAULT_AGENTS, run_ladder
from .shared import (
    GameArg,
    OptionsArg,
    check_writable,
    clear_errors,
    error,
    is_human,
    make_game,
    progress_bar,
)


def ladder_command(
    game: GameArg,
    agents: Annotated[
        str,
        typer.Option(help="Comma-separated agents to rank against each other."),
    ] = ",".join(DEFAULT_AGENTS),
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: the game's default).")
    ] = None,
    games_per_pair: Annotated[
        int | None,
        typer.Option(
            "-n", "--games", help="Games per pair (default: enough for a 95% CI of ±margin)."
        ),
    ] = None,
    margin: Annotated[
        float, typer.Option(help="Target half-width of the 95% CI, e.g. 0.03.")
    ] = 0.03,
    workers: Annotated[int, typer.Option(help="Worker processes (default: every core).")] = 0,
    seed: Annotated[int, typer.Option(help="Ladder seed.")] = 0,
    option: OptionsArg = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Write OUT.md and OUT.json (default: ladder-GAME-Np in this folder)."),
    ] = None,
    journal: Annotated[
        Path | None,
        typer.Option(
            help="Keep every finished game in this file and resume from it "
            "(default: OUT.jsonl; a stopped ladder goes on where it stopped)."
        ),
    ] = None,
) -> None:
    """Rank agents: every pair plays seat-rotated games; win rates with 95% CIs, OpenSkill ratings."""
    console = Console()
    with clear_errors():
        specs = parse_seats(agents)
        the_game = make_game(game, players, option)
        for spec in specs:
            if is_human(spec):
                raise InvalidOptions("a ladder is played by bots, not by human seats")
            make_agent(spec, the_game)
        if not 0 < margin < 0.5:
            raise InvalidOptions("--margin must be between 0 and 0.5, e.g. 0.03")
        if games_per_pair is not None and games_per_pair < 1:
            raise InvalidOptions("the number of games per pair must be at least 1")
        if workers < 0:
            raise InvalidOptions(f"--workers {workers}: give 1 or more, or 0 for every core")
    pairs = len(specs) * (len(specs) - 1) // 2
    plan = f"{games_per_pair} games" if games_per_pair else f"±{margin:.0%}"
    stem = out or Path(f"ladder-{game}-{the_game.num_players}p")
    journal = journal or stem.with_suffix(".jsonl")
    with clear_errors():
        # Refused now, not after the games: the tables are written at the end.
        check_writable(stem.with_suffix(".md"), "--out")
        check_writable(stem.with_suffix(".json"), "--out")
        check_writable(journal, "--journal")
    if journal.exists():
        # soft_wrap: a path is printed whole, so it can be copied
        console.print(f"Going on from the games in {journal}.", highlight=False, soft_wrap=True)
    with (
        progress_bar() as progress,
        _kept_on_interrupt(journal),
    ):
        task = progress.add_task(f"{game} ladder, {pairs} pairs, {plan}", total=None)
        with clear_errors():
            result = run_ladder(
                game,
                specs,
                the_game.num_players,
                games_per_pair,
                seed,
                workers or (os.cpu_count() or 1),
                dict(the_game.options),
                lambda k: progress.advance(task, k),
                margin,
                lambda total: progress.update(task, total=total),
                journal,
            )
    markdown = result.to_markdown()
    console.print(markdown, markup=False, highlight=False)
    with clear_errors():
        stem.with_suffix(".md").write_text(markdown)
        stem.with_suffix(".json").write_text(result.to_json())
    console.print(
        f"Written {stem.with_suffix('.md')} and {stem.with_suffix('.json')} "
        f"(every game in {journal})",
        soft_wrap=True,
    )


@contextmanager
def _kept_on_interrupt(journal: Path) -> Iterator[None]:
    """Ctrl-C stops a ladder with a word on what is kept, not a traceback."""
    try:
        yield
    except KeyboardInterrupt:
        error(f"stopped; the finished games are kept in {journal}: run the same command to go on")
        raise typer.Exit(130) from None
