"""Playing a game's tutorial as a tutorial table does: the learner (a policy under test) against
the tutorial's bots, chance drawn from the prepared deal while it lasts, then at random; each of
the learner's coached decisions kept with the coach's words. Beside it, what every game's coach
tests share: the learners, the walks through random games and the checks of the coach's words
(said to the seat that decides, in a few whole sentences, the same in every world the seat
cannot tell from the truth).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import courtly
from courtly.agents.registry import make_agent
from courtly.core.actions import Action
from courtly.core.events import CHANCE
from courtly.core.game import Game, State, known_state
from courtly.core.story import story_of
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
    prepared outcome that is not a legal chance outcome when due fails (IllegalAction); so does
    a lesson whose words would differ in a world the learner cannot tell from the truth."""
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
                # Its own rng: the worlds drawn must not change the game played.
                coach = check_the_seat_is_told_no_more(state, seat, random.Random(number))
                played.lessons.append(Lesson(number, coach, legal, str(action)))
        else:
            action = bots[seat].act(state.view(seat), rng)
        state.apply(seat, action)
    raise AssertionError(f"the tutorial game did not end in {max_steps} steps")


def first_legal(state: State, seat: int, rng: random.Random) -> Action:
    return state.legal_actions(seat)[0]


def last_legal(state: State, seat: int, rng: random.Random) -> Action:
    return state.legal_actions(seat)[-1]


def at_random(state: State, seat: int, rng: random.Random) -> Action:
    legal = state.legal_actions(seat)
    return legal[rng.randrange(len(legal))]


def like_the_bot(state: State, seat: int, rng: random.Random) -> Action:
    """The game's heuristic in the learner's seat."""
    return make_agent("heuristic", state.game).act(state.view(seat), rng)


def scripted(moves: Sequence[str], then: Policy = like_the_bot) -> Policy:
    """The learner's first decisions are ``moves`` (action texts), in order (one that is not
    legal when due fails); later ones are as ``then`` plays. The same policy plays any number
    of games: it counts the seat's decisions made so far."""

    def policy(state: State, seat: int, rng: random.Random) -> Action:
        made = sum(1 for actor, _ in state.history if actor == seat)
        if made < len(moves):
            return state.parse_action(seat, moves[made])
        return then(state, seat, rng)

    return policy


LEARNERS: list[tuple[Policy, int]] = [
    (like_the_bot, 0),
    (like_the_bot, 1),
    (first_legal, 0),
    (last_legal, 0),
    *[(at_random, seed) for seed in range(3)],
]
"""The learners a tutorial is tried with (a policy and a seed): the game's own bot (on two
seeds: the bots' own chances differ), always the first or the last legal move, and moves at
random (the random agent's choices)."""
LEARNER_IDS = [f"{policy.__name__}-{seed}" for policy, seed in LEARNERS]


def check_a_few_words(words: str | None, limit: int = 300) -> None:
    """The coach's words are said, in whole sentences, in ``limit`` characters at most."""
    assert words and len(words) <= limit, words
    # A sentence begins with a capital, a number or a name (2D, p1), never a lowercase word.
    assert re.match(r"[A-Z0-9]|p\d", words) and words[-1] in ".)", words


def check_the_deal(game_id: str, learner: Policy, seed: int, limit: int = 300) -> Played:
    """A tutorial game meets every prepared outcome, each one legal when it is due, and ends;
    each of the learner's first decisions is explained in a few words (``limit`` characters at
    most)."""
    played = play_tutorial(game_id, learner, seed)
    tutorial = tutorial_of(game_id)
    assert played.prepared == list(tutorial.deal)
    assert played.state.is_terminal
    decided = sum(1 for actor, _ in played.state.history if actor == tutorial.learner)
    lessons = min(decided, tutorial.lessons)  # a learner may lose before the last lesson
    assert [lesson.number for lesson in played.lessons] == list(range(1, lessons + 1))
    for lesson in played.lessons:
        check_a_few_words(lesson.coach, limit)
    return played


def told_to_learner(played: Played) -> list[str]:
    """The lines of the game's story the learner was told."""
    state = played.state
    story = story_of(state.game, state.history)
    return [text for _, text in story.told_to(0, state.num_players)]


def random_play(
    game: Game, seed: int, forced: Sequence[str] = (), policy: Policy = at_random
) -> Iterator[State]:
    """Each position of a game from its start to its end, as it is reached: where chance draws
    (the first outcomes ``forced``, then at random), where a seat decides (the first seat to
    move, as ``policy`` plays) and the end. The live state: read it before asking for the
    next, clone it to keep it."""
    state = game.new_state()
    rng = random.Random(seed)
    left = list(forced)
    while True:
        yield state
        if state.is_terminal:
            return
        if state.is_chance:
            if left:
                state.apply_chance(game.text.parse_chance(state, left.pop(0)))
            else:
                state.apply_chance(state.sample_chance_outcome(rng))
        else:
            seat = state.to_move[0]
            state.apply(seat, policy(state, seat, rng))


def random_positions(
    game: Game, seed: int, forced: Sequence[str] = (), policy: Policy = at_random
) -> list[State]:
    """Every position where a seat decides, in a game played by ``policy`` (at random unless
    told) whose first chance outcomes are ``forced``."""
    return [
        state.clone()
        for state in random_play(game, seed, forced, policy)
        if not (state.is_chance or state.is_terminal)
    ]


def positions_of(played: Played, events: int) -> list[State]:
    """The positions where a seat decides among the first ``events`` of a played game."""
    final = played.state
    state = final.game.new_state()
    found = []
    for actor, item in final.history[:events]:
        if state.to_move:
            found.append(state.clone())
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)
    return found


def check_the_seat_is_told_no_more(
    state: State, seat: int, rng: random.Random, worlds: int = 3
) -> str | None:
    """The coach's words to ``seat``, the same in the seat's own knowledge of the position (its
    redacted copy) and in ``worlds`` worlds it cannot tell from the truth."""
    text = state.game.text
    words = text.coach(state, seat)
    view = state.view(seat)
    assert text.coach(known_state(view), seat) == words
    for _ in range(worlds):
        assert text.coach(view.determinize(rng), seat) == words
    return words


def check_the_coach_knows_no_more(state: State, rng: random.Random, worlds: int = 3) -> None:
    """Each seat's coaching is the same in worlds the seat cannot tell from the truth."""
    for seat in range(state.num_players):
        check_the_seat_is_told_no_more(state, seat, rng, worlds)


def check_the_coach_speaks(state: State, limit: int = 300) -> bool:
    """The coach speaks, in a few words (``limit`` characters at most) that make whole
    sentences, to the seat that decides and to no other; whether it spoke."""
    spoke = False
    for seat in range(state.num_players):
        words = state.game.text.coach(state, seat)
        if seat in state.to_move:
            check_a_few_words(words, limit)
            spoke = True
        else:
            assert words is None, words
    return spoke
