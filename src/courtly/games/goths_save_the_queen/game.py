"""The Goths Save the Queen game object: its facts, options, seats and action space
(docs/rules/goths-save-the-queen.md §9).

Seats (4 players): p0 Ostrogoth King, p1 Visigoth King, p2 Ostrogoth Warchief, p3 Visigoth
Warchief; a clan is the seats of one parity, so ``courtly simulate --seats A,B,A,B`` puts agent A
in both Ostrogoth seats, and the one-seat rotation of a simulation swaps the clans' sides every
game. With the UNOFFICIAL ``solo_clans`` (GOTH-23) a solo clan has one seat, its chief, listed
with the Kings: Visigoths solo -> p0 O-King, p1 V-chief, p2 O-Warchief; Ostrogoths solo -> p0
O-chief, p1 V-King, p2 V-Warchief; both -> p0 O-chief, p1 V-chief.
"""

from __future__ import annotations

from typing import Any, Final

from ...core.actions import Action
from ...core.errors import InvalidOptions
from ...core.game import BotInfo, Game, GameInfo, GameLength
from ...core.options import Option
from ...core.tutorial import Tutorial
from .components import (
    BUILD,
    BUILD_OR_DISCARD,
    CHARACTER_LETTERS,
    CLAN_NAMES,
    CYCLE_DECOYS,
    DISCARD_FOG,
    ENTER,
    FOG_DRAWS,
    FRONT,
    KING_CARD,
    KING_CARD_NAMES,
    LOOK,
    LOOK_FOG,
    OBJECTIVE_ORDERS,
    ORDER,
    ORDER_WORDS,
    GothsSaveTheQueenAction,
    GothsSaveTheQueenTables,
)
from .heuristic import GothsSaveTheQueenHeuristic
from .rules import GothsSaveTheQueenState
from .rules_text import RULES
from .tensor import tensor_layout
from .text import GothsSaveTheQueenText
from .views import GothsSaveTheQueenViews

SOLO_CHOICES: Final = ("none", "ostrogoths", "visigoths", "both")
SOLO_SEATS: Final = {"none": 4, "ostrogoths": 3, "visigoths": 3, "both": 2}

SOLO_CHOICE_LABELS: Final = (
    "No: two Kings and two Warchiefs (4 players)",
    "The Ostrogoths are one player (3 players)",
    "The Visigoths are one player (3 players)",
    "Both clans are one player each (2 players)",
)

FIRST_INITIATIVE_CHOICES: Final = ("ostrogoths", "visigoths")
FIRST_INITIATIVE_LABELS: Final = (
    "The Ostrogoths (the rule sheet)",
    "The Visigoths",
)

OPTIONS: Final = (
    Option(
        "king_backs",
        "cycle",
        "the two characters on each King card's back (GOTH-1): cycle = the table of "
        "docs/rules/goths-save-the-queen.md §1 "
        "(V/R, R/C, C/B, B/V, each on two cards), or eight codes for V1 V2 R1 R2 C1 C2 B1 B2, "
        "front then decoy, e.g. vr,vb,rv,rc,cr,cb,bc,bv",
        allowed_text="cycle, or eight codes for V1 V2 R1 R2 C1 C2 B1 B2, each its front letter "
        "then a different decoy letter (v, r, c, b), the two cards of a character with different "
        "decoys, e.g. vr,vb,rv,rc,cr,cb,bc,bv",
        label="King card backs",
        about="What the back of each King card shows besides its own character: by default "
        "Vulture/Recruiter, Recruiter/Catapult, Catapult/Barbarian or Barbarian/Vulture, each "
        "back on two cards; your own table if you write one.",
    ),
    Option(
        "fog_of_war",
        False,
        "the Fog of War variant: a hidden token on each clan's P2 "
        "(docs/rules/goths-save-the-queen.md §6)",
        label="Fog of War",
        about="A hidden token lies on each clan's Plains next to the Objectives; once its army "
        "steps on it, it hampers one of that clan's orders until they discard it.",
    ),
    Option(
        "barricade_on_trap_objective",
        True,
        "an army on the revealed Trap may barricade it (GOTH-9); never on the Plains Objective",
        label="Barricades on the Trap",
        about="An army standing on the Trap, once it is face up, may build a barricade there "
        "(never on the Plains Objective).",
    ),
    Option(
        "trap_every_entry",
        True,
        "the Trap costs a figurine on every entry; false: only to the army that reveals it (GOTH-10)",
        label="The Trap bites every time",
        about="Every army that enters the Trap loses a figurine; when off, only the army that "
        "turns it face up.",
    ),
    Option(
        "fog_discard_requires_same_card",
        False,
        "discarding a revealed Fog token needs the army on its own P2 (GOTH-19)",
        label="Discard the Fog where it lay",
        about="A revealed Fog token may be discarded only while its army stands on the Plains "
        "where it lay; when off, from anywhere.",
    ),
    Option(
        "solo_clans",
        "none",
        "UNOFFICIAL 2/3-player play (GOTH-23): which clans are run by one chief who picks orders "
        "directly, never the same character twice running; none (two full clans) needs 4 "
        "players; left out, 3 players play visigoths and 2 players both",
        choices=SOLO_CHOICES,
        unofficial=True,
        label="One player for a clan",
        about="Unofficial, for 2 or 3 players: a clan run by one player, who gives its orders "
        "without King cards, never two of the same character in a row.",
        choice_labels=SOLO_CHOICE_LABELS,
    ),
    Option(
        "first_initiative",
        "ostrogoths",
        "the clan holding the Initiative token on turn 1 (GOTH-27; the rule sheet: the "
        "Ostrogoths, GOTH-7)",
        choices=FIRST_INITIATIVE_CHOICES,
        label="First initiative",
        about="Which clan's King lays his card first on turn 1; the initiative then changes "
        "hands every turn. The rule sheet gives it to the Ostrogoths.",
        choice_labels=FIRST_INITIATIVE_LABELS,
    ),
    Option(
        "safety_cap",
        300,
        "safety cap: after this many turns the game is a draw",
        minimum=1,
        maximum=1000,
        label="Safety cap (turns)",
        about="After this many turns without a winner the game ends in a draw.",
    ),
)


TUTORIAL: Final = Tutorial(
    # The official table of four: the learner is the Ostrogoth King (p0), whose part is the
    # heart of the game (§3 A): he picks a character and lays the card whose back his Warchief
    # (a bot, p2) must read; the Visigoth King and Warchief are bots too. Each lesson is one
    # turn's King card: the first comes before any other card is down (the learner reads the
    # backs of his hand), the second after the Visigoth King's (he reads an enemy back and what
    # it threatens), and a wrong reading leaves a card face up for the next (GOTH-3).
    players=4,
    opponents=("heuristic", "heuristic", "heuristic"),
    # The one chance event of the base game (§8): the Objectives from 0 to 2, face down. No
    # army can enter one before its third Advance, so the first lessons are about the backs,
    # the orders and the fight; nobody sees the layout, so any layout gives a blind entry the
    # same odds (the Queen 1 in 3, the Trap 1 in 3): fixing one keeps the tutorial the same
    # game each time it is played.
    deal=("trap,queen,plains",),
    lessons=6,
)
"""A first game that teaches (docs/rules/goths-save-the-queen.md §3): the learner is the
Ostrogoth King beside three heuristic bots."""


def parse_king_backs(game_id: str, text: str) -> tuple[int, ...]:
    """The decoy character of each King card from the ``king_backs`` option."""
    key = text.strip().lower()
    if key == "cycle":
        return CYCLE_DECOYS
    codes = [part.strip() for part in key.replace(" ", ",").split(",") if part.strip()]
    bad = InvalidOptions(
        f"{game_id}: option king_backs must be cycle or eight codes for V1 V2 R1 R2 C1 C2 B1 B2, "
        f"each its front letter then a different decoy letter (v, r, c, b), the two cards of a "
        f"character with different decoys, e.g. vr,vb,rv,rc,cr,cb,bc,bv; not {text!r}"
    )
    letters = CHARACTER_LETTERS.lower()
    if len(codes) != 8 or any(len(code) != 2 for code in codes):
        raise bad
    decoys = []
    for card, code in enumerate(codes):
        front, decoy = letters.find(code[0]), letters.find(code[1])
        if front != FRONT[card] or decoy < 0 or decoy == front:
            raise bad
        decoys.append(decoy)
    for card in range(0, 8, 2):
        if decoys[card] == decoys[card + 1]:
            raise bad
    return tuple(decoys)


def longest_game(game: Game) -> GameLength:
    """The longest Goths Save the Queen game with ``game``'s options: a proven bound."""
    turns = int(game.options["safety_cap"])  # GOTH-26: no more turns than the cap
    # A turn (§3): each King lays a card (a solo clan has no King, GOTH-23: the Kings are the
    # seats beyond the two order givers), both Warchiefs or chiefs give an order, and each clan
    # that succeeds makes at most one sub-choice of its action (GOTH-5).
    kings = game.num_players - 2
    decisions = turns * (kings + 2 + 2)
    # Chance (§8): the order of the Objectives, and the Fog tokens in the variant.
    return GameLength(decisions=decisions, chance=1 + (1 if game.options["fog_of_war"] else 0))


class GothsSaveTheQueen(Game):
    """Goths Save the Queen: 4 seats in two clans (2 or 3 with the unofficial solo clans)."""

    info = GameInfo(
        id="goths-save-the-queen",
        title="Goths Save the Queen",
        min_players=2,
        max_players=4,
        default_players=4,
        summary="Two clans: the King picks a character in secret, the Warchief must guess it.",
        text=GothsSaveTheQueenText(),
        views=GothsSaveTheQueenViews(),
        options=OPTIONS,
        rules=RULES,
        bots=(
            BotInfo(
                "heuristic",
                GothsSaveTheQueenHeuristic,
                "King and Warchief read each other through the card backs and the board.",
                (
                    Option(
                        "confidence",
                        0.75,
                        "how surely a Warchief reads the King card behind a back",
                        minimum=0.5,
                        maximum=1.0,
                    ),
                    Option(
                        "slack",
                        0.3,
                        "how far below the best order a King card may lead",
                        minimum=0.0,
                    ),
                ),
            ),
        ),
        official_players=(4,),
        search_hooks=GothsSaveTheQueenHeuristic,
        simultaneous=True,
        hidden_information=True,
        teams=True,
        renamed_options={"max_turns": "safety_cap"},
        tutorial=TUTORIAL,
        longest_game=longest_game,
        tensor_layout=tensor_layout,
    )

    def __init__(self, players: object = None, **options: object) -> None:
        # GOTH-23: solo clans set the seat count when no count is given; an explicit choice of
        # solo clans is kept apart from the default, which depends on the count (_check_options).
        solo = options.get("solo_clans")
        self._solo_clans_chosen = solo is not None
        if players is None and "num_players" not in options and isinstance(solo, str):
            players = SOLO_SEATS.get(solo.strip().lower(), 4)
        super().__init__(players, **options)

    def _build_chance_outcomes(self) -> tuple[Any, ...]:
        # The Objective cards' order at the setup, then the Fog tokens' draws.
        return (*OBJECTIVE_ORDERS, *FOG_DRAWS)

    def _build_actions(self) -> tuple[Action, ...]:
        actions: list[Action] = []

        def add(text: str, kind: int, value: int) -> None:
            actions.append(GothsSaveTheQueenAction(len(actions), text, kind, value))

        for card, name in enumerate(KING_CARD_NAMES):
            add(name, KING_CARD, card)
        for number in range(1, 10):
            add(ORDER_WORDS[number], ORDER, number)
        for slot in range(3):
            add(f"look obj{slot}", LOOK, slot)
        add("look fog", LOOK, LOOK_FOG)
        for slot in range(3):
            add(f"enter obj{slot}", ENTER, slot)
        add("build-barricade", BUILD_OR_DISCARD, BUILD)
        add("discard-fog", BUILD_OR_DISCARD, DISCARD_FOG)
        return tuple(actions)

    def _check_options(self) -> None:
        solo_clans = self._solo_clans()
        self.tables = GothsSaveTheQueenTables(
            self.num_players,
            self.actions,
            solo=(solo_clans in ("ostrogoths", "both"), solo_clans in ("visigoths", "both")),
            decoys=parse_king_backs(self.id, str(self.options["king_backs"])),
            fog_of_war=bool(self.options["fog_of_war"]),
            barricade_on_trap_objective=bool(self.options["barricade_on_trap_objective"]),
            trap_every_entry=bool(self.options["trap_every_entry"]),
            fog_discard_requires_same_card=bool(self.options["fog_discard_requires_same_card"]),
            safety_cap=int(self.options["safety_cap"]),
            first_initiative=FIRST_INITIATIVE_CHOICES.index(str(self.options["first_initiative"])),
        )

    def _solo_clans(self) -> str:
        """The solo clans of this table (GOTH-23), checked against the player count."""
        players = self.num_players
        solo_clans = str(self.options["solo_clans"])
        if solo_clans == "none" and players < 4:
            if self._solo_clans_chosen:
                # Two clans of King and Warchief need four seats: refuse rather than seat a
                # solo clan the player did not ask for.
                others = "ostrogoths or visigoths" if players == 3 else "both"
                raise InvalidOptions(
                    f"{self.id}: solo_clans=none (both clans with a King and a Warchief) is "
                    f"played by 4 players, not {players}; with {players} players choose "
                    f"solo_clans={others} (GOTH-23)"
                )
            # Fewer than four players and no choice made: the natural solo clans, recorded in
            # the options so that a record replays with them.
            solo_clans = "visigoths" if players == 3 else "both"
            self._options["solo_clans"] = solo_clans
        if SOLO_SEATS[solo_clans] != players:
            raise InvalidOptions(
                f"{self.id}: solo_clans={solo_clans} is played by {SOLO_SEATS[solo_clans]} "
                f"players, not {players}"
            )
        return solo_clans

    def teams(self) -> dict[str, tuple[int, ...]]:
        # The seats of a clan win or lose together.
        return {CLAN_NAMES[clan]: self.tables.clan_seats[clan] for clan in (0, 1)}

    def new_state(self) -> GothsSaveTheQueenState:
        return GothsSaveTheQueenState(self, self.tables)


__all__ = ["OPTIONS", "TUTORIAL", "GothsSaveTheQueen", "parse_king_backs"]
