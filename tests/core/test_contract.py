"""The engine contract (docs/architecture.md, sections "The engine contract" and "Tests and
benchmarks"), checked on every registered game and player count: a new game gets this whole
suite by registering itself."""

from __future__ import annotations

import json
import random
import re

import pytest

import courtly
from courtly.core import CHANCE, IllegalAction, State, games, load, make, replay, sample_chance
from courtly.core.actions import seat_text
from courtly.core.game import Game
from courtly.core.match import play_randomly
from courtly.core.story import Story, story_of

CASES = [(info.id, n) for info in games() for n in info.player_counts]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]
SEEDS = range(6)
STEP_LIMIT = 200_000


def playout(game: Game, seed: int, visit=None) -> State:  # type: ignore[no-untyped-def]
    """A random game; ``visit(state, rng)`` is called before every event."""
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(STEP_LIMIT):
        if state.is_terminal:
            return state
        if visit is not None:
            visit(state, rng)
        if state.is_chance:
            sample_chance(state, rng)
        else:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"no end after {STEP_LIMIT} steps")


def sampled_states(game: Game, seed: int, every: int = 7) -> list[State]:
    """Clones of states met along a random game, every ``every`` events, terminal one included."""
    found: list[State] = []

    def keep(state: State, rng: random.Random) -> None:
        if len(state.history) % every == 0:
            found.append(state.clone())

    found.append(playout(game, seed, keep))
    return found


def card_tokens(data: object) -> set[str]:
    # A rule id such as KC-9 (King's Court) is not the King of clubs.
    return set(
        re.findall(
            r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Za-z]|-[0-9])", json.dumps(data)
        )
    )


@pytest.fixture(params=CASES, ids=IDS)
def game(request: pytest.FixtureRequest) -> Game:
    game_id, players = request.param
    return make(game_id, players=players)


def test_game_facts_are_declared(game: Game) -> None:
    info = game.info
    assert info.id in [g.id for g in courtly.games()]
    assert info.title and info.summary and info.rules
    assert game.num_players in info.player_counts
    for index, action in enumerate(game.actions):
        assert action.id == index
    texts = [str(a) for a in game.actions]
    assert len({t.lower() for t in texts}) == len(texts), "action texts must be unique, case aside"
    # Words are lower case; cards are named by their text (7H, 10S, Jk) and seats as p2.
    card = re.compile(r"(?:10|[2-9JQKA])[SHDC]|Jk")
    for text in texts:
        assert text == text.strip() and "  " not in text
        for word in text.split():
            assert card.fullmatch(word) or word == word.lower(), f"{text!r}: {word!r}"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_end_with_a_proper_result(game: Game, seed: int) -> None:
    def check(state: State, rng: random.Random) -> None:
        if state.is_chance:
            assert state.to_move == ()
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node has outcomes"
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        else:
            assert state.to_move, "to_move is non-empty until the game ends"
            for seat in state.to_move:
                assert state.legal_actions(seat), f"p{seat} is to move but has no legal action"
                assert all(a is game.actions[a.id] for a in state.legal_actions(seat))
            idle = [s for s in range(game.num_players) if s not in state.to_move]
            assert all(not state.legal_actions(s) for s in idle)

    final = playout(game, seed, check)
    assert final.is_terminal and final.to_move == () and not final.is_chance
    returns = final.returns()
    assert len(returns) == game.num_players
    assert sum(returns) == pytest.approx(1.0)
    assert all(r >= 0 for r in returns)
    assert final.winners == tuple(s for s, r in enumerate(returns) if r > 0)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_fast_playouts_are_legal_games(game: Game, seed: int) -> None:
    # ``playout`` (search rollouts) skips the legality checks: its history must still replay
    # through the checked path to the same end, and a step cap must stop it where asked.
    state = game.new_state()
    steps = state.playout(random.Random(seed), max_steps=9)
    assert steps == len(state.history) <= 9
    assert steps == 9 or state.is_terminal
    state.playout(random.Random(seed + 100))
    assert state.is_terminal and sum(state.returns()) == pytest.approx(1.0)
    again = replay(game, state.history_text())
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_illegal_actions_raise_and_change_nothing(game: Game, seed: int) -> None:
    for state in sampled_states(game, seed, every=5):
        before = (
            state.to_json(),
            state.render(None),
            json.dumps(state.game.views.observation(state, None)),
        )
        attempts: list[tuple[object, object]] = [(game.num_players, "x"), (-1, 0)]
        if state.to_move:
            # A seat as a person might write it: a clear refusal, compiled or not.
            first = state.legal_actions(state.to_move[0])[0]
            attempts += [(seat_text(state.to_move[0]), first), (float(state.to_move[0]), first)]
            attempts += [(None, first)]
        if state.is_terminal or state.is_chance:
            attempts += [(s, a) for s in range(game.num_players) for a in game.actions[:2]]
        else:
            seat = state.to_move[0]
            legal = set(state.legal_actions(seat))
            attempts += [(seat, a) for a in game.actions if a not in legal]
            attempts += [(seat, "no such move"), (seat, 10**6), (seat, 3.5)]
            attempts += [
                (s, state.legal_actions(seat)[0])
                for s in range(game.num_players)
                if s not in state.to_move
            ]
        for seat, action in attempts:
            with pytest.raises(IllegalAction):
                state.apply(seat, action)
        for seat in ("p0", 0.0, -1, game.num_players):
            with pytest.raises(IllegalAction, match="not a seat of this game"):
                state.view(seat)
        if not state.is_chance:
            with pytest.raises(IllegalAction):
                state.apply_chance("AS")
        else:
            with pytest.raises(IllegalAction):
                state.apply_chance("not an outcome")
        assert (
            state.to_json(),
            state.render(None),
            json.dumps(state.game.views.observation(state, None)),
        ) == before


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_json_round_trip_and_replay_are_exact(game: Game, seed: int) -> None:
    for state in sampled_states(game, seed, every=11):
        text = state.to_json()
        loaded = load(text)
        assert loaded == state
        assert loaded.to_json() == text
        assert loaded.is_terminal == state.is_terminal and loaded.to_move == state.to_move
        assert loaded.returns() == state.returns()
        for seat in [None, *range(game.num_players)]:
            assert loaded.game.views.observation(loaded, seat) == state.game.views.observation(
                state, seat
            )
            assert loaded.render(seat) == state.render(seat)
        replayed = replay(game, state.history)
        assert replayed.game.views.observation(replayed, None) == state.game.views.observation(
            state, None
        )


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_same_seed_same_game(game: Game, seed: int) -> None:
    assert playout(game, seed).history_text() == playout(game, seed).history_text()


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_clone_is_independent(game: Game, seed: int) -> None:
    for state in sampled_states(game, seed, every=9):
        if state.is_terminal:
            continue
        snapshot = state.to_json()
        observed = json.dumps(state.game.views.observation(state, None))
        copy = state.clone()
        play_randomly(copy, random.Random(seed))
        assert state.to_json() == snapshot
        assert json.dumps(state.game.views.observation(state, None)) == observed


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_views_hold_no_secret_and_determinize_agrees(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    for state in sampled_states(game, seed, every=3):
        if state.is_chance:
            continue
        for seat in [None, *range(game.num_players)]:
            view = state.view(seat)
            obs = view.observation()
            assert obs == state.game.views.observation(state, seat)
            json.dumps(obs)  # JSON-able
            secrets = {str(c) for c in state.game.views.secret_cards(state, seat)}
            leaked = secrets & card_tokens(obs)
            assert not leaked, f"view of {seat} shows cards it may not know: {leaked}"
            assert not secrets & card_tokens(view.render()), "render leaks a secret card"
            legal = [str(a) for a in view.legal_actions()]
            if seat is not None and seat in state.to_move:
                assert legal == [str(a) for a in state.legal_actions(seat)]
            for _ in range(3):
                world = view.determinize(rng)
                assert isinstance(world, State)
                assert world.view(seat).observation() == obs, "determinize contradicts the view"
                if seat is not None and seat in world.to_move:
                    assert [str(a) for a in world.legal_actions(seat)] == legal
                play_randomly(world, rng)  # a determinized state is a playable state


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_a_view_cannot_change_the_game(game: Game, seed: int) -> None:
    for state in sampled_states(game, seed, every=13):
        if state.is_chance or state.is_terminal:
            continue
        seat = state.to_move[0]
        before = state.to_json()
        view = state.view(seat)
        world = view.determinize(random.Random(seed))
        play_randomly(world, random.Random(seed))
        assert state.to_json() == before


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_action_and_chance_texts_parse_back(game: Game, seed: int) -> None:
    for state in sampled_states(game, seed, every=4):
        if state.is_terminal:
            continue
        if state.is_chance:
            for outcome, _ in state.chance_outcomes():
                assert state.game.text.parse_chance(state, str(outcome)) == outcome
            continue
        for seat in state.to_move:
            for action in state.legal_actions(seat):
                assert state.parse_action(seat, str(action)) is action
                assert state.parse_action(seat, f"  {str(action).upper()} ") is action


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_chance_outcomes_have_stable_ids_and_distinct_texts(game: Game, seed: int) -> None:
    """Adapters number chance outcomes (OpenSpiel's chance nodes): every outcome met has an id
    below ``num_chance_outcomes`` that gives it back, of the same kind; at one chance point the
    ids and the texts are all different, and the probabilities add up to one."""
    space = game.chance_outcome_space
    assert len(space) == game.num_chance_outcomes > 0
    for outcome_id, outcome in enumerate(space):
        assert game.chance_outcome_id(outcome) == outcome_id

    def check(state: State, rng: random.Random) -> None:
        if not state.is_chance:
            return
        outcomes = state.chance_outcomes()
        ids = [game.chance_outcome_id(outcome) for outcome, _ in outcomes]
        assert len(set(ids)) == len(ids)
        assert len({str(outcome) for outcome, _ in outcomes}) == len(outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        for (outcome, _), outcome_id in zip(outcomes, ids, strict=True):
            back = game.chance_outcome_from_id(outcome_id)
            assert type(back) is type(outcome) and back == outcome

    playout(game, seed, check)  # (God Save The King draws by chance only now and then)
    for bad in (-1, game.num_chance_outcomes, True, "7H", 1.5):
        with pytest.raises(IllegalAction):
            game.chance_outcome_from_id(bad)


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_chance_outcomes_drive_a_game_as_sampling_does(game: Game, seed: int) -> None:
    """Every chance event resolved through ``chance_outcomes()`` and ``apply_chance`` (as
    OpenSpiel's API and a tree search walk chance nodes) replays a sampled game exactly: at each
    chance point the outcomes are the same, in the same order, with the same probabilities, and
    each answer is a fresh list the caller may change."""
    sampled = playout(game, seed)
    driven = game.new_state()
    for actor, item in sampled.history:
        if actor == CHANCE:
            outcomes = driven.chance_outcomes()
            again = driven.chance_outcomes()
            assert outcomes == again and outcomes is not again
            outcomes.reverse()
            assert driven.chance_outcomes() == again
            chosen = next(outcome for outcome, _ in again if outcome == item)
            # an equal outcome of the list, not the sampled instance: applied by its value
            driven.apply_chance(chosen)
        else:
            driven.apply(actor, item)
    assert driven.is_terminal
    assert driven.history == sampled.history
    assert driven.returns() == sampled.returns()


def test_history_marks_chance_events(game: Game) -> None:
    final = playout(game, 0)
    actors = {actor for actor, _ in final.history}
    assert actors <= {CHANCE, *range(game.num_players)}
    for actor, item in final.history_text():
        assert actor == "chance" or re.fullmatch(r"p\d", actor)
        assert item and item == item.strip()


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_observed_reveals_no_secret(game: Game, seed: int) -> None:
    """What ``observed`` tells a seat of a chance event may not name a card its view hides."""
    rng = random.Random(seed)
    state = game.new_state()
    while not state.is_terminal:
        if state.is_chance:
            outcome = state.sample_chance_outcome(rng)
            seen = {
                s: state.game.views.observed(state, CHANCE, outcome, s)
                for s in range(game.num_players)
            }
            state.apply_chance(outcome)
            for seat, observation in seen.items():
                if isinstance(outcome, courtly.Card) and outcome in state.game.views.secret_cards(
                    state, seat
                ):
                    assert observation is None, f"observed() shows p{seat} the secret {outcome}"
        else:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_actions_pickle_with_all_their_fields(game: Game) -> None:
    import pickle

    for action in game.actions:
        copy = pickle.loads(pickle.dumps(action))
        assert type(copy) is type(action) and copy == action
        slots = [n for cls in type(action).__mro__ for n in getattr(cls, "__slots__", ())]
        assert all(getattr(copy, n) == getattr(action, n) for n in slots)


class _Index:
    """An integer type that is not ``int``, as NumPy's are: it only has ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_an_action_is_a_value_whatever_its_source(game: Game, seed: int) -> None:
    """The listed action, its text, its id (of any integer type), an unpickled or JSON-decoded
    copy: each is accepted and leads to the same next state."""
    import pickle

    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy comes with the dev extras
        numpy = None
    for state in sampled_states(game, seed, every=6):
        if state.is_chance or state.is_terminal:
            continue
        seat = state.to_move[0]
        for action in state.legal_actions(seat)[:4]:
            expected = state.clone()
            expected.apply(seat, action)
            sources: list[object] = [
                action,
                str(action),
                json.loads(json.dumps(str(action))),
                action.id,
                _Index(action.id),
                pickle.loads(pickle.dumps(action)),
                game.action_from_id(_Index(action.id)),
            ]
            if numpy is not None:
                sources += [numpy.int64(action.id), numpy.int32(action.id)]
            for source in sources:
                copy = state.clone()
                copy.apply(seat, source)
                assert copy.to_json() == expected.to_json(), f"{source!r} of {action}"
                assert copy.history[-1][1] is game.actions[action.id]
            with pytest.raises(IllegalAction):
                state.apply(seat, True)
            with pytest.raises(IllegalAction):
                game.action_from_id(True)
            with pytest.raises(IllegalAction):
                game.action_from_id("1")


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_games_states_and_views_pickle(game: Game, seed: int) -> None:
    import pickle

    again = pickle.loads(pickle.dumps(game))
    assert again.config() == game.config() and repr(again) == repr(game)
    rng = random.Random(seed)
    for state in sampled_states(game, seed, every=17):
        copy = pickle.loads(pickle.dumps(state))
        assert copy.to_json() == state.to_json()
        assert copy.game.views.observation(copy, None) == state.game.views.observation(state, None)
        for seat in [None, *range(game.num_players)]:
            view = state.view(seat)
            shipped = pickle.loads(pickle.dumps(view))
            assert shipped.seat == view.seat
            assert shipped.observation() == view.observation()
            assert shipped.render() == view.render()
            assert shipped.log() == view.log()
            assert [str(a) for a in shipped.legal_actions()] == [
                str(a) for a in view.legal_actions()
            ]
            if not state.is_terminal and not state.is_chance:
                world = shipped.determinize(rng)
                play_randomly(world, rng)
                assert world.is_terminal


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_the_log_is_served_apart_and_by_increments(game: Game, seed: int) -> None:
    for state in sampled_states(game, seed, every=10):
        for seat in [None, *range(game.num_players)]:
            full = state.log(seat)
            assert len(full) == len(state.history)
            assert "log" not in state.game.views.observation(state, seat)
            view = state.view(seat)
            assert view.log() == full and view.version == len(state.history)
            for since in (0, len(full) // 2, len(full)):
                assert state.log(seat, since) == full[since:] == view.log(since)
            secrets = {str(c) for c in state.game.views.secret_cards(state, seat)}
            assert not secrets & card_tokens(full), "the log names a card the seat may not know"


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_a_log_read_by_increments_follows_every_reveal(game: Game, seed: int) -> None:
    """A reader that keeps each seat's log and asks only for what is new (``log_from``, then
    ``log(seat, start)``) holds exactly the full log at every step: an event revealed later (a
    simultaneous choice shown, every hand at the end) is sent again; a clone that reveals on
    its own does not disturb the original."""
    seats: list[int | None] = [*range(game.num_players), None]
    held: dict[int | None, list[list[str]]] = {seat: [] for seat in seats}
    resent = 0

    def read(state: State, rng: random.Random) -> None:
        nonlocal resent
        if rng.random() < 0.2:  # a clone played on does not change what the original says
            twin = state.clone()
            play_randomly(twin, rng, 5)
        for seat in seats:
            start = state.log_from(seat, len(held[seat]))
            assert start == state.view(seat).log_from(len(held[seat])) if seat is not None else True
            resent += start < len(held[seat])
            held[seat] = held[seat][:start] + state.log(seat, start)
            assert held[seat] == state.log(seat)

    final = playout(game, seed, read)
    read(final, random.Random(0))
    if game.info.hidden_information and final.is_terminal and seed == 0:
        assert resent or not any(item == "?" for _, item in final.log(0))


def test_seats_in_the_game_and_the_cap_are_declared(game: Game) -> None:
    state = playout(game, 0)
    assert set(state.active_seats) <= set(range(game.num_players))
    assert set(state.winners) <= set(range(game.num_players))
    assert isinstance(state.truncated, bool)
    assert state.view(0).truncated == state.truncated
    assert game.new_state().active_seats == tuple(range(game.num_players))


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_a_sampled_world_is_inside_the_seats_information(game: Game, seed: int) -> None:
    """A world drawn from a seat's view waits for the same seats as the truth, and that seat sees
    in it exactly what it sees in the truth: its observation, its legal actions, its picture, its
    log. And it is a proper state: its record replays to it."""
    rng = random.Random(seed)
    for state in sampled_states(game, seed, every=2):
        if state.is_chance or state.is_terminal:
            continue
        for seat in [None, *range(game.num_players)]:
            view = state.view(seat)
            for _ in range(2):
                world = view.determinize(rng)
                assert world.to_move == state.to_move
                assert world.view(seat).observation() == view.observation()
                assert world.render(seat) == view.render()
                assert world.log(seat) == view.log()
                if seat is not None:
                    assert [a.id for a in world.legal_actions(seat)] == [
                        a.id for a in view.legal_actions()
                    ]
                loaded = load(world.to_json())
                assert loaded.to_json() == world.to_json()
                assert loaded.to_move == world.to_move
                for other in [None, *range(game.num_players)]:
                    assert loaded.game.views.observation(
                        loaded, other
                    ) == world.game.views.observation(world, other)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_the_story_tells_each_seat_only_what_it_may_know(game: Game, seed: int) -> None:
    """Every event is told to every observer from its side: a line names no card the observer
    may not know once the event is over, and the story kept as the game goes is the one told
    again from its record."""
    rng = random.Random(seed)
    state = game.new_state()
    story = Story()
    observers: list[int | None] = [None, *range(game.num_players)]
    while not state.is_terminal:
        if state.is_chance:
            actor, item = CHANCE, state.sample_chance_outcome(rng)
        else:
            actor = state.to_move[0]
            item = rng.choice(state.legal_actions(actor))
        told = {seat: state.narrate(actor, item, seat) for seat in observers}
        story.tell(state, actor, item)
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)
        for seat in observers:
            secrets = {str(c) for c in state.game.views.secret_cards(state, seat)}
            leaked = secrets & card_tokens(told[seat] or "")
            assert not leaked, f"{seat} is told of cards it may not know: {leaked}: {told[seat]}"
    index = len(state.history) - 1
    for seat in observers:
        lines = [text for at, text in story.told_to(seat, game.num_players) if at == index]
        assert "\n".join(lines) == (told[seat] or "")
    again = story_of(game, state.history_text())
    assert again.lines == story.lines


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_coaching_tells_a_seat_only_what_its_view_determines(game: Game, seed: int) -> None:
    """A teacher's words to a seat are worked out from that seat's side: they are the same in
    every world the seat cannot tell from the truth, and they are words where the seat decides."""
    rng = random.Random(seed)
    for state in sampled_states(game, seed, every=3):
        if state.is_chance or state.is_terminal:
            continue
        for seat in range(game.num_players):
            words = game.text.coach(state, seat)
            if words is None:
                continue
            assert words.strip(), f"empty coaching for p{seat}"
            assert seat in state.to_move, f"p{seat} is coached while it has nothing to decide"
            for _ in range(2):
                world = state.view(seat).determinize(rng)
                assert game.text.coach(world, seat) == words
