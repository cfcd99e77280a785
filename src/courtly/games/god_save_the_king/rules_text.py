"""The rules summary that ``courtly rules god-save-the-king`` prints, in our words (the full rules:
docs/rules/god-save-the-king.md)."""

RULES = """\
GOD SAVE THE KING — bluffing tricks for 2 to 4 players, one 52-card deck without jokers.

Aim: be the last player whose King is still hidden.

Cards
  Seat p0 holds all 13 spades, p1 the hearts, p2 the diamonds, p3 the clubs; other suits are
  not used. Your King is the K of your own suit. Values: 2-10, J 11, Q 12, K 13, A 14 (GSK-1).
  Cards you capture from others are ordinary cards for you.

A trick (two players, X with priority against Y)
  1. Formation: both secretly lay three cards face down, left, middle and right (as seen from
     their own side). You choose them one at a time: left, then middle, then right.
  2. Reveal: the two outside cards of each formation turn face up. Your own King shown there
     eliminates you at once (GSK-5).
  3. Skirmishes: X's left card meets Y's right card, X's right meets Y's left (GSK-4); the higher
     value wins its column. Win a column and lose none: you win the trick. One column each, or
     two draws: a push.
  4. Route window: once per hand you may claim that your rival's face-down middle card is his
     King (route). Choices are made at the same time and settled in priority order. The card is
     turned up: his King eliminates him and you collect the trick; anything else costs you a
     card drawn blindly from your hand by your rival (shown to all, into his trick pile) and the
     trick goes on with that card face up. If the first route ends the trick, the second is
     cancelled and not used up (GSK-13/14/16).
  5. Push: both declare a rank for their middle card at the same time (any rank, bluffs allowed,
     GSK-6); the higher declaration wins the trick whatever the cards really are. A tie is
     declared again, at most max_redeclare (2) times; after that the trick is void and each
     takes his own three cards into his own trick pile (GSK-7).
     The loser may then challenge (GSK-8): the winner answers only "accurate" or "not accurate",
     never the true rank. Not accurate: the challenger draws a random card from the winner's
     hand; accurate: the winner draws one from the challenger's hand. The drawn card is shown
     to all and goes face down into the drawer's trick pile (GSK-9/10). A challenge never
     changes who wins the trick.
  6. Collection: the winner puts every card of the trick face down on his trick pile. Nobody,
     not even he, looks at a trick pile until the hand ends (GSK-21). A revealed King is never
     collected: it leaves the game.

Elimination
  A player whose King is revealed in any way (outside slot, route, blind draw, found in a rival's
  trick pile) is out at once; if he was in a running trick the other player collects it (GSK-11).
  An eliminated player's cards leave the game face down (GSK-24), but his trick pile is first
  searched: a rival's King found there is shown and eliminates its owner as well.

End of a hand (before a trick when someone holds fewer than 3 cards, GSK-17)
  Every player looks at his own trick pile. A rival's King found in a pile is shown to all and
  its owner is eliminated (your own King in your own pile is safe and comes back to you,
  GSK-19). Then each player takes his trick pile into his hand; a player left with fewer than
  3 cards is out (GSK-18). Routes become available again.

More players
  3 players (A, B, C = p0, p1, p2): one trick at a time, A-B, B-C, C-A, A-B, ...; the idle
  player waits; the rota carries on across hands (GSK-25).
  4 players: rounds of two tricks at once, {A-B, C-D} then {B-C, D-A} (GSK-26): all four form at
  the same time, then the first-listed trick is played out, then the second.
  When the first of four is eliminated, after that round: C = the eliminator, B = the loser of
  the other trick, A = its winner, and the 3-player rota starts with A-B. If that cannot be
  told (no other trick, a void one, an end-of-hand elimination) the survivors are lettered
  clockwise from the eliminated player (GSK-27). Two players left play the 2-player rules, the
  lower seat taking priority first (priority alternates every trick, GSK-28).

End of the game
  The last player left wins; players eliminated by the same event with nobody left share a
  draw (GSK-23). Safety cap: after safety_cap (300) tricks the player holding the most cards
  (hand + trick pile) wins, ties shared (GSK-29).

Options: max_redeclare, routes_per_hand (1), route_window (after_skirmish, or before_reveal:
  route before the reveal and aim at any of the rival's three face-down cards),
  trick_pile_private_until_hand_end (true; false: you may look at your pile at any time),
  exposed_king_legal (true; false: your King may only go in the middle), safety_cap.

Actions you type
  form left 10S, form middle KS, form right 8S (or just: left 10S, or the card alone for the
  next slot: 10S), or the whole formation on one line: 10S KS 8S.
  route (before_reveal: route left / route middle / route right), pass.
  declare q, or the rank alone: q (any of 2..10, j, q, k, a, in either case).   challenge, pass.

The end
  When the game is over the final table shows every card, the hidden ones too.
"""
