"""God Save The King's first game that teaches: the tutorial plays to its end whatever the
learner does, every lesson has the coach's words, and the coach tells a seat nothing its view
does not (docs/rules/god-save-the-king.md §9)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import courtly
from courtly.agents.registry import make_agent
from courtly.core.actions import Action
from courtly.core.game import View, known_state, sample_chance
from courtly.core.tutorial import lesson_number, prepared_outcome
from courtly.games.god_save_the_king.components import D_CHALLENGE, D_DECLARE, D_FORM, D_ROUTE
from courtly.games.god_save_the_king.rules import GodSaveTheKingState

from .helpers import careful_action, new_game, play

TUTORIAL = courtly.make("god-save-the-king").info.tutorial
assert TUTORIAL is not None

Policy = Callable[[View, random.Random], Action]


def first_legal(view: View, rng: random.Random) -> Action:
    return view.legal_actions()[0]


def agent_policy(name: str) -> Policy:
    game = courtly.make("god-save-the-king", players=TUTORIAL.players, **TUTORIAL.options)
    return make_agent(name, game).act


def play_tutorial(learner: Policy, seed: int) -> tuple[GodSaveTheKingState, list[str | None]]:
    """The tutorial's game to its end, the learner playing ``learner`` and the other seats
    their bots, any prepared outcome checked legal when due; with the coach's words at each
    lesson (the same in a world the learner cannot tell apart)."""
    game = courtly.make("god-save-the-king", players=TUTORIAL.players, **TUTORIAL.options)
    bots = [make_agent(spec, game) for spec in TUTORIAL.opponents]
    rng = random.Random(seed)
    state = game.new_state()
    assert isinstance(state, GodSaveTheKingState)
    lessons: list[str | None] = []
    while not state.is_terminal:
        if state.is_chance:
            text = prepared_outcome(TUTORIAL, state.history)
            if text is None:
                sample_chance(state, rng)
            else:
                outcome = game.text.parse_chance(state, text)  # refuses an impossible outcome
                assert outcome in [o for o, _ in state.chance_outcomes()]
                state.apply_chance(outcome)
            continue
        seat = state.to_move[0]  # (the seats decide at once: each on its own view)
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
    # Nothing is dealt (§3), and the only draw, from a hand (§10), falls on whichever hand
    # the play decides: no card could be prepared for it.
    assert TUTORIAL.deal == ()


POLICIES = [
    pytest.param(lambda: agent_policy("heuristic"), 0, id="heuristic"),
    pytest.param(lambda: agent_policy("random"), 1, id="random-1"),
    pytest.param(lambda: agent_policy("random"), 2, id="random-2"),
    pytest.param(lambda: agent_policy("random"), 3, id="random-3"),
    pytest.param(lambda: first_legal, 4, id="first-legal"),
]


@pytest.mark.parametrize(("make_policy", "seed"), POLICIES)
def test_the_tutorial_ends_and_coaches_whatever_the_learner_plays(
    make_policy: Callable[[], Policy], seed: int
) -> None:
    state, lessons = play_tutorial(make_policy(), seed)
    assert state.is_terminal
    # Every lesson met before the end was given, and says something.
    learner_moves = sum(1 for actor, _ in state.history if actor == TUTORIAL.learner)
    assert len(lessons) == min(TUTORIAL.lessons, learner_moves)
    assert all(lessons)


def coached_line(steps: list[tuple[int, str]]) -> list[str | None]:
    """Play ``steps`` (a seat and its action, or -1 and the card drawn) from the start of the
    tutorial's game; the coach's words before each of p0's decisions."""
    state = new_game(TUTORIAL.players, **TUTORIAL.options)
    said = []
    for seat, text in steps:
        if seat < 0:
            state.apply_chance(text)
            continue
        if seat == 0:
            said.append(state.game.text.coach(state, 0))
        state.apply(seat, text)
    return said


def test_the_first_trick_teaches_the_formation_the_route_and_the_declaration() -> None:
    said = coached_line(
        [
            (0, "form left AS"),
            (0, "form middle 3S"),
            (0, "form right QS"),
            (1, "form left AH"),
            (1, "form middle 2H"),
            (1, "form right QH"),
            # AS beats QH, AH beats QS: a push.
            (0, "pass"),
            (1, "pass"),
            (0, "declare 3"),
            (1, "declare 2"),
            (1, "challenge"),
            (-1, "9H"),  # "accurate": p0 draws from p1's hand
            # The second trick: p1 has priority.
            (0, "form left JS"),
        ]
    )
    assert said == [
        "Lay 3 cards face down. Your left card meets p1's right card, your right card p1's "
        "left: the higher wins each column (GSK-4). Win a column and lose none to take the "
        "trick; your best are AS and QS. Keep KS out of the outside slots: turned up, it puts "
        "you out at once (GSK-5).",
        "With AS on your left: your middle card stays face down, and counts only in a push, "
        "when each names a rank for it (GSK-3). KS is safe in the middle unless p1 routes it "
        "(GSK-13); left or right, it is turned up and you are out (GSK-5).",
        "With AS on the left and 3S in the middle: your right card meets p1's left one "
        "(GSK-4). One column each, or two draws, is a push: then the middle cards' declared "
        "ranks decide. Keep KS out of the outside slots: turned up, it puts you out at once "
        "(GSK-5).",
        "A route says p1's face-down middle card is p1's King KH: if so, p1 is out and the "
        "trick is yours (GSK-15). If not, p1 draws a random card from your 10 cards (1 in 10 "
        "is your KS); 1 route left this hand (GSK-12). A push: if nobody routes, the middle "
        "cards' declared ranks decide.",
        "A push: each names a rank for their own middle card, and the higher rank takes the "
        "trick, true or not (GSK-9). Your middle card is 3S: naming 3 is the truth; name "
        "higher and a challenge lets p1 draw a random card from your 10 cards (1 in 10 is your "
        "KS).",
        "Lay 3 cards face down. Your left card meets p1's right card, your right card p1's "
        "left: the higher wins each column (GSK-4). Win a column and lose none to take the "
        "trick; your best are JS and 10S. Keep KS out of the outside slots: turned up, it puts "
        "you out at once (GSK-5).",
    ]


def script(*moves: str) -> Policy:
    """The learner's moves, in order."""
    waiting = list(moves)

    def act(view: View, rng: random.Random) -> Action:
        text = waiting.pop(0)
        return next(a for a in view.legal_actions() if a.text == text)

    return act


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_hints_lead_to_a_failed_challenge_and_a_trick_taken(seed: int) -> None:
    """Against the real bot: the learner lays its best cards outside and a low one in the
    middle, as the first lesson suggests, and tells the truth; the bot's cards meet them in a
    push, it declares lower, challenges the truth and pays a card (GSK-8, GSK-10)."""
    moves = ["form left AS", "form middle 3S", "form right QS", "pass", "declare 3"]
    learner = script(*moves)

    def until_second_trick(view: View, rng: random.Random) -> Action:
        state = known_state(view)
        assert isinstance(state, GodSaveTheKingState)
        if state.tricks_played == 0:
            return learner(view, rng)
        return agent_policy("heuristic")(view, rng)

    state, lessons = play_tutorial(until_second_trick, seed)
    assert all(lessons) and len(lessons) == TUTORIAL.lessons
    events = [(actor, str(item)) for actor, item in state.history]
    challenge = events.index((1, "challenge"))
    assert events[challenge - 1] == (1, "declare 2")
    # Played again to the challenge: "accurate", so the learner draws a card from the bot's
    # hand (GSK-10), then collects the trick.
    again = new_game(TUTORIAL.players, **TUTORIAL.options)
    for actor, item in state.history[: challenge + 1]:
        again.apply(actor, item)
    assert again.is_chance and (again.draw_from, again.draw_to) == (1, 0)
    again.apply_chance(state.history[challenge + 1][1])
    assert again.past_tricks[0][2] == 0


def test_a_challenge_is_weighed_from_the_cards_in_sight() -> None:
    state = new_game(2)
    play(state, "p0 AS 2S QS", "p1 AH JH QH", "p0 pass", "p1 pass", "p0 declare 2", "p1 declare j")
    coach = state.game.text.coach
    assert coach(state, 1) is None  # the winner of the blind skirmish does not decide
    assert coach(state, 0) == (
        "p1 named a Jack and takes the trick either way (GSK-9). Challenge: if p1's middle card "
        "is not a Jack, you draw a random card from p1's 10 cards; if it is, p1 draws a random "
        "card from your 10 cards (1 in 10 is your KS). 1 of the 2 Jacks in play is out of your "
        "sight."
    )


def test_a_tie_and_a_route_that_wins_the_trick_anyway() -> None:
    state = new_game(2)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H")
    coach = state.game.text.coach
    assert coach(state, 0).endswith("You won the skirmishes: p1's middle card comes to you anyway.")
    assert coach(state, 1).endswith(
        "p0 won the skirmishes: only a good route takes this trick now."
    )
    state = new_game(2)
    play(state, "p0 7S 4S 9S", "p1 9H 2H 7H", "p0 pass", "p1 pass", "p0 declare q", "p1 declare q")
    assert coach(state, 0).startswith(
        "You both named a Queen: name again; after 2 more ties the trick is void (GSK-7)."
    )


def test_a_king_in_the_middle_is_named_for_what_it_risks() -> None:
    state = new_game(2)
    play(state, "p0 AS KS QS", "p1 AH 2H QH", "p0 pass", "p1 pass")
    coach = state.game.text.coach
    assert coach(state, 0) == (
        "A push: each names a rank for their own middle card, and the higher rank takes the "
        "trick, true or not (GSK-9). Your middle card is your King KS: win the trick and it "
        "comes back safe (GSK-19); lose it and KS lies in p1's pile, which puts you out when "
        "the hand ends."
    )
    # p1 cannot see p0's middle card: its lesson is about its own.
    assert "KS" not in coach(state, 1)


def random_states(players: int, seed: int, **options: object) -> list[GodSaveTheKingState]:
    """Every position where a seat decides, in a game of random moves that never show their
    own King (so that games reach later hands)."""
    rng = random.Random(seed)
    state = courtly.make("god-save-the-king", players=players, **options).new_state()
    assert isinstance(state, GodSaveTheKingState)
    seen = []
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        seen.append(state.clone())
        seat = state.to_move[0]
        state.apply(seat, careful_action(state, seat, rng))
    return seen


GAMES = [
    pytest.param(2, {}, id="2p"),
    pytest.param(3, {}, id="3p"),
    pytest.param(4, {}, id="4p"),
    pytest.param(
        2,
        {"route_window": "before_reveal", "exposed_king_legal": False, "routes_per_hand": 2},
        id="2p-early-routes",
    ),
    pytest.param(3, {"trick_pile_private_until_hand_end": False}, id="3p-open-piles"),
]


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_the_coach_tells_no_more_than_the_seat_knows(players: int, options: dict) -> None:
    rng = random.Random(players)
    for seed in range(2):
        for state in random_states(players, seed, **options):
            for seat in state.to_move:
                said = state.game.text.coach(state, seat)
                assert said
                view = state.view(seat)
                assert state.game.text.coach(known_state(view), seat) == said
                for _ in range(3):
                    assert state.game.text.coach(view.determinize(rng), seat) == said


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_the_coach_speaks_at_every_decision_and_only_there(players: int, options: dict) -> None:
    decisions = set()
    for seed in range(12):
        for state in random_states(players, seed, **options):
            for seat in range(players):
                said = state.game.text.coach(state, seat)
                if seat in state.to_move:
                    assert said and len(said) <= 300, said
                    decisions.add(state.decision)
                else:
                    assert said is None
    assert decisions == {D_FORM, D_ROUTE, D_DECLARE, D_CHALLENGE}


def test_no_coach_while_a_card_is_drawn_or_after_the_end() -> None:
    state = new_game(2)
    play(state, "p0 AS 2S QS", "p1 AH JH QH", "p0 pass", "p1 pass", "p0 declare 2")
    play(state, "p1 declare j", "p0 challenge")
    assert state.is_chance
    assert [state.game.text.coach(state, s) for s in range(2)] == [None, None]
    play(state, "KS")  # "accurate": p1 draws p0's King from p0's hand, and p0 is out
    assert state.is_terminal
    assert [state.game.text.coach(state, s) for s in range(2)] == [None, None]
