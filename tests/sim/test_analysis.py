"""The balance analysis: each game's facts match its record, the figures are the same
on one worker, two, or a local Ray, the statistics are the textbook ones, and memory does not
grow with the number of games."""

from __future__ import annotations

import gc
import math
import weakref
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from courtly.core.replays import replay_record
from courtly.sim import Simulation
from courtly.sim.analysis import (
    CHECKPOINTS,
    MIDDLE,
    TIE,
    Figures,
    GameFacts,
    Variant,
    action_kind,
    analyse,
    analysis,
    chi_square_sf,
    compare,
    eta_squared,
    facts_of,
    leader_of,
)
from courtly.sim.backends import LocalBackend, RayBackend, chunks_of, make_backend
from courtly.sim.stats import Distribution, Summary
from courtly.sim.tournament import GamePlayer, run

FIVE = {
    "royal-gambit": 3,
    "god-save-the-king": 3,
    "crush-the-crown": 2,
    "goths-save-the-queen": 2,
    "kings-court": 4,
}


def without_speed(figures: Figures) -> dict[str, Any]:
    found = figures.to_dict()
    found.pop("speed")
    return found


# ----------------------------------------------------------------------------- one game


@pytest.mark.parametrize("game", sorted(FIVE))
def test_a_game_s_facts_are_its_record_s(game: str) -> None:
    players = FIVE[game]
    simulation = Simulation(game, ("heuristic",) + ("random",) * (players - 1), 3, seed=7)
    player = GamePlayer(simulation)
    for index in range(3):
        facts = facts_of(player, index)
        record = GamePlayer(simulation).play(index)  # the same game, played apart
        assert facts.seats == tuple(record.seats) == tuple(simulation.seats_of(index))
        assert facts.returns == tuple(record.returns)
        assert facts.truncated == record.truncated
        assert facts.steps == record.length
        decisions = [(actor, item) for actor, item in record.history if actor != "chance"]
        assert facts.decisions == len(decisions) == sum(record.moves)
        turns = sum(
            1 for i, (actor, _) in enumerate(decisions) if i == 0 or decisions[i - 1][0] != actor
        )
        assert facts.turns == turns
        kinds = sum(count for _, _, count in facts.actions)
        assert kinds == facts.decisions
        final = replay_record(record)
        assert dict(facts.progress) == final.progress()
        assert facts.scores == (None if final.scores() is None else tuple(final.scores() or ()))
        assert len(facts.leaders) == CHECKPOINTS - 1
        assert all(leader == TIE or 0 <= leader < players for leader in facts.leaders)


def test_the_kind_of_an_action_is_its_first_word() -> None:
    assert action_kind("form left KS") == "form"
    assert action_kind("hit") == "hit"
    assert action_kind("give-7 p1") == "give-7"


# ----------------------------------------------------------------------------- the figures


def facts(
    index: int,
    returns: tuple[float, ...],
    leaders: tuple[int, ...] = (),
    scores: tuple[float, ...] | None = None,
    seats: tuple[str, ...] = ("a", "b"),
) -> GameFacts:
    return GameFacts(
        index=index,
        seats=seats,
        returns=returns,
        truncated=False,
        steps=10,
        decisions=6,
        turns=4,
        progress=(("hands", 2),),
        scores=scores,
        leaders=leaders,
        actions=((seats[0], "hit", 4), (seats[1], "stay", 2)),
    )


def test_figures_count_shares_draws_leaders_and_margins() -> None:
    figures = Figures("toy", 2, {}, ("a", "b"), 0)
    middle_for = [TIE] * (CHECKPOINTS - 1)
    led_by_0 = list(middle_for)
    led_by_0[MIDDLE - 1] = 0
    figures.add(facts(0, (1.0, 0.0), tuple(led_by_0), (30.0, 21.0)))  # the leader wins
    led_by_1 = [1] * (CHECKPOINTS - 1)
    led_by_1[-1] = 0
    figures.add(facts(1, (1.0, 0.0), tuple(led_by_1), (31.0, 30.0)))  # a comeback, one change
    figures.add(facts(2, (0.5, 0.5), tuple(middle_for), (30.0, 30.0)))  # a draw, no leader
    found = figures.to_dict()
    assert found["games"] == 3
    assert found["win_rate_by_seat"][0]["count"] == 2.5
    assert found["ties"]["shared_wins"]["count"] == 1 and found["ties"]["draws"]["count"] == 1
    assert found["comebacks"]["leader_at_middle_wins"]["count"] == 1.0
    assert found["comebacks"]["leader_at_middle_wins"]["of"] == 2
    assert found["comebacks"]["comeback"]["count"] == 1.0
    assert found["comebacks"]["lead_changes"]["histogram"] == [[0, 2], [1, 1]]
    assert found["scores"]["margin"]["histogram"] == [[0.0, 1], [1.0, 1], [9.0, 1]]
    assert found["scores"]["winner"]["mean"] == pytest.approx((30 + 31 + 30) / 3)
    assert found["length"]["hands"]["mean"] == 2
    assert found["actions"]["a"]["hit"] == {"count": 12, "share": 1.0}
    # Rotated seats: game 1's seat 0 is played by slot 1.
    assert figures.by_slot[0].n == figures.by_slot[1].n == 3
    assert figures.by_slot[1].mean == pytest.approx((0.0 + 1.0 + 0.5) / 3)


def test_a_game_without_points_has_no_score_figures() -> None:
    figures = Figures("toy", 2, {}, ("a", "b"), 0)
    figures.add(facts(0, (0.0, 1.0)))
    assert figures.to_dict()["scores"] is None
    assert figures.to_dict()["comebacks"]["leader_at_middle_wins"]["of"] == 0


def test_chi_square_tail_matches_its_tables() -> None:
    # The 5% critical values of the chi-square distribution for 1 to 5 degrees of freedom.
    for df, critical in ((1, 3.841459), (2, 5.991465), (3, 7.814728), (4, 9.487729), (5, 11.0705)):
        assert chi_square_sf(critical, df) == pytest.approx(0.05, abs=1e-6)
    assert chi_square_sf(0.0, 3) == 1.0
    assert chi_square_sf(6.634897, 1) == pytest.approx(0.01, abs=1e-6)


def test_eta_squared_is_the_share_of_variance_between_groups() -> None:
    apart = [Distribution(), Distribution()]
    apart[0].add(1.0, 10)
    apart[1].add(0.0, 10)
    assert eta_squared(apart) == pytest.approx(1.0)
    same = [Distribution(), Distribution()]
    for group in same:
        group.add(1.0, 5)
        group.add(0.0, 5)
    assert eta_squared(same) == pytest.approx(0.0)
    # Means 0.75 and 0.25, each with variance 0.1875: between 0.0625 of a total 0.25.
    mixed = [Distribution(), Distribution()]
    mixed[0].add(1.0, 3)
    mixed[0].add(0.0, 1)
    mixed[1].add(1.0, 1)
    mixed[1].add(0.0, 3)
    between = 8 * 0.25**2
    within = 2 * (3 * 0.25**2 + 1 * 0.75**2)
    assert eta_squared(mixed) == pytest.approx(between / (between + within))


def test_the_difference_of_two_proportions_has_newcombe_s_interval() -> None:
    # Newcombe (1998), method 10, on 56/70 against 48/80: 0.2 (0.0524 to 0.3339).
    from courtly.sim.stats import wilson_interval

    def rate(successes: int, trials: int) -> dict[str, Any]:
        return {"rate": successes / trials, "ci95": list(wilson_interval(successes, trials))}

    a = {
        "win_rate_by_seat": [{"seat": "p0", **rate(48, 80)}],
        "length": {},
        "scores": None,
        "comebacks": {
            "leader_at_middle_wins": rate(1, 2),
            "lead_changes": {"mean": 1, "sd": 1, "n": 4},
        },
        "ties": {"shared_wins": rate(0, 4)},
        "safety_cap": rate(0, 4),
    }
    b = {**a, "win_rate_by_seat": [{"seat": "p0", **rate(56, 70)}]}
    rows = compare(a, b)
    first = rows[0]
    assert first["difference"] == pytest.approx(0.2)
    assert first["ci95"][0] == pytest.approx(0.0524, abs=1e-4)
    assert first["ci95"][1] == pytest.approx(0.3339, abs=1e-4)
    changes = next(row for row in rows if row["figure"] == "lead changes")
    assert changes["difference"] == 0 and changes["ci95"][0] < 0 < changes["ci95"][1]
    assert changes["ci95"][1] == pytest.approx(1.959964 * math.sqrt(2 / 4), rel=1e-5)


# ----------------------------------------------------------------------------- runs


def test_the_figures_are_the_same_on_one_worker_or_two() -> None:
    simulation = Simulation("royal-gambit", ("heuristic", "random", "heuristic"), 40, seed=3)
    one = analyse(simulation, LocalBackend(1))
    two = analyse(simulation, LocalBackend(2))
    assert without_speed(one) == without_speed(two)
    assert one.games == 40 and one.to_dict()["speed"]["workers"] == 1


def test_a_variant_is_played_on_the_same_seeds_and_compared() -> None:
    base = Variant("target 30", {"target_score": 30})
    longer = Variant("target 45", {"target_score": 45})
    document = analysis(
        "royal-gambit", 2, ["heuristic", "heuristic"], 60, [base, longer], seed=1, skill_games=20
    )
    assert [v["name"] for v in document["variants"]] == ["target 30", "target 45"]
    rows = {row["figure"]: row for row in document["comparison"]}
    # A higher target makes longer games, well beyond chance at 60 games.
    decisions = rows["length: decisions"]
    assert decisions["difference"] > 0 and decisions["ci95"][0] > 0
    assert document["skill"]["strong"] == "heuristic" and document["skill"]["weak"] == "random"
    assert document["skill"]["eta_squared_skill"] > document["skill"]["eta_squared_luck"]
    # The base variant's figures are those of a plain analysis of the same games.
    plain = analyse(
        Simulation("royal-gambit", ("heuristic", "heuristic"), 60, 1, {"target_score": 30})
    )
    found = dict(document["variants"][0]["figures"])
    found.pop("speed")
    assert found == without_speed(plain)


def test_a_sweep_has_one_variant_per_value_and_no_pairwise_comparison() -> None:
    variants = [Variant(f"target_score={t}", {"target_score": t}) for t in (20, 30, 40)]
    document = analysis("royal-gambit", 2, ["heuristic"] * 2, 10, variants, sweep="target_score")
    assert document["sweep"] == {"option": "target_score", "values": [20, 30, 40]}
    assert document["comparison"] is None and document["skill"] is None


def test_backends_are_chosen_by_name_with_clear_errors() -> None:
    from courtly.core.errors import InvalidOptions

    assert isinstance(make_backend("local", 2), LocalBackend)
    with pytest.raises(InvalidOptions, match="the backends are: local, ray"):
        make_backend("spark")
    with pytest.raises(InvalidOptions, match="--backend ray"):
        make_backend("local", 1, "ray://head:10001")
    with pytest.raises(InvalidOptions, match="at least 1 worker"):
        make_backend("local", 0)
    assert sum(len(chunk) for chunk in chunks_of(1001, 2)) == 1001


@pytest.fixture(scope="module")
def local_ray() -> Iterator[RayBackend]:
    backend = RayBackend(2)  # a local Ray with 2 CPUs, started for these tests
    try:
        yield backend
    finally:
        backend.close()


def test_ray_plays_the_same_games_as_the_local_backend(local_ray: RayBackend) -> None:
    assert local_ray.workers == 2
    simulation = Simulation("crush-the-crown", ("heuristic", "random"), 30, seed=5)
    assert without_speed(analyse(simulation, local_ray)) == without_speed(
        analyse(simulation, LocalBackend(2))
    )
    assert list(run(simulation, backend=local_ray)) == list(run(simulation, 1))
    assert analyse(simulation, local_ray).to_dict()["speed"]["backend"] == "ray"


# ----------------------------------------------------------------------------- memory


def test_no_game_is_kept_once_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a game gives back is dropped once its chunk is counted: memory holds one chunk of
    games and the histograms, however many games are played (``make bench`` measures the
    resident memory from 10,000 to 1,000,000 games)."""
    import courtly.sim.analysis as analysis_module
    import courtly.sim.tournament as tournament_module
    from courtly.sim.backends import CHUNK_MOST

    made: list[weakref.ref[Any]] = []

    def watched(produce: Any) -> Any:
        def wrapper(player: GamePlayer, index: int) -> Any:
            found = produce(player, index)
            made.append(weakref.ref(found))
            return found

        return wrapper

    monkeypatch.setattr(analysis_module, "facts_of", watched(analysis_module.facts_of))
    monkeypatch.setattr(tournament_module, "record_of", watched(tournament_module.record_of))
    simulation = Simulation("royal-gambit", ("random", "random"), 400, seed=2)
    figures = analyse(simulation, LocalBackend(1))
    summary = Summary()  # as `courtly simulate` counts its games
    for record in run(simulation, 1):
        summary.add(record.seats, record.returns, record.length, record.truncated)
    del record
    gc.collect()
    assert figures.games == summary.games == 400 and len(made) == 800
    alive = sum(1 for ref in made if ref() is not None)
    assert alive <= CHUNK_MOST, alive
    # The histograms hold distinct values, not games.
    assert figures.lengths["steps"].n == 400
    assert len(figures.lengths["steps"].counts) <= len({r for r in summary.lengths.counts})


def test_the_leader_of_a_team_game_is_its_team() -> None:
    assert leader_of([0.2, 0.7, 0.1]) == 1
    assert leader_of([0.5, 0.5, 0.1]) == TIE
    teams = [(0, 2), (1, 3)]
    assert leader_of([0.6, 0.4, 0.6, 0.4], teams) == 0  # teammates share the value
    assert leader_of([0.4, 0.6, 0.4, 0.6], teams) == 1
    assert leader_of([0.5, 0.5, 0.5, 0.5], teams) == TIE


def test_a_team_game_measures_its_comebacks() -> None:
    document = analysis(
        "goths-save-the-queen",
        4,
        ["heuristic"] * 4,
        60,
        [Variant("default", {})],
        seed=1,
        backend=LocalBackend(1),
    )
    comebacks = document["variants"][0]["figures"]["comebacks"]
    assert comebacks["leader_at_middle_wins"]["of"] > 30  # a clan leads in most games
    assert 0.0 < comebacks["leader_at_middle_wins"]["rate"] <= 1.0


def test_a_games_own_turns_stay_apart_from_the_runs_of_decisions_by_one_seat() -> None:
    # Crush the Crown, Goths and King's Court count their own "turns" (State.progress): the
    # runs of decisions by one seat are "seat turns", never added into the game's unit.
    figures = Figures("toy", 2, {}, ("a", "b"), 0)
    own = replace(facts(0, (1.0, 0.0)), progress=(("turns", 9),))
    figures.add(own)
    length = figures.to_dict()["length"]
    assert length["turns"]["mean"] == 9 and length["turns"]["n"] == 1
    assert length["seat turns"]["mean"] == 4 and length["seat turns"]["n"] == 1
