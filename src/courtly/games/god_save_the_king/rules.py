"""God Save The King (RULES.md §1): hide your King in a formation, bluff, and rout the others'.

The state machine. A *round* is one trick (2 and 3 players) or two tricks played side by side
(4 players, GSK-26). Every participant of the round forms at once, card by card (left, then
middle, then right: three small decisions instead of one with hundreds of choices); then the
tricks are resolved one after the other (§1.5): reveal and skirmishes, the route window, the
blind skirmish (declarations, ties, the loser's challenge) and the collection.

Chance is explicit: the only random event is a card drawn blindly from a hand (a challenge or a
failed route, §1.10), whose outcomes are the cards of that hand.

Hidden information (§1.9): a card lying face down carries a mask of the seats that know it
(``PUBLIC`` = everyone); hands are known to their holders. The views remove every unknown card
(:meth:`_redacted`), and :mod:`.knowledge` keeps, per seat, what that seat can still infer about
where the unknown cards are, so that :meth:`determinize` samples only what the seat cannot know.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from ...core.actions import Action, seat_text
from ...core.cards import CARDS, KING, SUIT_NAMES, Card, cards_text, rank_text
from ...core.draws import choice
from ...core.errors import IllegalAction
from ...core.game import CHANCE, HIDDEN, State
from ...core.persist import fields_of, rebuild
from .knowledge import EQ_RANK, NE_RANK, NOT_CARD, Export, Knowledge, Loc, simple_export

if TYPE_CHECKING:
    from .game import GodSaveTheKing

LEFT: Final = 0
MIDDLE: Final = 1
RIGHT: Final = 2
SLOT_NAMES: Final = ("left", "middle", "right")
PUBLIC: Final = -1
"""The mask of a card everyone knows (every bit set, the spectator's included)."""

# Action kinds.
FORM: Final = 0
ROUTE: Final = 1
PASS: Final = 2
DECLARE: Final = 3
CHALLENGE: Final = 4

# What the seats in to_move are deciding.
D_NONE: Final = 0
D_FORM: Final = 1
D_ROUTE: Final = 2
D_DECLARE: Final = 3
D_CHALLENGE: Final = 4
DECISION_TEXT: Final = ("none", "formation", "route", "declaration", "challenge")

# The resolution steps of one trick (§1.5).
T_FORM: Final = 0
T_EARLY_ROUTE: Final = 1  # route_window = before_reveal: between T1 and T2
T_REVEAL: Final = 2
T_ROUTE: Final = 3  # route_window = after_skirmish (T4)
T_ROUTES: Final = 4  # resolving the routes declared, in priority order
T_DECIDE: Final = 5
T_DECLARE: Final = 6
T_CHALLENGE: Final = 7
T_DONE: Final = 8

PUSH: Final = 2

# Why a card is being drawn from a hand.
C_ROUTE: Final = 0
C_CHALLENGE: Final = 1

RANK: Final = tuple(c.rank for c in CARDS[:52])
KING_OF: Final = tuple(CARDS[s * 13 + KING - 2] for s in range(4))
"""Each seat's King: the King of its starting suit (seat 0 spades, 1 hearts, 2 diamonds, 3 clubs)."""
KING_OWNER: Final = tuple(KING_OF.index(CARDS[i]) if CARDS[i] in KING_OF else -1 for i in range(52))
LABELS: Final = "ABCD"
SCHEDULE_3: Final = ((0, 1), (1, 2), (2, 0))  # A-B, B-C, C-A (§1.7)
ROUNDS_4: Final = (((0, 1), (2, 3)), ((1, 2), (3, 0)))  # {A-B, C-D}, {B-C, D-A} (GSK-26)


# An Action subclass stays a plain Python class (immutable slots) in a module that may run
# compiled (courtly/_compiled.py).
@mypyc_attr(native_class=False)
class GodSaveTheKingAction(Action):
    """``form left 10S``, ``route``, ``route middle``, ``pass``, ``declare q``, ``challenge``."""

    __slots__ = ("card", "kind", "rank", "slot")

    kind: int
    slot: int
    card: Card | None
    rank: int

    def __init__(
        self, id: int, text: str, kind: int, slot: int = -1, card: Card | None = None, rank: int = 0
    ) -> None:
        super().__init__(id, text, kind=kind, slot=slot, card=card, rank=rank)


class Trick:
    """One trick between ``p[0]`` (priority, GSK-28) and ``p[1]``; sides are indexed 0 and 1."""

    __slots__ = (
        "challenge",
        "cols",
        "decl",
        "ev",
        "form",
        "p",
        "placed",
        "queue",
        "redecl",
        "result",
        "step",
        "up",
        "void",
        "wdecl",
        "winner",
    )

    def __init__(self, x: int, y: int, blank: bool = False) -> None:
        """A trick about to be formed; ``blank=True`` sets only the players, for :meth:`clone`
        to fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        self.p = (x, y)
        if blank:
            return
        self.form: list[list[Any]] = [[None, None, None], [None, None, None]]
        self.placed = [0, 0]
        self.up = [[False, False, False], [False, False, False]]
        self.ev = [[-1, -1, -1], [-1, -1, -1]]  # history index of each placement
        self.step = T_FORM
        self.cols = (0, 0)  # column results for side 0: +1 won, 0 draw, -1 lost
        self.result = -1  # side that won the skirmishes, PUSH, or -1 before the reveal
        self.queue: list[tuple[int, int]] = []  # routes to resolve: (router side, target slot)
        self.decl = [0, 0]  # the last declared ranks (0: none yet)
        self.redecl = 0
        self.wdecl = -1  # side that won the blind skirmish
        self.challenge = -1  # -1 none, 0 "not accurate", 1 "accurate"
        self.winner = -1  # side that collected the trick
        self.void = False

    def __reduce__(self) -> tuple[Any, ...]:
        # (A compiled class pickles through core.persist: see there.)
        return (rebuild, (Trick, (self.p[0], self.p[1], True), fields_of(self)))

    def clone(self) -> Trick:
        other = Trick(*self.p, blank=True)
        other.form = [self.form[0].copy(), self.form[1].copy()]
        other.placed = self.placed.copy()
        other.up = [self.up[0].copy(), self.up[1].copy()]
        other.ev = [self.ev[0].copy(), self.ev[1].copy()]
        other.step = self.step
        other.cols = self.cols
        other.result = self.result
        other.queue = self.queue.copy()
        other.decl = self.decl.copy()
        other.redecl = self.redecl
        other.wdecl = self.wdecl
        other.challenge = self.challenge
        other.winner = self.winner
        other.void = self.void
        return other


class GodSaveTheKingState(State):
    """A position of God Save The King."""

    __slots__ = (
        "_know",
        "_legal",
        "_msgs",
        "_result",
        "_track",
        "active",
        "asked",
        "cur",
        "decision",
        "draw_from",
        "draw_kind",
        "draw_to",
        "duel",
        "gsk",
        "hand_no",
        "hands",
        "labels",
        "last_elim",
        "mode",
        "n_active",
        "pend_ev",
        "pending",
        "piles",
        "pmask",
        "prio2",
        "removed",
        "results",
        "rmask",
        "round_elims",
        "routes",
        "sched",
        "seat_idx",
        "seat_trick",
        "submitted",
        "tricks",
        "tricks_played",
    )

    gsk: GodSaveTheKing
    """The game, typed as God Save The King: ``game`` itself stays typed :class:`Game`, as a
    compiled subclass (courtly/_compiled.py) may not narrow an attribute's type."""

    def __init__(self, game: GodSaveTheKing, blank: bool = False) -> None:
        """The start of a game; ``blank=True`` only sets the base fields, for :meth:`_copy` to
        fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game)
        self.gsk = game
        if blank:
            return
        n = game.num_players
        self.hands: list[list[Any]] = [list(CARDS[s * 13 : s * 13 + 13]) for s in range(n)]
        self.piles: list[list[Any]] = [[] for _ in range(n)]
        self.pmask: list[list[int]] = [[] for _ in range(n)]  # who knows each pile card
        self.removed: list[Any] = []  # the removed area (GSK-24)
        self.rmask: list[int] = []
        self.active = [True] * n
        self.n_active = n
        self.routes = [0] * n  # routes attempted this hand (GSK-12)
        self.hand_no = 1
        self.tricks_played = 0
        self.tricks: list[Trick] = []
        self.cur = 0  # the trick being resolved
        self.seat_trick = [-1] * n
        self.seat_idx = [0] * n
        self.decision = D_NONE
        self.pending: list[GodSaveTheKingAction | None] = [
            None
        ] * n  # simultaneous choices not yet revealed
        self.asked = 0  # bit s: seat s was asked the current simultaneous question (public)
        self.submitted = 0  # bit s: seat s has answered it (public; what it answered is not)
        self.pend_ev: list[int] = []  # history indices of unrevealed simultaneous choices
        self._legal: list[tuple[Action, ...]] = [()] * n
        self.mode = n  # the schedule in force: 4 rounds of two tricks, 3 the A-B-C rota, 2 duel
        self.labels: tuple[int, ...] = tuple(range(n))
        self.sched = 0
        self.prio2 = 0  # 2 players: the seat with priority in the next trick
        self.duel = (0, 1)  # 2 players: the two seats left
        self.round_elims: list[tuple[int, int]] = []  # (eliminated, eliminator) this round
        self.results: list[tuple[int, tuple[int, int], int, int, int, int]] = []
        self.last_elim: tuple[int, ...] = ()
        self._result: list[float] = []
        self.draw_from = -1
        self.draw_to = -1
        self.draw_kind = C_ROUTE
        self._track: list[Knowledge] | None = None
        self._know: Export | None = None
        self._msgs: list[tuple[int, str]] | None = None
        self._start_round()

    # ----------------------------------------------------------------------------- helpers

    def _bit(self, seat: int | None) -> int:
        """The knowledge bit of ``seat``; the spectator has the bit after the last seat."""
        return 1 << (self.num_players if seat is None else seat)

    def _say(self, mask: int, text: str) -> None:
        if self._msgs is not None:
            self._msgs.append((mask, text))

    def _form_legal(self, seat: int, slot: int) -> tuple[Action, ...]:
        acts = self.gsk.form_acts[slot]
        hand = self.hands[seat]
        if self.gsk.exposed_king_legal:
            return tuple([acts[c] for c in hand])
        king = KING_OF[seat]
        # GSK-5 option off: the own King may not go left or right, so it must go in the middle
        # when it would otherwise be left over for the right slot.
        if slot == MIDDLE:
            if len(hand) == 2 and king in hand:
                return (acts[king],)
            return tuple([acts[c] for c in hand])
        return tuple([acts[c] for c in hand if c != king])

    # ----------------------------------------------------------------------------- rounds

    def _start_round(self) -> None:
        """Deal out the next trick (or the next pair of tricks) and ask for formations."""
        mode = self.mode
        if mode == 2:
            x = self.prio2
            a, b = self.duel
            y = b if a == x else a
            pairs: list[tuple[int, int]] = [(x, y)]
        elif mode == 3:
            a, b = SCHEDULE_3[self.sched]
            pairs = [(self.labels[a], self.labels[b])]
        else:
            pairs = list(ROUNDS_4[self.sched])  # four players: the letters are the seats
        self.tricks = [Trick(x, y) for x, y in pairs]
        self.cur = 0
        if self.round_elims:
            self.round_elims = []
        seat_trick = self.seat_trick
        seat_idx = self.seat_idx
        legal = self._legal
        game = self.gsk
        acts = game.form_acts[LEFT]
        fast = game.exposed_king_legal
        hands = self.hands
        for ti, (x, y) in enumerate(pairs):
            seat_trick[x] = seat_trick[y] = ti
            seat_idx[x] = 0
            seat_idx[y] = 1
            if fast:
                legal[x] = tuple([acts[c] for c in hands[x]])
                legal[y] = tuple([acts[c] for c in hands[y]])
            else:
                legal[x] = self._form_legal(x, LEFT)
                legal[y] = self._form_legal(y, LEFT)
        self.decision = D_FORM
        if mode == 4:
            self.to_move = (0, 1, 2, 3)
        else:
            x, y = pairs[0]
            self.to_move = (x, y) if x < y else (y, x)
        if self._msgs is not None:
            text = ", ".join(f"{seat_text(x)} v {seat_text(y)}" for x, y in pairs)
            self._say(
                PUBLIC, f"Next: {text} (priority {', '.join(seat_text(x) for x, _ in pairs)})."
            )

    def _first_step(self) -> int:
        return T_EARLY_ROUTE if self.gsk.early_route else T_REVEAL

    def _formed(self) -> None:
        """Every formation of the round is in: resolve the tricks one after the other."""
        self.decision = D_NONE
        self.cur = 0
        self.tricks[0].step = self._first_step()
        self._run()

    def _run(self) -> None:
        """Carry the current trick on until a decision or a chance event is needed."""
        while not self.is_terminal:
            t = self.tricks[self.cur]
            step = t.step
            if step == T_DONE:
                # A public record of the trick (its result, declarations, challenge answer).
                self.results.append(
                    (
                        self.hand_no,
                        t.p,
                        -1 if t.winner < 0 else t.p[t.winner],
                        t.decl[0],
                        t.decl[1],
                        t.challenge,
                    )
                )
                self.cur += 1
                if self.cur < len(self.tricks):
                    following = self.tricks[self.cur]
                    if following.step == T_FORM:  # (it may have ended already, GSK-11)
                        following.step = self._first_step()
                    continue
                self._end_round()
                return
            if step == T_REVEAL:
                self._reveal(t)
                if t.step == T_REVEAL:
                    t.step = T_DECIDE if self.gsk.early_route else T_ROUTE
            elif step in (T_ROUTE, T_EARLY_ROUTE):
                if self._ask_routes(t):
                    return
                t.step = T_REVEAL if step == T_EARLY_ROUTE else T_DECIDE
            elif step == T_ROUTES:
                if self._resolve_routes(t):
                    return
            elif step == T_DECIDE:
                if t.result == PUSH:
                    t.step = T_DECLARE
                else:
                    self._collect(t, t.result)
            elif step == T_DECLARE:
                self._ask(D_DECLARE, t.p, self.gsk.declare_legal)
                return
            else:  # pragma: no cover - T_FORM / T_CHALLENGE are waited on, never run
                raise AssertionError(f"trick step {step} is not runnable")

    def _end_round(self) -> None:
        self.tricks_played += len(self.tricks)
        if self.mode == 2:
            self.prio2 = self.tricks[0].p[1]  # 2 players: priority alternates (GSK-28)
        elif self.mode == 3:
            self.sched = (self.sched + 1) % 3
        else:
            self.sched ^= 1
        if self.n_active < self.mode:
            self._relabel_after_round()
        if self.tricks_played >= self.gsk.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            self._finish_by_cards()
            return
        self._next_round()

    def _next_round(self) -> None:
        # GSK-17: before every trick (round), a player short of 3 cards ends the hand.
        active = self.active
        for s, hand in enumerate(self.hands):
            if len(hand) < 3 and active[s]:
                self._end_hand()
                if self.is_terminal:
                    return
                break
        self._start_round()

    def _relabel_after_round(self) -> None:
        """§1.7: the 4 -> 3 relabelling after the round of the first elimination (GSK-27)."""
        if self.n_active == 2:
            self._to_duel()
            return
        if self.mode != 4 or self.n_active != 3:
            return
        eliminated, eliminator = self.round_elims[0]
        other = next((t for t in self.tricks if eliminated not in t.p), None)
        if eliminator >= 0 and other is not None and other.winner >= 0 and not other.void:
            winner = other.p[other.winner]
            loser = other.p[1 - other.winner]
            self.labels = (winner, loser, eliminator)
        else:
            self.labels = self._clockwise_after(eliminated)
        self.mode = 3
        self.sched = 0
        self._say_labels()

    def _relabel_after_hand(self, eliminated: list[int]) -> None:
        if self.n_active == 2 and self.mode > 2:
            self._to_duel()
        elif self.mode == 4 and self.n_active == 3:
            # GSK-27 fallback: an end-of-hand elimination has no "other trick".
            self.labels = self._clockwise_after(eliminated[0])
            self.mode = 3
            self.sched = 0
            self._say_labels()

    def _clockwise_after(self, seat: int) -> tuple[int, ...]:
        n = self.num_players
        return tuple([s for s in [(seat + k) % n for k in range(1, n)] if self.active[s]])

    def _to_duel(self) -> None:
        # §1.7: the last two play on by the 2-player rules, the lower original seat first.
        self.mode = 2
        a, b = [s for s in range(self.num_players) if self.active[s]]
        self.duel = (a, b)
        self.prio2 = a

    def _say_labels(self) -> None:
        if self._msgs is not None:
            names = ", ".join(f"{LABELS[i]} = {seat_text(s)}" for i, s in enumerate(self.labels))
            self._say(PUBLIC, f"Three players left; new letters: {names}.")

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self._legal[seat] if seat in self.to_move else ()

    def _ask(self, decision: int, seats: Sequence[int], legal: tuple[Action, ...]) -> None:
        self.decision = decision
        movers: tuple[int, ...]
        if len(seats) == 2:
            a, b = seats
            movers = (a, b) if a < b else (b, a)
            self._legal[a] = self._legal[b] = legal
            self.asked = 1 << a | 1 << b
        else:
            a = seats[0]
            movers = (a,)
            self._legal[a] = legal
            self.asked = 1 << a
        self.submitted = 0
        self.to_move = movers

    def _apply(self, seat: int, a: GodSaveTheKingAction) -> None:  # type: ignore[override]
        kind = a.kind
        if kind == FORM:
            # The hot path of every playout: one card into the next slot.
            t = self.tricks[self.seat_trick[seat]]
            i = self.seat_idx[seat]
            placed = t.placed
            k = placed[i]
            card = a.card
            hand = self.hands[seat]
            hand.remove(card)
            t.form[i][k] = card
            t.ev[i][k] = len(self.history)
            self._keep_secret(1 << seat)  # a card laid face down: its owner alone knows it (§1.9)
            placed[i] = k + 1
            if k < RIGHT and self._msgs is None and self.gsk.exposed_king_legal:
                acts = self.gsk.form_acts[k + 1]
                self._legal[seat] = tuple([acts[c] for c in hand])
                return
            if self._msgs is not None:
                self._say(
                    self._bit(seat), f"{seat_text(seat)} puts {card} in the {SLOT_NAMES[k]} slot."
                )
                self._say(
                    PUBLIC & ~self._bit(seat),
                    f"{seat_text(seat)} lays a card face down ({SLOT_NAMES[k]}).",
                )
            if k < RIGHT:
                game = self.gsk
                if game.exposed_king_legal:
                    acts = game.form_acts[k + 1]
                    self._legal[seat] = tuple([acts[c] for c in hand])
                else:
                    self._legal[seat] = self._form_legal(seat, k + 1)
                return
            self._legal[seat] = ()
            self.to_move = _without(self.to_move, seat)
            if not self.to_move:
                self._formed()
            return
        if kind == CHALLENGE or (kind == PASS and self.decision == D_CHALLENGE):
            self._challenge(seat, kind == CHALLENGE)
            return
        # A simultaneous choice (route or pass, a declaration): secret until the last is in.
        self.pending[seat] = a
        self.submitted |= 1 << seat
        self.pend_ev.append(len(self.history))
        self._keep_secret(1 << seat)  # secret until every participant has chosen
        self._legal[seat] = ()
        self.to_move = _without(self.to_move, seat)
        if self._msgs is not None:
            self._say(self._bit(seat), f"{seat_text(seat)}: {a}.")
            if self.to_move:
                self._say(PUBLIC & ~self._bit(seat), f"{seat_text(seat)} has chosen.")
        if self.to_move:
            return
        if self.decision == D_ROUTE:
            self._routes_chosen()
        else:
            self._declarations_made()

    def _clear_pending(self) -> list[GodSaveTheKingAction | None]:
        chosen = self.pending
        self.pending = [None] * self.num_players
        for index in self.pend_ev:
            self._reveal_event(index)
        self.pend_ev = []
        self.asked = 0
        self.submitted = 0
        self.decision = D_NONE
        return chosen

    # ----------------------------------------------------------------------------- reveal

    def _reveal(self, t: Trick) -> None:
        """T2 and T3: the outside cards turn face up; Kings eliminate; columns are compared."""
        x, y = t.form
        ux, uy = t.up
        ux[LEFT] = ux[RIGHT] = uy[LEFT] = uy[RIGHT] = True
        ex, ey = t.ev
        for index in (ex[LEFT], ex[RIGHT], ey[LEFT], ey[RIGHT]):
            self._reveal_event(index)
        xl, xr, yl, yr = x[LEFT], x[RIGHT], y[LEFT], y[RIGHT]
        if self._track is not None:
            self._t_reveal((xl, xr, yl, yr))
        if self._msgs is not None:
            self._say(
                PUBLIC,
                f"Reveal: {seat_text(t.p[0])} shows {xl} left, {xr} right; "
                f"{seat_text(t.p[1])} shows {yl} left, {yr} right.",
            )
        ko = KING_OWNER
        if (ko[xl] >= 0 or ko[xr] >= 0 or ko[yl] >= 0 or ko[yr] >= 0) and self._kings_shown(
            t, (xl, xr, yl, yr)
        ):
            return
        # GSK-4: X.L meets Y.R (column 1), X.R meets Y.L (column 2).
        c1 = RANK[xl] - RANK[yr]
        c2 = RANK[xr] - RANK[yl]
        col1 = (c1 > 0) - (c1 < 0)
        col2 = (c2 > 0) - (c2 < 0)
        t.cols = (col1, col2)
        if col1 >= 0 and col2 >= 0 and (col1 or col2):
            t.result = 0
        elif col1 <= 0 and col2 <= 0 and (col1 or col2):
            t.result = 1
        else:
            t.result = PUSH
        if self._msgs is not None:
            names = {1: seat_text(t.p[0]), -1: seat_text(t.p[1]), 0: "draw"}
            outcome = (
                "a push: blind skirmish"
                if t.result == PUSH
                else f"{seat_text(t.p[t.result])} wins the skirmishes"
            )
            self._say(
                PUBLIC,
                f"Columns: {xl} v {yr} -> {names[col1]}, {xr} v {yl} -> {names[col2]}: {outcome}.",
            )

    def _kings_shown(self, t: Trick | None, cards: Sequence[Card], by: int = -1) -> bool:
        """GSK-5 / §1.8: every revealed King eliminates its owner at once; True if that ended
        the trick ``t`` (or the game).

        A revealed King goes to the removed area; if an owner was in ``t``, the trick ends and
        the other participant collects it (GSK-11)."""
        losers: list[tuple[int, int]] = []
        for c in cards:
            owner = KING_OWNER[c]
            if owner >= 0 and self.active[owner]:
                rival = by
                if t is not None and owner in t.p:
                    rival = t.p[1 - t.p.index(owner)]
                losers.append((owner, rival))
                self._remove_public(t, c)
        if not losers:
            return False
        if self._msgs is not None:
            for owner, _ in losers:
                self._say(
                    PUBLIC,
                    f"{KING_OF[owner]} is revealed: {seat_text(owner)}'s King! {seat_text(owner)} is eliminated.",
                )
        self._eliminate(losers)
        return self.is_terminal or (t is not None and t.step == T_DONE)

    def _remove_public(self, t: Trick | None, card: Card) -> None:
        """Move a revealed King to the removed area, face up (it is never collected)."""
        if t is not None:
            for f in t.form:
                for k in range(3):
                    if f[k] == card:
                        f[k] = None
        self.removed.append(card)
        self.rmask.append(PUBLIC)

    # ----------------------------------------------------------------------------- routes

    def _ask_routes(self, t: Trick) -> bool:
        per_hand = self.gsk.routes_per_hand
        eligible = [s for s in t.p if self.routes[s] < per_hand]
        if not eligible:
            return False
        self._ask(D_ROUTE, eligible, self.gsk.route_legal)
        return True

    def _routes_chosen(self) -> None:
        t = self.tricks[self.cur]
        chosen = self._clear_pending()
        queue: list[tuple[int, int]] = []
        for i in (0, 1):  # GSK-14: resolved in priority order
            a = chosen[t.p[i]]
            if a is not None and a.kind == ROUTE:
                queue.append((i, a.slot))
        if self._msgs is not None:
            told = [
                f"{seat_text(s)} {'routes' if (c := chosen[s]) is not None and c.kind == ROUTE else 'passes'}"
                for s in t.p
                if self.routes[s] < self.gsk.routes_per_hand
            ]
            self._say(PUBLIC, f"Route window: {', '.join(told)}.")
        if queue:
            t.queue = queue
            t.step = T_ROUTES
        else:  # nobody routes (the usual case): straight on
            t.step = T_REVEAL if self.gsk.early_route else T_DECIDE
        self._run()

    def _resolve_routes(self, t: Trick) -> bool:
        """Resolve the declared routes one by one; True when waiting for a drawn card."""
        while t.queue:
            i, slot = t.queue.pop(0)
            router = t.p[i]
            rival = t.p[1 - i]
            self.routes[router] += 1
            card = t.form[1 - i][slot]
            t.up[1 - i][slot] = True
            self._reveal_event(t.ev[1 - i][slot])
            self._t_reveal([card])
            if self._msgs is not None:
                self._say(
                    PUBLIC,
                    f"{seat_text(router)} routes {seat_text(rival)}'s {SLOT_NAMES[slot]} card: it is {card}.",
                )
            if KING_OWNER[card] >= 0 and self._kings_shown(t, [card]):
                return False
            if self.hands[router]:
                # §1.5 (b): a failed route costs a card drawn blindly from the router's hand.
                self._ask_draw(router, rival, C_ROUTE)
                return True
        t.step = T_REVEAL if self.gsk.early_route else T_DECIDE
        return False

    def _ask_draw(self, frm: int, to: int, kind: int) -> None:
        self.draw_from = frm
        self.draw_to = to
        self.draw_kind = kind
        self.decision = D_NONE
        self.to_move = ()
        self.is_chance = True
        if self._msgs is not None:
            self._say(PUBLIC, f"{seat_text(to)} draws a card blindly from {seat_text(frm)}'s hand.")

    # ----------------------------------------------------------------------------- push

    def _declarations_made(self) -> None:
        t = self.tricks[self.cur]
        chosen = self._clear_pending()
        d = [_rank_of(chosen[s]) for s in t.p]
        t.decl = d
        if self._msgs is not None:
            said = ", ".join(
                f"{seat_text(s)} declares {rank_text(r)}" for s, r in zip(t.p, d, strict=True)
            )
            self._say(PUBLIC, f"Blind skirmish: {said}.")
        if d[0] == d[1]:
            if t.redecl < self.gsk.max_redeclare:
                # GSK-7: a tie is declared again, up to max_redeclare times.
                t.redecl += 1
                if self._msgs is not None:
                    self._say(
                        PUBLIC, f"A tie: declare again ({t.redecl} of {self.gsk.max_redeclare})."
                    )
                self._run()
                return
            # GSK-7: still tied: a void trick, each takes his own cards; no challenge.
            if self._msgs is not None:
                self._say(
                    PUBLIC, "Still a tie: the trick is void; each takes back his own three cards."
                )
            t.void = True
            for i in (0, 1):
                self._take(t, i, i)
            t.step = T_DONE
            self._run()
            return
        w = 0 if d[0] > d[1] else 1
        t.wdecl = w
        t.step = T_CHALLENGE
        if self._msgs is not None:
            self._say(
                PUBLIC,
                f"{seat_text(t.p[w])} wins the blind skirmish; {seat_text(t.p[1 - w])} may challenge.",
            )
        self._ask(D_CHALLENGE, (t.p[1 - w],), self.gsk.challenge_legal)

    def _challenge(self, seat: int, challenged: bool) -> None:
        t = self.tricks[self.cur]
        self.decision = D_NONE
        self.asked = 0
        self._legal[seat] = ()
        self.to_move = ()
        w = t.wdecl
        if not challenged:
            if self._msgs is not None:
                self._say(PUBLIC, f"{seat_text(seat)} does not challenge.")
            self._collect(t, w)
            self._run()
            return
        winner = t.p[w]
        middle = t.form[w][MIDDLE]
        accurate = RANK[middle] == t.decl[w]
        t.challenge = int(accurate)
        # T6e: only "accurate" / "not accurate" is announced, never the true rank.
        self._t_constrain(middle, EQ_RANK if accurate else NE_RANK, t.decl[w])
        if self._msgs is not None:
            self._say(
                PUBLIC,
                f"{seat_text(seat)} challenges: {seat_text(winner)}'s card was "
                f"{'accurately' if accurate else 'NOT accurately'} declared.",
            )
        drawer, victim = (winner, seat) if accurate else (seat, winner)
        if self.hands[victim]:
            self._ask_draw(victim, drawer, C_CHALLENGE)
            return
        self._collect(t, w)  # GSK-10: nothing to draw from an empty hand
        self._run()

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        hand = self.hands[self.draw_from]
        p = 1.0 / len(hand)
        return [(c, p) for c in hand]

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        return choice(rng, self.hands[self.draw_from])

    def _is_possible_outcome(self, outcome: Any) -> bool:
        return isinstance(outcome, Card) and outcome in self.hands[self.draw_from]

    def parse_chance(self, text: str) -> Any:
        if not self.is_chance:
            raise IllegalAction("no chance event is pending")
        try:
            found = Card.parse(text)
        except ValueError as error:
            raise IllegalAction(f"a card is drawn from a hand now: {error}") from None
        if found not in self.hands[self.draw_from]:
            raise IllegalAction(f"{found} is not in {seat_text(self.draw_from)}'s hand")
        return found

    def _apply_chance(self, outcome: Any) -> None:
        card: Card = outcome
        self.is_chance = False
        frm, to = self.draw_from, self.draw_to
        self.hands[frm].remove(card)
        self._t_reveal([card])  # the drawn card is shown to everyone
        t = self.tricks[self.cur]
        if self._msgs is not None:
            self._say(PUBLIC, f"{seat_text(to)} draws {card} from {seat_text(frm)}'s hand.")
        if KING_OWNER[card] >= 0 and self.active[KING_OWNER[card]]:
            if not self._kings_shown(t, [card], by=to) and self.draw_kind == C_CHALLENGE:
                self._collect(t, t.wdecl)
            self._run()
            return
        self.piles[to].append(card)
        self.pmask[to].append(PUBLIC)
        if self.draw_kind == C_CHALLENGE:
            self._collect(t, t.wdecl)
        self._run()

    # ----------------------------------------------------------------------------- collection

    def _take(self, t: Trick, side: int, collector_side: int) -> None:
        """Put side ``side``'s remaining formation cards face down on the collector's pile."""
        collector = t.p[collector_side]
        owner = t.p[side]
        pile = self.piles[collector]
        masks = self.pmask[collector]
        form = t.form[side]
        up = t.up[side]
        own = 1 << owner
        sees = collector != owner and not self.gsk.private_piles
        seen: list[Card] = []
        for k in (0, 1, 2):
            c = form[k]
            if c is None:
                continue
            form[k] = None
            pile.append(c)
            if up[k]:
                masks.append(PUBLIC)
            elif sees:
                # trick_pile_private_until_hand_end off: the collector looks at once.
                m = own | 1 << collector
                masks.append(m)
                seen.append(c)
                self._reveal_event(t.ev[side][k], m)
            else:
                masks.append(own)
        if seen:
            self._t_private(collector, seen)

    def _collect(self, t: Trick, side: int) -> None:
        """T7: the winner puts every remaining card of the trick on his pile."""
        t.winner = side
        self._take(t, 0, side)
        self._take(t, 1, side)
        t.step = T_DONE
        if self._msgs is not None:
            self._say(PUBLIC, f"{seat_text(t.p[side])} collects the trick.")

    def _interrupt(self, t: Trick) -> None:
        """A participant was eliminated: the other collects (GSK-11), or nobody if both fell."""
        t.queue.clear()
        alive = [i for i in (0, 1) if self.active[t.p[i]]]
        if len(alive) == 1:
            self._collect(t, alive[0])
        elif not alive:
            for i in (0, 1):
                for k in range(3):
                    c = t.form[i][k]
                    if c is not None:
                        t.form[i][k] = None
                        self.removed.append(c)
                        self.rmask.append(PUBLIC if t.up[i][k] else 1 << t.p[i])
            t.step = T_DONE
        if t.step != T_DONE:
            t.step = T_DONE
        self.decision = D_NONE
        self.to_move = ()

    # ----------------------------------------------------------------------------- eliminations

    def _eliminate(self, losers: Sequence[tuple[int, int]]) -> bool:
        """Eliminate ``(seat, eliminator)`` pairs at once; True if that ends the game (§1.8).

        GSK-24: an eliminated player's hand and trick pile leave the game face down, but his
        pile is first searched for rival Kings (nobody keeps a rival's King, and a King revealed
        at any time eliminates its owner): each one found is shown and eliminates its owner too,
        whose pile is searched in turn. A running trick of an eliminated player is collected by
        the other participant (GSK-11)."""
        queue = list(losers)
        out: list[int] = []
        set_aside: list[Card] = []
        active = self.active
        while queue:
            s, by = queue.pop(0)
            if not active[s]:
                continue
            active[s] = False
            self.n_active -= 1
            out.append(s)
            self.round_elims.append((s, by))
            pile = self.piles[s]
            masks = self.pmask[s]
            found = [
                c
                for c in pile
                if KING_OWNER[c] >= 0 and KING_OWNER[c] != s and active[KING_OWNER[c]]
            ]
            if found:
                self._t_reveal(found)
                for c in found:
                    at = pile.index(c)
                    del pile[at]
                    del masks[at]
                    self.removed.append(c)
                    self.rmask.append(PUBLIC)
                    owner = KING_OWNER[c]
                    queue.append((owner, s))
                    if self._msgs is not None:
                        self._say(
                            PUBLIC,
                            f"{c} is found in {seat_text(s)}'s trick pile: {seat_text(owner)} is eliminated.",
                        )
            hand = self.hands[s]
            self.removed += hand
            self.rmask += [1 << s] * len(hand)
            self.hands[s] = []
            self.removed += pile
            self.rmask += masks
            if self._track is not None:
                set_aside += [c for c, m in zip(pile, masks, strict=True) if m != PUBLIC]
            self.piles[s] = []
            self.pmask[s] = []
            self._legal[s] = ()
        self.last_elim = tuple(out)
        if self.n_active <= 1:
            alive = [s for s in range(self.num_players) if active[s]]
            # §1.8 / GSK-23: the last player standing wins; a common fall is a shared draw.
            self._finish(alive or out)
            return True
        if set_aside and self._track is not None:
            # The search found no other King there: a fact for everyone's inferences.
            for c in set_aside:
                for y in range(self.num_players):
                    if active[y]:
                        self._t_constrain(c, NOT_CARD, KING_OF[y])
        for t in self.tricks:
            if t.step != T_DONE and not (active[t.p[0]] and active[t.p[1]]):
                self._interrupt(t)
        return False

    def _finish(self, winners: Sequence[int]) -> None:
        share = 1.0 / len(winners)
        self._result = [share if s in winners else 0.0 for s in range(self.num_players)]
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self.decision = D_NONE
        self._legal = [()] * self.num_players
        if self._msgs is not None:
            names = " and ".join(seat_text(s) for s in winners)
            self._say(
                PUBLIC,
                f"Game over: {names} {'wins' if len(winners) == 1 else 'share the win'}.",
            )

    def _finish_by_cards(self) -> None:
        # GSK-29 [engine addition]: the most cards (hand + trick pile) wins; ties share.
        alive = [s for s in range(self.num_players) if self.active[s]]
        size = {s: len(self.hands[s]) + len(self.piles[s]) for s in alive}
        top = max(size.values())
        if self._msgs is not None:
            self._say(PUBLIC, f"The safety cap of {self.gsk.safety_cap} tricks is reached.")
        self._finish([s for s in alive if size[s] == top])

    def returns(self) -> list[float]:
        return list(self._result) if self.is_terminal else [0.0] * self.num_players

    def _seats_in_game(self) -> tuple[int, ...]:
        return tuple([s for s in range(self.num_players) if self.active[s]])

    # ----------------------------------------------------------------------------- end of hand

    def _end_hand(self) -> None:
        """§1.6: rival Kings in the trick piles, the merge, and the fewer-than-3 elimination."""
        n = self.num_players
        found: list[tuple[int, Card, int]] = []
        for s in range(n):
            if self.active[s]:
                for c in self.piles[s]:
                    owner = KING_OWNER[c]
                    if owner >= 0 and owner != s and self.active[owner]:
                        found.append((s, c, owner))
        if self._msgs is not None:
            self._say(PUBLIC, f"End of hand {self.hand_no}: every player looks at his trick pile.")
        if found:
            self._t_reveal([c for _, c, _ in found])
            for s, c, owner in found:
                at = self.piles[s].index(c)
                del self.piles[s][at]
                del self.pmask[s][at]
                self.removed.append(c)
                self.rmask.append(PUBLIC)
                if self._msgs is not None:
                    self._say(
                        PUBLIC,
                        f"{c} is found in {seat_text(s)}'s trick pile: {seat_text(owner)} is eliminated.",
                    )
        self._t_coarsen()
        for s in range(n):
            if self.active[s]:
                # Each player privately looks at his own pile (GSK-21).
                masks = self.pmask[s]
                bit = 1 << s
                for at in range(len(masks)):
                    masks[at] |= bit
                self._t_private(s, self.piles[s])
                if self._msgs is not None and self.piles[s]:
                    self._say(bit, f"Your trick pile: {cards_text(sorted(self.piles[s]))}.")
        eliminated = [owner for _, _, owner in found]
        if found and self._eliminate([(owner, s) for s, _, owner in found]):
            return
        for s in range(n):
            if self.active[s]:
                self.hands[s] += self.piles[s]
                self.hands[s].sort()
                self.piles[s] = []
                self.pmask[s] = []
        self._t_new_hand()
        few = [s for s in range(n) if self.active[s] and len(self.hands[s]) < 3]
        if few:
            for s in few:
                if self._msgs is not None:
                    self._say(PUBLIC, f"{seat_text(s)} has fewer than 3 cards: eliminated.")
            if self._eliminate([(s, -1) for s in few]):
                return
        self.routes = [0] * n
        self.hand_no += 1
        if eliminated or few:
            self._relabel_after_hand(eliminated + few)
        if self._msgs is not None:
            sizes = ", ".join(
                f"{seat_text(s)} {len(self.hands[s])}" for s in range(n) if self.active[s]
            )
            self._say(PUBLIC, f"Hand {self.hand_no} begins; cards in hand: {sizes}.")

    # ----------------------------------------------------------------------------- knowledge

    def _t_reveal(self, cards: Sequence[Card]) -> None:
        track = self._track
        if track is not None:
            for k in track:
                for c in cards:
                    k.reveal(c)

    def _t_private(self, seat: int, cards: Sequence[Card]) -> None:
        track = self._track
        if track is not None:
            k = track[seat]
            for c in cards:
                k.reveal(c)

    def _t_constrain(self, place: Card, kind: int, value: int) -> None:
        track = self._track
        if track is not None:
            for k in track:
                k.constrain(place, kind, value)

    def _t_coarsen(self) -> None:
        track = self._track
        if track is not None:
            for k in track:
                k.coarsen()

    def _t_new_hand(self) -> None:
        track = self._track
        if track is not None:
            kings = KING_OF[: self.num_players]
            for k in track:
                k.new_hand(self.hands, self.removed, self.rmask, kings, self.active)

    def _ensure_track(self) -> list[Knowledge] | None:
        """Every seat's knowledge, built on first need by replaying the history (random playouts
        never pay for it); None for a copy whose history is no longer complete."""
        if self._track is not None or self._partial:
            return self._track
        n = self.num_players
        fresh = self.gsk.new_state()
        fresh._track = [Knowledge(v, 1 << v) for v in range(n)] + [Knowledge(None, 1 << n)]
        fresh._t_new_hand()
        for actor, item in self.history:
            if actor == CHANCE:
                fresh._apply_chance(item)
            else:
                fresh._apply(actor, item)
            fresh.history.append((actor, item))
        self._track = fresh._track
        return self._track

    def knowledge(self, seat: int | None) -> Knowledge | None:
        """What ``seat`` knows of the hidden cards (full states only)."""
        track = self._ensure_track()
        if track is None:
            return None
        return track[self.num_players if seat is None else seat]

    # ----------------------------------------------------------------------------- views

    def _hidden_places(self, seat: int | None) -> list[tuple[Loc, Card]]:
        """Every place whose card ``seat`` cannot see, with the card lying there."""
        vb = self._bit(seat)
        out: list[tuple[Loc, Card]] = []
        for s, hand in enumerate(self.hands):
            if s != seat:
                out += [(("h", s, i), c) for i, c in enumerate(hand)]
        for ti, t in enumerate(self.tricks):
            for i in (0, 1):
                if t.p[i] == seat:
                    continue
                for k in range(3):
                    c = t.form[i][k]
                    if c is not None and not t.up[i][k]:
                        out.append((("f", ti, i, k), c))
        for s, pile in enumerate(self.piles):
            out += [
                (("p", s, i), c)
                for i, (c, m) in enumerate(zip(pile, self.pmask[s], strict=True))
                if not m & vb
            ]
        out += [
            (("r", i), c)
            for i, (c, m) in enumerate(zip(self.removed, self.rmask, strict=True))
            if not m & vb
        ]
        return out

    def _rule_constraints(self, seat: int | None) -> dict[Loc, list[tuple[int, int]]]:
        """What the rules themselves say about hidden places (GSK-5 option)."""
        extra: dict[Loc, list[tuple[int, int]]] = {}
        if not self.gsk.exposed_king_legal:
            for ti, t in enumerate(self.tricks):
                for i in (0, 1):
                    if t.p[i] == seat:
                        continue
                    owner = t.p[i]
                    for k in (LEFT, RIGHT):
                        if t.form[i][k] is not None and not t.up[i][k]:
                            extra[("f", ti, i, k)] = [(NOT_CARD, KING_OF[owner])]
                    if t.placed[i] == 2 and len(self.hands[owner]) == 1:
                        # The King cannot be the last card left for the right slot: it would
                        # have been forced into the middle.
                        extra[("h", owner, 0)] = [(NOT_CARD, KING_OF[owner])]
        return extra

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        places = self._hidden_places(seat)
        k = self.knowledge(seat)
        seen = k.seen if k is not None else 0
        return frozenset(c for _, c in places if not seen >> c & 1)

    def _redacted(self, seat: int | None) -> State:
        if self._partial:
            know = simple_export(self._hidden_places(seat), self._rule_constraints(seat))
        else:
            k = self.knowledge(seat)
            assert k is not None
            locate = {c: loc for loc, c in self._hidden_places(seat)}
            know = k.export(locate, self._rule_constraints(seat))
        copy = self._copy(track=False)
        vb = self._bit(seat)
        for s in range(self.num_players):
            if s != seat:
                copy.hands[s] = [HIDDEN] * len(self.hands[s])
        for t in copy.tricks:
            for i in (0, 1):
                if t.p[i] == seat:
                    continue
                for k_ in range(3):
                    if t.form[i][k_] is not None and not t.up[i][k_]:
                        t.form[i][k_] = HIDDEN
        for s in range(self.num_players):
            copy.piles[s] = [
                c if m & vb else HIDDEN for c, m in zip(self.piles[s], self.pmask[s], strict=True)
            ]
        copy.removed = [
            c if m & vb else HIDDEN for c, m in zip(self.removed, self.rmask, strict=True)
        ]
        if self.decision in (D_ROUTE, D_DECLARE):
            # Others' choices are secret: to this seat they are still to choose.
            legal = self.gsk.route_legal if self.decision == D_ROUTE else self.gsk.declare_legal
            movers = []
            for s in range(self.num_players):
                if not self.asked >> s & 1:
                    continue
                if s == seat:
                    if not self.submitted >> s & 1:
                        movers.append(s)
                    continue
                copy.pending[s] = None
                copy._legal[s] = legal
                movers.append(s)
            copy.to_move = tuple(movers)
        elif self.decision == D_FORM:
            for s in self.to_move:
                if s != seat:
                    copy._legal[s] = ()
        copy._know = know
        copy._partial = True
        return copy

    def determinize(self, seat: int | None, rng: random.Random) -> State:
        if self._know is None:
            return self._redacted(seat).determinize(seat, rng)
        world = self._copy(track=False)
        world._know = None
        filled = self._know.sample(rng)
        for loc, card in filled.items():
            where = loc[0]
            if where == "h":
                world.hands[loc[1]][loc[2]] = card
            elif where == "f":
                world.tricks[loc[1]].form[loc[2]][loc[3]] = card
            elif where == "p":
                world.piles[loc[1]][loc[2]] = card
            else:
                world.removed[loc[1]] = card
        if world.decision == D_FORM:
            for s in world.to_move:
                if s != seat:
                    t = world.tricks[world.seat_trick[s]]
                    world._legal[s] = world._form_legal(s, t.placed[world.seat_idx[s]])
        return world

    # ----------------------------------------------------------------------------- inference

    def _knowledge_export(self, seat: int) -> Export:
        """``seat``'s knowledge of the hidden places (the view's own, or computed afresh)."""
        if self._know is not None:
            return self._know
        copy = self._redacted(seat)
        assert isinstance(copy, GodSaveTheKingState) and copy._know is not None
        return copy._know

    def probability_at(self, seat: int, loc: Loc, card: Card) -> float:
        """How likely ``seat`` may think it that ``card`` lies at the hidden place ``loc``
        (``("f", trick, side, slot)``, ``("h", seat, i)``, ...)."""
        return self._knowledge_export(seat).probability(loc, card)

    def rank_probability_at(self, seat: int, loc: Loc, rank: int) -> float:
        return self._knowledge_export(seat).rank_probability(loc, rank)

    def probability_in_hand(self, seat: int, owner: int, card: Card) -> float:
        """How likely ``seat`` thinks it that ``card`` is in ``owner``'s hand."""
        know = self._knowledge_export(seat)
        return sum(know.probability(("h", owner, i), card) for i in range(len(self.hands[owner])))

    # ----------------------------------------------------------------------------- records

    def clone(self) -> GodSaveTheKingState:
        return self._copy(track=True)

    def _copy(self, track: bool) -> GodSaveTheKingState:
        other = GodSaveTheKingState(self.gsk, blank=True)
        self._clone_base(other)
        other.hands = [h.copy() for h in self.hands]
        other.piles = [p.copy() for p in self.piles]
        other.pmask = [m.copy() for m in self.pmask]
        other.removed = self.removed.copy()
        other.rmask = self.rmask.copy()
        other.active = self.active.copy()
        other.n_active = self.n_active
        other.routes = self.routes.copy()
        other.hand_no = self.hand_no
        other.tricks_played = self.tricks_played
        other.tricks = [t.clone() for t in self.tricks]
        other.cur = self.cur
        other.seat_trick = self.seat_trick.copy()
        other.seat_idx = self.seat_idx.copy()
        other.decision = self.decision
        other.pending = self.pending.copy()
        other.asked = self.asked
        other.submitted = self.submitted
        other.pend_ev = self.pend_ev.copy()
        other._legal = self._legal.copy()
        other.mode = self.mode
        other.labels = self.labels
        other.sched = self.sched
        other.prio2 = self.prio2
        other.duel = self.duel
        other.round_elims = self.round_elims.copy()
        other.results = self.results.copy()
        other.last_elim = self.last_elim
        other._result = self._result
        other.draw_from = self.draw_from
        other.draw_to = self.draw_to
        other.draw_kind = self.draw_kind
        other._track = (
            [k.clone() for k in self._track] if track and self._track is not None else None
        )
        other._know = self._know
        other._msgs = None
        return other

    # ----------------------------------------------------------------------------- people

    def input_steps(self, seat: int, text: str) -> list[str]:
        """A whole formation typed on one line (``10S KS 8S``, or ``form 10S KS 8S``) is its
        three steps; a line naming fewer cards fills the next slots."""
        if seat not in self.to_move or self.decision != D_FORM:
            return [text]
        cards = _formation_cards(text)
        if cards is None:
            return [text]
        t = self.tricks[self.seat_trick[seat]]
        start = t.placed[self.seat_idx[seat]]
        if not cards or len(cards) > 3 - start or self._formation_problem(seat, cards) is not None:
            return [text]
        return [f"form {SLOT_NAMES[start + j]} {c}" for j, c in enumerate(cards)]

    def _formation_problem(self, seat: int, cards: Sequence[Card]) -> str | None:
        """Why ``cards`` cannot fill ``seat``'s next slots, or None."""
        t = self.tricks[self.seat_trick[seat]]
        i = self.seat_idx[seat]
        start = t.placed[i]
        hand = list(self.hands[seat])
        placed = [c for c in t.form[i] if c is not None]
        if len(cards) > 3 - start:
            return (
                f"a formation has 3 cards; {seat_text(seat)} has {3 - start} slot(s) left to fill"
            )
        for j, c in enumerate(cards):
            slot = start + j
            if c in cards[:j]:
                return f"{c} is named twice: a formation needs 3 different cards"
            if c in placed:
                return f"{c} is already in {seat_text(seat)}'s formation"
            if c not in hand:
                return f"{c} is not in {seat_text(seat)}'s hand"
            if not self.gsk.exposed_king_legal:
                king = KING_OF[seat]
                if c == king and slot != MIDDLE:
                    return (
                        f"{c} is {seat_text(seat)}'s King: with exposed_king_legal off it may "
                        "only go in the middle"
                    )
                if slot == MIDDLE and king in hand and len(hand) == 2 and c != king:
                    return f"{king} must go in the middle, or it would be left for the right slot"
            hand.remove(c)
        return None

    def _why_not_to_move(self, seat: object, action: object) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.num_players:
            text = str(action).strip().lower()
            if (
                self.decision == D_ROUTE
                and text.startswith("route")
                and seat in self.tricks[self.cur].p
                and self.routes[seat] >= self.gsk.routes_per_hand
            ):
                return (
                    f"{seat_text(seat)} has already routed this hand "
                    f"(routes_per_hand = {self.gsk.routes_per_hand})"
                )
        return super()._why_not_to_move(seat, action)

    def _why_unknown(self, seat: int, text: str) -> str:
        words = text.strip().split()
        legal = self._legal_text(seat)
        if words and words[0].lower() == "declare":
            rank = " ".join(words[1:]) or "nothing"
            return (
                f"{rank!r} is not a rank: declare one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A "
                f"(e.g. declare Q)"
            )
        cards = _formation_cards(text)
        if cards is not None and self.decision == D_FORM and cards:
            problem = self._formation_problem(seat, cards)
            if problem is not None:
                return problem
            steps = ", then ".join(self.input_steps(seat, text))
            return f"a formation is played one card at a time: {steps}"
        if words and words[0].lower() in ("form", "left", "middle", "right") and len(words) >= 2:
            last = words[-1]
            try:
                Card.parse(last)
            except ValueError:
                return f"{last!r} is not a card; write rank then suit, e.g. 10S, KH, 7D"
            return f"{last.upper()} is not a card of this game; legal: {legal}"
        return f"{text.strip()!r} is not an action of this game; legal: {legal}"

    def _why_illegal(self, seat: int, action: Action) -> str:
        legal = self._legal_text(seat)
        a = action
        if not isinstance(a, GodSaveTheKingAction) or self.gsk.known_action(a) is None:
            return f"{a} is not an action of this game; legal: {legal}"
        who = seat_text(seat)
        dec = self.decision
        if a.kind == FORM:
            if dec != D_FORM:
                return f"no formation is being chosen now; legal: {legal}"
            t = self.tricks[self.seat_trick[seat]]
            slot = t.placed[self.seat_idx[seat]]
            if a.slot != slot:
                return f"{who} fills the {SLOT_NAMES[slot]} slot now, not the {SLOT_NAMES[a.slot]}; legal: {legal}"
            assert a.card is not None
            problem = self._formation_problem(seat, [a.card])
            if problem is not None:
                return problem
        elif a.kind == ROUTE:
            if dec != D_ROUTE:
                return f"no route window is open now; legal: {legal}"
        elif a.kind == DECLARE:
            if dec != D_DECLARE:
                return f"nobody declares now (only in a blind skirmish); legal: {legal}"
        elif a.kind == CHALLENGE and dec != D_CHALLENGE:
            return (
                f"only the loser of a blind skirmish may challenge, right after it; legal: {legal}"
            )
        return f"{a} is not legal for {who} now; legal: {legal}"

    # ----------------------------------------------------------------------------- showing

    def observation(self, seat: int | None) -> dict[str, Any]:
        vb = self._bit(seat)
        n = self.num_players
        players = []
        for s in range(n):
            pile = self.piles[s]
            masks = self.pmask[s]
            players.append(
                {
                    "seat": seat_text(s),
                    "active": self.active[s],
                    "suit": SUIT_NAMES[s],
                    "hand_size": len(self.hands[s]),
                    "pile_size": len(pile),
                    "pile_face_up": [
                        str(c) for c, m in zip(pile, masks, strict=True) if m == PUBLIC
                    ],
                    "pile_known_to_you": [
                        str(c) for c, m in zip(pile, masks, strict=True) if m != PUBLIC and m & vb
                    ],
                    "pile_unseen": sum(1 for m in masks if not m & vb),
                    "routes_used": self.routes[s],
                    "label": self._label(s),
                }
            )
        tricks = []
        for t in self.tricks:
            tricks.append(
                {
                    "players": [seat_text(s) for s in t.p],
                    "priority": seat_text(t.p[0]),
                    "formations": [
                        {
                            "seat": seat_text(t.p[i]),
                            "placed": t.placed[i],
                            "slots": [self._slot_text(t, i, k, seat) for k in range(3)],
                        }
                        for i in (0, 1)
                    ],
                    "columns": list(t.cols) if t.result >= 0 else None,
                    "result": None
                    if t.result < 0
                    else ("push" if t.result == PUSH else seat_text(t.p[t.result])),
                    "declarations": [rank_text(r) if r else None for r in t.decl],
                    "redeclared": t.redecl,
                    "challenge": [None, "not accurate", "accurate"][t.challenge + 1],
                    "collected_by": None if t.winner < 0 else seat_text(t.p[t.winner]),
                    "void": t.void,
                    "step": t.step,
                }
            )
        mine = self.pending[seat] if seat is not None else None
        return {
            "game": self.gsk.id,
            "seat": None if seat is None else seat_text(seat),
            "hand_number": self.hand_no,
            "tricks_played": self.tricks_played,
            "safety_cap": self.gsk.safety_cap,
            "schedule": self._schedule_text(),
            "players": players,
            "your_hand": None if seat is None else [str(c) for c in self.hands[seat]],
            "removed_face_up": [
                str(c) for c, m in zip(self.removed, self.rmask, strict=True) if m == PUBLIC
            ],
            "removed_known_to_you": [
                str(c)
                for c, m in zip(self.removed, self.rmask, strict=True)
                if m != PUBLIC and m & vb
            ],
            "removed_face_down": sum(1 for m in self.rmask if not m & vb),
            "tricks": tricks,
            "past_tricks": [self._result_dict(r) for r in self.results[-8:]],
            "current_trick": self.cur if self.tricks else None,
            "decision": "draw" if self.is_chance else DECISION_TEXT[self.decision],
            "waiting_for": [seat_text(s) for s in self._waiting()],
            "your_choice": None if mine is None else str(mine),
            "drawing": None
            if not self.is_chance
            else {"from": seat_text(self.draw_from), "to": seat_text(self.draw_to)},
            "winners": [seat_text(s) for s in self.winners],
        }

    def _result_dict(self, r: tuple[int, tuple[int, int], int, int, int, int]) -> dict[str, Any]:
        hand, (x, y), collector, dx, dy, challenge = r
        return {
            "hand": hand,
            "players": [seat_text(x), seat_text(y)],
            "collected_by": None if collector < 0 else seat_text(collector),
            "declarations": [rank_text(d) if d else None for d in (dx, dy)],
            "challenge": [None, "not accurate", "accurate"][challenge + 1],
        }

    def _result_text(self, r: tuple[int, tuple[int, int], int, int, int, int]) -> str:
        _, (x, y), collector, dx, dy, challenge = r
        text = f"{seat_text(x)} v {seat_text(y)}: "
        text += (
            f"{seat_text(collector)} collected"
            if collector >= 0
            else "nobody collected (void or both out)"
        )
        if dx or dy:
            text += f"; declared {rank_text(dx) if dx else '-'} v {rank_text(dy) if dy else '-'}"
        if challenge >= 0:
            text += f"; challenge: {'accurate' if challenge else 'not accurate'}"
        return text

    def _waiting(self) -> list[int]:
        """Who still has to decide, as everybody may see it."""
        if self.is_terminal or self.is_chance:
            return []
        if self.decision == D_FORM:
            return [s for t in self.tricks for i, s in enumerate(t.p) if t.placed[i] < 3]
        if self.decision in (D_ROUTE, D_DECLARE, D_CHALLENGE):
            return [
                s
                for s in range(self.num_players)
                if self.asked >> s & 1 and not self.submitted >> s & 1
            ]
        return []

    def _slot_text(self, t: Trick, i: int, k: int, seat: int | None) -> str | None:
        c = t.form[i][k]
        if c is None:
            return None if t.placed[i] <= k else "-"
        if t.up[i][k]:
            return str(c)
        if t.p[i] == seat:
            return f"[{c}]"  # face down, known to its owner
        return "face down"

    def _label(self, seat: int) -> str | None:
        if self.mode < 3 or not self.active[seat] or seat not in self.labels:
            return None
        return LABELS[self.labels.index(seat)]

    def _schedule_text(self) -> str:
        if self.mode == 2:
            return "duel: priority alternates"
        names = ", ".join(f"{LABELS[i]}={seat_text(s)}" for i, s in enumerate(self.labels))
        if self.mode == 3:
            return f"three players ({names}): A-B, B-C, C-A"
        return f"four players ({names}): rounds A-B & C-D, then B-C & D-A"

    def render(self, seat: int | None) -> str:
        vb = self._bit(seat)
        n = self.num_players
        lines = [
            f"God Save The King · hand {self.hand_no} · {self.tricks_played} tricks played "
            f"(cap {self.gsk.safety_cap}) · {self._schedule_text()}"
        ]
        waiting = set(self._waiting())
        for s in range(n):
            marker = ">" if s in waiting else " "
            you = " (you)" if s == seat else ""
            if not self.active[s]:
                lines.append(f"{marker} {seat_text(s) + you:<9} eliminated")
                continue
            pile = self.piles[s]
            masks = self.pmask[s]
            up = [c for c, m in zip(pile, masks, strict=True) if m == PUBLIC]
            known = [c for c, m in zip(pile, masks, strict=True) if m != PUBLIC and m & vb]
            unseen = sum(1 for m in masks if not m & vb)
            parts = []
            if up:
                parts.append(f"face up {cards_text(up)}")
            if known:
                parts.append(f"known to you {cards_text(known)}")
            if unseen:
                parts.append(f"{unseen} unseen")
            label = self._label(s)
            routes = self.gsk.routes_per_hand - self.routes[s]
            lines.append(
                f"{marker} {seat_text(s) + you:<9}"
                f"{' [' + label + ']' if label else ''} {SUIT_NAMES[s]:<8} · hand {len(self.hands[s])}"
                f" · trick pile {len(pile)}{' (' + '; '.join(parts) + ')' if parts else ''}"
                f" · routes left {max(0, routes)}"
            )
        up_removed = [c for c, m in zip(self.removed, self.rmask, strict=True) if m == PUBLIC]
        down = sum(1 for m in self.rmask if not m & vb)
        if self.removed:
            lines.append(
                f"Removed: {cards_text(up_removed) or '-'}"
                + (f" and {down} card(s) face down" if down else "")
            )
        for t in self.tricks:
            if t.step == T_DONE:
                collector = -1 if t.winner < 0 else t.p[t.winner]
                record = (self.hand_no, t.p, collector, t.decl[0], t.decl[1], t.challenge)
                lines.append(f"Done: {self._result_text(record)}")
                continue
            head = "Trick"
            lines.append(f"{head}: {seat_text(t.p[0])} (priority) v {seat_text(t.p[1])}")
            for i in (0, 1):
                slots = [self._slot_text(t, i, k, seat) for k in range(3)]
                shown = "  ".join(
                    f"{SLOT_NAMES[k]} {slots[k] if slots[k] is not None else '·'}" for k in range(3)
                )
                lines.append(f"    {seat_text(t.p[i]):<4} {shown}")
            if t.result >= 0:
                res = "a push" if t.result == PUSH else f"{seat_text(t.p[t.result])} wins them"
                col_names = {1: seat_text(t.p[0]), -1: seat_text(t.p[1]), 0: "draw"}
                lines.append(
                    f"    columns: {seat_text(t.p[0])} left v {seat_text(t.p[1])} right -> "
                    f"{col_names[t.cols[0]]}, {seat_text(t.p[0])} right v {seat_text(t.p[1])} left -> "
                    f"{col_names[t.cols[1]]}: {res}"
                )
            if any(t.decl):
                said = [
                    f"{seat_text(s)} {rank_text(r)}" for s, r in zip(t.p, t.decl, strict=True) if r
                ]
                lines.append(f"    declared: {', '.join(said)}")
            if t.challenge >= 0:
                lines.append(f"    challenge: {'accurate' if t.challenge else 'not accurate'}")
        if self.results and self.decision == D_FORM:
            last = self.results[-2:] if self.mode == 4 else self.results[-1:]
            for record in last:
                lines.append("Last trick: " + self._result_text(record))
        if seat is not None and self.active[seat]:
            lines.append(f"Your hand: {cards_text(self.hands[seat]) or '-'}")
        if self.is_terminal:
            names = " and ".join(seat_text(s) for s in self.winners)
            lines.append(
                f"Game over: {names} {'wins' if len(self.winners) == 1 else 'share the win'}."
            )
        elif self.is_chance:
            lines.append(
                f"{seat_text(self.draw_to)} draws a card from {seat_text(self.draw_from)}'s hand."
            )
        else:
            lines.append(self._prompt(seat, waiting))
        return "\n".join(lines)

    def _prompt(self, seat: int | None, waiting: set[int]) -> str:
        who = ", ".join(seat_text(s) for s in sorted(waiting))
        if seat is None or seat not in self.to_move:
            what = DECISION_TEXT[self.decision]
            return f"Waiting for {who} ({what})." if who else ""
        if self.decision == D_FORM:
            t = self.tricks[self.seat_trick[seat]]
            k = t.placed[self.seat_idx[seat]]
            mine = t.form[self.seat_idx[seat]]
            built = ", ".join(f"{SLOT_NAMES[j]} {mine[j]}" for j in range(k))
            return (
                f"Your formation so far: {built or 'empty'}. Choose the card for the "
                f"{SLOT_NAMES[k].upper()} slot (form {SLOT_NAMES[k]} <card>), or type the rest "
                f"at once, e.g. {cards_text(self.hands[seat][: 3 - k])} ({', '.join(SLOT_NAMES[k:])})."
            )
        if self.decision == D_ROUTE:
            return "Route? Claim that a face-down card of your rival is his King (route), or pass."
        if self.decision == D_DECLARE:
            return "Blind skirmish: declare the rank of your middle card (declare 2 .. declare a); bluffing allowed."
        return "You lost the blind skirmish: challenge the winner's declaration, or pass."

    def observed(self, actor: int, item: Any, observer: int) -> Any:
        # A card placed in a formation is unseen (only the count is public, §1.9); routes and
        # declarations are revealed once every participant has chosen, challenges at once; a
        # card drawn from a hand is shown to everyone (T6e).
        if actor == CHANCE:
            return item
        if actor != observer and item.kind == FORM:
            return "form"
        return item.id

    def narrate(self, actor: int, item: Any, seat: int | None) -> str | None:
        probe = self._copy(track=False)
        probe._msgs = []
        try:
            if actor == CHANCE:
                probe._apply_chance(item)
            else:
                probe._apply(actor, item)
        except Exception:  # pragma: no cover - narration must never break a game
            return super().narrate(actor, item, seat)
        vb = self._bit(seat)
        lines = [text for mask, text in probe._msgs if mask & vb]
        return "\n".join(lines) if lines else None


def _without(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``seats`` less ``seat`` (usually the first: the playouts take ``to_move[0]``)."""
    if seats[0] == seat:
        return seats[1:]
    return tuple([s for s in seats if s != seat])


def _rank_of(action: GodSaveTheKingAction | None) -> int:
    assert action is not None
    return action.rank


def _formation_cards(text: str) -> list[Card] | None:
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
