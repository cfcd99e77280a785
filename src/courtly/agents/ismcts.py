"""Information-set Monte Carlo tree search: a strong bot for every game, through views alone.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
Search"): every iteration draws a determinization of the searcher's information set with
``view.determinize(rng)`` and walks one shared tree with it, so statistics pool over all worlds
the searcher cannot tell apart. Selection uses UCB1 with *availability* counts (an action is only
compared over the iterations in which it was legal). Chance events are sampled on the way down;
the tree branches on what the searcher *observes* (``state.observed``): its own actions, other
seats' public actions and public chance outcomes (a card turned face up), never on what it cannot
see, so its in-tree decisions depend only on its information.

Simultaneous decisions are handled soundly: at a point where several seats must decide, each
seat selects from its own statistics, keyed by its own action only (decoupled UCT), so no seat's
choice is conditioned on another's; the tree branches on the joint choice. The searcher's view
already has other seats' pending choices removed, so they are re-chosen inside the search.

Returns are vectors (one value per seat, N players); each edge accumulates the value of the seat
that chose it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from ..core.actions import Action
from ..core.agent import Agent
from ..core.errors import InvalidOptions
from ..core.game import CHANCE, Game, State, View, sample_chance


class Evaluator(Protocol):
    """A game's estimate of each seat's chance to win from a (determinized) state."""

    def evaluate(self, state: State) -> Sequence[float]: ...


class _Edge:
    """Statistics of one action of one seat at one node."""

    __slots__ = ("available", "reward", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 0


class _Node:
    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.edges: dict[int, dict[int, _Edge]] = {}  # seat -> action id -> edge
        # What the searcher observed of a joint choice and the chance that followed -> node.
        self.children: dict[tuple[Hashable | None, ...], _Node] = {}


class ISMCTSAgent:
    """``ismcts:iterations=2000``, ``ismcts:seconds=0.5``, ``ismcts:rollout=heuristic:depth=30``.

    Options:
      iterations  search iterations per decision (default 1000; deterministic for a given seed)
      seconds     a time budget per decision instead (0 = use iterations)
      c           the UCB exploration constant (default 0.7; returns lie in [0, 1])
      rollout     ``random`` or ``heuristic`` (the game's own heuristic bot plays the rollouts)
      depth       cap on rollout steps (0 = play to the end); at the cap the game's heuristic
                  evaluation scores the position (equal shares if the game has none)
    """

    def __init__(
        self,
        game: Game,
        iterations: int = 1000,
        seconds: float = 0.0,
        c: float = 0.7,
        rollout: str = "random",
        depth: int = 0,
    ) -> None:
        if iterations < 1 and seconds <= 0:
            raise InvalidOptions("ismcts needs iterations >= 1 or seconds > 0")
        if rollout not in ("random", "heuristic"):
            raise InvalidOptions(f"ismcts rollout must be random or heuristic, not {rollout!r}")
        self.game = game
        self.iterations = int(iterations)
        self.seconds = float(seconds)
        self.c = float(c)
        self.depth = int(depth)
        self.num_players = game.num_players
        heuristic = game.info.agents.get("heuristic")
        self.policy: Agent | None = None
        if rollout == "heuristic":
            if heuristic is None:
                raise InvalidOptions(f"{game.id} has no heuristic bot for ismcts rollouts")
            self.policy = heuristic(game)
        # The heuristic's evaluation scores positions at the depth cap.
        bot = self.policy or (heuristic(game) if heuristic is not None else None)
        evaluate = getattr(bot, "evaluate", None)
        self.evaluate: Callable[[State], Sequence[float]] | None = evaluate
        self.last_iterations = 0  # how many iterations the last decision ran (for benchmarks)

    # ------------------------------------------------------------------------- decision

    def act(self, view: View, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        me = view.seat
        assert me is not None
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else 0.0
        done = 0
        while True:
            self._iterate(root, view.determinize(rng), me, rng)
            done += 1
            if deadline:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
        self.last_iterations = done
        edges = root.edges.get(me, {})
        # The most visited action is the robust choice; ties go to the higher mean value.
        return max(
            legal,
            key=lambda a: (
                edges[a.id].visits if a.id in edges else -1,
                edges[a.id].reward / edges[a.id].visits
                if a.id in edges and edges[a.id].visits
                else 0.0,
            ),
        )

    # ------------------------------------------------------------------------- one iteration

    def _iterate(self, root: _Node, world: State, me: int, rng: random.Random) -> None:
        node = root
        path: list[list[tuple[int, _Edge]]] = []
        c = self.c
        self._resolve_chance(world, me, rng, [])
        while True:
            if world.is_terminal:
                self._backpropagate(path, world.returns())
                return
            movers = world.to_move
            choices: list[tuple[int, Action, _Edge]] = []
            expanded = False
            for seat in movers:
                table = node.edges.get(seat)
                if table is None:
                    table = node.edges[seat] = {}
                legal = world.legal_actions(seat)
                untried: list[Action] = []
                best: Action | None = None
                best_edge: _Edge | None = None
                best_score = -math.inf
                for action in legal:
                    edge = table.get(action.id)
                    if edge is None:
                        untried.append(action)
                        continue
                    edge.available += 1
                    if not untried:
                        score = edge.reward / edge.visits + c * math.sqrt(
                            math.log(edge.available) / edge.visits
                        )
                        if score > best_score:
                            best_score, best, best_edge = score, action, edge
                if untried:
                    best = untried[0] if len(untried) == 1 else rng.choice(untried)
                    best_edge = table[best.id] = _Edge()
                    best_edge.available = 1
                    expanded = True
                assert best is not None and best_edge is not None
                choices.append((seat, best, best_edge))
            # The child is keyed by what the searcher observes of the joint choice and of the
            # chance events that follow: its own actions, others' public actions, public draws.
            seen: list[Hashable | None] = []
            for seat, action, _ in choices:
                seen.append(action.id if seat == me else world.observed(seat, action, me))
                world.apply(seat, action)
            path.append([(seat, edge) for seat, _, edge in choices])
            self._resolve_chance(world, me, rng, seen)
            key = tuple(seen)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
                expanded = True
            node = child
            if expanded:
                break
        self._backpropagate(path, self._rollout(world, rng))

    @staticmethod
    def _resolve_chance(
        world: State, me: int, rng: random.Random, seen: list[Hashable | None]
    ) -> None:
        """Sample every pending chance event, noting what the searcher would see of each."""
        while world.is_chance:
            outcome = world.sample_chance_outcome(rng)
            observation = world.observed(CHANCE, outcome, me)
            if observation is not None:
                seen.append(observation)
            world.apply_chance(outcome)

    def _rollout(self, world: State, rng: random.Random) -> Sequence[float]:
        policy = self.policy
        limit = self.depth
        steps = 0
        while not world.is_terminal:
            if limit and steps >= limit:
                if self.evaluate is not None:
                    return self.evaluate(world)
                return [1.0 / self.num_players] * self.num_players
            if world.is_chance:
                sample_chance(world, rng)
            else:
                seat = world.to_move[0]
                if policy is None:
                    action = rng.choice(world.legal_actions(seat))
                else:
                    # The rollout world is a sample, not the real game: the policy may read it
                    # whole, which leaks nothing real (what it sees was drawn by determinize).
                    action = policy.act(View(world, seat), rng)
                world.apply(seat, action)
            steps += 1
        return world.returns()

    @staticmethod
    def _backpropagate(path: list[list[tuple[int, _Edge]]], returns: Sequence[float]) -> None:
        for choices in path:
            for seat, edge in choices:
                edge.visits += 1
                edge.reward += returns[seat]


def make_ismcts(game: Game, **options: Any) -> ISMCTSAgent:
    return ISMCTSAgent(game, **options)
