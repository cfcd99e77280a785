"""Running a whole game between agents; its record (:mod:`.records`) replays it."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from .errors import IllegalAction, InvalidOptions
from .events import CHANCE, Event
from .game import Agent, Game, State, sample_chance
from .records import MatchRecord

EventObserver = Callable[[State, int, Any], None]
"""Called with (state before the event, actor, action or outcome) for every event of a match."""

ChanceDrawer = Callable[[State, random.Random], Any]
"""Chooses the outcome of the chance event due in a state, with the match's chance RNG (a
tutorial's prepared deal, :func:`courtly.core.lessons.chance_outcome`)."""


def agent_rngs(seed: int, count: int) -> list[random.Random]:
    """One RNG per seat, derived from the match seed and independent of the chance RNG."""
    return [random.Random(f"courtly/{seed}/seat/{seat}") for seat in range(count)]


def play_randomly(state: State, rng: random.Random, max_steps: int | None = None) -> int:
    """Play ``state`` on with uniformly random decisions and chance until the end (or
    ``max_steps``); returns the number of steps taken. The random playout of benchmarks, tests
    and search rollouts."""
    steps = 0
    while not state.is_terminal and (max_steps is None or steps < max_steps):
        if state.is_chance:
            sample_chance(state, rng)
        else:
            # At a simultaneous point the pending seats shrink one apply at a time.
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    return steps


def play_match(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    *,
    observer: EventObserver | None = None,
    seats: Sequence[str] = (),
    game_id: int = 0,
    ask_order: Callable[[tuple[int, ...]], Sequence[int]] | None = None,
    chance: ChanceDrawer | None = None,
) -> MatchRecord:
    """Play one game: ``random.Random(seed)`` resolves chance, each agent gets its own RNG derived
    from ``seed`` and sees only its seat's view. The record replays the game exactly.

    ``ask_order(to_move)`` may reorder the seats asked at a simultaneous point (a shared screen
    asks the person already at it first); their choices are applied in ``to_move`` order all the
    same, so the order of asking never changes the game or its record."""
    if len(agents) != game.num_players:
        raise InvalidOptions(
            f"{game.id} with {game.num_players} players needs {game.num_players} agents, got {len(agents)}"
        )
    chance_rng = random.Random(seed)
    rngs = agent_rngs(seed, game.num_players)
    state = game.new_state()
    think = [0.0] * game.num_players
    moves = [0] * game.num_players
    clock = time.perf_counter
    while not state.is_terminal:
        if state.is_chance:
            if observer is None and chance is None:
                sample_chance(state, chance_rng)
                continue
            if chance is None:
                outcome = state.sample_chance_outcome(chance_rng)
            else:
                outcome = chance(state, chance_rng)
            if observer is not None:
                observer(state, CHANCE, outcome)
            state.apply_chance(outcome)
            continue
        # At a simultaneous point every pending seat decides on a view taken before any of them
        # submits, so no seat's choice can depend on another's.
        movers = state.to_move
        choices: list[Event] = []
        for seat in movers if ask_order is None else ask_order(movers):
            start = clock()
            choices.append((seat, agents[seat].act(state.view(seat), rngs[seat])))
            think[seat] += clock() - start
            moves[seat] += 1
        if ask_order is not None:
            choices.sort(key=lambda choice: movers.index(choice[0]))
        for seat, action in choices:
            if observer is not None:
                observer(state, seat, action)
            try:
                state.apply(seat, action)
            except IllegalAction as error:
                raise IllegalAction(
                    f"agent of seat p{seat} ({type(agents[seat]).__name__}) chose badly: {error}"
                ) from None
    return state.record(
        seed=seed, seats=list(seats), game_id=game_id, think_seconds=think, moves=moves
    )
