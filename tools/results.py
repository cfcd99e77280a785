"""The README's results: a balance report of every game at every player count, its default
options (``make results``), and of Courtly's recommended variant where a game recommends one at
a count (King's Court at three and four players).

For each game and each of its player counts, heuristic bots in every seat (rotated), it runs
``courtly analyze``'s analysis, writes the report to ``docs/results/GAME-Np.html`` (with its JSON
and PNGs), estimates the minutes people take over a game (:mod:`courtly.sim.pace`), and
rewrites the README's section between the ``results`` markers: one row of headline figures per
game and player count, every row whose games end at the safety cap more often than
:data:`CAP_MARK` marked, and the findings a designer would want first.

    .venv/bin/python tools/results.py [--games 10000] [--skill-games 2000] [--pace-games 1000]
                                      [--workers 2]

A quick run (a minute or two): ``--games 200 --skill-games 50 --pace-games 50``. With
``--from-reports`` nothing is played: the pages and the section are rewritten from the JSON
reports (each keeps its sizes and seconds under ``made``), after a change to how they read;
with ``--reuse`` only the rows without a report are played.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path
from typing import Any, Final

from courtly.core.options import Recommendation, options_text
from courtly.core.registry import game_class, make
from courtly.sim.analysis import Variant, analysis
from courtly.sim.analysis_page import counted, findings, p_text, write_report
from courtly.sim.backends import LocalBackend
from courtly.sim.pace import Pace, minutes_played
from courtly.sim.tournament import Simulation

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FOLDER = ROOT / "docs" / "results"
FINDINGS = ROOT / "docs" / "findings"
START, END = "<!-- results:start -->", "<!-- results:end -->"
GAMES: Final = (
    "royal-gambit",
    "god-save-the-king",
    "crush-the-crown",
    "goths-save-the-queen",
    "kings-court",
)
CAP_UNITS: Final = {
    # The unit each game's safety cap counts (its option safety_cap), so that the length and the
    # cap read together: RG-26 hands, GSK-29 tricks, CTC-26, GOTH-26 and KC-18 turns.
    "royal-gambit": "hands",
    "god-save-the-king": "tricks",
    "crush-the-crown": "turns",
    "goths-save-the-queen": "turns",
    "kings-court": "turns",
}
PACES: Final = {
    # Royal Gambit shuffles the whole deck for every hand (RG-2), the first at the set-up; God
    # Save The King's hands after the first are gathered from the trick piles (GSK §6); King's
    # Court shuffles its discard pile into a new draw pile (KC rules §3).
    "royal-gambit": Pace(redeal_unit="hands", dealt_in_set_up=1),
    "god-save-the-king": Pace(redeal_unit="hands", dealt_in_set_up=1),
    "crush-the-crown": Pace(),
    "goths-save-the-queen": Pace(),
    "kings-court": Pace(redeal_unit="reshuffles"),
}
CAP_MARK: Final = 0.01
"""A row whose games end at the safety cap more often than this is marked: the cap, not the
rules, decides too many of them."""
MARK: Final = "⚠"


def report_name(game: str, players: int, variant: Recommendation | None = None) -> str:
    """``kings-court-4p``, or ``kings-court-4p-track_cut5`` for a recommended variant."""
    if variant is None:
        return f"{game}-{players}p"
    options = "-".join(f"{name}{value}" for name, value in variant.options.items())
    return f"{game}-{players}p-{options}"


def recommended_of(document: dict[str, Any]) -> Recommendation | None:
    """The recommended variant a report measured (None: the rules as written)."""
    options = document["variants"][0]["options"]
    variant = game_class(document["game"]).info.recommended.get(document["players"])
    if variant is not None and all(options.get(k) == v for k, v in variant.options.items()):
        return variant
    return None


def row_title(document: dict[str, Any]) -> str:
    """``King's Court``, or ``King's Court, Courtly's variant: the shorter track (-o ...)``."""
    title = game_class(document["game"]).info.title
    variant = recommended_of(document)
    if variant is None:
        return title
    return f"{title}, Courtly's variant: {variant.name} (`-o {options_text(variant.options)}`)"


def _percent(rate: dict[str, Any]) -> str:
    return f"{100 * rate['rate']:.0f}%"


def _leader(rate: dict[str, Any]) -> str:
    # No game with a leader at mid-game (every evaluation level there): nothing to rate.
    return _percent(rate) if rate["of"] else "–"


def capped(document: dict[str, Any]) -> bool:
    """Whether the row's games end at the safety cap more often than :data:`CAP_MARK`."""
    return bool(document["variants"][0]["figures"]["safety_cap"]["rate"] > CAP_MARK)


def cap_cell(document: dict[str, Any]) -> str:
    """``0.8%``, or ``⚠ **57%**`` above :data:`CAP_MARK`."""
    rate = document["variants"][0]["figures"]["safety_cap"]["rate"]
    text = f"{100 * rate:.1f}%" if rate < 0.1 else f"{100 * rate:.0f}%"
    return f"{MARK} **{text}**" if capped(document) else text


def length_cell(document: dict[str, Any]) -> str:
    """The median length in the unit the game's cap counts, then its other own units:
    ``17 tricks (4 hands)``."""
    length = document["variants"][0]["figures"]["length"]
    unit = CAP_UNITS[document["game"]]
    others = [
        counted(length[other]["median"], other)
        for other in length
        if other not in (unit, "steps", "decisions", "seat turns")
    ]
    main = counted(length[unit]["median"], unit)
    return main + (f" ({', '.join(others)})" if others else "")


def minutes_cell(minutes: dict[str, Any]) -> str:
    """``9 (6–14)``: the median minutes and the 10% and 90% deciles."""
    return f"{minutes['median']:.0f} ({minutes['p10']:.0f}–{minutes['p90']:.0f})"


def row(document: dict[str, Any]) -> str:
    figures = document["variants"][0]["figures"]
    seats = " / ".join(_percent(seat) for seat in figures["win_rate_by_seat"])
    skill = document["skill"]
    skill_share = "–" if not skill else f"{100 * skill['eta_squared_skill']:.0f}%"
    name = report_name(document["game"], document["players"], recommended_of(document))
    cap = document["variants"][0]["options"]["safety_cap"]
    return (
        f"| [{row_title(document)}](docs/results/{name}.html) | {document['players']} | "
        f"{seats} | {p_text(figures['seat_advantage']['p_value'])} | {length_cell(document)} | "
        f"{figures['length']['decisions']['median']:g} | {minutes_cell(document['minutes'])} | "
        f"{_leader(figures['comebacks']['leader_at_middle_wins'])} | "
        f"{cap_cell(document)} of {counted(cap, CAP_UNITS[document['game']])} | "
        f"{skill_share} |"
    )


def _took(seconds: float) -> str:
    return f"{seconds:.0f} seconds" if seconds < 90 else f"{seconds / 60:.0f} minutes"


def flagged(documents: list[dict[str, Any]]) -> str:
    """The sentence on the rows above :data:`CAP_MARK`, worst first."""
    worst = sorted(
        (d for d in documents if capped(d)),
        key=lambda d: -d["variants"][0]["figures"]["safety_cap"]["rate"],
    )
    if not worst:
        return f"No game ends at the safety cap more often than {100 * CAP_MARK:.0f}% of the time."
    named = ", ".join(
        f"{row_title(d)} at {d['players']} players "
        f"({_percent(d['variants'][0]['figures']['safety_cap'])})"
        for d in worst
    )
    return (
        f"{MARK} **The safety cap decides too many games** (over {100 * CAP_MARK:.0f}%, marked): "
        f"{named}. Such a game is ended by the cap's rule, not the game's, and says so at its end."
    )


def section(documents: list[dict[str, Any]]) -> str:
    """The README's section, from the reports (each keeps how it was made: ``made``)."""
    made = documents[0]["made"]
    seconds = sum(document["made"]["seconds"] for document in documents)
    lines = [
        START,
        "",
        f"Each game at every player count, its default options (the rules as written), and "
        "Courtly's recommended variant where a game has one at a count (see `courtly rules`), "
        f"{made['games']:,} games a row "
        "between heuristic bots (rotated through the seats), seed 0; the skill measure pits the "
        f"heuristic against random bots ({made['skill_games']:,} games of each). Generated by "
        f"`make results` (`tools/results.py --games {made['games']} --skill-games "
        f"{made['skill_games']} --pace-games {made['pace_games']} --workers {made['workers']}`) "
        f"in {_took(seconds)} on the 2-core project machine; each row's link is its full "
        "report.",
        "",
        "The length is the median in the unit the game's safety cap counts, with its other "
        "units; the minutes are those of people who know the game, estimated over "
        f"{made['pace_games']:,} of the games (median, and 10% to 90% of games): 3 seconds a quick "
        "decision (hit, stay, pass, end a turn), 8 seconds any other, seats deciding at the same "
        "time the slowest of them, a minute to set up and 30 seconds a later deal or reshuffle; "
        "the model and its reasons are in `src/courtly/sim/pace.py`, nobody has timed tables yet.",
        "",
        flagged(documents),
        "",
        "| game | players | wins by seat (p0 / p1 / ...) | no-advantage p | median length | "
        "median decisions | minutes (10–90%) | mid-game leader wins | safety cap | skill η² |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *(row(document) for document in documents),
        "",
    ]
    for game_id in dict.fromkeys(d["game"] for d in documents):
        title = game_class(game_id).info.title
        finding = FINDINGS / f"{game_id}.md"
        studied = (
            f" What lies behind these figures is studied in [its finding]"
            f"(docs/findings/{finding.name})."
            if finding.exists()
            else ""
        )
        lines.append(f"**{title}.**{studied}")
        lines.append("")
        for document in (d for d in documents if d["game"] == game_id):
            mark = f" {MARK}" if capped(document) else ""
            variant = recommended_of(document)
            named = "" if variant is None else f", Courtly's variant ({variant.name})"
            lines.append(
                f"- *{document['players']} players{named}{mark}.* " + " ".join(findings(document))
            )
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def rows() -> list[tuple[str, int, Recommendation | None]]:
    """Every game at every player count, each followed by Courtly's recommended variant at
    that count if there is one, in the README's order."""
    found: list[tuple[str, int, Recommendation | None]] = []
    for game in GAMES:
        info = game_class(game).info
        for n in info.player_counts:
            found.append((game, n, None))
            if n in info.recommended:
                found.append((game, n, info.recommended[n]))
    return found


def measure(
    game_id: str, players: int, variant: Recommendation | None, args: argparse.Namespace
) -> dict[str, Any]:
    """One row's report: the analysis, the minutes, and how it was made."""
    info = game_class(game_id).info
    game = make(game_id, players=players, **(variant.options if variant else {}))
    seats = [info.default_bot] * players
    backend = LocalBackend(args.workers)
    began = time.perf_counter()
    document = analysis(
        game_id,
        players,
        seats,
        args.games,
        [Variant(variant.name if variant else "default rules", dict(game.options))],
        seed=0,
        backend=backend,
        skill_games=args.skill_games,
    )
    pace_games = min(args.pace_games, args.games)
    simulation = Simulation(game_id, tuple(seats), pace_games, 0, dict(game.options))
    document["minutes"] = minutes_played(simulation, PACES[game_id], backend)
    document["made"] = {
        "games": args.games,
        "skill_games": args.skill_games,
        "pace_games": pace_games,
        "workers": args.workers,
        "seconds": round(time.perf_counter() - began, 1),
    }
    return document


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10000, help="games a row")
    parser.add_argument("--skill-games", type=int, default=2000, help="games a skill run")
    parser.add_argument(
        "--pace-games", type=int, default=1000, help="games a row's minutes are estimated over"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--from-reports",
        action="store_true",
        help="play nothing: rewrite the pages and the README's section from the JSON reports",
    )
    parser.add_argument(
        "--reuse", action="store_true", help="play only the rows that have no JSON report yet"
    )
    args = parser.parse_args()
    FOLDER.mkdir(parents=True, exist_ok=True)
    documents = []
    for game_id, players, variant in rows():
        path = FOLDER / report_name(game_id, players, variant)
        report = path.with_name(path.name + ".json")
        if args.from_reports or (args.reuse and report.exists()):
            document = json.loads(report.read_text())
        else:
            document = measure(game_id, players, variant, args)
            print(f"{game_id} {players}p: {document['made']['seconds']:.0f} s", flush=True)
        write_report(document, path)  # the page and its plots, redrawn by this version
        documents.append(document)
    text = README.read_text()
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"README.md has no {START} ... {END} section to fill")
    new = section(documents)
    README.write_text(pattern.sub(lambda _match: new, text))
    print(f"README.md's results rewritten; reports in {FOLDER}")


if __name__ == "__main__":
    main()
