"""The rules summary that ``courtly rules royal-gambit`` prints, in our words (the full rules:
docs/rules/royal-gambit.md)."""

RULES = """\
ROYAL GAMBIT — push your luck, 2 to 5 players, one 52-card deck without jokers.

Aim: be the only player with the highest total when the game ends.

A hand
  Everyone starts the hand active with an empty row; the deck holds all 52 cards, shuffled.
  Players take turns clockwise (the first hand's starter is random, then the start moves one
  seat clockwise each hand). On your turn you either
    hit  – turn the top card of the deck face up into your row, or
    stay – bank your row's score into your total and leave the hand.
  The hand ends when nobody is active; then every card goes back into the deck.

Scoring a row
  A = 1, 2-5 = face value, every other card 0. A King in the row doubles the score (once only).

Busting
  A card whose rank is already in your row busts you: you score 0 this hand and are out of it.
  Every rank counts, face cards too. If you hold a Queen, the Queen and the repeated card are
  set aside instead and you play on (the first card of that rank stays).

Powers (after the bust check; a busting or pardoned card has no power)
  7  Hot potato: give it to another active player who has no 7; if nobody can take it, keep it.
  J  Court spy: choose an active player, yourself allowed; he flips two cards, one at a time.
     Powers turned up meanwhile are resolved at once; a target who busts stops flipping.
  Q  Royal pardon, as above (used automatically, once).
  K  Crown's blessing: doubles a row that is scored.
  Forced flips use nobody's turn; play continues after the player whose turn it was.

End of the game
  When a hand ends with somebody at the target score (30) or more, one final hand is played by
  everyone except the favourites (the highest totals). Then the single highest total wins; if
  several share it, only they play more hands (totals keep adding up) until one is ahead.

How Courtly settles the sheet's open points
  RG-1  round robin: one hit or stay per turn, everybody's row on the table at once
        (option turn_mode=full_turn: each player hits until he stays or busts, then the next).
  RG-9  giving a 7 away is compulsory when someone can take it.
  RG-12 option ten_blocks_jacks: a player with a 10 cannot be chosen by a Jack.
  RG-13 option auto_hit_on_zero: a row scoring 0 must hit.
  RG-14 staying with a 0 score is allowed.
  RG-18 if the deck runs out, the hand ends and everyone still active stays.
  RG-20 option final_hand_excludes=at_or_above_target: everyone at or above the target sits out.
  RG-21 a final hand nobody may play is skipped.
  RG-26 option safety_cap (200): after that many hands the highest total wins, ties shared.

Actions you type: hit, stay, give-7 p2, jack p1.
"""
