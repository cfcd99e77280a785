"""How much of Royal Gambit is luck: what even impossible knowledge wins against the heuristic.

The strength target of docs/ladders/README.md is for every game's search bot to beat its
heuristic 60-40 at two players; where a game's luck puts that out of reach, numbers should show
it. Royal Gambit hides nothing at a decision point but the order of the cards still to come, so
this script pits the heuristic against players who *know* that order, an advantage no fair
player can have:

* ``never busts``: sees the card it would flip before it decides; it stays whenever that card
  would bust it, and otherwise does what the heuristic does;
* ``never busts, takes safe points``: also hits whenever the next card is safe and scores (an
  A-5, or a King that doubles the row) while its row is worth less than ``--cap`` points
  (hitting every safe card instead builds rows that one forced Jack flip wipes out).

What they win is far more than better judgement of hit or stay can win a fair player, who only
knows the odds. The ladder (``docs/ladders/royal-gambit-2p.md``) and ``--budgets`` give what the
search reaches fairly.

A player's foresight comes from a copy of the match's chance generator: cards are drawn as
chance events one at a time (never pre-shuffled), so the copy draws exactly the card the game
will draw next. Seats alternate every game; intervals are 95% (Wilson).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

import courtly
from courtly.agents import make_agent
from courtly.core.actions import Action
from courtly.core.cards import ACE, KING, Card
from courtly.core.game import State, sample_chance
from courtly.games.royal_gambit.components import BUSTED, HIT_OR_STAY, RoyalGambitAction
from courtly.games.royal_gambit.rules import RoyalGambitState
from courtly.sim.ladder import run_ladder
from courtly.sim.stats import wilson_interval

Chooser = Callable[[State, int, random.Random, random.Random], Action]


def next_card(state: State, seat: int, chance: random.Random) -> tuple[Card | None, bool]:
    """The card ``seat`` would flip by hitting now (None: the deck is empty), and whether it
    would bust him, drawn with a copy of the match's chance generator."""
    probe = state.clone()
    probe.apply(seat, "hit")
    if not probe.is_chance:
        return None, False
    twin = random.Random()
    twin.setstate(chance.getstate())
    card = sample_chance(probe, twin)
    assert isinstance(probe, RoyalGambitState)
    return card, probe.status[seat] == BUSTED


def foresight(cap: int) -> Chooser:
    """Never busts on its own hit; hits on a safe scoring card while its row is under ``cap``."""
    heuristic = make_agent("heuristic", courtly.make("royal-gambit"))

    def choose(state: State, seat: int, chance: random.Random, rng: random.Random) -> Action:
        assert isinstance(state, RoyalGambitState)
        legal = state.legal_actions(seat)
        first = legal[0]
        assert isinstance(first, RoyalGambitAction)
        if first.decision == HIT_OR_STAY and len(legal) == 2:
            hit, stay = legal
            card, busts = next_card(state, seat, chance)
            if busts:
                return stay
            scores = card is not None and (card.rank in (ACE, 2, 3, 4, 5, KING))
            if scores and state.row_score(seat) < cap:
                return hit
        return heuristic.act(state.view(seat), rng)

    return choose


def versus_heuristic(chooser: Chooser, games: int, seed: int) -> tuple[float, float, float]:
    """The chooser's share of wins against the heuristic, seats alternating."""
    game = courtly.make("royal-gambit", players=2)
    heuristic = make_agent("heuristic", game)
    wins = 0.0
    for index in range(games):
        chance = random.Random(f"luck/{seed}/{index}")
        rng = random.Random(index)
        mine = index % 2
        state = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                sample_chance(state, chance)
                continue
            seat = state.to_move[0]
            if seat == mine:
                action = chooser(state, seat, chance, rng)
            else:
                action = heuristic.act(state.view(seat), rng)
            state.apply(seat, action)
        wins += state.returns()[mine]
    low, high = wilson_interval(wins, games)
    return wins / games, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4000, help="games per line")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cap",
        type=int,
        default=11,
        help="row points below which safe points are taken (11 and 12 win most of 0-17)",
    )
    parser.add_argument(
        "--budgets",
        default="",
        help="also play ismcts at these iteration budgets against the heuristic, e.g. 2000",
    )
    parser.add_argument("--search-games", type=int, default=400, help="games per search budget")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rows = [
        ("sees the next card: never busts", foresight(0)),
        ("sees the next card: never busts, takes points", foresight(args.cap)),
    ]
    print(f"{'Royal Gambit, 2 players, against the heuristic':<44}{'win rate':>10}  95% interval")
    for name, chooser in rows:
        rate, low, high = versus_heuristic(chooser, args.games, args.seed)
        print(f"{name:<44}{rate:>10.1%}  {low:.1%}-{high:.1%}")
    for budget in filter(None, args.budgets.split(",")):
        spec = f"ismcts:iterations={int(budget)}"
        result = run_ladder(
            "royal-gambit",
            ["heuristic", spec],
            2,
            args.search_games,
            seed=args.seed,
            workers=args.workers,
        )
        found = result.score(spec, "heuristic")
        assert found is not None
        rate, low, high = found
        think = 1000 * result.seconds_per_move(spec)
        print(f"{spec + f' ({think:.0f} ms/move)':<44}{rate:>10.1%}  {low:.1%}-{high:.1%}")


if __name__ == "__main__":
    main()
