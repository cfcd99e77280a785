"""Helpers that set up Crush the Crown scenarios.

``new_game`` starts a real game and forces the dealer and every dealt card. ``position`` lays
out a mid-game table directly (both governments, hands, piles), the way the worked examples of
docs/rules/crush-the-crown.md §12 describe them, and starts a turn; every card of the deck is
placed exactly once, and from there on the test plays through the engine, forcing each draw.

The examples' P1 is seat p0 (diamonds, the non-dealer) and P2 is p1 (hearts); clubs and spades
are the mercenary suits.
"""

from __future__ import annotations

from collections.abc import Iterable

import courtly
from courtly.core.cards import CARDS, KING, Card, parse_cards
from courtly.games.crush_the_crown.components import JOKER
from courtly.games.crush_the_crown.rules import CrushTheCrownState


def new_game(dealer: str = "p1", **options: object) -> CrushTheCrownState:
    state = courtly.make("crush-the-crown", **options).new_state()
    assert isinstance(state, CrushTheCrownState)
    state.apply_chance(dealer)
    return state


def deal(state: CrushTheCrownState, non_dealer: str, dealer: str) -> None:
    """Force the deal: the non-dealer's cards and the dealer's, dealt one at a time."""
    mine, theirs = parse_cards(non_dealer), parse_cards(dealer)
    for a, b in zip(mine, theirs, strict=True):
        state.apply_chance(str(a))
        state.apply_chance(str(b))


def play(state: CrushTheCrownState, *steps: str) -> None:
    """``"p0 extend 10D"`` is a seat's decision; anything else (``"7H"``) the forced draw."""
    for step in steps:
        seat, _, action = step.partition(" ")
        if action:
            state.apply(int(seat.removeprefix("p")), action)
        else:
            state.apply_chance(step)


def legal(state: CrushTheCrownState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def hand(state: CrushTheCrownState, seat: int) -> list[str]:
    return [str(CARDS[c]) for c in state.hands[seat]]


def stack(state: CrushTheCrownState, seat: int) -> list[str]:
    """The government of ``seat``, a spy written with a trailing ``*``."""
    return [
        str(CARDS[c]) + ("*" if state.spies[seat] >> i & 1 else "")
        for i, c in enumerate(state.governments[seat])
    ]


def texts(cards: Iterable[int]) -> list[str]:
    return [str(CARDS[c]) for c in cards]


def position(
    *,
    p0_stack: str = "KD QD",
    p1_stack: str = "KH QH",
    p0_hand: str = "",
    p1_hand: str = "",
    discard: str = "",
    executed: str = "",
    draw: str | None = None,
    rest_to: int | None = None,
    turn: int = 0,
    **options: object,
) -> CrushTheCrownState:
    """A table after both marriages (p0 diamonds, p1 hearts), ``turn`` about to Build.

    Stacks are written from the King down, a spy marked ``*`` (``"KH QH JH 10H 9H 8C* 7H"``).
    Every card not named goes to the draw pile, unless ``draw`` names the draw pile, in which
    case the rest goes to the hand of ``rest_to``.
    """
    state = courtly.make("crush-the-crown", **options).new_state()
    assert isinstance(state, CrushTheCrownState)
    game = state.game
    used: list[Card] = []

    def take(text: str) -> list[Card]:
        cards: list[Card] = []
        for c in parse_cards(text.replace("*", "")):
            c = CARDS[min(c, JOKER)]  # both jokers are card 52
            assert used.count(c) < game.tables.deck.count(c) if c == JOKER else c not in used, (
                f"{c} placed twice"
            )
            used.append(c)
            cards.append(c)
        return cards

    stacks = []
    for text in (p0_stack, p1_stack):
        words = text.split()
        cards = take(text)
        spies = sum(1 << i for i, w in enumerate(words) if w.endswith("*"))
        stacks.append((cards, spies))
    hands = [take(p0_hand), take(p1_hand)]
    discard_cards = take(discard)
    kings_out = [k for k in CARDS[:52] if k.rank == KING and k not in used]
    used += kings_out
    executed_cards = kings_out + take(executed)
    draw_cards = take(draw) if draw is not None else []
    rest = [c for c in game.tables.deck if c != JOKER and c not in used]
    rest += [CARDS[JOKER]] * (game.tables.deck.count(JOKER) - used.count(CARDS[JOKER]))
    if draw is None:
        draw_cards = rest
    else:
        assert rest_to is not None or not rest, f"cards left over: {rest}"
        if rest_to is not None:
            hands[rest_to] = sorted(hands[rest_to] + rest)

    state.is_chance = False
    state.dealer, state.first_player = 1, 0
    state.cards_to_deal = 0
    state.suits = [2, 1]  # diamonds, hearts
    state.kings_aside = list(kings_out)
    state.governments = [list(stacks[0][0]), list(stacks[1][0])]
    state.spies = [stacks[0][1], stacks[1][1]]
    state.hands = [sorted(hands[0]), sorted(hands[1])]
    state.discard_pile = list(discard_cards)
    state.draw_pile = list(draw_cards)
    # End the marriage the engine's way: the unclaimed Kings are executed, the player of
    # ``turn`` starts.
    state.first_player = turn
    state._after_marriage(1 - turn)
    state.executed = list(executed_cards)
    state.first_player = 0
    everything = sorted(
        state.hands[0]
        + state.hands[1]
        + state.governments[0]
        + state.governments[1]
        + state.discard_pile
        + state.draw_pile
        + state.executed
    )
    assert everything == sorted([*game.tables.deck, *(k for k in CARDS[:52] if k.rank == KING)])
    return state
