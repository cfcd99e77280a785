"""What people read and type in God Save The King (docs/rules/god-save-the-king.md): parsing,
refusals, the table, the narration.

Nothing here runs in a playout or a search (the module is not compiled): the state machine
(:mod:`.rules`) keeps no words. The narration of an event is made by playing it on a copy of the
state, one rules step at a time (:meth:`GodSaveTheKingState._advance`), and telling what each
step changed, to each seat only what it may know.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.actions import Action, seat_text
from ...core.cards import RANK_TEXT, SUIT_NAMES, Card, cards_text, rank_text
from ...core.draws import drawn_card
from ...core.errors import IllegalAction
from ...core.events import CHANCE, Line
from ...core.game import GameText, State
from .components import (
    CHALLENGE,
    D_CHALLENGE,
    D_DECLARE,
    D_FORM,
    D_ROUTE,
    DECISION_TEXT,
    DECLARE,
    FORM,
    KING_OF,
    KING_OWNER,
    LETTERS,
    MIDDLE,
    PUBLIC,
    PUSH,
    RANK_WORDS,
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
            f"{counted(state.tricks_played, 'trick')} played (cap {state.tables.safety_cap}) · "
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
        probe = state._copy(knowledge=False)
        lines: list[Line]
        if actor == CHANCE:
            probe._draw(item)
            lines = [
                (
                    PUBLIC,
                    f"{seat_text(state.draw_to)} draws {item} from {seat_text(state.draw_from)}'s hand.",
                )
            ]
            lines += _consequences(state, probe)
        elif item.kind == FORM:
            probe._place(actor, item)
            lines = _placed(actor, item)
        else:
            probe._take_decision(actor, item)
            lines = _decided(state, actor, item, probe)
        while True:
            before = probe._copy(knowledge=False)
            if not probe._advance():
                break
            lines += _step(before, probe)
        return lines

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
                return (
                    f"{c} is {who}'s King: with exposed_king_legal off it may only go in the middle"
                )
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
            return f"{seat_text(seat)} has already routed this hand (routes_per_hand = {per_hand})"
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
    lines = [f"Trick: {x} (priority) v {y}"]
    for side in (0, 1):
        slots = [slot_text(state, t, side, k, seat) for k in range(3)]
        shown = "  ".join(
            f"{SLOT_NAMES[k]} {slots[k] if slots[k] is not None else '·'}" for k in range(3)
        )
        lines.append(f"    {seat_text(t.seats[side]):<4} {shown}")
    if t.skirmish_result >= 0:
        result = "a push" if t.skirmish_result == PUSH else f"{(x, y)[t.skirmish_result]} wins them"
        names = {1: x, -1: y, 0: "draw"}
        lines.append(
            f"    columns: {x} left v {y} right -> {names[t.columns[0]]}, "
            f"{x} right v {y} left -> {names[t.columns[1]]}: {result}"
        )
    if any(t.declared):
        said = [
            f"{seat_text(s)} {rank_text(r)}" for s, r in zip(t.seats, t.declared, strict=True) if r
        ]
        lines.append(f"    declared: {', '.join(said)}")
    if t.challenge_answer >= 0:
        lines.append(f"    challenge: {challenge_text(t.challenge_answer)}")
    return lines


def past_trick_text(record: PastTrick) -> str:
    _, (x, y), collector, dx, dy, answer = record
    text = f"{seat_text(x)} v {seat_text(y)}: "
    text += (
        f"{seat_text(collector)} collected"
        if collector >= 0
        else "nobody collected (void or both out)"
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
    """The end of the game: the result, every seat's cards and every hidden card shown."""
    lines = [
        f"God Save The King · the final table · hand {state.hand_number} · "
        f"{counted(state.tricks_played, 'trick')} played"
    ]
    for s in range(state.num_players):
        you = " (you)" if s == seat else ""
        head = f"  {seat_text(s) + you:<9} {SUIT_NAMES[s]:<8}"
        if not state.active[s]:
            lines.append(f"{head} eliminated")
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
    lines.append(f"Game over: {result_text(state)}.")
    return "\n".join(lines)


def result_text(state: GodSaveTheKingState) -> str:
    winners = state.winners
    names = " and ".join(seat_text(s) for s in winners)
    if state.truncated:
        # GSK-29: the safety cap; the most cards (hand + trick pile) wins.
        held = len(state.hands[winners[0]]) + len(state.piles[winners[0]])
        verb = "wins" if len(winners) == 1 else "share the win"
        return (
            f"the safety cap of {counted(state.tables.safety_cap, 'trick')} is reached; {names} "
            f"{verb} with the most cards ({held})"
        )
    if len(winners) == 1:
        return f"{names} wins, the last player standing"
    return f"{names} share the win, eliminated by the same event (GSK-23)"


# --------------------------------------------------------------------------------- narration


def _placed(seat: int, action: GodSaveTheKingAction) -> list[Line]:
    who = seat_text(seat)
    slot = SLOT_NAMES[action.slot]
    own = 1 << seat
    return [
        (own, f"{who} puts {action.card} in the {slot} slot."),
        (~own, f"{who} lays a card face down ({slot})."),  # (what it is stays hidden, §9)
    ]


def _decided(
    before: GodSaveTheKingState, seat: int, action: GodSaveTheKingAction, after: GodSaveTheKingState
) -> list[Line]:
    """A route, pass, declaration or challenge, and what it settled at once."""
    who = seat_text(seat)
    if before.decision == D_CHALLENGE:
        t = after.tricks[before.current_trick]
        if action.kind != CHALLENGE:
            line = f"{who} does not challenge."
        else:
            how = "accurately" if t.challenge_answer else "NOT accurately"
            line = (
                f"{who} challenges: {seat_text(t.seats[t.blind_winner])}'s card was {how} declared."
            )
        return [(PUBLIC, line), *_consequences(before, after)]
    own = 1 << seat
    lines: list[Line] = [(own, f"{who}: {action}.")]
    if after.submitted:  # the others have yet to choose: what, they learn with theirs
        return [*lines, (~own, f"{who} has chosen.")]
    chosen = list(before.pending_choices)
    chosen[seat] = action
    if before.decision == D_ROUTE:
        return [*lines, _route_window(before, chosen)]
    return lines + _declarations(before, chosen, after)


def _route_window(
    before: GodSaveTheKingState, chosen: Sequence[GodSaveTheKingAction | None]
) -> Line:
    t = before.tricks[before.current_trick]
    told = [
        f"{seat_text(s)} {'routes' if _kind(chosen[s]) == ROUTE else 'passes'}"
        for s in t.seats
        if before.asked >> s & 1
    ]
    return (PUBLIC, f"Route window: {', '.join(told)}.")


def _declarations(
    before: GodSaveTheKingState,
    chosen: Sequence[GodSaveTheKingAction | None],
    after: GodSaveTheKingState,
) -> list[Line]:
    """The declarations shown together, and a tie, a void trick or the winner (GSK-7, GSK-8)."""
    index = before.current_trick
    t = after.tricks[index]
    said = ", ".join(f"{seat_text(s)} declares {rank_text(_rank(chosen[s]))}" for s in t.seats)
    lines: list[Line] = [(PUBLIC, f"Blind skirmish: {said}.")]
    if t.redeclarations > before.tricks[index].redeclarations:
        limit = after.tables.max_redeclare
        lines.append((PUBLIC, f"A tie: declare again ({t.redeclarations} of {limit})."))
    elif t.void:
        line = "Still a tie: the trick is void; each takes back his own three cards."
        lines.append((PUBLIC, line))
    else:
        winner, loser = (
            seat_text(s) for s in (t.seats[t.blind_winner], t.seats[1 - t.blind_winner])
        )
        lines.append((PUBLIC, f"{winner} wins the blind skirmish; {loser} may challenge."))
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
        side, slot = t.routes_to_resolve[0]
        router, rival = seat_text(t.seats[side]), seat_text(t.seats[1 - side])
        card = t.formations[1 - side][slot]
        line = f"{router} routes {rival}'s {SLOT_NAMES[slot]} card: it is {card}."
        return [(PUBLIC, line), *_consequences(before, after)]
    if t.step == T_DECIDE:
        return _consequences(before, after)
    return []  # a question asked, a window with nobody to ask, the next trick


def _revealed(before: GodSaveTheKingState, t: Trick, after: GodSaveTheKingState) -> list[Line]:
    x, y = t.formations
    px, py = (seat_text(s) for s in t.seats)
    lines: list[Line] = [
        (
            PUBLIC,
            f"Reveal: {px} shows {x[0]} left, {x[2]} right; {py} shows {y[0]} left, {y[2]} right.",
        )
    ]
    lines += _eliminations(before, after)
    shown = after.tricks[before.current_trick]
    if shown.skirmish_result >= 0:
        names = {1: px, -1: py, 0: "draw"}
        col1, col2 = shown.columns
        outcome = (
            "a push: blind skirmish"
            if shown.skirmish_result == PUSH
            else f"{(px, py)[shown.skirmish_result]} wins the skirmishes"
        )
        lines.append(
            (
                PUBLIC,
                f"Columns: {x[0]} v {y[2]} -> {names[col1]}, {x[2]} v {y[0]} -> {names[col2]}: "
                f"{outcome}.",
            )
        )
    return lines + _collections(before, after)


def _consequences(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    """Eliminations, collections and a blind draw asked for, in that order."""
    lines = _eliminations(before, after) + _collections(before, after)
    if after.is_chance and not before.is_chance:
        victim, drawer = seat_text(after.draw_from), seat_text(after.draw_to)
        lines.append((PUBLIC, f"{drawer} draws a card blindly from {victim}'s hand."))
    return lines


def _eliminations(
    before: GodSaveTheKingState, after: GodSaveTheKingState, told: Sequence[Card] = ()
) -> list[Line]:
    """Every King shown face up since ``before`` (it eliminated its owner), where it was."""
    lines: list[Line] = []
    added = zip(
        after.removed[len(before.removed) :],
        after.removed_knowers[len(before.removed) :],
        strict=True,
    )
    for c, knowers in added:
        owner = KING_OWNER[c]
        if knowers != PUBLIC or owner < 0 or not before.active[owner] or c in told:
            continue
        holder = next((s for s, pile in enumerate(before.piles) if c in pile), -1)
        name = seat_text(owner)
        if holder >= 0:
            text = f"{c} is found in {seat_text(holder)}'s trick pile: {name} is eliminated."
        else:
            text = f"{c} is revealed: {name}'s King! {name} is eliminated."
        lines.append((PUBLIC, text))
    return lines


def _collections(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    if after.tricks_played != before.tricks_played or len(after.tricks) != len(before.tricks):
        return []
    return [
        (PUBLIC, f"{seat_text(now.seats[now.collector])} collects the trick.")
        for was, now in zip(before.tricks, after.tricks, strict=True)
        if was.collector < 0 and now.collector >= 0
    ]


def _round_over(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    """The end of a round: new letters, the safety cap, the end of a hand, the next round."""
    lines: list[Line] = []
    if before.schedule == 4 and before.players_left == 3 and after.schedule == 3:
        lines.append(_letters(after))  # relabelled after the round of the elimination
    if after.truncated:
        cap = counted(after.tables.safety_cap, "trick")
        return [*lines, (PUBLIC, f"The safety cap of {cap} is reached.")]
    if after.hand_number > before.hand_number or after.is_terminal:
        lines += _hand_over(before, after)
    if after.is_terminal:
        return lines
    if before.players_left == 4 and after.schedule == 3:
        lines.append(_letters(after))  # relabelled after an end-of-hand elimination
    if after.hand_number > before.hand_number:
        sizes = ", ".join(
            f"{seat_text(s)} {len(after.hands[s])}"
            for s in range(after.num_players)
            if after.active[s]
        )
        lines.append((PUBLIC, f"Hand {after.hand_number} begins; cards in hand: {sizes}."))
    pairs = ", ".join(f"{seat_text(t.seats[0])} v {seat_text(t.seats[1])}" for t in after.tricks)
    first = ", ".join(seat_text(t.seats[0]) for t in after.tricks)
    lines.append((PUBLIC, f"Next: {pairs} (priority {first})."))
    return lines


def _hand_over(before: GodSaveTheKingState, after: GodSaveTheKingState) -> list[Line]:
    """§6: the piles looked at, rival Kings found, the merge, too few cards."""
    lines: list[Line] = [
        (PUBLIC, f"End of hand {before.hand_number}: every player looks at his trick pile.")
    ]
    found = kings_in_piles(before)
    kings = [c for _, c, _ in found]
    for holder, c, owner in found:
        name = seat_text(owner)
        lines.append(
            (PUBLIC, f"{c} is found in {seat_text(holder)}'s trick pile: {name} is eliminated.")
        )
    for s in range(before.num_players):
        pile = [c for c in before.piles[s] if c not in kings]
        if before.active[s] and pile:
            lines.append((1 << s, f"Your trick pile: {cards_text(sorted(pile))}."))
    lines += _eliminations(before, after, told=kings)
    added = zip(
        after.removed[len(before.removed) :],
        after.removed_knowers[len(before.removed) :],
        strict=True,
    )
    shown = {KING_OWNER[c] for c, knowers in added if knowers == PUBLIC and KING_OWNER[c] >= 0}
    for s in range(before.num_players):
        if before.active[s] and not after.active[s] and s not in shown:
            lines.append((PUBLIC, f"{seat_text(s)} has fewer than 3 cards: eliminated."))
    return lines


def _letters(state: GodSaveTheKingState) -> Line:
    names = ", ".join(f"{LETTERS[i]} = {seat_text(s)}" for i, s in enumerate(state.seat_of_letter))
    return (PUBLIC, f"Three players left; new letters: {names}.")


def _kind(action: GodSaveTheKingAction | None) -> int:
    assert action is not None
    return action.kind


def _rank(action: GodSaveTheKingAction | None) -> int:
    assert action is not None
    return action.rank
