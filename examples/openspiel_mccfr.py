"""Solve a tiny King's Court with OpenSpiel's outcome-sampling MCCFR, through the OpenSpiel game.

The OpenSpiel adapter registers every Courtly game with OpenSpiel (``courtly.rl.openspiel``);
``TINY`` names an option set whose whole tree a walk covers (two players, one turn each), so
OpenSpiel's ``exploitability`` measures how far the average policy is from a Nash equilibrium:

    .venv/bin/python examples/openspiel_mccfr.py [--iterations 20000] [--every 5000] [--seed 0]

It prints the exploitability of the uniform policy, then of MCCFR's average policy as it
learns, and the policy at the first decision (its information state in readable form).
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import exploitability, outcome_sampling_mccfr

from courtly.rl.openspiel import TINY, game_name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20000)
    parser.add_argument("--every", type=int, default=0, help="report every so many iterations")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    np.random.seed(args.seed)  # outcome sampling draws from NumPy's global generator

    parameters = {**TINY["kings-court"], "infostate": "readable"}
    game = pyspiel.load_game(game_name("kings-court"), parameters)
    print(f"{game}: {game.num_players()} players, {game.num_distinct_actions()} actions")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    print(f"exploitability {exploitability.exploitability(game, solver.average_policy()):.4f}")

    every = args.every or args.iterations
    for done in range(1, args.iterations + 1):
        solver.iteration()
        if done % every == 0 or done == args.iterations:
            value = exploitability.exploitability(game, solver.average_policy())
            print(f"exploitability {value:.4f} after {done} iterations")

    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    print(state.information_state_string(player))
    for action, probability in solver.average_policy().action_probabilities(state).items():
        print(f"  {state.action_to_string(player, action)}: {probability:.3f}")


if __name__ == "__main__":
    main()
