"""Self-play through the PettingZoo adapter: one policy in every seat, trained from each seat's
return, then measured against Courtly's bots with :func:`courtly.rl.evaluate`. NumPy only.

The loop is PettingZoo's own (``agent_iter``, ``last``, ``step``) on the flat observation,
the legal actions read from ``info["action_mask"]``; the policy is a linear softmax over the
legal actions trained by REINFORCE (every seat's moves pushed towards its own return minus the
fair share ``1 / players``).

    .venv/bin/python examples/pettingzoo_self_play.py --game royal-gambit --episodes 3000

It prints the win rate against ``--opponents`` before and after, with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from courtly.rl import evaluate
from courtly.rl.pettingzoo import env

Vector = npt.NDArray[np.float64]
Mask = npt.NDArray[np.int8]


class LinearPolicy:
    """Softmax over the legal actions of ``weights @ [observation, 1]``."""

    def __init__(self, observations: int, actions: int, rng: np.random.Generator) -> None:
        self.weights = np.zeros((actions, observations + 1))
        self.rng = rng

    def probabilities(self, observation: Vector, mask: Mask) -> Vector:
        logits = self.weights @ np.append(observation, 1.0)
        logits = np.where(mask == 1, logits, -np.inf)
        exp = np.exp(logits - logits.max())
        return exp / exp.sum()

    def sample(self, observation: Vector, mask: Mask) -> int:
        return int(self.rng.choice(len(mask), p=self.probabilities(observation, mask)))

    def push(self, observation: Vector, mask: Mask, action: int, step: float) -> None:
        """Move log pi(action) by ``step`` along its gradient."""
        inputs = np.append(observation, 1.0)
        grad = -np.outer(self.probabilities(observation, mask), inputs)
        grad[action] += inputs
        self.weights += step * grad


def self_play(table: AECEnv, policy: LinearPolicy, seed: int, learning_rate: float) -> None:
    """One game, every seat played by ``policy``, then each seat's moves reinforced."""
    table.reset(seed=seed)
    moves: dict[str, list[tuple[Vector, Mask, int]]] = {}
    returns: dict[str, float] = {}
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        if termination or truncation:
            returns[agent] = float(reward)
            table.step(None)
            continue
        vector = observation.astype(np.float64)
        action = policy.sample(vector, info["action_mask"])
        moves.setdefault(agent, []).append((vector, info["action_mask"], action))
        table.step(action)
    fair = 1.0 / len(returns)
    for agent, taken in moves.items():
        step = learning_rate * (returns[agent] - fair) / len(taken)
        for vector, mask, action in taken:
            policy.push(vector, mask, action, step)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="royal-gambit")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--test-games", type=int, default=400)
    parser.add_argument("--learning-rate", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    table = env(args.game, players=args.players, observation="flat")
    size = table.observation_space("p0").shape[0]
    policy = LinearPolicy(size, table.action_space("p0").n, np.random.default_rng(args.seed))

    def measured() -> str:
        return str(
            evaluate(
                lambda observation, mask: policy.sample(observation.astype(np.float64), mask),
                args.game,
                args.opponents,
                args.test_games,
                players=args.players,
                observation="flat",
                seed=10**6,  # test games apart from training games
            )
        )

    print(f"before self-play: {measured()}")
    for episode in range(args.episodes):
        self_play(table, policy, args.seed + episode, args.learning_rate)
    print(f"after {args.episodes} self-play games: {measured()}")


if __name__ == "__main__":
    main()
