"""What people read and type in Crush the Crown: the picture of the table, the narration of each
event, the reasons of a refusal, and the parsing of a drawn card.

Nothing here runs on the hot path: the state calls it only to show something to a person.
"""

from __future__ import annotations

from typing import Any

from ...core.actions import seat_text
from ...core.cards import SUIT_NAMES
from ...core.draws import drawn_card
from ...core.events import CHANCE, Line, told_apart
from ...core.game import GameText, State
from .components import (
    BUILD,
    DEALER,
    DECISION_TEXT,
    DISCARD,
    DISCOVER,
    DRAW,
    EXTEND,
    FIRE,
    GIVE,
    GIVE_QUEEN,
    IS_QUEEN,
    JOKER,
    KIND_WORD,
    KINDS_OF_DECISION,
    LADDER_TEXT,
    MARRIAGE,
    MARRY,
    PASS,
    PLACE_SPY,
    SLOT,
    SLOTS,
    SPY,
    SUIT,
    TEXT,
    TRIBUTE,
    CrushTheCrownAction,
)
from .rules import CrushTheCrownState
from .views import known_cards


def counted(number: int, noun: str, plural: str = "") -> str:
    """``1 card``, ``2 cards``, ``2 spies``."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def either(words: list[str]) -> str:
    """``pass``, ``marry or discard``, ``pass, extend or discover``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def cards_text(cards: list[int]) -> str:
    return " ".join(TEXT[c] for c in cards) or "-"


# ------------------------------------------------------------------------------- the picture


class CrushTheCrownText(GameText):
    """The table, its events and the reasons of refusals, in Crush the Crown's words."""

    def render(self, state: State, seat: int | None) -> str:
        """The table from ``seat``'s side; once the game is over, the one summary of its end: the
        result, both governments, and every card that was hidden."""
        assert isinstance(state, CrushTheCrownState)
        over = state.is_terminal
        lines = [_header(state), *_governments(state, seat), *_piles(state)]
        if over:
            lines.append(f"Draw pile: {cards_text(state.draw_pile)}")
        lines += [_hand_line(state, h, seat) for h in (0, 1)]
        if over:
            lines.append(_result_line(state))
        elif state.to_move:
            lines.append(_prompt(state))
        return "\n".join(lines)

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        """The story of an event about to be applied to ``state``, told seat by seat."""
        return told_apart(state.num_players, lambda seat: self._told_to(state, actor, item, seat))

    def _told_to(self, state: State, actor: int, item: Any, seat: int | None) -> str | None:
        """One line telling ``seat`` of an event about to be applied."""
        assert isinstance(state, CrushTheCrownState)
        if actor == CHANCE:
            return _narrate_chance(state, item, seat)
        if not isinstance(item, CrushTheCrownAction):
            return f"{seat_text(actor)}: {item}"
        return _narrate_action(state, actor, item)

    def why_illegal(self, state: State, seat: int, action: Any) -> str:
        assert isinstance(state, CrushTheCrownState)
        legal = ", ".join(str(a) for a in state.legal_actions(seat))
        return f"{action} is not legal now: {_reason(state, seat, action)}; legal: {legal}"

    def parse_chance(self, state: State, text: str) -> Any:
        """The outcome written ``text``: a card of the draw pile (``Jk`` for a joker), or the
        dealer (``p0``, ``p1``)."""
        assert isinstance(state, CrushTheCrownState)
        if state.pending_chance != DRAW:
            return super().parse_chance(state, text)
        return drawn_card(text, state.draw_pile, "the draw pile")


def _header(state: CrushTheCrownState) -> str:
    game = state.tables
    if state.is_terminal:
        return f"Crush the Crown · over after {counted(state.turns_played, 'turn')}"
    mercenaries = [SUIT_NAMES[s] for s in state.mercenary_suits()]
    pile = len(state.draw_pile)
    header = (
        f"Crush the Crown · turn {state.turns_played + 1} of {game.safety_cap} · "
        f"draw pile: {counted(pile, 'card')}"
    )
    if mercenaries:
        header += f" · mercenary suits: {' and '.join(mercenaries)}"
    return header


def _governments(state: CrushTheCrownState, seat: int | None) -> list[str]:
    """Both governments side by side, a row per slot of the ladder, spies marked."""
    titles = []
    for h in (0, 1):
        you = " (you)" if h == seat else ""
        suit = state.suits[h]
        name = SUIT_NAMES[suit] if suit >= 0 else "unmarried"
        spies = state.spies[h].bit_count()
        note = f", {counted(spies, 'spy', 'spies')}" if spies else ""
        titles.append(f"{seat_text(h)}{you} {name}{note}")
    lines = [f"      {titles[0]:<28}{titles[1]}"]
    for i in range(SLOTS):
        cells = []
        for h in (0, 1):
            government = state.governments[h]
            if i < len(government):
                c = government[i]
                cell = f"{TEXT[c]} SPY" if state.spies[h] >> i & 1 else TEXT[c]
            elif i == len(government) and government:
                cell = "<- next"
            else:
                cell = "."
            cells.append(cell)
        lines.append(f"  {LADDER_TEXT[i]:>2}  {cells[0]:<28}{cells[1]}")
    return lines


def _piles(state: CrushTheCrownState) -> list[str]:
    lines = []
    if state.kings_aside:
        lines.append(f"Kings aside: {cards_text(state.kings_aside)}")
    lines.append(f"Discard pile: {cards_text(state.discard_pile)}")
    lines.append(f"Executed: {cards_text(state.executed)}")
    return lines


def _hand_line(state: CrushTheCrownState, h: int, seat: int | None) -> str:
    marker = ">" if h in state.to_move else " "
    hand = state.hands[h]
    if h == seat:
        return f"{marker} {seat_text(h)} (you) hand: {cards_text(hand)}"
    if state.is_terminal:
        return f"{marker} {seat_text(h)} hand: {cards_text(hand)}"
    known = " ".join(TEXT[c] for c in known_cards(state.known_to_rival[h]))
    extra = f" (known: {known})" if known else ""
    return f"{marker} {seat_text(h)} hand: {counted(len(hand), 'card')}{extra}"


def _result_line(state: CrushTheCrownState) -> str:
    winners = state.winners
    if len(winners) == 2:
        cap = counted(state.tables.safety_cap, "turn")
        return f"Game over: the safety cap of {cap} is reached; a draw."
    return f"Game over: {seat_text(winners[0])} completes a spy-free government and wins."


def _prompt(state: CrushTheCrownState) -> str:
    """What the seat to move is deciding."""
    mover = state.to_move[0]
    who = seat_text(mover)
    rival = seat_text(1 - mover)
    decision = state.decision
    if decision == MARRIAGE:
        return f"{who} seeks a Queen: marry one, or discard a card and draw another."
    if decision == GIVE_QUEEN:
        return f"{who} holds every free Queen and must give {seat_text(state.marrying)} one."
    if decision == BUILD:
        return f"{who} may build: extend his government or discover a spy."
    if decision == SPY:
        return f"{who} may place one spy in {rival}'s government."
    if decision == TRIBUTE:
        return f"{who} owes {rival} {counted(state.tribute_owed, 'tribute card')}."
    refill = counted(state.tables.hand_size, "card")
    return f"{who} may fire one card, then draws until he holds {refill}."


# ------------------------------------------------------------------------------- narration


def _narrate_chance(state: CrushTheCrownState, outcome: Any, seat: int | None) -> str:
    if state.pending_chance == DEALER:
        return f"{outcome} deals; {seat_text(1 - int(outcome))} marries and plays first."
    who = seat_text(state.drawer)
    reshuffles = state.reshuffles
    reshuffled = bool(reshuffles) and reshuffles[-1][0] == len(state.history) - 1
    note = "The discard pile is shuffled into a new draw pile. " if reshuffled else ""
    if seat == state.drawer:
        return f"{note}{who} draws {outcome}."
    return f"{note}{who} draws a card."


def _narrate_action(state: CrushTheCrownState, actor: int, action: CrushTheCrownAction) -> str:
    who = seat_text(actor)
    rival = seat_text(1 - actor)
    kind = action.kind
    if kind == PASS:
        return {
            BUILD: f"{who} builds nothing.",
            SPY: f"{who} places no spy.",
            FIRE: f"{who} fires no card.",
        }.get(state.decision, f"{who} passes.")
    card = TEXT[action.card]
    if kind == MARRY:
        return f"{who} marries {card}; his suit is {SUIT_NAMES[SUIT[action.card]]}."
    if kind == DISCARD:
        return f"{who} discards {card} and draws again."
    if kind == GIVE and state.decision == GIVE_QUEEN:
        return f"{who} holds every free Queen and gives {card} to {rival}, who marries her."
    if kind == GIVE:
        return f"{who} gives {card} to {rival} as tribute."
    if kind == EXTEND:
        return f"{who} extends his government with {card}."
    if kind == DISCOVER:
        spy = TEXT[state.governments[actor][SLOT[action.card]]]
        return f"{who} discovers the spy {spy} with {card}; {spy} is executed."
    if kind == PLACE_SPY:
        slot = LADDER_TEXT[len(state.governments[1 - actor])]
        wild = "wild " if action.card == JOKER or IS_QUEEN[action.card] else ""
        return f"{who} places the {wild}spy {card} in {rival}'s {slot} slot."
    return f"{who} fires {card}."


# ------------------------------------------------------------------------------- refusals


def _reason(state: CrushTheCrownState, seat: int, action: Any) -> str:
    if not isinstance(action, CrushTheCrownAction) or state.game.known_action(action) is None:
        return "it is not an action of this game"
    decision = state.decision
    kind = action.kind
    if kind not in KINDS_OF_DECISION[decision]:
        words = either([KIND_WORD[k] for k in KINDS_OF_DECISION[decision]])
        return f"this is the {DECISION_TEXT[decision]} step ({words})"
    card = action.card
    if card not in state.hands[seat]:
        return f"{TEXT[card]} is not in your hand"
    if kind == MARRY:
        return "you must marry a Queen"  # unreachable: a held Queen is always legal
    if kind == DISCARD:
        return "you hold a Queen and must marry her (CTC-4)"
    if kind == GIVE:
        return _reason_give(state, seat)
    if kind in (EXTEND, DISCOVER):
        return _reason_build(state, seat, kind, card)
    if kind == PLACE_SPY:
        return _reason_spy(state, seat, card)
    return "it is not allowed now"


def _reason_give(state: CrushTheCrownState, seat: int) -> str:
    rival = seat_text(1 - seat)
    if state.decision == GIVE_QUEEN:
        return f"you must give {rival} a Queen (CTC-6)"
    wanted = SUIT_NAMES[state.suits[1 - seat]]
    return f"you hold cards of {rival}'s suit ({wanted}) and must give one of those (CTC-14)"


def _reason_build(state: CrushTheCrownState, seat: int, kind: int, card: int) -> str:
    suit = state.suits[seat]
    if SUIT[card] != suit:
        return f"{TEXT[card]} is not of your suit ({SUIT_NAMES[suit]})"
    slot = LADDER_TEXT[SLOT[card]]
    if kind == DISCOVER:
        return f"no spy stands in your {slot} slot"
    filled = len(state.governments[seat])
    if SLOT[card] < filled:
        return f"your {slot} slot is already filled"
    if state.extended_this_turn:
        return "you have already extended your government this turn"
    return f"your government needs {LADDER_TEXT[filled]} next"


def _reason_spy(state: CrushTheCrownState, seat: int, card: int) -> str:
    rival = 1 - seat
    if SUIT[card] == state.suits[seat]:
        return f"{TEXT[card]} is of your own suit; your own cards are never spies (CTC-21)"
    if SUIT[card] == state.suits[rival]:
        return f"{TEXT[card]} is of {seat_text(rival)}'s suit and cannot be played (CTC-20)"
    needed = LADDER_TEXT[len(state.governments[rival])]
    return (
        f"{seat_text(rival)}'s government needs {needed} next; an ordinary spy must be of that "
        "rank (CTC-11)"
    )


# ------------------------------------------------------------------------------- parsing
