"""What people read and type in God Save The King (docs/rules/god-save-the-king.md): parsing,
refusals, the table, the moves' labels, the story of each event and how the game ended.

Nothing here runs in a playout or a search (the module is not compiled): the state machine
(:mod:`.rules`) keeps no words. An event is told by playing it on a copy of the state, one rules
step at a time (:meth:`GodSaveTheKingState._advance`), and telling what each step changed (a
formation turned up, a route settled, a trick taken, a player out, the end of a hand), each line
to the seats that may know it (§9). The outcome tells the game's history again the same way, for
when and why each player went out.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any, Final

from ...core.actions import Action, seat_text
from ...core.cards import ACE, RANK_TEXT, SUIT_NAMES, Card, cards_text, rank_text
from ...core.draws import drawn_card
from ...core.errors import IllegalAction
from ...core.events import CHANCE, HIDDEN, Line
from ...core.game import GameText, Outcome, Standing, State
from .components import (
    CHALLENGE,
    D_CHALLENGE,
    D_DECLARE,
    D_FORM,
    D_ROUTE,
    DECISION_TEXT,
    DECLARE,
    DRAW_FOR_ROUTE,
    FORM,
    KING_OF,
    KING_OWNER,
    LEFT,
    LETTERS,
    MIDDLE,
    PUBLIC,
    PUSH,
    RANK,
    RANK_WORDS,
    RIGHT,
    ROUTE,
    SLOT_NAMES,
    T_DECIDE,
    T_DONE,
    T_REVEAL,
    T_ROUTES,
    GodSaveTheKingAction,
    PastTrick,
)
from .rules import GodSaveTheKingState, Trick, kings_in_piles
from .views import challenge_text, knower_bit, schedule_text, slot_text

RANK_OF_WORD = {text.lower(): rank for rank, text in RANK_TEXT.items()} | RANK_WORDS
"""A rank as people type it: ``10``, ``q``, ``Q``, ``queen``."""


def counted(n: int, noun: str, plural: str = "") -> str:
    """``1 trick``, ``2 tricks``, ``0 cards``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


# --------------------------------------------------------------------------------- typing


def formation_cards(text: str) -> list[Card] | None:
    """The cards of a typed formation line (``10S KS 8S`` or ``form 10S KS 8S``), or None."""
    words = text.replace(",", " ").split()
    if words and words[0].lower() == "form":
        words = words[1:]
    if not words or len(words) > 3:
        return None
    try:
        return [Card.parse(w) for w in words]
    except ValueError:
        return None


def _next_slot(state: GodSaveTheKingState, seat: int) -> int:
    return state.tricks[state.trick_of_seat[seat]].placed[state.side_of_seat[seat]]


class GodSaveTheKingText(GameText):
    """What people read and type in God Save The King: the table, the narration, the parsing
    of formations and declarations, the reasons of refusals."""

    def input_steps(self, state: State, seat: int, text: str) -> list[str]:
        """A whole formation typed on one line (``10S KS 8S``, or ``form 10S KS 8S``) is its
        three steps; a line naming fewer cards fills the next slots."""
        assert isinstance(state, GodSaveTheKingState)
        if seat not in state.to_move or state.decision != D_FORM:
            return [text]
        cards = formation_cards(text)
        if cards is None:
            return [text]
        start = _next_slot(state, seat)
        if not cards or len(cards) > 3 - start or formation_problem(state, seat, cards) is not None:
            return [text]
        return [f"form {SLOT_NAMES[start + j]} {c}" for j, c in enumerate(cards)]

    def action_from_text(self, state: State, seat: int, text: str) -> Action | None:
        """The action ``text`` names: an action's text or alias (``left 10S``, ``declare queen``),
        or, when it can mean nothing else, a bare rank while declaring (``10``, ``k``, ``Queen``
        for ``declare 10``...) or a bare card while forming (the next slot)."""
        assert isinstance(state, GodSaveTheKingState)
        found = state.game.action_from_text(text)
        if found is not None or seat not in state.to_move:
            return found
        key = " ".join(text.lower().split())
        if state.decision == D_DECLARE:
            rank = RANK_OF_WORD.get(key)
            return None if rank is None else state.tables.declare_legal[rank - 2]
        if state.decision == D_FORM:
            cards = formation_cards(key)
            if cards is not None and len(cards) == 1 and cards[0] < 13 * state.num_players:
                return state.tables.form_actions[_next_slot(state, seat)][cards[0]]
        return None

    def coach(self, state: State, seat: int) -> str | None:
        """What the formation, the route window, the declaration or the challenge ``seat``
        faces risks and gains, from its own cards and what lies face up (§9)."""
        assert isinstance(state, GodSaveTheKingState)
        if seat not in state.to_move or state.is_terminal:
            return None
        return coaching(state, seat)

    def caution(self, state: State, seat: int, action: Action) -> str | None:
        """A warning before laying one's own King left or right: it is turned face up at the reveal
        and its owner is out at once (GSK-5)."""
        assert isinstance(state, GodSaveTheKingState)
        if (
            isinstance(action, GodSaveTheKingAction)
            and action.kind == FORM
            and action.card == KING_OF[seat]
            and action.slot != MIDDLE
        ):
            return (
                f"{action.card} is your King: in the {SLOT_NAMES[action.slot]} slot it is turned face "
                "up at the reveal, and you are eliminated at once (GSK-5)"
            )
        return None

    def why_unknown(self, state: State, seat: int, text: str) -> str:
        """Why the typed ``text`` names no action."""
        assert isinstance(state, GodSaveTheKingState)
        words = text.strip().split()
        legal = self.legal_text(state, seat)
        if (words and words[0].lower() == "declare") or state.decision == D_DECLARE:
            rank = " ".join(words[1:] if words and words[0].lower() == "declare" else words)
            return (
                f"{rank or 'nothing'!r} is not a rank: declare one of 2, 3, 4, 5, 6, 7, 8, 9, 10, "
                "J, Q, K, A (e.g. declare Q, or just Q)"
            )
        cards = formation_cards(text)
        if cards is not None and state.decision == D_FORM and cards:
            problem = formation_problem(state, seat, cards)
            if problem is not None:
                return problem
            steps = ", then ".join(self.input_steps(state, seat, text))
            return f"a formation is played one card at a time: {steps}"
        if words and words[0].lower() in ("form", "left", "middle", "right") and len(words) >= 2:
            last = words[-1]
            try:
                Card.parse(last)
            except ValueError:
                return f"{last!r} is not a card; write rank then suit, e.g. 10S, KH, 7D"
            return f"{last.upper()} is not a card of this game; legal: {legal}"
        return f"{text.strip()!r} is not an action of this game; legal: {legal}"

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        """Why ``action`` (an action of some game) is not legal for ``seat`` now."""
        assert isinstance(state, GodSaveTheKingState)
        legal = self.legal_text(state, seat)
        a = action
        if not isinstance(a, GodSaveTheKingAction) or state.game.known_action(a) is None:
            return f"{a} is not an action of this game; legal: {legal}"
        who = seat_text(seat)
        decision = state.decision
        if a.kind == FORM:
            if decision != D_FORM:
                return f"no formation is being chosen now; legal: {legal}"
            slot = _next_slot(state, seat)
            if a.slot != slot:
                return (
                    f"{who} fills the {SLOT_NAMES[slot]} slot now, not the {SLOT_NAMES[a.slot]}; "
                    f"legal: {legal}"
                )
            assert a.card is not None
            problem = formation_problem(state, seat, [a.card])
            if problem is not None:
                return problem
        elif a.kind == ROUTE:
            if decision != D_ROUTE:
                return f"no route window is open now; legal: {legal}"
        elif a.kind == DECLARE:
            if decision != D_DECLARE:
                return f"nobody declares now (only in a blind skirmish); legal: {legal}"
        elif a.kind == CHALLENGE and decision != D_CHALLENGE:
            return (
                f"only the loser of a blind skirmish may challenge, right after it; legal: {legal}"
            )
        return f"{a} is not legal for {who} now; legal: {legal}"

    def render(self, state: State, seat: int | None) -> str:
        """The table from ``seat``'s side; once the game is over, its summary (the same for all)."""
        assert isinstance(state, GodSaveTheKingState)
        if state.is_terminal:
            return summary(state, seat)
        bit = knower_bit(state, seat)
        lines = [
            f"God Save The King · hand {state.hand_number} · "
            f"{counted(tricks_done(state), 'trick')} played (cap {state.tables.safety_cap}) · "
            f"{schedule_text(state)}"
        ]
        waiting = set(state.waiting())
        for s in range(state.num_players):
            lines.append(_seat_line(state, s, seat, bit, ">" if s in waiting else " "))
        removed = _removed_line(state, bit)
        if removed:
            lines.append(removed)
        for t in state.tricks:
            lines += _trick_lines(state, t, seat)
        if state.past_tricks and state.decision == D_FORM:
            for record in state.past_tricks[-len(state.tricks) :]:
                lines.append("Last trick: " + past_trick_text(record))
        if seat is not None and state.active[seat]:
            lines.append(f"Your hand: {cards_text(state.hands[seat]) or '-'}")
        if state.is_chance:
            lines.append(
                f"{seat_text(state.draw_to)} draws a card from {seat_text(state.draw_from)}'s hand."
            )
        else:
            lines.append(prompt(state, seat, waiting))
        return "\n".join(lines)

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        """The story of an event about to be applied to ``state`` (a full state): the event is
        played on a copy one rules step at a time, and each step is told to who may know it."""
        assert isinstance(state, GodSaveTheKingState)
        return story(state, actor, item)

    def outcome(self, state: State) -> Outcome:
        """Why the game ended (the last player still in, a shared fall, the safety cap), every
        seat's place and what decided it: when and why each player went out."""
        assert isinstance(state, GodSaveTheKingState)
        return outcome(state)

    def action_label(self, state: State, seat: int, action: Action) -> str:
        """A move as a button says it: ``Lay 10S on the left``, ``Route``, ``Route the middle``,
        ``Declare a Jack``, ``Challenge``, ``Pass``."""
        assert isinstance(state, GodSaveTheKingState)
        if not isinstance(action, GodSaveTheKingAction):
            return str(action)
        return action_label(state, seat, action)

    def why_not_to_move(self, state: State, seat: object, action: object) -> str:
        assert isinstance(state, GodSaveTheKingState)
        return refusal_to_move(state, seat, action) or super().why_not_to_move(state, seat, action)

    def parse_chance(self, state: State, text: str) -> Any:
        """A card drawn from the hand being drawn from."""
        assert isinstance(state, GodSaveTheKingState)
        if not state.is_chance:
            raise IllegalAction("no chance event is pending")
        return drawn_card(
            text, state.hands[state.draw_from], f"{seat_text(state.draw_from)}'s hand"
        )


def formation_problem(state: GodSaveTheKingState, seat: int, cards: Sequence[Card]) -> str | None:
    """Why ``cards`` cannot fill ``seat``'s next slots, or None."""
    t = state.tricks[state.trick_of_seat[seat]]
    side = state.side_of_seat[seat]
    start = t.placed[side]
    hand = list(state.hands[seat])
    placed = [c for c in t.formations[side] if c is not None]
    who = seat_text(seat)
    if len(cards) > 3 - start:
        left = counted(3 - start, "slot")
        return f"a formation has 3 cards; {who} has {left} left to fill"
    for j, c in enumerate(cards):
        slot = start + j
        if c in cards[:j]:
            return f"{c} is named twice: a formation needs 3 different cards"
        if c in placed:
            return f"{c} is already in {who}'s formation"
        if c not in hand:
            return f"{c} is not in {who}'s hand"
        if not state.tables.exposed_king_legal:
            king = KING_OF[seat]
            if c == king and slot != MIDDLE:
                return f"{c} is {who}'s King: at this table it may only go in the middle (GSK-5)"
            if slot == MIDDLE and king in hand and len(hand) == 2 and c != king:
                return f"{king} must go in the middle, or it would be left for the right slot"
        hand.remove(c)
    return None


# --------------------------------------------------------------------------------- refusals


def refusal_to_move(state: GodSaveTheKingState, seat: object, action: object) -> str | None:
    """The game's own reason why ``seat`` may not act now, or None for the usual one."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.num_players:
        text = str(action).strip().lower()
        per_hand = state.tables.routes_per_hand
        if (
            state.decision == D_ROUTE
            and text.startswith("route")
            and seat in state.tricks[state.current_trick].seats
            and state.routes_used[seat] >= per_hand
        ):
            return (
                f"{seat_text(seat)} has already routed this hand: {counted(per_hand, 'route')} "
                "per hand at this table (GSK-12)"
            )
    return None


# --------------------------------------------------------------------------------- the table


def _seat_line(state: GodSaveTheKingState, s: int, seat: int | None, bit: int, marker: str) -> str:
    you = " (you)" if s == seat else ""
    if not state.active[s]:
        return f"{marker} {seat_text(s) + you:<9} eliminated"
    pile = state.piles[s]
    knowers = state.pile_knowers[s]
    up = [c for c, m in zip(pile, knowers, strict=True) if m == PUBLIC]
    known = [c for c, m in zip(pile, knowers, strict=True) if m != PUBLIC and m & bit]
    unseen = sum(1 for m in knowers if not m & bit)
    parts = []
    if up:
        parts.append(f"face up {cards_text(up)}")
    if known:
        parts.append(f"known to you {cards_text(known)}")
    if unseen:
        parts.append(f"{unseen} unseen")
    letter = state.letter(s)
    routes = max(0, state.tables.routes_per_hand - state.routes_used[s])
    return (
        f"{marker} {seat_text(s) + you:<9}{' [' + letter + ']' if letter else ''} "
        f"{SUIT_NAMES[s]:<8} · hand {len(state.hands[s])} · trick pile {len(pile)}"
        f"{' (' + '; '.join(parts) + ')' if parts else ''} · routes left {routes}"
    )


def _removed_line(state: GodSaveTheKingState, bit: int) -> str:
    if not state.removed:
        return ""
    pairs = list(zip(state.removed, state.removed_knowers, strict=True))
    up = [c for c, m in pairs if m == PUBLIC]
    known = [c for c, m in pairs if m != PUBLIC and m & bit]
    down = sum(1 for _, m in pairs if not m & bit)
    parts = [cards_text(up)] if up else []
    if known:
        parts.append(f"{cards_text(known)} (face down, known to you)")
    if down:
        parts.append(f"{counted(down, 'card')} face down")
    return "Removed: " + ", ".join(parts)


def _trick_lines(state: GodSaveTheKingState, t: Trick, seat: int | None) -> list[str]:
    x, y = (seat_text(s) for s in t.seats)
    if t.step == T_DONE:
        collector = -1 if t.collector < 0 else t.seats[t.collector]
        record = (
            state.hand_number,
            t.seats,
            collector,
            t.declared[0],
            t.declared[1],
            t.challenge_answer,
        )
        return [f"Done: {past_trick_text(record)}"]
    lines = [f"Trick: {x} against {y} ({x} has priority)"]
    for side in (0, 1):
        slots = [slot_text(state, t, side, k, seat) for k in range(3)]
        shown = "  ".join(
            f"{SLOT_NAMES[k]} {slots[k] if slots[k] is not None else '·'}" for k in range(3)
        )
        lines.append(f"    {seat_text(t.seats[side]):<4} {shown}")
    x_cards, y_cards = t.formations
    outside = (x_cards[LEFT], x_cards[RIGHT], y_cards[LEFT], y_cards[RIGHT])
    if t.skirmish_result >= 0 and None not in outside:
        lines.append(f"    skirmishes: {skirmish_text(t.seats, x_cards, y_cards, t)}")
    if any(t.declared):
        said = [
            f"{seat_text(s)} {rank_text(r)}" for s, r in zip(t.seats, t.declared, strict=True) if r
        ]
        lines.append(f"    declared: {', '.join(said)}")
    if t.challenge_answer >= 0:
        lines.append(f"    challenge: {challenge_text(t.challenge_answer)}")
    return lines


def past_trick_text(record: PastTrick) -> str:
    """A finished trick in a line: who took it, the declarations, the challenge's answer."""
    _, (x, y), collector, dx, dy, answer = record
    text = f"{seat_text(x)} against {seat_text(y)}: "
    text += (
        f"{seat_text(collector)} took it"
        if collector >= 0
        else "nobody took it (void, or both out)"
    )
    if dx or dy:
        text += f"; declared {rank_text(dx) if dx else '-'} v {rank_text(dy) if dy else '-'}"
    if answer >= 0:
        text += f"; challenge: {challenge_text(answer)}"
    return text


def prompt(state: GodSaveTheKingState, seat: int | None, waiting: set[int]) -> str:
    """What ``seat`` is asked now, or whom the table waits for."""
    who = ", ".join(seat_text(s) for s in sorted(waiting))
    if seat is None or seat not in state.to_move:
        return f"Waiting for {who} ({DECISION_TEXT[state.decision]})." if who else ""
    if state.decision == D_FORM:
        t = state.tricks[state.trick_of_seat[seat]]
        side = state.side_of_seat[seat]
        k = t.placed[side]
        built = ", ".join(f"{SLOT_NAMES[j]} {t.formations[side][j]}" for j in range(k))
        text = (
            f"Your formation so far: {built or 'empty'}. Choose the card for the "
            f"{SLOT_NAMES[k].upper()} slot (form {SLOT_NAMES[k]} <card>)"
        )
        example = example_formation(state, seat)
        if example and len(example) > 1:
            text += (
                f", or type the rest at once, e.g. {cards_text(example)} "
                f"({', '.join(SLOT_NAMES[k:])})"
            )
        return text + "."
    if state.decision == D_ROUTE:
        return "Route? Claim that a face-down card of your rival is his King (route), or pass."
    if state.decision == D_DECLARE:
        return (
            "Blind skirmish: declare the rank of your middle card (declare 2 .. declare a, or "
            "just the rank: 10, q); bluffing allowed."
        )
    return "You lost the blind skirmish: challenge the winner's declaration, or pass."


def example_formation(state: GodSaveTheKingState, seat: int) -> list[Card] | None:
    """Cards for ``seat``'s remaining slots that never lay its own King left or right (GSK-5):
    the lowest others, the King in the middle only when it must be played; None if the King is
    all that is left for an outside slot."""
    start = _next_slot(state, seat)
    need = 3 - start
    king = KING_OF[seat]
    hand = state.hands[seat]
    others = [c for c in hand if c != king]
    if len(others) >= need:
        return others[:need]
    if king in hand and start <= MIDDLE and len(others) >= need - 1:
        cards = others[: need - 1]
        cards.insert(MIDDLE - start, king)
        return cards
    return None


def summary(state: GodSaveTheKingState, seat: int | None) -> str:
    """The end of the game: why it ended, every seat's cards and every hidden card shown."""
    result = outcome(state)
    notes = {s.seat: s for s in result.standings}
    lines = [
        f"God Save The King · the final table · hand {state.hand_number} · "
        f"{counted(tricks_done(state), 'trick')} played"
    ]
    for s in range(state.num_players):
        you = " (you)" if s == seat else ""
        head = f"  {seat_text(s) + you:<9} {SUIT_NAMES[s]:<8}"
        if not state.active[s]:
            standing = notes[s]
            lines.append(f"{head} {standing.score}{': ' + standing.note if standing.note else ''}")
            continue
        hand = cards_text(state.hands[s]) or "-"
        pile = cards_text(state.piles[s]) or "-"
        lines.append(f"{head} hand {hand} · trick pile {pile}")
    for t in state.tricks:
        if t.step != T_DONE and any(c is not None for f in t.formations for c in f):
            lines += _trick_lines(state, t, seat)
    if state.removed:
        pairs = list(zip(state.removed, state.removed_knowers, strict=True))
        up = [c for c, m in pairs if m == PUBLIC]
        down = [c for c, m in pairs if m != PUBLIC]
        parts = [f"{cards_text(up)} (face up)"] if up else []
        if down:
            parts.append(f"{cards_text(down)} (face down until now)")
        lines.append("Removed from the game: " + ", ".join(parts))
    if state.past_tricks:
        lines.append("Last trick: " + past_trick_text(state.past_tricks[-1]))
    lines.append(f"Game over: {result.reason}.")
    return "\n".join(lines)


def tricks_done(state: GodSaveTheKingState) -> int:
    """The tricks decided so far: the rounds counted by the rules, the tricks of the current
    round already over and, once the game is over, the trick that ended it."""
    if state.current_trick >= len(state.tricks):
        return state.tricks_played  # a round just counted (the game ended between rounds)
    done = sum(1 for t in state.tricks if t.step == T_DONE)
    if state.is_terminal and state.tricks[state.current_trick].step != T_DONE:
        done += 1  # the trick in which the last King came to light
    return state.tricks_played + done


# --------------------------------------------------------------------------------- words

RANK_NAMES: Final = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
SLOT_PLACES: Final = ("on the left", "in the middle", "on the right")


def rank_word(rank: int) -> str:
    """A rank as said aloud: ``Jack``, ``8``."""
    return RANK_NAMES.get(rank, str(rank))


def rank_name(rank: int) -> str:
    """A rank with its article: ``a Jack``, ``an 8``, ``an Ace``, ``a 10``."""
    word = rank_word(rank)
    return f"{'an' if word in ('8', 'Ace') else 'a'} {word}"


def seats_text(seats: Sequence[int]) -> str:
    """``p0``, ``p0 and p1``, ``p0, p1 and p2``."""
    words = [seat_text(s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def action_label(state: GodSaveTheKingState, seat: int, action: GodSaveTheKingAction) -> str:
    """``Lay 10S on the left``, ``Route``, ``Route the middle``, ``Declare a Jack``,
    ``Challenge``, ``Pass``: what ``seat`` reads on the button of ``action``."""
    kind = action.kind
    if kind == FORM:
        label = f"Lay {action.card} {SLOT_PLACES[action.slot]}"
        if action.card == KING_OF[seat] and action.slot != MIDDLE:
            label += " (your King: shown at the reveal)"  # GSK-5: its owner is out at once
        return label
    if kind == ROUTE:
        return f"Route the {SLOT_NAMES[action.slot]}" if state.tables.early_route else "Route"
    if kind == DECLARE:
        return f"Declare {rank_name(action.rank)}"
    return "Challenge" if kind == CHALLENGE else "Pass"


# --------------------------------------------------------------------------------- the story


def story(state: GodSaveTheKingState, actor: int, item: Any) -> list[Line]:
    """Every line of the event ``(actor, item)`` about to be applied to ``state``: the event,
    then each rules step it sets off (the reveal, a route, a collection, the end of a round or
    of a hand), each line with the seats that may read it."""
    shots = _steps(state, actor, item)
    lines: list[Line] = []
    if not state.history:
        lines.append((PUBLIC, "First " + pairing(state)))
    after = shots[0]
    if actor == CHANCE:
        lines += _drawn(state, item, after)
    elif item.kind == FORM:
        lines += _placed(actor, item)
    else:
        lines += _decided(state, actor, item, after)
    for before, after in pairwise(shots):
        lines += _step(before, after)
    final = shots[-1]
    if final.is_terminal and not state.is_terminal:
        lines += _the_end(final)
    return lines


def _steps(state: GodSaveTheKingState, actor: int, item: Any) -> list[GodSaveTheKingState]:
    """The state just after the event, then after each rules step it sets off (copies: the
    story compares each one with the one before)."""
    probe = state._copy(knowledge=False)
    if actor == CHANCE:
        probe._draw(item)
    elif item.kind == FORM:
        probe._place(actor, item)
    else:
        probe._take_decision(actor, item)
    shots = [probe._copy(knowledge=False)]
    while probe._advance():
        shots.append(probe._copy(knowledge=False))
    return shots


def pairing(state: GodSaveTheKingState) -> str:
    """``trick: p1 against p0, p1 with priority.`` (who plays whom in the round about to be
    formed; who sits out; §7)."""
    tricks = state.tricks
    if len(tricks) == 2:
        first, second = (seats_text(t.seats).replace(" and ", " against ") for t in tricks)
        return f"round: {first}, then {second}; all four lay their formations at once."
    x, y = tricks[0].seats
    text = f"trick: {seat_text(x)} against {seat_text(y)}, {seat_text(x)} with priority"
    idle = [s for s in range(state.num_players) if state.active[s] and s not in (x, y)]
    if idle:
        text += f"; {seats_text(idle)} sits out"
    return text + "."


def _placed(seat: int, action: GodSaveTheKingAction) -> list[Line]:
    who = seat_text(seat)
    slot = SLOT_NAMES[action.slot]
    own = 1 << seat
    return [
        (own, f"{who} puts {action.card} in the {slot} slot."),
        (~own, f"{who} lays a card face down ({slot})."),  # (what it is stays hidden, §9)
    ]


def _drawn(before: GodSaveTheKingState, card: Card, after: GodSaveTheKingState) -> list[Line]:
    """A card drawn blindly from a hand (T6e, or a missed route): shown to everyone."""
    drawer, victim = seat_text(before.draw_to), seat_text(before.draw_from)
    owner = KING_OWNER[card]
    if owner >= 0 and before.active[owner]:
        text = f"{drawer} draws {card} from {victim}'s hand: {seat_text(owner)}'s King!"
    else:
        text = f"{drawer} draws {card} from {victim}'s hand and puts it on his trick pile."
    return [(PUBLIC, text), *_aftermath(before, after)]


def _decided(
    before: GodSaveTheKingState, seat: int, action: GodSaveTheKingAction, after: GodSaveTheKingState
) -> list[Line]:
    """A route, pass, declaration or challenge, and what it settled at once."""
    who = seat_text(seat)
    if before.decision == D_CHALLENGE:
        return _challenged(before, seat, action, after)
    own = 1 << seat
    if after.submitted:  # the others have yet to choose: what, they learn with theirs (§9)
        if before.decision == D_DECLARE:
            return [
                (own, f"{who} declares {rank_name(action.rank)}."),
                (~own, f"{who} has declared."),
            ]
        mine = f"{who} chooses not to route."
        if action.kind == ROUTE:
            t = before.tricks[before.current_trick]
            rival = seat_text(t.seats[1 - t.seats.index(seat)])
            mine = f"{who} chooses to route {rival}'s {SLOT_NAMES[action.slot]} card."
        return [(own, mine), (~own, f"{who} has chosen whether to route.")]
    chosen = list(before.pending_choices)
    chosen[seat] = action
    if before.decision == D_ROUTE:
        return [_routes_chosen(before, chosen), *_aftermath(before, after)]
    return _declarations(before, chosen, after) + _aftermath(before, after)


def _challenged(
    before: GodSaveTheKingState, seat: int, action: GodSaveTheKingAction, after: GodSaveTheKingState
) -> list[Line]:
    """T6d-T6e: a challenge or not, the one-word answer, who draws from whom (GSK-8, GSK-10)."""
    who = seat_text(seat)
    t = after.tricks[before.current_trick]
    side = t.blind_winner
    winner = seat_text(t.seats[side])
    said = rank_name(t.declared[side])
    if action.kind != CHALLENGE:
        return [(PUBLIC, f"{who} does not challenge."), *_aftermath(before, after)]
    lines: list[Line] = [(PUBLIC, f"{who} challenges: is {winner}'s middle card really {said}?")]
    if t.challenge_answer:
        lines.append((PUBLIC, f"Accurate: {winner}'s middle card is {said}."))
        drawer, victim = winner, who
    else:  # the true rank is never told (§9)
        lines.append((PUBLIC, f"Not accurate: {winner}'s middle card is not {said}."))
        drawer, victim = who, winner
    if not after.is_chance:
        lines.append((PUBLIC, f"{victim}'s hand is empty: {drawer} draws nothing (GSK-10)."))
    return lines + _aftermath(before, after)


def _routes_chosen(
    before: GodSaveTheKingState, chosen: Sequence[GodSaveTheKingAction | None]
) -> Line:
    """The route window's choices, shown together (GSK-13, GSK-14)."""
    t = before.tricks[before.current_trick]
    asked = [s for s in t.seats if before.asked >> s & 1]
    routers = [s for s in asked if _chosen(chosen, s).kind == ROUTE]

    def aim(s: int) -> str:
        rival = seat_text(t.seats[1 - t.seats.index(s)])
        return f"{seat_text(s)} routes {rival}'s {SLOT_NAMES[_chosen(chosen, s).slot]} card"

    if not routers:
        if len(asked) == 1:
            return (PUBLIC, f"{seat_text(asked[0])} does not route.")
        return (PUBLIC, f"Neither {seat_text(asked[0])} nor {seat_text(asked[1])} routes.")
    told = " and ".join(aim(s) for s in routers)
    idle = [s for s in asked if s not in routers]
    if idle:
        told += f"; {seat_text(idle[0])} does not route"
    return (PUBLIC, told + ".")


def _declarations(
    before: GodSaveTheKingState,
    chosen: Sequence[GodSaveTheKingAction | None],
    after: GodSaveTheKingState,
) -> list[Line]:
    """The declarations shown together, and a tie, a void trick or the winner (GSK-7, GSK-8)."""
    index = before.current_trick
    t = after.tricks[index]
    x, y = t.seats
    said = (
        f"{rank_name(_chosen(chosen, x).rank)}, {seat_text(y)} {rank_name(_chosen(chosen, y).rank)}"
    )
    lines: list[Line] = [(PUBLIC, f"{seat_text(x)} declares {said}.")]
    limit = after.tables.max_redeclare
    if t.redeclarations > before.tricks[index].redeclarations:
        lines.append(
            (PUBLIC, f"A tie: both declare again, repeat {t.redeclarations} of {limit} (GSK-7).")
        )
    elif t.void:
        head = f"Still a tie after {counted(limit, 'repeat')}" if limit else "A tie"
        lines.append(
            (
                PUBLIC,
                f"{head}: the trick is void, and each player puts his own cards on his trick "
                "pile (GSK-7).",
            )
        )
    else:
        side = t.blind_winner
        winner, loser = seat_text(t.seats[side]), seat_text(t.seats[1 - side])
        beats = f"{rank_name(t.declared[side])} beats {rank_name(t.declared[1 - side])}"
        lines.append(
            (PUBLIC, f"{winner} wins the blind skirmish ({beats}); {loser} may challenge.")
        )
    return lines


def _step(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    """What one rules step (``before`` -> ``after``) showed."""
    index = before.current_trick
    if index == len(before.tricks):
        return _round_over(before, after)
    t = before.tricks[index]
    if t.step == T_REVEAL:
        return _revealed(before, t, after)
    if t.step == T_ROUTES and t.routes_to_resolve:
        return _route_settled(before, t, after)
    if t.step == T_DECIDE:
        return _aftermath(before, after)
    return []  # a question asked, a window with nobody to ask, the next trick of the round


def _revealed(before: GodSaveTheKingState, t: Trick, after: GodSaveTheKingState) -> list[Line]:
    """T2-T3: the outside cards turned up, and the skirmishes they fight."""
    x, y = t.formations
    px, py = (seat_text(s) for s in t.seats)
    lines: list[Line] = [
        (
            PUBLIC,
            f"Reveal: {px} shows {x[LEFT]} left and {x[RIGHT]} right; "
            f"{py} shows {y[LEFT]} left and {y[RIGHT]} right.",
        )
    ]
    shown = after.tricks[before.current_trick]
    if shown.skirmish_result >= 0:
        lines.append((PUBLIC, "Skirmishes: " + skirmish_text(t.seats, x, y, shown) + "."))
        if shown.skirmish_result == PUSH:
            lines.append(
                (
                    PUBLIC,
                    "A push: each player declares a rank for his middle card, and the higher "
                    "declaration takes the trick (a blind skirmish).",
                )
            )
    return lines + _aftermath(before, after)


def skirmish_text(seats: Sequence[int], x: Sequence[Card], y: Sequence[Card], t: Trick) -> str:
    """T3 in words: ``p0's 10S beats p1's 3H; 8S and 8H are equal: p0 wins one and draws the
    other`` (X's left meets Y's right, X's right meets Y's left, GSK-4)."""
    px, py = (seat_text(s) for s in seats)

    def column(a: Card, b: Card, result: int) -> str:
        if result > 0:
            return f"{px}'s {a} beats {py}'s {b}"
        if result < 0:
            return f"{py}'s {b} beats {px}'s {a}"
        return f"{a} and {b} are equal"

    col1, col2 = t.columns
    text = f"{column(x[LEFT], y[RIGHT], col1)}; {column(x[RIGHT], y[LEFT], col2)}"
    if t.skirmish_result == PUSH:
        return text + (": one each, a push" if col1 else ": both equal, a push")
    winner = (px, py)[t.skirmish_result]
    if col1 and col2:
        return f"{text}: {winner} wins both"
    return f"{text}: {winner} wins one and draws the other"


def _route_settled(before: GodSaveTheKingState, t: Trick, after: GodSaveTheKingState) -> list[Line]:
    """Settling a route (§5): the card turned up, a King found or the price of a miss."""
    side, slot = t.routes_to_resolve[0]
    router, rival = t.seats[side], t.seats[1 - side]
    card = t.formations[1 - side][slot]
    text = (
        f"{seat_text(router)}'s route turns up {seat_text(rival)}'s {SLOT_NAMES[slot]} card: {card}"
    )
    owner = KING_OWNER[card]
    if owner >= 0 and before.active[owner]:
        text += f", {seat_text(owner)}'s King!"
    else:
        text += f", not {seat_text(rival)}'s King."
        if not after.is_chance and not before.hands[router]:
            text += f" {seat_text(router)}'s hand is empty, so the miss costs him nothing."
    return [(PUBLIC, text), *_aftermath(before, after, settled=True)]


def _aftermath(
    before: GodSaveTheKingState, after: GodSaveTheKingState, settled: bool = False
) -> list[Line]:
    """What a step set off: players out, tricks taken, a route dropped, a card to be drawn
    (``settled``: the step settled the current trick's first route)."""
    lines: list[Line] = [
        (PUBLIC, _out_line(s, text, rule)) for s, text, rule in _outs(before, after)
    ]
    lines += _collections(before, after)
    lines += _dropped_routes(before, after, settled)
    if after.is_chance and not before.is_chance:
        drawer, victim = seat_text(after.draw_to), seat_text(after.draw_from)
        text = f"{drawer} draws a card blindly from {victim}'s hand."
        if after.draw_reason == DRAW_FOR_ROUTE:
            text = f"For the miss, {drawer} draws a card blindly from {victim}'s hand."
        lines.append((PUBLIC, text))
    return lines


def _out_line(seat: int, text: str, rule: str) -> str:
    return f"{seat_text(seat)} is out: {text}{f' ({rule})' if rule else ''}."


def _outs(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[tuple[int, str, str]]:
    """Every player a step put out, as ``(seat, why, rule id or "")``: the Kings that came to
    light in the order they did (the knock-ons of GSK-24 after what set them off), then those
    left with too few cards (GSK-18)."""
    out = [s for s in range(before.num_players) if before.active[s] and not after.active[s]]
    if not out:
        return []
    found = {c: holder for holder, c, _ in kings_in_piles(before)} if _ends_hand(before) else {}
    told: dict[int, tuple[str, str]] = {}
    start = len(before.removed)
    added = zip(after.removed[start:], after.removed_knowers[start:], strict=True)
    for c, knowers in added:
        owner = KING_OWNER[c]
        if knowers == PUBLIC and owner in out and owner not in told:
            told[owner] = _king_shown(before, c, found)
    for s in out:
        if s not in told:
            held = len(before.hands[s]) + len(before.piles[s])
            held -= sum(1 for holder in found.values() if holder == s)
            cards = counted(held, "card") if held else "no card"
            told[s] = (f"only {cards} for his new hand, fewer than 3", "GSK-18")
    return [(s, text, rule) for s, (text, rule) in told.items()]


def _king_shown(before: GodSaveTheKingState, king: Card, found: dict[Card, int]) -> tuple[str, str]:
    """Where ``king`` was when it came to light, as the reason its owner is out."""
    if any(king in hand for hand in before.hands):
        return f"his King {king} was drawn from his hand by {seat_text(before.draw_to)}", ""
    for t in before.tricks:
        for side in (0, 1):
            if king in t.formations[side]:
                if t.step == T_REVEAL:
                    return f"his own King {king} was turned up at the reveal", "GSK-5"
                return f"his King {king} was found by {seat_text(t.seats[1 - side])}'s route", ""
    for holder, pile in enumerate(before.piles):
        if king in pile:
            where = f"his King {king} was found in {seat_text(holder)}'s trick pile"
            if king in found:
                return f"{where} at the end of hand {before.hand_number}", ""
            return f"{where} when {seat_text(holder)} went out", "GSK-24"
    return f"his King {king} was shown", ""


def _ends_hand(before: GodSaveTheKingState) -> bool:
    """Whether the step from ``before`` ends the round and, with it, the hand (GSK-17): some
    player still in holds fewer than 3 cards, and the safety cap does not stop the game first."""
    if before.current_trick != len(before.tricks):
        return False
    if before.tricks_played + len(before.tricks) >= before.tables.safety_cap:
        return False
    return any(before.active[s] and len(before.hands[s]) < 3 for s in range(before.num_players))


def _collections(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    """T7: who takes each trick the step ended, how many cards and why; with open trick piles,
    the face-down cards he looks at as he takes them."""
    if after.tricks_played != before.tricks_played or len(after.tricks) != len(before.tricks):
        return []
    lines: list[Line] = []
    for was, now in zip(before.tricks, after.tricks, strict=True):
        if was.step == T_DONE or now.step != T_DONE or now.void:
            continue
        if now.collector < 0:
            x, y = (seat_text(s) for s in now.seats)
            lines.append((PUBLIC, f"{x} and {y} are both out: their trick leaves the game."))
            continue
        side = now.collector
        taker, other = now.seats[side], now.seats[1 - side]
        pile = after.piles[taker]
        taken = [c for f in was.formations for c in f if c is not None and c in pile]
        if not after.active[other]:
            why = f"{seat_text(other)} is out (GSK-11)"
        elif now.blind_winner == side:
            why = f"his declaration, {rank_name(now.declared[side])}, won the blind skirmish"
            if now.challenge_answer == 0:
                why += ", and a caught bluff does not change that (GSK-9)"
        else:
            why = "he won the skirmishes"
        lines.append(
            (PUBLIC, f"{seat_text(taker)} takes the trick, {counted(len(taken), 'card')}: {why}.")
        )
        if not after.tables.private_piles:
            up = was.face_up[1 - side]
            seen = [
                c
                for k, c in enumerate(was.formations[1 - side])
                if c is not None and not up[k] and c in pile
            ]
            if seen:
                lines.append(
                    (1 << taker, f"{seat_text(taker)} looks at what he takes: {cards_text(seen)}.")
                )
    return lines


def _dropped_routes(
    before: GodSaveTheKingState, after: GodSaveTheKingState, settled: bool
) -> list[Line]:
    """GSK-14: a route still waiting when the trick ended is not played, and not used up."""
    index = before.current_trick
    if after.is_terminal or index >= len(before.tricks) or len(after.tricks) != len(before.tricks):
        return []
    was, now = before.tricks[index], after.tricks[index]
    waiting = was.routes_to_resolve[1:] if settled else was.routes_to_resolve
    if not waiting or now.routes_to_resolve or now.step != T_DONE:
        return []
    lines: list[Line] = []
    for side, _ in waiting:
        router = now.seats[side]
        if after.active[router]:
            lines.append(
                (
                    PUBLIC,
                    f"{seat_text(router)}'s route is not played, as the trick is over: he may "
                    "still use it this hand (GSK-14).",
                )
            )
    return lines


def _round_over(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    """The end of a round: the end of a hand, the schedule for those left, the next round (the
    safety cap and the end of the game are told by :func:`_the_end`)."""
    ends_hand = _ends_hand(before)
    if after.is_terminal:
        return _hand_over(before, after) if ends_hand else []
    lines = _hand_over(before, after) if ends_hand else []
    if after.schedule < before.schedule:  # fewer players: new letters, or a duel (§7)
        lines += _letters(before, after)
    if ends_hand:
        hands = ", ".join(
            f"{seat_text(s)} {len(after.hands[s])}"
            for s in range(after.num_players)
            if after.active[s]
        )
        text = f"Hand {after.hand_number} begins with these cards in hand: {hands}."
        if after.tables.routes_per_hand:
            text += " Every route may be used again."
        lines.append((PUBLIC, text))
    lines.append((PUBLIC, "Next " + pairing(after)))
    return lines


def _short_hands(seats: Sequence[int], sizes: Sequence[int]) -> str:
    """``p0 holds only 1 card``, ``p0 and p1 hold only 1 card each``, ``p0 holds only 1 card,
    p1 2 and p3 none``."""

    def cards(k: int) -> str:
        return f"only {counted(k, 'card')}" if k else "no card"

    if len(set(sizes)) == 1:
        if len(seats) == 1:
            return f"{seat_text(seats[0])} holds {cards(sizes[0])}"
        return f"{seats_text(seats)} hold {cards(sizes[0])} each"
    rest = [
        f"{seat_text(s)} {f'only {k}' if k else 'none'}"
        for s, k in zip(seats[1:], sizes[1:], strict=True)
    ]
    first = f"{seat_text(seats[0])} holds {cards(sizes[0])}"
    return ", ".join([first, *rest[:-1]]) + " and " + rest[-1]


def _hand_over(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    """§6: why the hand ends, each player's look at his own pile, rival Kings found, the merge,
    too few cards."""
    short = [s for s in range(before.num_players) if before.active[s] and len(before.hands[s]) < 3]
    held = _short_hands(short, [len(before.hands[s]) for s in short])
    lines: list[Line] = [
        (PUBLIC, f"Hand {before.hand_number} ends: {held}, fewer than 3 (GSK-17)."),
        (PUBLIC, "Each player still in looks at his own trick pile."),
    ]
    kings = [c for _, c, _ in kings_in_piles(before)]
    for s in range(before.num_players):
        pile = [c for c in before.piles[s] if c not in kings]
        if before.active[s] and pile:
            lines.append((1 << s, f"{seat_text(s)}'s trick pile: {cards_text(sorted(pile))}."))
    outs = _outs(before, after)
    shown = [(s, text, rule) for s, text, rule in outs if rule != "GSK-18"]
    lines += [(PUBLIC, _out_line(s, text, rule)) for s, text, rule in shown]
    if not (after.is_terminal and len(shown) == len(outs)):
        lines.append((PUBLIC, "Each player still in adds his trick pile to his hand."))
    lines += [(PUBLIC, _out_line(s, text, rule)) for s, text, rule in outs if rule == "GSK-18"]
    return lines


def _letters(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    """The schedule after a player went out (§7): new letters for three, or a duel for two."""
    if after.schedule == 2:
        first, second = (seat_text(s) for s in after.duelists)
        text = (
            f"Two players are left: {first} and {second} play on as in a two-player game, "
            f"{first} with priority first."
        )
        return [(PUBLIC, text)]
    letters = ", ".join(
        f"{LETTERS[i]} = {seat_text(s)}" for i, s in enumerate(after.seat_of_letter)
    )
    relettered = before.players_left < before.schedule  # after the round, not at a hand's end
    if relettered:
        eliminated, eliminator = before.round_eliminations[0]
    else:  # the hand's end: nobody eliminated the first player out there (GSK-27)
        eliminated, eliminator = _outs(before, after)[0][0], -1
    other = next((t for t in before.tricks if eliminated not in t.seats), None)
    if (
        relettered
        and eliminator >= 0
        and other is not None
        and other.collector >= 0
        and not other.void
    ):
        a, b, c = (seat_text(s) for s in after.seat_of_letter)
        text = (
            f"Three players are left, with new letters: A = {a}, who won the other trick; "
            f"B = {b}, who lost it; C = {c}, who put {seat_text(eliminated)} out."
        )
    else:  # GSK-27: in seat order from the seat after the (first) player out
        text = (
            f"Three players are left, lettered in seat order from the seat after "
            f"{seat_text(eliminated)}: {letters} (GSK-27)."
        )
    return [(PUBLIC, text)]


def _the_end(final: GodSaveTheKingState) -> list[Line]:
    """The game is over: why, and the cards still face down on the table, turned up."""
    winners = final.winners
    names = seats_text(winners)
    if final.truncated:
        most = len(final.hands[winners[0]]) + len(final.piles[winners[0]])
        cap = counted(final.tables.safety_cap, "trick")
        if len(winners) == 1:
            holds = f"{names} holds the most cards ({most}) and wins"
        else:
            holds = f"{names} hold the most cards ({most} each) and share the win"
        text = f"The safety cap of {cap} is reached: {holds} (GSK-29)."
    elif len(winners) == 1 and final.active[winners[0]]:
        text = f"{names} is the last player still in, and wins."
    else:
        text = f"Nobody is left: {names} went out together and share a draw (GSK-23)."
    lines: list[Line] = [(PUBLIC, text)]
    hidden = [
        f"{seat_text(t.seats[side])}'s {SLOT_NAMES[k]} card {c}"
        for t in final.tricks
        for side in (0, 1)
        for k, c in enumerate(t.formations[side])
        if c is not None and not t.face_up[side][k]
    ]
    if hidden:
        lines.append((PUBLIC, f"Face down until now: {', '.join(hidden)}."))
    return lines


def _chosen(chosen: Sequence[GodSaveTheKingAction | None], seat: int) -> GodSaveTheKingAction:
    action = chosen[seat]
    assert action is not None
    return action


# --------------------------------------------------------------------------------- the end


Exit = tuple[int, int, str, str]
"""A player's exit: (the event's index, the hand number, why he went out, the rule id or "")."""


def exits(state: GodSaveTheKingState) -> dict[int, Exit]:
    """When and why each player went out, told again from the game's history (the rules keep
    only who is still in); empty when the history holds a hidden event."""
    history = state.history
    if any(item is HIDDEN for _, item in history):
        return {}
    game = state.game
    # First the events that put someone out (a plain replay), then only those told step by
    # step, which costs a copy of the state per step.
    live = game.new_state()
    assert isinstance(live, GodSaveTheKingState)
    falls: set[int] = set()
    for index, (actor, item) in enumerate(history):
        left = live.players_left
        _play(live, actor, item)
        if live.players_left < left:
            falls.add(index)
    found: dict[int, Exit] = {}
    live = game.new_state()
    assert isinstance(live, GodSaveTheKingState)
    for index, (actor, item) in enumerate(history):
        if index in falls:
            shots = [live, *_steps(live, actor, item)]
            for before, after in pairwise(shots):
                for seat, text, rule in _outs(before, after):
                    found[seat] = (index, before.hand_number, text, rule)
        _play(live, actor, item)
    return found


def _play(state: GodSaveTheKingState, actor: int, item: Any) -> None:
    if actor == CHANCE:
        state.apply_chance(item)
    else:
        state.apply(actor, item)


def outcome(state: GodSaveTheKingState) -> Outcome:
    """How the game ended (§8, GSK-23, GSK-29): the reason, and every seat's place, what it
    holds or when it went out, and why."""
    gone = exits(state)
    winners = state.winners
    n = state.num_players
    held = {s: len(state.hands[s]) + len(state.piles[s]) for s in range(n) if state.active[s]}

    def rank(s: int) -> tuple[int, int]:
        if s in winners:
            return (3, 0)
        if state.active[s]:
            return (2, held[s])  # the safety cap: the more cards, the better
        return (1, gone[s][0] if s in gone else -1)  # the later out, the better

    standings = []
    for s in range(n):
        place = 1 + sum(1 for other in range(n) if rank(other) > rank(s))
        standings.append(_standing(state, s, place, held, gone.get(s)))
    return Outcome(
        _reason(state, gone, held), tuple(sorted(standings, key=lambda x: (x.place, x.seat)))
    )


def _standing(
    state: GodSaveTheKingState, seat: int, place: int, held: dict[int, int], gone: Exit | None
) -> Standing:
    winners = state.winners
    if state.active[seat]:
        if not state.truncated:
            return Standing(seat, place, "last one in", "kept his King hidden to the end")
        if seat in winners:
            note = "the most cards at the safety cap" + (", shared" if len(winners) > 1 else "")
        else:
            note = f"fewer cards than {seats_text(winners)} at the safety cap"
        return Standing(seat, place, counted(held[seat], "card"), note)
    if gone is None:
        return Standing(seat, place, "out")
    _, hand, text, rule = gone
    note = text + (f" ({rule})" if rule else "")
    if seat in winners:
        note += "; nobody was left, so a shared draw (GSK-23)"
    return Standing(seat, place, f"out in hand {hand}", note)


def _reason(state: GodSaveTheKingState, gone: dict[int, Exit], held: dict[int, int]) -> str:
    winners = state.winners
    names = seats_text(winners)
    if state.truncated:
        most = held[winners[0]]
        if len(winners) == 1:
            holds = f"{names} holds the most cards ({most})"
        else:
            holds = f"{names} hold the most cards ({most} each) and share the win"
        return f"the safety cap of {counted(state.tables.safety_cap, 'trick')} ended the game: {holds} (GSK-29)"
    if not state.active[winners[0]]:
        return f"{names} went out at the same moment and nobody is left: they share a draw (GSK-23)"
    if not gone:
        return f"{names} is the last player still in"
    last = max(index for index, _, _, _ in gone.values())
    lasts = sorted(s for s, (index, _, _, _) in gone.items() if index == last)
    _, _, text, rule = gone[lasts[0]]
    why = text + (f" ({rule})" if rule else "")
    if len(lasts) > 1:
        return f"{names} is the last player still in, after {seats_text(lasts)} went out together"
    return f"{names} is the last player still in, after {seat_text(lasts[0])} went out: {why}"


# --------------------------------------------------------------------------------- coaching

COACH_LENGTH: Final = 300
"""The most characters a coaching text holds (a few short sentences beside the board)."""


def coaching(state: GodSaveTheKingState, seat: int) -> str:
    """A teacher's words on the decision ``seat`` faces (at most three sentences, the most
    telling first), worked out from its own cards and the cards face up: never from a
    rival's hand or face-down card."""
    t = state.tricks[state.trick_of_seat[seat]]
    side = t.seats.index(seat)
    decision = state.decision
    if decision == D_FORM:
        sentences = _form_sentences(state, seat, t, side)
    elif decision == D_ROUTE:
        sentences = _route_sentences(state, seat, t, side)
    elif decision == D_DECLARE:
        sentences = _declare_sentences(state, seat, t, side)
    else:
        sentences = _challenge_sentences(state, seat, t, side)
    chosen: list[str] = []
    for sentence in sentences:
        if len(chosen) < 3 and len(" ".join([*chosen, sentence])) <= COACH_LENGTH:
            chosen.append(sentence)
    return " ".join(chosen)


def _draw_risk(state: GodSaveTheKingState, seat: int) -> str:
    """``a random card from your 10 (1 in 10 is your KS)``: what a blind draw from ``seat``'s
    hand may take (GSK-10)."""
    hand = state.hands[seat]
    if not hand:
        return "nothing, as your hand is empty (GSK-10)"
    king = KING_OF[seat]
    risk = f" (1 in {len(hand)} is your {king})" if king in hand else ""
    return f"a random card from your {counted(len(hand), 'card')}{risk}"


def _form_sentences(state: GodSaveTheKingState, seat: int, t: Trick, side: int) -> list[str]:
    rival = seat_text(t.seats[1 - side])
    slot = t.placed[side]
    hand = state.hands[seat]
    king = KING_OF[seat]
    laid = t.formations[side]
    sentences: list[str] = []
    if slot == LEFT:
        best = sorted(hand, key=lambda c: (RANK[c], c), reverse=True)
        top = [c for c in best if c != king][:2]
        sentences.append(
            f"Lay 3 cards face down. Your left card meets {rival}'s right card, your right card "
            f"{rival}'s left: the higher wins each column (GSK-4)."
        )
        sentences.append(
            f"Win a column and lose none to take the trick; your best are {' and '.join(map(str, top))}."
        )
    elif slot == MIDDLE:
        sentences.append(
            f"With {laid[LEFT]} on your left: your middle card stays face down, and counts only "
            "in a push, when each names a rank for it (GSK-3)."
        )
    else:
        sentences.append(
            f"With {laid[LEFT]} on the left and {laid[MIDDLE]} in the middle: your right card "
            f"meets {rival}'s left one (GSK-4)."
        )
        sentences.append(
            "One column each, or two draws, is a push: then the middle cards' declared ranks "
            "decide."
        )
    if king in hand:
        if not state.tables.exposed_king_legal:
            sentences.append(f"{king} may only go in the middle, face down (GSK-5).")
        elif slot == MIDDLE:
            sentences.append(
                f"{king} is safe in the middle unless {rival} routes it (GSK-13); left or right, "
                "it is turned up and you are out (GSK-5)."
            )
        else:
            sentences.append(
                f"Keep {king} out of the outside slots: turned up, it puts you out at once (GSK-5)."
            )
    return sentences


def _route_sentences(state: GodSaveTheKingState, seat: int, t: Trick, side: int) -> list[str]:
    rival = t.seats[1 - side]
    them = seat_text(rival)
    slots = [
        a.slot
        for a in state.legal_actions(seat)
        if isinstance(a, GodSaveTheKingAction) and a.kind == ROUTE
    ]
    names = [SLOT_NAMES[k] for k in slots]
    if len(names) == 1:
        claim = f"says {them}'s face-down {names[0]} card is"
    else:
        claim = f"names one of {them}'s face-down cards ({', '.join(names[:-1])} or {names[-1]}) as"
    left = state.tables.routes_per_hand - state.routes_used[seat]
    sentences = [
        f"A route {claim} {them}'s King {KING_OF[rival]}: if so, {them} is out and the trick is "
        "yours (GSK-15).",
        f"If not, {them} draws {_draw_risk(state, seat)}; {counted(left, 'route')} left this "
        "hand (GSK-12).",
    ]
    result = t.skirmish_result
    if result == side:
        sentences.append(f"You won the skirmishes: {them}'s middle card comes to you anyway.")
    elif result == 1 - side:
        sentences.append(f"{them} won the skirmishes: only a good route takes this trick now.")
    elif result == PUSH:
        sentences.append("A push: if nobody routes, the middle cards' declared ranks decide.")
    return sentences


def _declare_sentences(state: GodSaveTheKingState, seat: int, t: Trick, side: int) -> list[str]:
    rival = seat_text(t.seats[1 - side])
    middle = t.formations[side][MIDDLE]
    king = KING_OF[seat]
    sentences: list[str] = []
    if t.redeclarations:
        left = state.tables.max_redeclare - t.redeclarations
        sentences.append(
            f"You both named {rank_name(t.declared[side])}: name again; "
            + (
                "a tie now makes the trick void, each taking back their own cards (GSK-7)."
                if not left
                else f"after {left + 1} more ties the trick is void (GSK-7)."
            )
        )
    else:
        sentences.append(
            "A push: each names a rank for their own middle card, and the higher rank takes the "
            "trick, true or not (GSK-9)."
        )
    if middle == king:
        sentences.append(
            f"Your middle card is your King {king}: win the trick and it comes back safe "
            f"(GSK-19); lose it and {king} lies in {rival}'s pile, which puts you out when the "
            "hand ends."
        )
    risk = f"a challenge lets {rival} draw {_draw_risk(state, seat)}"
    truth = rank_word(RANK[middle])
    if middle == king:
        sentences.append(f"Name high: if you bluff, {risk}.")
    elif t.face_up[side][MIDDLE]:
        sentences.append(
            f"Your middle card {middle} lies face up: name {truth}, or bluff where all can see "
            f"it, and {risk}."
        )
    elif RANK[middle] == ACE:
        sentences.append(
            f"Your middle card is {middle}: naming Ace is the truth, and no rank beats it."
        )
    else:
        sentences.append(
            f"Your middle card is {middle}: naming {truth} is the truth; name higher and {risk}."
        )
    return sentences


def _challenge_sentences(state: GodSaveTheKingState, seat: int, t: Trick, side: int) -> list[str]:
    won = t.blind_winner
    winner = t.seats[won]
    them = seat_text(winner)
    rank = t.declared[won]
    named = rank_name(rank)
    sentences = [
        f"{them} named {named} and takes the trick either way (GSK-9).",
        f"Challenge: if {them}'s middle card is not {named}, you draw a random card from "
        f"{them}'s {counted(len(state.hands[winner]), 'card')}; if it is, {them} draws "
        f"{_draw_risk(state, seat)}.",
    ]
    middle = t.formations[won][MIDDLE]
    if t.face_up[won][MIDDLE]:
        verdict = "is sure to win" if RANK[middle] != rank else "is sure to fail"
        sentences.append(f"That middle card is face up, {middle}: a challenge {verdict}.")
        return sentences
    in_play = [c for c in range(13 * state.num_players) if RANK[c] == rank]
    unseen = [c for c in in_play if c not in _in_sight(state, seat)]
    if not unseen:
        sentences.append(f"Every {rank_word(rank)} in play is in sight elsewhere: it is a bluff.")
    else:
        sentences.append(
            f"{len(unseen)} of the {len(in_play)} {rank_word(rank)}s in play "
            f"{'is' if len(unseen) == 1 else 'are'} out of your sight."
        )
    return sentences


def _in_sight(state: GodSaveTheKingState, seat: int) -> set[Card]:
    """The cards ``seat`` can place: its hand, its formation, the cards face up and the cards of
    the piles and the removed area it has seen (§9)."""
    bit = 1 << seat
    seen = set(state.hands[seat])
    for t in state.tricks:
        for k, s in enumerate(t.seats):
            for slot in (LEFT, MIDDLE, RIGHT):
                card = t.formations[k][slot]
                if card is not None and (s == seat or t.face_up[k][slot]):
                    seen.add(card)
    for pile, knowers in zip(state.piles, state.pile_knowers, strict=True):
        seen.update(c for c, mask in zip(pile, knowers, strict=True) if mask & bit)
    seen.update(
        c for c, mask in zip(state.removed, state.removed_knowers, strict=True) if mask & bit
    )
    return seen
