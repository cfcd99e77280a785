"""A person at the terminal, as an agent: sees the seat's view, types an action.

The table is printed when the person must decide; a forced move is played without asking, and
the story's line of it says it was the only choice (:class:`Telling`). What the person types at
its prompt (:class:`Ask`: the command line's editing prompt, or lines piped in) is read as a
move first (the game's own texts and shortcuts: ``10`` declares a 10 where ranks are moves),
then as a command (``?``, ``help``, ``board``, ``hint``, ``quit``), then as a menu number.
Where bare numbers are moves, the menu is shown without numbers, so the two never collide. The
menu is laid out to the terminal's width: in columns when it does not fit on one line, never
splitting an entry. ``hint`` lists the best moves with their estimated win chance, searched
from the seat's view alone (:mod:`courtly.agents.estimates`), unless the table turned hints
off. A move the game warns about (:meth:`View.caution`) and leaving a game in progress are
confirmed first. Bad input is explained and asked again; end of input or Ctrl-C raises
:class:`Quit`, which the command line turns into a clean exit.

Several people at one terminal (hot seat) share a :class:`Screen`: it is handed over, cleared
with its scrollback, only when another person must decide, and then shows that person what
happened since they last looked, told from their side.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape

from ..core.actions import Action, seat_text
from ..core.errors import IllegalAction
from ..core.game import Game, View
from .estimates import HINT_ITERATIONS, Budget, estimate
from .terminal import Telling, card_console, print_told, reflow

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"help", "h", "rules"})
LIST_WORDS = frozenset({"?", "list", "ls", "moves"})
BOARD_WORDS = frozenset({"board", "table", "show"})
HINT_WORDS = frozenset({"hint"})
HINT_SHOWN = 5
"""How many of the best actions a hint lists."""
YES_WORDS = frozenset({"y", "yes"})
COMMANDS = ("?", "help", "board", "hint", "quit")
"""The commands Tab completes at a move's prompt (each the word the opening line teaches)."""
MENU_GAP = "   "
"""Between two entries of the menu of moves."""
MENU_INDENT = "  "
"""Before each row of a menu of moves too long for the line that asks for a move."""

CLEAR_SCROLLBACK = "\x1b[3J"
"""Erases the terminal's scrollback (xterm and its kin), where the last hand would stay."""


class Quit(Exception):
    """The person asked to stop (end of input, Ctrl-C, or ``quit`` confirmed)."""


class Ask(Protocol):
    """Where a person's lines come from: the terminal's prompt, or a test's answers."""

    def __call__(self, prompt: str, moves: Sequence[str] | None = None) -> str:
        """The line typed after ``prompt`` (Rich markup). ``moves`` are given when it asks for a
        move: what Tab may complete; the line is then kept for Up to recall. Raises
        ``EOFError`` at the end of input and ``KeyboardInterrupt`` on Ctrl-C."""
        ...


def plain_ask(console: Console) -> Ask:
    """Lines read as they come, with no editing: input piped in, or a terminal without one."""

    def ask(prompt: str, moves: Sequence[str] | None = None) -> str:
        return console.input(prompt)

    return ask


class Screen:
    """The one terminal several people share in a hot-seat game.

    It knows how far each person's seat has read the story (:class:`Telling`, told from that
    seat's side, so only what it may see) and who holds the screen now.
    """

    def __init__(self, console: Console, seats: Iterable[int], telling: Telling) -> None:
        self.console = console
        self.telling = telling
        self.holder: int | None = None
        self.seen = dict.fromkeys(seats, 0)
        """The events each person's seat has been shown."""
        self.public_seen = 0
        """The events anyone has been shown: what everyone may see since is told at the end."""

    def ask_order(self, movers: tuple[int, ...]) -> Sequence[int]:
        """At a simultaneous point the person at the screen decides first: one handover less."""
        if self.holder in movers:
            return (self.holder, *(seat for seat in movers if seat != self.holder))
        return movers

    def look(self, seat: int, read: Ask, hand_over: bool = True) -> None:
        """Show ``seat`` what happened since it last looked; first hand the screen over (cleared,
        scrollback too) if another person holds it and ``hand_over``. Without ``hand_over``
        nothing is shown to a seat that does not hold the screen."""
        lines = self.telling.lines(seat, self.seen[seat])
        if self.holder != seat:
            if not hand_over:
                return
            first = self.holder is None
            self.clear()
            read(f"Pass the screen to {seat_text(seat)}, then press Enter ")
            self.clear()
            self.holder = seat
            if lines:
                heading = "So far:" if first else f"Since {seat_text(seat)} last looked:"
                self.console.print(f"[bold]{heading}[/]")
        for line in lines:
            print_told(self.console, line)
        self.seen[seat] = self.public_seen = self.telling.events

    def unseen_by_all(self) -> list[str]:
        """What everyone may see of the events since anyone last looked (the last ones of a
        game, told at its end)."""
        return self.telling.lines(None, self.public_seen)

    def clear(self) -> None:
        """Clear the screen and the scrollback, where the previous hand would still be."""
        self.console.clear()
        if self.console.is_terminal and not self.console.is_dumb_terminal:
            self.console.file.write(CLEAR_SCROLLBACK)
            self.console.file.flush()


class HumanAgent:
    """Prompts on the terminal for the seat's decision."""

    def __init__(
        self,
        game: Game,
        console: Console | None = None,
        ask: Ask | None = None,
        screen: Screen | None = None,
        hints: bool = True,
        hint_budget: Budget | None = None,
        hint_workers: int | None = None,
    ) -> None:
        self.game = game
        self.console = console or card_console()
        self.ask = ask or plain_ask(self.console)
        self.screen = screen
        self.hints = hints
        """Whether ``hint`` may be asked (``courtly play --no-hints`` turns it off)."""
        self.hint_budget = hint_budget or Budget(HINT_ITERATIONS)
        self.hint_workers = hint_workers
        self.typed_ahead: list[str] = []  # the rest of a line that meant several actions
        self.note: str | None = None
        """How the last move was chosen when the person did not type it at its prompt: the
        note the story's line of that move carries (``only choice``, ``typed ahead``)."""

    def act(self, view: View, rng: random.Random) -> Action:
        seat = view.seat
        assert seat is not None
        if self.typed_ahead:
            action = self._typed_ahead_move(view, seat)
            if action is not None:
                self.note = "typed ahead"
                return action
        legal = list(view.legal_actions())
        if len(legal) == 1:
            # Nothing to decide, and no table: the story's line of the move says it was the only
            # choice (to this seat alone: at a shared screen its move may be secret).
            self.note = "only choice"
            return legal[0]
        self._look(seat)
        self.note = None
        return self._decide(view, seat, legal)

    # ----------------------------------------------------------------------------- deciding

    def _decide(self, view: View, seat: int, legal: list[Action]) -> Action:
        who = seat_text(seat)
        numbered = not self._numbers_are_moves(view, len(legal))
        self.console.print()
        self.console.print(view.render(), markup=False)
        self._offer(who, legal, numbered)
        completions = [str(action) for action in legal] + [
            word for word in COMMANDS if self.hints or word not in HINT_WORDS
        ]
        while True:
            answer = self._read(f"{who}> ", completions).strip()
            if not answer:
                continue
            # A move first: where "10" is a move (a rank), it is never a menu number.
            action, rest, problem = self._parsed(view, answer)
            if action is None:
                if self._command(answer.lower(), view, who, legal, numbered):
                    continue
                action = self._menu_choice(answer, legal, numbered, problem)
                if action is None:
                    continue
            if not self._cautioned(view, action):
                self.console.print(f"[dim]Not played. {who}, choose again.[/]")
                continue
            # The rest of a line that meant several actions is played at this seat's next turns.
            self.typed_ahead = rest
            return action

    def _command(
        self, word: str, view: View, who: str, legal: list[Action], numbered: bool
    ) -> bool:
        """Carry out ``word`` if it is a command of the terminal; whether it was one."""
        if word in QUIT_WORDS:
            if self._confirm("Leave this game? It will not be finished. (y/N) "):
                raise Quit
            self.console.print("[dim]Going on.[/]")
        elif word in HELP_WORDS:
            rules = reflow(self.game.info.rules, self.console.width)
            self.console.print(rules, markup=False, highlight=False)
        elif word in LIST_WORDS:
            self._offer(who, legal, numbered)
        elif word in BOARD_WORDS:
            self.console.print(view.render(), markup=False)
        elif word in HINT_WORDS:
            self._hint(view, who)
        else:
            return False
        return True

    def _hint(self, view: View, who: str) -> None:
        """The best actions by their estimated win chance, from this seat's view alone."""
        if not self.hints:
            self.console.print("[dim]Hints are off at this table (courtly play --no-hints).[/]")
            return
        budget = self.hint_budget
        spent = f"{budget.seconds:g} s" if budget.seconds > 0 else f"{budget.iterations} searches"
        self.console.print(f"[dim]Thinking over {who}'s choices from what {who} can see...[/]")
        # Seeded by the position: asking again gives the same hint.
        found = estimate(view, budget, seed=view.version, workers=self.hint_workers)
        self.console.print(f"Hint for {who} (estimated win chance, 95% interval; {spent}):")
        width = max(len(found.text) for found in found[:HINT_SHOWN])
        for rank, action in enumerate(found[:HINT_SHOWN], 1):
            self.console.print(
                f"  {rank}. {escape(action.text.ljust(width))}  {action.mean:4.0%}  "
                f"({action.low:.0%}-{action.high:.0%})",
                highlight=False,
            )
        if len(found) > HINT_SHOWN:
            self.console.print(f"  [dim]... and {len(found) - HINT_SHOWN} more[/]")

    def _menu_choice(
        self, answer: str, legal: list[Action], numbered: bool, problem: str
    ) -> Action | None:
        """The menu entry numbered ``answer``, or None after saying why there is none."""
        if not (numbered and answer.isdigit()):
            self.console.print(f"[red]{escape(problem)}[/]", highlight=False)
            hint = "a number or a move" if numbered else "a move"
            self.console.print(f"[dim]Type {hint}; ? lists them, help shows the rules.[/]")
            return None
        number = int(answer)
        if not 1 <= number <= len(legal):
            self.console.print(f"[red]No choice {number}: pick 1 to {len(legal)}.[/]")
            return None
        return legal[number - 1]

    def _parsed(self, view: View, answer: str) -> tuple[Action | None, list[str], str]:
        """The move ``answer`` names (its first step, with the steps typed ahead), or the
        game's reason why it names none."""
        first, *rest = view.input_steps(answer) or [answer]
        try:
            return view.parse_action(first), rest, ""
        except IllegalAction as error:
            return None, [], str(error)

    @staticmethod
    def _numbers_are_moves(view: View, count: int) -> bool:
        """Whether a menu number from 1 to ``count`` would also be a move typed (a rank)."""
        for number in range(1, count + 1):
            try:
                view.parse_action(str(number))
            except IllegalAction:
                continue
            return True
        return False

    def _typed_ahead_move(self, view: View, seat: int) -> Action | None:
        """The next step of a line typed earlier, or None (the person is asked instead)."""
        step = self.typed_ahead.pop(0)
        try:
            action = view.parse_action(step)
        except IllegalAction as error:
            self.typed_ahead.clear()
            self._look(seat)
            self.console.print(f"[red]{escape(str(error))}[/]", highlight=False)
            return None
        if view.caution(action) is not None:
            self._look(seat)
        else:
            self._look(seat, hand_over=False)
        if not self._cautioned(view, action):
            self.typed_ahead.clear()
            return None
        return action

    def _cautioned(self, view: View, action: Action) -> bool:
        """Whether to play ``action``: yes, unless the game warns about it and the person,
        shown the warning, does not confirm."""
        warning = view.caution(action)
        if warning is None:
            return True
        self.console.print(f"[bold yellow]Careful:[/] {escape(warning)}")
        return self._confirm(f"Play {escape(str(action))} all the same? (y/N) ")

    def _confirm(self, question: str) -> bool:
        return self._read(question).strip().lower() in YES_WORDS

    # ----------------------------------------------------------------------------- the screen

    def _look(self, seat: int, hand_over: bool = True) -> None:
        if self.screen is not None:
            self.screen.look(seat, self._read, hand_over)

    def _offer(self, who: str, legal: list[Action], numbered: bool) -> None:
        """The moves, on the line that asks for one if they fit there, or else in columns below
        it: an entry is never split across lines."""
        head = f"{who}, your move:"
        texts = [str(action) for action in legal]
        if numbered:
            digits = len(str(len(legal)))
            entries = [
                (f"{i:>{digits}} {t}", f"[bold]{i:>{digits}}[/] {escape(t)}")
                for i, t in enumerate(texts, 1)
            ]
            inline = [f"[bold]{i}[/] {escape(t)}" for i, t in enumerate(texts, 1)]
            inline_width = sum(len(str(i)) + 1 + cell_len(t) for i, t in enumerate(texts, 1))
        else:
            entries = [(t, escape(t)) for t in texts]
            inline = [markup for _, markup in entries]
            inline_width = sum(cell_len(t) for t in texts)
        inline_width += len(MENU_GAP) * (len(texts) - 1)
        width = self.console.width
        if cell_len(head) + 1 + inline_width <= width:
            self.console.print(f"{head} {MENU_GAP.join(inline)}")
            return
        self.console.print(head)
        column = max(cell_len(plain) for plain, _ in entries)
        per_row = max(1, (width - len(MENU_INDENT) + len(MENU_GAP)) // (column + len(MENU_GAP)))
        for start in range(0, len(entries), per_row):
            row = entries[start : start + per_row]
            cells = [markup + " " * (column - cell_len(plain)) for plain, markup in row]
            self.console.print(MENU_INDENT + MENU_GAP.join(cells).rstrip())

    def _read(self, prompt: str, moves: Sequence[str] | None = None) -> str:
        try:
            return self.ask(prompt, moves)
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
