"""Many games between agents, seat-rotated, on local worker processes.

Game ``i`` of a simulation has its own seed derived from the simulation seed and ``i``, and its
own seat assignment (the agent list rotated by ``i``), so every game is the same whatever the
number of workers, and every agent plays every seat equally often.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..agents.registry import make_agent
from ..core.errors import InvalidOptions
from ..core.game import Agent, Game, SearchHooks
from ..core.match import EventObserver, play_match
from ..core.records import MatchRecord
from ..core.registry import make

if TYPE_CHECKING:
    from .backends import Backend


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation seeded ``seed`` (stable across machines)."""
    digest = hashlib.blake2b(f"courtly/{seed}/game/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def rotated(seats: Sequence[str], index: int) -> list[str]:
    """The seat assignment of game ``index``: seat ``s`` is played by ``seats[(s + index) % n]``."""
    n = len(seats)
    return [seats[(s + index) % n] for s in range(n)]


@dataclass(frozen=True)
class Simulation:
    """What to simulate: a game, its options, the agents of its seats, how many games."""

    game: str
    seats: tuple[str, ...]
    games: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    rotate: bool = True

    def make_game(self) -> Game:
        return make(self.game, players=len(self.seats), **self.options)

    def check(self) -> None:
        """Raise :class:`InvalidOptions` now, not in a worker, for a bad game, option or agent."""
        game = self.make_game()
        for spec in self.seats:
            make_agent(spec, game)
        if self.games < 1:
            raise InvalidOptions("the number of games must be at least 1")

    def seats_of(self, index: int) -> list[str]:
        return rotated(self.seats, index) if self.rotate else list(self.seats)


class GamePlayer:
    """Plays a simulation's games in one process (or Ray actor), building each agent once."""

    def __init__(self, simulation: Simulation) -> None:
        self.simulation = simulation
        self.game = simulation.make_game()
        self.agents: dict[str, Agent] = {}

    @cached_property
    def search_hooks(self) -> SearchHooks | None:
        """The game's search hooks (its heuristic's ``evaluate``), built once; None for a game
        without them."""
        make_hooks = self.game.info.search_hooks
        return make_hooks(self.game) if make_hooks is not None else None

    def agent(self, spec: str) -> Agent:
        if spec not in self.agents:
            self.agents[spec] = make_agent(spec, self.game)
        return self.agents[spec]

    def play(self, index: int, observer: EventObserver | None = None) -> MatchRecord:
        """Game ``index``; ``observer(state, actor, item)`` sees every event before it applies
        (the same game with or without one)."""
        seats = self.simulation.seats_of(index)
        return play_match(
            self.game,
            [self.agent(spec) for spec in seats],
            game_seed(self.simulation.seed, index),
            seats=seats,
            game_id=index,
            observer=observer,
        )


def record_of(player: GamePlayer, index: int) -> MatchRecord:
    """Game ``index``'s whole record (what ``simulate`` streams to its ``--out`` file)."""
    return player.play(index)


def run(
    simulation: Simulation,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> Iterator[MatchRecord]:
    """Yield the records of every game, in game order; ``progress(k)`` after each ``k`` games.
    ``backend``: where the games are played (default: ``workers`` local processes)."""
    from .backends import LocalBackend, chunks_of

    simulation.check()
    backend = backend or LocalBackend(workers)
    chunks = chunks_of(simulation.games, backend.workers)
    for records in backend.run(simulation, record_of, chunks):
        yield from records
        if progress is not None:
            progress(len(records))


# ----------------------------------------------------------------------------- many at once

Batch = tuple[int, int, int]
"""``(simulation index, first game, end game)``: a slice of one simulation's games."""

_batch_workers: dict[int, GamePlayer] = {}
_batch_simulations: Sequence[Simulation] = ()


def _init_batches(simulations: Sequence[Simulation]) -> None:
    global _batch_simulations
    _batch_simulations = simulations
    _batch_workers.clear()


def _play_batch(batch: Batch) -> tuple[Batch, list[MatchRecord]]:
    which, start, end = batch
    worker = _batch_workers.get(which)
    if worker is None:
        worker = _batch_workers[which] = GamePlayer(_batch_simulations[which])
    return batch, [worker.play(i) for i in range(start, end)]


class BatchRunner:
    """Plays slices of several simulations on one pool of workers, so that no core idles while
    a long pair of a ladder finishes. Results come back per batch (in any order); every game is
    still seeded by its simulation and index, so the records do not depend on the workers."""

    def __init__(self, simulations: Sequence[Simulation], workers: int = 1) -> None:
        for simulation in simulations:
            simulation.check()
        self.simulations = list(simulations)
        self.workers = max(1, min(workers, os.cpu_count() or 1))
        self._pool: ProcessPoolExecutor | None = None
        if self.workers == 1:
            _init_batches(self.simulations)

    def __enter__(self) -> BatchRunner:
        if self.workers > 1:
            self._pool = ProcessPoolExecutor(
                self.workers, initializer=_init_batches, initargs=(self.simulations,)
            )
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def play(self, batches: Sequence[Batch]) -> Iterator[tuple[Batch, list[MatchRecord]]]:
        if self._pool is None:
            for batch in batches:
                yield _play_batch(batch)
            return
        futures = [self._pool.submit(_play_batch, batch) for batch in batches]
        for future in as_completed(futures):
            yield future.result()
