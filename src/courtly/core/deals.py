"""Fair deals: the chance of a dealt table drawn from its seed, the commitment to that seed, and
the check that a finished game's record was dealt from the seed committed to.

A server table draws every chance event from its secret seed and the event's index
(:func:`chance_rng`). When the table is made, the server publishes :func:`commitment`: the
SHA-256 of the table's id, the seed and a random salt, so that no one can work the seed out of
it (the salt makes a small seed as hard to find as a large one), and the server cannot change
the seed afterwards without the hash telling. Once the game is over the record reveals the seed
and the salt (:class:`CommittedDeal`), and :func:`check_deal` replays the record: the seed must
match the commitment and every chance outcome must be the one drawn from it.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .errors import ReplayError
from .events import CHANCE
from .game import State
from .lessons import chance_outcome
from .records import MatchRecord
from .replays import record_game, replay_record
from .story import Story
from .tutorial import Tutorial, prepared_outcome

SCHEME: Final = "courtly-table/1"
"""How a table's chance is drawn from its seed (:func:`chance_rng`) and its seed committed to
(:func:`commitment`): a record names it, so a later scheme cannot be mistaken for this one."""

SEED_BITS: Final = 62
"""The bits of a seed the server draws (what the database's 64-bit integer holds)."""


def new_seed() -> int:
    """A table's secret seed, from the operating system's randomness."""
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    """The random salt of a table's commitment: 128 bits, as 32 hexadecimal digits."""
    return secrets.token_hex(16)


def chance_rng(seed: int, index: int) -> random.Random:
    """The generator that resolves the chance event at ``index`` of a table: the same after a
    restart, so a table replayed from its history carries on as it would have."""
    return random.Random(f"courtly-table/{seed}/{index}")


def resolve_chance(
    state: State, seed: int, story: Story | None = None, tutorial: Tutorial | None = None
) -> list[tuple[int, ...]]:
    """Resolve the chance events due now, each told to ``story`` first (if any): from
    ``tutorial``'s prepared deal while it lasts, then from ``seed``; returns the seats to move
    after each."""
    moved = []
    while state.is_chance and not state.is_terminal:
        outcome = chance_outcome(state, tutorial, chance_rng(seed, len(state.history)))
        if story is not None:
            story.tell(state, CHANCE, outcome)
        state.apply_chance(outcome)
        moved.append(state.to_move)
    return moved


def commitment(table: str, seed: int, salt: str) -> str:
    """The SHA-256, in hexadecimal, of ``courtly-deal/1:TABLE:SEED:SALT`` (UTF-8; the seed in
    decimal): what a table publishes of its seed before the game is over."""
    return hashlib.sha256(f"courtly-deal/1:{table}:{seed}:{salt}".encode()).hexdigest()


@dataclass(frozen=True)
class CommittedDeal:
    """What a finished table's record says of its deal (its ``deal`` object), beside the
    record's ``seed``: the table, the salt and the commitment published when it was made,
    whether its creator chose the seed, and whether a tutorial's prepared deal came first."""

    table: str
    salt: str
    commitment: str
    chosen: bool = False
    tutorial: bool = False
    scheme: str = SCHEME

    @classmethod
    def from_dict(cls, data: object) -> CommittedDeal:
        """The ``deal`` object of a record; :class:`ReplayError` says what is wrong with it."""
        if not isinstance(data, Mapping):
            raise ReplayError("the record's 'deal' must be an object")
        texts = {key: data.get(key) for key in ("scheme", "table", "salt", "commitment")}
        wrong = [key for key, value in texts.items() if not isinstance(value, str)]
        if wrong:
            raise ReplayError(f"the record's deal needs {' and '.join(wrong)} as text")
        flags = {key: data.get(key, False) for key in ("chosen", "tutorial")}
        if not all(isinstance(flag, bool) for flag in flags.values()):
            raise ReplayError("the record's deal has chosen and tutorial as true or false")
        return cls(
            table=str(texts["table"]),
            salt=str(texts["salt"]),
            commitment=str(texts["commitment"]),
            chosen=bool(flags["chosen"]),
            tutorial=bool(flags["tutorial"]),
            scheme=str(texts["scheme"]),
        )


@dataclass(frozen=True)
class DealChecked:
    """A record whose deal :func:`check_deal` found true: its seed, and how many chance events
    were drawn from it (and from a tutorial's prepared deal before it)."""

    seed: int
    deal: CommittedDeal
    drawn: int
    prepared: int


def check_deal(record: MatchRecord) -> DealChecked:
    """Check that ``record`` was dealt from the seed its table committed to: the revealed seed
    and salt hash to the commitment, and every chance event of the history is the outcome
    drawn from the seed at its index (after a tutorial's prepared outcomes, which are the
    game's own). :class:`ReplayError` says what does not hold: the first event that differs,
    by its number (counted from 1), what the record says and what the seed draws."""
    if record.deal is None:
        raise ReplayError(
            "the record has no committed deal (a server table's record has one): nothing to check"
        )
    deal = CommittedDeal.from_dict(record.deal)
    if deal.scheme != SCHEME:
        raise ReplayError(f"the deal's scheme is {deal.scheme!r}; this version checks {SCHEME}")
    seed = record.seed
    if seed is None:
        raise ReplayError("the record reveals no seed: a game's seed is revealed once it is over")
    made = commitment(deal.table, seed, deal.salt)
    if made != deal.commitment.lower():
        raise ReplayError(
            f"the seed {seed} and salt {deal.salt} of table {deal.table} hash to {made}, "
            f"not to the commitment {deal.commitment}: this is not the seed the table committed to"
        )
    tutorial = record_game(record).info.tutorial if deal.tutorial else None
    counts = {"drawn": 0, "prepared": 0}

    def check(state: State, actor: int, outcome: Any) -> None:
        if actor != CHANCE:
            return
        index = len(state.history)
        if tutorial is not None and prepared_outcome(tutorial, state.history) is not None:
            counts["prepared"] += 1
        else:
            counts["drawn"] += 1
        expected = chance_outcome(state, tutorial, chance_rng(seed, index))
        if str(expected) != str(outcome):
            raise ReplayError(
                f"move {index + 1} (chance) is {outcome} in the record, but the seed {seed} "
                f"draws {expected} there: the game was not dealt from its seed"
            )

    replay_record(record, check)
    return DealChecked(seed=seed, deal=deal, drawn=counts["drawn"], prepared=counts["prepared"])
