"""``courtly analyze``'s words in the terminal: the figures a designer looks at first (the
report holds them all, with plots)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table


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
