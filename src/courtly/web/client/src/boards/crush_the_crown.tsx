// Crush the Crown's table: the two governments as ladders of slots from King down to Ace, with
// the spies turned sideways and the next rank needed marked; the rival's hand face down with the
// cards of it the viewer knows; the draw pile, the discard pile, the executed cards; the
// viewer's hand, its cards grouped by what they can do.
//
// Drawn from the observation alone (courtly/games/crush_the_crown/views.py): the rival's hand
// arrives as a size and the cards of it the viewer has seen (tribute), and is drawn so.
import type { ComponentChildren } from "preact";
import { Card, type SeatNamer } from "../cards";
import { PlayableCard, type BoardProps, type Picker } from "./board";
import { Backs, counted, DecisionBox, seatIndex, SmallCards, SUITS, useChanged } from "./parts";
import "./base.css";
import "./crush_the_crown.css";

interface Slot {
  rank: string;
  card: string;
  spy: boolean;
}

interface Government {
  seat: string;
  suit: string | null;
  next_needed: string | null;
  complete: boolean;
  spies: number;
  slots: Slot[];
}

interface Hand {
  seat: string;
  size: number;
  /** The viewer's own hand (every hand once the game is over). */
  cards?: string[];
  /** Of the viewer's own hand: the cards the rival has seen. */
  known_to_rival?: string[];
  /** Of the rival's hand: the cards the viewer has seen. */
  known?: string[];
}

interface CtcObservation {
  seat: string | null;
  phase: string;
  to_move: string[];
  decision: string | null;
  dealer: string | null;
  first_player: string | null;
  turn: string | null;
  turns_played: number;
  safety_cap: number;
  hand_size: number;
  mercenary_suits: string[];
  kings_aside: string[];
  governments: Government[];
  hands: Hand[];
  draw_pile: number;
  discard_pile: string[];
  executed: string[];
  tribute_owed: number;
  winners: string[];
  draw: boolean;
}

const LADDER = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"];

const SUIT_OF_LETTER: Record<string, string> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

function SuitName({ suit }: { suit: string }) {
  const known = SUITS[suit];
  return (
    <span class="ctc-suit-name">
      {known && (
        <span class={known.red ? "card-red ctc-suit" : "card-black ctc-suit"} aria-hidden="true">
          {known.symbol}
        </span>
      )}
      {suit}
    </span>
  );
}

export function CrushTheCrownBoard({ observation, seat, toMove, seatName, picker }: BoardProps) {
  const seen = observation as unknown as CtcObservation;
  // Who is to move as the table says: nobody while the table waits for its players, though the
  // game's first mover is set already.
  const moving = new Set(toMove.map((s) => `p${s}`));
  const obs = { ...seen, to_move: seen.to_move.filter((s) => moving.has(s)) };
  const viewer = seat === null ? null : `p${seat}`;
  // The viewer's side nearest the viewer (below), the rival's across (above); a spectator sees
  // p1 above and p0 below.
  const near = viewer ?? "p0";
  const far = near === "p0" ? "p1" : "p0";
  const government = (s: string) => obs.governments.find((g) => g.seat === s)!;
  const hand = (s: string) => obs.hands.find((h) => h.seat === s)!;
  const over = obs.phase === "over";
  return (
    <div class="board ctc" data-board="crush-the-crown">
      <Decision obs={obs} viewer={viewer} seatName={seatName} />
      <Facts obs={obs} seatName={seatName} />
      <RivalHand hand={hand(far)} obs={obs} viewer={viewer} seatName={seatName} />
      <GovernmentView government={government(far)} obs={obs} viewer={viewer} seatName={seatName} />
      <Piles obs={obs} />
      <GovernmentView government={government(near)} obs={obs} viewer={viewer} seatName={seatName} />
      {viewer !== null ? (
        <YourHand hand={hand(near)} obs={obs} viewer={viewer} seatName={seatName} picker={picker} />
      ) : (
        <RivalHand hand={hand(near)} obs={obs} viewer={viewer} seatName={seatName} />
      )}
      {over && <p class="muted ctc-over-note">The game is over: every hand is shown.</p>}
    </div>
  );
}

// ------------------------------------------------------------------------------ the decision

function Decision({ obs, viewer, seatName }: { obs: CtcObservation; viewer: string | null; seatName: SeatNamer }) {
  const name = (s: string) => seatName(seatIndex(s));
  const mover = obs.to_move[0] ?? null;
  const mine = mover !== null && mover === viewer;
  const rival = mover === "p0" ? "p1" : "p0";
  const own = mover ? obs.governments.find((g) => g.seat === mover) : undefined;
  const theirs = obs.governments.find((g) => g.seat === rival);
  let text: ComponentChildren;
  if (obs.phase === "over") {
    if (obs.draw) text = `The game is over: the limit of ${obs.safety_cap} turns is reached, a draw.`;
    else if (obs.winners.length)
      text = `The game is over: ${name(obs.winners[0])} completed a government free of spies and wins.`;
    else text = "The game is over.";
  } else if (mover === null || obs.decision === null) {
    text = obs.phase === "setup" ? "The cards are being dealt." : "…";
  } else {
    const who = mine ? "You" : name(mover);
    switch (obs.decision) {
      case "marriage":
        text = mine ? (
          <>
            <strong>Marriage</strong>: marry a Queen you hold to the King of her suit, or discard a card and
            draw another.
          </>
        ) : (
          `${who} looks for a Queen to marry: marry one, or discard a card and draw.`
        );
        break;
      case "give-queen":
        text = mine ? (
          <>
            <strong>Give a Queen</strong>: you hold every free Queen; give {name(rival)} one to marry.
          </>
        ) : (
          `${who} holds every free Queen and gives ${name(rival)} one.`
        );
        break;
      case "build":
        text = (
          <>
            <strong>Build</strong>: {mine ? "extend your" : `${who} may extend their`} government with its
            next rank{own?.next_needed ? ` (${own.next_needed}${own.suit ? ` of ${own.suit}` : ""})` : ""}, or
            discover a spy in it with the real card of the spy's rank — or pass.
          </>
        );
        break;
      case "spy":
        text = (
          <>
            <strong>Spy</strong>: {mine ? "place" : `${who} may place`} a spy in {name(rival)}'s government
            {theirs?.next_needed ? ` as its ${theirs.next_needed}` : ""} (a mercenary card of that rank, or a
            mercenary Queen or joker as any rank) — or pass.
          </>
        );
        break;
      case "tribute": {
        const taker = obs.turn ?? rival;
        const suit = obs.governments.find((g) => g.seat === taker)?.suit;
        text = (
          <>
            <strong>Tribute</strong>: {mine ? "give" : `${who} gives`} {name(taker)}{" "}
            {counted(obs.tribute_owed, "more card")}, one at a time
            {suit ? ` (${suit} first while ${mine ? "you hold" : "they hold"} any)` : ""}: one for each spy in{" "}
            {mine ? "your" : "their"} government.
          </>
        );
        break;
      }
      case "fire":
        text = (
          <>
            <strong>Fire &amp; hire</strong>: {mine ? "discard" : `${who} may discard`} one card or pass;
            then {mine ? "you draw" : "they draw"} up to {obs.hand_size}.
          </>
        );
        break;
      default:
        text = `${who}: ${obs.decision}`;
    }
  }
  return (
    <DecisionBox mine={mine} decision={obs.decision ?? "none"}>
      <p>{text}</p>
    </DecisionBox>
  );
}

function Facts({ obs, seatName }: { obs: CtcObservation; seatName: SeatNamer }) {
  const name = (s: string) => seatName(seatIndex(s));
  return (
    <p class="board-facts">
      {obs.phase === "marriage" && "Marriage · "}
      {obs.turn && obs.phase !== "over" && `Turn ${obs.turns_played + 1}: ${name(obs.turn)}'s · `}
      {/* A win ends the game during its turn, which is not counted as played. */}
      {obs.phase === "over" &&
        (obs.turns_played >= obs.safety_cap
          ? `${counted(obs.turns_played, "turn")} played, the cap · `
          : `won on turn ${obs.turns_played + 1} · `)}
      {obs.dealer && `dealer ${name(obs.dealer)} · `}
      {`the game stops at turn ${obs.safety_cap}`}
      {obs.mercenary_suits.length > 0 && (
        <>
          {" · mercenary suits: "}
          {obs.mercenary_suits.map((suit, index) => (
            <span key={suit}>
              {index > 0 && " and "}
              <SuitName suit={suit} />
            </span>
          ))}
        </>
      )}
    </p>
  );
}

// ------------------------------------------------------------------------------ a government

function GovernmentView({
  government,
  obs,
  viewer,
  seatName,
}: {
  government: Government;
  obs: CtcObservation;
  viewer: string | null;
  seatName: SeatNamer;
}) {
  const owner = government.seat;
  const yours = owner === viewer;
  const ownerName = seatName(seatIndex(owner));
  const headingId = `ctc-government-${owner}`;
  const toMove = obs.to_move.includes(owner);
  const winner = obs.winners.includes(owner) && !obs.draw;
  const filled = government.slots.length;
  const rivalName = seatName(owner === "p0" ? 1 : 0);
  const changed = useChanged(owner);
  return (
    <section
      class={`board-seat ctc-government${yours ? " ctc-government-yours" : ""}${toMove ? " ctc-to-move" : ""}${changed ? " board-seat-changed" : ""}`}
      aria-labelledby={headingId}
      data-seat={owner}
    >
      <h3 id={headingId} class="ctc-government-title">
        {yours ? "Your government" : `${ownerName}'s government`}
        {yours && <span class="muted">· {ownerName}</span>}
        {government.suit ? (
          <span class="ctc-tag">
            <SuitName suit={government.suit} />
          </span>
        ) : (
          <span class="ctc-tag">not married yet</span>
        )}
        {toMove && <span class="badge badge-turn">to move</span>}
        {winner && <span class="badge ctc-badge-won">winner</span>}
      </h3>
      <p class="ctc-government-state">
        {government.complete
          ? government.spies
            ? `Complete, but with ${counted(government.spies, "spy", "spies")} planted by ${rivalName}: no win until they are discovered.`
            : "Complete and free of spies."
          : government.next_needed
            ? `Next rank needed: ${government.next_needed}`
            : "Begins with a King and Queen at the marriage."}
        {!government.complete &&
          government.spies > 0 &&
          ` · ${counted(government.spies, "spy", "spies")} planted by ${rivalName}`}
      </p>
      <ol class="ctc-ladder" aria-label={`${yours ? "Your" : `${ownerName}'s`} government, King to Ace`}>
        {LADDER.map((rank, index) => {
          const slot = government.slots[index];
          const next = index === filled && government.next_needed === rank;
          const classes = ["ctc-slot"];
          if (slot) classes.push(slot.spy ? "ctc-slot-spy" : "ctc-slot-real");
          else if (next) classes.push("ctc-slot-next");
          else classes.push("ctc-slot-open");
          return (
            <li key={rank} class={classes.join(" ")} data-rank={rank}>
              <span class="ctc-slot-rank" aria-hidden="true">
                {rank}
              </span>
              {slot ? (
                <span class="ctc-slot-card">
                  <Card code={slot.card} />
                </span>
              ) : (
                <span
                  class="card card-empty ctc-slot-place"
                  role="img"
                  aria-label={next ? `${rank}: the next rank needed` : `${rank}: empty`}
                />
              )}
              <span class="ctc-slot-note">
                {slot?.spy ? "spy" : next ? "next" : ""}
                {slot && <span class="visually-hidden">{` as ${rank}`}</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

// ------------------------------------------------------------------------------ piles

function Piles({ obs }: { obs: CtcObservation }) {
  const discard = obs.discard_pile;
  const top = discard.length ? discard[discard.length - 1] : null;
  return (
    <section class="ctc-piles" aria-label="The piles">
      <div class="ctc-pile" role="group" aria-label="Draw pile">
        <span class="ctc-pile-name">Draw pile</span>
        {obs.draw_pile ? <Backs count={obs.draw_pile} what="card" /> : <span class="muted">empty</span>}
      </div>
      <div class="ctc-pile" role="group" aria-label="Discard pile">
        <span class="ctc-pile-name">Discard pile{discard.length > 0 && ` (${discard.length})`}</span>
        {top ? <Card code={top} /> : <span class="muted">empty</span>}
        {discard.length > 1 && (
          <details class="ctc-discards">
            <summary>All {discard.length}</summary>
            <SmallCards codes={[...discard].reverse()} />
          </details>
        )}
      </div>
      <div class="ctc-pile" role="group" aria-label="Executed">
        <span class="ctc-pile-name">Executed</span>
        {obs.executed.length ? <SmallCards codes={obs.executed} /> : <span class="muted">none</span>}
      </div>
      {obs.kings_aside.length > 0 && (
        <div class="ctc-pile" role="group" aria-label="Kings set aside">
          <span class="ctc-pile-name">Kings set aside</span>
          <SmallCards codes={obs.kings_aside} />
        </div>
      )}
    </section>
  );
}

// ------------------------------------------------------------------------------ hands

function RivalHand({
  hand,
  obs,
  viewer,
  seatName,
}: {
  hand: Hand;
  obs: CtcObservation;
  viewer: string | null;
  seatName: SeatNamer;
}) {
  const ownerName = seatName(seatIndex(hand.seat));
  const headingId = `ctc-hand-${hand.seat}`;
  const toMove = obs.to_move.includes(hand.seat);
  const known = hand.known ?? [];
  return (
    <section class={`ctc-hand ctc-rival-hand${toMove ? " ctc-to-move" : ""}`} aria-labelledby={headingId}>
      <h3 id={headingId}>
        {ownerName}'s hand
        <span class="muted"> · {counted(hand.size, "card")}</span>
        {toMove && <span class="badge badge-turn">to move</span>}
      </h3>
      {hand.cards ? (
        hand.cards.length ? (
          <SmallCards codes={hand.cards} />
        ) : (
          <p class="muted">empty</p>
        )
      ) : (
        <div class="ctc-rival-cards">
          {hand.size > 0 ? <Backs count={hand.size} what="card" where="in hand" /> : <span class="muted">empty</span>}
          {viewer !== null && (
            <span class="ctc-known">
              <span class="ctc-known-label">Known to you:</span>{" "}
              {known.length ? <SmallCards codes={known} /> : <span class="muted">none</span>}
            </span>
          )}
        </div>
      )}
    </section>
  );
}

type Role = "government" | "spy" | "rival" | "any";

/** What a card of the viewer's hand can do once both have married (the table of docs/rules/crush-the-crown.md §3). */
function roleOf(code: string, own: string | null, mercenaries: string[]): Role {
  if (!own) return "any";
  if (code === "Jk") return "spy";
  const suit = SUIT_OF_LETTER[code.slice(-1)];
  if (suit === own) return "government";
  if (mercenaries.includes(suit)) return "spy";
  return "rival";
}

const ROLE_TITLES: Record<Role, string> = {
  government: "For your government",
  spy: "Spies",
  rival: "Rival's suit: tribute or discard only",
  any: "Cards",
};

function YourHand({
  hand,
  obs,
  viewer,
  seatName,
  picker,
}: {
  hand: Hand;
  obs: CtcObservation;
  viewer: string;
  seatName: SeatNamer;
  picker: Picker;
}) {
  const cards = hand.cards ?? [];
  const own = obs.governments.find((g) => g.seat === viewer)?.suit ?? null;
  const rival = viewer === "p0" ? "p1" : "p0";
  const groups = new Map<Role, string[]>();
  for (const code of cards) {
    const role = roleOf(code, own, obs.mercenary_suits);
    groups.set(role, [...(groups.get(role) ?? []), code]);
  }
  const order: Role[] = ["any", "government", "spy", "rival"];
  const playable = cards.some((code) => picker.actionsWith(code).length > 0);
  const seen = hand.known_to_rival ?? [];
  return (
    <section class="ctc-hand ctc-your-hand" aria-labelledby="ctc-your-hand-heading">
      <h3 id="ctc-your-hand-heading">
        Your hand<span class="muted"> · {counted(cards.length, "card")}</span>
      </h3>
      {playable && <p class="ctc-hint">Click a card, then confirm the move in your moves.</p>}
      {cards.length === 0 && <p class="muted">empty</p>}
      <div class="ctc-hand-groups">
        {order
          .filter((role) => groups.has(role))
          .map((role) => (
            <div key={role} class={`ctc-hand-group ctc-role-${role}`} role="group" aria-label={ROLE_TITLES[role]}>
              {role !== "any" && <span class="ctc-group-name">{ROLE_TITLES[role]}</span>}
              <ul class="board-hand-cards ctc-hand-cards">
                {groups.get(role)!.map((code, index) => (
                  <li key={`${code}-${index}`}>
                    <PlayableCard code={code} picker={picker} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
      </div>
      {seen.length > 0 && (
        <p class="ctc-known">
          <span class="ctc-known-label">{seatName(seatIndex(rival))} has seen:</span> <SmallCards codes={seen} />
        </p>
      )}
    </section>
  );
}
