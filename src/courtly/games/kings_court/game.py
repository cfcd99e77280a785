"""The King's Court game object: its facts, options and action space (RULES.md §5.7).

The action space is built once. Number cards (A-10) carry no target in their text, because the
suit names the only player they can affect (KC-14): ``play 7H``, ``borrow 4S``. Face cards name
their target: ``play JH p2``, ``borrow KS p1``. ``end`` ends the turn, ``pass`` declines the
Queen's borrow. The per-seat tables below say, for every card a seat may hold, which of those
actions it allows, so that legal moves are a table look-up on the hot path.
"""

from __future__ import annotations

from typing import Final

from ...core.actions import Action, seat_text
from ...core.bots import BotInfo
from ...core.errors import InvalidOptions
from ...core.game import Game, GameInfo
from ...core.options import Option
from .heuristic import KingsCourtHeuristic
from .rules import (
    BORROW,
    DECK,
    END,
    PASS,
    PLAY,
    SEAT_SUIT,
    SUIT,
    VALUE,
    KingsCourtAction,
    KingsCourtState,
)
from .rules_text import RULES


def _word(card: object) -> str:
    return str(card)  # cards keep their own text in actions (``play 7H``); lookup ignores case


OPTIONS: Final = (
    Option("track_length", 30, "the winning space: reach or pass it to win (KC-7)", minimum=1),
    Option(
        "initial_hand_size",
        0,
        "cards dealt to each player before the first turn (KC-5)",
        minimum=0,
        maximum=13,
    ),
    Option(
        "prefilter_unused_suits",
        True,
        "with 2-3 players, take the unowned suits out before play (KC-2); "
        "false: such a card is removed when drawn and another is drawn",
    ),
    Option(
        "safety_cap",
        500,
        "safety cap: after this many turns the farthest pawn wins, equal pawns share (KC-18)",
        minimum=1,
    ),
)


class KingsCourt(Game):
    """King's Court for 2-4 players."""

    info = GameInfo(
        id="kings-court",
        title="King's Court",
        min_players=2,
        max_players=4,
        default_players=2,
        summary="Race your pawn up a 30-space track: your suit moves you, rivals' suits push them back.",
        options=OPTIONS,
        rules=RULES,
        bots=(
            BotInfo(
                "heuristic",
                KingsCourtHeuristic,
                "Hoards its own suit, then races; keeps the face cards for the leader.",
                (
                    Option(
                        "hoard",
                        True,
                        "keep own cards in hand until the race is on (false: play them at once)",
                    ),
                    Option(
                        "max_hoard",
                        0,
                        "stop hoarding when the hand holds this many cards (0: never)",
                        minimum=0,
                    ),
                ),
            ),
        ),
        search_hooks=KingsCourtHeuristic,
        simultaneous=False,
        hidden_information=True,
        renamed_options={"max_turns": "safety_cap"},
    )

    # Filled by _check_options (after the actions exist).
    _by_upper: dict[str, Action]
    track_length: int
    safety_cap: int
    initial_hand_size: int
    prefilter: bool
    owner: tuple[int, ...]
    deck: tuple[int, ...]
    end: Action
    pass_: Action
    play_opts: tuple[tuple[tuple[Action, ...], ...], ...]
    borrow_opts: tuple[tuple[tuple[Action, ...], ...], ...]
    back_owner: tuple[tuple[int, ...], ...]
    play_of: dict[int, tuple[Action, ...]]
    borrow_of: dict[int, tuple[Action, ...]]

    def _build_actions(self) -> tuple[Action, ...]:
        n = self.num_players
        actions: list[Action] = [
            KingsCourtAction(0, "end", END),
            KingsCourtAction(1, "pass", PASS),
        ]
        for kind, word in ((PLAY, "play"), (BORROW, "borrow")):
            for card in DECK:
                if VALUE[card]:
                    actions.append(
                        KingsCourtAction(len(actions), f"{word} {_word(card)}", kind, card)
                    )
                else:
                    for target in range(n):
                        actions.append(
                            KingsCourtAction(
                                len(actions),
                                f"{word} {_word(card)} {seat_text(target)}",
                                kind,
                                card,
                                target,
                            )
                        )
        return tuple(actions)

    def _check_options(self) -> None:
        n = self.num_players
        self.track_length = int(self.options["track_length"])
        self.safety_cap = int(self.options["safety_cap"])
        self.initial_hand_size = int(self.options["initial_hand_size"])
        self.prefilter = bool(self.options["prefilter_unused_suits"])
        if not 0 <= self.initial_hand_size <= 13:
            raise InvalidOptions("kings-court: initial_hand_size must be from 0 to 13")
        # KC-3: the seats own hearts, spades, clubs, diamonds in that order.
        owner = [-1] * 52
        for seat in range(n):
            for card in DECK:
                if SUIT[card] == SEAT_SUIT[seat]:
                    owner[card] = seat
        self.owner = tuple(owner)
        # KC-2: with prefilter_unused_suits the unowned suits never enter the deck.
        self.deck = tuple(c for c in DECK if owner[c] >= 0) if self.prefilter else tuple(DECK)
        actions = self.actions
        self.end = actions[0]
        self.pass_ = actions[1]
        play_of: dict[int, list[Action]] = {c: [] for c in DECK}
        borrow_of: dict[int, list[Action]] = {c: [] for c in DECK}
        for action in actions[2:]:
            assert isinstance(action, KingsCourtAction)
            (play_of if action.kind == PLAY else borrow_of)[action.card].append(action)
        self.play_of = {c: tuple(a) for c, a in play_of.items()}
        self.borrow_of = {c: tuple(a) for c, a in borrow_of.items()}
        self.play_opts = tuple(self._options_for(seat, self.play_of) for seat in range(n))
        self.borrow_opts = tuple(self._options_for(seat, self.borrow_of) for seat in range(n))
        # The seat a number card would move back when ``seat`` plays it (-1: none, KC-9).
        self.back_owner = tuple(
            tuple(owner[c] if VALUE[c] and owner[c] >= 0 and owner[c] != seat else -1 for c in DECK)
            for seat in range(n)
        )

    def _options_for(
        self, seat: int, by_card: dict[int, tuple[Action, ...]]
    ) -> tuple[tuple[Action, ...], ...]:
        """For each card: the actions it allows ``seat`` (KC-10: own face cards on any opponent,
        another suit's face cards only on that suit's player, never on oneself)."""
        result: list[tuple[Action, ...]] = []
        for card in DECK:
            owner = self.owner[card]
            if owner < 0:
                result.append(())
            elif VALUE[card]:
                result.append(by_card[card])
            elif owner == seat:
                result.append(tuple(a for a in by_card[card] if _target(a) != seat))
            else:
                result.append(tuple(a for a in by_card[card] if _target(a) == owner))
        return tuple(result)

    def new_state(self) -> KingsCourtState:
        return KingsCourtState(self)


def _target(action: Action) -> int:
    assert isinstance(action, KingsCourtAction)
    return action.target
