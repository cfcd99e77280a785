"""A game's story: what every observer has been told, event by event.

Each event's lines come from the game's text (:meth:`GameText.tell`), told *before* the event
is applied and each kept with who may read it. A :class:`Story` keeps them as a game goes, once
for all the observers, so a front end hands each seat its own lines (:meth:`Story.told_to`) by
increments; :func:`story_of` tells a recorded history again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .events import CHANCE, Event, observer_bit
from .game import Game, State, replay


class Story:
    """The lines told so far, each with the index of the event it tells and who may read it."""

    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines: list[tuple[int, int, str]] = []
        """``(event index, knowers, text)`` in the order told."""

    def tell(self, state: State, actor: int, item: Any) -> None:
        """Tell the event ``(actor, item)`` about to be applied to ``state``."""
        index = len(state.history)
        for knowers, text in state.game.text.tell(state, actor, item):
            self.lines.append((index, knowers, text))

    def told_to(self, seat: int | None, num_players: int, since: int = 0) -> list[list[Any]]:
        """The lines ``seat`` (``None``: a spectator) was told about the events from index
        ``since`` on, as ``[event index, text]`` pairs."""
        bit = observer_bit(seat, num_players)
        return [
            [index, text] for index, knowers, text in self.lines if index >= since and knowers & bit
        ]


def story_of(game: Game, history: Sequence[Event] | Sequence[Sequence[str]]) -> Story:
    """The story of a history (events, or a record's text pairs), told again from the start."""
    events = replay(game, history).history  # each event as the game's own action or outcome
    story = Story()
    state = game.new_state()
    for actor, item in events:
        story.tell(state, actor, item)
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)
    return story
