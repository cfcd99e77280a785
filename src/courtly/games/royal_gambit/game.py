"""The Royal Gambit game object: its facts, options and action space
(docs/rules/royal-gambit.md §6)."""

from __future__ import annotations

from typing import Any, Final

from ...core.actions import SEAT_OUTCOMES, Action, seat_text
from ...core.errors import InvalidOptions
from ...core.game import BotInfo, Game, GameInfo, GameLength
from ...core.options import Option
from ...core.tutorial import Tutorial
from .components import (
    DECK,
    GIVE_SEVEN,
    HIT_OR_STAY,
    JACK_TARGET,
    RoyalGambitAction,
    RoyalGambitTables,
)
from .heuristic import RoyalGambitHeuristic
from .rules import RoyalGambitState
from .rules_text import RULES
from .tensor import tensor_layout
from .text import RoyalGambitText
from .views import RoyalGambitViews

OPTIONS: Final = (
    Option(
        "target_score",
        30,
        "a total at or above this after a hand triggers the final hand",
        minimum=1,
        maximum=1000,
        label="Target score",
        about="When a hand ends with someone on this total or more, one final hand is played.",
    ),
    Option(
        "turn_mode",
        "round_robin",
        "round_robin: one hit or stay per turn, everyone in the hand at once (RG-1); "
        "full_turn: each player hits until he stays or busts, then the next",
        choices=("round_robin", "full_turn"),
        label="Turns",
        about="One hit or stay per turn with every row growing together, "
        "or one long turn each until the player stays or busts.",
        choice_labels=("One hit or stay per turn", "One long turn each"),
    ),
    Option(
        "ten_blocks_jacks",
        False,
        "a player with a 10 in his row cannot be chosen by a Jack (RG-12)",
        label="A 10 blocks Jacks",
        about="A player whose row shows a 10 cannot be made to flip by a Jack.",
    ),
    Option(
        "auto_hit_on_zero",
        False,
        "a player whose row scores 0 must hit on his turn (RG-13)",
        label="Must hit on zero",
        about="A player whose row is worth 0 points cannot stay: he must hit.",
    ),
    Option(
        "final_hand_excludes",
        "leaders",
        "who sits out the final hand: leaders (the highest totals) or at_or_above_target",
        choices=("leaders", "at_or_above_target"),
        label="Who sits out the final hand",
        about="The players level on the highest total, or everyone who has reached the target.",
        choice_labels=("The leaders", "Everyone at or above the target"),
    ),
    Option(
        "safety_cap",
        200,
        "safety cap: after this many hands the highest total wins",
        minimum=1,
        maximum=1000,
        label="Safety cap (hands)",
        about="After this many hands the game stops: the highest total wins, a tie is shared.",
    ),
)


TUTORIAL: Final = Tutorial(
    players=2,
    opponents=("heuristic",),
    # The first hand, the learner (p0) starting; the cards go to whoever hits, in this order.
    # On the line the coach walks (hit, hit, hit, give the 7, hit, hit, hit, stay) and the bot's
    # own choices, the learner meets in turn a free first hit, a small risk, the King's
    # doubling, a 7 to hand on that then busts the bot, a Queen and the pardon it gives, and a
    # comfortable stay on 18. Every card is a different one of the 52 and the deck is whole at
    # the hand's start, so each is still in the deck when due, whoever draws it.
    deal=(
        "p0",  # the learner starts the first hand (RG-3)
        "4H",  # p0: a first card can never bust (an empty row)
        "9C",  # p1: a card worth nothing: the bot hits on
        "KS",  # p0: the King doubles the row, 4 -> 8 (RG-15)
        "3D",  # p1
        "7D",  # p0: the hot potato, handed to p1 (RG-9)
        "7H",  # p1: a second 7 busts the bot, who loses his row (RG-6)
        "QC",  # p0: a Queen, playing on alone
        "4S",  # p0: a second 4, pardoned by the Queen (RG-8)
        "5C",  # p0: the row worth 18, and the choice to stay on it
    ),
    lessons=8,
)
"""The first game that teaches (:mod:`courtly.core.tutorial`): the learner against the
heuristic, on a first hand dealt to show the game's ideas one decision at a time."""


def longest_game(game: Game) -> GameLength:
    """The longest Royal Gambit game with ``game``'s options: a proven bound."""
    players = game.num_players
    hands = int(game.options["safety_cap"])  # RG-26: no more hands than the cap
    # Cards drawn in one hand: the deck is whole again at every hand (§3), so at most 52; and
    # at most what the rows can take. A seat draws only while active, and an active row holds
    # one card of each rank (RG-6/7: a repeated rank busts it, or leaves with the pardoning
    # Queen; RG-9: a 7 goes only to a row without one): 13 cards, and the one that busts it.
    # Pardoned pairs are set aside, one per Queen: 8 cards.
    draws = min(52, 14 * players + 8)
    # Decisions in one hand: a hit draws a card, or ends the hand on an empty deck (RG-18): at
    # most draws + 1; a stay takes its seat out of the hand: at most one per seat; a 7 to give
    # (RG-9) or a Jack's target (RG-11) follows a drawn 7 or Jack: at most 4 of each.
    per_hand = draws + 1 + players + 4 + 4
    # Chance: the first start player (RG-3), then the draws.
    return GameLength(decisions=hands * per_hand, chance=1 + hands * draws)


class RoyalGambit(Game):
    """Royal Gambit for 2-5 players."""

    info = GameInfo(
        id="royal-gambit",
        title="Royal Gambit",
        min_players=2,
        max_players=5,
        default_players=2,
        summary="Push your luck: flip cards for points, a repeated rank busts you.",
        text=RoyalGambitText(),
        views=RoyalGambitViews(),
        options=OPTIONS,
        rules=RULES,
        bots=(
            BotInfo(
                "heuristic",
                RoyalGambitHeuristic,
                "Counts the deck and weighs the risk of a bust against the points to gain.",
                (
                    Option(
                        "caution",
                        1.0,
                        "how much a bust weighs against a gain; above 1 stays sooner",
                        minimum=0.0,
                        label="Caution",
                        about="How much the bot fears a bust: above 1 it stays sooner.",
                    ),
                ),
            ),
        ),
        search_hooks=RoyalGambitHeuristic,
        simultaneous=False,
        hidden_information=False,
        renamed_options={"max_hands": "safety_cap"},
        longest_game=longest_game,
        tensor_layout=tensor_layout,
        tutorial=TUTORIAL,
    )

    def _build_chance_outcomes(self) -> tuple[Any, ...]:
        # The start player (RG-3), then a card of the deck.
        return (*SEAT_OUTCOMES[: self.num_players], *DECK)

    def _build_actions(self) -> tuple[Action, ...]:
        n = self.num_players
        actions: list[Action] = [
            RoyalGambitAction(0, "hit", HIT_OR_STAY),
            RoyalGambitAction(1, "stay", HIT_OR_STAY),
        ]
        actions += [
            RoyalGambitAction(2 + s, f"give-7 {seat_text(s)}", GIVE_SEVEN, s) for s in range(n)
        ]
        actions += [
            RoyalGambitAction(2 + n + s, f"jack {seat_text(s)}", JACK_TARGET, s) for s in range(n)
        ]
        return tuple(actions)

    def _check_options(self) -> None:
        if not isinstance(self.options["target_score"], int):
            raise InvalidOptions("royal-gambit: target_score must be an integer")
        actions = self.actions
        self.hit = actions[0]
        self.stay = actions[1]
        self.full_turn = self.options["turn_mode"] == "full_turn"
        self.target_score = int(self.options["target_score"])
        self.ten_blocks_jacks = bool(self.options["ten_blocks_jacks"])
        self.auto_hit_on_zero = bool(self.options["auto_hit_on_zero"])
        self.favorites_at_or_above_target = (
            self.options["final_hand_excludes"] == "at_or_above_target"
        )
        self.safety_cap = int(self.options["safety_cap"])
        self.tables = RoyalGambitTables(
            self.num_players,
            actions,
            target_score=self.target_score,
            full_turn=self.full_turn,
            ten_blocks_jacks=self.ten_blocks_jacks,
            auto_hit_on_zero=self.auto_hit_on_zero,
            favorites_at_or_above_target=self.favorites_at_or_above_target,
            safety_cap=self.safety_cap,
        )

    def new_state(self) -> RoyalGambitState:
        return RoyalGambitState(self, self.tables)
