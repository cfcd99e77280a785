"""Goths Save the Queen (RULES.md §4): two clans, each a King who picks a character in secret and a
Warchief who must guess it.

The state machine. A turn is: the initiative King plays a King card face down (its back shows two
characters), then the other King does the same, then both Warchiefs give an order at once; the
last order reveals the four cards, and every clan whose order matches its King's character (the
new card or any of its face-up cards, GOTH-3) executes its action in action-number order, the
initiative clan first on a tie (GOTH-25). An action may need one sub-choice of its Warchief at
that moment (GOTH-5): which card to look at, which Objective to enter, barricade or discard fog.

Board cells are numbered along the line (§4.1): 0 O-Forest, 1 O-Plains1, 2 O-Plains2, 3-5 the
Objectives 0-2, 6 V-Plains2, 7 V-Plains1, 8 V-Forest.

Hidden information (§4.8) lives in four places, each removed from the redacted copies: the
Objective order (``objectives``; a Warchief keeps what his reconnaissance showed him), the Fog
tokens (``fog``), the faces of the King cards lying face down this turn (``played``; the backs are
public) and the Warchief orders given but not yet revealed (``orders``). Chance: the order of the
Objectives (an outcome written ``trap,queen,plains``) and, in the Fog variant, which two tokens are
used and where (``boar-shortage,gusts``: the Ostrogoth token first).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from mypy_extensions import mypyc_attr

from ...core.actions import Action, seat_text
from ...core.draws import choice, shuffle
from ...core.errors import IllegalAction
from ...core.game import CHANCE, State

if TYPE_CHECKING:
    from .game import GothsSaveTheQueen

# ----------------------------------------------------------------------------- the components

OSTROGOTHS: Final = 0
VISIGOTHS: Final = 1
CLAN_NAMES: Final = ("Ostrogoths", "Visigoths")
CLAN_ADJECTIVES: Final = ("Ostrogoth", "Visigoth")
CLAN_KEYS: Final = ("ostrogoths", "visigoths")
CLAN_LETTERS: Final = ("O", "V")

KING: Final = 0
WARCHIEF: Final = 1
SOLO: Final = 2
ROLE_NAMES: Final = ("King", "Warchief", "solo chief")
ROLE_KEYS: Final = ("king", "warchief", "solo")

VULTURE: Final = 0
RECRUITER: Final = 1
CATAPULT: Final = 2
BARBARIAN: Final = 3
CHARACTER_NAMES: Final = ("Vulture", "Recruiter", "Catapult", "Barbarian")
CHARACTER_LETTERS: Final = "VRCB"

# Warchief orders: the number is the resolution order (GOTH-2, GOTH-25).
RECON: Final = 1
SABOTAGE: Final = 2
RECRUIT: Final = 3
LOAD: Final = 4
FIRE: Final = 5
BARRICADE: Final = 6
ADVANCE: Final = 7
AXE: Final = 8
RATS: Final = 9
ORDER_WORDS: Final = (
    "",
    "recon",
    "sabotage",
    "recruit",
    "load",
    "fire",
    "barricade",
    "advance",
    "axe",
    "rats",
)
ORDER_TITLES: Final = (
    "",
    "Conduct reconnaissance",
    "Sabotage the enemy catapult",
    "Recruit reinforcements",
    "Load the catapult",
    "Fire the catapult",
    "Construct a barricade",
    "Advance",
    "Throw an axe",
    "Release rats",
)
ORDER_CHARACTER: Final = (-1, VULTURE, VULTURE, RECRUITER, CATAPULT, CATAPULT) + (BARBARIAN,) * 4

# King cards: two per character (§4.1); ids 0-7 are V1 V2 R1 R2 C1 C2 B1 B2.
KING_CARD_NAMES: Final = ("v1", "v2", "r1", "r2", "c1", "c2", "b1", "b2")
FRONT: Final = (VULTURE, VULTURE, RECRUITER, RECRUITER, CATAPULT, CATAPULT, BARBARIAN, BARBARIAN)
ALL_KING_CARDS: Final = 0xFF
CYCLE_DECOYS: Final = (
    RECRUITER,  # V1 back V/R
    BARBARIAN,  # V2 back V/B
    VULTURE,  # R1 back R/V
    CATAPULT,  # R2 back R/C
    RECRUITER,  # C1 back C/R
    BARBARIAN,  # C2 back C/B
    CATAPULT,  # B1 back B/C
    VULTURE,  # B2 back B/V
)
"""GOTH-1: the back of each King card shows its character and this decoy (the 4-cycle table)."""

FACE_UP_CHARACTERS: Final = tuple(
    sum(1 << c for c in {FRONT[k] for k in range(8) if mask >> k & 1}) for mask in range(256)
)
"""The characters (a bit per character) shown by a set of King cards (a bit per card)."""

# The Objective cards (§4.1).
TRAP: Final = 0
PLAINS: Final = 1
QUEEN: Final = 2
OBJECTIVE_NAMES: Final = ("trap", "plains", "queen")
PERMUTATIONS: Final = tuple(itertools.permutations(range(3)))

# Fog of War tokens (§4.6).
PEA_SOUP: Final = 0
REDUCED_NUMBERS: Final = 1
BOAR_SHORTAGE: Final = 2
GUSTS: Final = 3
FOG_NAMES: Final = ("pea-soup", "reduced-numbers", "boar-shortage", "gusts")
FOG_TITLES: Final = ("Pea soup", "Reduced numbers", "Boar shortage", "Gusts")
FOG_EFFECTS: Final = (
    "reconnaissance does nothing",
    "recruiting does nothing",
    "the catapult cannot be loaded",
    "axes do nothing",
)
FOG_PAIRS: Final = tuple(itertools.permutations(range(4), 2))
FOG_HIDDEN: Final = 0
FOG_REVEALED: Final = 1
FOG_DISCARDED: Final = 2
FOG_STATE_NAMES: Final = ("hidden", "revealed", "discarded")

NONE: Final = -1
UNKNOWN: Final = -2
"""In a redacted copy: a thing that exists but that the seat does not know."""

# The board line.
OBJECTIVE_BASE: Final = 3
OWN_CELLS: Final = ((0, 1, 2), (8, 7, 6))
"""Each clan's Forest, Plains1, Plains2 (P2 borders the Objectives)."""
FORWARD: Final = (1, -1)
FOREST_CELLS: Final = (0, 8)
CELL_NAMES: Final = (
    "O-Forest",
    "O-Plains1",
    "O-Plains2",
    "Objective 0",
    "Objective 1",
    "Objective 2",
    "V-Plains2",
    "V-Plains1",
    "V-Forest",
)
ARMY_SIZE: Final = 3

# Phases.
SETUP_OBJECTIVES: Final = 0
SETUP_FOG: Final = 1
KINGS: Final = 2
ORDERS: Final = 3
CHOICE: Final = 4
OVER: Final = 5

# Sub-choices during the resolution (GOTH-5).
CHOOSE_RECON: Final = 1
CHOOSE_ENTRY: Final = 2
CHOOSE_BARRICADE: Final = 3
CHOICE_KEYS: Final = ("", "recon", "advance", "barricade")

# Action kinds.
KING_CARD: Final = 0
ORDER: Final = 1
LOOK: Final = 2
ENTER: Final = 3
BUILD_OR_DISCARD: Final = 4
LOOK_FOG: Final = 3
"""The ``value`` of ``look fog`` (0-2 are the Objectives)."""

DRAW: Final = 2
"""``winner`` of a game stopped by the safety cap."""


# An Action subclass stays a plain Python class (immutable slots) in a module that may run
# compiled (courtly/_compiled.py).
@mypyc_attr(native_class=False)
class GothsAction(Action):
    """A King card (``b1``), an order (``advance``) or a sub-choice (``enter obj2``, ``look fog``,
    ``build-barricade``, ``discard-fog``)."""

    __slots__ = ("kind", "value")

    kind: int
    value: int

    def __init__(self, id: int, text: str, kind: int, value: int) -> None:
        super().__init__(id, text, kind=kind, value=value)


# An int subclass (a chance outcome) stays a plain Python class in a compiled module.
@mypyc_attr(native_class=False)
class ObjectiveOrder(int):
    """A chance outcome: the order of the three Objective cards, written ``trap,queen,plains``."""

    __slots__ = ()

    def __str__(self) -> str:
        return ",".join(OBJECTIVE_NAMES[k] for k in PERMUTATIONS[self])

    def __repr__(self) -> str:
        return f"ObjectiveOrder({self})"


# An int subclass (a chance outcome) stays a plain Python class in a compiled module.
@mypyc_attr(native_class=False)
class FogDraw(int):
    """A chance outcome: the Ostrogoth and the Visigoth Fog tokens, written ``pea-soup,gusts``."""

    __slots__ = ()

    def __str__(self) -> str:
        o, v = FOG_PAIRS[self]
        return f"{FOG_NAMES[o]},{FOG_NAMES[v]}"

    def __repr__(self) -> str:
        return f"FogDraw({self})"


OBJECTIVE_ORDERS: Final = tuple(ObjectiveOrder(i) for i in range(len(PERMUTATIONS)))
FOG_DRAWS: Final = tuple(FogDraw(i) for i in range(len(FOG_PAIRS)))


def back_text(back: int) -> str:
    """The two characters of a back (a bit per character), always in V R C B order: the two
    cards that share a back must look alike."""
    return "/".join(CHARACTER_LETTERS[c] for c in range(4) if back >> c & 1)


def card_text(card: int) -> str:
    """``V1 (Vulture)``."""
    return f"{KING_CARD_NAMES[card].upper()} ({CHARACTER_NAMES[FRONT[card]]})"


def cards_of(mask: int) -> list[int]:
    return [k for k in range(8) if mask >> k & 1]


class GothsState(State):
    """A position of Goths Save the Queen."""

    __slots__ = (
        "_legal",
        "_log",
        "acting",
        "army",
        "barricade",
        "catapult",
        "choice",
        "face_up",
        "fog",
        "fog_peeked",
        "fog_state",
        "goths",
        "initiative",
        "kings_to_play",
        "last_orders",
        "last_played",
        "last_success",
        "last_turn",
        "objectives",
        "orders",
        "peeked",
        "phase",
        "played",
        "played_back",
        "position",
        "queue",
        "revealed",
        "solo_last",
        "submitted",
        "turn",
        "winner",
    )

    goths: GothsSaveTheQueen
    """The game, typed as Goths Save the Queen: ``game`` itself stays typed :class:`Game`, as a
    compiled subclass (courtly/_compiled.py) may not narrow an attribute's type."""

    def __init__(self, game: GothsSaveTheQueen, blank: bool = False) -> None:
        """The start of a game; ``blank=True`` only sets the base fields, for :meth:`_copy` to
        fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game)
        self.goths = game
        if blank:
            return
        n = game.num_players
        # §4.2 setup: two figurines on each Forest, one in reserve; catapults Inactive.
        self.position = [OWN_CELLS[0][0], OWN_CELLS[1][0]]
        self.army = [2, 2]
        self.catapult = [False, False]
        self.barricade = [False] * 9
        self.objectives = [UNKNOWN, UNKNOWN, UNKNOWN]  # the kind on each Objective card
        self.revealed = 0  # a bit per Objective card turned face up
        self.peeked = [0, 0]  # a bit per Objective each clan's Warchief has looked at (public)
        self.fog = [NONE, NONE]  # each clan's token on its P2 (Fog variant)
        self.fog_state = [FOG_HIDDEN, FOG_HIDDEN]
        self.fog_peeked = [False, False]
        self.turn = 1
        self.initiative = OSTROGOTHS  # GOTH-7: O holds it on turn 1
        self.phase = SETUP_OBJECTIVES
        self.kings_to_play: tuple[int, ...] = ()
        self.played = [NONE, NONE]  # the King card each clan laid face down this turn
        self.played_back = [0, 0]  # its back (public), a bit per character
        self.face_up = [0, 0]  # a bit per King card lying face up from failed turns
        self.orders = [0, 0]  # the order each Warchief gave this turn (0: none yet)
        self.submitted = 0  # a bit per clan whose Warchief has given his order: public
        self.solo_last = [NONE, NONE]  # GOTH-23: a solo chief's character of last turn
        self.queue: list[int] = []  # successful clans still to act, in resolution order
        self.acting = NONE  # the clan whose Warchief makes a sub-choice
        self.choice = 0
        self.last_turn = 0  # the turn whose cards were revealed last (0: none yet)
        self.last_played = [NONE, NONE]
        self.last_orders = [0, 0]
        self.last_success = [False, False]
        self.winner = NONE
        self._legal: list[tuple[Action, ...]] = [()] * n
        self._log: list[tuple[int, str]] | None = None  # only when narrating (see narrate)
        self.is_chance = True

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        if self.phase == SETUP_OBJECTIVES:
            p = 1.0 / len(OBJECTIVE_ORDERS)
            return [(o, p) for o in OBJECTIVE_ORDERS]
        p = 1.0 / len(FOG_DRAWS)
        return [(o, p) for o in FOG_DRAWS]

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        if self.phase == SETUP_OBJECTIVES:
            return OBJECTIVE_ORDERS[rng.randrange(len(OBJECTIVE_ORDERS))]
        return FOG_DRAWS[rng.randrange(len(FOG_DRAWS))]

    def _is_possible_outcome(self, outcome: Any) -> bool:
        if self.phase == SETUP_OBJECTIVES:
            return isinstance(outcome, ObjectiveOrder) and 0 <= outcome < len(OBJECTIVE_ORDERS)
        return isinstance(outcome, FogDraw) and 0 <= outcome < len(FOG_DRAWS)

    def parse_chance(self, text: str) -> Any:
        if not self.is_chance:
            raise IllegalAction("no chance event is pending")
        key = ",".join(part.strip() for part in text.strip().lower().split(","))
        for outcome, _ in self.chance_outcomes():
            if str(outcome) == key:
                return outcome
        if self.phase == SETUP_OBJECTIVES:
            raise IllegalAction(
                f"{text.strip()!r} is not an order of the Objectives; write the three cards from "
                "Objective 0 to 2, e.g. trap,queen,plains"
            )
        raise IllegalAction(
            f"{text.strip()!r} is not a Fog draw; write the Ostrogoth then the Visigoth token, "
            f"two different ones of {', '.join(FOG_NAMES)}, e.g. boar-shortage,gusts"
        )

    def _apply_chance(self, outcome: Any) -> None:
        self._keep_secret(0)  # the Objectives' order and the Fog tokens: nobody sees the draw
        if self.phase == SETUP_OBJECTIVES:
            self.objectives = list(PERMUTATIONS[outcome])
            if self.goths.fog_of_war:
                self.phase = SETUP_FOG
                return
        else:
            self.fog = list(FOG_PAIRS[outcome])
        self.is_chance = False
        self._start_turn()

    # ----------------------------------------------------------------------------- decisions

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self._legal[seat] if seat in self.to_move else ()

    def _apply(self, seat: int, action: Action) -> None:
        action = cast(GothsAction, action)
        kind = action.kind
        game = self.goths
        if kind == ORDER:
            clan = game.clan_of[seat]
            self._keep_secret(1 << seat)  # until every card of the turn is revealed (§4.3 B)
            self.orders[clan] = action.value
            self.submitted |= 1 << clan
            self.to_move = tuple(s for s in self.to_move if s != seat)
            if not self.to_move:
                self._reveal()
            return
        if kind == KING_CARD:
            clan = game.clan_of[seat]
            self._keep_secret(1 << seat)  # the others see the card's back only, until the reveal
            card = action.value
            self.played[clan] = card
            self.played_back[clan] = game.back[card]
            self._next_king()
            return
        # A sub-choice during the resolution: public at once.
        clan = self.acting
        self.acting = NONE
        if kind == LOOK:
            self._look(clan, action.value)
        elif kind == ENTER:
            self._enter(clan, action.value)
        elif action.value == 0:
            self._build(clan)
        else:
            self._discard_fog(clan)
        if self.is_terminal:
            return
        self.face_up[clan] = 0  # GOTH-6: the successful King takes all his cards back
        self._resume()

    # ----------------------------------------------------------------------------- the turn

    def _start_turn(self) -> None:
        game = self.goths
        if self.turn > game.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            self._finish(DRAW)  # GOTH-26 [engine addition]: the safety cap is a draw
            return
        self.played = [NONE, NONE]
        self.orders = [0, 0]
        self.submitted = 0
        first = self.initiative
        self.kings_to_play = tuple(c for c in (first, 1 - first) if not game.solo[c])
        self._next_king()

    def _next_king(self) -> None:
        """§4.3 A: the initiative King, then the other (having seen the first back), then both
        Warchiefs at once."""
        kings = self.kings_to_play
        game = self.goths
        if kings:
            clan = kings[0]
            self.kings_to_play = kings[1:]
            seat = game.king_seat[clan]
            self.phase = KINGS
            self._legal[seat] = game.king_legal[ALL_KING_CARDS & ~self.face_up[clan]]
            self.to_move = (seat,)
            return
        self.phase = ORDERS
        legal = self._legal
        for clan in (OSTROGOTHS, VISIGOTHS):
            seat = game.warchief_seat[clan]
            if game.solo[clan]:
                # GOTH-23: a solo chief may not repeat last turn's character.
                legal[seat] = game.solo_legal[self.solo_last[clan] + 1]
            else:
                legal[seat] = game.all_orders
        self.to_move = game.order_seats

    def _reveal(self) -> None:
        """§4.3 B: all four cards face up; each clan succeeds or fails (GOTH-3)."""
        game = self.goths
        # Every card of the turn turns face up: the King cards and orders are public now (the
        # chance events, which name secret cards and tokens, stay secret).
        secret = self._secret_events
        history = self.history
        # (The order that completes the turn is being applied: it is not in the history yet.)
        for index in [i for i in secret if i == len(history) or history[i][0] != CHANCE]:
            del secret[index]
        self.last_turn = self.turn
        first = self.initiative
        orders = self.orders
        success = self.last_success
        for clan in (first, 1 - first):
            order = orders[clan]
            if game.solo[clan]:
                ok = True
                self.solo_last[clan] = ORDER_CHARACTER[order]
            else:
                card = self.played[clan]
                chars = FACE_UP_CHARACTERS[self.face_up[clan] | 1 << card]
                ok = bool(chars >> ORDER_CHARACTER[order] & 1)
                if not ok:
                    self.face_up[clan] |= 1 << card  # the King card stays face up
            success[clan] = ok
        log = self._log
        if log is not None:
            log.append((NONE, self._reveal_text()))
        self.last_played = self.played
        self.last_orders = orders.copy()
        self.played = [NONE, NONE]
        if success[first]:
            if success[1 - first] and orders[1 - first] < orders[first]:
                self.queue = [1 - first, first]
            elif success[1 - first]:
                self.queue = [first, 1 - first]  # GOTH-25: on a tie the initiative acts first
            else:
                self.queue = [first]
        elif success[1 - first]:
            self.queue = [1 - first]
        else:
            self.queue = []
        self._resume()

    def _resume(self) -> None:
        """Execute the successful clans' actions in order; each may stop for a sub-choice."""
        queue = self.queue
        while queue:
            clan = queue.pop(0)
            if self._execute(clan):
                return  # waiting for the Warchief's sub-choice
            if self.is_terminal:
                return  # GOTH-18: a victory stops the turn at once
            self.face_up[clan] = 0  # GOTH-6
        self.turn += 1
        self.initiative = 1 - self.initiative  # GOTH-7: passes at the start of every turn
        self._start_turn()

    def _ask(self, clan: int, choice: int, legal: tuple[Action, ...]) -> None:
        seat = self.goths.warchief_seat[clan]
        self.phase = CHOICE
        self.choice = choice
        self.acting = clan
        self._legal[seat] = legal
        self.to_move = (seat,)

    # ----------------------------------------------------------------------------- actions

    def _effect(self, clan: int) -> int:
        """The Fog token in force for ``clan`` (revealed, not discarded), or NONE."""
        return self.fog[clan] if self.fog_state[clan] == FOG_REVEALED else NONE

    def _execute(self, clan: int) -> bool:
        """Carry out ``clan``'s order (§4.4); True if its Warchief must now make a sub-choice."""
        order = self.orders[clan]
        enemy = 1 - clan
        game = self.goths
        log = self._log
        if order == ADVANCE:
            cell = self.position[clan]
            own = OWN_CELLS[clan]
            if cell == own[0] or cell == own[1]:
                self._move(clan, cell + FORWARD[clan])
                return False
            choices = game.enter_legal[self._free_objectives(clan)]
            if len(choices) > 1:
                self._ask(clan, CHOOSE_ENTRY, choices)
                return True
            self._enter(clan, cast(GothsAction, choices[0]).value)
            return False
        if order == AXE:
            if self._effect(clan) == GUSTS:
                self._say(log, clan, "the Gusts blow the axe away: nothing happens")
                return False
            cell = self.position[enemy]
            if self.barricade[cell] or cell in FOREST_CELLS:
                self._say(log, clan, f"the axe cannot reach the army on {self._cell_text(cell)}")
                return False
            self._lose(enemy, 1, "to the axe")
            return False
        if order == FIRE:
            if not self.catapult[clan]:
                self._say(log, clan, "the catapult is inactive: nothing happens")
                return False
            self.catapult[clan] = False  # GOTH-13: inactive again, even against a barricade
            cell = self.position[enemy]
            if self.barricade[cell]:
                self._say(log, clan, "the stone hits the barricade: no loss")
                return False
            self._lose(enemy, 2, "to the catapult")  # GOTH-12: fewer than 2 -> all
            return False
        if order == RATS:
            if self.barricade[self.position[enemy]]:
                self._lose(enemy, 1, "to the rats")
            else:
                self._say(log, clan, "no barricade to infest: nothing happens")
            return False
        if order == LOAD:
            if self._effect(clan) == BOAR_SHORTAGE:
                self._say(log, clan, "Boar shortage: the catapult cannot be loaded")
                return False
            self.catapult[clan] = True
            self._say(log, clan, "the catapult is active")
            return False
        if order == BARRICADE:
            if self.fog_state[clan] == FOG_REVEALED and (
                not game.fog_discard_requires_same_card or self.position[clan] == OWN_CELLS[clan][2]
            ):
                # GOTH-19: build, or discard the revealed token wherever the army is.
                self._ask(clan, CHOOSE_BARRICADE, game.barricade_choices)
                return True
            self._build(clan)
            return False
        if order == RECRUIT:
            if self._effect(clan) == REDUCED_NUMBERS:
                self._say(log, clan, "Reduced numbers: nobody answers the call")
            elif self.army[clan] < ARMY_SIZE:
                self.army[clan] += 1
                self._say(log, clan, f"recruits a figurine (army {self.army[clan]})")
            else:
                self._say(log, clan, "the army is at full strength: nothing happens")
            return False
        if order == SABOTAGE:
            self.catapult[enemy] = False
            self._say(log, clan, f"the {CLAN_ADJECTIVES[enemy]} catapult is inactive")
            return False
        # RECON
        if self._effect(clan) == PEA_SOUP:
            self._say(log, clan, "Pea soup: the vulture sees nothing")
            return False
        hidden_fog = game.fog_of_war and self.fog_state[clan] == FOG_HIDDEN
        self._ask(clan, CHOOSE_RECON, game.recon_choices[hidden_fog])
        return True

    def _free_objectives(self, clan: int) -> int:
        """A bit per Objective the army may enter: not the enemy's, not its own (GOTH-16)."""
        free = 0b111
        for c in (clan, 1 - clan):
            cell = self.position[c]
            if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
                free &= ~(1 << (cell - OBJECTIVE_BASE))
        return free

    def _move(self, clan: int, cell: int) -> None:
        log = self._log
        if log is not None:
            log.append(
                (
                    NONE,
                    f"{CLAN_NAMES[clan]} advance: {self._cell_text(self.position[clan])} → "
                    f"{self._cell_text(cell)}.",
                )
            )
        self.position[clan] = cell
        if (
            cell == OWN_CELLS[clan][2]
            and self.fog[clan] >= 0
            and self.fog_state[clan] == FOG_HIDDEN
        ):
            # §4.6: entering its own P2 reveals the clan's token, publicly.
            self.fog_state[clan] = FOG_REVEALED
            token = self.fog[clan]
            if token == BOAR_SHORTAGE:
                self.catapult[clan] = False  # GOTH-21
            if log is not None:
                log.append(
                    (
                        NONE,
                        f"{CLAN_NAMES[clan]} reveal their Fog token: {FOG_TITLES[token]} "
                        f"({FOG_EFFECTS[token]}).",
                    )
                )

    def _enter(self, clan: int, slot: int) -> None:
        """Advance onto Objective ``slot``: reveal it; the Queen wins, the Trap bites."""
        self._move(clan, OBJECTIVE_BASE + slot)
        first_time = not self.revealed >> slot & 1
        self.revealed |= 1 << slot
        kind = self.objectives[slot]
        log = self._log
        if log is not None:
            log.append(
                (
                    NONE,
                    f"Objective {slot} is {'revealed: ' if first_time else ''}the {OBJECTIVE_NAMES[kind].title()}.",
                )
            )
        if kind == QUEEN:
            self._finish(clan)
        elif kind == TRAP and (first_time or self.goths.trap_every_entry):
            self._lose(clan, 1, "in the Trap")  # GOTH-10, GOTH-18

    def _build(self, clan: int) -> None:
        cell = self.position[clan]
        log = self._log
        if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
            kind = self.objectives[cell - OBJECTIVE_BASE]
            if kind != TRAP or not self.goths.barricade_on_trap_objective:
                self._say(log, clan, "no barricade can be built on this Objective")  # GOTH-9
                return
        if self.barricade[cell]:
            self._say(log, clan, "there is a barricade already")
            return
        self.barricade[cell] = True  # GOTH-15: permanent
        self._say(log, clan, f"a barricade now stands on {self._cell_text(cell)}")

    def _discard_fog(self, clan: int) -> None:
        # GOTH-21: a Boar-shortage catapult stays Inactive until loaded again.
        self.fog_state[clan] = FOG_DISCARDED
        self._say(log=self._log, clan=clan, text="the Fog token is discarded: its effect ends")

    def _look(self, clan: int, target: int) -> None:
        log = self._log
        seat = self.goths.warchief_seat[clan]
        if target == LOOK_FOG:
            self.fog_peeked[clan] = True
            if log is not None:
                log.append(
                    (NONE, f"{seat_text(seat)} peeks at the {CLAN_ADJECTIVES[clan]} Fog token.")
                )
                log.append((clan, f"{seat_text(seat)} sees: {FOG_TITLES[self.fog[clan]]}."))
            return
        self.peeked[clan] |= 1 << target  # GOTH-17: which card is public, what it shows is not
        if log is not None:
            log.append((NONE, f"{seat_text(seat)} looks at Objective {target} in secret."))
            log.append(
                (
                    clan,
                    f"{seat_text(seat)} sees: Objective {target} is the "
                    f"{OBJECTIVE_NAMES[self.objectives[target]].title()}.",
                )
            )

    def _lose(self, clan: int, count: int, how: str) -> None:
        """§4.4: lost figurines go to the reserve (GOTH-11); an empty army loses (§4.5)."""
        lost = min(count, self.army[clan])
        self.army[clan] -= lost
        log = self._log
        if log is not None:
            log.append(
                (
                    NONE,
                    f"{CLAN_NAMES[clan]} lose {lost} figurine{'s' if lost > 1 else ''} {how} "
                    f"(army {self.army[clan]}).",
                )
            )
        if self.army[clan] == 0:
            self._finish(1 - clan)

    def _say(self, log: list[tuple[int, str]] | None, clan: int, text: str) -> None:
        if log is not None:
            log.append((NONE, f"{CLAN_NAMES[clan]} {ORDER_WORDS[self.orders[clan]]}: {text}."))

    def _finish(self, winner: int) -> None:
        self.winner = winner
        self.phase = OVER
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self.queue = []
        self.acting = NONE
        log = self._log
        if log is not None:
            if winner == DRAW:
                log.append(
                    (NONE, f"The safety cap of {self.goths.safety_cap} turns is reached: a draw.")
                )
            else:
                log.append((NONE, f"The {CLAN_NAMES[winner]} win!"))

    def returns(self) -> list[float]:
        n = self.num_players
        if not self.is_terminal:
            return [0.0] * n
        if self.winner == DRAW:
            return [1.0 / n] * n
        seats = self.goths.clan_seats[self.winner]
        share = 1.0 / len(seats)
        return [share if s in seats else 0.0 for s in range(n)]

    # ----------------------------------------------------------------------------- bad input

    def _why_not_to_move(self, seat: object, action: object) -> str:
        return self._reason(seat, action) or super()._why_not_to_move(seat, action)

    def _why_illegal(self, seat: int, action: Action) -> str:
        return self._reason(seat, action) or super()._why_illegal(seat, action)

    def _why_unknown(self, seat: int, text: str) -> str:
        return self._reason(seat, text) or super()._why_unknown(seat, text)

    def _reason(self, seat: object, action: object) -> str | None:
        """The reason ``seat`` may not play ``action`` now, in the game's words (None: let the
        base class explain)."""
        game = self.goths
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            return None
        if isinstance(action, str):
            found = game.action_from_text(action)
        elif isinstance(action, GothsAction):
            found = action
        else:
            return None
        if found is None or not isinstance(found, GothsAction):
            return None
        clan = game.clan_of[seat]
        role = game.role_of[seat]
        who = f"{seat_text(seat)} ({game.seat_title(seat)})"
        if found.kind == KING_CARD and role != KING:
            return f"{found} is a King card and {who} plays no King cards"
        if found.kind == ORDER and role == KING:
            return f"{found} is a Warchief order and {who} plays King cards only"
        if self.is_terminal or self.is_chance:
            return None
        if seat not in self.to_move:
            if self.phase == ORDERS and self.submitted >> clan & 1:
                return f"{who} has already given this turn's order"
            return None
        if found in self._legal[seat]:
            return None
        if found.kind == KING_CARD:
            if self.face_up[clan] >> found.value & 1:
                return (
                    f"{found} lies face up on the table, not in the hand of {who}; "
                    f"in hand: {', '.join(str(a) for a in self._legal[seat])}"
                )
        elif found.kind == ORDER:
            if self.phase == ORDERS and game.solo[clan]:
                return (
                    f"{who} gave a {CHARACTER_NAMES[self.solo_last[clan]]} order last turn and may "
                    f"not give another one now (GOTH-23)"
                )
            if self.phase == CHOICE:
                return f"{who} must first finish his {ORDER_WORDS[self.orders[clan]]}"
        elif found.kind == ENTER and self.phase == CHOICE and self.choice == CHOOSE_ENTRY:
            cell = OBJECTIVE_BASE + found.value
            if self.position[1 - clan] == cell:
                return (
                    f"Objective {found.value} is occupied by the {CLAN_ADJECTIVES[1 - clan]} army; "
                    f"choose {', '.join(str(a) for a in self._legal[seat])}"
                )
            if self.position[clan] == cell:
                return f"the {CLAN_ADJECTIVES[clan]} army already stands on Objective {found.value}"
        elif found.kind == LOOK and found.value == LOOK_FOG and self.choice == CHOOSE_RECON:
            if not game.fog_of_war:
                return "there are no Fog tokens in this game (option fog_of_war)"
            return "the Fog token is already face up"
        return None

    # ----------------------------------------------------------------------------- records

    def clone(self) -> GothsState:
        other = GothsState(self.goths, blank=True)
        self._clone_base(other)
        other.position = self.position.copy()
        other.army = self.army.copy()
        other.catapult = self.catapult.copy()
        other.barricade = self.barricade.copy()
        other.objectives = self.objectives.copy()
        other.revealed = self.revealed
        other.peeked = self.peeked.copy()
        other.fog = self.fog.copy()
        other.fog_state = self.fog_state.copy()
        other.fog_peeked = self.fog_peeked.copy()
        other.turn = self.turn
        other.initiative = self.initiative
        other.phase = self.phase
        other.kings_to_play = self.kings_to_play
        other.played = self.played.copy()
        other.played_back = self.played_back.copy()
        other.face_up = self.face_up.copy()
        other.orders = self.orders.copy()
        other.submitted = self.submitted
        other.solo_last = self.solo_last.copy()
        other.queue = self.queue.copy()
        other.acting = self.acting
        other.choice = self.choice
        other.last_turn = self.last_turn
        other.last_played = self.last_played.copy()
        other.last_orders = self.last_orders.copy()
        other.last_success = self.last_success.copy()
        other.winner = self.winner
        other._legal = self._legal.copy()
        other._log = None
        return other

    # ----------------------------------------------------------------------------- views

    def _knows_clan_secrets(self, seat: int | None, clan: int) -> bool:
        """Whether ``seat`` is the Warchief (or solo chief) of ``clan``: the one who keeps what
        the clan's reconnaissance found (GOTH-17, GOTH-24)."""
        return seat is not None and seat == self.goths.warchief_seat[clan]

    def _redacted(self, seat: int | None) -> State:
        copy = self.clone()
        game = self.goths
        for slot in range(3):
            if not (
                self.revealed >> slot & 1
                or any(
                    self.peeked[c] >> slot & 1 and self._knows_clan_secrets(seat, c) for c in (0, 1)
                )
            ):
                copy.objectives[slot] = UNKNOWN
        for clan in (OSTROGOTHS, VISIGOTHS):
            if (
                self.fog[clan] >= 0
                and self.fog_state[clan] == FOG_HIDDEN
                and not (self.fog_peeked[clan] and self._knows_clan_secrets(seat, clan))
            ):
                copy.fog[clan] = UNKNOWN
            if self.played[clan] >= 0 and (seat is None or seat != game.king_seat[clan]):
                copy.played[clan] = UNKNOWN  # the back stays in played_back
        if self.phase == ORDERS:
            # The orders given are secret; their givers are "still to choose" for this seat.
            for clan in (OSTROGOTHS, VISIGOTHS):
                if self.orders[clan] and not self._knows_clan_secrets(seat, clan):
                    copy.orders[clan] = 0
            copy.to_move = tuple(s for s in game.order_seats if not copy.orders[game.clan_of[s]])
        return copy

    def determinize(self, seat: int | None, rng: random.Random) -> State:
        full = self.clone()
        objectives = full.objectives
        if UNKNOWN in objectives:
            missing = [k for k in range(3) if k not in objectives]
            shuffle(rng, missing)
            for slot in range(3):
                if objectives[slot] == UNKNOWN:
                    objectives[slot] = missing.pop()
        fog = full.fog
        if UNKNOWN in fog:
            unused = [t for t in range(4) if t not in fog]
            shuffle(rng, unused)
            for clan in (0, 1):
                if fog[clan] == UNKNOWN:
                    fog[clan] = unused.pop()
        candidates = self.goths.cards_with_back
        for clan in (0, 1):
            if full.played[clan] == UNKNOWN:
                # Either card with that back that is not face up may lie there.
                options = [
                    k for k in candidates[full.played_back[clan]] if not full.face_up[clan] >> k & 1
                ]
                full.played[clan] = choice(rng, options)
        return full

    def observation(self, seat: int | None) -> dict[str, Any]:
        game = self.goths
        clan = NONE if seat is None else game.clan_of[seat]
        role = NONE if seat is None else game.role_of[seat]
        clans = []
        for c in (OSTROGOTHS, VISIGOTHS):
            fog: dict[str, Any] | None = None
            if game.fog_of_war:
                state = self.fog_state[c]
                token = self.fog[c]
                known = state != FOG_HIDDEN or (
                    self.fog_peeked[c] and self._knows_clan_secrets(seat, c)
                )
                fog = {
                    "state": FOG_STATE_NAMES[state],
                    "token": FOG_NAMES[token] if known and token >= 0 else None,
                    "peeked": self.fog_peeked[c],
                }
            face_down = self.played_back[c] if self.played[c] != NONE else 0
            clans.append(
                {
                    "clan": CLAN_KEYS[c],
                    "solo": game.solo[c],
                    "king": None if game.solo[c] else seat_text(game.king_seat[c]),
                    "warchief": seat_text(game.warchief_seat[c]),
                    "position": CELL_NAMES[self.position[c]],
                    "army": self.army[c],
                    "reserve": ARMY_SIZE - self.army[c],
                    "catapult": "active" if self.catapult[c] else "inactive",
                    "king_cards_face_up": [KING_CARD_NAMES[k] for k in cards_of(self.face_up[c])],
                    "king_card_face_down_back": back_text(face_down) if face_down else None,
                    "king_hand_size": 0
                    if game.solo[c]
                    else 8 - bin(self.face_up[c]).count("1") - (1 if self.played[c] != NONE else 0),
                    "order_given": bool(self.submitted >> c & 1),
                    "objectives_looked_at": [s for s in range(3) if self.peeked[c] >> s & 1],
                    "solo_last_character": CHARACTER_NAMES[self.solo_last[c]].lower()
                    if self.solo_last[c] >= 0
                    else None,
                    "fog": fog,
                }
            )
        board = []
        for cell in range(9):
            entry: dict[str, Any] = {"cell": CELL_NAMES[cell], "barricade": self.barricade[cell]}
            if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
                slot = cell - OBJECTIVE_BASE
                entry["objective"] = (
                    OBJECTIVE_NAMES[self.objectives[slot]] if self.revealed >> slot & 1 else None
                )
            entry["army"] = next((CLAN_KEYS[c] for c in (0, 1) if self.position[c] == cell), None)
            board.append(entry)
        mine: dict[str, Any] = {}
        if role == KING:
            mine["hand"] = [
                KING_CARD_NAMES[k]
                for k in cards_of(ALL_KING_CARDS & ~self.face_up[clan])
                if k != self.played[clan]
            ]
            mine["face_down"] = (
                KING_CARD_NAMES[self.played[clan]] if self.played[clan] >= 0 else None
            )
        elif role in (WARCHIEF, SOLO):
            mine["order"] = ORDER_WORDS[self.orders[clan]] if self.orders[clan] else None
            mine["reconnaissance"] = {
                f"objective {s}": OBJECTIVE_NAMES[self.objectives[s]]
                for s in range(3)
                if self.peeked[clan] >> s & 1
            }
            if game.fog_of_war and self.fog_peeked[clan]:
                mine["fog_token"] = FOG_NAMES[self.fog[clan]]
        last: dict[str, Any] | None = None
        if self.last_turn:
            last = {"turn": self.last_turn}
            for c in (0, 1):
                card = self.last_played[c]
                last[CLAN_KEYS[c]] = {
                    "king_card": KING_CARD_NAMES[card] if card >= 0 else None,
                    "character": CHARACTER_NAMES[FRONT[card]].lower() if card >= 0 else None,
                    "order": ORDER_WORDS[self.last_orders[c]],
                    "success": self.last_success[c],
                }
        return {
            "game": game.id,
            "seat": None if seat is None else seat_text(seat),
            "clan": None if clan == NONE else CLAN_KEYS[clan],
            "role": None if role == NONE else ROLE_KEYS[role],
            "seats": [
                {
                    "seat": seat_text(s),
                    "clan": CLAN_KEYS[game.clan_of[s]],
                    "role": ROLE_KEYS[game.role_of[s]],
                }
                for s in range(self.num_players)
            ],
            "turn": self.turn,
            "safety_cap": game.safety_cap,
            "initiative": CLAN_KEYS[self.initiative],
            "phase": self._phase_key(),
            "waiting_for": [seat_text(s) for s in self._waiting_for()],
            "board": board,
            "clans": clans,
            "mine": mine,
            "last_reveal": last,
            "winner": None
            if self.winner == NONE
            else ("draw" if self.winner == DRAW else CLAN_KEYS[self.winner]),
        }

    def _phase_key(self) -> str:
        if self.phase == CHOICE:
            return CHOICE_KEYS[self.choice]
        return ("setup", "setup", "kings", "orders", "", "over")[self.phase]

    def _waiting_for(self) -> tuple[int, ...]:
        """Who must decide now, as every seat may know it (at the orders, from ``submitted``)."""
        if self.phase == ORDERS:
            game = self.goths
            return tuple(s for s in game.order_seats if not self.submitted >> game.clan_of[s] & 1)
        return self.to_move

    def _cell_text(self, cell: int) -> str:
        if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
            slot = cell - OBJECTIVE_BASE
            if self.revealed >> slot & 1:
                return f"Objective {slot} ({OBJECTIVE_NAMES[self.objectives[slot]].title()})"
        return CELL_NAMES[cell]

    def _reveal_text(self) -> str:
        parts = []
        for c in (self.initiative, 1 - self.initiative):
            order = self.orders[c]
            number = f"{ORDER_WORDS[order]} ({order})"
            if self.goths.solo[c]:
                parts.append(f"{CLAN_NAMES[c]} (solo) order {number}")
                continue
            card = self.played[c]
            verdict = "success" if self.last_success[c] else "failure: the card stays face up"
            parts.append(f"{CLAN_NAMES[c]} {card_text(card)} + {number}: {verdict}")
        return "Orders revealed: " + "; ".join(parts) + "."

    def render(self, seat: int | None) -> str:
        from .render import render

        return render(self, seat)

    def observed(self, actor: int, item: Any, observer: int) -> Any:
        # Others see a King card's back only and that an order was given, not which (§4.8);
        # Objective and Fog draws are face down; sub-choices are public (GOTH-8, GOTH-17).
        if actor == CHANCE:
            return None
        if actor == observer:
            return item.id
        if item.kind == KING_CARD:
            return ("back", self.goths.back[item.value])
        if item.kind == ORDER:
            return "order"
        return item.id

    def narrate(self, actor: int, item: Any, seat: int | None) -> str | None:
        from .render import narrate

        return narrate(self, actor, item, seat)
