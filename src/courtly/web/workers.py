"""The worker processes of a server, shared fairly between tables.

Bots' searches, hints and reviews all think in one pool of processes. Given to the pool as they
come, the hundreds of searches of a review, or the four of a hint, would all run before a bot
asked after them: one table could hold every other table's bots for minutes. So every job
names its **owner** (the table it is for) and waits in its owner's queue; the owners are served
round robin, one job at a time, and the pool is given no more jobs than it has workers. A job
asked for one table therefore waits, beyond the jobs already running, for at most one job of
each other table with work waiting: however many jobs a table has, it delays another table by
one of them, the longest of which is a bot's move at the server's cap
(:mod:`courtly.web.budgets`), or a quarter of a hint's or of a review decision's budget.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future, InvalidStateError
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

Job = tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]


class FairPool:
    """Jobs of many owners run in ``executor`` (which runs ``slots`` jobs at once), the owners
    served round robin.

    ``slots`` feeder threads each take the next job in turn, hand it to the executor and wait
    for it: so at most ``slots`` jobs are in the executor, and the order in which the others
    start is this pool's."""

    def __init__(self, executor: Executor, slots: int) -> None:
        self.executor = executor
        self.slots = max(1, slots)
        self._queues: OrderedDict[Hashable, deque[Job]] = OrderedDict()
        self._ready = threading.Condition()
        self._closed = False
        self._running: set[Future[Any]] = set()
        self._feeders = [
            threading.Thread(target=self._feed, name=f"courtly-fair-{n}", daemon=True)
            for n in range(self.slots)
        ]
        for feeder in self._feeders:
            feeder.start()

    def submit(
        self, owner: Hashable, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> Future[T]:
        """Run ``fn(*args)`` for ``owner`` (a table's id) in its turn; its future."""
        if kwargs:
            raise TypeError("a job of the pool takes positional arguments only")
        future: Future[T] = Future()
        with self._ready:
            if self._closed:
                raise RuntimeError("the pool is shut down")
            self._queues.setdefault(owner, deque()).append((future, fn, args))
            self._ready.notify()
        return future

    def executor_for(self, owner: Hashable) -> Executor:
        """An :class:`~concurrent.futures.Executor` whose jobs are ``owner``'s in this pool
        (for code that takes an executor: a review's searcher)."""
        return _OwnedExecutor(self, owner)

    def waiting(self) -> int:
        """Jobs waiting for their turn (not yet in the executor)."""
        with self._ready:
            return sum(len(queue) for queue in self._queues.values())

    def shutdown(self) -> None:
        """Cancel the waiting jobs, fail the running ones and stop the feeders: from now on
        nobody waits for this pool (a running job's process ends with the executor, which its
        owner shuts down; its result, if it comes, is dropped)."""
        with self._ready:
            self._closed = True
            queues = list(self._queues.values())
            self._queues.clear()
            running = list(self._running)
            self._ready.notify_all()
        for queue in queues:
            for future, _fn, _args in queue:
                _cancel(future)
        for future in running:
            _settle(future, error=RuntimeError("the pool was shut down"))

    def _next(self) -> Job | None:
        """The next job in turn, waiting for one (None once shut down): the first owner's
        first job, its owner moved to the back of the round."""
        with self._ready:
            while not self._queues and not self._closed:
                self._ready.wait()
            if self._closed:
                return None
            owner, queue = next(iter(self._queues.items()))
            job = queue.popleft()
            del self._queues[owner]
            if queue:
                self._queues[owner] = queue
            return job

    def _feed(self) -> None:
        while True:
            job = self._next()
            if job is None:
                return
            future, fn, args = job
            with self._ready:
                if self._closed:
                    _cancel(future)
                    continue
                if not future.set_running_or_notify_cancel():
                    continue  # cancelled while it waited (its waiters are told)
                self._running.add(future)
            try:
                result = self.executor.submit(fn, *args).result()
            except Exception as error:  # the job's own failure goes to its waiter
                _settle(future, error=error)
            else:
                _settle(future, result=result)
            finally:
                with self._ready:
                    self._running.discard(future)


def _cancel(future: Future[Any]) -> None:
    """Cancel a job that has not started, and tell whoever waits for it: ``cancel`` alone
    wakes ``result()`` but not ``wait`` nor ``as_completed`` (a review's searcher waits that
    way), which only hear of it from ``set_running_or_notify_cancel``."""
    if future.cancel():
        future.set_running_or_notify_cancel()


def _settle(future: Future[Any], result: Any = None, error: Exception | None = None) -> None:
    """Give ``future`` its result or error, unless it has one already (a shut-down pool fails
    its running jobs before they end)."""
    with contextlib.suppress(InvalidStateError):
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


class _OwnedExecutor(Executor):
    def __init__(self, pool: FairPool, owner: Hashable) -> None:
        self._pool = pool
        self._owner = owner

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        return self._pool.submit(self._owner, fn, *args, **kwargs)
