"""What each seat may see of God Save The King (RULES.md §1.9), and the worlds it may imagine.

* :func:`redacted` builds a view's copy: every card the seat cannot see is *removed* (replaced by
  ``HIDDEN``), and so is what the other seats chose at a simultaneous point that is still open
  (that they have chosen is public, what they chose is not).
* :func:`determinize` draws a world from such a copy: the hidden cards from the seat's knowledge
  (:mod:`.knowledge`, uniform over what the seat can still infer), the others' pending choices
  afresh, so that the world shows the seat exactly what the truth shows it.
* :func:`observation` is the table as the seat may see it; :func:`secret_cards` what it may not.

Once the game is over nothing is secret any more: every card is shown.
"""

from __future__ import annotations

import random
from typing import Any, Final

from ...core.actions import seat_text
from ...core.cards import SUIT_NAMES, Card, rank_text
from ...core.draws import choice
from ...core.game import CHANCE, HIDDEN
from . import worlds
from .journal import Journal
from .knowledge import NOT_CARD, Export, Knowledge, Loc, simple_export
from .rules import (
    D_DECLARE,
    D_FORM,
    D_ROUTE,
    DECISION_TEXT,
    KING_OF,
    LEFT,
    LETTERS,
    PUBLIC,
    PUSH,
    RIGHT,
    GodSaveTheKingAction,
    GodSaveTheKingState,
    PastTrick,
    Trick,
)

WORLD_TRIES: Final = 8
"""The worlds drawn for one ``determinize`` before the other players' hands are left to the
history instead (:func:`.worlds.fill_history`; with 2 players the first always has one)."""


LAST_TRIES: Final = 40
LAST_EFFORT: Final = 30
"""How many longer searches write_history makes last, and how many cards per choice each may
try (a search that runs into a dead end is better drawn again than searched through)."""


def knower_bit(state: GodSaveTheKingState, seat: int | None) -> int:
    """The bit of ``seat`` in a mask of knowers (the spectator's after the last seat); once the
    game is over, every bit: everyone knows every card."""
    if state.is_terminal:
        return PUBLIC
    return 1 << (state.num_players if seat is None else seat)


# --------------------------------------------------------------------------------- secrets


def hidden_places(state: GodSaveTheKingState, seat: int | None) -> list[tuple[Loc, Card]]:
    """Every place whose card ``seat`` cannot see, with the card lying there."""
    if state.is_terminal:
        return []
    bit = knower_bit(state, seat)
    out: list[tuple[Loc, Card]] = []
    for s, hand in enumerate(state.hands):
        if s != seat:
            out += [(("h", s, i), c) for i, c in enumerate(hand)]
    for index, t in enumerate(state.tricks):
        for side in (0, 1):
            if t.seats[side] == seat:
                continue
            for k in range(3):
                c = t.formations[side][k]
                if c is not None and not t.face_up[side][k]:
                    out.append((("f", index, side, k), c))
    for s, pile in enumerate(state.piles):
        out += [
            (("p", s, i), c)
            for i, (c, m) in enumerate(zip(pile, state.pile_knowers[s], strict=True))
            if not m & bit
        ]
    out += [
        (("r", i), c)
        for i, (c, m) in enumerate(zip(state.removed, state.removed_knowers, strict=True))
        if not m & bit
    ]
    return out


def rule_constraints(
    state: GodSaveTheKingState, seat: int | None
) -> dict[Loc, list[tuple[int, int]]]:
    """What the rules themselves say about hidden places (GSK-5 option)."""
    extra: dict[Loc, list[tuple[int, int]]] = {}
    if not state.setup.exposed_king_legal:
        for index, t in enumerate(state.tricks):
            for side in (0, 1):
                owner = t.seats[side]
                if owner == seat:
                    continue
                for k in (LEFT, RIGHT):
                    if t.formations[side][k] is not None and not t.face_up[side][k]:
                        extra[("f", index, side, k)] = [(NOT_CARD, KING_OF[owner])]
                if t.placed[side] == 2 and len(state.hands[owner]) == 1:
                    # The King cannot be the last card left for the right slot: it would
                    # have been forced into the middle.
                    extra[("h", owner, 0)] = [(NOT_CARD, KING_OF[owner])]
    return extra


def secret_cards(state: GodSaveTheKingState, seat: int | None) -> frozenset[Card]:
    """The cards whose whereabouts ``seat`` may not know (none once the game is over)."""
    places = hidden_places(state, seat)
    k = state.knowledge(seat) if places else None
    seen = k.seen if k is not None else 0
    return frozenset(c for _, c in places if not seen >> c & 1)


# --------------------------------------------------------------------------------- knowledge


def ensure_knowledge(state: GodSaveTheKingState) -> list[Knowledge] | None:
    """Every seat's knowledge (the spectator's last), built on first need by replaying the
    history (random playouts never pay for it); None for a copy whose history is incomplete,
    and for a sampled world (a search reads its seats' knowledge in every rollout: replaying its
    history each time would cost more than the rollout)."""
    if state._knowledge is not None or state._partial or state._sampled:
        return state._knowledge
    n = state.num_players
    fresh = state.gsk.new_state()
    fresh._knowledge = [Knowledge(v, 1 << v) for v in range(n)] + [Knowledge(None, 1 << n)]
    fresh._journal = Journal(n)
    fresh._learn_new_hand()
    for actor, item in state.history:
        if actor == CHANCE:
            fresh._apply_chance(item)
        else:
            fresh._apply(actor, item)
        fresh.history.append((actor, item))
    state._knowledge = fresh._knowledge
    state._journal = fresh._journal
    return state._knowledge


def knowledge_export(state: GodSaveTheKingState, seat: int) -> Export:
    """``seat``'s knowledge of the hidden places (the view's own, or computed afresh)."""
    if state._view_knowledge is not None:
        return state._view_knowledge
    know = redacted(state, seat)._view_knowledge
    assert know is not None
    return know


# --------------------------------------------------------------------------------- views


def redacted(state: GodSaveTheKingState, seat: int | None) -> GodSaveTheKingState:
    """A copy holding only what ``seat`` may know (its history is set by ``State.view``)."""
    if state.is_terminal:
        return state._copy(knowledge=False)  # the game is over: nothing is secret
    places = hidden_places(state, seat)
    constraints = rule_constraints(state, seat)
    if state._partial or state._sampled:
        know = simple_export(places, constraints)
    else:
        k = state.knowledge(seat)
        assert k is not None
        know = k.export({c: loc for loc, c in places}, constraints)
    copy = state._copy(knowledge=False)
    for loc, _ in places:
        where = loc[0]
        if where == "h":
            copy.hands[loc[1]][loc[2]] = HIDDEN
        elif where == "f":
            copy.tricks[loc[1]].formations[loc[2]][loc[3]] = HIDDEN
        elif where == "p":
            copy.piles[loc[1]][loc[2]] = HIDDEN
        else:
            copy.removed[loc[1]] = HIDDEN
    if state.decision in (D_ROUTE, D_DECLARE):
        # That a seat has chosen is public (it left to_move), what it chose is not: the copy
        # keeps to_move as it is and drops the others' choices (determinize draws them).
        for s in range(state.num_players):
            if s != seat:
                copy.pending_choices[s] = None
    elif state.decision == D_FORM:
        for s in state.to_move:
            if s != seat:
                copy._legal[s] = ()  # they follow from a hand the seat cannot see
    copy._view_knowledge = know
    copy._partial = True
    if not state._partial:
        # Where the cards went (public), for the histories of the worlds drawn from the copy.
        copy._world_source = None if state._journal is None else state._journal.snapshot()
        copy._world_plan = None
    return copy


def determinize(
    state: GodSaveTheKingState, seat: int | None, rng: random.Random
) -> GodSaveTheKingState:
    """A full state drawn from what ``seat`` knows (called on a view's copy), with the same seats
    to move and the same table as the seat sees it, and a history that replays to it (the
    hidden events filled in by :mod:`.worlds`)."""
    if state.is_terminal:
        return state._copy(knowledge=False)  # the game is over: nothing is hidden
    know = state._view_knowledge
    if know is None:
        # A full state: draw from the copy the seat's view would hold.
        copy = redacted(state, seat)
        copy.history = state._history_seen_by(seat)
        return determinize(copy, seat, rng)
    plan = state._world_plan
    if plan is None and state._world_source is not None:
        plan = state._world_plan = worlds.plan_worlds(state)
    world = state._copy(knowledge=False)
    world._view_knowledge = None
    world._world_source = None
    world._world_plan = None
    world._sampled = True
    lay_hidden_cards(world, know.sample(rng), seat)
    if plan is not None and write_history(world, plan, know, seat, rng):
        world._partial = False
    # (else no journal, or no history found: the world keeps the gaps, and does not replay)
    if world.decision == D_FORM:
        refresh_formation_actions(world, seat)
    elif world.submitted and world.decision in (D_ROUTE, D_DECLARE):
        draw_pending_choices(world, seat, rng)
    return world


def refresh_formation_actions(world: GodSaveTheKingState, seat: int | None) -> None:
    """The other seats' formation actions, from the hands the world gave them."""
    for s in world.to_move:
        if s != seat:
            t = world.tricks[world.trick_of_seat[s]]
            world._legal[s] = world._form_legal(s, t.placed[world.side_of_seat[s]])


def write_history(
    world: GodSaveTheKingState,
    plan: worlds.WorldPlan,
    know: Export,
    seat: int | None,
    rng: random.Random,
) -> bool:
    """Fill in the hidden events of ``world``'s history (:func:`.worlds.fill_history`), drawing
    the hidden cards again while no history leads to them (rejection keeps the worlds uniform
    among those that have one); then leaving the other hands to a history drawn at random
    (which reads none of the drawn cards: nothing to draw again for it)."""
    for attempt in range(WORLD_TRIES):
        if attempt:
            lay_hidden_cards(world, know.sample(rng), seat)
        if worlds.fill_history(world, plan, seat, None):
            return True
    if any(worlds.fill_history(world, plan, seat, rng) for _ in range(WORLD_TRIES)):
        return True
    # (Rare: a long game whose drawn histories ran into dead ends; longer searches settle it.)
    return any(worlds.fill_history(world, plan, seat, rng, LAST_EFFORT) for _ in range(LAST_TRIES))


def lay_hidden_cards(world: GodSaveTheKingState, drawn: dict[Loc, Card], seat: int | None) -> None:
    """Put the drawn cards in the hidden places; the other hands in order, as in a real game."""
    for loc, card in drawn.items():
        where = loc[0]
        if where == "h":
            world.hands[loc[1]][loc[2]] = card
        elif where == "f":
            world.tricks[loc[1]].formations[loc[2]][loc[3]] = card
        elif where == "p":
            world.piles[loc[1]][loc[2]] = card
        else:
            world.removed[loc[1]] = card
    for s, hand in enumerate(world.hands):
        if s != seat:
            hand.sort()


def draw_pending_choices(world: GodSaveTheKingState, seat: int | None, rng: random.Random) -> None:
    """The secret choices the other seats have already made at this simultaneous point, drawn
    afresh, each into its placeholder event of the history too.

    Each is drawn uniformly from that seat's legal choices: a simplification (the seat cannot
    see them, and nothing it can see says which is likelier), which keeps the world inside its
    information set: the same seats to move, the same table."""
    legal = world.setup.route_legal if world.decision == D_ROUTE else world.setup.declare_legal
    history = world.history
    for index in world.pending_events:
        s = history[index][0]
        if s != seat and world.pending_choices[s] is None:
            drawn = choice(rng, legal)
            assert isinstance(drawn, GodSaveTheKingAction)
            world.pending_choices[s] = drawn
            history[index] = (s, drawn)


# --------------------------------------------------------------------------------- observation


def observation(state: GodSaveTheKingState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` may see it (called on a view's copy, or on the full state)."""
    bit = knower_bit(state, seat)
    mine = state.pending_choices[seat] if seat is not None else None
    return {
        "game": state.gsk.id,
        "seat": None if seat is None else seat_text(seat),
        "hand_number": state.hand_number,
        "tricks_played": state.tricks_played,
        "safety_cap": state.gsk.safety_cap,
        "schedule": schedule_text(state),
        "players": [_player(state, s, bit) for s in range(state.num_players)],
        "your_hand": None if seat is None else [str(c) for c in state.hands[seat]],
        "removed_face_up": [
            str(c) for c, m in zip(state.removed, state.removed_knowers, strict=True) if m == PUBLIC
        ],
        "removed_known_to_you": [
            str(c)
            for c, m in zip(state.removed, state.removed_knowers, strict=True)
            if m != PUBLIC and m & bit
        ],
        "removed_face_down": sum(1 for m in state.removed_knowers if not m & bit),
        "tricks": [_trick(state, t, seat) for t in state.tricks],
        "past_tricks": [past_trick(r) for r in state.past_tricks],
        "current_trick": state.current_trick if state.tricks else None,
        "decision": "draw" if state.is_chance else DECISION_TEXT[state.decision],
        "waiting_for": [seat_text(s) for s in state.waiting()],
        "your_choice": None if mine is None else str(mine),
        "drawing": None
        if not state.is_chance
        else {"from": seat_text(state.draw_from), "to": seat_text(state.draw_to)},
        "winners": [seat_text(s) for s in state.winners],
    }


def _player(state: GodSaveTheKingState, s: int, bit: int) -> dict[str, Any]:
    pile = state.piles[s]
    knowers = state.pile_knowers[s]
    return {
        "seat": seat_text(s),
        "active": state.active[s],
        "suit": SUIT_NAMES[s],
        "hand_size": len(state.hands[s]),
        # Shown once the game is over (every card is then).
        "hand": [str(c) for c in state.hands[s]] if state.is_terminal else None,
        "pile_size": len(pile),
        "pile_face_up": [str(c) for c, m in zip(pile, knowers, strict=True) if m == PUBLIC],
        "pile_known_to_you": [
            str(c) for c, m in zip(pile, knowers, strict=True) if m != PUBLIC and m & bit
        ],
        "pile_unseen": sum(1 for m in knowers if not m & bit),
        "routes_used": state.routes_used[s],
        "label": state.letter(s),
    }


def _trick(state: GodSaveTheKingState, t: Trick, seat: int | None) -> dict[str, Any]:
    seats = t.seats
    return {
        "players": [seat_text(s) for s in seats],
        "priority": seat_text(seats[0]),
        "formations": [
            {
                "seat": seat_text(seats[side]),
                "placed": t.placed[side],
                "slots": [slot_text(state, t, side, k, seat) for k in range(3)],
            }
            for side in (0, 1)
        ],
        "columns": list(t.columns) if t.skirmish_result >= 0 else None,
        "result": None
        if t.skirmish_result < 0
        else ("push" if t.skirmish_result == PUSH else seat_text(seats[t.skirmish_result])),
        "declarations": [rank_text(r) if r else None for r in t.declared],
        "redeclared": t.redeclarations,
        "challenge": challenge_text(t.challenge_answer),
        "collected_by": None if t.collector < 0 else seat_text(seats[t.collector]),
        "void": t.void,
        "step": t.step,
    }


def past_trick(record: PastTrick) -> dict[str, Any]:
    hand, (x, y), collector, dx, dy, answer = record
    return {
        "hand": hand,
        "players": [seat_text(x), seat_text(y)],
        "collected_by": None if collector < 0 else seat_text(collector),
        "declarations": [rank_text(d) if d else None for d in (dx, dy)],
        "challenge": challenge_text(answer),
    }


def challenge_text(answer: int) -> str | None:
    """A challenge answer as it is announced (T6e): never the true rank."""
    return None if answer < 0 else ("accurate" if answer else "not accurate")


def slot_text(
    state: GodSaveTheKingState, t: Trick, side: int, k: int, seat: int | None
) -> str | None:
    """A formation slot as ``seat`` sees it: a card face up, ``[card]`` face down but its own,
    ``face down``, ``-`` emptied (collected, removed), or None before it is filled."""
    c = t.formations[side][k]
    if c is None:
        return None if t.placed[side] <= k else "-"
    if t.face_up[side][k] or state.is_terminal:
        return str(c)
    if t.seats[side] == seat:
        return f"[{c}]"  # face down, known to its owner
    return "face down"


def schedule_text(state: GodSaveTheKingState) -> str:
    """Who plays whom (§1.7): the duel, or the letters and the rota."""
    if state.schedule == 2:
        return "duel: priority alternates"
    names = ", ".join(f"{LETTERS[i]}={seat_text(s)}" for i, s in enumerate(state.seat_of_letter))
    if state.schedule == 3:
        return f"three players ({names}): A-B, B-C, C-A"
    return f"four players ({names}): rounds A-B & C-D, then B-C & D-A"
