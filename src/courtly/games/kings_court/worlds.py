"""The worlds a seat of King's Court cannot tell apart: :func:`determinize` deals the cards a
view's copy (:func:`.views.redacted`) cannot place back into the places they may be (each hidden
slot a card drawn uniformly from those of its epoch still to place; the rest make the draw
pile), and fills in the history too, so that a world is a proper state: its history replays to
it, draw by draw.

Filling the history. Every card leaves a hand in public, and a hand only ever grows by draws, so
for each other seat the cards it drew in an epoch are exactly the cards of that epoch it has
played, lost to a Queen, thrown away to a King or to the hand limit (KC-21) since, and the cards
of that epoch it holds now.
Which draw brought which card is a matching of draws to those cards: a card must be drawn before
it leaves the hand, a card the seat remembers from its last look before that look, and a card it
does not know after it. The earliest-deadline-first matching (each draw, in order, to the waiting
card that must leave the hand soonest) finds one whenever one exists, and one does: the true
history. The unknown cards held now are interchangeable for that matching, so a plan made once
per view serves every world drawn from it (:class:`WorldPlan`), and a world costs the same as
before the history was filled: a search draws hundreds of worlds from one view.

The third seats' memories of a world follow from its history: a card is remembered by a seat
that looked at the hand after it was drawn. The matching draws the cards held now as late as it
can, so these memories are the smallest the public record allows (the public floor, or what this
seat vouches for: a seat that looked after it saw every card it still remembers).
"""

from __future__ import annotations

import random
from typing import Any

from ...core.cards import CARDS, KING, QUEEN
from ...core.draws import below
from ...core.events import CHANCE, HIDDEN, Event
from ...core.persist import fields_of, rebuild
from .components import BORROW, CARD_BIT, DISCARD, PLAY, RANK, KingsCourtAction, slot_epoch
from .rules import KingsCourtState

DRAWN: tuple[Event, ...] = tuple((CHANCE, card) for card in CARDS[:52])
"""The history entry of each card's draw: a filled-in world writes these."""

BEFORE_EVERYTHING = -1
"""The draw of a card a state holds without any draw in its history (a scene set up by hand)."""


class WorldPlan:
    """What every world drawn from one view's copy shares (made once, by :func:`plan_worlds`).

    ``history`` is the copy's history with every hidden draw filled in but those of the unknown
    cards held now; ``slot_draws[seat]`` gives, for each hidden slot of that seat's hand in
    order, the index of the draw that brought its card (:data:`BEFORE_EVERYTHING` if none).
    """

    def __init__(self) -> None:
        self.history: list[Event] = []
        self.complete = True
        """False for a scene set up by hand, whose hands no history explains: its worlds keep
        the gaps (and do not replay), like the scene itself."""
        self.slot_draws: list[list[int]] = []
        self.drawn_at: list[int] = [BEFORE_EVERYTHING] * 52
        """The draw of each card this seat knows in another's hand."""
        self.looks: list[tuple[int, int, int]] = []
        """``(memory index, target, look)`` of each memory this seat does not know."""
        self.pools: dict[int, list[int]] = {}
        """The owned cards this seat cannot place, by epoch."""
        self.unowned: list[int] = []
        """The cards of nobody's suit still in the draw pile (prefilter_unused_suits=false)."""
        self.placed = 0
        """The cards whose place this seat knows, as bits."""
        self.pile_order: list[int] = []
        """The draw pile as it was formed (its order), for the world's pile to be the one its
        history builds."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (WorldPlan, (), fields_of(self)))


def determinize(state: KingsCourtState, seat: int | None, rng: random.Random) -> KingsCourtState:
    """A world ``seat`` cannot tell from the truth (called on its view's copy): the cards it
    cannot place dealt uniformly into the places they may be, each into a hidden slot or pile of
    its own epoch, and the history filled in to match (see the module's docstring)."""
    if state.is_terminal:
        return state.clone()
    plan = state.world_plan
    if not isinstance(plan, WorldPlan):
        plan = plan_worlds(state, seat)
        state.world_plan = plan
    # The world starts from the plan's history: the copy's own is left as the view sees it.
    seen_history = state.history
    state.history = plan.history
    try:
        world = state.clone()
    finally:
        state.history = seen_history
    world._partial = not plan.complete
    pools = {epoch: pool.copy() for epoch, pool in plan.pools.items()}
    drawn_at = plan.drawn_at.copy() if plan.looks else plan.drawn_at
    taken = plan.placed
    for other in range(state.num_players):
        if plan.slot_draws[other]:
            taken |= _deal_hand(state, plan, world, other, pools, drawn_at, rng)
    _form_pile(state, plan, world, pools, taken)
    for index, target, look in plan.looks:
        memory = 0
        for card in world.hands[target]:
            if drawn_at[card] < look:
                memory |= CARD_BIT[card]  # drawn before the look, never out of the hand since
        world.memories[index] = memory
    world._refresh_legal()
    return world


def _deal_hand(
    state: KingsCourtState,
    plan: WorldPlan,
    world: KingsCourtState,
    other: int,
    pools: dict[int, list[int]],
    drawn_at: list[int],
    rng: random.Random,
) -> int:
    """Fill the hidden slots of ``other``'s hand in ``world``, each with a card drawn uniformly
    from those of its epoch still to place, written into the draw that brought it; returns the
    cards dealt, as bits."""
    draws = plan.slot_draws[other]
    history = world.history
    hand: list[int] = []
    dealt = 0
    slot = 0
    for card in state.hands[other]:
        if card < 0:
            pool = pools[slot_epoch(card)]
            index = below(rng, len(pool))
            card = pool[index]
            pool[index] = pool[-1]
            pool.pop()
            draw = draws[slot]
            slot += 1
            if draw >= 0:
                history[draw] = DRAWN[card]
            if plan.looks:
                drawn_at[card] = draw
            dealt |= CARD_BIT[card]
        hand.append(card)
    hand.sort()
    world.hands[other] = hand
    return dealt


def _form_pile(
    state: KingsCourtState,
    plan: WorldPlan,
    world: KingsCourtState,
    pools: dict[int, list[int]],
    taken: int,
) -> None:
    """The cards left to place make the draw pile, in the order its history gives it."""
    leftover = pools.pop(state.epoch, []) + plan.unowned
    assert not any(pools.values()), "every unknown card of a past epoch is in a hand"
    pile = [c for c in plan.pile_order if not taken & CARD_BIT[c]]
    world.draw_pile = pile if len(pile) == len(leftover) else leftover  # else: a scene by hand


def plan_worlds(state: KingsCourtState, seat: int | None) -> WorldPlan:
    """Read the history of ``seat``'s view once: who drew when, and which cards left which hand
    when; then match each other seat's draws to its cards (see the module's docstring)."""
    plan = WorldPlan()
    plan.history = list(state.history)
    reading = HistoryReading(state)
    plan.pile_order = reading.pile_order
    plan.slot_draws = [[] for _ in range(state.num_players)]
    for other in range(state.num_players):
        if other != seat:
            _match_draws(state, seat, other, reading, plan)
    _plan_unknown_cards(state, seat, plan)
    return plan


def _match_draws(
    state: KingsCourtState, seat: int | None, other: int, reading: HistoryReading, plan: WorldPlan
) -> None:
    """Match ``other``'s draws of each epoch to the cards they brought (earliest deadline first:
    the first draws to the cards due soonest, the last to the unknown cards held now)."""
    n = state.num_players
    my_look = -1 if seat is None else state.looked_at[seat * n + other]
    # What each epoch's draws must account for: cards with a deadline (gone from the hand since,
    # or remembered by this seat from its last look), and the hidden slots.
    due: dict[int, list[tuple[int, int, bool]]] = {}
    slots: dict[int, list[int]] = {}
    for index, card, epoch in reading.departures[other]:
        due.setdefault(epoch, []).append((index, card, False))
    hand = state.hands[other]
    for position, card in enumerate(hand):
        if card >= 0:
            due.setdefault(state.epoch_of[card], []).append((my_look, card, True))
        else:
            slots.setdefault(slot_epoch(card), []).append(position)
    draws = reading.draws[other]
    slot_draws = [BEFORE_EVERYTHING] * len(hand)
    for epoch in set(due) | set(slots) | set(draws):
        drawn = draws.get(epoch, [])
        waiting = sorted(due.get(epoch, []))
        unknown = slots.get(epoch, [])
        missing = len(waiting) + len(unknown) - len(drawn)
        if missing:
            plan.complete = False  # a scene set up by hand: cards no draw explains
            drawn = [BEFORE_EVERYTHING] * missing + drawn if missing > 0 else drawn[-missing:]
        for (_deadline, card, held), draw in zip(waiting, drawn, strict=False):
            if draw >= 0:
                plan.history[draw] = DRAWN[card]
            if held:
                plan.drawn_at[card] = draw
        for position, draw in zip(unknown, drawn[len(waiting) :], strict=True):
            slot_draws[position] = draw
    plan.slot_draws[other] = [slot_draws[p] for p, card in enumerate(hand) if card < 0]


class HistoryReading:
    """One reading of a view's history: each seat's hidden draws by epoch, each seat's departures
    ``(event, card, epoch of the card)``, and the current draw pile's order when it was formed.

    Everything it reads is public or the viewer's: draws hidden from it (their drawer is declared
    with them), plays, borrows and discards (KC-21), the hands Kings threw away, and when the
    reshuffles came.
    """

    def __init__(self, state: KingsCourtState) -> None:
        n = state.num_players
        self.draws: list[dict[int, list[int]]] = [{} for _ in range(n)]
        self.departures: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        self.pile_order: list[int] = list(state.tables.deck)
        self.epoch = 0
        self.epoch_of = [0] * 52
        self.discard: list[int] = []
        self.kings = 0
        self.queen_target = -1
        reshuffles = state.reshuffles
        secret = state.secrets.knowers
        for index, (actor, item) in enumerate(state.history):
            if actor != CHANCE:
                self._play(state, index, actor, item)
            elif item is HIDDEN:
                drawer = secret.get(index, 0).bit_length() - 1
                if 0 <= drawer < n:
                    self.draws[drawer].setdefault(self.epoch, []).append(index)
            if self.epoch < len(reshuffles) and index == reshuffles[self.epoch]:
                self._reshuffle()

    def _play(self, state: KingsCourtState, index: int, actor: int, item: Any) -> None:
        action = item
        assert isinstance(action, KingsCourtAction)
        if action.kind == DISCARD:
            # KC-21: a card thrown away over the hand limit leaves its hand face up.
            self.departures[actor].append((index, action.card, self.epoch_of[action.card]))
            self.discard.append(action.card)
            return
        if action.kind not in (PLAY, BORROW):
            return
        card = action.card
        holder = actor if action.kind == PLAY else self.queen_target
        if holder >= 0:
            self.departures[holder].append((index, card, self.epoch_of[card]))
        self.discard.append(card)
        rank = RANK[card]
        if rank == KING and self.kings < len(state.king_discards):
            thrown = state.king_discards[self.kings]
            self.kings += 1
            epoch_of = self.epoch_of
            self.departures[action.target] += [(index, c, epoch_of[c]) for c in thrown]
            self.discard += thrown
        elif rank == QUEEN:
            self.queen_target = action.target

    def _reshuffle(self) -> None:
        self.epoch += 1
        for card in self.discard:
            self.epoch_of[card] = self.epoch
        self.pile_order = self.discard
        self.discard = []


def _plan_unknown_cards(state: KingsCourtState, seat: int | None, plan: WorldPlan) -> None:
    """The cards ``seat`` cannot place, by epoch, and the memories it must draw for the world."""
    n = state.num_players
    owner = state.tables.owner
    epoch_of = state.epoch_of
    placed = 0
    for hand in state.hands:
        for card in hand:
            if card >= 0:
                placed |= CARD_BIT[card]
    for card in state.discard_pile:
        placed |= CARD_BIT[card]
    for card in state.removed:
        placed |= CARD_BIT[card]
    plan.placed = placed
    for card in state.tables.deck:
        if not placed & CARD_BIT[card]:
            if owner[card] < 0:
                plan.unowned.append(card)  # only ever in the draw pile
            else:
                plan.pools.setdefault(epoch_of[card], []).append(card)
    for looker in range(n):
        for target in range(n):
            if looker in (target, seat) or target == seat:
                continue
            look = state.looked_at[looker * n + target]
            if look >= 0:
                plan.looks.append((looker * n + target, target, look))
