"""The engine contract: what a game declares, and the :class:`Game`, :class:`State` and
:class:`View` every front end talks to.

A game package subclasses :class:`Game` (its facts as data in :class:`GameInfo`, its options,
its action space) and :class:`State` (the rules as a state machine), and declares its parts in
its ``GameInfo``: its text (:class:`GameText`: the picture of the table, the narration, the
parsing of what people type, the reasons of a refusal), what each seat may see
(:class:`GameViews`: redacted copies, observations, sampled worlds), its bots
(:class:`BotInfo`, :class:`SearchHooks`) and its tensor layout. Core calls those parts; the
state machine holds no text and no view. Everything else in Courtly (agents, the simulator,
the terminal, the server, replays) talks to these classes only.

The shape follows OpenSpiel: chance is explicit (``is_chance``, ``chance_outcomes()``,
``apply_chance()``), decisions are made by the seats in ``to_move`` (several at a simultaneous
point), and a seat's knowledge is a :class:`View` that holds nothing the seat may not know.

The classes here refer to one another (a game makes states, a state makes views, a game's
parts read states), so they live in one module: the modules around it (events, records, the
registry, replays of records) depend on it, never the other way round.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Final, Protocol, final

from mypy_extensions import mypyc_attr

from .actions import Action, seat_text
from .cards import Card
from .errors import IllegalAction, InvalidOptions, ReplayError
from .events import (
    CHANCE,
    HIDDEN,
    PUBLIC,
    Event,
    EventSecrets,
    Line,
    log_lines,
    observer_bit,
    parse_actor,
)
from .options import (
    Option,
    OptionValue,
    Recommendation,
    describe_options,
    recommendations_text,
    resolve_options,
)
from .persist import fields_of, rebuild
from .records import MatchRecord
from .tensors import TensorLayout
from .tutorial import Tutorial

# ------------------------------------------------------------------------------ declarations


@dataclass(frozen=True)
class GameLength:
    """A proven upper bound on how long one game lasts, its options fixed: the most seat decisions
    and the most chance events its history can hold (each game derives its bound from its rules,
    safety cap included, in a comment citing the rule ids)."""

    decisions: int
    chance: int

    @property
    def events(self) -> int:
        """The most entries of ``state.history``: decisions and chance events together."""
        return self.decisions + self.chance


class Agent(Protocol):
    """Anything that, handed the deciding seat's :class:`View` and an RNG, picks an action."""

    def act(self, view: View, rng: random.Random) -> Action: ...


@dataclass(frozen=True)
class BotInfo:
    """One bot a seat can be given, e.g. ``heuristic`` or ``ismcts:iterations=2000``.

    A game names its own bots in its :class:`GameInfo`; their options are declared like game
    options (name, default, allowed values, help) and checked with the same clear errors.
    Generic bots (``random``, ``ismcts``) are declared the same way in
    :mod:`courtly.agents.registry`.
    """

    name: str
    factory: Callable[..., Agent]
    """Built as ``factory(game, **options)`` with the options a seat names, already checked and
    typed; the factory's own defaults, which ``options`` declares, apply to the rest (a default
    may depend on another option: ISMCTS's ``depth`` on its ``rollout``)."""
    summary: str
    options: tuple[Option, ...] = ()

    def build(self, game: Game, options: Mapping[str, object]) -> Agent:
        """The bot for ``game`` with ``options`` (text from a command line or typed values),
        checked like game options: :class:`InvalidOptions` names the allowed values, or the
        bot's options when one is unknown."""
        values = resolve_options(f"bot {self.name}", self.options, options)
        return self.factory(game, **{name: values[name] for name in options})

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "summary": self.summary,
            "options": describe_options(self.options),
        }


class SearchHooks(Protocol):
    """What a game offers search bots (ISMCTS); its heuristic bot implements every part of it,
    and ``GameInfo.search_hooks`` names it. Search reads these, never probes for attributes.

    ``act`` is the rollout policy: it is handed views of sampled worlds, which it may read whole
    (a sampled world is a guess drawn from the searcher's knowledge, not the real game).
    """

    rollout_depth: ClassVar[int]
    """Rollouts stop after this many steps and :meth:`evaluate` scores the position; 0 plays
    every rollout to the end."""
    informed_worlds: ClassVar[bool]
    """Whether :meth:`sample_world` knows more than ``view.determinize`` (so ISMCTS draws its
    worlds with it by default)."""

    def act(self, view: View, rng: random.Random) -> Action: ...

    def evaluate(self, state: State) -> Sequence[float]:
        """Each seat's chance to win from ``state`` (a full, sampled state), summing to 1."""
        ...

    def sample_world(self, view: View, rng: random.Random) -> State:
        """A state consistent with ``view``, drawn as the other seats' play suggests (or simply
        ``view.determinize(rng)``)."""
        ...


# Games subclass these classes in modules that may run interpreted (docs/architecture.md,
# "Compiled code").
@mypyc_attr(allow_interpreted_subclasses=True)
class GameText(ABC):
    """What people read and type of a game: a game's ``text.py`` subclasses it, and its
    ``GameInfo`` declares an instance (``text=``). Nothing here runs in a playout or a search,
    so a game's text may take its time and import what it likes.

    Every method takes the state it speaks of; the defaults below say what every game says
    unless it has better words.
    """

    @abstractmethod
    def render(self, state: State, seat: int | None) -> str:
        """A readable text picture of the position from ``seat``'s side; a finished game's
        ``render(state, None)`` is its one end-of-game summary."""

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        """The story of an event about to be applied to ``state``: its lines, each with who may
        read it (a mask of observer bits, or ``PUBLIC``), in order, the event's consequences
        included (a bust, a trick taken, a player out, the end of the game).

        Called *before* the event, so it can name who is flipping, drawing or playing; a line
        tells a seat only what that seat may know (a card drawn face down is named to its drawer
        alone). Every front end reads this one story: the terminal, the browser's log, replays.
        The default names a seat's action to everyone and keeps chance outcomes to itself."""
        if actor == CHANCE:
            return []
        return [(PUBLIC, f"{seat_text(actor)}: {item}")]

    @final
    def narrate(self, state: State, actor: int, item: Any, seat: int | None) -> str | None:
        """The lines of :meth:`tell` that ``seat`` may read (``None``: a spectator), one per line
        of text, or ``None`` when it is told nothing."""
        bit = observer_bit(seat, state.num_players)
        told = [text for knowers, text in self.tell(state, actor, item) if knowers & bit]
        return "\n".join(told) if told else None

    def outcome(self, state: State) -> Outcome:
        """How a finished game ended, in words: why, and each seat's place and score. The
        default ranks seats by their returns and shows their scores where the game keeps any;
        games say which rule ended the game."""
        returns = state.returns()
        scores = state.scores()
        standings = []
        for seat in range(state.num_players):
            place = 1 + sum(1 for other in returns if other > returns[seat])
            score = "" if scores is None else _score_text(scores[seat])
            standings.append(Standing(seat, place, score))
        reason = "the safety cap ended the game" if state.truncated else "the game is over"
        return Outcome(reason, tuple(sorted(standings, key=lambda s: (s.place, s.seat))))

    def coach(self, state: State, seat: int) -> str | None:
        """What a teacher says to a newcomer about the decision ``seat`` faces now: the
        choices, what each risks and what it gains, in plain words, worked out from the position
        (``Staying banks 12; 3 of the 40 cards left would bust you.``); None where there is
        nothing to explain. A tutorial shows it beside the board (:mod:`courtly.core.tutorial`)."""
        return None

    def seat_title(self, game: Game, seat: int) -> str:
        """What a seat is in this game, in words (``Ostrogoth King``), for the table's seat list
        and the form that creates a table; empty where every seat plays the same part."""
        return ""

    def action_label(self, state: State, seat: int, action: Action) -> str:
        """What a button for ``action`` says to a person, in words (``Vulture: back the
        Vulture`` where the action's text is ``v1``); the default is the action's text."""
        return str(action)

    def action_from_text(self, state: State, seat: int, text: str) -> Action | None:
        """The action ``text`` names for ``seat``, or None; a game may accept shortcuts here (and
        raise :class:`IllegalAction` for a shortcut that is ambiguous)."""
        return state.game.action_from_text(text)

    def parse_chance(self, state: State, text: str) -> Any:
        """The possible outcome written ``text`` (a record's chance event, or what a person
        typed to force one), or :class:`IllegalAction`."""
        key = text.strip().lower()
        for outcome, _ in state.chance_outcomes():
            if str(outcome).lower() == key:
                return outcome
        raise IllegalAction(f"{text.strip()!r} is not a possible chance outcome now")

    def input_steps(self, state: State, seat: int, text: str) -> list[str]:
        """One line typed by a person, as the texts of the successive actions it means.

        Most games take one action per line (the default). A game whose move is several
        sub-decisions (a formation: left, middle, right) overrides this so that people may type
        the whole move at once; the terminal plays the steps one after the other.
        """
        return [text]

    def caution(self, state: State, seat: int, action: Action) -> str | None:
        """A warning a person should read before making this *legal* move (it throws the game
        away, say: laying one's own King where it is revealed at once), or None. Front ends ask
        for a confirmation; bots never see it."""
        return None

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` (who is to move) now."""
        legal = self.legal_text(state, seat)
        if state.game.known_action(action) is None:
            return f"{action} is not an action of this game; legal: {legal}"
        return f"{action} is not legal for {seat_text(seat)} now; legal: {legal}"

    def why_unknown(self, state: State, seat: int, text: str) -> str:
        """Why the typed ``text`` names no action of this game."""
        return (
            f"{text.strip()!r} is not an action of this game; legal: {self.legal_text(state, seat)}"
        )

    def why_not_to_move(self, state: State, seat: object, action: object) -> str:
        """Why ``seat`` may not act now (``action`` is what it tried, for a kinder message)."""
        if state.is_terminal:
            return "the game is over"
        if state.is_chance:
            return "a chance event must be resolved first"
        number = _as_seat(seat, state.num_players)
        if number is None:
            return f"{seat!r} is not a seat of this game"
        movers = ", ".join(seat_text(s) for s in state.to_move)
        return f"it is not {seat_text(number)}'s turn; to move: {movers}"

    def legal_text(self, state: State, seat: int) -> str:
        return ", ".join(str(a) for a in state.legal_actions(seat))


@dataclass(frozen=True)
class Standing:
    """One seat at the end of a game: its place (1 for the winners, tied seats share a place)
    and its score in the game's own words (``31 points``, ``space 30``; empty where the game
    keeps none)."""

    seat: int
    place: int
    score: str = ""
    note: str = ""
    """What else decided this seat's result, in a few words (``busted in the final hand``)."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the reason in a sentence, and every seat's standing, best first."""

    reason: str
    standings: tuple[Standing, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.standings if s.place == 1)


def _score_text(score: float) -> str:
    return str(int(score)) if score == int(score) else f"{score:g}"


@mypyc_attr(allow_interpreted_subclasses=True)
class GameViews(ABC):
    """What each seat may know of a game: a game's ``views.py`` subclasses it, and its
    ``GameInfo`` declares an instance (``views=``).

    The defaults fit a game in which every seat sees everything at a decision point (draws are
    chance events, so an unknown deck order is not a secret). A game with hidden information
    overrides :meth:`redacted` (a copy with every secret *removed*: unknown cards replaced by
    :data:`HIDDEN` or dropped), :meth:`determinize` (fill the gaps of that copy from what is
    consistent with the seat's knowledge), :meth:`secret_cards` (what the contract suite checks
    no view shows) and :meth:`observed`. ``observation`` must read only what the seat may know,
    so that it gives the same answer on the full state, the redacted copy and any sampled world.
    """

    @abstractmethod
    def observation(self, state: State, seat: int | None) -> dict[str, Any]:
        """The JSON-able picture of the position from ``seat``'s side: the public table, the
        seat's hidden cards, counts of others', what it has privately learned. Its size does not
        grow with the game: the events are served apart (:meth:`State.log`)."""

    def redacted(self, state: State, seat: int | None) -> State:
        """A copy of ``state`` holding only what ``seat`` may know (:meth:`State.view` sets its
        history)."""
        return state.clone()

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        """A full state drawn uniformly from those consistent with what ``seat`` knows (called on
        a redacted copy), with the same seats to move: the hook of ISMCTS. At a simultaneous
        point, a seat that has committed a secret choice is out of ``to_move`` in the redacted
        copy, and the world draws that choice, so it waits for the same seats as the truth."""
        return state.clone()

    def search_world(self, state: State, seat: int | None, rng: random.Random) -> State:
        """A world for a search alone: drawn as :meth:`determinize` draws it (the same worlds,
        equally likely, the same seats to move), but its history need not replay to it (hidden
        events may stay :data:`HIDDEN`): a search only plays on from a world. A game whose
        replayable history costs more than the world overrides it; by default, ``determinize``."""
        return self.determinize(state, seat, rng)

    def secret_cards(self, state: State, seat: int | None) -> frozenset[Card]:
        """The cards of this (full) state whose whereabouts ``seat`` may not know: the contract
        suite checks that none of them appears in the seat's view."""
        return frozenset()

    def observed(self, state: State, actor: int, item: Any, observer: int) -> Hashable | None:
        """What ``observer`` learns when ``actor`` (a seat or CHANCE) makes the event ``item``,
        asked *before* the event is applied; ``None`` when it learns nothing of which event it was.

        Search keys its tree by what the searcher can tell apart (its information sets). The
        default says seat actions are public and chance outcomes are not; games override it
        where a draw is public (a card turned face up) or an action is secret (a card placed
        face down).
        """
        if actor == CHANCE:
            return None
        return item.id if isinstance(item, Action) else item


@dataclass(frozen=True)
class GameInfo:
    """The facts of a game and its parts, declared up front as data (like OpenSpiel's GameType).

    Front ends read these facts instead of guessing them from play: whether seats ever decide at
    once, whether anything is hidden from some seat, whether seats win in teams.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    summary: str
    text: GameText
    """What people read and type (the game's ``text.py``)."""
    views: GameViews
    """What each seat may know (the game's ``views.py``, with its sampled worlds)."""
    options: tuple[Option, ...] = ()
    default_players: int = 2
    rules: str = ""
    """A paraphrased summary of the rules Courtly implements, shown by ``courtly rules``."""
    bots: tuple[BotInfo, ...] = ()
    """The game's own bots (its ``heuristic``), with their declared options."""
    default_bot: str = "heuristic"
    """The bot that takes a seat when none is named (``courtly play`` fills the table with it)."""
    search_hooks: Callable[[Game], SearchHooks] | None = None
    """What the game offers search bots (:class:`SearchHooks`): usually its heuristic bot's
    class."""
    official_players: tuple[int, ...] = ()
    """The player counts of the rule sheet, where the others are Courtly's (empty: all official)."""
    simultaneous: bool = False
    """Seats sometimes decide at once (``to_move`` holds several seats)."""
    hidden_information: bool = False
    """Some seat may not know everything (cards face down, hands, secret choices)."""
    teams: bool = False
    """Seats win together in teams (see :meth:`Game.teams`)."""
    renamed_options: Mapping[str, str] = field(default_factory=dict)
    """Old option names still accepted (records saved before a rename), mapped to the new ones."""
    tensor_layout: Callable[[Game], TensorLayout] | None = None
    """How a seat's observation becomes a fixed-size vector for learning agents
    (:mod:`courtly.core.tensors`), for a game's options and player count."""
    tutorial: Tutorial | None = None
    """A first game that teaches (:mod:`courtly.core.tutorial`), or None."""
    longest_game: Callable[[Game], GameLength] | None = None
    """The longest game for a game's options and player count (:meth:`Game.longest_game`): a
    proven bound, which RL adapters size their buffers by and front ends may show."""
    recommended: Mapping[int, Recommendation] = field(default_factory=dict)
    """The variant Courtly recommends at a player count where the rules as written go wrong,
    by player count (most games: none). Front ends pre-select it; the engine does not."""

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def rules_text(self) -> str:
        """The rules summary as ``courtly rules`` prints it: ``rules``, then the variants
        Courtly recommends at some player counts, if any."""
        advice = recommendations_text(self.recommended)
        return f"{self.rules.rstrip()}\n\n{advice}\n" if advice else self.rules

    def players_text(self) -> str:
        """``2``, ``2–5`` or ``4 (2–3 unofficial)``: the player counts as people read them."""
        official = self.official_players or tuple(self.player_counts)
        text = _span(official)
        rest = [n for n in self.player_counts if n not in official]
        return f"{text} ({_span(rest)} unofficial)" if rest else text


def _span(counts: Sequence[int]) -> str:
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}–{high}"


# ------------------------------------------------------------------------------ the game


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """One game with its options fixed: the factory of states and the owner of the action space.

    Build one with :func:`courtly.make`; bad ids, options or player counts raise
    :class:`~courtly.InvalidOptions`.
    """

    info: ClassVar[GameInfo]

    # ``object``: what a person typed gets a clear InvalidOptions, even compiled.
    def __init__(self, players: object = None, **options: object) -> None:
        info = self.info
        if "num_players" in options:
            # An alias of players, the name OpenSpiel and the rule sheets use.
            alias = options.pop("num_players")
            if players is None:
                players = alias
        for old, new in info.renamed_options.items():
            if old in options:
                value = options.pop(old)
                options.setdefault(new, value)
        if players is None:
            players = info.default_players
        if isinstance(players, str) and players.strip().isdecimal():
            players = int(players)
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or players not in info.player_counts
        ):
            raise InvalidOptions(
                f"{info.id} is played by {info.players_text()} players, not {players!r}"
            )
        self.num_players: Final[int] = players
        # The declared parts, read on every view and every search step.
        self.text: Final[GameText] = info.text
        self.views: Final[GameViews] = info.views
        # A plain dict behind a read-only proxy for callers; options() copies it for pickling.
        self._options: dict[str, OptionValue] = resolve_options(info.id, info.options, options)
        self.options: Mapping[str, OptionValue] = MappingProxyType(self._options)
        self.actions: tuple[Action, ...] = self._build_actions()
        self._actions_by_text = {_fold(action.text): action for action in self.actions}
        self._check_options()
        # Built on first use: only adapters that number chance outcomes (RL, OpenSpiel) ask.
        self._chance_space: tuple[Any, ...] | None = None
        self._chance_ids: dict[tuple[type, int], int] = {}
        self._tensor_layout: TensorLayout | None = None

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

    def longest_game(self) -> GameLength:
        """The most decisions and chance events a game with these options and this player count
        can last: a proven bound (declared as ``GameInfo.longest_game``)."""
        declared = self.info.longest_game
        if declared is None:
            raise NotImplementedError(f"{self.id} declares no longest game (GameInfo.longest_game)")
        return declared(self)

    def tensor_layout(self) -> TensorLayout:
        """The fixed-size vector of a seat's observation (declared as ``GameInfo.tensor_layout``),
        built once per game."""
        layout = self._tensor_layout
        if layout is None:
            declared = self.info.tensor_layout
            if declared is None:
                raise NotImplementedError(f"{self.id} declares no tensor layout")
            layout = self._tensor_layout = declared(self)
        return layout

    def max_game_length(self) -> int:
        """The most events (decisions and chance events) a history of this game can hold: every
        game ends, at the latest at its safety cap, within this many (a proven bound)."""
        return self.longest_game().events

    # ------------------------------------------------------------------ chance outcome ids

    def _build_chance_outcomes(self) -> tuple[Any, ...]:
        """Hook: every distinct chance outcome a game with these options can produce, each once
        (its id is its index). Outcomes of different kinds may share an int value (a
        :class:`~courtly.core.cards.Card` and a seat outcome): they are told apart by type."""
        raise NotImplementedError(f"{self.id} declares no chance outcomes")

    @property
    def chance_outcome_space(self) -> tuple[Any, ...]:
        """Every distinct chance outcome of the game, in id order (what OpenSpiel calls the chance
        outcomes' range: ``num_chance_outcomes`` of them)."""
        space = self._chance_space
        if space is None:
            space = self._build_chance_outcomes()
            ids = {(type(outcome), int(outcome)): i for i, outcome in enumerate(space)}
            if len(ids) != len(space):
                raise AssertionError(f"{self.id} declares a chance outcome twice")
            self._chance_space = space
            self._chance_ids = ids
        return space

    @property
    def num_chance_outcomes(self) -> int:
        """How many distinct chance outcomes the game has (ids are 0 to this minus one)."""
        return len(self.chance_outcome_space)

    def chance_outcome_id(self, outcome: Any) -> int:
        """The stable integer id of a chance outcome (the same in every game with these options
        and across processes), for adapters that number outcomes."""
        self.chance_outcome_space  # noqa: B018 - builds the table on first use
        found = self._chance_ids.get((type(outcome), int(outcome)))
        if found is None:
            raise IllegalAction(f"{outcome!r} is not a chance outcome of {self.id}")
        return found

    def chance_outcome_from_id(self, outcome_id: object) -> Any:
        """The chance outcome of id ``outcome_id`` (any integer type, never a bool)."""
        space = self.chance_outcome_space
        if isinstance(outcome_id, bool):
            raise IllegalAction(f"a chance outcome id is an integer, not {outcome_id!r}")
        try:
            index = operator.index(outcome_id)  # type: ignore[arg-type]
        except TypeError:
            raise IllegalAction(f"a chance outcome id is an integer, not {outcome_id!r}") from None
        if not 0 <= index < len(space):
            raise IllegalAction(
                f"{index} is not a chance outcome id of {self.id} (0..{len(space) - 1})"
            )
        return space[index]

    def action_from_id(self, action_id: object) -> Action:
        """The action of id ``action_id``: any integer type (NumPy's too), never a bool."""
        if isinstance(action_id, bool):
            raise IllegalAction(f"an action id is an integer, not {action_id!r}")
        try:
            index = operator.index(action_id)  # type: ignore[arg-type]
        except TypeError:
            raise IllegalAction(
                f"an action is an Action, its text or its id, not {action_id!r}"
            ) from None
        if not 0 <= index < len(self.actions):
            raise IllegalAction(
                f"{index} is not an action id of {self.id} (0..{len(self.actions) - 1})"
            )
        return self.actions[index]

    def action_from_text(self, text: str) -> Action | None:
        """The action written ``text`` (spaces folded, case ignored), or None."""
        return self._actions_by_text.get(_fold(text))

    def known_action(self, action: Action) -> Action | None:
        """This game's own instance of an action equal to ``action`` (unpickled, decoded, or
        from another copy of the game), or None if it has no such action."""
        index = action.id
        if type(index) is int and 0 <= index < len(self.actions):
            own = self.actions[index]
            if own is action or own == action:
                return own
        return None

    def config(self) -> dict[str, Any]:
        """What, with a history, replays a game: the id, player count and options."""
        return {"game": self.id, "players": self.num_players, "options": dict(self._options)}

    def __reduce__(self) -> tuple[Any, ...]:
        # A game is its class, player count and options: built again in the other process.
        return (_game_of, (type(self), self.num_players, dict(self._options)))

    def __repr__(self) -> str:
        changed = {k: v for k, v in self._options.items() if v != _default(self.info, k)}
        extra = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"courtly.make({self.id!r}, players={self.num_players}{extra})"


def _game_of(cls: type[Game], players: int, options: dict[str, Any]) -> Game:
    return cls(players, **options)


def _fold(text: str) -> str:
    """Action texts are matched ignoring case and runs of spaces (``Give-7  P2`` = ``give-7 p2``)."""
    return " ".join(text.lower().split())


def _default(info: GameInfo, name: str) -> OptionValue | None:
    for option in info.options:
        if option.name == name:
            return option.default
    return None


def _as_seat(seat: object, num_players: int) -> int | None:
    """``seat`` as a seat number (any integer type, NumPy's too, but no bool), or None."""
    if type(seat) is int:
        return seat if 0 <= seat < num_players else None
    if isinstance(seat, (bool, float, str)) or seat is None:
        return None
    try:
        number = operator.index(seat)  # type: ignore[arg-type]
    except TypeError:
        return None
    return number if 0 <= number < num_players else None


# ------------------------------------------------------------------------------ the state


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """A position of a game: the rules as a state machine.

    **The public moves belong to this class.** :meth:`apply`, :meth:`apply_chance`,
    :meth:`parse_action` and :meth:`view` are final: they check the seat, the turn and legality
    before anything changes, so an error leaves the state as it was, in every game alike. A game
    implements small hooks instead:

    * ``legal_actions(seat)`` and ``_apply(seat, action)`` (an action already checked legal);
    * ``chance_outcomes()``, ``_apply_chance(outcome)`` and, for speed, ``sample_chance_outcome``
      and ``_is_possible_outcome``;
    * ``returns()`` and ``clone()``; ``progress()``, ``scores()`` and ``_seats_in_game()`` where
      the game has them.

    The words of a refusal, the pictures and the narration come from the game's
    :class:`GameText`; what a seat may see, from its :class:`GameViews`.

    Subclasses keep ``is_chance``, ``is_terminal``, ``truncated`` and ``to_move`` up to date as
    plain attributes (they are read on every step of every playout).

    **Who sees which event** is declared here, for every game: while applying an event a game
    calls :meth:`_keep_secret` with the seats that may know it, and later :meth:`_reveal_event`
    when it becomes known to more of them (a card turned face up). Every other event is public.
    Views, logs and records all read this one declaration (kept in ``secrets``, an
    :class:`~courtly.core.events.EventSecrets`).

    **Simultaneous decisions.** ``to_move`` lists every seat still to submit; each ``apply``
    records one submission, secret until the last is in (declared with :meth:`_keep_secret`), and
    removes that seat from ``to_move``. *That* a seat has submitted is public; *what* it submitted
    is not: the redacted copy for another seat holds no trace of it, and the world sampler draws
    it afresh, so a sampled world has the same seats to move as the truth.
    """

    __slots__ = (
        "_partial",
        "_unnoted_from",
        "game",
        "history",
        "is_chance",
        "is_terminal",
        "num_players",
        "secrets",
        "to_move",
        "truncated",
        "world_plan",
    )

    game: Game
    num_players: int
    is_chance: bool
    is_terminal: bool
    truncated: bool
    """The game ended at its safety cap (option ``safety_cap``), not by its rules."""
    to_move: tuple[int, ...]
    """The seats that must decide now: several at a simultaneous point, none at chance or end."""
    history: list[Event]
    secrets: EventSecrets
    """Which events of the history some seats may not know (see :meth:`_keep_secret`)."""
    world_plan: object
    """What a game's world sampler works out once from a view's copy and shares between the
    worlds it draws from it (a search draws hundreds from one view); None until the sampler
    asks, and never copied: a clone is another position."""

    def __init__(self, game: Game, blank: bool = False) -> None:
        """Subclasses take ``blank=True`` for a bare instance that :meth:`clone` fills in
        (mypyc compiles no bare ``cls.__new__(cls)``), and pass it on: a blank instance gets
        its original's base fields from :meth:`_clone_base`."""
        self.game = game
        self.num_players = game.num_players
        self.history = []
        self.is_chance = False
        self.is_terminal = False
        self.truncated = False
        self.to_move = ()
        self._partial = False  # a view's copy or a world drawn from one: hidden events inside
        # The history's length when the state stopped noting secrets (stop_noting_secrets), or
        # -1: every event is noted.
        self._unnoted_from = -1
        if not blank:  # (a blank copy takes its original's, in _clone_base)
            self.secrets = EventSecrets()
        self.world_plan = None

    # ----------------------------------------------------------------------------- decisions

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The actions ``seat`` may take now (empty if it is not to move), each the game's own
        shared instance (``game.actions[action.id]``)."""

    @final
    def apply(self, seat: object, action: object) -> None:
        """Apply ``seat``'s decision: an :class:`Action` (or an equal one: unpickled, decoded),
        its text or its integer id (any integer type).

        Raises :class:`IllegalAction` with the reason, and changes nothing, if ``seat`` is not to
        move or the action is not legal now.
        """
        # The usual case inline (a seat number to move, an action off its legal list): this is
        # every step of a simulation, and each call saved is a few percent of a step.
        if type(seat) is int and seat in self.to_move:
            mover: int = seat
        else:
            mover = self._mover(seat, action)
        legal = self.legal_actions(mover)
        if isinstance(legal, tuple):
            # (Every game lists its actions in tuples: a compiled build loops over a tuple by
            # index, over any other sequence through the generic iterator. Only an action can be
            # one of the legal list's own: anything else is looked up below.)
            for i in range(len(legal)):
                if legal[i] is action:
                    chosen = legal[i]
                    self._apply(mover, chosen)
                    self.history.append((mover, chosen))
                    return
        chosen = self._legal_action(mover, action)
        self._apply(mover, chosen)
        self.history.append((mover, chosen))

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Apply a decision already checked to be legal (the game's shared instance)."""

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

    @final
    def parse_action(self, seat: object, text: object) -> Action:
        """The legal action of ``seat`` written ``text``; :class:`IllegalAction` saying why not
        (and listing the legal forms) if there is none."""
        mover = self._mover(seat, text)
        if not isinstance(text, str):
            raise IllegalAction(f"an action's text is a string, not {text!r}")
        words = self.game.text
        action = words.action_from_text(self, mover, text)
        if action is None:
            raise IllegalAction(words.why_unknown(self, mover, text))
        for legal in self.legal_actions(mover):
            if legal is action:
                return legal
        raise IllegalAction(words.why_illegal(self, mover, action))

    def _mover(self, seat: object, action: object) -> int:
        """``seat`` as the number of a seat to move now, or :class:`IllegalAction` saying why."""
        if type(seat) is int and seat in self.to_move:  # the usual case, at once
            return seat
        number = _as_seat(seat, self.num_players)
        if number is not None and number in self.to_move:
            return number
        raise IllegalAction(self.game.text.why_not_to_move(self, seat, action))

    def _legal_action(self, seat: int, action: object) -> Action:
        """The game's own legal instance of ``action`` (an Action, text or id), or the reason."""
        legal = self.legal_actions(seat)
        if isinstance(action, Action):
            for option in legal:
                if option is action:
                    return option
            # An action is a value: an equal one from elsewhere is the same action.
            own = self.game.known_action(action)
            if own is not None:
                for option in legal:
                    if option is own:
                        return option
            refused = action if own is None else own
            raise IllegalAction(self.game.text.why_illegal(self, seat, refused))
        if isinstance(action, str):
            return self.parse_action(seat, action)
        own = self.game.action_from_id(action)
        for option in legal:
            if option is own:
                return option
        raise IllegalAction(self.game.text.why_illegal(self, seat, own))

    # ----------------------------------------------------------------------------- chance

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """``(outcome, probability)`` for every possible outcome of the pending chance event."""

    @final
    def apply_chance(self, outcome: object) -> None:
        """Resolve the pending chance event with ``outcome`` (an outcome or its text).

        Raises :class:`IllegalAction`, and changes nothing, if no chance event is pending or the
        outcome cannot happen now."""
        if not self.is_chance:
            raise IllegalAction(
                "the game is over" if self.is_terminal else "no chance event is pending"
            )
        if isinstance(outcome, str):
            outcome = self.game.text.parse_chance(self, outcome)
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

    def progress(self) -> dict[str, int]:
        """How far the game has gone in its own units (``{"hands": 4}``, ``{"turns": 31}``):
        what a balance report measures a game's length in, besides its steps and decisions.
        Empty by default."""
        return {}

    def scores(self) -> list[float] | None:
        """Each seat's points in the game's own scoring (Royal Gambit's totals, a pawn's space
        on King's Court's track), where it keeps any: the report's score and margin
        distributions. None (the default) for a game won without points."""
        return None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (shared), empty until the game is over."""
        if not self.is_terminal:
            return ()
        return tuple(seat for seat, value in enumerate(self.returns()) if value > 0)

    @property
    def active_seats(self) -> tuple[int, ...]:
        """The seats still in the game (a game that eliminates players overrides
        :meth:`_seats_in_game`)."""
        return self._seats_in_game()

    def _seats_in_game(self) -> tuple[int, ...]:
        return tuple(range(self.num_players))

    # ----------------------------------------------------------------------------- who sees what

    def _keep_secret(self, knowers: int) -> None:
        """Declare the event being applied known only to ``knowers`` (a mask of
        :func:`~courtly.core.events.observer_bit`); call it from ``_apply`` or
        ``_apply_chance``."""
        if self._unnoted_from < 0:
            self.secrets.knowers[len(self.history)] = knowers

    def _reveal_event(self, index: int, knowers: int = PUBLIC) -> None:
        """The event at ``index`` of the history becomes known to ``knowers`` too (everyone by
        default: a card turned face up)."""
        if self._unnoted_from >= 0:
            return
        secrets = self.secrets
        secret = secrets.knowers
        if index in secret:
            secrets.note(len(self.history), index, knowers)
            if knowers == PUBLIC:
                del secret[index]
            else:
                secret[index] |= knowers

    def _reveal_all(self) -> None:
        """Every secret event becomes public (the game is over: every card is shown)."""
        if self._unnoted_from < 0:
            self.secrets.reveal_all(len(self.history))

    def stop_noting_secrets(self) -> None:
        """Note no more events as secret or revealed: for a world that a search alone plays on.

        A search that asks no seat's view of its worlds never needs to know who may know an
        event, and noting it costs a good part of a rollout's steps. The rules play the same
        game either way (they note secrets for views and logs, and decide nothing by them). Once
        the state has played on from here, its views and logs are refused: they would show what
        was hidden."""
        if self._unnoted_from < 0:
            self._unnoted_from = len(self.history)

    def _check_secrets_noted(self) -> None:
        """Refuse to tell what a seat may know where the state no longer knows it."""
        if 0 <= self._unnoted_from < len(self.history):
            raise RuntimeError(
                "this world was drawn for a search and has played on without noting its "
                "secrets: it has no views or logs (draw one with view.determinize for that)"
            )

    @final
    def view(self, seat: object) -> View:
        """What ``seat`` may know, and nothing else; ``None`` is a spectator."""
        who: int | None = None
        if seat is not None:
            who = _as_seat(seat, self.num_players)
            if who is None:
                raise IllegalAction(f"{seat!r} is not a seat of this game")
        self._check_secrets_noted()
        copy = self.game.views.redacted(self, who)
        copy.history = self.secrets.seen_by(self.history, observer_bit(who, self.num_players))
        copy._partial = copy._partial or any(item is HIDDEN for _, item in copy.history)
        return View(copy, who)

    def log(self, seat: int | None, since: int = 0) -> list[list[str]]:
        """The events from index ``since`` on, as ``seat`` saw them: ``[actor, text]`` pairs,
        ``"?"`` for what it may not know. Ask for increments (``since`` = the length already
        seen) so that a long game is not sent again and again."""
        self._check_secrets_noted()
        bit = observer_bit(seat, self.num_players)
        return log_lines(self.secrets.seen_by(self.history, bit, since))

    def log_from(self, seat: int | None, since: int) -> int:
        """Where to resume ``seat``'s log for a reader that holds its first ``since`` events:
        ``since``, or earlier when one of them has been revealed to the seat since (a card turned
        face up changes the entry the reader has as ``"?"``)."""
        self._check_secrets_noted()
        return self.secrets.log_resumes_at(observer_bit(seat, self.num_players), since)

    # ----------------------------------------------------------------------------- text

    def render(self, seat: int | None) -> str:
        """A readable text picture of the position from ``seat``'s side (the game's text)."""
        return self.game.text.render(self, seat)

    def narrate(self, actor: int, item: Any, seat: int | None) -> str | None:
        """One line telling ``seat`` about an event about to be applied (the game's text)."""
        return self.game.text.narrate(self, actor, item, seat)

    # ----------------------------------------------------------------------------- copies

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (hand-written in each game: no deepcopy on the hot path)."""

    def _clone_base(self, other: State) -> None:
        """Copy the base fields into ``other`` (a blank instance of the same class)."""
        other.game = self.game
        other.num_players = self.num_players
        other.history = self.history.copy()
        other.is_chance = self.is_chance
        other.is_terminal = self.is_terminal
        other.truncated = self.truncated
        other.to_move = self.to_move
        other._partial = self._partial
        other._unnoted_from = self._unnoted_from
        other.secrets = self.secrets.copy()

    def history_text(self) -> list[list[str]]:
        """The history as ``[actor, event]`` text pairs, e.g. ``["p1", "hit"]``, ``["chance", "7H"]``."""
        return log_lines(self.history)

    def record(self, **extra: Any) -> MatchRecord:
        """The game as a record (:mod:`courtly.core.records`) as it stands: its config and
        history, and its result once over; ``extra`` fills the record's other fields (seed,
        seats...)."""
        config = self.game.config()
        return MatchRecord(
            game=config["game"],
            players=config["players"],
            options=config["options"],
            history=self.history_text(),
            returns=self.returns() if self.is_terminal else [],
            truncated=self.truncated,
            **extra,
        )

    def to_json(self) -> str:
        """The game as a record's JSON; :func:`courtly.load` rebuilds it exactly."""
        return self.record().to_json()

    def __reduce__(self) -> tuple[Any, ...]:
        # A game in play is its history: replayed on the other side, exactly, with the game's
        # own shared actions. A view's copy holds hidden events and cannot replay: it travels as
        # its fields.
        if not self._partial:
            return (replay, (self.game, self.history_text()))
        return (rebuild, (type(self), (self.game,), fields_of(self), {"blank": True}))

    def __eq__(self, other: object) -> bool:
        """Two states are equal when the same game reached them by the same events."""
        if not isinstance(other, State):
            return NotImplemented
        return (
            self.game.config() == other.game.config()
            and self.history_text() == other.history_text()
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} after {len(self.history)} events>"


# ------------------------------------------------------------------------------ the view


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

    @property
    def truncated(self) -> bool:
        return self._state.truncated

    @property
    def active_seats(self) -> tuple[int, ...]:
        return self._state.active_seats

    @property
    def winners(self) -> tuple[int, ...]:
        return self._state.winners

    @property
    def version(self) -> int:
        """How many events the game has had: what the view was taken after."""
        return len(self._state.history)

    def returns(self) -> list[float]:
        """The result once the game is over (public then); zeros before."""
        return self._state.returns()

    def observation(self) -> dict[str, Any]:
        """JSON-able: the public table, this seat's hidden cards, counts of others', what it has
        privately learned. Its size does not grow with the game: the events are in :meth:`log`."""
        state = self._state
        return state.game.views.observation(state, self.seat)

    def log_from(self, since: int) -> int:
        """Where to resume the log for a reader holding its first ``since`` events (earlier than
        ``since`` when one of them was revealed to this seat since: :meth:`State.log_from`)."""
        return self._state.log_from(self.seat, since)

    def log(self, since: int = 0) -> list[list[str]]:
        """The events from index ``since`` on as this seat saw them (``[actor, text]`` pairs,
        ``"?"`` for what it may not know)."""
        return self._state.log(self.seat, since)

    def legal_actions(self) -> Sequence[Action]:
        if self.seat is None or self.seat not in self._state.to_move:
            return ()
        return self._state.legal_actions(self.seat)

    def parse_action(self, text: str) -> Action:
        if self.seat is None:
            raise IllegalAction("a spectator makes no moves")
        return self._state.parse_action(self.seat, text)

    def caution(self, action: Action) -> str | None:
        """A warning a person should read before this legal move (:meth:`GameText.caution`)."""
        if self.seat is None:
            return None
        state = self._state
        return state.game.text.caution(state, self.seat, action)

    def input_steps(self, text: str) -> list[str]:
        """One typed line as the texts of the actions it means (:meth:`GameText.input_steps`)."""
        if self.seat is None:
            return [text]
        state = self._state
        return state.game.text.input_steps(state, self.seat, text)

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with everything this seat knows (the hook for ISMCTS)."""
        seen = self._state
        world = seen.game.views.determinize(seen, self.seat, rng)
        # What was revealed when is part of what the seat saw: a world's log resumes like the
        # truth's (log_from) whichever way the game drew it.
        world.secrets.take_reveals(seen.secrets)
        return world

    def search_world(self, rng: random.Random) -> State:
        """A world drawn as :meth:`determinize` draws it, for a search that only plays on from
        it: its history need not replay (:meth:`GameViews.search_world`)."""
        seen = self._state
        world = seen.game.views.search_world(seen, self.seat, rng)
        world.secrets.take_reveals(seen.secrets)
        return world

    def render(self) -> str:
        state = self._state
        return state.game.text.render(state, self.seat)

    def __reduce__(self) -> tuple[Any, ...]:
        return (View, (self._state, self.seat))

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

    Raises :class:`ReplayError` naming the first event that does not apply (its number and its
    seat).
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
            shown = [str(part) for part in event] if isinstance(event, (list, tuple)) else event
            raise ReplayError(f"move {index + 1} {shown} is not legal there: {error}") from None
    return state
