"""Fixed-size observation vectors, declared by each game as a layout over its observation.

A learning agent needs the same number of floats at every step, where a seat's
:meth:`~courtly.core.game.View.observation` is JSON whose lists grow and shrink. A game
declares how its observation becomes a vector (``GameInfo.tensor_layout``), as a tuple of
fields that each read one key of the observation and write a fixed number of floats:

* :class:`Cards`: a card or a list of cards as a count per card (52 standard cards and the joker);
* :class:`Number`: a number divided by a scale (about 0 to 1); :class:`Flag`: a yes/no;
* :class:`Choice`: one of a few words, one-hot; :class:`Words`: a list of such words, many-hot;
  :class:`Among`: one of a few integers, one-hot;
* :class:`Seats`: a seat or a list of seats, one slot per seat;
* :class:`Length`: how long a list is, scaled;
* :class:`Each`: a list of records, each encoded by its own fields, padded to a fixed count;
* :class:`Listed`: a list of plain values by position (a formation's three slots);
* :class:`SeatNumbers`: ``[seat, number]`` pairs as a number per seat;
* :class:`Within`: a nested record (absent: zeros).

Every field also declares the largest value each of its floats can take (:meth:`Field.bounds`;
the smallest is 0 everywhere): a one-hot, a flag or a seat slot 1, a card count 1 (the joker slot
2: both jokers count there), a number its declared ``high`` over its scale (the scale itself
unless the field says otherwise). :meth:`TensorLayout.bounds` gathers them for the
observation spaces of the RL adapters.

The vector is built from the seat's observation alone, and an observation holds only what the
seat may know (the contract suite checks it gives the same answer in every world the seat cannot
tell apart), so the vector leaks nothing either. The layout is data: :func:`describe` prints
which floats mean what (``python -m courtly.rl.tensors GAME``). This module needs nothing
outside the standard library; :mod:`courtly.rl.tensors` turns the floats into NumPy arrays.
"""

from __future__ import annotations

import struct
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .cards import CARDS, NUM_STANDARD_CARDS

CARD_SLOTS = NUM_STANDARD_CARDS + 1
"""Slots of a :class:`Cards` field: the 52 standard cards, then the joker (both jokers count
there: they are interchangeable)."""
_CARD_INDEX = {str(card): int(card) for card in CARDS[:NUM_STANDARD_CARDS]}
_CARD_INDEX["Jk"] = NUM_STANDARD_CARDS


class Field(ABC):
    """One part of a layout: reads ``key`` of a record and writes ``size`` floats."""

    key: str
    size: int

    @abstractmethod
    def write(self, out: list[float], at: int, value: Any) -> None:
        """Write ``value`` (the record's entry; ``None`` when absent) into ``out[at:at + size]``
        (zeros on entry)."""

    def describe(self, prefix: str) -> list[tuple[int, str]]:
        """``(size, text)`` for each span of floats, in order."""
        return [(self.size, f"{prefix}{self.key}: {self.meaning()}")]

    def bounds(self) -> list[float]:
        """The largest value of each of the field's ``size`` floats (one-hots, flags and seat
        slots: 1)."""
        return [1.0] * self.size

    def misses(self, value: Any) -> list[str]:
        """What of ``value`` the vector cannot show (a word outside the field's list): the test
        that keeps a layout in step with its game's observation."""
        return []

    def meaning(self) -> str:
        return ""


@dataclass(frozen=True)
class Cards(Field):
    key: str
    size: int = CARD_SLOTS

    def write(self, out: list[float], at: int, value: Any) -> None:
        if value is None:
            return
        for text in [value] if isinstance(value, str) else value:
            index = _CARD_INDEX.get(text) if isinstance(text, str) else None
            if index is not None:  # "-" (an empty slot), "?" (a hidden card): nothing to count
                out[at + index] += 1.0

    def meaning(self) -> str:
        return "count of each card (2S..AS, 2H..AH, 2D..AD, 2C..AC, then jokers)"

    def bounds(self) -> list[float]:
        # One deck: each standard card once, the two jokers in the one joker slot.
        return [1.0] * (self.size - 1) + [2.0]

    def misses(self, value: Any) -> list[str]:
        texts = [] if value is None else [value] if isinstance(value, str) else value
        return [
            f"{self.key}: {text!r}"
            for text in texts
            if text not in _CARD_INDEX and text not in ("-", "?", None)
        ]


@dataclass(frozen=True)
class Number(Field):
    """A number of at most ``high`` (``scale`` when not given), written divided by ``scale``."""

    key: str
    scale: float = 1.0
    size: int = 1
    high: float | None = None

    def write(self, out: list[float], at: int, value: Any) -> None:
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[at] = value / self.scale

    def meaning(self) -> str:
        return f"the number / {self.scale:g}"

    def bounds(self) -> list[float]:
        return [_scaled_high(self.high, self.scale)] * self.size


@dataclass(frozen=True)
class Flag(Field):
    key: str
    size: int = 1

    def write(self, out: list[float], at: int, value: Any) -> None:
        out[at] = 1.0 if value else 0.0

    def meaning(self) -> str:
        return "1 if yes"


@dataclass(frozen=True)
class Choice(Field):
    """One of ``values`` (a word of the observation), one-hot; anything else (None): zeros."""

    key: str
    values: tuple[str, ...]

    @property
    def size(self) -> int:  # type: ignore[override]
        return len(self.values)

    def write(self, out: list[float], at: int, value: Any) -> None:
        if isinstance(value, str) and value in self.values:
            out[at + self.values.index(value)] = 1.0

    def meaning(self) -> str:
        return "one-hot: " + ", ".join(self.values)

    def misses(self, value: Any) -> list[str]:
        words = [] if value is None else [value] if isinstance(value, str) else value
        return [f"{self.key}: {word!r}" for word in words if word not in self.values]


@dataclass(frozen=True)
class Among(Field):
    """One of a few integers (``-1``, ``0``, ``1``), one-hot; anything else: zeros."""

    key: str
    values: tuple[int, ...]

    @property
    def size(self) -> int:  # type: ignore[override]
        return len(self.values)

    def write(self, out: list[float], at: int, value: Any) -> None:
        if isinstance(value, int) and value in self.values:
            out[at + self.values.index(value)] = 1.0

    def meaning(self) -> str:
        return "one-hot: " + ", ".join(map(str, self.values))

    def misses(self, value: Any) -> list[str]:
        return [] if value is None or value in self.values else [f"{self.key}: {value!r}"]


@dataclass(frozen=True)
class Words(Choice):
    """A list of words from ``values``, many-hot."""

    def write(self, out: list[float], at: int, value: Any) -> None:
        for word in [value] if isinstance(value, str) else value or ():
            if word in self.values:
                out[at + self.values.index(word)] = 1.0

    def meaning(self) -> str:
        return "many-hot: " + ", ".join(self.values)


@dataclass(frozen=True)
class Seats(Field):
    """A seat (``"p1"``) or a list of seats, one slot per seat of the table."""

    key: str
    players: int

    @property
    def size(self) -> int:  # type: ignore[override]
        return self.players

    def write(self, out: list[float], at: int, value: Any) -> None:
        for seat in [value] if isinstance(value, str) else value or ():
            if isinstance(seat, str) and seat[1:].isdecimal():
                index = int(seat[1:])
                if index < self.players:
                    out[at + index] = 1.0

    def meaning(self) -> str:
        return "one slot per seat (p0 first)"


@dataclass(frozen=True)
class Length(Field):
    """How long a list is (at most ``high``, ``scale`` when not given), divided by ``scale``."""

    key: str
    scale: float = 1.0
    size: int = 1
    high: float | None = None

    def write(self, out: list[float], at: int, value: Any) -> None:
        if isinstance(value, Sequence) and not isinstance(value, str):
            out[at] = len(value) / self.scale

    def meaning(self) -> str:
        return f"how many / {self.scale:g}"

    def bounds(self) -> list[float]:
        return [_scaled_high(self.high, self.scale)] * self.size


@dataclass(frozen=True)
class SeatNumbers(Field):
    """``[[seat, number], ...]`` as one number per seat (divided by ``scale``)."""

    key: str
    players: int
    scale: float = 1.0
    high: float | None = None

    @property
    def size(self) -> int:  # type: ignore[override]
        return self.players

    def write(self, out: list[float], at: int, value: Any) -> None:
        for pair in value or ():
            if isinstance(pair, Sequence) and len(pair) == 2 and isinstance(pair[0], str):
                seat, number = pair
                if seat[1:].isdecimal() and int(seat[1:]) < self.players:
                    out[at + int(seat[1:])] = float(number) / self.scale

    def meaning(self) -> str:
        return f"a number per seat (p0 first) / {self.scale:g}"

    def bounds(self) -> list[float]:
        return [_scaled_high(self.high, self.scale)] * self.size


class Listed(Field):
    """A list of plain values by position, each written by ``field`` (whose key names it)."""

    def __init__(self, key: str, count: int, field: Field) -> None:
        self.key = key
        self.count = count
        self.field = field
        self.size = count * field.size

    def write(self, out: list[float], at: int, value: Any) -> None:
        if not isinstance(value, Sequence) or isinstance(value, str):
            return
        for item in value[: self.count]:
            self.field.write(out, at, item)
            at += self.field.size

    def describe(self, prefix: str) -> list[tuple[int, str]]:
        return [
            (self.field.size, f"{prefix}{self.key}[{index}]: {self.field.meaning()}")
            for index in range(self.count)
        ]

    def bounds(self) -> list[float]:
        return self.field.bounds() * self.count

    def misses(self, value: Any) -> list[str]:
        found = (
            [f"{self.key}: {len(value)} > {self.count}"] if len(value or ()) > self.count else []
        )
        for item in value or ():
            found.extend(self.field.misses(item))
        return found


class Each(Field):
    """A list of records (the seats, a board's cells), each encoded by ``fields``; the first
    ``count`` entries are kept (the last ``count`` with ``latest``), missing ones are zeros."""

    def __init__(self, key: str, count: int, *fields: Field, latest: bool = False) -> None:
        self.key = key
        self.count = count
        self.fields = fields
        self.latest = latest
        self.record_size = sum(field.size for field in fields)
        self.size = count * self.record_size

    def write(self, out: list[float], at: int, value: Any) -> None:
        if not isinstance(value, Sequence) or isinstance(value, str):
            return
        kept = value[-self.count :] if self.latest else value[: self.count]
        if self.latest:  # the newest record always in the last place
            at += (self.count - len(kept)) * self.record_size
        for record in kept:
            if isinstance(record, Mapping):
                write_record(self.fields, out, at, record)
            at += self.record_size

    def describe(self, prefix: str) -> list[tuple[int, str]]:
        spans: list[tuple[int, str]] = []
        for index in range(self.count):
            place = f"-{self.count - index}" if self.latest else str(index)
            spans.extend(_describe(self.fields, f"{prefix}{self.key}[{place}]."))
        return spans

    def bounds(self) -> list[float]:
        return _bounds(self.fields) * self.count

    def misses(self, value: Any) -> list[str]:
        found = []
        if len(value or ()) > self.count and not self.latest:
            found.append(f"{self.key}: {len(value)} > {self.count}")
        for record in value or ():
            found.extend(_misses(self.fields, record, f"{self.key}."))
        return found


class Within(Field):
    """A nested record (``None``: zeros)."""

    def __init__(self, key: str, *fields: Field) -> None:
        self.key = key
        self.fields = fields
        self.size = sum(field.size for field in fields)

    def write(self, out: list[float], at: int, value: Any) -> None:
        if isinstance(value, Mapping):
            write_record(self.fields, out, at, value)

    def describe(self, prefix: str) -> list[tuple[int, str]]:
        return _describe(self.fields, f"{prefix}{self.key}.")

    def bounds(self) -> list[float]:
        return _bounds(self.fields)

    def misses(self, value: Any) -> list[str]:
        return _misses(self.fields, value or {}, f"{self.key}.")


def write_record(
    fields: Sequence[Field], out: list[float], at: int, record: Mapping[str, Any]
) -> None:
    for field in fields:
        field.write(out, at, record.get(field.key))
        at += field.size


def _misses(fields: Sequence[Field], record: Mapping[str, Any], prefix: str) -> list[str]:
    found: list[str] = []
    for field in fields:
        found.extend(prefix + miss for miss in field.misses(record.get(field.key)))
    return found


def _describe(fields: Sequence[Field], prefix: str) -> list[tuple[int, str]]:
    spans: list[tuple[int, str]] = []
    for field in fields:
        spans.extend(field.describe(prefix))
    return spans


def _bounds(fields: Sequence[Field]) -> list[float]:
    highs: list[float] = []
    for field in fields:
        highs.extend(field.bounds())
    return highs


def _scaled_high(high: float | None, scale: float) -> float:
    """A number field's largest float: its largest value over its scale (the scale is the
    largest value unless the field declares ``high``)."""
    return (scale if high is None else high) / scale


class TensorLayout:
    """A game's observation as a fixed number of floats (``size``), for one player count and
    option set."""

    def __init__(self, *fields: Field) -> None:
        self.fields = fields
        self.size = sum(field.size for field in fields)

    def encode(self, observation: Mapping[str, Any]) -> list[float]:
        """The floats of a seat's observation (:meth:`View.observation`)."""
        out = [0.0] * self.size
        write_record(self.fields, out, 0, observation)
        return out

    def misses(self, observation: Mapping[str, Any]) -> list[str]:
        """The words, cards and list entries of ``observation`` the vector cannot show (a layout
        test asks for none)."""
        return _misses(self.fields, observation, "")

    def describe(self) -> list[tuple[int, int, str]]:
        """``(first, last, meaning)`` for each span of the vector, in order."""
        rows: list[tuple[int, int, str]] = []
        at = 0
        for size, text in _describe(self.fields, ""):
            rows.append((at, at + size - 1, text))
            at += size
        return rows

    def bounds(self) -> list[float]:
        """The largest value of each float of the vector (the smallest is 0): the upper bound of
        the observation spaces."""
        return _bounds(self.fields)


# The games' ``write_tensor`` functions (each game's fast observation path, read by
# :mod:`courtly.rl.tensors`) write into two byte sinks (``librt.strings.BytesWriter``): to
# ``ones`` the slot of every float that is 1.0, as a 16-bit little-endian int (``write_i16_le``,
# the 16-bit write mypyc compiles to a store), to ``pairs`` the slot then the value
# (``write_f64_le``, a little-endian double) of every other nonzero float; each slot is named
# once at most (the observer's tests check it over random play of every count and option). The
# entry point is ``write_tensor(state, seat, ones, pairs)`` in the game's ``writer`` module.
# Compiled, each write is a store into a buffer the sink keeps between calls: no Python object
# is made, referenced or freed. A part of an observation fixed by a game's tables is prebuilt
# once as these bytes (``ones_bytes``, ``pairs_bytes``) and written whole
# (``BytesWriter.write``).
SLOT_FORMAT: Final = "<h"
"""How a writer writes a slot (``struct`` format): a 16-bit little-endian int."""
PAIR_FORMAT: Final = "<hd"
"""How a writer writes a (slot, value) pair: the slot, then the value as a little-endian
double, packed (10 bytes)."""
MAX_SLOTS: Final = 1 << 15
"""The largest layout a writer can name every slot of (the contract's tests check each game's
layout against it)."""


def ones_bytes(slots: Sequence[int]) -> bytes:
    """``slots`` as a writer writes them to ``ones``, for a part written whole."""
    return struct.pack(f"<{len(slots)}h", *slots)


def pairs_bytes(pairs: Sequence[tuple[int, float]]) -> bytes:
    """``(slot, value)`` pairs as a writer writes them to ``pairs``, for a part written whole."""
    return b"".join(struct.pack(PAIR_FORMAT, slot, value) for slot, value in pairs)
