"""Where every card went: what a sampled world needs to write a history that replays to it.

A card lying face down is hidden from some seats, and so is the event that laid it
(docs/rules/god-save-the-king.md §9): a seat's view of the history holds ``HIDDEN`` there. A
world drawn from that view (:func:`.views.determinize`) puts cards in the hidden places; for its
history to replay to it, each hidden event must name a card, and the cards must flow from hand
to formation to pile and back into hands (at the end of a hand, §6) as the rules move them. The
journal records those moves, in the order they happen, by *where* a card went rather than
*which* card it was: a card laid (or drawn) from a hand, a card entering a trick pile, the piles
merged into hands, the cards set aside in the removed area. That is public (who collected what,
and in which order), so a view keeps it; :mod:`.worlds` reads it back to fill the hidden events
in.

A state keeps a journal only once it has been looked at (``views.ensure_knowledge`` builds it
with the seats' knowledge, by replaying the history): random playouts never pay for it.
"""

from __future__ import annotations

from typing import Any, Final

from ...core.persist import fields_of, rebuild

# The kinds of journal entries ``(kind, a, b)``.
LEFT_HAND: Final = 0
"""``(LEFT_HAND, event, seat * 4 + slot)``: the card of history event ``event`` left ``seat``'s
hand, laid in ``slot`` (0-2) of a formation, or drawn from it (``slot`` = :data:`DRAWN`)."""
JOINED_HAND: Final = 1
"""``(JOINED_HAND, event, seat)``: the card of ``event`` was merged from a pile into ``seat``'s
hand at the end of a hand."""
HAND_REMOVED: Final = 2
"""``(HAND_REMOVED, position, seat)``: the card now at ``position`` of the removed area left
``seat``'s hand there (an eliminated player's hand, GSK-24)."""
CHALLENGED: Final = 3
"""``(CHALLENGED, event, kind * 16 + rank)``: the card of ``event`` (a middle card) has, or has
not, ``rank`` (a challenge's answer, T6e; ``kind`` as in :mod:`.knowledge`)."""

DRAWN: Final = 3
"""The slot code of a card drawn blindly from a hand."""
FROM_A_HAND: Final = -2
"""In ``removed_sources``: a card that came to the removed area straight from a hand."""


class Journal:
    """The moves of the cards of one game (see the module docstring).

    ``entries`` only grows (a view shares it, reading its first ``length`` entries);
    ``pile_sources[seat]`` gives, for each card of that seat's trick pile, the history event that
    brought it (the card laid, or the draw), and ``removed_sources`` the same for the removed
    area (:data:`FROM_A_HAND` for a card set aside from a hand)."""

    __slots__ = ("entries", "length", "pile_sources", "removed_sources")

    def __init__(self, players: int) -> None:
        self.entries: list[tuple[int, int, int]] = []
        self.length = 0
        self.pile_sources: list[list[int]] = [[] for _ in range(players)]
        self.removed_sources: list[int] = []

    def __reduce__(self) -> tuple[Any, ...]:
        # (A compiled class pickles through core.persist: see there.) Only what it has read.
        fields = fields_of(self)
        fields["entries"] = self.entries[: self.length]
        return (rebuild, (Journal, (len(self.pile_sources),), fields))

    def clone(self) -> Journal:
        """A copy that records on its own (a state's clone)."""
        other = Journal(0)
        other.entries = self.entries[: self.length]
        other.length = self.length
        other.pile_sources = [p.copy() for p in self.pile_sources]
        other.removed_sources = self.removed_sources.copy()
        return other

    def snapshot(self) -> Journal:
        """A copy for a view: the entries so far (shared, never written again), the piles' and
        the removed area's sources as they are."""
        other = Journal(0)
        other.entries = self.entries
        other.length = self.length
        other.pile_sources = [p.copy() for p in self.pile_sources]
        other.removed_sources = self.removed_sources.copy()
        return other

    def _add(self, kind: int, a: int, b: int) -> None:
        entries = self.entries
        if len(entries) != self.length:
            # Shared with a snapshot that read further (a clone's): write on a copy of ours.
            entries = self.entries = entries[: self.length]
        entries.append((kind, a, b))
        self.length += 1

    # ----------------------------------------------------------------------------- moves

    def left_hand(self, event: int, seat: int, slot: int) -> None:
        self._add(LEFT_HAND, event, seat * 4 + slot)

    def challenged(self, event: int, kind: int, rank: int) -> None:
        self._add(CHALLENGED, event, kind * 16 + rank)

    def to_pile(self, seat: int, event: int) -> None:
        self.pile_sources[seat].append(event)

    def pile_card_removed(self, seat: int, at: int) -> None:
        """The card at ``at`` of ``seat``'s pile goes to the removed area (a King found, §6)."""
        self.removed_sources.append(self.pile_sources[seat].pop(at))

    def pile_removed(self, seat: int) -> None:
        """``seat``'s whole pile goes to the removed area (GSK-24)."""
        self.removed_sources += self.pile_sources[seat]
        self.pile_sources[seat] = []

    def hand_removed(self, seat: int, count: int) -> None:
        """``count`` cards of ``seat``'s hand go to the end of the removed area (GSK-24)."""
        start = len(self.removed_sources)
        for position in range(start, start + count):
            self._add(HAND_REMOVED, position, seat)
            self.removed_sources.append(FROM_A_HAND)

    def to_removed(self, event: int) -> None:
        """The card of ``event`` goes to the removed area (from a formation, or just drawn)."""
        self.removed_sources.append(event)

    def pile_merged(self, seat: int) -> None:
        """``seat``'s pile joins its hand (§6)."""
        for event in self.pile_sources[seat]:
            self._add(JOINED_HAND, event, seat)
        self.pile_sources[seat] = []
