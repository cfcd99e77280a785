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
* **Observation tensor** and **information-state tensor**: the seat's observation vector
  (:mod:`courtly.rl.tensors`). It holds what the seat knows now (its hand, what it has learned,
  the table), not every past event: sufficient for play, not a perfect-recall history.
* **Observation string**: the position drawn from the seat's view (``courtly play``'s picture).
  **Information-state string**: a fixed-size key of everything the seat has observed, event by
  event (``state.observed``, what Courtly's own ISMCTS branches on), with what it sees now,
  which does not grow with the game: cheap to hash, as OpenSpiel's ISMCTS does at every node.
* ``resample_from_infostate`` draws a world from the seat's view (``view.determinize``), so
  OpenSpiel's ISMCTS can search Courtly games.
* Returns are Courtly's: a sole winner 1, tied winners share 1, others 0.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..core.events import CHANCE
from ..core.game import Game, State
from ..core.registry import games, make
from .tensors import Observer

PREFIX = "python_courtly_"


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
        players = int(given.pop("players", defaults["players"]))
        # Options left at their defaults are not passed: a game may choose them by the player
        # count (Goths Save the Queen's solo clans).
        options = {
            name: value
            for name, value in given.items()
            if name in defaults and value != defaults[name]
        }
        self.courtly: Game = make(game_id, players=players, **options)
        longest = self.courtly.longest_game()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.courtly.num_actions,
            max_chance_outcomes=self.courtly.num_chance_outcomes,
            num_players=self.courtly.num_players,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=longest.decisions,
        )
        super().__init__(game_type, info, {"players": players, **self.courtly.options})

    def new_initial_state(self) -> CourtlyState:
        return CourtlyState(self, self.courtly.new_state())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CourtlyObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CourtlyObserver(self.courtly, perfect_recall)


class CourtlyState(pyspiel.State):  # type: ignore[misc]
    """A Courtly state as an OpenSpiel state, with each seat's information key."""

    def __init__(self, game: CourtlyGame, state: State, keys: list[bytes] | None = None) -> None:
        super().__init__(game)
        self.courtly = state
        self.keys = keys if keys is not None else [bytes(16)] * state.num_players
        self.notes: list[list[tuple[int, Any]]] = [[] for _ in range(state.num_players)]
        self._information: dict[int, str] = {}

    # ------------------------------------------------------------------ moves

    def current_player(self) -> int:
        state = self.courtly
        if state.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if state.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return state.to_move[0]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(action.id for action in self.courtly.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game = self.courtly.game
        return sorted(
            (game.chance_outcome_id(outcome), p) for outcome, p in self.courtly.chance_outcomes()
        )

    def _apply_action(self, action: int) -> None:
        state = self.courtly
        if state.is_chance:
            item = state.game.chance_outcome_from_id(action)
            actor = CHANCE
        else:
            actor = state.to_move[0]
            item = state.game.action_from_id(action)
        self._note(actor, item)
        self._information = {}
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)

    def _note(self, actor: int, item: Any) -> None:
        """Each seat notes what it observes of the event (asked before it happens); the notes
        are hashed into its key only when the key is asked for (a rollout never asks)."""
        state = self.courtly
        views = state.game.views
        notes = self.notes
        for seat in range(state.num_players):
            seen = item.id if seat == actor else views.observed(state, actor, item, seat)
            notes[seat].append((actor, seen))

    def _folded(self, seat: int) -> bytes:
        """The seat's key with its pending notes taken in."""
        pending = self.notes[seat]
        if pending:
            self.keys[seat] = _key(self.keys[seat], pending)
            self.notes[seat] = []
        return self.keys[seat]

    def information_key(self, player: int) -> str:
        """The seat's information-state string: its key of observed events with its observation
        now (which settles what events alone may not: a card seen only as it turns up later),
        hashed to a fixed size, cached until the next move."""
        found = self._information.get(player)
        if found is None:
            observation = json.dumps(self.courtly.view(player).observation(), sort_keys=True)
            digest = _key(self._folded(player), observation).hex()
            found = self._information[player] = f"p{player} {digest}"
        return found

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.courtly.game
        if player == pyspiel.PlayerId.CHANCE:
            return str(game.chance_outcome_from_id(action))
        return str(game.action_from_id(action))

    def is_terminal(self) -> bool:
        return self.courtly.is_terminal

    def returns(self) -> list[float]:
        state = self.courtly
        return list(state.returns()) if state.is_terminal else [0.0] * state.num_players

    # ------------------------------------------------------------------ copies and worlds

    def __deepcopy__(self, memo: dict[int, Any]) -> CourtlyState:
        """OpenSpiel clones a Python state by deep copy: the game's own clone, faster."""
        copy = CourtlyState(self.get_game(), self.courtly.clone(), self.keys.copy())
        copy.notes = [pending.copy() for pending in self.notes]
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
        return CourtlyState(self.get_game(), world, keys)

    def __str__(self) -> str:
        return self.courtly.render(None)


class CourtlyObserver:
    """OpenSpiel's observer of a Courtly game: the seat's observation vector and strings."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.tensor_layout().size
        self.tensor = np.zeros(size, np.float32)
        self.observer = Observer(game)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CourtlyState, player: int) -> None:
        self.observer.write(state.courtly, player, self.tensor)

    def string_from(self, state: CourtlyState, player: int) -> str:
        if self.perfect_recall:
            return state.information_key(player)
        return state.courtly.view(player).render()


def _parameters(game_id: str) -> dict[str, Any]:
    info = make(game_id).info
    return {"players": info.default_players, **{o.name: o.default for o in info.options}}


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
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
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
