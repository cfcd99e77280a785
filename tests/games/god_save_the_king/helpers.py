"""Helpers that drive God Save The King scenarios step by step, forcing every drawn card."""

from __future__ import annotations

import random
from typing import Any

import courtly
from courtly.core.game import sample_chance
from courtly.games.god_save_the_king.components import FORM, KING_OF, ROUTE
from courtly.games.god_save_the_king.heuristic import GodSaveTheKingHeuristic
from courtly.games.god_save_the_king.rules import GodSaveTheKingState

CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"route_window": "before_reveal", "exposed_king_legal": False}),
    (3, {}),
    (3, {"exposed_king_legal": False, "routes_per_hand": 2}),
    (4, {}),
    (4, {"exposed_king_legal": False, "route_window": "before_reveal"}),
]
"""Player counts and options whose games meet every kind of knowledge of the hidden cards."""


def new_game(players: int = 2, **options: Any) -> GodSaveTheKingState:
    state = courtly.make("god-save-the-king", players=players, **options).new_state()
    assert isinstance(state, GodSaveTheKingState)
    return state


def seat_of(word: str) -> int:
    return int(word.removeprefix("p"))


def play(state: GodSaveTheKingState, *steps: str) -> None:
    """Apply ``steps`` in order.

    ``"p0 10S 2S 8S"`` is p0's whole formation (left, middle, right) as three actions;
    ``"p1 route"``, ``"p0 pass"``, ``"p0 declare j"``, ``"p1 challenge"`` are single actions;
    a bare card (``"9S"``) is the card forced for the pending blind draw."""
    for step in steps:
        words = step.split()
        if len(words) == 1:
            state.apply_chance(words[0])
            continue
        seat = seat_of(words[0])
        rest = " ".join(words[1:])
        if all(_is_card(w) for w in words[1:]):
            for text in state.game.text.input_steps(state, seat, rest):
                state.apply(seat, text)
        else:
            state.apply(seat, rest)


def _is_card(word: str) -> bool:
    try:
        courtly.Card.parse(word)
    except ValueError:
        return False
    return True


def trick(state: GodSaveTheKingState, first: str, second: str, *after: str) -> None:
    """Both participants form (``"p0 10S 2S 8S"``, ``"p1 7H 5H 3H"``), then ``after``."""
    play(state, first, second, *after)


def texts(cards: list[Any]) -> list[str]:
    return [str(c) for c in cards]


def hand(state: GodSaveTheKingState, seat: int) -> list[str]:
    return texts(state.hands[seat])


def pile(state: GodSaveTheKingState, seat: int) -> list[str]:
    return texts(state.piles[seat])


def legal(state: GodSaveTheKingState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def careful_action(state: GodSaveTheKingState, seat: int, rng: random.Random) -> Any:
    """A random but not suicidal choice: never the own King outside, rarely a route."""
    legal_actions = state.legal_actions(seat)
    first = legal_actions[0]
    if first.kind == FORM:
        safe = [a for a in legal_actions if not (a.card == KING_OF[seat] and a.slot != 1)]
        return rng.choice(safe or legal_actions)
    if any(a.kind == ROUTE for a in legal_actions):
        if rng.random() < 0.15:
            return rng.choice(legal_actions)
        return next(a for a in legal_actions if a.kind != ROUTE)
    return rng.choice(legal_actions)


def careful_game(players: int, seed: int, visit: Any = None, **options: Any) -> GodSaveTheKingState:
    """A whole game of careful random play; ``visit(state, rng)`` before every event."""
    state = new_game(players, **options)
    rng = random.Random(seed)
    while not state.is_terminal:
        if visit is not None:
            visit(state, rng)
        if state.is_chance:
            sample_chance(state, rng)
        else:
            seat = state.to_move[0]
            state.apply(seat, careful_action(state, seat, rng))
    return state


def low_cards(state: GodSaveTheKingState, seat: int) -> str:
    """Three of ``seat``'s lowest cards, never his King: a formation that risks nothing."""
    cards = sorted((c for c in state.hands[seat] if c != KING_OF[seat]), key=lambda c: c.rank)
    return " ".join(str(c) for c in cards[:3])


def finish_trick(state: GodSaveTheKingState) -> None:
    """Resolve the pending trick(s) without routes or challenges (distinct declarations,
    the first card of a hand when a card is drawn)."""
    while not state.is_terminal and (state.is_chance or state.decision != 1):
        if state.is_chance:
            state.apply_chance(state.chance_outcomes()[0][0])
            continue
        for seat in state.to_move:
            options = legal(state, seat)
            if "pass" in options:
                state.apply(seat, "pass")
            else:
                state.apply(seat, "declare a" if seat == min(state.to_move) else "declare 2")
            break


def views_along_games(players: int, options: dict[str, Any]) -> list[tuple[Any, int | None]]:
    """The view's copy of every seat and the spectator, every few steps of four games (random
    ones, and games between heuristic bots, which challenge and last for hands)."""
    found: list[tuple[Any, int | None]] = []
    for seed, bot in ((players, False), (players + 10, True), (players + 20, True), (5, False)):
        rng = random.Random(seed)
        state = new_game(players, **options)
        heuristic = GodSaveTheKingHeuristic(state.game)
        steps = 0
        while not state.is_terminal:
            steps += 1
            if state.is_chance:
                sample_chance(state, rng)
                continue
            if steps % 4 == 0:
                for seat in (None, *range(players)):
                    found.append((state.view(seat)._state, seat))
            seat = state.to_move[0]
            view = state.view(seat)
            action = heuristic.act(view, rng) if bot else rng.choice(view.legal_actions())
            state.apply(seat, action)
    return found
