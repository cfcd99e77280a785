"""What one seat knows about the cards it cannot see, and uniform sampling from that
(docs/rules/god-save-the-king.md §9).

God Save The King starts with every hand public (each player holds one whole suit); secrets
appear only as cards go face down (the middle card of a formation, captured unseen) and as trick
piles are merged back into hands. A :class:`Knowledge` tracks, for one viewer (a seat, or the
spectator), the cards whose place it cannot tell:

* a **class** is a set of card identities the viewer cannot tell apart any more;
* a **group** is a set of hidden places whose cards are exchangeable for the viewer: within a
  hand, the group of player ``o`` is every place a card of ``o``'s hand (as it was when the hand
  began) may have gone unseen: ``o``'s hand, ``o``'s unrevealed formation slots, the face-down
  middle cards ``o`` lost or won into trick piles, cards set aside face down;
* ``group_counts[group][class]`` is how many of the group's places hold a card of that class.

The viewer knows exactly this: each class's cards are spread over the groups with these counts,
uniformly, and within a group every arrangement is equally likely, except where a challenge
answer fixed a rank ("accurate" / "not accurate", kept as constraints on one place).

Places are identified by the card that truly lies there (a hidden card is at exactly one place),
which the tracker uses as a *label* only: every update is written in terms the viewer observed
(a card revealed at a place the viewer saw, a group's places moving to a new hand).

Exactness: within a hand the model is exact. At the end of a hand the viewer sees its own trick
pile (a set of cards from possibly several groups) and every pile is merged into a hand, which the
model can only express after merging each connected set of classes and groups into one (lossless
whenever each group's card set was known, as always in the 2-player game; a small loss otherwise,
documented in the final report). Challenge constraints end with the hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

from ...core.cards import CARDS, Card
from ...core.draws import below, choice, shuffle
from ...core.persist import fields_of, rebuild

Loc = tuple[Any, ...]
"""A hidden place in a redacted copy: ``("h", seat, i)`` hand, ``("f", trick, side, slot)``
formation, ``("p", seat, i)`` trick pile, ``("r", i)`` removed area."""

REMOVED_KEY: Final = -2
RANK: Final = tuple(c.rank for c in CARDS[:52])

# Constraint kinds on one place.
EQ_RANK: Final = 0  # a challenge answered "accurate": the card has this rank
NE_RANK: Final = 1  # "not accurate"
NOT_CARD: Final = 2  # the rules forbid this card here (a King in an outside slot, GSK-5 option)

# How a group's places are drawn (Export.group_kinds).
FREE_GROUP: Final = 0  # no constraint on any place
RULED_GROUP: Final = 1  # constraints, none fixing a rank
RANKED_GROUP: Final = 2  # a place whose rank an "accurate" answer fixed

_NO_CARDS: Final[list[Card]] = []
"""A group's pool before any class is dealt to it (read only: replaced by the first cards)."""
_NO_CARD: Final = Card(0)
"""A place not laid yet (every one is before the draw is returned)."""


class Knowledge:
    """One viewer's knowledge of the hidden cards (see the module docstring)."""

    __slots__ = (
        "_last_id",
        "class_cards",
        "class_of",
        "constraints",
        "group_counts",
        "group_of",
        "group_places",
        "seen",
        "viewer",
        "viewer_bit",
    )

    def __init__(self, viewer: int | None, viewer_bit: int) -> None:
        self.viewer = viewer
        self.viewer_bit = viewer_bit
        self.class_of: dict[Card, int] = {}  # identity -> class
        self.class_cards: dict[int, set[Card]] = {}  # class -> identities
        self.group_of: dict[Card, int] = {}  # place (labelled by its true card) -> group
        self.group_places: dict[int, set[Card]] = {}  # group -> places
        self.group_counts: dict[int, dict[int, int]] = {}  # group -> class -> count
        self.constraints: dict[Card, list[tuple[int, int]]] = {}  # place -> constraints
        self.seen = 0  # bit c: the viewer has seen card c's face at some time
        self._last_id = 0

    def __reduce__(self) -> tuple[Any, ...]:
        # (A compiled class pickles through core.persist: see there.)
        return (rebuild, (Knowledge, (self.viewer, self.viewer_bit), fields_of(self)))

    def clone(self) -> Knowledge:
        # (The constructor, not ``__new__``: mypyc compiles no bare ``cls.__new__(cls)``.)
        other = Knowledge(self.viewer, self.viewer_bit)
        other.class_of = self.class_of.copy()
        other.class_cards = {j: m.copy() for j, m in self.class_cards.items()}
        other.group_of = self.group_of.copy()
        other.group_places = {g: p.copy() for g, p in self.group_places.items()}
        other.group_counts = {g: c.copy() for g, c in self.group_counts.items()}
        other.constraints = {k: v.copy() for k, v in self.constraints.items()}
        other.seen = self.seen
        other._last_id = self._last_id
        return other

    def _new_id(self) -> int:
        self._last_id += 1
        return self._last_id

    @property
    def unknown(self) -> set[Card]:
        """The cards the viewer cannot place (identities = places)."""
        return set(self.class_of)

    # ------------------------------------------------------------------------- updates

    def reveal(self, card: Card) -> None:
        """The viewer sees ``card`` at its place (a place whose group the viewer knows)."""
        self.seen |= 1 << card
        j = self.class_of.pop(card, None)
        if j is None:
            return
        g = self.group_of.pop(card)
        members = self.class_cards[j]
        members.discard(card)
        if not members:
            del self.class_cards[j]
        places = self.group_places[g]
        places.discard(card)
        counts = self.group_counts[g]
        left = counts[j] - 1
        if left > 0:
            counts[j] = left
        else:
            del counts[j]
        if not places:
            del self.group_places[g]
            del self.group_counts[g]
        self.constraints.pop(card, None)

    def constrain(self, place: Card, kind: int, value: int) -> None:
        if place in self.group_of:
            self.constraints.setdefault(place, []).append((kind, value))

    def coarsen(self) -> None:
        """Merge every connected set of classes and groups into one class and one group."""
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            root = x
            while parent.get(root, root) != root:
                root = parent[root]
            while parent.get(x, x) != root:
                parent[x], x = root, parent[x]
            return root

        for g, counts in self.group_counts.items():
            for j in counts:
                a, b = find(2 * g + 1), find(2 * j)
                if a != b:
                    parent[a] = b
        classes: dict[int, list[int]] = {}
        groups: dict[int, list[int]] = {}
        for j in self.class_cards:
            classes.setdefault(find(2 * j), []).append(j)
        for g in self.group_places:
            groups.setdefault(find(2 * g + 1), []).append(g)
        for root, gs in groups.items():
            cl = classes.get(root, [])
            if len(cl) <= 1 and len(gs) <= 1:
                continue
            new_j = self._new_id()
            new_g = self._new_id()
            merged: set[Card] = set()
            for j in cl:
                merged |= self.class_cards.pop(j)
            for c in merged:
                self.class_of[c] = new_j
            self.class_cards[new_j] = merged
            places: set[Card] = set()
            for g in gs:
                places |= self.group_places.pop(g)
                del self.group_counts[g]
            for c in places:
                self.group_of[c] = new_g
            self.group_places[new_g] = places
            self.group_counts[new_g] = {new_j: len(places)}

    def new_hand(
        self,
        hands: Sequence[Sequence[Card]],
        removed: Sequence[Card],
        removed_masks: Sequence[int],
        kings: Sequence[Card],
        active: Sequence[bool],
    ) -> None:
        """A hand begins (the game's first, or after the merge): regroup by the new hands.

        Every card in another player's hand is a hidden place now, even one the viewer knows
        (it becomes uncertain as soon as its holder plays a card face down). Each active
        player's King is in his own hand (GSK-19: a King found in a rival's pile is revealed)."""
        viewer = self.viewer
        dest: dict[Card, int] = {}
        for s, hand in enumerate(hands):
            if s == viewer:
                for c in hand:
                    self.seen |= 1 << c
            else:
                for c in hand:
                    dest[c] = s
        for c, m in zip(removed, removed_masks, strict=True):
            if not m & self.viewer_bit:
                dest[c] = REMOVED_KEY
        self.coarsen()
        group_class = {g: next(iter(per_class)) for g, per_class in self.group_counts.items()}
        new_gid: dict[int, int] = {}
        counts: dict[int, dict[int, int]] = {}
        places: dict[int, set[Card]] = {}
        group_of: dict[Card, int] = {}
        known: dict[int, set[Card]] = {}
        for c, key in dest.items():
            g = new_gid.get(key)
            if g is None:
                g = new_gid[key] = self._new_id()
                counts[g] = {}
                places[g] = set()
            places[g].add(c)
            group_of[c] = g
            old = self.group_of.get(c)
            if old is None:
                known.setdefault(g, set()).add(c)  # a card the viewer could place until now
            else:
                j = group_class[old]
                counts[g][j] = counts[g].get(j, 0) + 1
        assert set(self.group_of) <= set(dest), "a hidden card left the hidden places unseen"
        for g, cards in known.items():
            j = self._new_id()
            self.class_cards[j] = cards
            for c in cards:
                self.class_of[c] = j
            counts[g][j] = len(cards)
        self.group_counts = counts
        self.group_places = places
        self.group_of = group_of
        self.constraints = {}
        # Every active rival's King is in his own new hand: pull it out of a shared class.
        for s, king in enumerate(kings):
            if s == viewer or not active[s] or king not in self.class_of:
                continue
            g = new_gid[s]
            j = self.class_of[king]
            if len(self.class_cards[j]) == counts[g].get(j, 0):
                continue  # the class lies wholly in that hand already
            self.class_cards[j].discard(king)
            counts[g][j] -= 1
            if not counts[g][j]:
                del counts[g][j]
            k = self._new_id()
            self.class_cards[k] = {king}
            self.class_of[king] = k
            counts[g][k] = 1

    # ------------------------------------------------------------------------- export

    def export(self, locate: dict[Card, Loc], extra: dict[Loc, list[tuple[int, int]]]) -> Export:
        """The knowledge in terms of a redacted copy's hidden places (no true card inside)."""
        if set(locate) != set(self.group_of):
            raise AssertionError(
                f"knowledge of {self.viewer} out of step with the table: "
                f"{sorted(map(str, set(locate) ^ set(self.group_of)))}"
            )
        class_ids = sorted(self.class_cards)
        index = {j: i for i, j in enumerate(class_ids)}
        classes = [sorted(self.class_cards[j]) for j in class_ids]
        alloc: list[list[tuple[int, int]]] = [[] for _ in classes]
        groups: list[list[Loc]] = []
        for gi, g in enumerate(sorted(self.group_places)):
            groups.append(sorted(locate[c] for c in self.group_places[g]))
            for j, count in sorted(self.group_counts[g].items()):
                alloc[index[j]].append((gi, count))
        cons: dict[Loc, list[tuple[int, int]]] = {}
        for place, rules in self.constraints.items():
            cons.setdefault(locate[place], []).extend(rules)
        for loc, rules in extra.items():
            cons.setdefault(loc, []).extend(rules)
        return Export(classes, alloc, groups, cons)


def simple_export(
    places: Iterable[tuple[Loc, Card]], extra: dict[Loc, list[tuple[int, int]]]
) -> Export:
    """The coarsest knowledge: every hidden card may be at every hidden place (used for a state
    whose history is no longer complete, such as a determinized world viewed again)."""
    pairs = list(places)
    classes = [sorted(c for _, c in pairs)] if pairs else []
    groups = [sorted(loc for loc, _ in pairs)] if pairs else []
    alloc = [[(0, len(pairs))]] if pairs else []
    return Export(classes, alloc, groups, dict(extra))


class Export:
    """Knowledge as a redacted copy holds it: classes of cards, groups of places, constraints."""

    __slots__ = (
        "_index",
        "allocation",
        "classes",
        "constraints",
        "draw_orders",
        "group_kinds",
        "groups",
        "mixed",
        "ordered",
        "place_codes",
        "place_ranks",
        "place_rules",
        "rank_bounds",
    )

    def __init__(
        self,
        classes: list[list[Card]],
        allocation: list[list[tuple[int, int]]],
        groups: list[list[Loc]],
        constraints: dict[Loc, list[tuple[int, int]]],
    ) -> None:
        self.classes = classes
        self.allocation = allocation
        self.groups = groups
        self.constraints = constraints
        # The most cards of each rank a group may receive (for the exact rejection weights).
        bounds: list[list[int]] = [[0] * 15 for _ in groups]
        for ci, cards in enumerate(classes):
            per_rank = [0] * 15
            for c in cards:
                per_rank[RANK[c]] += 1
            for gi, _ in allocation[ci]:
                row = bounds[gi]
                for r in range(15):
                    row[r] += per_rank[r]
        self.rank_bounds = bounds
        # Each group's places' constraints (None: none) and the rank an "accurate" answer fixes
        # there (0: none), in the group's order: read at every draw, looked up once here.
        self.place_rules: list[list[list[tuple[int, int]] | None]] = [
            [constraints.get(loc) for loc in places] for places in groups
        ]
        self.place_ranks: list[list[int]] = [
            [_rank_fixed(rules) if rules else 0 for rules in row] for row in self.place_rules
        ]
        # How each group is drawn: FREE_GROUP (no constraint: its shuffled cards are its
        # places' in order), RULED_GROUP (constraints, no rank fixed), or RANKED_GROUP.
        self.group_kinds: list[int] = [
            RANKED_GROUP
            if any(ranks)
            else RULED_GROUP
            if any(rules is not None for rules in row)
            else FREE_GROUP
            for row, ranks in zip(self.place_rules, self.place_ranks, strict=True)
        ]
        # Whether each group receives the cards of more than one class. A group fed by one
        # class gets a part of that class's shuffled deck, which is in a uniform random order
        # already: shuffling it again would draw as many random numbers for the same odds.
        feeders = [0] * len(groups)
        for parts in allocation:
            for gi, _ in parts:
                feeders[gi] += 1
        self.mixed: list[bool] = [count > 1 for count in feeders]
        # A class that alone fills a group without constraints need not be shuffled whole: the
        # cards of one seat's hand are laid in order whatever order they are drawn in
        # (.worlds.lay_dealt), so only the group's other places are drawn, one by one
        # (``ordered[ci]`` of them, -1: the whole deck is shuffled), and the cards left go to
        # that hand. ``draw_orders[ci]``: the group's places in the order they are drawn for.
        self.ordered: list[int] = [-1] * len(classes)
        self.draw_orders: list[list[int]] = [[] for _ in classes]
        for ci, parts in enumerate(allocation):
            gi = parts[0][0] if len(parts) == 1 else -1
            if gi < 0 or self.mixed[gi] or self.group_kinds[gi] != FREE_GROUP:
                continue
            places = groups[gi]
            in_hand = [0] * 5
            for loc in places:
                if loc[0] == "h":
                    in_hand[loc[1]] += 1
            unordered = max(in_hand)
            if unordered < 2:
                continue  # (nothing to spare)
            seat = in_hand.index(unordered)
            last = [j for j, loc in enumerate(places) if loc[0] == "h" and loc[1] == seat]
            first = [j for j, loc in enumerate(places) if not (loc[0] == "h" and loc[1] == seat)]
            self.ordered[ci] = len(first)
            self.draw_orders[ci] = first + last
        # Each group's places as ints (place_code), for laying a draw without reading tuples.
        self.place_codes: list[list[int]] = [[place_code(loc) for loc in row] for row in groups]
        self._index: tuple[dict[Card, int], dict[Loc, int]] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the four things it is built from: the rest is derived from them.
        return (Export, (self.classes, self.allocation, self.groups, self.constraints))

    def _indexes(self) -> tuple[dict[Card, int], dict[Loc, int]]:
        found = self._index
        if found is None:
            class_of = {c: ci for ci, cards in enumerate(self.classes) for c in cards}
            group_of = {loc: gi for gi, locs in enumerate(self.groups) for loc in locs}
            found = (class_of, group_of)
            self._index = found
        return found

    def probability(self, loc: Loc, card: Card) -> float:
        """The chance that ``card`` lies at the hidden place ``loc`` (ignoring the rare
        challenge constraints)."""
        class_of, group_of = self._indexes()
        ci = class_of.get(card)
        gi = group_of.get(loc)
        if ci is None or gi is None:
            return 0.0
        count = next((n for g, n in self.allocation[ci] if g == gi), 0)
        return count / len(self.classes[ci]) / len(self.groups[gi])

    def rank_probability(self, loc: Loc, rank: int) -> float:
        """The chance that the card at ``loc`` has ``rank``."""
        _, group_of = self._indexes()
        gi = group_of.get(loc)
        if gi is None:
            return 0.0
        total = 0.0
        for ci, cards in enumerate(self.classes):
            count = next((n for g, n in self.allocation[ci] if g == gi), 0)
            if count:
                same = sum(1 for c in cards if RANK[c] == rank)
                total += same / len(cards) * count
        return total / len(self.groups[gi])

    def deal(self, rng: random.Random, tries: int = 4000) -> list[list[Card]]:
        """A uniform draw of the hidden cards consistent with the knowledge: for each group, the
        cards of its places in order (``groups``; ``place_codes`` says where they lie).

        Rejection sampling: classes are dealt to groups, each group's cards are laid on its
        places (places fixed to a rank by an "accurate" answer first, weighted so the result
        stays uniform), then the remaining constraints are checked."""
        for attempt in range(tries):
            exact = attempt < tries // 2
            result = self._attempt(rng, exact, True)
            if result is not None:
                return result
        # Practically unreachable: keep the constraints, drop the exact weighting.
        for _ in range(tries):
            result = self._attempt(rng, False, True)
            if result is not None:
                return result
        result = self._attempt(rng, False, False)
        return result if result is not None else []

    def _attempt(self, rng: random.Random, exact: bool, strict: bool) -> list[list[Card]] | None:
        # The random numbers are drawn in this order, whatever the shape of the knowledge: each
        # class shuffled, then group by group the ranks fixed (a choice among the pool's cards
        # of that rank where several are) and the rest shuffled (a free or ruled group only
        # where it mixes classes: see ``mixed``); last the exact weighting's.
        groups = self.groups
        pools: list[list[Card]] = [_NO_CARDS] * len(groups)  # (never written: replaced)
        classes = self.classes
        ordered = self.ordered
        for ci in range(len(classes)):
            deck = classes[ci].copy()
            drawn = ordered[ci]
            if drawn < 0:
                shuffle(rng, deck)
            else:
                deck = _drawn_in_order(rng, deck, drawn, self.draw_orders[ci])
            at = 0
            for gi, count in self.allocation[ci]:
                pool = pools[gi]
                if not pool:
                    pools[gi] = (
                        deck if count == len(deck) else deck[at : at + count]
                    )  # (then at == 0)
                else:
                    pool.extend(deck[at : at + count])
                at += count
        weight = 1.0
        kinds = self.group_kinds
        mixed = self.mixed
        for gi in range(len(groups)):
            pool = pools[gi]
            kind = kinds[gi] if strict else FREE_GROUP
            if kind == FREE_GROUP:
                if mixed[gi]:
                    shuffle(rng, pool)
                continue
            group_rules = self.place_rules[gi]
            if kind == RULED_GROUP:
                if mixed[gi]:
                    shuffle(rng, pool)
                for j in range(len(pool)):
                    rules = group_rules[j]
                    if rules is not None and not _fits(pool[j], rules):
                        return None
                continue
            group_ranks = self.place_ranks[gi]
            size = len(group_ranks)
            laid: list[Card] = [_NO_CARD] * size
            picked = [0] * 15
            for j in range(size):
                rank = group_ranks[j]
                if not rank:
                    continue
                options = [i for i, c in enumerate(pool) if RANK[c] == rank]
                if not options:
                    return None
                weight *= len(options) / (self.rank_bounds[gi][rank] - picked[rank])
                picked[rank] += 1
                card = pool.pop(options[0] if len(options) == 1 else choice(rng, options))
                rules = group_rules[j]
                if rules is not None and not _fits(card, rules):
                    return None
                laid[j] = card
            shuffle(rng, pool)
            at = 0
            for j in range(size):
                if group_ranks[j]:
                    continue
                card = pool[at]
                at += 1
                rules = group_rules[j]
                if rules is not None and not _fits(card, rules):
                    return None
                laid[j] = card
            assert at == len(pool)  # a group's cards fill its places
            pools[gi] = laid
        if exact and weight < 1.0 and rng.random() >= weight:
            return None
        return pools


def _drawn_in_order(
    rng: random.Random, deck: list[Card], drawn: int, order: list[int]
) -> list[Card]:
    """``deck``'s cards on the places of one group: the first ``drawn`` of ``order`` (the
    places' indexes) each a card drawn at random from those left, the rest of the places the
    cards left, in the deck's order."""
    size = len(deck)
    for at in range(min(drawn, size - 1)):
        other = at + below(rng, size - at)
        deck[at], deck[other] = deck[other], deck[at]
    laid: list[Card] = [_NO_CARD] * size
    for at in range(size):
        laid[order[at]] = deck[at]
    return laid


def place_code(loc: Loc) -> int:
    """A hidden place as one int: its kind (0 hand, 1 formation, 2 pile, 3 removed) in the low
    two bits, then its indexes a byte each (``(hand, seat, i)`` is ``0 | seat << 2 | i << 10``,
    ``("f", trick, side, slot)`` is ``1 | trick << 2 | side << 10 | slot << 18``)."""
    where = loc[0]
    first: int = loc[1]
    second: int = loc[2] if len(loc) > 2 else 0
    if where == "h":
        return first << 2 | second << 10
    if where == "f":
        slot: int = loc[3]
        return 1 | first << 2 | second << 10 | slot << 18
    if where == "p":
        return 2 | first << 2 | second << 10
    return 3 | first << 2


def _rank_fixed(rules: list[tuple[int, int]]) -> int:
    """The rank the first "accurate" answer among ``rules`` fixes, or 0 (a loop, not a
    generator: compiled, a generator is an object made for each place drawn)."""
    for kind, value in rules:
        if kind == EQ_RANK:
            return value
    return 0


def _fits(card: Card, rules: list[tuple[int, int]]) -> bool:
    for kind, value in rules:
        if kind == EQ_RANK:
            if RANK[card] != value:
                return False
        elif kind == NE_RANK:
            if RANK[card] == value:
                return False
        elif card == value:
            return False
    return True
