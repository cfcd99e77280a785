"""The events of a history, and who may know each of them.

A history is a list of events: ``(seat, action)`` for a decision, ``(CHANCE, outcome)`` for a
chance event. Most events are public. A game declares the others while applying them (a card
dealt face down: known to its receiver; a bid: known to its bidder until every bid is in), and
reveals them later (a card turned face up). :class:`EventSecrets` keeps that bookkeeping for one
history; a seat's view, its log and the records all read it, so who sees what is declared once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeAlias

from .actions import parse_seat, seat_text
from .persist import fields_of, rebuild

CHANCE: Final = -1
"""The actor of a chance event in ``state.history``."""

Event: TypeAlias = tuple[int, Any]
"""One history entry: ``(seat, action)`` or ``(CHANCE, outcome)``."""

PUBLIC: Final = -1
"""The knowers of an event everyone may see (every bit set, the spectator's included)."""

Line: TypeAlias = tuple[int, str]
"""A line of a game's story and who may read it: a mask of :func:`observer_bit` bits
(:data:`PUBLIC`: everyone), then the text."""


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


def observer_bit(seat: int | None, num_players: int) -> int:
    """The bit of ``seat`` in a mask of knowers; the spectator has the bit after the last seat."""
    return 1 << (num_players if seat is None else seat)


# A reveal packed into one int: when (the history's length then), which event, and to whom.
# One int rather than a tuple of three: a trick reveals several cards at once.
KNOWERS: Final = (1 << 16) - 1  # the observers' bits: far more seats than any game has
REVEAL_INDEX: Final = 16
EVENT_INDEX: Final = (1 << 24) - 1  # far longer than any game's longest history
REVEAL_AT: Final = 40


class EventSecrets:
    """Which events of one history some observers may not know, and when each was revealed.

    ``knowers`` maps the index of every secret event in the history to the mask of observers
    (:func:`observer_bit`) who know it; an index that is not there is public.

    Each reveal is noted too, because a reader that already holds part of a seat's log has an
    entry ``"?"`` that has changed since, and must be sent that part again
    (:meth:`log_resumes_at`). Copies share the list of notes, each reading its first
    ``reveal_count``, and take their own list only to append after another copy has: search
    copies states often and reveals rarely.
    """

    __slots__ = ("knowers", "reveal_count", "reveals")

    def __init__(
        self,
        knowers: dict[int, int] | None = None,
        reveals: list[int] | None = None,
        reveal_count: int = 0,
    ) -> None:
        self.knowers: dict[int, int] = {} if knowers is None else knowers
        self.reveals = reveals  # made at the first reveal
        self.reveal_count = reveal_count

    def copy(self) -> EventSecrets:
        return EventSecrets(self.knowers.copy(), self.reveals, self.reveal_count)

    def __eq__(self, other: object) -> bool:
        """The same secrets and the same reveals (whoever else shares the list of notes)."""
        if not isinstance(other, EventSecrets):
            return NotImplemented
        return self.knowers == other.knowers and self._noted() == other._noted()

    __hash__ = None  # type: ignore[assignment]

    def _noted(self) -> list[int]:
        reveals = self.reveals
        return [] if reveals is None else reveals[: self.reveal_count]

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (EventSecrets, (), fields_of(self)))

    def reveal_all(self, at: int) -> None:
        """Every secret event becomes public (the game is over: every card is shown)."""
        secret = self.knowers
        if secret:
            # What :meth:`note` would append for each, in order, with its checks made once:
            # every rollout of a search ends here.
            reveals = self._own_reveals()
            public = at << REVEAL_AT | PUBLIC & KNOWERS
            for index in sorted(secret):
                reveals.append(public | index << REVEAL_INDEX)
            self.reveal_count += len(secret)
            secret.clear()

    def take_reveals(self, other: EventSecrets) -> None:
        """Hold ``other``'s reveals as this history's own: a sampled world keeps the times at
        which its seat saw cards turned up, however the world was drawn."""
        self.reveals = other.reveals
        self.reveal_count = other.reveal_count

    def note(self, at: int, index: int, knowers: int) -> None:
        """Note that the event at ``index`` became known to ``knowers`` when the history was
        ``at`` events long (the state that reveals it updates ``knowers``)."""
        self._own_reveals().append(at << REVEAL_AT | index << REVEAL_INDEX | knowers & KNOWERS)
        self.reveal_count += 1

    def _own_reveals(self) -> list[int]:
        """The list of notes to append to: made at the first reveal, and taken as this
        history's own once another copy has appended to the one they share."""
        reveals = self.reveals
        if reveals is None:
            reveals = self.reveals = []
        elif len(reveals) != self.reveal_count:
            reveals = self.reveals = reveals[: self.reveal_count]
        return reveals

    def known_to(self, index: int, bit: int) -> bool:
        """Whether the observer of ``bit`` may know the event at ``index`` now."""
        knowers = self.knowers.get(index)
        return knowers is None or bool(knowers & bit)

    def seen_by(self, history: list[Event], bit: int, since: int = 0) -> list[Event]:
        """``history[since:]`` as the observer of ``bit`` may know it: a secret event is
        ``(actor, HIDDEN)``."""
        seen = history[since:]
        secret = self.knowers
        if secret:
            for index, knowers in secret.items():
                if index >= since and not knowers & bit:
                    seen[index - since] = (seen[index - since][0], HIDDEN)
        return seen

    def log_resumes_at(self, bit: int, since: int) -> int:
        """Where to resume the log of the observer of ``bit`` for a reader that holds its first
        ``since`` events: ``since``, or earlier when one of them has been revealed to that
        observer since. Only reveals to this observer count, so the answer tells it nothing
        about what others learned."""
        start = since
        reveals = self.reveals
        if reveals is None:
            return start
        for position in range(self.reveal_count - 1, -1, -1):  # newest first
            reveal = reveals[position]
            if reveal >> REVEAL_AT < since:
                break
            index = reveal >> REVEAL_INDEX & EVENT_INDEX
            if index < start and reveal & bit:
                start = index
        return start


def told_apart(num_players: int, text_for: Callable[[int | None], str | None]) -> list[Line]:
    """The lines of a story told seat by seat: ``text_for(observer)`` for every seat and the
    spectator, the observers told the same text sharing one line, in the order first told."""
    lines: dict[str, int] = {}
    for observer in [*range(num_players), None]:
        text = text_for(observer)
        if text:
            lines[text] = lines.get(text, 0) | observer_bit(observer, num_players)
    return [(knowers, text) for text, knowers in lines.items()]


def log_lines(events: list[Event]) -> list[list[str]]:
    """Events as ``[actor, text]`` pairs, e.g. ``["p1", "hit"]``, ``["chance", "7H"]``."""
    return [[actor_text(actor), str(item)] for actor, item in events]
