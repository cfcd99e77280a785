"""``courtly analyze``: a game's balance report (seat advantage, length, scores, comebacks, ties,
safety caps, actions, skill against luck), variants compared on the same seeds. The terminal
shows the figures a designer looks at first; the report holds them all, with plots."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from ..agents.registry import make_agent
from ..core.errors import InvalidOptions
from ..core.options import parse_option_assignments
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
    seats_for,
)


def analyze_command(
    game: GameArg,
    players: PlayersArg = None,
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
    # The analysis's own modules load when an analysis is asked for: the other commands start
    # without them.
    from ..sim.analysis import Variant, analysis
    from ..sim.analysis_page import write_report

    console = Console()
    with clear_errors():
        the_game = make_game(game, players, option)
        specs, count = seats_for(
            game, seats, players or the_game.num_players, the_game.info.default_bot
        )
        if seats is None:
            specs = [the_game.info.default_bot] * count
        the_game = make_game(game, count, option)
        for spec in specs:
            if is_human(spec):
                raise InvalidOptions("an analysis is played by bots, not by people")
        if games_count < 1:
            raise InvalidOptions(f"-n {games_count}: give 1 game or more")
        if compare and sweep:
            raise InvalidOptions("give --compare or --sweep, not both")
        base = dict(the_game.options)
        variants = [Variant("as given" if option else "default rules", base)]
        if compare:
            changed = parse_option_assignments(compare)
            variant = make_game(game, count, [*(option or []), *compare])
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
                variant = make_game(game, count, [*(option or []), f"{swept}={value}"])
                variants.append(Variant(f"{swept}={value}", dict(variant.options)))
        pair = [bot.strip() for bot in skill_bots.split(",")]
        if len(pair) != 2 or not all(pair):
            raise InvalidOptions(f"--skill-bots {skill_bots}: give two bots, strong,weak")
        for spec in pair:
            make_agent(spec, the_game)
        prefix = out or Path(f"analysis-{game}")
        for suffix in (".json", ".html"):
            check_writable(prefix.with_name(prefix.name + suffix), "--out")
        backend = make_backend(backend_name, workers, address)
    try:
        with progress_bar() as progress:

            def start(description: str, total: int) -> Callable[[int], None]:
                task = progress.add_task(description, total=total)
                return lambda k: progress.advance(task, k)

            with clear_errors():
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
    with clear_errors():
        written = write_report(document, prefix)
    console.print(
        "Written " + ", ".join(str(path) for path in written), soft_wrap=True, highlight=False
    )


def _percent(rate: dict[str, Any]) -> str:
    low, high = rate["ci95"]
    return f"{rate['rate']:.1%} ({low:.1%}–{high:.1%})"


def _signed(row: dict[str, Any]) -> str:
    scale, unit = (100.0, " pts") if row["kind"] == "proportion" else (1.0, "")
    low, high = row["ci95"]
    return f"{scale * row['difference']:+.2f}{unit} ({scale * low:+.2f} to {scale * high:+.2f})"


def _value(row: dict[str, Any], key: str) -> str:
    return f"{row[key]:.1%}" if row["kind"] == "proportion" else f"{row[key]:.2f}"


def print_analysis(console: Console, document: dict[str, Any]) -> None:
    """Each variant's seat win rates and headline figures, then the comparison and the skill."""
    table = Table(
        title=f"{document['game']}, {document['players']} players, {document['games']} games per "
        f"variant ({', '.join(document['seats'])}, rotated)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("figure")
    for variant in document["variants"]:
        table.add_column(variant["name"], justify="right")
    figures = [variant["figures"] for variant in document["variants"]]
    for seat in range(document["players"]):
        table.add_row(
            f"win rate p{seat}", *(_percent(f["win_rate_by_seat"][seat]) for f in figures)
        )
    table.add_row(
        "no seat advantage: p",
        *(f"{f['seat_advantage']['p_value']:.3g}" for f in figures),
    )
    for unit in figures[0]["length"]:
        table.add_row(
            f"length ({unit}), mean",
            *(f"{f['length'][unit]['mean']:.1f}" if unit in f["length"] else "–" for f in figures),
        )
    if figures[0]["scores"]:
        table.add_row(
            "margin, mean",
            *(f"{f['scores']['margin']['mean']:.1f}" if f["scores"] else "–" for f in figures),
        )
    table.add_row(
        "leader at mid-game wins",
        *(_percent(f["comebacks"]["leader_at_middle_wins"]) for f in figures),
    )
    table.add_row("shared wins", *(_percent(f["ties"]["shared_wins"]) for f in figures))
    table.add_row("ended at the safety cap", *(_percent(f["safety_cap"]) for f in figures))
    table.add_row(
        "games/s",
        *(f"{f['speed']['games_per_second']:.0f}" for f in figures),
    )
    console.print(table)
    if document["comparison"]:
        names = [variant["name"] for variant in document["variants"]]
        compared = Table(
            title=f"{names[1]} against {names[0]} (same seeds; 95% intervals)",
            title_justify="left",
            box=box.SIMPLE_HEAD,
        )
        for name, justify in (("figure", "left"), (names[0], "right"), (names[1], "right")):
            compared.add_column(name, justify=justify)  # type: ignore[arg-type]
        compared.add_column("difference", justify="right")
        for row in document["comparison"]:
            low, high = row["ci95"]
            mark = " *" if low > 0 or high < 0 else ""
            compared.add_row(row["figure"], _value(row, "a"), _value(row, "b"), _signed(row) + mark)
        console.print(compared)
        console.print("[dim]* the interval excludes 0: a difference beyond chance.[/]")
    skill = document["skill"]
    if skill:
        ratio = skill["skill_over_luck"]
        console.print(
            f"Skill against luck: {skill['strong']} wins "
            f"{_percent(skill['strong_win_rate'])} against {skill['weak']} "
            f"(a fair share is {skill['fair_share']:.0%}); the bot explains "
            f"{skill['eta_squared_skill']:.1%} of the variance of a seat's result, where luck "
            f"alone gives {skill['eta_squared_luck']:.2%}"
            + (f" ({ratio:.0f} times as much)." if ratio else "."),
            highlight=False,
        )
