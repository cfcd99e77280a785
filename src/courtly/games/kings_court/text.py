"""What people read and type in King's Court: the picture of the table, the narration of events,
the reasons of refusals and the typed shortcuts.

Nothing here runs in a playout or a search.
"""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, seat_text
from ...core.cards import CARDS, JACK, KING, QUEEN, SUIT_NAMES, SUITS, Card, cards_text
from ...core.draws import drawn_card
from ...core.errors import IllegalAction
from ...core.events import CHANCE, PUBLIC, Line, observer_bit
from ...core.game import Game, GameText, Outcome, Standing, State
from .components import (
    BORROW,
    BORROWING,
    CUT,
    DEAL,
    DECK,
    DISCARD,
    END,
    FACE_NAME,
    PASS,
    PLAY,
    RANK,
    SEAT_SUIT,
    SUIT,
    VALUE,
    KingsCourtAction,
    KingsCourtTables,
)
from .rules import KingsCourtState
from .views import known_cards

DISCARDS_SHOWN = 8
"""The top cards of the discard pile shown in the picture."""


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def names(seats: list[int]) -> str:
    """``p0``, ``p0 and p2``, ``p0, p1 and p3``."""
    texts = [seat_text(s) for s in seats]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


def _cards(cards: list[int]) -> str:
    return cards_text([CARDS[c] for c in cards])


# ----------------------------------------------------------------------------- the picture


class KingsCourtText(GameText):
    """The table, its events and what people type, in King's Court's words."""

    def render(self, state: State, seat: int | None) -> str:
        """The table from ``seat``'s side; once the game is over, the one summary of its end: the
        result, every pawn, every hand and the cards never drawn."""
        assert isinstance(state, KingsCourtState)
        game = state.tables
        n = state.num_players
        suits = ", ".join(f"{seat_text(s)} {SUIT_NAMES[SEAT_SUIT[s]]}" for s in range(n))
        if state.truncated:
            turn = f"ended after {count(state.turns_played, 'turn')}"
        elif state.is_terminal:
            turn = f"ended in turn {state.turns_played + 1}"
        else:
            turn = f"turn {state.turns_played + 1} (cap {game.safety_cap})"
        lines = [
            f"King's Court · {suits} · first to {game.track_length} · {turn}"
            f" · draw pile {count(len(state.draw_pile), 'card')}{_variant_text(game)}"
        ]
        lines += _track_lines(state, seat)
        lines.append(_discard_line(state))
        if state.removed:
            lines.append(f"Removed from the game: {_cards(state.removed)}")
        if state.is_terminal:
            if state.draw_pile:
                lines.append(f"Never drawn: {_cards(sorted(state.draw_pile))}")
            lines.append(_result_line(state))
            return "\n".join(lines)
        if seat is not None:
            lines += _memory_lines(state, seat)
        if state.to_move:
            lines.append(_prompt_line(state))
        return "\n".join(lines)

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        """The story of an event about to be applied to ``state``, every line once with who may
        read it: a drawn card is named to its drawer only (to everyone when it is removed, KC-2),
        a Queen's look to the looker and the hand's owner; everything else is public."""
        assert isinstance(state, KingsCourtState)
        if actor == CHANCE:
            return _tell_cut(state, int(item)) if state.phase == CUT else _tell_draw(state, item)
        assert isinstance(item, KingsCourtAction)
        who = seat_text(actor)
        if item.kind == END:
            return _tell_end(state, actor)
        if item.kind == PASS:
            source = seat_text(state.queen_target)
            return [(PUBLIC, f"{who} passes: nothing borrowed from {source}'s hand.")]
        if item.kind == DISCARD:
            limit = state.tables.hand_limit
            return [
                (
                    PUBLIC,
                    f"{who} throws {CARDS[item.card]} away, face up: no turn ends with more than "
                    f"{count(limit, 'card')} in hand (KC-21).",
                )
            ]
        return _tell_card(state, actor, item)

    def outcome(self, state: State) -> Outcome:
        """Who reached the end of the track, or the safety cap (KC-18); every pawn's space."""
        assert isinstance(state, KingsCourtState)
        if not state.is_terminal:
            return super().outcome(state)
        positions = state.positions
        length = state.tables.track_length
        winners = state.winners
        front = max(positions)
        if state.truncated:
            reason = (
                f"the safety cap of {count(state.tables.safety_cap, 'turn')} ended the game: "
                "the farthest pawn wins, pawns level at the front share the win (KC-18)"
            )
        else:
            reason = f"{names(list(winners))} reached space {length}, the end of the track"
        returns = state.returns()
        ranks = [(returns[s], positions[s]) for s in range(state.num_players)]
        standings = []
        for seat, rank in enumerate(ranks):
            place = 1 + sum(1 for other in ranks if other > rank)
            if seat not in winners:
                behind = front - positions[seat]
                gap = "short of the end" if not state.truncated else "behind the farthest pawn"
                note = f"{count(behind, 'space')} {gap}"
            elif not state.truncated:
                note = "reached the end of the track"
            elif len(winners) == 1:
                note = "the farthest pawn at the safety cap"
            else:
                note = f"level at the front with {names([s for s in winners if s != seat])}"
            standings.append(Standing(seat, place, f"space {positions[seat]}", note))
        return Outcome(reason, tuple(sorted(standings, key=lambda s: (s.place, s.seat))))

    def seat_title(self, game: Game, seat: int) -> str:
        """The suit a seat plays (KC-3): its number cards move that seat's pawn."""
        return SUIT_NAMES[SEAT_SUIT[seat]].capitalize()

    def action_label(self, state: State, seat: int, action: Action) -> str:
        """``Play 7H: forward 7``, ``Play 5S: p1 back 5``, ``Swap places with p2 (JH)``,
        ``Look at p1's hand (QS)``, ``Borrow 4S: p1 back 4``, ``End the turn``, ``Pass``."""
        assert isinstance(state, KingsCourtState)
        if not isinstance(action, KingsCourtAction):
            return str(action)
        if action.kind == END:
            march = state.tables.march
            if not march:
                return "End the turn"
            if state.positions[seat] + march >= state.tables.track_length:
                return "End the turn: march to the end and win"  # KC-20
            return f"End the turn: march forward {march}"  # KC-20
        if action.kind == PASS:
            return "Pass"
        card = CARDS[action.card]
        if action.kind == DISCARD:
            return f"Discard {card}: over the hand limit"  # KC-21
        effect = _label_effect(state, seat, action)
        if action.kind == BORROW:
            return f"Borrow {card}: {effect}"
        if VALUE[card]:
            return f"Play {card}: {effect}"
        return f"{effect[0].upper()}{effect[1:]} ({card})"

    def action_from_text(self, state: State, seat: int, text: str) -> Action | None:
        """The action written ``text``. Shortcuts: a bare card (``7h``) means ``play`` (or ``borrow``
        after a Queen); a face card without a target means its only legal target."""
        assert isinstance(state, KingsCourtState)
        words = text.strip().split()
        if words and words[0].lower() not in ("play", "borrow", "end", "pass", "discard"):
            words.insert(0, "borrow" if state.phase == BORROWING else "play")
        action = state.game.action_from_text(" ".join(words))
        if action is not None or len(words) != 2 or words[0].lower() not in ("play", "borrow"):
            return action
        try:
            card = Card.parse(words[1])
        except ValueError:
            return None
        if VALUE[card]:
            return None
        kind = PLAY if words[0].lower() == "play" else BORROW
        matches = [
            a
            for a in state.legal_actions(seat)
            if isinstance(a, KingsCourtAction) and a.card == card and a.kind == kind
        ]
        if len(matches) == 1:
            return matches[0]
        if matches:
            targets = " or ".join(str(a) for a in matches)
            raise IllegalAction(f"{card} needs a target: {targets}")
        # No target is legal: the first action of this card, so that the refusal says why.
        tables = state.tables
        return (tables.all_plays_of if kind == PLAY else tables.all_borrows_of)[card][0]

    def input_steps(self, state: State, seat: int, text: str) -> list[str]:
        """A typed line may hold several actions separated by commas: ``play 7H, play 5S, end``."""
        steps = [part.strip() for part in text.replace(";", ",").split(",")]
        return [step for step in steps if step] or [text]

    def parse_chance(self, state: State, text: str) -> Any:
        assert isinstance(state, KingsCourtState)
        if state.is_chance and state.phase != CUT:
            return drawn_card(text, state.draw_pile, "the draw pile")
        return super().parse_chance(state, text)

    def why_unknown(self, state: State, seat: int, text: str) -> str:
        assert isinstance(state, KingsCourtState)
        return (
            f"{text.strip()!r} is not an action of King's Court "
            f"(play 7H, play JH p2, borrow 6H, pass, end); legal: {self.legal_text(state, seat)}"
        )

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        """Why ``action`` is not legal for ``seat`` (who is to move) now, in the game's words."""
        assert isinstance(state, KingsCourtState)
        legal = f"; legal: {self.legal_text(state, seat)}"
        if not isinstance(action, KingsCourtAction) or state.game.known_action(action) is None:
            return f"{action} is not an action of King's Court{legal}"
        reason = _why_not_now(state, seat, action) or _why_not_this_card(state, seat, action)
        return (reason or f"{action} is not legal for {seat_text(seat)} now") + legal

    def coach(self, state: State, seat: int) -> str | None:
        """What each card in reach would do, and what ending the turn keeps and risks, from
        ``seat``'s own hand, the public track and discard pile, and what its Queen showed."""
        assert isinstance(state, KingsCourtState)
        if seat not in state.to_move or state.is_terminal:
            return None
        return coaching(state, seat)


def _track_lines(state: KingsCourtState, seat: int | None) -> list[str]:
    """The track, one lane per pawn between bars: ``o`` is the pawn, the first cell the start.
    (No square brackets: the terminal would take them for markup.)"""
    length = state.tables.track_length
    step = max(1, -(-(length + 1) // 61))  # spaces per character on long tracks
    cells = length // step + 1
    scale = [" "] * (cells + 4)
    for mark in range(0, length + 1, 10 * step):
        at = mark // step
        for i, ch in enumerate(str(mark)):
            scale[at + i] = ch
    lines = [f"{'track':<14}{''.join(scale).rstrip()}"]
    for s in range(state.num_players):
        lane = ["·"] * cells
        lane[state.positions[s] // step] = "o"
        marker = ">" if s in state.to_move else " "
        name = seat_text(s) + (" (you)" if s == seat else "")
        size = len(state.hands[s])
        if (s == seat or state.is_terminal) and size:
            hand = f"hand {size}: {_cards([c for c in state.hands[s] if c >= 0])}"
        else:
            hand = f"hand {size}"
        lines.append(
            f"{marker} {name:<9}{SUITS[SEAT_SUIT[s]]} |{''.join(lane)}|"
            f" {state.positions[s]:>3}  {hand}"
        )
    return lines


def _discard_line(state: KingsCourtState) -> str:
    discard = state.discard_pile
    if not discard:
        return "Discard pile: empty"
    more = len(discard) - DISCARDS_SHOWN
    below = f"({more} more) " if more > 0 else ""
    return f"Discard pile: {below}{_cards(discard[-DISCARDS_SHOWN:])} (top last)"


def _memory_lines(state: KingsCourtState, seat: int) -> list[str]:
    """What ``seat`` remembers of the others' hands, and what they remember of its own."""
    lines = []
    for other in range(state.num_players):
        if other == seat:
            continue
        known = known_cards(state, seat, other)
        if known:
            unknown = len(state.hands[other]) - len(known)
            extra = f" (and {count(unknown, 'unknown card')})" if unknown else " (all of it)"
            lines.append(f"You know {seat_text(other)} holds: {_cards(known)}{extra}")
        seen_mine = known_cards(state, other, seat)
        if seen_mine:
            lines.append(f"{seat_text(other)} has seen your {_cards(seen_mine)}")
    return lines


def _prompt_line(state: KingsCourtState) -> str:
    who = seat_text(state.to_move[0])
    if state.phase == BORROWING:
        target = seat_text(state.queen_target)
        return f"{who} looks at {target}'s hand: borrow one card to play, or pass."
    back = [s for s in range(state.num_players) if state.moved_back >> s & 1]
    note = f" (already moved back: {names(back)})" if back else ""
    return f"{who} to play a card or end the turn{note}."


def _result_line(state: KingsCourtState) -> str:
    """The one ``Game over`` line: who won, and how (the last space, or the safety cap)."""
    winners = list(state.winners)
    if not state.truncated:
        return f"Game over: {names(winners)} reaches space {state.tables.track_length} and wins."
    verb = "wins" if len(winners) == 1 else "share the win"
    spot = state.positions[winners[0]]
    return (
        f"Game over after the safety cap of {count(state.tables.safety_cap, 'turn')} (KC-18): "
        f"{names(winners)} {verb} with the farthest {'pawn' if len(winners) == 1 else 'pawns'}"
        f" (space {spot})."
    )


# ----------------------------------------------------------------------------- the narration


def _tell_cut(state: KingsCourtState, start: int) -> list[Line]:
    """The table, then the cut for the first player (KC-4) and the deal, if any (KC-5)."""
    tables = state.tables
    n = state.num_players
    suits = ", ".join(f"{seat_text(s)} {SUIT_NAMES[SEAT_SUIT[s]]}" for s in range(n))
    lines: list[Line] = [
        (PUBLIC, f"Suits: {suits}. The first pawn to space {tables.track_length} wins.")
    ]
    unowned = [SUIT_NAMES[SEAT_SUIT[s]] for s in range(n, 4)]
    if unowned and len(tables.deck) < len(DECK):
        lines.append((PUBLIC, f"Nobody plays {' or '.join(unowned)}: left out of the deck (KC-2)."))
    lines.append((PUBLIC, f"{seat_text(start)} wins the cut and plays first."))
    if tables.initial_hand_size:
        dealt = count(tables.initial_hand_size, "card")
        lines.append((PUBLIC, f"Each player is dealt {dealt}, {seat_text(start)} first."))
    return lines


def _tell_draw(state: KingsCourtState, card: Any) -> list[Line]:
    """A card drawn (or dealt): named to its drawer alone, unless nobody plays its suit (KC-2);
    then what follows when the draw pile runs out."""
    drawer = state.drawer
    who = seat_text(drawer)
    dealing = state.phase == DEAL
    verb = "is dealt" if dealing else "draws"
    left = len(state.draw_pile) - 1
    card = CARDS[int(card)]
    if state.tables.owner[card] < 0:
        again = "is dealt another" if dealing else "draws again"
        removed = f"{who} {verb} {card}: nobody plays {SUIT_NAMES[SUIT[card]]}, so it leaves"
        told = f"{removed} the game and {who} {again} (KC-2)."
        return [(PUBLIC, told), *_refill(state, left, drawer, dealing)]
    bit = observer_bit(drawer, state.num_players)
    lines: list[Line] = [(bit, f"{who} {verb} {card}."), (~bit, f"{who} {verb} a card.")]
    if dealing:
        if state.cards_to_deal > 1:
            lines += _refill(state, left, (drawer + 1) % state.num_players, True)
        else:
            lines += _refill(state, left, state.start_player, False)
    return lines


def _refill(state: KingsCourtState, left: int, drawer: int, dealing: bool) -> list[Line]:
    """What happens as ``drawer`` is to receive a card with ``left`` cards in the draw pile: a
    reshuffle when it is empty, or no card at all when the discard pile is empty too (KC-6)."""
    if left:
        return []
    discard = len(state.discard_pile)
    if discard:
        pile = count(discard, "card")
        return [
            (
                PUBLIC,
                f"The draw pile is empty: the discard pile ({pile}) is shuffled into a "
                "new draw pile (KC-6).",
            )
        ]
    if dealing:
        stop: list[Line] = [(PUBLIC, "No card is left to deal: the deal stops (KC-6).")]
        return stop + _refill(state, 0, state.start_player, False)
    return [(PUBLIC, f"Both piles are empty: {seat_text(drawer)} draws nothing this turn (KC-6).")]


def _tell_end(state: KingsCourtState, seat: int) -> list[Line]:
    """The end of a turn, and the end of the game at the safety cap (KC-18)."""
    lines: list[Line] = [(PUBLIC, f"{seat_text(seat)} ends the turn.")]
    march = state.tables.march
    if march:
        # KC-20: the pawn marches on as its player ends the turn, and may reach the end by it.
        here = state.positions[seat]
        length = state.tables.track_length
        if here + march >= length:
            return [
                *lines,
                (
                    PUBLIC,
                    f"{seat_text(seat)} marches from {here} to {length}, the last space"
                    " (KC-20), and wins!",
                ),
                _hands_shown(state),
            ]
        lines.append(
            (
                PUBLIC,
                f"{seat_text(seat)} marches forward {count(march, 'space')}, from {here} to"
                f" {here + march} (KC-20).",
            )
        )
    cap = state.tables.safety_cap
    if state.turns_played + 1 < cap:
        following = (seat + 1) % state.num_players
        return lines + _refill(state, len(state.draw_pile), following, False)
    positions = list(state.positions)
    positions[seat] += march  # KC-20: the march comes before the cap's count
    front = max(positions)
    winners = [s for s, spot in enumerate(positions) if spot == front]
    lines.append((PUBLIC, f"That was turn {cap}, the safety cap: the game stops (KC-18)."))
    if len(winners) == 1:
        won = f"{seat_text(winners[0])} wins with the farthest pawn, on space {front}."
    else:
        won = f"{names(winners)} share the win, level at the front on space {front}."
    return [*lines, (PUBLIC, won), _hands_shown(state)]


def _variant_text(tables: KingsCourtTables) -> str:
    """The variants in play, for the header: `` · push back at most 3 · march 1``."""
    words = ""
    if tables.pushback_cap:
        words += f" · push back at most {tables.pushback_cap}"
    if tables.march:
        words += f" · march {tables.march}"
    return words


def _tell_card(state: KingsCourtState, seat: int, action: KingsCourtAction) -> list[Line]:
    """A card played from ``seat``'s hand or borrowed after a Queen (KC-12), and what it does."""
    card = action.card
    who = seat_text(seat)
    borrowed = action.kind == BORROW
    source = state.queen_target if borrowed else seat
    if borrowed:
        lead = f"{who} borrows {CARDS[card]} from {seat_text(source)}'s hand"
    else:
        lead = f"{who} plays {CARDS[card]}"
    positions = state.positions
    value = VALUE[card]
    if value:
        owner = state.tables.owner[card]
        if owner != seat:
            push = state.tables.push_of(value)  # KC-19
            return [(PUBLIC, _push_back(lead, owner, positions[owner], push, value))]
        length = state.tables.track_length
        spot = positions[seat] + value
        if spot < length:
            forward = count(value, "space")
            return [
                (PUBLIC, f"{lead} and moves forward {forward}, from {positions[seat]} to {spot}.")
            ]
        stop = " (a pawn stops on it: KC-7)" if spot > length else ""
        return [
            (PUBLIC, f"{lead} and moves from {positions[seat]} to {length}, the last space{stop}."),
            (PUBLIC, f"{who} reaches the end of the track and wins!"),
            _hands_shown(state, source, card),
        ]
    target = action.target
    them = seat_text(target)
    rank = RANK[card]
    if rank == JACK:
        mine, theirs = positions[seat], positions[target]
        if mine == theirs:
            return [(PUBLIC, f"{lead} and swaps places with {them}: both are on {mine}.")]
        back = " (a Jack may set its player back: KC-11)" if mine > theirs else ""
        return [
            (
                PUBLIC,
                f"{lead} and swaps places with {them}: {who} goes from {mine} to {theirs},"
                f" {them} from {theirs} to {mine}{back}.",
            )
        ]
    hand = list(state.hands[target])
    if target == source:
        hand.remove(card)  # a court card borrowed from the hand it is aimed at
    if rank == QUEEN:
        if not hand:
            return [(PUBLIC, f"{lead} to look at {them}'s hand, but it is empty: nothing to see.")]
        knowers = observer_bit(seat, state.num_players) | observer_bit(target, state.num_players)
        return [
            (PUBLIC, f"{lead} and looks at {them}'s hand ({count(len(hand), 'card')})."),
            (knowers, f"{who} sees {them}'s hand: {_cards(hand)}."),
        ]
    if not hand:
        return [(PUBLIC, f"{lead} on {them}, whose hand is empty: nothing to throw away (KC-13).")]
    return [(PUBLIC, f"{lead}: {them} throws the whole hand away, face up: {_cards(hand)}.")]


def _push_back(lead: str, victim: int, start: int, value: int, face: int) -> str:
    """A number card of ``victim``'s suit (worth ``face``) played by someone else: a move back
    of ``value`` (``face``, or the push-back cap, KC-19), stopped at the start (KC-7); even a move
    of no space counts as the victim's one move back (KC-9)."""
    them = seat_text(victim)
    capped = f" (a push back is capped at {count(value, 'space')}: KC-19)" if value < face else ""
    if start == 0:
        return (
            f"{lead}: {them} stays on the start, and may not be pushed back again this turn (KC-9)."
        )
    if start < value:
        return (
            f"{lead} and pushes {them} back {count(start, 'space')}, from {start} to the start"
            " (a pawn goes no lower: KC-7)."
        )
    return (
        f"{lead} and pushes {them} back {count(value, 'space')}, from {start} to {start - value}"
        f"{capped}."
    )


def _hands_shown(state: KingsCourtState, source: int = -1, card: int = -1) -> Line:
    """Every hand, public once the game is over; ``card`` is leaving ``source``'s hand."""
    shown = []
    for seat, hand in enumerate(state.hands):
        cards = [c for c in hand if c >= 0 and not (seat == source and c == card)]
        shown.append(f"{seat_text(seat)} holds {_cards(cards) if cards else 'no card'}")
    return (PUBLIC, f"Every hand is shown: {'; '.join(shown)}.")


def _label_effect(state: KingsCourtState, seat: int, action: KingsCourtAction) -> str:
    """What ``action`` does for ``seat``, for its button: ``forward 7``, ``p1 back 5``,
    ``swap places with p2``, ``look at p1's hand``, ``discard p1's hand``."""
    card = action.card
    value = VALUE[card]
    positions = state.positions
    if value:
        owner = state.tables.owner[card]
        if owner == seat:
            length = state.tables.track_length
            if positions[seat] + value >= length:
                return f"reach {length} and win"
            return f"forward {value}"
        them = seat_text(owner)
        start = positions[owner]
        value = state.tables.push_of(value)  # KC-19
        if start == 0:
            return f"{them} back 0 (on the start)"
        if start < value:
            return f"{them} back {start} (to the start)"
        return f"{them} back {value}"
    them = seat_text(action.target)
    rank = RANK[card]
    if rank == JACK:
        return f"swap places with {them}"
    if rank == QUEEN:
        return f"look at {them}'s hand"
    return f"discard {them}'s hand"


# ----------------------------------------------------------------------------- typing


def _why_not_now(state: KingsCourtState, seat: int, action: KingsCourtAction) -> str | None:
    """The refusal of an action of the wrong kind for the moment, or of a card not at hand."""
    kind = action.kind
    if state.phase == BORROWING:
        target = seat_text(state.queen_target)
        if kind in (PLAY, END):
            return f"first finish the Queen: borrow a card from {target}'s hand or pass"
        if kind == BORROW and action.card not in state.hands[state.queen_target]:
            return f"{CARDS[action.card]} is not in {target}'s hand"
        return None
    if kind == PASS:
        return "pass declines a Queen's borrow; to stop playing, end the turn"
    if kind == BORROW:
        return "borrow is only possible right after playing a Queen"
    over = len(state.hands[seat]) - state.tables.hand_limit
    if kind == END and state.tables.hand_limit and over > 0:
        return (
            f"{seat_text(seat)} holds {count(len(state.hands[seat]), 'card')}, more than the hand "
            f"limit of {state.tables.hand_limit}: play or discard {over} first (KC-21)"
        )
    if kind == DISCARD and over <= 0:
        return (
            f"a card is thrown away only to come down to the hand limit of "
            f"{count(state.tables.hand_limit, 'card')} (KC-21)"
        )
    if action.card not in state.hands[seat]:
        return f"{seat_text(seat)} does not hold {CARDS[action.card]}"
    return None


def _why_not_this_card(state: KingsCourtState, seat: int, action: KingsCourtAction) -> str | None:
    """The refusal of a card the rules forbid now: a second move back, or a wrong target."""
    card = action.card
    owner = state.tables.owner[card]
    if VALUE[card]:
        if owner >= 0 and owner != seat and state.moved_back >> owner & 1:
            return (
                f"{seat_text(owner)} has already been moved back this turn; each opponent "
                "only once per turn (KC-9)"
            )
        return None
    if action.target == seat:
        return "a face card is never played on oneself (KC-10)"
    if owner != seat and action.target != owner:
        name = f"a {FACE_NAME[RANK[card]]} of {SUIT_NAMES[SUIT[card]]}"
        return f"{name} may only be played on {seat_text(owner)}, whose suit it is (KC-10)"
    return None


# ----------------------------------------------------------------------------- coaching

COACH_LENGTH = 300
"""The most characters a coaching text holds (a few short sentences beside the board)."""


def coaching(state: KingsCourtState, seat: int) -> str:
    """A teacher's words on the decision ``seat`` faces: at most three sentences, the most
    telling first (a winning card, your own cards, the court cards, the push backs, ending the
    turn), each worked out from what ``seat`` may know."""
    if state.phase == BORROWING:
        sentences = _borrow_sentences(state, seat)
    else:
        sentences = _play_sentences(state, seat)
    chosen: list[str] = []
    for sentence in sentences:
        if len(chosen) < 3 and len(" ".join([*chosen, sentence])) <= COACH_LENGTH:
            chosen.append(sentence)
    return " ".join(chosen)


def _play_sentences(state: KingsCourtState, seat: int) -> list[str]:
    hand = state.hands[seat]
    length = state.tables.track_length
    here = state.positions[seat]
    owner = state.tables.owner
    plays = [a for a in state.legal_actions(seat) if isinstance(a, KingsCourtAction)]
    plays = [a for a in plays if a.kind == PLAY]
    winning = [a for a in plays if owner[a.card] == seat and here + VALUE[a.card] >= length]
    if winning:
        card = CARDS[winning[0].card]
        return [f"Play {card}: it takes you from {here} to {length} and wins at once (KC-8)."]
    sentences: list[str] = []
    own = [c for c in hand if VALUE[c] and owner[c] == seat]
    if own:
        total = sum(VALUE[c] for c in own)
        together = " together" if len(own) > 1 else ""
        verb = "move" if len(own) > 1 else "moves"
        # Your own number cards not in your hand nor discarded are what pushes you back.
        out = sum(1 for c in state.tables.deck if owner[c] == seat and VALUE[c]) - len(own)
        out -= sum(1 for c in state.discard_pile if owner[c] == seat and VALUE[c])
        suit = _suit_name(seat).removesuffix("s")
        risk = f"; the {count(out, suit)} still out could push you back" if out else ""
        sentences.append(
            f"{_cards(own)} {verb} you forward {total}{together}, from {here} to {here + total} "
            f"of {length}{risk}."
        )
    for rank in (KING, QUEEN, JACK):
        cards = sorted({a.card for a in plays if RANK[a.card] == rank})
        for court in cards:
            targets = [a.target for a in plays if a.card == court]
            sentences.append(_court_sentence(state, seat, court, targets))
    sentences += _push_sentences(state, seat, [c for c in hand if VALUE[c] and owner[c] != seat])
    limit = state.tables.hand_limit
    if limit and len(hand) > limit:
        return [_end_sentence(state, seat), *sentences]  # KC-21: the turn cannot end as it is
    sentences.append(_end_sentence(state, seat))
    return sentences


def _court_sentence(state: KingsCourtState, seat: int, card: int, targets: list[int]) -> str:
    """What a Jack, Queen or King in hand would do to the rivals it may target (KC-10)."""
    return f"{_card_effects(state, seat, card, targets, -1)} ({_court_rule(card)})."


def _card_effects(
    state: KingsCourtState, seat: int, card: int, targets: list[int], source: int
) -> str:
    """``JH swaps you with p1 (you gain 7, to 12), or swaps you with p2 (...)``: what ``card``
    does on each of its ``targets``."""
    effects = [_effect(state, seat, card, target, source) for target in targets]
    return f"{CARDS[card]} {', or '.join(effects)}"


def _either(words: list[str]) -> str:
    """``KS``, ``KS or KH``, ``KS, KD or KC``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _suit_name(seat: int) -> str:
    return SUIT_NAMES[SEAT_SUIT[seat]]


def _court_rule(card: int) -> str:
    return {JACK: "KC-11", QUEEN: "KC-12", KING: "KC-13"}[RANK[card]]


def _push_sentences(state: KingsCourtState, seat: int, cards: list[int]) -> list[str]:
    """The rivals' number cards in hand, in one sentence: the best push back on each rival, who
    may be pushed back once a turn (KC-9)."""
    owner = state.tables.owner
    parts = []
    for rival in sorted({owner[c] for c in cards}):
        theirs = [c for c in cards if owner[c] == rival]
        them = seat_text(rival)
        spot = state.positions[rival]
        if state.moved_back >> rival & 1:
            parts.append(f"{them} was pushed back already: {_cards(theirs)} must wait")
        elif spot == 0:
            parts.append(f"{them} is on the start, where {_cards(theirs)} would push nowhere")
        else:
            best = max(theirs, key=lambda c: (min(state.tables.push_of(VALUE[c]), spot), -VALUE[c]))
            parts.append(f"{CARDS[best]} {_effect(state, seat, best, rival, -1)}")
    if not parts:
        return []
    return [f"{'; '.join(parts)} (each rival once a turn, KC-9)."]


def _end_sentence(state: KingsCourtState, seat: int) -> str:
    """What ending the turn keeps, and the Kings that could still strip the hand (KC-13); with
    the march (KC-20), the step it brings first."""
    limit = state.tables.hand_limit
    over = len(state.hands[seat]) - limit
    if limit and over > 0:
        keep = count(limit, "card")
        return f"Before ending the turn, play or throw away {over}: a hand keeps {keep} (KC-21)."
    march = state.tables.march
    if not march:
        return _keep_sentence(state, seat)
    here = state.positions[seat]
    if here + march >= state.tables.track_length:
        return "Ending the turn marches you to the end: you win (KC-20)."
    return f"Ending the turn marches you forward {march}, to {here + march} (KC-20)."


def _keep_sentence(state: KingsCourtState, seat: int) -> str:
    """What ending the turn keeps, and the Kings that could still strip the hand (KC-13)."""
    hand = state.hands[seat]
    following = (seat + 1) % state.num_players
    if not hand:
        where = state.positions[following]
        held = count(len(state.hands[following]), "card")
        return (
            f"Nothing is left to play: end the turn, and {seat_text(following)} (on {where}, "
            f"{held} in hand) draws next."
        )
    # A King strips this hand if it is this seat's suit (any rival may aim it here) or a rival's
    # own suit (its owner may aim it at anyone): those not yet seen in the discard pile or here.
    owner = state.tables.owner
    gone = set(state.discard_pile) | set(hand)
    threats = [c for c in state.tables.deck if RANK[c] == KING and owner[c] >= 0 and c not in gone]
    kept = count(len(hand), "card")
    them = "it" if len(hand) == 1 else "them"
    if not threats:
        return f"Ending the turn keeps your {kept}: no King that could strip {them} is left."
    kings = _either([str(CARDS[c]) for c in threats])
    return (
        f"Ending the turn keeps your {kept}, but {kings} could make you throw {them} away (KC-13)."
    )


def _borrow_sentences(state: KingsCourtState, seat: int) -> list[str]:
    """After a Queen: the hand it showed, and what borrowing its most telling cards would do
    (KC-12): a win, your own suit, the court, the target's own suit, then the rest."""
    target = state.queen_target
    them = seat_text(target)
    seen = known_cards(state, seat, target)
    sentences = [f"You see {them}'s hand: {_cards(seen)}."]
    owner = state.tables.owner
    length = state.tables.track_length
    here = state.positions[seat]

    def telling(action: KingsCourtAction) -> tuple[int, int]:
        card = action.card
        if owner[card] == seat and here + VALUE[card] >= length:
            return (0, 0)
        if VALUE[card] and owner[card] == seat:
            return (1, -VALUE[card])
        if not VALUE[card]:
            return (2, -RANK[card])
        return (3 if owner[card] == target else 4, -VALUE[card])

    borrows = [
        a for a in state.legal_actions(seat) if isinstance(a, KingsCourtAction) and a.kind == BORROW
    ]
    cards: list[int] = []
    for action in sorted(borrows, key=telling):
        if action.card not in cards:
            cards.append(action.card)
    effects: list[str] = []
    for card in cards:
        targets = [a.target for a in borrows if a.card == card]
        effect = _card_effects(state, seat, card, targets, target)
        if effects and len("; ".join([*effects, effect])) > 150:
            break
        effects.append(effect)
    if effects:
        sentences.append(f"Borrowed, {'; '.join(effects)} (KC-12).")
    else:
        sentences.append("None of them may be played now (KC-9).")
    sentences.append(f"A borrowed card leaves {them}'s hand for good; passing leaves it as it is.")
    return sentences


def _effect(state: KingsCourtState, seat: int, card: int, target: int, source: int) -> str:
    """What ``card``, played by ``seat`` (from ``source``'s hand after a Queen, -1: its own),
    does: ``moves you forward 4, from 0 to 4``, ``pushes p1 back 6, from 8 to 2``, ..."""
    positions = state.positions
    length = state.tables.track_length
    value = VALUE[card]
    if value:
        owner = state.tables.owner[card]
        if owner == seat:
            here = positions[seat]
            if here + value >= length:
                return f"takes you to {length} and wins at once (KC-8)"
            return f"moves you forward {value}, from {here} to {here + value}"
        them = seat_text(owner)
        spot = positions[owner]
        if spot == 0:
            return f"is wasted on {them}, who is on the start"
        after = max(0, spot - state.tables.push_of(value))  # KC-19
        return f"pushes {them} back {spot - after}, from {spot} to {after}"
    them = seat_text(target)
    rank = RANK[card]
    if rank == JACK:
        mine, theirs = positions[seat], positions[target]
        if theirs > mine:
            return f"swaps you with {them} (you gain {theirs - mine}, to {theirs})"
        if theirs < mine:
            return f"swaps you with {them} (you lose {mine - theirs}, to {theirs})"
        return f"swaps you with {them} (both on {mine}: nothing changes)"
    size = len(state.hands[target]) - (1 if target == source else 0)
    cards = count(size, "card")
    if rank == QUEEN:
        if not size:
            return f"looks at {them}'s hand, which is empty"
        shown = "only card" if size == 1 else cards
        return f"shows you {them}'s {shown} and lets you borrow one"
    if not size:
        return f"does nothing to {them}, whose hand is empty"
    thrown = {1: "the one card in hand", 2: "both cards in hand"}.get(size, f"all {cards}")
    return f"makes {them} throw away {thrown}"
