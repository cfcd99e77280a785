"""Running a whole game between agents, and the record that replays it."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .agent import Agent
from .errors import IllegalAction, InvalidOptions, ReplayError
from .game import CHANCE, Event, Game, State, replay, sample_chance

RECORD_FORMAT = "courtly-game/1"

EventObserver = Callable[[State, int, Any], None]
"""Called with (state before the event, actor, action or outcome) for every event of a match."""


def agent_rngs(seed: int, count: int) -> list[random.Random]:
    """One RNG per seat, derived from the match seed and independent of the chance RNG."""
    return [random.Random(f"courtly/{seed}/seat/{seat}") for seat in range(count)]


@dataclass
class MatchRecord:
    """A finished (or capped) game: everything needed to replay it exactly."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    history: list[list[str]]
    returns: list[float]
    seats: list[str] = field(default_factory=list)
    """The agent spec of each seat, e.g. ``["heuristic", "random"]``."""
    game_id: int = 0
    """The index of this game within a simulation."""
    think_seconds: list[float] = field(default_factory=list, compare=False)
    """Each seat's total thinking time (wall clock; not saved, so records stay reproducible)."""
    moves: list[int] = field(default_factory=list, compare=False)
    """Each seat's number of decisions."""

    @property
    def length(self) -> int:
        """Steps: chance events plus seat decisions."""
        return len(self.history)

    @property
    def decisions(self) -> int:
        return sum(1 for actor, _ in self.history if actor != "chance")

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game_id": self.game_id,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "returns": self.returns,
            "length": self.length,
            "history": self.history,
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchRecord:
        required = ("game", "options", "seed", "returns", "history")
        if not isinstance(data, dict):
            raise ReplayError("a game record is a JSON object")
        missing = [key for key in required if key not in data]
        if missing:
            raise ReplayError(
                f"a game record needs the keys {', '.join(required)}; missing {', '.join(missing)}"
            )
        history = data["history"]
        if not isinstance(history, list) or not all(
            isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)
            for e in history
        ):
            raise ReplayError("'history' must be a list of [actor, event] text pairs")
        return cls(
            game=str(data["game"]),
            players=int(data.get("players") or len(data["returns"])),
            options=dict(data["options"]),
            seed=int(data["seed"]),
            history=history,
            returns=[float(x) for x in data["returns"]],
            seats=[str(s) for s in data.get("seats", [])],
            game_id=int(data.get("game_id", 0)),
        )

    def make_game(self) -> Game:
        from .registry import make

        try:
            return make(self.game, players=self.players, **self.options)
        except InvalidOptions as error:
            raise ReplayError(str(error)) from None

    def replay(self) -> State:
        """The final state, rebuilt from the history; checks that it ends as recorded."""
        state = replay(self.make_game(), self.history)
        if state.is_terminal and [round(x, 9) for x in state.returns()] != [
            round(x, 9) for x in self.returns
        ]:
            raise ReplayError(
                f"the replay ends with returns {state.returns()}, the record says {self.returns}"
            )
        return state


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
) -> MatchRecord:
    """Play one game: ``random.Random(seed)`` resolves chance, each agent gets its own RNG derived
    from ``seed`` and sees only its seat's view. The record replays the game exactly."""
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
            if observer is not None:
                outcome = state.sample_chance_outcome(chance_rng)
                observer(state, CHANCE, outcome)
                state.apply_chance(outcome)
            else:
                sample_chance(state, chance_rng)
            continue
        # At a simultaneous point every pending seat decides on a view taken before any of them
        # submits, so no seat's choice can depend on another's.
        movers = state.to_move
        choices: list[Event] = []
        for seat in movers:
            start = clock()
            choices.append((seat, agents[seat].act(state.view(seat), rngs[seat])))
            think[seat] += clock() - start
            moves[seat] += 1
        for seat, action in choices:
            if observer is not None:
                observer(state, seat, action)
            try:
                state.apply(seat, action)
            except IllegalAction as error:
                raise IllegalAction(
                    f"agent of seat p{seat} ({type(agents[seat]).__name__}) chose badly: {error}"
                ) from None
    return MatchRecord(
        game=game.id,
        players=game.num_players,
        options=dict(game.options),
        seed=seed,
        history=state.history_text(),
        returns=state.returns(),
        seats=list(seats),
        game_id=game_id,
        think_seconds=think,
        moves=moves,
    )
