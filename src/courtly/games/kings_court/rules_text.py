"""The rules summary that ``courtly rules kings-court`` prints, in our words (the full rules:
docs/rules/kings-court.md)."""

RULES = """\
KING'S COURT — a race up the track, 2 to 4 players, one 52-card deck without jokers.

Aim: be the first to bring your pawn to the last space of the track (30), or beyond it.

Table
  Each seat owns a suit: p0 hearts, p1 spades, p2 clubs, p3 diamonds. All pawns begin on the
  start space (0); hands begin empty. With 2 or 3 players the suits nobody owns are taken out of
  the deck. A random player begins (the cut for high card); play then goes p0, p1, p2, ...

Your turn
  1. Draw a card (nobody else sees it). If the draw pile is empty, the discard pile is shuffled
     into a new one; if both are empty, you draw nothing.
  2. Play as many cards as you like, one at a time, even the one you just drew; then end the turn.
     Every card played goes face up on the discard pile.

What a card does (you are never your own target)
  A-10 of your suit       you move forward its value (A = 1).
  A-10 of a rival's suit  that rival moves back its value, never below 0. Each rival can be
                          moved back only once in your turn.
  J, Q, K                 of your suit: on any rival you choose; of a rival's suit: on that rival.
  Jack    you and the rival swap places (a swap is not a move back).
  Queen   you secretly look at the rival's hand; then you may play one of its cards as if it
          were yours (all rules from your side), or play none. A borrowed Queen looks again.
  King    the rival throws his whole hand face up on the discard pile.

End
  Reaching the last space wins at once, even in the middle of a turn.

How Courtly settles the sheet's open points
  KC-1  52 cards, no jokers.
  KC-2  option prefilter_unused_suits=false: an unowned card is removed when drawn (face up) and
        the player draws again, instead of being taken out before play.
  KC-4  the start player is a chance event over the seats (the cut).
  KC-5  option initial_hand_size (0): cards dealt to everyone before the first turn.
  KC-6  empty draw pile: reshuffle the discard pile; both empty: no draw.
  KC-7  pawns stay between 0 and the last space; option track_length (30).
  KC-9  the move-back limit is per rival per turn; a move back from 0 still uses it; Jacks never.
  KC-11 a Jack may move you backwards.
  KC-12 borrowing is optional; the borrowed card goes to the discard pile.
  KC-13 a King on an empty hand does nothing.
  KC-16 places, hand sizes and the discard pile are public; hands and what a Queen shows are not.
        A Queen's look is remembered: you keep seeing the cards you looked at while they stay in
        that hand (every card that leaves a hand does so face up).
  KC-18 option safety_cap (500): after that many turns the farthest pawn wins; equal pawns share.

Variants for three and four players (off by default)
  KC-19 option pushback_cap (0): no card moves a rival back more than that many spaces.
  KC-20 option march (0): your pawn moves forward that many spaces as you end your turn.
  KC-21 option hand_limit (0): no turn ends with more cards in hand; discard 7H throws one away.
  KC-22 option track_cut (0): the track loses that many spaces for each player beyond two.

Actions you type (in any case: play 7h is play 7H)
  play 7H        a number card (its suit says whom it moves); a bare 7H works too
  play JH p2     a face card and its target (play KD alone when only one target is possible)
  borrow 6H      after a Queen: play that card from the rival's hand (borrow KS p1 for a face)
  pass           after a Queen: borrow nothing
  end            end your turn
  Several at once: play 7H, play 5S, end
"""
