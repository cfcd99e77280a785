"""The Crush the Crown game object: its facts, options and action space
(docs/rules/crush-the-crown.md §10)."""

from __future__ import annotations

from typing import Any, Final

from ...core.actions import SEAT_OUTCOMES, Action
from ...core.cards import CARDS, KING, NUM_STANDARD_CARDS, QUEEN
from ...core.game import BotInfo, Game, GameInfo, GameLength
from ...core.options import Option
from ...core.tutorial import Tutorial
from .components import (
    BUILD_CARDS,
    DISCARD,
    DISCOVER,
    EXTEND,
    FIRE_CARD,
    GIVE,
    HAND_CARDS,
    JOKER,
    MARRY,
    PASS,
    PLACE_SPY,
    SPY_CARDS,
    CrushTheCrownAction,
    CrushTheCrownTables,
)
from .heuristic import ENDGAME_SLOT, CrushTheCrownHeuristic
from .rules import CrushTheCrownState
from .rules_text import RULES
from .tensor import tensor_layout
from .text import CrushTheCrownText
from .views import CrushTheCrownViews

OPTIONS: Final = (
    Option(
        "use_jokers",
        True,
        "two jokers in the deck, played as wild spies (CTC-2)",
        label="Jokers",
        about="Adds the two jokers to the deck: each is a wild spy, taking the rank of its slot.",
    ),
    Option(
        "hand_size",
        5,
        "cards dealt to each player and the refill target (CTC-16)",
        minimum=1,
        maximum=15,
        label="Hand size",
        about="Cards dealt to each player, and the number he draws back up to every turn.",
    ),
    Option(
        "one_gov_card_per_build",
        True,
        "one government card per Build, extension or discovery (CTC-9); "
        "false: one extension plus any number of discoveries",
        label="One government card a turn",
        about="On: a turn builds one card, extending or exposing a spy. "
        "Off: one extension plus as many spies exposed as you can.",
    ),
    Option(
        "safety_cap",
        400,
        "safety cap: after this many turns the game is a draw (CTC-26)",
        minimum=1,
        maximum=2000,
        label="Turn limit",
        about="After this many turns without a winner the game ends in a draw.",
    ),
)

SPY_SLOTS: Final = 11
"""The slots of a government that can hold a spy: J down to A (the King and Queen are real)."""


TUTORIAL: Final = Tutorial(
    players=2,
    opponents=("heuristic",),
    # p1 deals, so the learner (p0) marries first and plays first (CTC-3, CTC-7). The cards are
    # dealt one at a time, p0 first, then drawn in this order by whoever draws. On the line the
    # coach walks (marry QD, extend JD, spy JC, fire 2H, give 5H, discover 10C, spy QS) and the
    # bot's own choices, the learner meets the marriage, a build, a spy and the tribute it
    # earns, a useless card fired, the suit rule of a tribute paid, a spy exposed and a wild
    # spy. Each card is a different one (no King, no joker) and the draw pile holds 40 after
    # the deal, so no reshuffle comes before the last: each is still in the draw pile when due,
    # whoever draws it.
    deal=(
        "p1",  # the dealer
        # The deal, one card at a time, p0 first.
        "QD",  # p0: a Queen to marry, with JD to build on her
        "QH",  # p1: his Queen
        "JD",  # p0: the first member of his government
        "10D",  # p1: his only diamond, so the tribute he pays on turn 1
        "QS",  # p0: a second Queen, to choose from, then a wild spy
        "10C",  # p1: a spy for p0's 10 slot
        "JC",  # p0: a spy for p1's Jack slot
        "10H",  # p1: his next member, built on the spy
        "2H",  # p0: p1's suit, never playable: a card to fire (CTC-20)
        "3S",  # p1
        "9D",  # p0 refills after marrying: his next member after the 10
        "6C",  # p1 refills after marrying
        "7H",  # p0 after firing 2H, and
        "5H",  # two hearts, so the tribute he owes on turn 2 is a choice (CTC-14)
        "8C",  # p1 after firing 3S; the diamond 2D is one of the
        "2D",  # two cards of tribute he owes p0's two spies on turn 3 (CTC-14)
        "AS",
    ),
    lessons=8,
)
"""The first game that teaches (:mod:`courtly.core.tutorial`): the learner against the
heuristic, on a deal that shows the game's ideas one decision at a time."""


def longest_game(game: Game) -> GameLength:
    """The longest Crush the Crown game with ``game``'s options: a proven bound."""
    hand_size = int(game.options["hand_size"])
    turns = int(game.options["safety_cap"])  # CTC-26: no more turns than the cap
    deck = 48 + (2 if game.options["use_jokers"] else 0)  # §2: the Kings are set aside
    # Setup (§2, CTC-3): the dealer, then hand_size cards to each.
    chance = 1 + 2 * hand_size
    # Marriage (§3, CTC-5/6): a player discards only while he holds no Queen, so no Queen ever
    # lies in the discard pile and no reshuffle brings one back. Each discard draws one card from
    # the draw pile (at most deck - 2 * hand_size cards), where the Queen he will draw lies, or
    # the rival must give him one (one decision). He marries (one decision) and refills (at most
    # hand_size draws).
    search = deck - 2 * hand_size
    decisions = 2 * (search + 1)
    chance += 2 * (search + hand_size)
    # A turn (§4): the Build is one government card (CTC-9) or, by option, one extension and a
    # discovery per spy in the own government, then a pass; a spy placed or not; a tribute card
    # per spy of his in the rival's government (CTC-13); a card fired or not (CTC-17); then at
    # most hand_size draws to refill (CTC-16).
    builds = 1 if game.options["one_gov_card_per_build"] else 1 + SPY_SLOTS + 1
    decisions += turns * (builds + 1 + SPY_SLOTS + 1)
    chance += turns * hand_size
    return GameLength(decisions=decisions, chance=chance)


"""Card -> action, 55 entries; cards that have no such action hold None (never looked up: the
rules only index a table with a card the action exists for)."""


class CrushTheCrown(Game):
    """Crush the Crown for two players."""

    info = GameInfo(
        id="crush-the-crown",
        title="Crush the Crown",
        min_players=2,
        max_players=2,
        default_players=2,
        summary="Build your government from King down to Ace while your spies bleed the rival's.",
        text=CrushTheCrownText(),
        views=CrushTheCrownViews(),
        options=OPTIONS,
        rules=RULES,
        bots=(
            BotInfo(
                "heuristic",
                CrushTheCrownHeuristic,
                "Builds first, spies always, gives and fires the least useful cards.",
                (
                    Option(
                        "fire_below",
                        10.0,
                        "fire its least useful card when that is worth less than this (a draw is worth more)",
                        minimum=0.0,
                        label="Fire below",
                        about="The bot fires its least useful card when that card is worth "
                        "less than this.",
                    ),
                    Option(
                        "endgame_slot",
                        ENDGAME_SLOT,
                        "keep wild spies until the rival's government has this many cards (0: place them at once)",
                        minimum=0,
                        maximum=12,
                        label="Wild spies wait for",
                        about="The bot keeps its wild spies until the rival's government "
                        "holds this many cards (0: it places them at once).",
                    ),
                    Option(
                        "reserve",
                        99,
                        "wild spies it may hold back while waiting for endgame_slot",
                        minimum=0,
                        label="Wild spies held back",
                        about="How many wild spies the bot may keep in hand while it waits.",
                    ),
                ),
            ),
        ),
        search_hooks=CrushTheCrownHeuristic,
        simultaneous=False,
        hidden_information=True,
        renamed_options={"max_turns": "safety_cap"},
        longest_game=longest_game,
        tensor_layout=tensor_layout,
        tutorial=TUTORIAL,
    )

    def _build_chance_outcomes(self) -> tuple[Any, ...]:
        # The dealer, then a card of the draw pile; the two jokers are one outcome (they are
        # interchangeable, and the pile's chance lists them once).
        cards = [c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank != KING]
        if self.options["use_jokers"]:
            cards.append(CARDS[JOKER])
        return (*SEAT_OUTCOMES[:2], *cards)

    def _build_actions(self) -> tuple[Action, ...]:
        actions: list[Action] = [CrushTheCrownAction(0, "pass", PASS)]

        def family(kind: int, word: str, cards: tuple[int, ...]) -> None:
            for c in cards:
                # Cards keep their own text (spy QC); people type them in any case.
                text = f"{word} {CARDS[c]}"
                actions.append(CrushTheCrownAction(len(actions), text, kind, CARDS[c]))

        queens = tuple(c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank == QUEEN)
        family(MARRY, "marry", queens)
        family(DISCARD, "discard", HAND_CARDS)
        family(GIVE, "give", HAND_CARDS)
        family(EXTEND, "extend", BUILD_CARDS)
        family(DISCOVER, "discover", BUILD_CARDS)
        family(PLACE_SPY, "spy", SPY_CARDS)
        family(FIRE_CARD, "fire", HAND_CARDS)
        return tuple(actions)

    def _check_options(self) -> None:
        self.tables = CrushTheCrownTables(
            self.actions,
            use_jokers=bool(self.options["use_jokers"]),
            hand_size=int(self.options["hand_size"]),
            one_gov_card_per_build=bool(self.options["one_gov_card_per_build"]),
            safety_cap=int(self.options["safety_cap"]),
        )

    def new_state(self) -> CrushTheCrownState:
        return CrushTheCrownState(self, self.tables)
