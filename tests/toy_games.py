"""A tiny game that exists only for the tests: sealed bids on secret cards.

Royal Gambit has no simultaneous decisions and nothing hidden at a decision point, so the
contract's machinery for both is exercised here: each player is dealt one secret card (chance
events), then all players bid 0, 1 or 2 at once, for ``rounds`` rounds; bids are revealed when
the last one is in. The highest total bid wins, ties broken by the highest card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from courtly.core import (
    Action,
    Card,
    Game,
    GameInfo,
    GameLength,
    GameText,
    GameViews,
    Option,
    State,
    parse_cards,
    seat_text,
)
from courtly.core.actions import SEAT_OUTCOMES
from courtly.core.cards import cards_text
from courtly.core.events import CHANCE, HIDDEN, PUBLIC, Line

DECK = tuple(parse_cards("2H 3H 4H 5H 6H 7H"))


class SealedBidsState(State):
    __slots__ = ("bids", "cards", "pending", "round", "spent", "submitted")

    def __init__(self, game: Game, blank: bool = False) -> None:
        super().__init__(game, blank)
        n = game.num_players
        self.cards: list[Card | None] = [None] * n
        self.spent = [0] * n
        self.pending: dict[int, Action] = {}  # bids submitted in the current round, unrevealed
        self.submitted: frozenset[int] = frozenset()  # who has bid this round: public
        self.bids: list[list[int]] = []  # revealed bids, one list per finished round
        self.round = 0
        self.is_chance = True

    def _next_to_deal(self) -> int:
        return self.cards.index(None)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        left = [c for c in DECK if c not in self.cards]
        return [(c, 1 / len(left)) for c in left]

    def _apply_chance(self, outcome: Any) -> None:
        receiver = self._next_to_deal()
        self._keep_secret(1 << receiver)  # a dealt card is seen by its receiver alone
        self.cards[receiver] = outcome
        if None not in self.cards:
            self.is_chance = False
            self.to_move = tuple(range(self.num_players))

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self.game.actions if seat in self.to_move else ()

    def _apply(self, seat: int, action: Action) -> None:
        self._keep_secret(1 << seat)  # a bid is secret until the last one is in
        self.pending[seat] = action
        self.submitted = self.submitted | {seat}
        self.to_move = tuple(s for s in self.to_move if s != seat)
        if self.to_move:
            return
        bids = [self.pending[s].id for s in range(self.num_players)]
        for index in [i for i, (actor, _) in enumerate(self.history) if actor != CHANCE]:
            self._reveal_event(index)
        self._reveal_event(len(self.history))  # the last bid, being applied
        self.bids.append(bids)
        for s, bid in enumerate(bids):
            self.spent[s] += bid
        self.pending = {}
        self.submitted = frozenset()
        self.round += 1
        if self.round == self.game.options["rounds"]:
            self.is_terminal = True
        else:
            self.to_move = tuple(range(self.num_players))

    def returns(self) -> list[float]:
        if not self.is_terminal:
            return [0.0] * self.num_players
        keys = [(self.spent[s], int(self.cards[s] or 0)) for s in range(self.num_players)]
        best = max(keys)
        winners = [s for s, k in enumerate(keys) if k == best]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(self.num_players)]

    def clone(self) -> SealedBidsState:
        other = SealedBidsState(self.game, blank=True)
        self._clone_base(other)
        other.cards = self.cards.copy()
        other.spent = self.spent.copy()
        other.pending = self.pending.copy()
        other.bids = [b.copy() for b in self.bids]
        other.round = self.round
        other.submitted = self.submitted
        return other


class SealedBidsViews(GameViews):
    """The information boundary: a seat knows its own card, not others' cards or pending bids."""

    def secret_cards(self, state: State, seat: int | None) -> frozenset[Card]:
        assert isinstance(state, SealedBidsState)
        if state.is_terminal:
            return frozenset()
        return frozenset(c for s, c in enumerate(state.cards) if c is not None and s != seat)

    def redacted(self, state: State, seat: int | None) -> State:
        assert isinstance(state, SealedBidsState)
        copy = state.clone()
        if not state.is_terminal:
            copy.cards = [c if s == seat else None for s, c in enumerate(state.cards)]
        # Others' submitted bids are unknown: that they bid is public (``submitted``), not what.
        copy.pending = {s: a for s, a in state.pending.items() if s == seat}
        return copy

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        assert isinstance(state, SealedBidsState)
        full = state.clone()
        unknown = [c for c in DECK if c not in full.cards]
        rng.shuffle(unknown)
        full.cards = [c if c is not None else unknown.pop() for c in full.cards]
        # The bids made but unseen are drawn too, so the world waits for the same seats.
        for s in state.submitted:
            if s not in full.pending:
                full.pending[s] = rng.choice(state.game.actions)
        # Its history tells the same story (it replays to it): the deal, the bids drawn.
        history = full.history
        deals = [i for i, (actor, _) in enumerate(history) if actor == CHANCE]
        for s, index in enumerate(deals):
            history[index] = (CHANCE, full.cards[s])
        for index, (actor, item) in enumerate(history):
            if actor != CHANCE and item is HIDDEN:
                history[index] = (actor, full.pending[actor])
        full._partial = False
        return full

    def observation(self, state: State, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, SealedBidsState)
        own = state.cards[seat] if seat is not None else None
        return {
            "round": state.round,
            "my_card": None if own is None else str(own),
            "cards": [str(c) for c in state.cards] if state.is_terminal else None,
            "revealed_bids": [list(b) for b in state.bids],
            "waiting_for": [
                seat_text(s) for s in range(state.num_players) if s not in state.submitted
            ]
            if not state.is_chance and not state.is_terminal
            else [],
            "my_pending_bid": str(state.pending[seat]) if seat in state.pending else None,
        }


class SealedBidsText(GameText):
    def render(self, state: State, seat: int | None) -> str:
        assert isinstance(state, SealedBidsState)
        own = state.cards[seat] if seat is not None else None
        shown = cards_text(c for c in state.cards if c is not None) if state.is_terminal else own
        return f"round {state.round}; card {shown}; bids {state.bids}"

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        if actor == CHANCE:
            return []
        # A bid is secret: its bidder reads it, the others that a bid was made.
        mine = 1 << actor
        return [
            (mine, f"{seat_text(actor)} bids {item}"),
            (PUBLIC & ~mine, f"{seat_text(actor)} bids"),
        ]


class SealedBids(Game):
    info = GameInfo(
        id="test-sealed-bids",
        title="Sealed Bids (test only)",
        min_players=2,
        max_players=3,
        summary="Secret cards, simultaneous bids.",
        text=SealedBidsText(),
        views=SealedBidsViews(),
        options=(Option("rounds", 2, "bidding rounds", minimum=1, maximum=5),),
        rules="Test game.",
        default_bot="random",  # it has no heuristic
        simultaneous=True,
        hidden_information=True,
        # A card dealt to each seat, then every seat bids once a round.
        longest_game=lambda game: GameLength(
            decisions=game.num_players * int(game.options["rounds"]), chance=game.num_players
        ),
    )

    def _build_actions(self) -> tuple[Action, ...]:
        return tuple(Action(i, f"bid {i}") for i in range(3))

    def _build_chance_outcomes(self) -> tuple[Any, ...]:
        return DECK

    def new_state(self) -> State:
        return SealedBidsState(self)


__all__ = ["SEAT_OUTCOMES", "SealedBids"]
