"""docs/rules/god-save-the-king.md §9 through the views: what each seat may see, and
determinize samples only the rest."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from courtly.core.cards import Card
from courtly.core.events import HIDDEN
from courtly.games.god_save_the_king.components import D_ROUTE
from courtly.games.god_save_the_king.rules import GodSaveTheKingState

from .helpers import careful_game, new_game, play


def shown(state: GodSaveTheKingState, seat: int | None) -> str:
    view = state.view(seat)
    return json.dumps(view.observation()) + view.render()


def test_formations_are_unseen_until_revealed() -> None:
    state = new_game()
    play(state, "p0 10S")
    theirs = state.view(1).observation()["tricks"][0]["formations"][0]
    assert theirs["placed"] == 1 and theirs["slots"] == ["face down", None, None]
    assert "10S" not in shown(state, 1) and "10S" not in shown(state, None)
    assert state.view(0).observation()["tricks"][0]["formations"][0]["slots"][0] == "[10S]"
    assert "Your formation so far: left 10S" in state.render(0)
    play(state, "p0 KS 8S", "p1 7H 5H 3H")
    # Outside cards are public now; the middle cards stay with their owners.
    assert "10S" in shown(state, 1) and "8S" in shown(state, 1)
    assert "KS" not in shown(state, 1) and "5H" not in shown(state, 0)
    assert "[KS]" in state.render(0)


def test_simultaneous_choices_are_secret_until_all_are_in() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 route")
    assert state.decision == D_ROUTE and state.to_move == (1,)
    obs = state.view(1).observation()
    assert obs["waiting_for"] == ["p1"] and obs["your_choice"] is None
    assert state.log(1)[-1] == ["p0", "?"]
    assert state.view(0).observation()["your_choice"] == "route"
    # To p1, p0 has chosen (public) but his choice is not in p1's copy at all.
    copy = state.view(1)._state
    assert isinstance(copy, GodSaveTheKingState)
    assert copy.to_move == (1,) and copy.pending_choices[0] is None
    assert state.narrate(1, state.parse_action(1, "pass"), 1) == "\n".join(
        [
            "p0 routes p1's middle card; p1 does not route.",
            "p0's route turns up p1's middle card: 5H, not p1's King.",
            "For the miss, p1 draws a card blindly from p0's hand.",
        ]
    )


def test_trick_piles_stay_unseen_even_by_their_owner_until_the_hand_ends() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 pass")
    assert "5H" not in shown(state, 0)
    copy = state.view(0)._state
    assert isinstance(copy, GodSaveTheKingState)
    assert copy.piles[0].count(HIDDEN) == 1 and "2S" in map(str, copy.piles[0])


def test_the_true_rank_behind_a_challenge_is_never_shown() -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare j", "p1 declare 9", "p1 challenge", "9S")
    for seat in (1, None):
        assert "6S" not in shown(state, seat)
    assert ["p0", "?"] in state.view(1).log()
    assert state.view(1).observation()["past_tricks"][-1]["challenge"] == "not accurate"
    assert "challenge: not accurate" in state.render(1)


def test_a_middle_card_is_known_to_its_owner_wherever_it_goes_in_three_players() -> None:
    state = new_game(3)
    play(state, "p0 2S 3S 4S", "p1 AH 5H QH", "p0 pass", "p1 pass")  # p1 wins p0's 3S
    assert state.view(0).observation()["players"][1]["pile_known_to_you"] == ["3S"]
    assert state.view(2).observation()["players"][1]["pile_unseen"] == 2
    assert "3S" not in shown(state, 2)


def test_determinize_fills_only_the_unknown_cards_uniformly() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 pass")
    view = state.view(0)
    rng = random.Random(1)
    unknown = [*sorted(str(c) for c in state.hands[1]), "5H"]
    counts: Counter[str] = Counter()
    for _ in range(2200):
        world = view.determinize(rng)
        assert isinstance(world, GodSaveTheKingState)
        assert world.hands[0] == state.hands[0]  # what p0 knows is untouched
        others = [str(c) for i, c in enumerate(world.piles[0]) if i != 4]
        assert others == ["10S", "2S", "8S", "7H", "3H"]
        hidden = str(world.piles[0][4])
        assert sorted([str(c) for c in world.hands[1]] + [hidden]) == sorted(unknown)
        counts[hidden] += 1
    # 11 equally likely cards: each about 200 times.
    assert set(counts) == set(unknown)
    assert all(120 < n < 290 for n in counts.values()), counts


def test_determinize_respects_the_challenge_answers() -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare 6", "p1 declare 5", "p1 challenge", "2H")  # accurate
    rng = random.Random(2)
    view = state.view(1)
    for _ in range(50):
        world = view.determinize(rng)
        assert isinstance(world, GodSaveTheKingState)
        assert "6S" in map(str, world.piles[0])  # an accurate 6 from p0 can only be the 6S

    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare j", "p1 declare 9", "p1 challenge", "9S")  # not accurate
    view = state.view(1)
    middles = set()
    for _ in range(200):
        world = view.determinize(rng)
        assert isinstance(world, GodSaveTheKingState)
        middle = world.piles[0][1]
        assert middle.rank != 11
        middles.add(str(middle))
    assert "JS" not in middles and len(middles) > 5


def test_determinize_puts_the_kings_where_the_seat_knows_they_are() -> None:
    """At the start of every hand each player's King is in his own hand (GSK-19)."""
    checked: list[int] = []
    rng = random.Random(0)  # not the game's: the game stays the same with or without checks

    def visit(state: GodSaveTheKingState, _: random.Random) -> None:
        if state.is_chance or state.decision != 1 or state.hand_number in checked:
            return
        if any(t.placed[i] for t in state.tricks for i in (0, 1)):
            return
        checked.append(state.hand_number)
        for seat in (None, 0):
            for _ in range(20):
                world = state.view(seat).determinize(rng)
                assert isinstance(world, GodSaveTheKingState)
                for s in range(3):
                    if s != seat and state.active[s]:
                        assert Card.parse(["KS", "KH", "KD"][s]) in world.hands[s]

    careful_game(3, 4, visit)
    assert len(checked) > 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_of_careful_games_hold_no_secret(players: int) -> None:
    import re

    def tokens(text: str) -> set[str]:
        return set(re.findall(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Za-z])", text))

    def visit(state: GodSaveTheKingState, rng: random.Random) -> None:
        if state.is_chance or len(state.history) % 4:
            return
        for seat in (None, *range(players)):
            view = state.view(seat)
            secrets = {str(c) for c in state.game.views.secret_cards(state, seat)}
            assert not secrets & tokens(shown(state, seat))
            world = view.determinize(rng)
            assert world.view(seat).observation() == view.observation()

    careful_game(players, 11, visit, trick_pile_private_until_hand_end=players != 3)
