"""Simulations: seeds, seat rotation, workers, statistics, and the records they produce."""

from __future__ import annotations

import json
import math
import random
import statistics
from collections import Counter

import pytest

import courtly
from courtly import MatchRecord, ReplayError, State, View, make, play_match
from courtly.agents import RandomAgent, make_agent
from courtly.core.actions import seat_text
from courtly.core.replays import replay_record
from courtly.sim import Simulation, game_seed, rotated, run, summarize, wilson_interval

# --------------------------------------------------------------------------- wilson_interval


def test_wilson_interval_known_value() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=5e-4)
    assert high == pytest.approx(0.5962, abs=5e-4)


def test_wilson_interval_other_known_values() -> None:
    # 8 of 10: the textbook Wilson interval is (0.490, 0.943).
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=5e-4)
    assert high == pytest.approx(0.9433, abs=5e-4)
    # 0 of 10: (0, 0.278); 10 of 10: (0.722, 1).
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=5e-4)


@pytest.mark.parametrize("trials", [1, 2, 5, 37, 1000])
def test_wilson_interval_stays_in_unit_range_at_the_extremes(trials: int) -> None:
    for successes in (0, trials):
        low, high = wilson_interval(successes, trials)
        assert 0.0 <= low <= high <= 1.0
    low, high = wilson_interval(0, trials)
    assert low == 0.0
    assert high > 0.0
    low, high = wilson_interval(trials, trials)
    assert high == 1.0
    assert low < 1.0


def test_wilson_interval_with_no_trials_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("successes", "trials"), [(3, 10), (17, 40), (2.5, 9), (99, 100)])
def test_wilson_interval_contains_the_rate_and_is_symmetric(successes: float, trials: int) -> None:
    low, high = wilson_interval(successes, trials)
    assert low < successes / trials < high
    mirror_low, mirror_high = wilson_interval(trials - successes, trials)
    assert low == pytest.approx(1 - mirror_high)
    assert high == pytest.approx(1 - mirror_low)


def test_wilson_interval_narrows_with_more_trials() -> None:
    widths = [high - low for low, high in (wilson_interval(n / 2, n) for n in (10, 100, 1000))]
    assert widths[0] > widths[1] > widths[2]
    # Roughly 2 * 1.96 * sqrt(0.25 / n) for large n.
    assert widths[2] == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 1000), rel=0.01)


# --------------------------------------------------------------------------- rotation, seeds


@pytest.mark.parametrize("start", [0, 1, 5, 12])
def test_rotation_puts_every_agent_in_every_seat_once(start: int) -> None:
    seats = ["a", "b", "c", "d"]
    n = len(seats)
    assignments = [rotated(seats, index) for index in range(start, start + n)]
    for assignment in assignments:
        assert sorted(assignment) == seats
    for seat in range(n):
        assert sorted(assignment[seat] for assignment in assignments) == seats


def test_rotation_with_repeated_agents() -> None:
    seats = ["heuristic", "random", "random"]
    counts = Counter((s, name) for i in range(30) for s, name in enumerate(rotated(seats, i)))
    for seat in range(3):
        assert counts[(seat, "heuristic")] == 10
        assert counts[(seat, "random")] == 20


def test_rotation_of_game_zero_is_the_given_order() -> None:
    assert rotated(["x", "y", "z"], 0) == ["x", "y", "z"]
    assert rotated(["x", "y", "z"], 3) == ["x", "y", "z"]


def test_game_seed_is_deterministic_and_distinct() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    seeds = [game_seed(1, index) for index in range(500)]
    assert len(set(seeds)) == 500
    assert all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds)
    assert game_seed(1, 5) != game_seed(2, 5)
    assert [game_seed(0, i) for i in range(20)] != [game_seed(1, i) for i in range(20)]


# --------------------------------------------------------------------------- run, summarize


SIM = Simulation("royal-gambit", ("heuristic", "random", "random"), 12, seed=3)


def test_run_is_the_same_with_one_or_two_workers() -> None:
    one = [record.to_dict() for record in run(SIM, workers=1)]
    two = [record.to_dict() for record in run(SIM, workers=2)]
    assert len(one) == 12
    assert one == two
    assert [r["game_id"] for r in one] == list(range(12))
    assert [r["seed"] for r in one] == [game_seed(3, i) for i in range(12)]
    assert [r["seats"] for r in one] == [rotated(SIM.seats, i) for i in range(12)]


def test_run_depends_on_the_seed() -> None:
    other = Simulation("royal-gambit", SIM.seats, 12, seed=4)
    histories = [record.history for record in run(SIM)]
    assert histories != [record.history for record in run(other)]


@pytest.mark.parametrize("workers", [1, 2])
def test_run_reports_progress_for_every_game(workers: int) -> None:
    done: list[int] = []
    records = list(run(SIM, workers=workers, progress=done.append))
    assert sum(done) == len(records) == SIM.games


def test_run_without_rotation_keeps_the_seats() -> None:
    fixed = Simulation("royal-gambit", ("heuristic", "random"), 4, seed=1, rotate=False)
    assert [record.seats for record in run(fixed)] == [["heuristic", "random"]] * 4


def test_run_checks_its_simulation_before_playing() -> None:
    with pytest.raises(courtly.InvalidOptions):
        list(run(Simulation("royal-gambit", ("random", "robot"), 2)))
    with pytest.raises(courtly.InvalidOptions):
        list(run(Simulation("royal-gambit", ("random", "random"), 0)))
    with pytest.raises(courtly.InvalidOptions):
        list(run(Simulation("royal-gambit", ("random",) * 6, 2)))


def test_run_works_for_the_test_game() -> None:
    sim = Simulation("test-sealed-bids", ("random", "random", "random"), 9, seed=2)
    records = list(run(sim))
    assert len(records) == 9
    for record in records:
        assert record.game == "test-sealed-bids"
        assert sum(record.returns) == pytest.approx(1.0)
        assert replay_record(record).is_terminal


def test_summarize_counts_games_per_agent_and_per_seat() -> None:
    records = list(run(SIM))
    summary = summarize(records)
    assert summary.games == SIM.games
    assert summary.agents["heuristic"].games == SIM.games
    assert summary.agents["random"].games == 2 * SIM.games
    assert sum(t.games for t in summary.agents.values()) == SIM.games * len(SIM.seats)
    assert len(summary.seats) == len(SIM.seats)
    assert all(tally.games == SIM.games for tally in summary.seats)
    # The returns of each game sum to 1, so the wins of all seats sum to the number of games.
    assert sum(t.wins for t in summary.seats) == pytest.approx(SIM.games)
    assert sum(t.wins for t in summary.agents.values()) == pytest.approx(SIM.games)
    expected_heuristic = sum(
        value
        for r in records
        for spec, value in zip(r.seats, r.returns, strict=True)
        if spec == "heuristic"
    )
    assert summary.agents["heuristic"].wins == pytest.approx(expected_heuristic)
    assert summary.lengths.counts == Counter(r.length for r in records)
    assert min(summary.lengths.counts) <= summary.median_length <= max(summary.lengths.counts)
    assert summary.median_length == statistics.median(r.length for r in records)
    assert summary.mean_length == pytest.approx(statistics.fmean(r.length for r in records))


def test_summary_dict_is_json_and_consistent() -> None:
    summary = summarize(run(SIM))
    data = json.loads(json.dumps(summary.to_dict()))
    assert data["games"] == SIM.games
    heuristic = data["agents"]["heuristic"]
    assert heuristic["win_rate"] == pytest.approx(heuristic["wins"] / heuristic["games"])
    low, high = heuristic["ci95"]
    assert (low, high) == pytest.approx(wilson_interval(heuristic["wins"], heuristic["games"]))
    assert len(data["by_seat"]) == 3


def test_summarize_of_nothing() -> None:
    summary = summarize([])
    assert summary.games == 0
    assert summary.agents == {}
    assert summary.mean_length == 0.0


# --------------------------------------------------------------------------- play_match, records


def bots(game: courtly.Game) -> list[courtly.Agent]:
    return [make_agent("heuristic", game)] + [RandomAgent(game) for _ in range(2)]


def test_play_match_is_deterministic() -> None:
    game = make("royal-gambit", players=3)
    first = play_match(game, bots(game), 11)
    second = play_match(game, bots(game), 11)
    assert first.history == second.history
    assert first.returns == second.returns
    assert first.to_dict() == second.to_dict()
    other = play_match(game, bots(game), 12)
    assert other.history != first.history


def test_record_round_trip_replays_to_the_same_returns() -> None:
    game = make("royal-gambit", players=3, target_score=20)
    record = play_match(game, bots(game), 5, seats=["heuristic", "random", "random"], game_id=4)
    again = MatchRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record
    final = replay_record(again)
    assert final.is_terminal
    assert final.returns() == pytest.approx(record.returns)
    assert again.game_id == 4
    assert again.options["target_score"] == 20


def test_tampered_returns_raise_replay_error() -> None:
    game = make("royal-gambit", players=2)
    record = play_match(game, [RandomAgent(game), RandomAgent(game)], 8)
    data = record.to_dict()
    data["returns"] = [1.0 - value for value in record.returns]
    assert data["returns"] != record.returns
    with pytest.raises(ReplayError):
        replay_record(MatchRecord.from_dict(data))


def test_tampered_history_raises_replay_error() -> None:
    game = make("royal-gambit", players=2)
    record = play_match(game, [RandomAgent(game), RandomAgent(game)], 8)
    data = record.to_dict()
    index = next(i for i, (actor, _) in enumerate(data["history"]) if actor != "chance")
    data["history"][index] = [data["history"][index][0], "bogus"]
    with pytest.raises(ReplayError):
        replay_record(MatchRecord.from_dict(data))


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"game": "royal-gambit"},
        {"game": "royal-gambit", "options": {}, "seed": 1, "returns": [], "history": [["p0"]]},
    ],
    ids=["not-an-object", "missing-keys", "bad-history"],
)
def test_malformed_record_raises_replay_error(data: object) -> None:
    with pytest.raises(ReplayError):
        MatchRecord.from_dict(data)


# --------------------------------------------------------------------------- honest bots


class Spy:
    """A random agent that notes what it is given."""

    def __init__(self, game: courtly.Game) -> None:
        self.inner = RandomAgent(game)
        self.seen: list[object] = []
        self.observations: list[dict[str, object]] = []

    def act(self, view: View, rng: random.Random) -> courtly.Action:
        self.seen.append(view)
        self.observations.append(view.observation())
        return self.inner.act(view, rng)


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("royal-gambit", 2), ("royal-gambit", 4), ("test-sealed-bids", 2), ("test-sealed-bids", 3)],
)
def test_agents_are_given_views_never_states(game_id: str, players: int) -> None:
    game = make(game_id, players=players)
    spies = [Spy(game) for _ in range(players)]
    record = play_match(game, spies, 21)
    assert replay_record(record).is_terminal
    for seat, spy in enumerate(spies):
        assert spy.seen, f"seat {seat} never decided"
        for view in spy.seen:
            assert isinstance(view, View)
            assert not isinstance(view, State)
            assert view.seat == seat


@pytest.mark.parametrize("players", [2, 3])
def test_simultaneous_bidders_see_no_other_bid_or_card(players: int) -> None:
    game = make("test-sealed-bids", players=players, rounds=3)
    spies = [Spy(game) for _ in range(players)]
    record = play_match(game, spies, 4)
    everyone = [seat_text(s) for s in range(players)]
    dealt = [event for actor, event in record.history if actor == "chance"]
    for seat, spy in enumerate(spies):
        assert len(spy.observations) == 3
        for observation in spy.observations:
            assert observation["my_card"] == dealt[seat]
            assert observation["cards"] is None
            # Every seat decides before any bid of the round is in.
            assert observation["my_pending_bid"] is None
            assert observation["waiting_for"] == everyone


def test_the_summary_counts_games_cut_off_at_the_safety_cap() -> None:
    from courtly.sim import Simulation, summarize
    from courtly.sim import run as run_simulation

    capped = Simulation("kings-court", ("random", "random"), 6, 3, {"safety_cap": 2})
    summary = summarize(run_simulation(capped, 1, lambda k: None))
    assert summary.truncated == summary.games == 6
    assert summary.to_dict()["truncated"] == 6
    free = Simulation("royal-gambit", ("random", "random"), 6, 3)
    assert summarize(run_simulation(free, 1, lambda k: None)).truncated == 0


def test_records_from_worker_processes_say_which_games_the_safety_cap_cut_off() -> None:
    from courtly.sim import Simulation
    from courtly.sim import run as run_simulation
    from courtly.sim.tournament import BatchRunner

    capped = Simulation("kings-court", ("random", "random"), 4, 3, {"safety_cap": 2})
    records = list(run_simulation(capped, 2))
    assert [r.truncated for r in records] == [True] * 4
    free = Simulation("royal-gambit", ("random", "random"), 4, 3)
    with BatchRunner([capped, free], workers=2) as runner:
        found = {
            (which, record.game_id): record.truncated
            for (which, _, _), batch in runner.play([(0, 0, 4), (1, 0, 4)])
            for record in batch
        }
    assert found == {**{(0, i): True for i in range(4)}, **{(1, i): False for i in range(4)}}
