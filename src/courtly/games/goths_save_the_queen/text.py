"""The words of Goths Save the Queen: the picture of a position, the narration of events, the
reasons a move is refused and the messages of the chance parser.

Everything here reads only what the given seat may know (docs/rules/goths-save-the-queen.md §8),
whether it is called on the full state or on the seat's redacted copy, and nothing here runs on
the hot path: the state machine says nothing. :func:`narrate` learns what an event does by
applying it to a copy, one clan's order at a time, and describing the change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.actions import Action, seat_text
from ...core.errors import IllegalAction
from ...core.events import CHANCE, Line, told_apart
from ...core.game import GameText, State
from .components import (
    ADVANCE,
    ARMY_SIZE,
    AXE,
    BARRICADE,
    BOAR_SHORTAGE,
    BUILD,
    CELL_NAMES,
    CHARACTER_NAMES,
    CHOOSE_BARRICADE,
    CHOOSE_ENTRY,
    CHOOSE_RECON,
    CLAN_ADJECTIVES,
    CLAN_CELLS,
    CLAN_LETTERS,
    CLAN_NAMES,
    DRAW,
    ENTER,
    FIRE,
    FOG_DISCARDED,
    FOG_EFFECTS,
    FOG_HIDDEN,
    FOG_NAMES,
    FOG_REVEALED,
    FOG_TITLES,
    FOREST_CELLS,
    FRONT,
    GUSTS,
    KING,
    KING_CARD,
    KING_CARD_NAMES,
    KINGS,
    LOAD,
    LOOK,
    LOOK_FOG,
    NONE,
    OBJECTIVE_BASE,
    OBJECTIVE_NAMES,
    ORDER,
    ORDER_CHARACTER,
    ORDER_WORDS,
    ORDERS,
    PEA_SOUP,
    QUEEN,
    RATS,
    RECON,
    RECRUIT,
    REDUCED_NUMBERS,
    SETUP_OBJECTIVES,
    SUB_CHOICE,
    GothsSaveTheQueenAction,
    GothsSaveTheQueenTables,
    back_text,
    cards_of,
)
from .rules import GothsSaveTheQueenState

# ----------------------------------------------------------------------------- words


def plural(count: int, word: str, many: str = "") -> str:
    """``1 figurine``, ``2 figurines``, ``0 cards``."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def listed(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def card_text(card: int) -> str:
    """``V1 (Vulture)``."""
    return f"{KING_CARD_NAMES[card].upper()} ({CHARACTER_NAMES[FRONT[card]]})"


def card_with_back(tables: GothsSaveTheQueenTables, card: int) -> str:
    """``V1 (Vulture, back V/R)``: a King card as its King holds it, front and back."""
    name = KING_CARD_NAMES[card].upper()
    return f"{name} ({CHARACTER_NAMES[FRONT[card]]}, back {back_text(tables.back_of[card])})"


def seat_with_title(tables: GothsSaveTheQueenTables, seat: int) -> str:
    """``p0 (Ostrogoth King)``."""
    return f"{seat_text(seat)} ({tables.seat_title(seat)})"


def cell_text(state: GothsSaveTheQueenState, cell: int) -> str:
    """``O-Plains1``, ``Objective 1``, or ``Objective 1 (Queen)`` once it is face up."""
    if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
        slot = cell - OBJECTIVE_BASE
        if state.revealed_objectives >> slot & 1:
            return f"Objective {slot} ({OBJECTIVE_NAMES[state.objectives[slot]].title()})"
    return CELL_NAMES[cell]


def _face_down_candidates(state: GothsSaveTheQueenState, clan: int) -> list[int]:
    """The King cards that may lie face down for ``clan``: those with its back, not face up."""
    return list(state.tables.cards_behind[state.played_back[clan]][state.face_up[clan]])


# ----------------------------------------------------------------------------- the picture

WIDTH = 8
CELL_SHORT = (
    "Forest",
    "Plains1",
    "Plains2",
    "Obj 0",
    "Obj 1",
    "Obj 2",
    "Plains2",
    "Plains1",
    "Forest",
)
FOG_SHORT = ("soup", "fewer", "boar", "gusts")
"""The Fog tokens in a board column: Pea soup, Reduced numbers, Boar shortage, Gusts."""


class GothsSaveTheQueenText(GameText):
    """The board, its events and the reasons of refusals, in Goths Save the Queen's words."""

    def render(self, state: State, seat: int | None) -> str:
        """The table from ``seat``'s side; once the game is over, the one end-of-game summary (the
        result, the board, every hidden card and token turned up), the same for every seat."""
        assert isinstance(state, GothsSaveTheQueenState)
        tables = state.tables
        lines = [
            _header(state),
            " · ".join(
                name + (" (you)" if other == seat else "")
                for other, name in enumerate(tables.seat_names())
            ),
            "",
            *board_lines(state, seat),
            "",
        ]
        for clan in (0, 1):
            lines.extend(_clan_lines(state, clan))
        if state.last_turn:
            lines.append(_last_reveal_line(state))
        if state.is_terminal:
            lines.extend(_fog_summary(state))
        elif seat is not None:
            lines.extend(_private_lines(state, seat))
        lines.append(_status(state))
        return "\n".join(lines)

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        """The story of an event about to be applied to ``state``, told seat by seat."""
        return told_apart(state.num_players, lambda seat: self._told_to(state, actor, item, seat))

    def _told_to(self, state: State, actor: int, item: Any, seat: int | None) -> str | None:
        """What ``seat`` is told of an event about to be applied: who lays or gives what face down,
        the reveal of the turn's cards, and what each order then does."""
        assert isinstance(state, GothsSaveTheQueenState)
        tables = state.tables
        if actor == CHANCE:
            if state.phase == SETUP_OBJECTIVES:
                return "The three Objective cards are shuffled and laid face down in the centre."
            return (
                "Two Fog of War tokens are laid face down, one on each clan's Plains by the centre."
            )
        if not isinstance(item, GothsSaveTheQueenAction) or item not in state.legal_actions(actor):
            return None
        who = seat_with_title(tables, actor)
        if item.kind == KING_CARD:
            line = f"{who} lays a King card face down; its back shows {back_text(tables.back_of[item.value])}."
            card = item.value
            own = f" (It is {KING_CARD_NAMES[card].upper()}, a {CHARACTER_NAMES[FRONT[card]]}.)"
            return line + (own if seat == actor else "")
        probe = state.clone()
        if item.kind == ORDER:
            line = f"{who} gives an order face down." + (f" ({item})" if seat == actor else "")
            if not probe._give_order(actor, item.value):
                return line
            probe._reveal()
            lines = [line, _reveal_line(probe)]
        else:
            clan = probe.choosing_clan
            before = probe.clone()
            probe._choose(clan, item)
            lines = [f"{who} chooses {item}.", *_choice_lines(before, probe, clan, item, seat)]
        lines.extend(_resolution_lines(probe))
        return "\n  ".join(lines)

    def parse_chance(self, state: State, text: str) -> Any:
        """The Objectives' order (``trap,queen,plains``) or the Fog tokens' draw
        (``boar-shortage,gusts``: the Ostrogoth token first)."""
        if not state.is_chance:
            raise IllegalAction("no chance event is pending")
        key = ",".join(part.strip() for part in text.strip().lower().split(","))
        for outcome, _ in state.chance_outcomes():
            if str(outcome) == key:
                return outcome
        assert isinstance(state, GothsSaveTheQueenState)
        raise IllegalAction(not_a_chance_outcome(state, text))

    def why_not_to_move(self, state: State, seat: object, action: object) -> str:
        assert isinstance(state, GothsSaveTheQueenState)
        return refusal(state, seat, action) or super().why_not_to_move(state, seat, action)

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        assert isinstance(state, GothsSaveTheQueenState)
        return refusal(state, seat, action) or super().why_illegal(state, seat, action)

    def why_unknown(self, state: State, seat: int, text: str) -> str:
        assert isinstance(state, GothsSaveTheQueenState)
        return refusal(state, seat, text) or super().why_unknown(state, seat, text)


def _header(state: GothsSaveTheQueenState) -> str:
    tables = state.tables
    cap = f"safety cap {plural(tables.safety_cap, 'turn')}"
    if state.is_terminal:
        turns = state.turn - 1 if state.truncated else state.turn
        return f"Goths Save the Queen · final position after {plural(turns, 'turn')} · {cap}"
    initiative = CLAN_NAMES[state.initiative]
    return f"Goths Save the Queen · turn {state.turn} · initiative: {initiative} · {cap}"


def _cells(texts: list[str]) -> str:
    """One row of the board line: the three Objectives are fenced off with bars."""
    out = ""
    for cell, text in enumerate(texts):
        if cell in (OBJECTIVE_BASE, OBJECTIVE_BASE + 3):
            out += "| "
        out += f"{text:<{WIDTH}}"
    return out.rstrip()


def board_lines(state: GothsSaveTheQueenState, seat: int | None) -> list[str]:
    """The board line, one column per card: terrain side (``#`` = barricade), armies (a letter
    per figurine), and in the Fog variant the tokens."""
    tables = state.tables
    span = 3 * WIDTH
    header = f"{'Ostrogoths':^{span}}| {'Objectives':^{span}}| {'Visigoths':^{span}}".rstrip()
    reconnoitred = 0
    if seat is not None and seat == tables.warchief_seat[tables.clan_of[seat]]:
        reconnoitred = state.looked_at[tables.clan_of[seat]]
    over = state.is_terminal
    sides = []
    for cell in range(9):
        barricade = "#" if state.barricade[cell] else ""
        if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
            slot = cell - OBJECTIVE_BASE
            kind = state.objectives[slot]
            if state.revealed_objectives >> slot & 1:
                text = OBJECTIVE_NAMES[kind].upper() + barricade
            elif over:
                text = OBJECTIVE_NAMES[kind]  # turned up at the end
            elif reconnoitred >> slot & 1:
                text = f"{OBJECTIVE_NAMES[kind]}?"  # own reconnaissance
            else:
                text = "hidden"
        else:
            text = ("forest" if cell in FOREST_CELLS else "plains") + barricade
        sides.append(text)
    armies = [""] * 9
    for clan in (0, 1):
        armies[state.position[clan]] = CLAN_LETTERS[clan] * state.army[clan]
    lines = [header, _cells(list(CELL_SHORT)), _cells(sides), _cells(armies)]
    legend = "# barricade · O/V one letter per figurine"
    if reconnoitred and not over:
        legend += " · trap? = face down, seen by your reconnaissance"
    if over and state.revealed_objectives != 0b111:
        legend += " · lower case: never turned up in play"
    lines.append(legend)
    if tables.fog_of_war:
        lines.insert(-1, _cells(_fog_row(state, seat)))
        lines.append("Fog row: fog? face down · SOUP, FEWER, BOAR, GUSTS in force · gone discarded")
    return lines


def _fog_row(state: GothsSaveTheQueenState, seat: int | None) -> list[str]:
    tables = state.tables
    row = [""] * 9
    for clan in (0, 1):
        token = state.fog[clan]
        fog_state = state.fog_state[clan]
        if fog_state == FOG_DISCARDED:
            text = "gone"
        elif fog_state == FOG_REVEALED:
            text = FOG_SHORT[token].upper()
        elif state.is_terminal:
            text = FOG_SHORT[token]  # turned up at the end
        elif state.fog_looked_at[clan] and seat == tables.warchief_seat[clan]:
            text = f"{FOG_SHORT[token]}?"  # own reconnaissance
        else:
            text = "fog?"
        row[CLAN_CELLS[clan][2]] = text
    return row


def _clan_lines(state: GothsSaveTheQueenState, clan: int) -> list[str]:
    tables = state.tables
    cell = state.position[clan]
    barricaded = " (barricaded)" if state.barricade[cell] else ""
    army = state.army[clan]
    where = f"{plural(army, 'figurine')} on {cell_text(state, cell)}{barricaded}"
    if not army:
        where = f"wiped out on {cell_text(state, cell)}"
    catapult = "ACTIVE" if state.catapult[clan] else "inactive"
    lines = [f"{CLAN_NAMES[clan]}: {where}, {ARMY_SIZE - army} in reserve, catapult {catapult}"]
    if tables.solo[clan]:
        lines.append(
            f"  solo chief {seat_text(tables.warchief_seat[clan])}: {_solo_note(state, clan)}"
        )
    else:
        lines.append(f"  King {seat_text(tables.king_seat[clan])}: {_king_note(state, clan)}")
    if tables.fog_of_war and not state.is_terminal:
        lines.append(f"  Fog token: {_fog_note(state, clan)}")
    looked = [str(slot) for slot in range(3) if state.looked_at[clan] >> slot & 1]
    if looked and not state.is_terminal:
        objectives = "Objective" if len(looked) == 1 else "Objectives"
        lines.append(f"  reconnaissance has looked at {objectives} {listed(looked)}")
    return lines


def _fog_note(state: GothsSaveTheQueenState, clan: int) -> str:
    token = state.fog[clan]
    if state.fog_state[clan] == FOG_HIDDEN:
        looked = " (its Warchief has looked at it)" if state.fog_looked_at[clan] else ""
        return f"face down{looked}"
    if state.fog_state[clan] == FOG_DISCARDED:
        return f"{FOG_TITLES[token]}, discarded"
    return f"{FOG_TITLES[token]}, in force: {FOG_EFFECTS[token]}"


def _solo_note(state: GothsSaveTheQueenState, clan: int) -> str:
    last = state.solo_last_character[clan]
    if last < 0:
        return "no order given yet"
    if state.is_terminal:
        return f"last order of the {CHARACTER_NAMES[last]}"
    return f"gave a {CHARACTER_NAMES[last]} order last turn, so none of those this turn (GOTH-23)"


def _king_note(state: GothsSaveTheQueenState, clan: int) -> str:
    """``7 cards in hand · face up: V1 · face down: back C/B (B1 or C2)``."""
    face_up = state.face_up[clan]
    played = state.played[clan]
    held = len(cards_of(0xFF & ~face_up)) - (played != NONE)
    parts = [f"{plural(held, 'card')} in hand"]
    if face_up:
        parts.append(
            "face up: " + ", ".join(KING_CARD_NAMES[card].upper() for card in cards_of(face_up))
        )
    if played != NONE:
        candidates = [KING_CARD_NAMES[card].upper() for card in _face_down_candidates(state, clan)]
        parts.append(
            f"face down: back {back_text(state.played_back[clan])} ({listed(candidates, 'or')})"
        )
    return " · ".join(parts)


def _last_reveal_line(state: GothsSaveTheQueenState) -> str:
    parts = []
    for clan in (0, 1):
        order = state.last_orders[clan]
        card = state.last_played[clan]
        what = f"{card_text(card)} + " if card >= 0 else "(solo) "
        verdict = "success" if state.last_success[clan] else "failure"
        parts.append(f"{CLAN_NAMES[clan]} {what}{ORDER_WORDS[order]} ({order}): {verdict}")
    return f"Revealed on turn {state.last_turn}: " + "; ".join(parts)


def _private_lines(state: GothsSaveTheQueenState, seat: int) -> list[str]:
    """What ``seat`` alone knows: a King his cards, each with the back the others see; a
    Warchief what his reconnaissance showed and his order face down."""
    tables = state.tables
    clan = tables.clan_of[seat]
    played = state.played[clan]
    if tables.role_of[seat] == KING:
        hand = [
            card_with_back(tables, card)
            for card in cards_of(0xFF & ~state.face_up[clan])
            if card != played
        ]
        lines = [f"Your hand ({seat_text(seat)}): " + ", ".join(hand)]
        if played >= 0:
            lines.append(f"Your card face down: {card_with_back(tables, played)}")
        return lines
    known = [
        f"Objective {slot} is the {OBJECTIVE_NAMES[state.objectives[slot]].title()}"
        for slot in range(3)
        if state.looked_at[clan] >> slot & 1 and state.objectives[slot] >= 0
    ]
    if tables.fog_of_war and state.fog_looked_at[clan] and state.fog[clan] >= 0:
        known.append(f"your Fog token is {FOG_TITLES[state.fog[clan]]}")
    lines = []
    if known:
        lines.append(f"Your reconnaissance ({seat_text(seat)}): " + "; ".join(known))
    if state.phase == ORDERS and state.orders[clan] > 0:
        lines.append(f"Your order, face down: {ORDER_WORDS[state.orders[clan]]}")
    return lines


def _fog_summary(state: GothsSaveTheQueenState) -> list[str]:
    """At the end: each clan's Fog token, and the two never used (§2, §5)."""
    if not state.tables.fog_of_war or min(state.fog) < 0:
        return []
    parts = []
    for clan in (0, 1):
        when = "never revealed" if state.fog_state[clan] == FOG_HIDDEN else "revealed in play"
        parts.append(f"{CLAN_NAMES[clan]} {FOG_TITLES[state.fog[clan]]} ({when})")
    unused = [FOG_TITLES[token] for token in range(4) if token not in state.fog]
    return [f"Fog tokens: {'; '.join(parts)}; unused: {listed(unused)}"]


def _status(state: GothsSaveTheQueenState) -> str:
    tables = state.tables
    if state.is_terminal:
        return _end_line(state)
    if state.is_chance:
        return "Setting up the table."
    waiting = listed([seat_with_title(tables, seat) for seat in state.to_move])
    if state.phase == KINGS:
        return f"{waiting} to lay a King card face down."
    if state.phase == ORDERS:
        given = [
            seat_with_title(tables, seat)
            for seat in tables.order_givers
            if seat not in state.to_move
        ]
        done = f"; {listed(given)} has given his order" if given else ""
        return f"Orders: waiting for {waiting}{done}."
    return f"{waiting} to {_CHOICE_WORDS[state.pending_choice]}."


_CHOICE_WORDS = {
    CHOOSE_RECON: "choose a card to look at",
    CHOOSE_ENTRY: "choose the Objective to enter",
    CHOOSE_BARRICADE: "build a barricade or discard the Fog token",
}


def _end_line(state: GothsSaveTheQueenState) -> str:
    """The one "Game over" line: who won, and how (§5)."""
    tables = state.tables
    if state.winner == DRAW:
        return (
            f"Game over: the safety cap of {plural(tables.safety_cap, 'turn')} is reached; a draw."
        )
    winner = state.winner
    seats = listed([seat_text(seat) for seat in tables.clan_seats[winner]])
    cell = state.position[winner]
    slot = cell - OBJECTIVE_BASE
    if 0 <= slot < 3 and state.objectives[slot] == QUEEN:
        how = f"they rescued the Queen on Objective {slot}"
    else:
        how = f"the {CLAN_ADJECTIVES[1 - winner]} army is wiped out"
    return f"Game over: the {CLAN_NAMES[winner]} win ({seats}): {how}."


# ----------------------------------------------------------------------------- narration


def _reveal_line(state: GothsSaveTheQueenState) -> str:
    """The four cards of the turn, face up (called just after the reveal)."""
    parts = []
    first = state.initiative
    for clan in (first, 1 - first):
        order = state.last_orders[clan]
        number = f"{ORDER_WORDS[order]} ({order})"
        if state.tables.solo[clan]:
            parts.append(f"{CLAN_NAMES[clan]} (solo) {number}")
            continue
        card = state.last_played[clan]
        if not state.last_success[clan]:
            verdict = "failure: the card stays face up"
        elif FRONT[card] == ORDER_CHARACTER[order]:
            verdict = "success"
        else:
            # GOTH-3: matched by a card face up from an earlier failure.
            matches = [
                KING_CARD_NAMES[other].upper()
                for other in cards_of(state.face_up[clan])
                if FRONT[other] == ORDER_CHARACTER[order]
            ]
            verdict = f"success by the face-up {listed(matches)}"
        parts.append(f"{CLAN_NAMES[clan]} {card_text(card)} + {number}: {verdict}")
    return "Orders revealed: " + "; ".join(parts) + "."


def _resolution_lines(probe: GothsSaveTheQueenState) -> list[str]:
    """Carry out the successful clans' orders on ``probe`` one at a time, saying what each does,
    until a sub-choice is asked or the game ends (as :meth:`GothsSaveTheQueenState._resume` does)."""
    lines: list[str] = []
    while probe.clans_to_act:
        clan = probe.clans_to_act.pop(0)
        before = probe.clone()
        going_on = probe._carry_out(clan)
        lines.extend(_order_lines(before, probe, clan))
        if not going_on:
            break
    return lines


def _order_lines(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int
) -> list[str]:
    """What ``clan``'s order did, from ``before`` to ``after`` (nothing yet if it waits for its
    Warchief's sub-choice: that is told with the choice)."""
    order = before.orders[clan]
    head = f"The {CLAN_NAMES[clan]} {ORDER_WORDS[order]}"
    effect = before.fog_in_force(clan)
    if order == ADVANCE:
        return _movement_lines(before, after, clan)
    if order == RECON:
        return [f"{head}: Pea soup, the vulture sees nothing."] if effect == PEA_SOUP else []
    if order == BARRICADE:
        return [] if after.choosing_clan == clan else _barricade_lines(before, after, clan)
    if order in (AXE, FIRE, RATS):
        return _attack_lines(before, after, clan)
    if order == LOAD:
        if effect == BOAR_SHORTAGE:
            return [f"{head}: Boar shortage, the catapult cannot be loaded."]
        already = " already" if before.catapult[clan] else ""
        return [f"{head}: the catapult is{already} active."]
    if order == RECRUIT:
        if effect == REDUCED_NUMBERS:
            return [f"{head}: Reduced numbers, nobody answers the call."]
        if after.army[clan] > before.army[clan]:
            return [f"{head}: a figurine joins the army ({plural(after.army[clan], 'figurine')})."]
        return [f"{head}: the army is at full strength; nothing happens."]
    enemy = CLAN_ADJECTIVES[1 - clan]  # sabotage
    if before.catapult[1 - clan]:
        return [f"{head}: the {enemy} catapult is inactive now."]
    return [f"{head}: the {enemy} catapult was not loaded; nothing happens."]


def _attack_lines(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int
) -> list[str]:
    """An axe, a catapult shot or rats (§4, the table), and why it missed if it did."""
    order = before.orders[clan]
    head = f"The {CLAN_NAMES[clan]} {ORDER_WORDS[order]}"
    enemy = 1 - clan
    lost = before.army[enemy] - after.army[enemy]
    where = cell_text(before, before.position[enemy])
    if order == AXE:
        if lost:
            return [_loss_line(after, enemy, lost, "to the axe")]
        if before.fog_in_force(clan) == GUSTS:
            return [f"{head}: the Gusts blow the axe away; nothing happens."]
        return [f"{head}: the axe cannot reach the army on {where}."]
    if order == RATS:
        if lost:
            return [_loss_line(after, enemy, lost, "to the rats")]
        return [f"{head}: no barricade to infest; nothing happens."]
    if not before.catapult[clan]:
        return [f"{head}: the catapult is inactive; nothing happens."]
    if lost:
        return [_loss_line(after, enemy, lost, "to the catapult")]
    return [f"{head}: the stone hits the barricade on {where}; no loss (the catapult is spent)."]


def _loss_line(after: GothsSaveTheQueenState, clan: int, lost: int, how: str) -> str:
    """``The Visigoths lose 2 figurines to the catapult (1 figurine left).``"""
    loss = f"The {CLAN_NAMES[clan]} lose {plural(lost, 'figurine')} {how}"
    left = after.army[clan]
    if left:
        return f"{loss} ({plural(left, 'figurine')} left)."
    return f"{loss}: their army is wiped out."


def _movement_lines(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int
) -> list[str]:
    """An advance: the step, the Fog token it reveals (§6), the Objective it turns up."""
    start, end = before.position[clan], after.position[clan]
    if start == end:
        return []  # the Warchief must first choose the Objective to enter
    name = CLAN_NAMES[clan]
    lines = [f"The {name} advance: {cell_text(before, start)} → {cell_text(before, end)}."]
    if before.fog_state[clan] == FOG_HIDDEN and after.fog_state[clan] == FOG_REVEALED:
        token = after.fog[clan]
        lines.append(
            f"The {name} reveal their Fog token: {FOG_TITLES[token]} ({FOG_EFFECTS[token]})."
        )
    slot = end - OBJECTIVE_BASE
    if 0 <= slot < 3:
        kind = after.objectives[slot]
        turned = "revealed: " if not before.revealed_objectives >> slot & 1 else ""
        rescued = f", rescued by the {name}" if kind == QUEEN else ""
        lines.append(f"Objective {slot} is {turned}the {OBJECTIVE_NAMES[kind].title()}{rescued}.")
        lost = before.army[clan] - after.army[clan]
        if lost:
            lines.append(_loss_line(after, clan, lost, "in the Trap"))
    return lines


def _barricade_lines(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int
) -> list[str]:
    head = f"The {CLAN_NAMES[clan]} barricade"
    cell = before.position[clan]
    if after.barricade[cell] and not before.barricade[cell]:
        return [f"{head}: a barricade now stands on {cell_text(before, cell)}."]
    if before.barricade[cell]:
        return [f"{head}: there is a barricade already."]
    return [f"{head}: no barricade can be built on this Objective (GOTH-9)."]


def _choice_lines(
    before: GothsSaveTheQueenState,
    after: GothsSaveTheQueenState,
    clan: int,
    item: GothsSaveTheQueenAction,
    seat: int | None,
) -> list[str]:
    """What a Warchief's sub-choice did (GOTH-5); what a look showed is told to him alone."""
    warchief = before.tables.warchief_seat[clan]
    looker = seat_text(warchief)
    if item.kind == LOOK and item.value == LOOK_FOG:
        lines = [f"{looker} looks at the {CLAN_ADJECTIVES[clan]} Fog token in secret."]
        token = after.fog[clan]
        if seat == warchief and token >= 0:
            lines.append(f"{looker} sees: {FOG_TITLES[token]} ({FOG_EFFECTS[token]}).")
        return lines
    if item.kind == LOOK:
        slot = item.value
        lines = [f"{looker} looks at Objective {slot} in secret."]
        kind = after.objectives[slot]
        if seat == warchief and kind >= 0:
            lines.append(f"{looker} sees: Objective {slot} is the {OBJECTIVE_NAMES[kind].title()}.")
        return lines
    if item.kind == ENTER:
        return _movement_lines(before, after, clan)
    if item.value == BUILD:
        return _barricade_lines(before, after, clan)
    return [f"The {CLAN_NAMES[clan]} barricade: the Fog token is discarded; its effect ends."]


# ----------------------------------------------------------------------------- refusals


def refusal(state: GothsSaveTheQueenState, seat: object, action: object) -> str | None:
    """The reason ``seat`` may not play ``action`` (an action or its text) now, in the game's
    words; None to let the base class explain."""
    tables = state.tables
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        return None
    found = state.game.action_from_text(action) if isinstance(action, str) else action
    if not isinstance(found, GothsSaveTheQueenAction):
        return None
    who = seat_with_title(tables, seat)
    role = tables.role_of[seat]
    if found.kind == KING_CARD and role != KING:
        return f"{found} is a King card and {who} plays no King cards"
    if found.kind == ORDER and role == KING:
        return f"{found} is a Warchief order and {who} plays King cards only"
    if state.is_terminal or state.is_chance:
        return None
    clan = tables.clan_of[seat]
    if seat not in state.to_move:
        if state.phase == ORDERS and state.orders_given >> clan & 1:
            return f"{who} has already given this turn's order"
        return None
    if found in state.legal_actions(seat):
        return None
    return _why_not_now(state, seat, found)


def _why_not_now(
    state: GothsSaveTheQueenState, seat: int, found: GothsSaveTheQueenAction
) -> str | None:
    """The reason a known action of the right kind is not among ``seat``'s legal ones now."""
    tables = state.tables
    clan = tables.clan_of[seat]
    who = seat_with_title(tables, seat)
    legal = ", ".join(str(action) for action in state.legal_actions(seat))
    if found.kind == KING_CARD:
        if state.face_up[clan] >> found.value & 1:
            return f"{found} lies face up on the table, not in the hand of {who}; in hand: {legal}"
        return None
    if found.kind == ORDER:
        if state.phase == ORDERS and tables.solo[clan]:
            character = CHARACTER_NAMES[state.solo_last_character[clan]]
            return (
                f"{who} gave a {character} order last turn and may not give another one now "
                f"(GOTH-23)"
            )
        if state.phase == SUB_CHOICE:
            return f"{who} must first {_CHOICE_WORDS[state.pending_choice]}; legal: {legal}"
        return None
    if found.kind == ENTER and state.pending_choice == CHOOSE_ENTRY:
        cell = OBJECTIVE_BASE + found.value
        if state.position[1 - clan] == cell:
            enemy = CLAN_ADJECTIVES[1 - clan]
            return f"Objective {found.value} is occupied by the {enemy} army; choose {legal}"
        if state.position[clan] == cell:
            return f"the {CLAN_ADJECTIVES[clan]} army already stands on Objective {found.value}"
    if found.kind == LOOK and found.value == LOOK_FOG and state.pending_choice == CHOOSE_RECON:
        if not tables.fog_of_war:
            return "there are no Fog tokens in this game (option fog_of_war)"
        return "the Fog token is already face up"
    return None


def not_a_chance_outcome(state: GothsSaveTheQueenState, text: str) -> str:
    """Why ``text`` names no possible chance outcome now, with the form that would."""
    if state.phase == SETUP_OBJECTIVES:
        return (
            f"{text.strip()!r} is not an order of the Objectives; write the three cards from "
            "Objective 0 to 2, e.g. trap,queen,plains"
        )
    return (
        f"{text.strip()!r} is not a Fog draw; write the Ostrogoth then the Visigoth token, "
        f"two different ones of {', '.join(FOG_NAMES)}, e.g. boar-shortage,gusts"
    )
