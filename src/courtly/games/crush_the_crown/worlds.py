"""The worlds a seat of Crush the Crown cannot tell apart: ``sample_world`` (the views'
``determinize``) draws a full state from what the seat knows, whose history replays to it, so
that a world saves and loads like any game.

**How a world is drawn.** The seat's log tells it, of every card out of its sight, when the card
can have reached a hand:

* Each draw it did not see (a *slot*) put one card into a hand, where it stays until it leaves
  face up (a play, a discard, a tribute) or to this day.
* A card enters the draw pile at the deal or at a reshuffle, and a reshuffle happens only when
  the draw pile is empty: a card of the pile of one reshuffle (an *epoch*) was drawn by a slot of
  that epoch, and a card out of sight since an earlier epoch is in a hand now.
* What a hand showed narrows its cards: a marriage discard or a deadlock shows that it held no
  Queen (docs/rules/crush-the-crown.md §3, CTC-6), a tribute card of another suit that it held
  none of the receiver's suit (CTC-14). Such a card can only sit in a slot drawn after the last
  such moment.

``LogReading`` reads the log once per view (the result, a ``WorldPlan``, is kept on the redacted
copy, so that a search drawing many worlds from one view reads it once). Each card that left a
hidden hand face up gets the earliest open slot it fits: that greedy finds an attribution
whenever there is one, and leaves open the latest, least restricted slots. The open slots of an
earlier epoch take all of that epoch's cards out of sight; the open slots of the current epoch
take cards drawn at random among those that may still be in the draw pile, the most restricted
slot first, each uniform among the cards it fits (the restrictions form a chain, so every way of
filling the open slots is equally likely: uniform given the attribution of the cards already
played, which is the one approximation). The rest of the current epoch's cards is the draw
pile, in the order a replay leaves it. A spectator's worlds fill both hands, a check of Hall's
condition keeping every choice completable.

A position set up by hand (the tests' tables, whose log does not start at the deal) has no
history that replays to it: its worlds agree with everything the seat saw but keep the log's
unknown draws unknown, like the position itself.

This module is compiled (courtly/_compiled.py): ``sample_world`` runs at every search iteration.
"""

from __future__ import annotations

import random
from typing import Any, Final

from ...core.cards import CARDS, Card
from ...core.draws import below
from ...core.events import CHANCE, HIDDEN, Event
from ...core.game import State
from ...core.persist import fields_of, rebuild
from .components import (
    DISCARD,
    GIVE,
    GIVE_QUEEN,
    IS_QUEEN,
    JOKER,
    MARRIAGE,
    MARRY,
    PASS,
    QUEENS,
    SUIT,
    UNKNOWN,
    CrushTheCrownAction,
    forget_card,
    learn_card,
)
from .rules import CrushTheCrownState

NEVER: Final = -2
"""The time of a moment that never came (a card dealt before a position set up by hand has time
-1: it sits in a slot older than every event of the log)."""

# What a slot may hold, besides any card of no class below.
FITS_ANY: Final = 1
FITS_QUEEN: Final = 2
FITS_RIVAL_SUIT: Final = 4
"""A card of the suit of the hand's rival (the suit its tribute is owed in)."""

ATTEMPTS: Final = 50
"""Worlds drawn before one is kept that contradicts a marriage step (below): rarely binding."""


# ------------------------------------------------------------------------------- reading the log


class LogReading:
    """The log of one seat read from the start: which hidden draw can hold which card."""

    def __init__(self, state: CrushTheCrownState, seat: int | None) -> None:
        self.state = state
        self.hidden = [seat != 0, seat != 1]
        """The hands the seat does not see."""
        self.open_slots: list[list[list[int]]] = [[], []]
        """Per hand, its hidden draws whose card is still in it, oldest first: [time, epoch]."""
        self.filled: dict[int, int] = {}
        """The time (history index) of a hidden draw -> the card it drew."""
        self.epoch = 0
        self.entry_epoch = [0] * JOKER
        """Card -> the epoch in which it last entered the draw pile."""
        self.hidden_jokers = [0] * state.tables.deck.count(JOKER)
        """The epoch in which each joker out of the seat's sight entered the draw pile."""
        self.seen = 0
        """The cards the seat has seen since they last entered the draw pile."""
        self.known = [0, 0]
        """Per hand, the cards it is known to hold (as ``known_to_rival``)."""
        self.no_queen_since = [NEVER, NEVER]
        self.no_rival_suit_since = [NEVER, NEVER]
        self.marriages = 0
        self.consistent = True
        """False when the log does not explain every card (a position set up by hand)."""

    def read(self) -> None:
        state = self.state
        history = state.history
        reshuffles = state.reshuffles
        upcoming = 0
        self.consistent = bool(history) and _is_dealer(history[0][1])
        if not self.consistent and state.spy_slot_of:
            self.marriages = 2  # a position set up by hand, in the play
        for index in range(len(history)):
            actor, item = history[index]
            if actor == CHANCE:
                self._draw(index, item)
            else:
                self._play(index, actor, item)
            while upcoming < len(reshuffles) and reshuffles[upcoming][0] == index:
                self._reshuffle(reshuffles[upcoming][1])
                upcoming += 1
        if state.to_move and state.decision == GIVE_QUEEN:
            self._deadlock(len(history), state.to_move[0])  # declared, its Queen not given yet

    def _draw(self, time: int, item: Any) -> None:
        if _is_dealer(item):
            return
        # A drawn card is declared known to its drawer only: that tells who drew.
        knowers = self.state.secrets.knowers.get(time, 0)
        drawer = knowers.bit_length() - 1
        if drawer not in (0, 1):
            self.consistent = False
            return
        if item is HIDDEN:
            self.open_slots[drawer].append([time, self.epoch])
        elif item >= JOKER:
            self._take_hidden_joker(self.epoch)
        else:
            self.seen |= 1 << item

    def _play(self, time: int, seat: int, action: CrushTheCrownAction) -> None:
        kind = action.kind
        if kind == PASS:
            return
        card = action.card
        receiver = 1 - seat
        tribute = kind == GIVE and self.marriages == 2
        if kind == MARRY:
            self.marriages += 1
        elif kind == DISCARD:
            self.no_queen_since[seat] = time  # §3: he discards only when he holds no Queen
        elif kind == GIVE and not tribute:
            # CTC-6: the deadlock's Queen; her receiver marries her and draws.
            self._deadlock(time, seat)
            self.marriages += 1
        elif tribute and (card == JOKER or SUIT[card] != self.state.suits[receiver]):
            self.no_rival_suit_since[seat] = time  # CTC-14: he held none of the receiver's suit
        self._leaves(seat, card)
        if tribute and self.hidden[receiver]:
            self.known[receiver] = learn_card(self.known[receiver], card)

    def _deadlock(self, time: int, giver: int) -> None:
        """CTC-6: the marrying player holds no Queen, and every Queen out of sight is the
        giver's."""
        self.no_queen_since[1 - giver] = time
        if not self.hidden[giver]:
            return
        for queen in QUEENS:
            if not (self.seen | self.known[giver]) >> queen & 1:
                self._attribute(giver, queen)
                self.known[giver] |= 1 << queen

    def _leaves(self, seat: int, card: int) -> None:
        """``card`` leaves ``seat``'s hand face up."""
        if not self.hidden[seat]:
            return
        known = self.known[seat]
        if known >> card & 1:
            self.known[seat] = forget_card(known, card)
            return
        self._attribute(seat, card)

    def _attribute(self, seat: int, card: int) -> None:
        """``card``, out of sight until now, came from a hidden draw of ``seat``: the earliest
        open slot it fits, in the epoch it was drawn in."""
        after = NEVER
        if card == JOKER:
            epoch = self._joker_epoch_for(seat)
        else:
            epoch = self.entry_epoch[card]
            self.seen |= 1 << card
            after = self._ruled_out_until(seat, card)
        slots = self.open_slots[seat]
        for i in range(len(slots)):
            slot = slots[i]
            if slot[1] == epoch and slot[0] > after:
                self.filled[slot[0]] = card
                del slots[i]
                return
        self.consistent = False  # a card dealt before the log began

    def _ruled_out_until(self, seat: int, card: int) -> int:
        """The last moment ``seat``'s hand showed it could not hold ``card``."""
        if IS_QUEEN[card]:
            return self.no_queen_since[seat]
        if SUIT[card] == self.state.suits[1 - seat]:
            return self.no_rival_suit_since[seat]
        return NEVER

    def _joker_epoch_for(self, seat: int) -> int:
        """A joker leaves ``seat``'s hand: of the jokers out of sight, the one that fits its
        earliest open slot (jokers fit any slot)."""
        jokers = self.hidden_jokers
        best = -1
        best_time = 1 << 30
        for i in range(len(jokers)):
            for slot in self.open_slots[seat]:
                if slot[1] == jokers[i]:
                    if slot[0] < best_time:
                        best = i
                        best_time = slot[0]
                    break
        if best < 0:
            return jokers.pop(0) if jokers else -1
        return jokers.pop(best)

    def _take_hidden_joker(self, epoch: int) -> None:
        """The seat drew a joker: one of those out of sight in this epoch's pile."""
        jokers = self.hidden_jokers
        if epoch in jokers:
            jokers.remove(epoch)
        elif jokers:
            jokers.pop()
            self.consistent = False

    def _reshuffle(self, pile: tuple[int, ...]) -> None:
        self.epoch += 1
        for c in pile:
            if c == JOKER:
                self.hidden_jokers.append(self.epoch)
            else:
                self.entry_epoch[c] = self.epoch
                self.seen &= ~(1 << c)

    def accepts(self, seat: int, time: int) -> int:
        """What a slot of ``seat`` drawn at ``time`` may still hold."""
        fits = FITS_ANY
        if time > self.no_queen_since[seat]:
            fits |= FITS_QUEEN
        if time > self.no_rival_suit_since[seat]:
            fits |= FITS_RIVAL_SUIT
        return fits


def _is_dealer(outcome: Any) -> bool:
    """Whether a chance outcome picks the dealer (a seat: every other one is a card)."""
    return (
        outcome is not HIDDEN
        and not isinstance(outcome, Card)
        and not isinstance(outcome, CrushTheCrownAction)
    )


def _class_of(card: int, rival_suit: int) -> int:
    """What a slot must accept to hold ``card``, in a hand whose rival's suit is ``rival_suit``."""
    if IS_QUEEN[card]:
        return FITS_QUEEN
    if card != JOKER and SUIT[card] == rival_suit:
        return FITS_RIVAL_SUIT
    return FITS_ANY


def card_fits(card: int, seat: int, fits: int, suits: list[int]) -> bool:
    """Whether a slot of ``seat`` that may hold ``fits`` may hold ``card``."""
    return _class_of(card, suits[1 - seat]) & fits != 0


# ------------------------------------------------------------------------------- the plan


class SlotGroup:
    """The open slots of one epoch and the cards out of sight that entered the pile then."""

    def __init__(self, exact: bool) -> None:
        self.exact = exact
        """An earlier epoch: every card goes into a slot (the current one's rest is the pile)."""
        self.seats: list[int] = []
        self.times: list[int] = []
        self.fits: list[int] = []
        """Per slot, oldest first: its hand, when it was drawn, what it may hold."""
        self.cards: list[int] = []
        """The cards, in the order of the epoch's draw pile."""
        self.classes: list[int] = []
        """Per card, when one hand is hidden: FITS_ANY, FITS_QUEEN or FITS_RIVAL_SUIT for it."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (SlotGroup, (self.exact,), fields_of(self)))


class WorldPlan:
    """What one seat's log fixes of every world: the history with the draws it can fill once for
    all, the cards known to be in each hidden hand, and the slot groups left to draw."""

    def __init__(self, seat: int | None = None, version: int = 0) -> None:
        self.seat = seat
        self.version = version
        """The length of the history it was read from."""
        self.replayable = True
        self.history: list[Event] = []
        self.hidden_seats: list[int] = []
        self.fixed_hands: list[list[int]] = [[], []]
        self.groups: list[SlotGroup] = []

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (WorldPlan, (self.seat, self.version), fields_of(self)))


def plan_worlds(state: CrushTheCrownState, seat: int | None) -> WorldPlan:
    """Read ``seat``'s log (``state`` is its redacted copy) into a :class:`WorldPlan`."""
    reading = LogReading(state, seat)
    reading.read()
    plan = WorldPlan(seat, len(state.history))
    plan.hidden_seats = [h for h in (0, 1) if reading.hidden[h]]
    out_of_sight = _cards_out_of_sight(state)
    groups = _group_slots(state, reading, plan, out_of_sight)
    current = len(state.reshuffles)
    for epoch in range(current + 1):
        group = groups[epoch]
        if group.exact and len(plan.hidden_seats) == 1:
            _fill_earlier_epoch(state, group, plan, reading)
        elif group.seats or group.cards:
            if len(plan.hidden_seats) == 1:
                rival_suit = state.suits[1 - plan.hidden_seats[0]]
                group.classes = [_class_of(c, rival_suit) for c in group.cards]
            plan.groups.append(group)
    plan.replayable = reading.consistent and plan.replayable
    if plan.replayable:
        history = state.history.copy()
        for time, card in reading.filled.items():
            history[time] = (CHANCE, CARDS[card])
        plan.history = history
    return plan


def _cards_out_of_sight(state: CrushTheCrownState) -> list[int]:
    """The deck's cards in no place the seat sees (the draw pile and the unknown hand cards)."""
    seen = 0
    jokers_seen = 0
    places = (
        state.hands[0],
        state.hands[1],
        state.discard_pile,
        state.executed,
        state.governments[0],
        state.governments[1],
    )
    for place in places:
        for c in place:
            if c == JOKER:
                jokers_seen += 1
            elif c != UNKNOWN:
                seen |= 1 << c
    deck = state.tables.deck
    cards = [c for c in deck if c != JOKER and not seen >> c & 1]
    return cards + [CARDS[JOKER]] * max(0, deck.count(JOKER) - jokers_seen)


def _group_slots(
    state: CrushTheCrownState, reading: LogReading, plan: WorldPlan, out_of_sight: list[int]
) -> list[SlotGroup]:
    """One group per epoch: its open slots, and its cards out of sight in draw-pile order."""
    current = len(state.reshuffles)
    groups = [SlotGroup(epoch < current) for epoch in range(current + 1)]
    for seat in plan.hidden_seats:
        plan.fixed_hands[seat] = [CARDS[c] for c in state.hands[seat] if c != UNKNOWN]
        _add_slots(state, reading, plan, seat, groups)
    _add_cards(state, reading, plan, out_of_sight, groups)
    return groups


def _add_slots(
    state: CrushTheCrownState,
    reading: LogReading,
    plan: WorldPlan,
    seat: int,
    groups: list[SlotGroup],
) -> None:
    slots = reading.open_slots[seat]
    unknown = state.hands[seat].count(UNKNOWN)
    if len(slots) != unknown:
        # A position set up by hand: its cards from before the log sit in the oldest slots.
        plan.replayable = False
        extra = max(0, len(slots) - unknown)
        slots = [[-1, 0]] * max(0, unknown - len(slots)) + slots[extra:]
    for time, epoch in slots:
        group = groups[min(epoch, len(groups) - 1)]
        group.seats.append(seat)
        group.times.append(time)
        group.fits.append(reading.accepts(seat, time))


def _add_cards(
    state: CrushTheCrownState,
    reading: LogReading,
    plan: WorldPlan,
    out_of_sight: list[int],
    groups: list[SlotGroup],
) -> None:
    """Each card out of sight goes to the group of the epoch it entered the draw pile in,
    in the order of that pile."""
    current = len(groups) - 1
    jokers = sorted(reading.hidden_jokers)
    joker_count = out_of_sight.count(JOKER)
    if len(jokers) != joker_count:
        plan.replayable = False
        jokers = (jokers + [current] * joker_count)[:joker_count]
    standard = 0
    for c in out_of_sight:
        if c != JOKER:
            standard |= 1 << c
    for epoch in range(current + 1):
        order = state.tables.deck if epoch == 0 else state.reshuffles[epoch - 1][1]
        # A drawn joker is the first joker of the pile (list.remove): those left are the last.
        jokers_drawn = order.count(JOKER) - jokers.count(epoch)
        cards = groups[epoch].cards
        for c in order:
            if c == JOKER:
                if jokers_drawn > 0:
                    jokers_drawn -= 1
                else:
                    cards.append(c)
            elif standard >> c & 1 and reading.entry_epoch[c] == epoch:
                cards.append(c)


def _fill_earlier_epoch(
    state: CrushTheCrownState, group: SlotGroup, plan: WorldPlan, reading: LogReading
) -> None:
    """One hidden hand: an earlier epoch's cards out of sight are all in it. They fill its slots
    once for all, the most restricted slot first (any card it fits will do: the restrictions
    form a chain)."""
    rest = group.cards.copy()
    for i in range(len(group.seats)):
        seat = group.seats[i]
        taken = -1
        for j in range(len(rest)):
            if card_fits(rest[j], seat, group.fits[i], state.suits):
                taken = j
                break
        if taken < 0:
            plan.replayable = False
            continue
        card = rest.pop(taken)
        plan.fixed_hands[seat].append(CARDS[card])
        if group.times[i] >= 0:
            reading.filled[group.times[i]] = card
    if rest:
        plan.replayable = False


# ------------------------------------------------------------------------------- a world


def sample_world(state: CrushTheCrownState, seat: int | None, rng: random.Random) -> State:
    """A world for ``seat`` (``state`` is its redacted copy): every hidden card dealt as the log
    allows, the history filled in to match (see the module's docstring)."""
    if (
        not state._partial
        and UNKNOWN not in state.hands[0]
        and UNKNOWN not in state.hands[1]
        and UNKNOWN not in state.draw_pile
    ):
        return state.clone()  # nothing is hidden (the end of the game, or a full state)
    plan = state.world_plan
    if not isinstance(plan, WorldPlan) or plan.seat != seat or plan.version != len(state.history):
        plan = plan_worlds(state, seat)
        state.world_plan = plan
    world = _deal(state, plan, rng)
    for _ in range(ATTEMPTS - 1):
        if not _contradicts_the_marriage(world):
            break
        world = _deal(state, plan, rng)
    return world


def _deal(state: CrushTheCrownState, plan: WorldPlan, rng: random.Random) -> CrushTheCrownState:
    world = state.clone()
    additions: list[list[int]] = [[], []]
    pile: list[int] = []
    history = plan.history.copy() if plan.replayable else world.history
    for group in plan.groups:
        if len(plan.hidden_seats) == 1:
            picks = _deal_one_hand(group, rng)
        else:
            picks = _deal_both_hands(group, state.suits, rng)
        taken = [False] * len(group.cards)
        jokers_taken = 0
        for i in range(len(picks)):
            card_index = picks[i]
            if card_index < 0:
                continue
            card = group.cards[card_index]
            if card == JOKER:
                jokers_taken += 1
            else:
                taken[card_index] = True
            additions[group.seats[i]].append(CARDS[card])
            if plan.replayable and group.times[i] >= 0:
                history[group.times[i]] = (CHANCE, CARDS[card])
        pile += _pile_left(group.cards, taken, jokers_taken)
    for h in plan.hidden_seats:
        world.hands[h] = sorted(plan.fixed_hands[h] + additions[h])
    world.draw_pile = pile
    if plan.replayable:
        world.history = history
        world._partial = False
    if world.to_move:
        world._legal = world._legal_for(world.decision, world.to_move[0])
    return world


def _pile_left(cards: list[int], taken: list[bool], jokers_taken: int) -> list[int]:
    """The cards not dealt, in pile order; the jokers dealt are the first ones of the pile, as
    a replay's draws take them. (Cards go into a state as ``CARDS[c]``: compiled code reads a
    card as a plain int.)"""
    pile: list[int] = []
    for i in range(len(cards)):
        c = cards[i]
        if c == JOKER:
            if jokers_taken:
                jokers_taken -= 1
                continue
        elif taken[i]:
            continue
        pile.append(CARDS[c])
    return pile


def _deal_one_hand(group: SlotGroup, rng: random.Random) -> list[int]:
    """Per slot (oldest, most restricted first), the index of a card drawn uniformly among the
    cards left that it fits; -1 if none is left (a position set up by hand)."""
    classes = group.classes
    free = list(range(len(classes)))
    picks: list[int] = []
    for fits in group.fits:
        if not free:
            picks.append(-1)
            continue
        choice = -1
        # Most cards fit: draw, and draw again if it does not (uniform among those that fit).
        for _ in range(8):
            k = below(rng, len(free))
            if classes[free[k]] & fits:
                choice = k
                break
        if choice < 0:
            fitting = [k for k in range(len(free)) if classes[free[k]] & fits]
            choice = fitting[below(rng, len(fitting))] if fitting else below(rng, len(free))
        picks.append(free[choice])
        free[choice] = free[-1]
        free.pop()
    return picks


# A spectator's worlds fill two hands, whose restrictions do not form one chain: each choice is
# checked to leave the other slots fillable (Hall's condition over four kinds of cards).
FREE: Final = 0
QUEEN_KIND: Final = 1
SUIT_OF_P0: Final = 2
SUIT_OF_P1: Final = 3


def _deal_both_hands(group: SlotGroup, suits: list[int], rng: random.Random) -> list[int]:
    """Per slot, the index of a card for it, drawn so that the others can still be filled."""
    by_kind: list[list[int]] = [[], [], [], []]
    for index in range(len(group.cards)):
        by_kind[_kind_of(group.cards[index], suits)].append(index)
    counts = [len(cards) for cards in by_kind]
    takes = [_kinds_taken(group.seats[i], group.fits[i]) for i in range(len(group.seats))]
    order = sorted(range(len(takes)), key=lambda i: takes[i].bit_count())
    picks = [-1] * len(takes)
    for position in range(len(order)):
        slot = order[position]
        rest = [takes[i] for i in order[position + 1 :]]
        weights = [0, 0, 0, 0]
        for kind in range(4):
            if takes[slot] >> kind & 1 and counts[kind]:
                counts[kind] -= 1
                if _fillable(rest, counts):
                    weights[kind] = counts[kind] + 1
                counts[kind] += 1
        kind = _weighted_kind(weights, rng)
        if kind < 0:  # nothing keeps the rest fillable (a position set up by hand)
            kind = next((k for k in range(4) if counts[k]), -1)
            if kind < 0:
                continue
        cards = by_kind[kind]
        k = below(rng, len(cards))
        picks[slot] = cards[k]
        cards[k] = cards[-1]
        cards.pop()
        counts[kind] -= 1
    return picks


def _kind_of(card: int, suits: list[int]) -> int:
    if IS_QUEEN[card]:
        return QUEEN_KIND
    if card != JOKER and SUIT[card] == suits[0]:
        return SUIT_OF_P0
    if card != JOKER and SUIT[card] == suits[1]:
        return SUIT_OF_P1
    return FREE


def _kinds_taken(seat: int, fits: int) -> int:
    """The kinds of cards a slot of ``seat`` may hold, as a mask."""
    kinds = 1 << FREE | 1 << (SUIT_OF_P0 + seat)
    if fits & FITS_QUEEN:
        kinds |= 1 << QUEEN_KIND
    if fits & FITS_RIVAL_SUIT:
        kinds |= 1 << (SUIT_OF_P1 - seat)
    return kinds


def _fillable(slots: list[int], counts: list[int]) -> bool:
    """Whether slots taking these kinds can all be filled from ``counts`` cards of each kind."""
    for kinds in range(1, 16, 2):  # every slot takes a free card: only sets with FREE matter
        needed = sum(1 for taken in slots if taken & ~kinds == 0)
        if needed > sum(counts[k] for k in range(4) if kinds >> k & 1):
            return False
    return True


def _weighted_kind(weights: list[int], rng: random.Random) -> int:
    total = sum(weights)
    if not total:
        return -1
    x = below(rng, total)
    for kind in range(4):
        x -= weights[kind]
        if x < 0:
            return kind
    return -1


def _contradicts_the_marriage(world: CrushTheCrownState) -> bool:
    """A marriage step without deadlock shows a Queen in his hand, the draw or the discard
    pile (CTC-6): a world with none there is not one the seat can be in."""
    if not world.to_move or world.decision != MARRIAGE:
        return False
    return not (
        any(IS_QUEEN[c] for c in world.hands[world.marrying])
        or any(IS_QUEEN[c] for c in world.draw_pile)
        or any(IS_QUEEN[c] for c in world.discard_pile)
    )
