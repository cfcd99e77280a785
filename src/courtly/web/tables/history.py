"""A table's history: the seats to move at every version, and events replayed from storage, each
told to the table's story (when it keeps one) before it is applied.

Chance is resolved right after the move that led to it by :func:`courtly.core.deals.resolve_chance`
(drawn from the table's seed and the event's index, and at a tutorial table from the game's
prepared deal first), so a table rebuilt from its history after a restart goes on exactly as it
would have: a restart needs nothing stored but the history.
"""

from __future__ import annotations

from ...core.events import CHANCE, parse_actor
from ...core.game import State
from ...core.story import Story
from ..model import Answer
from ..storage import StoredEvent


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
