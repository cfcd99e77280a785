"""Information-set Monte Carlo tree search: a strong bot for every game, through views alone.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
Search"): every iteration draws a determinization of the searcher's information set with
``view.search_world(rng)`` (a ``view.determinize`` world whose history need not replay: a search
only plays on from it) and walks one shared tree with it, so statistics pool over all worlds
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

import functools
import gc
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence

from ..core.actions import Action
from ..core.draws import choice
from ..core.errors import InvalidOptions
from ..core.events import CHANCE
from ..core.game import Game, GameViews, SearchHooks, State, View, sample_chance
from ..core.options import OptionValue
from .interrupt import allow_interrupt


def search_hooks(game: Game) -> SearchHooks | None:
    """What ``game`` offers search bots (its heuristic), or None if it offers nothing."""
    make_hooks = game.info.search_hooks
    return None if make_hooks is None else make_hooks(game)


def default_options(game: Game, hooks: SearchHooks | None = None) -> dict[str, OptionValue]:
    """What an ``ismcts`` seat of ``game`` plays with where its spec names nothing.

    It builds on the game's :class:`SearchHooks` where there are some (``hooks``, read from the
    game if not given): heuristic rollouts to the game's ``rollout_depth``, a pull toward the
    heuristic's move, teammates by the convention, informed worlds where offered. ``depth`` is
    the default of heuristic rollouts; random rollouts play to the end unless a depth is given.
    """
    if hooks is None:
        hooks = search_hooks(game)
    guided = hooks is not None
    return {
        "iterations": 500,
        "seconds": 0.0,
        "c": 0.7,
        "rollout": "heuristic" if guided else "random",
        "depth": hooks.rollout_depth if hooks is not None else 0,
        "bias": 1.0 if guided else 0.0,
        "guard": 2.0 if guided else 0.0,
        "partner": "heuristic" if guided and game.teams() else "search",
        "worlds": "informed" if hooks is not None and hooks.informed_worlds else "uniform",
    }


class _Edge:
    """Statistics of one action of one seat at one node."""

    __slots__ = ("available", "reward", "seat", "square", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # whose value the edge collects: a path is its edges alone
        self.visits = 0
        self.reward = 0.0
        self.square = 0.0  # sum of squared rewards: the spread behind ``guard``
        self.available = 0

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    def variance_of_mean(self) -> float:
        if self.visits < 2:
            return 0.25  # the widest a value in [0, 1] can spread
        mean = self.reward / self.visits
        return max(self.square / self.visits - mean * mean, 0.0) / (self.visits - 1)


class _Node:
    __slots__ = ("children", "edges")

    def __init__(self, players: int) -> None:
        # By seat: the seat's edges by action id (None: never chosen here), None until the
        # seat chooses here. Lists, not dicts: read for every legal action at every step of
        # the walk, indexing costs less than a lookup (and a table of a few hundred slots
        # takes about the room of a dict of a dozen edges).
        self.edges: list[list[_Edge | None] | None] = [None] * players
        # What the searcher observed of a joint choice and the chance that followed -> node.
        # (The key of a single mover's step with no chance after it is the observation itself.)
        self.children: dict[Hashable | None, _Node] = {}


class RootStatistics:
    """What a search learned at its root (:meth:`ISMCTSAgent.root_statistics`,
    :meth:`ISMCTSAgent.playout_statistics`): per legal action of the searching seat (in the view's
    order) its visits and the sum and sum of squares of the seat's returns through it; over all
    iterations, each seat's sum and sum of squares of returns. Statistics of independent searches
    of one view add up (:meth:`add`)."""

    __slots__ = ("actions", "iterations", "reward", "square", "value_square", "value_sum", "visits")

    def __init__(self, actions: Sequence[Action], players: int) -> None:
        self.actions = list(actions)
        self.visits = [0] * len(self.actions)
        self.reward = [0.0] * len(self.actions)
        self.square = [0.0] * len(self.actions)
        self.iterations = 0
        self.value_sum = [0.0] * players
        self.value_square = [0.0] * players

    def record(self, returns: Sequence[float]) -> None:
        """Count one iteration that ended with ``returns``."""
        self.iterations += 1
        for seat in range(len(self.value_sum)):
            value = returns[seat]
            self.value_sum[seat] += value
            self.value_square[seat] += value * value

    def add(self, other: RootStatistics) -> None:
        """Pool ``other``, a search of the same view, into these statistics."""
        for index in range(len(self.actions)):
            self.visits[index] += other.visits[index]
            self.reward[index] += other.reward[index]
            self.square[index] += other.square[index]
        self.iterations += other.iterations
        for seat in range(len(self.value_sum)):
            self.value_sum[seat] += other.value_sum[seat]
            self.value_square[seat] += other.value_square[seat]

    def __reduce__(self) -> tuple[object, ...]:
        # Sent back from worker processes; a compiled class pickles through its fields.
        fields = (
            self.actions,
            self.visits,
            self.reward,
            self.square,
            self.iterations,
            self.value_sum,
            self.value_square,
        )
        return (_rebuilt_statistics, fields)


def _rebuilt_statistics(
    actions: list[Action],
    visits: list[int],
    reward: list[float],
    square: list[float],
    iterations: int,
    value_sum: list[float],
    value_square: list[float],
) -> RootStatistics:
    stats = RootStatistics(actions, len(value_sum))
    stats.visits, stats.reward, stats.square = visits, reward, square
    stats.iterations, stats.value_sum, stats.value_square = iterations, value_sum, value_square
    return stats


class ISMCTSAgent:
    """``ismcts``, ``ismcts:iterations=2000``, ``ismcts:seconds=0.5``, ``ismcts:rollout=random``.

    Out of the box it builds on the game's own heuristic bot where there is one: the heuristic
    plays the rollouts, and the search leaves the heuristic's move only on evidence (``bias``,
    ``guard``). With a small budget it plays like the heuristic; with more it improves on it.

    Its options are declared, with their help, in :func:`courtly.agents.registry.ismcts_bot`
    (``courtly games`` lists them); their defaults come from :func:`default_options`. Where they
    need the game's heuristic, they read its :class:`~courtly.core.bots.SearchHooks`
    (``GameInfo.search_hooks``):

    * ``rollout=heuristic``: the hooks' ``act`` plays the rollouts;
    * ``depth``: rollouts stop after this many steps (0: at the end), where the hooks'
      ``evaluate`` scores the position (equal shares without hooks); the default is the hooks'
      ``rollout_depth`` for heuristic rollouts (long games whose evaluation is good enough to
      stop early: more iterations per second), else 0;
    * ``bias``: at the root the heuristic's move scores ``bias / (visits + 1)`` more (progressive
      bias, Chaslot et al. 2008), so a small search starts from the heuristic's judgement;
    * ``guard``: the heuristic's move stays unless the search's pick beats it by more than
      ``guard`` standard errors: with a budget too small to tell close moves apart, noise cannot
      talk the bot out of a sound move;
    * ``partner=heuristic``, in a game of teams (Goths' clans): each teammate plays the hooks'
      ``act`` on that teammate's own view of the sampled world, by the team's convention and
      without the searcher's secrets; ``search`` searches for teammates like for rivals;
    * ``worlds=informed``: each world is drawn by the hooks' ``sample_world``, which weighs what
      the other seats' conventions give away (offered where ``informed_worlds`` is true);
      ``uniform`` draws with ``view.search_world``.
    """

    def __init__(
        self,
        game: Game,
        iterations: int = 500,
        seconds: float = 0.0,
        c: float = 0.7,
        rollout: str | None = None,
        depth: int | None = None,
        bias: float | None = None,
        guard: float | None = None,
        partner: str | None = None,
        worlds: str | None = None,
    ) -> None:
        if iterations < 1 and seconds <= 0:
            raise InvalidOptions("ismcts needs iterations >= 1 or seconds > 0")
        hooks = search_hooks(game)
        default = default_options(game, hooks)
        rollout = _one_of("rollout", rollout, default, ("heuristic", "random"))
        partner = _one_of("partner", partner, default, ("heuristic", "search"))
        worlds = _one_of("worlds", worlds, default, ("informed", "uniform"))
        if depth is None:
            depth = int(default["depth"]) if rollout == "heuristic" else 0
        if depth < 0:
            raise InvalidOptions(f"ismcts depth must be 0 (no cap) or more, not {depth}")
        self.game = game
        self.views = game.views  # what the searcher observes of each event, on every step
        self.num_players = game.num_players
        self.iterations = int(iterations)
        self.seconds = float(seconds)
        self.c = float(c)
        self.depth = int(depth)
        self.bias = float(default["bias"] if bias is None else bias)
        self.guard = float(default["guard"] if guard is None else guard)
        self.hooks = hooks
        """The game's search hooks: they score positions at the depth cap (if any)."""
        self.policy: SearchHooks | None = None
        """Who plays the rollouts: the hooks, or None for random rollouts."""
        if rollout == "heuristic":
            self.policy = _needed(hooks, game, "for ismcts rollouts")
        self.guide: SearchHooks | None = None
        """The heuristic whose move ``bias`` and ``guard`` favour."""
        if self.bias or self.guard:
            self.guide = _needed(hooks, game, "to bias ismcts toward")
        # Each seat's teammates who play by the team's convention inside the search.
        self.partners: dict[int, frozenset[int]] = {}
        self.convention: SearchHooks | None = None
        teams = list(game.teams().values())
        if partner == "heuristic" and teams:
            self.convention = _needed(hooks, game, "for ismcts partners")
            for team in teams:
                for seat in team:
                    self.partners[seat] = frozenset(team) - {seat}
        self.informed: Callable[[View, random.Random], State] | None = None
        """The hooks' world sampler, when ``worlds=informed``."""
        if worlds == "informed":
            if hooks is None or not hooks.informed_worlds:
                raise InvalidOptions(f"{game.id} has no heuristic that samples informed worlds")
            self.informed = hooks.sample_world
        self.last_iterations = 0  # how many iterations the last decision ran (for benchmarks)

    # ------------------------------------------------------------------------- decision

    def act(self, view: View, rng: random.Random) -> Action:
        informed = self.informed
        if informed is None:
            return self.search(view, view.search_world, rng)
        return self.search(view, functools.partial(informed, view), rng)

    def search(
        self, view: View, worlds: Callable[[random.Random], State], rng: random.Random
    ) -> Action:
        """The move for ``view``'s seat, searching over the states ``worlds(rng)`` draws.

        A bot passes ``view.search_world`` (what :meth:`act` does): every world is one the seat
        cannot tell from the real game. Analysis code may pass other samplers, e.g. the true
        state, to measure what perfect information would be worth.
        """
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        me = view.seat
        assert me is not None
        root = _Node(self.num_players)
        # The heuristic judges the searcher's real view (what the seat may know), with its own
        # random stream so that the search's draws stay the same whether or not it is asked.
        hint = (
            self.guide.act(view, random.Random(rng.random())).id if self.guide is not None else -1
        )
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else 0.0
        done = 0
        collecting = _pause_collector()
        try:
            while True:
                # Compiled, the loop would run no bytecode for its whole budget: let Ctrl-C in.
                allow_interrupt()
                self._iterate(root, worlds(rng), me, rng, hint)
                done += 1
                if deadline:
                    if time.perf_counter() >= deadline:
                        break
                elif done >= self.iterations:
                    break
        finally:
            _resume_collector(collecting)
        self.last_iterations = done
        edges = _edges_of(root, me)
        best = _most_visited(legal, edges, rng)
        mine = edges.get(best.id)
        theirs = edges.get(hint)
        if self.guard and best.id != hint and mine is not None and theirs is not None:
            spread = math.sqrt(mine.variance_of_mean() + theirs.variance_of_mean())
            if mine.mean() - theirs.mean() <= self.guard * spread:
                return next(a for a in legal if a.id == hint)
        return best

    def root_statistics(
        self, view: View, rng: random.Random, explore: float = 0.5
    ) -> RootStatistics:
        """What one search of this agent's budget learns at the root of ``view``: each of the
        seat's legal actions with its visits and the sum (and sum of squares) of the seat's
        returns through it, and the seat's returns over every iteration.

        The worlds are drawn as :meth:`act` draws them, from ``view`` alone. For estimates
        (:mod:`courtly.agents.estimates`) every action must be measured, not only the ones UCB
        favours: an iteration is given to the least visited action whenever it has fewer than
        ``explore / len(legal)`` of the iterations so far, so each ends with at least about that
        share, and UCB spends the rest as in :meth:`search`.
        """
        me = view.seat
        assert me is not None
        legal = list(view.legal_actions())
        informed = self.informed
        worlds: Callable[[random.Random], State] = (
            view.search_world if informed is None else functools.partial(informed, view)
        )
        # The heuristic's move gets the progressive bias, as in search(); with its own stream.
        hint = -1
        if self.guide is not None and len(legal) > 1:
            hint = self.guide.act(view, random.Random(rng.random())).id
        root = _Node(self.num_players)
        stats = RootStatistics(legal, self.num_players)
        share = explore / len(legal) if len(legal) > 1 else 0.0
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else 0.0
        done = 0
        collecting = _pause_collector()
        try:
            while True:
                allow_interrupt()
                forced = -1
                if share:
                    table = root.edges[me]
                    fewest = -1
                    for action in legal:
                        edge = None if table is None else table[action.id]
                        visits = 0 if edge is None else edge.visits
                        if fewest < 0 or visits < fewest:
                            fewest, forced = visits, action.id
                    if fewest >= share * done:
                        forced = -1
                stats.record(self._iterate(root, worlds(rng), me, rng, hint, forced))
                done += 1
                if deadline:
                    if time.perf_counter() >= deadline:
                        break
                elif done >= self.iterations:
                    break
        finally:
            _resume_collector(collecting)
        self.last_iterations = done
        edges = _edges_of(root, me)
        for index, action in enumerate(legal):
            edge = edges.get(action.id)
            if edge is not None:
                stats.visits[index] = edge.visits
                stats.reward[index] = edge.reward
                stats.square[index] = edge.square
        return stats

    def playout_statistics(self, view: View, rng: random.Random) -> RootStatistics:
        """Every seat's returns over this agent's budget of games played on, with no tree, from
        worlds drawn from ``view`` as :meth:`act` draws them: each a rollout as the search's (the
        rollout policy, to the rollout depth and the evaluation there).

        The mean is the value of the position under that fixed policy, as far as ``view``'s seat
        can tell: before a chance event it is the average of its values after each outcome, so
        the changes across chance events measure luck without the bias a search's own
        improvement would add (:mod:`courtly.agents.estimates`).
        """
        informed = self.informed
        worlds: Callable[[random.Random], State] = (
            view.search_world if informed is None else functools.partial(informed, view)
        )
        stats = RootStatistics((), self.num_players)
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else 0.0
        while True:
            allow_interrupt()
            world = worlds(rng)
            world.stop_noting_secrets()  # (a rollout asks no seat's view of it)
            stats.record(self._rollout(world, rng))
            if deadline:
                if time.perf_counter() >= deadline:
                    break
            elif stats.iterations >= self.iterations:
                break
        self.last_iterations = stats.iterations
        return stats

    # ------------------------------------------------------------------------- one iteration

    def _iterate(
        self,
        root: _Node,
        world: State,
        me: int,
        rng: random.Random,
        hint: int = -1,
        forced: int = -1,
    ) -> Sequence[float]:
        """One iteration in ``world``; the returns it backpropagated. ``forced`` (an action id)
        is the searcher's action at the root instead of UCB's pick (see :meth:`root_statistics`)."""
        node = root
        players = self.num_players
        actions = self.game.num_actions
        path: list[_Edge] = []  # the edges chosen on the way down
        c = self.c
        bias = self.bias
        partners = self.partners.get(me, _NOBODY)
        convention = self.convention
        views = self.views
        # Bound once: a game's views may be an interpreted subclass, so each call through
        # ``views`` would look the method up again.
        observed = views.observed
        logs = _LOGS
        if not partners:
            # Nothing here asks a seat's view of this world (a teammate playing the convention
            # would): its steps need not note who may know each event.
            world.stop_noting_secrets()
        if world.is_chance:
            self._resolve_chance(views, world, me, rng, [])
        while True:
            if world.is_terminal:
                final = world.returns()
                self._backpropagate(path, final)
                return final
            # The movers' choices, in the order of ``to_move`` (which holds until they are applied).
            movers = world.to_move
            chosen: list[Action] = []
            expanded = False
            edges = node.edges
            for seat in movers:
                if partners and seat in partners:
                    # A teammate plays the convention on his own view of this world.
                    assert convention is not None
                    chosen.append(convention.act(world.view(seat), rng))
                    continue
                table = edges[seat]
                if table is None:
                    table = edges[seat] = [None] * actions
                favored = hint if node is root and seat == me else -2  # progressive bias
                # The actions never chosen here, in the legal order (made at the first one).
                untried: list[Action] | None = None
                best: Action | None = None
                best_edge: _Edge | None = None
                best_score = -math.inf
                legal = world.legal_actions(seat)
                # Every game lists its actions in a tuple: compiled, a tuple is walked by
                # index, any other sequence through an iterator made for the walk.
                listed: tuple[Action, ...] = legal if isinstance(legal, tuple) else tuple(legal)
                for index in range(len(listed)):
                    action = listed[index]
                    # Read once: an action is an interpreted object, each read a lookup.
                    action_id = action.id
                    edge = table[action_id]
                    if edge is None:
                        if untried is None:
                            untried = [action]
                        else:
                            untried.append(action)
                        continue
                    available = edge.available + 1
                    edge.available = available
                    if untried is None:
                        visits = edge.visits
                        if available >= len(logs):
                            logs = _logs_past(available)
                        # math.sqrt named in full: compiled, it is a C call (an alias would be
                        # a Python call).
                        score = edge.reward / visits + c * math.sqrt(logs[available] / visits)
                        if action_id == favored:
                            score += bias / (visits + 1)
                        if score > best_score:
                            best_score, best, best_edge = score, action, edge
                if forced >= 0 and node is root and seat == me:
                    best, best_edge, fresh = _forced_edge(
                        table, world.legal_actions(seat), seat, forced
                    )
                    expanded = expanded or fresh
                elif untried is not None:
                    best = untried[0] if len(untried) == 1 else choice(rng, untried)
                    best_edge = table[best.id] = _Edge(seat)
                    best_edge.available = 1
                    expanded = True
                assert best is not None and best_edge is not None
                chosen.append(best)
                path.append(best_edge)
            # The child is keyed by what the searcher observes of the joint choice and of the
            # chance events that follow: its own actions, others' public actions, public draws.
            key: Hashable | None
            if len(movers) == 1:
                # One mover (most steps): with no chance after it, the key is what the searcher
                # observed, no tuple (one would be made, hashed and freed at every step); every
                # other key is a tuple.
                seat = movers[0]
                action = chosen[0]
                first = action.id if seat == me else observed(world, seat, action, me)
                world.apply_legal(seat, action)
                if world.is_chance:
                    seen: list[Hashable | None] = [first]
                    self._resolve_chance(views, world, me, rng, seen)
                    key = tuple(seen)
                else:
                    # (An observation that is a tuple itself is wrapped, as every key used to
                    # be, so that it cannot be taken for the key of several observations.)
                    key = (first,) if isinstance(first, tuple) else first
            else:
                seen = []
                for index in range(len(movers)):
                    seat = movers[index]
                    action = chosen[index]
                    seen.append(action.id if seat == me else observed(world, seat, action, me))
                    world.apply_legal(seat, action)
                if world.is_chance:
                    self._resolve_chance(views, world, me, rng, seen)
                key = tuple(seen)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node(players)
                expanded = True
            node = child
            if expanded:
                break
        returns = self._rollout(world, rng)
        self._backpropagate(path, returns)
        return returns

    @staticmethod
    def _resolve_chance(
        views: GameViews, world: State, me: int, rng: random.Random, seen: list[Hashable | None]
    ) -> None:
        """Sample every pending chance event, noting what the searcher would see of each."""
        while world.is_chance:
            outcome = world.sample_chance_outcome(rng)
            observation = views.observed(world, CHANCE, outcome, me)
            if observation is not None:
                seen.append(observation)
            # Drawn by the world itself: applied unchecked, as sample_chance applies it.
            world._apply_chance(outcome)
            world.history.append((CHANCE, outcome))

    def _rollout(self, world: State, rng: random.Random) -> Sequence[float]:
        policy = self.policy
        limit = self.depth
        if policy is None:
            world.playout(rng, limit)
        else:
            steps = 0
            while not world.is_terminal and (not limit or steps < limit):
                if world.is_chance:
                    sample_chance(world, rng)
                else:
                    seat = world.to_move[0]
                    # The rollout world is a sample, not the real game: the policy may read it
                    # whole, which leaks nothing real (what it sees was drawn by determinize).
                    # Its move comes off the legal list, so it needs no second check.
                    world.apply_legal(seat, policy.act(View(world, seat), rng))
                steps += 1
        if world.is_terminal:
            return world.returns()
        if self.hooks is not None:
            return self.hooks.evaluate(world)
        return [1.0 / self.num_players] * self.num_players

    @staticmethod
    def _backpropagate(path: list[_Edge], returns: Sequence[float]) -> None:
        for edge in path:
            value = returns[edge.seat]
            edge.visits += 1
            edge.reward += value
            edge.square += value * value


_NOBODY: frozenset[int] = frozenset()
"""The teammates of a seat that has none: most seats of most games."""

_LOGS: list[float] = [0.0]
"""``math.log(n)`` at index n (from 1), for UCB's exploration term: compiled, ``math.log`` is a
Python call (its arguments parsed from a tuple), a table read is not; it is the same value. A
published table is never changed (:func:`_logs_past` publishes a longer one), so searches in
several threads may read it while another grows it."""


def _logs_past(n: int) -> list[float]:
    """A table of logs reaching past ``n`` (:data:`_LOGS`, or a new one twice as long, then
    published): a search of N iterations makes about log2(N) of them in all."""
    global _LOGS
    logs = _LOGS
    if n < len(logs):
        return logs
    grown = logs + [math.log(k) for k in range(len(logs), max(2 * len(logs), n + 1))]
    _LOGS = grown
    return grown


def _pause_collector() -> bool:
    """Stop the cyclic garbage collector for a search; whether it was running.

    A search allocates a node and edges per iteration and keeps them all: the collector's
    passes, set off by those allocations, walk the whole growing tree again and again, finding
    nothing (the tree holds no cycles; worlds and rollouts are freed by their reference
    counts). Paused, a search makes no garbage it would have freed sooner but cycles, collected
    at the next pass after :func:`_resume_collector`."""
    running = gc.isenabled()
    if running:
        gc.disable()
    return running


def _resume_collector(running: bool) -> None:
    """Restart the collector if :func:`_pause_collector` stopped it."""
    if running:
        gc.enable()


def _edges_of(node: _Node, seat: int) -> dict[int, _Edge]:
    """``seat``'s edges at ``node`` by action id (empty where it never chose there)."""
    table = node.edges[seat]
    if table is None:
        return {}
    return {action_id: edge for action_id, edge in enumerate(table) if edge is not None}


def _most_visited(legal: Sequence[Action], edges: dict[int, _Edge], rng: random.Random) -> Action:
    """The most visited action, the robust choice; ties go to the higher mean value, then to
    ``rng`` (drawn from only when a tie remains, so untied searches draw nothing more)."""
    tied: list[Action] = []
    best_visits = -1
    best_mean = 0.0
    for action in legal:
        edge = edges.get(action.id)
        visits = -1 if edge is None else edge.visits
        mean = 0.0 if edge is None else edge.mean()
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            tied = [action]
            best_visits, best_mean = visits, mean
        elif visits == best_visits and mean == best_mean:
            tied.append(action)
    return tied[0] if len(tied) == 1 else choice(rng, tied)


def _forced_edge(
    table: list[_Edge | None], legal: Sequence[Action], seat: int, forced: int
) -> tuple[Action, _Edge, bool]:
    """The action of id ``forced`` among ``legal``, its edge (made if new: then the iteration
    expands), and whether it is new."""
    action = next(a for a in legal if a.id == forced)
    edge = table[forced]
    if edge is not None:
        return action, edge, False
    edge = table[forced] = _Edge(seat)
    edge.available = 1
    return action, edge, True


def _one_of(
    name: str, given: str | None, default: dict[str, OptionValue], allowed: tuple[str, str]
) -> str:
    """Option ``name`` as given, or its default; one of ``allowed``."""
    value = str(default[name]) if given is None else given
    if value not in allowed:
        raise InvalidOptions(f"ismcts {name} must be {allowed[0]} or {allowed[1]}, not {value!r}")
    return value


def _needed(hooks: SearchHooks | None, game: Game, purpose: str) -> SearchHooks:
    if hooks is None:
        raise InvalidOptions(f"{game.id} has no heuristic bot {purpose}")
    return hooks
