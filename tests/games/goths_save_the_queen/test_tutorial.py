"""Goths Save the Queen's first game that teaches: the learner, the Ostrogoth King, against three
heuristic bots on prepared Objectives. The prepared deal stays legal whatever the learner plays,
every lesson is explained, the coach's words in a worked example and at every kind of decision,
and the coach never tells a seat more than it may know (docs/rules/goths-save-the-queen.md §8)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

import courtly
from courtly.agents.registry import make_agent
from courtly.core.actions import Action
from courtly.core.game import View
from courtly.core.tutorial import lesson_number, prepared_outcome
from courtly.games.goths_save_the_queen.components import (
    CHOOSE_BARRICADE,
    CHOOSE_ENTRY,
    CHOOSE_RECON,
    KINGS,
    ORDERS,
    PLAINS,
    QUEEN,
    SUB_CHOICE,
    TRAP,
)
from courtly.games.goths_save_the_queen.game import TUTORIAL, GothsSaveTheQueen
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState
from courtly.games.goths_save_the_queen.text import COACH_LIMIT

from .helpers import OST, new_game, place, play, turn

GAME = "goths-save-the-queen"

Policy = Callable[[View, random.Random], Action]


def coach(state: GothsSaveTheQueenState, seat: int) -> str | None:
    return state.game.text.coach(state, seat)


def learner_policy(name: str, game: courtly.Game) -> Policy:
    """How the learner plays: the heuristic bot, at random, or always the first legal move."""
    if name == "heuristic":
        return make_agent("heuristic", game).act
    if name == "random":
        return lambda view, rng: rng.choice(view.legal_actions())
    return lambda view, rng: view.legal_actions()[0]


def play_tutorial(policy: str, seed: int) -> tuple[GothsSaveTheQueenState, list[str | None]]:
    """A tutorial game played to its end, the learner by ``policy``, the bots of the tutorial
    in the other seats; each prepared outcome checked legal when it is due. The coach's words
    at each of the learner's lessons come back with the final state."""
    tutorial = TUTORIAL
    game = courtly.make(GAME, tutorial.players, **tutorial.options)
    others = [seat for seat in range(game.num_players) if seat != tutorial.learner]
    bots: dict[int, Policy] = {
        seat: make_agent(spec, game).act
        for seat, spec in zip(others, tutorial.opponents, strict=True)
    }
    bots[tutorial.learner] = learner_policy(policy, game)
    rng = random.Random(seed)
    state = game.new_state()
    assert isinstance(state, GothsSaveTheQueenState)
    coached: list[str | None] = []
    while not state.is_terminal:
        if state.is_chance:
            text = prepared_outcome(tutorial, state.history)
            if text is None:
                state.apply_chance(state.sample_chance_outcome(rng))
                continue
            outcome = game.text.parse_chance(state, text)
            assert outcome in [possible for possible, _ in state.chance_outcomes()]
            state.apply_chance(outcome)
            continue
        seat = state.to_move[0]
        if seat == tutorial.learner and lesson_number(tutorial, state.history) is not None:
            coached.append(coach(state, seat))
        state.apply(seat, bots[seat](state.view(seat), rng))
    return state, coached


# ----------------------------------------------------------------------------- the tutorial


def test_the_tutorial_seats_the_learner_as_the_ostrogoth_king_against_heuristic_bots() -> None:
    tutorial = GothsSaveTheQueen.info.tutorial
    assert tutorial is TUTORIAL
    assert tutorial.players == 4 and tutorial.learner == 0
    assert tutorial.opponents == ("heuristic", "heuristic", "heuristic")
    game = courtly.make(GAME, tutorial.players, **tutorial.options)
    assert game.text.seat_title(game, tutorial.learner) == "Ostrogoth King"
    assert 5 <= tutorial.lessons <= 8


@pytest.mark.parametrize(
    ("policy", "seed"),
    [("heuristic", 0), ("heuristic", 1), ("random", 0), ("random", 1), ("random", 2), ("first", 0)],
)
def test_the_deal_is_legal_whatever_the_learner_plays_and_the_game_ends(
    policy: str, seed: int
) -> None:
    state, coached = play_tutorial(policy, seed)
    assert state.is_terminal
    # The prepared Objectives are the ones the game was played on.
    assert str(state.history[0][1]) == TUTORIAL.deal[0]
    assert state.objectives == [TRAP, QUEEN, PLAINS]
    # Every lesson the game lasted for is explained, in a few short sentences.
    lessons = sum(1 for actor, _ in state.history if actor == TUTORIAL.learner)
    assert len(coached) == min(lessons, TUTORIAL.lessons)
    for text in coached:
        assert text and len(text) <= COACH_LIMIT


def test_the_tutorial_lasts_its_lessons_in_most_games() -> None:
    """The bots do not end the game before the learner has had his lessons, as a rule."""
    full = sum(
        len(play_tutorial(policy, seed)[1]) == TUTORIAL.lessons
        for policy in ("heuristic", "random")
        for seed in range(4)
    )
    assert full >= 6


# ----------------------------------------------------------------------------- a worked example


def test_worked_example_the_first_lessons_of_the_tutorial() -> None:
    """The intended line of play: the learner signals an advance, hears of the Visigoth
    catapult aimed at him and has it sabotaged first, sees a card left face up by a wrong
    reading, and is told that its character is now a sure success."""
    state = new_game(TUTORIAL.deal[0])
    assert coach(state, 0) == (
        "Now a Barbarian can advance to O-Plains1 (7), a Recruiter recruit a 3rd figurine (3) "
        "and a Catapult load the catapult (4). Your Warchief sees only the back: B1 means "
        "Catapult or Barbarian, B2 Vulture or Barbarian; if he guesses wrong, nothing happens "
        "and the card stays face up."
    )
    turn(state, ("b1", "advance"), ("c1", "load"))
    play(state, "p1 c2")
    assert coach(state, 0) == (
        "Now a Vulture can sabotage their loaded catapult (2). Your Warchief sees only the "
        "back: V1 means Vulture or Recruiter, V2 Vulture or Barbarian. Watch out, their card "
        "shows C/B: a Catapult could fire (5: you are wiped out). Sabotage (2) would go before "
        "Fire (5) (GOTH-25)."
    )
    play(state, "p0 v2", "p2 sabotage", "p3 fire")
    assert state.army == [2, 2] and state.catapult == [False, False]
    assert coach(state, 0) == (
        "Now a Barbarian can advance to O-Plains2 (7). Your Warchief sees only the back: B1 "
        "means Catapult or Barbarian, B2 Vulture or Barbarian. Watch out, their King has not "
        "laid his card yet: a Barbarian could throw an axe (8: you lose 1). Barricade (6) would "
        "go before Axe (8) (GOTH-25)."
    )
    turn(state, ("b2", "recruit"), ("r1", "recruit"))  # a wrong reading: B2 stays face up
    assert state.face_up[OST] == 1 << 7
    play(state, "p1 b1")
    assert coach(state, 0) == (
        "Now a Barbarian can advance to O-Plains2 (7). With B2 face up, any Barbarian order "
        "succeeds whatever you lay (GOTH-3). Your Warchief sees only the back: R1 means Vulture "
        "or Recruiter, R2 Recruiter or Catapult. Watch out, their card shows C/B: a Barbarian "
        "could throw an axe (8: you lose 1)."
    )


# ----------------------------------------------------------------------------- every decision


def test_a_warchief_is_told_how_to_read_his_kings_back() -> None:
    state = new_game()
    play(state, "p0 c2", "p1 b2")
    assert coach(state, 2) == (
        "Your King's card shows C/B: C2 (Catapult) or B1 (Barbarian); an order of the other "
        "character does nothing. Now a Barbarian can advance to O-Plains1 (7) and a Catapult "
        "load the catapult (4)."
    )
    assert coach(state, 0) is None and coach(state, 1) is None  # the Kings have laid


def test_the_initiative_decides_between_two_shots_of_the_same_number() -> None:
    state = new_game()
    turn(state, ("c1", "load"), ("c2", "load"))  # both catapults loaded
    play(state, "p1 c1", "p0 c2")  # turn 2: the Visigoths hold the initiative
    assert coach(state, 2) == (
        "Your King's card shows C/B: C2 (Catapult) or B1 (Barbarian). Now a Catapult can fire "
        "(5: they are wiped out). Watch out, their card shows R/C: a Catapult could fire (5: "
        "you are wiped out). Two Fire (5): theirs first, as they hold the initiative (GOTH-25)."
    )


def test_a_card_face_up_settles_the_reading_of_its_twin_back() -> None:
    state = new_game()
    turn(state, ("b1", "recruit"), ("v2", "load"))  # B1 (back C/B) stays face up
    play(state, "p1 c1", "p0 c2")
    assert coach(state, 2) == (
        "Your King's card shows C/B: it can only be C2 (Catapult). With B1 face up, any "
        "Barbarian order succeeds (GOTH-3). Now a Barbarian can advance to O-Plains1 (7) and a "
        "Catapult load the catapult (4)."
    )


def test_entering_an_objective_weighs_the_queen_against_the_trap() -> None:
    state = new_game("trap,queen,plains")
    place(state, OST, 2, army=1)
    state.looked_at[OST] = 0b100  # the Ostrogoth Warchief saw the Plains under Objective 2
    turn(state, ("b1", "advance"), ("v1", "recruit"))
    assert (state.phase, state.pending_choice) == (SUB_CHOICE, CHOOSE_ENTRY)
    assert coach(state, 2) == (
        "Objectives 0 and 1, unknown to you, each hide the Queen 1 in 2 (you win) or the Trap "
        "1 in 2 (you lose your last figurine). Objective 2 is the Plains (you saw it): safe, "
        "nothing happens."
    )


def test_a_known_queen_is_a_win_in_the_warchiefs_words_only() -> None:
    """The Warchief saw the Queen: his coach says so, his King's does not (GOTH-17)."""
    state = new_game("trap,queen,plains")
    place(state, OST, 2)
    state.looked_at[OST] = 0b010
    king = coach(state, 0) or ""
    assert "the Queen 1 in 3" in king and "Objective 1" not in king
    play(state, "p0 b1", "p1 v1")
    assert "advance onto Objective 1, the Queen, and win (7)" in (coach(state, 2) or "")
    play(state, "p2 advance", "p3 recruit")
    assert (coach(state, 2) or "").startswith(
        "Objective 1 is the Queen (you saw it): entering it wins."
    )
    play(state, "p2 enter obj1")
    assert state.is_terminal and state.winner == OST


def test_a_reconnaissance_names_what_is_still_unknown() -> None:
    state = new_game("trap,queen,plains")
    state.looked_at[OST] = 0b001
    turn(state, ("v1", "recon"), ("r1", "recruit"))
    assert (state.phase, state.pending_choice) == (SUB_CHOICE, CHOOSE_RECON)
    assert coach(state, 2) == (
        "Look at one Objective in secret: only you learn what it is, not even your King "
        "(GOTH-17). Objectives 1 and 2, unknown to you, each hide the Queen 1 in 2. You know "
        "Objective 0 is the Trap."
    )


def test_a_solo_chief_is_reminded_of_the_character_he_may_not_repeat() -> None:
    state = new_game("trap,queen,plains", solo_clans="both")
    play(state, "p0 load", "p1 advance")
    assert coach(state, 0) == (
        "Your order always succeeds, but no Catapult order this turn: you gave one last turn "
        "(GOTH-23). Now a Barbarian can throw an axe (8: they lose 1) or advance to O-Plains1 "
        "(7) and a Recruiter recruit a 3rd figurine (3)."
    )


def test_a_barricade_with_fog_in_force_weighs_building_against_discarding() -> None:
    state = new_game("trap,queen,plains", fog="gusts,pea-soup")
    place(state, OST, 1)
    turn(state, ("b1", "advance"), ("v1", "recruit"))  # onto O-Plains2: Gusts turn up
    turn(state, ("b1", "barricade"), ("v2", "recruit"))
    assert (state.phase, state.pending_choice) == (SUB_CHOICE, CHOOSE_BARRICADE)
    assert coach(state, 2) == (
        "A barricade on O-Plains2 stops axes and the catapult but draws rats (GOTH-14). "
        "Discarding Gusts frees you of it: while it lies, axes do nothing for you (GOTH-19)."
    )


GAMES: list[dict[str, object]] = [
    {},
    {"fog_of_war": True},
    {"players": 3},
    {"solo_clans": "ostrogoths"},
    {"players": 2, "fog_of_war": True},
]


def random_decisions(
    options: dict[str, object], games: int, seed: int
) -> Iterator[tuple[int, GothsSaveTheQueenState]]:
    """Every decision of ``games`` random games (a seat to move, the state), mostly played by
    the heuristic so that the armies get to the Objectives, now and then at random."""
    game = courtly.make(GAME, **options)  # type: ignore[arg-type]
    bot = make_agent("heuristic", game)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_state()
        assert isinstance(state, GothsSaveTheQueenState)
        while not state.is_terminal:
            if state.is_chance:
                state.apply_chance(state.sample_chance_outcome(rng))
                continue
            seat = rng.choice(list(state.to_move))
            yield seat, state
            view = state.view(seat)
            action = bot.act(view, rng) if rng.random() < 0.8 else rng.choice(view.legal_actions())
            state.apply(seat, action)


def decision_kind(state: GothsSaveTheQueenState, seat: int) -> str:
    if state.phase == KINGS:
        return "king card"
    if state.phase == ORDERS:
        return "solo order" if state.tables.solo[state.tables.clan_of[seat]] else "order"
    return {CHOOSE_RECON: "look", CHOOSE_ENTRY: "enter", CHOOSE_BARRICADE: "barricade"}[
        state.pending_choice
    ]


def test_the_coach_speaks_at_every_kind_of_decision_and_only_there() -> None:
    met: set[str] = set()
    for options in GAMES:
        for seat, state in random_decisions(options, games=4, seed=3):
            text = coach(state, seat)
            assert text and len(text) <= COACH_LIMIT, (decision_kind(state, seat), text)
            assert text[0].isupper() and text[-1] in ".)"
            met.add(decision_kind(state, seat))
            for other in range(state.num_players):
                if other not in state.to_move:
                    assert coach(state, other) is None
    assert met == {"king card", "order", "solo order", "look", "enter", "barricade"}


@pytest.mark.parametrize("options", GAMES)
def test_the_coach_tells_no_more_than_the_seat_knows(options: dict[str, object]) -> None:
    """In every world drawn from a seat's view, the coach says the same words to it."""
    rng = random.Random(7)
    for seat, state in random_decisions(options, games=3, seed=5):
        text = coach(state, seat)
        for _ in range(3):
            world = state.view(seat).determinize(rng)
            assert isinstance(world, GothsSaveTheQueenState)
            assert coach(world, seat) == text


def test_the_coach_tells_the_learner_no_more_than_he_knows_in_the_tutorial() -> None:
    rng = random.Random(11)
    game = courtly.make(GAME, TUTORIAL.players, **TUTORIAL.options)
    bot = make_agent("heuristic", game)
    for seed in range(3):
        state = game.new_state()
        assert isinstance(state, GothsSaveTheQueenState)
        state.apply_chance(game.text.parse_chance(state, TUTORIAL.deal[0]))
        while not state.is_terminal and state.turn <= 10:
            seat = state.to_move[0]
            view = state.view(seat)
            if seat == TUTORIAL.learner:
                text = coach(state, seat)
                for _ in range(3):
                    world = view.determinize(rng)
                    assert isinstance(world, GothsSaveTheQueenState)
                    assert coach(world, seat) == text
            state.apply(seat, bot.act(view, random.Random(seed)))
