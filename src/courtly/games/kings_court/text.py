"""What people read and type in King's Court: the picture of the table, the narration of events,
the reasons of refusals and the typed shortcuts.

Nothing here runs in a playout or a search.
"""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, seat_text
from ...core.cards import CARDS, JACK, QUEEN, SUIT_NAMES, SUITS, Card, cards_text
from ...core.draws import drawn_card
from ...core.errors import IllegalAction
from ...core.events import CHANCE, Line, told_apart
from ...core.game import GameText, State
from .components import (
    BORROW,
    BORROWING,
    CUT,
    DEAL,
    END,
    FACE_NAME,
    PASS,
    PLAY,
    RANK,
    SEAT_SUIT,
    SUIT,
    VALUE,
    KingsCourtAction,
)
from .rules import KingsCourtState
from .views import known_cards

DISCARDS_SHOWN = 8
"""The top cards of the discard pile shown in the picture."""


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def names(seats: list[int]) -> str:
    """``p0``, ``p0 and p2``, ``p0, p1 and p3``."""
    texts = [seat_text(s) for s in seats]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


def _cards(cards: list[int]) -> str:
    return cards_text([CARDS[c] for c in cards])


# ----------------------------------------------------------------------------- the picture


class KingsCourtText(GameText):
    """The table, its events and what people type, in King's Court's words."""

    def render(self, state: State, seat: int | None) -> str:
        """The table from ``seat``'s side; once the game is over, the one summary of its end: the
        result, every pawn, every hand and the cards never drawn."""
        assert isinstance(state, KingsCourtState)
        game = state.tables
        n = state.num_players
        suits = ", ".join(f"{seat_text(s)} {SUIT_NAMES[SEAT_SUIT[s]]}" for s in range(n))
        if state.truncated:
            turn = f"ended after {count(state.turns_played, 'turn')}"
        elif state.is_terminal:
            turn = f"ended in turn {state.turns_played + 1}"
        else:
            turn = f"turn {state.turns_played + 1} (cap {game.safety_cap})"
        lines = [
            f"King's Court · {suits} · first to {game.track_length} · {turn}"
            f" · draw pile {count(len(state.draw_pile), 'card')}"
        ]
        lines += _track_lines(state, seat)
        lines.append(_discard_line(state))
        if state.removed:
            lines.append(f"Removed from the game: {_cards(state.removed)}")
        if state.is_terminal:
            if state.draw_pile:
                lines.append(f"Never drawn: {_cards(sorted(state.draw_pile))}")
            lines.append(_result_line(state))
            return "\n".join(lines)
        if seat is not None:
            lines += _memory_lines(state, seat)
        if state.to_move:
            lines.append(_prompt_line(state))
        return "\n".join(lines)

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        """The story of an event about to be applied to ``state``, told seat by seat."""
        return told_apart(state.num_players, lambda seat: self._told_to(state, actor, item, seat))

    def _told_to(self, state: State, actor: int, item: Any, seat: int | None) -> str | None:
        """One line telling ``seat`` about an event about to be applied to ``state``: a draw names
        its card to the drawer only (and to everyone when it is removed, KC-2)."""
        assert isinstance(state, KingsCourtState)
        if actor == CHANCE:
            return _narrate_draw(state, item, seat)
        who = seat_text(actor)
        assert isinstance(item, KingsCourtAction)
        if item.kind == END:
            line = f"{who} ends the turn."
            if state.turns_played + 1 >= state.tables.safety_cap:
                line += f" That was turn {state.tables.safety_cap}: the farthest pawn wins (KC-18)."
            elif not state.draw_pile and state.discard_pile:
                line += " The discard pile is shuffled into a new draw pile."
            return line
        if item.kind == PASS:
            return f"{who} borrows nothing."
        card = CARDS[item.card]
        if item.kind == BORROW:
            lead = f"{who} borrows {card} from {seat_text(state.queen_target)}'s hand and plays it"
        else:
            lead = f"{who} plays {card}"
        return f"{lead}: {_effect(state, actor, item)}"

    def action_from_text(self, state: State, seat: int, text: str) -> Action | None:
        """The action written ``text``. Shortcuts: a bare card (``7h``) means ``play`` (or ``borrow``
        after a Queen); a face card without a target means its only legal target."""
        assert isinstance(state, KingsCourtState)
        words = text.strip().split()
        if words and words[0].lower() not in ("play", "borrow", "end", "pass"):
            words.insert(0, "borrow" if state.phase == BORROWING else "play")
        action = state.game.action_from_text(" ".join(words))
        if action is not None or len(words) != 2 or words[0].lower() not in ("play", "borrow"):
            return action
        try:
            card = Card.parse(words[1])
        except ValueError:
            return None
        if VALUE[card]:
            return None
        kind = PLAY if words[0].lower() == "play" else BORROW
        matches = [
            a
            for a in state.legal_actions(seat)
            if isinstance(a, KingsCourtAction) and a.card == card and a.kind == kind
        ]
        if len(matches) == 1:
            return matches[0]
        if matches:
            targets = " or ".join(str(a) for a in matches)
            raise IllegalAction(f"{card} needs a target: {targets}")
        # No target is legal: the first action of this card, so that the refusal says why.
        tables = state.tables
        return (tables.all_plays_of if kind == PLAY else tables.all_borrows_of)[card][0]

    def input_steps(self, state: State, seat: int, text: str) -> list[str]:
        """A typed line may hold several actions separated by commas: ``play 7H, play 5S, end``."""
        steps = [part.strip() for part in text.replace(";", ",").split(",")]
        return [step for step in steps if step] or [text]

    def parse_chance(self, state: State, text: str) -> Any:
        assert isinstance(state, KingsCourtState)
        if state.is_chance and state.phase != CUT:
            return drawn_card(text, state.draw_pile, "the draw pile")
        return super().parse_chance(state, text)

    def why_unknown(self, state: State, seat: int, text: str) -> str:
        assert isinstance(state, KingsCourtState)
        return (
            f"{text.strip()!r} is not an action of King's Court "
            f"(play 7H, play JH p2, borrow 6H, pass, end); legal: {self.legal_text(state, seat)}"
        )

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` (who is to move) now, in the game's words."""
        assert isinstance(state, KingsCourtState)
        legal = f"; legal: {self.legal_text(state, seat)}"
        if not isinstance(action, KingsCourtAction) or state.game.known_action(action) is None:
            return f"{action} is not an action of King's Court{legal}"
        reason = _why_not_now(state, seat, action) or _why_not_this_card(state, seat, action)
        return (reason or f"{action} is not legal for {seat_text(seat)} now") + legal


def _track_lines(state: KingsCourtState, seat: int | None) -> list[str]:
    """The track, one lane per pawn between bars: ``o`` is the pawn, the first cell the start.
    (No square brackets: the terminal would take them for markup.)"""
    length = state.tables.track_length
    step = max(1, -(-(length + 1) // 61))  # spaces per character on long tracks
    cells = length // step + 1
    scale = [" "] * (cells + 4)
    for mark in range(0, length + 1, 10 * step):
        at = mark // step
        for i, ch in enumerate(str(mark)):
            scale[at + i] = ch
    lines = [f"{'track':<14}{''.join(scale).rstrip()}"]
    for s in range(state.num_players):
        lane = ["·"] * cells
        lane[state.positions[s] // step] = "o"
        marker = ">" if s in state.to_move else " "
        name = seat_text(s) + (" (you)" if s == seat else "")
        size = len(state.hands[s])
        if (s == seat or state.is_terminal) and size:
            hand = f"hand {size}: {_cards([c for c in state.hands[s] if c >= 0])}"
        else:
            hand = f"hand {size}"
        lines.append(
            f"{marker} {name:<9}{SUITS[SEAT_SUIT[s]]} |{''.join(lane)}|"
            f" {state.positions[s]:>3}  {hand}"
        )
    return lines


def _discard_line(state: KingsCourtState) -> str:
    discard = state.discard_pile
    if not discard:
        return "Discard pile: empty"
    more = len(discard) - DISCARDS_SHOWN
    below = f"({more} more) " if more > 0 else ""
    return f"Discard pile: {below}{_cards(discard[-DISCARDS_SHOWN:])} (top last)"


def _memory_lines(state: KingsCourtState, seat: int) -> list[str]:
    """What ``seat`` remembers of the others' hands, and what they remember of its own."""
    lines = []
    for other in range(state.num_players):
        if other == seat:
            continue
        known = known_cards(state, seat, other)
        if known:
            unknown = len(state.hands[other]) - len(known)
            extra = f" (and {count(unknown, 'unknown card')})" if unknown else " (all of it)"
            lines.append(f"You know {seat_text(other)} holds: {_cards(known)}{extra}")
        seen_mine = known_cards(state, other, seat)
        if seen_mine:
            lines.append(f"{seat_text(other)} has seen your {_cards(seen_mine)}")
    return lines


def _prompt_line(state: KingsCourtState) -> str:
    who = seat_text(state.to_move[0])
    if state.phase == BORROWING:
        target = seat_text(state.queen_target)
        return f"{who} looks at {target}'s hand: borrow one card to play, or pass."
    back = [s for s in range(state.num_players) if state.moved_back >> s & 1]
    note = f" (already moved back: {names(back)})" if back else ""
    return f"{who} to play a card or end the turn{note}."


def _result_line(state: KingsCourtState) -> str:
    """The one ``Game over`` line: who won, and how (the last space, or the safety cap)."""
    winners = list(state.winners)
    if not state.truncated:
        return f"Game over: {names(winners)} reaches space {state.tables.track_length} and wins."
    verb = "wins" if len(winners) == 1 else "share the win"
    spot = state.positions[winners[0]]
    return (
        f"Game over after the safety cap of {count(state.tables.safety_cap, 'turn')} (KC-18): "
        f"{names(winners)} {verb} with the farthest {'pawn' if len(winners) == 1 else 'pawns'}"
        f" (space {spot})."
    )


# ----------------------------------------------------------------------------- the narration


def _narrate_draw(state: KingsCourtState, card: Any, seat: int | None) -> str:
    if state.phase == CUT:
        return f"{card} wins the cut and starts."
    who = seat_text(state.drawer)
    verb = "is dealt" if state.phase == DEAL else "draws"
    if state.tables.owner[int(card)] < 0:
        return f"{who} {verb} {card}: nobody's suit, removed from the game (KC-2)."
    return f"{who} {verb} {card}." if seat == state.drawer else f"{who} {verb} a card."


def _effect(state: KingsCourtState, seat: int, action: KingsCourtAction) -> str:
    """What ``action`` of ``seat`` does, as it is played (before it changes anything)."""
    card = action.card
    value = VALUE[card]
    who = seat_text(seat)
    if value:
        owner = state.tables.owner[card]
        if owner == seat:
            spot = state.positions[seat] + value
            if spot >= state.tables.track_length:
                return f"{who} reaches space {state.tables.track_length} and wins!"
            return f"{who} moves forward {count(value, 'space')} to {spot}."
        victim = seat_text(owner)
        start = state.positions[owner]
        if start == 0:
            return f"{victim} is on the start already and stays there (a move back all the same)."
        if start <= value:
            return f"{victim} moves back {count(start, 'space')} to the start."
        return f"{victim} moves back {count(value, 'space')} to {start - value}."
    target = seat_text(action.target)
    rank = RANK[card]
    if rank == JACK:
        return (
            f"{who} ({state.positions[seat]}) and {target} ({state.positions[action.target]})"
            " swap places."
        )
    hand = state.hands[action.target]
    if rank == QUEEN:
        return f"{who} looks at {target}'s hand ({count(len(hand), 'card')})."
    shown = [c for c in hand if c >= 0 and c != card]
    if not shown:
        return f"{target} has no card to discard."
    return f"{target} discards his hand: {_cards(shown)}."


# ----------------------------------------------------------------------------- typing


def _why_not_now(state: KingsCourtState, seat: int, action: KingsCourtAction) -> str | None:
    """The refusal of an action of the wrong kind for the moment, or of a card not at hand."""
    kind = action.kind
    if state.phase == BORROWING:
        target = seat_text(state.queen_target)
        if kind in (PLAY, END):
            return f"first finish the Queen: borrow a card from {target}'s hand or pass"
        if kind == BORROW and action.card not in state.hands[state.queen_target]:
            return f"{CARDS[action.card]} is not in {target}'s hand"
        return None
    if kind == PASS:
        return "pass declines a Queen's borrow; to stop playing, end the turn"
    if kind == BORROW:
        return "borrow is only possible right after playing a Queen"
    if action.card not in state.hands[seat]:
        return f"{seat_text(seat)} does not hold {CARDS[action.card]}"
    return None


def _why_not_this_card(state: KingsCourtState, seat: int, action: KingsCourtAction) -> str | None:
    """The refusal of a card the rules forbid now: a second move back, or a wrong target."""
    card = action.card
    owner = state.tables.owner[card]
    if VALUE[card]:
        if owner >= 0 and owner != seat and state.moved_back >> owner & 1:
            return (
                f"{seat_text(owner)} has already been moved back this turn; each opponent "
                "only once per turn (KC-9)"
            )
        return None
    if action.target == seat:
        return "a face card is never played on oneself (KC-10)"
    if owner != seat and action.target != owner:
        name = f"a {FACE_NAME[RANK[card]]} of {SUIT_NAMES[SUIT[card]]}"
        return f"{name} may only be played on {seat_text(owner)}, whose suit it is (KC-10)"
    return None
