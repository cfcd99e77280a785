"""Game records: the one format every front end writes and reads.

A record is one JSON object: the game (id, player count, options) and its history as
``[actor, event]`` text pairs, which replay the game exactly; a finished game adds its seed
(a server table's, with the deal it committed to), the agent of each seat, its returns and
whether it was cut off at the safety cap. A file of
records holds one per line (JSONL), plain or gzip-compressed. ``simulate --out``,
``play --save``, ``replay``, ladders and the server all go through this module, so the format's
name and version live here alone.

A record here is data: a state writes its own (:meth:`State.record
<courtly.core.game.State.record>`), and :mod:`courtly.core.replays` plays one back. Reading
never ends in a traceback: a record or file that cannot be read raises :class:`ReplayError`
saying why (not UTF-8, not JSON, a format this version does not know).
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from .errors import ReplayError

FORMAT: Final = "courtly-game"
VERSION: Final = 1
RECORD_FORMAT: Final = f"{FORMAT}/{VERSION}"
"""What every record written by this version says it is."""
_READABLE: Final = frozenset({RECORD_FORMAT, "courtly-state/1"})
"""Formats this version reads (``courtly-state/1``: saved states before records were merged)."""

_GZIP_MAGIC: Final = b"\x1f\x8b"
_OTHER_COMPRESSIONS: Final = (
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"PK\x03\x04", "zip"),
)
"""The first bytes of compressed files that are not gzip: named, so the error can say so."""


@dataclass
class MatchRecord:
    """A game: everything needed to replay it exactly, and, once finished, how it ended."""

    game: str
    players: int
    options: dict[str, Any]
    history: list[list[str]]
    seed: int | None = None
    returns: list[float] = field(default_factory=list)
    """Empty for a game in progress (a saved state)."""
    seats: list[str] = field(default_factory=list)
    """The agent spec of each seat, e.g. ``["heuristic", "random"]``."""
    game_id: int = 0
    """The index of this game within a simulation."""
    truncated: bool = False
    """The game ended at its safety cap, not by its rules."""
    think_seconds: list[float] = field(default_factory=list, compare=False)
    """Each seat's total thinking time (wall clock; not saved, so records stay reproducible)."""
    moves: list[int] = field(default_factory=list, compare=False)
    """Each seat's number of decisions."""
    deal: dict[str, Any] | None = None
    """A server table's committed deal, revealed with ``seed`` once the game is over (the
    table, the salt, the commitment: :class:`courtly.core.deals.Deal`); readers that do not
    check deals ignore it."""

    @property
    def length(self) -> int:
        """Steps: chance events plus seat decisions."""
        return len(self.history)

    @property
    def decisions(self) -> int:
        return sum(1 for actor, _ in self.history if actor != "chance")

    @property
    def finished(self) -> bool:
        return bool(self.returns)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game_id": self.game_id,
            "game": self.game,
            "players": self.players,
            "options": self.options,
        }
        if self.seed is not None:
            data["seed"] = self.seed
        if self.deal is not None:
            data["deal"] = self.deal
        if self.seats:
            data["seats"] = self.seats
        if self.returns:
            data["returns"] = self.returns
            data["truncated"] = self.truncated
        data["length"] = self.length
        data["history"] = self.history
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: object) -> MatchRecord:
        """The record in ``data`` (a parsed JSON object), checked; :class:`ReplayError` if not."""
        if not isinstance(data, Mapping):
            raise ReplayError("a game record is a JSON object")
        kind = data.get("format", RECORD_FORMAT)
        if kind not in _READABLE:
            if isinstance(kind, str) and kind.startswith(f"{FORMAT}/"):
                raise ReplayError(
                    f"format {kind!r} is not one this version of Courtly reads (it reads "
                    f"{RECORD_FORMAT}); was it written by a newer Courtly?"
                )
            raise ReplayError(f"not a game record: its format is {kind!r}, not {RECORD_FORMAT}")
        missing = [key for key in ("game", "history") if key not in data]
        if missing:
            raise ReplayError(
                f"a game record needs the keys game and history; missing {', '.join(missing)}"
            )
        history = data["history"]
        if not isinstance(history, list) or not all(
            isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)
            for e in history
        ):
            raise ReplayError("'history' must be a list of [actor, event] text pairs")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise ReplayError("'options' must be an object of option names and values")
        deal = data.get("deal")
        if deal is not None and not isinstance(deal, Mapping):
            raise ReplayError("'deal' must be an object (the table's committed deal)")
        try:
            returns = [float(x) for x in data.get("returns") or []]
            players = data.get("players") or len(returns) or None
            return cls(
                game=str(data["game"]),
                players=int(players) if players is not None else 0,
                options=dict(options),
                history=[list(e) for e in history],
                seed=None if data.get("seed") is None else int(data["seed"]),
                returns=returns,
                seats=[str(s) for s in data.get("seats") or []],
                game_id=int(data.get("game_id") or 0),
                truncated=bool(data.get("truncated", False)),
                deal=None if deal is None else dict(deal),
            )
        except (TypeError, ValueError) as error:
            raise ReplayError(f"a field of the record has the wrong type ({error})") from None


# --------------------------------------------------------------------------------- files


def _open_text(path: Path) -> IO[str]:
    """``path`` as UTF-8 text lines (a leading byte-order mark is skipped), gunzipped if it is
    gzip-compressed; :class:`ReplayError` for another compression, which it cannot read."""
    raw = path.open("rb")
    start = raw.read(6)
    raw.seek(0)
    if start.startswith(_GZIP_MAGIC):
        return io.TextIOWrapper(gzip.GzipFile(fileobj=raw), encoding="utf-8-sig")
    for magic, name in _OTHER_COMPRESSIONS:
        if start.startswith(magic):
            raw.close()
            raise ReplayError(
                f"{path} is compressed with {name}; Courtly reads records plain or "
                "gzip-compressed: decompress it first"
            )
    return io.TextIOWrapper(raw, encoding="utf-8-sig")


def read_records(path: Path) -> Iterator[tuple[int, MatchRecord]]:
    """Every record of a JSONL file (plain or ``.gz``), one at a time, with its line number.

    Raises :class:`ReplayError` naming the file and line of the first that cannot be read.
    """
    seen = False
    try:
        with _open_text(path) as lines:
            for number, text in enumerate(lines, 1):
                if not text.strip():
                    continue
                seen_before, seen = seen, True
                try:
                    data = json.loads(text)
                except json.JSONDecodeError as error:
                    # A bad first line: not a record file at all; a bad later one: a file whose
                    # writer was stopped mid-line, most likely.
                    hint = "is the file truncated?" if seen_before else "is it a file of records?"
                    # Some of json's messages end in "at" already ("Invalid control character
                    # at"): the column follows them once.
                    problem = error.msg.removesuffix(" at")
                    raise ReplayError(
                        f"{path} line {number}: not valid JSON ({problem} at column "
                        f"{error.colno}); {hint}"
                    ) from None
                try:
                    yield number, MatchRecord.from_dict(data)
                except ReplayError as error:
                    raise ReplayError(f"{path} line {number}: {error}") from None
    except UnicodeDecodeError:
        raise ReplayError(
            f"{path} is not a text file of game records (not UTF-8); records are JSON lines, "
            "plain or gzip-compressed"
        ) from None
    except (gzip.BadGzipFile, EOFError, zlib.error) as error:
        raise ReplayError(f"{path} is a damaged gzip file ({error})") from None
    if not seen:
        raise ReplayError(f"{path} is empty: it holds no game record")


def find_record(path: Path, game_id: int | None = None) -> tuple[int, MatchRecord]:
    """The record with ``game_id`` (default: the first) in a file, with its line number."""
    for number, record in read_records(path):
        if game_id is None or record.game_id == game_id:
            return number, record
    raise ReplayError(f"{path} has no game with game_id {game_id}")


class RecordWriter:
    """Appends records to a JSONL file, one line each, flushed at once (a crash keeps every
    finished game); a path ending in ``.gz`` is written gzip-compressed. Opening it checks that
    the file can be written, before any game is played (``OSError`` if not)."""

    def __init__(self, path: Path, mode: str = "a") -> None:
        self.path = path
        self._file: IO[str]
        if path.suffix == ".gz":
            # Appending adds a gzip member; readers take the members one after the other.
            packed = gzip.GzipFile(path, mode + "b")
            self._file = io.TextIOWrapper(packed, encoding="utf-8")
        else:
            self._file = path.open(mode, encoding="utf-8")

    def write(self, record: MatchRecord) -> None:
        self._file.write(record.to_json() + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
