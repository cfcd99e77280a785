"""Reviews of recorded games (courtly.sim.review): labels and figures as documented, the random
bot caught making more and larger mistakes than the heuristic, a seat's review blind to what it
could not see, the same review whatever the number of workers, and the files it writes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import courtly
from courtly.agents.estimates import Budget
from courtly.agents.registry import make_agent
from courtly.core import InvalidOptions, sample_chance
from courtly.core.match import play_match
from courtly.core.records import MatchRecord
from courtly.sim.review import (
    LABELS,
    LUCK_NOISE_LIMIT,
    GameReview,
    SeatSummary,
    label_of,
    move_accuracy,
    review_record,
    worst_decisions,
)
from courtly.sim.review_page import review_html, write_review
from courtly.sim.tournament import game_seed

TINY = Budget(80)


def short_game(seed: int = 0, seats: tuple[str, str] = ("heuristic", "random")) -> MatchRecord:
    """A short King's Court game (a 12-space track) between two bots."""
    game = courtly.make("kings-court", players=2, track_length=12)
    return play_match(game, [make_agent(s, game) for s in seats], seed, seats=list(seats))


@pytest.fixture(scope="module")
def reviewed() -> GameReview:
    return review_record(short_game(), budget=TINY, seed=1, workers=1)


def test_labels_and_accuracy_follow_the_documented_thresholds() -> None:
    assert [name for name, _ in LABELS] == ["blunder", "mistake", "inaccuracy"]
    assert label_of(0.04, 0.0) is None
    assert label_of(0.05, 0.01) == "inaccuracy"
    assert label_of(0.12, 0.01) == "mistake"
    assert label_of(0.30, 0.01) == "blunder"
    assert label_of(0.30, 0.31) is None  # within its noise
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.05) == pytest.approx(79.8, abs=0.2)
    assert move_accuracy(1.0) == 0.0


def test_a_review_covers_every_decision_and_chance_step(reviewed: GameReview) -> None:
    record = reviewed.record
    state = courtly.make("kings-court", players=2, track_length=12).new_state()
    choices = []
    for index, (actor, text) in enumerate(record.history):
        if actor == "chance":
            state.apply_chance(text)
            continue
        seat = int(actor[1:])
        if len(state.legal_actions(seat)) > 1:
            choices.append(index)
        state.apply(seat, text)
    assert [d.index for d in reviewed.decisions] == choices
    for decision in reviewed.decisions:
        assert decision.chosen.text == record.history[decision.index][1]
        assert decision.best is decision.actions[0]
        assert decision.loss == pytest.approx(max(0.0, decision.best.mean - decision.chosen.mean))
        assert 0.0 <= decision.accuracy <= 100.0
    assert reviewed.chance and all(step.first <= step.last for step in reviewed.chance)
    for seat, summary in reviewed.summaries.items():
        assert summary.result == record.returns[seat]
        assert summary.luck == pytest.approx(
            sum(step.luck.get(seat, 0.0) for step in reviewed.chance)
        )
        if summary.luck_stderr <= LUCK_NOISE_LIMIT:
            assert summary.adjusted == pytest.approx(summary.result - summary.luck)
        else:  # too noisy at this budget to say
            assert summary.adjusted is None
        assert summary.decisions == sum(1 for d in reviewed.decisions if d.seat == seat)
        curve = reviewed.curves[seat]
        assert curve[0][0] == 0 and curve[-1] == (len(record.history), record.returns[seat])
    data = json.loads(json.dumps(reviewed.to_dict()))
    assert data["format"] == "courtly-review/1"
    assert len(data["decisions"]) == len(reviewed.decisions)
    assert (
        worst_decisions(reviewed)
        == sorted((d for d in reviewed.decisions if d.label), key=lambda d: -d.loss)[:8]
    )


def test_only_the_chosen_seats_are_reviewed() -> None:
    review = review_record(short_game(), [1], TINY, seed=1, workers=1)
    assert review.seats == [1] and list(review.summaries) == [1]
    assert {d.seat for d in review.decisions} == {1}
    assert all(set(step.luck) <= {1} for step in review.chance)
    with pytest.raises(InvalidOptions, match="no seat 2"):
        review_record(short_game(), [2], TINY, workers=1)


def test_random_makes_more_and_larger_mistakes_than_the_heuristic() -> None:
    # Four short games, the bots swapping seats; tiny budgets, so only clear errors stand out.
    decisions = {"heuristic": 0, "random": 0}
    loss = {"heuristic": 0.0, "random": 0.0}
    errors = {"heuristic": 0, "random": 0}
    for index in range(4):
        seats = ("heuristic", "random") if index % 2 == 0 else ("random", "heuristic")
        review = review_record(
            short_game(game_seed(0, index), seats), budget=Budget(120), seed=index, workers=2
        )
        for seat, summary in review.summaries.items():
            agent = seats[seat]
            decisions[agent] += summary.decisions
            loss[agent] += sum(d.loss for d in review.decisions if d.seat == seat)
            errors[agent] += sum(summary.errors.values())
    mean_loss = {agent: loss[agent] / decisions[agent] for agent in loss}
    error_rate = {agent: errors[agent] / decisions[agent] for agent in errors}
    assert mean_loss["random"] > 2 * mean_loss["heuristic"]
    assert error_rate["random"] > 2 * error_rate["heuristic"]


@pytest.mark.parametrize("game_id", ["kings-court", "god-save-the-king", "crush-the-crown"])
def test_a_seats_review_ignores_what_it_could_not_see(game_id: str) -> None:
    """The same game up to a decision of p0, and a world p0 cannot tell from it (other cards in
    p1's hand and the deck, drawn by ``view.determinize``): p0's review is the same."""
    game = courtly.make(game_id, players=2)
    bots = [make_agent("heuristic", game) for _ in range(2)]
    rng, moves = random.Random(5), random.Random(6)
    state = game.new_state()
    while True:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        seat = state.to_move[0]
        if seat == 0 and len(state.history) > 6 and len(state.legal_actions(0)) > 1:
            break
        state.apply(seat, bots[seat].act(state.view(seat), moves))
    world = state.view(0).determinize(random.Random(1))
    truth, other = state.record(), world.record()
    assert truth.history != other.history  # p1's hidden draws differ
    reviews = [review_record(r, [0], TINY, seed=3, workers=1) for r in (truth, other)]
    assert reviews[0].decisions == reviews[1].decisions
    assert reviews[0].chance == reviews[1].chance
    assert reviews[0].curves == reviews[1].curves
    assert reviews[0].summaries[0] == reviews[1].summaries[0]


def test_the_same_review_whatever_the_number_of_workers() -> None:
    record = short_game(seed=2)
    one = review_record(record, budget=TINY, seed=4, workers=1).to_dict()
    two = review_record(record, budget=TINY, seed=4, workers=2).to_dict()
    assert one == two


def test_the_review_files(reviewed: GameReview, tmp_path: Path) -> None:
    json_path, html_path = write_review(reviewed, tmp_path / "game")
    assert json_path.name == "game.json" and html_path.name == "game.html"
    assert json.loads(json_path.read_text())["game"] == "kings-court"
    page = html_path.read_text()
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert 'src="data:image/png;base64,' in page  # the graph, inside the page
    assert page.count("<tr") >= len(reviewed.decisions) + 3
    for decision in worst_decisions(reviewed):
        assert f'<tr class="{decision.label}">' in page


def test_the_page_without_matplotlib(reviewed: GameReview, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    page = review_html(reviewed)
    assert "data:image/png" not in page and "needs Matplotlib" in page


def test_the_luck_adjusted_result_is_given_only_when_the_luck_is_measured_well_enough() -> None:
    steady = SeatSummary(0, "heuristic", luck=0.3, luck_stderr=0.05, result=1.0)
    assert steady.adjusted == pytest.approx(0.7)
    noisy = SeatSummary(0, "heuristic", luck=1.45, luck_stderr=0.91, result=0.0)
    assert noisy.adjusted is None and noisy.to_dict()["luck_adjusted_result"] is None
    assert SeatSummary(0, "random", result=None).adjusted is None
