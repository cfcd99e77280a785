"""What a seat is shown: its message (its view of the table and the table's public facts), a
tutorial's lesson, and the view a hint is searched from, each made from the seat's view alone.
Nothing else about a state reaches a client.

The server's sockets and the browser's own engine (:mod:`courtly.offline`, under Pyodide) both
send what this module makes: it needs the engine and :mod:`.model` only, never the server.
"""

from __future__ import annotations

from typing import Any

from ..core.events import observer_bit
from ..core.game import State, View, known_state
from ..core.lessons import lesson_words
from ..core.story import Story
from ..core.tutorial import lesson_number
from .messages import LegalAction, Lesson, Result, SeatMessage, StoryLine
from .model import Table, TableError

ON_YOUR_OWN = (
    "That was the last lesson: you play on your own now. "
    "The hint still shows what the bot would weigh, whenever you want it."
)


def _legal_action(view: View, seen: State, action: Any) -> LegalAction:
    """A legal action as a seat is sent it: its id and text, its label in words, and the game's
    ``caution`` when the move throws the game away, for the page to confirm first. The label
    and the caution are worked out from the seat's view alone (``seen``: its redacted state)."""
    seat = view.seat
    assert seat is not None
    entry: LegalAction = {
        "id": action.id,
        "text": str(action),
        "label": seen.game.text.action_label(seen, seat, action),
    }
    caution = view.caution(action)
    if caution:
        entry["caution"] = caution
    return entry


def seat_message(table: Table, seat: int | None, since: int, now: float) -> SeatMessage:
    """Everything a seat (``None``: a spectator) is sent: made from ``state.view(seat)``, the
    lines of the table's story that seat was told, and the table's public facts, nothing else.
    ``since`` is how much of the log it already has. The caller holds the table's lock."""
    view = table.state.view(seat)
    # The story's lines stay as they were told (a card revealed later changes no line), so they
    # resume from where the reader is; the log, again from an event revealed to the seat since.
    story_from = min(since, view.version)
    since = view.log_from(since)
    playing = table.status == "playing"
    legal = view.legal_actions() if playing else ()
    seen = known_state(view)
    message: SeatMessage = {
        "table": table.id,
        "game": table.game.id,
        "players": table.game.num_players,
        "seat": seat,
        "version": view.version,
        "status": table.status,
        "to_move": list(view.to_move),
        "legal_actions": [_legal_action(view, seen, action) for action in legal],
        "observation": view.observation(),
        "log_from": since,
        "log": view.log(since),
        "story_from": story_from,
        "story": told_since(table.told(), seat, table.game.num_players, story_from),
        "result": final_result(table),
        "seats": table.public_seats(now),
        "notices": table.notices,
        "mode": table.mode,
        "variant": table.variant,
        "hints": table.hints,
        "rematch_id": table.rematch_id,
        "tutorial": table.tutorial,
        "rated": table.rated,
        "deal": table.deal(),
    }
    taught = lesson(table, view) if table.tutorial else None
    if taught is not None:
        message["lesson"] = taught
    return message


def told_since(story: Story, seat: int | None, num_players: int, since: int) -> list[StoryLine]:
    """The lines of ``story`` told to ``seat`` (``None``: a spectator) about the events from
    index ``since`` on. The lines are in the order of their events, and a reader's new lines
    are the last few (a message is made for every seat after every move): they are looked for
    from the end, however long the game."""
    lines = story.lines
    start = len(lines)
    while start and lines[start - 1][0] >= since:
        start -= 1
    bit = observer_bit(seat, num_players)
    return [(index, text) for index, knowers, text in lines[start:] if knowers & bit]


def final_result(table: Table) -> Result | None:
    """How the table's game ended (None while it goes on), made once: the same for every seat."""
    if table.status != "over":
        return None
    if table.result is None:
        table.result = result(table.state)
    return table.result


def result(state: State) -> Result | None:
    """How the game of ``state`` (a full state) ended, in the game's words (None while it goes
    on): the reason, each seat's place and score, and the returns. Once the game is over every
    seat may know all of it."""
    if not state.is_terminal:
        return None
    outcome = state.game.text.outcome(state)
    return {
        "returns": state.returns(),
        "winners": list(state.winners),
        "truncated": state.truncated,
        "reason": outcome.reason,
        "standings": [
            {"seat": s.seat, "place": s.place, "score": s.score, "note": s.note}
            for s in outcome.standings
        ],
    }


def lesson(table: Table, view: View) -> Lesson | None:
    """The lesson of ``view``'s seat at a tutorial table: for the learner to move, which of their
    decisions this is and the game's explanation of it, worked out from a world the learner
    cannot tell from the truth (their view alone); after the lessons, that they play on their
    own. None for any other seat, a spectator, or while the learner waits."""
    tutorial = table.teaching
    if (
        tutorial is None
        or view.seat != tutorial.learner
        or table.status != "playing"
        or view.seat not in view.to_move
    ):
        return None
    number = lesson_number(tutorial, table.state.history)
    if number is None:
        return {"number": None, "lessons": tutorial.lessons, "coach": ON_YOUR_OWN}
    return {"number": number, "lessons": tutorial.lessons, "coach": lesson_words(view)}


def hint_view(table: Table, seat: int, version: int) -> View:
    """The view a hint for ``seat`` is searched from: refused with 403 where the table has
    hints off, 409 unless the seat is to move at ``version`` in a game in play. The view alone
    goes to the search, never the state."""
    if not table.hints:
        raise TableError(403, "hints are off at this table")
    if table.status != "playing":
        raise TableError(409, f"no hint: the table is {table.status}, not in play")
    if version != table.version:
        raise TableError(
            409,
            f"no hint for version {version}: the table is at version {table.version}",
            version=table.version,
        )
    if seat not in table.state.to_move:
        raise TableError(409, f"no hint: seat {seat} is not to move")
    return table.state.view(seat)
