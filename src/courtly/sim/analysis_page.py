"""``courtly analyze``'s report written out: ``PREFIX.json`` (the document, every figure),
``PREFIX-*.png`` (each plot, for a paper or a rule sheet) and ``PREFIX.html``, one page that
stands alone offline (the same plots embedded, no script, no file beside it).

The page opens with the findings a designer wants first (seat advantage, length, comebacks,
safety caps, skill against luck), then a section per figure; with two variants every section
shows both side by side and a table gives each difference with its 95% interval; with a sweep,
a grid of plots draws the headline figures against the option's values. Without Matplotlib
(the ``analysis`` extra) the page has its tables and says how to get the plots.
"""

from __future__ import annotations

import base64
import importlib.util
import io
import json
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ..core.registry import game_class

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

COLOURS: Final = ("#1f6fb4", "#d1495b", "#2e933c", "#8e5fb5", "#c17a00", "#00798c")
OWN_UNITS_LAST: Final = ("steps", "decisions", "seat turns")


def has_matplotlib() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def write_report(document: dict[str, Any], prefix: Path) -> list[Path]:
    """Write the JSON, the PNGs (with Matplotlib) and the HTML page; their paths."""
    written = []
    json_path = prefix.with_name(prefix.name + ".json")
    json_path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    written.append(json_path)
    plots: dict[str, bytes] = {}
    if has_matplotlib():
        plots = draw_plots(document)
        for name, png in plots.items():
            path = prefix.with_name(f"{prefix.name}-{name}.png")
            path.write_bytes(png)
            written.append(path)
    html_path = prefix.with_name(prefix.name + ".html")
    html_path.write_text(report_html(document, plots), encoding="utf-8")
    written.append(html_path)
    return written


# ----------------------------------------------------------------------------- words


def title_of(document: dict[str, Any]) -> str:
    try:
        return game_class(document["game"]).info.title
    except Exception:  # a game this version does not have: its id will do
        return str(document["game"])


def _pct(rate: dict[str, Any]) -> str:
    low, high = rate["ci95"]
    return f"{100 * rate['rate']:.0f}% ({100 * low:.0f}–{100 * high:.0f}%)"


def _median(dist: dict[str, Any]) -> str:
    return f"{dist['median']:g}"


def p_text(p: float) -> str:
    """A p-value as people read it: ``0.12``, ``1e-25``, and ``< 1e-300`` where it is too small
    for a float (the chi-square tail underflows to 0, which is not a probability anyone meant)."""
    return "< 1e-300" if p <= 0 else f"{p:.2g}"


def _p_is(p: float) -> str:
    """``= 0.12`` or ``< 1e-300``: what follows a p in a sentence."""
    text = p_text(p)
    return text if text.startswith("<") else f"= {text}"


def counted(value: float, unit: str) -> str:
    """``6 hands``, ``1 hand``: a game unit after its number."""
    return f"{value:g} {unit[:-1] if value == 1 and unit.endswith('s') else unit}"


def findings(document: dict[str, Any]) -> list[str]:
    """Two to five plain sentences on the first variant: what a designer wants to know first."""
    figures = document["variants"][0]["figures"]
    n = figures["players"]
    seats = figures["win_rate_by_seat"]
    test = figures["seat_advantage"]
    best = max(seats, key=lambda seat: seat["rate"])
    worst = min(seats, key=lambda seat: seat["rate"])
    if test["p_value"] < 0.05:
        seat_text = (
            f"The seats are not equal: {best['seat']} wins {_pct(best)} and {worst['seat']} "
            f"{_pct(worst)}, against a fair {100 / n:.0f}% "
            f"(chi-square p {_p_is(test['p_value'])})."
        )
    else:
        seat_text = (
            f"No evidence of a seat advantage: the seats win {100 * worst['rate']:.0f}% to "
            f"{100 * best['rate']:.0f}% against a fair {100 / n:.0f}% (chi-square p "
            f"{_p_is(test['p_value'])})."
        )
    sentences = [seat_text]
    length = figures["length"]
    own = [unit for unit in length if unit not in OWN_UNITS_LAST]
    extra = "".join(f", {counted(length[unit]['median'], unit)}" for unit in own)
    sentences.append(
        f"A game lasts {_median(length['decisions'])} decisions (median; 10% of games under "
        f"{length['decisions']['p10']:.0f}, 10% over {length['decisions']['p90']:.0f}){extra}."
    )
    leader = figures["comebacks"]["leader_at_middle_wins"]
    if leader["of"]:
        sentences.append(
            f"The leader at mid-game wins {_pct(leader)}; the lead changes "
            f"{figures['comebacks']['lead_changes']['mean']:.1f} times a game on average."
        )
    cap = figures["safety_cap"]
    if cap["count"]:
        sentences.append(f"{_pct(cap)} of games ended at the safety cap rather than by the rules.")
    skill = document.get("skill")
    if skill:
        ratio = skill["skill_over_luck"]
        sentences.append(
            f"Skill matters: {skill['strong']} wins {_pct(skill['strong_win_rate'])} against "
            f"{skill['weak']} bots (fair share {100 * skill['fair_share']:.0f}%); which bot plays "
            f"a seat explains {100 * skill['eta_squared_skill']:.0f}% of the variance of its "
            f"result, luck alone {100 * skill['eta_squared_luck']:.1f}%"
            + (f" ({ratio:.0f} times less)." if ratio else ".")
        )
    return sentences


def command_of(document: dict[str, Any]) -> str:
    """The ``courtly analyze`` command that makes this document again."""
    variants = document["variants"]
    base = variants[0]["options"]
    parts = ["courtly analyze", document["game"], "--players", str(document["players"])]
    seats = document["seats"]
    default = game_class(document["game"]).info.default_bot if document["game"] else ""
    if any(seat != default for seat in seats):
        parts += ["--seats", ",".join(seats)]
    try:
        defaults = dict(game_class(document["game"])(players=document["players"]).options)
    except Exception:
        defaults = {}
    sweep = document.get("sweep")
    for name, value in base.items():
        if defaults.get(name) != value and not (sweep and name == sweep["option"]):
            parts += ["-o", f"{name}={value}"]
    if sweep:
        parts += ["--sweep", f"{sweep['option']}=" + ",".join(str(v) for v in sweep["values"])]
    elif len(variants) == 2:
        for name, value in variants[1]["options"].items():
            if base.get(name) != value:
                parts += ["--compare", f"{name}={value}"]
    parts += ["-n", str(document["games"]), "--seed", str(document["seed"])]
    skill = document.get("skill")
    parts += ["--skill-games", str(skill["games"] if skill else 0)]
    return " ".join(parts)


# ----------------------------------------------------------------------------- plots


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=150, layout="constrained")


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def _names(document: dict[str, Any]) -> list[str]:
    return [variant["name"] for variant in document["variants"]]


def draw_plots(document: dict[str, Any]) -> dict[str, bytes]:
    """Every plot of the report as PNG bytes, by name."""
    plots = {"seats": _seats_plot(document), "length": _length_plot(document)}
    if all(variant["figures"]["scores"] for variant in document["variants"]):
        plots["scores"] = _scores_plot(document)
    plots["comebacks"] = _comebacks_plot(document)
    plots["actions"] = _actions_plot(document)
    if document.get("skill"):
        plots["skill"] = _skill_plot(document)
    if document.get("sweep"):
        plots["sweep"] = _sweep_plot(document)
    return plots


def _subtitle(document: dict[str, Any]) -> str:
    return f"{title_of(document)}, {document['players']} players, {document['games']:,} games" + (
        "" if len(document["variants"]) > 1 else f" ({document['variants'][0]['name']})"
    )


def _seats_plot(document: dict[str, Any]) -> bytes:
    figure = _figure(7, 3.2)
    axes = figure.add_subplot()
    variants = document["variants"]
    players = document["players"]
    width = 0.8 / len(variants)
    for v, variant in enumerate(variants):
        seats = variant["figures"]["win_rate_by_seat"]
        xs = [s + (v - (len(variants) - 1) / 2) * width for s in range(players)]
        rates = [100 * seat["rate"] for seat in seats]
        below = [100 * (seat["rate"] - seat["ci95"][0]) for seat in seats]
        above = [100 * (seat["ci95"][1] - seat["rate"]) for seat in seats]
        axes.bar(
            xs,
            rates,
            width,
            yerr=[below, above],
            capsize=3,
            color=COLOURS[v % len(COLOURS)],
            label=variant["name"],
        )
    axes.axhline(100 / players, color="#555", linestyle="--", linewidth=1, label="fair share")
    axes.set_xticks(range(players), [f"p{s}" for s in range(players)])
    axes.set_ylabel("win rate (%), 95% interval")
    axes.set_title(f"Win rate by seat: {_subtitle(document)}", fontsize="medium")
    axes.legend(fontsize="small")
    return _png(figure)


def _histogram(axes: Axes, dist: dict[str, Any], colour: str, label: str) -> None:
    values = [value for value, _ in dist["histogram"]]
    counts = [count for _, count in dist["histogram"]]
    total = sum(counts) or 1
    if not values:
        return
    distinct = len(values)
    if distinct <= 40:
        axes.bar(
            values,
            [100 * c / total for c in counts],
            width=0.8 if distinct > 1 else 0.5,
            color=colour,
            alpha=0.55,
            label=label,
        )
        return
    # Many values: 40 bins over the range, drawn as a step outline.
    low, high = min(values), max(values)
    step = (high - low) / 40 or 1
    bins = [0.0] * 41
    for value, count in zip(values, counts, strict=True):
        bins[min(40, int((value - low) / step))] += count
    edges = [low + i * step for i in range(41)]
    axes.step(edges, [100 * b / total for b in bins], where="post", color=colour, label=label)


def _grid(count: int) -> tuple[int, int]:
    columns = min(3, count)
    return (count + columns - 1) // columns, columns


def _length_plot(document: dict[str, Any]) -> bytes:
    units = list(document["variants"][0]["figures"]["length"])
    rows, columns = _grid(len(units))
    figure = _figure(3.3 * columns, 2.4 * rows + 0.4)
    figure.suptitle(f"Game length: {_subtitle(document)}", fontsize="medium")
    for i, unit in enumerate(units):
        axes = figure.add_subplot(rows, columns, i + 1)
        for v, variant in enumerate(document["variants"]):
            dist = variant["figures"]["length"].get(unit)
            if dist:
                _histogram(axes, dist, COLOURS[v % len(COLOURS)], variant["name"])
        axes.set_xlabel(unit)
        axes.set_ylabel("% of games")
        if i == 0 and len(document["variants"]) > 1:
            axes.legend(fontsize="x-small")
    return _png(figure)


def _scores_plot(document: dict[str, Any]) -> bytes:
    figure = _figure(7, 2.8)
    figure.suptitle(f"Scores: {_subtitle(document)}", fontsize="medium")
    for i, (key, label) in enumerate(
        (("winner", "winner's score"), ("margin", "margin over the runner-up"))
    ):
        axes = figure.add_subplot(1, 2, i + 1)
        for v, variant in enumerate(document["variants"]):
            _histogram(
                axes, variant["figures"]["scores"][key], COLOURS[v % len(COLOURS)], variant["name"]
            )
        axes.set_xlabel(label)
        axes.set_ylabel("% of games")
        if i == 0 and len(document["variants"]) > 1:
            axes.legend(fontsize="x-small")
    return _png(figure)


def _comebacks_plot(document: dict[str, Any]) -> bytes:
    figure = _figure(7, 2.8)
    figure.suptitle(f"Comebacks: {_subtitle(document)}", fontsize="medium")
    left = figure.add_subplot(1, 2, 1)
    variants = document["variants"]
    for v, variant in enumerate(variants):
        rate = variant["figures"]["comebacks"]["leader_at_middle_wins"]
        left.bar(
            v,
            100 * rate["rate"],
            yerr=[
                [100 * (rate["rate"] - rate["ci95"][0])],
                [100 * (rate["ci95"][1] - rate["rate"])],
            ],
            capsize=3,
            color=COLOURS[v % len(COLOURS)],
        )
    left.set_xticks(
        range(len(variants)), [variant["name"] for variant in variants], fontsize="x-small"
    )
    left.set_ylim(0, 100)
    left.set_ylabel("mid-game leader wins (%)")
    right = figure.add_subplot(1, 2, 2)
    for v, variant in enumerate(variants):
        _histogram(
            right,
            variant["figures"]["comebacks"]["lead_changes"],
            COLOURS[v % len(COLOURS)],
            variant["name"],
        )
    right.set_xlabel("lead changes in a game")
    right.set_ylabel("% of games")
    return _png(figure)


def _actions_plot(document: dict[str, Any]) -> bytes:
    rows = [
        (f"{agent}" + (f" · {variant['name']}" if len(document["variants"]) > 1 else ""), kinds)
        for variant in document["variants"]
        for agent, kinds in variant["figures"]["actions"].items()
    ]
    kinds_all: list[str] = []
    for _, kinds in rows:
        kinds_all.extend(kind for kind in kinds if kind not in kinds_all)
    columns = min(6, max(1, len(kinds_all)))
    legend_rows = -(-len(kinds_all) // columns)
    # The legend goes under the bars, in rows of six kinds: as many kinds as a game has.
    figure = _figure(7, 0.5 * len(rows) + 1.6 + 0.25 * legend_rows)
    axes = figure.add_subplot()
    from matplotlib import colormaps

    palette = colormaps["tab20"]
    for r, (_, kinds) in enumerate(rows):
        left = 0.0
        for k, kind in enumerate(kinds_all):
            share = 100 * kinds.get(kind, {"share": 0.0})["share"]
            if share:
                axes.barh(
                    r,
                    share,
                    left=left,
                    color=palette(k % 20),
                    label=kind if r == 0 or kind not in rows[0][1] else None,
                )
                left += share
    axes.set_yticks(range(len(rows)), [name for name, _ in rows], fontsize="small")
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of the bot's decisions (%)")
    axes.set_title(f"Actions chosen, by kind: {_subtitle(document)}", fontsize="medium")
    handles, labels = axes.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    figure.legend(
        unique.values(),
        unique.keys(),
        fontsize="x-small",
        loc="outside lower center",
        ncols=columns,
    )
    return _png(figure)


def _skill_plot(document: dict[str, Any]) -> bytes:
    skill = document["skill"]
    figure = _figure(7, 2.6)
    figure.suptitle(
        f"Skill against luck: {title_of(document)}, {document['players']} players, {skill['games']:,} games each",
        fontsize="medium",
    )
    left = figure.add_subplot(1, 2, 1)
    for i, (key, _label) in enumerate(
        (("strong_win_rate", skill["strong"]), ("placebo_win_rate", skill["weak"]))
    ):
        rate = skill[key]
        left.bar(
            i,
            100 * rate["rate"],
            yerr=[
                [100 * (rate["rate"] - rate["ci95"][0])],
                [100 * (rate["ci95"][1] - rate["rate"])],
            ],
            capsize=3,
            color=COLOURS[i],
        )
    left.axhline(100 * skill["fair_share"], color="#555", linestyle="--", linewidth=1)
    left.set_xticks(
        [0, 1],
        [f"{skill['strong']}\nv {skill['weak']}", f"{skill['weak']}\nv {skill['weak']}"],
        fontsize="x-small",
    )
    left.set_ylabel("first bot's win rate (%)")
    right = figure.add_subplot(1, 2, 2)
    right.bar(
        [0, 1],
        [100 * skill["eta_squared_skill"], 100 * skill["eta_squared_luck"]],
        color=COLOURS[:2],
    )
    right.set_xticks(
        [0, 1], ["skill\n(strong v weak)", "luck alone\n(weak v weak)"], fontsize="x-small"
    )
    right.set_ylabel("variance explained by the bot (%)")
    return _png(figure)


SWEPT: Final[tuple[tuple[str, str, Callable[[dict[str, Any]], dict[str, Any] | None]], ...]] = (
    ("decisions", "mean decisions", lambda f: f["length"]["decisions"]),
    ("margin", "mean margin", lambda f: f["scores"]["margin"] if f["scores"] else None),
    ("leader", "mid-game leader wins (%)", lambda f: f["comebacks"]["leader_at_middle_wins"]),
    ("cap", "ended at the safety cap (%)", lambda f: f["safety_cap"]),
    ("shared", "shared wins (%)", lambda f: f["ties"]["shared_wins"]),
)


def _point(found: dict[str, Any]) -> tuple[float, float, float]:
    """A figure as (value, low, high): a rate in percent, or a mean."""
    if "rate" in found:
        return 100 * found["rate"], 100 * found["ci95"][0], 100 * found["ci95"][1]
    return found["mean"], found["ci95"][0], found["ci95"][1]


def _sweep_plot(document: dict[str, Any]) -> bytes:
    sweep = document["sweep"]
    values = [str(value) for value in sweep["values"]]
    figures = [variant["figures"] for variant in document["variants"]]
    panels = 1 + sum(1 for _, _, pick in SWEPT if all(pick(f) for f in figures))
    rows, columns = _grid(panels)
    figure = _figure(3.3 * columns, 2.5 * rows + 0.4)
    figure.suptitle(f"Against {sweep['option']}: {_subtitle(document)}", fontsize="medium")
    axes = figure.add_subplot(rows, columns, 1)
    for seat in range(document["players"]):
        points = [_point(f["win_rate_by_seat"][seat]) for f in figures]
        _error_line(axes, values, points, COLOURS[seat % len(COLOURS)], f"p{seat}")
    axes.axhline(100 / document["players"], color="#555", linestyle="--", linewidth=1)
    axes.set_ylabel("win rate (%)")
    axes.legend(fontsize="x-small")
    axes.set_xlabel(sweep["option"])
    panel = 1
    for _, label, pick in SWEPT:
        picked = [pick(f) for f in figures]
        if not all(picked):
            continue
        panel += 1
        axes = figure.add_subplot(rows, columns, panel)
        _error_line(axes, values, [_point(p) for p in picked if p], COLOURS[0], None)
        axes.set_ylabel(label)
        axes.set_xlabel(sweep["option"])
    return _png(figure)


def _error_line(
    axes: Axes,
    values: Sequence[str],
    points: Sequence[tuple[float, float, float]],
    colour: str,
    label: str | None,
) -> None:
    ys = [y for y, _, _ in points]
    axes.errorbar(
        range(len(values)),
        ys,
        yerr=[[y - low for y, low, _ in points], [high - y for y, _, high in points]],
        color=colour,
        marker="o",
        capsize=3,
        label=label,
    )
    axes.set_xticks(range(len(values)), values)


# ----------------------------------------------------------------------------- the page


STYLE: Final = """
:root { color-scheme: light dark; --muted: #666; --line: #ddd; --mark: #fff4d6; }
@media (prefers-color-scheme: dark) { :root { --muted: #aaa; --line: #444; --mark: #4a3b12; } }
body { font: 15px/1.5 system-ui, sans-serif; margin: 2em auto; max-width: 62em; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
table { border-collapse: collapse; margin: 0.8em 0; display: block; overflow-x: auto; }
th, td { border-bottom: 1px solid var(--line); padding: 0.25em 0.7em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.beyond td { background: var(--mark); }
img { max-width: 100%; height: auto; background: #fff; border-radius: 4px; }
.note, .facts { color: var(--muted); font-size: 0.92em; }
code { font-size: 0.9em; overflow-wrap: anywhere; }
ul.findings li { margin: 0.3em 0; }
"""


def report_html(document: dict[str, Any], plots: dict[str, bytes]) -> str:
    """The whole page, self-contained."""
    title = f"Balance report: {title_of(document)}, {document['players']} players"
    variants = document["variants"]
    names = _names(document)
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="facts">{document["games"]:,} games per variant ({escape(", ".join(names))}); '
        f"seats {escape(', '.join(document['seats']))}, rotated through the seats; seed "
        f"{document['seed']}. Made again by: <code>{escape(command_of(document))}</code></p>",
    ]
    if not plots:
        out.append(
            '<p class="note">The plots need Matplotlib: pip install "courtly[analysis]", then '
            "run the analysis again.</p>"
        )
    out.append("<h2>Findings</h2><ul class=findings>")
    out.extend(f"<li>{escape(sentence)}</li>" for sentence in findings(document))
    out.append("</ul>")
    if len(variants) > 1 and len(variants) == 2 and document.get("comparison"):
        out.append(f"<h3>{escape(names[1])} against {escape(names[0])}</h3>")
        out.append(_comparison_table(document))
    out.append(_image(plots, "sweep", "Each headline figure against the swept option"))
    if document.get("sweep"):
        out.append(_sweep_table(document))

    out.append("<h2>Win rate by seat</h2>")
    out.append(_image(plots, "seats", "Win rate by seat with 95% intervals"))
    out.append(
        _table(
            ["seat", *names],
            [
                [f"p{s}", *(_pct(v["figures"]["win_rate_by_seat"][s]) for v in variants)]
                for s in range(document["players"])
            ]
            + [
                [
                    "no seat advantage (chi-square p)",
                    *(f"{v['figures']['seat_advantage']['p_value']:.3g}" for v in variants),
                ]
            ],
        )
    )
    agents = sorted({agent for v in variants for agent in v["figures"]["win_rate_by_agent"]})
    if len(agents) > 1:
        out.append(
            _table(
                ["agent (per seat it plays)", *names],
                [
                    [
                        agent,
                        *(
                            _pct(v["figures"]["win_rate_by_agent"][agent])
                            if agent in v["figures"]["win_rate_by_agent"]
                            else "–"
                            for v in variants
                        ),
                    ]
                    for agent in agents
                ],
            )
        )

    out.append("<h2>Length</h2>")
    out.append(_image(plots, "length", "Distributions of game length"))
    rows = []
    for unit in variants[0]["figures"]["length"]:
        for v in variants:
            dist = v["figures"]["length"].get(unit)
            if dist:
                low, high = dist["ci95"]
                rows.append(
                    [
                        unit + (f" · {v['name']}" if len(variants) > 1 else ""),
                        f"{dist['mean']:.1f} ({low:.1f}–{high:.1f})",
                        f"{dist['sd']:.1f}",
                        f"{dist['min']:g}",
                        f"{dist['p10']:g}",
                        f"{dist['median']:g}",
                        f"{dist['p90']:g}",
                        f"{dist['max']:g}",
                    ]
                )
    out.append(_table(["unit", "mean (95%)", "sd", "min", "10%", "median", "90%", "max"], rows))
    out.append(
        '<p class="note">Steps count chance events and decisions; turns are runs of decisions by '
        "one seat; the other units are the game's own.</p>"
    )

    out.append("<h2>Scores and margins</h2>")
    if all(v["figures"]["scores"] for v in variants):
        out.append(_image(plots, "scores", "The winner's score and the margin over the runner-up"))
        out.append(
            _table(
                ["figure", *names],
                [
                    [
                        label,
                        *(_mean_and_median(v["figures"]["scores"][key]) for v in variants),
                    ]
                    for key, label in (
                        ("winner", "winner's score"),
                        ("margin", "margin over the runner-up"),
                    )
                ],
            )
        )
    else:
        out.append("<p>This game keeps no points: a game is won, not scored.</p>")

    out.append("<h2>Comebacks</h2>")
    out.append(_image(plots, "comebacks", "How often the mid-game leader wins, and lead changes"))
    comebacks = [v["figures"]["comebacks"] for v in variants]
    out.append(
        _table(
            ["figure", *names],
            [
                ["leader at mid-game wins", *(_pct(c["leader_at_middle_wins"]) for c in comebacks)],
                ["comeback (the mid-game leader loses)", *(_pct(c["comeback"]) for c in comebacks)],
                [
                    "lead changes per game, mean",
                    *(f"{c['lead_changes']['mean']:.2f}" for c in comebacks),
                ],
            ],
        )
    )
    out.append(
        f'<p class="note">The leader is {escape(comebacks[0]["leader"])}, measured at every '
        "twentieth of a game; games with a tie for the lead at mid-game are left out of the "
        "first two rows.</p>"
    )

    out.append("<h2>Ties, draws and safety caps</h2>")
    out.append(
        _table(
            ["figure", *names],
            [
                [
                    "shared wins (ties)",
                    *(_pct(v["figures"]["ties"]["shared_wins"]) for v in variants),
                ],
                [
                    "draws (every seat shares)",
                    *(_pct(v["figures"]["ties"]["draws"]) for v in variants),
                ],
                ["ended at the safety cap", *(_pct(v["figures"]["safety_cap"]) for v in variants)],
            ],
        )
    )

    out.append("<h2>Actions</h2>")
    out.append(_image(plots, "actions", "How often each kind of action is chosen, by bot"))
    for v in variants:
        for agent, kinds in v["figures"]["actions"].items():
            label = agent + (f" · {v['name']}" if len(variants) > 1 else "")
            out.append(
                _table(
                    [label, "chosen", "share"],
                    [
                        [kind, f"{k['count']:,}", f"{100 * k['share']:.1f}%"]
                        for kind, k in kinds.items()
                    ],
                )
            )

    skill = document.get("skill")
    if skill:
        out.append("<h2>Skill against luck</h2>")
        out.append(_image(plots, "skill", "Skill against luck"))
        out.append(
            _table(
                ["figure", "value"],
                [
                    [
                        f"{skill['strong']} (one seat) against {skill['weak']}: its win rate",
                        _pct(skill["strong_win_rate"]),
                    ],
                    ["fair share", f"{100 * skill['fair_share']:.0f}%"],
                    [
                        f"{skill['weak']} alone: the same seat's win rate",
                        _pct(skill["placebo_win_rate"]),
                    ],
                    [
                        "variance explained by the bot (η², skill)",
                        f"{100 * skill['eta_squared_skill']:.1f}%",
                    ],
                    [
                        "the same among equal bots (η², luck alone)",
                        f"{100 * skill['eta_squared_luck']:.2f}%",
                    ],
                    [
                        "a seat's result, standard deviation among equal bots",
                        f"{skill['luck_sd']:.3f}",
                    ],
                ],
            )
        )
        out.append(f'<p class="note">Method: {escape(skill["method"])}.</p>')

    out.append("<h2>Speed</h2>")
    out.append(
        _table(
            ["variant", "games/s", "seconds", "backend", "workers"],
            [
                [
                    v["name"],
                    f"{(v['figures']['speed']['games_per_second'] or 0):.1f}",
                    f"{v['figures']['speed']['seconds']:.1f}",
                    v["figures"]["speed"]["backend"],
                    str(v["figures"]["speed"]["workers"]),
                ]
                for v in variants
            ],
        )
    )
    out.append("</body></html>")
    return "\n".join(part for part in out if part) + "\n"


def _mean_and_median(dist: dict[str, Any]) -> str:
    return f"{dist['mean']:.1f} (median {dist['median']:g})"


def _image(plots: dict[str, bytes], name: str, alt: str) -> str:
    png = plots.get(name)
    if png is None:
        return ""
    data = base64.b64encode(png).decode("ascii")
    return f'<p><img alt="{escape(alt)}" src="data:image/png;base64,{data}"></p>'


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _comparison_table(document: dict[str, Any]) -> str:
    names = _names(document)
    rows = []
    for row in document["comparison"]:
        low, high = row["ci95"]
        if row["kind"] == "proportion":
            a, b = f"{100 * row['a']:.1f}%", f"{100 * row['b']:.1f}%"
            diff = f"{100 * row['difference']:+.1f} pts ({100 * low:+.1f} to {100 * high:+.1f})"
        else:
            a, b = f"{row['a']:.2f}", f"{row['b']:.2f}"
            diff = f"{row['difference']:+.2f} ({low:+.2f} to {high:+.2f})"
        beyond = low > 0 or high < 0
        cells = "".join(
            f"<td>{escape(c)}</td>" for c in (row["figure"], a, b, diff + (" *" if beyond else ""))
        )
        rows.append(f'<tr class="{"beyond" if beyond else ""}">{cells}</tr>')
    head = "".join(
        f"<th>{escape(c)}</th>" for c in ("figure", names[0], names[1], "difference (95% interval)")
    )
    return (
        f"<table><tr>{head}</tr>{''.join(rows)}</table>"
        '<p class="note">Played on the same seeds. * and shaded: the interval excludes 0, a '
        "difference beyond chance. Proportions: Newcombe's interval, in percentage points; "
        "means: Welch's.</p>"
    )


def _sweep_table(document: dict[str, Any]) -> str:
    sweep = document["sweep"]
    header = [
        sweep["option"],
        *(f"win p{s}" for s in range(document["players"])),
        "decisions",
        "leader wins",
        "safety cap",
        "shared wins",
    ]
    rows = []
    for value, variant in zip(sweep["values"], document["variants"], strict=True):
        f = variant["figures"]
        rows.append(
            [
                str(value),
                *(f"{100 * seat['rate']:.1f}%" for seat in f["win_rate_by_seat"]),
                f"{f['length']['decisions']['mean']:.1f}",
                f"{100 * f['comebacks']['leader_at_middle_wins']['rate']:.0f}%",
                f"{100 * f['safety_cap']['rate']:.1f}%",
                f"{100 * f['ties']['shared_wins']['rate']:.1f}%",
            ]
        )
    return _table(header, rows)
