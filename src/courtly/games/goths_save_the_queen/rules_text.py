"""The rules summary that ``courtly rules goths-save-the-queen`` prints, in our words (the full
rules: docs/rules/goths-save-the-queen.md)."""

RULES = """\
GOTHS SAVE THE QUEEN — 4 players in two clans, Ostrogoths (O) and Visigoths (V).

Seats: p0 Ostrogoth King, p1 Visigoth King, p2 Ostrogoth Warchief, p3 Visigoth Warchief
(a clan is the even or the odd seats). Nobody may talk to anyone: the King and the Warchief of a
clan see different things and share nothing but what lies on the table.

Aim: rescue the captive Queen (enter the Objective card she lies under) or wipe out the enemy
army. Either ends the game at once.

The board, one line
  O-Forest  O-Plains1  O-Plains2 | Objective 0  1  2 | V-Plains2  V-Plains1  V-Forest
  The three Objectives (Trap, Plains, Queen) lie face down in a random order. Each army starts
  with 2 figurines on its own Forest, 1 in reserve; both catapults inactive.

A turn
  1. The initiative passes to the other clan (the Ostrogoths hold it on turn 1; option
     first_initiative).
  2. The initiative King lays one of his King cards face down. Its back, seen by all, shows two
     characters: the true one and a decoy. Then the other King does the same.
  3. Both Warchiefs give an order at once, face down.
  4. Everything is revealed. A clan succeeds if its order's character is the character of the
     new King card or of any King card of that clan still lying face up from failed turns.
     Failure: the King card stays face up, nothing happens. Success: the order is carried out
     (compulsory, even if it does nothing), then the King takes back all his cards.
     If both succeed, the lower order number goes first; on a tie the initiative clan first.
     A win ends the game at once, before the other action.

King cards (each King: two of each character; the back shows true/decoy, V R C B order)
  V1 back V/R   V2 back V/B   R1 back V/R   R2 back R/C
  C1 back R/C   C2 back C/B   B1 back C/B   B2 back V/B     (option king_backs)
  A back is shared by two cards of different characters; a card face up tells which is gone.

Warchief orders (number = resolution order; character in brackets)
  1 recon      (Vulture)   look in secret at one Objective card (Fog: or at your own token).
                           Only this Warchief learns what it is, not even his King.
  2 sabotage   (Vulture)   the enemy catapult becomes inactive.
  3 recruit    (Recruiter) one figurine from reserve joins the army (max 3).
  4 load       (Catapult)  your catapult becomes active.
  5 fire       (Catapult)  if active: the enemy loses 2 figurines unless it stands on a
                           barricade; the catapult becomes inactive either way.
  6 barricade  (Barbarian) flip the card under your army to its barricade side (never on the
                           Plains Objective; on the Trap yes, option). Permanent.
  7 advance    (Barbarian) Forest -> Plains1 -> Plains2 -> an Objective of your choice; from an
                           Objective to any other one. Never back, never onto enemy terrain,
                           never onto the Objective the enemy stands on. Entering reveals the
                           card: Queen = you win; Trap = lose 1 figurine (every entry, option);
                           Plains = nothing.
  8 axe        (Barbarian) the enemy loses 1 unless it stands on a Forest or a barricade.
  9 rats       (Barbarian) the enemy loses 1 if it stands on a barricade.
  Lost figurines go to the reserve. An army with no figurine left loses the game (even to its
  own Trap).

Fog of War (option fog_of_war)
  A hidden token lies on each clan's Plains2; it is revealed when that army enters it and then
  hampers that clan wherever it goes: Pea soup (recon does nothing), Reduced numbers (recruit
  does nothing), Boar shortage (catapult turned inactive, load does nothing), Gusts (axe does
  nothing). A hampered order still counts as a success. The barricade order may instead discard
  the revealed token (the catapult stays inactive until loaded).

How Courtly settles the sheet's open points
  GOTH-1  King-card backs: the 4-cycle table above (option king_backs).
  GOTH-3  success by the new card or any face-up card of the clan.
  GOTH-5  sub-choices (which card to look at, where to enter, build or discard) are made by the
          Warchief when the order resolves.
  GOTH-9  barricades on the revealed Trap allowed (option barricade_on_trap_objective).
  GOTH-10 the Trap hurts every entry (option trap_every_entry).
  GOTH-12 a catapult hit on an army of 1 wipes it out.
  GOTH-14 a barricaded Forest is a barricade: safe from axe and catapult, open to rats.
  GOTH-17 which card a reconnaissance looks at is seen by all; what it shows, by the Warchief.
  GOTH-19 discarding a revealed Fog token works wherever the army is
          (option fog_discard_requires_same_card).
  GOTH-23 UNOFFICIAL option solo_clans (none, ostrogoths, visigoths, both): a solo clan is one
          chief who gives orders directly (always a success) but never two orders of the same
          character on consecutive turns; 3 players default to solo Visigoths, 2 to both
          (solo_clans=none, two full clans, needs 4 players: asked with 3, it is refused).
          Seats: solo Visigoths p0 O-King, p1 V-chief, p2 O-Warchief; solo Ostrogoths
          p0 O-chief, p1 V-King, p2 V-Warchief; both p0 O-chief, p1 V-chief.
  GOTH-26 option safety_cap (300): after that many turns the game is a draw.
  GOTH-27 option first_initiative (ostrogoths, visigoths): the clan first to hold the
          initiative; the rule sheet's is the Ostrogoths.

Actions you type
  King:      v1 v2 r1 r2 c1 c2 b1 b2
  Warchief:  recon sabotage recruit load fire barricade advance axe rats
  Then, when asked: look obj0 / look obj1 / look obj2 / look fog,
                    enter obj0 / enter obj1 / enter obj2,
                    build-barricade / discard-fog.
"""
