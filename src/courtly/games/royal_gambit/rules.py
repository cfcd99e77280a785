"""Royal Gambit's rules as a state machine (docs/rules/royal-gambit.md): push your luck
flipping cards; a repeated rank busts you.

A hand is a loop of turns; a HIT is a flip, and a flip may set off powers (a 7 to give away, a
Jack that makes someone flip twice) that are resolved depth-first before the turn passes
(RG-10, RG-24). A Jack's forced flips wait on a small stack of ``(seat, flips left)`` entries;
when the stack is empty after a flip, the turn is over.

Every card drawn is a chance event over the cards left in the deck (the deck is never
pre-shuffled), so nothing is hidden at a decision point: every flipped card is public.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from ...core.actions import SEAT_OUTCOMES, Action
from ...core.cards import JACK, KING, QUEEN, Card
from ...core.draws import below, choice, distinct_pile_outcomes, pile_index, take_drawn
from ...core.game import Game, State
from .components import (
    ACTIVE,
    BUSTED,
    DECK,
    DRAW,
    FINAL,
    FULL_RANK_COUNTS,
    GIVE_SEVEN,
    HIT_ID,
    HIT_OR_STAY,
    JACK_TARGET,
    KING_BIT,
    NORMAL,
    OUT,
    OVER,
    POINTS,
    QUEEN_BIT,
    RANK,
    SEVEN_BIT,
    START_PLAYER,
    STAYED,
    TEN_BIT,
    TIEBREAK,
    RoyalGambitAction,
    RoyalGambitTables,
)


def highest(values: list[int]) -> int:
    """``max(values)`` of a non-empty list, as a compiled loop (a hand ends every dozen steps)."""
    top = values[0]
    for value in values:
        if value > top:
            top = value
    return top


def row_score(row: Sequence[Card]) -> int:
    """The hand score of a row: A-5 points, doubled (once) by a King (§3, RG-15)."""
    points = sum(POINTS[c] for c in row)
    return points * 2 if any(RANK[c] == KING for c in row) else points


class RoyalGambitState(State):
    """A position of Royal Gambit."""

    __slots__ = (
        "_draw_at",
        "_legal",
        "_result",
        "banked",
        "chance_event",
        "decision",
        "deck",
        "favorites",
        "flipper",
        "forced_flips",
        "hand_number",
        "hands_played",
        "left",
        "participants",
        "phase",
        "row_points",
        "row_ranks",
        "rows",
        "set_aside",
        "seven_to_give",
        "start_player",
        "status",
        "tables",
        "totals",
        "turn",
    )

    tables: RoyalGambitTables
    """The options and action tables of the game, as typed fields."""

    def __init__(
        self, game: Game, tables: RoyalGambitTables | None = None, blank: bool = False
    ) -> None:
        """The start of a game with ``game``'s ``tables``; ``blank=True`` only sets the base
        fields, for :meth:`clone` to fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game, blank)
        self._draw_at = -1  # where the card the sampler drew lies in the deck (-1: unknown)
        if tables is not None:
            self.tables = tables
        if blank:
            return  # clone() sets the rest
        n = game.num_players
        self.totals = [0] * n
        self.rows: list[list[Card]] = [[] for _ in range(n)]
        self.row_ranks = [0] * n  # bit r set when the row holds a card of rank r: the bust check
        self.row_points = [0] * n  # A-5 points in the row, before the King's doubling
        self.status = [ACTIVE] * n
        self.banked = [0] * n  # the score each seat banked this hand
        self.set_aside: list[Card] = []  # pardoned pairs (Queen + duplicate) of this hand
        self.deck: list[Card] = list(DECK)
        self.left = FULL_RANK_COUNTS.copy()  # cards of each rank still in the deck (for bots)
        self.participants: tuple[int, ...] = tuple(range(n))
        self.favorites: tuple[int, ...] = ()
        self.phase = NORMAL
        self.hand_number = 1
        self.hands_played = 0
        self.start_player = 0
        self.turn = 0
        # A Jack's forced flips still to come, the latest Jack's last: (seat, flips left).
        self.forced_flips: list[tuple[int, int]] = []
        self.flipper = -1  # the seat that flips the card of the pending draw
        self.seven_to_give: Card | None = None  # the 7 the flipper must give away (RG-9)
        self.decision = HIT_OR_STAY
        self._legal: tuple[Action, ...] = ()
        self._result: list[float] = []
        # RG-3: the first hand's start player is random: a chance event.
        self.chance_event = START_PLAYER
        self.is_chance = True

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        if self.chance_event == START_PLAYER:
            p = 1.0 / len(self.participants)
            return [(SEAT_OUTCOMES[s], p) for s in self.participants]
        return distinct_pile_outcomes(self.deck)  # one card of each

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        if self.chance_event == DRAW:
            # choice(rng, deck), keeping the index: applying the card then takes it out of the
            # deck by its place, not by comparing it with the cards before it.
            deck = self.deck
            index = below(rng, len(deck))
            self._draw_at = index
            return deck[index]
        return SEAT_OUTCOMES[choice(rng, self.participants)]

    def _is_possible_outcome(self, outcome: Any) -> bool:
        if self.chance_event == DRAW:
            # The place is kept for _apply_chance, as the sampler's is.
            self._draw_at = pile_index(outcome, self.deck)
            return self._draw_at >= 0
        return (
            isinstance(outcome, int)
            and not isinstance(outcome, Card)
            and outcome in self.participants
        )

    def _apply_chance(self, outcome: Any) -> None:
        self.is_chance = False
        if self.chance_event == DRAW:  # the hot path: a card turns face up
            take_drawn(self.deck, outcome, self._draw_at)
            self._draw_at = -1
            self.left[RANK[outcome]] -= 1
            self._flip(self.flipper, outcome)
            return
        self.start_player = self.turn = int(outcome)
        self._ask_hit_or_stay()

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self._legal if seat in self.to_move else ()

    def _apply(self, seat: int, action: Action) -> None:
        # The action is legal, so it answers the pending decision (read from the state: faster
        # than from the action).
        self.to_move = ()
        decision = self.decision
        if decision == HIT_OR_STAY:
            # The legal list's own instances, hit first, tell the answer without reading the
            # action's id (an attribute of a class that is not compiled); any other equal
            # instance is told by its id.
            legal = self._legal
            hit = action is legal[0] or (action is not legal[-1] and action.id == HIT_ID)
            if not hit:
                self._stay(seat)
                self._end_turn()  # a stay sets off nothing: the turn is over
            elif self.deck:
                self._ask_draw(seat)
            else:
                self._deck_exhausted()
            return
        target = cast(RoyalGambitAction, action).target
        if decision == GIVE_SEVEN:
            # RG-9: the 7 moves to the chosen player's row; he has no 7, so it cannot bust him.
            seven = self.seven_to_give
            assert seven is not None
            self.rows[seat].remove(seven)
            self.row_ranks[seat] &= ~SEVEN_BIT
            self.rows[target].append(seven)
            self.row_ranks[target] |= SEVEN_BIT
            self.seven_to_give = None
        else:
            self.forced_flips.append((target, 2))
        self._resume()

    def _stay(self, seat: int) -> None:
        # RG-16: the hand score is banked the moment the player stays.
        points = self.row_points[seat]
        score = points * 2 if self.row_ranks[seat] & KING_BIT else points
        self.banked[seat] = score
        self.totals[seat] += score
        self.status[seat] = STAYED

    # ----------------------------------------------------------------------------- flipping

    def _ask_draw(self, seat: int) -> None:
        """The next card of the deck turns face up into ``seat``'s row: a chance event."""
        self.flipper = seat
        self.chance_event = DRAW
        self.is_chance = True

    def _resume(self) -> None:
        """Carry out pending forced flips (depth-first); when none is left, the turn is over."""
        flips = self.forced_flips
        status = self.status
        while flips:
            seat, left = flips[-1]
            if left == 0 or status[seat] != ACTIVE:
                flips.pop()  # RG-10: a busted target's remaining forced flips are cancelled
                continue
            flips[-1] = (seat, left - 1)
            if not self.deck:
                self._deck_exhausted()
                return
            self._ask_draw(seat)
            return
        self._end_turn()

    def _flip(self, seat: int, card: Card) -> None:
        """``card`` turns face up into ``seat``'s row: bust check first, then its power (RG-6)."""
        rank = RANK[card]
        bit = 1 << rank
        ranks = self.row_ranks[seat]
        row = self.rows[seat]
        if ranks & bit:
            if ranks & QUEEN_BIT:
                # RG-7/8: the held Queen and the duplicate leave the row; the first card stays.
                queen = next(c for c in row if RANK[c] == QUEEN)
                row.remove(queen)
                self.set_aside += (queen, card)
                self.row_ranks[seat] = ranks & ~QUEEN_BIT  # a pardoned Queen is no longer held
            else:
                row.append(card)
                self.status[seat] = BUSTED
                self.banked[seat] = 0
        else:
            row.append(card)
            self.row_ranks[seat] = ranks | bit
            self.row_points[seat] += POINTS[card]
            if rank == 7:
                if self._ask_seven_recipient(seat, card):
                    return
            elif rank == JACK and self._ask_jack_target(seat):
                return
        if self.forced_flips:
            self._resume()
        else:
            self._end_turn()  # a plain hit: nothing else to flip

    def _ask_seven_recipient(self, seat: int, seven: Card) -> bool:
        """RG-9: the flipper must give the 7 to another active player without a 7, if any."""
        status = self.status
        row_ranks = self.row_ranks
        give = self.tables.give_seven
        legal = tuple(
            give[s]
            for s in range(self.num_players)
            if s != seat and status[s] == ACTIVE and not row_ranks[s] & SEVEN_BIT
        )
        if not legal:
            return False  # nobody eligible: the flipper keeps it
        self.seven_to_give = seven
        self._ask(seat, GIVE_SEVEN, legal)
        return True

    def _ask_jack_target(self, seat: int) -> bool:
        """RG-11/12: the flipper picks any active player, himself included (not a 10-holder when
        ``ten_blocks_jacks``); with nobody eligible the Jack fizzles."""
        status = self.status
        row_ranks = self.row_ranks
        block = TEN_BIT if self.tables.ten_blocks_jacks else 0
        jack_at = self.tables.jack_at
        legal = tuple(
            jack_at[s]
            for s in range(self.num_players)
            if status[s] == ACTIVE and not row_ranks[s] & block
        )
        if not legal:
            return False
        self._ask(seat, JACK_TARGET, legal)
        return True

    def _ask(self, seat: int, decision: int, legal: tuple[Action, ...]) -> None:
        self.decision = decision
        self._legal = legal
        self.to_move = self.tables.seat_alone[seat]

    def _ask_hit_or_stay(self) -> None:
        game = self.tables
        seat = self.turn
        self.decision = HIT_OR_STAY
        # RG-13: under auto_hit_on_zero a row scoring 0 may not stay.
        forced = game.auto_hit_on_zero and self.row_points[seat] == 0
        self._legal = game.hit_only if forced else game.hit_or_stay
        self.to_move = game.seat_alone[seat]

    def _deck_exhausted(self) -> None:
        """RG-18: with no card left the hand ends; every active player stays."""
        self.forced_flips.clear()
        for seat in range(self.num_players):
            if self.status[seat] == ACTIVE:
                self._stay(seat)
        self._end_hand()

    def _end_turn(self) -> None:
        status = self.status
        turn = self.turn
        game = self.tables
        if game.full_turn and status[turn] == ACTIVE:
            self._ask_hit_or_stay()  # full_turn: the player goes on until he stays or busts
            return
        for seat in game.seats_after[turn]:  # RG-24: the next active player after the turn's
            if status[seat] == ACTIVE:
                self.turn = seat
                self._ask_hit_or_stay()
                return
        self._end_hand()

    # ----------------------------------------------------------------------------- hands

    def _end_hand(self) -> None:
        game = self.tables
        self.hands_played += 1
        totals = self.totals
        if self.hands_played >= game.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            # [engine addition] safety cap: highest total, ties shared
            self._finish(list(range(self.num_players)))
            return
        if self.phase == NORMAL and highest(totals) < game.target_score:
            self._start_hand(game.everyone)  # the usual end of a hand: the next hand
            return
        # (Past the usual case: a range kept in a variable is built by a call.)
        everyone = range(self.num_players)
        if self.phase == NORMAL:
            top = highest(totals)
            # RG-20: the favorites sit out the final hand.
            if game.favorites_at_or_above_target:
                self.favorites = tuple(s for s in everyone if totals[s] >= game.target_score)
            else:
                self.favorites = tuple(s for s in everyone if totals[s] == top)
            self.phase = FINAL
            players = tuple(s for s in everyone if s not in self.favorites)
            if players:
                self._start_hand(players)
                return
            # RG-21: nobody may play the final hand: it is skipped.
            contenders: Sequence[int] = everyone
        elif self.phase == FINAL:
            contenders = everyone
        else:
            contenders = self.participants
        # RG-22: the unique highest total wins; otherwise the tied players play on.
        top = max(totals[s] for s in contenders)
        tied = tuple(s for s in contenders if totals[s] == top)
        if len(tied) == 1:
            self._finish(list(tied))
        else:
            self.phase = TIEBREAK
            self._start_hand(tied)

    def _start_hand(self, players: tuple[int, ...]) -> None:
        n = self.num_players
        self.hand_number += 1
        self.participants = players
        # §3, starting a hand, step 1: every card goes back; the next draws come from all 52.
        # (The state's own lists are reset in place: a hand starts every dozen steps or so.)
        # (Cleared and refilled: cheaper, compiled, than a slice assignment.)
        deck = self.deck
        deck.clear()
        deck.extend(DECK)
        left = self.left
        left.clear()
        left.extend(FULL_RANK_COUNTS)
        for row in self.rows:
            row.clear()
        row_ranks = self.row_ranks
        row_points = self.row_points
        banked = self.banked
        status = self.status
        everyone = len(players) == n
        for seat in range(n):
            row_ranks[seat] = 0
            row_points[seat] = 0
            banked[seat] = 0
            status[seat] = ACTIVE if everyone or seat in players else OUT
        self.set_aside.clear()
        self.forced_flips.clear()
        self.seven_to_give = None
        # RG-3: one seat clockwise from the previous start, skipping non-participants.
        start = (self.start_player + 1) % n
        while start not in players:
            start = (start + 1) % n
        self.start_player = self.turn = start
        self._ask_hit_or_stay()

    def _finish(self, contenders: list[int]) -> None:
        top = max(self.totals[s] for s in contenders)
        winners = [s for s in contenders if self.totals[s] == top]
        share = 1.0 / len(winners)
        self._result = [share if s in winners else 0.0 for s in range(self.num_players)]
        self.phase = OVER
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self._legal = ()

    def progress(self) -> dict[str, int]:
        return {"hands": self.hand_number}

    def scores(self) -> list[float] | None:
        return [float(total) for total in self.totals]

    def returns(self) -> list[float]:
        return list(self._result) if self.is_terminal else [0.0] * self.num_players

    # ----------------------------------------------------------------------------- records

    def clone(self) -> RoyalGambitState:
        other = RoyalGambitState(self.game, self.tables, blank=True)
        self._clone_base(other)
        other.totals = self.totals.copy()
        other.rows = [row.copy() for row in self.rows]
        other.row_ranks = self.row_ranks.copy()
        other.row_points = self.row_points.copy()
        other.status = self.status.copy()
        other.banked = self.banked.copy()
        other.set_aside = self.set_aside.copy()
        other.deck = self.deck.copy()
        other.left = self.left.copy()
        other.participants = self.participants
        other.favorites = self.favorites
        other.phase = self.phase
        other.hand_number = self.hand_number
        other.hands_played = self.hands_played
        other.start_player = self.start_player
        other.turn = self.turn
        other.forced_flips = self.forced_flips.copy()
        other.flipper = self.flipper
        other.seven_to_give = self.seven_to_give
        other.decision = self.decision
        other._legal = self._legal
        other._result = self._result
        other.chance_event = self.chance_event
        other._draw_at = self._draw_at
        return other

    # ----------------------------------------------------------------------------- scores

    def row_score(self, seat: int) -> int:
        """What ``seat``'s row would score if he stayed now."""
        points = self.row_points[seat]
        return points * 2 if self.row_ranks[seat] & KING_BIT else points
