"""A review written out: ``PREFIX.json`` (every figure) and ``PREFIX.html``, a page that stands
alone (no script, no file beside it): each seat's win chance over the game drawn by Matplotlib
and embedded as a PNG, the seats' summaries, and every decision with its label and every chance
step with its luck.

Matplotlib is an optional extra (``pip install 'courtly[review]'``), imported only here and only
when a page is drawn: without it the page is written without its graph, and says how to get it.
"""

from __future__ import annotations

import base64
import io
import json
from html import escape
from pathlib import Path
from typing import Final

from ..core.actions import seat_text
from ..core.registry import game_class
from .review import LABEL_ORDER, LABELS, GameReview, SeatSummary

LABEL_COLOURS: Final = {"inaccuracy": "#d4a017", "mistake": "#e8731a", "blunder": "#c0392b"}
SEAT_COLOURS: Final = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b")


def write_review(review: GameReview, prefix: Path) -> tuple[Path, Path]:
    """Write ``PREFIX.json`` and ``PREFIX.html``; their paths."""
    json_path = prefix.with_name(prefix.name + ".json")
    html_path = prefix.with_name(prefix.name + ".html")
    json_path.write_text(json.dumps(review.to_dict(), indent=1) + "\n", encoding="utf-8")
    html_path.write_text(review_html(review), encoding="utf-8")
    return json_path, html_path


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def win_chance_png(review: GameReview) -> bytes | None:
    """The graph of each reviewed seat's win chance over the game, as PNG bytes (None without
    Matplotlib). Labelled decisions are marked in their label's colour."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return None
    figure = Figure(figsize=(9, 3.6), dpi=100, layout="constrained")
    axes = figure.add_subplot()
    for seat, points in review.curves.items():
        if not points:
            continue
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        xs = [index for index, _ in points]
        ys = [100 * value for _, value in points]
        agent = review.summaries[seat].agent
        name = f"{seat_text(seat)} ({agent})" if agent else seat_text(seat)
        axes.plot(xs, ys, color=colour, linewidth=1.6, label=name)
        for label in LABEL_ORDER:
            marked = [
                (d.index, 100 * d.best.mean)
                for d in review.decisions
                if d.seat == seat and d.label == label
            ]
            if marked:
                axes.scatter(
                    [x for x, _ in marked],
                    [y for _, y in marked],
                    color=LABEL_COLOURS[label],
                    edgecolor=colour,
                    zorder=3,
                    s=36,
                )
    axes.set_ylim(0, 100)
    axes.set_xlim(left=0)
    axes.set_xlabel("events into the game")
    axes.set_ylabel("win chance (%)")
    axes.grid(alpha=0.3)
    axes.legend(loc="upper left", fontsize="small")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def _percent(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{100 * value:.{digits}f}%"


def _points(value: float | None) -> str:
    """A difference of win chance in points: ``+12.3``."""
    return "–" if value is None else f"{100 * value:+.1f}"


def _summary_row(summary: SeatSummary) -> str:
    errors = " / ".join(str(summary.errors[label]) for label in LABEL_ORDER)
    accuracy = "–" if summary.accuracy is None else f"{summary.accuracy:.1f}"
    cells = [
        seat_text(summary.seat),
        summary.agent or "–",
        str(summary.decisions),
        accuracy,
        _points(summary.mean_loss).lstrip("+"),
        errors,
        f"{_points(summary.luck)} ± {100 * summary.luck_stderr:.1f}",
        _percent(summary.result),
        _percent(summary.adjusted),
    ]
    return "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>"


STYLE: Final = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em;
       color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.7em; text-align: left; }
td.number, th.number { text-align: right; }
tr.inaccuracy td.label { color: #9a7400; font-weight: bold; }
tr.mistake td.label { color: #c25a0c; font-weight: bold; }
tr.blunder td.label { color: #a02a1f; font-weight: bold; }
img { max-width: 100%; }
.note { color: #666; font-size: 0.9em; }
details summary { cursor: pointer; color: #555; }
"""


def review_html(review: GameReview) -> str:
    """The whole page, self-contained."""
    record = review.record
    try:
        title = game_class(record.game).info.title
    except Exception:  # a game this version no longer has: its id will do
        title = record.game
    heading = f"Review of {title}, game {record.game_id}"
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(heading)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        f"<p>{escape(_facts(review))}</p>",
    ]
    png = win_chance_png(review)
    if png is not None:
        data = base64.b64encode(png).decode("ascii")
        parts.append(
            f'<img alt="Each seat\'s win chance over the game" src="data:image/png;base64,{data}">'
        )
    else:
        parts.append(
            '<p class="note">The graph needs Matplotlib: pip install "courtly[review]", '
            "then review again.</p>"
        )
    parts.append("<h2>Seats</h2><table><tr>")
    headers = (
        "seat",
        "agent",
        "decisions",
        "accuracy",
        "mean loss (points)",
        "inaccuracies / mistakes / blunders",
        "luck (points)",
        "result",
        "luck-adjusted",
    )
    parts.extend(f"<th>{escape(h)}</th>" for h in headers)
    parts.append("</tr>")
    parts.extend(_summary_row(review.summaries[seat]) for seat in review.seats)
    parts.append("</table>")
    thresholds = ", ".join(f"{name} ≥ {100 * threshold:.0f}" for name, threshold in LABELS[::-1])
    parts.append(
        '<p class="note">Win chances are estimated from each seat\'s own view by search '
        "(Courtly's ISMCTS over the worlds that seat could not tell apart). The loss of a "
        "decision is the best action's win chance minus the chosen one's, in points; labels: "
        f"{escape(thresholds)} points, when the loss exceeds its noise. Accuracy follows "
        "lichess's formula per decision. Luck is how far each chance step moved a seat's win "
        "chance; the luck-adjusted result is the result minus the luck (not given when the "
        "luck's noise passes 20 points: a larger budget measures it).</p>"
    )
    parts.append(_decisions_table(review))
    parts.append(_chance_table(review))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _facts(review: GameReview) -> str:
    record = review.record
    seats = ", ".join(
        f"{seat_text(s)} {record.seats[s]}" if s < len(record.seats) else seat_text(s)
        for s in range(record.players)
    )
    if record.returns:
        winners = [seat_text(s) for s, value in enumerate(record.returns) if value > 0]
        result = "won by " + " and ".join(winners) if winners else "nobody won"
    else:
        result = "not finished"
    budget = review.budget
    spent = (
        f"{budget.seconds:g} s" if budget.seconds > 0 else f"{budget.iterations} iterations"
    ) + " per decision"
    return (
        f"{record.players} players ({seats}); {len(record.history)} events; {result}. "
        f"Reviewed for {', '.join(seat_text(s) for s in review.seats)} at {spent}, "
        f"review seed {review.seed}."
    )


def _decisions_table(review: GameReview) -> str:
    rows = [
        "<h2>Decisions</h2><table><tr><th class=number>event</th><th>seat</th><th>chosen</th>"
        "<th class=number>win chance</th><th>best</th><th class=number>win chance</th>"
        "<th class=number>loss</th><th>label</th><th>every choice</th></tr>"
    ]
    for d in review.decisions:
        every = "; ".join(
            f"{a.text} {_percent(a.mean)} ({_percent(a.low)}–{_percent(a.high)}, {a.visits})"
            for a in d.actions
        )
        best = "=" if d.best is d.chosen else escape(d.best.text)
        rows.append(
            f'<tr class="{d.label or ""}"><td class=number>{d.index + 1}</td>'
            f"<td>{seat_text(d.seat)}</td><td>{escape(d.chosen.text)}</td>"
            f"<td class=number>{_percent(d.chosen.mean)}</td><td>{best}</td>"
            f"<td class=number>{_percent(d.best.mean)}</td>"
            f"<td class=number>{100 * d.loss:.1f}</td>"
            f'<td class="label">{d.label or ""}</td>'
            f"<td><details><summary>{len(d.actions)}</summary>{escape(every)}</details></td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _chance_table(review: GameReview) -> str:
    seats = review.seats
    header = "".join(f"<th class=number>luck {seat_text(s)}</th>" for s in seats)
    rows = [f"<h2>Chance</h2><table><tr><th class=number>events</th><th>outcomes</th>{header}</tr>"]
    for step in review.chance:
        if not step.luck:
            continue
        span = (
            str(step.first + 1) if step.first == step.last else f"{step.first + 1}–{step.last + 1}"
        )
        shown = " ".join(step.outcomes)
        if len(shown) > 80:
            shown = shown[:77] + "…"
        cells = "".join(
            f"<td class=number>{_points(step.luck.get(s)) if s in step.luck else ''}</td>"
            for s in seats
        )
        rows.append(f"<tr><td class=number>{span}</td><td>{escape(shown)}</td>{cells}</tr>")
    rows.append("</table>")
    return "\n".join(rows)
