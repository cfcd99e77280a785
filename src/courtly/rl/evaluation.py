"""A learned policy against Courtly's bots: whole games through the Gymnasium adapter, the
policy's seat rotated round the table, its wins with 95% Wilson intervals.

    from courtly.rl import evaluate

    result = evaluate(model, "royal-gambit", "heuristic", 200)   # model: MaskablePPO, ...
    print(result)            # win rate 41.5% [34.9%, 48.4%] over 200 games, per seat ...

``policy`` is either a function ``(observation, mask) -> action id`` or an object with
Stable-Baselines3's ``predict`` (given ``action_masks=`` when it takes them, as sb3-contrib's
MaskablePPO does; ``deterministic`` by default). The policy sees what the Gymnasium env gives its
seat (the ``observation`` form: ``"dict"`` or ``"flat"``) and nothing more; the bots see their
own seats' views. Game ``i`` puts the policy in seat ``i % players`` and is dealt from seed
``seed + i``, so two policies evaluated with the same arguments meet the same deals. A win is 1,
a shared win its share (the game's return), as in Courtly's tournaments.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.errors import InvalidOptions
from ..core.game import Game
from ..core.registry import make
from ..sim.stats import Tally

PolicyFunction = Callable[[Any, npt.NDArray[np.int8]], Any]


@dataclass(frozen=True)
class Evaluation:
    """How a policy fared: over all its games, and in each seat it held."""

    game: str
    players: int
    opponents: tuple[str, ...]
    overall: Tally
    seats: tuple[Tally, ...]
    truncated: int
    """Games stopped by the game's safety cap (scored as the cap scores them)."""

    @property
    def win_rate(self) -> float:
        return self.overall.rate

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return self.overall.interval

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "opponents": list(self.opponents),
            **self.overall.to_dict(),
            "seats": [tally.to_dict() for tally in self.seats],
            "truncated": self.truncated,
        }

    def __str__(self) -> str:
        low, high = self.interval
        lines = [
            f"{self.game} ({self.players} players) against {', '.join(self.opponents)}: "
            f"win rate {self.win_rate:.1%} [{low:.1%}, {high:.1%}] over {self.overall.games} games"
        ]
        for seat, tally in enumerate(self.seats):
            low, high = tally.interval
            lines.append(
                f"  seat p{seat}: {tally.rate:.1%} [{low:.1%}, {high:.1%}] over {tally.games}"
            )
        return "\n".join(lines)


def evaluate(
    policy: Any,
    game: str | Game,
    opponents: str | Sequence[str] = "random",
    n: int = 100,
    *,
    players: int | None = None,
    seed: int = 0,
    observation: str = "dict",
    deterministic: bool = True,
    **options: Any,
) -> Evaluation:
    """Play ``n`` games of ``game`` (an id with ``players`` and options, or a :class:`Game`),
    ``policy`` in one seat and the ``opponents`` bots (one spec, or one per other seat in seat
    order) in the others, the policy's seat rotating; an illegal action raises
    :class:`~courtly.IllegalAction`."""
    from .gymnasium import CourtlyEnv  # the adapter's library only once it is needed

    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidOptions(f"n is the number of games, a positive integer, not {n!r}")
    act = as_policy(policy, deterministic)
    if isinstance(game, Game):
        if players is not None or options:
            raise InvalidOptions("a Game carries its players and options: give none beside it")
        game_id, players, options = game.id, game.num_players, dict(game.options)
    else:
        game_id = game
    seated = make(game_id, players=players, **options).num_players
    tables = [
        CourtlyEnv(
            game_id,
            players,
            seat,
            opponents,
            illegal_action="raise",
            observation=observation,
            **options,
        )
        for seat in range(seated)
    ]
    overall = Tally()
    seats = tuple(Tally() for _ in tables)
    truncated = 0
    for index in range(n):
        seat = index % len(tables)
        table = tables[seat]
        seen, info = table.reset(seed=seed + index)
        while True:
            seen, reward, terminated, cut, info = table.step(act(seen, info["action_mask"]))
            if terminated or cut:
                break
        overall.add(reward)
        seats[seat].add(reward)
        truncated += bool(cut)
    specs = [opponents] * (len(tables) - 1) if isinstance(opponents, str) else list(opponents)
    return Evaluation(game_id, len(tables), tuple(specs), overall, seats, truncated)


def as_policy(policy: Any, deterministic: bool = True) -> Callable[[Any, Any], int]:
    """``policy`` as a function ``(observation, mask) -> action id``: a function as it is, a
    Stable-Baselines3 model through its ``predict``."""
    predict = getattr(policy, "predict", None)
    if callable(predict):
        masked = "action_masks" in inspect.signature(predict).parameters

        def through_predict(observation: Any, mask: Any) -> int:
            extra = {"action_masks": mask} if masked else {}
            action, _ = predict(observation, deterministic=deterministic, **extra)
            return int(action)

        return through_predict
    if callable(policy):
        return lambda observation, mask: int(policy(observation, mask))
    raise TypeError(
        "policy is a function (observation, mask) -> action id or has predict(), "
        f"not {type(policy).__name__}"
    )
