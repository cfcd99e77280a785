"""King's Court that ends: the variants KC-19 and KC-20 and a shorter track, measured.

The rules as written end at two players, but at three and four players many games between good
players reach the safety cap (KC-18) instead (docs/findings/kings-court.md). This script plays
every candidate through ``courtly analyze`` on the same seeds at 2, 3 and 4 players, first with
the heuristic bots in every seat (a sweep of each option, then the combinations), then the
recommended variants with ISMCTS bots, and writes one summary table of the figures a designer
compares: the cap rate, the median length in turns per player, seat balance, skill against luck
and comebacks. Every run also leaves ``courtly analyze``'s own report and plots in ``--out``.

    python benchmarks/kings_court_endings.py                 # the issue's sizes (hours)
    python benchmarks/kings_court_endings.py --games 400 --ismcts-games 12 --skill-games 200

Runs one process at a time (``--workers`` is passed to ``courtly analyze``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

GAME = "kings-court"
SWEEPS = (
    "pushback_cap=0,2,3,4",
    "march=0,1,2,3",
    "hand_limit=0,4,6",
    "track_cut=0,3,4,5",
    "track_length=30,25,20",
)
"""Each candidate option alone (KC-19 to KC-22), the rules as written first."""
COMBINATIONS = (("pushback_cap=2", "march=1"), ("pushback_cap=2", "march=2"))
"""Candidates together, each compared with the rules as written on the same seeds."""
RECOMMENDED = ("track_cut=5", "march=3")
"""The best variants, measured on their own too, for their skill against luck (``courtly
analyze`` takes it on a report's first variant)."""
SEARCHED = ("track_cut=5",)
"""The variant played by ISMCTS bots as well (after the heuristic runs picked it). The rules as
written, which ISMCTS bots play to the safety cap at four players, would take most of the time:
the issue's figure stands for them; at two players ``track_cut`` changes nothing, so its run
there is the sheet's game."""


def analyze(
    args: argparse.Namespace, kind: str, name: str, players: int, extra: list[str]
) -> dict[str, Any] | None:
    """Run ``courtly analyze`` once (a run of ``kind``, heuristic or ismcts); its JSON report.
    With ``--reuse``, or when ``--only`` names the other kind, a report already written is read
    back instead (None if there is none)."""
    out = Path(args.out) / f"{name}-{players}p"
    report = out.with_suffix(".json")
    if args.reuse or (args.only and args.only != kind):
        if report.exists():
            return dict(json.loads(report.read_text()))
        if args.only and args.only != kind:
            return None
    command = [
        sys.executable,
        "-c",
        "import sys; from courtly.cli import main; sys.exit(main())",
        "analyze",
        GAME,
        "--players",
        str(players),
        "--seed",
        str(args.seed),
        "--workers",
        str(args.workers),
        "--out",
        str(out),
        *extra,
    ]
    print(" ".join(command[3:]), flush=True)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return dict(json.loads(report.read_text()))


def rows_of(report: dict[str, Any] | None, bots: str, label: str = "") -> list[dict[str, Any]]:
    """One summary row per variant of a report (none without a report); ``label`` names a
    report's single variant given with ``-o``."""
    if report is None:
        return []
    players = int(report["players"])
    rows: list[dict[str, Any]] = []
    skill = report.get("skill") or {}
    for variant in report["variants"]:
        figures = variant["figures"]
        turns = figures["length"]["turns"]
        comebacks = figures["comebacks"]
        rows.append(
            {
                "bots": bots,
                "players": players,
                "variant": label or variant["name"],
                "games": figures["games"],
                "cap": figures["safety_cap"]["rate"],
                "cap_ci": figures["safety_cap"]["ci95"],
                "shared": figures["ties"]["shared_wins"]["rate"],
                "median_turns_per_player": turns["median"] / players,
                "p90_turns_per_player": turns["p90"] / players,
                "seat_p": figures["seat_advantage"]["p_value"],
                "seat_rates": [seat["rate"] for seat in figures["win_rate_by_seat"]],
                "leader_at_middle_wins": comebacks["leader_at_middle_wins"]["rate"],
                "lead_changes": comebacks["lead_changes"]["mean"],
                # The skill measure is taken on the report's first variant only.
                "skill_over_luck": None if rows else skill.get("skill_over_luck"),
                "eta_squared_skill": None if rows else skill.get("eta_squared_skill"),
                "eta_squared_luck": None if rows else skill.get("eta_squared_luck"),
                "heuristic_vs_random": None
                if rows
                else (skill.get("strong_win_rate") or {}).get("rate"),
            }
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| bots | players | variant | games | at the cap | shared wins | median turns/player "
        "| p90 | seats p | leader at mid-game wins | lead changes "
        "| skill / luck η² (heuristic vs random wins) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        low, high = row["cap_ci"]
        eta, luck, rate = (
            row["eta_squared_skill"],
            row["eta_squared_luck"],
            row["heuristic_vs_random"],
        )
        skill = "" if eta is None else f"{eta:.2f} / {luck:.3f} ({rate:.0%})"
        lines.append(
            f"| {row['bots']} | {row['players']} | {row['variant']} | {row['games']} "
            f"| {row['cap']:.1%} ({low:.1%}–{high:.1%}) | {row['shared']:.1%} "
            f"| {row['median_turns_per_player']:.1f} | {row['p90_turns_per_player']:.1f} "
            f"| {row['seat_p']:.2f} | {row['leader_at_middle_wins']:.1%} "
            f"| {row['lead_changes']:.1f} | {skill} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="heuristic games per variant")
    parser.add_argument("--ismcts-games", type=int, default=400, help="ISMCTS games per variant")
    parser.add_argument("--ismcts", default="ismcts", help="the ISMCTS seat spec")
    parser.add_argument("--skill-games", type=int, default=1000)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default="docs/findings/kings-court")
    parser.add_argument("--reuse", action="store_true", help="keep the reports already written")
    parser.add_argument("--only", choices=("heuristic", "ismcts"), help="one kind of run only")
    args = parser.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    counts = [int(p) for p in args.players.split(",")]
    rows: list[dict[str, Any]] = []
    heuristic = ["-n", str(args.games), "--skill-games", str(args.skill_games)]
    for players in counts:
        for sweep in SWEEPS:
            name = sweep.partition("=")[0]
            report = analyze(
                args, "heuristic", f"sweep-{name}", players, [*heuristic, "--sweep", sweep]
            )
            rows += rows_of(report, "heuristic")
        for combination in COMBINATIONS:
            name = "+".join(option.replace("=", "") for option in combination)
            compare = [word for option in combination for word in ("--compare", option)]
            report = analyze(args, "heuristic", f"compare-{name}", players, [*heuristic, *compare])
            rows += rows_of(report, "heuristic")[1:]  # the rules as written are in the sweeps
        for variant in RECOMMENDED:
            name = variant.replace("=", "")
            extra = [*heuristic, "-o", variant]
            report = analyze(args, "heuristic", f"alone-{name}", players, extra)
            rows += rows_of(report, "heuristic", f"{variant} (alone)")
    for players in counts:
        if not args.ismcts_games:
            break
        seats = ",".join([args.ismcts] * players)
        for variant in SEARCHED:
            name = variant.replace("=", "")
            run = ["-n", str(args.ismcts_games), "--skill-games", "0", "--seats", seats]
            report = analyze(args, "ismcts", f"ismcts-{name}", players, [*run, "-o", variant])
            rows += rows_of(report, "ismcts", variant)
    summary = Path(args.out) / "summary.md"
    summary.write_text(table(rows) + "\n")
    (Path(args.out) / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(table(rows))


if __name__ == "__main__":
    main()
