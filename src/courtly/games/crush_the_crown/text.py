"""What people read and type in Crush the Crown: the picture of the table, the story of each
event (told to each seat from what it may know, docs/rules/crush-the-crown.md §8), the outcome of
a finished game, the moves as buttons say them, the reasons of a refusal, and the parsing of a
drawn card.

Nothing here runs on the hot path: the state calls it only to show something to a person.
"""

from __future__ import annotations

from typing import Any, Final

from ...core.actions import Action, seat_text
from ...core.cards import SUIT_NAMES
from ...core.draws import drawn_card
from ...core.errors import IllegalAction
from ...core.events import CHANCE, PUBLIC, Line, observer_bit
from ...core.game import GameText, Outcome, Standing, State
from .components import (
    AFTER_DEAL,
    AFTER_MARRIAGE_DISCARD,
    BUILD,
    DEALER,
    DISCARD,
    DISCOVER,
    DRAW,
    EXTEND,
    FIRE,
    FIRE_CARD,
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
    return listed(words, "or")


def listed(words: list[str], conjunction: str = "and") -> str:
    """``9D``, ``9D and 10D``, ``2H, 7H and 9C`` (or ``9D or 10D``)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


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
        """The story of an event about to be applied to ``state``: the event, then what it sets
        off, each line told to who may know it. The event is played on a copy to see its
        consequences (a reshuffle, a new turn, the tribute owed, the end)."""
        assert isinstance(state, CrushTheCrownState)
        after = state.clone()
        try:
            if actor == CHANCE:
                after.apply_chance(item)
            else:
                after.apply(actor, item)
        except IllegalAction:
            return super().tell(state, actor, item)  # not an event of this game now
        item = after.history[-1][1]  # the event as applied: an action or a card, not a text
        if actor == CHANCE:
            lines = _tell_chance(state, item)
        else:
            assert isinstance(item, CrushTheCrownAction)
            lines = _tell_action(state, actor, item, after)
        return lines + _aftermath(state, actor, after)

    def outcome(self, state: State) -> Outcome:
        """Who completed his government first, or the safety cap's draw; each government's
        progress."""
        assert isinstance(state, CrushTheCrownState)
        return _outcome(state)

    def action_label(self, state: State, seat: int, action: Action) -> str:
        """A move in words: ``Extend your government with 10D``, ``Place 5C as a spy``."""
        assert isinstance(state, CrushTheCrownState)
        if not isinstance(action, CrushTheCrownAction):
            return str(action)
        return _label(state, seat, action)

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

    def coach(self, state: State, seat: int) -> str | None:
        """What a teacher tells a newcomer at ``seat``'s decision: which Queen to marry or what
        to discard, what a build or a spy does to the tribute, which tribute card helps the
        rival least, which cards are worth firing. Worked out from the seat's own hand and the
        public table only (§8), never from the rival's unknown cards or the draw pile."""
        assert isinstance(state, CrushTheCrownState)
        if seat not in state.to_move:
            return None
        return _COACHES[state.decision](state, seat)


def _header(state: CrushTheCrownState) -> str:
    game = state.tables
    if state.is_terminal:
        if state.turns_played >= game.safety_cap:
            return f"Crush the Crown · over after {counted(state.turns_played, 'turn')} (the cap)"
        # A win ends the game during its turn, which is not counted as played.
        return f"Crush the Crown · won on turn {state.turns_played + 1}"
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


# ------------------------------------------------------------------------------- the story

RANK_WORD: Final = (
    "King", "Queen", "Jack", "10", "9", "8", "7", "6", "5", "4", "3", "2", "Ace",
)  # fmt: skip
"""The rank of each slot of the ladder, in words."""


def _a(slot: int) -> str:
    """The rank of ``slot`` with its article: ``a 9``, ``an 8``, ``an Ace``, ``a Jack``."""
    word = RANK_WORD[slot]
    return f"{'an' if word[0] in '8A' else 'a'} {word}"


def _own(seat: int) -> int:
    """The knowers of a line that ``seat`` alone may read."""
    return observer_bit(seat, 2)


def _is_wild(card: int) -> bool:
    """Once both are married every Queen in a hand is a mercenary Queen: she and the joker are
    wild spies (§3)."""
    return card == JOKER or IS_QUEEN[card]


def _tell_chance(state: CrushTheCrownState, outcome: Any) -> list[Line]:
    """The dealer, or a card drawn: named to its drawer alone (§8)."""
    if state.pending_chance == DEALER:
        dealer = int(outcome)
        each = counted(state.tables.hand_size, "card")
        return [
            (
                PUBLIC,
                f"{seat_text(dealer)} deals {each} each (the dealer is drawn at random, CTC-3).",
            ),
            (PUBLIC, f"{seat_text(1 - dealer)} marries first and plays first (CTC-7)."),
        ]
    seat = state.drawer
    who = seat_text(seat)
    card = min(int(outcome), JOKER)
    own, others = _own(seat), ~_own(seat)
    if state.after_drawing == AFTER_DEAL:
        count = f"({len(state.hands[seat]) + 1} of {state.tables.hand_size})"
        return [
            (own, f"{who} is dealt {TEXT[card]} {count}."),
            (others, f"{who} is dealt a card {count}."),
        ]
    if state.after_drawing == AFTER_MARRIAGE_DISCARD:
        if card == JOKER:
            note = "a joker is no Queen (CTC-5)"
        elif IS_QUEEN[card]:
            note = "a Queen, whom he must marry (CTC-4)"
        else:
            note = "still no Queen"
        return [(own, f"{who} draws {TEXT[card]}: {note}."), (others, f"{who} draws a card.")]
    return [(own, f"{who} draws {TEXT[card]}."), (others, f"{who} draws a card.")]


def _tell_action(
    before: CrushTheCrownState, actor: int, action: CrushTheCrownAction, after: CrushTheCrownState
) -> list[Line]:
    """A decision, and what it settles at once in the governments."""
    who = seat_text(actor)
    rival = seat_text(1 - actor)
    kind = action.kind
    if kind == PASS:
        did = {BUILD: "builds nothing", SPY: "places no spy", FIRE: "fires no card"}
        return [(PUBLIC, f"{who} {did.get(before.decision, 'passes')}.")]
    card = action.card
    if kind == MARRY:
        return [(PUBLIC, _married(before, actor, card))]
    if kind == DISCARD:
        return [
            (PUBLIC, f"{who} holds no Queen: he discards {TEXT[card]} and draws again (CTC-5).")
        ]
    if kind == GIVE and before.decision == GIVE_QUEEN:
        return [
            (PUBLIC, f"{who} gives {TEXT[card]} to {rival} (the deadlock guard, CTC-6)."),
            (PUBLIC, _married(before, 1 - actor, card)),
        ]
    if kind == GIVE:
        return _tribute_given(before, actor, card, after)
    if kind == FIRE_CARD:
        return [(PUBLIC, f"{who} fires {TEXT[card]}.")]
    if kind == PLACE_SPY:
        return _spy_placed(before, actor, card)
    return _built(before, actor, kind, card, after)


def _married(state: CrushTheCrownState, seat: int, queen: int) -> str:
    suit = SUIT[queen]
    king = next(k for k in state.kings_aside if SUIT[k] == suit)
    return (
        f"{seat_text(seat)} marries {TEXT[queen]} to {TEXT[king]}: {SUIT_NAMES[suit]} are his suit."
    )


def _tribute_given(
    before: CrushTheCrownState, giver: int, card: int, after: CrushTheCrownState
) -> list[Line]:
    """A tribute card, seen by both players (§8); one of another suit than the receiver's shows
    that the giver holds none of the receiver's suit (CTC-14)."""
    receiver = 1 - giver
    who = seat_text(giver)
    owed = before.spies[giver].bit_count()  # one card per spy of the receiver's (CTC-13)
    count = f" ({owed - before.tribute_owed + 1} of {owed})" if owed > 1 else ""
    lines: list[Line] = [
        (PUBLIC, f"{who} gives {TEXT[card]} to {seat_text(receiver)} as tribute{count}.")
    ]
    wanted = before.suits[receiver]
    if SUIT[card] != wanted and not _gave_off_suit(before, giver):
        lines.append(
            (PUBLIC, f"{who} holds no {SUIT_NAMES[wanted]}, or he would give one (CTC-14).")
        )
    if before.tribute_owed > 1 and not after.hands[giver]:
        lines.append((PUBLIC, f"{who}'s hand is empty: the tribute stops there (CTC-15)."))
    return lines


def _gave_off_suit(state: CrushTheCrownState, giver: int) -> bool:
    """Whether ``giver``'s last tribute card, in this tribute, was already of another suit than
    the receiver's: then everyone knows he holds none of it."""
    if not state.history or state.tribute_owed >= state.spies[giver].bit_count():
        return False  # the first card of this tribute
    actor, item = state.history[-1]
    if actor != giver or not isinstance(item, CrushTheCrownAction):
        return False
    return SUIT[item.card] != state.suits[1 - giver]


def _spy_placed(before: CrushTheCrownState, actor: int, card: int) -> list[Line]:
    """A spy laid face up in the rival's next slot (§4), a wild one taking that slot's rank
    (CTC-11)."""
    rival = 1 - actor
    slot = len(before.governments[rival])
    who, whose = seat_text(actor), f"{seat_text(rival)}'s"
    spy = "a wild spy" if _is_wild(card) else "a spy"
    lines: list[Line] = [
        (
            PUBLIC,
            f"{who} places {TEXT[card]} as {spy} in {whose} government, as its {RANK_WORD[slot]}.",
        )
    ]
    if slot == SLOTS - 1:
        lines.append(
            (
                PUBLIC,
                f"{whose} government is complete but not clean: he cannot win until he exposes "
                f"{TEXT[card]} (CTC-12).",
            )
        )
    return lines


def _built(
    before: CrushTheCrownState, actor: int, kind: int, card: int, after: CrushTheCrownState
) -> list[Line]:
    """An extension or a discovery, and what the government is then: complete, clean, a win."""
    who = seat_text(actor)
    government = after.governments[actor]
    if kind == EXTEND:
        on_spy = before.spies[actor] >> (SLOT[card] - 1) & 1
        under = f" (on the spy {TEXT[before.governments[actor][-1]]})" if on_spy else ""
        line = f"{who} extends his government with {TEXT[card]}{under}"
    else:
        slot = SLOT[card]
        spy_card = before.governments[actor][slot]
        spy = TEXT[spy_card]
        named = f"the spy {spy}"
        if _is_wild(spy_card):
            named = f"the wild spy {spy} (his {RANK_WORD[slot]})"
        line = f"{who} discovers {named} with {TEXT[card]}: {spy} is executed"
    spies = after.spies[actor]
    if len(government) < SLOTS:
        left = f"; {counted(spies.bit_count(), 'spy', 'spies')} left in it" if spies else ""
        return [(PUBLIC, f"{line}; his government needs {_a(len(government))} next{left}.")]
    if not spies:
        clean = f"{who}'s government is complete, King to Ace, and free of spies: {who} wins"
        return [(PUBLIC, f"{line}."), (PUBLIC, f"{clean} (CTC-19).")]
    standing = [TEXT[government[i]] for i in range(SLOTS) if spies >> i & 1]
    still = (
        f"the spy {standing[0]} still stands"
        if len(standing) == 1
        else (f"the spies {' '.join(standing)} still stand")
    )
    return [
        (PUBLIC, f"{line}."),
        (
            PUBLIC,
            f"{who}'s government is complete, but {still} in it: no win until every spy is "
            "exposed (CTC-19).",
        ),
    ]


def _at(state: CrushTheCrownState, decision: int) -> bool:
    """Whether ``state`` waits for a seat's ``decision``."""
    return bool(state.to_move) and state.decision == decision


def _aftermath(before: CrushTheCrownState, actor: int, after: CrushTheCrownState) -> list[Line]:
    """What an event sets off before the next decision or draw, in the order it happens: a
    reshuffle, the end of the deal or of a refill, a marriage's sequel, a new turn, the tribute
    owed, the end of the game."""
    lines: list[Line] = []
    for _, pile in after.reshuffles[len(before.reshuffles) :]:
        lines.append(
            (
                PUBLIC,
                f"The draw pile is empty: the discard pile ({counted(len(pile), 'card')}) is "
                "shuffled into a new draw pile (CTC-18).",
            )
        )
    drawing = before.is_chance and before.pending_chance == DRAW
    if drawing and before.after_drawing == AFTER_DEAL and not after.cards_to_deal:
        lines += _deal_done(after)
    lines += _refill_stopped(before, actor, after)
    lines += _marriage_sequel(before, after)
    lines += _new_turns(before, after)
    lines += _tribute_due(before, after)
    if after.truncated:
        cap = counted(after.tables.safety_cap, "turn")
        lines.append((PUBLIC, f"The safety cap of {cap} is reached: the game is a draw (CTC-26)."))
    if after.is_terminal:
        shown = "; ".join(
            f"{seat_text(h)} {cards_text(after.hands[h]) if after.hands[h] else 'no card'}"
            for h in (0, 1)
        )
        lines.append((PUBLIC, f"The hands are shown: {shown}."))
        if after.draw_pile:  # every card hidden until now is shown (§8)
            lines.append((PUBLIC, f"The draw pile held: {cards_text(sorted(after.draw_pile))}."))
    return lines


def _new_turns(before: CrushTheCrownState, after: CrushTheCrownState) -> list[Line]:
    """The turns an event begins: the one under way after it, and any that passed at once in
    between (a player with no card, both piles empty: nothing to do, CTC-18)."""
    start, end = before.turns_played, after.turns_played
    lines: list[Line] = []
    if end == start:
        return lines
    latest = end if after.truncated else end + 1  # the turn of ``after.turn_player``
    for number in range(start + 2, latest + 1):
        seat = seat_text(after.turn_player if (latest - number) % 2 == 0 else 1 - after.turn_player)
        if number <= end:
            lines.append(
                (
                    PUBLIC,
                    f"Turn {number}: {seat} holds no card, and both piles are empty: his turn "
                    "passes (CTC-18).",
                )
            )
        else:
            lines.append((PUBLIC, f"Turn {number}: {seat} plays."))
    return lines


def _deal_done(after: CrushTheCrownState) -> list[Line]:
    """Each seat's own hand, and the size of the draw pile, once the last card is dealt."""
    lines: list[Line] = [
        (_own(h), f"{seat_text(h)}'s hand: {cards_text(after.hands[h])}.") for h in (0, 1)
    ]
    pile = counted(len(after.draw_pile), "card")
    lines.append((PUBLIC, f"The deal is done; {pile} are left in the draw pile."))
    return lines


def _refill_stopped(
    before: CrushTheCrownState, actor: int, after: CrushTheCrownState
) -> list[Line]:
    """Why a refill ends short of the hand size (both piles empty, CTC-18), or draws nothing
    (the hand is full already, CTC-16)."""
    seat = before.drawer if actor == CHANCE else actor
    drawing = before.is_chance and before.pending_chance == DRAW
    if drawing:
        if before.after_drawing == AFTER_DEAL:
            return []
        going_on = (
            after.is_chance and after.drawer == seat and after.after_drawing == before.after_drawing
        )
        target = before.refill_target
    else:
        if not _at(before, FIRE):
            return []
        going_on = after.is_chance and after.drawer == seat
        target = before.tables.hand_size
    held = len(after.hands[seat])
    if going_on or (held >= target and drawing):
        return []
    who = seat_text(seat)
    if held >= target:
        # The rule only where it explains: a hand above the hand size may stay so (CTC-16).
        rule = " (CTC-16)" if held > target else ""
        return [(PUBLIC, f"{who} holds {counted(held, 'card')}: he draws none{rule}.")]
    return [
        (
            PUBLIC,
            f"Both piles are empty: {who} draws no more and holds {counted(held, 'card')} "
            "(CTC-18).",
        )
    ]


def _marriage_sequel(before: CrushTheCrownState, after: CrushTheCrownState) -> list[Line]:
    """Who looks for a Queen now, the deadlock guard, or the end of the marriages."""
    if before.kings_aside and not after.kings_aside:
        kings = before.kings_aside
        if len(before.kings_aside) > 2:  # the second marriage is in this event
            kings = [k for k in before.kings_aside if SUIT[k] not in after.suits]
        suits = " and ".join(SUIT_NAMES[SUIT[k]] for k in kings)
        names = " and ".join(TEXT[k] for k in kings)
        return [
            (
                PUBLIC,
                f"Both are married. The Kings nobody married, {names}, are executed: {suits} are "
                "the mercenary suits.",
            ),
            (PUBLIC, f"Turn 1: {seat_text(after.turn_player)} plays (CTC-7)."),
        ]
    if _at(after, GIVE_QUEEN) and not _at(before, GIVE_QUEEN):
        giver = after.to_move[0]
        seeker = seat_text(1 - giver)
        queens = cards_text([c for c in after.hands[giver] if IS_QUEEN[c]])
        return [
            (
                PUBLIC,
                f"{seeker} holds no Queen, and none is left in the draw or discard pile: every "
                f"free Queen is in {seat_text(giver)}'s hand ({queens}).",
            ),
            (PUBLIC, f"{seat_text(giver)} must give {seeker} a Queen to marry (CTC-6)."),
        ]
    if after.marrying >= 0 and after.marrying != before.marrying and _at(after, MARRIAGE):
        who = seat_text(after.marrying)
        first = " first" if before.marrying < 0 else ""
        return [(PUBLIC, f"{who} looks for a Queen to marry{first}.")]
    return []


def _tribute_due(before: CrushTheCrownState, after: CrushTheCrownState) -> list[Line]:
    """The tribute a Spy phase sets off: one card per spy standing (CTC-13), none from an empty
    hand (CTC-15); and why no spy could be placed."""
    seat = after.turn_player
    if seat < 0 or (after.is_terminal and not after.truncated):
        return []
    rival = 1 - seat
    lines: list[Line] = []
    spy_step_ended = _at(before, SPY) or (
        _at(before, BUILD) and not _at(after, BUILD) and not _at(after, SPY)
    )
    complete = len(after.governments[rival]) == SLOTS
    if _at(before, BUILD) and spy_step_ended and after.hands[seat] and complete:
        lines.append((PUBLIC, f"{seat_text(rival)}'s government is complete: no spy can go in."))
    owed = after.spies[rival].bit_count()
    giver, receiver = seat_text(rival), seat_text(seat)
    if _at(after, TRIBUTE) and not _at(before, TRIBUTE):
        per = f"for {receiver}'s spy" if owed == 1 else f"one per spy of {receiver}'s"
        lines.append(
            (
                PUBLIC,
                f"{giver} owes {receiver} {counted(owed, 'card')} of tribute, {per} in his "
                "government (CTC-13).",
            )
        )
    elif spy_step_ended and owed and not after.hands[rival]:
        lines.append((PUBLIC, f"{giver} owes {receiver} tribute but has no card to give (CTC-15)."))
    return lines


# ------------------------------------------------------------------------------- the end


def _progress(state: CrushTheCrownState, seat: int) -> str:
    """A government in a few words: ``hearts government: needs an 8 next, 2 spies in it``."""
    suit = state.suits[seat]
    if suit < 0:
        return "never married"
    filled = len(state.governments[seat])
    where = "complete" if filled == SLOTS else f"needs {_a(filled)} next"
    spies = state.spies[seat].bit_count()
    spied = f", {counted(spies, 'spy', 'spies')} in it" if spies else ""
    return f"{SUIT_NAMES[suit]} government: {where}{spied}"


def _outcome(state: CrushTheCrownState) -> Outcome:
    winners = state.winners
    cap = state.tables.safety_cap
    if state.truncated or len(winners) != 1:
        reason = (
            f"the safety cap of {counted(cap, 'turn')}: no government was completed free of spies "
            "in time, so the game is a draw (CTC-26)"
        )
    else:
        winner = seat_text(winners[0])
        reason = (
            f"{winner} completed his government, King to Ace, free of spies, on turn "
            f"{state.turns_played + 1} (CTC-19)"
        )
    standings = []
    for seat in (0, 1):
        own = len(state.governments[seat]) - state.spies[seat].bit_count()
        won = seat in winners
        if won and len(winners) == 1:
            note = f"completed his {SUIT_NAMES[state.suits[seat]]} government first"
        else:
            note = _progress(state, seat)
        score = f"{own} of {SLOTS} cards in place"
        standings.append(Standing(seat, 1 if won else 2, score, note))
    return Outcome(reason, tuple(sorted(standings, key=lambda s: (s.place, s.seat))))


# ------------------------------------------------------------------------------- the buttons


def _label(state: CrushTheCrownState, seat: int, action: CrushTheCrownAction) -> str:
    kind = action.kind
    if kind == PASS:
        return {
            BUILD: "Pass: build nothing",
            SPY: "Pass: place no spy",
            FIRE: "Pass: fire no card",
        }.get(state.decision, "Pass")
    card = TEXT[action.card]
    rival = 1 - seat
    if kind == MARRY:
        return f"Marry the {card} ({SUIT_NAMES[SUIT[action.card]]})"
    if kind == DISCARD:
        return f"Discard {card} and draw again"
    if kind == GIVE and state.decision == GIVE_QUEEN:
        return f"Give the {card} to {seat_text(rival)} to marry"
    if kind == GIVE:
        return f"Give {card} as tribute"
    if kind == EXTEND:
        return f"Extend your government with {card}"
    if kind == DISCOVER:
        slot = SLOT[action.card]
        government = state.governments[seat]
        if slot < len(government) and state.spies[seat] >> slot & 1:
            return f"Discover the spy {TEXT[government[slot]]} with {card}"
        return f"Discover the spy with {card}"
    if kind == PLACE_SPY:
        if _is_wild(action.card):
            slot = len(state.governments[rival])
            if slot < SLOTS:
                return f"Place {card} as a wild spy (as {seat_text(rival)}'s {RANK_WORD[slot]})"
            return f"Place {card} as a wild spy"
        return f"Place {card} as a spy"
    return f"Fire {card}"


# ------------------------------------------------------------------------------- refusals


STEP_WORDS: Final = ("marriage", "deadlock guard", "build", "spy", "tribute", "fire")
"""Each decision's step, as a refusal names it."""


def _reason(state: CrushTheCrownState, seat: int, action: Any) -> str:
    if not isinstance(action, CrushTheCrownAction) or state.game.known_action(action) is None:
        return "it is not an action of this game"
    decision = state.decision
    kind = action.kind
    if kind not in KINDS_OF_DECISION[decision]:
        words = either([KIND_WORD[k] for k in KINDS_OF_DECISION[decision]])
        return f"this is the {STEP_WORDS[decision]} step ({words})"
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


# ------------------------------------------------------------------------------- coaching


def _some(words: list[str], shown: int = 4) -> str:
    """``2H and 5H``; past ``shown`` words, ``2H, 3H, 5H, 7H and 3 more``."""
    if len(words) <= shown:
        return listed(words)
    return f"{', '.join(words[:shown])} and {len(words) - shown} more"


def _of_suit(cards: list[int], suit: int) -> list[int]:
    return [c for c in cards if SUIT[c] == suit]


def _suit_members(hand: list[int], queens: list[int]) -> list[str]:
    """For each Queen, the other cards of her suit in ``hand``: ``2 diamonds besides QD``."""
    members = []
    for queen in queens:
        suit = SUIT_NAMES[SUIT[queen]]
        others = len(_of_suit(hand, SUIT[queen])) - 1
        many = counted(others, suit[:-1]) if others else f"no {suit}"
        members.append(f"{many} besides {TEXT[queen]}")
    return members


def _coach_marriage(state: CrushTheCrownState, seat: int) -> str:
    hand = state.hands[seat]
    queens = [c for c in hand if IS_QUEEN[c]]
    if not queens:
        # What the seat may know of the Queens: its hand, the governments, the rival's known
        # cards; the others lie in the draw pile or the rival's hand.
        seen = sum(1 for g in state.governments for c in g if IS_QUEEN[c])
        seen += sum(1 for c in known_cards(state.known_to_rival[1 - seat]) if IS_QUEEN[c])
        rival = seat_text(1 - seat)
        return (
            "You hold no Queen: discard a card face up and draw again until one comes (CTC-5). "
            f"{counted(4 - seen, 'Queen')} {'is' if seen == 3 else 'are'} unseen, in the draw "
            f"pile or {rival}'s hand. Keep the suit you hold most of"
            + (", and a joker: it is a wild spy." if state.tables.use_jokers else ".")
        )
    members = _suit_members(hand, queens)
    if len(queens) == 1:
        return (
            f"You hold a Queen, so you must marry her (CTC-4): her suit becomes yours, built "
            f"from the Jack down to the Ace. You hold {members[0]}."
        )
    return (
        "Marry one of your Queens (CTC-4): her suit becomes yours, built from the Jack down to "
        f"the Ace. You hold {listed(members)}; a Queen you keep becomes a wild spy."
    )


def _coach_give_queen(state: CrushTheCrownState, seat: int) -> str:
    hand = state.hands[seat]
    queens = [c for c in hand if IS_QUEEN[c]]
    members = _suit_members(hand, queens)
    seeker = seat_text(state.marrying)
    return (
        f"Every free Queen is in your hand, so you must give {seeker} one to marry (CTC-6). "
        "Cards of his suit become useless to you, so give the Queen of the suit you hold least "
        f"of: you hold {listed(members)}."
    )


def _coach_build(state: CrushTheCrownState, seat: int) -> str:
    government = state.governments[seat]
    filled = len(government)
    spies = state.spies[seat]
    moves = [a for a in state.legal_actions(seat) if isinstance(a, CrushTheCrownAction)]
    extend = [TEXT[a.card] for a in moves if a.kind == EXTEND]
    discover = [
        f"the spy {TEXT[government[SLOT[a.card]]]} with {TEXT[a.card]}"
        for a in moves
        if a.kind == DISCOVER
    ]
    standing = [TEXT[government[i]] for i in range(filled) if spies >> i & 1]
    rival = seat_text(1 - seat)
    complete = filled == SLOTS
    needs = (
        "Your government is complete" if complete else f"Your government needs {_a(filled)} next"
    )
    if not extend and not discover:
        if state.extended_this_turn:
            return "You have extended this turn; no spy of yours can be exposed now. Pass."
        spied = ""
        if len(standing) == 1:
            spied = f", and the spy {standing[0]} waits for your card"
        elif standing:
            spied = f", and the spies {' '.join(standing)} wait for your cards"
        return f"{needs}{spied}: nothing in your hand builds. Pass."
    lines = []
    if extend:
        after = filled + 1
        if after == SLOTS:
            won = "and you win" if not spies else "but you win only once its spies are exposed"
            lines.append(f"Extending with {extend[0]} completes your government, {won} (CTC-19).")
        else:
            rest = counted(SLOTS - after, "card")
            lines.append(f"{needs}: extend with {extend[0]}, and {rest} will remain to the Ace.")
    if discover:
        if complete and len(standing) == 1:
            pays = "your government is clean: you win (CTC-19)"
        else:
            pays = f"{rival} collects one card less of tribute every turn (CTC-13)"
            if state.extended_this_turn:
                lines.append("You have extended this turn, and may still expose spies.")
            elif not extend and not complete:
                lines.append(f"{needs}, and nothing in your hand extends it.")
        lines.append(f"Expose {listed(discover, 'or')}: it is executed, and {pays}.")
    if extend and discover and state.tables.one_gov_card_per_build:
        lines.append("Only one government card a turn (CTC-9).")
    return " ".join(lines)


def _coach_spy(state: CrushTheCrownState, seat: int) -> str:
    rival = 1 - seat
    them = seat_text(rival)
    slot = len(state.governments[rival])
    standing = state.spies[rival].bit_count()
    spies = [
        a.card
        for a in state.legal_actions(seat)
        if isinstance(a, CrushTheCrownAction) and a.kind == PLACE_SPY
    ]
    needs = f"{them}'s government needs {_a(slot)} next"
    if not spies:
        mercenary = " or ".join(SUIT_NAMES[s] for s in state.mercenary_suits())
        kinds = [f"{_a(slot)} of {mercenary}", "a mercenary Queen"]
        fits = listed([*kinds, "a joker"] if state.tables.use_jokers else kinds, "or")
        owed = ""
        if standing == 1:
            owed = " Your spy there still earns you 1 card of tribute."
        elif standing:
            owed = f" Your {standing} spies there still earn you {standing} cards of tribute."
        return f"{needs}, and a spy there must be {fits} (CTC-11): you hold none.{owed}"
    ordinary = [TEXT[c] for c in spies if not _is_wild(c)]
    wild = [TEXT[c] for c in spies if _is_wild(c)]
    tribute = counted(standing + 1, "card")
    lines = [
        f"{needs}. A spy there makes {them} pay you {tribute} of tribute now and every turn, "
        f"one per spy of yours, until he exposes it (CTC-13)."
    ]
    if ordinary:
        real = next(
            (c for c in state.hands[seat] if SUIT[c] == state.suits[rival] and SLOT[c] == slot),
            -1,
        )
        held = f" You hold {TEXT[real]}, so he cannot expose it soon." if real >= 0 else ""
        lines.append(f"{listed(ordinary, 'or')} fits exactly.{held}")
    if wild:
        lines.append(f"{listed(wild, 'or')} is wild: it takes the rank of any slot (CTC-11).")
    if slot == SLOTS - 1:
        lines.append("A spy as his Ace keeps him from winning (CTC-12).")
    return " ".join(lines)


def _coach_tribute(state: CrushTheCrownState, seat: int) -> str:
    receiver = 1 - seat
    them = seat_text(receiver)
    suit = state.suits[receiver]
    owed = state.tribute_owed
    spies = state.spies[seat].bit_count()
    cards = [a.card for a in state.legal_actions(seat) if isinstance(a, CrushTheCrownAction)]
    if owed < spies:
        due = f"You still owe {them} {owed} of the {spies} cards of tribute"
    else:
        due = f"You owe {them} {counted(owed, 'card')} of tribute"
    due += ", one per spy of his in your government (CTC-13)."
    if SUIT[cards[0]] != suit:
        own = SUIT_NAMES[state.suits[seat]]
        return (
            f"{due} You hold no {SUIT_NAMES[suit]}, so any card will do (CTC-14), and he learns "
            f"you hold none. Keep your {own} and your wild spies; give the card worth least."
        )
    # The suit rule: his suit first (CTC-14). A card his government needs later helps him
    # later; one below his next slot exposes one of your spies at once.
    if len(cards) == 1:
        choice = f"{TEXT[cards[0]]} must go"
    else:
        filled = len(state.governments[receiver])
        later = [c for c in cards if SLOT[c] >= filled]
        if later:
            latest = TEXT[max(later, key=lambda c: SLOT[c])]
            choice = f"give {latest}, which he needs latest (he needs {_a(filled)} next)"
        else:
            choice = "each of them exposes a spy of yours"
    return f"{due} You hold {SUIT_NAMES[suit]}, his suit, so one must go first (CTC-14): {choice}."


def _coach_fire(state: CrushTheCrownState, seat: int) -> str:
    hand = state.hands[seat]
    size = state.tables.hand_size
    rival = 1 - seat
    filled = len(state.governments[rival])
    theirs = [TEXT[c] for c in _of_suit(hand, state.suits[rival])]
    passed = [
        TEXT[c]
        for c in hand
        if not _is_wild(c) and SUIT[c] in state.mercenary_suits() and SLOT[c] < filled
    ]
    if len(hand) > size:
        draw = f"You hold {len(hand)} cards, more than {size}: you draw none either way (CTC-16)."
    else:
        draw = f"You may fire one card face up, then you draw back to {size} (CTC-17)."
    useless = []
    if theirs:
        useless.append(f"{_some(theirs)} ({seat_text(rival)}'s suit, never playable, CTC-20)")
    if passed:
        useless.append(f"{_some(passed)} (spies for slots already filled)")
    if not useless:
        return f"{draw} Every card you hold can still serve you."
    return f"{draw} Worth firing: {'; '.join(useless)}."


_COACHES: Final = {
    MARRIAGE: _coach_marriage,
    GIVE_QUEEN: _coach_give_queen,
    BUILD: _coach_build,
    SPY: _coach_spy,
    TRIBUTE: _coach_tribute,
    FIRE: _coach_fire,
}
"""The coach of each decision (§7)."""
