"""Moves: a seat's move checked, played on a copy of the state with the chance it sets off,
committed, and only then made the table's state.

A move names the version it was chosen at. A retry of an applied move gets the same answer; a
move chosen at an older version is taken only while nothing the seat could see has changed
since (a simultaneous choice arriving after another seat's); otherwise 409 with the current
version. If another server process changed the table first, this one catches up and decides
again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ...core.errors import IllegalAction
from ...core.events import CHANCE, actor_text
from ...core.game import State, View
from ...core.story import Story
from ..model import Answer, Table, TableError
from ..storage import MoveWrite, Stale, StoredEvent, WriterBusy
from .access import Credential, authorise, check_seat_index
from .cache import TableCache
from .clocks import clock_changes
from .history import resolve_chance


@dataclass
class _Move:
    """A decided move: its answer and what committing it writes (no state for a retry)."""

    answer: Answer
    state: State | None = None
    moved: list[tuple[int, ...]] = field(default_factory=list)
    write: MoveWrite | None = None
    told: Story | None = None
    """The move's lines and the chance's after it, for the table's story (if it keeps one)."""


def refusal_reason(view: View, action: object) -> str:
    """Why ``view``'s seat may not make ``action`` (its text or id), from the seat's view alone:
    the full state's reason could tell of something the seat may not know."""
    try:
        text = action if isinstance(action, str) else str(view.game.action_from_id(action))
        view.parse_action(text)
    except IllegalAction as error:
        return str(error)
    return f"{action} is not legal now"


class Moves:
    """The moves of every table: from a worker thread (:meth:`submit`, which may wait), or from
    the event loop when nothing is in the way (:meth:`submit_on_loop`).

    ``on_change(table_id)`` is called after every committed move, outside the table's lock.
    """

    def __init__(self, cache: TableCache, on_change: Callable[[str], None]) -> None:
        self.cache = cache
        self.storage = cache.storage
        self.on_change = on_change

    def submit(
        self,
        table_id: str,
        seat: int,
        action: object,
        version: int,
        token: Credential = None,
        by_bot: bool = False,
    ) -> Answer:
        """Apply ``seat``'s move chosen at ``version``, committed before it is answered."""
        table = self.cache.get(table_id)
        with table.lock:
            answer = self._submit(table, seat, action, version, token, by_bot)
        self.on_change(table.id)
        return answer

    async def submit_on_loop(
        self, table_id: str, seat: int, action: object, version: int, token: Credential
    ) -> Answer | None:
        """:meth:`submit` made by the event loop itself, sparing the move a trip to a worker
        thread, or None (nothing done) when that is not possible now: the table is not loaded
        or is busy, the database's writer is busy, or another writer changed the table first.
        The caller then hands the move to :meth:`submit` in a worker thread, which may wait."""
        table = self.cache.loaded(table_id)
        if table is None or not table.lock.acquire(timeout=self.storage.loop_patience):
            return None
        try:
            authorise(table, seat, token)
            move = self._decide(table, seat, action, version, by_bot=False)
        finally:
            table.lock.release()
        if move.write is None:  # a retry: answered again, nothing changed
            return move.answer
        try:
            await self.storage.commit_move_on_loop(move.write)
        except (Stale, WriterBusy):
            return None
        # Committed. The table is unchanged in memory unless a worker thread read this very
        # move back from the database meanwhile (it caught up after a write of its own failed).
        while not table.lock.acquire(blocking=False):
            await asyncio.sleep(0.0005)  # held by a thread for a moment: never block the loop
        try:
            if table.revision == move.write.revision:
                self._committed(table, seat, version, move)
        finally:
            table.lock.release()
        self.on_change(table.id)
        return move.answer

    def _submit(
        self,
        table: Table,
        seat: int,
        action: object,
        version: int,
        token: Credential,
        by_bot: bool,
    ) -> Answer:
        """:meth:`submit`, the table's lock held."""
        for attempt in range(3):
            if by_bot:
                check_seat_index(table, seat)
            else:
                authorise(table, seat, token, reload=self.cache.reload if attempt == 0 else None)
            move = self._decide(table, seat, action, version, by_bot)
            if move.write is None:  # a retry: answered again, nothing changed
                return move.answer
            try:
                self.storage.commit_move(move.write)
            except Stale:
                self.cache.reload(table)
                continue
            self._committed(table, seat, version, move)
            return move.answer
        raise TableError(409, "the table kept changing: try again", version=table.version)

    def _committed(self, table: Table, seat: int, version: int, move: _Move) -> None:
        """The move is in the database: only now does the table move on."""
        assert move.state is not None and move.write is not None
        table.state = move.state
        table.revision += 1
        table.status = move.write.status
        table.to_move_at.extend(move.moved)
        table.answers[(seat, version)] = (move.answer.action, move.answer)
        if move.told is not None and table.story is not None:
            table.story.lines.extend(move.told.lines)
        elif table.story is not None:
            # A message told the story while the move was being written: it is told again,
            # from the history, when it is next needed.
            table.story = None
        for index, (clock_ms, clock_since) in move.write.clocks.items():
            table.seats[index].clock_ms = clock_ms
            table.seats[index].clock_since = clock_since
        if table.status == "over":
            self.cache.finished(table)

    def _decide(self, table: Table, seat: int, action: object, version: int, by_bot: bool) -> _Move:
        """Check the move and play it on a copy: what to write, and the table after it (or,
        for a retry, the answer already given). Changes nothing."""
        earlier = table.answers.get((seat, version))
        if earlier is not None:
            text, answer = earlier
            if self._same_action(table, action, text):
                return _Move(answer)
            raise TableError(
                409,
                f"seat {seat} already moved at version {version} ({text})",
                version=table.version,
            )
        if table.status != "playing":
            waiting = {"over": "the game is over", "closed": "the table is closed"}.get(
                table.status, "the game has not started"
            )
            raise TableError(409, waiting, version=table.version)
        if by_bot != table.seats[seat].played_by_bot:
            # A person's move while their bot plays, or a bot's once its person is back.
            why = (
                f"seat {seat} is played by its person again"
                if by_bot
                else f"a bot plays seat {seat} now: take the seat back first (reclaim)"
            )
            raise TableError(409, why, version=table.version)
        self._check_version(table, seat, version)
        state = table.state.clone()
        try:
            state.apply(seat, action)
        except IllegalAction:
            reason = refusal_reason(table.state.view(seat), action)
            raise TableError(422, reason, version=table.version) from None
        decision = len(state.history) - 1
        # Told once for every observer, before it is applied (on the state the move was made
        # in: the table's, still as it was); the story is kept only once a message needed it.
        told = None
        if table.story is not None:
            told = Story()
            told.tell(table.state, seat, state.history[decision][1])
        moved = [state.to_move, *resolve_chance(state, table.seed, told, table.teaching)]
        now = time.time()
        history = state.history
        answer = Answer(seat, str(history[decision][1]), decision, len(history))
        events = [StoredEvent(decision, actor_text(seat), answer.action, version, answer.version)]
        events.extend(
            StoredEvent(index, actor_text(history[index][0]), str(history[index][1]))
            for index in range(decision + 1, len(history))
        )
        write = MoveWrite(
            table_id=table.id,
            revision=table.revision,
            status="over" if state.is_terminal else "playing",
            version=len(history),
            at=now,
            events=events,
            clocks=clock_changes(table, table.state, state, seat, now),
        )
        return _Move(answer, state, moved, write, told)

    def _same_action(self, table: Table, action: object, text: str) -> bool:
        if isinstance(action, str):
            return action.strip().lower() == text.lower() or self._parsed(table, action) == text
        try:
            return str(table.game.action_from_id(action)) == text
        except IllegalAction:
            return False

    @staticmethod
    def _parsed(table: Table, text: str) -> str | None:
        try:
            return str(table.game.action_from_text(text))
        except Exception:
            return None

    @staticmethod
    def _check_version(table: Table, seat: int, version: int) -> None:
        current = table.version
        if version == current and seat in table.state.to_move:
            return  # (a seat not to move is told so below: 409, not the engine's 422)
        if version > current or version < 0:
            raise TableError(
                409, f"version {version} is not a version of this table yet", version=current
            )
        # Chosen earlier: fine only at a simultaneous point where nothing but other seats'
        # hidden commitments happened since (their choices are kept apart, so this seat's
        # choice cannot depend on them).
        for index in range(version, current):
            actor = table.state.history[index][0]
            if actor in (CHANCE, seat) or seat not in table.to_move_at[index]:
                raise TableError(
                    409,
                    f"the table moved on since version {version}: choose again at version {current}",
                    version=current,
                )
        if seat not in table.state.to_move:
            raise TableError(409, f"p{seat} is not to move", version=current)
