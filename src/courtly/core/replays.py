"""From a record back to the game it holds: the game its config names, the state its history
leads to, checked against what the record says of the end.

Records themselves (:mod:`courtly.core.records`) are data and files; a state writes its own
record (:meth:`State.record <courtly.core.game.State.record>`); this module reads one back.
Every error is a :class:`ReplayError` saying which move of the history does not apply, by its
number and its seat.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from .errors import InvalidOptions, ReplayError
from .events import CHANCE, parse_actor
from .game import Game, State
from .records import MatchRecord
from .registry import make

EventObserver = Callable[[State, int, Any], None]
"""Called with (state before the event, actor, action or outcome) for every event replayed."""


def record_game(record: MatchRecord) -> Game:
    """The game a record was played at: its id, player count and options."""
    try:
        return make(record.game, players=record.players or None, **record.options)
    except InvalidOptions as error:
        raise ReplayError(str(error)) from None


def replay_record(
    record: MatchRecord,
    observe: EventObserver | None = None,
    require_end: bool | None = None,
) -> State:
    """The state the record's history leads to, checked against the record.

    ``observe(state, actor, item)`` is called before each event (a narrator, say).
    ``require_end`` (default: when the record has returns) demands that the history reaches
    the end of the game, and that it ends as recorded.
    """
    state = replay_text(record_game(record), record.history, observe)
    if require_end is None:
        require_end = record.finished
    if require_end and not state.is_terminal:
        raise ReplayError(
            f"the history stops after {len(record.history)} events, before the game is over: "
            "it is not a finished game"
        )
    recorded = [round(x, 9) for x in record.returns]
    if recorded and state.is_terminal and [round(x, 9) for x in state.returns()] != recorded:
        raise ReplayError(
            f"the replay ends with returns {state.returns()}, the record says {record.returns}"
        )
    return state


def replay_text(
    game: Game,
    history: list[list[str]],
    observe: EventObserver | None = None,
) -> State:
    """Play the text ``history`` from the start; :class:`ReplayError` names the first move that
    is not legal where it stands (its number, counted from 1, and its seat)."""
    state = game.new_state()
    for index, (actor_text, item_text) in enumerate(history):
        try:
            actor = parse_actor(actor_text, game.num_players)
        except ValueError as error:
            raise ReplayError(f"move {index + 1}: {error}") from None
        try:
            if actor == CHANCE:
                outcome = game.text.parse_chance(state, item_text) if state.is_chance else item_text
                if observe is not None and state.is_chance:
                    observe(state, CHANCE, outcome)
                state.apply_chance(outcome)
            else:
                action = state.parse_action(actor, item_text)
                if observe is not None:
                    observe(state, actor, action)
                state.apply(actor, action)
        except ReplayError:
            raise
        except (ValueError, TypeError) as error:
            who = "chance" if actor == CHANCE else actor_text
            raise ReplayError(
                f"move {index + 1} ({who}: {item_text}) is not legal there: {error}"
            ) from None
    return state


def load(data: str | Mapping[str, Any]) -> State:
    """Rebuild a state saved by :meth:`State.to_json` (a JSON text or the parsed dict);
    :class:`ReplayError` if it cannot be read or does not replay."""
    try:
        parsed = json.loads(data) if isinstance(data, str) else data
    except json.JSONDecodeError as error:
        raise ReplayError(f"not JSON: {error}") from None
    return replay_record(MatchRecord.from_dict(parsed), require_end=False)
