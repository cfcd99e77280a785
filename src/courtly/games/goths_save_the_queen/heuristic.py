"""A Goths Save the Queen bot for every role: King, Warchief or solo chief, by the seat it is given.

Both halves of a clan share one convention, never a message. Every order gets a value from the
table (a catapult shot at a weak army wins, an axe needs an exposed enemy, reconnaissance is
worth more the closer the army is to the Objectives...). *Public values* are computed from the
table alone (what the King can see); a Warchief's *own values* add what his reconnaissance showed
him.

- The Warchief reads the back of his King's new card: of its two characters, the King "probably"
  meant the one with the higher public value (certainly, if the other card with that back lies
  face up). He then gives the order with the best value times chance of success, where the
  characters of the clan's face-up King cards are a sure success.
- The King plays the card for which that very reading leads his Warchief to the most valuable
  order that succeeds: he simulates his Warchief with the public values.
- A solo chief gives the order of highest value among those allowed.

Choices that are exactly as good (two Objectives nobody has seen, two orders that both win) are
drawn with the random source the bot is given, never taken in list order.

``evaluate`` scores a position for searches cut short (ISMCTS rollouts with a depth cap).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Sequence
from typing import ClassVar

from ...core.actions import Action
from ...core.draws import choice
from ...core.game import Game, State, View, known_state
from .components import (
    ADVANCE,
    ALL_KING_CARDS,
    AXE,
    BARRICADE,
    BOAR_SHORTAGE,
    BUILD_OR_DISCARD,
    CLAN_CELLS,
    ENTER,
    FACE_UP_CHARACTERS,
    FIRE,
    FOG_REVEALED,
    FOREST_CELLS,
    FRONT,
    GUSTS,
    KING_CARD,
    LOAD,
    LOOK,
    LOOK_FOG,
    NONE,
    OBJECTIVE_BASE,
    ORDER,
    ORDER_CHARACTER,
    PEA_SOUP,
    PLAINS,
    QUEEN,
    RATS,
    RECON,
    RECRUIT,
    REDUCED_NUMBERS,
    SABOTAGE,
    TRAP,
    UNKNOWN,
    GothsSaveTheQueenAction,
    cards_of,
)
from .rules import GothsSaveTheQueenState
from .worlds import set_face_down_card, set_order

WIN = 10.0
"""The value of winning at once: every other value is on this scale."""

DISCARD_VALUES: dict[int, float] = {
    PEA_SOUP: 0.8,
    REDUCED_NUMBERS: 1.0,
    BOAR_SHORTAGE: 1.6,
    GUSTS: 1.4,
}
"""What discarding each Fog token in force is worth."""

ORDERS_OF: tuple[tuple[int, ...], ...] = ((RECON, SABOTAGE), (RECRUIT,), (LOAD, FIRE), (6, 7, 8, 9))


def _free_slots(state: GothsSaveTheQueenState, clan: int) -> list[int]:
    """The Objectives the clan's army may enter next (not the enemy's, not its own)."""
    taken = {state.position[army_clan] - OBJECTIVE_BASE for army_clan in (0, 1)}
    return [slot for slot in range(3) if slot not in taken]


# The Objective row has three slots of three kinds, so what anyone can know of it takes few
# forms: the odds below are worked out once per form and remembered (they sit on the hot path of
# every decision, and of every ISMCTS rollout the heuristic plays).
World = tuple[int, ...]
"""The Objective kinds one slot after another as someone knows them (-1 = unknown)."""


@functools.cache
def _completions(kinds: World) -> tuple[World, ...]:
    """Every full Objective order agreeing with ``kinds`` (-1 = unknown), equally likely."""
    unknown = [slot for slot in range(3) if kinds[slot] < 0]
    missing = [kind for kind in range(3) if kind not in kinds]
    result = []
    for order in itertools.permutations(missing):
        full = list(kinds)
        for slot, kind in zip(unknown, order, strict=True):
            full[slot] = kind
        result.append(tuple(full))
    return tuple(result)


@functools.cache
def _slot_odds(kinds: World, slot: int) -> tuple[float, float]:
    """(chance of the Queen, chance of the Trap) behind ``slot`` for someone who knows ``kinds``."""
    kind = kinds[slot]
    if kind >= 0:
        return (1.0 if kind == QUEEN else 0.0), (1.0 if kind == TRAP else 0.0)
    unknown = sum(1 for kind in kinds if kind < 0)
    missing = [kind for kind in range(3) if kind not in kinds]
    return (
        (1.0 / unknown if QUEEN in missing else 0.0),
        (1.0 / unknown if TRAP in missing else 0.0),
    )


@functools.cache
def _recon_gain(worlds: tuple[World, ...], free: tuple[int, ...]) -> float:
    """How much one more look raises the chance of finding the Queen behind one of ``free``,
    on average over ``worlds``."""
    total = 0.0
    for kinds in worlds:
        if QUEEN in kinds:
            continue
        unknown = [slot for slot in range(3) if kinds[slot] < 0]
        if len(unknown) <= 1:
            continue
        now = max(_slot_odds(kinds, slot)[0] for slot in free)
        after = 0.0
        completions = _completions(kinds)
        for full in completions:
            seen = list(kinds)
            seen[unknown[0]] = full[unknown[0]]
            after += max(_slot_odds(tuple(seen), slot)[0] for slot in free)
        total += after / len(completions) - now
    return total / len(worlds)


class Evaluator:
    """Values of the nine orders for one clan, from the public table or a Warchief's knowledge."""

    repeat_penalty = 1.5
    jitter = 2.0

    def __init__(self, state: GothsSaveTheQueenState, clan: int) -> None:
        self.state = state
        self.clan = clan
        tables = state.tables
        self.trap_every_entry = tables.trap_every_entry
        self.free = _free_slots(state, clan)
        looked = state.looked_at[clan] | state.revealed_objectives
        own = tuple(
            state.objectives[slot] if looked >> slot & 1 and state.objectives[slot] >= 0 else -1
            for slot in range(3)
        )
        self.own_worlds: tuple[World, ...] = (own,)

    @functools.cached_property
    def public_worlds(self) -> tuple[World, ...]:
        """What the Warchief knows of the Objectives in each world the table allows, as the King
        (or anyone) can imagine it: the revealed cards, plus what the looked-at cards show.
        Worked out on first use (``GothsSaveTheQueenHeuristic.evaluate`` never needs it)."""
        state = self.state
        revealed = state.revealed_objectives
        public = tuple(state.objectives[slot] if revealed >> slot & 1 else -1 for slot in range(3))
        looked = state.looked_at[self.clan] | revealed
        return tuple(
            tuple(world[slot] if looked >> slot & 1 else -1 for slot in range(3))
            for world in _completions(public)
        )

    # ----------------------------------------------------------------------------- objectives

    def _trap_cost(self) -> float:
        return WIN if self.state.army[self.clan] == 1 else 1.6

    def entry_values(self, kinds: World, free: Sequence[int]) -> list[float]:
        """The value of entering each Objective of ``free`` for someone who knows ``kinds``: the
        Queen's chance less the Trap's cost."""
        cost = self._trap_cost()
        values = []
        for slot in free:
            queen, trap = _slot_odds(kinds, slot)
            if kinds[slot] == TRAP and not self.trap_every_entry:
                trap = 0.0
            values.append(WIN * queen - cost * trap)
        return values

    def best_entries(self, kinds: World, free: Sequence[int]) -> list[int]:
        """The Objectives among ``free`` best to enter for someone who knows ``kinds`` (several
        when they are worth the same)."""
        values = self.entry_values(kinds, free)
        top = max(values)
        return [slot for slot, value in zip(free, values, strict=True) if value >= top - 1e-9]

    def _entry_value(self, worlds: tuple[World, ...]) -> float:
        """The value of entering the best free Objective, on average over ``worlds``."""
        if not self.free:
            return -1e9
        return sum(max(self.entry_values(kinds, self.free)) for kinds in worlds) / len(worlds)

    def _recon_gain(self, worlds: tuple[World, ...]) -> float:
        """How much one more look raises the chance of finding the Queen, on average."""
        enemy_slot = self.state.position[1 - self.clan] - OBJECTIVE_BASE
        return _recon_gain(worlds, tuple(slot for slot in range(3) if slot != enemy_slot))

    # ----------------------------------------------------------------------------- orders

    def values(self, own: bool) -> list[float]:
        """The value of each order 1-9 (index = order number) executed now."""
        state = self.state
        clan = self.clan
        enemy = 1 - clan
        worlds = self.own_worlds if own else self.public_worlds
        worth = [0.0] * 10
        mine = state.army[clan]
        theirs = state.army[enemy]
        cell = state.position[clan]
        enemy_cell = state.position[enemy]
        enemy_safe = state.barricade[enemy_cell]
        effect = state.fog[clan] if state.fog_state[clan] == FOG_REVEALED else NONE
        own_cells = CLAN_CELLS[clan]
        on_objectives = OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3
        closeness = (
            1.0
            if on_objectives or cell == own_cells[2]
            else (0.7 if cell == own_cells[1] else 0.45)
        )
        if effect != PEA_SOUP:
            worth[RECON] = self._recon_gain(worlds) * WIN * 0.45 * closeness
        if state.catapult[enemy]:
            worth[SABOTAGE] = 0.5  # what it parries this turn is added by ``adjusted``
        if mine < 3 and effect != REDUCED_NUMBERS:
            worth[RECRUIT] = 2.6 if mine == 1 else 1.8
        if not state.catapult[clan] and effect != BOAR_SHORTAGE:
            worth[LOAD] = 0.5 if enemy_safe else (1.3 if theirs <= 2 else 0.9)
        if state.catapult[clan]:
            worth[FIRE] = -0.8 if enemy_safe else (WIN if theirs <= 2 else 3.6)
        if effect != GUSTS and not enemy_safe and enemy_cell not in FOREST_CELLS:
            worth[AXE] = WIN if theirs == 1 else 2.2
        if enemy_safe:
            worth[RATS] = WIN if theirs == 1 else 2.2
        worth[BARRICADE] = self._barricade_value()
        worth[ADVANCE] = self._advance_value(worlds)
        return worth

    def _enemy_axes(self) -> bool:
        """Whether the enemy's axes fly (no Gusts in force for it)."""
        state = self.state
        enemy = 1 - self.clan
        return not (state.fog_state[enemy] == FOG_REVEALED and state.fog[enemy] == GUSTS)

    def _barricade_value(self) -> float:
        """Order 6: protection against the catapult (and axes off the Forest), open to rats; or
        the discard of a Fog token in force, whichever is worth more."""
        state = self.state
        clan = self.clan
        mine = state.army[clan]
        cell = state.position[clan]
        on_objectives = OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3
        enemy_catapult = state.catapult[1 - clan]
        build = 0.0
        buildable = not state.barricade[cell]
        if on_objectives:
            kind = state.objectives[cell - OBJECTIVE_BASE]
            buildable = buildable and kind == TRAP and state.tables.barricade_on_trap_objective
        if buildable:
            build += (5.0 if mine <= 2 else 2.5) if enemy_catapult else 0.6
            if cell not in FOREST_CELLS and self._enemy_axes():
                build += 3.0 if mine == 1 else 0.8
            build -= 3.0 if mine == 1 else 0.5
            if cell == CLAN_CELLS[clan][2] or on_objectives:
                build *= 0.7  # the army will leave soon
        discard = 0.0
        if state.fog_state[clan] == FOG_REVEALED:
            discard = DISCARD_VALUES[state.fog[clan]]
        return max(build, discard)

    def _advance_value(self, worlds: tuple[World, ...]) -> float:
        """Order 7: a step toward the Objectives, or the entry of the best one."""
        state = self.state
        clan = self.clan
        mine = state.army[clan]
        cell = state.position[clan]
        safe = state.barricade[cell]
        own_cells = CLAN_CELLS[clan]
        if cell != own_cells[0] and cell != own_cells[1]:
            return self._entry_value(worlds) - (0.4 if safe else 0.0)
        advance = 1.5 if cell == own_cells[0] else 1.9
        advance += min(3.0, 0.03 * state.turn)  # a long war calls for the Queen
        if safe:
            # Leaving a barricade: no cover from the catapult, but no more rats either.
            advance += -2.0 if state.catapult[1 - clan] else 0.5 if mine == 1 else -0.3
        if cell in FOREST_CELLS and self._enemy_axes():
            advance -= 2.0 if mine == 1 else 0.4
        return advance

    # ----------------------------------------------------------------------------- threats

    def chance_enemy_gives(self, order: int, enemy_values: Sequence[float]) -> float:
        """How likely the enemy clan carries out ``order`` this turn, from what the table shows:
        its face-up King cards, the back of its new card (read as its Warchief would), its solo
        chief's last order."""
        state = self.state
        enemy = 1 - self.clan
        tables = state.tables
        character = ORDER_CHARACTER[order]
        if tables.solo[enemy]:
            return 0.0 if state.solo_last_character[enemy] == character else 0.9
        face_up = state.face_up[enemy]
        if any(face_up >> card & 1 and FRONT[card] == character for card in range(8)):
            return 0.9
        if state.played[enemy] == NONE:
            return 0.25  # its King has not chosen yet
        back = state.played_back[enemy]
        cards = tables.cards_with_back[back]
        fronts = sorted({FRONT[card] for card in cards if not face_up >> card & 1})
        if character not in fronts:
            return 0.0
        if len(fronts) == 1:
            return 0.9
        other = fronts[0] if fronts[1] == character else fronts[1]
        mine = max(enemy_values[each] for each in ORDERS_OF[character])
        theirs = max(enemy_values[each] for each in ORDERS_OF[other])
        if abs(mine - theirs) < 1e-9:
            return 0.5
        return 0.7 if mine > theirs else 0.25

    @functools.cached_property
    def _enemy(self) -> Evaluator:
        return Evaluator(self.state, 1 - self.clan)

    @functools.cached_property
    def enemy_values(self) -> list[float]:
        """The enemy clan's public values: what the table lets anyone expect it to do."""
        return self._enemy.values(own=False)

    @functools.cached_property
    def threats(self) -> list[tuple[int, float, float]]:
        """The enemy orders that would hurt this clan now: (order, chance, loss)."""
        state = self.state
        clan = self.clan
        enemy = 1 - clan
        mine = state.army[clan]
        cell = state.position[clan]
        safe = state.barricade[cell]
        enemy_eval = self._enemy
        enemy_values = self.enemy_values
        enemy_effect = state.fog[enemy] if state.fog_state[enemy] == FOG_REVEALED else NONE
        found: list[tuple[int, float]] = []
        if state.catapult[enemy] and not safe:
            found.append((FIRE, WIN if mine <= 2 else 3.0))
        if enemy_effect != GUSTS and not safe and cell not in FOREST_CELLS:
            found.append((AXE, WIN if mine == 1 else 1.5))
        if safe:
            found.append((RATS, WIN if mine == 1 else 1.5))
        enemy_cell = state.position[enemy]
        if enemy_cell == CLAN_CELLS[enemy][2] or OBJECTIVE_BASE <= enemy_cell < OBJECTIVE_BASE + 3:
            queen = enemy_eval._entry_value(enemy_eval.public_worlds)
            if queen > 0:
                found.append((ADVANCE, queen))
        return [
            (threat, self.chance_enemy_gives(threat, enemy_values), loss) for threat, loss in found
        ]

    def adjusted(self, values: Sequence[float]) -> list[float]:
        """``values`` weighed by the danger of the enemy acting first, plus the worth of
        parrying each threat before it strikes (orders resolve by number, GOTH-25)."""
        state = self.state
        clan = self.clan
        mine = state.army[clan]
        cell = state.position[clan]
        first = state.initiative == clan
        threats = self.threats
        enemy_values = self.enemy_values
        result = list(values)
        for order in range(1, 10):
            dead = 0.0
            parry = 0.0
            for threat, chance, loss in threats:
                before = threat < order or (threat == order and not first)
                if before and loss >= WIN:
                    dead += chance
                if not before and self._parries(order, threat, mine, cell, loss >= WIN):
                    parry += chance * loss
            value = values[order]
            if value > 0:
                # The enemy may parry this order first (a lower number): then it does nothing.
                parried = sum(
                    self.chance_enemy_gives(counter, enemy_values)
                    for counter in self._counters(order)
                )
                value *= max(0.0, 1.0 - dead) * (1.0 - min(0.6, parried))
            result[order] = value + parry
        # A jitter both halves of the clan compute alike from the turn number (public): it
        # breaks the endless trades two identical bots fall into, and needs no message.
        for order in range(1, 10):
            if result[order] < 0.9 * WIN:
                result[order] += self.jitter * _jitter(state.turn, clan, order)
        # Repeating last turn's order rarely gets anywhere (the enemy has answered it once):
        # try something else unless it wins.
        if state.last_turn and state.last_success[clan]:
            again = state.last_orders[clan]
            if result[again] < 0.9 * WIN:
                result[again] -= self.repeat_penalty
        return result

    def _counters(self, order: int) -> tuple[int, ...]:
        """The enemy orders that, resolved first, would spoil ``order``."""
        state = self.state
        enemy = 1 - self.clan
        theirs = state.army[enemy]
        if order == FIRE:
            return (SABOTAGE, RECRUIT) if theirs == 2 else (SABOTAGE,)
        if order == AXE and theirs == 1:
            return (RECRUIT, BARRICADE)
        if order == RATS and theirs == 1:
            return (RECRUIT, ADVANCE)
        return ()

    def _parries(self, order: int, threat: int, mine: int, cell: int, lethal: bool) -> bool:
        """Whether ``order``, resolved first, spares the army the enemy's ``threat`` (a recruit
        only spares its life, not the loss)."""
        state = self.state
        if threat == FIRE:
            return order == SABOTAGE or (order == RECRUIT and mine == 2 and lethal)
        if threat == AXE:
            if order == RECRUIT:
                return lethal
            if order == BARRICADE:
                if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
                    kind = state.objectives[cell - OBJECTIVE_BASE]
                    return kind == TRAP and state.tables.barricade_on_trap_objective
                return True
            return False
        if threat == RATS:
            return (order == RECRUIT and lethal) or order == ADVANCE
        return False


def warchief_orders(
    state: GothsSaveTheQueenState,
    clan: int,
    back: int,
    face_up: int,
    public: Sequence[float],
    own: Sequence[float],
    confidence: float,
) -> list[int]:
    """The orders a Warchief finds best (several when they score the same), reading the back
    ``back`` of the new King card, the clan's face-up cards ``face_up`` and the values (the King
    simulates this with public values)."""
    tables = state.tables
    sure = 0  # the characters of the face-up cards: a sure success
    for card in cards_of(face_up):
        sure |= 1 << FRONT[card]
    fronts = {FRONT[card] for card in tables.cards_with_back[back] if not face_up >> card & 1}
    chance = [0.0] * 4
    if len(fronts) == 1:
        chance[fronts.pop()] = 1.0
    else:
        first, second = sorted(fronts)
        character_values = [max(public[order] for order in orders) for orders in ORDERS_OF]
        if abs(character_values[first] - character_values[second]) < 1e-9:
            chance[first] = chance[second] = 0.5
        elif character_values[first] > character_values[second]:
            chance[first], chance[second] = confidence, 1.0 - confidence
        else:
            chance[first], chance[second] = 1.0 - confidence, confidence
    best: list[int] = []
    best_score = -1e9
    for order in range(1, 10):
        character = ORDER_CHARACTER[order]
        success = 1.0 if sure >> character & 1 else chance[character]
        value = own[order]
        score = success * value if value > 0 else value * (1.0 if success > 0 else 0.0)
        if score > best_score + 1e-9:
            best, best_score = [order], score
        elif score > best_score - 1e-9:
            best.append(order)
    return best


Reading = tuple[int, list[int], list[float]]
"""What a sampled world may hold for one clan's hidden card or order: (clan, the King cards or
order numbers it may be, their weights)."""


class _ViewReadings:
    """The readings of one view, kept while a search samples its worlds: the King cards (the same
    in every world) and the orders (by what the order's Warchief knows in the world)."""

    __slots__ = ("king_cards", "orders", "view")

    def __init__(self, view: View) -> None:
        self.view = view
        self.king_cards: list[Reading] | None = None
        self.orders: dict[tuple[int, ...], Reading] = {}


class GothsSaveTheQueenHeuristic:
    """One bot class for every seat; it acts by the role of the seat it is given."""

    rollout_depth: ClassVar[int] = 8
    """ISMCTS rollouts stop after this many steps (about two turns) and ask :meth:`evaluate`:
    this bot weighs every order at every step, so whole rollouts would leave a search of one
    second some hundred iterations. Cut at 8, an ISMCTS seat beside a heuristic partner won
    its clan 94% of 49 games as King and 66% of 50 as Warchief against a heuristic clan
    (300 iterations, informed worlds)."""

    informed_worlds: ClassVar[bool] = True
    """:meth:`sample_world` reads the conventions: ISMCTS draws its worlds with it."""

    def __init__(self, game: Game, confidence: float = 0.75, slack: float = 0.3) -> None:
        self.game = game
        self.confidence = confidence
        self.slack = slack
        # The last view's readings (see ``sample_world``): a search samples thousands of
        # worlds of one view.
        self._last_readings: _ViewReadings | None = None

    def evaluate(self, state: State) -> Sequence[float]:
        """Each seat's rough chance to win from ``state``, for searches that stop early (the
        rollout cap of ISMCTS, which passes a full determinized state).

        A clan wins by entering the Queen's Objective or by wiping out the enemy army, so its
        outlook counts its figurines, its army's steps toward the Objectives, what entering the
        best free Objective is worth with what its Warchief has seen (the Queen's chance less the
        Trap's cost, as the bot's Advance value reckons it), a loaded catapult aimed at an
        unprotected enemy, and an order that would win at once (the orders ``Evaluator.values``
        rates a win: a catapult shot, axe or rats that finishes the enemy army, or a sure Queen
        in reach). The clans' chances are a logistic of the difference of outlooks, the weights
        rounded from a logistic fit to who won, over positions of some 900 heuristic games. The
        game swings a lot (a Warchief who reads his King right can turn it in one order), so the
        chances stay modest. A clan's chance is shared among its seats as
        :meth:`GothsSaveTheQueenState.returns` shares a win (half each in a clan of two, all of it to a solo
        chief), so the seats' chances sum to 1.
        """
        assert isinstance(state, GothsSaveTheQueenState)
        if state.is_terminal:
            return state.returns()
        outlook = [0.0, 0.0]
        for clan in (0, 1):
            evaluator = Evaluator(state, clan)
            cell = state.position[clan]
            own_cells = CLAN_CELLS[clan]
            step = own_cells.index(cell) if cell in own_cells else 3
            entry = max(0.0, evaluator._entry_value(evaluator.own_worlds)) / WIN
            theirs = state.army[1 - clan]
            enemy_cell = state.position[1 - clan]
            enemy_safe = state.barricade[enemy_cell]
            gusts = state.fog_state[clan] == FOG_REVEALED and state.fog[clan] == GUSTS
            aimed = state.catapult[clan] and not enemy_safe
            # The winning orders of ``Evaluator.values``, without its costly reconnaissance value.
            wins_now = (
                (aimed and theirs <= 2)
                or (theirs == 1 and (enemy_safe or not (gusts or enemy_cell in FOREST_CELLS)))
                or (step >= 2 and entry >= 0.9)
            )
            outlook[clan] = (
                0.3 * state.army[clan] + 0.4 * step + entry + 0.6 * aimed + 0.9 * wins_now
            )
        first = 1.0 / (1.0 + math.exp(outlook[1] - outlook[0]))
        seats = state.tables.clan_seats
        chance = (first / len(seats[0]), (1.0 - first) / len(seats[1]))
        return [chance[clan] for clan in state.tables.clan_of]

    def act(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        state = known_state(view)
        assert isinstance(state, GothsSaveTheQueenState)
        seat = view.seat
        assert seat is not None
        tables = state.tables
        clan = tables.clan_of[seat]
        first = legal[0]
        assert isinstance(first, GothsSaveTheQueenAction)
        evaluator = Evaluator(state, clan)
        if first.kind == KING_CARD:
            return self._king(state, clan, evaluator, legal, rng)
        if first.kind == ORDER:
            own = evaluator.adjusted(evaluator.values(own=True))
            if tables.solo[clan]:
                orders = _best_of([_value(action) for action in legal], own)
            else:
                public = evaluator.adjusted(evaluator.values(own=False))
                back = state.played_back[clan]
                face_up = state.face_up[clan]
                orders = warchief_orders(state, clan, back, face_up, public, own, self.confidence)
            return tables.order_actions[choice(rng, orders)]
        if first.kind == ENTER:
            slots = evaluator.best_entries(
                evaluator.own_worlds[0], [_value(action) for action in legal]
            )
            slot = choice(rng, slots)
            return next(action for action in legal if _value(action) == slot)
        if first.kind == LOOK:
            return self._recon_target(state, clan, legal, rng)
        assert first.kind == BUILD_OR_DISCARD
        return self._build_or_discard(state, clan, legal, rng)

    def _king(
        self,
        state: GothsSaveTheQueenState,
        clan: int,
        evaluator: Evaluator,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        chosen = self._king_choices(state, clan, evaluator, [_value(action) for action in legal])
        # Any card close to the best will do: a little variety keeps the enemy guessing.
        card = choice(rng, chosen)
        return next(action for action in legal if _value(action) == card)

    def _king_choices(
        self, state: GothsSaveTheQueenState, clan: int, evaluator: Evaluator, cards: Sequence[int]
    ) -> list[int]:
        """The King cards among ``cards`` this bot picks from (evenly): those whose reading by
        the Warchief leads to an order within ``slack`` of the best (on average over the orders
        the Warchief finds equally good, among which he picks at random)."""
        public = evaluator.adjusted(evaluator.values(own=False))
        tables = state.tables
        face_up = state.face_up[clan]
        scored: list[tuple[float, int]] = []
        for card in cards:
            back = tables.back_of[card]
            orders = warchief_orders(state, clan, back, face_up, public, public, self.confidence)
            shown = FACE_UP_CHARACTERS[face_up | 1 << card]
            # A failed card stays face up: a small help for the next turn, no action now.
            total = sum(
                public[order] if shown >> ORDER_CHARACTER[order] & 1 else 0.3 for order in orders
            )
            scored.append((total / len(orders), card))
        top = max(score for score, _ in scored)
        return [card for score, card in scored if score >= top - self.slack]

    # ----------------------------------------------------------------------------- beliefs

    def sample_world(self, view: View, rng: random.Random) -> GothsSaveTheQueenState:
        """A determinization of ``view`` in which what the other seats hid is read by the clans'
        convention rather than drawn evenly (for searches: ISMCTS asks for it).

        Everyone can work out a King's hand (his eight cards less those on the table), and the
        convention's King picks by public values only, so anyone can tell which cards he would
        have picked: of the two cards with the back on the table, one he would have chosen is
        far likelier. An order already given is read the same way: the one the convention's
        Warchief would give, knowing what he knows in that world. Each is weighed by that (with
        a tenth left even, for a seat that does not follow the convention); a seat never doubts
        its own card or order. The world's history says the same, so it replays.
        """
        world = view.determinize(rng)
        assert isinstance(world, GothsSaveTheQueenState)
        readings = self._readings_of(view)
        if readings.king_cards is None:
            readings.king_cards = self._king_card_readings(view, world)
        for clan, cards, weights in readings.king_cards:
            set_face_down_card(world, clan, rng.choices(cards, weights)[0])
        seen = known_state(view)
        assert isinstance(seen, GothsSaveTheQueenState)
        for clan in (0, 1):
            if seen.orders[clan] == UNKNOWN:
                _, orders, weights = self._order_reading(readings, world, clan)
                set_order(world, clan, rng.choices(orders, weights)[0])
        return world

    def _readings_of(self, view: View) -> _ViewReadings:
        last = self._last_readings
        if last is None or last.view is not view:
            last = self._last_readings = _ViewReadings(view)
        return last

    def _king_card_readings(self, view: View, world: GothsSaveTheQueenState) -> list[Reading]:
        """For each clan whose face-down King card ``view``'s seat cannot see: the cards it may
        be and their weights. They follow from public values only (the same in every world of
        one view: checked on 3,312 views of heuristic games), so they are worked out once per
        view, from its first world."""
        tables = world.tables
        readings: list[Reading] = []
        for clan in (0, 1):
            card = world.played[clan]
            if card < 0 or view.seat == tables.king_seat[clan]:
                continue
            face_up = world.face_up[clan]
            cards = list(tables.cards_behind[tables.back_of[card]][face_up])
            if len(cards) < 2:
                continue
            # The table as that King saw it: his card not yet down (nor the other King's, if he
            # played first).
            before = world.clone()
            before.played[clan] = NONE
            if world.initiative == clan:
                before.played[1 - clan] = NONE
            hand = cards_of(ALL_KING_CARDS & ~face_up)
            picked = self._king_choices(before, clan, Evaluator(before, clan), hand)
            weights = [0.1 / len(cards) + 0.9 * (other in picked) / len(picked) for other in cards]
            readings.append((clan, cards, weights))
        return readings

    def _order_reading(
        self, readings: _ViewReadings, world: GothsSaveTheQueenState, clan: int
    ) -> Reading:
        """The orders ``clan``'s Warchief (or solo chief) may have given in ``world`` and their
        weights. His order follows from the public table and what he knows of the Objectives
        there, so it is worked out once per view and such knowledge."""
        looked = world.looked_at[clan] | world.revealed_objectives
        knows = tuple(world.objectives[slot] if looked >> slot & 1 else -1 for slot in range(3))
        key = (clan, *knows)
        found = readings.orders.get(key)
        if found is not None:
            return found
        legal = [_value(action) for action in world._legal[world.tables.warchief_seat[clan]]]
        evaluator = Evaluator(world, clan)
        own = evaluator.adjusted(evaluator.values(own=True))
        if world.tables.solo[clan]:
            picked = _best_of(legal, own)
        else:
            public = evaluator.adjusted(evaluator.values(own=False))
            back = world.played_back[clan]
            face_up = world.face_up[clan]
            picked = warchief_orders(world, clan, back, face_up, public, own, self.confidence)
        weights = [0.1 / len(legal) + 0.9 * (order in picked) / len(picked) for order in legal]
        found = readings.orders[key] = (clan, legal, weights)
        return found

    @staticmethod
    def _recon_target(
        state: GothsSaveTheQueenState, clan: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        known = state.revealed_objectives | state.looked_at[clan]
        enemy_slot = state.position[1 - clan] - OBJECTIVE_BASE
        unknown = [
            action for action in legal if _value(action) < 3 and not known >> _value(action) & 1
        ]
        if unknown:
            # Look where the army can go: not under the enemy army.
            reachable = [action for action in unknown if _value(action) != enemy_slot]
            return choice(rng, reachable or unknown)
        fog = [action for action in legal if _value(action) == LOOK_FOG]
        return fog[0] if fog else choice(rng, list(legal))

    @staticmethod
    def _build_or_discard(
        state: GothsSaveTheQueenState, clan: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        cell = state.position[clan]
        build = 0.0
        if not state.barricade[cell]:
            build = 1.0 if state.catapult[1 - clan] else 0.5
            if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
                build = 0.0 if state.objectives[cell - OBJECTIVE_BASE] == PLAINS else build
        discard = DISCARD_VALUES[state.fog[clan]]
        if discard == build:
            return choice(rng, list(legal))
        return legal[1] if discard > build else legal[0]


def _best_of(orders: Sequence[int], values: Sequence[float]) -> list[int]:
    """The orders of highest value (several when they are worth the same)."""
    top = max(values[order] for order in orders)
    return [order for order in orders if values[order] >= top - 1e-9]


def _jitter(turn: int, clan: int, order: int) -> float:
    """A fixed pseudo-random number in [-0.5, 0.5) for (turn, clan, order)."""
    key = (turn * 7919 + clan * 104729 + order * 1299709) * 2654435761 % 4294967296
    return key / 4294967296 - 0.5


def _value(action: Action) -> int:
    assert isinstance(action, GothsSaveTheQueenAction)
    return action.value


__all__ = ["Evaluator", "GothsSaveTheQueenHeuristic", "warchief_orders"]
