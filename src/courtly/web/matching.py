"""Play now's pairing: which waiting people sit down together, decided from the queue alone
(no database, no clock of its own), so that every server process decides alike.

The oldest waiting person is served first. A table takes people who want the same game and
mode, a player count they all accept (``0``: any count the game has), and the same kind of
table (rated or casual). Rated people are paired by rating: two may sit together when their
ratings are apart by no more than both of their windows, and a window widens with the wait
(:func:`rating_window`); of those who may, the closest in rating are taken. A person who said
"fill with bots after N seconds" and has waited that long gets a table at once: the people
who may join it (who accept bots too) and bots in the free seats; such a table is casual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

RATING_WINDOW = 2.0
"""The rating points two rated people may be apart as soon as they arrive."""
RATING_WIDENING = 0.5
"""The rating points a window widens by per second of waiting."""
RATING_WINDOW_MAX = 30.0
"""The widest a window gets (the span of most ratings)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """A person in the queue, as the pairing sees them."""

    key: str
    game: str
    players: int
    """0: any count."""
    mode: str
    rated: bool
    joined_at: float
    rating: float | None = None
    bots_after: float | None = None
    account_id: str | None = None


@dataclass(frozen=True, slots=True)
class Formed:
    """A table to make: its player count, the people seated (in seat order), whether it is
    rated, and the number of seats given to bots (the last ones)."""

    game: str
    mode: str
    players: int
    people: tuple[Waiting, ...]
    rated: bool
    bots: int


def rating_window(waited: float) -> float:
    """How far apart in rating a rated person accepts a partner, after ``waited`` seconds."""
    return min(RATING_WINDOW_MAX, RATING_WINDOW + RATING_WIDENING * max(0.0, waited))


def _accepts(person: Waiting, count: int) -> bool:
    return person.players in (0, count)


def _close(a: Waiting, b: Waiting, now: float) -> bool:
    if not a.rated:
        return True
    ra = 0.0 if a.rating is None else a.rating
    rb = 0.0 if b.rating is None else b.rating
    gap = abs(ra - rb)
    return gap <= rating_window(now - a.joined_at) and gap <= rating_window(now - b.joined_at)


def form_tables(
    waiting: Sequence[Waiting], counts: Mapping[str, Sequence[int]], now: float
) -> list[Formed]:
    """The tables to make now from ``waiting`` (``counts``: each game's player counts, the
    smallest first); each person is in one table at most, and one account sits once."""
    queue = sorted(waiting, key=lambda w: (w.joined_at, w.key))
    taken: set[str] = set()
    formed: list[Formed] = []
    for first in queue:
        if first.key in taken:
            continue
        table = _table_for(first, [w for w in queue if w.key not in taken], counts, now)
        if table is not None:
            formed.append(table)
            taken.update(p.key for p in table.people)
    return formed


def _table_for(
    first: Waiting, free: list[Waiting], counts: Mapping[str, Sequence[int]], now: float
) -> Formed | None:
    game_counts = list(counts.get(first.game, ()))
    wanted = [first.players] if first.players else game_counts
    others = [
        w
        for w in free
        if w.key != first.key
        and w.game == first.game
        and w.mode == first.mode
        and (w.account_id is None or w.account_id != first.account_id)
    ]
    for count in wanted:
        if count not in game_counts:
            continue
        fits = [w for w in others if w.rated == first.rated and _accepts(w, count)]
        if first.rated:
            fits = [w for w in fits if _close(first, w, now)]
            fits.sort(key=lambda w: abs((w.rating or 0.0) - (first.rating or 0.0)))
        chosen = _distinct_accounts(first, fits, count - 1)
        if len(chosen) == count - 1:
            people = (first, *sorted(chosen, key=lambda w: (w.joined_at, w.key)))
            return Formed(first.game, first.mode, count, people, first.rated, 0)
    if first.bots_after is not None and now - first.joined_at >= first.bots_after:
        count = first.players or game_counts[0]
        fits = [w for w in others if w.bots_after is not None and _accepts(w, count)]
        chosen = _distinct_accounts(first, fits, count - 1)
        people = (first, *chosen)
        return Formed(first.game, first.mode, count, people, False, count - len(people))
    return None


def _distinct_accounts(first: Waiting, candidates: list[Waiting], wanted: int) -> list[Waiting]:
    """Up to ``wanted`` of ``candidates``, in order, no account twice (nor ``first``'s)."""
    seen = {first.account_id} - {None}
    chosen: list[Waiting] = []
    for w in candidates:
        if len(chosen) == wanted:
            break
        if w.account_id is not None and w.account_id in seen:
            continue
        chosen.append(w)
        if w.account_id is not None:
            seen.add(w.account_id)
    return chosen
