"""Playing a game's tutorial as a tutorial table does: the learner (a policy under test) against
the tutorial's bots, chance drawn from the prepared deal while it lasts, then at random; each of
the learner's coached decisions kept with the coach's words.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import courtly
from courtly.agents.registry import make_agent
from courtly.core.actions import Action
from courtly.core.game import State
from courtly.core.tutorial import Tutorial, lesson_number, prepared_outcome

Policy = Callable[[State, int, random.Random], Action]
"""How the learner chooses: the state, its seat, a random source."""


@dataclass
class Lesson:
    number: int
    coach: str | None
    legal: list[str]
    chosen: str


@dataclass
class Played:
    state: State
    lessons: list[Lesson] = field(default_factory=list)
    prepared: list[str] = field(default_factory=list)
    """The prepared outcomes met, in order, each applied when it was due."""


def tutorial_of(game_id: str) -> Tutorial:
    tutorial = courtly.make(game_id).info.tutorial
    assert tutorial is not None, f"{game_id} teaches no first game"
    return tutorial


def play_tutorial(game_id: str, learner: Policy, seed: int = 0, max_steps: int = 20_000) -> Played:
    """A whole tutorial game of ``game_id`` with the learner's moves chosen by ``learner``. A
    prepared outcome that is not a legal chance outcome when due fails (IllegalAction)."""
    tutorial = tutorial_of(game_id)
    game = courtly.make(game_id, players=tutorial.players, **dict(tutorial.options))
    rng = random.Random(seed)
    bots = {
        seat: make_agent(spec, game)
        for seat, spec in zip(
            (s for s in range(tutorial.players) if s != tutorial.learner),
            tutorial.opponents,
            strict=True,
        )
    }
    state = game.new_state()
    played = Played(state)
    for _ in range(max_steps):
        if state.is_terminal:
            return played
        if state.is_chance:
            text = prepared_outcome(tutorial, state.history)
            if text is None:
                state.apply_chance(state.sample_chance_outcome(rng))
            else:
                state.apply_chance(game.text.parse_chance(state, text))
                played.prepared.append(text)
            continue
        seat = state.to_move[0]
        if seat == tutorial.learner:
            number = lesson_number(tutorial, state.history)
            action = learner(state, seat, rng)
            if number is not None:
                legal = [str(a) for a in state.legal_actions(seat)]
                coach = game.text.coach(state, seat)
                played.lessons.append(Lesson(number, coach, legal, str(action)))
        else:
            action = bots[seat].act(state.view(seat), rng)
        state.apply(seat, action)
    raise AssertionError(f"the tutorial game did not end in {max_steps} steps")


def first_legal(state: State, seat: int, rng: random.Random) -> Action:
    return state.legal_actions(seat)[0]


def at_random(state: State, seat: int, rng: random.Random) -> Action:
    legal = state.legal_actions(seat)
    return legal[rng.randrange(len(legal))]


def like_the_bot(state: State, seat: int, rng: random.Random) -> Action:
    """The game's heuristic in the learner's seat."""
    return make_agent("heuristic", state.game).act(state.view(seat), rng)


def scripted(moves: Sequence[str], then: Policy = like_the_bot) -> Policy:
    """The learner plays ``moves`` (action texts) in order, then as ``then`` does."""
    left = list(moves)

    def policy(state: State, seat: int, rng: random.Random) -> Action:
        if left:
            return state.parse_action(seat, left.pop(0))
        return then(state, seat, rng)

    return policy


POLICIES: dict[str, Policy] = {
    "heuristic": like_the_bot,
    "first-legal": first_legal,
    "random": at_random,
}
