"""Where a simulation's games are played: in this process, on local worker processes, or on a
Ray cluster.

Every backend plays the same games: game ``i`` is seeded by the simulation's seed and ``i``
alone (:func:`~courtly.sim.tournament.game_seed`), and a chunk of games comes back as one list,
in the order of the chunks, so what is made of the games does not depend on where, or on how
many workers, they were played. What a game gives back is chosen by ``produce(player, index)``,
a module-level function (it travels to the workers by reference): the whole record for
``simulate --out``, or the few figures of a game for ``analyze``, which keeps the traffic and
the memory small.

Ray (the ``cluster`` extra) runs on a cluster given its address (``ray://head:10001`` or
``auto``) or on a local Ray started for the run with one CPU per worker. Each Ray worker is an
actor that builds the game and its bots once, like a local worker process. Courtly must be
installed on every node of a cluster, at the same version (docs/cluster.md).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from functools import partial
from itertools import islice
from typing import Any, Final, Protocol, TypeVar

from ..core.errors import InvalidOptions
from .tournament import GamePlayer, Simulation

T = TypeVar("T")
Produce = Callable[[GamePlayer, int], T]
"""What one game gives back: ``produce(player, index)`` plays game ``index`` with ``player``."""

BACKENDS: Final = ("local", "ray")
CHUNK_MOST: Final = 64
"""Games a chunk holds at most: enough to make a trip to a worker cheap, few enough for a
progress bar that moves, and for memory that does not grow with the games (a chunk's results
are held until they are counted)."""


AHEAD: Final = 3
"""Chunks handed to each worker ahead of the one being counted: enough to keep every worker
busy, few enough that nothing piles up (a pool given every chunk at once holds a future for
each: 30 MB at a million games)."""


def chunks_of(games: int, workers: int) -> Iterator[range]:
    """The games ``0 .. games-1`` cut in chunks (at least eight per worker), made as needed."""
    size = max(1, min(CHUNK_MOST, games // (max(1, workers) * 8)))
    return (range(i, min(i + size, games)) for i in range(0, games, size))


class Backend(Protocol):
    """Plays chunks of a simulation's games and gives back each chunk's results, in order."""

    name: str
    workers: int

    def run(
        self, simulation: Simulation, produce: Produce[T], chunks: Iterable[range]
    ) -> Iterator[list[T]]: ...

    def close(self) -> None: ...


def make_backend(name: str = "local", workers: int = 1, address: str | None = None) -> Backend:
    """``local`` (``workers`` processes; 1: this process) or ``ray`` (on the cluster at
    ``address``, or a local Ray with ``workers`` CPUs)."""
    if workers < 1:
        raise InvalidOptions(f"--workers {workers}: a simulation needs at least 1 worker")
    if name == "local":
        if address is not None:
            raise InvalidOptions("--address is the address of a Ray cluster: give --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(workers, address)
    raise InvalidOptions(f"unknown backend {name!r}; the backends are: {', '.join(BACKENDS)}")


# ----------------------------------------------------------------------------- local


_player: GamePlayer | None = None


def _start_player(simulation: Simulation) -> None:
    global _player
    _player = GamePlayer(simulation)


def _play_chunk(produce: Produce[T], indices: range) -> list[T]:
    assert _player is not None
    return [produce(_player, index) for index in indices]


class LocalBackend:
    """Worker processes of this machine (at most one per core); 1 plays in this process."""

    name = "local"

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, min(workers, os.cpu_count() or 1))

    def run(
        self, simulation: Simulation, produce: Produce[T], chunks: Iterable[range]
    ) -> Iterator[list[T]]:
        simulation.check()
        if self.workers <= 1:
            player = GamePlayer(simulation)
            for indices in chunks:
                yield [produce(player, index) for index in indices]
            return
        with ProcessPoolExecutor(
            self.workers, initializer=_start_player, initargs=(simulation,)
        ) as pool:
            play = partial(_play_chunk, produce)
            pending: deque[Future[list[T]]] = deque()
            waiting = iter(chunks)
            for indices in islice(waiting, self.workers * AHEAD):
                pending.append(pool.submit(play, indices))
            while pending:
                done = pending.popleft().result()
                for indices in islice(waiting, 1):
                    pending.append(pool.submit(play, indices))
                yield done

    def close(self) -> None:
        pass


# ----------------------------------------------------------------------------- Ray


class RayBackend:
    """Ray actors, one per worker, each holding a :class:`GamePlayer`; chunks go to the free
    actors and come back in order (``ray.util.ActorPool.map``)."""

    name = "ray"

    def __init__(self, workers: int = 1, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise InvalidOptions(
                "--backend ray needs Ray: pip install 'courtly[cluster]'"
            ) from None
        self._ray: Any = ray
        self.address = address
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "configure_logging": False,
            }
            if address is None:
                options["num_cpus"] = workers
            else:
                options["address"] = address
            try:
                ray.init(**options)
            except Exception as error:  # an unreachable cluster, say
                where = address or "a local Ray"
                raise InvalidOptions(f"cannot start Ray on {where}: {error}") from None
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        # On a cluster, every CPU it has unless fewer were asked for; locally, as asked.
        self.workers = max(1, min(workers, cpus) if address is None else cpus)

    def run(
        self, simulation: Simulation, produce: Produce[T], chunks: Iterable[range]
    ) -> Iterator[list[T]]:
        simulation.check()
        ray = self._ray
        from ray.util import ActorPool

        player_class = ray.remote(num_cpus=1)(_RayPlayer)
        actors = [player_class.remote(simulation) for _ in range(self.workers)]
        try:
            pool: Any = ActorPool(actors)

            def play(actor: Any, indices: range) -> Any:
                return actor.play.remote(produce, indices)

            # A few chunks per actor in flight; results come back in the order submitted.
            waiting = iter(chunks)
            for indices in islice(waiting, self.workers * AHEAD):
                pool.submit(play, indices)
            while pool.has_next():
                done: list[T] = pool.get_next()
                for indices in islice(waiting, 1):
                    pool.submit(play, indices)
                yield done
        finally:
            for actor in actors:
                ray.kill(actor)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


class _RayPlayer:
    """A Ray actor's state: the game and its bots, built once."""

    def __init__(self, simulation: Simulation) -> None:
        self.player = GamePlayer(simulation)

    def play(self, produce: Produce[T], indices: range) -> list[T]:
        return [produce(self.player, index) for index in indices]
