"""Royal Gambit (RULES.md §3): push your luck flipping cards; a repeated rank busts you.

The state machine. A hand is a loop of turns; a HIT is a flip, and a flip may set off powers
(a 7 to give away, a Jack that makes someone flip twice) that are resolved depth-first before the
turn passes (RG-10, RG-24). Pending flips live on a small stack of ``(seat, flips left)`` entries:
a HIT pushes ``(turn player, 1)``, a Jack pushes ``(target, 2)``.

Every card drawn is a chance event over the cards left in the deck (the deck is never
pre-shuffled), so nothing is hidden at a decision point: every flipped card is public (§3.5).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from mypy_extensions import mypyc_attr

from ...core.actions import SEAT_OUTCOMES, Action, seat_text
from ...core.cards import ACE, CARDS, JACK, KING, QUEEN, Card, cards_text
from ...core.draws import choice
from ...core.errors import IllegalAction
from ...core.game import CHANCE, State

if TYPE_CHECKING:
    from .game import RoyalGambit

# Seat status within the current hand.
OUT: Final = 0  # not a participant of this hand (a favourite in the final hand, say)
ACTIVE: Final = 1  # still in the hand (RG-5)
STAYED: Final = 2
BUSTED: Final = 3
STATUS_TEXT: Final = ("out", "active", "stayed", "bust")

# Phases of the game (§3.2).
NORMAL: Final = 0
FINAL: Final = 1
TIEBREAK: Final = 2
OVER: Final = 3
PHASE_TEXT: Final = ("normal", "final", "tiebreak", "over")

# What the seat to move is deciding.
HIT_OR_STAY: Final = 0
GIVE_SEVEN: Final = 1
JACK_TARGET: Final = 2
DECISION_TEXT: Final = ("hit-or-stay", "give-7", "jack-target")

# What the pending chance event is.
START_PLAYER: Final = 0
DRAW: Final = 1

DECK: Final[tuple[Card, ...]] = CARDS[:52]
RANK: Final = tuple(c.rank for c in DECK)
POINTS: Final = tuple(1 if r == ACE else r if 2 <= r <= 5 else 0 for r in RANK)
"""Ace 1, 2-5 face value, every other rank 0 (RG-4)."""
FULL_RANK_COUNTS: Final = [4 if 2 <= r <= 14 else 0 for r in range(15)]
QUEEN_BIT: Final = 1 << QUEEN
KING_BIT: Final = 1 << KING
SEVEN_BIT: Final = 1 << 7
TEN_BIT: Final = 1 << 10


def row_score(row: Sequence[Card]) -> int:
    """The hand score of a row: A-5 points, doubled (once) by a King (§3.3, RG-15)."""
    points = sum(POINTS[c] for c in row)
    return points * 2 if any(RANK[c] == KING for c in row) else points


# An Action subclass stays a plain Python class (immutable slots) in a module that may run
# compiled (courtly/_compiled.py).
@mypyc_attr(native_class=False)
class RoyalGambitAction(Action):
    """``hit``, ``stay``, ``give-7 p2`` or ``jack p2`` (the Jack's target)."""

    __slots__ = ("decision", "target")

    decision: int
    target: int

    def __init__(self, id: int, text: str, decision: int, target: int = -1) -> None:
        super().__init__(id, text, decision=decision, target=target)


class RoyalGambitState(State):
    """A position of Royal Gambit."""

    __slots__ = (
        "_chance",
        "_legal",
        "_result",
        "banked",
        "decision",
        "deck",
        "favorites",
        "flipper",
        "flips",
        "hand_number",
        "hands_played",
        "left",
        "masks",
        "participants",
        "phase",
        "points",
        "rg",
        "rows",
        "set_aside",
        "seven",
        "start",
        "status",
        "totals",
        "turn",
    )

    rg: RoyalGambit
    """The game, typed as Royal Gambit: ``game`` itself stays typed :class:`Game`, as a
    compiled subclass (courtly/_compiled.py) may not narrow an attribute's type."""

    def __init__(self, game: RoyalGambit, blank: bool = False) -> None:
        """The start of a game; ``blank=True`` only sets the base fields, for :meth:`_copy` to
        fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game)
        self.rg = game
        if blank:
            return
        n = game.num_players
        self.totals = [0] * n
        self.rows: list[list[Card]] = [[] for _ in range(n)]
        self.masks = [0] * n  # bit r set when the row holds a card of rank r: the bust check
        self.points = [0] * n  # A-5 points in the row, before the King's doubling
        self.status = [ACTIVE] * n
        self.banked = [0] * n  # the score each seat banked this hand
        self.set_aside: list[Card] = []  # pardoned pairs (Queen + duplicate) of this hand
        self.deck: list[Card] = list(DECK)
        self.left = FULL_RANK_COUNTS.copy()  # cards of each rank still in the deck (for bots)
        self.participants: tuple[int, ...] = tuple(range(n))
        self.favorites: tuple[int, ...] = ()
        self.phase = NORMAL
        self.hand_number = 1
        self.hands_played = 0
        self.start = 0
        self.turn = 0
        self.flips: list[tuple[int, int]] = []  # pending flips, depth-first: (seat, flips left)
        self.flipper = -1  # the seat that flips the card of the pending draw
        self.seven: Card | None = None  # the 7 waiting to be given away
        self.decision = HIT_OR_STAY
        self._legal: tuple[Action, ...] = ()
        self._result: list[float] = []
        # RG-3: the first hand's start player is random: a chance event.
        self._chance = START_PLAYER
        self.is_chance = True

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        if self._chance == START_PLAYER:
            p = 1.0 / len(self.participants)
            return [(SEAT_OUTCOMES[s], p) for s in self.participants]
        p = 1.0 / len(self.deck)
        return [(c, p) for c in self.deck]

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        if self._chance == DRAW:
            return choice(rng, self.deck)
        return SEAT_OUTCOMES[choice(rng, self.participants)]

    def _is_possible_outcome(self, outcome: Any) -> bool:
        if self._chance == DRAW:
            return isinstance(outcome, Card) and outcome in self.deck
        return (
            isinstance(outcome, int)
            and not isinstance(outcome, Card)
            and outcome in self.participants
        )

    def parse_chance(self, text: str) -> Any:
        if self._chance == DRAW:
            try:
                found = Card.parse(text)
            except ValueError as error:
                raise IllegalAction(f"a card is drawn now: {error}") from None
            if found not in self.deck:
                raise IllegalAction(f"{found} is not in the deck any more")
            return found
        return super().parse_chance(text)

    def _apply_chance(self, outcome: Any) -> None:
        if self._chance == START_PLAYER:
            self.is_chance = False
            self.start = self.turn = int(outcome)
            self._ask_hit_or_stay()
            return
        self.deck.remove(outcome)
        self.left[RANK[outcome]] -= 1
        self.is_chance = False
        self._flip(self.flipper, outcome)

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self._legal if seat in self.to_move else ()

    def _apply(self, seat: int, action: Action) -> None:
        action = cast(RoyalGambitAction, action)
        self.to_move = ()
        if action.decision == HIT_OR_STAY:
            if action.id == 0:  # hit: straight to the draw (the hot path of every playout)
                if self.deck:
                    self.flips.append((seat, 0))
                    self.flipper = seat
                    self._chance = DRAW
                    self.is_chance = True
                else:
                    self._deck_exhausted()
                return
            self._stay(seat)
        elif action.decision == GIVE_SEVEN:
            # RG-9: the 7 moves to the chosen player's row; he has no 7, so it cannot bust him.
            seven = self.seven
            assert seven is not None
            self.rows[seat].remove(seven)
            self.masks[seat] &= ~SEVEN_BIT
            self.rows[action.target].append(seven)
            self.masks[action.target] |= SEVEN_BIT
            self.seven = None
        else:
            self.flips.append((action.target, 2))
        self._resume()

    def _stay(self, seat: int) -> None:
        # RG-16: the hand score is banked the moment the player stays.
        score = self.points[seat] * 2 if self.masks[seat] & KING_BIT else self.points[seat]
        self.banked[seat] = score
        self.totals[seat] += score
        self.status[seat] = STAYED

    # ----------------------------------------------------------------------------- flipping

    def _resume(self) -> None:
        """Carry out pending flips (depth-first); when none is left, the turn is over."""
        flips = self.flips
        status = self.status
        while flips:
            seat, left = flips[-1]
            if left == 0 or status[seat] != ACTIVE:
                flips.pop()  # RG-10: a busted target's remaining forced flips are cancelled
                continue
            flips[-1] = (seat, left - 1)
            if not self.deck:
                self._deck_exhausted()
                return
            self.flipper = seat
            self._chance = DRAW
            self.is_chance = True
            return
        self._end_turn()

    def _flip(self, seat: int, card: Card) -> None:
        """``card`` turns face up into ``seat``'s row: bust check first, then its power (RG-6)."""
        rank = RANK[card]
        bit = 1 << rank
        mask = self.masks[seat]
        row = self.rows[seat]
        if mask & bit:
            if mask & QUEEN_BIT:
                # RG-7/8: the held Queen and the duplicate leave the row; the first card stays.
                queen = next(c for c in row if RANK[c] == QUEEN)
                row.remove(queen)
                self.set_aside += (queen, card)
                self.masks[seat] = mask & ~QUEEN_BIT  # a pardoned Queen is no longer held
            else:
                row.append(card)
                self.status[seat] = BUSTED
                self.banked[seat] = 0
        else:
            row.append(card)
            self.masks[seat] = mask | bit
            self.points[seat] += POINTS[card]
            if rank == 7:
                if self._ask_seven_recipient(seat, card):
                    return
            elif rank == JACK and self._ask_jack_target(seat):
                return
        self._resume()

    def _ask_seven_recipient(self, seat: int, seven: Card) -> bool:
        """RG-9: the flipper must give the 7 to another active player without a 7, if any."""
        status = self.status
        masks = self.masks
        give = self.rg.give_seven
        legal = tuple(
            give[s]
            for s in range(self.num_players)
            if s != seat and status[s] == ACTIVE and not masks[s] & SEVEN_BIT
        )
        if not legal:
            return False  # nobody eligible: the flipper keeps it
        self.seven = seven
        self._ask(seat, GIVE_SEVEN, legal)
        return True

    def _ask_jack_target(self, seat: int) -> bool:
        """RG-11/12: the flipper picks any active player, himself included (not a 10-holder when
        ``ten_blocks_jacks``); with nobody eligible the Jack fizzles."""
        status = self.status
        masks = self.masks
        block = TEN_BIT if self.rg.ten_blocks_jacks else 0
        jack_at = self.rg.jack_at
        legal = tuple(
            jack_at[s]
            for s in range(self.num_players)
            if status[s] == ACTIVE and not masks[s] & block
        )
        if not legal:
            return False
        self._ask(seat, JACK_TARGET, legal)
        return True

    def _ask(self, seat: int, decision: int, legal: tuple[Action, ...]) -> None:
        self.decision = decision
        self._legal = legal
        self.to_move = (seat,)

    def _ask_hit_or_stay(self) -> None:
        game = self.rg
        seat = self.turn
        # RG-13: under auto_hit_on_zero a row scoring 0 may not stay.
        forced = game.auto_hit_on_zero and self.points[seat] == 0
        self._ask(seat, HIT_OR_STAY, game.hit_only if forced else game.hit_or_stay)

    def _deck_exhausted(self) -> None:
        """RG-18: with no card left the hand ends; every active player stays."""
        self.flips.clear()
        for seat in range(self.num_players):
            if self.status[seat] == ACTIVE:
                self._stay(seat)
        self._end_hand()

    def _end_turn(self) -> None:
        status = self.status
        n = self.num_players
        turn = self.turn
        if self.rg.full_turn and status[turn] == ACTIVE:
            self._ask_hit_or_stay()  # full_turn: the player goes on until he stays or busts
            return
        for step in range(1, n + 1):  # RG-24: the next active player after the turn player
            seat = (turn + step) % n
            if status[seat] == ACTIVE:
                self.turn = seat
                self._ask_hit_or_stay()
                return
        self._end_hand()

    # ----------------------------------------------------------------------------- hands

    def _end_hand(self) -> None:
        game = self.rg
        self.hands_played += 1
        totals = self.totals
        everyone = range(self.num_players)
        if self.hands_played >= game.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            self._finish(list(everyone))  # [engine addition] safety cap: highest total, ties shared
            return
        if self.phase == NORMAL:
            if max(totals) < game.target_score:
                self._start_hand(tuple(everyone))
                return
            # RG-20: the favorites sit out the final hand.
            top = max(totals)
            if game.favorites_at_or_above_target:
                self.favorites = tuple(s for s in everyone if totals[s] >= game.target_score)
            else:
                self.favorites = tuple(s for s in everyone if totals[s] == top)
            self.phase = FINAL
            players = tuple(s for s in everyone if s not in self.favorites)
            if players:
                self._start_hand(players)
                return
            # RG-21: nobody may play the final hand: it is skipped.
            contenders: Sequence[int] = everyone
        elif self.phase == FINAL:
            contenders = everyone
        else:
            contenders = self.participants
        # RG-22: the unique highest total wins; otherwise the tied players play on.
        top = max(totals[s] for s in contenders)
        tied = tuple(s for s in contenders if totals[s] == top)
        if len(tied) == 1:
            self._finish(list(tied))
        else:
            self.phase = TIEBREAK
            self._start_hand(tied)

    def _start_hand(self, players: tuple[int, ...]) -> None:
        n = self.num_players
        self.hand_number += 1
        self.participants = players
        self.deck = list(DECK)  # §3.3.1: every card goes back; the next draws come from all 52
        self.left = FULL_RANK_COUNTS.copy()
        self.rows = [[] for _ in range(n)]
        self.masks = [0] * n
        self.points = [0] * n
        self.banked = [0] * n
        self.set_aside = []
        self.flips = []
        self.seven = None
        self.status = [ACTIVE if s in players else OUT for s in range(n)]
        # RG-3: one seat clockwise from the previous start, skipping non-participants.
        start = (self.start + 1) % n
        while start not in players:
            start = (start + 1) % n
        self.start = self.turn = start
        self._ask_hit_or_stay()

    def _finish(self, contenders: list[int]) -> None:
        top = max(self.totals[s] for s in contenders)
        winners = [s for s in contenders if self.totals[s] == top]
        share = 1.0 / len(winners)
        self._result = [share if s in winners else 0.0 for s in range(self.num_players)]
        self.phase = OVER
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self._legal = ()

    def returns(self) -> list[float]:
        return list(self._result) if self.is_terminal else [0.0] * self.num_players

    # ----------------------------------------------------------------------------- records

    def clone(self) -> RoyalGambitState:
        other = RoyalGambitState(self.rg, blank=True)
        self._clone_base(other)
        other.totals = self.totals.copy()
        other.rows = [row.copy() for row in self.rows]
        other.masks = self.masks.copy()
        other.points = self.points.copy()
        other.status = self.status.copy()
        other.banked = self.banked.copy()
        other.set_aside = self.set_aside.copy()
        other.deck = self.deck.copy()
        other.left = self.left.copy()
        other.participants = self.participants
        other.favorites = self.favorites
        other.phase = self.phase
        other.hand_number = self.hand_number
        other.hands_played = self.hands_played
        other.start = self.start
        other.turn = self.turn
        other.flips = self.flips.copy()
        other.flipper = self.flipper
        other.seven = self.seven
        other.decision = self.decision
        other._legal = self._legal
        other._result = self._result
        other._chance = self._chance
        return other

    # ----------------------------------------------------------------------------- showing

    def row_score(self, seat: int) -> int:
        """What ``seat``'s row would score if he stayed now."""
        return self.points[seat] * 2 if self.masks[seat] & KING_BIT else self.points[seat]

    def observation(self, seat: int | None) -> dict[str, Any]:
        # Nothing in Royal Gambit is hidden at a decision point (§3.5): every seat sees it all.
        return {
            "game": self.rg.id,
            "seat": None if seat is None else seat_text(seat),
            "target_score": self.rg.target_score,
            "phase": PHASE_TEXT[self.phase],
            "hand": self.hand_number,
            "start_player": seat_text(self.start),
            "turn": seat_text(self.turn),
            "to_move": [seat_text(s) for s in self.to_move],
            "decision": None if not self.to_move else DECISION_TEXT[self.decision],
            "totals": list(self.totals),
            "players": [
                {
                    "seat": seat_text(s),
                    "total": self.totals[s],
                    "status": STATUS_TEXT[self.status[s]],
                    "row": [str(c) for c in self.rows[s]],
                    "row_score": self.row_score(s) if self.status[s] != BUSTED else 0,
                    "banked": self.banked[s],
                }
                for s in range(self.num_players)
            ],
            "set_aside": [str(c) for c in self.set_aside],
            "deck_size": len(self.deck),
            "forced_flips": [[seat_text(s), left] for s, left in reversed(self.flips) if left],
            "favorites": [seat_text(s) for s in self.favorites],
            "winners": [seat_text(s) for s in self.winners],
        }

    def render(self, seat: int | None) -> str:
        game = self.rg
        header = (
            f"Royal Gambit · hand {self.hand_number} ({PHASE_TEXT[self.phase]}) · "
            f"target {game.target_score} · deck {len(self.deck)} cards"
        )
        lines = [header]
        for s in range(self.num_players):
            marker = ">" if s in self.to_move else " "
            you = " (you)" if s == seat else ""
            status = self.status[s]
            row = cards_text(self.rows[s]) or "-"
            if status == ACTIVE:
                note = f"would score {self.row_score(s)}"
            elif status == STAYED:
                note = f"banked {self.banked[s]}"
            elif status == BUSTED:
                note = "busted: 0"
            else:
                note = "sits out"
            fav = " *favorite*" if s in self.favorites and self.phase == FINAL else ""
            lines.append(
                f"{marker} {seat_text(s) + you:<9} total {self.totals[s]:>3}  {STATUS_TEXT[status]:<6}"
                f"  row: {row:<24} {note}{fav}"
            )
        if self.set_aside:
            lines.append(f"Set aside by pardons: {cards_text(self.set_aside)}")
        pending = [
            f"{seat_text(s)} must flip {left} more" for s, left in reversed(self.flips) if left
        ]
        if pending:
            lines.append("Forced flips: " + "; ".join(pending))
        if self.is_terminal:
            names = " and ".join(seat_text(s) for s in self.winners)
            lines.append(
                f"Game over: {names} {'wins' if len(self.winners) == 1 else 'share the win'}."
            )
        elif self.to_move:
            who = seat_text(self.to_move[0])
            lines.append(
                {
                    HIT_OR_STAY: f"{who} to hit or stay.",
                    GIVE_SEVEN: f"{who} must give the 7 away.",
                    JACK_TARGET: f"{who} picks who flips two cards (Jack).",
                }[self.decision]
            )
        return "\n".join(lines)

    def observed(self, actor: int, item: Any, observer: int) -> Any:
        # Every card is flipped face up and every choice is made in the open (§3.5).
        return item if actor == CHANCE else item.id

    def narrate(self, actor: int, item: Any, seat: int | None) -> str | None:
        if actor == CHANCE:
            if self._chance == START_PLAYER:
                return f"{item} starts the first hand."
            who = seat_text(self.flipper)
            card = item
            mask = self.masks[self.flipper]
            if mask & (1 << RANK[card]):
                if mask & QUEEN_BIT:
                    return f"{who} flips {card}: a repeat, pardoned by the Queen."
                return f"{who} flips {card}: a repeat, {who} busts!"
            return f"{who} flips {card}."
        who = seat_text(actor)
        assert isinstance(item, RoyalGambitAction)
        if item.decision == HIT_OR_STAY:
            if item.id == 0:
                return f"{who} hits."
            score = self.row_score(actor)
            return f"{who} stays and banks {score} (total {self.totals[actor] + score})."
        if item.decision == GIVE_SEVEN:
            return f"{who} gives {self.seven} to {seat_text(item.target)}."
        target = "himself" if item.target == actor else seat_text(item.target)
        return f"{who} sends the Jack at {target}: two forced flips."
