"""A move at a table: checked, played on a copy of the state with the chance it sets off and told
to the table's story, then settled into the table. The server (:mod:`.tables.moves`) writes a
played move to its storage before settling it; the browser's own engine (:mod:`courtly.offline`)
settles it at once. Both play moves through this module alone, so both refuse the same moves in
the same words, and deal the same cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..agents.registry import AgentSpec, make_agent
from ..core.deals import resolve_chance
from ..core.errors import IllegalAction, InvalidOptions
from ..core.events import CHANCE
from ..core.game import Game, State, View
from ..core.story import Story
from .model import Answer, Seat, Table, TableError


@dataclass
class Played:
    """A move played on a copy of the table's state: the state after it and the chance it set
    off, the seats to move after each of those events, the lines told of them (when the table
    keeps its story), and the answer to the mover."""

    answer: Answer
    state: State
    moved: list[tuple[int, ...]] = field(default_factory=list)
    told: Story | None = None


def check_seat_index(table: Table, seat: int) -> None:
    """Refused (404) unless ``seat`` is a seat of ``table``."""
    if not 0 <= seat < len(table.seats):
        raise TableError(
            404, f"seat {seat} is not a seat of this table (seats 0 to {len(table.seats) - 1})"
        )


def seat_of(game: Game, index: int, spec: Mapping[str, Any]) -> Seat:
    """Seat ``index`` of a new table, as its request describes it (``kind`` person or bot, the
    bot's name and options, a name): refused (400) where the request is wrong."""
    kind = spec.get("kind", "person")
    name = str(spec.get("name") or "")[:64]
    if kind == "person":
        # The bot that plays for the person when they are out of time or away.
        return Seat(kind="person", bot=game.info.default_bot, name=name)
    if kind != "bot":
        raise TableError(400, f"seat {index}: kind must be person or bot, not {kind!r}")
    bot_name = str(spec.get("bot") or game.info.default_bot)
    bot_options = spec.get("options") or {}
    if not isinstance(bot_options, Mapping):
        raise TableError(400, f"seat {index}: bot options must be an object")
    agent = AgentSpec(bot_name, {str(k): str(v) for k, v in bot_options.items()})
    if agent.name == "human":
        raise TableError(400, f"seat {index}: a person's seat has kind person, not bot human")
    try:
        make_agent(agent, game)
    except InvalidOptions as error:
        raise TableError(400, f"seat {index}: {error}") from None
    return Seat(kind="bot", bot=str(agent), name=name or agent.name)


def refusal_reason(view: View, action: object) -> str:
    """Why ``view``'s seat may not make ``action`` (its text or id), from the seat's view alone:
    the full state's reason could tell of something the seat may not know."""
    try:
        text = action if isinstance(action, str) else str(view.game.action_from_id(action))
        view.parse_action(text)
    except IllegalAction as error:
        return str(error)
    return f"{action} is not legal now"


def check_version(table: Table, seat: int, version: int) -> None:
    """Refused (409) unless ``seat`` may move at ``version``: the current one, or an earlier one
    at a simultaneous point that nothing the seat could see has changed since."""
    current = table.version
    if version == current and seat in table.state.to_move:
        return  # (a seat not to move is told so below: 409, not the engine's 422)
    if version > current or version < 0:
        raise TableError(
            409, f"version {version} is not a version of this table yet", version=current
        )
    # Chosen earlier: fine only at a simultaneous point where nothing but other seats'
    # hidden commitments happened since (their choices are kept apart, so this seat's
    # choice cannot depend on them).
    for index in range(version, current):
        actor = table.state.history[index][0]
        if actor in (CHANCE, seat) or seat not in table.to_move_at[index]:
            raise TableError(
                409,
                f"the table moved on since version {version}: choose again at version {current}",
                version=current,
            )
    if seat not in table.state.to_move:
        raise TableError(409, f"p{seat} is not to move", version=current)


def earlier_answer(table: Table, seat: int, action: object, version: int) -> Answer | None:
    """The answer already given to this very move (a retry gets it again, and nothing changes),
    None for a move not made yet; refused (409) where ``seat`` made another move at ``version``."""
    earlier = table.answers.get((seat, version))
    if earlier is None:
        return None
    text, answer = earlier
    if _same_action(table, action, text):
        return answer
    raise TableError(
        409, f"seat {seat} already moved at version {version} ({text})", version=table.version
    )


def _same_action(table: Table, action: object, text: str) -> bool:
    if isinstance(action, str):
        return action.strip().lower() == text.lower() or _parsed(table, action) == text
    try:
        return str(table.game.action_from_id(action)) == text
    except IllegalAction:
        return False


def _parsed(table: Table, text: str) -> str | None:
    try:
        return str(table.game.action_from_text(text))
    except Exception:
        return None


def choose(spec: str, view: View, seed: str) -> str:
    """The action text that the bot ``spec`` picks on ``view``, its randomness drawn from
    ``seed`` (the table's seed, the seat, the version: the same choice wherever it runs, a
    server's worker process or the browser's engine)."""
    agent = make_agent(spec, view.game)
    return str(agent.act(view, random.Random(seed)))


def to_move_history(state: State) -> list[tuple[int, ...]]:
    """The seats to move at every version of ``state``'s history (replayed)."""
    replay = state.game.new_state()
    seats = []
    for actor, item in state.history:
        seats.append(replay.to_move)
        if actor == CHANCE:
            replay.apply_chance(item)
        else:
            replay.apply(actor, item)
    seats.append(replay.to_move)
    return seats


def play(table: Table, seat: int, action: object, version: int, by_bot: bool) -> Played:
    """``seat``'s ``action`` (its text or id), chosen at ``version``, played on a copy of the
    table's state with the chance it sets off: refused with a :class:`TableError` that names the
    problem (and changes nothing) where the table, the seat or the move does not allow it."""
    if table.status != "playing":
        waiting = {"over": "the game is over", "closed": "the table is closed"}.get(
            table.status, "the game has not started"
        )
        raise TableError(409, waiting, version=table.version)
    if by_bot != table.seats[seat].played_by_bot:
        # A person's move while their bot plays, or a bot's once its person is back.
        why = (
            f"seat {seat} is played by its person again"
            if by_bot
            else f"a bot plays seat {seat} now: take the seat back first (reclaim)"
        )
        raise TableError(409, why, version=table.version)
    check_version(table, seat, version)
    state = table.state.clone()
    try:
        state.apply(seat, action)
    except IllegalAction:
        reason = refusal_reason(table.state.view(seat), action)
        raise TableError(422, reason, version=table.version) from None
    decision = len(state.history) - 1
    # Told once for every observer, before it is applied (on the state the move was made
    # in: the table's, still as it was); the story is kept only once a message needed it.
    told = None
    if table.story is not None:
        told = Story()
        told.tell(table.state, seat, state.history[decision][1])
    moved = [state.to_move, *resolve_chance(state, table.seed, told, table.teaching)]
    history = state.history
    answer = Answer(seat, str(history[decision][1]), decision, len(history))
    return Played(answer, state, moved, told)


def settle(table: Table, seat: int, version: int, played: Played) -> None:
    """The table moves on to ``played``'s state (for the server, once it is stored)."""
    table.state = played.state
    table.revision += 1
    table.status = "over" if played.state.is_terminal else "playing"
    table.to_move_at.extend(played.moved)
    table.answers[(seat, version)] = (played.answer.action, played.answer)
    if played.told is not None and table.story is not None:
        table.story.lines.extend(played.told.lines)
    elif table.story is not None:
        # A message told the story while the move was being written: it is told again,
        # from the history, when it is next needed.
        table.story = None
