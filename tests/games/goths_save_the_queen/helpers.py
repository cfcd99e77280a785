"""Helpers that set up Goths Save the Queen scenarios by forcing every chance outcome.

Seats (4 players): p0 Ostrogoth King, p1 Visigoth King, p2 Ostrogoth Warchief, p3 Visigoth
Warchief.
"""

from __future__ import annotations

import json

import courtly
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

OST, VIS = 0, 1


def new_game(
    objectives: str = "trap,queen,plains", fog: str | None = None, **options: object
) -> GothsSaveTheQueenState:
    """A fresh game whose Objectives lie in the order ``objectives`` (Objective 0 first) and, in
    the Fog variant, whose tokens are ``fog`` (the Ostrogoth token first)."""
    if fog is not None:
        options.setdefault("fog_of_war", True)
    state = courtly.make("goths-save-the-queen", **options).new_state()
    assert isinstance(state, GothsSaveTheQueenState)
    state.apply_chance(objectives)
    if fog is not None:
        state.apply_chance(fog)
    return state


def play(state: GothsSaveTheQueenState, *steps: str) -> None:
    """``"p0 b1"`` is a seat's decision; anything else is the forced chance outcome."""
    for step in steps:
        seat, _, action = step.partition(" ")
        if action and seat.startswith("p") and seat[1:].isdigit():
            state.apply(int(seat[1:]), action)
        else:
            state.apply_chance(step)


def turn(
    state: GothsSaveTheQueenState,
    o: tuple[str | None, str] | None = None,
    v: tuple[str | None, str] | None = None,
) -> None:
    """One turn's orders: each clan's (King card, Warchief order); the King with the initiative
    lays his card first, then the other King, then the Warchiefs (Ostrogoths first). A solo
    clan's King card is None. Sub-choices are played by the caller afterwards."""
    game = state.game
    plans = {OST: o, VIS: v}
    first = state.initiative
    for clan in (first, 1 - first):
        plan = plans[clan]
        assert plan is not None
        if plan[0] is not None:
            state.apply(game.tables.king_seat[clan], plan[0])
    for clan in (OST, VIS):
        plan = plans[clan]
        assert plan is not None
        state.apply(game.tables.warchief_seat[clan], plan[1])


def legal(state: GothsSaveTheQueenState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def snapshot(state: GothsSaveTheQueenState) -> tuple[str, ...]:
    """Everything a change would show in: the record, every view and every picture."""
    seats = [None, *range(state.num_players)]
    return (
        state.to_json(),
        *(json.dumps(state.game.views.observation(state, s), sort_keys=True) for s in seats),
        *(state.render(s) for s in seats),
    )


def place(
    state: GothsSaveTheQueenState,
    clan: int,
    cell: int,
    army: int | None = None,
    barricade: bool = False,
) -> None:
    """Hand-build a position: put ``clan``'s army on board cell ``cell`` (0 O-Forest .. 8
    V-Forest; 3-5 the Objectives, turned face up), with ``army`` figurines, optionally
    barricaded."""
    state.position[clan] = cell
    if 3 <= cell <= 5:
        state.revealed_objectives |= 1 << (cell - 3)
    if army is not None:
        state.army[clan] = army
    state.barricade[cell] = barricade
