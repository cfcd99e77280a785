"""King's Court's first game that teaches: the prepared deal stays legal whatever the learner
plays, every lesson has the coach's words, and the coach tells a seat nothing its view does not
(docs/rules/kings-court.md §6)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import courtly
from courtly.agents.registry import make_agent
from courtly.core.actions import Action
from courtly.core.events import CHANCE
from courtly.core.game import View, known_state, sample_chance
from courtly.core.tutorial import lesson_number, prepared_outcome
from courtly.games.kings_court.components import BORROWING, PLAYING
from courtly.games.kings_court.rules import KingsCourtState

from .helpers import arrange, new_game, play

TUTORIAL = courtly.make("kings-court").info.tutorial
assert TUTORIAL is not None

Policy = Callable[[View, random.Random], Action]


def first_legal(view: View, rng: random.Random) -> Action:
    return view.legal_actions()[0]


def agent_policy(name: str) -> Policy:
    game = courtly.make("kings-court", players=TUTORIAL.players, **TUTORIAL.options)
    return make_agent(name, game).act


def script(*moves: str) -> Policy:
    """The learner's moves, in order (then it ends every turn)."""
    waiting = list(moves)

    def act(view: View, rng: random.Random) -> Action:
        legal = view.legal_actions()
        text = waiting.pop(0) if waiting else "end"
        return next(a for a in legal if a.text == text)

    return act


def play_tutorial(learner: Policy, seed: int) -> tuple[KingsCourtState, list[str | None]]:
    """The tutorial's game to its end, the learner playing ``learner`` and the other seats
    their bots, every prepared outcome checked legal when due; with the coach's words at each
    lesson (the same in a world the learner cannot tell apart)."""
    game = courtly.make("kings-court", players=TUTORIAL.players, **TUTORIAL.options)
    bots = [make_agent(spec, game) for spec in TUTORIAL.opponents]
    rng = random.Random(seed)
    state = game.new_state()
    assert isinstance(state, KingsCourtState)
    lessons: list[str | None] = []
    while not state.is_terminal:
        if state.is_chance:
            text = prepared_outcome(TUTORIAL, state.history)
            if text is None:
                sample_chance(state, rng)
                continue
            outcome = game.text.parse_chance(state, text)  # refuses an impossible outcome
            assert outcome in [o for o, _ in state.chance_outcomes()]
            state.apply_chance(outcome)
            continue
        seat = state.to_move[0]
        view = state.view(seat)
        if seat == TUTORIAL.learner:
            if lesson_number(TUTORIAL, state.history) is not None:
                said = game.text.coach(state, seat)
                lessons.append(said)
                # The same words in a world the learner cannot tell from this one.
                world = view.determinize(random.Random(len(state.history)))
                assert game.text.coach(world, seat) == said
            action = learner(view, rng)
        else:
            action = bots[seat - 1].act(view, rng)
        state.apply(seat, action)
    return state, lessons


def test_the_tutorial_seats_the_learner_against_the_heuristic() -> None:
    assert TUTORIAL.players == 2
    assert TUTORIAL.opponents == ("heuristic",)
    assert TUTORIAL.learner == 0
    assert 5 <= TUTORIAL.lessons <= 8
    # The learner wins the cut (KC-4), then every draw is a different card of the 26.
    assert TUTORIAL.deal[0] == "p0"
    cards = TUTORIAL.deal[1:]
    assert len(set(cards)) == len(cards) <= 26


POLICIES = [
    pytest.param(lambda: agent_policy("heuristic"), 0, id="heuristic"),
    pytest.param(lambda: agent_policy("random"), 1, id="random-1"),
    pytest.param(lambda: agent_policy("random"), 2, id="random-2"),
    pytest.param(lambda: agent_policy("random"), 3, id="random-3"),
    pytest.param(lambda: first_legal, 4, id="first-legal"),
    pytest.param(lambda: script("play 8H", "end", "play 6S"), 5, id="intended"),
]


@pytest.mark.parametrize(("make_policy", "seed"), POLICIES)
def test_the_deal_is_legal_whatever_the_learner_plays(
    make_policy: Callable[[], Policy], seed: int
) -> None:
    state, lessons = play_tutorial(make_policy(), seed)
    assert state.is_terminal
    drawn = [item for actor, item in state.history if actor == CHANCE]
    assert [str(o) for o in drawn[: len(TUTORIAL.deal)]] == list(TUTORIAL.deal)
    # Every lesson was given, and says something.
    assert len(lessons) == TUTORIAL.lessons
    assert all(lessons)


def test_the_intended_line_teaches_a_move_a_push_back_a_queen_and_a_king() -> None:
    learner = script(
        "play 8H", "end", "play 6S", "end", "play QH p1", "borrow 4H", "end", "play KH p1"
    )
    state, lessons = play_tutorial(learner, 0)
    # The bot's Jack answers the learner's first move (KC-11): that is what lesson 3 pushes back.
    assert (1, "play JS p0") in [(actor, str(item)) for actor, item in state.history]
    assert lessons == [
        "8H moves you forward 8, from 0 to 8 of 30; the 9 hearts still out could push you "
        "back. Ending the turn keeps your 1 card, but KS or KH could make you throw it "
        "away (KC-13).",
        "Nothing is left to play: end the turn, and p1 (on 0, 0 cards in hand) draws next.",
        # The bot's Jack swapped places: p1 on 8, the learner back on 0 (KC-11).
        "6S pushes p1 back 6, from 8 to 2 (each rival once a turn, KC-9). Ending the turn keeps "
        "your 1 card, but KS or KH could make you throw it away (KC-13).",
        "Nothing is left to play: end the turn, and p1 (on 2, 0 cards in hand) draws next.",
        "QH shows you p1's only card and lets you borrow one (KC-12). Ending the turn keeps "
        "your 1 card, but KS or KH could make you throw it away (KC-13).",
        "You see p1's hand: 4H. Borrowed, 4H moves you forward 4, from 0 to 4 (KC-12). A "
        "borrowed card leaves p1's hand for good; passing leaves it as it is.",
        "Nothing is left to play: end the turn, and p1 (on 2, 0 cards in hand) draws next.",
        "KH makes p1 throw away the one card in hand (KC-13). Ending the turn keeps your 1 card, but KS "
        "could make you throw it away (KC-13).",
    ]


def test_the_coach_weighs_the_race_the_swaps_and_the_push_backs() -> None:
    state = new_game(players=3)
    arrange(state, {0: 5, 1: 12, 2: 3}, {0: "3H 9H 4S JH", 2: "5C 6C"})
    play(state, "2C")
    coach = state.game.text.coach
    assert coach(state, 0) == (
        "3H 9H move you forward 12 together, from 5 to 17 of 30; the 8 hearts still out could "
        "push you back. JH swaps you with p1 (you gain 7, to 12), or swaps you with p2 (you lose "
        "2, to 3) (KC-11). 4S pushes p1 back 4, from 12 to 8; 2C pushes p2 back 2, from 3 to 1 "
        "(each rival once a turn, KC-9)."
    )
    assert [coach(state, 1), coach(state, 2)] == [None, None]
    play(state, "p0 play JH p1")
    assert coach(state, 0) == (
        "3H 9H move you forward 12 together, from 12 to 24 of 30; the 8 hearts still out "
        "could push you back. 4S pushes p1 back 4, from 5 to 1; 2C pushes p2 back 2, "
        "from 3 to 1 (each rival once a turn, KC-9). Ending the turn keeps your 4 cards, but "
        "KS, KH or KC could make you throw them away (KC-13)."
    )
    play(state, "p0 play 2C", "p0 play 3H", "p0 play 9H")
    assert coach(state, 0) == (
        "4S pushes p1 back 4, from 5 to 1 (each rival once a turn, KC-9). Ending the turn keeps "
        "your 1 card, but KS, KH or KC could make you throw it away (KC-13)."
    )


def test_the_coach_names_a_winning_card_first() -> None:
    state = new_game(players=2)
    arrange(state, {0: 26, 1: 12}, {0: "3H 4H KH"})
    play(state, "KS")
    assert state.game.text.coach(state, 0) == (
        "Play 4H: it takes you from 26 to 30 and wins at once (KC-8)."
    )


def random_states(players: int, seed: int, **options: object) -> list[KingsCourtState]:
    """Every position of a random game where a seat decides."""
    rng = random.Random(seed)
    state = courtly.make("kings-court", players=players, **options).new_state()
    assert isinstance(state, KingsCourtState)
    seen = []
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        seen.append(state.clone())
        seat = state.to_move[0]
        state.apply(seat, rng.choice(list(state.legal_actions(seat))))
    return seen


GAMES = [
    pytest.param(2, {}, id="2p"),
    pytest.param(3, {}, id="3p"),
    pytest.param(4, {}, id="4p"),
    pytest.param(2, {"initial_hand_size": 4, "prefilter_unused_suits": False}, id="2p-dealt"),
]


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_the_coach_tells_no_more_than_the_seat_knows(players: int, options: dict) -> None:
    rng = random.Random(players)
    for index, state in enumerate(random_states(players, 7, **options)):
        if index % 3:
            continue  # a third of the positions: the worlds are slow to draw
        seat = state.to_move[0]
        said = state.game.text.coach(state, seat)
        assert said
        view = state.view(seat)
        assert state.game.text.coach(known_state(view), seat) == said
        for _ in range(3):
            assert state.game.text.coach(view.determinize(rng), seat) == said


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_the_coach_speaks_at_every_decision_and_only_there(players: int, options: dict) -> None:
    phases = set()
    for seed in range(3):
        for state in random_states(players, seed, **options):
            for seat in range(players):
                said = state.game.text.coach(state, seat)
                if seat in state.to_move:
                    assert said and len(said) <= 300, said
                    phases.add(state.phase)
                else:
                    assert said is None
    assert phases == {PLAYING, BORROWING}


def test_no_coach_while_chance_is_due_or_after_the_end() -> None:
    state = courtly.make("kings-court").new_state()
    assert state.game.text.coach(state, 0) is None  # the cut
    state.apply_chance("p1")
    assert state.game.text.coach(state, 1) is None  # the draw
    rng = random.Random(0)
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, rng)
        else:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(list(state.legal_actions(seat))))
    assert [state.game.text.coach(state, s) for s in range(2)] == [None, None]
