"""Tiny helpers that set up Royal Gambit scenarios by forcing every chance outcome."""

from __future__ import annotations

import courtly
from courtly.games.royal_gambit.rules import RoyalGambitState


def new_game(players: int = 2, start: str = "p0", **options: object) -> RoyalGambitState:
    """A fresh game whose first hand is started by ``start`` (the forced start-player chance)."""
    state = courtly.make("royal-gambit", players=players, **options).new_state()
    assert isinstance(state, RoyalGambitState)
    state.apply_chance(start)
    return state


def play(state: RoyalGambitState, *steps: str) -> None:
    """Apply ``steps`` in order: ``"p1 hit"``, ``"p0 give-7 p2"``, ``"p0 jack p1"`` are seat
    decisions; anything else (``"7H"``) is the card forced for the pending draw."""
    for step in steps:
        seat, _, action = step.partition(" ")
        if action:
            state.apply(int(seat.removeprefix("p")), action)
        else:
            state.apply_chance(step)


def row(state: RoyalGambitState, seat: int) -> list[str]:
    return [str(c) for c in state.rows[seat]]


def set_aside(state: RoyalGambitState) -> list[str]:
    return [str(c) for c in state.set_aside]


def legal(state: RoyalGambitState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]
