"""The rules summary that ``courtly rules crush-the-crown`` prints, in our words (the full rules:
docs/rules/crush-the-crown.md)."""

RULES = """\
CRUSH THE CROWN — two players, one 52-card deck and (by default) its two jokers.

Aim: complete your government, King down to Ace in your own suit, with no spy left in it.
The government is a ladder of 13 slots: K Q J 10 9 8 7 6 5 4 3 2 A, filled strictly in that
order; the next empty slot is the rank it needs next.

Setup
  The four Kings are laid aside face up. The rest is shuffled, a random player deals 5 cards
  each; the other cards form the draw pile. The non-dealer marries first and plays first.

Marriage (the non-dealer completely, then the dealer)
  Holding a natural Queen, you must put one (your choice) on the King of her suit: that suit is
  yours. Without one, discard a card face up and draw one, and look again. Then refill to 5.
  The two Kings nobody married are executed; their suits are the mercenary suits.

A turn has three steps
  1 Build (optional, one card): extend - the own-suit card of the rank your government needs
    next (a spy on top counts as the real card); or discover - the own-suit card of the rank of a
    spy in your government takes its slot and the spy is executed.
  2 Spy: you may place one spy in the rival's next slot: a mercenary card of exactly that rank,
    or a wild spy (a mercenary Queen or a joker) that becomes that rank. Then, every turn, the
    rival hands you one card per spy of yours in his government, one at a time: a card of your
    suit while he holds one, otherwise any card. He does not refill now.
  3 Fire & hire: you may discard one card, then draw up to 5 (none if you hold 5 or more).
  An empty draw pile is replaced by the shuffled discard pile.

Winning: your government complete and spy-free, reached in your own Build step.

What is hidden: hands (their sizes are public) and the draw pile. Discards, executions, both
governments (spies marked) and every tribute card are seen by both players.

How Courtly settles the sheet's open points
  CTC-3  the dealer is random; the non-dealer marries first and starts the play (CTC-7).
  CTC-4  a Queen in hand must be married at once; with several you choose (jokers are no Queens).
  CTC-6  deadlock guard: when you hold no Queen and neither pile has one, the rival must give
         you a Queen of his choice, and you marry her.
  CTC-9  one government card per Build, extension or discovery
         (option one_gov_card_per_build=false: one extension plus any discoveries).
  CTC-11 wild spies still go only into the rival's next slot.
  CTC-12 a spy may fill the Ace slot: the government is complete but not clean.
  CTC-13 tribute is owed in every Spy step, for every spy, a new one included.
  CTC-15 a rival with too few cards gives all he has.
  CTC-16 no hand limit; refill only below the hand size (option hand_size, also the deal).
  CTC-17 at most one card fired, before drawing.
  CTC-18 with both piles empty nobody draws.
  CTC-20 cards of the rival's suit are never played: only fired or given as tribute.
  CTC-21 your own cards are never spies.
  CTC-23 spies may go on spies and real cards on spies; every spy costs tribute and blocks a win.
  CTC-26 option safety_cap (400): after that many turns the game is a draw.
  Option use_jokers=false plays without the jokers.

Actions you type: pass, marry QD, discard 3C, give 2H (tribute, or the deadlock Queen),
extend 10D, discover 8D, spy 8C, spy QC, spy Jk, fire 5S.
"""
