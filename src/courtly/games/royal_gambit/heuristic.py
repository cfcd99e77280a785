"""A Royal Gambit bot that counts cards.

Every flipped card is public and the deck is reshuffled each hand, so the deck's remaining ranks
are known exactly: the bot weighs the chance that the next card busts it against what a safe
card adds, adjusted for where the game stands (a final hand it must win, a lead to protect).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import ClassVar

from ...core.actions import Action
from ...core.cards import ACE, JACK, KING, QUEEN
from ...core.draws import choice
from ...core.game import Game, State, View, known_state
from .components import (
    ACTIVE,
    FINAL,
    GIVE_SEVEN,
    HIT_OR_STAY,
    KING_BIT,
    QUEEN_BIT,
    TIEBREAK,
    RoyalGambitAction,
)
from .rules import RoyalGambitState

RANK_POINTS = (0, 0, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 1)
"""Points of a rank (index 2..14): A = 1, 2-5 face value (RG-4)."""


class RoyalGambitHeuristic:
    """Hit while the expected gain of a card beats the expected loss of a bust."""

    rollout_depth: ClassVar[int] = 0
    """ISMCTS rollouts play to the end (the game is short enough)."""
    informed_worlds: ClassVar[bool] = False
    """No informed world sampler: :meth:`sample_world` is ``view.determinize``."""

    def __init__(self, game: Game, caution: float = 1.0) -> None:
        self.caution = caution

    def sample_world(self, view: View, rng: random.Random) -> State:
        """A world for search: uniform over what ``view`` allows (see core.game.SearchHooks)."""
        return view.determinize(rng)

    def act(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = known_state(view)
        assert isinstance(state, RoyalGambitState)
        seat = view.seat
        assert seat is not None
        first = legal[0]
        assert isinstance(first, RoyalGambitAction)
        if first.decision == HIT_OR_STAY:
            leaning = self._hit_leaning(state, seat)
            if leaning == 0.0:
                return choice(rng, legal)  # as good either way: the rng decides
            return legal[0] if leaning > 0.0 else legal[1]
        if first.decision == GIVE_SEVEN:
            values = [self._threat(state, _target(a)) for a in legal]
        else:
            values = [self._jack_value(state, seat, _target(a)) for a in legal]
        return best(legal, values, rng)

    def evaluate(self, state: State) -> list[float]:
        """Each seat's rough chance to win from ``state`` (for searches that stop early).

        A seat's outlook is its total plus about half of an unbanked row (rows often bust); the
        chances are a softmax of the outlooks, sharper as the leader nears the target.
        """
        assert isinstance(state, RoyalGambitState)
        if state.is_terminal:
            return state.returns()
        outlook = [
            state.totals[s] + (0.5 * state.row_score(s) if state.status[s] == ACTIVE else 0.0)
            for s in range(state.num_players)
        ]
        top = max(outlook)
        scale = max(2.0, 8.0 * (1.0 - top / max(1, state.tables.target_score)) + 2.0)
        weights = [math.exp((v - top) / scale) for v in outlook]
        total = sum(weights)
        return [w / total for w in weights]

    # --------------------------------------------------------------------- hit or stay

    def _hit_leaning(self, state: RoyalGambitState, seat: int) -> float:
        """Above 0: hit; below 0: stay; 0: both are as good."""
        score = state.row_score(seat)
        total = state.totals[seat]
        bust_chance, gain = _next_card(state, seat)
        rivals = [s for s in range(state.num_players) if s != seat]
        if state.phase in (FINAL, TIEBREAK):
            # Only the outcome matters now: staying below the best rival total is a sure loss.
            best_rival = max(
                state.totals[s] + (state.row_score(s) if state.status[s] == ACTIVE else 0)
                for s in rivals
            )
            if total + score <= best_rival:
                return 1.0
            if state.phase == FINAL and not any(state.status[s] == ACTIVE for s in rivals):
                return -1.0  # ahead of everyone, and nobody left to catch up
        return (1.0 - bust_chance) * gain - bust_chance * score * self.caution

    # --------------------------------------------------------------------- 7s and Jacks

    @staticmethod
    def _threat(state: RoyalGambitState, seat: int) -> float:
        """Give the 7 to the rival with most to lose: an extra rank in his row raises his risk."""
        return (state.row_score(seat) + 1) * _danger(state, seat)

    @staticmethod
    def _jack_value(state: RoyalGambitState, me: int, target: int) -> float:
        bust_chance, gain = _two_flip_risk(state, target)
        stake = state.row_score(target)
        if target == me:
            return gain - bust_chance * stake
        # Harm to a rival: what he stands to lose, minus what the flips may give him.
        return (bust_chance * stake - gain) * _danger(state, target)


def best(legal: Sequence[Action], values: list[float], rng: random.Random) -> Action:
    """The action of highest value; equally good ones are drawn between with ``rng``."""
    top = max(values)
    ties = [action for action, value in zip(legal, values, strict=True) if value == top]
    return ties[0] if len(ties) == 1 else choice(rng, ties)


def _target(action: Action) -> int:
    assert isinstance(action, RoyalGambitAction)
    return action.target


def _next_card(state: RoyalGambitState, seat: int) -> tuple[float, float]:
    """The chance the next card busts ``seat``, and the expected score a safe card adds."""
    deck_size = len(state.deck)
    if not deck_size:
        return 0.0, 0.0
    ranks = state.row_ranks[seat]
    doubled = 2 if ranks & KING_BIT else 1
    points = state.row_points[seat]
    left = state.left
    # What every card left would add to the row; then the ranks already in it (they bust
    # instead) are taken out again. The row holds few ranks, so this beats a loop over all 13.
    # (Every term is a multiple of 1/2: the sums are exact in any order.)
    small = left[ACE] + 2 * left[2] + 3 * left[3] + 4 * left[4] + 5 * left[5]
    gain = (
        left[KING] * points  # the blessing doubles what is there
        + left[QUEEN] * (0.5 * points + 1)  # a pardon protects the row
        + left[JACK] * 1.0  # a Jack is a weapon against a rival
        + small * doubled
    )
    busting = 0
    held = ranks
    while held:
        bit = held & -held
        held ^= bit
        rank = bit.bit_length() - 1
        count = left[rank]
        if not count:
            continue
        busting += count
        if rank == KING:
            gain -= count * points
        elif rank == QUEEN:
            gain -= count * (0.5 * points + 1)
        elif rank == JACK:
            gain -= count * 1.0
        else:
            gain -= count * RANK_POINTS[rank] * doubled
    if ranks & QUEEN_BIT:
        busting = 0  # the Queen would pardon it
    return busting / deck_size, gain / deck_size


def _two_flip_risk(state: RoyalGambitState, seat: int) -> tuple[float, float]:
    """Roughly: the chance two forced flips bust ``seat``, and the points they add if not."""
    one_card, gain = _next_card(state, seat)
    if state.row_ranks[seat] & QUEEN_BIT:
        bust_chance = one_card * one_card
    else:
        bust_chance = 1.0 - (1.0 - one_card) * (1.0 - min(1.0, one_card * 1.3))
    return bust_chance, 2 * gain * (1 - bust_chance)


def _danger(state: RoyalGambitState, seat: int) -> float:
    """How much a rival matters: the closer his total to the target, the more."""
    return 1.0 + state.totals[seat] / max(1, state.tables.target_score)
