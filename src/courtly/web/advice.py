"""Hints during a game and reviews after it, at the server.

A **hint** is :func:`courtly.agents.estimates` run on the asking seat's view (``state.view(seat)``,
from :meth:`courtly.web.tables.views.Views.hint_view`, which checks the seat's token, that the table allows hints and
that the seat is to move): every legal action with its estimated win chance, best first. The
searches run in the bots' pool of processes, off the event loop, as the table's jobs (the pool
is shared fairly between tables: :mod:`courtly.web.workers`); the same position asked twice
(a reload, a second tab) is searched once, and its answer is kept for a while.

A **review** is :func:`courtly.sim.review.review_record` of a finished table's record (public
once the game is over) for every seat. It takes seconds to a minute, so it is a job: started by
``POST /api/tables/{id}/review``, watched by ``GET`` until done, one review at a time, a few
waiting at most. Its searches are the reviewed table's jobs in the shared pool: they take their
turn with the other tables', never holding a bot or a hint for more than one of them. A
finished review is stored in the database: a restart or another server process answers it at
once. It is seeded (seed 0) and its budget is the server's, so the same game gets the same
review wherever it is made.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Final, Literal, cast

from starlette.concurrency import run_in_threadpool

from ..agents.estimates import (
    HINT_ITERATIONS,
    SERVER_REVIEW_ITERATIONS,
    Budget,
    Searcher,
    SearchJob,
    jobs_for,
    merged,
    run_copy,
)
from ..agents.ismcts import RootStatistics
from ..core.game import View
from ..core.records import MatchRecord
from ..sim.review import review_record
from . import messages, protocol
from .model import TableError
from .storage import Storage
from .tables import Tables
from .tables.access import Credential
from .workers import FairPool

log = logging.getLogger("courtly.web")

REVIEW_SEED: Final = 0
HINTS_KEPT: Final = 256
"""Answered hints kept, by (table, seat, version): a reload asks for the same one."""
REVIEWS_WAITING: Final = 8
"""Reviews that may wait for the one being made; more are refused (503) until one is done."""
REVIEWS_KEPT: Final = 32
"""Finished or failed review jobs kept in memory (finished ones are in the database too)."""


@dataclass
class ReviewJob:
    """A review being made, or made (the ``review`` JSON), or failed (``detail`` says why)."""

    table_id: str
    iterations: int
    status: Literal["queued", "running", "done", "failed"] = "queued"
    done: int = 0
    total: int = 0
    review: protocol.Review | None = None
    detail: str | None = None

    def to_dict(self) -> protocol.ReviewJob:
        answer: protocol.ReviewJob = {
            "table": self.table_id,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "budget": {"iterations": self.iterations},
        }
        if self.review is not None:
            answer["review"] = self.review
        if self.detail is not None:
            answer["detail"] = self.detail
        return answer


def run_copies(jobs: list[SearchJob]) -> list[RootStatistics]:
    """``jobs`` run one after the other (in a worker process), each as :func:`run_copy` runs it."""
    return [run_copy(job) for job in jobs]


@dataclass
class Advisor:
    """The hints and reviews of one server process."""

    tables: Tables
    storage: Storage
    hint_iterations: int = HINT_ITERATIONS
    review_iterations: int = SERVER_REVIEW_ITERATIONS
    _pool: FairPool | None = None
    _workers: int = 1
    _hints: OrderedDict[tuple[str, int, int], messages.Hint] = field(default_factory=OrderedDict)
    _searching: dict[tuple[str, int, int], asyncio.Task[messages.Hint]] = field(
        default_factory=dict
    )
    _reviews: OrderedDict[str, ReviewJob] = field(default_factory=OrderedDict)
    _guard: threading.Lock = field(default_factory=threading.Lock)
    _runner: ThreadPoolExecutor | None = None

    def __post_init__(self) -> None:
        # Checked here, where the server is made: a bad option fails at start, not at a hint.
        Budget(self.hint_iterations)
        Budget(self.review_iterations)

    def start(self, pool: FairPool, workers: int) -> None:
        """Search in ``pool`` (the bots'), which runs ``workers`` jobs at once."""
        self._pool = pool
        self._workers = max(1, workers)
        self._runner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="courtly-review")

    def stop(self) -> None:
        """Drop the waiting reviews; the one under way ends when the pool is shut down."""
        if self._runner is not None:
            self._runner.shutdown(wait=False, cancel_futures=True)
            self._runner = None
        self._pool = None

    # ------------------------------------------------------------------------------ hints

    async def hint(
        self, table_id: str, seat: int, token: Credential, version: int
    ) -> messages.Hint:
        """Every legal action of ``seat`` at ``version`` with its estimated win chance, best
        first, from the seat's view alone."""
        view = await run_in_threadpool(self.tables.views.hint_view, table_id, seat, token, version)
        key = (table_id, seat, version)
        known = self._hints.get(key)
        if known is not None:
            self._hints.move_to_end(key)
            return known
        task = self._searching.get(key)
        if task is None:
            task = asyncio.ensure_future(self._search(key, view))
            self._searching[key] = task
            task.add_done_callback(lambda _done: self._searching.pop(key, None))
        # Shielded: a client that goes away does not cancel a search another one waits for.
        return await asyncio.shield(task)

    async def _search(self, key: tuple[str, int, int], view: View) -> messages.Hint:
        pool = self._pool
        if pool is None:
            raise TableError(503, "the server is stopping: no hint now")
        budget = Budget(self.hint_iterations)
        # Seeded by the position, as at the terminal: the same position, the same hint.
        jobs = jobs_for(view, budget, seed=view.version, workers=self._workers)
        table_id, seat, version = key
        # One job per worker, not one per search: a hint takes one turn of the shared pool in
        # each worker, so that it waits for one job of each other table, not four.
        bundles = [jobs[first :: self._workers] for first in range(min(len(jobs), self._workers))]
        done = await asyncio.gather(
            *(asyncio.wrap_future(pool.submit(table_id, run_copies, b)) for b in bundles)
        )
        searched = {
            first + offset * self._workers: statistics
            for first, results in enumerate(done)
            for offset, statistics in enumerate(results)
        }
        found = merged(view, [searched[index] for index in range(len(jobs))])
        answer: messages.Hint = {
            "table": table_id,
            "seat": seat,
            "version": version,
            "budget": cast(messages.Budget, budget.describe()),
            "actions": [cast(messages.ActionEstimate, a.to_dict()) for a in found.actions],
        }
        self._hints[key] = answer
        while len(self._hints) > HINTS_KEPT:
            self._hints.popitem(last=False)
        return answer

    # ------------------------------------------------------------------------------ reviews

    def _check_over(self, table_id: str) -> None:
        table = self.tables.cache.get(table_id)
        if table.status != "over":
            raise TableError(409, "a table is reviewed once its game is over, and this one is not")

    def review(self, table_id: str) -> protocol.ReviewJob:
        """The review job of ``table_id``: where it stands, and the review once done; 404 if
        none was started."""
        self._check_over(table_id)
        with self._guard:
            job = self._reviews.get(table_id)
            if job is not None:
                return job.to_dict()
        stored = self._stored(table_id)
        if stored is not None:
            return stored.to_dict()
        raise TableError(
            404, "this table has not been reviewed: POST to /api/tables/{id}/review to start"
        )

    def start_review(self, table_id: str) -> protocol.ReviewJob:
        """Start reviewing ``table_id`` (every seat), unless it is reviewed or being reviewed;
        a failed review is tried again."""
        self._check_over(table_id)
        with self._guard:
            job = self._reviews.get(table_id)
            if job is not None and job.status != "failed":
                return job.to_dict()
        stored = self._stored(table_id)
        if stored is not None:
            return stored.to_dict()
        record = self.tables.replays.match_record(table_id)
        with self._guard:
            job = self._reviews.get(table_id)
            if job is not None and job.status != "failed":
                return job.to_dict()  # started meanwhile by another request
            runner = self._runner
            if runner is None:
                raise TableError(503, "the server is stopping: no review now")
            waiting = sum(1 for other in self._reviews.values() if other.status == "queued")
            if waiting >= REVIEWS_WAITING:
                raise TableError(
                    503,
                    f"{waiting} games are waiting for their review already: try again in a minute",
                )
            job = ReviewJob(table_id, self.review_iterations)
            self._keep(job)
            runner.submit(self._make_review, job, record)
        # Noted in the database: a server stopped before the review is made resumes it.
        self.storage.request_review(table_id, self.review_iterations)
        return job.to_dict()

    def resume_reviews(self) -> None:
        """Start again the reviews asked for and not made when a server last stopped."""
        for table_id in self.storage.requested_reviews(self.review_iterations):
            try:
                self.start_review(table_id)
            except TableError as error:
                log.warning("the review of table %s cannot resume: %s", table_id, error.message)

    def _stored(self, table_id: str) -> ReviewJob | None:
        review = self.storage.review(table_id, self.review_iterations)
        if review is None:
            return None
        total = len(review.get("decisions", ()))
        return ReviewJob(table_id, self.review_iterations, "done", total, total, review)

    def _keep(self, job: ReviewJob) -> None:
        """Hold ``job`` (the guard held), forgetting the oldest finished or failed ones."""
        self._reviews[job.table_id] = job
        self._reviews.move_to_end(job.table_id)
        ended = [key for key, held in self._reviews.items() if held.status in ("done", "failed")]
        for key in ended[: max(0, len(ended) - REVIEWS_KEPT)]:
            del self._reviews[key]

    def _make_review(self, job: ReviewJob, record: MatchRecord) -> None:
        """Runs in the review thread: the searches go to the bots' pool."""

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            pool = self._pool
            if pool is None:
                raise RuntimeError("the server is stopping")
            job.status = "running"
            review = review_record(
                record,
                budget=Budget(job.iterations),
                seed=REVIEW_SEED,
                progress=progress,
                searcher=Searcher(self._workers, executor=pool.executor_for(job.table_id)),
            )
            data = cast(protocol.Review, review.to_dict())
            self.storage.save_review(job.table_id, job.iterations, data)
            job.review = data
            job.status = "done"
        except Exception as error:
            log.exception("the review of table %s failed", job.table_id)
            job.detail = f"the review failed: {error}; POST again to try again"
            job.status = "failed"
