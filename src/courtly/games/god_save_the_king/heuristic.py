"""A God Save The King bot that keeps its King out of harm's way and counts the rivals' cards.

* Formation: the King stays in hand whenever three other cards are there (a hand card is only
  exposed to blind draws); when it must be played it goes in the middle, behind the two
  strongest cards. Otherwise the two strongest cards go outside (decisive wins bring cards and,
  now and then, a rival's King hidden in his middle card) and the middle holds a card worth
  declaring honestly.
* Routes: only when the probability that the rival's face-down card is his King (from what the
  seat knows: :func:`.views.probability_at`) outweighs the risk of the blind draw
  a failed route costs, and never in a trick already won (its middle card is coming anyway).
* Declarations: the middle card's true rank when that is safe; the highest rank when the King
  itself is at stake (a lost blind skirmish would hand it to the rival), or when a bluff risks
  nothing because the King is not in hand.
* Challenges: weighed the same way: the chance that the declaration was false (and a card drawn
  from the winner's hand is his King) against the chance that it was true (and a card drawn
  from ours is our King).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from ...core.actions import Action
from ...core.cards import ACE, KING, QUEEN, Card
from ...core.draws import choice
from ...core.game import Game, State, View, known_state
from .components import (
    D_CHALLENGE,
    D_DECLARE,
    D_FORM,
    D_ROUTE,
    KING_OF,
    MIDDLE,
    RANK,
    ROUTE,
    GodSaveTheKingAction,
)
from .rules import GodSaveTheKingState
from .views import probability_at, probability_in_hand, rank_probability_at


class GodSaveTheKingHeuristic:
    """``heuristic`` (options: ``route_at``, the least probability of a King worth a route)."""

    rollout_depth: ClassVar[int] = 0
    """ISMCTS rollouts play to the end (the game is short enough)."""
    informed_worlds: ClassVar[bool] = False
    """No informed world sampler: :meth:`sample_world` is ``view.determinize``."""

    def __init__(self, game: Game, route_at: float = 0.3, bluff_mix: float = 0.1) -> None:
        self.game = game
        self.route_at = float(route_at)
        self.bluff_mix = float(bluff_mix)

    def sample_world(self, view: View, rng: random.Random) -> State:
        """A world for search: uniform over what ``view`` allows (see core.bots.SearchHooks)."""
        return view.determinize(rng)

    def act(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = known_state(view)
        assert isinstance(state, GodSaveTheKingState)
        seat = view.seat
        assert seat is not None
        decision = state.decision
        if decision == D_FORM:
            return self._form(state, seat, legal, rng)
        if decision == D_ROUTE:
            return self._route(state, seat, legal, rng)
        if decision == D_DECLARE:
            return self._declare(state, seat, legal, rng)
        if decision == D_CHALLENGE:
            return self._challenge(state, seat, legal)
        return choice(rng, legal)  # pragma: no cover - no other decision exists

    def evaluate(self, state: State) -> list[float]:
        """A rough chance to win for each seat: the still active, weighted by cards held."""
        assert isinstance(state, GodSaveTheKingState)
        if state.is_terminal:
            return state.returns()
        weights = [
            (1.0 + 0.05 * (len(state.hands[s]) + len(state.piles[s]))) if state.active[s] else 0.0
            for s in range(state.num_players)
        ]
        total = sum(weights)
        return [w / total for w in weights]

    # --------------------------------------------------------------------- formation

    def _form(
        self, state: GodSaveTheKingState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        t = state.tricks[state.trick_of_seat[seat]]
        side = state.side_of_seat[seat]
        placed = [c for c in t.formations[side] if c is not None]
        left, middle, right = self.plan_formation(list(state.hands[seat]) + placed, seat, state)
        slot = len(placed)
        if slot == 0:
            # Which of the two outside cards meets which of the rival's is a coin toss to this
            # bot (it cannot see his): the rng decides, so that it opens differently each game.
            want = left if rng.random() < 0.5 else right
        elif slot == 1:
            want = middle
        else:
            want = right if left in placed else left
        fallback = legal[0]
        for a in legal:
            if isinstance(a, GodSaveTheKingAction):
                if a.card == want:
                    return a
                if a.card != KING_OF[seat]:
                    fallback = a
        return fallback  # the plan does not fit (should not happen): never the King

    def plan_formation(
        self, cards: Sequence[Card], seat: int, state: GodSaveTheKingState
    ) -> tuple[Card, Card, Card]:
        """The (left, middle, right) this bot plays from ``cards`` (its hand before forming)."""
        king = KING_OF[seat]
        # A total order (rank, then card), so the plan is the same at every step.
        others = sorted((c for c in cards if c != king), key=lambda c: (RANK[c], c), reverse=True)
        if king in cards and len(others) < 3:
            # The King must be played: in the middle, behind the two best cards.
            best = others[:2]
            return (best[0], king, best[1])
        top = others[:2]
        rest = others[2:]
        # The middle: a high card when one is to spare (an honest high declaration wins a
        # push), else the lowest (it may be lost).
        spare_high = [c for c in rest if RANK[c] >= QUEEN]
        middle = spare_high[0] if spare_high and len(rest) > 3 else rest[-1]
        return (top[0], middle, top[1])

    # --------------------------------------------------------------------- routes

    def _route(
        self, state: GodSaveTheKingState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        index = state.current_trick
        t = state.tricks[index]
        side = t.seats.index(seat)
        rival = t.seats[1 - side]
        target = 1 - side
        passing = next(a for a in legal if a.text == "pass")
        if t.skirmish_result == side:
            return passing  # the trick is ours: its middle card comes to us anyway
        best: list[Action] = []
        best_p = 0.0
        for a in legal:
            if not isinstance(a, GodSaveTheKingAction) or a.kind != ROUTE:
                continue
            slot = a.slot
            if t.face_up[target][slot]:
                continue
            p = probability_at(state, seat, ("f", index, target, slot), KING_OF[rival])
            if p > best_p:
                best_p, best = p, [a]
            elif p == best_p and best:
                best.append(a)  # equally likely places: the rng picks one
        risk = self._draw_risk(state, seat)
        if best and best_p >= max(self.route_at, 2.0 * risk):
            return best[0] if len(best) == 1 else choice(rng, best)
        return passing

    def _draw_risk(self, state: GodSaveTheKingState, seat: int) -> float:
        """The chance that one card drawn blindly from our hand is our King."""
        hand = state.hands[seat]
        if not hand or KING_OF[seat] not in hand:
            return 0.0
        return 1.0 / len(hand)

    # --------------------------------------------------------------------- blind skirmish

    def _declare(
        self, state: GodSaveTheKingState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        t = state.tricks[state.current_trick]
        side = t.seats.index(seat)
        middle = t.formations[side][MIDDLE]
        rank = RANK[middle]
        # A fixed declaration is read by a rival who reasons alike: two such players declare the
        # same rank, declare again, tie and void every push (GSK-7) until the safety cap. So the
        # bot mixes: now and then it bluffs higher, or shades its "Ace" to a King or Queen.
        mix = rng.random() < self.bluff_mix
        if middle == KING_OF[seat] or self._draw_risk(state, seat) == 0.0 or rank == ACE:
            rank = ACE  # the King is at stake, or a bluff costs nothing
            if mix:
                rank = choice(rng, (KING, QUEEN))
        elif mix:
            rank = rng.randint(rank + 1, ACE)  # a bluff: a challenge may cost a card
        return _declaration(legal, rank)

    def _challenge(self, state: GodSaveTheKingState, seat: int, legal: Sequence[Action]) -> Action:
        index = state.current_trick
        t = state.tricks[index]
        side = t.blind_winner
        winner = t.seats[side]
        challenge = next(a for a in legal if a.text == "challenge")
        passing = next(a for a in legal if a.text == "pass")
        declared = t.declared[side]
        if t.face_up[side][MIDDLE]:
            accurate = 1.0 if RANK[t.formations[side][MIDDLE]] == declared else 0.0
        else:
            accurate = rank_probability_at(state, seat, ("f", index, side, MIDDLE), declared)
        hand = [c for c in state.hands[winner]]
        their_king = (
            probability_in_hand(state, seat, winner, KING_OF[winner]) / len(hand) if hand else 0.0
        )
        gain = (1.0 - accurate) * (their_king + 0.02)
        loss = accurate * (self._draw_risk(state, seat) + 0.02)
        return challenge if gain > loss else passing


def _declaration(legal: Sequence[Action], rank: int) -> Action:
    for a in legal:
        if isinstance(a, GodSaveTheKingAction) and a.rank == rank:
            return a
    return legal[-1]
