"""One server process: its storage, tables, hub, bots and advisor, started and stopped with the
app, and its timers (the heartbeat, the clocks)."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool

from ..agents.estimates import HINT_ITERATIONS, SERVER_REVIEW_ITERATIONS
from .advice import Advisor
from .bots import Bots
from .budgets import BotBudget
from .chat import CHAT_PREFIX, CHAT_RATE, Chat
from .hub import Hub
from .invitations import InvitationBook
from .model import TableError
from .people import People
from .people.admin import Administration
from .people.passkeys import Passkeys
from .people.relying_party import RelyingPartySettings
from .play_now import PlayNow
from .profiles import Profiles
from .ratings import Ratings
from .storage import open_storage
from .tables import Abandonment, Tables
from .turn_mail import Mailing, TurnMail

log = logging.getLogger("courtly.web")


class Server:
    """What one server process holds: storage, tables, the hub, the bots, its timers."""

    def __init__(
        self,
        database_url: str,
        bot_pace: float,
        bot_workers: int,
        hint_iterations: int = HINT_ITERATIONS,
        review_iterations: int = SERVER_REVIEW_ITERATIONS,
        abandon_after: float = 0.0,
        bot_budget: BotBudget | None = None,
        admin: str | None = None,
        relying_party: RelyingPartySettings | None = None,
        leaderboard_min_games: int = 5,
        chat_rate: str = CHAT_RATE,
        mailing: Mailing | None = None,
    ) -> None:
        self.storage = open_storage(database_url)
        self.hub = Hub()
        self.tables = Tables(self.storage, on_change=self.changed)
        self.people = People(self.storage, admin, renamed=self.renamed)
        """The accounts, their sessions; ``admin``: the name of an account made administrator
        (besides the first one)."""
        self.administration = Administration(self.storage, self.tables, self.changed, self.renamed)
        self.chat = Chat(self.storage, self.tables, self.hub.publish, chat_rate)
        """The tables' chat (:mod:`.chat`)."""
        self.bot_budget = bot_budget or BotBudget()
        self.bots = Bots(self.tables, pace=bot_pace, workers=bot_workers, budget=self.bot_budget)
        self.advisor = Advisor(self.tables, self.storage, hint_iterations, review_iterations)
        self.process = f"{os.getpid()}@{os.uname().nodename}"
        self._timers: list[asyncio.Task[None]] = []
        self.abandon_after = abandon_after
        """Seconds after which a table nobody plays is closed (0: never)."""
        self.abandonment = Abandonment(self.tables.cache, self.tables.clocks, self.hub.publish)
        self.passkeys = Passkeys(self.storage)
        self.relying_party = relying_party or RelyingPartySettings()
        """Who this server is to a passkey: the operator's origin and RP id, or the request's."""
        self.ratings = Ratings(self.storage, self.tables.cache)
        self.profiles = Profiles(self.storage, self.tables.cache, leaderboard_min_games)
        """Profiles, leaderboards (``leaderboard_min_games``: the rated games a person must
        have played in a pool to appear on its leaderboard) and My games."""
        self.play_now = PlayNow(self.storage, self.tables, self.changed)
        """Play now's queue (shared through the database) and the tables it forms."""
        self.invitations = InvitationBook(self.storage, self.tables, self.profiles.title)
        self.mailing = mailing or Mailing()
        self.turn_mail = TurnMail(
            self.storage,
            self.mailing.mailer,
            self.mailing.public_url,
            self.process,
            self.profiles.title,
        )
        """Turn e-mails: the settings, the links that stop them, the sweep that sends them."""

    def changed(self, table_id: str) -> None:
        """A table changed: its watchers are woken, and its bots looked at."""
        self.hub.publish(table_id)
        self.bots.poke(table_id)
        self.ratings.changed(table_id)

    def renamed(self, table_ids: list[str]) -> None:
        """The seats of an account were renamed in the database: the tables this process holds
        catch up, and their watchers are told."""
        for table_id in table_ids:
            self.heard(table_id)

    def heard(self, table_id: str) -> None:
        """Another process changed a table: catch up, then tell this process's watchers."""
        if table_id.startswith(CHAT_PREFIX):
            self.chat.heard(table_id.removeprefix(CHAT_PREFIX))
            return
        try:
            if not self.tables.cache.refresh(table_id):
                return  # a table this process does not hold, or nothing new
        except TableError:
            return
        self.changed(table_id)

    def heard_all(self) -> None:
        """Announcements may have been missed (listening began or began again): every table
        this process holds catches up."""
        for table in self.tables.cache.held():
            self.heard(table.id)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.hub.bind(loop)
        self.bots.start(loop)
        assert self.bots.pool is not None
        self.advisor.start(self.bots.pool, self.bots.parallel)
        last_alive = self.storage.last_alive()
        ids = await run_in_threadpool(self.tables.load_active, last_alive)
        self.storage.beat(self.process)
        self.storage.listen(self.heard, self.heard_all)
        for table_id in ids:
            self.bots.poke(table_id)
        await run_in_threadpool(self.advisor.resume_reviews)
        await run_in_threadpool(self.ratings.resume)
        # What is loaded by now (the modules of FastAPI, SQLAlchemy and the games, the tables
        # resumed) lives as long as the server: out of the garbage collector's full passes,
        # which otherwise scan it all again and again, a pause of tenths of a second each
        # under load (the 1,000-table benchmark's p99).
        gc.collect()
        gc.freeze()
        self._timers = [
            asyncio.create_task(self._every(1.0, self._beat)),
            asyncio.create_task(self._every(0.25, self._clocks)),
            asyncio.create_task(self._every(0.5, self._play_now)),
        ]
        if self.mailing.mailer is not None:
            self._timers.append(asyncio.create_task(self._every(self.mailing.every, self._mail)))
        if self.abandon_after > 0:
            # Looked for often enough that a table is closed soon after its time.
            every = min(60.0, max(0.5, self.abandon_after / 10))
            self._timers.append(asyncio.create_task(self._every(every, self._abandoned)))

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self.advisor.stop()
        self.bots.stop()
        await run_in_threadpool(self.ratings.stop)
        await run_in_threadpool(self.storage.stop_listening)
        await self.storage.close_async()
        self.storage.close()

    async def _every(self, seconds: float, job: Callable[[], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await job()
            except Exception:
                log.exception("a periodic job of the server failed")

    async def _beat(self) -> None:
        await run_in_threadpool(self.storage.beat, self.process)

    async def _abandoned(self) -> None:
        closed = await run_in_threadpool(self.abandonment.sweep, self.abandon_after)
        if closed:
            log.info("closed %d abandoned tables", len(closed))

    async def _play_now(self) -> None:
        # Tables for those who waited long enough for bots, or whom another process queued.
        await run_in_threadpool(self.play_now.form)

    async def _mail(self) -> None:
        sent = await run_in_threadpool(self.turn_mail.sweep)
        if sent:
            log.info("sent %d turn e-mails", sent)

    async def _clocks(self) -> None:
        await run_in_threadpool(self.tables.clocks.check)
