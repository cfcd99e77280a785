"""The per-seat knowledge behind the views stays true to the table, event after event.

For every viewer, the true cards must be one of the arrangements its knowledge allows (the
counts of each class in each group, the challenge constraints), its unknown cards must be
exactly the cards it cannot see, and what is narrated to a seat never names a card it may not
know."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from courtly.agents.random_agent import RandomAgent
from courtly.core.events import CHANCE
from courtly.core.game import sample_chance
from courtly.games.god_save_the_king.heuristic import GodSaveTheKingHeuristic
from courtly.games.god_save_the_king.knowledge import _fits
from courtly.games.god_save_the_king.rules import GodSaveTheKingState
from courtly.games.god_save_the_king.views import ensure_knowledge, hidden_places

from .helpers import new_game

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Za-z])")

CASES = [
    (2, {}),
    (2, {"route_window": "before_reveal", "exposed_king_legal": False}),
    (3, {}),
    (3, {"trick_pile_private_until_hand_end": False, "routes_per_hand": 2}),
    (4, {}),
    (4, {"max_redeclare": 0, "route_window": "before_reveal"}),
]


def check_knowledge(state: GodSaveTheKingState) -> None:
    track = ensure_knowledge(state)
    assert track is not None
    if state.is_terminal:
        assert not hidden_places(state, None)  # once the game is over every card is shown
        return
    for k in track:
        for g, places in k.group_places.items():
            truth = Counter(k.class_of[c] for c in places)  # the true card lies at its own label
            assert truth == Counter({j: n for j, n in k.group_counts[g].items() if n})
        for place, rules in k.constraints.items():
            assert _fits(place, rules)
        hidden = {c for _, c in hidden_places(state, k.viewer)}
        assert hidden == set(k.group_of) == set(k.class_of)


@pytest.mark.parametrize(("players", "options"), CASES)
def test_knowledge_follows_the_table(players: int, options: dict[str, Any]) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(players, **options)
        ensure_knowledge(state)
        bot = GodSaveTheKingHeuristic(state.game)
        other = RandomAgent(state.game)
        while not state.is_terminal:
            if state.is_chance:
                outcome = state.sample_chance_outcome(rng)
                event: tuple[int, Any] = (CHANCE, outcome)
            else:
                seat = state.to_move[0]
                agent = bot if (seat + seed) % 2 == 0 else other
                event = (seat, agent.act(state.view(seat), rng))
            told = {s: state.narrate(event[0], event[1], s) for s in (None, *range(players))}
            if event[0] == CHANCE:
                state.apply_chance(event[1])
            else:
                state.apply(*event)
            check_knowledge(state)
            for s, line in told.items():
                secrets = {str(c) for c in state.game.views.secret_cards(state, s)}
                assert not secrets & set(CARD.findall(line or "")), (s, line)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_worlds_agree_with_long_games_views(players: int) -> None:
    rng = random.Random(players)
    state = new_game(players)
    bot = GodSaveTheKingHeuristic(state.game)
    steps = 0
    while not state.is_terminal and steps < 400:
        steps += 1
        if state.is_chance:
            sample_chance(state, rng)
            continue
        if steps % 6 == 0:
            for seat in (None, *range(players)):
                view = state.view(seat)
                world = view.determinize(rng)
                assert world.view(seat).observation() == view.observation()
                if seat is not None and seat in world.to_move:
                    assert list(world.legal_actions(seat)) == list(view.legal_actions())
        seat = state.to_move[0]
        state.apply(seat, bot.act(state.view(seat), rng))
