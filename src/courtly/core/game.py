"""The engine contract (ARCHITECTURE.md §2): :class:`Game`, :class:`State` and :class:`View`.

A game package subclasses :class:`Game` (its facts as data: :class:`GameInfo`, its options, its
action space) and :class:`State` (the rules as a state machine). Everything else in Courtly —
agents, the simulator, the terminal, replays — talks to these classes only.

The shape follows OpenSpiel: chance is explicit (``is_chance``, ``chance_outcomes()``,
``apply_chance()``), decisions are made by the seats in ``to_move`` (several at a simultaneous
point), and a seat's knowledge is a :class:`View` that holds nothing the seat may not know.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeAlias

from mypy_extensions import mypyc_attr

from .actions import Action, parse_seat, seat_text
from .cards import Card
from .errors import IllegalAction, InvalidOptions, ReplayError
from .options import Option, OptionValue, resolve_options

if TYPE_CHECKING:
    from .agent import Agent

CHANCE: Final = -1
"""The actor of a chance event in ``state.history``."""

Event: TypeAlias = tuple[int, Any]
"""One history entry: ``(seat, action)`` or ``(CHANCE, outcome)``."""

STATE_FORMAT: Final = "courtly-state/1"


class _Hidden:
    """The placeholder for something a seat may not know (a card, an event) in redacted copies."""

    __slots__ = ()

    def __str__(self) -> str:
        return "?"

    def __repr__(self) -> str:
        return "HIDDEN"

    def __reduce__(self) -> str:
        return "HIDDEN"


HIDDEN: Final = _Hidden()


def actor_text(actor: int) -> str:
    return "chance" if actor == CHANCE else seat_text(actor)


def parse_actor(text: str, num_players: int) -> int:
    if text == "chance":
        return CHANCE
    return parse_seat(text, num_players)


@dataclass(frozen=True)
class GameInfo:
    """The facts of a game, declared up front as data (like OpenSpiel's GameType)."""

    id: str
    title: str
    min_players: int
    max_players: int
    summary: str
    options: tuple[Option, ...] = ()
    default_players: int = 2
    rules: str = ""
    """A paraphrased rules summary with the resolutions of RULES.md, shown by ``courtly rules``."""
    agents: Mapping[str, Callable[..., Agent]] = field(default_factory=dict)
    """The game's own bots by name (e.g. ``heuristic``), each built as ``factory(game, **options)``."""

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def describe(self) -> dict[str, Any]:
        from .options import describe_options

        return {
            "id": self.id,
            "title": self.title,
            "players": list(self.player_counts),
            "default_players": self.default_players,
            "summary": self.summary,
            "options": describe_options(self.options),
            "agents": sorted(self.agents),
        }


# Games subclass Game, State and View in modules that may run interpreted while this one is
# compiled (see courtly/_compiled.py): mypyc must allow it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """One game with its options fixed: the factory of states and the owner of the action space.

    Build one with :func:`courtly.make`; bad ids, options or player counts raise
    :class:`~courtly.InvalidOptions`.
    """

    info: ClassVar[GameInfo]

    # Typed ``object``, like every parameter that takes what a person typed: a compiled module
    # (courtly/_compiled.py) checks annotated types on entry, and a bad value must get the
    # clear InvalidOptions / IllegalAction below, not a TypeError.
    def __init__(self, players: object = None, **options: object) -> None:
        info = self.info
        if "num_players" in options:
            # RULES.md calls the player count num_players; accept it as an alias of players.
            alias = options.pop("num_players")
            if players is None:
                players = alias
        if players is None:
            players = info.default_players
        if isinstance(players, str) and players.strip().isdigit():
            players = int(players)
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or players not in info.player_counts
        ):
            counts = ", ".join(str(n) for n in info.player_counts)
            raise InvalidOptions(f"{info.id} is played by {counts} players, not {players!r}")
        self.num_players: Final[int] = players
        self.options: Mapping[str, OptionValue] = MappingProxyType(
            resolve_options(info.id, info.options, options)
        )
        self.actions: tuple[Action, ...] = self._build_actions()
        self._actions_by_text = {_fold(action.text): action for action in self.actions}
        self._check_options()

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def _check_options(self) -> None:  # noqa: B027 - an optional hook, empty by default
        """Hook: cross-option checks that need the player count (raise InvalidOptions)."""

    @abstractmethod
    def _build_actions(self) -> tuple[Action, ...]:
        """The whole action space, each action's id equal to its index."""

    @abstractmethod
    def new_state(self) -> State:
        """The initial state of a game (no RNG inside: the first random event is a chance node)."""

    def teams(self) -> dict[str, tuple[int, ...]]:
        """Named teams of seats that win together (a clan: ``{"Ostrogoths": (0, 2), ...}``);
        empty for a game every seat plays for itself."""
        return {}

    def action_from_id(self, action_id: int) -> Action:
        if not 0 <= action_id < len(self.actions):
            raise IllegalAction(
                f"{action_id} is not an action id of {self.id} (0..{len(self.actions) - 1})"
            )
        return self.actions[action_id]

    def action_from_text(self, text: str) -> Action | None:
        """The action written ``text`` (spaces folded, case ignored), or None."""
        return self._actions_by_text.get(_fold(text))

    def config(self) -> dict[str, Any]:
        """What, with a history, replays a game: the id, player count and options."""
        return {"game": self.id, "players": self.num_players, "options": dict(self.options)}

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != _default(self.info, k)}
        extra = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"courtly.make({self.id!r}, players={self.num_players}{extra})"


def _fold(text: str) -> str:
    """Action texts are matched ignoring case and runs of spaces (``Give-7  P2`` = ``give-7 p2``)."""
    return " ".join(text.lower().split())


def _default(info: GameInfo, name: str) -> OptionValue | None:
    for option in info.options:
        if option.name == name:
            return option.default
    return None


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """A position of a game: the rules as a state machine.

    Subclasses keep ``is_chance``, ``is_terminal`` and ``to_move`` up to date as plain attributes
    (they are read on every step of every playout) and implement the abstract hooks. The public
    methods here check every input before anything changes, so an error leaves the state as it
    was.

    Hidden information: a game with secrets overrides :meth:`_redacted` (a copy with every secret
    *removed*: unknown cards replaced by :data:`HIDDEN` or dropped, the history scrubbed with
    :meth:`_scrub_history`), :meth:`determinize` (called on that copy: fill the gaps uniformly from
    what is consistent with the seat's knowledge) and :meth:`secret_cards` (what the contract
    suite checks no view shows). ``observation(seat)`` must read only what ``seat`` may know, so
    that it gives the same answer on the full state, the redacted copy and any determinization.

    Simultaneous decisions: ``to_move`` lists every seat still to submit; each ``apply`` records
    one submission (secret until the last is in) and removes that seat from ``to_move``. *That* a
    seat has submitted is public; *what* it submitted is not: the redacted copy for another seat
    drops the pending choice and puts its owner back in ``to_move``, so a searcher lets him choose
    again (see ``tests/toy_games.py`` for the smallest example).
    """

    __slots__ = ("game", "history", "is_chance", "is_terminal", "num_players", "to_move")

    game: Game
    num_players: int
    is_chance: bool
    is_terminal: bool
    to_move: tuple[int, ...]
    """The seats that must decide now: several at a simultaneous point, none at chance or end."""
    history: list[Event]

    def __init__(self, game: Game) -> None:
        self.game = game
        self.num_players = game.num_players
        self.history = []
        self.is_chance = False
        self.is_terminal = False
        self.to_move = ()

    # ----------------------------------------------------------------------------- decisions

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The actions ``seat`` may take now (empty if it is not to move)."""

    def apply(self, seat: object, action: object) -> None:
        """Apply ``seat``'s decision: an :class:`Action`, its text or its id.

        Raises :class:`IllegalAction` (and changes nothing) if ``seat`` is not to move or the
        action is not legal now.
        """
        if not isinstance(seat, int) or seat not in self.to_move:
            raise IllegalAction(self._not_to_move_message(seat))
        if not isinstance(action, Action):
            action = (
                self.parse_action(seat, action) if isinstance(action, str) else self._by_id(action)
            )
        if action not in self.legal_actions(seat):
            raise IllegalAction(
                f"{action} is not legal for {seat_text(seat)} now; legal: {self._legal_text(seat)}"
            )
        self._apply(seat, action)
        self.history.append((seat, action))

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Apply a decision already checked to be legal."""

    def apply_legal(self, seat: int, action: Action) -> None:
        """Apply ``action``, taken from ``legal_actions(seat)`` just now, without checking it.

        The fast path of search: an action read off the legal list needs no second look. Anything
        else (typed text, an id, an action from another state) goes through :meth:`apply`.
        """
        self._apply(seat, action)
        self.history.append((seat, action))

    def playout(self, rng: random.Random, max_steps: int = 0) -> int:
        """Play on with uniformly random decisions and sampled chance, unchecked, until the end
        or ``max_steps`` steps (0 = no cap); returns the steps taken.

        The random rollout of search. Games may override it with a tighter loop, but must draw
        from the same distributions (each legal action equally likely).
        """
        steps = 0
        history = self.history
        uniform = rng.random
        while not self.is_terminal and (not max_steps or steps < max_steps):
            if self.is_chance:
                outcome = self.sample_chance_outcome(rng)
                self._apply_chance(outcome)
                history.append((CHANCE, outcome))
            else:
                # At a simultaneous point the pending seats shrink one apply at a time.
                seat = self.to_move[0]
                legal = self.legal_actions(seat)
                action = legal[int(uniform() * len(legal))]
                self._apply(seat, action)
                history.append((seat, action))
            steps += 1
        return steps

    def parse_action(self, seat: int, text: str) -> Action:
        """The legal action of ``seat`` written ``text``; :class:`IllegalAction` listing the legal
        forms if there is none."""
        if not isinstance(seat, int) or seat not in self.to_move:
            raise IllegalAction(self._not_to_move_message(seat))
        action = self.game.action_from_text(text)
        if action is None or action not in self.legal_actions(seat):
            what = "is not an action of this game" if action is None else "is not legal now"
            raise IllegalAction(f"{text.strip()!r} {what}; legal: {self._legal_text(seat)}")
        return action

    def input_steps(self, seat: int, text: str) -> list[str]:
        """One line typed by a person, as the texts of the successive actions it means.

        Most games take one action per line (the default). A game whose move is several
        sub-decisions (a formation: left, middle, right) overrides this so that people may type
        the whole move at once; the terminal plays the steps one after the other.
        """
        return [text]

    def _by_id(self, action_id: object) -> Action:
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise IllegalAction(f"an action is an Action, its text or its id, not {action_id!r}")
        return self.game.action_from_id(action_id)

    def _legal_text(self, seat: int) -> str:
        return ", ".join(str(a) for a in self.legal_actions(seat))

    def _not_to_move_message(self, seat: object) -> str:
        if self.is_terminal:
            return "the game is over"
        if self.is_chance:
            return "a chance event must be resolved first"
        if not isinstance(seat, int) or not 0 <= seat < self.num_players:
            return f"{seat!r} is not a seat of this game"
        movers = ", ".join(seat_text(s) for s in self.to_move)
        return f"it is not {seat_text(seat)}'s turn; to move: {movers}"

    # ----------------------------------------------------------------------------- chance

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """``(outcome, probability)`` for every possible outcome of the pending chance event."""

    def apply_chance(self, outcome: Any) -> None:
        """Resolve the pending chance event with ``outcome`` (an outcome or its text)."""
        if not self.is_chance:
            raise IllegalAction("no chance event is pending")
        if isinstance(outcome, str):
            outcome = self.parse_chance(outcome)
        elif not self._is_possible_outcome(outcome):
            raise IllegalAction(f"{outcome} is not a possible outcome now")
        self._apply_chance(outcome)
        self.history.append((CHANCE, outcome))

    def _is_possible_outcome(self, outcome: Any) -> bool:
        """Whether ``outcome`` may happen now; games override this with a cheaper check."""
        return any(o == outcome for o, _ in self.chance_outcomes())

    @abstractmethod
    def _apply_chance(self, outcome: Any) -> None:
        """Apply a chance outcome already checked to be possible."""

    def parse_chance(self, text: str) -> Any:
        """The possible outcome written ``text``, or :class:`IllegalAction`."""
        key = text.strip().lower()
        for outcome, _ in self.chance_outcomes():
            if str(outcome).lower() == key:
                return outcome
        raise IllegalAction(f"{text.strip()!r} is not a possible chance outcome now")

    def sample_chance_outcome(self, rng: random.Random) -> Any:
        """One outcome drawn with the chance probabilities; games may override it for speed, but
        must draw from the same distribution."""
        outcomes = self.chance_outcomes()
        x = rng.random()
        for outcome, p in outcomes:
            x -= p
            if x < 0:
                return outcome
        return outcomes[-1][0]

    # ----------------------------------------------------------------------------- end

    @abstractmethod
    def returns(self) -> list[float]:
        """One value per seat: a sole winner 1.0, tied winners share 1.0, others 0.0."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (shared), empty until the game is over."""
        if not self.is_terminal:
            return ()
        return tuple(seat for seat, value in enumerate(self.returns()) if value > 0)

    # ----------------------------------------------------------------------------- views

    def view(self, seat: object) -> View:
        """What ``seat`` may know, and nothing else; ``None`` is a spectator."""
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players
        ):
            raise IllegalAction(f"{seat!r} is not a seat of this game")
        return View(self._redacted(seat), seat)

    def _redacted(self, seat: int | None) -> State:
        """A copy holding only what ``seat`` may know. Games with hidden information override it
        to remove (not merely hide) what the seat cannot see."""
        return self.clone()

    @abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]:
        """The JSON-able picture of the position from ``seat``'s side (called on a redacted copy)."""

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        """The cards of this (full) state whose whereabouts ``seat`` may not know.

        The contract suite checks that none of them appears in the seat's view. Royal Gambit has
        none at a decision point; games with hands and face-down cards override it.
        """
        return frozenset()

    def determinize(self, seat: int | None, rng: random.Random) -> State:
        """A full state drawn uniformly from those consistent with what ``seat`` knows (called on
        a redacted copy). Games with hidden information override it."""
        return self.clone()

    # ----------------------------------------------------------------------------- records

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (hand-written in each game: no deepcopy on the hot path)."""

    def _clone_base(self, other: State) -> None:
        """Copy the base fields into ``other`` (a fresh instance made with ``__new__``)."""
        other.game = self.game
        other.num_players = self.num_players
        other.history = self.history.copy()
        other.is_chance = self.is_chance
        other.is_terminal = self.is_terminal
        other.to_move = self.to_move

    def _scrub_history(self, copy: State, seen: Callable[[int, int, Any], bool]) -> None:
        """Replace, in ``copy``, every event for which ``seen(index, actor, item)`` is false by
        ``(actor, HIDDEN)``: a redacted copy keeps the shape of the history, not its secrets."""
        copy.history = [
            (actor, item) if seen(index, actor, item) else (actor, HIDDEN)
            for index, (actor, item) in enumerate(self.history)
        ]

    def history_text(self) -> list[list[str]]:
        """The history as ``[actor, event]`` text pairs, e.g. ``["p1", "hit"]``, ``["chance", "7H"]``."""
        return [[actor_text(actor), str(item)] for actor, item in self.history]

    def to_json(self) -> str:
        """The game as JSON: its config and history; :func:`courtly.load` rebuilds it exactly."""
        return json.dumps(
            {"format": STATE_FORMAT, **self.game.config(), "history": self.history_text()}
        )

    def __eq__(self, other: object) -> bool:
        """Two states are equal when the same game reached them by the same events."""
        if not isinstance(other, State):
            return NotImplemented
        return (
            self.game.config() == other.game.config()
            and self.history_text() == other.history_text()
        )

    __hash__ = None  # type: ignore[assignment]

    @abstractmethod
    def render(self, seat: int | None) -> str:
        """A readable text picture of the position from ``seat``'s side."""

    def observed(self, actor: int, item: Any, observer: int) -> Hashable | None:
        """What ``observer`` learns when ``actor`` (a seat or CHANCE) makes the event ``item``,
        asked *before* the event is applied; ``None`` when it learns nothing of which event it was.

        Search uses it to key its tree by what the searcher can tell apart (its information
        sets). The default says seat actions are public and chance outcomes are not; games
        override it where a draw is public (a card turned face up) or an action is secret (a card
        placed face down).
        """
        if actor == CHANCE:
            return None
        return item.id if isinstance(item, Action) else item

    def narrate(self, actor: int, item: Any, seat: int | None) -> str | None:
        """One line telling ``seat`` about an event about to be applied (``None``: nothing to tell).

        Called *before* the event, so it can name who is flipping, drawing or playing. The default
        names seat actions and hides chance outcomes; games say more where it is public.
        """
        if actor == CHANCE:
            return None
        return f"{seat_text(actor)}: {item}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} after {len(self.history)} events>"


@mypyc_attr(allow_interpreted_subclasses=True)
class View:
    """One seat's knowledge of a state: what a bot or a UI of that seat gets, and all it gets.

    The view holds a redacted copy of the state, never the state itself, so nothing a bot does
    to its view reaches the game, and nothing hidden from the seat is inside it.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, redacted: State, seat: int | None) -> None:
        self._state = redacted
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def num_players(self) -> int:
        return self._state.num_players

    @property
    def to_move(self) -> tuple[int, ...]:
        return self._state.to_move

    @property
    def is_terminal(self) -> bool:
        return self._state.is_terminal

    def observation(self) -> dict[str, Any]:
        """JSON-able: the public table, this seat's hidden cards, counts of others', what it has
        privately learned, and the public log."""
        return self._state.observation(self.seat)

    def legal_actions(self) -> Sequence[Action]:
        if self.seat is None or self.seat not in self._state.to_move:
            return ()
        return self._state.legal_actions(self.seat)

    def parse_action(self, text: str) -> Action:
        if self.seat is None:
            raise IllegalAction("a spectator makes no moves")
        return self._state.parse_action(self.seat, text)

    def input_steps(self, text: str) -> list[str]:
        """See :meth:`State.input_steps`."""
        if self.seat is None:
            return [text]
        return self._state.input_steps(self.seat, text)

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with everything this seat knows (the hook for ISMCTS)."""
        return self._state.determinize(self.seat, rng)

    def render(self) -> str:
        return self._state.render(self.seat)

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else seat_text(self.seat)
        return f"<View of {self._state.game.id} for {who}>"


def known_state(view: View) -> State:
    """The redacted copy behind ``view``: the state as far as the view's seat may know it.

    For a game's own bots, which know their game's state class and want fast typed access.
    Everything in it is the seat's knowledge (hidden parts are removed, not hidden), so reading it
    leaks nothing; generic agents use the view's public methods instead.
    """
    return view._state


def sample_chance(state: State, rng: random.Random) -> Any:
    """Resolve the pending chance event of ``state`` with ``rng``; returns the outcome."""
    outcome = state.sample_chance_outcome(rng)
    state._apply_chance(outcome)
    state.history.append((CHANCE, outcome))
    return outcome


def replay(game: Game, history: Sequence[Sequence[str]] | Sequence[Event]) -> State:
    """The state reached by playing ``history`` (text pairs or events) from the start.

    Raises :class:`ReplayError` naming the first event that does not apply.
    """
    state = game.new_state()
    for index, event in enumerate(history):
        try:
            actor_raw, item = event
            actor = (
                parse_actor(actor_raw, game.num_players)
                if isinstance(actor_raw, str)
                else actor_raw
            )
            if actor == CHANCE:
                state.apply_chance(item)
            else:
                state.apply(actor, item)
        except (IllegalAction, ValueError, TypeError) as error:
            raise ReplayError(f"event {index} {list(map(str, event))}: {error}") from None
    return state


def load(data: str | Mapping[str, Any]) -> State:
    """Rebuild a state saved by :meth:`State.to_json` (a JSON text or the parsed dict)."""
    from .registry import make

    try:
        record = json.loads(data) if isinstance(data, str) else data
    except json.JSONDecodeError as error:
        raise ReplayError(f"not JSON: {error}") from None
    if not isinstance(record, Mapping) or "game" not in record or "history" not in record:
        raise ReplayError("a saved game needs the keys 'game', 'options' and 'history'")
    try:
        game = make(
            record["game"], players=record.get("players"), **dict(record.get("options") or {})
        )
    except InvalidOptions as error:
        raise ReplayError(str(error)) from None
    history = record["history"]
    if not isinstance(history, list):
        raise ReplayError("'history' must be a list of [actor, event] pairs")
    return replay(game, history)
