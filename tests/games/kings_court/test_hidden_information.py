"""docs/rules/kings-court.md §6: private hands and draws, the Queen's private look and the memory
of it, and determinization that respects everything a seat has seen."""

from __future__ import annotations

import json
import random
from collections import Counter

import courtly
from courtly.core.events import CHANCE, HIDDEN
from courtly.core.game import known_state
from courtly.core.match import play_randomly
from courtly.games.kings_court.components import CARD_BIT
from courtly.games.kings_court.rules import KingsCourtState

from .helpers import arrange, new_game, play


def _text(state: KingsCourtState, seat: int | None) -> str:
    return json.dumps(state.game.views.observation(state, seat)) + state.render(seat)


def _redacted(state: KingsCourtState, seat: int | None) -> KingsCourtState:
    copy = known_state(state.view(seat))
    assert isinstance(copy, KingsCourtState)
    return copy


def test_a_drawn_card_is_known_to_the_drawer_only() -> None:
    state = new_game(3)
    seven = courtly.Card.parse("7H")
    assert state.narrate(CHANCE, seven, 0) == "p0 draws 7H."
    assert state.narrate(CHANCE, seven, 1) == "p0 draws a card."
    assert state.narrate(CHANCE, seven, None) == "p0 draws a card."
    play(state, "7H")
    assert state.game.views.observation(state, 0)["players"][0]["hand"] == ["7H"]
    assert state.log(0)[-1] == ["chance", "7H"]
    for seat in (1, 2, None):
        assert "7H" not in _text(state, seat)
        obs = state.game.views.observation(state, seat)
        assert obs["players"][0]["hand_size"] == 1 and "hand" not in obs["players"][0]
        assert state.log(seat)[-1] == ["chance", "?"]


def test_a_view_holds_no_hidden_card_at_all() -> None:
    state = new_game(2)
    arrange(state, hands={1: "5S 9H"})
    play(state, "QS")
    copy = _redacted(state, 1)
    assert all(c < 0 for c in copy.hands[0])  # p0's Queen: removed, not merely hidden
    assert all(c < 0 for c in copy.draw_pile)
    assert copy.legal_actions(0) == ()  # p0's options would show his hand
    assert copy.history[-1] == (CHANCE, HIDDEN)
    mine = _redacted(state, 0)
    assert [str(a) for a in mine.legal_actions(0)] == ["play QS p1", "end"]


def test_the_queens_look_is_private_to_the_looker() -> None:
    state = new_game(3)
    arrange(state, hands={1: "6H KS 2S"})
    play(state, "QS")
    narration = state.narrate(0, state.parse_action(0, "play QS p1"), 2)
    assert narration == "p0 plays QS and looks at p1's hand (3 cards)."
    play(state, "p0 play QS p1")
    assert "You know p1 holds: 2S KS 6H (all of it)" in state.render(0)
    for seat in (2, None):
        text = _text(state, seat)
        assert not {"6H", "KS", "2S"} & set(text.replace(",", " ").replace('"', " ").split())
    assert state.legal_actions(2) == ()
    # The target knows what was seen: it is his own hand.
    assert state.game.views.observation(state, 1)["players"][0]["knows_of_mine"] == [
        "2S",
        "KS",
        "6H",
    ]
    assert "p0 has seen your 2S KS 6H" in state.render(1)


def test_the_look_is_remembered_while_the_looker_can_follow_the_hand() -> None:
    state = new_game(3)
    arrange(state, hands={1: "6H KS 2S"})
    play(state, "QS", "p0 play QS p1", "p0 pass", "p0 end", "9S")  # p1 draws an unseen card

    def known() -> list[str]:
        return list(state.game.views.observation(state, 0)["players"][1]["known_cards"])

    assert known() == ["2S", "KS", "6H"]
    assert "(and 1 unknown card)" in state.render(0)
    play(state, "p1 play 2S")  # a seen card leaves, face up
    assert known() == ["KS", "6H"]
    play(state, "p1 play 9S")  # the unseen one leaves: the memory is unchanged
    assert known() == ["KS", "6H"]
    assert state.game.views.observation(state, 2)["players"][1]["known_cards"] == []
    play(state, "p1 end", "KC", "p2 play KC p1")  # a King empties the hand: nothing left to know
    assert known() == []
    assert state.memories == [0] * 9


def test_a_new_look_refreshes_the_memory() -> None:
    state = new_game(2)
    arrange(state, hands={0: "QS", 1: "3S"})
    play(state, "QH", "p0 play QH p1", "p0 pass", "p0 end", "4S", "p1 end", "5H")
    assert state.game.views.observation(state, 0)["players"][1]["known_cards"] == ["3S"]
    play(state, "p0 play QS p1")
    assert state.game.views.observation(state, 0)["players"][1]["known_cards"] == ["3S", "4S"]


# ------------------------------------------------------------------------------ determinize


def _queen_scene() -> KingsCourtState:
    """p0 has looked at p1's 6H KS 2S; p1 then drew one card p0 has not seen."""
    state = new_game(3)
    arrange(state, hands={1: "6H KS 2S", 2: "4C"})
    play(state, "QS", "p0 play QS p1", "p0 pass", "p0 end", "9S", "p1 end", "8C")
    return state


def test_determinize_keeps_what_the_looker_has_seen() -> None:
    state = _queen_scene()
    view = state.view(2)
    rng = random.Random(1)
    seen = {courtly.Card.parse(t) for t in ("6H", "KS", "2S")}
    for _ in range(50):
        world = view.determinize(rng)
        assert isinstance(world, KingsCourtState)
        assert world.hands[2] == state.hands[2]  # own hand exactly
        assert len(world.hands[1]) == 4 and len(world.hands[0]) == 0
    counts: Counter[int] = Counter()
    view0 = state.view(0)
    for _ in range(400):
        world = view0.determinize(rng)
        assert isinstance(world, KingsCourtState)
        assert seen <= set(world.hands[1])  # the seen cards are where p0 saw them
        assert world.discard_pile == state.discard_pile
        assert world.memories[0 * 3 + 1] == state.memories[0 * 3 + 1]
        (extra,) = set(world.hands[1]) - seen
        counts[extra] += 1
        assert world.game.views.observation(world, 0) == state.game.views.observation(state, 0)
    # The unseen card is any of the 35 cards p0 cannot place (39, less QS on the discard pile
    # and the three seen), uniformly: 400 draws over 35 cards.
    assert len(counts) > 25
    assert max(counts.values()) < 40


def test_determinize_respects_the_others_memory_of_my_hand() -> None:
    state = _queen_scene()
    # p1 knows p0 saw 6H KS 2S; in p1's worlds p0 still remembers exactly those.
    view = state.view(1)
    rng = random.Random(2)
    for _ in range(20):
        world = view.determinize(rng)
        assert isinstance(world, KingsCourtState)
        assert world.memories[0 * 3 + 1] == state.memories[0 * 3 + 1]
        assert world.game.views.observation(world, 1) == state.game.views.observation(state, 1)


def test_determinize_gives_third_parties_no_more_than_they_know() -> None:
    state = _queen_scene()
    view = state.view(2)  # p2 saw p0 look at p1, not what p0 saw
    copy = _redacted(state, 2)
    assert copy.memories[0 * 3 + 1] == 0
    rng = random.Random(3)
    for _ in range(50):
        world = view.determinize(rng)
        assert isinstance(world, KingsCourtState)
        memory = world.memories[0 * 3 + 1]
        held = 0
        for c in world.hands[1]:
            held |= CARD_BIT[c]
        assert memory & ~held == 0  # only cards that are in the hand
        assert bin(memory).count("1") == 3  # p1 has not lost a card since: 3 are remembered
        play_randomly(world, rng)


def test_determinize_after_a_reshuffle_keeps_the_new_pile_to_the_old_discards() -> None:
    state = new_game(2)
    arrange(state, hands={0: "5H 9H"})
    three = courtly.Card.parse("3H")
    # Every other card goes to p1 (unseen by p0), so that the pile runs out at once.
    old = [c for c in state.draw_pile if c != three]
    state.draw_pile[:] = [three]
    state.hands[1] = sorted(old)
    play(state, "3H", "p0 play 3H", "p0 play 5H", "p0 play 9H", "p0 end")
    assert state.positions[0] == 17
    assert state.epoch == 1  # p1's draw found the pile empty: the discards became the pile
    reshuffled = {courtly.Card.parse(t) for t in ("3H", "5H", "9H")}
    assert set(state.draw_pile) == reshuffled
    play(state, "5H")
    view = state.view(0)
    rng = random.Random(4)
    drawn: Counter[int] = Counter()
    for _ in range(60):
        world = view.determinize(rng)
        assert isinstance(world, KingsCourtState)
        # p1's old cards cannot be in the new pile, and his new card comes from it.
        assert len(world.draw_pile) == 2 and set(world.draw_pile) < reshuffled
        assert set(old) < set(world.hands[1])
        (new,) = set(world.hands[1]) - set(old)
        drawn[new] += 1
        assert world.game.views.observation(world, 0) == state.game.views.observation(state, 0)
    assert set(drawn) == reshuffled


def test_views_never_show_a_card_whose_place_the_seat_cannot_know() -> None:
    """Stricter than the contract's check: also cards that went through a reshuffle, and the
    log left out (it names cards played in the past)."""
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        game = courtly.make("kings-court", players=players)
        state = game.new_state()
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal and steps < 600:
            if not state.is_chance and steps % 5 == 0:
                for seat in [None, *range(players)]:
                    obs = state.game.views.observation(state, seat)
                    assert "log" not in obs  # the log is served apart (state.log)
                    text = json.dumps(obs)
                    for other in range(players):
                        if other == seat:
                            continue
                        mask = 0 if seat is None else state.memories[seat * players + other]
                        for c in state.hands[other]:
                            if not mask & CARD_BIT[c]:
                                assert f'"{courtly.Card(c)}"' not in text
                    for c in state.draw_pile:
                        assert f'"{courtly.Card(c)}"' not in text
            if state.is_chance:
                courtly.sample_chance(state, rng)
            else:
                seat = state.to_move[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
