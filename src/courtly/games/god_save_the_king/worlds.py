"""The history of a sampled world: the hidden events filled in so that it replays to the world.

A view's history holds ``HIDDEN`` for every card laid face down that its seat never saw. A world
drawn from the view (:func:`sample_world`) puts cards in the hidden places; its history
must name, for each hidden event, a card that the player held then, such that replaying it
moves every card where the world has it (and every public event stays legal: a card drawn, a
card laid face up, the challenges' answers).

The view's :class:`~.journal.Journal` says where each event's card went. A hidden event whose
card still lies in a formation, a trick pile or the removed area names the world's card there
(*pinned*). One whose card went back into a hand at the end of a hand
(docs/rules/god-save-the-king.md §6) is *free*: which card it was is lost in the merge, and
:func:`fill_history` chooses it by a short search over the hands (a card the player held then,
of the rank a challenge declared, no King carried into a rival's pile, GSK-19), simulating the
hands card by card from the deal (each player holds his suit, §1 and §3) to the world's hands.
What all the worlds of one view share is planned once (:func:`plan_worlds`).

A world the search cannot explain (the seat's knowledge is inexact across hands with 3 or 4
players, see :mod:`.knowledge`) is refused: :func:`sample_world` draws another.
"""

from __future__ import annotations

import random
from typing import Any, Final

from ...core.cards import CARDS, Card
from ...core.draws import choice, shuffle
from ...core.events import CHANCE, HIDDEN
from ...core.persist import fields_of, rebuild
from .components import (
    D_DECLARE,
    D_FORM,
    D_ROUTE,
    KING_OF,
    KING_OWNER,
    MIDDLE,
    RANK,
    GodSaveTheKingAction,
)
from .journal import CHALLENGED, DRAWN, HAND_REMOVED, JOINED_HAND, LEFT_HAND, Journal
from .knowledge import EQ_RANK, Export
from .rules import GodSaveTheKingState

# The steps of a plan: (kind, ordinal, seat, slot).
KNOWN: Final = 0  # a card the view names leaves seat's hand
PINNED: Final = 1  # the card that now lies at a place of the table left seat's hand
FREE: Final = 2  # a card that went back into a hand left seat's hand
JOINED: Final = 3  # the card of that ordinal joins seat's hand (slot: 0)

# Where a pinned card lies: (kind, a, b, c).
IN_FORMATION: Final = 0  # (trick, side, slot)
IN_PILE: Final = 1  # (seat, position, 0)
IN_REMOVED: Final = 2  # (position, 0, 0)

DRAWN_EFFORT: Final = 8
SUITS_DEALT: Final = tuple((1 << 13) - 1 << 13 * seat for seat in range(4))
"""Each seat's hand at the deal, as bits: its suit (§1, §3)."""
SEARCH_SLACK: Final = 16
"""A search gives up after trying this many cards more than twice (eight times, drawing the
history) its choices: a world that can be explained needs about one try per choice, and one that
cannot is better drawn again than searched through."""


class WorldPlan:
    """What every world drawn from one view's copy shares (made once, by :func:`plan_worlds`).

    ``steps`` are the journal's moves of cards out of and into hands, in order; each card that
    leaves a hand has an *ordinal*, which indexes the other lists."""

    __slots__ = (
        "card_walks",
        "drawn_past",
        "events",
        "frees",
        "hands_set_aside",
        "joins",
        "known",
        "next_free",
        "open",
        "pinned",
        "places",
        "rules",
        "slots",
        "steps",
        "wanted",
    )

    def __init__(self) -> None:
        self.steps: list[tuple[int, int, int, int]] = []
        self.events: list[int] = []  # ordinal -> history event (-1: a hand set aside)
        self.slots: list[int] = []  # ordinal -> formation slot, or DRAWN
        self.known: list[int] = []  # ordinal -> the card when the view names it, else -1
        self.places: list[tuple[int, int, int, int]] = []  # ordinal -> where a pinned card lies
        self.open: list[bool] = []  # ordinal -> its place is hidden from the seat
        self.pinned: list[int] = []  # the ordinals of the cards that lie on the table
        self.joins: list[int] = []  # ordinal -> the step at which its card joins a hand, or -1
        self.rules: list[list[tuple[int, int]]] = []  # ordinal -> (kind, rank) of challenges
        self.frees: list[int] = []  # the free steps, in order
        self.next_free: list[int] = []  # step -> the index in frees of the first one after it
        # (step, seat, rank): a card of that rank must leave seat's hand then (a challenge
        # answered "accurate" about a card still to choose).
        self.wanted: list[tuple[int, int, int]] = []
        # The cards a history drawn at random (fill_history with an rng) chose before the
        # current hand (ordinal -> card, -1 for the others): the next one reuses them.
        self.drawn_past: list[int] = []
        # (first position, count, seat) of each hand set aside in the removed area, which is
        # in order there (GSK-24).
        self.hands_set_aside: list[tuple[int, int, int]] = []
        # The plan's steps card by card, for checking search worlds (made on first need; None
        # before, NO_CARD_WALKS where the plan does not allow it): see CardWalks.
        self.card_walks: CardWalks | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        fields = fields_of(self)
        fields.pop("card_walks", None)  # (made again on need)
        return (rebuild, (WorldPlan, (), fields))


def plan_worlds(state: GodSaveTheKingState) -> WorldPlan | None:
    """The plan of the worlds of a view's copy (its history as the seat sees it), or None when
    the copy holds no journal (a scene set up by hand, a copy of a world that did not replay)."""
    source = state._world_source
    if source is None:
        return None
    history = state.history
    pending = set(state.pending_events)
    hidden = {
        i
        for i, (actor, item) in enumerate(history)
        if item is HIDDEN and actor != CHANCE and i not in pending
    }
    places = _places(state, source, hidden)
    entries = source.entries[: source.length]
    rules: dict[int, list[tuple[int, int]]] = {}
    for kind, a, b in entries:
        if kind == CHALLENGED:
            rules.setdefault(a, []).append((b >> 4, b & 15))
    plan = WorldPlan()
    ordinal_of: dict[int, int] = {}
    for kind, a, b in entries:
        if kind == LEFT_HAND:
            ordinal_of[a] = len(plan.events)
            _plan_leave(plan, state, a, b >> 2, b & 3, hidden, places)
            plan.rules[-1] = rules.get(a, [])
        elif kind == JOINED_HAND:
            ordinal = ordinal_of[a]
            plan.joins[ordinal] = len(plan.steps)
            plan.steps.append((JOINED, ordinal, b, 0))
        elif kind == HAND_REMOVED:
            _add_leave(plan, PINNED, -1, b, DRAWN, -1, (IN_REMOVED, a, 0, 0))
            plan.open[-1] = state.removed[a] is HIDDEN
            aside = plan.hands_set_aside
            if aside and aside[-1][0] + aside[-1][1] == a and aside[-1][2] == b:
                aside[-1] = (aside[-1][0], aside[-1][1] + 1, b)
            else:
                aside.append((a, 1, b))
    if any(kind == FREE and plan.joins[o] < 0 for kind, o, _, _ in plan.steps):
        return None  # a hidden card neither on the table nor merged: no history to write
    plan.frees = [at for at, step in enumerate(plan.steps) if step[0] == FREE]
    plan.pinned = [ordinal for kind, ordinal, _, _ in plan.steps if kind == PINNED]
    index = 0
    for at in range(len(plan.steps) + 1):
        while index < len(plan.frees) and plan.frees[index] <= at:
            index += 1
        plan.next_free.append(index)
    for at, (kind, ordinal, seat, _) in enumerate(plan.steps):
        if kind != JOINED and plan.known[ordinal] < 0:
            plan.wanted += [
                (at, seat, rank) for rule, rank in plan.rules[ordinal] if rule == EQ_RANK
            ]
    return plan


def _plan_leave(
    plan: WorldPlan,
    state: GodSaveTheKingState,
    event: int,
    seat: int,
    slot: int,
    hidden: set[int],
    places: dict[int, tuple[int, int, int, int]],
) -> None:
    """The step of a card that left ``seat``'s hand at history event ``event``."""
    if event not in hidden:
        item = state.history[event][1]
        card = item if slot == DRAWN else item.card
        _add_leave(plan, KNOWN, event, seat, slot, int(card), (0, 0, 0, 0))
    elif event in places:
        place = places[event]
        _add_leave(plan, PINNED, event, seat, slot, -1, place)
        plan.open[-1] = _card_at(state, place) is HIDDEN
    else:
        _add_leave(plan, FREE, event, seat, slot, -1, (0, 0, 0, 0))


def _places(
    state: GodSaveTheKingState, source: Journal, hidden: set[int]
) -> dict[int, tuple[int, int, int, int]]:
    """Where the card of each hidden event lies now, when it lies on the table."""
    places: dict[int, tuple[int, int, int, int]] = {}
    for index, t in enumerate(state.tricks):
        for side in (0, 1):
            for k in range(3):
                event = t.placed_at[side][k]
                if event in hidden and t.formations[side][k] is not None:
                    places[event] = (IN_FORMATION, index, side, k)
    for seat, sources in enumerate(source.pile_sources):
        for position, event in enumerate(sources):
            if event in hidden:
                places[event] = (IN_PILE, seat, position, 0)
    for position, event in enumerate(source.removed_sources):
        if event in hidden:
            places[event] = (IN_REMOVED, position, 0, 0)
    return places


def _add_leave(
    plan: WorldPlan,
    kind: int,
    event: int,
    seat: int,
    slot: int,
    card: int,
    place: tuple[int, int, int, int],
) -> None:
    ordinal = len(plan.events)
    plan.events.append(event)
    plan.slots.append(slot)
    plan.known.append(card)
    plan.places.append(place)
    plan.open.append(False)
    plan.joins.append(-1)
    plan.rules.append([])
    plan.steps.append((kind, ordinal, seat, slot))


def _card_at(state: GodSaveTheKingState, place: tuple[int, int, int, int]) -> Any:
    kind, a, b, c = place
    if kind == IN_FORMATION:
        return state.tricks[a].formations[b][c]
    if kind == IN_PILE:
        return state.piles[a][b]
    return state.removed[a]


def _set_card_at(state: GodSaveTheKingState, place: tuple[int, int, int, int], card: Any) -> None:
    kind, a, b, c = place
    if kind == IN_FORMATION:
        state.tricks[a].formations[b][c] = card
    elif kind == IN_PILE:
        state.piles[a][b] = card
    else:
        state.removed[a] = card


# --------------------------------------------------------------------------------- a world


class Search:
    """One world's search: the cards of the plan's ordinals, where each card must be when."""

    __slots__ = (
        "cards",
        "exposed_king_legal",
        "final",
        "hands",
        "limit",
        "nodes",
        "pins",
        "plan",
        "rng",
        "viewer",
    )

    def __init__(
        self,
        plan: WorldPlan,
        final: list[int],
        exposed: bool,
        viewer: int,
        rng: random.Random | None,
    ) -> None:
        self.plan = plan
        self.cards: list[int] = []  # ordinal -> card (-1: to choose)
        self.final = final  # seat -> the hand it must end with, as bits
        self.exposed_king_legal = exposed
        self.viewer = viewer
        self.rng = rng
        """None: the world's cards are the ones to reach. Else only what the seat sees is
        kept: the rest is what a history drawn card by card leaves (see fill_history)."""
        self.nodes = 0
        self.limit = SEARCH_SLACK
        self.hands: list[int] = []  # the hands reached
        # card -> the steps at which it must be in a hand, and whose: (step, seat), in order
        # (step len(steps): the hand it ends in); made when there is a card to choose.
        self.pins: list[list[tuple[int, int]]] = []


def fill_history(
    world: GodSaveTheKingState,
    plan: WorldPlan,
    seat: int | None,
    rng: random.Random | None,
    effort: int = 0,
) -> bool:
    """Name a card in each hidden event of ``world``'s history (as drawn from ``seat``'s view's
    copy) so that it replays to the world; False, changing nothing that matters, if none can.

    Without ``rng`` the world's cards are kept: only a history that leads to them will do. With
    it, only what the seat sees is kept (the table's face-up cards, its own hand): the cards
    hidden from it are what a history drawn card by card at random leaves, which is always
    possible (the truth's is one). :func:`sample_world` falls back on it when the hidden
    cards it drew again and again lead to no history: with 3 or 4 players the seat's knowledge
    may allow cards that no history explains (see :mod:`.knowledge`).

    ``effort`` is how many cards the search may try per card to choose (0: the usual, two when
    the world's cards are kept, eight when the history is drawn)."""
    search = settle_history(world, plan, seat, rng, effort)
    if search is None:
        return False
    name_hidden_events(world, search)
    return True


def settle_history(
    world: GodSaveTheKingState,
    plan: WorldPlan,
    seat: int | None,
    rng: random.Random | None,
    effort: int = 0,
) -> Search | None:
    """:func:`fill_history` but for naming the events: the search for the history, which
    settles the world as fill_history does (the order of a hand set aside, and with ``rng`` the
    cards a drawn history leaves); the search that found it, or None if none can be found.
    (A world for a search alone needs no more: nothing it does reads its past hidden events.)"""
    _order_hands_set_aside(world, plan)
    viewer = -1 if seat is None else seat
    search = Search(
        plan, [_bits(hand) for hand in world.hands], world.tables.exposed_king_legal, viewer, rng
    )
    if not _name_cards(search, world):
        return None
    choices = search.cards.count(-1)
    if choices:
        _pin_cards(search, world)
        tries = effort if effort else 2 if rng is None else DRAWN_EFFORT
        search.limit = tries * choices + SEARCH_SLACK
        if not _may_travel(search, world.num_players):
            return None
    if not _search(search, 0, list(SUITS_DEALT[: world.num_players])):
        return None
    if rng is not None:
        _lay_drawn_history(search, world)
        if not plan.drawn_past:
            _keep_drawn_past(search)
    return search


def _order_hands_set_aside(world: GodSaveTheKingState, plan: WorldPlan) -> None:
    """A hand leaves in its order (GSK-24), which the drawn cards need not be in."""
    removed = world.removed
    for first, count, _ in plan.hands_set_aside:
        _sort_cards(removed, first, first + count)


def name_hidden_events(world: GodSaveTheKingState, search: Search) -> None:
    """Write the cards ``search`` found into the hidden events of ``world``'s history."""
    plan = search.plan
    actions = world.tables.form_actions
    history = world.history
    for ordinal, event in enumerate(plan.events):
        if event >= 0 and plan.known[ordinal] < 0:
            holder = history[event][0]
            history[event] = (holder, actions[plan.slots[ordinal]][search.cards[ordinal]])


def _name_cards(search: Search, world: GodSaveTheKingState) -> bool:
    """Each ordinal's card as far as the view (or, pinned, the world) names it, -1 for those to
    choose; False if the world's card gainsays a challenge's answer."""
    plan = search.plan
    relaxed = search.rng is not None
    cards = search.cards
    cards += plan.drawn_past if relaxed and plan.drawn_past else plan.known
    for ordinal in plan.pinned:
        if not (relaxed and plan.open[ordinal]):
            card = _pinned_card(world, plan, ordinal)
            if card < 0:
                return False
            cards[ordinal] = card
    return True


def _pinned_card(world: GodSaveTheKingState, plan: WorldPlan, ordinal: int) -> int:
    """The card ``world`` has where the pinned ``ordinal``'s card lies, or -1 if there is none
    there or it gainsays a challenge's answer about it."""
    found = _card_at(world, plan.places[ordinal])
    if found is None or found is HIDDEN:
        return -1
    card: int = found
    rules = plan.rules[ordinal]
    # (Most have none: compiled, all() over a generator makes an object per call.)
    if rules and not _obeys(card, rules):
        return -1
    return card


def _pin_cards(search: Search, world: GodSaveTheKingState) -> None:
    """Where each card must be when (see Search.pins)."""
    plan = search.plan
    cards = search.cards
    pins: list[list[tuple[int, int]]] = [[] for _ in range(52)]
    for at, (kind, ordinal, holder, _) in enumerate(plan.steps):
        if kind != JOINED and cards[ordinal] >= 0:
            pins[cards[ordinal]].append((at, holder))
    end = len(plan.steps)
    for holder, hand in enumerate(world.hands):
        if search.rng is None or holder == search.viewer:
            _pin_hand(pins, hand, end, holder)
    search.pins = pins


def _pin_hand(pins: list[list[tuple[int, int]]], hand: list[int], end: int, holder: int) -> None:
    for card in hand:
        pins[card].append((end, holder))


def _keep_drawn_past(search: Search) -> None:
    """Keep the cards a drawn history chose before the current hand, for the next one: the
    past is then settled at once, and only the current hand is drawn (a search through every
    hand is long with 4 players, late in a game)."""
    plan = search.plan
    steps = plan.steps
    current = 0
    for at, step in enumerate(steps):
        if step[0] == JOINED:
            current = at + 1  # (the last merge: the current hand's steps come after it)
    past = list(plan.known)
    for at in range(current):
        kind, ordinal, _, _ = steps[at]
        if kind != JOINED:
            past[ordinal] = search.cards[ordinal]
    plan.drawn_past = past


def _may_travel(search: Search, players: int) -> bool:
    """A quick look before the search: whether every card could go, from its player's hand at
    the deal (§3), through each hand it must be seen in, carried by the free steps between."""
    plan = search.plan
    steps = plan.steps
    for card in range(13 * players):
        holder = card // 13
        since = 0
        for at, seat in search.pins[card]:
            if holder < 0 or not _reaches(plan, holder, since, seat, at):
                return False  # (it lies on the table by then, or cannot get there)
            if at < len(steps):
                join = plan.joins[steps[at][1]]
                holder = steps[join][2] if join >= 0 else -1
                since = join
            else:
                holder = seat
    return True


def _lay_drawn_history(search: Search, world: GodSaveTheKingState) -> None:
    """Put the cards of the history drawn at random where it leaves them (hidden places only)."""
    plan = search.plan
    for holder, bits in enumerate(search.hands):
        if holder != search.viewer:
            world.hands[holder] = [CARDS[c] for c in range(52) if bits >> c & 1]
    for ordinal, place in enumerate(plan.places):
        if plan.open[ordinal]:
            _set_card_at(world, place, CARDS[search.cards[ordinal]])


def _bits(cards: list[int]) -> int:
    bits = 0
    for card in cards:  # (typed int: a compiled build reads a Card as the int it is)
        bits |= 1 << card
    return bits


def _search(search: Search, at: int, hands: list[int]) -> bool:
    """Play the plan's steps from ``at`` on the hands (as bits), choosing the cards not named;
    True when they end as they must (``search.hands``)."""
    steps = search.plan.steps
    cards = search.cards
    exposed = search.exposed_king_legal
    while at < len(steps):
        kind, ordinal, seat, slot = steps[at]
        card = cards[ordinal]
        hand = hands[seat]
        if kind == JOINED:
            hands[seat] = hand | 1 << card
        elif card < 0:
            return _choose(search, at, hands)
        else:
            if not hand >> card & 1:
                return False
            if not exposed and not _may_lay(search, hand, seat, slot, card):
                return False
            hands[seat] = hand & ~(1 << card)
        at += 1
    final = search.final
    if search.rng is None:
        if hands != final:
            return False
    else:
        viewer = search.viewer
        if viewer >= 0 and hands[viewer] != final[viewer]:
            return False
        if any(hands[s] and not final[s] for s in range(len(hands)) if s != viewer):
            return False  # an eliminated player keeps no card
    search.hands = hands
    return True


def _choose(search: Search, at: int, hands: list[int]) -> bool:
    """The card that left a hand at step ``at``: try those its player may have laid there, the
    likeliest first (in a random order when the history is drawn)."""
    plan = search.plan
    _, ordinal, seat, _ = plan.steps[at]
    hand = hands[seat]
    if plan.events[ordinal] < 0:
        # A hand set aside whole (GSK-24): its cards go in order, nothing to choose.
        options = [c for c in range(52) if hand >> c & 1][:1]
    else:
        options = _options(search, at, hand)
    for card in options:
        search.nodes += 1
        if search.nodes > search.limit:
            return False
        search.cards[ordinal] = card
        branch = hands.copy()
        branch[seat] = hand & ~(1 << card)
        if _search(search, at + 1, branch):
            return True
    search.cards[ordinal] = -1
    return False


def _options(search: Search, at: int, hand: int) -> list[int]:
    """The cards of ``hand`` that may have left it at step ``at``, in the order to try them
    (see _choose): first those this move takes where they are next seen, then those seen
    nowhere again, then those that must move on but could later, last those that would have to
    come back. (A card that only this step can carry where it is seen next is the only one.)"""
    plan = search.plan
    _, ordinal, seat, slot = plan.steps[at]
    join = plan.joins[ordinal]
    collector = plan.steps[join][2] if join >= 0 else -1
    rules = plan.rules[ordinal]
    forced = _forced(search, at, seat, hand)
    if forced < 0:
        return []  # more cards must leave this hand than the steps left can carry
    ranked: list[list[int]] = [[], [], [], []]
    for card in range(52):
        if not hand >> card & 1 or (forced and not forced >> card & 1):
            continue
        if not _obeys(card, rules) or not _may_lay(search, hand, seat, slot, card):
            continue
        if KING_OWNER[card] >= 0 and not _king_may_go(plan, ordinal, seat, collector):
            continue
        pin_at, pin_seat = _next_pin(search, card, at)
        if pin_seat < 0:
            # Seen in no hand again: it may end anywhere the seat does not see (drawing the
            # history), but not in its own hand, which only ever holds what it knows.
            if collector < 0 or collector != search.viewer:
                ranked[_rank_wanted(plan, card, at, seat, collector, join)].append(card)
        elif join < 0 or pin_at < join:
            continue  # seen in a hand while it lies on the table
        elif _reaches(plan, collector, join, pin_seat, pin_at):
            if pin_seat == collector:
                ranked[0].append(card)
            else:
                ranked[2 if pin_seat != seat else 3].append(card)
    rng = search.rng
    if rng is not None:
        for cards in ranked:
            shuffle(rng, cards)
    return ranked[0] + ranked[1] + ranked[2] + ranked[3]


def _rank_wanted(plan: WorldPlan, card: int, at: int, seat: int, collector: int, join: int) -> int:
    """The rank (see _options) of a card seen nowhere again: first if the collector must lay a
    card of its rank later (see WorldPlan.wanted), last if its holder must, else second."""
    rank = RANK[card]
    for step, holder, wanted in plan.wanted:
        if wanted == rank and step > at:
            if holder == collector and step > join:
                return 0
            if holder == seat and collector != seat:
                return 3
    return 1


def _forced(search: Search, at: int, seat: int, hand: int) -> int:
    """The cards of ``hand`` of which step ``at`` must carry one, as bits (0: any may stay), or
    -1 if it cannot be done: the cards next seen in another seat's hand, when the later steps
    by ``seat`` that could carry them there in time are fewer than they are."""
    plan = search.plan
    needed: dict[int, tuple[int, int]] = {}  # seat seen next -> (cards, latest step), as bits
    for card in range(52):
        if hand >> card & 1:
            pin_at, pin_seat = _next_pin(search, card, at)
            if pin_seat >= 0 and pin_seat != seat:
                cards, until = needed.get(pin_seat, (0, 0))
                needed[pin_seat] = (cards | 1 << card, max(until, pin_at))
    forced = 0
    for target, (cards, until) in needed.items():
        count = bin(cards).count("1")
        routes = _routes(plan, at, seat, target, until)
        if count > routes + 1:
            return -1
        if count == routes + 1:
            forced = cards if not forced else forced & cards
            if not forced:
                return -1
    return forced


def _routes(plan: WorldPlan, at: int, seat: int, target: int, until: int) -> int:
    """How many free steps by ``seat`` after ``at`` could carry a card into ``target``'s hand
    by step ``until``."""
    steps = plan.steps
    count = 0
    for index in range(plan.next_free[at], len(plan.frees)):
        step = plan.frees[index]
        if step >= until:
            break
        _, ordinal, holder, _ = steps[step]
        join = plan.joins[ordinal]
        if holder == seat and join < until and _reaches(plan, steps[join][2], join, target, until):
            count += 1
    return count


def _king_may_go(plan: WorldPlan, ordinal: int, seat: int, collector: int) -> bool:
    """Whether ``seat``'s King (the only one it may hold) may be the card of this ordinal: laid
    face down and kept from rivals (GSK-19: one found in a rival's pile is shown at once)."""
    if collector >= 0:
        return collector == seat
    kind, a, _, _ = plan.places[ordinal]
    return kind == IN_FORMATION or (kind == IN_PILE and a == seat)


def _obeys(card: int, rules: list[tuple[int, int]]) -> bool:
    """Whether ``card`` agrees with the challenges' answers about it (T6e)."""
    return all((RANK[card] == rank) == (kind == EQ_RANK) for kind, rank in rules)


def _may_lay(search: Search, hand: int, seat: int, slot: int, card: int) -> bool:
    """GSK-5 with exposed_king_legal off: the own King only in the middle, and there when it
    would otherwise be left for the right slot."""
    if search.exposed_king_legal or slot == DRAWN:
        return True
    king = int(KING_OF[seat])
    if slot != MIDDLE:
        return card != king
    if hand >> king & 1 and bin(hand).count("1") == 2:
        return card == king
    return True


def _next_pin(search: Search, card: int, at: int) -> tuple[int, int]:
    """The next step after ``at`` at which ``card`` must be in a hand, and whose (a seat of -1:
    none)."""
    for pin in search.pins[card]:
        if pin[0] > at:
            return pin
    return (len(search.plan.steps) + 1, -1)


def _reaches(plan: WorldPlan, seat: int, since: int, target: int, until: int) -> bool:
    """Whether a card joining ``seat``'s hand at step ``since`` may be in ``target``'s hand by
    step ``until``, carried by free steps (each could be the one that laid it)."""
    if seat == target:
        return True
    steps = plan.steps
    frees = plan.frees
    arrived = [until] * 4
    arrived[seat] = since
    for index in range(plan.next_free[since], len(frees)):
        at = frees[index]
        if at >= until:
            break
        _, ordinal, holder, _ = steps[at]
        if at <= arrived[holder]:
            continue
        join = plan.joins[ordinal]
        if join >= until:
            continue
        collector = steps[join][2]
        if collector == target:
            return True
        if join < arrived[collector]:
            arrived[collector] = join
    return False


# ------------------------------------------------------------------ a world's history, card by card

REPLAYS: Final = 1
DOES_NOT_REPLAY: Final = 0
UNDECIDED: Final = -1


class CardWalks:
    """A plan with no free step, split card by card, to tell whether a history leads to a
    world's cards as :func:`settle_history` (without ``rng``) tells it, but faster.

    With no free step every card leaving a hand is named: by the view (a known step), by the
    table the seat sees (a pinned card it can see), or by the world (a pinned card lying at a
    place hidden from the seat, or in a hand set aside, which the search puts in order first:
    a *drawn* one). The search's walk then only moves bits, each step one card's bit, so it
    splits exactly into one walk per card: where the card is (a set of seats whose hands hold
    it), from its suit's owner (§1), through its steps; a step that takes it from a hand not
    holding it fails; at the end every hand must be the world's. The walks of the cards named
    without the world are made once here; a world only adds the drawn steps of its cards
    (:func:`replays_card_by_card`)."""

    __slots__ = (
        "drawn_ends",
        "drawn_ordinals",
        "drawn_seats",
        "drawn_steps",
        "ends",
        "events",
        "fails",
        "fixed_ends",
        "owners",
        "usable",
    )

    def __init__(self, usable: bool = True) -> None:
        self.usable = usable  # False: the search checks this plan's worlds
        # card -> its fixed steps in order: (step, seat, 1 if it joins the hand else 0)
        self.events: list[list[tuple[int, int, int]]] = [[] for _ in range(52)]
        self.owners: list[int] = [0] * 52  # card -> the seats holding it at the deal, as bits
        self.ends: list[int] = []  # seat -> its hand after the fixed walks, as bits
        self.fails = 0  # the cards whose fixed walk fails, as bits
        self.fixed_ends: list[int] = [-1] * 52  # card -> where its fixed walk ends (-1: fails)
        self.drawn_ordinals: list[int] = []  # the drawn ordinals, in step order
        self.drawn_steps: list[int] = []  # ... the step at which each left a hand
        self.drawn_seats: list[int] = []  # ... and whose
        # drawn index -> card -> where the card ends if it is the one drawn there (its fixed
        # walk with that step too, as _walk_card gives it): every world reads a few of these.
        self.drawn_ends: list[list[int]] = []


NO_CARD_WALKS: Final = CardWalks(usable=False)
"""A plan whose worlds are checked by the search itself (free steps, GSK-5's option, a pinned
card the seat sees that gainsays the rules)."""


def replays_card_by_card(world: GodSaveTheKingState, plan: WorldPlan) -> int:
    """:data:`REPLAYS` if a history leads to ``world``'s cards, :data:`DOES_NOT_REPLAY` if none
    does (what ``settle_history(world, plan, seat, None)`` finds), or :data:`UNDECIDED` where the
    plan is not checked card by card (see CardWalks)."""
    walks = plan.card_walks
    if walks is None:
        walks = plan.card_walks = _card_walks(plan, world)
    if not walks.usable:
        return UNDECIDED
    _order_hands_set_aside(world, plan)  # (as the search does, first)
    ends = walks.ends.copy()
    taken = 0  # the drawn cards, as bits
    drawn_ordinals = walks.drawn_ordinals
    drawn_ends = walks.drawn_ends
    fixed_ends = walks.fixed_ends
    for index in range(len(drawn_ordinals)):
        card = _pinned_card(world, plan, drawn_ordinals[index])
        if card < 0:
            return DOES_NOT_REPLAY
        bit = 1 << card
        if taken & bit:
            return UNDECIDED  # (two places holding one card: left to the search)
        taken |= bit
        end = drawn_ends[index][card]
        if end < 0:
            return DOES_NOT_REPLAY
        fixed_end = fixed_ends[card]
        for seat in range(len(ends)):
            if fixed_end >= 0 and fixed_end >> seat & 1:
                ends[seat] &= ~bit
            if end >> seat & 1:
                ends[seat] |= bit
    if walks.fails & ~taken:
        return DOES_NOT_REPLAY
    hands = world.hands
    for seat in range(len(ends)):
        if ends[seat] != _bits(hands[seat]):
            return DOES_NOT_REPLAY
    return REPLAYS


def _walk_card(events: list[tuple[int, int, int]], holders: int, step: int, seat: int) -> int:
    """Where a card ends (the seats holding it, as bits) after its ``events``, from ``holders``,
    with its leaving ``seat``'s hand at ``step`` too (none if ``step`` < 0); -1 if a step takes
    it from a hand not holding it."""
    pending = step >= 0
    for at, holder, joins in events:
        if pending and step < at:
            if not holders >> seat & 1:
                return -1
            holders &= ~(1 << seat)
            pending = False
        if joins:
            holders |= 1 << holder
        else:
            if not holders >> holder & 1:
                return -1
            holders &= ~(1 << holder)
    if pending:
        if not holders >> seat & 1:
            return -1
        holders &= ~(1 << seat)
    return holders


def _card_walks(plan: WorldPlan, world: GodSaveTheKingState) -> CardWalks:
    """The plan's card walks (read from a world of it: the places the seat sees are the same
    in all), or :data:`NO_CARD_WALKS`."""
    if plan.frees or not world.tables.exposed_king_legal:
        return NO_CARD_WALKS
    walks = CardWalks()
    drawn = plan.open.copy()
    for first, count, _ in plan.hands_set_aside:
        for ordinal in plan.pinned:
            kind, position, _, _ = plan.places[ordinal]
            if kind == IN_REMOVED and first <= position < first + count:
                drawn[ordinal] = True  # (put in order by the search: named by the world)
    cards = plan.known.copy()
    for ordinal in plan.pinned:
        if drawn[ordinal]:
            continue
        card = _pinned_card(world, plan, ordinal)
        if card < 0:
            return NO_CARD_WALKS
        cards[ordinal] = card
    for at, (kind, ordinal, seat, _) in enumerate(plan.steps):
        if drawn[ordinal]:
            if kind != PINNED:
                return NO_CARD_WALKS  # (a drawn card joining a hand: not met, left to the search)
            walks.drawn_ordinals.append(ordinal)
            walks.drawn_steps.append(at)
            walks.drawn_seats.append(seat)
            continue
        card = cards[ordinal]
        if card < 0:
            return NO_CARD_WALKS
        walks.events[card].append((at, seat, 1 if kind == JOINED else 0))
    players = world.num_players
    walks.ends = [0] * players
    for card in range(52):
        owner = card // 13
        holders = 1 << owner if owner < players else 0
        walks.owners[card] = holders
        end = walks.fixed_ends[card] = _walk_card(walks.events[card], holders, -1, 0)
        if end < 0:
            walks.fails |= 1 << card
            continue
        for seat in range(players):
            if end >> seat & 1:
                walks.ends[seat] |= 1 << card
    for index in range(len(walks.drawn_ordinals)):
        step = walks.drawn_steps[index]
        seat = walks.drawn_seats[index]
        walks.drawn_ends.append(
            [_walk_card(walks.events[card], walks.owners[card], step, seat) for card in range(52)]
        )
    return walks


# ----------------------------------------------------------------------------- drawing a world

WORLD_TRIES: Final = 8
"""The worlds drawn for one ``determinize`` before the other players' hands are left to the
history instead (:func:`.worlds.fill_history`; with 2 players the first always has one)."""


LAST_TRIES: Final = 40
LAST_EFFORT: Final = 30
"""How many longer searches write_history makes last, and how many cards per choice each may
try (a search that runs into a dead end is better drawn again than searched through)."""


def sample_world(
    state: GodSaveTheKingState, seat: int | None, rng: random.Random, replayable: bool = True
) -> GodSaveTheKingState:
    """A full state drawn from what ``seat`` knows (``state`` is its view's copy), with the same
    seats to move and the same table as the seat sees it, and a history that replays to it.

    ``replayable=False`` (a world for a search, which only plays on from it) leaves the hidden
    events of the history as they are where the world does not depend on them: with two players
    the first hidden cards drawn always have a history (:data:`WORLD_TRIES`), so the same world
    comes out, with the same draws of ``rng``, without the history's search (the tests hold it
    to that). With more players the history's search still runs, as for a replayable world (it
    is what refuses the worlds no history leads to, and it settles some of the world's cards),
    but the history it finds is not written in: the world keeps its hidden events."""
    know = state._view_knowledge
    assert know is not None
    needs_history = replayable or state.num_players > 2
    plan = state.world_plan
    if needs_history and not isinstance(plan, WorldPlan) and state._world_source is not None:
        plan = state.world_plan = plan_worlds(state)
    world = state._copy(knowledge=False)
    world._view_knowledge = None
    world._world_source = None
    world.world_plan = None
    world._sampled = True
    lay_dealt(world, know, know.deal(rng), seat)
    if (
        needs_history
        and isinstance(plan, WorldPlan)
        and write_history(world, plan, know, seat, rng, replayable)
        and replayable
    ):
        world._partial = False
    # (else no journal, no history found, or none asked for: the world keeps the gaps, and
    # does not replay)
    if world.decision == D_FORM:
        refresh_formation_actions(world, seat)
    elif world.submitted and world.decision in (D_ROUTE, D_DECLARE):
        draw_pending_choices(world, seat, rng)
    return world


def refresh_formation_actions(world: GodSaveTheKingState, seat: int | None) -> None:
    """The other seats' formation actions, from the hands the world gave them."""
    for s in world.to_move:
        if s != seat:
            t = world.tricks[world.trick_of_seat[s]]
            world._legal[s] = world._form_legal(s, t.placed[world.side_of_seat[s]])


def write_history(
    world: GodSaveTheKingState,
    plan: WorldPlan,
    know: Export,
    seat: int | None,
    rng: random.Random,
    named: bool = True,
) -> bool:
    """Fill in the hidden events of ``world``'s history (:func:`fill_history`), drawing
    the hidden cards again while no history leads to them (rejection keeps the worlds uniform
    among those that have one); then leaving the other hands to a history drawn at random
    (which reads none of the drawn cards: nothing to draw again for it). Not ``named``: the same
    world, from the same draws, but its history's hidden events are left as they are."""
    for attempt in range(WORLD_TRIES):
        if attempt:
            lay_dealt(world, know, know.deal(rng), seat)
        if _settled(world, plan, seat, None, 0, named):
            return True
    for _ in range(WORLD_TRIES):
        if _settled(world, plan, seat, rng, 0, named):
            return True
    # (Rare: a long game whose drawn histories ran into dead ends; longer searches settle it.)
    return any(_settled(world, plan, seat, rng, LAST_EFFORT, named) for _ in range(LAST_TRIES))


def _settled(
    world: GodSaveTheKingState,
    plan: WorldPlan,
    seat: int | None,
    rng: random.Random | None,
    effort: int,
    named: bool,
) -> bool:
    if rng is None and not named:
        # Only whether a history leads to the world's cards is wanted: card by card when the
        # plan allows it (the same answer as the search's, which settles nothing here).
        verdict = replays_card_by_card(world, plan)
        if verdict != UNDECIDED:
            return verdict == REPLAYS
    search = settle_history(world, plan, seat, rng, effort)
    if search is None:
        return False
    if named:
        name_hidden_events(world, search)
    return True


def lay_dealt(
    world: GodSaveTheKingState, know: Export, dealt: list[list[Card]], seat: int | None
) -> None:
    """Put the cards ``know`` dealt (:meth:`.Export.deal`) in the hidden places; the other
    hands in order, as in a real game."""
    hands = world.hands
    for gi in range(len(dealt)):
        cards = dealt[gi]
        codes = know.place_codes[gi]
        for j in range(len(cards)):
            code = codes[j]
            kind = code & 3
            a = code >> 2 & 255
            b = code >> 10 & 255
            if kind == 0:
                hands[a][b] = cards[j]
            elif kind == 1:
                world.tricks[a].formations[b][code >> 18] = cards[j]
            elif kind == 2:
                world.piles[a][b] = cards[j]
            else:
                world.removed[a] = cards[j]
    for s in range(len(hands)):
        if s != seat:
            _sort_cards(hands[s])


def _sort_cards(hand: list[int], start: int = 0, end: int = -1) -> None:
    """``hand.sort()`` for distinct cards, by their bits (compiled, a sort compares cards through
    the generic comparison); only ``hand[start:end]`` if given, in place."""
    if end < 0:
        end = len(hand)
    bits = 0
    for at in range(start, end):
        card: int = hand[at]
        bits |= 1 << card
    # (Read once: compiled, a name imported from a module that is not compiled is looked up in
    # the module's dict at each use.)
    cards: tuple[Card, ...] = CARDS
    at = start
    index = 0
    while bits:
        if bits & 1:
            hand[at] = cards[index]
            at += 1
        bits >>= 1
        index += 1


def draw_pending_choices(world: GodSaveTheKingState, seat: int | None, rng: random.Random) -> None:
    """The secret choices the other seats have already made at this simultaneous point, drawn
    afresh, each into its placeholder event of the history too.

    Each is drawn uniformly from that seat's legal choices: a simplification (the seat cannot
    see them, and nothing it can see says which is likelier), which keeps the world inside its
    information set: the same seats to move, the same table."""
    legal = world.tables.route_legal if world.decision == D_ROUTE else world.tables.declare_legal
    history = world.history
    for index in world.pending_events:
        s = history[index][0]
        if s != seat and world.pending_choices[s] is None:
            drawn = choice(rng, legal)
            assert isinstance(drawn, GodSaveTheKingAction)
            world.pending_choices[s] = drawn
            history[index] = (s, drawn)
