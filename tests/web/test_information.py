"""The information boundary of the server: every byte sent to a seat is made from
``state.view(seat)`` alone, and to a spectator from ``state.view(None)``.

Complete games of every registered game and player count (the test-only game included) are
played through the API: each seat is a person whose moves this test picks at random from what
that seat was sent (its pushed view, or now and then its REST view: the way a browser would),
while a WebSocket per seat and one for a spectator record every message they are pushed.
Tables whose seats are played by the server's bots are watched the same way. Once a game is
over, its record (GET .../record) gives the truth at every version, and every captured message
is checked against it:

(a) it is exactly what :func:`courtly.web.tables.seat_message` builds from the seat's view at
    that version (nothing else slipped in);
(b) it names no card of ``state.game.views.secret_cards(state, seat)``, in the observation, the log or anywhere;
(c) it is the same in worlds drawn from the seat's knowledge (``view.determinize``): a message
    that differed between two worlds the seat cannot tell apart would tell it which one is true;
(d) it is the same in worlds made without the game's view code: the true history with cards the
    seat never saw dealt or played otherwise (see :func:`check_exchanged_worlds`).

The seats also send illegal moves now and then: the reason they get back must be their view's
(a reason made from the whole state could name what the seat may not know). The table-level
parts of a message (seats, clocks, notices, mode, the deal's commitment) are no game information: the checks take them
from the message itself.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from courtly.core import Card, Game, IllegalAction, State, View, games, make
from courtly.core.events import CHANCE, parse_actor
from courtly.core.options import variant_words
from courtly.core.records import MatchRecord
from courtly.core.replays import replay_record
from courtly.core.story import Story, story_of
from courtly.core.tutorial import Tutorial
from courtly.web.people.sessions import COOKIE, CSRF_HEADER
from courtly.web.tables import Table, seat_message

from . import teaching

CASES = [(info.id, n) for info in games() for n in info.player_counts]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]

SHORT = {
    "royal-gambit": {"target_score": 12},
    "kings-court": {"track_length": 8},
    "crush-the-crown": {"hand_size": 15, "one_gov_card_per_build": False},
}
"""Options that keep the games short (the boundary is the same in a short game); any option
not named here keeps its default."""

WORLDS = 2
"""Worlds drawn from a seat's knowledge for each version and seat."""

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
# A rule id such as KC-3 is no card: a card's text is never followed by a hyphen and a digit.
CARD_TEXT = re.compile(
    r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Za-z]|-\d)|(?<![0-9A-Za-z])Jk\b"
)
JOKERS = (Card(52), Card(53))
DEADLINE = 120.0
"""Seconds a reader waits for the next message: generous, a hung push fails instead of hanging."""


# ---------------------------------------------------------------------------------- capture


@dataclass
class Captured:
    """One message a seat (``None``: a spectator) was sent, and how it was asked for."""

    seat: int | None
    since: int
    data: dict[str, Any]
    source: str


class Reader(threading.Thread):
    """Reads every message of one WebSocket until the game is over (or an error comes)."""

    def __init__(self, socket: WebSocketTestSession, seat: int | None) -> None:
        super().__init__(daemon=True)
        self.socket = socket
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.failure: BaseException | None = None
        self.done = False
        self.changed = threading.Condition()

    def run(self) -> None:
        try:
            while True:
                message = self.socket.receive_json()
                with self.changed:
                    self.messages.append(message)
                    self.changed.notify_all()
                if message.get("type") != "view" or message["status"] == "over":
                    return
        except BaseException as error:  # reported by the test, not lost in the thread
            self.failure = error
        finally:
            with self.changed:
                self.done = True
                self.changed.notify_all()

    def at(self, version: int) -> dict[str, Any]:
        """The seat's latest message once it shows ``version`` in play (or over)."""

        def found() -> dict[str, Any] | None:
            for message in reversed(self.messages):
                if message.get("version") == version and message.get("status") != "open":
                    return message
            return None

        with self.changed:
            self.changed.wait_for(lambda: self.done or found() is not None, timeout=DEADLINE)
            message = found()
        seen = [(m.get("version"), m.get("status")) for m in self.messages]
        assert message is not None, (
            f"the socket of {_who(self.seat)} never showed version {version} "
            f"(failure: {self.failure!r}; it was sent {seen})"
        )
        return message

    def captured(self) -> list[Captured]:
        """The messages, each with the log offset it was asked from: what the connection held
        (it may resume earlier, ``log_from``, when an event held was revealed since)."""
        found = []
        held = 0
        for message in self.messages:
            assert message.get("type") == "view", f"the socket of {_who(self.seat)} got {message}"
            assert message["log_from"] <= held
            found.append(Captured(self.seat, held, message, "websocket"))
            held = message["log_from"] + len(message["log"])
        return found


@dataclass
class Refusal:
    """An illegal move a seat sent, and the reason the server gave."""

    seat: int
    version: int
    action: str | int
    detail: str


@dataclass
class Watch:
    """A table being played, and everything its seats and a spectator were sent."""

    client: TestClient
    table: str
    game_actions: list[str]
    tokens: dict[int, str] = field(default_factory=dict)
    captured: list[Captured] = field(default_factory=list)
    readers: dict[int | None, Reader] = field(default_factory=dict)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    people: dict[int, dict[str, str]] = field(default_factory=dict)
    """The seats taken signed in: the headers of their person's browser (the session's cookie
    and CSRF token), which prove the seat in place of its token. Sent through the one client
    (whose event loop the server's hub wakes)."""

    def auth(self, seat: int) -> dict[str, str]:
        if seat in self.people:
            return self.people[seat]
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def move(self, seat: int, move: dict[str, Any]) -> Any:
        return self.client.post(
            f"/api/tables/{self.table}/moves", json=move, headers=self.auth(seat)
        )

    def view(self, seat: int | None, since: int) -> dict[str, Any]:
        headers = self.auth(seat) if seat is not None else {}
        params: dict[str, int] = {"since": since}
        if seat is not None:
            params["seat"] = seat
        response = self.client.get(f"/api/tables/{self.table}/view", params=params, headers=headers)
        assert response.status_code == 200, response.text
        data = response.json()
        self.captured.append(Captured(seat, since, data, "rest"))
        return cast(dict[str, Any], data)

    def listen(self, stack: ExitStack, seat: int | None) -> None:
        url = f"/api/tables/{self.table}/ws"
        signed_in = seat is not None and seat in self.people
        headers = self.people[seat] if signed_in and seat is not None else {}
        socket = stack.enter_context(self.client.websocket_connect(url, headers=headers))
        hello: dict[str, Any] = {"seat": seat, "since": 0}
        if seat is not None and not signed_in:
            hello["token"] = self.tokens[seat]
        socket.send_json(hello)
        reader = Reader(socket, seat)
        reader.start()
        self.readers[seat] = reader

    def try_illegal(self, seat: int, shown: dict[str, Any], rng: random.Random) -> None:
        """Send an illegal move of ``seat`` (an action of the game not legal now, by id or
        text, or text naming nothing): refused with 422 and the reason, which is checked too."""
        game_actions = self.game_actions
        legal = {action["id"] for action in shown["legal_actions"]}
        others = [i for i in range(len(game_actions)) if i not in legal]
        kind = rng.randrange(3)
        action: str | int
        if kind == 2 or not others:
            action = rng.choice(("xyzzy", "7Z", "p9", ""))
        else:
            action = rng.choice(others)
            if kind == 1:
                action = game_actions[action]
        move = {"seat": seat, "action": action, "version": shown["version"]}
        answer = self.move(seat, move)
        assert answer.status_code == 422, (move, answer.text)
        # The reason is given at the table's current version (the one shown, or later at a
        # simultaneous point, where others' hidden commitments do not make a choice stale).
        refused = answer.json()
        assert refused["version"] >= shown["version"]
        self.refusals.append(Refusal(seat, refused["version"], action, refused["detail"]))

    def summary(self) -> None:
        response = self.client.get(f"/api/tables/{self.table}")
        assert response.status_code == 200
        self.summaries.append(response.json())

    def finish(self) -> list[list[str]]:
        """Wait for every socket to see the end; returns the finished table's history."""
        for reader in self.readers.values():
            reader.join(DEADLINE)
            assert not reader.is_alive(), f"the socket of {_who(reader.seat)} never saw the end"
            assert reader.failure is None, (
                f"the socket of {_who(reader.seat)} failed: {reader.failure!r}"
            )
            self.captured.extend(reader.captured())
        response = self.client.get(f"/api/tables/{self.table}/record")
        assert response.status_code == 200, response.text
        record = MatchRecord.from_dict(response.json())
        assert replay_record(record).is_terminal
        return record.history


def create(
    client: TestClient,
    game_id: str,
    players: int,
    seats: list[dict[str, Any]],
    options: dict[str, Any],
) -> str:
    response = client.post(
        "/api/tables",
        json={
            "game": game_id,
            "players": players,
            "options": options,
            "seats": seats,
            "seed": players * 1000 + len(game_id),
        },
    )
    assert response.status_code == 201, response.text
    return cast(str, response.json()["id"])


# ---------------------------------------------------------------------------------- checking


@dataclass
class _Shown:
    """A stand-in for a :class:`Table`: the game state given, its story told again from its
    history (a world's own history, in a world), the table-level facts (seats, notices,
    mode...) as the message showed them."""

    id: str
    game: Game
    state: State
    status: str
    seats: list[dict[str, Any]]
    notices: list[dict[str, Any]]
    mode: str
    hints: bool
    rematch_id: str | None
    tutorial: bool = False
    rated: bool = False
    result: Any = None
    shown_deal: dict[str, Any] | None = None

    def deal(self) -> dict[str, Any] | None:
        return self.shown_deal

    @property
    def variant(self) -> list[str]:
        """The table's options in words, from the game itself (public: the table's options)."""
        return variant_words(self.game.info.options, self.game.config()["options"])

    @property
    def teaching(self) -> Tutorial | None:
        return self.game.info.tutorial if self.tutorial else None

    def told(self) -> Story:
        return story_of(self.game, self.state.history)

    def public_seats(self, _now: float) -> list[dict[str, Any]]:
        return self.seats


def expected_message(state: State, seat: int | None, since: int, sent: dict[str, Any]) -> Any:
    """What :func:`seat_message` builds for ``seat`` from ``state``, table facts from ``sent``."""
    shown = _Shown(
        id=sent["table"],
        game=state.game,
        state=state,
        status=sent["status"],
        seats=sent["seats"],
        notices=sent["notices"],
        mode=sent["mode"],
        hints=sent["hints"],
        rematch_id=sent["rematch_id"],
        tutorial=sent["tutorial"],
        rated=sent["rated"],
        shown_deal=sent["deal"],
    )
    # As the client reads it: JSON (a story line, a pair, is an array there).
    return json.loads(json.dumps(seat_message(cast(Table, shown), seat, since, 0.0)))


def card_texts(data: dict[str, Any]) -> set[str]:
    """The card texts anywhere in a message (the table ids, random text, left out; and a
    tutorial's lesson, which may name unseen cards as what could come, "KS or KH could make you
    throw it away": it is checked by being the same in every world the seat cannot tell from
    the truth)."""
    ids = ("table", "id", "rematch_id", "rematch_of", "lesson")
    text = json.dumps({k: v for k, v in data.items() if k not in ids})
    for seat in data.get("seats", ()):
        text = text.replace(json.dumps(seat.get("name", "")), "")
    return set(CARD_TEXT.findall(text))


def secret_texts(state: State, seat: int | None) -> set[str]:
    """The texts of the cards ``seat`` may not know. The two jokers share a text: it is secret
    only when both are."""
    secret = state.game.views.secret_cards(state, seat)
    texts = {str(card) for card in secret}
    if "Jk" in texts and not all(card in secret for card in JOKERS):
        texts.discard("Jk")
    return texts


def truths(game: Game, history: list[list[str]], versions: set[int]) -> Iterator[tuple[int, State]]:
    """The true state at each of ``versions``, replaying ``history`` once."""
    state = game.new_state()
    for version in range(len(history) + 1):
        if version in versions:
            yield version, state
        if version == len(history):
            return
        actor_raw, item = history[version]
        actor = parse_actor(actor_raw, game.num_players)
        if actor == CHANCE:
            state.apply_chance(state.game.text.parse_chance(state, item))
        else:
            state.apply(actor, item)


def check_boundary(watch: Watch, game: Game, history: list[list[str]], seed: int) -> int:
    """Check every captured message against the truth; returns how many were checked."""
    by_version: dict[int, list[Captured]] = defaultdict(list)
    for captured in watch.captured:
        by_version[captured.data["version"]].append(captured)
    assert set(by_version) <= set(range(len(history) + 1)), "a message of a version never reached"
    rng = random.Random(seed)
    checked = 0
    for version, state in truths(game, history, set(by_version)):
        assert not state.is_chance, f"a message was sent at version {version}, a chance event"
        worlds: dict[int | None, list[State]] = {}
        for captured in by_version[version]:
            seat, sent = captured.seat, captured.data
            where = f"{captured.source} message of {_who(seat)} at version {version}"
            data = {k: v for k, v in sent.items() if k != "type"}
            if state.is_terminal:
                assert sent["status"] == "over", where
            else:
                assert sent["status"] in ("open", "playing"), where
            # (a) exactly what seat_message makes of the seat's view
            assert data == expected_message(state, seat, captured.since, sent), where
            # (b) no card the seat may not know, anywhere in the message
            leaked = card_texts(sent) & secret_texts(state, seat)
            assert not leaked, f"{where} names the hidden cards {sorted(leaked)}"
            # (c) the same message in every world the seat cannot tell from the truth
            if not state.is_terminal:
                if seat not in worlds:
                    view = state.view(seat)
                    worlds[seat] = [view.determinize(rng) for _ in range(WORLDS)]
                for world in worlds[seat]:
                    other = expected_message(world, seat, captured.since, sent)
                    assert other == data, (
                        f"{where} differs in a world {_who(seat)} cannot rule out: {_diff(data, other)}"
                    )
            checked += 1
    checked += check_exchanged_worlds(watch, game, history, by_version, rng)
    refusals: dict[int, list[Refusal]] = defaultdict(list)
    for refusal in watch.refusals:
        refusals[refusal.version].append(refusal)
    for version, state in truths(game, history, set(refusals)):
        for refusal in refusals[version]:
            # The reason of a refusal is made from what the seat knows: its view's reason.
            expected = refusal_reason(state.view(refusal.seat), refusal.action)
            extra = card_texts({"detail": refusal.detail}) - card_texts({"detail": expected})
            leaked = extra & secret_texts(state, refusal.seat)
            assert not leaked, (
                f"p{refusal.seat}'s illegal move {refusal.action!r} at version {version} was "
                f"refused with {refusal.detail!r}, which names the hidden cards {sorted(leaked)}"
            )
            assert refusal.detail == expected, (
                f"p{refusal.seat}'s illegal move {refusal.action!r} at version {version} was "
                f"refused with {refusal.detail!r}; from its view: {expected!r}"
            )
            checked += 1
    for summary in watch.summaries:  # the lobby's summary of the table: public facts only
        assert not card_texts(summary), f"a table summary names a card: {summary}"
    return checked


EXCHANGED = 8
"""Versions per seat checked in worlds where the cards the seat may not know are dealt or
played otherwise."""


def check_exchanged_worlds(
    watch: Watch,
    game: Game,
    history: list[list[str]],
    by_version: dict[int, list[Captured]],
    rng: random.Random,
) -> int:
    """(d) The same message in worlds that do not come from the game's own view code (which
    (c) trusts: a view that kept a card it should have removed would keep it in the worlds its
    ``determinize`` draws too). The true history with an event the seat never saw (its log says
    ``?``) naming a card made another, or two such events exchanged: kept when it still replays,
    the seat's log and the public view are the same (:func:`publicly_alike`), and the cards
    changed are ones the seat may not know, in the truth and in the world (``secret_cards``, the
    contract's word on what a seat may not know)."""
    checked = 0
    for seat in [None, *range(game.num_players)]:
        versions = sorted(
            v
            for v, found in by_version.items()
            if v < len(history) and any(c.seat == seat for c in found)
        )
        for version in rng.sample(versions, min(EXCHANGED, len(versions))):
            sent = next(c for c in by_version[version] if c.seat == seat)
            data = {k: v for k, v in sent.data.items() if k != "type"}
            for world in exchanged_worlds(game, history[:version], seat, rng):
                other = expected_message(world, seat, sent.since, sent.data)
                # Such a world matches the seat's log now, not when each event was shown to it
                # (a card revealed before or after the last message): where the log resumes
                # (log_from) is compared through the whole log the seat then holds.
                truth_log = replayed(game, history[:version]).log(seat)
                assert world.log(seat) == truth_log
                other = {**other, "log_from": data["log_from"], "log": data["log"]}
                assert other == data, (
                    f"the {sent.source} message of {_who(seat)} at version {version} differs in "
                    f"a world where cards it may not know lie elsewhere: {_diff(data, other)}"
                )
                checked += 1
    return checked


def replayed(game: Game, history: list[list[str]]) -> State:
    state = game.new_state()
    for actor_raw, text in history:
        actor = parse_actor(actor_raw, game.num_players)
        if actor == CHANCE:
            state.apply_chance(state.game.text.parse_chance(state, text))
        else:
            state.apply(actor, text)
    return state


def exchanged_worlds(
    game: Game,
    history: list[list[str]],
    seat: int | None,
    rng: random.Random,
    wanted: int = 2,
    tries: int = 10,
) -> list[State]:
    real = replayed(game, history)
    if real.is_terminal:
        return []
    log = real.log(seat)
    secret = secret_texts(real, seat)
    unseen: dict[str, list[int]] = defaultdict(list)
    for index, (actor, text) in enumerate(log):
        if text == "?" and card_texts({"e": history[index]}) <= secret:
            unseen[actor].append(index)
    pairs = [indices for indices in unseen.values() if len(indices) >= 2]
    hidden = [index for indices in unseen.values() for index in indices]
    worlds: list[State] = []
    for _ in range(tries):
        if not hidden or len(worlds) >= wanted:
            break
        other = [list(event) for event in history]
        if pairs and rng.random() < 0.5:  # two unseen events of one actor exchanged
            first, second = rng.sample(rng.choice(pairs), 2)
            other[first], other[second] = other[second], other[first]
        else:  # one unseen event made another: another card dealt, another card chosen
            index = rng.choice(hidden)
            before = replayed(game, history[:index])
            actor = parse_actor(history[index][0], game.num_players)
            if actor == CHANCE:
                options = [str(outcome) for outcome, _ in before.chance_outcomes()]
            else:
                options = [str(action) for action in before.legal_actions(actor)]
            other[index][1] = rng.choice(options)
        changed = [i for i, event in enumerate(other) if event != history[i]]
        were = set().union(*(card_texts({"e": history[i]}) for i in changed))
        are = set().union(*(card_texts({"e": other[i]}) for i in changed))
        if not were or not are:
            continue  # only cards: other hidden things may be known by other means
        try:
            world = replayed(game, other)
        except (IllegalAction, ValueError):
            continue  # the change breaks a later event: not a world at all
        if (
            were <= secret
            and are <= secret_texts(world, seat)
            and world.log(seat) == log
            and publicly_alike(world, real)
        ):
            worlds.append(world)
    return worlds


def publicly_alike(world: State, real: State) -> bool:
    """Whether ``world`` shows everyone what ``real`` does: the same seats to move and the same
    public view. Equal logs are not enough: an outcome worked out from hidden cards (God Save
    The King's challenge: is the middle card really the rank declared?) is told to everyone
    without being an event of its own, so a world whose hidden card answers the other way is
    one no seat could mistake for the truth."""
    return (
        world.to_move == real.to_move
        and world.is_chance == real.is_chance
        and world.view(None).observation() == real.view(None).observation()
    )


def refusal_reason(view: View, action: str | int) -> str:
    """Why ``view``'s seat may not make ``action`` (a text or an id), from the view alone."""
    text = action if isinstance(action, str) else str(view.game.actions[action])
    try:
        view.parse_action(text)
    except IllegalAction as error:
        return str(error)
    raise AssertionError(f"{action!r} is legal for p{view.seat}")


def texts(game: Game) -> list[str]:
    return [str(action) for action in game.actions]


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"p{seat}"


def _diff(sent: dict[str, Any], other: dict[str, Any]) -> str:
    keys = [k for k in sent if sent.get(k) != other.get(k)]
    return "; ".join(f"{k}: sent {sent.get(k)!r}, the world gives {other.get(k)!r}" for k in keys)


# ---------------------------------------------------------------------------------- games


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite only: a message is made from the table's state, whatever database keeps it (the
    rest of the suite runs on both), and this file plays many games."""
    return f"sqlite:///{tmp_path / 'courtly.sqlite3'}"


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_every_message_of_a_game_played_by_people_is_inside_the_seats_knowledge(
    client: TestClient, game_id: str, players: int
) -> None:
    play_people(client, game_id, players)


SIGNED_IN_CASES = [(info.id, info.default_players) for info in games()]


@pytest.mark.parametrize(
    ("game_id", "players"), SIGNED_IN_CASES, ids=[f"{g}-{n}p" for g, n in SIGNED_IN_CASES]
)
def test_every_message_to_signed_in_seats_is_inside_the_seats_knowledge(
    client: TestClient, game_id: str, players: int
) -> None:
    """The same, each seat taken by a signed-in person whose browser proves it by its session's
    cookie alone (REST and WebSocket), as a person on another device plays."""
    play_people(client, game_id, players, signed_in=True)


def signed_in_headers(client: TestClient, name: str) -> dict[str, str]:
    """The headers of a new person's browser: their session's cookie, their CSRF token."""
    response = client.post("/api/account", json={"name": name, "password": "a long password"})
    assert response.status_code == 201, response.text
    secret = response.cookies[COOKIE]
    client.cookies.clear()  # the one client stays a guest's: each request says whose it is
    return {"Cookie": f"{COOKIE}={secret}", CSRF_HEADER: response.json()["csrf"]}


def play_people(client: TestClient, game_id: str, players: int, signed_in: bool = False) -> None:
    """A complete game of people, each seat's moves chosen from what it was sent, every
    message checked against the record."""
    seed = players * 7919 + len(game_id)
    rng = random.Random(seed)
    options = SHORT.get(game_id, {})
    game = make(game_id, players=players, **options)
    seats = [{"kind": "person"} for _ in range(players)]
    watch = Watch(client, create(client, game_id, players, seats, options), texts(game))
    with ExitStack() as stack:
        watch.listen(stack, None)  # a spectator from the start: it sees the seats fill
        watch.summary()
        for seat in range(players):
            if signed_in:
                watch.people[seat] = signed_in_headers(client, NAMES[seat])
            joined = client.post(
                f"/api/tables/{watch.table}/seats/{seat}/join",
                json={"name": NAMES[seat]},
                headers=watch.people.get(seat, {}),
            )
            assert joined.status_code == 200, joined.text
            watch.tokens[seat] = joined.json()["token"]
            watch.listen(stack, seat)
        version = watch.view(None, 0)["version"]
        held = dict.fromkeys(range(players), 0)
        while True:
            # The seats to move choose from what they were pushed at this version, or now and
            # then from their REST view (the whole log or its increment); at a simultaneous
            # point each chooses against the version it saw, which is the same for all.
            shown = watch.readers[None].at(version)
            if shown["status"] == "over":
                break
            if rng.random() < 0.1:
                seat = rng.randrange(players)
                held[seat] = _held(watch.view(seat, rng.choice((0, held[seat]))))
            # Every seat to move gets its push of this version before anyone moves (after a
            # move, a push may show the newer version only).
            pushed = {seat: watch.readers[seat].at(version) for seat in shown["to_move"]}
            answers = []
            for seat in rng.sample(shown["to_move"], len(shown["to_move"])):
                view = pushed[seat]
                if rng.random() < 0.2:
                    view = watch.view(seat, rng.choice((0, held[seat])))
                    held[seat] = _held(view)
                assert view["version"] >= version and view["legal_actions"], view
                if rng.random() < 0.15:
                    watch.try_illegal(seat, view, rng)
                choice = rng.choice(view["legal_actions"])
                action = choice["id"] if rng.random() < 0.5 else choice["text"]
                move = {"seat": seat, "action": action, "version": view["version"]}
                answer = watch.move(seat, move)
                assert answer.status_code == 200, (move, answer.text)
                assert answer.json()["action"] == choice["text"]
                answers.append(answer.json()["version"])
            version = max(answers)
            if rng.random() < 0.05:
                watch.view(None, rng.choice((0, version)))
                watch.summary()
        for seat in range(players):
            watch.view(seat, 0)
        watch.view(None, 0)
        history = watch.finish()
    assert check_boundary(watch, game, history, seed) > 0


def _held(view: dict[str, Any]) -> int:
    return int(view["log_from"]) + len(view["log"])


BOT_CASES = [(info.id, info.default_players) for info in games()]
VARIANTS = {"goths-save-the-queen": {"fog_of_war": True}}
"""Options that hide more: the bots' games play them."""


@pytest.mark.parametrize(("game_id", "players"), BOT_CASES, ids=[f"{g}-{n}p" for g, n in BOT_CASES])
def test_every_message_of_a_game_played_by_the_server_s_bots_is_inside_the_seats_knowledge(
    client: TestClient, game_id: str, players: int
) -> None:
    """The seats' people join and give their seats up at once: the server's bots play the whole
    game (each from its seat's view), while each person still watches their seat."""
    seed = players * 104729 + len(game_id)
    options = {**SHORT.get(game_id, {}), **VARIANTS.get(game_id, {})}
    game = make(game_id, players=players, **options)
    seats = [{"kind": "person"}] * players
    watch = Watch(client, create(client, game_id, players, seats, options), texts(game))
    with ExitStack() as stack:
        watch.listen(stack, None)
        for seat in range(players):
            joined = client.post(f"/api/tables/{watch.table}/seats/{seat}/join", json={})
            assert joined.status_code == 200, joined.text
            watch.tokens[seat] = joined.json()["token"]
            watch.listen(stack, seat)
        for seat in range(players):
            left = client.post(
                f"/api/tables/{watch.table}/seats/{seat}/leave", headers=watch.auth(seat)
            )
            assert left.status_code == 200, left.text
            watch.view(seat, 0)
        history = watch.finish()
        for seat in range(players):
            watch.view(seat, 0)
        watch.view(None, 0)
    assert check_boundary(watch, game, history, seed) > 0


def tutorial_cases() -> list[str]:
    with pytest.MonkeyPatch.context() as patch:
        teaching.install(patch.setattr)
        return teaching.taught()


@pytest.mark.parametrize("game_id", tutorial_cases())
def test_every_message_of_a_tutorial_with_its_lessons_is_inside_the_learner_s_knowledge(
    client: TestClient, game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tutorial table, its learner's moves picked at random from what they were pushed, its
    bots playing the rest: every message (the learner's lessons among them) passes the same
    checks, so a lesson is the same in every world the learner cannot tell from the truth."""
    teaching.install(monkeypatch.setattr)
    tutorial = make(game_id).info.tutorial
    assert tutorial is not None
    rng = random.Random(len(game_id))
    started = client.post("/api/tutorials", json={"game": game_id, "name": NAMES[0]})
    assert started.status_code == 201, started.text
    seated = started.json()
    game = make(game_id, players=tutorial.players, **tutorial.options)
    watch = Watch(client, seated["table"], texts(game), tokens={0: seated["token"]})
    lessons = 0
    with ExitStack() as stack:
        watch.listen(stack, None)
        watch.listen(stack, 0)
        for _ in range(5000):
            summary = client.get(f"/api/tables/{watch.table}").json()
            if summary["status"] == "over":
                break
            if summary["to_move"] != [0]:
                time.sleep(0.005)  # the bots move
                continue
            shown = watch.readers[0].at(summary["version"])
            lessons += "lesson" in shown and shown["lesson"]["number"] is not None
            choice = rng.choice(shown["legal_actions"])
            move = {"seat": 0, "action": choice["text"], "version": shown["version"]}
            answer = client.post(
                f"/api/tables/{watch.table}/moves", json=move, headers=watch.auth(0)
            )
            assert answer.status_code == 200, (move, answer.text)
        history = watch.finish()
        watch.view(0, 0)
        watch.view(None, 0)
    assert lessons >= 1
    assert check_boundary(watch, game, history, len(game_id)) > 0
