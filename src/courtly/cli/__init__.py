"""The ``courtly`` command: list games, read rules, play in the terminal, simulate, replay.

Every command works for every registered game through the engine contract; nothing here knows
a game's rules. Bad input (an unknown game, option, player count or agent, a corrupt record)
prints one line naming what is allowed and exits with code 2.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..agents.human import HumanAgent, Quit
from ..agents.registry import agent_names, make_agent, parse_seats
from ..agents.terminal import card_console
from ..core.actions import seat_text
from ..core.agent import Agent
from ..core.errors import CourtlyError, InvalidOptions, ReplayError
from ..core.game import CHANCE, Game, State
from ..core.match import play_match
from ..core.options import parse_option_assignments
from ..core.records import MatchRecord
from ..core.registry import game_class, games, make
from ..sim import Simulation, summarize
from ..sim import run as run_simulation
from ..sim.ladder import DEFAULT_AGENTS, run_ladder

app = typer.Typer(
    name="courtly",
    help="Play, study and train AI on five royal card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

OptionsArg = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="A game option as name=value (repeatable), e.g. -o target_score=40."
    ),
]
GameArg = Annotated[str, typer.Argument(help="Game id, e.g. royal-gambit (see `courtly games`).")]


def _error(message: str) -> None:
    """One plain line on stderr (no Rich wrapping: scripts and people read it whole)."""
    typer.echo(f"error: {message}", err=True)


@contextmanager
def _clear_errors() -> Iterator[None]:
    """Turn Courtly's errors into one line on stderr and exit code 2 (no traceback)."""
    try:
        yield
    except CourtlyError as error:
        _error(str(error))
        raise typer.Exit(2) from None
    except OSError as error:
        _error(f"{error.strerror or error}: {error.filename or ''}".rstrip(": "))
        raise typer.Exit(2) from None


@contextmanager
def _kept_on_interrupt(journal: Path) -> Iterator[None]:
    """Ctrl-C stops a ladder with a word on what is kept, not a traceback."""
    try:
        yield
    except KeyboardInterrupt:
        _error(f"stopped; the finished games are kept in {journal}: run the same command to go on")
        raise typer.Exit(130) from None


def _make_game(game_id: str, players: int | None, option: list[str] | None) -> Game:
    options = parse_option_assignments(option or [])
    return make(game_id, players=players, **options)


def _seats_for(
    game_id: str, seats: str | None, players: int | None, default_first: str
) -> tuple[list[str], int]:
    """The seat specs and player count from --seats and --players (either may be missing)."""
    info = game_class(game_id).info
    if seats is None:
        count = players or info.default_players
        rest = "heuristic" if "heuristic" in info.agents else "random"
        return [default_first] + [rest] * (count - 1), count
    specs = parse_seats(seats)
    if players is not None and players != len(specs):
        raise InvalidOptions(
            f"--players {players} but {len(specs)} seats given ({seats}); give one agent per seat"
        )
    return specs, len(specs)


@app.command("games")
def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
) -> None:
    """List the games, their player counts, options and bots."""
    infos = games()
    if as_json:
        typer.echo(json.dumps([info.describe() for info in infos], indent=2))
        return
    console = Console()
    for info in infos:
        table = Table(
            title=f"{info.title} ({info.id}), {info.min_players}-{info.max_players} players",
            title_justify="left",
        )
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        for option in info.options:
            table.add_row(
                option.name,
                str(option.default).lower()
                if isinstance(option.default, bool)
                else str(option.default),
                option.allowed(),
                option.help,
            )
        console.print(table)
        bots = ", ".join(sorted({"random", *info.agents}))
        console.print(f"  {info.summary}  Bots: {bots}.\n")


@app.command("rules")
def rules_command(game: GameArg) -> None:
    """Print a game's rules summary, with how Courtly settles the rule sheet's gaps."""
    with _clear_errors():
        info = game_class(game).info
    Console().print(info.rules, markup=False, highlight=False)


@app.command("play")
def play_command(
    game: GameArg,
    seats: Annotated[
        str | None,
        typer.Option(
            help="One agent per seat, comma-separated: human, heuristic, random ... "
            "(default: you against heuristic bots)."
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: the number of seats).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the shuffles and bots (default: random; printed).")
    ] = None,
    option: OptionsArg = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Append the finished game to this JSONL file, for `courtly replay`."),
    ] = None,
) -> None:
    """Play a game in the terminal, against bots or hot-seat with friends."""
    console = card_console()
    with _clear_errors():
        specs, count = _seats_for(game, seats, players, "human")
        the_game = _make_game(game, count, option)
        humans = [s for s, spec in enumerate(specs) if spec.split(":")[0].lower() == "human"]
        agents: list[Agent] = []
        for spec in specs:
            if spec.split(":")[0].lower() == "human":
                agents.append(HumanAgent(the_game, console=console, hot_seat=len(humans) > 1))
            else:
                agents.append(make_agent(spec, the_game))
    if seed is None:
        seed = random.randrange(1_000_000)
    # With one person at the table, narrate from that seat; hot seat narrates only public events.
    perspective = humans[0] if len(humans) == 1 else None
    names = ", ".join(f"{seat_text(s)} {spec}" for s, spec in enumerate(specs))
    console.print(f"[bold]{the_game.info.title}[/] · seed {seed} · {names}")
    console.print(
        "[dim]Type a number or an action; ? lists the moves, help shows the rules, quit leaves.[/]"
    )

    def narrate(state: State, actor: int, item: Any) -> None:
        line = state.narrate(actor, item, perspective)
        if line:
            console.print(("  " if actor == CHANCE else "") + line)

    try:
        record = play_match(the_game, agents, seed, observer=narrate, seats=specs)
    except (Quit, KeyboardInterrupt):
        console.print("\nGame abandoned. Goodbye.")
        raise typer.Exit(0) from None
    final = record.replay()
    console.print()
    console.print(final.render(perspective))
    console.print(f"[bold]{_result_line(the_game, final.winners, specs)}[/]")
    if save is not None:
        with _clear_errors(), save.open("a") as out:
            out.write(json.dumps(record.to_dict()) + "\n")
        console.print(
            f"Saved to {save}; watch it again with: courtly replay {save}", soft_wrap=True
        )


def _result_line(game: Game, winners: tuple[int, ...], specs: list[str]) -> str:
    """``Winner: p1 (heuristic)``, ``Winner: Ostrogoths (p0 and p2)`` or ``Shared win: ...``."""
    for team, seats in game.teams().items():
        if seats and set(seats) == set(winners):
            return f"Winner: {team} ({' and '.join(seat_text(s) for s in seats)})"
    named = " and ".join(f"{seat_text(s)} ({specs[s]})" for s in winners)
    return f"Winner: {named}" if len(winners) == 1 else f"Shared win: {named}"


@app.command("simulate")
def simulate_command(
    game: GameArg,
    seats: Annotated[
        str | None, typer.Option(help="One agent per seat, comma-separated (rotated across games).")
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: the number of seats).")
    ] = None,
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
) -> None:
    """Simulate many games between bots and report win rates with 95% confidence intervals."""
    console = Console(stderr=False)
    with _clear_errors():
        specs, count = _seats_for(
            game,
            seats,
            players,
            "heuristic" if "heuristic" in game_class(game).info.agents else "random",
        )
        the_game = _make_game(game, count, option)
        for spec in specs:
            if spec.split(":")[0].lower() == "human":
                bots = ", ".join(a for a in agent_names(the_game) if a != "human")
                raise InvalidOptions(f"a simulation is played by bots; agents are: {bots}")
        simulation = Simulation(
            game, tuple(specs), games_count, seed, dict(the_game.options), rotate
        )
        simulation.check()
        handle = out.open("w") if out is not None else None
    records: list[MatchRecord] = []
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task(f"{game} ×{games_count}", total=games_count)
            for record in run_simulation(simulation, workers, lambda k: progress.advance(task, k)):
                records.append(record)
                if handle is not None:
                    handle.write(json.dumps(record.to_dict()) + "\n")
    except KeyboardInterrupt:
        console.print(f"Interrupted after {len(records)} games.")
        raise typer.Exit(130) from None
    finally:
        if handle is not None:
            handle.close()
    summary = summarize(records)
    _print_summary(console, the_game, specs, summary)
    if out is not None:
        console.print(
            f"Games written to {out} (replay one with: courtly replay {out} --game N)",
            soft_wrap=True,
        )
    if summary_out is not None:
        summary_out.write_text(
            json.dumps(
                {**the_game.config(), "seats": specs, "seed": seed, **summary.to_dict()}, indent=2
            )
        )


def _print_summary(console: Console, game: Game, specs: list[str], summary: Any) -> None:
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


@app.command("ladder")
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
    with _clear_errors():
        specs = parse_seats(agents)
        the_game = _make_game(game, players, option)
        for spec in specs:
            if spec.split(":")[0].lower() == "human":
                raise InvalidOptions("a ladder is played by bots, not by human seats")
            make_agent(spec, the_game)
        if not 0 < margin < 0.5:
            raise InvalidOptions("--margin must be between 0 and 0.5, e.g. 0.03")
        if games_per_pair is not None and games_per_pair < 1:
            raise InvalidOptions("the number of games per pair must be at least 1")
    pairs = len(specs) * (len(specs) - 1) // 2
    plan = f"{games_per_pair} games" if games_per_pair else f"±{margin:.0%}"
    stem = out or Path(f"ladder-{game}-{the_game.num_players}p")
    journal = journal or stem.with_suffix(".jsonl")
    if journal.exists():
        # soft_wrap: a path is printed whole, so it can be copied
        console.print(f"Going on from the games in {journal}.", highlight=False, soft_wrap=True)
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with (
        Progress(*columns, console=Console(stderr=True), transient=True) as progress,
        _kept_on_interrupt(journal),
    ):
        task = progress.add_task(f"{game} ladder, {pairs} pairs, {plan}", total=None)
        with _clear_errors():
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
    with _clear_errors():
        stem.with_suffix(".md").write_text(markdown)
        stem.with_suffix(".json").write_text(result.to_json())
    console.print(
        f"Written {stem.with_suffix('.md')} and {stem.with_suffix('.json')} "
        f"(every game in {journal})",
        soft_wrap=True,
    )


@app.command("replay")
def replay_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="A JSONL file of games (from simulate --out or play --save), or a saved state."
        ),
    ],
    game_number: Annotated[
        int | None,
        typer.Option("--game", help="The game_id to replay (default: the first game in the file)."),
    ] = None,
    seat: Annotated[
        str | None, typer.Option(help="Watch from this seat's side, e.g. p0 (default: spectator).")
    ] = None,
    quiet: Annotated[
        bool, typer.Option(help="Only check the replay and print the final table.")
    ] = False,
) -> None:
    """Replay a recorded game event by event and check that it ends as recorded."""
    console = card_console()
    with _clear_errors():
        record, line = _find_record(file, game_number)
        try:
            game = record.make_game()
            perspective = None if seat is None else _seat_number(seat, game.num_players)
            state = game.new_state()
            for index, (actor, item) in enumerate(record.history):
                try:
                    if actor == "chance":
                        outcome = state.parse_chance(item)
                        told = state.narrate(CHANCE, outcome, perspective)
                        state.apply_chance(outcome)
                    else:
                        mover = _seat_number(actor, game.num_players)
                        action = state.parse_action(mover, item)
                        told = state.narrate(mover, action, perspective)
                        state.apply(mover, action)
                except CourtlyError as error:
                    raise ReplayError(
                        f"event {index} [{actor}, {item}] does not apply: {error}"
                    ) from None
                if told and not quiet:
                    console.print(("  " if actor == "chance" else "") + told)
            if record.returns and state.is_terminal and state.returns() != record.returns:
                raise ReplayError(
                    f"the replay ends with returns {state.returns()}, the record says {record.returns}"
                )
        except ReplayError as error:
            raise ReplayError(f"{file} line {line}: {error}") from None
    console.print()
    console.print(state.render(perspective))
    status = "returns match the record" if state.is_terminal else "the game is not over"
    console.print(
        f"[green]Replayed {len(record.history)} events of game {record.game_id}: {status}.[/]"
    )


def _seat_number(text: str, players: int) -> int:
    from ..core.actions import parse_seat

    try:
        return parse_seat(text, players)
    except ValueError as error:
        raise InvalidOptions(str(error)) from None


def _find_record(file: Path, game_number: int | None) -> tuple[MatchRecord, int]:
    """The record of ``game_number`` (or the first) in a JSONL file, with its line number."""
    with file.open() as lines:
        seen = False
        for number, text in enumerate(lines, 1):
            if not text.strip():
                continue
            seen = True
            try:
                data = json.loads(text)
            except json.JSONDecodeError as error:
                raise ReplayError(
                    f"{file} line {number}: not valid JSON ({error.msg} at column {error.colno}); "
                    "is the file truncated?"
                ) from None
            if isinstance(data, dict) and data.get("format") == "courtly-state/1":
                # A saved state (State.to_json) has no seed or returns: replay its history alone.
                data = {**data, "seed": 0, "returns": [], "game_id": 0}
            if (
                isinstance(data, dict)
                and game_number is not None
                and data.get("game_id") != game_number
            ):
                continue
            try:
                return MatchRecord.from_dict(data), number
            except (ReplayError, ValueError, TypeError) as error:
                raise ReplayError(f"{file} line {number}: {error}") from None
        if not seen:
            raise ReplayError(f"{file} is empty")
    raise ReplayError(f"{file} has no game with game_id {game_number}")


def main() -> None:
    """Entry point of the ``courtly`` console script."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
