"""A finished game as it stood at a step, seen by a seat, a spectator or every seat: made for
the server's replays (:mod:`courtly.web.tables.replays`) and for the browser's engine
(:mod:`courtly.offline`) alike, so both show a finished game the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core.events import CHANCE, observer_bit
from ..core.game import State
from ..core.story import Story
from .messages import ReplaySeat, ReplayStep, StoryLine
from .model import Table, TableError
from .seat_messages import result, told_since

REPLAY_EVERY = 16
"""A replayed table keeps its state every this many events; a step replays the rest from one."""


def replay_step(
    table: Table,
    step: int | None,
    seat: str,
    checkpoints_of: Callable[[Table], list[State]] | None = None,
) -> ReplayStep:
    """``table`` (finished) as it stood after ``step`` events (default: the end), seen by
    ``seat``: a seat's number (what it knew then), ``spectator``, or ``all`` (every seat's view
    side by side and every event revealed: the record is public once the game is over).
    ``checkpoints_of`` gives the table's :func:`checkpoints` (kept by a caller that steps
    through the same table again; made anew by default).

    Refused with 409 while the game is on: a replay must never show a live game.
    """
    with table.lock:
        if table.status != "over":
            raise TableError(409, "a table is replayed once its game is over, and this one is not")
        seats = table.public_seats(time.time())
        story = table.told()
        deal = table.deal()
    states = (checkpoints_of or checkpoints)(table)
    history = table.state.history
    steps = len(history)
    if step is None:
        step = steps
    if not 0 <= step <= steps:
        raise TableError(422, f"step {step} is not a step of this game (0 to {steps})")
    players = table.game.num_players
    viewers: list[int | None]
    who: ReplaySeat
    if seat == "all":
        viewers, who = list(range(players)), "all"
    elif seat == "spectator":
        viewers, who = [None], "spectator"
    elif seat.isdigit() and int(seat) < players:
        viewers, who = [int(seat)], int(seat)
    else:
        raise TableError(
            422, f"seat is a seat number (0 to {players - 1}), spectator or all, not {seat!r}"
        )
    state = states[step // REPLAY_EVERY].clone()
    for actor, item in history[step - step % REPLAY_EVERY : step]:
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)
    views = [state.view(viewer) for viewer in viewers]
    log = state.history_text() if who == "all" else views[0].log()
    told_to: list[list[int]] = []
    if who == "all":
        lines, told_to = every_line(story, players, step)
    else:
        lines = [line for line in told_since(story, viewers[0], players, 0) if line[0] < step]
    answer: ReplayStep = {
        "table": table.id,
        "game": table.game.id,
        "players": players,
        "step": step,
        "steps": steps,
        "seat": who,
        "to_move": [] if state.is_terminal else list(state.to_move),
        "views": [
            {"seat": viewer, "observation": view.observation()}
            for viewer, view in zip(viewers, views, strict=True)
        ],
        "log": log,
        "story": lines,
        "result": result(state),
        "seats": seats,
        "deal": deal,
    }
    if who == "all":
        answer["told_to"] = told_to
    return answer


def checkpoints(table: Table) -> list[State]:
    """A finished table's state after every :data:`REPLAY_EVERY` events from the start, so
    that a step costs at most that many events and a view."""
    state = table.game.new_state()
    states = [state.clone()]
    for index, (actor, item) in enumerate(table.state.history, start=1):
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)
        if index % REPLAY_EVERY == 0:
            states.append(state.clone())
    return states


def every_line(story: Story, players: int, step: int) -> tuple[list[StoryLine], list[list[int]]]:
    """Every line told to anyone about the first ``step`` events, each once, and the seats each
    was told to (``[]``: every seat): a finished game's story with nothing kept from anyone."""
    everyone = [observer_bit(seat, players) for seat in range(players)]
    lines: list[StoryLine] = []
    told_to: list[list[int]] = []
    for index, knowers, text in story.lines:
        if index >= step:
            break
        seats = [seat for seat, bit in enumerate(everyone) if knowers & bit]
        if not seats:
            continue  # (told to spectators alone: what every seat knew better)
        lines.append((index, text))
        told_to.append([] if len(seats) == players else seats)
    return lines, told_to
