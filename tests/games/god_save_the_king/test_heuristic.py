"""The God Save The King heuristic: where it hides the King, when it routes, what it declares."""

from __future__ import annotations

import random

import courtly
from courtly.agents.random_agent import RandomAgent
from courtly.core.cards import Card
from courtly.core.match import play_match
from courtly.core.replays import replay_record
from courtly.games.god_save_the_king.components import D_CHALLENGE, D_DECLARE, D_ROUTE
from courtly.games.god_save_the_king.heuristic import GodSaveTheKingHeuristic
from courtly.games.god_save_the_king.views import probability_at

from .helpers import hand, new_game, play


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_the_king_stays_in_hand_when_three_other_cards_are_there() -> None:
    state = new_game()
    bot = GodSaveTheKingHeuristic(state.game)
    left, middle, right = bot.plan_formation(cards("2S 5S 9S KS QS"), 0, state)
    assert Card.parse("KS") not in (left, middle, right)
    assert {left, right} == set(cards("QS 9S"))  # the two strongest outside


def test_a_king_that_must_be_played_goes_in_the_middle() -> None:
    state = new_game()
    bot = GodSaveTheKingHeuristic(state.game)
    assert bot.plan_formation(cards("2S KS 9S"), 0, state) == tuple(cards("9S KS 2S"))


def test_the_bot_plays_its_planned_formation_step_by_step() -> None:
    state = new_game()
    bot = GodSaveTheKingHeuristic(state.game)
    rng = random.Random(0)
    for _ in range(3):
        state.apply(0, bot.act(state.view(0), rng))
    left, middle, right = (str(c) for c in state.tricks[0].formations[0])
    assert {left, right} == {"AS", "QS"} and middle == "2S" and "KS" in hand(state, 0)


def test_it_routes_a_middle_card_that_can_only_be_the_king() -> None:
    state = new_game(routes_per_hand=2, trick_pile_private_until_hand_end=False)
    play(state, "p0 AS 6S QS", "p1 2H 3H 4H", "p0 pass", "p1 route", "5H")
    play(state, "p1 6H 7H 8H", "p0 JS 2S 10S", "p0 pass", "p1 pass")
    play(state, "p0 9S 4S 8S", "p1 9H 10H JH", "p0 route", "p1 pass", "3S")
    assert hand(state, 1) == ["QH", "KH", "AH"] and hand(state, 0) == ["5S", "7S", "KS"]
    play(state, "p1 AH KH QH", "p0 5S KS 7S")
    assert state.decision == D_ROUTE
    # Every other heart has been seen: p1's middle card can only be his King.
    assert probability_at(state, 0, ("f", 0, 0, 1), Card.parse("KH")) == 1.0
    bot = GodSaveTheKingHeuristic(state.game)
    assert str(bot.act(state.view(0), random.Random(0))) == "route"
    play(state, "p0 route", "p1 pass")
    assert state.is_terminal and state.winners == (0,)


def test_it_does_not_route_on_a_guess() -> None:
    state = new_game()
    play(state, "p0 2S 3S 4S", "p1 AH 5H QH")
    bot = GodSaveTheKingHeuristic(state.game)
    assert str(bot.act(state.view(0), random.Random(0))) == "pass"


def test_it_declares_the_highest_rank_when_its_king_is_at_stake() -> None:
    state = new_game()
    play(state, "p0 7S KS 9S", "p1 9H 2H 7H", "p0 pass", "p1 pass")
    assert state.decision == D_DECLARE
    bot = GodSaveTheKingHeuristic(state.game)
    assert str(bot.act(state.view(0), random.Random(0))) == "declare a"
    # p1's King is in his hand, his middle card a 2: he declares it honestly.
    assert str(bot.act(state.view(1), random.Random(0))) == "declare 2"


def test_it_challenges_an_unlikely_declaration() -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare k", "p1 declare 9")  # p0 cannot hold his own King... it is a bluff
    assert state.decision == D_CHALLENGE
    bot = GodSaveTheKingHeuristic(state.game)
    assert str(bot.act(state.view(1), random.Random(0))) == "challenge"


def test_it_never_shows_its_own_king_and_beats_random() -> None:
    game = courtly.make("god-save-the-king")
    wins = 0.0
    games = 60
    for seed in range(games):
        seat = seed % 2
        agents = [RandomAgent(game), RandomAgent(game)]
        agents[seat] = GodSaveTheKingHeuristic(game)  # type: ignore[call-overload]
        record = play_match(game, agents, seed)
        wins += record.returns[seat]
        king = "KS" if seat == 0 else "KH"
        placed_outside = [
            item
            for actor, item in record.history
            if actor == f"p{seat}" and item in (f"form left {king}", f"form right {king}")
        ]
        assert not placed_outside
    assert wins / games > 0.8


def test_heuristic_mirror_games_end_by_play_not_by_the_cap() -> None:
    # Two identical bots used to tie every declaration and void every push until the cap.
    game = courtly.make("god-save-the-king", players=2)
    for seed in range(3):
        record = play_match(game, [GodSaveTheKingHeuristic(game) for _ in range(2)], seed)
        final = replay_record(record)
        assert final.is_terminal
        assert sum(1 for actor, _ in record.history if actor != "chance") < 2000
        assert record.returns in ([1.0, 0.0], [0.0, 1.0])


def test_two_seeds_can_open_differently() -> None:
    """Which of its two outside cards goes left is a tie to the bot: its rng breaks it."""
    openings = set()
    for seed in range(8):
        state = new_game()
        bot = GodSaveTheKingHeuristic(state.game)
        rng = random.Random(seed)
        for _ in range(3):
            state.apply(0, bot.act(state.view(0), rng))
        openings.add(tuple(str(c) for c in state.tricks[0].formations[0]))
    assert openings == {("AS", "2S", "QS"), ("QS", "2S", "AS")}


def test_the_same_seed_opens_the_same_way() -> None:
    game = courtly.make("god-save-the-king")
    first = play_match(game, [GodSaveTheKingHeuristic(game), GodSaveTheKingHeuristic(game)], 3)
    again = play_match(game, [GodSaveTheKingHeuristic(game), GodSaveTheKingHeuristic(game)], 3)
    assert first.history == again.history
