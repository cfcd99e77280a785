"""Honest bots: every agent of every game is handed its seat's view and nothing else.

A :class:`Witness` stands between the match runner and each agent. It fails the test when an
agent would be handed anything but a :class:`View` of the deciding seat whose state is a
redacted copy (never the live game) saying exactly what ``state.view(seat)`` says. The last test
hands a witness the live state itself, to show that the check can fail.
"""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.agents import agent_names, make_agent
from courtly.core import State, View, play_match
from courtly.core.game import Agent, known_state

# The human agent reads a terminal; it gets its view through the same runner (tests/cli).
BOT_SPECS = {"ismcts": "ismcts:iterations=8"}


class Witness:
    """Passes each call through to ``inner`` after checking what the runner hands over."""

    def __init__(self, inner: Agent, seat: int) -> None:
        self.inner = inner
        self.seat = seat
        self.live: State | None = None  # the game being played, as the runner's observer saw it
        self.calls = 0

    def observe(self, state: State, actor: int, item: object) -> None:
        self.live = state

    def act(self, view: View, rng: random.Random) -> courtly.Action:
        assert type(view) is View, f"an agent was handed a {type(view).__name__}, not a View"
        assert view.seat == self.seat, f"seat p{self.seat}'s agent got the view of {view.seat}"
        inside = known_state(view)
        if self.live is not None:
            assert inside is not self.live, "a view wraps the live game, not a redacted copy"
            assert view.observation() == self.live.view(self.seat).observation()
        self.calls += 1
        return self.inner.act(view, rng)


def _matches() -> list[tuple[str, int, str]]:
    cases = []
    for info in courtly.games():
        game = courtly.make(info.id)
        for name in agent_names(game):
            if name != "human":
                for players in sorted({info.min_players, info.default_players}):
                    cases.append((info.id, players, name))
    return cases


@pytest.mark.parametrize(("game_id", "players", "agent"), _matches())
def test_every_agent_is_handed_its_seats_view_only(game_id: str, players: int, agent: str) -> None:
    game = courtly.make(game_id, players=players)
    witnesses = [
        Witness(make_agent(BOT_SPECS.get(agent, agent), game), seat)
        for seat in range(game.num_players)
    ]

    def observer(state: State, actor: int, item: object) -> None:
        for witness in witnesses:
            witness.observe(state, actor, item)

    # A short game is enough for most; ISMCTS searches each move, so it plays one game only.
    for seed in range(1 if agent == "ismcts" else 3):
        for witness in witnesses:
            witness.live = None  # until the runner's observer shows the new game
        play_match(game, witnesses, seed, observer=observer)
    assert sum(w.calls for w in witnesses) > 0


def test_a_witness_fails_when_an_agent_is_handed_the_state() -> None:
    game = courtly.make("royal-gambit", players=2)
    state = game.new_state()
    while state.is_chance:
        courtly.sample_chance(state, random.Random(0))
    seat = state.to_move[0]
    witness = Witness(make_agent("random", game), seat)
    with pytest.raises(AssertionError, match="handed a RoyalGambitState"):
        witness.act(state, random.Random(0))  # type: ignore[arg-type]
