"""The declared bot contract: every bot's options declared like game options and checked with
the same clear errors; each game's default bot and search hooks declared, and read as declared."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import courtly
from courtly.agents import bots_for, make_agent
from courtly.agents.ismcts import ISMCTSAgent, default_options, search_hooks
from courtly.agents.registry import AgentSpec, find_bot
from courtly.core import InvalidOptions, Option, sample_chance
from courtly.core.game import BotInfo
from courtly.core.match import play_randomly

GAMES = [info.id for info in courtly.games()]
REAL_GAMES = [game_id for game_id in GAMES if not game_id.startswith("test-")]


def bot_options() -> list[tuple[str, str, str]]:
    """(game, bot, option) for every declared option of every bot of every game."""
    cases: list[tuple[str, str, str]] = []
    for game_id in GAMES:
        for bot in bots_for(courtly.make(game_id)):
            cases.extend((game_id, bot.name, option.name) for option in bot.options)
    return cases


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_every_game_offers_random_heuristic_ismcts_and_human(game_id: str) -> None:
    names = [bot.name for bot in bots_for(courtly.make(game_id))]
    assert names == ["random", "heuristic", "ismcts", "human"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_default_bot_is_one_the_game_offers(game_id: str) -> None:
    game = courtly.make(game_id)
    default = game.info.default_bot
    assert default in [bot.name for bot in bots_for(game)] and default != "human"
    assert make_agent(default, game) is not None


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_each_games_search_hooks_are_declared_and_complete(game_id: str) -> None:
    game = courtly.make(game_id)
    hooks = search_hooks(game)
    assert hooks is not None
    assert isinstance(hooks.rollout_depth, int) and hooks.rollout_depth >= 0
    assert isinstance(hooks.informed_worlds, bool)
    state = game.new_state()
    rng = random.Random(1)
    play_randomly(state, rng, max_steps=8)
    while not state.is_terminal and state.is_chance:
        sample_chance(state, rng)
    if state.is_terminal:
        pytest.skip("the game ended in a few random steps")
    seat = state.to_move[0]
    view = state.view(seat)
    world = hooks.sample_world(view, rng)
    assert world.to_move == state.to_move
    assert world.legal_actions(seat) == state.legal_actions(seat)
    assert hooks.act(view, rng) in state.legal_actions(seat)
    chances = hooks.evaluate(world)
    assert len(chances) == game.num_players and sum(chances) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_game_bots_declared_defaults_are_its_own(game_id: str) -> None:
    """A bot built with no options plays with the defaults it declares (each option is kept
    under its own name; read from the instance, which works compiled and pure alike)."""
    game = courtly.make(game_id)
    for bot in game.info.bots:
        agent = bot.factory(game)
        for option in bot.options:
            assert getattr(agent, option.name) == option.default, (bot.name, option.name)


@pytest.mark.parametrize("game_id", GAMES)
def test_ismcts_declares_the_defaults_it_plays_with(game_id: str) -> None:
    game = courtly.make(game_id)
    declared = {option.name: option.default for option in find_bot("ismcts", game).options}
    assert declared == default_options(game)
    agent = make_agent("ismcts", game)
    assert isinstance(agent, ISMCTSAgent)
    assert (agent.iterations, agent.seconds, agent.c) == (
        declared["iterations"],
        declared["seconds"],
        declared["c"],
    )
    assert (agent.depth, agent.bias, agent.guard) == (
        declared["depth"],
        declared["bias"],
        declared["guard"],
    )
    assert (agent.policy is not None) == (declared["rollout"] == "heuristic")
    assert (agent.informed is not None) == (declared["worlds"] == "informed")
    assert (agent.convention is not None) == (declared["partner"] == "heuristic")


def test_ismcts_defaults_follow_the_games_hooks() -> None:
    goths = default_options(courtly.make("goths-save-the-queen"))
    assert goths["depth"] == 8 and goths["partner"] == "heuristic" and goths["worlds"] == "informed"
    kings_court = default_options(courtly.make("kings-court"))
    assert kings_court["depth"] == 30 and kings_court["partner"] == "search"
    assert kings_court["worlds"] == "uniform" and kings_court["rollout"] == "heuristic"
    plain = default_options(courtly.make("test-sealed-bids"))
    assert plain["rollout"] == "random" and plain["bias"] == 0.0 and plain["guard"] == 0.0


def test_a_bad_option_value_is_refused_like_a_game_option() -> None:
    game = courtly.make("royal-gambit")
    with pytest.raises(InvalidOptions) as refused:
        make_agent("ismcts:iterations=lots", game)
    assert str(refused.value) == (
        "bot ismcts: option iterations must be an integer of at least 1, not 'lots'"
    )
    with pytest.raises(InvalidOptions, match=r"^bot heuristic: option caution must be a number"):
        make_agent("heuristic:caution=high", game)


@pytest.mark.parametrize(
    ("spec", "options"),
    [
        ("ismcts:itrations=5", "bias, c, depth, guard, iterations, partner, rollout, seconds"),
        ("heuristic:nerve=5", "its options are: caution"),
        ("random:seed=5", "its options are: none"),
    ],
)
def test_an_unknown_bot_option_names_the_bots_options(spec: str, options: str) -> None:
    with pytest.raises(InvalidOptions, match="unknown option") as refused:
        make_agent(spec, courtly.make("royal-gambit"))
    assert options in str(refused.value)


def test_an_unknown_bot_names_the_games_bots() -> None:
    with pytest.raises(InvalidOptions) as refused:
        make_agent("genius", courtly.make("royal-gambit"))
    assert "heuristic, human, ismcts, random" in str(refused.value)


@pytest.mark.parametrize(("game_id", "bot", "option"), bot_options())
@given(value=st.text(max_size=12))
def test_any_typed_option_value_builds_the_bot_or_is_refused_clearly(
    game_id: str, bot: str, option: str, value: str
) -> None:
    game = courtly.make(game_id)
    try:
        make_agent(AgentSpec(bot, {option: value}), game)
    except InvalidOptions as error:
        assert str(error).startswith(f"bot {bot}: option {option} must be") or (
            "no heuristic" in str(error)
        ), str(error)


def test_a_bot_gets_only_the_options_a_seat_names_checked_and_typed() -> None:
    given: list[dict[str, object]] = []

    def factory(game: courtly.Game, **options: object) -> courtly.Agent:
        given.append(options)
        return make_agent("random", game)

    bot = BotInfo(
        "test",
        factory,
        "A test bot.",
        (Option("depth", 3, "steps", minimum=0), Option("wise", False, "wise")),
    )
    game = courtly.make("royal-gambit")
    bot.build(game, {"depth": "7"})
    bot.build(game, {})
    assert given == [{"depth": 7}, {}]
    assert bot.describe() == {
        "name": "test",
        "summary": "A test bot.",
        "options": [
            {
                "name": "depth",
                "default": 3,
                "allowed": "an integer of at least 0",
                "help": "steps",
                "label": "Depth",
                "about": "steps",
            },
            {
                "name": "wise",
                "default": False,
                "allowed": "true or false",
                "help": "wise",
                "label": "Wise",
                "about": "wise",
            },
        ],
    }
