"""Train a small policy on Royal Gambit through the Gymnasium adapter, with NumPy alone.

A reader's starting point for learning on Courtly games: a linear softmax policy over
the seat's observation vector, the illegal actions masked out, trained by REINFORCE with a
running baseline against the ``random`` bot, then measured against it over fresh games.

    .venv/bin/python examples/train_royal_gambit.py [--episodes 3000] [--seed 0]

It prints the win rate before and after training (the policy starts uniform, as random as its
opponent: about 50%).
"""

from __future__ import annotations

import argparse

import numpy as np
import numpy.typing as npt

from courtly.rl.gymnasium import CourtlyEnv

Vector = npt.NDArray[np.float64]


class LinearPolicy:
    """Softmax over legal actions of ``weights @ observation``."""

    def __init__(self, observations: int, actions: int) -> None:
        self.weights = np.zeros((actions, observations + 1))  # + a bias input

    def probabilities(self, observation: Vector, mask: npt.NDArray[np.int8]) -> Vector:
        logits = self.weights @ np.append(observation, 1.0)
        logits = np.where(mask == 1, logits, -np.inf)
        logits -= logits.max()
        exp = np.exp(logits)
        return exp / exp.sum()

    def gradient(self, observation: Vector, mask: npt.NDArray[np.int8], action: int) -> Vector:
        """d log pi(action) / d weights."""
        inputs = np.append(observation, 1.0)
        p = self.probabilities(observation, mask)
        grad = -np.outer(p, inputs)
        grad[action] += inputs
        return grad


def play(env: CourtlyEnv, policy: LinearPolicy, rng: np.random.Generator, seed: int):  # type: ignore[no-untyped-def]
    """One episode: the steps taken (observation, mask, action) and the final reward."""
    observation, _ = env.reset(seed=seed)
    steps = []
    while True:
        obs = observation["observation"].astype(np.float64)
        mask = observation["action_mask"]
        action = int(rng.choice(len(mask), p=policy.probabilities(obs, mask)))
        steps.append((obs, mask, action))
        observation, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return steps, float(reward)


def win_rate(env: CourtlyEnv, policy: LinearPolicy, games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    return sum(play(env, policy, rng, seed + i)[1] for i in range(games)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--test-games", type=int, default=1000)
    parser.add_argument("--learning-rate", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = CourtlyEnv("royal-gambit", players=2, opponents="random")
    size = env.observation_space["observation"].shape[0]
    policy = LinearPolicy(size, env.action_space.n)
    test_seed = 10**6  # test games apart from training games
    before = win_rate(env, policy, args.test_games, test_seed)
    print(f"before training: wins {before:.1%} of {args.test_games} games against random")

    rng = np.random.default_rng(args.seed)
    baseline = 0.5
    for episode in range(args.episodes):
        steps, reward = play(env, policy, rng, args.seed + episode)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        step = args.learning_rate * advantage / len(steps)  # per episode, however long
        for obs, mask, action in steps:
            policy.weights += step * policy.gradient(obs, mask, action)
        if (episode + 1) % 1000 == 0:
            print(f"  {episode + 1} episodes, running win rate {baseline:.1%}")

    after = win_rate(env, policy, args.test_games, test_seed)
    print(
        f"after {args.episodes} episodes: wins {after:.1%} of {args.test_games} games against random"
    )


if __name__ == "__main__":
    main()
