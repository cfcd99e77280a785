"""What people read and type of Royal Gambit: the picture of the table, the story of every
event (each flip and what it set off, each hand's start and end, the end of the game), the
outcome, the moves in words, the shortcuts people type and the reasons of refusals.

Everything in Royal Gambit is public (docs/rules/royal-gambit.md §5), so every line is told to
every seat and to spectators alike. Nothing here runs in a playout or a search.
"""

from __future__ import annotations

import re
from typing import Any, Final, cast

from ...core.actions import Action, seat_text
from ...core.cards import JACK, KING, QUEEN, Card, cards_text
from ...core.draws import drawn_card
from ...core.events import CHANCE, PUBLIC, Line
from ...core.game import GameText, Outcome, Standing, State
from .components import (
    ACTIVE,
    BUSTED,
    DRAW,
    FINAL,
    GIVE_SEVEN,
    HIT_ID,
    HIT_OR_STAY,
    JACK_TARGET,
    NORMAL,
    OUT,
    POINTS,
    QUEEN_BIT,
    RANK,
    SEVEN_BIT,
    STATUS_TEXT,
    STAYED,
    TEN_BIT,
    TIEBREAK,
    RoyalGambitAction,
)
from .rules import RoyalGambitState

RANK_NAME: Final = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
"""The ranks people say in words (the others by their number)."""

_GIVE: Final = re.compile(r"give(?:[ -]?7)?(?: to)? p?(\d+)")
"""``give 7 p2``, ``give7 p2``, ``give p2``, ``give 7 to p2``: shortcuts of ``give-7 p2``."""
_JACK: Final = re.compile(r"jack(?: at)? p?(\d+)")
"""``jack at p1``, ``jack 1``: shortcuts of ``jack p1``."""


class RoyalGambitText(GameText):
    """The table, its story, its end and its moves in words (everything is public, so every
    seat hears the same)."""

    def render(self, state: State, seat: int | None) -> str:
        """The table from ``seat``'s side (everything is public); once the game is over, the one
        summary of its end: the result, every total and the last hand's rows."""
        assert isinstance(state, RoyalGambitState)
        tables = state.tables
        if state.is_terminal:
            phase = " (the last)"
        else:
            phase = {FINAL: " (the final hand)", TIEBREAK: " (a tiebreak)"}.get(state.phase, "")
        lines = [
            f"Royal Gambit · hand {state.hand_number}{phase} · target {tables.target_score} · "
            f"deck {count(len(state.deck), 'card')}"
        ]
        lines += [_player_line(state, s, seat) for s in range(state.num_players)]
        if state.set_aside:
            lines.append(f"Set aside by pardons: {cards_text(state.set_aside)}")
        pending = [
            f"{seat_text(s)} must flip {count(left, 'more card', 'more cards')}"
            for s, left in reversed(state.forced_flips)
            if left
        ]
        if pending:
            lines.append("Forced flips: " + "; ".join(pending))
        if state.is_terminal:
            lines.append(_result_line(state))
        elif state.to_move:
            who = seat_text(state.to_move[0])
            if state.decision == HIT_OR_STAY:
                lines.append(f"{who} to hit or stay.")
            elif state.decision == GIVE_SEVEN:
                lines.append(f"{who} must give the 7 away.")
            else:
                lines.append(f"{who} picks who flips two cards (Jack).")
        return "\n".join(lines)

    # ------------------------------------------------------------------------- the story

    def tell(self, state: State, actor: int, item: Any) -> list[Line]:
        """The story of an event about to be applied to ``state``: the event, then what it set
        off (a bust, a pardon, a 7 to hand on, a Jack's flips, the end of the hand, the next
        hand or the end of the game). Everything is public, so every line is told to all."""
        assert isinstance(state, RoyalGambitState)
        after = state.clone()  # the event's consequences are read from the state it leads to
        stayer = buster = -1
        if actor == CHANCE:
            after.apply_chance(item)
            if isinstance(item, Card):
                texts, busted = _flip_lines(state, item)
                buster = state.flipper if busted else -1
            else:  # the seat that starts the first hand (RG-3)
                texts = _first_hand_lines(after)
        else:
            assert isinstance(item, RoyalGambitAction)
            after.apply(actor, item)
            texts = _action_lines(state, actor, item)
            if item.decision == HIT_OR_STAY and item.id != HIT_ID:
                stayer = actor
        if after.hands_played > state.hands_played:
            texts += _hand_end_lines(state, after, stayer, buster)
        return [(PUBLIC, text) for text in texts]

    # ------------------------------------------------------------------------- the end

    def outcome(self, state: State) -> Outcome:
        """Why the game ended (the final hand, a tiebreak, the safety cap), each seat's place by
        its total, and what decided it for that seat."""
        assert isinstance(state, RoyalGambitState)
        if not state.is_terminal:
            return super().outcome(state)
        last = _last_hand_phase(state)
        totals = state.totals
        standings = [
            Standing(
                s,
                1 + sum(1 for other in totals if other > totals[s]),
                count(totals[s], "point"),
                _seat_note(state, s, last),
            )
            for s in range(state.num_players)
        ]
        standings.sort(key=lambda standing: (standing.place, standing.seat))
        return Outcome(_end_reason(state, last), tuple(standings))

    # ------------------------------------------------------------------------- moves

    def action_label(self, state: State, seat: int, action: Action) -> str:
        """``Hit``, ``Stay (bank 7)``, ``Give the 7 to p2``, ``Send the Jack at p1 (two
        flips)``."""
        assert isinstance(state, RoyalGambitState) and isinstance(action, RoyalGambitAction)
        if action.decision == HIT_OR_STAY:
            if action.id == HIT_ID:
                return "Hit" if state.deck else "Hit (the deck is empty: the hand ends)"
            return f"Stay (bank {state.row_score(seat)})"
        target = "yourself" if action.target == seat else seat_text(action.target)
        if action.decision == GIVE_SEVEN:
            return f"Give the 7 to {target}"
        return f"Send the Jack at {target} (two flips)"

    def action_from_text(self, state: State, seat: int, text: str) -> Action | None:
        """The action's own text, or a shortcut: ``give 7 p2`` (a space or nothing for the
        hyphen, ``give p2``, ``give 7 to p2``) and ``jack at p1``."""
        action = state.game.action_from_text(text)
        if action is not None:
            return action
        folded = " ".join(text.lower().split())
        for pattern, form in ((_GIVE, "give-7 p{}"), (_JACK, "jack p{}")):
            found = pattern.fullmatch(folded)
            if found:
                return state.game.action_from_text(form.format(int(found.group(1))))
        return None

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        """Why a move of this game is refused now, in the game's words: nothing to hand on or
        nobody to send a Jack at, or why that seat cannot take the 7 or the Jack."""
        assert isinstance(state, RoyalGambitState)
        reason = None
        if isinstance(action, RoyalGambitAction) and state.game.known_action(action) is not None:
            reason = _refusal(state, seat, action)
        if reason is None:
            return super().why_illegal(state, seat, action)
        legal = self.legal_text(state, seat)
        return f"{action} is not legal now: {reason}; legal: {legal}"

    def why_unknown(self, state: State, seat: int, text: str) -> str:
        """A give or a Jack at a seat the game does not have says so; anything else, the
        default."""
        folded = " ".join(text.lower().split())
        for pattern in (_GIVE, _JACK):
            found = pattern.fullmatch(folded)
            if found:
                last = seat_text(state.num_players - 1)
                return (
                    f"p{int(found.group(1))} is not a seat of this game (p0 to {last}); "
                    f"legal: {self.legal_text(state, seat)}"
                )
        return super().why_unknown(state, seat, text)

    def parse_chance(self, state: State, text: str) -> Any:
        assert isinstance(state, RoyalGambitState)
        if state.chance_event == DRAW:
            return drawn_card(text, state.deck, "the deck any more")
        return super().parse_chance(state, text)

    def coach(self, state: State, seat: int) -> str | None:
        """What a teacher tells a newcomer at ``seat``'s decision, in numbers read off the table:
        what staying banks and how many of the cards left would bust or pay on a hit; what a 7
        puts at stake for whoever takes it; what a Jack's two flips risk for each target.
        Everything is public (§5): the deck is the 52 cards less those on the table this hand."""
        assert isinstance(state, RoyalGambitState)
        if seat not in state.to_move:
            return None
        if state.decision == HIT_OR_STAY:
            return _coach_hit_or_stay(state, seat)
        targets = [cast(RoyalGambitAction, a).target for a in state.legal_actions(seat)]
        if state.decision == GIVE_SEVEN:
            return _coach_seven(state, targets)
        return _coach_jack(state, seat, targets)


# ----------------------------------------------------------------------------- words


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def names(seats: list[int] | tuple[int, ...], conjunction: str = "and") -> str:
    """``p0``, ``p0 and p2``, ``p0, p1 and p3`` (or ``p0 or p2`` with ``conjunction="or"``)."""
    return listed([seat_text(s) for s in seats], conjunction)


def listed(words: list[str], conjunction: str = "and") -> str:
    """``4``, ``4 and King``, ``4, 5 and King`` (or ``4, 5 or King``)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def rank_name(card: Card) -> str:
    """``4``, ``Queen``: a card's rank as people say it."""
    rank = RANK[card]
    return RANK_NAME.get(rank, str(rank))


# ----------------------------------------------------------------------------- the table


def _player_line(state: RoyalGambitState, s: int, seat: int | None) -> str:
    marker = ">" if s in state.to_move else " "
    you = " (you)" if s == seat else ""
    status = state.status[s]
    row = cards_text(state.rows[s]) or "-"
    if status == ACTIVE:
        note = f"would score {state.row_score(s)}"
    elif status == STAYED:
        note = f"banked {state.banked[s]}"
    elif status == BUSTED:
        note = "busted: 0"
    elif state.phase == FINAL:
        note = "sits out: a favorite"
    elif state.phase == TIEBREAK:
        note = "sits out: not in the tiebreak"
    else:
        note = "sat out the last hand"
    return (
        f"{marker} {seat_text(s) + you:<9} total {state.totals[s]:>3}  {STATUS_TEXT[status]:<6}"
        f"  row: {row:<24} {note}"
    )


def _result_line(state: RoyalGambitState) -> str:
    """The one ``Game over`` line: who won, with what, and whether the safety cap ended it."""
    winners = state.winners
    top = state.totals[winners[0]]
    verb = "wins" if len(winners) == 1 else "share the win"
    how = (
        f" after the safety cap of {count(state.tables.safety_cap, 'hand')} (RG-26)"
        if state.truncated
        else ""
    )
    others = sorted(
        (s for s in range(state.num_players) if s not in winners),
        key=lambda s: (-state.totals[s], s),
    )
    behind = ", ".join(f"{seat_text(s)} {state.totals[s]}" for s in others)
    return f"Game over{how}: {names(winners)} {verb} with {count(top, 'point')}" + (
        f" ({behind})." if behind else "."
    )


# ----------------------------------------------------------------------------- events


def _action_lines(state: RoyalGambitState, seat: int, action: RoyalGambitAction) -> list[str]:
    """A seat's decision in words."""
    who = seat_text(seat)
    if action.decision == HIT_OR_STAY:
        if action.id == HIT_ID:
            return [f"{who} hits."]
        score = state.row_score(seat)
        total = state.totals[seat] + score
        doubled = ", doubled by the King" if score and state.row_ranks[seat] & (1 << KING) else ""
        return [f"{who} stays and banks {count(score, 'point')}{doubled} (total {total})."]
    target = seat_text(action.target)
    if action.decision == GIVE_SEVEN:
        return [f"{who} gives {state.seven_to_give} to {target}."]
    if action.target == seat:
        return [f"{who} sends the Jack at himself: {who} flips two cards, one at a time."]
    return [f"{who} sends the Jack at {target}: {target} flips two cards, one at a time."]


def _flip_lines(state: RoyalGambitState, card: Card) -> tuple[list[str], bool]:
    """The card ``state.flipper`` turns face up and what it does (RG-6: the bust check first,
    then the card's power), and whether it busts him."""
    seat = state.flipper
    who = seat_text(seat)
    flips = state.forced_flips
    forced = ""
    if flips and flips[-1][0] == seat:  # a Jack's forced flip; its count is already taken off
        forced = " (the Jack's first flip)" if flips[-1][1] == 1 else " (the Jack's second flip)"
    flipped = f"{who} flips {card}{forced}"
    row = state.rows[seat]
    rank = RANK[card]
    ranks = state.row_ranks[seat]
    if ranks & (1 << rank):
        first = next(c for c in row if RANK[c] == rank)
        if ranks & QUEEN_BIT:
            return _pardon_lines(state, card, first, flipped), False
        lines = [f"{flipped} and busts: a second {rank_name(card)} ({first} is in the row)."]
        lost = state.row_score(seat)
        lines.append(
            f"{who} loses the {count(lost, 'point')} the row was worth and scores 0 this hand."
            if lost
            else f"{who} scores 0 this hand."
        )
        left = sum(n for s, n in flips if s == seat)
        if left == 1:
            lines.append(f"{who}'s last forced flip is cancelled (RG-10).")
        elif left:
            lines.append(f"The {left} forced flips {who} had left are cancelled (RG-10).")
        return lines, True
    points = state.row_points[seat] + POINTS[card]
    doubled = bool(ranks & (1 << KING)) or rank == KING
    worth = points * 2 if doubled else points
    if rank == 7:
        return [f"{flipped}, the hot potato. {_seven_fate(state, seat)}"], False
    if rank == JACK:
        return [f"{flipped}, the Court Spy. {_jack_fate(state, seat)}"], False
    if rank == QUEEN:
        return [f"{flipped}: it will pardon {who}'s next repeated rank (RG-8)."], False
    if rank == KING and worth:
        return [f"{flipped}: it doubles the row, now worth {worth}."], False
    if rank == KING:
        return [f"{flipped}: it will double the row's points, none yet."], False
    if rank == 10 and state.tables.ten_blocks_jacks:
        return [f"{flipped}: while it shows, no Jack may pick {who} (RG-12)."], False
    if POINTS[card]:
        return [f"{flipped}: the row is worth {worth}."], False
    return [f"{flipped}, worth no points."], False


def _pardon_lines(state: RoyalGambitState, card: Card, first: Card, flipped: str) -> list[str]:
    """A repeated rank under a Queen (RG-7, RG-8): the Queen and the new card leave the row."""
    seat = state.flipper
    who = seat_text(seat)
    queen = next(c for c in state.rows[seat] if RANK[c] == QUEEN)
    if RANK[card] == QUEEN:
        why = f"{flipped}: a second Queen, which {queen} pardons (RG-7)."
    else:
        why = (
            f"{flipped}: a second {rank_name(card)} ({first} is in the row), "
            f"pardoned by {queen} (RG-8)."
        )
    power = f"; the new {rank_name(card)} has no power (RG-6)" if RANK[card] in (7, JACK) else ""
    return [
        why,
        f"{queen} and {card} are set aside{power}; {who} plays on, "
        f"the row worth {state.row_score(seat)}.",
    ]


def _seven_fate(state: RoyalGambitState, seat: int) -> str:
    """Who may take the 7 ``seat`` just flipped (RG-9)."""
    who = seat_text(seat)
    takers = [
        s
        for s in range(state.num_players)
        if s != seat and state.status[s] == ACTIVE and not state.row_ranks[s] & SEVEN_BIT
    ]
    if not takers:
        return f"Nobody else in the hand can take a 7, so {who} keeps it (RG-9)."
    if len(takers) == 1:
        only = seat_text(takers[0])
        return f"{who} must give it to {only}, the only one who can take it (RG-9)."
    return f"{who} must give it to {names(takers, 'or')} (RG-9)."


def _jack_fate(state: RoyalGambitState, seat: int) -> str:
    """Whom ``seat`` may send the Jack he just flipped at (RG-11, RG-12)."""
    who = seat_text(seat)
    block = TEN_BIT if state.tables.ten_blocks_jacks else 0
    targets = [
        s
        for s in range(state.num_players)
        if state.status[s] == ACTIVE and not state.row_ranks[s] & block
    ]
    if not targets:
        return "Everyone still in the hand shows a 10, so it does nothing (RG-12)."
    if targets == [seat]:
        return f"{who} is the only one it can pick: {who} flips two cards (RG-11)."
    return f"{who} picks who flips two cards: {names(targets, 'or')} (RG-11)."


def _first_hand_lines(after: RoyalGambitState) -> list[str]:
    """The first hand: who plays, who starts (drawn at random, RG-3) and what the target does."""
    target = after.tables.target_score
    return [
        f"Hand 1: everyone plays; {seat_text(after.start_player)} starts, drawn at random.",
        f"When a hand ends with someone on {target} or more, one final hand follows.",
    ]


def _hand_end_lines(
    before: RoyalGambitState, after: RoyalGambitState, stayer: int, buster: int
) -> list[str]:
    """The hand the event ended: how it stopped if the deck ran out, what each seat made of it,
    then the next hand or the end of the game."""
    lines = []
    # A hand ends when nobody is left in it; a seat still in it once the event's own stay or
    # bust is counted was made to stay by an empty deck (RG-18).
    stopped = [
        s
        for s in range(before.num_players)
        if before.status[s] == ACTIVE and s not in (stayer, buster)
    ]
    if stopped:
        lines.append(
            f"The deck is empty: the hand stops, and {names(stopped)} "
            f"{'stays, banking the row' if len(stopped) == 1 else 'stay, banking their rows'}"
            " (RG-18)."
        )
    lines.append(f"End of hand {before.hand_number}:")
    for s in range(before.num_players):
        status = before.status[s]
        total = after.totals[s]
        if status == OUT:
            lines.append(f"{seat_text(s)} sat it out: total {total}.")
        elif status == BUSTED or s == buster:
            lines.append(f"{seat_text(s)} busted: total {total}.")
        else:
            banked = before.banked[s] if status == STAYED else total - before.totals[s]
            lines.append(f"{seat_text(s)} banked {banked}: total {total}.")
    if after.is_terminal:
        lines.append(_end_reason(after, before.phase, story=True))
    else:
        lines += _next_hand_lines(before, after)
    return lines


def _next_hand_lines(before: RoyalGambitState, after: RoyalGambitState) -> list[str]:
    """The hand that starts: why (the target reached, a tie), who sits out and who plays."""
    hand = after.hand_number
    starts = f"{seat_text(after.start_player)} starts."
    totals = after.totals
    target = after.tables.target_score
    if after.phase == NORMAL:
        return [f"Nobody has {target} yet. Hand {hand}: everyone plays; {starts}"]
    if after.phase == FINAL:
        reached = [s for s in range(after.num_players) if totals[s] >= target]
        favorites = after.favorites
        have = "has" if len(reached) == 1 else "have"
        if after.tables.favorites_at_or_above_target:
            why = "at or above the target"
        elif len(favorites) == 1:
            why = f"with the highest total, {totals[favorites[0]]}"
        else:
            why = f"level on the highest total, {totals[favorites[0]]}"
        role = "the favorite" if len(favorites) == 1 else "favorites"
        sits = "sits" if len(favorites) == 1 else "sit"
        players = after.participants
        play = (
            f"{seat_text(players[0])} plays it alone"
            if len(players) == 1
            else f"{names(players)} play it"
        )
        return [
            f"{names(reached)} {have} reached {target}: hand {hand} is the final hand.",
            f"{names(favorites)} {sits} it out as {role}, {why} (RG-20).",
            f"{play}; {starts}",
        ]
    lines = []
    if before.phase == NORMAL:
        lines.append("Everyone is a favorite, so nobody plays the final hand (RG-21).")
    tied = after.participants
    level = totals[tied[0]]
    if before.phase == TIEBREAK:
        dropped = [s for s in before.participants if s not in tied]
        if dropped:
            drop = "drops" if len(dropped) == 1 else "drop"
            lines.append(f"{names(dropped)} {drop} out of the tiebreak, no longer level on top.")
        lines.append(
            f"{names(tied)} are still level on {level}: hand {hand} is another tiebreak (RG-22); "
            f"{starts}"
        )
    else:
        lines.append(f"{names(tied)} are level on the highest total, {level}.")
        lines.append(f"Hand {hand} is a tiebreak for them only (RG-22); {starts}")
    return lines


# ----------------------------------------------------------------------------- the end


def _last_hand_phase(state: RoyalGambitState) -> int:
    """The phase of a finished game's last hand (``NORMAL`` when the final hand was skipped,
    RG-21), which the finished state no longer keeps, read from what it does keep: the last
    hand's players, their banked scores and the favorites (docs/rules/royal-gambit.md §2)."""
    players = state.participants
    favorites = state.favorites
    if not favorites:
        return NORMAL  # nobody reached the target: the safety cap ended the game
    totals = state.totals
    before = [totals[s] - state.banked[s] for s in players]  # the totals the hand began with
    if len(favorites) == state.num_players:
        # Everyone was a favorite, so the final hand was skipped: the game ended then (when a
        # normal hand had just ended below the target), or in a tiebreak that followed.
        return NORMAL if max(before) < state.tables.target_score else TIEBREAK
    outsiders = [s for s in range(state.num_players) if s not in favorites]
    if list(players) != outsiders:
        return TIEBREAK  # the final hand is played by exactly the others
    # A tiebreak among exactly the others began with them level above every favorite; the
    # final hand began with every favorite ahead of them.
    return TIEBREAK if before[0] > max(totals[s] for s in favorites) else FINAL


def _end_reason(state: RoyalGambitState, last: int, story: bool = False) -> str:
    """Why the finished game ended and who won, in a sentence: for the outcome, or as the
    story's last line (``story``)."""
    winners = state.winners
    totals = state.totals
    top = totals[winners[0]]
    winner = seat_text(winners[0])
    if state.truncated:
        cap = f"the safety cap of {count(state.tables.safety_cap, 'hand')}"
        if len(winners) > 1:
            who = f"{names(winners)} share the win, level on the highest total, {top}"
        else:
            who = f"{winner} wins with the highest total, {top}"
        if story:
            return f"The game has reached {cap}: {who} (RG-26)."
        return f"{cap} ended the game: {who} (RG-26)"
    if last == TIEBREAK:
        reason = f"{winner} came out ahead in the tiebreak with {top} (RG-22)"
    elif last == FINAL and winners[0] in state.favorites:
        reason = f"{winner} reached {top} and nobody passed them in the final hand"
    elif last == FINAL:
        passed = names(state.favorites)
        reason = f"{winner} passed {passed} in the final hand, finishing with {top}"
    else:
        reason = (
            f"everyone reached {state.tables.target_score}, so nobody played the final hand, "
            f"and {winner} has the highest total, {top} (RG-21)"
        )
    return f"{winner} wins the game: {reason}." if story else reason


def _seat_note(state: RoyalGambitState, seat: int, last: int) -> str:
    """What decided the result for ``seat``, in a few words."""
    totals = state.totals
    winners = state.winners
    top = totals[winners[0]]
    gap = f"{top - totals[seat]} behind {names(winners)}"
    played = seat in state.participants and last != NORMAL
    in_last = ""
    if played:
        status = state.status[seat]
        in_last = "busted" if status == BUSTED else f"banked {state.banked[seat]}"
    if state.truncated:
        if seat in winners:
            return "the highest total when the cap was reached"
        return gap
    if last == TIEBREAK:
        if seat in winners:
            return f"won the tiebreak ({in_last} in its last hand)"
        if played:
            return f"lost the tiebreak ({in_last} in its last hand), {gap}"
        return gap
    if last == FINAL:
        favorite = seat in state.favorites
        if seat in winners:
            if favorite:
                return "sat out the final hand as a favorite; nobody passed them"
            return f"{in_last} in the final hand and passed {names(state.favorites)}"
        if favorite:
            return f"sat out the final hand as a favorite; passed by {names(winners)}"
        return f"{in_last} in the final hand, {gap}"
    if seat in winners:
        return "the highest total; nobody played the final hand"
    return gap


def _refusal(state: RoyalGambitState, seat: int, action: RoyalGambitAction) -> str | None:
    """Why ``seat`` may not make ``action`` now (it is to move, and the action is refused), or
    None when the game has no better words than the default."""
    who = seat_text(seat)
    if action.decision != state.decision:
        if state.decision == GIVE_SEVEN:
            return f"{who} must first give {state.seven_to_give} to another player (RG-9)"
        if state.decision == JACK_TARGET:
            return f"{who} must first pick who flips two cards for the Jack (RG-11)"
        if action.decision == GIVE_SEVEN:
            return f"there is no 7 to give ({who} is to hit or stay)"
        return f"there is no Jack to send ({who} is to hit or stay)"
    if action.decision == HIT_OR_STAY:  # a stay refused (RG-13)
        return f"{who}'s row is worth 0, and at this table a row worth 0 must hit (RG-13)"
    target = action.target
    them = seat_text(target)
    status = state.status[target]
    if action.decision == GIVE_SEVEN and target == seat:
        return f"{who} flipped the 7 and must hand it to another player (RG-9)"
    if status == OUT:
        return f"{them} sits this hand out"
    if status == STAYED:
        return f"{them} has stayed, and nothing in this hand can reach a player who stayed (RG-16)"
    if status == BUSTED:
        return f"{them} has busted and is out of the hand"
    shown = [
        c for c in state.rows[target] if RANK[c] == (7 if action.decision == GIVE_SEVEN else 10)
    ]
    if not shown:
        return None
    if action.decision == GIVE_SEVEN:
        return f"{them} already shows {shown[0]}, and a 7 goes only to a row without one (RG-9)"
    return f"{them} shows {shown[0]}, and a 10 keeps the Jacks away (RG-12)"


# ----------------------------------------------------------------------------- coaching


def _busting(state: RoyalGambitState, seat: int) -> tuple[int, list[int]]:
    """How many cards of the deck repeat a rank of ``seat``'s row (RG-6), and those ranks."""
    held = state.row_ranks[seat]
    ranks = [r for r in range(2, 15) if held >> r & 1 and state.left[r]]
    return sum(state.left[r] for r in ranks), ranks


def _paying(state: RoyalGambitState, seat: int) -> int:
    """How many cards of the deck would raise ``seat``'s row score: an Ace to 5 of a new rank,
    or a first King while the row has points to double (RG-4, RG-15)."""
    held = state.row_ranks[seat]
    paying = sum(state.left[r] for r in (2, 3, 4, 5, 14) if not held >> r & 1)
    if state.row_points[seat] and not held >> KING & 1:
        paying += state.left[KING]
    return paying


def _seconds(ranks: list[int]) -> str:
    """``a second 4, 5 or King``."""
    return f"a second {listed([RANK_NAME.get(r, str(r)) for r in ranks], 'or')}"


def _coach_hit_or_stay(state: RoyalGambitState, seat: int) -> str:
    deck = len(state.deck)
    score = state.row_score(seat)
    total = state.totals[seat] + score
    reached = ", the target reached" if total >= state.tables.target_score else ""
    stay = f"Staying banks {score} (total {total}{reached})."
    if not deck:
        return (
            "The deck is empty: a hit ends the hand, and everyone still in it banks his row "
            f"(RG-18). {stay}"
        )
    left = f"of the {count(deck, 'card')} left"
    busting, ranks = _busting(state, seat)
    paying = _paying(state, seat)
    if len(state.legal_actions(seat)) == 1:
        # RG-13: a row worth 0 must hit at this table.
        risk = f"; {busting} {left} would bust you, at no cost yet" if state.rows[seat] else ""
        lines = [f"Your row is worth 0, so at this table you must hit (RG-13){risk}."]
    elif not state.rows[seat]:
        lines = [
            f"Your row is empty, so no card can bust you: a hit is free, and {paying} {left} "
            "would score.",
            stay,
        ]
    elif state.row_ranks[seat] & QUEEN_BIT:
        spent = f": {busting} {left} would use the pardon up ({_seconds(ranks)})" if busting else ""
        lines = [
            stay,
            f"Your Queen pardons the next repeated rank, so no card can bust you now{spent}; "
            f"{paying} would add points (RG-8).",
        ]
    elif not busting:
        lines = [
            stay,
            f"None of the {count(deck, 'card')} left can bust you; {paying} would score.",
        ]
    else:
        cost = f"lose the row's {count(score, 'point')}" if score else "cost nothing yet"
        lines = [
            stay,
            f"Hitting: {busting} {left} would bust you ({_seconds(ranks)}) and {cost}; "
            f"{paying} would add points.",
        ]
    if state.phase in (FINAL, TIEBREAK):
        lines.append(_coach_race(state, seat, total))
    return " ".join(lines)


def _coach_race(state: RoyalGambitState, seat: int, total: int) -> str:
    """Where staying leaves ``seat`` against the best rival total, once the game's end is near
    (the final hand or a tiebreak: only finishing ahead counts, RG-20, RG-22)."""
    rivals = [s for s in range(state.num_players) if s != seat]
    best = max(state.totals[s] for s in rivals)
    leaders = [s for s in rivals if state.totals[s] == best]
    top = f"{names(leaders)}'s {best}" if len(leaders) == 1 else f"the {best} of {names(leaders)}"
    hand = "the final hand" if state.phase == FINAL else "a tiebreak"
    if total < best:
        return f"In {hand}, staying leaves you short of {top}: only hitting can win."
    if total == best:
        return f"In {hand}, staying leaves you level with {top}: a tie plays on (RG-22)."
    return f"In {hand}, staying puts you ahead of {top}."


def _coach_seven(state: RoyalGambitState, targets: list[int]) -> str:
    sevens = state.left[7]
    left = f"{sevens} of the {count(len(state.deck), 'card')} left are 7s"
    if len(targets) == 1:
        them = seat_text(targets[0])
        guard = " (unless his Queen pardons it)" if _has_queen(state, targets[0]) else ""
        return (
            f"You must hand the 7 to {them}, the only player who can take it (RG-9). It scores "
            f"nothing, but from now on a second 7 busts him{guard}: {left}."
        )
    stakes = ", ".join(
        f"{seat_text(s)}'s {state.row_score(s)}"
        + (" (a Queen guards it)" if _has_queen(state, s) else "")
        for s in targets
    )
    return (
        "Hand the 7 on (RG-9): it scores nothing, but a second 7 busts its new holder, and "
        f"{left}. A bust costs a player his row: {stakes}."
    )


def _coach_jack(state: RoyalGambitState, seat: int, targets: list[int]) -> str:
    deck = len(state.deck)

    def stake(s: int) -> str:
        """``p1's 9 (6 bust him)``: what the target's row is worth, and its risk on a flip."""
        whose, him = ("your", "you") if s == seat else (f"{seat_text(s)}'s", "him")
        if _has_queen(state, s):
            return f"{whose} {state.row_score(s)} (a Queen pardons one repeat)"
        return f"{whose} {state.row_score(s)} ({_busting(state, s)[0]} bust {him})"

    if targets == [seat]:
        if _has_queen(state, seat):
            risk = "your Queen pardons one repeat"
        else:
            risk = f"{_busting(state, seat)[0]} of the {count(deck, 'card')} left would bust you"
        return (
            "Only you can be picked: you flip two cards, one at a time (RG-11). Your row is "
            f"worth {state.row_score(seat)}, and {risk}."
        )
    others = [s for s in targets if s != seat] + [s for s in targets if s == seat]
    return (
        "The one you pick flips two cards, one at a time (RG-10): a rival may bust, you may "
        f"gain points. At stake, of the {count(deck, 'card')} left: "
        f"{', '.join(stake(s) for s in others)}."
    )


def _has_queen(state: RoyalGambitState, seat: int) -> bool:
    return bool(state.row_ranks[seat] & QUEEN_BIT)
