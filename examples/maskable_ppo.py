"""Train sb3-contrib's MaskablePPO on a Courtly game through the Gymnasium adapter, then
measure it against Courtly's bots with :func:`courtly.rl.evaluate`.

No wrapper of your own: the env's ``action_masks()`` is where MaskablePPO looks for the legal
actions, and ``observation="flat"`` gives the bounded ``Box`` that SB3's ``MlpPolicy`` takes.

    pip install 'courtly[rl,train]'       # sb3-contrib, Stable-Baselines3, PyTorch
    .venv/bin/python examples/maskable_ppo.py --game royal-gambit --steps 100000

It prints the win rate against ``--opponents`` before training (a uniform policy over the legal
actions) and after, with 95% Wilson intervals, and how many illegal actions were tried (none:
the mask keeps them out).
"""

from __future__ import annotations

import argparse
from functools import partial
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import courtly
import courtly.rl.gymnasium
from courtly.rl import evaluate


class IllegalActions(BaseCallback):
    """Counts the steps the env refused (``info["illegal_action"]``)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def _on_step(self) -> bool:
        infos: list[dict[str, Any]] = self.locals["infos"]
        self.count += sum("illegal_action" in info for info in infos)
        return True


def uniform(rng: np.random.Generator) -> Any:
    def act(observation: Any, mask: npt.NDArray[np.int8]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return act


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="royal-gambit")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--steps", type=int, default=100_000, help="training steps")
    parser.add_argument("--n-steps", type=int, default=2048, help="steps per PPO update")
    parser.add_argument("--test-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)  # small networks: threads cost more than they give
    # One env per seat, so the policy learns every seat (evaluate rotates it round the table);
    # the observation says which seat it holds.
    players = courtly.make(args.game, players=args.players).num_players
    env = DummyVecEnv(
        [
            partial(
                gymnasium.make,
                courtly.rl.gymnasium.env_id(args.game),
                players=players,
                seat=seat,
                opponents=args.opponents,
                observation="flat",
            )
            for seat in range(players)
        ]
    )
    common = {"players": args.players, "observation": "flat", "seed": 10_000}
    before = evaluate(
        uniform(np.random.default_rng(args.seed)),
        args.game,
        args.opponents,
        args.test_games,
        **common,
    )
    print(f"before training: {before}")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=64, seed=args.seed, verbose=0
    )
    illegal = IllegalActions()
    model.learn(total_timesteps=args.steps, callback=illegal)
    after = evaluate(model, args.game, args.opponents, args.test_games, **common)
    print(f"after {args.steps} steps: {after}")
    print(f"illegal actions tried in training: {illegal.count}")


if __name__ == "__main__":
    main()
