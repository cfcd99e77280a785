"""The God Save The King game object: its facts, options and action space
(docs/rules/god-save-the-king.md §11)."""

from __future__ import annotations

from typing import Any, Final

from ...core.actions import Action
from ...core.cards import CARDS, RANK_TEXT
from ...core.game import BotInfo, Game, GameInfo, GameLength
from ...core.options import Option
from ...core.tutorial import Tutorial
from .components import (
    CHALLENGE,
    DECLARE,
    FORM,
    MIDDLE,
    PASS,
    RANK_WORDS,
    ROUTE,
    SLOT_NAMES,
    GodSaveTheKingAction,
    GodSaveTheKingTables,
)
from .heuristic import GodSaveTheKingHeuristic
from .rules import GodSaveTheKingState
from .rules_text import RULES
from .tensor import tensor_layout
from .text import GodSaveTheKingText
from .views import GodSaveTheKingViews

OPTIONS: Final = (
    Option(
        "max_redeclare",
        2,
        "extra declaration rounds after a tie in a blind skirmish before the trick is void (GSK-7)",
        minimum=0,
        maximum=50,
        label="Repeats after a tied declaration",
        about="How many times players who declared the same rank declare again before the trick "
        "is void.",
    ),
    Option(
        "routes_per_hand",
        1,
        "route attempts each player may make per hand (GSK-12; 0 = no routing)",
        minimum=0,
        maximum=13,
        label="Routes per hand",
        about="How many times each player may claim, in one hand, that a rival's face-down card "
        "is his King; 0 turns routes off.",
    ),
    Option(
        "route_window",
        "after_skirmish",
        "after_skirmish: route the rival's middle card after the columns (GSK-13); "
        "before_reveal: route any of his three face-down cards before they are shown",
        choices=("after_skirmish", "before_reveal"),
        label="When to route",
        about="After the skirmishes, aimed at the rival's middle card; or before the reveal, "
        "aimed at any of his three face-down cards.",
        choice_labels=("After the skirmishes", "Before the reveal"),
    ),
    Option(
        "trick_pile_private_until_hand_end",
        True,
        "nobody, not even its owner, looks at a trick pile before the end of the hand (GSK-21)",
        label="Trick piles unseen until the hand ends",
        about="On: nobody looks at a trick pile before the hand ends, not even its owner. Off: "
        "you see the cards you win as you take them.",
    ),
    Option(
        "exposed_king_legal",
        True,
        "a player may put his own King in an outside slot (and is eliminated at the reveal, GSK-5)",
        label="King may be laid left or right",
        about="On: you may lay your own King in an outside slot, and are out when it is turned "
        "up. Off: your King may only go in the middle.",
    ),
    Option(
        "safety_cap",
        300,
        "safety cap: after this many tricks the player holding the most cards wins (GSK-29)",
        minimum=1,
        maximum=1000,
        label="Safety cap (tricks)",
        about="After this many tricks the game stops, and the player holding the most cards wins.",
    ),
)


def longest_game(game: Game) -> GameLength:
    """The longest God Save The King game with ``game``'s options: a proven bound."""
    # GSK-29: the cap is checked after each round, and a round of four players holds two tricks
    # (GSK-26), so the last round may end one trick past the cap.
    tricks = int(game.options["safety_cap"]) + (1 if game.num_players == 4 else 0)
    routes = 2 if int(game.options["routes_per_hand"]) else 0
    # One trick (§5): both players form three cards each (one decision a card); one route
    # window asks each of them at most once (GSK-13), and each route resolved may draw a card
    # from the router's hand (§5, settling a route, b); a push is declared by both at most
    # 1 + max_redeclare times (GSK-7); the loser may challenge once (GSK-8), and a challenge
    # draws one card (T6e).
    declarations = 2 * (1 + int(game.options["max_redeclare"]))
    per_trick = 6 + routes + declarations + 1
    # The only chance events are those draws (§10); the end of a hand draws nothing.
    return GameLength(decisions=tricks * per_trick, chance=tricks * (routes + 1))


TUTORIAL: Final = Tutorial(
    players=2,
    opponents=("heuristic",),
    # Nothing is dealt (§3): the learner holds the spades, the bot the hearts, and the first
    # trick asks at once for a formation, a route or a pass, and in a push a declaration or a
    # challenge. The only chance is a card drawn blindly from a hand (§10), and whose hand
    # depends on who routes or challenges: no card prepared for it is sure to be in that hand
    # whatever the learner plays, so none is.
    deal=(),
    lessons=8,
)
"""A first game: the learner (p0, spades) against the heuristic, each decision of its first
trick and the next one explained."""


class GodSaveTheKing(Game):
    """God Save The King for 2-4 players."""

    info = GameInfo(
        id="god-save-the-king",
        title="God Save The King",
        min_players=2,
        max_players=4,
        default_players=2,
        summary="Bluffing tricks: hide your King in a face-down formation and rout the others'.",
        text=GodSaveTheKingText(),
        views=GodSaveTheKingViews(),
        options=OPTIONS,
        rules=RULES,
        bots=(
            BotInfo(
                "heuristic",
                GodSaveTheKingHeuristic,
                "Keeps its King hidden, routes a likely King, declares and challenges by the odds.",
                (
                    Option(
                        "route_at",
                        0.3,
                        "the least chance of a King that is worth a route",
                        minimum=0.0,
                        maximum=1.0,
                        label="Routes at",
                        about="How likely a rival's card must be his King before the bot routes "
                        "it (0 to 1).",
                    ),
                    Option(
                        "bluff_mix",
                        0.1,
                        "how often it bluffs a declaration",
                        minimum=0.0,
                        maximum=1.0,
                        label="Bluffs",
                        about="How often the bot varies its declaration, mostly by bluffing higher (0 to 1).",
                    ),
                ),
            ),
        ),
        search_hooks=GodSaveTheKingHeuristic,
        simultaneous=True,
        hidden_information=True,
        renamed_options={"max_tricks": "safety_cap"},
        longest_game=longest_game,
        tensor_layout=tensor_layout,
        tutorial=TUTORIAL,
    )

    def _build_chance_outcomes(self) -> tuple[Any, ...]:
        # A card drawn from a hand: one of the suits in play.
        return CARDS[: 13 * self.num_players]

    def _build_actions(self) -> tuple[Action, ...]:
        deck = CARDS[: 13 * self.num_players]
        actions: list[Action] = []
        for slot in range(3):
            for c in deck:
                actions.append(
                    GodSaveTheKingAction(
                        len(actions), f"form {SLOT_NAMES[slot]} {c}", FORM, slot=slot, card=c
                    )
                )
        if self.options["route_window"] == "before_reveal":
            for slot in range(3):
                actions.append(
                    GodSaveTheKingAction(
                        len(actions), f"route {SLOT_NAMES[slot]}", ROUTE, slot=slot
                    )
                )
        else:
            actions.append(GodSaveTheKingAction(len(actions), "route", ROUTE, slot=MIDDLE))
        actions.append(GodSaveTheKingAction(len(actions), "pass", PASS))
        for rank in range(2, 15):
            actions.append(
                GodSaveTheKingAction(
                    len(actions), f"declare {RANK_TEXT[rank].lower()}", DECLARE, rank=rank
                )
            )
        actions.append(GodSaveTheKingAction(len(actions), "challenge", CHALLENGE))
        return tuple(actions)

    def _check_options(self) -> None:
        actions = self.actions
        self.tables = GodSaveTheKingTables(
            self.num_players,
            actions,
            early_route=self.options["route_window"] == "before_reveal",
            max_redeclare=int(self.options["max_redeclare"]),
            routes_per_hand=int(self.options["routes_per_hand"]),
            private_piles=bool(self.options["trick_pile_private_until_hand_end"]),
            exposed_king_legal=bool(self.options["exposed_king_legal"]),
            safety_cap=int(self.options["safety_cap"]),
        )
        # What people may type besides the canonical texts: "left 10S", "declare Queen".
        self._aliases: dict[str, Action] = {a.text.lower(): a for a in actions}
        for a in actions:
            assert isinstance(a, GodSaveTheKingAction)
            if a.kind == FORM:
                self._aliases[a.text.lower().removeprefix("form ")] = a
        for word, rank in RANK_WORDS.items():
            self._aliases[f"declare {word}"] = self.tables.declare_legal[rank - 2]

    def action_from_text(self, text: str) -> Action | None:
        """The action written ``text``: case and spacing ignored; ``left 10S`` for
        ``form left 10S`` and ``declare Queen`` for ``declare q`` are accepted too."""
        key = " ".join(text.strip().lower().split())
        return self._aliases.get(key)

    def new_state(self) -> GodSaveTheKingState:
        # Every game starts alike (each player holds his whole suit): copy a ready-made start.
        template = self.__dict__.get("_start")
        if template is None:
            template = self._start = GodSaveTheKingState(self, self.tables)
        return template._copy(knowledge=False)
