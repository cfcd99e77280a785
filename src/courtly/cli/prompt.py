"""The prompt of ``courtly play``: a person's lines typed at a terminal, with prompt_toolkit's
line editing (arrows, Home/End, Ctrl-A/E, Ctrl-W ...), the seat's earlier moves recalled by Up,
and Tab completing the legal moves' texts and the commands, the way a shell completes (one
match is written out; several are written up to where they part, and listed on a second Tab).

Where stdin or stdout is not a terminal (input piped in, a test, a log kept with ``tee``), lines
are read as they come, as before (:func:`~courtly.agents.human.plain_ask`).

Each seat keeps its own history, for the whole run: at a shared screen, Up never shows one
person what another typed (a formation typed on one line names secret cards).

prompt_toolkit is imported with this module, which only ``courtly play`` imports, when it runs.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.shortcuts import CompleteStyle
from rich.console import Console

from ..agents.human import Ask, plain_ask


def is_interactive(console: Console) -> bool:
    """Whether a person types at a terminal that ``console`` writes to."""
    return sys.stdin.isatty() and console.is_terminal and not console.is_dumb_terminal


def terminal_ask(console: Console, seat: int) -> Ask:
    """How ``seat``'s person is asked: the editing prompt at a terminal, plain lines otherwise."""
    if not is_interactive(console):
        return plain_ask(console)
    return EditingPrompt(console, _HISTORIES.setdefault(seat, InMemoryHistory()))


_HISTORIES: dict[int, History] = {}
"""Each seat's lines typed at its move prompts, kept for the whole run."""


class EditingPrompt:
    """Lines read by prompt_toolkit: edited in place, recalled, completed."""

    def __init__(self, console: Console, history: History) -> None:
        self.console = console
        self.moves: PromptSession[str] = PromptSession(
            history=history,
            complete_style=CompleteStyle.READLINE_LIKE,
            complete_while_typing=False,
        )
        # A question (y/N, Enter to take the screen) is no move to recall with Up.
        self.questions: PromptSession[str] = PromptSession()

    def __call__(self, prompt: str, moves: Sequence[str] | None = None) -> str:
        message = ANSI(self._ansi(prompt))
        if moves is None:
            return self.questions.prompt(message)
        return self.moves.prompt(message, completer=MoveCompleter(moves))

    def _ansi(self, markup: str) -> str:
        """``markup`` as the console would print it (its colours as escape codes), for
        prompt_toolkit to draw as the prompt."""
        with self.console.capture() as captured:
            self.console.print(markup, end="")
        return captured.get()


class MoveCompleter(Completer):
    """Completes the whole line typed so far into a move's text or a command (in any case)."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = list(dict.fromkeys(words))

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        typed = document.text_before_cursor.lstrip()
        for word in self.words:
            if word.lower().startswith(typed.lower()) and word != typed:
                yield Completion(word, start_position=-len(typed))
