"""Helpers that set up King's Court scenarios by forcing chance outcomes.

``new_game`` forces the start player (the cut). ``arrange`` places pawns and hands directly, for
worked examples that start in the middle of a game: it takes the cards out of the draw pile, so
the zones stay a partition of the deck; everything after it is played through ``play``.
"""

from __future__ import annotations

import json

import courtly
from courtly.core.cards import Card
from courtly.games.kings_court.rules import KingsCourtState


def new_game(players: int = 4, start: str = "p0", **options: object) -> KingsCourtState:
    state = courtly.make("kings-court", players=players, **options).new_state()
    assert isinstance(state, KingsCourtState)
    state.apply_chance(start)
    return state


def arrange(
    state: KingsCourtState,
    positions: dict[int, int] | None = None,
    hands: dict[int, str] | None = None,
) -> None:
    """Put pawns on ``positions`` and give seats ``hands`` (``"6H KS 2S"``), cards taken out of
    the draw pile."""
    for seat, spot in (positions or {}).items():
        state.positions[seat] = spot
    for seat, text in (hands or {}).items():
        for word in text.split():
            card = Card.parse(word)
            state.draw_pile.remove(card)
            state.hands[seat].append(card)
        state.hands[seat].sort()


def play(state: KingsCourtState, *steps: str) -> None:
    """``"p0 play 7H"``, ``"p0 end"`` are seat decisions; ``"7H"`` forces the pending draw."""
    for step in steps:
        seat, _, action = step.partition(" ")
        if action:
            state.apply(int(seat.removeprefix("p")), action)
        else:
            state.apply_chance(step)


def hand(state: KingsCourtState, seat: int) -> list[str]:
    return [str(Card(c)) for c in state.hands[seat]]


def legal(state: KingsCourtState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def snapshot(state: KingsCourtState) -> str:
    """Everything observable about ``state``: its record, every view and every picture."""
    seats = [None, *range(state.num_players)]
    return json.dumps(
        {
            "json": state.to_json(),
            "observations": [state.game.views.observation(state, s) for s in seats],
            "renders": [state.render(s) for s in seats],
            "legal": [legal(state, s) for s in range(state.num_players)],
        }
    )
