"""Server-side bots: they think in a pool of processes, off the event loop, at a human pace.

When a table changes, :meth:`Bots.poke` makes sure one task plays its bot seats: it waits the
table's pace, takes the views of the seats a bot must play (a seat's view only, like any other
bot), has each bot choose in a worker process (so a long search neither holds the server's
event loop nor another table's bots: the processes are shared between tables fairly, by
:class:`courtly.web.workers.FairPool`, and a bot's budget is held to the server's caps,
:class:`courtly.web.budgets.BotBudget`), and submits the choices through
:meth:`courtly.web.tables.moves.Moves.submit` with the version they were chosen at, like a person
would. A choice that arrives too late (a person took the seat back) is refused and forgotten.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from typing import Any

from .budgets import BotBudget
from .model import TableError
from .playing import choose
from .tables import Tables
from .workers import FairPool

log = logging.getLogger("courtly.web")


def ignore_stop_signals() -> None:
    """Run first in each worker process: a SIGTERM or Ctrl+C sent to the whole process group
    (systemd, a terminal) is the server's to handle, which stops the workers itself once it has
    answered what was in flight (a worker killed first would fail a bot's move, a hint, a
    review)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _searches(spec: str) -> bool:
    """Whether the bot ``spec`` searches (and so thinks in a worker process). Rule-of-thumb
    bots answer in a fraction of a millisecond: they choose in a thread, so that they never
    queue behind another table's long search."""
    return spec.split(":", 1)[0].strip().lower() == "ismcts"


class Bots:
    """Plays the bot seats of every table of this server."""

    def __init__(
        self,
        tables: Tables,
        pace: float = 1.0,
        workers: int = 0,
        budget: BotBudget | None = None,
    ) -> None:
        """``pace``: seconds a bot waits before it moves, so people can follow (0 for tests and
        benchmarks). ``workers``: processes that think (0: one per core; -1: threads, which
        share the interpreter, for tests). ``budget``: the most a bot may think per move."""
        self.tables = tables
        self.pace = pace
        self.workers = workers
        self.budget = budget or BotBudget()
        self._executor: Executor | None = None
        self._pool: FairPool | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._busy: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        if self.workers < 0:
            self._executor = ThreadPoolExecutor(
                max_workers=self.parallel, thread_name_prefix="courtly-bot"
            )
        else:
            # spawn, not fork: the server has threads (a forked lock could stay locked forever).
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers or None,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=ignore_stop_signals,
            )
        self._pool = FairPool(self._executor, self.parallel)

    def stop(self) -> None:
        self._loop = None  # a poke from now on (a late move, a clock) starts nothing
        for task in list(self._tasks):
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
        executor, self._executor = self._executor, None
        if isinstance(executor, ProcessPoolExecutor):
            # The server has stopped: a search still running in a worker (which ignores
            # SIGTERM) is for nobody now, and is ended (its future fails at once, so nothing
            # waits for it). Its bot moves again, and its review resumes, at the next start.
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                process.kill()
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    @property
    def pool(self) -> FairPool | None:
        """The processes the bots think in, shared fairly between tables (None until started):
        hints and reviews search there too."""
        return self._pool

    @property
    def parallel(self) -> int:
        """How many jobs the pool runs at once."""
        if self.workers < 0:
            return 4
        return self.workers or os.cpu_count() or 1

    @property
    def idle(self) -> bool:
        """No table's bots are at work (a poke sent from another thread a moment ago may still
        be on its way to the loop)."""
        return not self._busy

    def poke(self, table_id: str) -> None:
        """Play ``table_id``'s bot seats if any must move (safe from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._schedule(table_id)
        else:
            loop.call_soon_threadsafe(self._schedule, table_id)

    def _schedule(self, table_id: str) -> None:
        if self._loop is None:
            return  # stopped since the poke
        if table_id in self._busy:
            self._again.add(table_id)  # look again once the running turn is done
            return
        if not self.tables.clocks.may_need_bots(table_id):
            return
        self._busy.add(table_id)
        task = asyncio.ensure_future(self._play(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _play(self, table_id: str) -> None:
        try:
            while True:
                self._again.discard(table_id)
                moved = await self._turn(table_id)
                if not moved and table_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of table %s failed", table_id)
        finally:
            self._busy.discard(table_id)

    async def _turn(self, table_id: str) -> bool:
        """One round of the table's bots; whether any of them moved."""
        loop = asyncio.get_running_loop()
        version, turns = await loop.run_in_executor(None, self.tables.clocks.bot_turns, table_id)
        pool = self._pool
        if not turns or pool is None:
            return False
        if self.pace > 0:
            await asyncio.sleep(self.pace)
        table = self.tables.cache.get(table_id)
        thinking = [
            asyncio.wrap_future(pool.submit(table_id, choose, spec, view, seed))
            if _searches(spec)
            else loop.run_in_executor(None, choose, spec, view, seed)
            for seat, spec, view, seed in (
                (seat, self.budget.capped(spec, view.game), view, f"{table.seed}/{seat}/{version}")
                for seat, spec, view in turns
            )
        ]
        choices: list[Any] = await asyncio.gather(*thinking, return_exceptions=True)
        moved = False
        for (seat, spec, _view), choice in zip(turns, choices, strict=True):
            if isinstance(choice, BaseException):
                log.error("bot %s of table %s seat %d failed: %r", spec, table_id, seat, choice)
                continue
            try:
                submit = partial(
                    self.tables.moves.submit, table_id, seat, choice, version, by_bot=True
                )
                await loop.run_in_executor(None, submit)
                moved = True
            except TableError as refused:
                # The table moved on (a person came back, another process's bot was quicker).
                log.debug("bot move refused at table %s: %s", table_id, refused.message)
        return moved
