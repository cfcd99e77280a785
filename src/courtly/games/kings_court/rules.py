"""King's Court (RULES.md §5): a race up a track driven by a shared deck.

The state machine. A turn is a draw (a chance event over the draw pile) followed by any number
of plays, one card at a time, until the player types ``end``. A Queen opens a private look at the
target's hand and a follow-up decision (``borrow ...`` or ``pass``); a borrowed Queen opens
another (KC-12). The game ends the moment a pawn reaches the last space (KC-8).

Zones: the draw pile (a list whose order means nothing: every draw is uniform over it), the
discard pile (public), the cards removed from the game (public; only when
``prefilter_unused_suits`` is false), and one hand per seat, kept sorted.

Hidden information (§5.6):

* Hands are private; their sizes are public. The card a seat draws is known to it alone.
* A Queen's look is private to the looker, who then remembers the cards he saw for as long as
  they stay in that hand. Every way a card leaves a hand is public (it is played, borrowed or
  discarded face up), so the looker can always follow which of the seen cards are still there;
  cards the target draws later are unknown to him. ``known[looker * n + target]`` is that memory
  as a bit mask of cards.
* Reshuffles make the draw pile a public set again (it is exactly the discard pile at that moment),
  so every card carries the *epoch* of the last pile it was in (public). A card in a hand was drawn
  in its epoch; determinization deals unknown cards only into hand slots and piles of their epoch.

What a seat knows of the other seats' memories: the memories of its own hand exactly (it knows
its hand); a third seat's memory of a fourth hand only as a public lower bound on its size
(``pub_known``: when the hand loses a card, nobody else can tell whether it was a remembered one),
plus the cards it still knows itself when the other looked later. A determinized world gives
the other seats memories of that size (the vouched-for cards first, the rest drawn at random from
the world's hand): never more than they may really know.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from mypy_extensions import mypyc_attr

from ...core.actions import SEAT_OUTCOMES, Action, seat_text
from ...core.cards import ACE, CARDS, JACK, KING, QUEEN, SUIT_NAMES, SUITS, Card, cards_text
from ...core.draws import shuffle
from ...core.errors import IllegalAction
from ...core.game import CHANCE, State

if TYPE_CHECKING:
    from .game import KingsCourt

DECK: Final[tuple[Card, ...]] = CARDS[:52]
RANK: Final = tuple(c.rank for c in DECK)
SUIT: Final = tuple(c.suit for c in DECK)
VALUE: Final = tuple(1 if r == ACE else r if r <= 10 else 0 for r in RANK)
"""How far a number card moves a pawn (A = 1); 0 for J, Q, K."""
BIT: Final = tuple(1 << c for c in range(52))
SEAT_SUIT: Final = (1, 0, 3, 2)
"""KC-3: seat 0 hearts, seat 1 spades, seat 2 clubs, seat 3 diamonds (indices into SUITS)."""
FACE_NAME: Final = {JACK: "Jack", QUEEN: "Queen", KING: "King"}

# Action kinds.
END: Final = 0
PASS: Final = 1
PLAY: Final = 2
BORROW: Final = 3

# Phases.
START: Final = 0  # chance: the start player (the cut, KC-4)
DEAL: Final = 1  # chance: a card of the initial deal (initial_hand_size)
DRAW: Final = 2  # chance: the card the turn player draws
PLAYING: Final = 3  # the turn player plays a card or ends the turn
BORROWING: Final = 4  # after a Queen: borrow a card from the target's hand, or pass
OVER: Final = 5
PHASE_TEXT: Final = ("start", "deal", "draw", "play", "borrow", "over")


def hidden_slot(epoch: int) -> int:
    """The placeholder for an unknown card of ``epoch`` in a redacted hand or pile (negative)."""
    return -1 - epoch


def slot_epoch(slot: int) -> int:
    return -1 - slot


# An Action subclass stays a plain Python class (immutable slots) in a module that may run
# compiled (courtly/_compiled.py).
@mypyc_attr(native_class=False)
class KingsCourtAction(Action):
    """``end``, ``pass``, ``play 7H``, ``play JH p2``, ``borrow 6H``, ``borrow KS p1``."""

    __slots__ = ("card", "kind", "target")

    kind: int
    card: int
    target: int

    def __init__(self, id: int, text: str, kind: int, card: int = -1, target: int = -1) -> None:
        super().__init__(id, text, kind=kind, card=card, target=target)


class KingsCourtState(State):
    """A position of King's Court."""

    __slots__ = (
        "_legal",
        "_result",
        "deal_left",
        "discard",
        "drawer",
        "epoch",
        "epoch_of",
        "hands",
        "kc",
        "known",
        "look_time",
        "moved_back",
        "phase",
        "pile",
        "positions",
        "pub_known",
        "queen_target",
        "removed",
        "start",
        "turn",
        "turns_played",
    )

    kc: KingsCourt
    """The game, typed as King's Court: ``game`` itself stays typed :class:`Game`, as a
    compiled subclass (courtly/_compiled.py) may not narrow an attribute's type."""

    def __init__(self, game: KingsCourt, blank: bool = False) -> None:
        """The start of a game; ``blank=True`` only sets the base fields, for :meth:`_copy` to
        fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game)
        self.kc = game
        if blank:
            return
        n = game.num_players
        self.positions = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.pile: list[int] = list(game.deck)
        self.discard: list[int] = []
        self.removed: list[int] = []  # unowned-suit cards drawn (prefilter_unused_suits=false)
        self.epoch = 0  # reshuffles so far
        self.epoch_of = [0] * 52  # the last draw pile each card was in (public)
        self.known = [0] * (n * n)  # Queen memories: known[looker * n + target], card bits
        self.pub_known = [0] * (n * n)  # public lower bound of each memory's size
        self.look_time = [-1] * (n * n)  # history index of the last look, -1 for none
        self.moved_back = 0  # bit s: seat s has been moved back this turn (KC-9)
        self.phase = START
        self.queen_target = -1
        self.start = 0
        self.turn = 0
        self.turns_played = 0
        self.drawer = -1  # who receives the pending card
        self.deal_left = n * game.initial_hand_size
        self._legal: tuple[Action, ...] = ()
        self._result: list[float] = []
        self.is_chance = True

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        if self.phase == START:
            p = 1.0 / self.num_players
            return [(SEAT_OUTCOMES[s], p) for s in range(self.num_players)]
        p = 1.0 / len(self.pile)
        return [(CARDS[c], p) for c in self.pile]

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        if self.phase == START:
            return SEAT_OUTCOMES[rng.randrange(self.num_players)]
        pile = self.pile
        return CARDS[pile[int(rng.random() * len(pile))]]  # uniform, as rng.choice, but faster

    def _is_possible_outcome(self, outcome: Any) -> bool:
        if self.phase == START:
            return (
                isinstance(outcome, int)
                and not isinstance(outcome, Card)
                and 0 <= outcome < self.num_players
            )
        return isinstance(outcome, Card) and outcome in self.pile

    def parse_chance(self, text: str) -> Any:
        if self.is_chance and self.phase != START:
            try:
                found = Card.parse(text)
            except ValueError as error:
                raise IllegalAction(f"a card is drawn now: {error}") from None
            if found not in self.pile:
                raise IllegalAction(f"{found} is not in the draw pile")
            return found
        return super().parse_chance(text)

    def _apply_chance(self, outcome: Any) -> None:
        if self.phase == START:
            self.start = self.turn = int(outcome)
            if self.deal_left:
                self.phase = DEAL
                self.drawer = self.start
                self._need_card()
            else:
                self._begin_turn()
            return
        card = outcome  # a Card (an int): hands and piles hold the shared Card instances
        self.pile.remove(card)
        drawer = self.drawer
        if self.kc.owner[card] < 0:
            # KC-2 (prefilter_unused_suits=false): the card leaves the game, face up, and the
            # same player draws again.
            self.removed.append(card)
            self._need_card()
            return
        self._keep_secret(1 << drawer)  # the card a seat draws is known to it alone
        insort(self.hands[drawer], card)
        if self.phase == DEAL:
            self.deal_left -= 1
            if self.deal_left:
                self.drawer = (drawer + 1) % self.num_players
                self._need_card()
            else:
                self._begin_turn()
            return
        self._enter_play()

    def _need_card(self) -> None:
        """Ask chance for a card for ``drawer``; reshuffle first if the pile is empty (KC-6)."""
        if not self.pile:
            if self.discard:
                self._reshuffle()
            else:
                # KC-6: both piles empty: no card (the deal stops, the draw is skipped).
                self.deal_left = 0
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
        for card in self.discard:
            epoch_of[card] = epoch
        self.pile = self.discard
        self.discard = []

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
        game = self.kc
        opts = game.play_opts[seat]
        legal: list[Action] = []
        moved = self.moved_back
        if moved:
            back = game.back_owner[seat]
            for card in self.hands[seat]:
                o = back[card]
                if o < 0 or not moved >> o & 1:
                    legal += opts[card]
        else:
            for card in self.hands[seat]:
                legal += opts[card]
        legal.append(game.end)
        self._legal = tuple(legal)

    def _enter_borrow(self, target: int) -> None:
        seat = self.turn
        self.phase = BORROWING
        self.queen_target = target
        game = self.kc
        opts = game.borrow_opts[seat]
        back = game.back_owner[seat]
        moved = self.moved_back
        legal: list[Action] = []
        for card in self.hands[target]:
            o = back[card]
            if o < 0 or not moved >> o & 1:
                legal += opts[card]
        legal.append(game.pass_)
        self._legal = tuple(legal)

    def _end_turn(self) -> None:
        self.turns_played += 1
        if self.turns_played >= self.kc.safety_cap:
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
        self._secret_events.clear()  # at the end every hand is shown: no draw is secret any more

    def returns(self) -> list[float]:
        return list(self._result) if self.is_terminal else [0.0] * self.num_players

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self._legal if seat in self.to_move else ()

    def _apply(self, seat: int, action: Action) -> None:
        action = cast(KingsCourtAction, action)
        kind = action.kind
        if kind == PLAY:
            card = action.card
            self.hands[seat].remove(card)
            self._forget(seat, card)
            self._resolve(seat, card, action.target)
        elif kind == END:
            self._end_turn()
        elif kind == BORROW:
            # KC-12: the borrowed card is played as if it were the Queen player's own.
            card = action.card
            self.hands[self.queen_target].remove(card)
            self._forget(self.queen_target, card)
            self.queen_target = -1
            self._resolve(seat, card, action.target)
        else:  # pass: borrow nothing
            self.queen_target = -1
            self._enter_play()

    def _forget(self, owner: int, card: int) -> None:
        """``card`` left ``owner``'s hand face up: no memory holds it any more."""
        known = self.known
        if not any(known):
            return  # no memory at all (then every public bound is 0 too)
        n = self.num_players
        pub = self.pub_known
        mask = ~BIT[card]
        for index in range(owner, n * n, n):
            known[index] &= mask
            if pub[index]:
                # Publicly nobody can tell whether the card was a remembered one: the public
                # bound assumes it was.
                pub[index] -= 1

    def _resolve(self, seat: int, card: int, target: int) -> None:
        """Carry out ``card`` played by ``seat`` (from his hand or borrowed) on ``target``."""
        self.discard.append(card)
        value = VALUE[card]
        positions = self.positions
        if value:
            owner = self.kc.owner[card]
            if owner == seat:
                spot = positions[seat] + value
                if spot >= self.kc.track_length:
                    # KC-7/KC-8: the pawn stops on the last space and wins at once.
                    positions[seat] = self.kc.track_length
                    self._finish([seat])
                    return
                positions[seat] = spot
            else:
                # KC-9: clamped at 0; even a move of 0 spaces uses the opponent's limit.
                spot = positions[owner] - value
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
            hand = self.hands[target]
            index = seat * self.num_players + target
            mask = 0
            for c in hand:
                mask |= BIT[c]
            self.known[index] = mask
            self.pub_known[index] = len(hand)
            self.look_time[index] = len(self.history)
            if hand:
                self._enter_borrow(target)
            else:
                self._enter_play()  # nothing to look at or borrow (hand sizes are public)
        else:
            # KC-13: the whole hand goes face up to the discard pile.
            hand = self.hands[target]
            self.discard += hand
            hand.clear()
            n = self.num_players
            for index in range(target, n * n, n):
                self.known[index] = 0
                self.pub_known[index] = 0
            self._enter_play()

    # ----------------------------------------------------------------------------- bad input

    def _action_from_text(self, seat: int, text: str) -> Action | None:
        """The action written ``text``. Shortcuts: a bare card (``7h``) means ``play`` (or
        ``borrow`` after a Queen); a face card without a target means its only legal target."""
        words = text.strip().split()
        if words and words[0].lower() not in ("play", "borrow", "end", "pass"):
            words.insert(0, "borrow" if self.phase == BORROWING else "play")
        game = self.kc
        action = game.action_from_text(" ".join(words))
        if action is None and len(words) == 2:
            try:
                card = Card.parse(words[1])
            except ValueError:
                card = None
            if card is not None and not VALUE[card] and words[0].lower() in ("play", "borrow"):
                kind = PLAY if words[0].lower() == "play" else BORROW
                matches = [
                    a
                    for a in self._legal
                    if isinstance(a, KingsCourtAction) and a.card == card and a.kind == kind
                ]
                if len(matches) == 1:
                    return matches[0]
                if matches:
                    targets = " or ".join(str(a) for a in matches)
                    raise IllegalAction(f"{card} needs a target: {targets}")
                action = (game.play_of if kind == PLAY else game.borrow_of)[card][0]
        return action

    def _why_unknown(self, seat: int, text: str) -> str:
        return (
            f"{text.strip()!r} is not an action of King's Court "
            f"(play 7H, play JH p2, borrow 6H, pass, end); legal: {self._legal_text(seat)}"
        )

    def input_steps(self, seat: int, text: str) -> list[str]:
        """A typed line may hold several actions separated by commas: ``play 7H, play 5S, end``."""
        steps = [part.strip() for part in text.replace(";", ",").split(",")]
        return [step for step in steps if step] or [text]

    def _why_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` (who is to move) now."""
        legal = f"; legal: {self._legal_text(seat)}"
        if not isinstance(action, KingsCourtAction) or self.kc.known_action(action) is None:
            return f"{action} is not an action of King's Court{legal}"
        kind = action.kind
        if self.phase == BORROWING:
            target = self.queen_target
            if kind in (PLAY, END):
                return (
                    f"first finish the Queen: borrow a card from {seat_text(target)}'s hand "
                    f"or pass{legal}"
                )
            if kind == BORROW and action.card not in self.hands[target]:
                return f"{CARDS[action.card]} is not in {seat_text(target)}'s hand{legal}"
        else:
            if kind == PASS:
                return f"pass declines a Queen's borrow; to stop playing, end the turn{legal}"
            if kind == BORROW:
                return f"borrow is only possible right after playing a Queen{legal}"
            if action.card not in self.hands[seat]:
                return f"{seat_text(seat)} does not hold {CARDS[action.card]}{legal}"
        card = action.card
        owner = self.kc.owner[card]
        if VALUE[card]:
            if owner >= 0 and owner != seat and self.moved_back >> owner & 1:
                return (
                    f"{seat_text(owner)} has already been moved back this turn; each opponent "
                    f"only once per turn (KC-9){legal}"
                )
        else:
            name = f"a {FACE_NAME[RANK[card]]} of {SUIT_NAMES[SUIT[card]]}"
            if action.target == seat:
                return f"a face card is never played on oneself (KC-10){legal}"
            if owner != seat and action.target != owner:
                return (
                    f"{name} may only be played on {seat_text(owner)}, whose suit it is "
                    f"(KC-10){legal}"
                )
        return f"{action} is not legal for {seat_text(seat)} now{legal}"

    # ----------------------------------------------------------------------------- records

    def clone(self) -> KingsCourtState:
        other = KingsCourtState(self.kc, blank=True)
        self._clone_base(other)
        other.positions = self.positions.copy()
        other.hands = [hand.copy() for hand in self.hands]
        other.pile = self.pile.copy()
        other.discard = self.discard.copy()
        other.removed = self.removed.copy()
        other.epoch = self.epoch
        other.epoch_of = self.epoch_of.copy()
        other.known = self.known.copy()
        other.pub_known = self.pub_known.copy()
        other.look_time = self.look_time.copy()
        other.moved_back = self.moved_back
        other.phase = self.phase
        other.queen_target = self.queen_target
        other.start = self.start
        other.turn = self.turn
        other.turns_played = self.turns_played
        other.drawer = self.drawer
        other.deal_left = self.deal_left
        other._legal = self._legal
        other._result = self._result
        return other

    # ----------------------------------------------------------------------------- views

    def known_cards(self, seat: int, other: int) -> list[int]:
        """The cards ``seat`` knows to be in ``other``'s hand (its own hand: all of it)."""
        if seat == other or self.is_terminal:
            return [c for c in self.hands[other] if c >= 0]
        mask = self.known[seat * self.num_players + other]
        return [c for c in self.hands[other] if c >= 0 and mask & BIT[c]]

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        if self.is_terminal:
            return frozenset()
        # Cards that went through a reshuffle were face up before, and the public log names
        # them; the cards checked are those ``seat`` has never been shown (epoch 0).
        epoch_of = self.epoch_of
        secret = {c for c in self.pile if not epoch_of[c]}
        for other in range(self.num_players):
            if other == seat:
                continue
            mask = 0 if seat is None else self.known[seat * self.num_players + other]
            secret.update(c for c in self.hands[other] if not mask & BIT[c] and not epoch_of[c])
        return frozenset(CARDS[c] for c in secret)

    def _redacted(self, seat: int | None) -> State:
        copy = self.clone()
        if self.is_terminal:
            return copy  # the game is over: every hand is shown
        n = self.num_players
        epoch_of = self.epoch_of
        for other in range(n):
            if other == seat:
                continue
            mask = 0 if seat is None else self.known[seat * n + other]
            hand = self.hands[other]
            copy.hands[other] = [c for c in hand if mask & BIT[c]] + sorted(
                hidden_slot(epoch_of[c]) for c in hand if not mask & BIT[c]
            )
        copy.pile = [hidden_slot(self.epoch)] * len(self.pile)
        for looker in range(n):
            for target in range(n):
                if looker != seat and target != seat:
                    copy.known[looker * n + target] = 0  # not this seat's to know
        if seat not in self.to_move:
            copy._legal = ()  # the mover's options would show his hand (or the Queen's look)
        return copy

    def determinize(self, seat: int | None, rng: random.Random) -> State:
        """Deal the cards ``seat`` cannot place uniformly into the places they may be: each unknown
        card into a hidden hand slot or pile of its own epoch (called on a redacted copy)."""
        full = self.clone()
        if self.is_terminal:
            return full
        game = self.kc
        n = self.num_players
        owner = game.owner
        epoch_of = self.epoch_of
        placed = 0
        for hand in self.hands:
            for c in hand:
                if c >= 0:
                    placed |= BIT[c]
        for c in self.discard:
            placed |= BIT[c]
        for c in self.removed:
            placed |= BIT[c]
        pools: dict[int, list[int]] = {}
        unowned: list[int] = []
        for c in game.deck:
            if not placed & BIT[c]:
                if owner[c] < 0:
                    unowned.append(c)  # only ever in the draw pile
                else:
                    pools.setdefault(epoch_of[c], []).append(c)
        for pool in pools.values():
            shuffle(rng, pool)
        for other in range(n):
            hand = self.hands[other]
            if other == seat or not any(c < 0 for c in hand):
                continue
            dealt = [c if c >= 0 else pools[slot_epoch(c)].pop() for c in hand]
            dealt.sort()
            full.hands[other] = dealt
        full.pile = pools.pop(self.epoch, []) + unowned
        assert not any(pools.values()), "every unknown card of a past epoch is in a hand"
        self._fill_memories(full, seat, rng)
        if full.phase == PLAYING:
            full._enter_play()
        elif full.phase == BORROWING:
            full._enter_borrow(full.queen_target)
        return full

    def _fill_memories(self, full: KingsCourtState, seat: int | None, rng: random.Random) -> None:
        """Other seats' memories of third hands: what ``seat`` can vouch for, no more."""
        n = self.num_players
        for looker in range(n):
            for target in range(n):
                index = looker * n + target
                if looker in (target, seat) or target == seat:
                    continue
                if self.look_time[index] < 0:
                    continue
                hand = full.hands[target]
                base = 0
                if seat is not None:
                    mine = seat * n + target
                    if 0 <= self.look_time[mine] <= self.look_time[index]:
                        base = self.known[mine]  # he looked later: he saw all I still know
                chosen = [c for c in hand if base & BIT[c]]
                rest = [c for c in hand if not base & BIT[c]]
                want = min(len(hand), max(self.pub_known[index], len(chosen)))
                chosen += rng.sample(rest, want - len(chosen))
                mask = 0
                for c in chosen:
                    mask |= BIT[c]
                full.known[index] = mask

    # ----------------------------------------------------------------------------- showing

    def observation(self, seat: int | None) -> dict[str, Any]:
        n = self.num_players
        game = self.kc
        over = self.is_terminal
        players = []
        for s in range(n):
            entry: dict[str, Any] = {
                "seat": seat_text(s),
                "suit": SUITS[SEAT_SUIT[s]],
                "position": self.positions[s],
                "hand_size": len(self.hands[s]),
            }
            if over or s == seat:
                entry["hand"] = [str(CARDS[c]) for c in self.hands[s]]
            elif seat is not None:
                entry["known_cards"] = [str(CARDS[c]) for c in self.known_cards(seat, s)]
            if seat is not None and s != seat and not over:
                # What this player remembers of my hand (I know my hand, so I know that).
                entry["knows_of_mine"] = [str(CARDS[c]) for c in self.known_cards(s, seat)]
            players.append(entry)
        return {
            "game": game.id,
            "seat": None if seat is None else seat_text(seat),
            "track_length": game.track_length,
            "safety_cap": game.safety_cap,
            "phase": PHASE_TEXT[self.phase],
            "start_player": seat_text(self.start),
            "turn": seat_text(self.turn),
            "turns_played": self.turns_played,
            "to_move": [seat_text(s) for s in self.to_move],
            "queen_target": seat_text(self.queen_target) if self.queen_target >= 0 else None,
            "moved_back": [seat_text(s) for s in range(n) if self.moved_back >> s & 1],
            "players": players,
            "draw_pile_size": len(self.pile),
            "discard_pile": [str(CARDS[c]) for c in self.discard],
            "removed": [str(CARDS[c]) for c in self.removed],
            "reshuffles": self.epoch,
            "winners": [seat_text(s) for s in self.winners],
        }

    def render(self, seat: int | None) -> str:
        game = self.kc
        n = self.num_players
        length = game.track_length
        suits = ", ".join(f"{seat_text(s)} {SUIT_NAMES[SEAT_SUIT[s]]}" for s in range(n))
        lines = [
            f"King's Court · {suits} · first to {length} · turn {self.turns_played + 1}"
            f" (cap {game.safety_cap}) · draw pile {len(self.pile)}"
        ]
        lines += self._track_lines(seat)
        top = cards_text([CARDS[c] for c in self.discard[-8:]])
        more = len(self.discard) - 8
        lines.append(
            "Discard pile: "
            + ((f"({more} more) " if more > 0 else "") + top + " (top last)" if top else "empty")
        )
        if self.removed:
            lines.append(f"Removed from the game: {cards_text([CARDS[c] for c in self.removed])}")
        if seat is not None and not self.is_terminal:
            for other in range(n):
                if other == seat:
                    continue
                known = self.known_cards(seat, other)
                if known:
                    unknown = len(self.hands[other]) - len(known)
                    extra = f" (+{unknown} unknown)" if unknown else " (all of it)"
                    lines.append(
                        f"You know {seat_text(other)} holds: "
                        f"{cards_text([CARDS[c] for c in known])}{extra}"
                    )
                seen_mine = self.known_cards(other, seat)
                if seen_mine:
                    lines.append(
                        f"{seat_text(other)} has seen your "
                        f"{cards_text([CARDS[c] for c in seen_mine])}"
                    )
        if self.is_terminal:
            names = " and ".join(seat_text(s) for s in self.winners)
            verb = "wins" if len(self.winners) == 1 else "share the win"
            lines.append(f"Game over: {names} {verb}.")
        elif self.to_move:
            who = seat_text(self.to_move[0])
            if self.phase == BORROWING:
                target = seat_text(self.queen_target)
                lines.append(f"{who} looks at {target}'s hand: borrow one card to play, or pass.")
            else:
                back = [seat_text(s) for s in range(n) if self.moved_back >> s & 1]
                note = f" (already moved back: {', '.join(back)})" if back else ""
                lines.append(f"{who} to play a card or end the turn{note}.")
        return "\n".join(lines)

    def _track_lines(self, seat: int | None) -> list[str]:
        """The track, one lane per pawn between bars: ``o`` is the pawn, the first cell the start.
        (No square brackets: the terminal would take them for markup.)"""
        length = self.kc.track_length
        step = max(1, -(-(length + 1) // 61))  # spaces per character on long tracks
        cells = length // step + 1
        scale = [" "] * (cells + 4)
        for mark in range(0, length + 1, 10 * step):
            at = mark // step
            for i, ch in enumerate(str(mark)):
                scale[at + i] = ch
        lines = [f"{'track':<14}{''.join(scale).rstrip()}"]
        for s in range(self.num_players):
            lane = ["·"] * cells
            lane[self.positions[s] // step] = "o"
            marker = ">" if s in self.to_move else " "
            name = seat_text(s) + (" (you)" if s == seat else "")
            size = len(self.hands[s])
            if (s == seat or self.is_terminal) and size:
                hand = f"hand {size}: {cards_text([CARDS[c] for c in self.hands[s] if c >= 0])}"
            else:
                hand = f"hand {size}"
            lines.append(
                f"{marker} {name:<9}{SUITS[SEAT_SUIT[s]]} |{''.join(lane)}|"
                f" {self.positions[s]:>3}  {hand}"
            )
        return lines

    def observed(self, actor: int, item: Any, observer: int) -> Any:
        # Plays are public; a drawn card is seen by its drawer only, unless it is of nobody's
        # suit and shown as it is removed (KC-2); the cut for the start is public (§5.6).
        if actor != CHANCE:
            return item.id
        if self.phase == START or observer == self.drawer or self.kc.owner[int(item)] < 0:
            return item
        return None

    def narrate(self, actor: int, item: Any, seat: int | None) -> str | None:
        if actor == CHANCE:
            if self.phase == START:
                return f"{item} wins the cut and starts."
            who = seat_text(self.drawer)
            verb = "is dealt" if self.phase == DEAL else "draws"
            if self.kc.owner[int(item)] < 0:
                return f"{who} {verb} {item}: nobody's suit, removed from the game (KC-2)."
            return f"{who} {verb} {item}." if seat == self.drawer else f"{who} {verb} a card."
        who = seat_text(actor)
        assert isinstance(item, KingsCourtAction)
        if item.kind == END:
            line = f"{who} ends the turn."
            if self.turns_played + 1 >= self.kc.safety_cap:
                line += f" That was turn {self.kc.safety_cap}: the farthest pawn wins (KC-18)."
            elif not self.pile and self.discard:
                line += " The discard pile is shuffled into a new draw pile."
            return line
        if item.kind == PASS:
            return f"{who} borrows nothing."
        card = CARDS[item.card]
        if item.kind == BORROW:
            lead = f"{who} borrows {card} from {seat_text(self.queen_target)}'s hand and plays it"
        else:
            lead = f"{who} plays {card}"
        return f"{lead}: {self._effect_text(actor, item)}"

    def _effect_text(self, seat: int, action: KingsCourtAction) -> str:
        card = action.card
        value = VALUE[card]
        who = seat_text(seat)
        if value:
            owner = self.kc.owner[card]
            if owner == seat:
                spot = self.positions[seat] + value
                if spot >= self.kc.track_length:
                    return f"{who} reaches space {self.kc.track_length} and wins!"
                return f"{who} moves forward {value} to {spot}."
            spot = max(0, self.positions[owner] - value)
            return f"{seat_text(owner)} moves back {value} to {spot}."
        target = seat_text(action.target)
        rank = RANK[card]
        if rank == JACK:
            return (
                f"{who} ({self.positions[seat]}) and {target} ({self.positions[action.target]})"
                " swap places."
            )
        if rank == QUEEN:
            return f"{who} looks at {target}'s hand ({len(self.hands[action.target])} cards)."
        hand = self.hands[action.target]
        shown = [c for c in hand if c >= 0 and c != card]
        cards = cards_text([CARDS[c] for c in shown])
        return f"{target} discards his hand{': ' + cards if cards else ' (empty)'}."
