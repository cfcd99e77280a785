"""docs/rules/crush-the-crown.md §8: hands private (sizes public), the draw pile unknown, tribute
cards seen by both, and determinize re-deals only what a seat cannot know."""

from __future__ import annotations

import random

from courtly.core.cards import CARDS, QUEEN, Card
from courtly.core.events import HIDDEN
from courtly.games.crush_the_crown.components import UNKNOWN
from courtly.games.crush_the_crown.rules import CrushTheCrownState

from .helpers import deal, new_game, play, position, texts

DIAMONDS = 2


def worlds(state: CrushTheCrownState, seat: int, n: int, seed: int = 0) -> list[CrushTheCrownState]:
    rng = random.Random(seed)
    view = state.view(seat)
    out = []
    for _ in range(n):
        world = view.determinize(rng)
        assert isinstance(world, CrushTheCrownState)
        assert world.view(seat).observation() == view.observation()
        out.append(world)
    return out


def test_hands_are_private_and_sizes_public() -> None:
    state = position(p0_hand="10D 4S", p1_hand="9H 3C 7S")
    obs = state.game.views.observation(state, 0)
    assert obs["hands"][0]["cards"] == ["4S", "10D"]
    assert obs["hands"][1] == {"seat": "p1", "size": 3, "known": []}
    shown = state.render(0)
    assert "4S" in shown and "10D" in shown
    assert "9H" not in shown and "3C" not in shown and "3 cards" in shown
    spectator = state.view(None).render()
    assert "4S" not in spectator and "9H" not in spectator
    redacted = state.game.views.redacted(state, 0)
    assert isinstance(redacted, CrushTheCrownState)
    assert redacted.hands[1] == [UNKNOWN] * 3
    assert set(redacted.draw_pile) == {UNKNOWN}


def test_draws_are_private_in_the_log_and_the_narration() -> None:
    state = new_game(dealer="p1")
    deal(state, "2C 3C 4C 5C QD", "2S 3S 4S 5S QH")
    assert state.log(0)[1] == ["chance", "2C"]
    assert state.log(1)[1] == ["chance", "?"]
    assert state.log(1)[2] == ["chance", "2S"]
    assert state.view(1)._state.history[1] == (-1, HIDDEN)  # type: ignore[attr-defined]
    play(state, "p0 marry QD")
    # The refill is over with this card: p1 looks for his Queen next, in everyone's story.
    after = "p1 looks for a Queen to marry."
    assert state.narrate(-1, CARDS[6], 0) == f"p0 draws 8S.\n{after}"
    assert state.narrate(-1, CARDS[6], 1) == f"p0 draws a card.\n{after}"
    assert state.narrate(-1, CARDS[6], None) == f"p0 draws a card.\n{after}"


def test_tribute_cards_are_seen_by_both_and_stay_known() -> None:
    state = position(p1_stack="KH QH JH 10H 9H 8C*", p0_hand="2S 3S", p1_hand="4D 5C 6C")
    play(state, "p0 pass", "p0 pass", "p1 give 4D")
    for seat in (None, 0, 1):
        assert state.game.views.observation(state, seat)["hands"][0].get("known", ["4D"]) == ["4D"]
    # From p1's side p0's hand holds 4D in every world; the other cards are re-dealt.
    for world in worlds(state, 1, 20):
        assert Card.parse("4D") in world.hands[0]
        assert world.hands[1] == state.hands[1]
    # p0 fires the 4D: it is public again and no longer known in his hand.
    play(state, "p0 fire 4D")
    assert state.game.views.observation(state, 1)["hands"][0]["known"] == []


def test_a_tribute_of_another_suit_proves_the_giver_held_none_of_the_receivers_suit() -> None:
    state = position(p1_stack="KH QH JH 10H 9H 8C*", p0_hand="2S 3S", p1_hand="2C 3C 4C 5C 6C")
    play(state, "p0 pass", "p0 pass", "p1 give 2C")
    for world in worlds(state, 0, 60):
        assert not [c for c in world.hands[1] if c.suit == DIAMONDS]
    # New cards he draws later may be anything.
    play(state, "p0 pass", "7D", "9S")
    seen_diamond = any(
        any(c.suit == DIAMONDS for c in world.hands[1]) for world in worlds(state, 0, 80)
    )
    assert not seen_diamond  # p1 has drawn nothing yet
    play(state, "p1 pass", "p1 pass", "p1 pass", "8D")
    seen_diamond = any(
        any(c.suit == DIAMONDS for c in world.hands[1]) for world in worlds(state, 0, 80)
    )
    assert seen_diamond


def test_a_marriage_discard_proves_the_hand_held_no_queen() -> None:
    state = new_game(dealer="p1")
    deal(state, "2C 3C 4C 5C 6C", "7C 8C 9C 10C JC")
    play(state, "p0 discard 2C", "7D")
    queens = [sum(1 for c in w.hands[0] if CARDS[c].rank == QUEEN) for w in worlds(state, 1, 300)]
    assert max(queens) <= 1  # only the newly drawn card may be a Queen
    assert 1 in queens


def test_a_marriage_step_without_deadlock_proves_a_queen_in_a_pile() -> None:
    # p1 marries and holds no Queen; no deadlock was declared, so a Queen is in a pile, and
    # the discard pile (public) holds none: the draw pile must. To make the draw pile small the
    # test moves most of it, face up, to the discard pile (as long marriage searches do).
    state = new_game(dealer="p1")
    deal(state, "QD QS QH 2C 3C", "4C 5C 6C 7C 8C")
    play(state, "p0 marry QD", "9C")
    assert state.to_move == (1,)
    keep = {Card.parse(t) for t in ("QC", "2D", "3D")}
    state.discard_pile = [c for c in state.draw_pile if c not in keep]
    state.draw_pile = [c for c in state.draw_pile if c in keep]
    assert legal_texts(state) == [
        "discard 4C",
        "discard 5C",
        "discard 6C",
        "discard 7C",
        "discard 8C",
    ]
    for world in worlds(state, 1, 40):
        assert any(CARDS[c].rank == QUEEN for c in world.draw_pile)


def legal_texts(state: CrushTheCrownState) -> list[str]:
    return [str(a) for a in state.legal_actions(state.to_move[0])]


def test_the_deadlock_reveals_the_queens_to_everyone() -> None:
    state = new_game(dealer="p1")
    deal(state, "2C 3C 4C 5C 6C", "QS QH QD QC 7C")
    for world in worlds(state, 0, 10):
        assert sorted(texts(c for c in world.hands[1] if CARDS[c].rank == QUEEN)) == [
            "QC",
            "QD",
            "QH",
            "QS",
        ]
    for seat in (None, 0):
        assert state.game.views.observation(state, seat)["hands"][1]["known"] == [
            "QS",
            "QH",
            "QD",
            "QC",
        ]


def test_secret_cards_never_show_in_a_view() -> None:
    state = position(p0_hand="10D 4S", p1_hand="9H 3C 7S")
    assert {str(c) for c in state.game.views.secret_cards(state, 0)} >= {"9H", "3C", "7S"}
    assert {str(c) for c in state.game.views.secret_cards(state, 1)} >= {"10D", "4S"}
    assert not {"10D", "4S"} & {str(c) for c in state.game.views.secret_cards(state, 0)}
