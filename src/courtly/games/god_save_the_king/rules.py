"""God Save The King (docs/rules/god-save-the-king.md): hide your King in a formation, bluff,
and rout the others'.

The state machine. A *round* is one trick (2 and 3 players) or two tricks played side by side
(4 players, GSK-26). Every participant of the round forms at once, card by card (left, then
middle, then right: three small decisions instead of one with hundreds of choices); then the
tricks are resolved one after the other (§5), step by step: the reveal and the skirmishes,
the route window, each route, the blind skirmish (declarations, ties, the loser's challenge) and
the collection. A decision is taken by :meth:`_take_decision` (or a card drawn by
:meth:`_draw`); :meth:`_advance` then carries the round on one step at a time until a seat must
decide or a card must be drawn, so that the narration (:mod:`.text`) can tell each step apart.

Chance is explicit: the only random event is a card drawn blindly from a hand (a challenge or a
failed route, §10), whose outcomes are the cards of that hand.

Hidden information (§9): a card lying face down carries a mask of the seats that know it
(``PUBLIC`` = everyone); hands are known to their holders. What each seat may see, the views and
the sampled worlds are in :mod:`.views`; what people read and type is in :mod:`.text`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...core.actions import Action
from ...core.cards import CARDS, Card
from ...core.draws import choice, distinct_pile_outcomes, in_pile
from ...core.game import Game, State
from ...core.persist import fields_of, rebuild
from .components import (
    CHALLENGE,
    D_CHALLENGE,
    D_DECLARE,
    D_FORM,
    D_NONE,
    D_ROUTE,
    DRAW_FOR_CHALLENGE,
    DRAW_FOR_ROUTE,
    KING_OF,
    KING_OWNER,
    LEFT,
    LETTERS,
    MIDDLE,
    PAST_TRICKS_KEPT,
    PUBLIC,
    PUSH,
    RANK,
    RIGHT,
    ROUNDS_4,
    ROUTE,
    SCHEDULE_3,
    T_CHALLENGE,
    T_DECIDE,
    T_DECLARE,
    T_DONE,
    T_EARLY_ROUTE,
    T_FORM,
    T_REVEAL,
    T_ROUTE,
    T_ROUTES,
    GodSaveTheKingAction,
    GodSaveTheKingTables,
    PastTrick,
)
from .journal import DRAWN, Journal
from .knowledge import EQ_RANK, NE_RANK, NOT_CARD, Export, Knowledge


class Trick:
    """One trick between ``seats[0]`` (priority, GSK-28) and ``seats[1]``; its two sides are
    indexed 0 and 1 (side 0 is the priority player's), its slots ``LEFT``, ``MIDDLE``, ``RIGHT``
    from each owner's own point of view (GSK-4)."""

    __slots__ = (
        "blind_winner",
        "challenge_answer",
        "collector",
        "columns",
        "declared",
        "face_up",
        "formations",
        "placed",
        "placed_at",
        "redeclarations",
        "routes_to_resolve",
        "seats",
        "skirmish_result",
        "step",
        "void",
    )

    def __init__(self, x: int, y: int, blank: bool = False) -> None:
        """A trick about to be formed; ``blank=True`` sets only the seats, for :meth:`clone`
        to fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        self.seats = (x, y)
        if blank:
            return
        self.formations: list[list[Any]] = [[None, None, None], [None, None, None]]
        self.placed = [0, 0]  # cards each side has laid so far
        self.face_up = [[False, False, False], [False, False, False]]
        self.placed_at = [[-1, -1, -1], [-1, -1, -1]]  # history index of each placement
        self.step = T_FORM
        self.columns = (0, 0)  # for side 0: +1 won, 0 draw, -1 lost (column 1, column 2)
        self.skirmish_result = -1  # the side that won the skirmishes, PUSH, or -1 before T2
        # (router's side, target slot). It and ``declared`` are replaced whole, never changed in
        # place, so a clone shares them with its original.
        self.routes_to_resolve: list[tuple[int, int]] = []
        self.declared = [0, 0]  # the last declared ranks (0: none yet)
        self.redeclarations = 0
        self.blind_winner = -1  # the side that won the blind skirmish
        self.challenge_answer = -1  # -1 no challenge, 0 "not accurate", 1 "accurate"
        self.collector = -1  # the side that collected the trick
        self.void = False

    def __reduce__(self) -> tuple[Any, ...]:
        # (A compiled class pickles through core.persist: see there.)
        return (rebuild, (Trick, (self.seats[0], self.seats[1], True), fields_of(self)))

    def renew(self, x: int, y: int) -> None:
        """Become the trick ``Trick(x, y)`` would make, in place: a new round's trick without
        the dozen lists a new one allocates. For a state's own tricks only (a copy clones them),
        once the round they were for is over."""
        self.seats = (x, y)
        for formation in self.formations:
            formation[LEFT] = formation[MIDDLE] = formation[RIGHT] = None
        self.placed[0] = self.placed[1] = 0
        for up in self.face_up:
            up[LEFT] = up[MIDDLE] = up[RIGHT] = False
        for at in self.placed_at:
            at[LEFT] = at[MIDDLE] = at[RIGHT] = -1
        self.step = T_FORM
        self.columns = (0, 0)
        self.skirmish_result = -1
        if self.routes_to_resolve:
            self.routes_to_resolve = []
        declared = self.declared
        if declared[0] or declared[1]:
            self.declared = [0, 0]
        self.redeclarations = 0
        self.blind_winner = -1
        self.challenge_answer = -1
        self.collector = -1
        self.void = False

    def clone(self) -> Trick:
        # The seats named one by one: compiled, a starred call goes through the generic call.
        other = Trick(self.seats[0], self.seats[1], True)
        other.formations = [self.formations[0].copy(), self.formations[1].copy()]
        other.placed = self.placed.copy()
        other.face_up = [self.face_up[0].copy(), self.face_up[1].copy()]
        other.placed_at = [self.placed_at[0].copy(), self.placed_at[1].copy()]
        other.step = self.step
        other.columns = self.columns
        other.skirmish_result = self.skirmish_result
        other.routes_to_resolve = self.routes_to_resolve  # (both replaced, never changed)
        other.declared = self.declared
        other.redeclarations = self.redeclarations
        other.blind_winner = self.blind_winner
        other.challenge_answer = self.challenge_answer
        other.collector = self.collector
        other.void = self.void
        return other


def skirmishes(x: list[int], y: list[int]) -> tuple[tuple[int, int], int]:
    """T3 between formations ``x`` (the priority side) and ``y``: the two columns from side 0's
    point of view (+1 won, 0 draw, -1 lost) and the result (the winning side, or PUSH). Cards
    are ints: typed so, a compiled build reads their ranks off the table directly."""
    # GSK-4: X.L meets Y.R (column 1), X.R meets Y.L (column 2).
    c1 = RANK[x[LEFT]] - RANK[y[RIGHT]]
    c2 = RANK[x[RIGHT]] - RANK[y[LEFT]]
    col1 = (c1 > 0) - (c1 < 0)
    col2 = (c2 > 0) - (c2 < 0)
    if col1 >= 0 and col2 >= 0 and (col1 or col2):
        return (col1, col2), 0
    if col1 <= 0 and col2 <= 0 and (col1 or col2):
        return (col1, col2), 1
    return (col1, col2), PUSH


class GodSaveTheKingState(State):
    """A position of God Save The King."""

    __slots__ = (
        "_forms_unlisted",
        "_journal",
        "_knowledge",
        "_legal",
        "_result",
        "_sampled",
        "_view_knowledge",
        "_world_source",
        "active",
        "asked",
        "current_trick",
        "decision",
        "draw_from",
        "draw_reason",
        "draw_to",
        "duelists",
        "hand_number",
        "hands",
        "last_eliminated",
        "past_tricks",
        "pending_choices",
        "pending_events",
        "pile_knowers",
        "piles",
        "players_left",
        "priority_seat",
        "removed",
        "removed_knowers",
        "round_eliminations",
        "routes_used",
        "schedule",
        "schedule_step",
        "seat_of_letter",
        "side_of_seat",
        "submitted",
        "tables",
        "trick_of_seat",
        "tricks",
        "tricks_played",
    )

    tables: GodSaveTheKingTables
    """The options and the legal choices of the game, as typed fields."""

    def __init__(
        self, game: Game, tables: GodSaveTheKingTables | None = None, blank: bool = False
    ) -> None:
        """The start of a game with ``game``'s ``tables``; ``blank=True`` only sets the base
        fields, for :meth:`_copy` to fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game, blank)
        if tables is not None:
            self.tables = tables
        # True only inside :meth:`playout`, which places formation cards by their place in the
        # hand: a round it starts leaves its formation choices unlisted (listed where it stops).
        self._forms_unlisted = False
        if blank:
            return
        n = game.num_players
        self.hands: list[list[Any]] = [list(CARDS[s * 13 : s * 13 + 13]) for s in range(n)]
        self.piles: list[list[Any]] = [[] for _ in range(n)]
        self.pile_knowers: list[list[int]] = [[] for _ in range(n)]  # a mask per pile card
        self.removed: list[Any] = []  # the removed area (GSK-24)
        self.removed_knowers: list[int] = []
        self.active = [True] * n
        self.players_left = n
        self.routes_used = [0] * n  # routes attempted this hand (GSK-12)
        self.hand_number = 1
        self.tricks_played = 0
        self.tricks: list[Trick] = []
        self.current_trick = 0  # the trick being resolved (len(tricks): the round is over)
        self.trick_of_seat = [-1] * n
        self.side_of_seat = [0] * n
        self.decision = D_NONE
        # The simultaneous choices (routes, declarations) not yet revealed.
        self.pending_choices: list[GodSaveTheKingAction | None] = [None] * n
        self.asked = 0  # bit s: seat s was asked the current simultaneous question (public)
        self.submitted = 0  # bit s: seat s has answered it (public; what it answered is not)
        self.pending_events: list[int] = []  # history indices of the unrevealed choices
        self._legal: list[tuple[Action, ...]] = [()] * n
        # The schedule in force, named by the players it is for: 4 rounds of two tricks, 3 the
        # A-B-C rota, 2 a duel (§7).
        self.schedule = n
        self.schedule_step = 0
        self.seat_of_letter: tuple[int, ...] = tuple(range(n))  # A, B, C (, D)
        self.priority_seat = 0  # a duel: the seat with priority in the next trick
        self.duelists = (0, 1)  # a duel: the two seats left
        self.round_eliminations: list[tuple[int, int]] = []  # (eliminated, eliminator)
        self.past_tricks: list[PastTrick] = []
        self.last_eliminated: tuple[int, ...] = ()
        self._result: list[float] = []
        self.draw_from = -1
        self.draw_to = -1
        self.draw_reason = DRAW_FOR_ROUTE
        # What every seat (and the spectator) can infer of the hidden cards: built on first
        # need (.views builds it), then kept up to date by the _learn_* calls below.
        self._knowledge: list[Knowledge] | None = None
        self._view_knowledge: Export | None = None  # a view's copy: its seat's knowledge
        # Where the cards went (built and kept with the knowledge); a view's copy keeps what
        # it may read of it, for the histories of the worlds drawn from it (.worlds).
        self._journal: Journal | None = None
        self._world_source: Journal | None = None
        # A world drawn from a view (.worlds): its seats' knowledge is the coarse one (every
        # hidden card anywhere hidden), as a search's rollouts read it, not one replayed.
        self._sampled = False
        self._start_round()

    def _form_legal(self, seat: int, slot: int) -> tuple[Action, ...]:
        actions = self.tables.form_actions[slot]
        hand = self.hands[seat]
        if self.tables.exposed_king_legal:
            return form_options(actions, hand)
        king = KING_OF[seat]
        # GSK-5 option off: the own King may not go left or right, so it must go in the middle
        # when it would otherwise be left over for the right slot.
        if slot == MIDDLE:
            if len(hand) == 2 and king in hand:
                return (actions[king],)
            return form_options(actions, hand)
        return tuple([actions[c] for c in hand if c != king])

    # ----------------------------------------------------------------------------- rounds

    def _start_round(self) -> None:
        """Deal out the next trick (or the next pair of tricks) and ask for formations."""
        schedule = self.schedule
        if schedule == 2:
            x = self.priority_seat
            a, b = self.duelists
            pairs: list[tuple[int, int]] = [(x, b if a == x else a)]
        elif schedule == 3:
            a, b = SCHEDULE_3[self.schedule_step]
            pairs = [(self.seat_of_letter[a], self.seat_of_letter[b])]
        else:
            pairs = list(ROUNDS_4[self.schedule_step])  # four players: the letters are the seats
        tricks = self.tricks
        if len(tricks) == len(pairs):
            # The last round's tricks are over (their record is in past_tricks): made anew.
            for index in range(len(pairs)):
                x, y = pairs[index]
                tricks[index].renew(x, y)
        else:
            self.tricks = [Trick(x, y) for x, y in pairs]
        self.current_trick = 0
        if self.round_eliminations:
            self.round_eliminations = []
        trick_of_seat = self.trick_of_seat
        side_of_seat = self.side_of_seat
        legal = self._legal
        tables = self.tables
        actions = tables.form_actions[LEFT]
        fast = tables.exposed_king_legal
        hands = self.hands
        unlisted = fast and self._forms_unlisted
        for index, (x, y) in enumerate(pairs):
            trick_of_seat[x] = trick_of_seat[y] = index
            side_of_seat[x] = 0
            side_of_seat[y] = 1
            if unlisted:
                pass
            elif fast:
                legal[x] = form_options(actions, hands[x])
                legal[y] = form_options(actions, hands[y])
            else:
                legal[x] = self._form_legal(x, LEFT)
                legal[y] = self._form_legal(y, LEFT)
        self.decision = D_FORM
        if schedule == 4:
            self.to_move = (0, 1, 2, 3)
        else:
            x, y = pairs[0]
            self.to_move = (x, y) if x < y else (y, x)

    def _first_step(self) -> int:
        return T_EARLY_ROUTE if self.tables.early_route else T_REVEAL

    def _run(self) -> None:
        """Carry the round on until a decision or a chance event is needed."""
        while self._advance():
            pass

    def _advance(self) -> bool:
        """One step of the round (of the current trick, or the round's end); False, having done
        nothing, when a seat must decide, a card must be drawn or the game is over."""
        if self.to_move or self.is_chance or self.is_terminal:
            return False
        index = self.current_trick
        if index == len(self.tricks):
            self._end_round()
            return True
        t = self.tricks[index]
        step = t.step
        if step == T_DONE:
            self._next_trick(t)
        elif step == T_REVEAL:
            self._reveal(t)
        elif step in (T_ROUTE, T_EARLY_ROUTE):
            self._open_route_window(t)
        elif step == T_ROUTES:
            self._resolve_route(t)
        elif step == T_DECIDE:
            if t.skirmish_result == PUSH:
                t.step = T_DECLARE
            else:
                self._collect(t, t.skirmish_result)
        elif step == T_DECLARE:
            self._ask(D_DECLARE, t.seats, self.tables.declare_legal)
        else:  # pragma: no cover - T_FORM / T_CHALLENGE are waited on, never run
            raise AssertionError(f"trick step {step} is not runnable")
        return True

    def _next_trick(self, t: Trick) -> None:
        """A trick is over: the table remembers it, and the next trick of the round starts."""
        collector = -1 if t.collector < 0 else t.seats[t.collector]
        past = self.past_tricks
        past.append(
            (
                self.hand_number,
                t.seats,
                collector,
                t.declared[0],
                t.declared[1],
                t.challenge_answer,
            )
        )
        if len(past) > PAST_TRICKS_KEPT:
            del past[0]
        self.current_trick += 1
        if self.current_trick < len(self.tricks):
            following = self.tricks[self.current_trick]
            if following.step == T_FORM:  # (it may have ended already, GSK-11)
                following.step = self._first_step()

    def _end_round(self) -> None:
        self.tricks_played += len(self.tricks)
        if self.schedule == 2:
            self.priority_seat = self.tricks[0].seats[1]  # a duel: priority alternates (GSK-28)
        elif self.schedule == 3:
            self.schedule_step = (self.schedule_step + 1) % 3
        else:
            self.schedule_step ^= 1
        if self.players_left < self.schedule:
            self._relabel_after_round()
        if self.tricks_played >= self.tables.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            self._finish_by_cards()
            return
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
        """§7: the 4 -> 3 relabelling after the round of the first elimination (GSK-27)."""
        if self.players_left == 2:
            self._to_duel()
            return
        if self.schedule != 4 or self.players_left != 3:
            return
        eliminated, eliminator = self.round_eliminations[0]
        other = next((t for t in self.tricks if eliminated not in t.seats), None)
        if eliminator >= 0 and other is not None and other.collector >= 0 and not other.void:
            winner = other.seats[other.collector]
            loser = other.seats[1 - other.collector]
            self.seat_of_letter = (winner, loser, eliminator)
        else:
            self.seat_of_letter = self._clockwise_after(eliminated)
        self.schedule = 3
        self.schedule_step = 0

    def _relabel_after_hand(self, eliminated: list[int]) -> None:
        if self.players_left == 2 and self.schedule > 2:
            self._to_duel()
        elif self.schedule == 4 and self.players_left == 3:
            # GSK-27 fallback: an end-of-hand elimination has no "other trick".
            self.seat_of_letter = self._clockwise_after(eliminated[0])
            self.schedule = 3
            self.schedule_step = 0

    def _clockwise_after(self, seat: int) -> tuple[int, ...]:
        n = self.num_players
        return tuple([s for s in [(seat + k) % n for k in range(1, n)] if self.active[s]])

    def _to_duel(self) -> None:
        # §7: the last two play on by the 2-player rules, the lower original seat first.
        self.schedule = 2
        a, b = [s for s in range(self.num_players) if self.active[s]]
        self.duelists = (a, b)
        self.priority_seat = a

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        # _legal[s] is () whenever s is not in to_move (every change of to_move keeps it so):
        # read on every step of a playout, twice, it spares a search of to_move.
        legal = self._legal
        return legal[seat] if 0 <= seat < len(legal) else ()

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

    def _apply(self, seat: int, action: Action) -> None:
        # The base's signature, so that core calls it without a conversion glue; the action is
        # one of this game's (checked legal), read as such without a cast() call.
        a: GodSaveTheKingAction = action  # type: ignore[assignment]
        if self.decision == D_FORM:
            # The hot path of every playout: one card into the next slot (a formation is the
            # only decision while the formations are laid).
            if self._place(seat, a):
                self._run()
            return
        self._take_decision(seat, a)
        self._run()

    def _place(self, seat: int, a: GodSaveTheKingAction) -> bool:
        """T1: one card of ``seat``'s formation into its next slot, face down; True when that
        completed the round's last formation."""
        card = take_placed_card(self.hands[seat], self._legal[seat], a)
        return self._lay(seat, card, True)

    def _lay(self, seat: int, card: Any, list_next: bool) -> bool:
        """``card``, taken out of ``seat``'s hand, into its formation's next slot (see
        :meth:`_place`). ``list_next``: list the seat's choices for its next slot; a playout
        leaves them unlisted while it places cards by their place in the hand (:meth:`playout`)."""
        t = self.tricks[self.trick_of_seat[seat]]
        side = self.side_of_seat[seat]
        placed = t.placed
        slot = placed[side]
        hand = self.hands[seat]
        t.formations[side][slot] = card
        t.placed_at[side][slot] = len(self.history)
        self._keep_secret(1 << seat)  # a card laid face down: its owner alone knows it (§9)
        if self._journal is not None:
            self._journal.left_hand(len(self.history), seat, slot)
        placed[side] = slot + 1
        if slot < RIGHT:
            if not list_next:
                return False
            tables = self.tables
            if tables.exposed_king_legal:
                self._legal[seat] = form_options(tables.form_actions[slot + 1], hand)
            else:
                self._legal[seat] = self._form_legal(seat, slot + 1)
            return False
        self._legal[seat] = ()
        self.to_move = _without(self.to_move, seat)
        if self.to_move:
            return False
        # Every formation of the round is in: the tricks are resolved one after the other.
        self.decision = D_NONE
        self.current_trick = 0
        self.tricks[0].step = self._first_step()
        return True

    def playout(self, rng: random.Random, max_steps: int = 0) -> int:
        """:meth:`State.playout`, drawing exactly as it does (the same game for the same
        ``rng``), with formation cards placed by their place in the hand.

        A seat's formation choices list its hand's cards in order (where every card may go to
        every slot): the card at the drawn index is taken at once, and the choices of its next
        slot (rebuilt after each card in :meth:`_place`, and for the first slot when a round
        starts) are listed only if the playout stops while formations are laid."""
        tables = self.tables
        by_index = tables.exposed_king_legal
        self._forms_unlisted = by_index
        try:
            steps = self._play_on(rng, max_steps, by_index)
        finally:
            self._forms_unlisted = False
        if by_index and self.decision == D_FORM:
            form_actions = tables.form_actions
            for seat in self.to_move:
                slot = self.tricks[self.trick_of_seat[seat]].placed[self.side_of_seat[seat]]
                self._legal[seat] = form_options(form_actions[slot], self.hands[seat])
        return steps

    def _play_on(self, rng: random.Random, max_steps: int, by_index: bool) -> int:
        """:meth:`playout`'s steps, formation cards by index if ``by_index``."""
        steps = 0
        history = self.history
        uniform = rng.random
        # The events are the tables' own tuples: nothing is made for the history. (Compiled, a
        # card is kept as the object it is, the one Card the game compares by identity, and read
        # as an int, ``number``, to index a table directly. A draw scales by float(len(...)): a
        # float times the length of a list is a generic multiplication of boxed numbers.)
        form_events = self.tables.form_events
        draw_events = self.tables.draw_events
        while not self.is_terminal and (not max_steps or steps < max_steps):
            if self.is_chance:
                card: Any = self.sample_chance_outcome(rng)
                number: int = card
                self._apply_chance(card)
                history.append(draw_events[number])
            elif by_index and self.decision == D_FORM:
                seat = self.to_move[0]
                hand = self.hands[seat]
                slot = self.tricks[self.trick_of_seat[seat]].placed[self.side_of_seat[seat]]
                card = hand.pop(int(uniform() * float(len(hand))))
                number = card
                event = form_events[seat][slot][number]
                if self._lay(seat, card, False):
                    self._run()
                history.append(event)
            else:
                # At a simultaneous point the pending seats shrink one apply at a time.
                seat = self.to_move[0]
                legal = self._legal[seat]
                action = legal[int(uniform() * float(len(legal)))]
                self._apply(seat, action)
                history.append((seat, action))
            steps += 1
        return steps

    def _take_decision(self, seat: int, a: GodSaveTheKingAction) -> None:
        """A route, a pass, a declaration or a challenge (not a formation card)."""
        if self.decision == D_CHALLENGE:
            self._challenge(seat, a.kind == CHALLENGE)
            return
        # A simultaneous choice (route or pass, a declaration): secret until the last is in.
        self.pending_choices[seat] = a
        self.submitted |= 1 << seat
        self.pending_events.append(len(self.history))
        self._keep_secret(1 << seat)
        self._legal[seat] = ()
        self.to_move = _without(self.to_move, seat)
        if self.to_move:
            return
        if self.decision == D_ROUTE:
            self._routes_chosen()
        else:
            self._declarations_made()

    def _reveal_choices(self) -> list[GodSaveTheKingAction | None]:
        """Every participant has chosen: the choices are shown together."""
        chosen = self.pending_choices
        self.pending_choices = [None] * self.num_players
        for index in self.pending_events:
            self._reveal_event(index)
        self.pending_events = []
        self.asked = 0
        self.submitted = 0
        self.decision = D_NONE
        return chosen

    # ----------------------------------------------------------------------------- reveal

    def _reveal(self, t: Trick) -> None:
        """T2 and T3: the outside cards turn face up; Kings eliminate; columns are compared."""
        x, y = t.formations
        up_x, up_y = t.face_up
        up_x[LEFT] = up_x[RIGHT] = up_y[LEFT] = up_y[RIGHT] = True
        at_x, at_y = t.placed_at
        # One by one, not over a tuple of them: compiled, a loop over a tuple builds it.
        self._reveal_event(at_x[LEFT])
        self._reveal_event(at_x[RIGHT])
        self._reveal_event(at_y[LEFT])
        self._reveal_event(at_y[RIGHT])
        a, b, c, d = x[LEFT], x[RIGHT], y[LEFT], y[RIGHT]
        if self._knowledge is not None:
            self._learn_seen_by_all((a, b, c, d))
        if _king_among(a, b, c, d) and self._kings_shown(t, (a, b, c, d)):
            return
        t.columns, t.skirmish_result = skirmishes(x, y)
        t.step = T_DECIDE if self.tables.early_route else T_ROUTE

    def _kings_shown(self, t: Trick | None, cards: Sequence[Card], by: int = -1) -> bool:
        """GSK-5 / §8: every revealed King eliminates its owner at once; True if that ended
        the trick ``t`` (or the game).

        A revealed King goes to the removed area; if an owner was in ``t``, the trick ends and
        the other participant collects it (GSK-11)."""
        losers: list[tuple[int, int]] = []
        for c in cards:
            owner = KING_OWNER[c]
            if owner >= 0 and self.active[owner]:
                rival = by
                if t is not None:
                    x, y = t.seats
                    if owner == x:
                        rival = y
                    elif owner == y:
                        rival = x
                losers.append((owner, rival))
                self._remove_face_up(t, c)
        if not losers:
            return False
        self._eliminate(losers)
        return self.is_terminal or (t is not None and t.step == T_DONE)

    def _remove_face_up(self, t: Trick | None, card: Card) -> None:
        """Move a revealed King to the removed area, face up (it is never collected)."""
        source = len(self.history)  # (a King just drawn, unless it lies in the formation)
        if t is not None:
            for side in range(2):
                formation = t.formations[side]
                for k in range(3):
                    if formation[k] == card:
                        formation[k] = None
                        source = t.placed_at[side][k]
        self.removed.append(card)
        self.removed_knowers.append(PUBLIC)
        if self._journal is not None:
            self._journal.to_removed(source)

    # ----------------------------------------------------------------------------- routes

    def _open_route_window(self, t: Trick) -> None:
        per_hand = self.tables.routes_per_hand
        # The seats one by one: compiled, a loop over the seats' tuple boxes it anew.
        x, y = t.seats
        routes_used = self.routes_used
        eligible: list[int] = []
        if routes_used[x] < per_hand:
            eligible.append(x)
        if routes_used[y] < per_hand:
            eligible.append(y)
        if eligible:
            self._ask(D_ROUTE, eligible, self.tables.route_legal)
        else:
            self._after_routes(t)

    def _after_routes(self, t: Trick) -> None:
        # route_window = before_reveal: the reveal comes next; after_skirmish: the decision.
        t.step = T_REVEAL if self.tables.early_route else T_DECIDE

    def _routes_chosen(self) -> None:
        t = self.tricks[self.current_trick]
        chosen = self._reveal_choices()
        queue: list[tuple[int, int]] = []
        for side in range(2):  # GSK-14: resolved in priority order
            a = chosen[t.seats[side]]
            if a is not None and a.kind == ROUTE:
                queue.append((side, a.slot))
        if queue:
            t.routes_to_resolve = queue
            t.step = T_ROUTES
        else:  # nobody routes (the usual case): straight on
            self._after_routes(t)

    def _resolve_route(self, t: Trick) -> None:
        """Resolve the next declared route (§5, settling a route)."""
        if not t.routes_to_resolve:
            self._after_routes(t)
            return
        queue = t.routes_to_resolve
        side, slot = queue[0]
        t.routes_to_resolve = queue[1:]  # (a clone may share the list: never changed in place)
        router = t.seats[side]
        self.routes_used[router] += 1
        target = 1 - side
        card = t.formations[target][slot]
        t.face_up[target][slot] = True
        self._reveal_event(t.placed_at[target][slot])
        if self._knowledge is not None:
            self._learn_seen_by_all([card])
        if KING_OWNER[card] >= 0 and self._kings_shown(t, [card]):
            return
        if self.hands[router]:
            # §5, settling a route, (b): a failed route costs a card drawn blindly from the
            # router's hand.
            self._ask_draw(router, t.seats[target], DRAW_FOR_ROUTE)

    def _ask_draw(self, victim: int, drawer: int, reason: int) -> None:
        self.draw_from = victim
        self.draw_to = drawer
        self.draw_reason = reason
        self.decision = D_NONE
        self.to_move = ()
        self.is_chance = True

    # ----------------------------------------------------------------------------- push

    def _declarations_made(self) -> None:
        t = self.tricks[self.current_trick]
        chosen = self._reveal_choices()
        x, y = t.seats
        declared = [_rank_of(chosen[x]), _rank_of(chosen[y])]
        t.declared = declared
        if declared[0] == declared[1]:
            if t.redeclarations < self.tables.max_redeclare:
                # GSK-7: a tie is declared again, up to max_redeclare times.
                t.redeclarations += 1
                return
            # GSK-7: still tied: a void trick, each takes his own cards; no challenge.
            t.void = True
            for side in range(2):
                self._take(t, side, side)
            t.step = T_DONE
            return
        winner = 0 if declared[0] > declared[1] else 1
        t.blind_winner = winner
        t.step = T_CHALLENGE
        self._ask(D_CHALLENGE, (t.seats[1 - winner],), self.tables.challenge_legal)

    def _challenge(self, seat: int, challenged: bool) -> None:
        t = self.tricks[self.current_trick]
        self.decision = D_NONE
        self.asked = 0
        self._legal[seat] = ()
        self.to_move = ()
        side = t.blind_winner
        if not challenged:
            self._collect(t, side)
            return
        winner = t.seats[side]
        middle = t.formations[side][MIDDLE]
        accurate = RANK[middle] == t.declared[side]
        t.challenge_answer = int(accurate)
        # T6e: only "accurate" / "not accurate" is announced, never the true rank.
        if self._knowledge is not None:
            self._learn_constraint(middle, EQ_RANK if accurate else NE_RANK, t.declared[side])
        if self._journal is not None:
            kind = EQ_RANK if accurate else NE_RANK
            self._journal.challenged(t.placed_at[side][MIDDLE], kind, t.declared[side])
        drawer, victim = (winner, seat) if accurate else (seat, winner)
        if self.hands[victim]:
            self._ask_draw(victim, drawer, DRAW_FOR_CHALLENGE)
            return
        self._collect(t, side)  # GSK-10: nothing to draw from an empty hand

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        return distinct_pile_outcomes(self.hands[self.draw_from])  # one card of each

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        return choice(rng, self.hands[self.draw_from])

    def _is_possible_outcome(self, outcome: Any) -> bool:
        return in_pile(outcome, self.hands[self.draw_from])

    def _apply_chance(self, outcome: Any) -> None:
        self._draw(outcome)
        self._run()

    def _draw(self, card: Card) -> None:
        """The card drawn blindly from a hand: shown to everyone (T6e), into the drawer's pile."""
        self.is_chance = False
        victim, drawer = self.draw_from, self.draw_to
        remove_card(self.hands[victim], card)
        journal = self._journal
        if journal is not None:
            journal.left_hand(len(self.history), victim, DRAWN)
        if self._knowledge is not None:
            self._learn_seen_by_all([card])
        t = self.tricks[self.current_trick]
        owner = KING_OWNER[card]
        if owner >= 0 and self.active[owner]:
            ended = self._kings_shown(t, [card], by=drawer)
        else:
            ended = False
            self.piles[drawer].append(card)
            self.pile_knowers[drawer].append(PUBLIC)
            if journal is not None:
                journal.to_pile(drawer, len(self.history))
        if not ended and self.draw_reason == DRAW_FOR_CHALLENGE:
            self._collect(t, t.blind_winner)

    # ----------------------------------------------------------------------------- collection

    def _take(self, t: Trick, side: int, collector_side: int) -> None:
        """Put side ``side``'s remaining formation cards face down on the collector's pile."""
        collector = t.seats[collector_side]
        owner = t.seats[side]
        pile = self.piles[collector]
        knowers = self.pile_knowers[collector]
        formation = t.formations[side]
        up = t.face_up[side]
        own = 1 << owner
        looks = collector != owner and not self.tables.private_piles
        seen: list[Card] | None = None  # what the collector looks at (made at the first)
        for k in range(3):  # (compiled, a loop over a tuple literal builds the tuple)
            c = formation[k]
            if c is None:
                continue
            formation[k] = None
            pile.append(c)
            if self._journal is not None:
                self._journal.to_pile(collector, t.placed_at[side][k])
            if up[k]:
                knowers.append(PUBLIC)
            elif looks:
                # trick_pile_private_until_hand_end off: the collector looks at once.
                mask = own | 1 << collector
                knowers.append(mask)
                if seen is None:
                    seen = [c]
                else:
                    seen.append(c)
                self._reveal_event(t.placed_at[side][k], mask)
            else:
                knowers.append(own)
        if seen is not None and self._knowledge is not None:
            self._learn_seen_by(collector, seen)

    def _collect(self, t: Trick, side: int) -> None:
        """T7: the winner puts every remaining card of the trick on his pile."""
        t.collector = side
        self._take(t, 0, side)
        self._take(t, 1, side)
        t.step = T_DONE

    def _interrupt(self, t: Trick) -> None:
        """A participant was eliminated: the other collects (GSK-11), or nobody if both fell."""
        if t.routes_to_resolve:
            t.routes_to_resolve = []  # (a clone may share the list: never changed in place)
        alive = [side for side in range(2) if self.active[t.seats[side]]]
        if len(alive) == 1:
            self._collect(t, alive[0])
        elif not alive:
            for side in range(2):
                for k in range(3):
                    c = t.formations[side][k]
                    if c is not None:
                        t.formations[side][k] = None
                        self.removed.append(c)
                        self.removed_knowers.append(
                            PUBLIC if t.face_up[side][k] else 1 << t.seats[side]
                        )
                        if self._journal is not None:
                            self._journal.to_removed(t.placed_at[side][k])
        t.step = T_DONE
        self.decision = D_NONE
        for s in self.to_move:
            self._legal[s] = ()
        self.to_move = ()

    # ----------------------------------------------------------------------------- eliminations

    def _eliminate(self, losers: Sequence[tuple[int, int]]) -> bool:
        """Eliminate ``(seat, eliminator)`` pairs at once; True if that ends the game (§8).

        GSK-24: an eliminated player's hand and trick pile leave the game face down, but his
        pile is first searched for rival Kings (nobody keeps a rival's King, and a King revealed
        at any time eliminates its owner): each one found is shown and eliminates its owner too,
        whose pile is searched in turn. A running trick of an eliminated player is collected by
        the other participant (GSK-11)."""
        queue = list(losers)
        out: list[int] = []
        set_aside: list[Card] = []
        active = self.active
        journal = self._journal
        at_pair = 0
        while at_pair < len(queue):  # (read in order, never popped from the front)
            s, by = queue[at_pair]
            at_pair += 1
            if not active[s]:
                continue
            active[s] = False
            self.players_left -= 1
            out.append(s)
            self.round_eliminations.append((s, by))
            pile = self.piles[s]
            knowers = self.pile_knowers[s]
            found = rival_kings(s, pile, active)
            if found:
                if self._knowledge is not None:
                    self._learn_seen_by_all(found)
                for c in found:
                    at = pile.index(c)
                    del pile[at]
                    del knowers[at]
                    if journal is not None:
                        journal.pile_card_removed(s, at)
                    self.removed.append(c)
                    self.removed_knowers.append(PUBLIC)
                    queue.append((KING_OWNER[c], s))
            hand = self.hands[s]
            if journal is not None:
                journal.hand_removed(s, len(hand))
                journal.pile_removed(s)
            self.removed += hand
            self.removed_knowers += [1 << s] * len(hand)
            self.removed += pile
            self.removed_knowers += knowers
            if self._knowledge is not None:
                set_aside += [c for c, m in zip(pile, knowers, strict=True) if m != PUBLIC]
            # Emptied in place: a state's hands and piles are its own (a copy copies them).
            hand.clear()
            pile.clear()
            knowers.clear()
            self._legal[s] = ()
        self.last_eliminated = tuple(out)
        if self.players_left <= 1:
            alive = [s for s in range(self.num_players) if active[s]]
            # §8 / GSK-23: the last player standing wins; a common fall is a shared draw.
            self._finish(alive or out)
            return True
        if set_aside and self._knowledge is not None:
            # The search found no other King there: a fact for everyone's inferences.
            for c in set_aside:
                for y in range(self.num_players):
                    if active[y]:
                        self._learn_constraint(c, NOT_CARD, KING_OF[y])
        for t in self.tricks:
            if t.step != T_DONE and not (active[t.seats[0]] and active[t.seats[1]]):
                self._interrupt(t)
        return False

    def _finish(self, winners: Sequence[int]) -> None:
        share = 1.0 / len(winners)
        self._result = [share if s in winners else 0.0 for s in range(self.num_players)]
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self.decision = D_NONE
        legal = self._legal
        for s in range(self.num_players):
            legal[s] = ()
        # The game is over: every card is shown (the final table is its summary), and every
        # event of the log with it (as _reveal_event would, for all of them at once).
        self._reveal_all()

    def _finish_by_cards(self) -> None:
        # GSK-29 [engine addition]: the most cards (hand + trick pile) wins; ties share.
        alive = [s for s in range(self.num_players) if self.active[s]]
        size = {s: len(self.hands[s]) + len(self.piles[s]) for s in alive}
        top = max(size.values())
        self._finish([s for s in alive if size[s] == top])

    def progress(self) -> dict[str, int]:
        return {"hands": self.hand_number, "tricks": self.tricks_played}

    def returns(self) -> list[float]:
        return list(self._result) if self.is_terminal else [0.0] * self.num_players

    def _seats_in_game(self) -> tuple[int, ...]:
        return tuple([s for s in range(self.num_players) if self.active[s]])

    # ----------------------------------------------------------------------------- end of hand

    def _end_hand(self) -> None:
        """§6: rival Kings in the trick piles, the merge, and the fewer-than-3 elimination."""
        n = self.num_players
        found = kings_in_piles(self)
        if found and self._knowledge is not None:
            self._learn_seen_by_all([c for _, c, _ in found])
        for s, c, _ in found:
            at = self.piles[s].index(c)
            del self.piles[s][at]
            del self.pile_knowers[s][at]
            if self._journal is not None:
                self._journal.pile_card_removed(s, at)
            self.removed.append(c)
            self.removed_knowers.append(PUBLIC)
        if self._knowledge is not None:
            self._learn_merge()
        for s in range(n):
            if self.active[s]:
                # Each player privately looks at his own pile (GSK-21).
                knowers = self.pile_knowers[s]
                bit = 1 << s
                for at in range(len(knowers)):
                    knowers[at] |= bit
                if self._knowledge is not None:
                    self._learn_seen_by(s, self.piles[s])
        eliminated: list[int] = []
        if found:
            eliminated = [owner for _, _, owner in found]
            if self._eliminate([(owner, s) for s, _, owner in found]):
                return
        active = self.active
        hands = self.hands
        for s in range(n):
            if active[s]:
                if self._journal is not None:
                    self._journal.pile_merged(s)
                # Emptied in place: a state's piles are its own (a copy copies them).
                pile = self.piles[s]
                hand = hands[s]
                hand += pile
                hand.sort()
                pile.clear()
                self.pile_knowers[s].clear()
        if self._knowledge is not None:
            self._learn_new_hand()
        few = [s for s in range(n) if active[s] and len(hands[s]) < 3]
        if few and self._eliminate([(s, -1) for s in few]):
            return
        routes_used = self.routes_used
        for s in range(n):
            routes_used[s] = 0
        self.hand_number += 1
        if eliminated or few:
            self._relabel_after_hand(eliminated + few)

    # ----------------------------------------------------------------------------- knowledge
    # Each seat's (and the spectator's) knowledge of the hidden cards follows the game, once
    # it has been asked for (.views builds it): random playouts never pay for it.

    def _learn_seen_by_all(self, cards: Sequence[Card]) -> None:
        knowledge = self._knowledge
        if knowledge is not None:
            for k in knowledge:
                for c in cards:
                    k.reveal(c)

    def _learn_seen_by(self, seat: int, cards: Sequence[Card]) -> None:
        knowledge = self._knowledge
        if knowledge is not None:
            k = knowledge[seat]
            for c in cards:
                k.reveal(c)

    def _learn_constraint(self, place: Card, kind: int, value: int) -> None:
        knowledge = self._knowledge
        if knowledge is not None:
            for k in knowledge:
                k.constrain(place, kind, value)

    def _learn_merge(self) -> None:
        knowledge = self._knowledge
        if knowledge is not None:
            for k in knowledge:
                k.coarsen()

    def _learn_new_hand(self) -> None:
        knowledge = self._knowledge
        if knowledge is not None:
            kings = KING_OF[: self.num_players]
            for k in knowledge:
                k.new_hand(self.hands, self.removed, self.removed_knowers, kings, self.active)

    # ----------------------------------------------------------------------------- seats

    def waiting(self) -> list[int]:
        """Who still has to decide, as everybody may see it."""
        if self.is_terminal or self.is_chance:
            return []
        if self.decision == D_FORM:
            return [s for t in self.tricks for i, s in enumerate(t.seats) if t.placed[i] < 3]
        if self.decision in (D_ROUTE, D_DECLARE, D_CHALLENGE):
            return [
                s
                for s in range(self.num_players)
                if self.asked >> s & 1 and not self.submitted >> s & 1
            ]
        return []

    def letter(self, seat: int) -> str | None:
        """The seat's letter in the 3- and 4-player schedules (A, B, C, D), or None."""
        if self.schedule < 3 or not self.active[seat] or seat not in self.seat_of_letter:
            return None
        return LETTERS[self.seat_of_letter.index(seat)]

    # ----------------------------------------------------------------------------- records

    def clone(self) -> GodSaveTheKingState:
        return self._copy(knowledge=True)

    def _copy(self, knowledge: bool) -> GodSaveTheKingState:
        other = GodSaveTheKingState(self.game, self.tables, blank=True)
        self._clone_base(other)
        other.hands = [h.copy() for h in self.hands]
        other.piles = [p.copy() for p in self.piles]
        other.pile_knowers = [m.copy() for m in self.pile_knowers]
        other.removed = self.removed.copy()
        other.removed_knowers = self.removed_knowers.copy()
        other.active = self.active.copy()
        other.players_left = self.players_left
        other.routes_used = self.routes_used.copy()
        other.hand_number = self.hand_number
        other.tricks_played = self.tricks_played
        other.tricks = [t.clone() for t in self.tricks]
        other.current_trick = self.current_trick
        other.trick_of_seat = self.trick_of_seat.copy()
        other.side_of_seat = self.side_of_seat.copy()
        other.decision = self.decision
        other.pending_choices = self.pending_choices.copy()
        other.asked = self.asked
        other.submitted = self.submitted
        other.pending_events = self.pending_events.copy()
        other._legal = self._legal.copy()
        other.schedule = self.schedule
        other.seat_of_letter = self.seat_of_letter
        other.schedule_step = self.schedule_step
        other.priority_seat = self.priority_seat
        other.duelists = self.duelists
        other.round_eliminations = self.round_eliminations.copy()
        other.past_tricks = self.past_tricks.copy()
        other.last_eliminated = self.last_eliminated
        other._result = self._result
        other.draw_from = self.draw_from
        other.draw_to = self.draw_to
        other.draw_reason = self.draw_reason
        other._knowledge = (
            [k.clone() for k in self._knowledge]
            if knowledge and self._knowledge is not None
            else None
        )
        other._view_knowledge = self._view_knowledge
        other._journal = self._journal.clone() if knowledge and self._journal is not None else None
        other._world_source = self._world_source
        other.world_plan = self.world_plan  # a copy of a view's copy draws the same worlds
        other._sampled = self._sampled
        return other


def rival_kings(holder: int, pile: Sequence[Card], active: Sequence[bool]) -> list[Card]:
    """The Kings of other players still in the game lying in ``holder``'s ``pile`` (§6, GSK-19:
    a player's own King in his own pile is safe)."""
    found: list[Card] = []
    for c in pile:
        owner = KING_OWNER[c]
        if owner >= 0 and owner != holder and active[owner]:
            found.append(c)
    return found


def kings_in_piles(state: GodSaveTheKingState) -> list[tuple[int, Card, int]]:
    """§6 step 1: every ``(holder, King, owner)`` found when the piles are looked at."""
    found: list[tuple[int, Card, int]] = []
    for s in range(state.num_players):
        if state.active[s]:
            found += [(s, c, KING_OWNER[c]) for c in rival_kings(s, state.piles[s], state.active)]
    return found


def form_options(actions: list[Action], hand: list[int]) -> tuple[Action, ...]:
    """The actions placing each card of ``hand`` (``actions``: one slot's, by card), in the
    hand's order. Cards are ints: typed so, a compiled build indexes with them directly."""
    return tuple([actions[c] for c in hand])


def take_placed_card(hand: list[Any], legal: tuple[Action, ...], a: GodSaveTheKingAction) -> Any:
    """Take the card that the formation action ``a`` places out of ``hand``, and return it.

    ``legal`` (the seat's formation actions) lists the hand in its order when it is as long as
    the hand (GSK-5 may leave the King out): then ``a``'s place in it is the card's place in the
    hand, found without reading the action's card or comparing cards."""
    if len(legal) == len(hand):
        for i in range(len(legal)):
            if legal[i] is a:
                return hand.pop(i)
    card = a.card
    remove_card(hand, card)
    return card


def remove_card(hand: list[Any], card: Any) -> None:
    """``hand.remove(card)``, by identity first (every card exists once, core.cards): no card
    comparisons on the hot path."""
    for i in range(len(hand)):
        if hand[i] is card:
            del hand[i]
            return
    hand.remove(card)


def _without(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``seats`` less ``seat`` (usually the first: the playouts take ``to_move[0]``)."""
    if seats[0] == seat:
        return seats[1:]
    return tuple([s for s in seats if s != seat])


def _king_among(a: int, b: int, c: int, d: int) -> bool:
    """Whether one of four cards is a player's King. The cards are taken as ints: compiled,
    a card of no declared type (read from a formation) would index the table through a generic
    lookup and compare through a generic comparison."""
    owner = KING_OWNER
    return owner[a] >= 0 or owner[b] >= 0 or owner[c] >= 0 or owner[d] >= 0


def _rank_of(action: GodSaveTheKingAction | None) -> int:
    assert action is not None
    return action.rank
