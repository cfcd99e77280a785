"""Goths Save the Queen (docs/rules/goths-save-the-queen.md): two clans, each a King who picks a
character in secret and a Warchief who must guess it. This module is the state machine.

A turn is: the initiative King lays a King card face down (its back shows two characters), then
the other King does the same, then both Warchiefs give an order at once; the last order reveals
the four cards, and every clan whose order matches its King's character (the new card or any of
its face-up cards, GOTH-3) executes its action in action-number order, the initiative clan first
on a tie (GOTH-25). An action may need one sub-choice of its Warchief at that moment (GOTH-5):
which card to look at, which Objective to enter, barricade or discard fog.

Hidden information (§8) lives in four places: the Objective order (``objectives``; a Warchief
keeps what his reconnaissance showed him), the Fog tokens (``fog``), the faces of the King cards
lying face down this turn (``played``; the backs are public) and the orders given but not yet
revealed (``orders``; *that* an order was given is public, ``orders_given``). When the game is
over every card is turned up. :mod:`.views` removes the secrets from a seat's copy and draws them
again for a sampled world; :mod:`.text` renders, narrates and explains refusals: the state
machine itself says nothing (no text on the hot path). Chance: the order of the
Objectives (an outcome written ``trap,queen,plains``) and, in the Fog variant, which two tokens
are used and where (``boar-shortage,gusts``: the Ostrogoth token first).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, cast

from ...core.actions import Action
from ...core.events import CHANCE
from ...core.game import Game, State
from .components import (
    ADVANCE,
    ALL_KING_CARDS,
    ARMY_SIZE,
    AXE,
    BARRICADE,
    BOAR_SHORTAGE,
    BUILD,
    CHOOSE_BARRICADE,
    CHOOSE_ENTRY,
    CHOOSE_RECON,
    CLAN_CELLS,
    DRAW,
    ENTER,
    FACE_UP_CHARACTERS,
    FIRE,
    FOG_DISCARDED,
    FOG_DRAWS,
    FOG_HIDDEN,
    FOG_PAIRS,
    FOG_REVEALED,
    FOREST_CELLS,
    FORWARD,
    GUSTS,
    KING_CARD,
    KINGS,
    LOAD,
    LOOK,
    LOOK_FOG,
    NONE,
    OBJECTIVE_BASE,
    OBJECTIVE_ORDERS,
    OBJECTIVE_PERMUTATIONS,
    ORDER,
    ORDER_CHARACTER,
    ORDERS,
    OSTROGOTHS,
    OVER,
    PEA_SOUP,
    QUEEN,
    RATS,
    RECON,
    RECRUIT,
    REDUCED_NUMBERS,
    SETUP_FOG,
    SETUP_OBJECTIVES,
    SUB_CHOICE,
    TRAP,
    UNKNOWN,
    VISIGOTHS,
    FogDraw,
    GothsSaveTheQueenAction,
    GothsSaveTheQueenTables,
    ObjectiveOrder,
)

__all__ = ["ORDERS", "UNKNOWN", "GothsSaveTheQueenState"]

# The outcome pairs of the two chance events, built once: chance_outcomes() copies them.
OBJECTIVE_CHANCES: Final[tuple[tuple[Any, float], ...]] = tuple(
    [(outcome, 1.0 / len(OBJECTIVE_ORDERS)) for outcome in OBJECTIVE_ORDERS]
)
FOG_CHANCES: Final[tuple[tuple[Any, float], ...]] = tuple(
    [(outcome, 1.0 / len(FOG_DRAWS)) for outcome in FOG_DRAWS]
)


class GothsSaveTheQueenState(State):
    """A position of Goths Save the Queen."""

    __slots__ = (
        "_legal",
        "army",
        "barricade",
        "catapult",
        "choosing_clan",
        "clans_to_act",
        "face_up",
        "fog",
        "fog_looked_at",
        "fog_state",
        "initiative",
        "kings_to_play",
        "last_orders",
        "last_played",
        "last_success",
        "last_turn",
        "looked_at",
        "objectives",
        "orders",
        "orders_given",
        "pending_choice",
        "phase",
        "played",
        "played_back",
        "position",
        "revealed_objectives",
        "solo_last_character",
        "tables",
        "turn",
        "winner",
    )

    tables: GothsSaveTheQueenTables
    """The seats, the King cards' backs, the options and the choices of the game, as typed
    fields."""

    def __init__(
        self, game: Game, tables: GothsSaveTheQueenTables | None = None, blank: bool = False
    ) -> None:
        """The start of a game with ``game``'s ``tables``; ``blank=True`` only sets the base
        fields, for :meth:`clone` to fill in (mypyc compiles no bare ``cls.__new__(cls)``)."""
        super().__init__(game, blank)
        if tables is not None:
            self.tables = tables
        if blank:
            return
        # §2 setup: two figurines on each Forest, one in reserve; catapults Inactive.
        self.position = [CLAN_CELLS[OSTROGOTHS][0], CLAN_CELLS[VISIGOTHS][0]]
        self.army = [2, 2]  # figurines on the board; the rest of ARMY_SIZE is in reserve
        self.catapult = [False, False]  # active?
        self.barricade = [False] * 9  # a barricade on each cell (GOTH-15: permanent)
        self.objectives = [UNKNOWN, UNKNOWN, UNKNOWN]  # the kind of each Objective card
        self.revealed_objectives = 0  # a bit per Objective card turned face up
        self.looked_at = [0, 0]  # a bit per Objective each clan's Warchief has looked at (public)
        self.fog = [NONE, NONE]  # each clan's token on its P2 (Fog variant)
        self.fog_state = [FOG_HIDDEN, FOG_HIDDEN]
        self.fog_looked_at = [False, False]  # has the clan's Warchief looked at its own token?
        self.turn = 1
        self.initiative = self.tables.first_initiative  # GOTH-7: O on turn 1 (GOTH-27: or V)
        self.phase = SETUP_OBJECTIVES
        self.kings_to_play: tuple[int, ...] = ()  # the clans whose King lays a card next
        self.played = [NONE, NONE]  # the King card each clan laid face down this turn
        self.played_back = [0, 0]  # its back (public), a bit per character
        self.face_up = [0, 0]  # a bit per King card lying face up from failed turns
        self.orders = [0, 0]  # the order each Warchief gave this turn (0: none yet)
        self.orders_given = 0  # a bit per clan whose Warchief has given his order: public
        self.solo_last_character = [NONE, NONE]  # GOTH-23: a solo chief's character last turn
        self.clans_to_act: list[int] = []  # successful clans still to act, in resolution order
        self.choosing_clan = NONE  # the clan whose Warchief makes a sub-choice
        self.pending_choice = 0  # which sub-choice (CHOOSE_*)
        self.last_turn = 0  # the turn whose cards were revealed last (0: none yet)
        self.last_played = [NONE, NONE]
        self.last_orders = [0, 0]
        self.last_success = [False, False]
        self.winner = NONE
        self._legal: list[tuple[Action, ...]] = [()] * game.num_players
        self.is_chance = True

    # ----------------------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if not self.is_chance:
            return []
        if self.phase == SETUP_OBJECTIVES:
            return list(OBJECTIVE_CHANCES)
        return list(FOG_CHANCES)

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        if self.phase == SETUP_OBJECTIVES:
            return OBJECTIVE_ORDERS[rng.randrange(len(OBJECTIVE_ORDERS))]
        return FOG_DRAWS[rng.randrange(len(FOG_DRAWS))]

    def _is_possible_outcome(self, outcome: Any) -> bool:
        if self.phase == SETUP_OBJECTIVES:
            return isinstance(outcome, ObjectiveOrder) and 0 <= outcome < len(OBJECTIVE_ORDERS)
        return isinstance(outcome, FogDraw) and 0 <= outcome < len(FOG_DRAWS)

    def _apply_chance(self, outcome: Any) -> None:
        self._keep_secret(0)  # the Objectives' order and the Fog tokens: nobody sees the draw
        if self.phase == SETUP_OBJECTIVES:
            self.objectives = list(OBJECTIVE_PERMUTATIONS[outcome])
            if self.tables.fog_of_war:
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
        action = cast(GothsSaveTheQueenAction, action)
        kind = action.kind
        if kind == ORDER:
            if self._give_order(seat, action.value):
                self._reveal()
                self._resume()
        elif kind == KING_CARD:
            clan = self.tables.clan_of[seat]
            self._keep_secret(1 << seat)  # the others see the card's back only, until the reveal
            self.played[clan] = action.value
            self.played_back[clan] = self.tables.back_of[action.value]
            self._next_king()
        else:
            # A sub-choice during the resolution: public at once.
            self._choose(self.choosing_clan, action)
            if not self.is_terminal:
                self._resume()

    # ----------------------------------------------------------------------------- the turn

    def _start_turn(self) -> None:
        tables = self.tables
        if self.turn > tables.safety_cap:
            self.truncated = True  # ended by the safety cap, not by the rules
            self._finish(DRAW)  # GOTH-26 [engine addition]: the safety cap is a draw
            return
        self.played = [NONE, NONE]
        self.orders = [0, 0]
        self.orders_given = 0
        # The clans that play a King card, the initiative's first (spelled out: a generator
        # is an object built and run through the interpreter's protocol each turn).
        first = self.initiative
        second = 1 - first
        solo = tables.solo
        if solo[first]:
            self.kings_to_play = () if solo[second] else (second,)
        else:
            self.kings_to_play = (first,) if solo[second] else (first, second)
        self._next_king()

    def _next_king(self) -> None:
        """§3 A: the initiative King, then the other (having seen the first back), then both
        Warchiefs at once."""
        kings = self.kings_to_play
        tables = self.tables
        if kings:
            clan = kings[0]
            self.kings_to_play = kings[1:]
            seat = tables.king_seat[clan]
            self.phase = KINGS
            self._legal[seat] = tables.king_card_choices[ALL_KING_CARDS & ~self.face_up[clan]]
            self.to_move = (seat,)
            return
        self.phase = ORDERS
        legal = self._legal
        for clan in range(2):  # OSTROGOTHS, VISIGOTHS (a range: no tuple built and walked)
            seat = tables.warchief_seat[clan]
            if tables.solo[clan]:
                # GOTH-23: a solo chief may not repeat last turn's character.
                legal[seat] = tables.solo_order_choices[self.solo_last_character[clan] + 1]
            else:
                legal[seat] = tables.warchief_orders
        self.to_move = tables.order_givers

    def _give_order(self, seat: int, order: int) -> bool:
        """Lay ``seat``'s order face down; whether it was the last order of the turn."""
        clan = self.tables.clan_of[seat]
        self._keep_secret(1 << seat)  # until every card of the turn is revealed (§3 B)
        self.orders[clan] = order
        self.orders_given |= 1 << clan
        waiting: list[int] = []  # (a plain loop: no generator object built each order)
        for other in self.to_move:
            if other != seat:
                waiting.append(other)
        self.to_move = tuple(waiting)
        return not waiting

    def _reveal(self) -> None:
        """§3 B: all four cards face up; each clan succeeds or fails (GOTH-3); the successful
        clans line up to act in action-number order."""
        tables = self.tables
        # Every card of the turn turns face up: the King cards and orders are public now (the
        # chance events, which name secret cards and tokens, stay secret). The order that
        # completes the turn is being applied: it is not in the history yet.
        secret = self.secrets.knowers
        history = self.history
        now = len(history)
        for index in [i for i in secret if i == now or history[i][0] != CHANCE]:
            self._reveal_event(index)
        self.last_turn = self.turn
        first = self.initiative
        orders = self.orders
        success = self.last_success
        for nth in range(2):
            clan = first ^ nth  # first, then 1 - first (a range: no tuple built and walked)
            order = orders[clan]
            if tables.solo[clan]:
                success[clan] = True
                self.solo_last_character[clan] = ORDER_CHARACTER[order]
                continue
            card = self.played[clan]
            characters = FACE_UP_CHARACTERS[self.face_up[clan] | 1 << card]
            success[clan] = bool(characters >> ORDER_CHARACTER[order] & 1)
            if not success[clan]:
                self.face_up[clan] |= 1 << card  # the King card stays face up
        self.last_played = self.played
        self.last_orders = orders.copy()
        self.played = [NONE, NONE]
        self.clans_to_act = self._in_resolution_order(first, 1 - first)

    def _in_resolution_order(self, first: int, second: int) -> list[int]:
        """The successful clans (``first`` holds the initiative), the lower order number first;
        on a tie the initiative clan (GOTH-25)."""
        success = self.last_success
        if success[first] and success[second]:
            orders = self.orders
            return [second, first] if orders[second] < orders[first] else [first, second]
        if success[first]:
            return [first]
        return [second] if success[second] else []

    def _resume(self) -> None:
        """Execute the successful clans' actions in order; each may stop for a sub-choice."""
        clans = self.clans_to_act
        while clans:
            if not self._carry_out(clans.pop(0)):
                return
        self.turn += 1
        self.initiative = 1 - self.initiative  # GOTH-7: passes at the start of every turn
        self._start_turn()

    def _carry_out(self, clan: int) -> bool:
        """Execute ``clan``'s order; whether the resolution goes on (no sub-choice asked, nobody
        won: GOTH-18, a victory stops the turn at once)."""
        if self._execute(clan) or self.is_terminal:
            return False
        self.face_up[clan] = 0  # GOTH-6: the successful King takes all his cards back
        return True

    def _ask(self, clan: int, choice: int, legal: tuple[Action, ...]) -> None:
        seat = self.tables.warchief_seat[clan]
        self.phase = SUB_CHOICE
        self.pending_choice = choice
        self.choosing_clan = clan
        self._legal[seat] = legal
        self.to_move = (seat,)

    def _choose(self, clan: int, action: GothsSaveTheQueenAction) -> None:
        """Carry out ``clan``'s Warchief's sub-choice (GOTH-5)."""
        self.choosing_clan = NONE
        kind = action.kind
        if kind == LOOK:
            self._look(clan, action.value)
        elif kind == ENTER:
            self._enter(clan, action.value)
        elif action.value == BUILD:
            self._build(clan)
        else:
            # GOTH-21: a Boar-shortage catapult stays Inactive until loaded again.
            self.fog_state[clan] = FOG_DISCARDED
        if not self.is_terminal:
            self.face_up[clan] = 0  # GOTH-6

    # ----------------------------------------------------------------------------- actions

    def fog_in_force(self, clan: int) -> int:
        """The Fog token hampering ``clan`` (revealed, not discarded), or NONE (§6)."""
        return self.fog[clan] if self.fog_state[clan] == FOG_REVEALED else NONE

    def _execute(self, clan: int) -> bool:
        """Carry out ``clan``'s order (§4); True if its Warchief must now make a sub-choice.
        A hampered order (GOTH-20) or one that finds nothing to do is still carried out."""
        order = self.orders[clan]
        if order == ADVANCE:
            return self._advance(clan)
        if order == RECON:
            return self._reconnoitre(clan)
        if order == BARRICADE:
            return self._barricade_order(clan)
        enemy = 1 - clan
        effect = self.fog_in_force(clan)
        enemy_cell = self.position[enemy]
        if order == AXE:
            if (
                effect != GUSTS
                and not self.barricade[enemy_cell]
                and enemy_cell not in FOREST_CELLS
            ):
                self._lose(enemy, 1)
        elif order == FIRE:
            if self.catapult[clan]:
                self.catapult[clan] = False  # GOTH-13: inactive again, even against a barricade
                if not self.barricade[enemy_cell]:
                    self._lose(enemy, 2)  # GOTH-12: fewer than 2 -> all
        elif order == RATS:
            if self.barricade[enemy_cell]:
                self._lose(enemy, 1)
        elif order == LOAD:
            if effect != BOAR_SHORTAGE:
                self.catapult[clan] = True
        elif order == RECRUIT:
            if effect != REDUCED_NUMBERS and self.army[clan] < ARMY_SIZE:
                self.army[clan] += 1
        else:  # SABOTAGE
            self.catapult[enemy] = False
        return False

    def _advance(self, clan: int) -> bool:
        """Order 7: one step forward; from P2 or an Objective, onto an Objective (GOTH-16)."""
        cell = self.position[clan]
        own = CLAN_CELLS[clan]
        if cell == own[0] or cell == own[1]:
            self._move(clan, cell + FORWARD[clan])
            return False
        choices = self.tables.entry_choices[self.free_objectives(clan)]
        if len(choices) > 1:
            self._ask(clan, CHOOSE_ENTRY, choices)
            return True
        self._enter(clan, cast(GothsSaveTheQueenAction, choices[0]).value)
        return False

    def _reconnoitre(self, clan: int) -> bool:
        """Order 1: the Warchief looks at a card of his choice, unless Pea soup blinds him."""
        if self.fog_in_force(clan) == PEA_SOUP:
            return False
        tables = self.tables
        own_token_hidden = tables.fog_of_war and self.fog_state[clan] == FOG_HIDDEN
        self._ask(clan, CHOOSE_RECON, tables.recon_choices[own_token_hidden])
        return True

    def _barricade_order(self, clan: int) -> bool:
        """Order 6: build, or (GOTH-19) discard the revealed Fog token wherever the army is."""
        tables = self.tables
        if self.fog_state[clan] == FOG_REVEALED and (
            not tables.fog_discard_requires_same_card or self.position[clan] == CLAN_CELLS[clan][2]
        ):
            self._ask(clan, CHOOSE_BARRICADE, tables.barricade_choices)
            return True
        self._build(clan)
        return False

    def free_objectives(self, clan: int) -> int:
        """A bit per Objective the army may enter: not the enemy's, not its own (GOTH-16)."""
        free = 0b111
        for army_clan in (clan, 1 - clan):
            cell = self.position[army_clan]
            if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
                free &= ~(1 << (cell - OBJECTIVE_BASE))
        return free

    def _move(self, clan: int, cell: int) -> None:
        self.position[clan] = cell
        if (
            cell == CLAN_CELLS[clan][2]
            and self.fog[clan] >= 0
            and self.fog_state[clan] == FOG_HIDDEN
        ):
            # §6: entering its own P2 reveals the clan's token, publicly.
            self.fog_state[clan] = FOG_REVEALED
            if self.fog[clan] == BOAR_SHORTAGE:
                self.catapult[clan] = False  # GOTH-21

    def _enter(self, clan: int, slot: int) -> None:
        """Advance onto Objective ``slot``: reveal it; the Queen wins, the Trap bites."""
        self._move(clan, OBJECTIVE_BASE + slot)
        first_time = not self.revealed_objectives >> slot & 1
        self.revealed_objectives |= 1 << slot
        kind = self.objectives[slot]
        if kind == QUEEN:
            self._finish(clan)
        elif kind == TRAP and (first_time or self.tables.trap_every_entry):
            self._lose(clan, 1)  # GOTH-10, GOTH-18

    def can_build_on(self, cell: int) -> bool:
        """Whether a barricade may still go up on ``cell`` (GOTH-9: never on the Plains
        Objective, on the Trap by option; GOTH-15: one is enough)."""
        if self.barricade[cell]:
            return False
        if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
            kind = self.objectives[cell - OBJECTIVE_BASE]
            return kind == TRAP and self.tables.barricade_on_trap_objective
        return True

    def _build(self, clan: int) -> None:
        cell = self.position[clan]
        if self.can_build_on(cell):
            self.barricade[cell] = True

    def _look(self, clan: int, target: int) -> None:
        # GOTH-17: which card is public; what it shows, known to his Warchief only (.views).
        if target == LOOK_FOG:
            self.fog_looked_at[clan] = True
        else:
            self.looked_at[clan] |= 1 << target

    def _lose(self, clan: int, count: int) -> None:
        """§4: lost figurines go to the reserve (GOTH-11); an empty army loses (§5)."""
        self.army[clan] -= min(count, self.army[clan])
        if self.army[clan] == 0:
            self._finish(1 - clan)

    def _finish(self, winner: int) -> None:
        self.winner = winner
        self.phase = OVER
        self.is_terminal = True
        self.is_chance = False
        self.to_move = ()
        self.clans_to_act = []
        self.choosing_clan = NONE
        # The game is over: every card is turned up, the Objectives and Fog tokens too (the
        # end-of-game summary shows them to everyone).
        self._reveal_all()

    def progress(self) -> dict[str, int]:
        # The turn being played (the game starts at turn 1).
        return {"turns": self.turn}

    def returns(self) -> list[float]:
        players = self.num_players
        if not self.is_terminal:
            return [0.0] * players
        if self.winner == DRAW:
            return [1.0 / players] * players
        seats = self.tables.clan_seats[self.winner]
        share = 1.0 / len(seats)
        return [share if seat in seats else 0.0 for seat in range(players)]

    # ----------------------------------------------------------------------------- records

    def clone(self) -> GothsSaveTheQueenState:
        other = GothsSaveTheQueenState(self.game, self.tables, blank=True)
        self._clone_base(other)
        other.position = self.position.copy()
        other.army = self.army.copy()
        other.catapult = self.catapult.copy()
        other.barricade = self.barricade.copy()
        other.objectives = self.objectives.copy()
        other.revealed_objectives = self.revealed_objectives
        other.looked_at = self.looked_at.copy()
        other.fog = self.fog.copy()
        other.fog_state = self.fog_state.copy()
        other.fog_looked_at = self.fog_looked_at.copy()
        other.turn = self.turn
        other.initiative = self.initiative
        other.phase = self.phase
        other.kings_to_play = self.kings_to_play
        other.played = self.played.copy()
        other.played_back = self.played_back.copy()
        other.face_up = self.face_up.copy()
        other.orders = self.orders.copy()
        other.orders_given = self.orders_given
        other.solo_last_character = self.solo_last_character.copy()
        other.clans_to_act = self.clans_to_act.copy()
        other.choosing_clan = self.choosing_clan
        other.pending_choice = self.pending_choice
        other.last_turn = self.last_turn
        other.last_played = self.last_played.copy()
        other.last_orders = self.last_orders.copy()
        other.last_success = self.last_success.copy()
        other.winner = self.winner
        other._legal = self._legal.copy()
        return other
