"""Crush the Crown (RULES.md §2): build your government from King down to Ace, spy on the rival's.

The state machine. The game runs through these decision points (§2.7), all sequential:

* setup: a chance event picks the dealer, then every card dealt is a chance event (§2.2);
* MARRIAGE: the marrying player marries a natural Queen from his hand, or discards one card and
  draws again (§2.3); GIVE_QUEEN is the deadlock guard (CTC-6), where the rival must hand over a
  Queen;
* a turn: BUILD (extend or discover), SPY (place at most one spy), TRIBUTE (the rival gives one
  card per active spy, suit rule enforced), FIRE (discard at most one card), then the refill
  draws (§2.4).

Every draw is a chance event uniform over the draw pile's current contents (the pile is never
pre-shuffled); an empty draw pile is replaced by the discard pile at once (§2.6), which needs no
event of its own because the next draw is uniform over the new pile anyway.

Hidden information (§2.8). Hands are private, the draw pile unknown. Everything else is public,
and so is everything a seat has *learned* about the rival's hand, because in a two-player game
what one player learns from a public event the other player knows he learned:

* ``revealed[h]``: the cards in ``h``'s hand that his rival knows are there (cards ``h`` received
  as tribute, Queens a deadlock proves to be in ``h``'s hand);
* ``tags[h]``: counts of ``h``'s unknown cards by what is known *not* to be among them: ``NOQ``
  (not a natural Queen: he discarded during the marriage, so he held none) and ``NOS`` (not of
  the rival's suit: he gave a tribute card of another suit, so he held none). Tags only ever form
  a chain (3 ⊂ 2 ⊂ 0 or 3 ⊂ 1 ⊂ 0), so removing the most restrictive tag a departing card fits
  keeps exactly the hands still consistent with what was seen, and ``determinize`` fills the
  most restricted slots first, which makes every consistent assignment equally likely.

The two jokers share the text ``Jk``: actions and chance outcomes name the joker *kind*; a hand
that holds both plays the one its rival knows about first, then the lower one, and a draw of
``Jk`` takes the lower joker in the pile.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from ...core.actions import SEAT_OUTCOMES, Action, seat_text
from ...core.cards import ACE, CARDS, KING, NUM_STANDARD_CARDS, QUEEN, SUIT_NAMES, Card
from ...core.draws import choice, shuffle
from ...core.errors import IllegalAction
from ...core.game import CHANCE, State

if TYPE_CHECKING:
    from .game import CrushTheCrown

# ------------------------------------------------------------------------------- card tables

JOKER: Final = 52
"""The joker *kind* carried by actions (``Jk``); the second joker is card 53."""
UNKNOWN: Final = 54
"""The placeholder of an unknown card in a redacted copy (a hand card or a draw-pile card)."""
WILD: Final = -2
NO_SPY: Final = -1

LADDER: Final = (KING, QUEEN, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, ACE)
"""The 13 slots of a government, in building order (CTC-8): the Ace crushes the King last."""
SLOTS: Final = len(LADDER)
_SLOT_OF_RANK: Final = {rank: slot for slot, rank in enumerate(LADDER)}
LADDER_TEXT: Final = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")

RANK: Final = tuple([c.rank for c in CARDS] + [0])
SUIT: Final = tuple([c.suit for c in CARDS] + [-9])
SLOT: Final = tuple([_SLOT_OF_RANK.get(c.rank, -1) for c in CARDS] + [-1])
IS_QUEEN: Final = tuple([c.rank == QUEEN for c in CARDS] + [False])
"""Natural Queens only: a joker is never a Queen (CTC-5)."""
TEXT: Final = tuple([str(c) for c in CARDS] + ["?"])
KINGS: Final = tuple(c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank == KING)
BUILD_CARDS: Final = tuple(c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank not in (KING, QUEEN))
"""Cards that can extend a government or discover a spy: J, 10 ... 2, A of a suit."""
SPY_CARDS: Final = (*[c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank != KING], CARDS[JOKER])
"""Cards that may be spies when their suit is a mercenary suit (Queens wild), and the joker."""
HAND_CARDS: Final = SPY_CARDS
"""Every card kind that can be in a hand: all but the Kings, the jokers as one kind."""

# Tags of unknown hand cards: what is known NOT to be among them.
NOQ: Final = 1
NOS: Final = 2

# Decisions (what the seat to move is choosing).
MARRIAGE: Final = 0
GIVE_QUEEN: Final = 1
BUILD: Final = 2
SPY: Final = 3
TRIBUTE: Final = 4
FIRE: Final = 5
DECISION_TEXT: Final = ("marriage", "give-queen", "build", "spy", "tribute", "fire")

# Action kinds.
PASS: Final = 0
MARRY: Final = 1
DISCARD: Final = 2
GIVE: Final = 3
EXTEND: Final = 4
DISCOVER: Final = 5
PLACE_SPY: Final = 6
FIRE_CARD: Final = 7
KIND_WORD: Final = ("pass", "marry", "discard", "give", "extend", "discover", "spy", "fire")
KIND_OF_DECISION: Final = {
    MARRIAGE: (MARRY, DISCARD),
    GIVE_QUEEN: (GIVE,),
    BUILD: (PASS, EXTEND, DISCOVER),
    SPY: (PASS, PLACE_SPY),
    TRIBUTE: (GIVE,),
    FIRE: (PASS, FIRE_CARD),
}

# Chance events.
DEALER: Final = 0
DRAW: Final = 1

# What follows the pending draws.
AFTER_DEAL: Final = 0
AFTER_MARRIAGE_DISCARD: Final = 1
AFTER_MARRIAGE_REFILL: Final = 2
AFTER_HIRE: Final = 3

# Phases of the game, for the observation.
SETUP: Final = 0
MARRYING: Final = 1
PLAYING: Final = 2
OVER: Final = 3
PHASE_TEXT: Final = ("setup", "marriage", "play", "over")


def _bits(cards: Sequence[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def mask_cards(mask: int) -> list[int]:
    """The cards of a bit mask, in card order."""
    return [CARDS[c] for c in range(UNKNOWN) if mask >> c & 1]


# An Action subclass stays a plain Python class (immutable slots) in a module that may run
# compiled (courtly/_compiled.py).
@mypyc_attr(native_class=False)
class CtcAction(Action):
    """``pass``, or a word and a card: ``marry QD``, ``discard 3C``, ``give 2H``, ``extend 10D``,
    ``discover 8D``, ``spy QC``, ``fire 5S``. ``card`` is the card kind (52 for any joker)."""

    __slots__ = ("card", "kind")

    kind: int
    card: int

    def __init__(self, id: int, text: str, kind: int, card: int = -1) -> None:
        super().__init__(id, text, kind=kind, card=card)


class CrushTheCrownState(State):
    """A position of Crush the Crown (two players)."""

    __slots__ = (
        "_chance",
        "_legal",
        "_result",
        "after_draw",
        "ctc",
        "deal_left",
        "dealer",
        "decision",
        "discard",
        "draw",
        "draw_target",
        "drawer",
        "executed",
        "extended",
        "first",
        "hands",
        "kings_aside",
        "marrying",
        "reshuffled",
        "revealed",
        "spies",
        "spy_slot",
        "stacks",
        "suits",
        "tags",
        "tribute_left",
        "turn",
        "turns",
    )

    ctc: CrushTheCrown
    """The game, typed as Crush the Crown: ``game`` itself stays typed :class:`Game`, as a
    compiled subclass (courtly/_compiled.py) may not narrow an attribute's type."""

    def __init__(self, game: CrushTheCrown, blank: bool = False) -> None:
        """The start of a game; ``blank=True`` only sets the base fields, for :meth:`_copy` to
        fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game)
        self.ctc = game
        if blank:
            return
        self.hands: list[list[int]] = [[], []]
        self.stacks: list[list[int]] = [[], []]
        self.spies = [0, 0]  # bit i set: slot i of that government holds a spy
        self.suits = [-1, -1]
        self.revealed = [0, 0]
        self.tags: list[list[int]] = [[0, 0, 0, 0], [0, 0, 0, 0]]
        self.draw: list[int] = list(game.deck)
        self.discard: list[int] = []
        self.executed: list[int] = []
        self.kings_aside: list[int] = list(KINGS)
        self.spy_slot: tuple[int, ...] = ()
        self.dealer = -1
        self.first = -1
        self.marrying = -1
        self.turn = -1
        self.turns = 0
        self.tribute_left = 0
        self.extended = False
        self.drawer = -1
        self.draw_target = 0
        self.deal_left = 0
        self.after_draw = AFTER_DEAL
        self.reshuffled = False
        self.decision = MARRIAGE
        self._legal: tuple[Action, ...] = ()
        self._result: list[float] = []
        self._chance = DEALER
        self.is_chance = True  # CTC-3: the dealer is picked at random

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        if self._chance == DEALER:
            return [(SEAT_OUTCOMES[0], 0.5), (SEAT_OUTCOMES[1], 0.5)]
        draw = self.draw
        p = 1.0 / len(draw)
        jokers = [c for c in draw if c >= JOKER]
        outcomes: list[tuple[Any, float]] = [(CARDS[c], p) for c in draw if c < JOKER]
        if jokers:
            outcomes.append((CARDS[min(jokers)], p * len(jokers)))
        return outcomes

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        if self._chance == DRAW:
            card = choice(rng, self.draw)
            if card == 53 and JOKER in self.draw:
                return CARDS[JOKER]
            return CARDS[card]
        return SEAT_OUTCOMES[rng.randrange(2)]

    def _is_possible_outcome(self, outcome: Any) -> bool:
        if self._chance == DRAW:
            return isinstance(outcome, Card) and outcome in self.draw
        return (
            isinstance(outcome, int)
            and not isinstance(outcome, Card)
            and not isinstance(outcome, bool)
            and outcome in (0, 1)
        )

    def parse_chance(self, text: str) -> Any:
        if self._chance == DRAW:
            try:
                found = Card.parse(text)
            except ValueError as error:
                raise IllegalAction(f"a card is drawn now: {error}") from None
            if found >= JOKER:
                jokers = [c for c in self.draw if c >= JOKER]
                if not jokers:
                    raise IllegalAction("no joker is left in the draw pile")
                return CARDS[min(jokers)]
            if found not in self.draw:
                raise IllegalAction(f"{found} is not in the draw pile")
            return found
        return super().parse_chance(text)

    def _apply_chance(self, outcome: Any) -> None:
        if self._chance == DEALER:
            dealer = int(outcome)
            self.dealer = dealer
            self.first = 1 - dealer  # CTC-3: the non-dealer is F
            self.drawer = self.first
            self.deal_left = 2 * self.ctc.hand_size
            self.after_draw = AFTER_DEAL
            self._chance = DRAW
            return
        card: int = outcome
        draw = self.draw
        if card >= JOKER and JOKER in draw:
            card = CARDS[JOKER]  # the jokers are alike: a drawn Jk is the lower one in the pile
        draw.remove(card)
        seat = self.drawer
        insort(self.hands[seat], card)
        self.tags[seat][0] += 1
        self._keep_secret(1 << seat)  # a drawn card is seen by its drawer only (§2.8)
        self.reshuffled = False
        if self.after_draw == AFTER_DEAL:
            self.deal_left -= 1
            if self.deal_left:
                self.drawer = 1 - seat  # dealt one at a time, F first
                return
            self.is_chance = False
            self._ask_marriage(self.first)
            return
        self._continue_drawing()

    def _draw_to(self, seat: int, target: int, then: int) -> None:
        """Draw cards for ``seat`` until he holds ``target`` (chance events), then go on."""
        self.drawer = seat
        self.draw_target = target
        self.after_draw = then
        self._continue_drawing()

    def _continue_drawing(self) -> None:
        if len(self.hands[self.drawer]) < self.draw_target:
            if not self.draw and self.discard:
                # §2.6: the discard pile becomes the new draw pile (its order is the chance of
                # the draws that follow).
                self.draw = self.discard
                self.discard = []
                self.reshuffled = True
            if self.draw:
                self._chance = DRAW
                self.is_chance = True
                self.to_move = ()
                return
            # CTC-18: both piles empty: no card is drawn.
        self.is_chance = False
        then = self.after_draw
        if then == AFTER_HIRE:
            self._end_turn()
        elif then == AFTER_MARRIAGE_DISCARD:
            self._ask_marriage(self.marrying)
        else:
            self._after_marriage(self.drawer)

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self._legal if seat in self.to_move else ()

    def _ask(self, seat: int, decision: int, legal: tuple[Action, ...]) -> None:
        self.decision = decision
        self._legal = legal
        self.to_move = (seat,)

    def _legal_for(self, decision: int, seat: int) -> tuple[Action, ...]:
        """The legal actions of ``seat`` at ``decision``, from the position."""
        if decision == BUILD:
            return self._legal_build(seat)
        if decision == FIRE:
            return self._legal_fire(seat)
        if decision == TRIBUTE:
            return self._legal_tribute(seat)
        if decision == SPY:
            return self._legal_spy(seat)
        game = self.ctc
        queens = [c for c in self.hands[seat] if IS_QUEEN[c]]
        if decision == MARRIAGE:
            if queens:
                return tuple([game.marry_actions[c] for c in queens])
            return _per_kind(self.hands[seat], game.discard_actions)
        return tuple([game.give_actions[c] for c in queens])

    # The four below run at every turn: plain loops over the hand, table look-ups, and a
    # pair of jokers (always last in a sorted hand) folded into one action.

    def _legal_build(self, seat: int) -> tuple[Action, ...]:
        suit = self.suits[seat]
        found = [c for c in self.hands[seat] if SUIT[c] == suit]
        if not found:
            return self.ctc.pass_only
        filled = len(self.stacks[seat])
        mask = self.spies[seat]
        game = self.ctc
        acts: list[Action] = [game.pass_action]
        for c in found:
            slot = SLOT[c]
            if slot == filled:
                if not self.extended:
                    acts.append(game.extend_actions[c])
            elif mask >> slot & 1:
                acts.append(game.discover_actions[c])
        return tuple(acts)

    def _legal_spy(self, seat: int) -> tuple[Action, ...]:
        rival_next = len(self.stacks[1 - seat])
        spy_slot = self.spy_slot
        found = [c for c in self.hands[seat] if spy_slot[c] == rival_next or spy_slot[c] == WILD]
        if not found:
            return self.ctc.pass_only
        table = self.ctc.spy_actions
        acts = [self.ctc.pass_action, *[table[c] for c in found]]
        if len(found) > 1 and acts[-1] is acts[-2]:
            acts.pop()
        return tuple(acts)

    def _legal_fire(self, seat: int) -> tuple[Action, ...]:
        hand = self.hands[seat]
        table = self.ctc.fire_actions
        acts = [self.ctc.pass_action, *[table[c] for c in hand]]
        if len(hand) > 1 and acts[-1] is acts[-2]:
            acts.pop()
        return tuple(acts)

    def _legal_tribute(self, seat: int) -> tuple[Action, ...]:
        hand = self.hands[seat]
        wanted = self.suits[1 - seat]
        owed = [c for c in hand if SUIT[c] == wanted] or hand
        table = self.ctc.give_actions
        acts = [table[c] for c in owed]
        if len(owed) > 1 and acts[-1] is acts[-2]:
            acts.pop()
        return tuple(acts)

    def _apply(self, seat: int, action: Action) -> None:
        act: CtcAction = action  # type: ignore[assignment]  # (no cast() call on the hot path)
        kind = act.kind
        if kind == PASS:
            decision = self.decision
            if decision == BUILD:
                self._start_spy(seat)
            elif decision == SPY:
                self._start_tribute(seat)
            else:
                self._draw_to(seat, self.ctc.hand_size, AFTER_HIRE)
            return
        card = act.card
        if card == JOKER:
            card = self._joker_in(seat)
        if kind == GIVE:
            if self.decision == TRIBUTE:
                self._give_tribute(seat, card)
            else:
                self._give_queen(seat, card)
        elif kind == FIRE_CARD:
            self._leave(seat, card)
            self.discard.append(card)
            self._draw_to(seat, self.ctc.hand_size, AFTER_HIRE)
        elif kind in (EXTEND, DISCOVER):
            self._build(seat, card, kind == EXTEND)
        elif kind == PLACE_SPY:
            rival = 1 - seat
            self._leave(seat, card)
            stack = self.stacks[rival]
            self.spies[rival] |= 1 << len(stack)
            stack.append(card)
            self._start_tribute(seat)
        elif kind == DISCARD:
            # §2.3: he discards only when he holds no Queen, so none of his cards is one.
            tags = self.tags[seat]
            tags[NOQ] += tags[0]
            tags[NOQ | NOS] += tags[NOS]
            tags[0] = tags[NOS] = 0
            self._leave(seat, card)
            self.discard.append(card)
            self._draw_to(seat, len(self.hands[seat]) + 1, AFTER_MARRIAGE_DISCARD)
        else:  # MARRY
            self._leave(seat, card)
            self._marry(seat, card)

    def _joker_in(self, seat: int) -> int:
        """The joker ``seat`` plays for ``Jk``: the one his rival knows of first, else the lower."""
        hand = self.hands[seat]
        if JOKER in hand:
            if 53 in hand and self.revealed[seat] >> 53 & 1 and not self.revealed[seat] >> 52 & 1:
                return CARDS[53]
            return CARDS[JOKER]
        return CARDS[53]

    def _leave(self, seat: int, card: int) -> None:
        """``card`` leaves ``seat``'s hand face up: update what the rival knows of that hand."""
        self.hands[seat].remove(card)
        revealed = self.revealed[seat]
        if revealed >> card & 1:
            self.revealed[seat] = revealed & ~(1 << card)
        else:
            self._untag(seat, card)

    def _untag(self, seat: int, card: int) -> None:
        """An unknown card of ``seat``'s hand became known: drop the most restrictive tag it fits."""
        tags = self.tags[seat]
        not_queen = not IS_QUEEN[card]
        not_suit = SUIT[card] != self.suits[1 - seat] or card >= JOKER
        if not_queen and not_suit and tags[3]:
            tags[3] -= 1
        elif not_queen and tags[NOQ]:
            tags[NOQ] -= 1
        elif not_suit and tags[NOS]:
            tags[NOS] -= 1
        elif tags[0]:
            tags[0] -= 1
        else:  # pragma: no cover - only a state built by hand can contradict its tags
            for t in (3, 2, 1):
                if tags[t]:
                    tags[t] -= 1
                    break

    # ----------------------------------------------------------------------------- marriage

    def _ask_marriage(self, seat: int) -> None:
        """§2.3: marry a natural Queen from hand, or discard and draw; CTC-6 deadlock guard."""
        self.marrying = seat
        hand = self.hands[seat]
        if any(IS_QUEEN[c] for c in hand) or any(IS_QUEEN[c] for c in self.draw + self.discard):
            self._ask(seat, MARRIAGE, self._legal_for(MARRIAGE, seat))
            return
        # CTC-6 [engine addition]: no Queen in his hand, the draw pile or the discard pile, so
        # every free Queen is in the rival's hand; everyone can tell, and he holds none himself.
        rival = 1 - seat
        for c in self.hands[rival]:
            if IS_QUEEN[c] and not self.revealed[rival] >> c & 1:
                self.revealed[rival] |= 1 << c
                self._untag(rival, c)
        tags = self.tags[seat]
        tags[NOQ] += tags[0]
        tags[NOQ | NOS] += tags[NOS]
        tags[0] = tags[NOS] = 0
        self._ask(rival, GIVE_QUEEN, self._legal_for(GIVE_QUEEN, rival))

    def _give_queen(self, giver: int, queen: int) -> None:
        self._leave(giver, queen)
        self._marry(1 - giver, queen)

    def _marry(self, seat: int, queen: int) -> None:
        suit = SUIT[queen]
        king = next(k for k in self.kings_aside if SUIT[k] == suit)
        self.kings_aside.remove(king)
        self.stacks[seat] = [king, queen]
        self.suits[seat] = suit
        self._draw_to(seat, self.ctc.hand_size, AFTER_MARRIAGE_REFILL)

    def _after_marriage(self, seat: int) -> None:
        second = 1 - self.first
        if seat == self.first and self.suits[second] < 0:
            self._ask_marriage(second)
            return
        # §2.3: the two unclaimed Kings are assassinated; their suits are the mercenaries.
        mercenary = {SUIT[k] for k in self.kings_aside}
        self.executed.extend(self.kings_aside)
        self.kings_aside = []
        ordinary = [
            (WILD if IS_QUEEN[c] else SLOT[c]) if SUIT[c] in mercenary else NO_SPY
            for c in range(JOKER)
        ]
        self.spy_slot = (*ordinary, WILD, WILD, NO_SPY)  # two jokers, and the UNKNOWN placeholder
        self.marrying = -1
        self._start_turn(self.first)  # CTC-7

    # ----------------------------------------------------------------------------- a turn

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.extended = False
        self._ask_build(seat)

    def _ask_build(self, seat: int) -> None:
        # Only what everyone can see skips the decision (an empty hand): a "pass" forced by the
        # cards would tell the rival that the player could not build.
        if not self.hands[seat]:
            self._start_spy(seat)
            return
        self._ask(seat, BUILD, self._legal_build(seat))

    def _build(self, seat: int, card: int, extend: bool) -> None:
        self._leave(seat, card)
        stack = self.stacks[seat]
        if extend:
            stack.append(card)
            self.extended = True
        else:
            # §2.4 discover: the real card takes the spy's slot; the spy is executed (CTC-22).
            slot = SLOT[card]
            self.executed.append(stack[slot])
            stack[slot] = card
            self.spies[seat] &= ~(1 << slot)
        if len(stack) == SLOTS and not self.spies[seat]:
            self._finish([seat])  # §2.5, CTC-19: complete and spy-free
            return
        if self.ctc.one_gov_card_per_build:
            self._start_spy(seat)  # CTC-9: one government card per Build
        else:
            self._ask_build(seat)

    def _start_spy(self, seat: int) -> None:
        if len(self.stacks[1 - seat]) == SLOTS or not self.hands[seat]:
            self._start_tribute(seat)  # a complete government takes no spy (§2.4)
            return
        self._ask(seat, SPY, self._legal_spy(seat))

    def _start_tribute(self, seat: int) -> None:
        # CTC-13: one card for every spy of his in the rival's government, every Spy phase.
        self.tribute_left = self.spies[1 - seat].bit_count()
        self._ask_tribute(seat)

    def _ask_tribute(self, seat: int) -> None:
        rival = 1 - seat
        if self.tribute_left and self.hands[rival]:
            self._ask(rival, TRIBUTE, self._legal_tribute(rival))
            return
        self.tribute_left = 0  # CTC-15: he gives all he has
        if self.hands[seat]:
            self._ask(seat, FIRE, self._legal_fire(seat))
        else:
            self._draw_to(seat, self.ctc.hand_size, AFTER_HIRE)

    def _give_tribute(self, giver: int, card: int) -> None:
        receiver = 1 - giver
        if SUIT[card] != self.suits[receiver] or card >= JOKER:
            # The suit rule (CTC-14): he had no card of the receiver's suit left.
            tags = self.tags[giver]
            tags[NOS] += tags[0]
            tags[NOQ | NOS] += tags[NOQ]
            tags[0] = tags[NOQ] = 0
        self._leave(giver, card)
        insort(self.hands[receiver], card)
        self.revealed[receiver] |= 1 << card  # seen by both (§2.8)
        self.tribute_left -= 1
        self._ask_tribute(receiver)

    def _end_turn(self) -> None:
        self.turns += 1
        if self.turns >= self.ctc.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            self._finish([0, 1])  # CTC-26 [engine addition]: the safety cap is a draw
            return
        self._start_turn(1 - self.turn)

    def _finish(self, winners: list[int]) -> None:
        share = 1.0 / len(winners)
        self._result = [share if s in winners else 0.0 for s in range(2)]
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self._legal = ()

    def returns(self) -> list[float]:
        return list(self._result) if self.is_terminal else [0.0, 0.0]

    # ----------------------------------------------------------------------------- reasons

    def _why_illegal(self, seat: int, action: Action) -> str:
        reason = self._reason_illegal(seat, action)
        return f"{action} is not legal now: {reason}; legal: {self._legal_text(seat)}"

    def _reason_illegal(self, seat: int, action: Action) -> str:
        if not isinstance(action, CtcAction) or self.ctc.known_action(action) is None:
            return "it is not an action of this game"
        decision = self.decision
        kind = action.kind
        if kind not in KIND_OF_DECISION[decision]:
            words = " or ".join(KIND_WORD[k] for k in KIND_OF_DECISION[decision])
            return f"this is the {DECISION_TEXT[decision]} step ({words})"
        card = action.card
        hand = self.hands[seat]
        held = any(c >= JOKER for c in hand) if card == JOKER else card in hand
        if not held:
            return f"{TEXT[card]} is not in your hand"
        suit = self.suits[seat]
        rival = 1 - seat
        if kind == MARRY:
            return "you must marry a Queen"  # unreachable: a held Queen is always legal
        if kind == DISCARD:
            return "you hold a Queen and must marry her (CTC-4)"
        if kind == GIVE and decision == GIVE_QUEEN:
            return f"you must give {seat_text(rival)} a Queen (CTC-6)"
        if kind == GIVE:
            wanted = self.suits[rival]
            return (
                f"you hold cards of {seat_text(rival)}'s suit ({SUIT_NAMES[wanted]}) and must "
                "give one of those (CTC-14)"
            )
        if kind in (EXTEND, DISCOVER):
            if SUIT[card] != suit:
                return f"{TEXT[card]} is not of your suit ({SUIT_NAMES[suit]})"
            if kind == DISCOVER:
                return f"no spy stands in your {LADDER_TEXT[SLOT[card]]} slot"
            filled = len(self.stacks[seat])
            if SLOT[card] < filled:
                return f"your {LADDER_TEXT[SLOT[card]]} slot is already filled"
            if self.extended:
                return "you have already extended your government this turn"
            return f"your government needs {LADDER_TEXT[filled]} next"
        if kind == PLACE_SPY:
            if SUIT[card] == suit:
                return f"{TEXT[card]} is of your own suit; your own cards are never spies (CTC-21)"
            if SUIT[card] == self.suits[rival]:
                return f"{TEXT[card]} is of {seat_text(rival)}'s suit and cannot be played (CTC-20)"
            needed = LADDER_TEXT[len(self.stacks[rival])]
            return (
                f"{seat_text(rival)}'s government needs {needed} next; an ordinary spy must be "
                "of that rank (CTC-11)"
            )
        return "not allowed now"

    # ----------------------------------------------------------------------------- records

    def clone(self) -> CrushTheCrownState:
        other = CrushTheCrownState(self.ctc, blank=True)
        self._clone_base(other)
        other.hands = [self.hands[0].copy(), self.hands[1].copy()]
        other.stacks = [self.stacks[0].copy(), self.stacks[1].copy()]
        other.spies = self.spies.copy()
        other.suits = self.suits.copy()
        other.revealed = self.revealed.copy()
        other.tags = [self.tags[0].copy(), self.tags[1].copy()]
        other.draw = self.draw.copy()
        other.discard = self.discard.copy()
        other.executed = self.executed.copy()
        other.kings_aside = self.kings_aside.copy()
        other.spy_slot = self.spy_slot
        other.dealer = self.dealer
        other.first = self.first
        other.marrying = self.marrying
        other.turn = self.turn
        other.turns = self.turns
        other.tribute_left = self.tribute_left
        other.extended = self.extended
        other.drawer = self.drawer
        other.draw_target = self.draw_target
        other.deal_left = self.deal_left
        other.after_draw = self.after_draw
        other.reshuffled = self.reshuffled
        other.decision = self.decision
        other._legal = self._legal
        other._result = self._result
        other._chance = self._chance
        return other

    # ----------------------------------------------------------------------------- knowledge

    def _hidden_count(self, seat: int) -> int:
        return len(self.hands[seat]) - self.revealed[seat].bit_count()

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        """Cards in the draw pile or in the unknown part of a rival's hand that ``seat`` has never
        seen (a card seen earlier, e.g. discarded and reshuffled, may be named in the log)."""
        seen = 0
        for actor, item in self._history_seen_by(seat):
            if isinstance(item, CtcAction) and item.card >= 0:
                seen |= 1 << item.card
            elif actor == CHANCE and isinstance(item, Card):
                seen |= 1 << item
        if seen >> JOKER & 1:
            seen |= 1 << 53
        unknown: list[int] = list(self.draw)
        for h in (0, 1):
            if h != seat:
                unknown += [c for c in self.hands[h] if not self.revealed[h] >> c & 1]
        return frozenset(CARDS[c] for c in unknown if c < UNKNOWN and not seen >> c & 1)

    def _redacted(self, seat: int | None) -> State:
        copy = self.clone()
        for h in (0, 1):
            if h != seat:
                copy.hands[h] = mask_cards(self.revealed[h] & _bits(self.hands[h])) + [
                    UNKNOWN
                ] * self._hidden_count(h)
        copy.draw = [UNKNOWN] * len(self.draw)
        if seat not in self.to_move:
            copy._legal = ()  # the rival's options would tell his cards
        return copy

    def determinize(self, seat: int | None, rng: random.Random) -> State:
        """A full state for what ``seat`` saw: the cards it cannot see are dealt at random to the
        places it cannot see, every way consistent with what it saw equally likely (as the draws
        would have dealt them): the rival's known cards stay put, his tagged cards avoid what
        they cannot be, and a marriage step without deadlock keeps a Queen in a pile.

        For a spectator, who sees neither hand, the two hands are dealt one after the other,
        which is uniform for each hand but only nearly so for the pair when both carry tags."""
        known = 0
        for h in (0, 1):
            known |= _bits([c for c in self.hands[h] if c != UNKNOWN])
        known |= _bits(self.discard) | _bits(self.executed)
        known |= _bits(self.stacks[0]) | _bits(self.stacks[1])
        pool = [c for c in self.ctc.deck if not known >> c & 1]
        hidden = [h for h in (0, 1) if UNKNOWN in self.hands[h]]
        for _ in range(50):  # rejection: the marriage constraint is rarely binding
            world = self.clone()
            rest = pool.copy()
            for h in hidden:
                world.hands[h] = sorted(
                    [c for c in self.hands[h] if c != UNKNOWN] + self._deal_slots(h, rest, rng)
                )
            shuffle(rng, rest)
            world.draw = [CARDS[c] for c in rest]
            if not world._marriage_contradiction():
                break
        if world.to_move:
            world._legal = world._legal_for(world.decision, world.to_move[0])
        return world

    def _deal_slots(self, seat: int, rest: list[int], rng: random.Random) -> list[int]:
        """Cards for ``seat``'s unknown slots, taken from ``rest``: the most restricted slots
        first, each uniform among the cards it may still be. The tags form a chain, so every
        slot has as many choices whatever went before: each consistent assignment of cards to
        slots is equally likely."""
        tags = self.tags[seat]
        rival_suit = self.suits[1 - seat]
        dealt: list[int] = []
        for tag in (3, 1, 2, 0):
            for _ in range(tags[tag]):
                fits = [
                    i
                    for i, c in enumerate(rest)
                    if not (tag & NOQ and IS_QUEEN[c])
                    and not (tag & NOS and SUIT[c] == rival_suit and c < JOKER)
                ]
                if not fits:  # pragma: no cover - tags never exceed the cards that fit
                    fits = list(range(len(rest)))
                dealt.append(rest.pop(choice(rng, fits)))
        return [CARDS[c] for c in dealt]

    def _marriage_contradiction(self) -> bool:
        """A marriage step without deadlock proves a Queen in his hand, the draw or the discard."""
        if self.to_move and self.decision == MARRIAGE:
            return not (
                any(IS_QUEEN[c] for c in self.hands[self.marrying])
                or any(IS_QUEEN[c] for c in self.draw + self.discard)
            )
        return False

    # ----------------------------------------------------------------------------- showing

    def phase(self) -> int:
        if self.is_terminal:
            return OVER
        if self.spy_slot:
            return PLAYING
        if self.first >= 0 and not self.deal_left:
            return MARRYING
        return SETUP

    def mercenary_suits(self) -> list[int]:
        if not self.spy_slot:
            return []
        return [s for s in range(4) if s not in self.suits]

    def next_needed(self, seat: int) -> int | None:
        """The rank the government of ``seat`` needs next (None: complete or not begun)."""
        filled = len(self.stacks[seat])
        return LADDER[filled] if 0 < filled < SLOTS else None

    def _government(self, seat: int) -> dict[str, Any]:
        stack = self.stacks[seat]
        mask = self.spies[seat]
        suit = self.suits[seat]
        filled = len(stack)
        return {
            "seat": seat_text(seat),
            "suit": SUIT_NAMES[suit] if suit >= 0 else None,
            "next_needed": LADDER_TEXT[filled] if 0 < filled < SLOTS else None,
            "complete": filled == SLOTS,
            "spies": mask.bit_count(),
            "slots": [
                {"rank": LADDER_TEXT[i], "card": TEXT[c], "spy": bool(mask >> i & 1)}
                for i, c in enumerate(stack)
            ],
        }

    def observation(self, seat: int | None) -> dict[str, Any]:
        hands = []
        for h in (0, 1):
            entry: dict[str, Any] = {"seat": seat_text(h), "size": len(self.hands[h])}
            known = [TEXT[c] for c in mask_cards(self.revealed[h])]
            if h == seat:
                entry["cards"] = [TEXT[c] for c in self.hands[h]]
                entry["known_to_rival"] = known
            else:
                entry["known"] = known
            hands.append(entry)
        winners = self.winners
        return {
            "game": self.ctc.id,
            "seat": None if seat is None else seat_text(seat),
            "phase": PHASE_TEXT[self.phase()],
            "to_move": [seat_text(s) for s in self.to_move],
            "decision": DECISION_TEXT[self.decision] if self.to_move else None,
            "dealer": seat_text(self.dealer) if self.dealer >= 0 else None,
            "first": seat_text(self.first) if self.first >= 0 else None,
            "turn": seat_text(self.turn) if self.turn >= 0 else None,
            "turns_played": self.turns,
            "safety_cap": self.ctc.safety_cap,
            "hand_size": self.ctc.hand_size,
            "mercenary_suits": [SUIT_NAMES[s] for s in self.mercenary_suits()],
            "kings_aside": [TEXT[c] for c in self.kings_aside],
            "governments": [self._government(h) for h in (0, 1)],
            "hands": hands,
            "draw_pile": len(self.draw),
            "discard_pile": [TEXT[c] for c in self.discard],
            "executed": [TEXT[c] for c in self.executed],
            "tribute_left": self.tribute_left,
            "winners": [seat_text(s) for s in winners],
            "draw": self.is_terminal and len(winners) == 2,
        }

    def render(self, seat: int | None) -> str:
        game = self.ctc
        mercs = self.mercenary_suits()
        header = (
            f"Crush the Crown · turn {self.turns + 1}/{game.safety_cap} · "
            f"draw pile {len(self.draw)}"
            + (f" · mercenary suits {' and '.join(SUIT_NAMES[s] for s in mercs)}" if mercs else "")
        )
        lines = [header]
        titles = []
        for h in (0, 1):
            you = " (you)" if h == seat else ""
            suit = self.suits[h]
            name = SUIT_NAMES[suit] if suit >= 0 else "unmarried"
            spies = self.spies[h].bit_count()
            note = f", {spies} spy" + ("" if spies == 1 else "s") if spies else ""
            titles.append(f"{seat_text(h)}{you} {name}{note}")
        lines.append(f"      {titles[0]:<28}{titles[1]}")
        for i in range(SLOTS):
            cells = []
            for h in (0, 1):
                stack = self.stacks[h]
                if i < len(stack):
                    c = stack[i]
                    cell = f"{TEXT[c]} SPY" if self.spies[h] >> i & 1 else TEXT[c]
                elif i == len(stack) and stack:
                    cell = "<- next"
                else:
                    cell = "."
                cells.append(cell)
            lines.append(f"  {LADDER_TEXT[i]:>2}  {cells[0]:<28}{cells[1]}")
        if self.kings_aside:
            lines.append(f"Kings aside: {' '.join(TEXT[c] for c in self.kings_aside)}")
        lines.append(f"Discard pile: {' '.join(TEXT[c] for c in self.discard) or '-'}")
        lines.append(f"Executed: {' '.join(TEXT[c] for c in self.executed) or '-'}")
        for h in (0, 1):
            marker = ">" if h in self.to_move else " "
            if h == seat:
                cards = " ".join(TEXT[c] for c in self.hands[h]) or "-"
                lines.append(f"{marker} {seat_text(h)} (you) hand: {cards}")
            else:
                known = " ".join(TEXT[c] for c in mask_cards(self.revealed[h]))
                extra = f" (known: {known})" if known else ""
                lines.append(f"{marker} {seat_text(h)} hand: {len(self.hands[h])} cards{extra}")
        if self.is_terminal:
            winners = self.winners
            if len(winners) == 2:
                lines.append(f"Game over: the {game.safety_cap}-turn cap is reached, a draw.")
            else:
                lines.append(f"Game over: {seat_text(winners[0])} crushes his King and wins.")
        elif self.to_move:
            who = seat_text(self.to_move[0])
            decision = self.decision
            if decision == MARRIAGE:
                lines.append(f"{who} seeks a Queen: marry one, or discard a card and draw.")
            elif decision == GIVE_QUEEN:
                lines.append(
                    f"{who} holds every free Queen and must give {seat_text(self.marrying)} one."
                )
            elif decision == BUILD:
                lines.append(f"{who} may build: extend the government or discover a spy.")
            elif decision == SPY:
                lines.append(f"{who} may place one spy in the rival government.")
            elif decision == TRIBUTE:
                lines.append(
                    f"{who} owes {seat_text(1 - self.to_move[0])} {self.tribute_left} tribute "
                    f"card{'s' if self.tribute_left != 1 else ''}."
                )
            else:
                lines.append(f"{who} may fire one card, then refills to {game.hand_size}.")
        return "\n".join(lines)

    def observed(self, actor: int, item: Any, observer: int) -> Any:
        # Every play is public (§2.8); a drawn card is seen by its drawer only; the dealer is public.
        if actor != CHANCE:
            return item.id
        if self._chance == DEALER or observer == self.drawer:
            return item
        return None

    def narrate(self, actor: int, item: Any, seat: int | None) -> str | None:
        if actor == CHANCE:
            if self._chance == DEALER:
                return f"{item} deals; {seat_text(1 - int(item))} plays first."
            who = seat_text(self.drawer)
            note = "The discard pile is shuffled into a new draw pile. " if self.reshuffled else ""
            if seat == self.drawer:
                return f"{note}{who} draws {item}."
            return f"{note}{who} draws a card."
        who = seat_text(actor)
        if not isinstance(item, CtcAction):
            return f"{who}: {item}"
        card = TEXT[item.card] if item.card >= 0 else ""
        kind = item.kind
        rival = seat_text(1 - actor)
        if kind == PASS:
            return {
                BUILD: f"{who} builds nothing.",
                SPY: f"{who} places no spy.",
                FIRE: f"{who} fires nobody.",
            }.get(self.decision, f"{who} passes.")
        if kind == MARRY:
            suit = SUIT_NAMES[SUIT[item.card]]
            return f"{who} marries {card}: {suit} is {who}'s suit."
        if kind == DISCARD:
            return f"{who} discards {card} and draws again."
        if kind == GIVE:
            if self.decision == GIVE_QUEEN:
                return f"{who} holds every free Queen and gives {card} to {rival}, who marries her."
            return f"{who} gives {card} to {rival} as tribute."
        if kind == EXTEND:
            return f"{who} extends his government with {card}."
        if kind == DISCOVER:
            spy = TEXT[self.stacks[actor][SLOT[item.card]]]
            return f"{who} discovers the spy {spy} with {card}; {spy} is executed."
        if kind == PLACE_SPY:
            rank = LADDER_TEXT[len(self.stacks[1 - actor])]
            wild = " (wild)" if item.card >= JOKER or IS_QUEEN[item.card] else ""
            return f"{who} places {card}{wild} as a spy {rank} in {rival}'s government."
        return f"{who} fires {card}."


def _per_kind(cards: Sequence[int], actions: Sequence[Action]) -> tuple[Action, ...]:
    """One action per card kind: two jokers in a hand make one ``Jk`` action (they sit side by
    side in a sorted hand)."""
    out: list[Action] = []
    last: Action | None = None
    for c in cards:
        a = actions[c]
        if a is not last:
            out.append(a)
            last = a
    return tuple(out)
