"""King's Court (docs/rules/kings-court.md): a race up a track driven by a shared deck.

The state machine. A turn is a draw (a chance event over the draw pile) followed by any number
of plays, one card at a time, until the player types ``end``. A Queen opens a private look at the
target's hand and a follow-up decision (``borrow ...`` or ``pass``); a borrowed Queen opens
another (KC-12). The game ends the moment a pawn reaches the last space (KC-8).

Zones: the draw pile (a list whose order means nothing to the rules: every draw is uniform over
it), the discard pile (public), the cards removed from the game (public; only when
``prefilter_unused_suits`` is false), and one hand per seat, kept sorted.

Hidden information (§6), and what each seat may know of it, is the business of :mod:`.views`;
the state machine only records what they need:

* The card a seat draws is known to it alone (declared with ``_keep_secret``); hand sizes are
  public, and every way a card leaves a hand is public (it is played, borrowed or discarded face
  up), so the hands Kings throw away are kept (``king_discards``).
* A Queen's look is private to the looker, who then remembers the cards he saw for as long as
  they stay in that hand: ``memories[looker * n + target]`` is that memory as a set of card bits,
  ``memory_floor`` its public lower bound in size (when the hand loses a card, nobody else can
  tell whether it was a remembered one), ``looked_at`` the event of the last look.
* Reshuffles make the draw pile a public set again (it is exactly the discard pile at that moment),
  so every card carries the *epoch* of the last pile it was in (public), and ``reshuffles`` keeps
  when each pile was formed.

The pictures, the narration and the reasons of refusals are in :mod:`.text`.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import Any, cast

from ...core.actions import SEAT_OUTCOMES, Action
from ...core.cards import CARDS, JACK, QUEEN, Card
from ...core.draws import distinct_pile_outcomes, pile_index, take_drawn
from ...core.game import Game, State
from .components import (
    BORROWING,
    CARD_BIT,
    CUT,
    DEAL,
    DISCARD,
    DRAW,
    END_ID,
    OVER,
    PASS_ID,
    PLAYING,
    RANK,
    VALUE,
    KingsCourtAction,
    KingsCourtTables,
)


class KingsCourtState(State):
    """A position of King's Court."""

    __slots__ = (
        "_draw_at",
        "_legal",
        "_result",
        "cards_to_deal",
        "discard_pile",
        "draw_pile",
        "drawer",
        "epoch",
        "epoch_of",
        "hands",
        "king_discards",
        "looked_at",
        "memories",
        "memory_floor",
        "moved_back",
        "phase",
        "positions",
        "queen_target",
        "removed",
        "reshuffles",
        "start_player",
        "tables",
        "turn",
        "turns_played",
    )

    tables: KingsCourtTables
    """The seats' suits, the deck and the legal-action tables of the game, as typed fields."""

    def __init__(
        self, game: Game, tables: KingsCourtTables | None = None, blank: bool = False
    ) -> None:
        """The start of a game with ``game``'s ``tables``; ``blank=True`` only sets the base
        fields, for :meth:`clone` to fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game, blank)
        self._draw_at = -1  # where the card the sampler drew lies in the draw pile (-1: unknown)
        if tables is not None:
            self.tables = tables
        if blank:
            return  # clone() sets the rest
        n = game.num_players
        self.positions = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw_pile: list[int] = list(self.tables.deck)
        self.discard_pile: list[int] = []
        self.removed: list[int] = []  # unowned-suit cards drawn (prefilter_unused_suits=false)
        self.epoch = 0  # reshuffles so far
        self.epoch_of = [0] * 52  # the last draw pile each card was in (public)
        self.reshuffles: tuple[int, ...] = ()  # the event after which each reshuffle happened
        self.king_discards: tuple[tuple[int, ...], ...] = ()  # each King's victim's hand, in order
        self.memories = [0] * (n * n)  # Queen memories: memories[looker * n + target], card bits
        self.memory_floor = [0] * (n * n)  # public lower bound of each memory's size
        self.looked_at = [-1] * (n * n)  # history index of the last look, -1 for none
        self.moved_back = 0  # bit s: seat s has been moved back this turn (KC-9)
        self.phase = CUT
        self.queen_target = -1
        self.start_player = 0
        self.turn = 0
        self.turns_played = 0
        self.drawer = -1  # who receives the pending card
        self.cards_to_deal = n * self.tables.initial_hand_size
        self._legal: tuple[Action, ...] = ()
        self._result: list[float] = []
        self.is_chance = True

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        if self.phase == CUT:
            p = 1.0 / self.num_players
            return [(SEAT_OUTCOMES[s], p) for s in range(self.num_players)]
        return distinct_pile_outcomes(self.draw_pile)  # one card of each

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        if self.phase == CUT:
            return SEAT_OUTCOMES[rng.randrange(self.num_players)]
        pile = self.draw_pile
        # Uniform, as rng.choice, but faster (float(): compiled, a float times a list's length
        # is a generic multiplication of boxed numbers; the product is the same).
        index = int(rng.random() * float(len(pile)))
        self._draw_at = index  # applying the card takes it out by its place
        return CARDS[pile[index]]

    def _is_possible_outcome(self, outcome: Any) -> bool:
        if self.phase == CUT:
            return (
                isinstance(outcome, int)
                and not isinstance(outcome, Card)
                and 0 <= outcome < self.num_players
            )
        # The place is kept for _apply_chance, as the sampler's is.
        self._draw_at = pile_index(outcome, self.draw_pile)
        return self._draw_at >= 0

    def _apply_chance(self, outcome: Any) -> None:
        if self.phase == CUT:
            self.start_player = self.turn = int(outcome)
            if self.cards_to_deal:
                self.phase = DEAL
                self.drawer = self.start_player
                self._need_card()
            else:
                self._begin_turn()
            return
        card = outcome  # a Card (an int): hands and piles hold the shared Card instances
        take_drawn(self.draw_pile, card, self._draw_at)
        self._draw_at = -1
        drawer = self.drawer
        if self.tables.owner[card] < 0:
            # KC-2 (prefilter_unused_suits=false): the card leaves the game, face up, and the
            # same player draws again.
            self.removed.append(card)
            self._need_card()
            return
        self._keep_secret(1 << drawer)  # the card a seat draws is known to it alone
        insort(self.hands[drawer], card)
        if self.phase == DEAL:
            self.cards_to_deal -= 1
            if self.cards_to_deal:
                self.drawer = (drawer + 1) % self.num_players
                self._need_card()
            else:
                self._begin_turn()
            return
        self._enter_play()

    def _need_card(self) -> None:
        """Ask chance for a card for ``drawer``; reshuffle first if the pile is empty (KC-6)."""
        if not self.draw_pile:
            if self.discard_pile:
                self._reshuffle()
            else:
                # KC-6: both piles empty: no card (the deal stops, the draw is skipped).
                self.cards_to_deal = 0
                if self.phase == DEAL:
                    self._begin_turn()
                else:
                    self._enter_play()
                return
        self.is_chance = True
        self.to_move = ()

    def _reshuffle(self) -> None:
        self.epoch += 1
        epoch = self.epoch
        epoch_of = self.epoch_of
        for card in self.discard_pile:
            epoch_of[card] = epoch
        self.draw_pile = self.discard_pile
        self.discard_pile = []
        self.reshuffles += (len(self.history),)

    # ----------------------------------------------------------------------------- turns

    def _begin_turn(self) -> None:
        self.phase = DRAW
        self.drawer = self.turn
        self.moved_back = 0
        self._need_card()

    def _enter_play(self) -> None:
        seat = self.turn
        self.phase = PLAYING
        self.is_chance = False
        self.to_move = (seat,)
        game = self.tables
        plays_for = game.plays_for[seat]
        legal: list[Action] = []
        moved = self.moved_back
        if moved:
            moved_back_by = game.moved_back_by[seat]
            for card in self.hands[seat]:
                victim = moved_back_by[card]
                if victim < 0 or not moved >> victim & 1:
                    legal += plays_for[card]
        else:
            for card in self.hands[seat]:
                legal += plays_for[card]
        limit = game.hand_limit
        if limit and len(self.hands[seat]) > limit:
            # KC-21: no end of the turn over the hand limit; any card may be thrown away instead.
            discard_of = game.discard_of
            for card in self.hands[seat]:
                legal.append(discard_of[card])
        else:
            legal.append(game.end)
        self._legal = tuple(legal)

    def _enter_borrow(self, target: int) -> None:
        seat = self.turn
        self.phase = BORROWING
        self.queen_target = target
        game = self.tables
        borrows_for = game.borrows_for[seat]
        moved_back_by = game.moved_back_by[seat]
        moved = self.moved_back
        legal: list[Action] = []
        for card in self.hands[target]:
            victim = moved_back_by[card]
            if victim < 0 or not moved >> victim & 1:
                legal += borrows_for[card]
        legal.append(game.pass_)
        self._legal = tuple(legal)

    def _refresh_legal(self) -> None:
        """Work the legal actions out again (a world drawn for a view has new hands)."""
        if self.phase == PLAYING:
            self._enter_play()
        elif self.phase == BORROWING:
            self._enter_borrow(self.queen_target)

    def _end_turn(self) -> None:
        march = self.tables.march
        if march:
            # KC-20: the pawn of the player ending his turn marches on, and may win by it.
            seat = self.turn
            spot = self.positions[seat] + march
            length = self.tables.track_length
            if spot >= length:
                self.positions[seat] = length
                self._finish([seat])
                return
            self.positions[seat] = spot
        self.turns_played += 1
        if self.turns_played >= self.tables.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            # KC-18 [engine addition]: the farthest pawn wins; equal pawns share.
            top = max(self.positions)
            self._finish([s for s, p in enumerate(self.positions) if p == top])
            return
        self.turn = (self.turn + 1) % self.num_players
        self._begin_turn()

    def _finish(self, winners: list[int]) -> None:
        share = 1.0 / len(winners)
        self._result = [share if s in winners else 0.0 for s in range(self.num_players)]
        self.phase = OVER
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self._legal = ()
        self._reveal_all()  # at the end every hand is shown: no draw is secret any more

    def progress(self) -> dict[str, int]:
        return {"turns": self.turns_played, "reshuffles": self.epoch}

    def scores(self) -> list[float] | None:
        # A pawn's space on the track: the first to its end wins.
        return [float(position) for position in self.positions]

    def returns(self) -> list[float]:
        return list(self._result) if self.is_terminal else [0.0] * self.num_players

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self._legal if seat in self.to_move else ()

    def _apply(self, seat: int, action: Action) -> None:
        # The action is legal, so the phase says whether it plays from the hand or borrows.
        if action.id == END_ID:
            self._end_turn()
            return
        if action.id == PASS_ID:  # borrow nothing
            self.queen_target = -1
            self._enter_play()
            return
        card = cast(KingsCourtAction, action).card
        target = cast(KingsCourtAction, action).target
        if cast(KingsCourtAction, action).kind == DISCARD:
            # KC-21: thrown away face up; it moves nobody, so no move back is used (KC-9).
            self.hands[seat].remove(card)
            self._forget(seat, card)
            self.discard_pile.append(card)
            self._enter_play()
            return
        if self.phase == PLAYING:
            self.hands[seat].remove(card)
            self._forget(seat, card)
        else:
            # KC-12: the borrowed card is played as if it were the Queen player's own.
            self.hands[self.queen_target].remove(card)
            self._forget(self.queen_target, card)
            self.queen_target = -1
        self._resolve(seat, card, target)

    def _forget(self, owner: int, card: int) -> None:
        """``card`` left ``owner``'s hand face up: no memory holds it any more."""
        memories = self.memories
        for memory in memories:  # (a compiled loop: ``any`` is a call into the interpreter)
            if memory:
                break
        else:
            return  # no memory at all (then every public floor is 0 too)
        n = self.num_players
        floor = self.memory_floor
        keep = ~CARD_BIT[card]
        for index in range(owner, n * n, n):
            memories[index] &= keep
            if floor[index]:
                # Publicly nobody can tell whether the card was a remembered one: the public
                # floor assumes it was.
                floor[index] -= 1

    def _resolve(self, seat: int, card: int, target: int) -> None:
        """Carry out ``card`` played by ``seat`` (from his hand or borrowed) on ``target``."""
        self.discard_pile.append(card)
        value = VALUE[card]
        positions = self.positions
        if value:
            owner = self.tables.owner[card]
            if owner == seat:
                spot = positions[seat] + value
                if spot >= self.tables.track_length:
                    # KC-7/KC-8: the pawn stops on the last space and wins at once.
                    positions[seat] = self.tables.track_length
                    self._finish([seat])
                    return
                positions[seat] = spot
            else:
                # KC-9: clamped at 0; even a move of 0 spaces uses the opponent's limit.
                # KC-19: no card moves a rival back more than the push-back cap.
                spot = positions[owner] - self.tables.push_of(value)
                positions[owner] = spot if spot > 0 else 0
                self.moved_back |= 1 << owner
            self._enter_play()
            return
        rank = RANK[card]
        if rank == JACK:
            # KC-11: an exchange, not a move back.
            positions[seat], positions[target] = positions[target], positions[seat]
            self._enter_play()
        elif rank == QUEEN:
            self._look(seat, target)
        else:
            self._discard_hand(target)
            self._enter_play()

    def _look(self, seat: int, target: int) -> None:
        """A Queen: ``seat`` sees ``target``'s hand and may borrow from it (KC-12)."""
        hand = self.hands[target]
        index = seat * self.num_players + target
        seen = 0
        for card in hand:
            seen |= CARD_BIT[card]
        self.memories[index] = seen
        self.memory_floor[index] = len(hand)
        self.looked_at[index] = len(self.history)
        if hand:
            self._enter_borrow(target)
        else:
            self._enter_play()  # nothing to look at or borrow (hand sizes are public)

    def _discard_hand(self, target: int) -> None:
        """A King: the whole hand goes face up to the discard pile (KC-13)."""
        hand = self.hands[target]
        self.king_discards += (tuple(hand),)
        self.discard_pile += hand
        hand.clear()
        n = self.num_players
        for index in range(target, n * n, n):
            self.memories[index] = 0
            self.memory_floor[index] = 0

    # ----------------------------------------------------------------------------- records

    def clone(self) -> KingsCourtState:
        other = KingsCourtState(self.game, self.tables, blank=True)
        self._clone_base(other)
        other.positions = self.positions.copy()
        other.hands = [hand.copy() for hand in self.hands]
        other.draw_pile = self.draw_pile.copy()
        other.discard_pile = self.discard_pile.copy()
        other.removed = self.removed.copy()
        other.epoch = self.epoch
        other.epoch_of = self.epoch_of.copy()
        other.reshuffles = self.reshuffles
        other.king_discards = self.king_discards
        other.memories = self.memories.copy()
        other.memory_floor = self.memory_floor.copy()
        other.looked_at = self.looked_at.copy()
        other.moved_back = self.moved_back
        other.phase = self.phase
        other.queen_target = self.queen_target
        other.start_player = self.start_player
        other.turn = self.turn
        other.turns_played = self.turns_played
        other.drawer = self.drawer
        other.cards_to_deal = self.cards_to_deal
        other._legal = self._legal
        other._result = self._result
        other._draw_at = self._draw_at
        return other
