"""Every Courtly game as an OpenSpiel game, so OpenSpiel's algorithms run on them.

Importing this module registers one Python game per Courtly game, named
``python_courtly_`` + its id (``python_courtly_royal_gambit``), with the player count and every
option as game parameters::

    import pyspiel
    import courtly.rl.openspiel  # registers the games

    game = pyspiel.load_game("python_courtly_royal_gambit", {"players": 3, "target_score": 40})
    state = game.new_initial_state()

* **Chance is explicit**: a chance node's outcomes are the game's chance outcome ids
  (``game.chance_outcome_id``), in ascending order, with their probabilities.
* **Decisions are sequential**: a point where several seats decide at once is a run of turns,
  one per seat; no seat's information state holds the choices made before its own.
* **Actions** are the Courtly action ids, listed in ascending order.
* **Observation tensor**: the seat's observation vector (:mod:`courtly.rl.tensors`). It holds
  what the seat knows now (its hand, what it has learned, the table), not every past event.
* **Information-state tensor**, by the game parameter ``infostate_tensor``: ``"observation"``
  (the default) is the observation vector again, sufficient for play; ``"perfect_recall"`` is
  what the seat observed at each of its decisions and what it chose there, then what it
  observes now, in a vector whose size is fixed by the game's proven bound on decisions
  (:mod:`courtly.rl.recall`): for Deep CFR, NFSP and the other learners over information sets.
* **Observation string**: the position drawn from the seat's view (``courtly play``'s picture).
* **Information-state string**, by the game parameter ``infostate``: ``"key"`` (the default) is
  a fixed-size key of everything the seat has observed, event by event (``game.views.observed``,
  what Courtly's own ISMCTS branches on), with what it sees now, which does not grow with the
  game: cheap to hash, as OpenSpiel's ISMCTS does at every node. ``"readable"`` is the seat's
  log, an event a line as the seat saw it (``"?"`` for what it may not know), then its
  observation now as JSON: the same information sets, for reading while debugging.
* ``resample_from_infostate`` draws a world from the seat's view (``view.determinize``), so
  OpenSpiel's ISMCTS can search Courtly games.
* Returns are Courtly's: a sole winner 1, tied winners share 1, others 0. They always sum to
  1, so every game is declared constant-sum (``utility_sum`` 1.0), which OpenSpiel's
  ``exploitability`` and ``nash_conv`` ask for.
* :data:`TINY` names option sets small enough for a full walk of the game tree (OpenSpiel's
  ``exploitability``, CFR, tabular policies).
"""

from __future__ import annotations

import hashlib
import json
import operator
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ..core.events import CHANCE
from ..core.game import Game, State
from ..core.registry import games, make
from .recall import Decision, RecallLayout, decisions_from_history
from .tensors import Observer, set_from_kernel

PREFIX = "python_courtly_"

INFOSTATES = ("key", "readable")
"""The choices of the game parameter ``infostate``: the information-state string."""
INFOSTATE_TENSORS = ("observation", "perfect_recall")
"""The choices of the game parameter ``infostate_tensor``: the information-state tensor."""
ADAPTER_PARAMETERS = {"infostate": INFOSTATES[0], "infostate_tensor": INFOSTATE_TENSORS[0]}
"""The parameters of every game that are the adapter's, not the Courtly game's options, with
their defaults."""

TINY: dict[str, dict[str, Any]] = {
    # Two players, one turn each: the start seat, a draw from 26 cards and the plays of each
    # turn, about 8,000 nodes; a pawn reaches the end with any number card of its suit, so
    # either seat may win, or neither (a shared 1/2 at the cap).
    "kings-court": {"players": 2, "track_length": 1, "safety_cap": 2},
}
"""Courtly games with option sets whose whole tree a Python walk covers in seconds, and whose
outcome still depends on the seats' choices: the parameters for
``pyspiel.load_game(game_name(game_id), TINY[game_id])``. (The other games need more than a few
turns before anyone can win, and their trees grow past a walk's reach first.)"""


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE_PLAYER = int(pyspiel.PlayerId.CHANCE)
_NO_KEY = bytes(16)


def game_name(game_id: str) -> str:
    """``royal-gambit`` -> ``python_courtly_royal_gambit``."""
    return PREFIX + game_id.replace("-", "_")


def _key(previous: bytes, seen: object) -> bytes:
    return hashlib.blake2b(previous + repr(seen).encode(), digest_size=16).digest()


class CourtlyGame(pyspiel.Game):  # type: ignore[misc]
    """A Courtly game with its parameters fixed, as an OpenSpiel game."""

    game_type: Any = None
    """Set on each game's subclass (see :func:`register_all`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type = self.game_type
        given = dict(params or {})
        game_id = game_type.short_name.removeprefix(PREFIX).replace("_", "-")
        defaults = game_type.parameter_specification
        self.infostate = _choice(given, "infostate", INFOSTATES)
        self.infostate_tensor = _choice(given, "infostate_tensor", INFOSTATE_TENSORS)
        players = int(given.pop("players", defaults["players"]))
        # Options left at their defaults are not passed: a game may choose them by the player
        # count (Goths Save the Queen's solo clans).
        options = {
            name: value
            for name, value in given.items()
            if name in defaults and value != defaults[name]
        }
        self.courtly: Game = make(game_id, players=players, **options)
        # Every initial state is a clone of this one, never handed out: cheaper than building
        # one, and pyspiel builds a fresh initial state at every observation_tensor call.
        self._initial = self.courtly.new_state()
        self.chance_ids = _ChanceIds(self.courtly)
        self._floats_observers: dict[bool, tuple[CourtlyObserver, list[float]]] = {}
        longest = self.courtly.longest_game()
        self.recall = (
            RecallLayout(self.courtly) if self.infostate_tensor == "perfect_recall" else None
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.courtly.num_actions,
            max_chance_outcomes=self.courtly.num_chance_outcomes,
            num_players=self.courtly.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=longest.decisions,
        )
        adapter = {"infostate": self.infostate, "infostate_tensor": self.infostate_tensor}
        super().__init__(game_type, info, {"players": players, **self.courtly.options, **adapter})

    def new_initial_state(self) -> CourtlyState:
        return CourtlyState(self, self._initial.clone())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CourtlyObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CourtlyObserver(self, perfect_recall)

    def tensor_floats(
        self, state: CourtlyState, player: int, information_state: bool
    ) -> list[float]:
        """``player``'s observation tensor of ``state`` (its information-state tensor if
        ``information_state``) as a float per slot, as pyspiel's ``observation_tensor`` and
        ``information_state_tensor`` list them (written by observers of this game's own, of
        the kinds pyspiel asks for)."""
        found = self._floats_observers.get(information_state)
        if found is None:
            kind = pyspiel.IIGObservationType(perfect_recall=True) if information_state else None
            observer = self.make_py_observer(kind)
            found = self._floats_observers[information_state] = (
                observer,
                [0.0] * observer.tensor.size,
            )
        observer, zeros = found
        observer.set_from(state, player)
        return _floats(observer.tensor, zeros)


def _floats(tensor: npt.NDArray[np.float32], zeros: list[float]) -> list[float]:
    """``tensor.tolist()``, built faster for a mostly zero tensor: a copy of a list of zeros
    (one shared float) with the other slots set (a Python float made per slot is the cost)."""
    # Every slot whose bits are not +0.0's: a -0.0 (or a NaN) keeps its own float.
    slots = np.flatnonzero(tensor.view(np.int32))
    if 4 * len(slots) > len(zeros):
        return tensor.tolist()  # type: ignore[no-any-return]
    floats = zeros.copy()
    for slot, value in zip(slots.tolist(), tensor[slots].tolist(), strict=True):
        floats[slot] = value
    return floats


def _player(player: object) -> int:
    """A player argument as pyspiel takes it: an integer (NumPy's too), never a bool."""
    if isinstance(player, bool):
        raise TypeError(f"a player is an integer, not {player!r}")
    return operator.index(player)  # type: ignore[arg-type]


def _choice(given: dict[str, Any], name: str, choices: tuple[str, ...]) -> str:
    """The adapter's parameter ``name`` taken out of ``given``, checked against ``choices``."""
    value = given.pop(name, choices[0])
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return str(value)


class _ChanceIds:
    """The chance outcome ids of a game's outcomes, found by the identity of the game's own
    outcome objects (the ones its states list: a dict lookup, where the game's numbering builds
    and hashes a key per outcome); any other object, an equal copy, is numbered by the game."""

    __slots__ = ("by_identity", "game", "space")

    def __init__(self, game: Game) -> None:
        self.game = game
        # The space holds every object the dict names, so no other object takes one's id.
        self.space = game.chance_outcome_space
        self.by_identity = {id(outcome): index for index, outcome in enumerate(self.space)}

    def __reduce__(self) -> tuple[Any, ...]:
        # Identities do not survive a copy to another process: the copy numbers its own.
        return _ChanceIds, (self.game,)

    def numbered(self, outcomes: list[tuple[Any, float]]) -> list[tuple[int, float]]:
        """``(id, probability)`` for each ``(outcome, probability)``, in id order."""
        by_identity = self.by_identity.get
        outcome_id = self.game.chance_outcome_id
        numbered = [
            (found if (found := by_identity(id(outcome))) is not None else outcome_id(outcome), p)
            for outcome, p in outcomes
        ]
        numbered.sort()  # by id: ids are distinct, so probabilities are never compared
        return numbered


class _Position:
    """The Courtly state inside an OpenSpiel state, each seat's decisions so far, and the game's
    chance outcome ids (shared by every copy).

    OpenSpiel clones a Python state (``clone``, ``child``, every tree walk) by deep-copying each
    of its attributes: a deep copy of this is the game's own clone, where a deep copy of the
    Courtly state would rebuild its game too, and the decisions' vectors are shared, never
    being written again.
    """

    __slots__ = ("chance_ids", "decisions", "observed", "state")

    def __init__(
        self,
        state: State,
        decisions: list[list[Decision] | None] | None,
        chance_ids: _ChanceIds,
    ) -> None:
        self.state = state
        self.decisions = decisions
        """Kept only for a perfect-recall information-state tensor (None: not asked for; a
        seat's None: to be replayed from the history when asked)."""
        self.chance_ids = chance_ids
        self.observed: dict[int, tuple[int, npt.NDArray[np.float32]]] | None = None
        """Each seat to move's observation as a perfect-recall observer wrote it here (the
        length of the history then, a copy): its decision's observation if it moves next, not
        written again (None until an observer keeps one: no dict made at every clone)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        decisions = self.decisions
        if decisions is not None:
            decisions = [None if seat is None else seat.copy() for seat in decisions]
        return _Position(self.state.clone(), decisions, self.chance_ids)


class CourtlyState(pyspiel.State):  # type: ignore[misc]
    """A Courtly state as an OpenSpiel state, with each seat's information key."""

    def __init__(self, game: CourtlyGame, state: State, keys: list[bytes] | None = None) -> None:
        super().__init__(game)
        players = state.num_players
        recall = game.recall is not None
        decisions: list[list[Decision] | None] | None = (
            [[] for _ in range(players)] if recall else None
        )
        self.position = _Position(state, decisions, game.chance_ids)
        self.keys = keys if keys is not None else [_NO_KEY] * players
        self.notes: list[list[tuple[int, Any]]] = [[] for _ in range(players)]
        self._information: dict[int, str] = {}
        self.readable = game.infostate == "readable"

    @property
    def courtly(self) -> State:
        """The Courtly state (the moves below, called at every step, read it without this
        property's call)."""
        return self.position.state

    # ------------------------------------------------------------------ moves

    def current_player(self) -> int:
        state = self.position.state
        if state.is_terminal:
            return _TERMINAL
        if state.is_chance:
            return _CHANCE_PLAYER
        return state.to_move[0]

    # pyspiel's own is_chance_node, legal_actions and tensors run in C++ and call back into
    # this class several times a call (legal_actions five times; a tensor also builds an initial
    # state to learn its shape, then a Python float per slot from C++). For Python callers the
    # methods below answer the same straight from the Courtly state; C++ callers (OpenSpiel's
    # C++ algorithms) still take pyspiel's way.

    def is_chance_node(self) -> bool:
        state = self.position.state
        return state.is_chance and not state.is_terminal

    def legal_actions(self, player: object = None) -> list[int]:
        """pyspiel's ``legal_actions``: the mover's by default; none for another seat."""
        state = self.position.state
        seat = self.current_player() if player is None else _player(player)
        if state.is_terminal:
            return []
        if state.is_chance:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if seat == state.to_move[0]:
            return self._legal_actions(seat)
        if seat < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {seat}")
        return []

    def observation_tensor(self, player: object = None) -> list[float]:
        """pyspiel's ``observation_tensor``: the seat's observation vector (the mover's by
        default) as a list of floats; :func:`open_spiel.python.observation.make_observation`
        gives it as a NumPy array, without the list."""
        return self._tensor_floats(player, information_state=False)

    def information_state_tensor(self, player: object = None) -> list[float]:
        """pyspiel's ``information_state_tensor`` (as chosen by ``infostate_tensor``), the
        mover's by default, as a list of floats; ``make_observation`` with
        ``IIGObservationType(perfect_recall=True)`` gives it as a NumPy array."""
        return self._tensor_floats(player, information_state=True)

    def _tensor_floats(self, player: object, information_state: bool) -> list[float]:
        state = self.position.state
        seat = self.current_player() if player is None else _player(player)
        if not 0 <= seat < state.num_players:
            raise pyspiel.SpielError(
                f"player {seat} has no tensor to observe (seats 0..{state.num_players - 1})"
            )
        game: CourtlyGame = self.get_game()
        return game.tensor_floats(self, seat, information_state)

    def _legal_actions(self, player: int) -> list[int]:
        ids = [action.id for action in self.position.state.legal_actions(player)]
        ids.sort()
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        position = self.position
        return position.chance_ids.numbered(position.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        position = self.position
        state = position.state
        if state.is_chance:
            item = state.game.chance_outcome_from_id(action)
            actor = CHANCE
        else:
            actor = state.to_move[0]
            item = state.game.action_from_id(action)
        self._note(actor, item)
        if self._information:
            self._information = {}
        if position.decisions is not None and actor != CHANCE:
            kept = position.decisions[actor]
            if kept is not None:  # None: replayed from the history when asked, this one too
                observed = None if position.observed is None else position.observed.get(actor)
                if observed is not None and observed[0] == len(state.history):
                    kept.append((observed[1], item.id))
                else:
                    kept.append(self._decision_observation(actor, item.id))
            position.observed = None
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)

    def _note(self, actor: int, item: Any) -> None:
        """Each seat notes what it observes of the event (asked before it happens); the notes
        are hashed into its key only when the key is asked for (a rollout never asks)."""
        state = self.position.state
        observed = state.game.views.observed
        for seat, notes in enumerate(self.notes):
            notes.append((actor, item.id if seat == actor else observed(state, actor, item, seat)))

    def _folded(self, seat: int) -> bytes:
        """The seat's key with its pending notes taken in, one at a time: the key of an event
        sequence is the same whenever it is asked for (an algorithm that asks at some nodes
        only, as OpenSpiel's best response does, finds the key its policy table holds)."""
        pending = self.notes[seat]
        if pending:
            key = self.keys[seat]
            for note in pending:
                key = _key(key, note)
            self.keys[seat] = key
            self.notes[seat] = []
        return self.keys[seat]

    def _decision_observation(self, seat: int, action: int) -> Decision:
        # Written from the state by the game's recall layout, asked of the game each time: an
        # attribute of the state's own would be deep-copied by OpenSpiel's every clone.
        recall: RecallLayout = self.get_game().recall
        return recall.decision(self.position.state, seat, action)

    def seat_decisions(self, seat: int) -> list[Decision]:
        """What ``seat`` observed at each of its decisions and what it chose there (a copy)."""
        return self._seat_decisions(seat).copy()

    def _seat_decisions(self, seat: int) -> list[Decision]:
        decisions = self.position.decisions
        if decisions is None:
            raise ValueError(
                "the perfect-recall decisions are kept only with infostate_tensor='perfect_recall'"
            )
        found = decisions[seat]
        if found is None:  # a seat drawn into a sampled world: what it would have seen there
            state = self.courtly
            found = decisions[seat] = decisions_from_history(state.game, state.history, seat)
        return found

    def information_key(self, player: int) -> str:
        """The seat's information-state string: its key of observed events with its observation
        now (which settles what events alone may not: a card seen only as it turns up later),
        hashed to a fixed size, cached until the next move."""
        found = self._information.get(player)
        if found is None:
            found = self._information[player] = (
                self._readable(player) if self.readable else self._digest(player)
            )
        return found

    def _digest(self, player: int) -> str:
        observation = json.dumps(self.courtly.view(player).observation(), sort_keys=True)
        return f"p{player} {_key(self._folded(player), observation).hex()}"

    def _readable(self, player: int) -> str:
        """The seat's log, an event a line as it saw it, then its observation now: the events
        and the position the key digests, as text."""
        view = self.courtly.view(player)
        lines = [f"p{player}"]
        lines.extend(f"{actor}: {text}" for actor, text in view.log())
        lines.append("now: " + json.dumps(view.observation(), sort_keys=True))
        return "\n".join(lines)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.courtly.game
        if player == pyspiel.PlayerId.CHANCE:
            return str(game.chance_outcome_from_id(action))
        return str(game.action_from_id(action))

    def is_terminal(self) -> bool:
        return self.position.state.is_terminal

    def returns(self) -> list[float]:
        state = self.position.state
        return list(state.returns()) if state.is_terminal else [0.0] * state.num_players

    # ------------------------------------------------------------------ copies and worlds

    def __deepcopy__(self, memo: dict[int, Any]) -> CourtlyState:
        """A Python deep copy (OpenSpiel's own clone copies the attributes, each as cheaply:
        :class:`_Position`)."""
        copy = CourtlyState(self.get_game(), self.courtly, self.keys.copy())
        copy.notes = [pending.copy() for pending in self.notes]
        copy.position = self.position.__deepcopy__(memo)
        return copy

    def resample_from_infostate(self, player: int, sampler: Any) -> CourtlyState:
        """A world drawn from ``player``'s view, keyed so that ``player``'s information set is
        the same; the other seats' keys take in what each holds in that world."""
        seed = int(sampler() * 2**31) if callable(sampler) else random.getrandbits(31)
        world = self.courtly.view(player).determinize(random.Random(seed))
        keys = [self._folded(seat) for seat in range(world.num_players)]
        for seat in range(world.num_players):
            if seat != player:
                hidden = json.dumps(world.view(seat).observation(), sort_keys=True)
                keys[seat] = _key(keys[player], ("world", seat, hidden))
        resampled = CourtlyState(self.get_game(), world, keys)
        if self.position.decisions is not None:  # the player's own are the same in the world
            decisions: list[list[Decision] | None] = [None] * world.num_players
            decisions[player] = self._seat_decisions(player).copy()
            resampled.position.decisions = decisions
        return resampled

    def __str__(self) -> str:
        return self.courtly.render(None)


class CourtlyObserver:
    """OpenSpiel's observer of a Courtly game: the seat's observation vector and strings, and
    for the information state with ``infostate_tensor="perfect_recall"`` its decisions too
    (:mod:`courtly.rl.recall`)."""

    def __init__(self, game: CourtlyGame, perfect_recall: bool) -> None:
        self.game = game.courtly
        self.perfect_recall = perfect_recall
        self.recall = game.recall if perfect_recall else None
        recall = self.recall
        self.dict: dict[str, npt.NDArray[np.float32]]
        if recall is None:
            self.tensor = np.zeros(game.courtly.tensor_layout().size, np.float32)
            self.now = self.tensor
            self.dict = {"observation": self.tensor}
        else:
            self.tensor = np.zeros(recall.size, np.float32)
            self.now = self.tensor[recall.now :]
            decisions = self.tensor[: recall.now].reshape(recall.slots, recall.slot_size)
            self.dict = {"decisions": decisions, "observation": self.now}
        self.observer = Observer(game.courtly)
        # The seat's observation into `now` in one call (C where built): the state and the
        # seat are checked in set_from before it.
        self._fill_now = self.observer.filler(self.now)
        self._players = self.game.num_players
        # OpenSpiel's set_from, at every step of a learner: with no decisions to keep, one C
        # call where built, which takes a state of this game past its start and a seat in
        # range itself and hands anything else to the checked path (no Python frame per step).
        self.set_from: Callable[[CourtlyState, int], None] = self._set_from
        if recall is None and set_from_kernel is not None:
            self.set_from = set_from_kernel(
                self._fill_now, self.game, self._players, self._set_from
            )
        # The decisions written last, and how many: a seat's list only grows (a copied state
        # gets its own), so the same list again needs only its new slots written.
        self._written: list[Decision] | None = None
        self._initial: dict[int, npt.NDArray[np.float32]] = {}
        self._slots = 0

    def _set_from(self, state: CourtlyState, player: int) -> None:
        """``set_from`` in Python: every state and seat, with the observer's checks."""
        courtly = state.position.state
        if courtly.history:
            if type(player) is int and 0 <= player < self._players and courtly.game is self.game:
                self._fill_now(courtly, player)  # every step of a learner: the fewest checks
            else:  # the observer's own checks: a bad state or seat raises, writing nothing
                self.observer.write_observation(courtly, player, self.now)
        else:
            # pyspiel learns the tensor's shape at every observation_tensor call by observing a
            # fresh initial state; with nothing applied yet it is always the same state, so
            # each seat's observation of it is written once and then copied.
            initial = self._initial.get(player)
            if initial is None:
                self.observer.write_observation(courtly, player, self.now)
                self._initial[player] = self.now.copy()
            else:
                self.now[:] = initial
        if self.recall is not None:
            if player in courtly.to_move and not courtly.is_terminal:
                # The mover's observation, kept for its decision record: the state's next move
                # takes it rather than writing it again.
                position = state.position
                if position.observed is None:
                    position.observed = {}
                position.observed[player] = (len(courtly.history), self.now.copy())
            decisions = state._seat_decisions(player)
            kept = self._slots if decisions is self._written else 0
            self._slots = self.recall.write_decisions(decisions, self.tensor, kept, self._slots)
            self._written = decisions

    def string_from(self, state: CourtlyState, player: int) -> str:
        if self.perfect_recall:
            return state.information_key(player)
        return state.courtly.view(player).render()


def _parameters(game_id: str) -> dict[str, Any]:
    info = make(game_id).info
    options = {o.name: o.default for o in info.options}
    return {"players": info.default_players, **options, **ADAPTER_PARAMETERS}


def register_all() -> list[str]:
    """Register every Courtly game with OpenSpiel (done on import); returns the names."""
    names = []
    registered = set(pyspiel.registered_names())
    for info in games():
        if info.id.startswith("test-") or info.tensor_layout is None:
            continue
        name = game_name(info.id)
        names.append(name)
        if name in registered:
            continue
        game_type = pyspiel.GameType(
            short_name=name,
            long_name=f"Courtly {info.title}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=info.max_players,
            min_num_players=info.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=_parameters(info.id),
        )

        # A class per game, as OpenSpiel's own Python games register (a closure here makes
        # the interpreter crash at exit, when OpenSpiel's registry is torn down).
        cls = type(
            "".join(word.capitalize() for word in info.id.split("-")) + "Game",
            (CourtlyGame,),
            {"game_type": game_type, "__module__": __name__},
        )
        globals()[cls.__name__] = cls
        pyspiel.register_game(game_type, cls)
    return names


GAME_NAMES = register_all()
