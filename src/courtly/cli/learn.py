"""``courtly learn``: a newcomer's first game at the terminal, the game's tutorial
(:mod:`courtly.core.tutorial`): the learner at the tutorial's seat against its bots, on its
prepared deal and then on chance drawn from a seed, each of their first decisions explained just
before they are asked, in the same words the browser's tutorial shows.

Everything else is as ``courtly play`` has it: the story told from the learner's side, the
prompt and its commands (``hint`` among them), a bot's thinking shown, --save and the exit
statuses."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..agents.human import Ask, HumanAgent, Quit
from ..agents.registry import make_agent
from ..agents.terminal import Telling, card_console, print_told
from ..core.actions import Action, seat_text
from ..core.errors import InvalidOptions
from ..core.game import Agent, Game, GameInfo, State, View
from ..core.lessons import chance_outcome, lesson_words
from ..core.match import play_match
from ..core.registry import game_class, games, make
from ..core.replays import replay_record
from ..core.tutorial import Tutorial
from .shared import (
    SaveArg,
    Saving,
    ShownThinking,
    abandoned,
    clear_errors,
    print_end,
    print_typing_help,
)

ON_YOUR_OWN = (
    "That was the last lesson: you play on your own now. "
    "Type hint at any move for the best moves and their win chances."
)
"""Said once, at the learner's first decision after the lessons."""

LESSON_INDENT = 2
"""The words of a lesson sit under its heading, indented by this many columns."""


def learn_command(
    game: Annotated[
        str | None,
        typer.Argument(
            help="Game id, e.g. royal-gambit (without it: the games that teach a first game)."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed for the bots and for chance once the prepared deal is used up "
            "(default: random; printed)."
        ),
    ] = None,
    save: SaveArg = None,
) -> None:
    """Learn a game: your first game against bots, each of your first decisions explained.

    Exit status: 0 when the game was played to its end,
    3 when it was left unfinished (quit, end of input or Ctrl-C),
    2 on bad input (an unknown game, or one with no tutorial).
    """
    from .prompt import terminal_ask  # prompt_toolkit: only when a game is played

    console = card_console()
    if game is None:
        print_teaching_games(console)
        return
    with clear_errors():
        info, tutorial = teaching_game(game)
        the_game = make(info.id, players=tutorial.players, **dict(tutorial.options))
        teacher = Teacher(console, tutorial, terminal_ask(console, tutorial.learner))
        learner = HumanAgent(the_game, console, teacher.ask)
        specs, agents = seated(the_game, tutorial, Taught(learner, teacher), console)
        saving = Saving(save)
    if seed is None:
        seed = random.randrange(1_000_000)
    you = seat_text(tutorial.learner)
    bots = ", ".join(
        f"{seat_text(s)} {spec}" for s, spec in enumerate(specs) if s != tutorial.learner
    )
    console.print(f"[bold]{info.title}[/] · your first game · seed {seed} · you are {you}; {bots}")
    console.print(
        f"Before each of your first {tutorial.lessons} decisions, a lesson explains it.",
        highlight=False,
    )
    print_typing_help(console, hints=True)
    telling = Telling(the_game.num_players)

    def narrate(state: State, actor: int, item: Any) -> None:
        telling.tell(state, actor, item, learner.note if actor == tutorial.learner else None)
        for line in telling.lines(tutorial.learner, len(state.history)):
            print_told(console, line)

    try:
        record = play_match(
            the_game,
            agents,
            seed,
            observer=narrate,
            seats=specs,
            chance=lambda state, rng: chance_outcome(state, tutorial, rng),
        )
    except (Quit, KeyboardInterrupt):
        raise abandoned(console, saving) from None
    saving.keep(record)
    print_end(console, replay_record(record), specs)
    saving.tell(console)
    console.print(
        f"That was your first game of {info.title}. Play the next on your own with: "
        f"courtly play {info.id}",
        soft_wrap=True,
        highlight=False,
    )


# ------------------------------------------------------------------------------- the games


def teaching(infos: Sequence[GameInfo]) -> list[GameInfo]:
    """The games of ``infos`` that teach a first game."""
    return [info for info in infos if info.tutorial is not None]


def teaching_game(game_id: str) -> tuple[GameInfo, Tutorial]:
    """The game ``game_id`` and its tutorial, refused (naming the games that teach) when it is
    unknown or has none."""
    ids = ", ".join(info.id for info in teaching(games())) or "none yet"
    try:
        info = game_class(game_id).info
    except InvalidOptions:
        raise InvalidOptions(f"unknown game {game_id!r}; games that teach: {ids}") from None
    if info.tutorial is None:
        raise InvalidOptions(
            f"{info.title} has no tutorial yet (play it with: courtly play {info.id}); "
            f"games that teach: {ids}"
        )
    return info, info.tutorial


def print_teaching_games(console: Console) -> None:
    """``courtly learn`` alone: each game that teaches, with its summary, and how to start."""
    infos = teaching(games())
    if not infos:
        console.print("No game teaches a first game yet; see `courtly games` to play one.")
        return
    console.print("Games that teach you to play, in a first game against bots:")
    listing = Table.grid(padding=(0, 2))
    listing.add_column(no_wrap=True)
    listing.add_column()
    for info in infos:
        listing.add_row(f"  {info.id}", f"{info.title}: {info.summary}")
    console.print(listing, highlight=False)
    console.print(f"Start one with: courtly learn GAME (e.g. courtly learn {infos[0].id})")


# -------------------------------------------------------------------------------- the table


def seated(
    game: Game, tutorial: Tutorial, learner: Agent, console: Console
) -> tuple[list[str], list[Agent]]:
    """The seat specs (as the record names them) and the agents: the learner at its seat, the
    tutorial's bots at the others, in order."""
    bots = iter(tutorial.opponents)
    specs: list[str] = []
    agents: list[Agent] = []
    for seat in range(game.num_players):
        if seat == tutorial.learner:
            specs.append("human")
            agents.append(learner)
            continue
        spec = next(bots)
        specs.append(spec)
        who = f"{seat_text(seat)} ({spec.split(':')[0]})"
        agents.append(ShownThinking(make_agent(spec, game), console, who))
    return specs, agents


class Teacher:
    """What the terminal says to the learner about their decisions: before each of the first
    ``lessons``, its number and the game's words for it, printed just above the prompt (under
    the table and the moves they speak of); at the first decision after them, that the learner
    plays on their own.

    Its :meth:`ask` is the learner's prompt. A decision the terminal makes without asking (the
    only choice, or a move typed ahead) is still a lesson: :meth:`speak` tells it then."""

    def __init__(self, console: Console, tutorial: Tutorial, ask: Ask) -> None:
        self.console = console
        self.tutorial = tutorial
        self._ask = ask
        self._lesson: tuple[int, str] | None = None
        """The lesson due before the learner's next prompt: its number and words."""
        self._alone = False
        """Whether it is due to tell the learner they play on their own."""
        self._told_alone = False
        self.decisions = 0
        """The learner's decisions so far (lesson n is the n-th)."""

    def prepare(self, view: View) -> None:
        """The learner is about to make their next decision, seeing ``view``: what to tell them
        first, worked out from the view alone (:func:`lesson_words`)."""
        number = self.decisions + 1 if self.decisions < self.tutorial.lessons else None
        self.decisions += 1
        if number is not None:
            words = lesson_words(view)
            self._lesson = None if words is None else (number, words)
        elif not self._told_alone:
            self._alone = self._told_alone = True

    def ask(self, prompt: str, moves: Sequence[str] | None = None) -> str:
        if moves is not None:  # a move is asked for: the lesson comes first
            self.speak()
        return self._ask(prompt, moves)

    def speak(self) -> None:
        """Tell what is due, once."""
        if self._lesson is not None:
            number, words = self._lesson
            self._lesson = None
            self.console.print(f"Lesson {number} of {self.tutorial.lessons}", style="bold")
            indent = " " * LESSON_INDENT
            lines = textwrap.fill(
                words,
                self.console.width,
                initial_indent=indent,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
            # Cards and seats coloured as in the story; never read as markup.
            self.console.print(lines, markup=False)
        if self._alone:
            self._alone = False
            self.console.print(ON_YOUR_OWN, style="bold", highlight=False)


class Taught:
    """The learner's agent with the teacher beside it: each decision is prepared (its lesson)
    before the learner is asked, and a decision made without asking (the only choice, a move
    typed ahead) is told its lesson once it is made."""

    def __init__(self, learner: Agent, teacher: Teacher) -> None:
        self.learner = learner
        self.teacher = teacher

    def act(self, view: View, rng: random.Random) -> Action:
        self.teacher.prepare(view)
        action = self.learner.act(view, rng)
        self.teacher.speak()
        return action
