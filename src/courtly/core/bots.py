"""The bot contract: what a game declares about its bots, and what it offers search bots.

A game names its own bots in its :class:`~courtly.core.game.GameInfo` (``bots``), each a
:class:`BotInfo` whose options are declared like game options (:class:`~courtly.core.options.Option`:
name, default, allowed values, help) and checked with the same clear errors. Generic bots
(``random``, ``ismcts``) are declared the same way in :mod:`courtly.agents.registry`.

A game helps search bots (ISMCTS) through :class:`SearchHooks`, which its heuristic bot
implements explicitly and which ``GameInfo.search_hooks`` names: a rollout policy (``act``), an
evaluation of a position where a rollout is cut off, and a sampler of worlds that may know more
than ``view.determinize`` (the other seats' conventions). Search reads these, never probes for
attributes.

A search that runs compiled calls :func:`allow_interrupt` between iterations, so that Ctrl-C
stops it at once (see there).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .options import Option, resolve_options

if TYPE_CHECKING:
    from .actions import Action
    from .agent import Agent
    from .game import Game, State, View


@dataclass(frozen=True)
class BotInfo:
    """One bot a seat can be given, e.g. ``heuristic`` or ``ismcts:iterations=2000``."""

    name: str
    factory: Callable[..., Agent]
    """Built as ``factory(game, **options)`` with the options a seat names, already checked and
    typed; the factory's own defaults, which ``options`` declares, apply to the rest (a default
    may depend on another option: ISMCTS's ``depth`` on its ``rollout``)."""
    summary: str
    options: tuple[Option, ...] = ()

    def build(self, game: Game, options: Mapping[str, object]) -> Agent:
        """The bot for ``game`` with ``options`` (text from a command line or typed values),
        checked like game options: :class:`InvalidOptions` names the allowed values, or the
        bot's options when one is unknown."""
        values = resolve_options(f"bot {self.name}", self.options, options)
        return self.factory(game, **{name: values[name] for name in options})

    def describe(self) -> dict[str, Any]:
        from .options import describe_options

        return {
            "name": self.name,
            "summary": self.summary,
            "options": describe_options(self.options),
        }


class SearchHooks(Protocol):
    """What a game offers search bots; its heuristic bot implements every part of it.

    ``act`` is the rollout policy: it is handed views of sampled worlds, which it may read whole
    (a sampled world is a guess drawn from the searcher's knowledge, not the real game).
    """

    rollout_depth: ClassVar[int]
    """Rollouts stop after this many steps and :meth:`evaluate` scores the position; 0 plays
    every rollout to the end."""
    informed_worlds: ClassVar[bool]
    """Whether :meth:`sample_world` knows more than ``view.determinize`` (so ISMCTS draws its
    worlds with it by default)."""

    def act(self, view: View, rng: random.Random) -> Action: ...

    def evaluate(self, state: State) -> Sequence[float]:
        """Each seat's chance to win from ``state`` (a full, sampled state), summing to 1."""
        ...

    def sample_world(self, view: View, rng: random.Random) -> State:
        """A state consistent with ``view``, drawn as the other seats' play suggests (or simply
        ``view.determinize(rng)``)."""
        ...


def allow_interrupt() -> None:
    """Nothing, on purpose: a compiled search calls it between iterations to let Ctrl-C in.

    Python runs its signal handlers (the one that raises ``KeyboardInterrupt``) only between
    the bytecodes of interpreted code. A search compiled by mypyc, whose rules and heuristic are
    compiled too, may run for its whole budget without a single bytecode, so Ctrl-C waited for
    the search to end. Entering this function runs a bytecode, and any pending handler with it;
    it costs a call (some 50 ns) per iteration. This module must therefore never be compiled
    (tests/agents/test_interrupt.py checks that the function is interpreted).
    """
