"""The words of Goths Save the Queen: the picture of a position, the story of each event, how a
game ended, the moves' labels, the reasons a move is refused and the messages of the chance
parser.

The picture and the labels read only what the given seat may know
(docs/rules/goths-save-the-queen.md §8), whether called on the full state or on the seat's
redacted copy. The story is told once per event from the true state, each line with the seats
that may read it: a King card's face to its King, an order to its Warchief, what a look shows to
the Warchief who looked, the rest to all. It learns what an event does by applying it to a copy,
one clan's order at a time, and describing each change. The coach tells a newcomer what
the decision he faces risks and gains, from what his seat may know. Nothing here runs on the hot
path: the state machine says nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from ...core.actions import Action, seat_text
from ...core.errors import IllegalAction, ReplayError
from ...core.events import CHANCE, PUBLIC, Line, observer_bit
from ...core.game import Game, GameText, Outcome, Standing, State, replay
from .components import (
    ADVANCE,
    ALL_KING_CARDS,
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
    FACE_UP_CHARACTERS,
    FIRE,
    FOG_DISCARDED,
    FOG_EFFECTS,
    FOG_HIDDEN,
    FOG_NAMES,
    FOG_REVEALED,
    FOG_TITLES,
    FOREST_CELLS,
    FORWARD,
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
    PLAINS,
    QUEEN,
    RATS,
    RECON,
    RECRUIT,
    REDUCED_NUMBERS,
    SABOTAGE,
    SETUP_OBJECTIVES,
    SUB_CHOICE,
    TRAP,
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
        """The story of an event about to be applied to ``state``: each line with who may read
        it, worked out once for every seat."""
        assert isinstance(state, GothsSaveTheQueenState)
        return event_story(state, actor, item).lines

    def outcome(self, state: State) -> Outcome:
        """Why the game ended (the Queen found, an army destroyed and by what, or the safety
        cap), and each seat's place with its clan."""
        assert isinstance(state, GothsSaveTheQueenState)
        if not state.is_terminal:
            return super().outcome(state)
        return Outcome(end_reason(state), standings(state))

    def seat_title(self, game: Game, seat: int) -> str:
        """``Ostrogoth King``, ``Visigoth Warchief``, ``Visigoth solo chief``."""
        tables = getattr(game, "tables", None)
        if isinstance(tables, GothsSaveTheQueenTables) and 0 <= seat < len(tables.clan_of):
            return tables.seat_title(seat)
        return ""

    def action_label(self, state: State, seat: int, action: Action) -> str:
        assert isinstance(state, GothsSaveTheQueenState)
        if not isinstance(action, GothsSaveTheQueenAction) or not 0 <= seat < state.num_players:
            return super().action_label(state, seat, action)
        return action_label(state, seat, action)

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

    def coach(self, state: State, seat: int) -> str | None:
        """What a teacher tells ``seat`` about the decision it faces: a King which back says
        what, a Warchief how to read his King's back, each the orders that pay now and what the
        enemy could do; only from what the seat may know (§8)."""
        assert isinstance(state, GothsSaveTheQueenState)
        return coach(state, seat)

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


# ----------------------------------------------------------------------------- the story

ORDER_TITLES: Final = (
    "",
    "Reconnaissance",
    "Sabotage",
    "Recruit",
    "Load",
    "Fire",
    "Barricade",
    "Advance",
    "Axe",
    "Rats",
)
"""Each Warchief order's name for a person, by order number (the typed words are ORDER_WORDS)."""


def order_text(order: int) -> str:
    """``Advance (7)``: an order's name and its number, which is its place in the resolution."""
    return f"{ORDER_TITLES[order]} ({order})"


def objective_title(kind: int) -> str:
    """``the Trap``."""
    return f"the {OBJECTIVE_NAMES[kind].title()}"


class _Told:
    """The lines of one event as they are told, each with who may read it, and which order
    ended the game if the event ends it (the outcome names it)."""

    __slots__ = ("ended_by", "everyone", "lines", "num_players")

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.everyone = (1 << (num_players + 1)) - 1  # every seat and the spectator
        self.lines: list[Line] = []
        self.ended_by: tuple[int, int] | None = None
        """The clan whose order ended the game, and that order."""

    def public(self, text: str) -> None:
        self.lines.append((PUBLIC, text))

    def to(self, seat: int, text: str) -> None:
        """A line for ``seat`` alone: what he holds, gives or sees in secret."""
        self.lines.append((observer_bit(seat, self.num_players), text))

    def to_others(self, seat: int, text: str) -> None:
        """A line for everyone but ``seat``, who reads his own version."""
        self.lines.append((self.everyone & ~observer_bit(seat, self.num_players), text))


def event_story(state: GothsSaveTheQueenState, actor: int, item: Any) -> _Told:
    """The story of an event about to be applied to ``state`` (the true state, as a table or a
    replay holds it): worked out once, on copies, one clan's order at a time, as
    :meth:`GothsSaveTheQueenState._apply` carries it out."""
    story = _Told(state.num_players)
    if actor == CHANCE:
        _tell_setup(state, story)
    elif isinstance(item, GothsSaveTheQueenAction) and item in state.legal_actions(actor):
        if item.kind == KING_CARD:
            _tell_king_card(state, actor, item.value, story)
        elif item.kind == ORDER:
            _tell_order(state, actor, item.value, story)
        else:
            _tell_choice(state, actor, item, story)
    return story


def _tell_setup(state: GothsSaveTheQueenState, story: _Told) -> None:
    """The chance events of §2: nobody sees what they draw."""
    if state.phase == SETUP_OBJECTIVES:
        story.public(
            "The Trap, the Plains and the Queen are shuffled and laid face down between the "
            "armies as Objectives 0, 1 and 2."
        )
        if state.tables.fog_of_war:
            return
    else:
        story.public(
            "Two of the four Fog of War tokens are drawn and laid face down, one on each clan's "
            "Plains2; the other two are put away unseen."
        )
    story.public(_turn_start(state))


def _turn_start(state: GothsSaveTheQueenState) -> str:
    """``Turn 2: the Visigoths take the initiative; p1 (Visigoth King) lays the first King
    card.`` (``state`` is at the start of the turn)."""
    tables = state.tables
    clan = state.initiative
    verb = "hold" if state.turn == 1 else "take"
    line = f"Turn {state.turn}: the {CLAN_NAMES[clan]} {verb} the initiative"
    kings = [tables.king_seat[each] for each in (clan, 1 - clan) if not tables.solo[each]]
    if len(kings) == 2:
        return f"{line}; {seat_with_title(tables, kings[0])} lays the first King card."
    if kings:
        return f"{line}; {seat_with_title(tables, kings[0])} lays his King card first."
    return f"{line}; both solo chiefs give their orders."


def _tell_king_card(state: GothsSaveTheQueenState, seat: int, card: int, story: _Told) -> None:
    """The King sees the face he lays; everyone else its back, and what that back may hide."""
    tables = state.tables
    who = seat_with_title(tables, seat)
    back = tables.back_of[card]
    story.to(
        seat, f"{who} lays {card_text(card)} face down; the others see its back, {back_text(back)}."
    )
    story.to_others(
        seat,
        f"{who} lays a King card face down; its back shows {back_text(back)}: "
        f"{_back_reading(state, tables.clan_of[seat], back)}.",
    )


def _back_reading(state: GothsSaveTheQueenState, clan: int, back: int) -> str:
    """What a back laid by ``clan``'s King may be, from what lies face up (public)."""
    tables = state.tables
    candidates = tables.cards_behind[back][state.face_up[clan]]
    if len(candidates) != 1:
        return listed([card_text(card) for card in candidates], "or")
    gone = [
        KING_CARD_NAMES[card].upper()
        for card in cards_of(state.face_up[clan])
        if tables.back_of[card] == back
    ]
    if gone:
        return f"{listed(gone)} lies face up, so it is {card_text(candidates[0])}"
    return f"only {card_text(candidates[0])} has that back"


def _tell_order(state: GothsSaveTheQueenState, seat: int, order: int, story: _Told) -> None:
    """An order laid face down, named to its Warchief alone; the last one of the turn turns
    every card up and the orders are carried out (§3 B)."""
    who = seat_with_title(state.tables, seat)
    story.to(seat, f"{who} gives the order {order_text(order)} face down.")
    story.to_others(seat, f"{who} gives an order face down.")
    probe = state.clone()
    if not probe._give_order(seat, order):
        return
    probe._reveal()
    _tell_reveal(probe, story)
    _tell_resolution(probe, story)


def _tell_reveal(probe: GothsSaveTheQueenState, story: _Told) -> None:
    """Every card of the turn face up (``probe`` just revealed them): each clan's King card and
    order, whether the order is carried out and why, and in which order."""
    tables = probe.tables
    story.public("The orders are turned up:" if all(tables.solo) else "The cards are turned up:")
    first = probe.initiative
    for clan in (first, 1 - first):
        name = CLAN_NAMES[clan]
        order = probe.last_orders[clan]
        if tables.solo[clan]:
            character = CHARACTER_NAMES[ORDER_CHARACTER[order]]
            story.public(
                f"{name}: {order_text(order)}, from their solo chief: carried out; he may give "
                f"no {character} order next turn (GOTH-23)."
            )
            continue
        card = probe.last_played[clan]
        needed = ORDER_CHARACTER[order]
        laid = f"{name}: {card_text(card)} and {order_text(order)}"
        if not probe.last_success[clan]:
            story.public(
                f"{laid}, which needs a {CHARACTER_NAMES[needed]}: not carried out; "
                f"{KING_CARD_NAMES[card].upper()} stays face up."
            )
        elif FRONT[card] == needed:
            story.public(f"{laid}: carried out.")
        else:
            matches = [
                KING_CARD_NAMES[other].upper()
                for other in cards_of(probe.face_up[clan])
                if FRONT[other] == needed
            ]
            story.public(
                f"{laid}, which needs a {CHARACTER_NAMES[needed]}: carried out thanks to the "
                f"{listed(matches)} lying face up (GOTH-3)."
            )
    acting = probe.clans_to_act
    if not acting:
        story.public("Neither order is carried out.")
    elif len(acting) == 2:
        ahead, behind = acting
        orders = probe.orders
        if orders[ahead] == orders[behind]:
            story.public(
                f"Both clans carry out {order_text(orders[ahead])}: the {CLAN_NAMES[ahead]}, "
                "who hold the initiative, go first (GOTH-25)."
            )
        else:
            story.public(
                f"The {CLAN_ADJECTIVES[ahead]} {order_text(orders[ahead])} goes before the "
                f"{CLAN_ADJECTIVES[behind]} {order_text(orders[behind])}: the lower number "
                "first."
            )


def _tell_resolution(probe: GothsSaveTheQueenState, story: _Told) -> None:
    """Carry out the clans' orders still to act on ``probe``, as
    :meth:`GothsSaveTheQueenState._resume` does, telling what each does, until a Warchief is
    asked a choice, the game ends or the next turn begins."""
    while probe.clans_to_act:
        clan = probe.clans_to_act.pop(0)
        before = probe.clone()
        going_on = probe._carry_out(clan)
        _tell_effect(before, probe, clan, story)
        if probe.is_terminal:
            _tell_end(before, probe, clan, story)
            return
        if not going_on:
            _tell_question(probe, story)
            return
        _tell_take_back(before, probe, clan, story)
    probe._resume()  # the turn is over: the next begins, or the safety cap ends the game
    if probe.is_terminal:
        cap = probe.tables.safety_cap
        story.public(
            f"Turn {cap} is over: the safety cap of {plural(cap, 'turn')} ends the game in a "
            "draw, the Queen still captive (GOTH-26)."
        )
        _tell_turned_up(probe, story)
    else:
        story.public(_turn_start(probe))


def _tell_question(probe: GothsSaveTheQueenState, story: _Told) -> None:
    """The choice a Warchief must now make to carry out his order (GOTH-5)."""
    tables = probe.tables
    clan = probe.choosing_clan
    who = seat_with_title(tables, tables.warchief_seat[clan])
    choice = probe.pending_choice
    if choice == CHOOSE_RECON:
        story.public(f"{who} chooses a card to look at in secret.")
    elif choice == CHOOSE_ENTRY:
        slots = [str(slot) for slot in range(3) if probe.free_objectives(clan) >> slot & 1]
        story.public(
            f"The {CLAN_ADJECTIVES[clan]} army advances: {who} chooses which Objective it "
            f"enters, {listed(slots, 'or')}."
        )
    else:
        cell = CELL_NAMES[probe.position[clan]]
        token = FOG_TITLES[probe.fog[clan]]
        story.public(f"{who} chooses: build a barricade on {cell}, or discard {token}.")


def _tell_take_back(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int, story: _Told
) -> None:
    """After a success the King takes back every card of his on the table (GOTH-6); told when
    there were older ones face up (the card just laid always comes back)."""
    tables = after.tables
    older = before.face_up[clan]
    if tables.solo[clan] or not older or after.face_up[clan]:
        return
    cards = sorted([*cards_of(older), after.last_played[clan]])
    names = [KING_CARD_NAMES[card].upper() for card in cards]
    who = seat_with_title(tables, tables.king_seat[clan])
    story.public(f"{who} takes back {listed(names)} from the table (GOTH-6).")


def _tell_end(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int, story: _Told
) -> None:
    """``clan``'s order has ended the game: what is never carried out (GOTH-18), who wins, and
    every card turned up."""
    story.ended_by = (clan, before.orders[clan])
    for other in before.clans_to_act:
        story.public(
            f"The {CLAN_ADJECTIVES[other]} {order_text(before.orders[other])} is never carried "
            "out: the game is over (GOTH-18)."
        )
    tables = after.tables
    winner = after.winner
    seats = listed([seat_text(seat) for seat in tables.clan_seats[winner]])
    story.public(f"The {CLAN_NAMES[winner]} win ({seats}).")
    _tell_turned_up(after, story)


def _tell_turned_up(after: GothsSaveTheQueenState, story: _Told) -> None:
    """At the end every card is turned up (§5): the Objectives and Fog tokens never seen."""
    parts = [
        f"Objective {slot} was {objective_title(after.objectives[slot])}"
        for slot in range(3)
        if not after.revealed_objectives >> slot & 1 and after.objectives[slot] >= 0
    ]
    parts.extend(
        f"the {CLAN_ADJECTIVES[clan]} Fog token was {FOG_TITLES[after.fog[clan]]}"
        for clan in (0, 1)
        if after.fog[clan] >= 0 and after.fog_state[clan] == FOG_HIDDEN
    )
    if parts:
        story.public(f"Everything hidden is turned up: {'; '.join(parts)}.")


def _tell_effect(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int, story: _Told
) -> None:
    """What ``clan``'s order did, from ``before`` to ``after`` (nothing yet when it waits for
    its Warchief's choice: that is told with the choice)."""
    if after.phase == SUB_CHOICE and after.choosing_clan == clan:
        return
    order = before.orders[clan]
    adjective = CLAN_ADJECTIVES[clan]
    enemy = CLAN_ADJECTIVES[1 - clan]
    effect = before.fog_in_force(clan)
    hampered = f"{FOG_TITLES[effect]}, the {adjective} Fog token" if effect >= 0 else ""
    if order == ADVANCE:
        _tell_move(before, after, clan, None, story)
    elif order == RECON:  # only Pea soup keeps the Warchief from choosing
        story.public(f"{hampered}: the {adjective} Vulture sees nothing (GOTH-20).")
    elif order == BARRICADE:
        _tell_barricade(before, after, clan, story)
    elif order in (AXE, FIRE, RATS):
        _tell_attack(before, after, clan, story)
    elif order == LOAD:
        if effect == BOAR_SHORTAGE:
            story.public(f"{hampered}: the catapult cannot be loaded (GOTH-21).")
        elif before.catapult[clan]:
            story.public(f"The {adjective} catapult was loaded already: nothing changes.")
        else:
            story.public(f"The {adjective} catapult is loaded: it is active now.")
    elif order == RECRUIT:
        if effect == REDUCED_NUMBERS:
            story.public(f"{hampered}: nobody answers the call (GOTH-20).")
        elif after.army[clan] > before.army[clan]:
            story.public(
                f"A figurine joins the {adjective} army from the reserve: "
                f"{plural(after.army[clan], 'figurine')} now."
            )
        else:
            story.public(
                f"The {adjective} army is at full strength ({ARMY_SIZE} figurines): nobody joins."
            )
    elif before.catapult[1 - clan]:  # sabotage
        story.public(f"The {enemy} catapult is sabotaged: it is inactive now.")
    else:
        story.public(f"The {enemy} catapult was not loaded: the sabotage changes nothing.")


def _spot(state: GothsSaveTheQueenState, cell: int) -> str:
    """``V-Plains1``, ``Objective 2 (the Trap)`` once face up."""
    slot = cell - OBJECTIVE_BASE
    if 0 <= slot < 3 and state.revealed_objectives >> slot & 1:
        return f"Objective {slot} ({objective_title(state.objectives[slot])})"
    return CELL_NAMES[cell]


def _loss(after: GothsSaveTheQueenState, clan: int, lost: int) -> str:
    """``the Visigoths lose 2 figurines (1 figurine left)``, or their army destroyed."""
    name = CLAN_NAMES[clan]
    left = after.army[clan]
    if left:
        return f"the {name} lose {plural(lost, 'figurine')} ({plural(left, 'figurine')} left)"
    last = "their last figurine" if lost == 1 else f"their last {lost} figurines"
    return f"the {name} lose {last} and their army is destroyed"


def _tell_attack(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int, story: _Told
) -> None:
    """An axe, a catapult shot or rats (§4, the table), and why it missed if it did."""
    order = before.orders[clan]
    adjective = CLAN_ADJECTIVES[clan]
    enemy = 1 - clan
    target = f"the {CLAN_ADJECTIVES[enemy]} army on {_spot(before, before.position[enemy])}"
    lost = before.army[enemy] - after.army[enemy]
    barricaded = before.barricade[before.position[enemy]]
    if order == FIRE:
        if not before.catapult[clan]:
            story.public(f"The {adjective} catapult is not loaded: the shot does nothing.")
        elif lost:
            whole = " (GOTH-12)" if before.army[enemy] < 2 else ""
            story.public(
                f"The {adjective} catapult fires at {target}: {_loss(after, enemy, lost)}{whole}."
            )
            if not after.is_terminal:
                story.public(f"The {adjective} catapult is inactive again.")
        else:
            story.public(
                f"The {adjective} catapult fires at {target}, but the barricade stops the "
                "stone; the catapult is inactive again (GOTH-13)."
            )
    elif order == AXE:
        if lost:
            story.public(f"The {adjective} axe hits {target}: {_loss(after, enemy, lost)}.")
        elif before.fog_in_force(clan) == GUSTS:
            story.public(
                f"Gusts, the {adjective} Fog token, blow the axe away: nothing happens (GOTH-20)."
            )
        elif barricaded:
            story.public(f"The {adjective} axe bounces off the barricade of {target}.")
        else:
            forest = CELL_NAMES[before.position[enemy]]
            story.public(
                f"The {adjective} axe cannot reach into the {forest}: the "
                f"{CLAN_ADJECTIVES[enemy]} army is safe there."
            )
    elif lost:
        story.public(
            f"The {adjective} rats infest the barricade of {target}: {_loss(after, enemy, lost)}."
        )
    else:
        story.public(f"The {adjective} rats find no barricade to infest: {target} is safe.")


def _tell_move(
    before: GothsSaveTheQueenState,
    after: GothsSaveTheQueenState,
    clan: int,
    chooser: int | None,
    story: _Told,
) -> None:
    """An advance (§4, order 7): the step, the Fog token it turns up (§6), or the Objective it
    enters and what that is; ``chooser`` is the Warchief who chose it, if one did."""
    start, end = before.position[clan], after.position[clan]
    adjective = CLAN_ADJECTIVES[clan]
    name = CLAN_NAMES[clan]
    slot = end - OBJECTIVE_BASE
    if not 0 <= slot < 3:
        story.public(
            f"The {adjective} army advances from {_spot(before, start)} to {CELL_NAMES[end]}."
        )
        if before.fog_state[clan] == FOG_HIDDEN and after.fog_state[clan] == FOG_REVEALED:
            token = after.fog[clan]
            story.public(
                f"The {name} turn up their Fog token: {FOG_TITLES[token]}; until they discard "
                f"it, {FOG_EFFECTS[token]} for them."
            )
            if token == BOAR_SHORTAGE and before.catapult[clan]:
                story.public(f"The {adjective} catapult is inactive now (GOTH-21).")
        return
    if chooser is None:  # no choice: the one Objective it may enter (GOTH-16)
        move = (
            f"The {adjective} army advances from {_spot(before, start)} onto Objective {slot}, "
            "the only one it may enter (GOTH-16)"
        )
    else:
        who = seat_with_title(after.tables, chooser)
        move = f"{who} sends the {adjective} army from {_spot(before, start)} onto Objective {slot}"
    kind = after.objectives[slot]
    lost = before.army[clan] - after.army[clan]
    if before.revealed_objectives >> slot & 1:
        if kind != TRAP:
            story.public(f"{move}, {objective_title(kind)}.")
        elif lost:
            story.public(f"{move}: the Trap bites again, {_loss(after, clan, lost)} (GOTH-10).")
        else:
            story.public(f"{move}: the Trap, sprung already, does no harm this time (GOTH-10).")
    elif kind == QUEEN:
        story.public(f"{move}: it is the Queen! The {name} rescue her.")
    elif kind == TRAP:
        story.public(f"{move}: it is the Trap, and {_loss(after, clan, lost)}.")
    else:
        story.public(f"{move}: it is the Plains; nothing happens.")


def _tell_barricade(
    before: GothsSaveTheQueenState, after: GothsSaveTheQueenState, clan: int, story: _Told
) -> None:
    """A barricade built, or why none goes up (GOTH-9, GOTH-15)."""
    cell = before.position[clan]
    where = _spot(before, cell)
    if after.barricade[cell] and not before.barricade[cell]:
        story.public(f"The {CLAN_NAMES[clan]} build a barricade on {where}.")
    elif before.barricade[cell]:
        story.public(f"There is a barricade on {where} already: nothing changes.")
    elif before.objectives[cell - OBJECTIVE_BASE] == TRAP:
        story.public("This table allows no barricade on the Trap: nothing happens (GOTH-9).")
    else:
        story.public("No barricade may stand on the Plains Objective: nothing happens (GOTH-9).")


def _tell_choice(
    state: GothsSaveTheQueenState, seat: int, item: GothsSaveTheQueenAction, story: _Told
) -> None:
    """A Warchief's choice while his order is carried out (GOTH-5): public, but what a look
    shows is told to him alone (GOTH-17); then the rest of the turn."""
    tables = state.tables
    clan = state.choosing_clan
    who = seat_with_title(tables, seat)
    adjective = CLAN_ADJECTIVES[clan]
    probe = state.clone()
    probe._choose(clan, item)
    if item.kind == LOOK and item.value == LOOK_FOG:
        story.public(f"{who} looks at the {adjective} Fog token in secret: only he learns it.")
        token = state.fog[clan]
        if token >= 0:
            story.to(
                seat,
                f"{seat_text(seat)} sees {FOG_TITLES[token]}: once it is turned up, "
                f"{FOG_EFFECTS[token]} for the {CLAN_NAMES[clan]}.",
            )
    elif item.kind == LOOK:
        slot = item.value
        kind = state.objectives[slot]
        if state.revealed_objectives >> slot & 1:
            story.public(
                f"{who} looks at Objective {slot}, {objective_title(kind)}, face up already."
            )
        else:
            story.public(
                f"{who} looks at Objective {slot} in secret: only he learns what it is (GOTH-17)."
            )
            if kind >= 0:
                story.to(
                    seat, f"{seat_text(seat)} sees {objective_title(kind)} under Objective {slot}."
                )
    elif item.kind == ENTER:
        _tell_move(state, probe, clan, seat, story)
    elif item.value == BUILD:
        _tell_barricade(state, probe, clan, story)
    else:
        token = state.fog[clan]
        story.public(
            f"{who} discards the {adjective} Fog token: {FOG_TITLES[token]} hampers the "
            f"{CLAN_NAMES[clan]} no more."
        )
        if token == BOAR_SHORTAGE:
            story.public(f"The {adjective} catapult stays inactive until it is loaded (GOTH-21).")
    if probe.is_terminal:
        _tell_end(state, probe, clan, story)
        return
    _tell_take_back(state, probe, clan, story)
    _tell_resolution(probe, story)


# ----------------------------------------------------------------------------- the end


def end_reason(state: GothsSaveTheQueenState) -> str:
    """Which rule ended a finished game, in a sentence (§5)."""
    tables = state.tables
    if state.winner == DRAW:
        return (
            f"The safety cap of {plural(tables.safety_cap, 'turn')} was reached with the Queen "
            "still captive and both armies standing: a draw (GOTH-26)."
        )
    winner = state.winner
    slot = state.position[winner] - OBJECTIVE_BASE
    if 0 <= slot < 3 and state.objectives[slot] == QUEEN:
        return (
            f"The {CLAN_NAMES[winner]} found the Queen under Objective {slot} on turn "
            f"{state.turn} and rescued her: they win."
        )
    loser = 1 - winner
    blow = _final_blow(state)
    how = ""
    if blow is not None:
        clan, order = blow
        if order == ADVANCE and clan == loser:
            how = f" in the Trap on Objective {state.position[loser] - OBJECTIVE_BASE}"
        elif order == FIRE:
            how = f" to the {CLAN_ADJECTIVES[winner]} catapult"
        elif order in (AXE, RATS):
            how = f" to the {CLAN_ADJECTIVES[winner]} {ORDER_WORDS[order]}"
    return (
        f"The {CLAN_ADJECTIVES[loser]} army lost its last figurine{how} on turn {state.turn}: "
        f"the {CLAN_NAMES[winner]} win."
    )


def _final_blow(state: GothsSaveTheQueenState) -> tuple[int, int] | None:
    """The clan whose order destroyed an army, and that order: the game's record played again
    to its last event, which is told (the end itself does not keep who struck). None when the
    record does not lead to this end (a position set up by hand)."""
    history = state.history
    if not history or history[-1][0] == CHANCE:
        return None
    actor, item = history[-1]
    try:
        before = replay(state.game, history[:-1])
        after = before.clone()
        after.apply(actor, item)
    except (IllegalAction, ReplayError):
        return None
    if not isinstance(before, GothsSaveTheQueenState) or not isinstance(
        after, GothsSaveTheQueenState
    ):
        return None
    if (after.army, after.position, after.winner) != (state.army, state.position, state.winner):
        return None
    return event_story(before, actor, item).ended_by


def standings(state: GothsSaveTheQueenState) -> tuple[Standing, ...]:
    """Each seat's place (a clan wins or loses as one; a draw puts everyone first), its clan's
    army as its score, and what decided it."""
    tables = state.tables
    winner = state.winner
    rescued = False
    if winner != DRAW:
        slot = state.position[winner] - OBJECTIVE_BASE
        rescued = 0 <= slot < 3 and state.objectives[slot] == QUEEN
    result = []
    for seat in range(state.num_players):
        clan = tables.clan_of[seat]
        army = state.army[clan]
        score = f"{plural(army, 'figurine')} left" if army else "army destroyed"
        title = tables.seat_title(seat)
        if winner == DRAW:
            note = f"{title}: neither clan won in {plural(tables.safety_cap, 'turn')}"
        elif clan == winner:
            done = (
                "rescued the Queen"
                if rescued
                else f"destroyed the {CLAN_ADJECTIVES[1 - clan]} army"
            )
            note = f"{title}: the {CLAN_NAMES[clan]} {done}"
        elif rescued:
            note = f"{title}: the {CLAN_NAMES[winner]} found the Queen first"
        else:
            note = f"{title}: the {CLAN_ADJECTIVES[clan]} army was destroyed"
        place = 1 if winner in (DRAW, clan) else 2
        result.append(Standing(seat, place, score, note))
    return tuple(sorted(result, key=lambda standing: (standing.place, standing.seat)))


# ----------------------------------------------------------------------------- labels


def action_label(state: GothsSaveTheQueenState, seat: int, action: GothsSaveTheQueenAction) -> str:
    """A move as a person reads it on a button, from what ``seat`` knows: ``V1: Vulture (back
    V/R)``, ``Order 7: Advance (Barbarian)``, ``Enter Objective 2 (you saw the Queen)``."""
    tables = state.tables
    kind, value = action.kind, action.value
    clan = tables.clan_of[seat]
    if kind == KING_CARD:
        back = tables.back_of[value]
        label = f"{KING_CARD_NAMES[value].upper()}: {CHARACTER_NAMES[FRONT[value]]} (back {back_text(back)}"
        twins = [card for card in tables.cards_with_back[back] if card != value]
        if twins and all(state.face_up[clan] >> card & 1 for card in twins):
            face_up = listed([KING_CARD_NAMES[card].upper() for card in twins])
            return f"{label}, which gives it away: {face_up} lies face up)"
        return label + ")"
    if kind == ORDER:
        return f"Order {value}: {ORDER_TITLES[value]} ({CHARACTER_NAMES[ORDER_CHARACTER[value]]})"
    if kind == LOOK:
        if value == LOOK_FOG:
            return "Look at the Fog token"
        return f"Look at Objective {value}{_known_objective(state, seat, value)}"
    if kind == ENTER:
        known = _known_objective(state, seat, value)
        if known == f" ({objective_title(TRAP)})" and tables.trap_every_entry:
            known = " (the Trap: it costs a figurine)"
        return f"Enter Objective {value}{known}"
    if value == BUILD:
        cell = state.position[clan]
        label = f"Build a barricade on {_spot(state, cell)}"
        if state.barricade[cell]:
            return f"{label} (there is one already)"
        if state.can_build_on(cell):
            return label
        kind = state.objectives[cell - OBJECTIVE_BASE]  # only an Objective may refuse one
        return f"Build a barricade (none may stand on {objective_title(kind)})"
    token = state.fog[clan]
    return f"Discard the Fog token ({FOG_TITLES[token]})" if token >= 0 else "Discard the Fog token"


def _known_objective(state: GothsSaveTheQueenState, seat: int, slot: int) -> str:
    """`` (the Trap)`` for an Objective face up, `` (you saw the Queen)`` for one ``seat``'s
    reconnaissance looked at, else nothing: never what the seat does not know."""
    tables = state.tables
    clan = tables.clan_of[seat]
    kind = state.objectives[slot]
    if kind < 0:
        return ""
    if state.revealed_objectives >> slot & 1:
        return f" ({objective_title(kind)})"
    if tables.warchief_seat[clan] == seat and state.looked_at[clan] >> slot & 1:
        return f" (you saw {objective_title(kind)})"
    return ""


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
            return "there are no Fog tokens in this game (the Fog of War variant is off)"
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


# ----------------------------------------------------------------------------- the coach

COACH_LIMIT: Final = 300
"""The longest coaching text, in characters: a few short sentences beside the board."""


ORDINALS: Final = ("1st", "2nd", "3rd")
"""The figurine a recruit brings, by the army's size before it."""


Said = str | tuple[str, ...]
"""A coaching sentence, or its versions from the fullest to the shortest (see ``_fit``)."""


class _Use(NamedTuple):
    """An order that would do something now: its words, and how much that matters (a win is
    10), so that the most telling come first."""

    order: int
    deed: str
    weight: float


def coach(state: GothsSaveTheQueenState, seat: int) -> str | None:
    """What a teacher tells ``seat`` about the decision it faces now, worked out only from what
    the seat may know (§8): the same on the true state, on the seat's redacted copy and on any
    world drawn from it. None when the seat has nothing to decide."""
    if state.is_terminal or state.is_chance or seat not in state.to_move:
        return None
    tables = state.tables
    clan = tables.clan_of[seat]
    # The fight decided by who strikes first (the warning's first steps) matters more than a
    # longer list of orders (the deeds), which matters more than the rest.
    if state.phase == KINGS:
        # Deeds, face-up cards, the backs, the warning.
        return _fit(_coach_king(state, clan), (3, 3, 0, 0, 0, 3, 3, 3, 3, 3, 2))
    if state.phase == ORDERS:
        if tables.solo[clan]:
            # The rule, deeds, the warning.
            return _fit(_coach_solo(state, clan), (2, 2, 1, 1, 1, 2, 2, 2, 2, 2))
        # The back, face-up cards, deeds, the warning.
        return _fit(_coach_warchief(state, clan), (3, 3, 2, 2, 2, 3, 3, 3, 3, 3, 0))
    if state.pending_choice == CHOOSE_RECON:
        return _fit(_coach_recon(state, clan))
    if state.pending_choice == CHOOSE_ENTRY:
        return _fit(_coach_entry(state, clan))
    return _fit(_coach_barricade(state, clan))


def _fit(sentences: Sequence[Said], upgrades: Sequence[int] = ()) -> str:
    """The coach's text in COACH_LIMIT characters: each sentence, the most important first,
    comes in at its shortest version if it fits beside those already in; then fuller versions
    replace them one step at a time, sentence by sentence in the order ``upgrades`` names them
    (each as often as it may grow; by default each sentence to its fullest in turn), while
    the text still fits. A sentence that cannot grow one step grows no more."""
    ladders = [
        tuple(
            version for version in reversed((said,) if isinstance(said, str) else said) if version
        )
        for said in sentences
    ]
    rungs = [-1] * len(ladders)
    used = -1
    for index, ladder in enumerate(ladders):
        if ladder and used + 1 + len(ladder[0]) <= COACH_LIMIT:
            rungs[index] = 0
            used += 1 + len(ladder[0])
    steps = upgrades or [index for index, ladder in enumerate(ladders) for _ in ladder[1:]]
    stuck: set[int] = set()
    for index in steps:
        rung = rungs[index]
        if rung < 0 or index in stuck or rung + 1 >= len(ladders[index]):
            continue
        grown = used + len(ladders[index][rung + 1]) - len(ladders[index][rung])
        if grown <= COACH_LIMIT:
            rungs[index], used = rung + 1, grown
        else:
            stuck.add(index)
    return " ".join(ladder[rung] for ladder, rung in zip(ladders, rungs, strict=True) if rung >= 0)


def _known_kinds(state: GothsSaveTheQueenState, clan: int, warchief: bool) -> list[int]:
    """Each Objective's kind as a seat of ``clan`` knows it (-1: unknown): those face up, for
    its Warchief those his reconnaissance showed (GOTH-17: never his King), and the last one
    when the other two are known."""
    known = state.revealed_objectives | (state.looked_at[clan] if warchief else 0)
    kinds = [state.objectives[slot] if known >> slot & 1 else -1 for slot in range(3)]
    if kinds.count(-1) == 1:
        # Two known: the third is the one kind left.
        kinds[kinds.index(-1)] = next(kind for kind in range(3) if kind not in kinds)
    return kinds


def _odds(kinds: Sequence[int], kind: int) -> str:
    """``1 in 3``: the chance that an Objective a seat does not know is ``kind``, for a seat
    that knows the Objectives as ``kinds`` (empty when it cannot be)."""
    unknown = sum(1 for each in kinds if each < 0)
    return "" if kind in kinds or not unknown else f"1 in {unknown}"


def _toll(count: int, left: int, whose: str = "they") -> str:
    """``they lose 2``, or ``they are wiped out`` when ``count`` takes all ``left``."""
    if count >= left:
        return "they are wiped out" if whose == "they" else "you are wiped out"
    return f"{whose} lose {count}"


def _uses(state: GothsSaveTheQueenState, clan: int, kinds: Sequence[int]) -> list[_Use]:
    """The orders that would do something for ``clan`` now (§4), for a seat that knows the
    Objectives as ``kinds``, the most telling first."""
    enemy = 1 - clan
    mine, theirs = state.army[clan], state.army[enemy]
    cell, enemy_cell = state.position[clan], state.position[enemy]
    enemy_safe = state.barricade[enemy_cell]
    effect = state.fog_in_force(clan)
    uses: list[_Use] = []
    unseen = 0b111 & ~(state.revealed_objectives | state.looked_at[clan])
    if unseen and effect != PEA_SOUP:
        # Worth more the nearer the army stands to the Objectives.
        near = CLAN_CELLS[clan].index(cell) if cell in CLAN_CELLS[clan] else 3
        uses.append(_Use(RECON, "look at a face-down Objective (1)", 0.5 + 0.3 * near))
    if state.catapult[enemy]:
        uses.append(_Use(SABOTAGE, "sabotage their loaded catapult (2)", 3.0))
    if mine < ARMY_SIZE and effect != REDUCED_NUMBERS:
        weight = 2.6 if mine == 1 else 1.8
        uses.append(_Use(RECRUIT, f"recruit a {ORDINALS[mine]} figurine (3)", weight))
    if state.catapult[clan]:
        if not enemy_safe:
            weight = 10.0 if theirs <= 2 else 3.6
            uses.append(_Use(FIRE, f"fire (5: {_toll(2, theirs)})", weight))
    elif effect != BOAR_SHORTAGE:
        uses.append(_Use(LOAD, "load the catapult (4)", 1.3))
    if state.fog_state[clan] == FOG_REVEALED:
        uses.append(_Use(BARRICADE, f"discard {FOG_TITLES[state.fog[clan]]} (6)", 1.2))
    elif state.can_build_on(cell):
        weight = 3.0 if state.catapult[enemy] else 0.6
        uses.append(_Use(BARRICADE, f"build a barricade on {_spot(state, cell)} (6)", weight))
    advance = _advance_use(state, clan, kinds)
    if advance is not None:
        uses.append(advance)
    if enemy_safe:
        weight = 10.0 if theirs == 1 else 2.2
        uses.append(_Use(RATS, f"send rats (9: {_toll(1, theirs)})", weight))
    elif enemy_cell not in FOREST_CELLS and state.fog_in_force(clan) != GUSTS:
        weight = 10.0 if theirs == 1 else 2.2
        uses.append(_Use(AXE, f"throw an axe (8: {_toll(1, theirs)})", weight))
    return sorted(uses, key=lambda use: -use.weight)


def _advance_use(state: GothsSaveTheQueenState, clan: int, kinds: Sequence[int]) -> _Use | None:
    """Order 7 (§4): a step toward the Objectives, or the best Objective to enter as a seat
    that knows them as ``kinds`` sees it (GOTH-16)."""
    cell = state.position[clan]
    own = CLAN_CELLS[clan]
    if cell in (own[0], own[1]):
        return _Use(ADVANCE, f"advance to {CELL_NAMES[cell + FORWARD[clan]]} (7)", 2.0)
    free = [slot for slot in range(3) if state.free_objectives(clan) >> slot & 1]
    queen = [slot for slot in free if kinds[slot] == QUEEN]
    if queen:
        return _Use(ADVANCE, f"advance onto Objective {queen[0]}, the Queen, and win (7)", 10.0)
    unknown = [slot for slot in free if kinds[slot] < 0]
    if unknown:
        odds = _odds(kinds, QUEEN)
        chance = f", the Queen {odds}" if odds else ""
        return _Use(ADVANCE, f"advance onto a face-down Objective (7{chance})", 2.5)
    return None


def _grouped(uses: Sequence[_Use], characters: int) -> list[tuple[int, list[str]]]:
    """The uses worth telling of the characters of ``characters`` (a bit each), by character,
    the most telling character first: two orders of the first, one of each of the next two."""
    deeds: dict[int, list[str]] = {}
    for use in uses:
        character = ORDER_CHARACTER[use.order]
        if characters >> character & 1 and use.weight >= 1.0:
            deeds.setdefault(character, []).append(use.deed)
    grouped = list(deeds.items())[:3]
    return [
        (character, found[: 2 if index == 0 else 1])
        for index, (character, found) in enumerate(grouped)
    ]


def _deeds(uses: Sequence[_Use], characters: int, opener: str) -> tuple[str, ...]:
    """``Now a Barbarian can advance to O-Plains1 (7), a Catapult load the catapult (4).``, the
    most telling characters first, in versions from the fullest to the shortest."""
    grouped = _grouped(uses, characters)
    versions = []
    for count in range(len(grouped), 0, -1):
        parts = []
        for index, (character, found) in enumerate(grouped[:count]):
            can = " can" if index == 0 else ""
            parts.append(f"a {CHARACTER_NAMES[character]}{can} {' or '.join(found)}")
        versions.append(f"{opener} {listed(parts)}.")
    return tuple(versions)


def _characters_of(cards: Sequence[int]) -> int:
    """The characters on the fronts of ``cards``, a bit each."""
    return sum({1 << FRONT[card] for card in cards})


def _enemy_characters(state: GothsSaveTheQueenState, clan: int) -> tuple[int, str]:
    """The characters the enemy of ``clan`` may act with this turn (a bit each), from the
    table alone, and how the seat can tell (``their card shows C/B``)."""
    tables = state.tables
    enemy = 1 - clan
    if tables.solo[enemy]:
        last = state.solo_last_character[enemy]
        if last < 0:
            return 0b1111, "their solo chief's order always succeeds"
        name = CHARACTER_NAMES[last]
        return 0b1111 & ~(1 << last), f"their solo chief may give no {name} order now"
    face_up = state.face_up[enemy]
    sure = FACE_UP_CHARACTERS[face_up]
    if state.played[enemy] == NONE:
        return 0b1111, "their King has not laid his card yet"
    back = state.played_back[enemy]
    behind = _characters_of(state.tables.cards_behind[back][face_up])
    return sure | behind, f"their card shows {back_text(back)}"


def _threats(state: GothsSaveTheQueenState, clan: int) -> list[tuple[int, int, str]]:
    """What the enemy could do to ``clan`` this turn, if its King card or solo chief allows it
    (§4), the worst first: (character, order, what it does)."""
    enemy = 1 - clan
    mine = state.army[clan]
    cell = state.position[clan]
    safe = state.barricade[cell]
    characters, _ = _enemy_characters(state, clan)
    found: list[tuple[float, int, str]] = []
    if state.catapult[enemy] and not safe:
        found.append((2.0 / mine, FIRE, f"fire (5: {_toll(2, mine, 'you')})"))
    if safe:
        found.append((1.0 / mine, RATS, f"send rats (9: {_toll(1, mine, 'you')})"))
    elif cell not in FOREST_CELLS and state.fog_in_force(enemy) != GUSTS:
        found.append((1.0 / mine, AXE, f"throw an axe (8: {_toll(1, mine, 'you')})"))
    enemy_cell = state.position[enemy]
    if enemy_cell == CLAN_CELLS[enemy][2] or OBJECTIVE_BASE <= enemy_cell < OBJECTIVE_BASE + 3:
        found.append((0.9, ADVANCE, "enter an Objective and maybe find the Queen (7)"))
    return [
        (ORDER_CHARACTER[order], order, deed)
        for _, order, deed in sorted(found, key=lambda threat: -threat[0])
        if characters >> ORDER_CHARACTER[order] & 1
    ]


def _warning(
    state: GothsSaveTheQueenState, clan: int, characters: int, uses: Sequence[_Use]
) -> tuple[str, ...]:
    """What the enemy could do to ``clan``, the worst first, and which goes first (GOTH-25):
    an order of one of ``characters`` (a bit each: those ``clan`` may act with) that would
    strike before the worst and spare the army, or, where ``clan`` could give that very order
    (one of ``uses``), the initiative; in versions naming fewer threats, or none."""
    threats = _threats(state, clan)
    if not threats:
        return ()
    _, how = _enemy_characters(state, clan)
    worst = threats[0][1]
    same = any(use.order == worst and characters >> ORDER_CHARACTER[worst] & 1 for use in uses)
    # Orders carried out before the worst threat that spare the army: a sabotage disarms the
    # catapult, a barricade stops the axe (§4).
    parry = 0
    if worst == FIRE and characters >> ORDER_CHARACTER[SABOTAGE] & 1:
        parry = SABOTAGE
    elif worst == AXE and characters >> ORDER_CHARACTER[BARRICADE] & 1:
        parry = BARRICADE if state.can_build_on(state.position[clan]) else 0
    clauses = []
    if parry:
        clauses.append(f"{order_text(parry)} would go before {order_text(worst)}")
    if same:
        # The same order on both sides: the initiative decides.
        whose = "yours" if state.initiative == clan else "theirs"
        holder = "you hold" if state.initiative == clan else "they hold"
        clauses.append(f"two {order_text(worst)}: {whose} first, as {holder} the initiative")
    versions = []
    for count in range(len(threats), 0, -1):
        deeds: dict[int, list[str]] = {}
        for character, _, deed in threats[:count]:
            deeds.setdefault(character, []).append(deed)
        parts = [
            f"a {CHARACTER_NAMES[character]} could {listed(each, 'or')}"
            for character, each in deeds.items()
        ]
        warning = f"Watch out, {how}: {listed(parts, 'or')}."
        if clauses:
            versions.append(f"{warning} {_capital('; '.join(clauses))} (GOTH-25).")
        else:
            versions.append(warning)
    if len(clauses) > 1:
        versions.append(f"{warning} {_capital(clauses[0])} (GOTH-25).")
    if clauses:
        versions.append(warning)
    return tuple(versions)


def _capital(text: str) -> str:
    """``text`` with its first letter a capital."""
    return text[:1].upper() + text[1:]


def _coach_king(state: GothsSaveTheQueenState, clan: int) -> list[Said]:
    """A King picks the card whose back his Warchief will read (§3 A, GOTH-1, GOTH-3): what
    each character would do now, the cards face up, how the backs of the cards of the best
    character not yet sure read, and what the enemy could do."""
    face_up = state.face_up[clan]
    sure = FACE_UP_CHARACTERS[face_up]
    hand = cards_of(ALL_KING_CARDS & ~face_up)
    uses = _uses(state, clan, _known_kinds(state, clan, warchief=False))
    held = _characters_of(hand)
    wanted = [character for character, _ in _grouped(uses, held & ~sure)]
    readings = [
        _back_meaning(state, clan, card) for card in hand if wanted and FRONT[card] == wanted[0]
    ]
    # ``B1 means Catapult or Barbarian, B2 Vulture or Barbarian``: the verb said once.
    shown = ": " + ", ".join(
        reading if index == 0 else reading.replace(" means ", " ", 1)
        for index, reading in enumerate(readings)
    )
    shown = shown if readings else ""
    sentences: list[Said] = [
        _deeds(uses, 0b1111, "Now"),
        _sure_characters(state, clan, " whatever you lay"),
    ]
    sentences.append(
        (
            f"Your Warchief sees only the back{shown}; if he guesses wrong, nothing happens "
            "and the card stays face up.",
            f"Your Warchief sees only the back{shown}.",
        )
    )
    sentences.append(_warning(state, clan, 0b1111, uses))
    return sentences


def _sure_characters(state: GothsSaveTheQueenState, clan: int, whatever: str) -> str:
    """``With B1 face up, any Barbarian order succeeds (GOTH-3).``, or nothing when none of
    ``clan``'s King cards lies face up."""
    face_up = state.face_up[clan]
    if not face_up:
        return ""
    sure = FACE_UP_CHARACTERS[face_up]
    up = listed([KING_CARD_NAMES[card].upper() for card in cards_of(face_up)])
    names = listed([CHARACTER_NAMES[c] for c in range(4) if sure >> c & 1], "or")
    return f"With {up} face up, any {names} order succeeds{whatever} (GOTH-3)."


def _back_meaning(state: GothsSaveTheQueenState, clan: int, card: int) -> str:
    """``B1 means Catapult or Barbarian``, or ``C2 can only mean Catapult, B1 lies face up``: how
    ``clan``'s Warchief can read the back of ``card`` (GOTH-1)."""
    tables = state.tables
    back = tables.back_of[card]
    name = KING_CARD_NAMES[card].upper()
    behind = tables.cards_behind[back][state.face_up[clan]]
    if len(behind) == 1:
        twins = [KING_CARD_NAMES[other].upper() for other in tables.cards_with_back[back]]
        gone = [twin for twin in twins if twin != name]
        why = f" ({listed(gone)} lies face up)" if gone else ""
        return f"{name} can only mean {CHARACTER_NAMES[FRONT[card]]}{why}"
    names = [CHARACTER_NAMES[c] for c in range(4) if back >> c & 1]
    return f"{name} means {' or '.join(names)}"


def _coach_warchief(state: GothsSaveTheQueenState, clan: int) -> list[Said]:
    """A Warchief reads his King's back and gives an order (§3 A-B, GOTH-3)."""
    tables = state.tables
    face_up = state.face_up[clan]
    back = state.played_back[clan]
    behind = list(tables.cards_behind[back][face_up])
    sure = FACE_UP_CHARACTERS[face_up]
    reading: Said
    if len(behind) == 1:
        reading = (
            f"Your King's card shows {back_text(back)}: it can only be {card_text(behind[0])}."
        )
    else:
        either = f"Your King's card shows {back_text(back)}: " + listed(
            [card_text(card) for card in behind], "or"
        )
        reading = (f"{either}; an order of the other character does nothing.", f"{either}.")
    sentences: list[Said] = [reading, _sure_characters(state, clan, "")]
    uses = _uses(state, clan, _known_kinds(state, clan, warchief=True))
    characters = sure | _characters_of(behind)
    sentences.append(_deeds(uses, characters, "Now"))
    sentences.append(_warning(state, clan, characters, uses))
    return sentences


def _coach_solo(state: GothsSaveTheQueenState, clan: int) -> list[Said]:
    """A solo chief gives any order but one of last turn's character (GOTH-23)."""
    last = state.solo_last_character[clan]
    if last < 0:
        rule = (
            "Your order always succeeds, but next turn you may not give another of the same "
            "character (GOTH-23)."
        )
        allowed = 0b1111
    else:
        rule = (
            f"Your order always succeeds, but no {CHARACTER_NAMES[last]} order this turn: you "
            "gave one last turn (GOTH-23)."
        )
        allowed = 0b1111 & ~(1 << last)
    uses = _uses(state, clan, _known_kinds(state, clan, warchief=True))
    sentences: list[Said] = [
        rule,
        _deeds(uses, allowed, "Now"),
        _warning(state, clan, allowed, uses),
    ]
    return sentences


def _coach_recon(state: GothsSaveTheQueenState, clan: int) -> list[Said]:
    """Reconnaissance (order 1): which card to look at in secret (GOTH-17)."""
    tables = state.tables
    kinds = _known_kinds(state, clan, warchief=True)
    secret = "only you learn what it is" + ("" if tables.solo[clan] else ", not even your King")
    sentences: list[Said] = [f"Look at one Objective in secret: {secret} (GOTH-17)."]
    unknown = [str(slot) for slot in range(3) if kinds[slot] < 0]
    known = [
        f"Objective {slot} is {objective_title(kinds[slot])}"
        for slot in range(3)
        if kinds[slot] >= 0
    ]
    if not unknown:
        sentences.append(f"You know all three already ({listed(known)}): a look teaches nothing.")
    else:
        odds = _odds(kinds, QUEEN)
        if odds:
            sentences.append(
                f"Objectives {listed(unknown)}, unknown to you, each hide the Queen {odds}."
            )
        else:
            left = [objective_title(kind) for kind in range(3) if kind not in kinds]
            sentences.append(
                f"Objectives {listed(unknown)}, unknown to you, hide {listed(left)}: no Queen."
            )
        if known:
            sentences.append(f"You know {listed(known)}.")
    if tables.fog_of_war and state.fog_state[clan] == FOG_HIDDEN:
        sentences.append(
            "Or look at your own Fog token, to learn which order it will hamper once turned up."
        )
    return sentences


def _coach_entry(state: GothsSaveTheQueenState, clan: int) -> list[Said]:
    """Advance from Plains2 or an Objective (order 7): which Objective to enter (GOTH-16), the
    Queen known first, then the odds of those unknown, then the rest."""
    tables = state.tables
    kinds = _known_kinds(state, clan, warchief=True)
    mine = state.army[clan]
    lose = "your last figurine" if mine == 1 else "a figurine"
    free = [slot for slot in range(3) if state.free_objectives(clan) >> slot & 1]
    first: list[Said] = []
    then: list[Said] = []
    for slot in free:
        kind = kinds[slot]
        if state.revealed_objectives >> slot & 1:
            face = "face up"
        elif state.looked_at[clan] >> slot & 1:
            face = "you saw it"
        else:
            face = "the only one left"
        if kind == QUEEN:
            first.append(f"Objective {slot} is the Queen ({face}): entering it wins.")
        elif kind == TRAP:
            if state.revealed_objectives >> slot & 1 and not tables.trap_every_entry:
                then.append(
                    f"Objective {slot} is the Trap, sprung already: harmless now (GOTH-10)."
                )
            else:
                then.append(f"Objective {slot} is the Trap ({face}): you lose {lose} (GOTH-10).")
        elif kind == PLAINS:
            then.append(f"Objective {slot} is the Plains ({face}): safe, nothing happens.")
    unknown = [str(slot) for slot in free if kinds[slot] < 0]
    if unknown:
        if len(unknown) == 1:
            which = f"Objective {unknown[0]}, unknown to you, hides"
        else:
            which = f"Objectives {listed(unknown)}, unknown to you, each hide"
        risks = []
        queen, trap = _odds(kinds, QUEEN), _odds(kinds, TRAP)
        if queen:
            risks.append(f"the Queen {queen} (you win)")
        if trap:
            risks.append(f"the Trap {trap} (you lose {lose})")
        first.append(f"{which} {' or '.join(risks)}.")
    return first + then


def _coach_barricade(state: GothsSaveTheQueenState, clan: int) -> list[Said]:
    """Barricade with a Fog token in force: build, or discard the token (GOTH-19)."""
    cell = state.position[clan]
    where = _spot(state, cell)
    token = state.fog[clan]
    if state.barricade[cell]:
        build = f"There is a barricade on {where} already: building changes nothing (GOTH-15)."
    elif state.can_build_on(cell):
        build = f"A barricade on {where} stops axes and the catapult but draws rats (GOTH-14)."
    else:
        build = f"No barricade may stand on {where}: building does nothing (GOTH-9)."
    discard = (
        f"Discarding {FOG_TITLES[token]} frees you of it: while it lies, {FOG_EFFECTS[token]} "
        "for you (GOTH-19)."
    )
    return [build, discard]
