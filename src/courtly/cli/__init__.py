"""The ``courtly`` command: list games, read rules, play in the terminal, simulate, replay,
review.

Every command works for every registered game through the engine contract; nothing here knows
a game's rules. Bad input (an unknown game, option, player count or agent, a corrupt record)
prints one line naming what is allowed and exits with code 2.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from ..agents.estimates import (
    DEFAULT_ITERATIONS,
    HINT_ITERATIONS,
    PARTS,
    SERVER_REVIEW_ITERATIONS,
    Budget,
)
from ..agents.human import HumanAgent, Quit, Screen
from ..agents.registry import agent_names, make_agent, parse_seats
from ..agents.terminal import card_console
from ..core.actions import seat_text
from ..core.errors import CourtlyError, InvalidOptions, ReplayError
from ..core.events import CHANCE
from ..core.game import Agent, Game, State
from ..core.match import play_match
from ..core.options import parse_option_assignments
from ..core.records import RecordWriter, find_record
from ..core.registry import game_class, games, make
from ..core.replays import record_game, replay_record
from ..sim import Simulation, Summary
from ..sim import run as run_simulation
from ..sim.backends import BACKENDS, make_backend
from ..sim.ladder import DEFAULT_AGENTS, run_ladder

_CLICK_ERROR: type[Exception] = next(
    kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException"
)
"""The base of the command-line parser's own errors (a missing argument, an option that is not
an integer), wherever Typer keeps it."""


class _OneLineErrors(TyperGroup):
    """The parser's own errors as one ``error: ...`` line with exit status 2, like Courtly's,
    instead of a usage text and a framed panel."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        standalone = kwargs.get("standalone_mode", True)
        kwargs["standalone_mode"] = False
        if not standalone:
            return super().main(*args, **kwargs)
        try:
            # Not standalone: errors are raised here, and an exit status is returned.
            status = super().main(*args, **kwargs)
        except _CLICK_ERROR as error:
            if type(error).__name__ != "NoArgsIsHelpError":  # the help is printed already
                _error(error.format_message())  # type: ignore[attr-defined]
            sys.exit(getattr(error, "exit_code", 2))
        except typer.Abort:
            _error("aborted")
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


app = typer.Typer(
    name="courtly",
    help="Play, study and train AI on five royal card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_OneLineErrors,
)

OptionsArg = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="A game option as name=value (repeatable), e.g. -o target_score=40."
    ),
]
GameArg = Annotated[str, typer.Argument(help="Game id, e.g. royal-gambit (see `courtly games`).")]
BackendArg = Annotated[
    str,
    typer.Option(
        "--backend",
        help=f"Where the games are played: {' or '.join(BACKENDS)} (a Ray cluster, or a local "
        "Ray started for the run: pip install 'courtly[cluster]').",
    ),
]
AddressArg = Annotated[
    str | None,
    typer.Option(
        help="The Ray cluster's address (ray://host:10001, or auto), with --backend ray; "
        "without it a local Ray is started with --workers CPUs."
    ),
]


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


def _progress() -> Progress:
    """The progress bar of a long command, on stderr (so stdout stays the command's output),
    gone when done."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def _check_writable(path: Path, flag: str) -> None:
    """Refuse, before any work, an output path that cannot be written (without touching it)."""
    if path.is_dir():
        raise InvalidOptions(f"{flag} {path} is a folder; name a file")
    folder = path.parent
    if not folder.is_dir():
        raise InvalidOptions(f"{flag} {path}: the folder {folder} does not exist")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise InvalidOptions(f"{flag} {path}: no permission to write there")


def _record_writer(path: Path, mode: str, flag: str) -> RecordWriter:
    """The writer of ``path``'s records, opened now: a path that cannot be written is refused
    before the first game, not after it."""
    _check_writable(path, flag)
    try:
        return RecordWriter(path, mode)
    except OSError as error:
        raise InvalidOptions(
            f"{flag} {path}: cannot write there ({error.strerror or error})"
        ) from None


def _seats_for(
    game_id: str, seats: str | None, players: int | None, default_first: str
) -> tuple[list[str], int]:
    """The seat specs and player count from --seats and --players (either may be missing)."""
    info = game_class(game_id).info
    if seats is None:
        count = players or info.default_players
        return [default_first] + [info.default_bot] * (count - 1), count
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
    from ..agents.registry import describe_game
    from .listing import print_game

    infos = games()
    if as_json:
        typer.echo(json.dumps([describe_game(info) for info in infos], indent=2))
        return
    console = Console()
    for info in infos:
        print_game(console, info)


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
    hints: Annotated[
        bool,
        typer.Option(
            "--hints/--no-hints",
            help="Whether a person may type `hint` for the best moves and their win chances.",
        ),
    ] = True,
) -> None:
    """Play a game in the terminal, against bots or hot-seat with friends."""
    console = card_console()
    with _clear_errors():
        specs, count = _seats_for(game, seats, players, "human")
        the_game = _make_game(game, count, option)
        humans = [s for s, spec in enumerate(specs) if spec.split(":")[0].lower() == "human"]
        # Several people at one terminal share it: it is handed over between them.
        screen = Screen(console, humans) if len(humans) > 1 else None
        agents: list[Agent] = []
        for spec in specs:
            if spec.split(":")[0].lower() == "human":
                agents.append(HumanAgent(the_game, console=console, screen=screen, hints=hints))
            else:
                agents.append(make_agent(spec, the_game))
        new_file = save is not None and not save.exists()
        writer = _record_writer(save, "a", "--save") if save is not None else None
    if seed is None:
        seed = random.randrange(1_000_000)
    # With one person at the table, narrate from that seat as it happens; a shared screen tells
    # each person what happened, from their side, when they take the screen.
    perspective = humans[0] if len(humans) == 1 else None
    names = ", ".join(f"{seat_text(s)} {spec}" for s, spec in enumerate(specs))
    console.print(f"[bold]{the_game.info.title}[/] · seed {seed} · {names}")
    console.print(
        "[dim]Type a number or an action; ? lists the moves, "
        + ("hint suggests one, " if hints else "")
        + "help shows the rules, quit leaves.[/]"
    )

    def narrate(state: State, actor: int, item: Any) -> None:
        if screen is not None:
            screen.observe(state, actor, item)
            return
        line = state.narrate(actor, item, perspective)
        if line:
            console.print(("  " if actor == CHANCE else "") + line, markup=False)

    try:
        record = play_match(
            the_game,
            agents,
            seed,
            observer=narrate,
            seats=specs,
            ask_order=None if screen is None else screen.ask_order,
        )
    except (Quit, KeyboardInterrupt):
        if writer is not None:
            writer.close()
            if new_file and save is not None and save.stat().st_size == 0:
                save.unlink()  # nothing was saved: leave no empty file behind
        console.print("\nGame abandoned. Goodbye.")
        raise typer.Exit(0) from None
    if writer is not None:
        with _clear_errors():
            writer.write(record)
            writer.close()
    final = replay_record(record)
    if screen is not None:
        for line in screen.public:  # the last events, after the last person looked
            console.print(line, markup=False)
    _print_end(console, final, specs)
    if save is not None:
        console.print(
            f"Saved to {save}; watch it again with: courtly replay {save}",
            soft_wrap=True,
            markup=False,
        )


def _print_end(console: Console, final: State, specs: Sequence[str]) -> None:
    """The end of a game: its one summary (the table with every hidden card revealed, from
    nobody's side) and who won, with their agents."""
    console.print()
    console.print(final.render(None), markup=False)
    console.print(Text(_result_line(final.game, final.winners, specs), style="bold"))
    if final.truncated:
        cap = final.game.options.get("safety_cap")
        console.print(
            f"The game was cut off at its safety cap (safety_cap = {cap}): "
            "the result is the standing at that point, not an end by the rules.",
            markup=False,
        )


def _result_line(game: Game, winners: tuple[int, ...], specs: Sequence[str]) -> str:
    """``Winner: p1 (heuristic)``, ``Winner: Ostrogoths, p0 (human) and p2 (heuristic)`` or
    ``Shared win: p0 (random) and p1 (heuristic)``."""

    def named(seats: Sequence[int]) -> str:
        names = [f"{seat_text(s)} ({specs[s]})" if s < len(specs) else seat_text(s) for s in seats]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    if not winners:
        return "Nobody won."
    for team, seats in game.teams().items():
        if seats and set(seats) == set(winners):
            return f"Winner: {team}, {named(seats)}"
    return f"Winner: {named(winners)}" if len(winners) == 1 else f"Shared win: {named(winners)}"


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
    backend_name: BackendArg = "local",
    address: AddressArg = None,
) -> None:
    """Simulate many games between bots and report win rates with 95% confidence intervals."""
    console = Console(stderr=False)
    with _clear_errors():
        specs, count = _seats_for(
            game,
            seats,
            players,
            game_class(game).info.default_bot,
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
        if summary_out is not None:
            _check_writable(summary_out, "--summary")
        writer = _record_writer(out, "w", "--out") if out is not None else None
        backend = make_backend(backend_name, workers, address)
    # Each record is written and counted as it comes, then dropped: memory stays flat however
    # many games are played.
    summary = Summary()
    try:
        with _progress() as progress:
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
        with _clear_errors():
            summary_out.write_text(
                json.dumps(
                    {**the_game.config(), "seats": specs, "seed": seed, **summary.to_dict()},
                    indent=2,
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
    if summary.truncated:
        console.print(
            f"Cut off at the safety cap (safety_cap, not the rules): {summary.truncated} of "
            f"{summary.games} games"
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
        if workers < 0:
            raise InvalidOptions(f"--workers {workers}: give 1 or more, or 0 for every core")
    pairs = len(specs) * (len(specs) - 1) // 2
    plan = f"{games_per_pair} games" if games_per_pair else f"±{margin:.0%}"
    stem = out or Path(f"ladder-{game}-{the_game.num_players}p")
    journal = journal or stem.with_suffix(".jsonl")
    with _clear_errors():
        # Refused now, not after the games: the tables are written at the end.
        _check_writable(stem.with_suffix(".md"), "--out")
        _check_writable(stem.with_suffix(".json"), "--out")
        _check_writable(journal, "--journal")
    if journal.exists():
        # soft_wrap: a path is printed whole, so it can be copied
        console.print(f"Going on from the games in {journal}.", highlight=False, soft_wrap=True)
    with (
        _progress() as progress,
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
            help="A JSONL file of games, plain or gzip-compressed (from simulate --out or "
            "play --save), or a saved state."
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
        line, record = find_record(file, game_number)
        try:
            game = record_game(record)
            perspective = None if seat is None else _seat_number(seat, game.num_players)
            told: list[str] = []

            def narrate(state: State, actor: int, item: Any) -> None:
                text = state.narrate(actor, item, perspective)
                if text:
                    told.append(("  " if actor == CHANCE else "") + text)

            # The whole record is checked before a line is told: a bad one gets its error alone.
            state = replay_record(record, None if quiet else narrate)
        except ReplayError as error:
            raise ReplayError(f"{file} line {line}: {error}") from None
    for text in told:
        console.print(text, markup=False)
    if state.is_terminal:
        _print_end(console, state, record.seats)
        status = "returns match the record" if record.returns else "the game is over"
    else:
        console.print()
        console.print(state.render(perspective), markup=False)
        status = "the game is not over"
    console.print(
        f"[green]Replayed {len(record.history)} events of game {record.game_id}: {status}.[/]"
    )


@app.command("analyze")
def analyze_command(
    game: GameArg,
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: the number of seats).")
    ] = None,
    option: OptionsArg = None,
    seats: Annotated[
        str | None,
        typer.Option(
            help="One bot per seat, comma-separated, rotated across games "
            "(default: the game's heuristic in every seat)."
        ),
    ] = None,
    games_count: Annotated[int, typer.Option("-n", "--games", help="Games per variant.")] = 1000,
    seed: Annotated[int, typer.Option(help="The same seed gives the same games.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write OUT.html (the report), OUT.json (every figure) and OUT-*.png "
            "(default: analysis-GAME in this folder)."
        ),
    ] = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            help="Compare with a variant: an option as name=value (repeatable), played on the "
            "same seeds, e.g. --compare target_score=40."
        ),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option(help="Draw every figure against an option's values: name=a,b,c."),
    ] = None,
    skill_games: Annotated[
        int,
        typer.Option(
            help="Games of the heuristic against random bots, and of random bots alone, for the "
            "skill-against-luck measure (0: none).",
            min=0,
        ),
    ] = 1000,
    skill_bots: Annotated[
        str,
        typer.Option(
            help="The strong and the weak bot of the skill measure, e.g. ismcts,heuristic."
        ),
    ] = "heuristic,random",
    workers: Annotated[int, typer.Option(help="Worker processes (or Ray CPUs).")] = 1,
    backend_name: BackendArg = "local",
    address: AddressArg = None,
) -> None:
    """A balance report: seat advantage, length, scores, comebacks, ties, safety caps, actions,
    skill against luck; variants compared on the same seeds."""
    from ..sim.analysis import Variant, analysis
    from ..sim.analysis_page import write_report
    from .analyze import print_analysis

    console = Console()
    with _clear_errors():
        the_game = _make_game(game, players, option)
        specs, count = _seats_for(
            game, seats, players or the_game.num_players, the_game.info.default_bot
        )
        if seats is None:
            specs = [the_game.info.default_bot] * count
        the_game = _make_game(game, count, option)
        for spec in specs:
            if spec.split(":")[0].lower() == "human":
                raise InvalidOptions("an analysis is played by bots, not by people")
        if games_count < 1:
            raise InvalidOptions(f"-n {games_count}: give 1 game or more")
        if compare and sweep:
            raise InvalidOptions("give --compare or --sweep, not both")
        base = dict(the_game.options)
        variants = [Variant("as given" if option else "default rules", base)]
        if compare:
            changed = parse_option_assignments(compare)
            variant = _make_game(game, count, [*(option or []), *compare])
            name = ", ".join(f"{key}={value}" for key, value in changed.items())
            variants.append(Variant(name, dict(variant.options)))
        swept = None
        if sweep:
            swept, _, values = sweep.partition("=")
            swept = swept.strip()
            choices = [value.strip() for value in values.split(",") if value.strip()]
            if not swept or len(choices) < 2:
                raise InvalidOptions(f"--sweep {sweep}: give name=a,b (two values or more)")
            variants = []
            for value in choices:
                variant = _make_game(game, count, [*(option or []), f"{swept}={value}"])
                variants.append(Variant(f"{swept}={value}", dict(variant.options)))
        pair = [bot.strip() for bot in skill_bots.split(",")]
        if len(pair) != 2 or not all(pair):
            raise InvalidOptions(f"--skill-bots {skill_bots}: give two bots, strong,weak")
        for spec in pair:
            make_agent(spec, the_game)
        prefix = out or Path(f"analysis-{game}")
        for suffix in (".json", ".html"):
            _check_writable(prefix.with_name(prefix.name + suffix), "--out")
        backend = make_backend(backend_name, workers, address)
    try:
        with _progress() as progress:

            def start(description: str, total: int) -> Callable[[int], None]:
                task = progress.add_task(description, total=total)
                return lambda k: progress.advance(task, k)

            with _clear_errors():
                document = analysis(
                    game,
                    count,
                    specs,
                    games_count,
                    variants,
                    seed,
                    backend,
                    skill_games,
                    swept,
                    start,
                    (pair[0], pair[1]),
                )
    except KeyboardInterrupt:
        console.print("Interrupted: no report written.")
        raise typer.Exit(130) from None
    finally:
        backend.close()
    print_analysis(console, document)
    with _clear_errors():
        written = write_report(document, prefix)
    console.print(
        "Written " + ", ".join(str(path) for path in written), soft_wrap=True, highlight=False
    )


@app.command("review")
def review_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="A JSONL file of games, plain or gzip-compressed (from simulate --out, "
            "play --save, or the server's /api/tables/TABLE/record)."
        ),
    ],
    game_number: Annotated[
        int | None,
        typer.Option("--game", help="The game_id to review (default: the first game in the file)."),
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(help="Review this seat, e.g. p0 (repeatable; default: every seat)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Write OUT.json and OUT.html (default: review-GAME-N in this folder)."),
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option(
            help=f"Search iterations per decision (default {DEFAULT_ITERATIONS}); the same "
            "seed and iterations give the same review."
        ),
    ] = None,
    seconds: Annotated[
        float | None, typer.Option(help="A time budget per decision instead of --iterations.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the searches.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes (default: every core).")] = 0,
) -> None:
    """Review a recorded game: each decision's loss and label, each draw's luck, per seat."""
    from ..sim.review import review_record
    from ..sim.review_page import has_matplotlib, write_review
    from .review import print_review

    console = Console()
    with _clear_errors():
        line, record = find_record(file, game_number)
        try:
            game = record_game(record)
            replay_record(
                record
            )  # checked whole before any search: a bad record gets its error alone
        except ReplayError as error:
            raise ReplayError(f"{file} line {line}: {error}") from None
        seats = sorted({_seat_number(text, game.num_players) for text in seat or []})
        if iterations is not None and seconds is not None:
            raise InvalidOptions("give --iterations or --seconds, not both")
        if seconds is not None and seconds <= 0:
            raise InvalidOptions(f"--seconds {seconds}: give a time above 0")
        if iterations is not None and iterations < PARTS:
            raise InvalidOptions(f"--iterations {iterations}: give at least {PARTS}")
        if workers < 0:
            raise InvalidOptions(f"--workers {workers}: give 1 or more, or 0 for every core")
        budget = Budget(iterations or DEFAULT_ITERATIONS, seconds or 0.0)
        prefix = out or Path(f"review-{record.game}-{record.game_id}")
        for suffix in (".json", ".html"):
            _check_writable(prefix.with_name(prefix.name + suffix), "--out")
    with _progress() as progress:
        task = progress.add_task(f"reviewing {record.game} game {record.game_id}", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        with _clear_errors():
            review = review_record(record, seats or None, budget, seed, workers or None, advance)
    print_review(console, review)
    with _clear_errors():
        json_path, html_path = write_review(review, prefix)
    console.print(f"Written {json_path} and {html_path}", soft_wrap=True, highlight=False)
    if not has_matplotlib():
        console.print(
            "The page has no graph: it needs Matplotlib (pip install 'courtly[review]').",
            highlight=False,
        )


@app.command("serve")
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
) -> None:
    """Serve Courtly online: tables for people and bots, over HTTP and WebSockets."""
    try:
        import uvicorn

        from .. import web
        from ..web import create_app
        from ..web.app import MAX_BODY
        from ..web.storage import default_database_url
    except ImportError as error:
        raise InvalidOptions(
            f"the server needs the web extra ({error.name} is missing): pip install 'courtly[web]'"
        ) from None
    url = database_url or default_database_url()
    with _clear_errors():
        try:
            application = create_app(
                url,
                bot_pace=bot_pace,
                bot_workers=bot_workers,
                hint_iterations=hint_iterations,
                review_iterations=review_iterations,
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
        ws_max_size=MAX_BODY,  # a WebSocket message is held to a request body's limit
    )


def _seat_number(text: str, players: int) -> int:
    from ..core.actions import parse_seat

    try:
        return parse_seat(text, players)
    except ValueError as error:
        raise InvalidOptions(f"--seat {error}") from None


def main() -> None:
    """Entry point of the ``courtly`` console script."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
