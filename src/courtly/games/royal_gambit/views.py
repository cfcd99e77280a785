"""What each seat sees of Royal Gambit: everything. Every flipped card lies face up and every
choice is made in the open; the order of the deck is no secret either, since each draw is a
chance event over the cards left. So a seat's view is the whole table, and a sampled world is
the state itself (the defaults of :class:`~courtly.core.game.GameViews`).
"""

from __future__ import annotations

from typing import Any

from ...core.actions import seat_text
from ...core.events import CHANCE
from ...core.game import GameViews, State
from .components import BUSTED, DECISION_TEXT, PHASE_TEXT, STATUS_TEXT
from .rules import RoyalGambitState


class RoyalGambitViews(GameViews):
    """Every seat, and a spectator, sees the whole table."""

    def observation(self, state: State, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, RoyalGambitState)
        tables = state.tables
        return {
            "game": state.game.id,
            "seat": None if seat is None else seat_text(seat),
            "target_score": tables.target_score,
            "phase": PHASE_TEXT[state.phase],
            "hand": state.hand_number,
            "start_player": seat_text(state.start_player),
            "turn": seat_text(state.turn),
            "to_move": [seat_text(s) for s in state.to_move],
            "decision": None if not state.to_move else DECISION_TEXT[state.decision],
            "totals": list(state.totals),
            "players": [
                {
                    "seat": seat_text(s),
                    "total": state.totals[s],
                    "status": STATUS_TEXT[state.status[s]],
                    "row": [str(c) for c in state.rows[s]],
                    "row_score": state.row_score(s) if state.status[s] != BUSTED else 0,
                    "banked": state.banked[s],
                }
                for s in range(state.num_players)
            ],
            "set_aside": [str(c) for c in state.set_aside],
            "deck_size": len(state.deck),
            "forced_flips": [
                [seat_text(s), left] for s, left in reversed(state.forced_flips) if left
            ],
            "favorites": [seat_text(s) for s in state.favorites],
            "winners": [seat_text(s) for s in state.winners],
        }

    def observed(self, state: State, actor: int, item: Any, observer: int) -> Any:
        # Every card is flipped face up and every choice is made in the open.
        return item if actor == CHANCE else item.id
