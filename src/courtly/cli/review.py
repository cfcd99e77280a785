"""``courtly review``'s words in the terminal: the seats' summary table and the costliest
decisions (the figures themselves come from :mod:`courtly.sim.review`)."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.actions import seat_text
from ..sim.review import LABEL_ORDER, GameReview, worst_decisions

LABEL_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def _points(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:+.1f}"


def print_review(console: Console, review: GameReview) -> None:
    """The summary per seat, then the decisions that cost the most."""
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
