"""The text picture of a Goths Save the Queen position and the one-line narration of events.

Both read only what the given seat may know (§4.8), whether they are called on the full state
or on a seat's redacted copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.actions import seat_text
from ...core.game import CHANCE
from .rules import (
    ARMY_SIZE,
    CHARACTER_NAMES,
    CHOICE,
    CHOOSE_BARRICADE,
    CHOOSE_ENTRY,
    CHOOSE_RECON,
    CLAN_LETTERS,
    CLAN_NAMES,
    DRAW,
    FOG_DISCARDED,
    FOG_HIDDEN,
    FOG_TITLES,
    FOREST_CELLS,
    KING,
    KINGS,
    NONE,
    OBJECTIVE_BASE,
    OBJECTIVE_NAMES,
    ORDER,
    ORDER_WORDS,
    ORDERS,
    OWN_CELLS,
    SETUP_OBJECTIVES,
    SOLO,
    WARCHIEF,
    GothsAction,
    back_text,
    card_text,
    cards_of,
)

if TYPE_CHECKING:
    from .rules import GothsState

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
FOG_SHORT = ("soup", "reduced", "boar", "gusts")


def _cells(texts: list[str]) -> str:
    """One row of the board line: the three Objectives are fenced off with bars."""
    out = ""
    for cell, text in enumerate(texts):
        if cell in (OBJECTIVE_BASE, OBJECTIVE_BASE + 3):
            out += "| "
        out += f"{text:<{WIDTH}}"
    return out.rstrip()


def board_lines(state: GothsState, seat: int | None) -> list[str]:
    """The board line, one column per card: terrain side (``#`` = barricade), armies
    (a letter per figurine), and in the Fog variant the tokens."""
    game = state.goths
    span = 3 * WIDTH
    header = f"{'Ostrogoths':^{span}}| {'Objectives':^{span}}| {'Visigoths':^{span}}".rstrip()
    sides = []
    knows = seat is not None and seat in game.warchief_seat
    my_clan = game.clan_of[seat] if seat is not None else NONE
    for cell in range(9):
        barricade = state.barricade[cell]
        if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
            slot = cell - OBJECTIVE_BASE
            if state.revealed >> slot & 1:
                text = OBJECTIVE_NAMES[state.objectives[slot]].upper() + ("#" if barricade else "")
            elif knows and state.peeked[my_clan] >> slot & 1:
                text = f"{OBJECTIVE_NAMES[state.objectives[slot]]}?"  # own reconnaissance
            else:
                text = "hidden"
        else:
            text = ("forest" if cell in FOREST_CELLS else "plains") + ("#" if barricade else "")
        sides.append(text)
    armies = []
    for cell in range(9):
        text = ""
        for clan in (0, 1):
            if state.position[clan] == cell:
                text = CLAN_LETTERS[clan] * state.army[clan]
        armies.append(text)
    lines = [header, _cells(list(CELL_SHORT)), _cells(sides), _cells(armies)]
    if game.fog_of_war:
        fogs = [""] * 9
        for clan in (0, 1):
            cell = OWN_CELLS[clan][2]
            fstate = state.fog_state[clan]
            token = state.fog[clan]
            if fstate == FOG_HIDDEN:
                if state.fog_peeked[clan] and seat == game.warchief_seat[clan]:
                    fogs[cell] = f"fog:{FOG_SHORT[token]}?"
                else:
                    fogs[cell] = "fog ?"
            elif fstate == FOG_DISCARDED:
                fogs[cell] = "fog gone"
            else:
                fogs[cell] = f"fog:{FOG_SHORT[token]}"
        lines.append(_cells(fogs))
    legend = "# barricade · O/V one letter per figurine"
    if knows:
        legend += " · trap? = face down, seen by your reconnaissance"
    lines.append(legend)
    return lines


def render(state: GothsState, seat: int | None) -> str:
    game = state.goths
    cap = f"cap {game.safety_cap} turns"
    lines = [
        f"Goths Save the Queen · turn {state.turn} · initiative: {CLAN_NAMES[state.initiative]}"
        f" · {cap}",
        " · ".join(
            name + (" (you)" if s == seat else "") for s, name in enumerate(game.seat_names())
        ),
        "",
        *board_lines(state, seat),
        "",
    ]
    for clan in (0, 1):
        cell = state.position[clan]
        where = state._cell_text(cell)
        barricaded = " (barricaded)" if state.barricade[cell] else ""
        lines.append(
            f"{CLAN_NAMES[clan]}: army {state.army[clan]} on {where}{barricaded}, "
            f"reserve {ARMY_SIZE - state.army[clan]}, "
            f"catapult {'ACTIVE' if state.catapult[clan] else 'inactive'}"
        )
        if game.solo[clan]:
            last = state.solo_last[clan]
            note = f"last order: {CHARACTER_NAMES[last]}" if last >= 0 else "no order yet"
            lines.append(f"  solo chief {seat_text(game.warchief_seat[clan])}: {note}")
        else:
            face_up = " ".join(k.upper() for k in _names(state.face_up[clan])) or "none"
            down = ""
            if state.played[clan] != NONE:
                down = f" · face down: back {back_text(state.played_back[clan])}"
            held = 8 - bin(state.face_up[clan]).count("1") - (state.played[clan] != NONE)
            lines.append(
                f"  King {seat_text(game.king_seat[clan])}: face up {face_up}{down} · {held} in hand"
            )
        looked = [str(s) for s in range(3) if state.peeked[clan] >> s & 1]
        if looked:
            lines.append(f"  reconnaissance has looked at Objective {', '.join(looked)}")
    if state.last_turn:
        parts = []
        for c in (0, 1):
            order = state.last_orders[c]
            card = state.last_played[c]
            what = f"{card_text(card)} + " if card >= 0 else ""
            verdict = "success" if state.last_success[c] else "failure"
            parts.append(f"{CLAN_NAMES[c]} {what}{ORDER_WORDS[order]} ({order}) {verdict}")
        lines.append(f"Revealed on turn {state.last_turn}: " + "; ".join(parts))
    if seat is not None:
        lines.extend(_private_lines(state, seat))
    lines.append(_status(state, seat))
    return "\n".join(lines)


def _names(mask: int) -> list[str]:
    from .rules import KING_CARD_NAMES

    return [KING_CARD_NAMES[k] for k in cards_of(mask)]


def _private_lines(state: GothsState, seat: int) -> list[str]:
    game = state.goths
    clan = game.clan_of[seat]
    role = game.role_of[seat]
    lines = []
    if role == KING:
        hand = [
            card_text(k) for k in cards_of(0xFF & ~state.face_up[clan]) if k != state.played[clan]
        ]
        lines.append(f"Your hand ({seat_text(seat)}): " + ", ".join(hand))
        if state.played[clan] >= 0:
            lines.append(f"Your card face down: {card_text(state.played[clan])}")
    else:
        known = [
            f"Objective {s} is the {OBJECTIVE_NAMES[state.objectives[s]].title()}"
            for s in range(3)
            if state.peeked[clan] >> s & 1
        ]
        if game.fog_of_war and state.fog_peeked[clan]:
            known.append(f"your Fog token is {FOG_TITLES[state.fog[clan]]}")
        if known:
            lines.append(f"Your reconnaissance ({seat_text(seat)}): " + "; ".join(known))
        if state.phase == ORDERS and state.orders[clan]:
            lines.append(f"Your order, face down: {ORDER_WORDS[state.orders[clan]]}")
    return lines


def _status(state: GothsState, seat: int | None) -> str:
    game = state.goths
    if state.is_terminal:
        if state.winner == DRAW:
            return "Game over: the safety cap is reached; a draw."
        seats = " and ".join(seat_text(s) for s in game.clan_seats[state.winner])
        return f"Game over: the {CLAN_NAMES[state.winner]} win ({seats})."
    if state.is_chance:
        return "Setting up the table."
    waiting = state._waiting_for()
    who = ", ".join(f"{seat_text(s)} ({game.seat_title(s)})" for s in waiting)
    if state.phase == KINGS:
        return f"{who} to lay a King card face down."
    if state.phase == ORDERS:
        return f"Orders: waiting for {who}."
    if state.phase == CHOICE:
        what = {
            CHOOSE_RECON: "to choose a card to look at",
            CHOOSE_ENTRY: "to choose the Objective to enter",
            CHOOSE_BARRICADE: "to build a barricade or discard the Fog token",
        }[state.choice]
        return f"{who} {what}."
    return ""


def narrate(state: GothsState, actor: int, item: Any, seat: int | None) -> str | None:
    game = state.goths
    if actor == CHANCE:
        if state.phase == SETUP_OBJECTIVES:
            return "The three Objective cards are shuffled and laid face down in the centre."
        return "Two Fog of War tokens are laid face down, one on each clan's Plains by the centre."
    if not isinstance(item, GothsAction):
        return None
    who = f"{seat_text(actor)} ({game.seat_title(actor)})"
    role = game.role_of[actor]
    if state.phase == KINGS and role == KING:
        line = (
            f"{who} lays a King card face down; its back shows {back_text(game.back[item.value])}."
        )
        if seat == actor:
            line += f" (It is {card_text(item.value)}.)"
        return line
    lines = []
    if state.phase == ORDERS and item.kind == ORDER:
        word = "order" if role in (WARCHIEF, SOLO) else "card"
        line = f"{who} gives an {word} face down."
        if seat == actor:
            line += f" ({item})"
        lines.append(line)
        if len(state.to_move) > 1:
            return line
    # The last order reveals the cards and resolves; a sub-choice resolves on: tell what happens.
    if actor not in state.to_move or item not in state.legal_actions(actor):
        return "\n".join(lines) or None
    probe = state.clone()
    probe._log = []
    probe._apply(actor, item)
    if state.phase == CHOICE and item.kind != ORDER:
        lines.append(f"{who} chooses {item}.")
    for private, text in probe._log:
        if private == NONE or seat == game.warchief_seat[private]:
            lines.append(text)
    return "\n  ".join(lines)


__all__ = ["board_lines", "narrate", "render"]
