"""What people read and type of Royal Gambit: the picture of the table, the narration of
events, and the cards one may name to force a draw.

Nothing here runs in a playout or a search.
"""

from __future__ import annotations

from typing import Any

from ...core.actions import seat_text
from ...core.cards import Card, cards_text
from ...core.draws import drawn_card
from ...core.events import CHANCE, PUBLIC, Line
from ...core.game import GameText, State
from .components import (
    ACTIVE,
    BUSTED,
    DRAW,
    FINAL,
    GIVE_SEVEN,
    HIT_ID,
    HIT_OR_STAY,
    PHASE_TEXT,
    QUEEN_BIT,
    RANK,
    STATUS_TEXT,
    STAYED,
    RoyalGambitAction,
)
from .rules import RoyalGambitState


class RoyalGambitText(GameText):
    """The table, its events and its draws in words (everything is public, so every seat
    hears the same)."""

    def render(self, state: State, seat: int | None) -> str:
        """The table from ``seat``'s side (everything is public); once the game is over, the one
        summary of its end: the result, every total and the last hand's rows."""
        assert isinstance(state, RoyalGambitState)
        tables = state.tables
        phase = "the last" if state.is_terminal else PHASE_TEXT[state.phase]
        lines = [
            f"Royal Gambit · hand {state.hand_number} ({phase}) · target {tables.target_score} · "
            f"deck {count(len(state.deck), 'card')}"
        ]
        lines += [_player_line(state, s, seat) for s in range(state.num_players)]
        if state.set_aside:
            lines.append(f"Set aside by pardons: {cards_text(state.set_aside)}")
        pending = [
            f"{seat_text(s)} must flip {count(left, 'more card', 'more cards')}"
            for s, left in reversed(state.forced_flips)
            if left
        ]
        if pending:
            lines.append("Forced flips: " + "; ".join(pending))
        if state.is_terminal:
            lines.append(_result_line(state))
        elif state.to_move:
            who = seat_text(state.to_move[0])
            if state.decision == HIT_OR_STAY:
                lines.append(f"{who} to hit or stay.")
            elif state.decision == GIVE_SEVEN:
                lines.append(f"{who} must give the 7 away.")
            else:
                lines.append(f"{who} picks who flips two cards (Jack).")
        return "\n".join(lines)

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        """The story of an event about to be applied to ``state``: everything is public in Royal
        Gambit, so every seat hears the same."""
        assert isinstance(state, RoyalGambitState)
        if actor == CHANCE:
            return [(PUBLIC, _narrate_card(state, item))]
        who = seat_text(actor)
        assert isinstance(item, RoyalGambitAction)
        if item.decision == HIT_OR_STAY:
            if item.id == HIT_ID:
                return [(PUBLIC, f"{who} hits.")]
            score = state.row_score(actor)
            total = state.totals[actor] + score
            return [(PUBLIC, f"{who} stays and banks {count(score, 'point')} (total {total}).")]
        if item.decision == GIVE_SEVEN:
            return [(PUBLIC, f"{who} gives {state.seven_to_give} to {seat_text(item.target)}.")]
        target = "himself" if item.target == actor else seat_text(item.target)
        return [(PUBLIC, f"{who} sends the Jack at {target}: two forced flips.")]

    def parse_chance(self, state: State, text: str) -> Any:
        assert isinstance(state, RoyalGambitState)
        if state.chance_event == DRAW:
            return drawn_card(text, state.deck, "the deck any more")
        return super().parse_chance(state, text)


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def names(seats: list[int] | tuple[int, ...]) -> str:
    """``p0``, ``p0 and p2``, ``p0, p1 and p3``."""
    texts = [seat_text(s) for s in seats]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


def _player_line(state: RoyalGambitState, s: int, seat: int | None) -> str:
    marker = ">" if s in state.to_move else " "
    you = " (you)" if s == seat else ""
    status = state.status[s]
    row = cards_text(state.rows[s]) or "-"
    if status == ACTIVE:
        note = f"would score {state.row_score(s)}"
    elif status == STAYED:
        note = f"banked {state.banked[s]}"
    elif status == BUSTED:
        note = "busted: 0"
    else:
        note = "sits out"
    favorite = " *favorite*" if s in state.favorites and state.phase == FINAL else ""
    return (
        f"{marker} {seat_text(s) + you:<9} total {state.totals[s]:>3}  {STATUS_TEXT[status]:<6}"
        f"  row: {row:<24} {note}{favorite}"
    )


def _result_line(state: RoyalGambitState) -> str:
    """The one ``Game over`` line: who won, with what, and whether the safety cap ended it."""
    winners = state.winners
    top = state.totals[winners[0]]
    verb = "wins" if len(winners) == 1 else "share the win"
    how = (
        f" after the safety cap of {count(state.tables.safety_cap, 'hand')} (RG-26)"
        if state.truncated
        else ""
    )
    others = sorted(
        (s for s in range(state.num_players) if s not in winners),
        key=lambda s: (-state.totals[s], s),
    )
    behind = ", ".join(f"{seat_text(s)} {state.totals[s]}" for s in others)
    return f"Game over{how}: {names(winners)} {verb} with {count(top, 'point')}" + (
        f" ({behind})." if behind else "."
    )


def _narrate_card(state: RoyalGambitState, card: Any) -> str:
    if not isinstance(card, Card):  # the seat that starts the first hand (RG-3)
        return f"{card} starts the first hand."
    flipper = state.flipper
    who = seat_text(flipper)
    ranks = state.row_ranks[flipper]
    if ranks & (1 << RANK[card]):
        if ranks & QUEEN_BIT:
            return f"{who} flips {card}: a repeat, pardoned by the Queen."
        return f"{who} flips {card}: a repeat, {who} busts!"
    return f"{who} flips {card}."
