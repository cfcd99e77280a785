"""``courtly review``: a recorded game's decisions judged by search, each with its loss and
label, each draw's luck, summed up per seat; the terminal shows the seats' summary and the
costliest decisions, the written page every decision."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..agents.estimates import DEFAULT_ITERATIONS, PARTS, Budget
from ..core.actions import seat_text
from ..core.errors import InvalidOptions, ReplayError
from ..core.records import find_record
from ..core.replays import record_game, replay_record
from .shared import check_writable, clear_errors, progress_bar, seat_number

if TYPE_CHECKING:
    from ..sim.review import GameReview

LABEL_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


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
    # The review's own modules load when a review is asked for: the other commands start
    # without them.
    from ..sim.review import review_record
    from ..sim.review_page import has_matplotlib, write_review

    console = Console()
    with clear_errors():
        line, record = find_record(file, game_number)
        try:
            game = record_game(record)
            replay_record(
                record
            )  # checked whole before any search: a bad record gets its error alone
        except ReplayError as error:
            raise ReplayError(f"{file} line {line}: {error}") from None
        seats = sorted({seat_number(text, game.num_players) for text in seat or []})
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
            check_writable(prefix.with_name(prefix.name + suffix), "--out")
    with progress_bar() as progress:
        task = progress.add_task(f"reviewing {record.game} game {record.game_id}", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        with clear_errors():
            review = review_record(record, seats or None, budget, seed, workers or None, advance)
    print_review(console, review)
    with clear_errors():
        json_path, html_path = write_review(review, prefix)
    console.print(f"Written {json_path} and {html_path}", soft_wrap=True, highlight=False)
    if not has_matplotlib():
        console.print(
            "The page has no graph: it needs Matplotlib (pip install 'courtly[review]').",
            highlight=False,
        )


def _points(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:+.1f}"


def print_review(console: Console, review: GameReview) -> None:
    """The summary per seat, then the decisions that cost the most."""
    from ..sim.review import LABEL_ORDER, worst_decisions

    record = review.record
    table = Table(
        title=f"Review of {record.game} game {record.game_id} ({len(record.history)} events)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),
        pad_edge=False,
    )
    # Narrow enough for 80 columns: errors as inaccuracies/mistakes/blunders in one column.
    for name, justify in (
        ("seat", "left"),
        ("agent", "left"),
        ("moves", "right"),
        ("accuracy", "right"),
        ("loss", "right"),
        ("i/m/b", "right"),
        ("luck", "right"),
        ("result", "right"),
        ("adjusted", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for seat in review.seats:
        summary = review.summaries[seat]
        table.add_row(
            seat_text(seat),
            summary.agent or "–",
            str(summary.decisions),
            "–" if summary.accuracy is None else f"{summary.accuracy:.1f}",
            _points(summary.mean_loss).lstrip("+"),
            "/".join(str(summary.errors[label]) for label in LABEL_ORDER),
            f"{_points(summary.luck)}±{100 * summary.luck_stderr:.0f}",
            "–" if summary.result is None else f"{summary.result:.2f}",
            "–" if summary.adjusted is None else f"{summary.adjusted:.2f}",
        )
    console.print(table)
    console.print(
        "[dim]Moves: decisions with a choice; loss: mean per move. Win chances in points (0-100), each from the "
        "seat's own view. Accuracy: lichess's formula, 100 = always the best choice. i/m/b: "
        "inaccuracies, mistakes, blunders (losses of 5, 10, 15 points or more). Luck: how far "
        "the draws moved the seat's win chance (± its noise); adjusted = result - luck "
        "(–: the luck's noise passes 20 points at this budget).[/]"
    )
    worst = worst_decisions(review)
    if not worst:
        console.print("No inaccuracy, mistake or blunder found.")
        return
    console.print("[bold]Costliest decisions[/] (event: seat chose -> better):")
    for decision in worst:
        style = LABEL_STYLES[decision.label or "inaccuracy"]
        console.print(
            f"  {decision.index + 1:>4}: {seat_text(decision.seat)} "
            f"{escape(decision.chosen.text)} ({decision.chosen.mean:.0%}) -> "
            f"{escape(decision.best.text)} ({decision.best.mean:.0%})  "
            f"[{style}]{decision.label}[/] (-{100 * decision.loss:.1f})",
            highlight=False,
        )
