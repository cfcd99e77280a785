"""A table's history: chance resolved from the table's seed, the seats to move at every
version, and events replayed from storage; each event told to the table's story (when it keeps
one) before it is applied.

Chance is resolved by the server right after the move that led to it, with a generator drawn
from the table's seed and the event's index (:func:`courtly.core.deals.chance_rng`, which
checks a finished table's record against its committed seed too), so a table rebuilt from its history after a
restart goes on exactly as it would have. At a tutorial table the game's prepared deal comes
first: which outcome is due follows from the history alone (:func:`chance_outcome`), so a
restart needs nothing stored but the history.
"""

from __future__ import annotations

from ...core.deals import chance_rng
from ...core.events import CHANCE, parse_actor
from ...core.game import State
from ...core.lessons import chance_outcome
from ...core.story import Story
from ...core.tutorial import Tutorial
from ..model import Answer
from ..storage import StoredEvent


def resolve_chance(
    state: State, seed: int, story: Story | None = None, tutorial: Tutorial | None = None
) -> list[tuple[int, ...]]:
    """Resolve the chance events due now, each told to ``story`` first (if any): from
    ``tutorial``'s prepared deal while it lasts, then from ``seed``; returns the seats to move
    after each."""
    moved = []
    while state.is_chance and not state.is_terminal:
        outcome = chance_outcome(state, tutorial, chance_rng(seed, len(state.history)))
        if story is not None:
            story.tell(state, CHANCE, outcome)
        state.apply_chance(outcome)
        moved.append(state.to_move)
    return moved


def to_move_history(state: State) -> list[tuple[int, ...]]:
    """The seats to move at every version of ``state``'s history (replayed)."""
    replay = state.game.new_state()
    seats = []
    for actor, item in state.history:
        seats.append(replay.to_move)
        if actor == CHANCE:
            replay.apply_chance(item)
        else:
            replay.apply(actor, item)
    seats.append(replay.to_move)
    return seats


def replay_event(
    state: State,
    event: StoredEvent,
    answers: dict[tuple[int, int], tuple[str, Answer]],
    story: Story | None = None,
) -> None:
    """Apply a stored event to ``state``, told to ``story`` first (if any); a decision's answer
    is kept in ``answers``, so that a retry of it is recognised after a restart too."""
    actor = parse_actor(event.actor, state.num_players)
    if actor == CHANCE:
        outcome = state.game.text.parse_chance(state, event.item)
        if story is not None:
            story.tell(state, CHANCE, outcome)
        state.apply_chance(outcome)
        return
    action = state.parse_action(actor, event.item)
    if story is not None:
        story.tell(state, actor, action)
    state.apply(actor, action)
    if event.chosen_at is not None and event.answer_version is not None:
        answers[(actor, event.chosen_at)] = (
            event.item,
            Answer(actor, event.item, event.index, event.answer_version),
        )
