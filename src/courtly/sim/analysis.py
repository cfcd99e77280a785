"""Balance analysis for game designers: what ``courtly analyze`` measures.

A worker plays each game and keeps only its **facts** (:class:`GameFacts`: who sat where, the
result, its length in steps, decisions, turns and the game's own units, the final scores, who
led at each twentieth of the game, the kinds of action each bot chose): a few hundred bytes,
whatever the game. The figures (:class:`Figures`) are running sums and histograms of them, so
memory stays flat however many games are played, and they are added in game order, so a run
gives the same figures on any backend and any number of workers.

What is measured, and how:

- **Seat advantage**: each seat's win rate (a shared win counts as its share) with its Wilson
  95% interval, and Pearson's chi-square test of "every seat wins equally often" on the wins by
  seat (agents are rotated through the seats, so each seat meets the same opponents).
- **Length**: steps (chance events and decisions), decisions, seat turns (runs of decisions by
  one seat) and the game's own units (:meth:`State.progress`: hands, tricks, turns...), as
  distributions (histograms, mean with its interval, deciles). The runs of decisions are named
  ``seat turns`` so that a game whose own unit is ``turns`` keeps it apart.
- **Scores and margins** where the game keeps points (:meth:`State.scores`): the winner's
  score and the margin over the runner-up.
- **Comebacks**: the leader at a point of the game is the seat the game's own heuristic
  evaluation (its search hooks' ``evaluate`` of the true state) gives the best chance; the
  leader at mid-game (half of the steps) wins how often, and how often the lead changes
  between the twentieths of a game.
- **Ties and draws** (a win shared by several seats; shared by all), and games that ended at a
  **safety cap** rather than by the rules.
- **Actions**: how often each kind of action (the first word of its text: ``hit``, ``form``,
  ``play``...) is chosen, by bot.
- **Skill against luck** (:func:`skill_figures`): the share of the variance of a seat's result
  explained by who plays it, η² = between-groups / total variance (the correlation ratio of an
  analysis of variance), in games of the game's heuristic against random bots; and the same
  statistic in games of random bots only, grouped the same way, which is what luck alone
  gives. This decomposition of outcome variance into a skill part and a chance part follows
  Getty, Li, Yano, Gao and Hosoi, "Luck and the law: quantifying chance in fantasy sports and
  other contests", SIAM Review 60(4), 2018.

A **comparison** (:func:`compare`) of two variants played on the same seeds puts every figure
side by side with the difference and its 95% interval (Newcombe's for two proportions,
Welch's normal interval for two means).
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..core.events import CHANCE
from ..core.game import Game, SearchHooks, State
from .backends import Backend, LocalBackend, chunks_of
from .stats import Z95, Distribution, Tally, wilson_interval
from .tournament import GamePlayer, Simulation

CHECKPOINTS: Final = 20
"""The leader is measured at every twentieth of a game's steps."""
MIDDLE: Final = CHECKPOINTS // 2
SEAT_TURNS: Final = "seat turns"
"""The length unit of runs of decisions by one seat, apart from a game's own ``turns``."""
TIE: Final = -1
"""The leader at a point where several seats have the best chance."""
FORMAT: Final = "courtly-analysis/2"
"""2: the runs of decisions by one seat are ``seat turns`` (1 called them ``turns`` and
merged them with a game's own turns)."""


# ----------------------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameFacts:
    """What the figures need of one game."""

    index: int
    seats: tuple[str, ...]
    returns: tuple[float, ...]
    truncated: bool
    steps: int
    decisions: int
    turns: int
    progress: tuple[tuple[str, int], ...]
    scores: tuple[float, ...] | None
    leaders: tuple[int, ...]
    """The leader at step ``k * steps // CHECKPOINTS`` for k = 1 .. CHECKPOINTS - 1 (a seat, or
    :data:`TIE`); empty for a game without an evaluation."""
    actions: tuple[tuple[str, str, int], ...]
    """(agent, kind of action, times chosen)."""


def action_kind(action: object) -> str:
    """The kind of an action: the first word of its text (``form left KS`` -> ``form``)."""
    text = str(action)
    return text.split(maxsplit=1)[0] if text.strip() else text


def leader_of(values: Sequence[float], teams: Sequence[Sequence[int]] = ()) -> int:
    """The seat ahead, or in a team game the first seat of the team ahead (teammates share a
    value); :data:`TIE` when seats of different sides share the best value."""
    best = max(values)
    leaders = [seat for seat, value in enumerate(values) if value >= best - 1e-12]
    if len(leaders) == 1:
        return leaders[0]
    for team in teams:
        if set(leaders) <= set(team):
            return min(team)
    return TIE


def leaders_along(game: Game, final: State, hooks: SearchHooks | None) -> tuple[int, ...]:
    """The leader at every checkpoint of the finished game ``final``: its history replayed,
    the true state evaluated by the game's heuristic at each checkpoint."""
    if hooks is None:
        return ()
    history = final.history
    steps = len(history)
    teams = list(game.teams().values())
    marks = {k * steps // CHECKPOINTS: k for k in range(1, CHECKPOINTS)}
    found: dict[int, int] = {}
    state = game.new_state()
    for index, (actor, item) in enumerate(history):
        k = marks.get(index)
        if k is not None and k not in found:
            values = hooks.evaluate(state)
            found[k] = leader_of(values, teams) if not state.is_terminal else TIE
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)
    return tuple(found.get(k, TIE) for k in range(1, CHECKPOINTS))


def facts_of(player: GamePlayer, index: int) -> GameFacts:
    """Play game ``index`` and keep its facts (a :data:`~courtly.sim.backends.Produce`)."""
    held: list[State] = []

    def hold(state: State, _actor: int, _item: object) -> None:
        if not held:
            held.append(state)  # the game's own state: the final one once the game is over

    record = player.play(index, hold)
    if held:
        final = held[0]
    else:  # a game over before its first event
        final = player.game.new_state()
    seats = tuple(record.seats)
    kinds: Counter[tuple[str, str]] = Counter()
    decisions = turns = 0
    last = None
    for actor, item in final.history:
        if actor == CHANCE:
            continue
        decisions += 1
        if actor != last:
            turns += 1
            last = actor
        kinds[(seats[actor], action_kind(item))] += 1
    scores = final.scores()
    return GameFacts(
        index=index,
        seats=seats,
        returns=tuple(record.returns),
        truncated=record.truncated,
        steps=len(final.history),
        decisions=decisions,
        turns=turns,
        progress=tuple(sorted(final.progress().items())),
        scores=None if scores is None else tuple(scores),
        leaders=leaders_along(player.game, final, player.search_hooks),
        actions=tuple((agent, kind, count) for (agent, kind), count in sorted(kinds.items())),
    )


# ----------------------------------------------------------------------------- the figures


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (the regularised upper
    incomplete gamma function, in closed form for whole degrees of freedom)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)
    for i in range(1, (df + 1) // 2):
        total += math.exp(-half) * term
        term *= half / (i + 0.5)
    return min(1.0, total)


def _rate(successes: float, trials: int) -> dict[str, Any]:
    low, high = wilson_interval(successes, trials)
    return {
        "count": successes,
        "of": trials,
        "rate": successes / trials if trials else 0.0,
        "ci95": [low, high],
    }


@dataclass
class Figures:
    """The running figures of one variant's games (added in game order)."""

    game: str
    players: int
    options: dict[str, Any]
    seats: tuple[str, ...]
    seed: int
    games: int = 0
    by_seat: list[Tally] = field(default_factory=list)
    by_agent: dict[str, Tally] = field(default_factory=dict)
    by_slot: list[Distribution] = field(default_factory=list)
    """A seat's result by the slot of ``seats`` that played it (the skill measure's groups)."""
    truncated: int = 0
    shared: int = 0
    draws: int = 0
    lengths: dict[str, Distribution] = field(default_factory=dict)
    winner_score: Distribution = field(default_factory=Distribution)
    margin: Distribution = field(default_factory=Distribution)
    has_scores: bool = False
    led_at_middle: int = 0
    leader_won: float = 0.0
    lead_changes: Distribution = field(default_factory=Distribution)
    actions: dict[str, Counter[str]] = field(default_factory=dict)
    seconds: float = 0.0
    backend: str = "local"
    workers: int = 1
    teams: tuple[tuple[int, ...], ...] = ()
    """The seats that win together (a team game's leader is its team)."""

    def add(self, facts: GameFacts) -> None:
        n = self.players
        if not self.by_seat:
            self.by_seat = [Tally() for _ in range(n)]
            self.by_slot = [Distribution() for _ in range(len(self.seats))]
        self.games += 1
        returns = facts.returns
        for seat, value in enumerate(returns):
            self.by_seat[seat].add(value)
            self.by_agent.setdefault(facts.seats[seat], Tally()).add(value)
            # Seat s of game i is played by slot (s + i) % n of the rotated seats.
            self.by_slot[(seat + facts.index) % len(self.seats)].add(value)
        winners = [seat for seat, value in enumerate(returns) if value > 0]
        if len(winners) > 1:
            self.shared += 1
            if len(winners) == n:
                self.draws += 1
        self.truncated += facts.truncated
        for unit, value in (
            ("steps", facts.steps),
            ("decisions", facts.decisions),
            (SEAT_TURNS, facts.turns),
            *facts.progress,
        ):
            self.lengths.setdefault(unit, Distribution()).add(value)
        if facts.scores is not None:
            self.has_scores = True
            ranked = sorted(facts.scores, reverse=True)
            if winners:
                self.winner_score.add(max(facts.scores[seat] for seat in winners))
            if len(ranked) > 1:
                self.margin.add(ranked[0] - ranked[1])
        if facts.leaders:
            middle = facts.leaders[MIDDLE - 1]
            if middle != TIE:
                self.led_at_middle += 1
                # A leading team wins together: its members' returns add up to its share.
                side = next((team for team in self.teams if middle in team), (middle,))
                self.leader_won += sum(returns[seat] for seat in side)
            known = [leader for leader in facts.leaders if leader != TIE]
            self.lead_changes.add(sum(1 for a, b in itertools.pairwise(known) if a != b))
        for agent, kind, count in facts.actions:
            self.actions.setdefault(agent, Counter())[kind] += count

    def seat_test(self) -> dict[str, Any]:
        """Pearson's chi-square test that every seat wins equally often."""
        games, n = self.games, self.players
        expected = games / n if n else 0.0
        statistic = (
            sum((tally.wins - expected) ** 2 / expected for tally in self.by_seat)
            if expected
            else 0.0
        )
        return {
            "test": "chi-square goodness of fit, wins by seat against equal shares",
            "statistic": statistic,
            "df": n - 1,
            "p_value": chi_square_sf(statistic, n - 1) if n > 1 else 1.0,
        }

    def to_dict(self) -> dict[str, Any]:
        actions = {}
        for agent, counts in sorted(self.actions.items()):
            total = sum(counts.values())
            actions[agent] = {
                kind: {"count": count, "share": count / total}
                for kind, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
            }
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seats": list(self.seats),
            "seed": self.seed,
            "games": self.games,
            "win_rate_by_seat": [
                {"seat": f"p{seat}", **_rate(tally.wins, tally.games)}
                for seat, tally in enumerate(self.by_seat)
            ],
            "seat_advantage": self.seat_test(),
            "win_rate_by_agent": {
                agent: _rate(tally.wins, tally.games)
                for agent, tally in sorted(self.by_agent.items())
            },
            "length": {unit: dist.to_dict() for unit, dist in self.lengths.items()},
            "scores": (
                {"winner": self.winner_score.to_dict(), "margin": self.margin.to_dict()}
                if self.has_scores
                else None
            ),
            "comebacks": {
                "leader_at_middle_wins": _rate(self.leader_won, self.led_at_middle),
                "comeback": _rate(self.led_at_middle - self.leader_won, self.led_at_middle),
                "lead_changes": self.lead_changes.to_dict(),
                "leader": "the seat (in a team game, the team) the game's heuristic evaluation "
                "of the true state favours",
            },
            "ties": {
                "shared_wins": _rate(self.shared, self.games),
                "draws": _rate(self.draws, self.games),
            },
            "safety_cap": _rate(self.truncated, self.games),
            "actions": actions,
            "speed": {
                "seconds": self.seconds,
                "games_per_second": self.games / self.seconds if self.seconds > 0 else None,
                "backend": self.backend,
                "workers": self.workers,
            },
        }


# ----------------------------------------------------------------------------- running


def analyse(
    simulation: Simulation,
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
) -> Figures:
    """Play ``simulation`` on ``backend`` (default: this process) and gather its figures."""
    backend = backend or LocalBackend(1)
    simulation.check()
    game = simulation.make_game()
    figures = Figures(
        simulation.game,
        game.num_players,
        dict(game.options),
        simulation.seats,
        simulation.seed,
        backend=backend.name,
        workers=backend.workers,
        teams=tuple(game.teams().values()),
    )
    start = time.perf_counter()
    for chunk in backend.run(simulation, facts_of, chunks_of(simulation.games, backend.workers)):
        for facts in chunk:
            figures.add(facts)
        if progress is not None:
            progress(len(chunk))
    figures.seconds = time.perf_counter() - start
    return figures


# ----------------------------------------------------------------------------- skill and luck


def eta_squared(groups: Iterable[Distribution]) -> float:
    """The share of the variance of the values explained by their groups (between-groups sum of
    squares over the total)."""
    groups = [group for group in groups if group.n]
    n = sum(group.n for group in groups)
    if n == 0:
        return 0.0
    mean = sum(group.mean * group.n for group in groups) / n
    between = sum(group.n * (group.mean - mean) ** 2 for group in groups)
    within = sum(group.sd**2 * (group.n - 1) for group in groups if group.n > 1)
    total = between + within
    return between / total if total > 0 else 0.0


def _first_against_rest(figures: Figures) -> list[Distribution]:
    rest = Distribution()
    for group in figures.by_slot[1:]:
        rest.merge(group)
    return [figures.by_slot[0], rest]


def skill_figures(strong_vs_weak: Figures, weak_only: Figures) -> dict[str, Any]:
    """Skill against luck from two runs: slot 0 is the strong bot against weak ones in the
    first, a weak bot like the others in the second (see the module's docstring)."""
    n = strong_vs_weak.players
    strong = strong_vs_weak.by_slot[0]
    placebo = weak_only.by_slot[0]
    skill = eta_squared(_first_against_rest(strong_vs_weak))
    luck = eta_squared(_first_against_rest(weak_only))
    return {
        "method": (
            "share of the variance of a seat's result explained by the bot playing it (eta "
            "squared), the strong bot against weak ones, and the same statistic for weak bots "
            "alone, grouped the same way (luck alone); after Getty et al., SIAM Review 60(4), "
            "2018"
        ),
        "strong": strong_vs_weak.seats[0],
        "weak": strong_vs_weak.seats[1] if len(strong_vs_weak.seats) > 1 else "",
        "games": strong_vs_weak.games,
        "fair_share": 1 / n,
        "strong_win_rate": _rate(strong.mean * strong.n, strong.n),
        "placebo_win_rate": _rate(placebo.mean * placebo.n, placebo.n),
        "rise_over_fair_share": strong.mean - 1 / n,
        "luck_sd": math.sqrt(
            sum(d.sd**2 * d.n for d in weak_only.by_slot)
            / max(1, sum(d.n for d in weak_only.by_slot))
        ),
        "eta_squared_skill": skill,
        "eta_squared_luck": luck,
        "skill_over_luck": skill / luck if luck > 0 else None,
    }


# ----------------------------------------------------------------------------- comparisons


def _proportion_difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Newcombe's hybrid score interval of ``b - a`` (method 10), from each Wilson interval."""
    pa, pb = a["rate"], b["rate"]
    (la, ua), (lb, ub) = a["ci95"], b["ci95"]
    d = pb - pa
    return {
        "a": pa,
        "b": pb,
        "difference": d,
        "ci95": [
            d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2),
            d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2),
        ],
        "kind": "proportion",
    }


def _mean_difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Welch's normal interval of the difference of two means."""
    d = b["mean"] - a["mean"]
    se = math.sqrt(
        (a["sd"] ** 2 / a["n"] if a["n"] else 0.0) + (b["sd"] ** 2 / b["n"] if b["n"] else 0.0)
    )
    return {
        "a": a["mean"],
        "b": b["mean"],
        "difference": d,
        "ci95": [d - Z95 * se, d + Z95 * se],
        "kind": "mean",
    }


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Every figure two variants share, side by side: ``b - a`` with its 95% interval."""
    rows: list[dict[str, Any]] = []

    def add(name: str, row: dict[str, Any]) -> None:
        rows.append({"figure": name, **row})

    for sa, sb in zip(a["win_rate_by_seat"], b["win_rate_by_seat"], strict=False):
        add(f"win rate of {sa['seat']}", _proportion_difference(sa, sb))
    for unit in a["length"]:
        if unit in b["length"]:
            add(f"length: {unit}", _mean_difference(a["length"][unit], b["length"][unit]))
    if a["scores"] and b["scores"]:
        add("winner's score", _mean_difference(a["scores"]["winner"], b["scores"]["winner"]))
        add("margin", _mean_difference(a["scores"]["margin"], b["scores"]["margin"]))
    add(
        "leader at mid-game wins",
        _proportion_difference(
            a["comebacks"]["leader_at_middle_wins"], b["comebacks"]["leader_at_middle_wins"]
        ),
    )
    add(
        "lead changes",
        _mean_difference(a["comebacks"]["lead_changes"], b["comebacks"]["lead_changes"]),
    )
    add("shared wins", _proportion_difference(a["ties"]["shared_wins"], b["ties"]["shared_wins"]))
    add("games ended at the safety cap", _proportion_difference(a["safety_cap"], b["safety_cap"]))
    return rows


# ----------------------------------------------------------------------------- a whole report


@dataclass(frozen=True)
class Variant:
    """One set of rules to analyse: a name for the report and the game's options."""

    name: str
    options: dict[str, Any]


Progress = Callable[[str, int], Callable[[int], None]]
"""``progress(description, games)`` starts a bar and gives the function that advances it."""


def analysis(
    game: str,
    players: int,
    seats: Sequence[str],
    games: int,
    variants: Sequence[Variant],
    seed: int = 0,
    backend: Backend | None = None,
    skill_games: int = 0,
    sweep: str | None = None,
    progress: Progress | None = None,
    skill_bots: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """The figures of every variant (played on the same seeds), the comparison of the first two
    when there are exactly two, and the skill against luck of the first: the JSON of
    ``courtly analyze``."""
    backend = backend or LocalBackend(1)
    results: list[dict[str, Any]] = []
    for variant in variants:
        simulation = Simulation(game, tuple(seats), games, seed, dict(variant.options))
        advance = progress(variant.name, games) if progress is not None else None
        figures = analyse(simulation, backend, advance)
        results.append(
            {"name": variant.name, "options": variant.options, "figures": figures.to_dict()}
        )
    document: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "players": players,
        "seats": list(seats),
        "games": games,
        "seed": seed,
        "variants": results,
        "comparison": None,
        "sweep": None,
        "skill": None,
    }
    if len(results) == 2 and sweep is None:
        document["comparison"] = compare(results[0]["figures"], results[1]["figures"])
    if sweep is not None:
        document["sweep"] = {"option": sweep, "values": [r["options"].get(sweep) for r in results]}
    if skill_games > 0:
        document["skill"] = measure_skill(
            game,
            players,
            dict(variants[0].options),
            skill_games,
            seed,
            backend,
            progress,
            skill_bots,
        )
    return document


def measure_skill(
    game: str,
    players: int,
    options: dict[str, Any],
    games: int,
    seed: int,
    backend: Backend,
    progress: Progress | None = None,
    bots: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """:func:`skill_figures` of a strong bot against a weak one (default: the game's own bot,
    its ``heuristic``, against ``random``): the strong bot in one seat and weak ones in the
    others, then weak bots alone."""
    from ..core.registry import game_class

    strong, weak = bots or (game_class(game).info.default_bot, "random")
    runs = []
    for seats in ([strong] + [weak] * (players - 1), [weak] * players):
        simulation = Simulation(game, tuple(seats), games, seed, options)
        label = f"skill: {' v '.join(seats)}"
        runs.append(analyse(simulation, backend, progress(label, games) if progress else None))
    return skill_figures(runs[0], runs[1])
