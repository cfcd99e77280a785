"""Crush the Crown (docs/rules/crush-the-crown.md): build your government from King down to Ace,
spy on the rival's.

The state machine. The game runs through these decision points (§7), all sequential:

* setup: a chance event picks the dealer, then every card dealt is a chance event (§2);
* MARRIAGE: the marrying player marries a natural Queen from his hand, or discards one card and
  draws again (§3); GIVE_QUEEN is the deadlock guard (CTC-6), where the rival must hand over a
  Queen;
* a turn: BUILD (extend or discover), SPY (place at most one spy), TRIBUTE (the rival gives one
  card per standing spy, suit rule enforced), FIRE (discard at most one card), then the refill
  draws (§4).

Every draw is a chance event uniform over the draw pile's current contents (the pile is never
pre-shuffled); an empty draw pile is replaced by the discard pile at once (§6), which needs no
event of its own because the next draw is uniform over the new pile anyway. Each such reshuffle
is noted (``reshuffles``): when it happened and what went in are public, and they tell a seat
which cards can have reached a hand when.

Hidden information (§8): hands are private, the draw pile unknown, everything else public, and
so is what a seat has *learned* of the rival's hand (``known_to_rival``: cards received as
tribute, Queens a deadlock shows), because in a two-player game what one player learns from a
public event the other knows he learned. The views of a seat (redaction, sampled worlds) are in
``views.py``; the text (pictures, narration, reasons of refusals, parsing) in ``text.py``. The
methods here that the contract needs call them; none of them runs on the hot path but
``determinize``.

The two jokers are alike, and the state treats them so: a hand, a pile or a government holds a
joker as card 52, twice when both are there, and an action or a draw names it ``Jk``.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import Any

from ...core.actions import SEAT_OUTCOMES, Action
from ...core.cards import CARDS, Card
from ...core.draws import below, pile_index, pile_outcomes, take_drawn
from ...core.game import Game, State
from .components import (
    AFTER_DEAL,
    AFTER_HIRE,
    AFTER_MARRIAGE_DISCARD,
    AFTER_MARRIAGE_REFILL,
    BUILD,
    DEALER,
    DISCARD,
    DISCOVER,
    DRAW,
    EXTEND,
    FIRE,
    FIRE_CARD,
    GIVE,
    GIVE_QUEEN,
    IS_QUEEN,
    JOKER,
    KINGS,
    LADDER,
    MARRIAGE,
    MARRYING,
    NO_SPY,
    OVER,
    PASS,
    PLACE_SPY,
    PLAYING,
    SEAT_ALONE,
    SETUP,
    SLOT,
    SLOTS,
    SPY,
    SUIT,
    TRIBUTE,
    WILD,
    CrushTheCrownAction,
    CrushTheCrownTables,
    forget_card,
    learn_card,
)


class CrushTheCrownState(State):
    """A position of Crush the Crown (two players)."""

    __slots__ = (
        "_draw_at",
        "_legal",
        "_result",
        "after_drawing",
        "cards_to_deal",
        "dealer",
        "decision",
        "discard_pile",
        "draw_pile",
        "drawer",
        "executed",
        "extended_this_turn",
        "first_player",
        "governments",
        "hands",
        "kings_aside",
        "known_to_rival",
        "marrying",
        "pending_chance",
        "refill_target",
        "reshuffles",
        "spies",
        "spy_slot_of",
        "suits",
        "tables",
        "tribute_owed",
        "turn_player",
        "turns_played",
    )

    tables: CrushTheCrownTables
    """The options, the deck and the action tables of the game, as typed fields."""

    def __init__(
        self, game: Game, tables: CrushTheCrownTables | None = None, blank: bool = False
    ) -> None:
        """The start of a game with ``game``'s ``tables``; ``blank=True`` only sets the base
        fields, for :meth:`clone` to fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game, blank)
        self._draw_at = -1  # where the card the sampler drew lies in the draw pile (-1: unknown)
        if tables is not None:
            self.tables = tables
        if blank:
            return
        self.hands: list[list[int]] = [[], []]
        self.governments: list[list[int]] = [[], []]
        """Each player's government stack, King first; a slot may hold a spy."""
        self.spies = [0, 0]
        """Per government, bit i set: its slot i holds a spy."""
        self.suits = [-1, -1]
        self.known_to_rival = [0, 0]
        """Per hand, the cards his rival knows are in it (tribute received, deadlock Queens);
        bit 53 counts a second known joker."""
        self.draw_pile: list[int] = list(self.tables.deck)
        self.discard_pile: list[int] = []
        self.executed: list[int] = []
        self.kings_aside: list[int] = list(KINGS)
        self.spy_slot_of: tuple[int, ...] = ()
        """Card -> the slot it fills as a spy (WILD: any, NO_SPY: none); set when both married."""
        self.reshuffles: tuple[tuple[int, tuple[int, ...]], ...] = ()
        """Every reshuffle (§6): the index of the event during which it happened, and the
        discard pile that became the draw pile, in order."""
        self.dealer = -1
        self.first_player = -1
        """The non-dealer (CTC-3): he marries first and plays first (CTC-7)."""
        self.marrying = -1
        self.turn_player = -1
        self.turns_played = 0
        self.tribute_owed = 0
        self.extended_this_turn = False
        self.drawer = -1
        self.refill_target = 0
        self.cards_to_deal = 0
        self.after_drawing = AFTER_DEAL
        self.decision = MARRIAGE
        self._legal: tuple[Action, ...] = ()
        self._result: list[float] = []
        self.pending_chance = DEALER
        """What the pending chance event decides: DEALER or a DRAW."""
        self.is_chance = True  # CTC-3: the dealer is picked at random

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        if self.pending_chance == DEALER:
            return [(SEAT_OUTCOMES[0], 0.5), (SEAT_OUTCOMES[1], 0.5)]
        return pile_outcomes(self.draw_pile)

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        if self.pending_chance == DRAW:
            # choice(rng, pile), keeping the index: applying the card then takes it out of the
            # pile by its place, not by comparing it with the cards before it.
            pile = self.draw_pile
            index = below(rng, len(pile))
            self._draw_at = index
            return CARDS[pile[index]]
        return SEAT_OUTCOMES[rng.randrange(2)]

    def _is_possible_outcome(self, outcome: Any) -> bool:
        if self.pending_chance == DRAW:
            if not isinstance(outcome, Card):
                return False
            # The place is kept for _apply_chance, as the sampler's is (both jokers name the
            # first of them).
            self._draw_at = pile_index(CARDS[min(outcome, JOKER)], self.draw_pile)
            return self._draw_at >= 0
        return (
            isinstance(outcome, int)
            and not isinstance(outcome, Card)
            and not isinstance(outcome, bool)
            and outcome in (0, 1)
        )

    def _apply_chance(self, outcome: Any) -> None:
        if self.pending_chance == DEALER:
            dealer = int(outcome)
            self.dealer = dealer
            self.first_player = 1 - dealer  # CTC-3
            self.drawer = self.first_player
            self.cards_to_deal = 2 * self.tables.hand_size
            self.after_drawing = AFTER_DEAL
            self.pending_chance = DRAW
            return
        card: int = outcome
        if card > JOKER:
            card = CARDS[JOKER]  # the second joker's card names the joker too
        # The two jokers are one card: the first of them goes (take_drawn), as in a replay.
        take_drawn(self.draw_pile, card, -1 if card == JOKER else self._draw_at)
        self._draw_at = -1
        seat = self.drawer
        insort(self.hands[seat], card)
        self._keep_secret(1 << seat)  # a drawn card is seen by its drawer only (§8)
        if self.after_drawing == AFTER_DEAL:
            self.cards_to_deal -= 1
            if self.cards_to_deal:
                self.drawer = 1 - seat  # dealt one at a time, the first player first
                return
            self.is_chance = False
            self._ask_marriage(self.first_player)
            return
        self._continue_drawing()

    def _draw_to(self, seat: int, target: int, then: int) -> None:
        """Draw cards for ``seat`` until he holds ``target`` (chance events), then go on."""
        self.drawer = seat
        self.refill_target = target
        self.after_drawing = then
        self._continue_drawing()

    def _continue_drawing(self) -> None:
        if len(self.hands[self.drawer]) < self.refill_target:
            if not self.draw_pile and self.discard_pile:
                self._reshuffle()
            if self.draw_pile:
                self.pending_chance = DRAW
                self.is_chance = True
                self.to_move = ()
                return
            # CTC-18: both piles empty: no card is drawn.
        self.is_chance = False
        then = self.after_drawing
        if then == AFTER_HIRE:
            self._end_turn()
        elif then == AFTER_MARRIAGE_DISCARD:
            self._ask_marriage(self.marrying)
        else:
            self._after_marriage(self.drawer)

    def _reshuffle(self) -> None:
        """§6: the discard pile becomes the new draw pile (the draws that follow are its
        shuffle). When, and which cards, is public: it tells which cards a hand can hold."""
        pile = self.discard_pile
        self.reshuffles = (*self.reshuffles, (len(self.history), tuple(pile)))
        self.draw_pile = pile
        self.discard_pile = []

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        # One seat decides at a time (§7): no search through ``to_move``.
        to_move = self.to_move
        return self._legal if to_move and to_move[0] == seat else ()

    def _ask(self, seat: int, decision: int, legal: tuple[Action, ...]) -> None:
        self.decision = decision
        self._legal = legal
        self.to_move = SEAT_ALONE[seat]

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
        game = self.tables
        queens = [c for c in self.hands[seat] if IS_QUEEN[c]]
        if decision == MARRIAGE:
            if queens:
                return tuple([game.marry_actions[c] for c in queens])
            return _one_per_card(self.hands[seat], game.discard_actions)
        return tuple([game.give_actions[c] for c in queens])

    # The four below run at every turn: plain loops over the hand, table look-ups, and a pair of
    # jokers (always last in a sorted hand) folded into one action.

    def _legal_build(self, seat: int) -> tuple[Action, ...]:
        suit = self.suits[seat]
        found = [c for c in self.hands[seat] if SUIT[c] == suit]
        if not found:
            return self.tables.pass_only
        filled = len(self.governments[seat])
        spies = self.spies[seat]
        game = self.tables
        acts: list[Action] = [game.pass_action]
        for c in found:
            slot = SLOT[c]
            if slot == filled:
                if not self.extended_this_turn:
                    acts.append(game.extend_actions[c])
            elif spies >> slot & 1:
                acts.append(game.discover_actions[c])
        return tuple(acts)

    def _legal_spy(self, seat: int) -> tuple[Action, ...]:
        rival_next = len(self.governments[1 - seat])
        spy_slot_of = self.spy_slot_of
        found = [
            c for c in self.hands[seat] if spy_slot_of[c] == rival_next or spy_slot_of[c] == WILD
        ]
        if not found:
            return self.tables.pass_only
        table = self.tables.spy_actions
        acts = [self.tables.pass_action, *[table[c] for c in found]]
        if len(found) > 1 and acts[-1] is acts[-2]:
            acts.pop()
        return tuple(acts)

    def _legal_fire(self, seat: int) -> tuple[Action, ...]:
        hand = self.hands[seat]
        table = self.tables.fire_actions
        acts = [self.tables.pass_action, *[table[c] for c in hand]]
        if len(hand) > 1 and acts[-1] is acts[-2]:
            acts.pop()
        return tuple(acts)

    def _legal_tribute(self, seat: int) -> tuple[Action, ...]:
        hand = self.hands[seat]
        wanted = self.suits[1 - seat]
        owed = [c for c in hand if SUIT[c] == wanted] or hand
        table = self.tables.give_actions
        acts = [table[c] for c in owed]
        if len(owed) > 1 and acts[-1] is acts[-2]:
            acts.pop()
        return tuple(acts)

    def _apply(self, seat: int, action: Action) -> None:
        act: CrushTheCrownAction = action  # type: ignore[assignment]  # (no cast() call on the hot path)
        kind = act.kind
        if kind == PASS:
            decision = self.decision
            if decision == BUILD:
                self._start_spy(seat)
            elif decision == SPY:
                self._start_tribute(seat)
            else:
                self._draw_to(seat, self.tables.hand_size, AFTER_HIRE)
            return
        card = act.card
        if kind == GIVE:
            if self.decision == TRIBUTE:
                self._give_tribute(seat, card)
            else:
                self._give_queen(seat, card)
        elif kind == FIRE_CARD:
            self._leave(seat, card)
            self.discard_pile.append(card)
            self._draw_to(seat, self.tables.hand_size, AFTER_HIRE)
        elif kind in (EXTEND, DISCOVER):
            self._build(seat, card, kind == EXTEND)
        elif kind == PLACE_SPY:
            self._place_spy(seat, card)
        elif kind == DISCARD:
            # §3: he discards only when he holds no Queen (views.py reads that from the log).
            self._leave(seat, card)
            self.discard_pile.append(card)
            self._draw_to(seat, len(self.hands[seat]) + 1, AFTER_MARRIAGE_DISCARD)
        else:  # MARRY
            self._leave(seat, card)
            self._marry(seat, card)

    def _leave(self, seat: int, card: int) -> None:
        """``card`` leaves ``seat``'s hand face up. If his rival knew it was there he knows it no
        more: of two jokers, the one the rival knew of goes first (they are alike)."""
        self.hands[seat].remove(card)
        known = self.known_to_rival[seat]
        if known >> card & 1:
            self.known_to_rival[seat] = forget_card(known, card)

    # ----------------------------------------------------------------------------- marriage

    def _ask_marriage(self, seat: int) -> None:
        """§3: marry a natural Queen from hand, or discard and draw; CTC-6 deadlock guard."""
        self.marrying = seat
        hand = self.hands[seat]
        if any(IS_QUEEN[c] for c in hand) or any(
            IS_QUEEN[c] for c in self.draw_pile + self.discard_pile
        ):
            self._ask(seat, MARRIAGE, self._legal_for(MARRIAGE, seat))
            return
        # CTC-6 [engine addition]: no Queen in his hand, the draw pile or the discard pile, so
        # every free Queen is in the rival's hand; everyone can tell.
        rival = 1 - seat
        known = self.known_to_rival[rival]
        for c in self.hands[rival]:
            if IS_QUEEN[c]:
                known |= 1 << c
        self.known_to_rival[rival] = known
        self._ask(rival, GIVE_QUEEN, self._legal_for(GIVE_QUEEN, rival))

    def _give_queen(self, giver: int, queen: int) -> None:
        self._leave(giver, queen)
        self._marry(1 - giver, queen)

    def _marry(self, seat: int, queen: int) -> None:
        suit = SUIT[queen]
        king = next(k for k in self.kings_aside if SUIT[k] == suit)
        self.kings_aside.remove(king)
        self.governments[seat] = [king, queen]
        self.suits[seat] = suit
        self._draw_to(seat, self.tables.hand_size, AFTER_MARRIAGE_REFILL)

    def _after_marriage(self, seat: int) -> None:
        second = 1 - self.first_player
        if seat == self.first_player and self.suits[second] < 0:
            self._ask_marriage(second)
            return
        # §3: the two unclaimed Kings are assassinated; their suits are the mercenaries.
        mercenary = {SUIT[k] for k in self.kings_aside}
        self.executed.extend(self.kings_aside)
        self.kings_aside = []
        ordinary = [
            (WILD if IS_QUEEN[c] else SLOT[c]) if SUIT[c] in mercenary else NO_SPY
            for c in range(JOKER)
        ]
        # The joker (and the unused second joker's card), and the UNKNOWN placeholder.
        self.spy_slot_of = (*ordinary, WILD, WILD, NO_SPY)
        self.marrying = -1
        self._start_turn(self.first_player)  # CTC-7

    # ----------------------------------------------------------------------------- a turn

    def _start_turn(self, seat: int) -> None:
        self.turn_player = seat
        self.extended_this_turn = False
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
        government = self.governments[seat]
        if extend:
            government.append(card)
            self.extended_this_turn = True
        else:
            # §4 discover: the real card takes the spy's slot; the spy is executed (CTC-22).
            slot = SLOT[card]
            self.executed.append(government[slot])
            government[slot] = card
            self.spies[seat] &= ~(1 << slot)
        if len(government) == SLOTS and not self.spies[seat]:
            self._finish([seat])  # §5, CTC-19: complete and spy-free
            return
        if self.tables.one_gov_card_per_build:
            self._start_spy(seat)  # CTC-9: one government card per Build
        else:
            self._ask_build(seat)

    def _start_spy(self, seat: int) -> None:
        if len(self.governments[1 - seat]) == SLOTS or not self.hands[seat]:
            self._start_tribute(seat)  # a complete government takes no spy (§4)
            return
        self._ask(seat, SPY, self._legal_spy(seat))

    def _place_spy(self, seat: int, card: int) -> None:
        rival = 1 - seat
        self._leave(seat, card)
        government = self.governments[rival]
        self.spies[rival] |= 1 << len(government)
        government.append(card)
        self._start_tribute(seat)

    def _start_tribute(self, seat: int) -> None:
        # CTC-13: one card for every spy of his in the rival's government, every Spy phase.
        self.tribute_owed = self.spies[1 - seat].bit_count()
        self._ask_tribute(seat)

    def _ask_tribute(self, seat: int) -> None:
        rival = 1 - seat
        if self.tribute_owed and self.hands[rival]:
            self._ask(rival, TRIBUTE, self._legal_tribute(rival))
            return
        self.tribute_owed = 0  # CTC-15: he gives all he has
        if self.hands[seat]:
            self._ask(seat, FIRE, self._legal_fire(seat))
        else:
            self._draw_to(seat, self.tables.hand_size, AFTER_HIRE)

    def _give_tribute(self, giver: int, card: int) -> None:
        # The suit rule (CTC-14) is in the legal actions; views.py reads what a card of another
        # suit tells of the giver's hand.
        receiver = 1 - giver
        self._leave(giver, card)
        insort(self.hands[receiver], card)
        self.known_to_rival[receiver] = learn_card(self.known_to_rival[receiver], card)
        self.tribute_owed -= 1
        self._ask_tribute(receiver)

    def _end_turn(self) -> None:
        self.turns_played += 1
        if self.turns_played >= self.tables.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            self._finish([0, 1])  # CTC-26 [engine addition]: the safety cap is a draw
            return
        self._start_turn(1 - self.turn_player)

    def _finish(self, winners: list[int]) -> None:
        share = 1.0 / len(winners)
        self._result = [share if s in winners else 0.0 for s in range(2)]
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self._legal = ()
        # The game is over: the hands are shown, and with them every card drawn. (Every event
        # becomes public at once, as _reveal_event would make each: once a game, cheaply.)
        self._reveal_all()

    def progress(self) -> dict[str, int]:
        return {"turns": self.turns_played}

    def scores(self) -> list[float] | None:
        # A government's own cards in place, King to Ace (spies are the rival's): thirteen win.
        return [
            float(len(government) - self.spies[seat].bit_count())
            for seat, government in enumerate(self.governments)
        ]

    def returns(self) -> list[float]:
        return list(self._result) if self.is_terminal else [0.0, 0.0]

    # ----------------------------------------------------------------------------- records

    def clone(self) -> CrushTheCrownState:
        other = CrushTheCrownState(self.game, self.tables, blank=True)
        self._clone_base(other)
        other.hands = [self.hands[0].copy(), self.hands[1].copy()]
        other.governments = [self.governments[0].copy(), self.governments[1].copy()]
        other.spies = self.spies.copy()
        other.suits = self.suits.copy()
        other.known_to_rival = self.known_to_rival.copy()
        other.draw_pile = self.draw_pile.copy()
        other.discard_pile = self.discard_pile.copy()
        other.executed = self.executed.copy()
        other.kings_aside = self.kings_aside.copy()
        other.spy_slot_of = self.spy_slot_of
        other.reshuffles = self.reshuffles
        other.dealer = self.dealer
        other.first_player = self.first_player
        other.marrying = self.marrying
        other.turn_player = self.turn_player
        other.turns_played = self.turns_played
        other.tribute_owed = self.tribute_owed
        other.extended_this_turn = self.extended_this_turn
        other.drawer = self.drawer
        other.refill_target = self.refill_target
        other.cards_to_deal = self.cards_to_deal
        other.after_drawing = self.after_drawing
        other.decision = self.decision
        other._legal = self._legal
        other._result = self._result
        other.pending_chance = self.pending_chance
        other._draw_at = self._draw_at
        return other

    # ----------------------------------------------------------------------------- the table

    def phase(self) -> int:
        if self.is_terminal:
            return OVER
        if self.spy_slot_of:
            return PLAYING
        if self.first_player >= 0 and not self.cards_to_deal:
            return MARRYING
        return SETUP

    def mercenary_suits(self) -> list[int]:
        if not self.spy_slot_of:
            return []
        return [s for s in range(4) if s not in self.suits]

    def next_needed(self, seat: int) -> int | None:
        """The rank the government of ``seat`` needs next (None: complete or not begun)."""
        filled = len(self.governments[seat])
        return LADDER[filled] if 0 < filled < SLOTS else None


def _one_per_card(cards: Sequence[int], actions: Sequence[Action]) -> tuple[Action, ...]:
    """One action per card: two jokers in a hand make one ``Jk`` action (they sit side by side
    in a sorted hand)."""
    out: list[Action] = []
    last: Action | None = None
    for c in cards:
        a = actions[c]
        if a is not last:
            out.append(a)
            last = a
    return tuple(out)
