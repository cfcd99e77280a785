"""A person at the terminal, as an agent: sees the seat's view, types an action.

Legal actions are offered by number and by text; bad input is explained and asked again;
``help`` prints the rules summary; end of input or Ctrl-C raises :class:`Quit`, which the
command line turns into a clean exit.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.console import Console

from ..core.actions import Action, seat_text
from ..core.errors import IllegalAction
from ..core.game import Game, View
from .terminal import card_console


class Quit(Exception):
    """The person asked to stop (end of input, Ctrl-C, or ``quit``)."""


class HumanAgent:
    """Prompts on the terminal for the seat's decision."""

    def __init__(
        self,
        game: Game,
        console: Console | None = None,
        ask: Callable[[str], str] | None = None,
        hot_seat: bool = False,
    ) -> None:
        self.game = game
        self.console = console or card_console()
        self.ask = ask or self.console.input
        self.hot_seat = hot_seat
        self.typed_ahead: list[str] = []  # the rest of a line that meant several actions

    def act(self, view: View, rng: random.Random) -> Action:
        seat = view.seat
        assert seat is not None
        who = seat_text(seat)
        if self.hot_seat:
            # Hot seat: nobody else may see this seat's cards, so hand over the screen first.
            self.console.clear()
            self._read(f"Pass the screen to {who}, then press Enter ")
            self.console.clear()
        legal = list(view.legal_actions())
        if self.typed_ahead:
            step = self.typed_ahead.pop(0)
            try:
                action = view.parse_action(step)
                self.console.print(f"[dim]{who}:[/] {action}")
                return action
            except IllegalAction as error:
                self.typed_ahead.clear()
                self.console.print(f"[red]{error}[/]", highlight=False)
        self.console.print()
        self.console.print(view.render())
        if len(legal) == 1:
            self.console.print(f"[dim]{who}: only one choice, played for you:[/] {legal[0]}")
            return legal[0]
        self._offer(who, legal)
        while True:
            answer = self._read(f"{who}> ").strip()
            if not answer:
                continue
            lowered = answer.lower()
            if lowered in ("quit", "exit", "q"):
                raise Quit
            if lowered in ("help", "h", "rules"):
                self.console.print(self.game.info.rules, markup=False, highlight=False)
                continue
            if lowered in ("?", "list", "ls", "moves"):
                self._offer(who, legal)
                continue
            if lowered in ("board", "table", "show"):
                self.console.print(view.render())
                continue
            if answer.isdigit():
                number = int(answer)
                if 1 <= number <= len(legal):
                    return legal[number - 1]
                self.console.print(f"[red]No choice {number}: pick 1 to {len(legal)}.[/]")
                continue
            first, *rest = view.input_steps(answer) or [answer]
            try:
                action = view.parse_action(first)
            except IllegalAction as error:
                self.console.print(f"[red]{error}[/]", highlight=False)
                self.console.print(
                    "[dim]Type a number or an action; ? lists them, help shows the rules.[/]"
                )
                continue
            # The rest of a line that meant several actions is played at this seat's next turns.
            self.typed_ahead = rest
            return action

    def _offer(self, who: str, legal: list[Action]) -> None:
        choices = "   ".join(f"[bold]{i}[/] {a}" for i, a in enumerate(legal, 1))
        self.console.print(f"{who}, your move: {choices}")

    def _read(self, prompt: str) -> str:
        try:
            return self.ask(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
