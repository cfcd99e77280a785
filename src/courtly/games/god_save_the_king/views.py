"""What each seat may see of God Save The King (docs/rules/god-save-the-king.md §9), and what
it can infer of the rest.

* :func:`redacted` builds a view's copy: every card the seat cannot see is *removed* (replaced by
  ``HIDDEN``), and so is what the other seats chose at a simultaneous point that is still open
  (that they have chosen is public, what they chose is not). The worlds drawn from such a copy
  are :mod:`.worlds`'.
* :func:`ensure_knowledge` and :func:`probability_at`: what each seat can infer of the hidden
  cards (:mod:`.knowledge`), which its bot weighs.
* :func:`observation` is the table as the seat may see it; :func:`secret_cards` what it may not.

Once the game is over nothing is secret any more: every card is shown.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.actions import seat_text
from ...core.cards import SUIT_NAMES, Card, rank_text
from ...core.events import CHANCE, HIDDEN, observer_bit
from ...core.game import GameViews, State
from .components import (
    D_DECLARE,
    D_FORM,
    D_ROUTE,
    DECISION_TEXT,
    FORM,
    KING_OF,
    LEFT,
    LETTERS,
    PUBLIC,
    PUSH,
    RIGHT,
    PastTrick,
)
from .journal import Journal
from .knowledge import NOT_CARD, Export, Knowledge, Loc, simple_export
from .rules import GodSaveTheKingState, Trick
from .worlds import sample_world


class GodSaveTheKingViews(GameViews):
    """Hands are their holders'; a card laid face down is known to the seats that saw it; the
    choices made at a simultaneous point are secret until every one is in."""

    def observation(self, state: State, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, GodSaveTheKingState)
        return observation(state, seat)

    def redacted(self, state: State, seat: int | None) -> State:
        assert isinstance(state, GodSaveTheKingState)
        return redacted(state, seat)

    def secret_cards(self, state: State, seat: int | None) -> frozenset[Card]:
        assert isinstance(state, GodSaveTheKingState)
        return secret_cards(state, seat)

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        """A world drawn from a view's copy (:func:`.worlds.sample_world`), or from the copy a
        full state's view would hold."""
        assert isinstance(state, GodSaveTheKingState)
        return draw_world(state, seat, rng, replayable=True)

    def search_world(self, state: State, seat: int | None, rng: random.Random) -> State:
        """The world :meth:`determinize` draws, without filling in its hidden history where no
        world needs it to be drawn (see :func:`.worlds.sample_world`)."""
        assert isinstance(state, GodSaveTheKingState)
        return draw_world(state, seat, rng, replayable=False)

    def observed(self, state: State, actor: int, item: Any, observer: int) -> Any:
        # A card placed in a formation is unseen (only the count is public); routes and
        # declarations are revealed once every participant has chosen, challenges at once; a
        # card drawn from a hand is shown to everyone.
        if actor == CHANCE:
            return item
        if actor != observer and item.kind == FORM:
            return "form"
        return item.id


def draw_world(
    state: GodSaveTheKingState, seat: int | None, rng: random.Random, replayable: bool
) -> GodSaveTheKingState:
    """A world drawn from a view's copy (:func:`.worlds.sample_world`), or from the copy a full
    state's view would hold; its history replays to it if ``replayable``."""
    if state.is_terminal:
        return state._copy(knowledge=False)  # the game is over: nothing is hidden
    if state._view_knowledge is None:
        copy = redacted(state, seat)
        copy.history = state.secrets.seen_by(state.history, observer_bit(seat, state.num_players))
        state = copy
    return sample_world(state, seat, rng, replayable)


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
    if not state.tables.exposed_king_legal:
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
    k = knowledge_of(state, seat) if places else None
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
    fresh = state.game.new_state()
    assert isinstance(fresh, GodSaveTheKingState)
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


def knowledge_of(state: GodSaveTheKingState, seat: int | None) -> Knowledge | None:
    """What ``seat`` knows of the hidden cards (full states only)."""
    knowledge = ensure_knowledge(state)
    if knowledge is None:
        return None
    return knowledge[state.num_players if seat is None else seat]


def probability_at(state: GodSaveTheKingState, seat: int, loc: Loc, card: Card) -> float:
    """How likely ``seat`` may think it that ``card`` lies at the hidden place ``loc``
    (``("f", trick, side, slot)``, ``("h", seat, i)``, ...)."""
    return knowledge_export(state, seat).probability(loc, card)


def rank_probability_at(state: GodSaveTheKingState, seat: int, loc: Loc, rank: int) -> float:
    return knowledge_export(state, seat).rank_probability(loc, rank)


def probability_in_hand(state: GodSaveTheKingState, seat: int, owner: int, card: Card) -> float:
    """How likely ``seat`` thinks it that ``card`` is in ``owner``'s hand."""
    know = knowledge_export(state, seat)
    return sum(know.probability(("h", owner, i), card) for i in range(len(state.hands[owner])))


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
        k = knowledge_of(state, seat)
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
    return copy


# --------------------------------------------------------------------------------- observation


def observation(state: GodSaveTheKingState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` may see it (called on a view's copy, or on the full state)."""
    bit = knower_bit(state, seat)
    mine = state.pending_choices[seat] if seat is not None else None
    return {
        "game": state.game.id,
        "seat": None if seat is None else seat_text(seat),
        "hand_number": state.hand_number,
        "tricks_played": state.tricks_played,
        "safety_cap": state.tables.safety_cap,
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
    """Who plays whom (§7): the duel, or the letters and the rota."""
    if state.schedule == 2:
        return "duel: priority alternates"
    names = ", ".join(f"{LETTERS[i]}={seat_text(s)}" for i, s in enumerate(state.seat_of_letter))
    if state.schedule == 3:
        return f"three players ({names}): A-B, B-C, C-A"
    return f"four players ({names}): rounds A-B & C-D, then B-C & D-A"
