// King's Court's table: the track from the start space to the last one, drawn as a snake of ten
// spaces a row (it fits a phone), with each seat's pawn in its suit; every seat's area (suit,
// place, hand size, the cards the viewer knows in that hand, what that seat knows of the
// viewer's hand); the viewer's hand as cards to play; the draw pile, the discard pile (public),
// the cards removed. A face card is played by clicking it, then its target seat (the Picker's
// token "QS p1"), then the move in the moves panel; after a Queen, the rival's cards seen are
// clicked to borrow one.
//
// Drawn from the observation alone (courtly/games/kings_court/views.py): another seat's hand
// arrives as a count and the cards this seat knows of it.
import type { ComponentChildren } from "preact";
import { Card, parseCard, type SeatNamer } from "../cards";
import { PlayableCard, type BoardProps, type Picker } from "./board";
import { Backs, counted, DecisionBox, listed, seatIndex, SmallCards, Stack, useChanged } from "./parts";
import "./base.css";
import "./kings_court.css";

interface Player {
  seat: string;
  /** The seat's suit letter: p0 H, p1 S, p2 C, p3 D. */
  suit: string;
  position: number;
  hand_size: number;
  /** The viewer's own hand (every hand once the game is over). */
  hand?: string[];
  /** Cards of this hand the viewer knows (seen with a Queen, still held). */
  known_cards?: string[];
  /** Cards of the viewer's hand this seat knows. */
  knows_of_mine?: string[];
}

interface KcObservation {
  seat: string | null;
  track_length: number;
  safety_cap: number;
  phase: "start" | "deal" | "draw" | "play" | "borrow" | "over";
  start_player: string;
  turn: string;
  turns_played: number;
  to_move: string[];
  queen_target: string | null;
  moved_back: string[];
  players: Player[];
  draw_pile_size: number;
  discard_pile: string[];
  removed: string[];
  reshuffles: number;
  winners: string[];
}

const SUITS: Record<string, { symbol: string; name: string }> = {
  H: { symbol: "♥", name: "hearts" },
  S: { symbol: "♠", name: "spades" },
  C: { symbol: "♣", name: "clubs" },
  D: { symbol: "♦", name: "diamonds" },
};

/** Spaces in a row of the track: rows run left to right, then right to left (a snake). */
const ROW = 10;

const SEAT = /^p\d+$/;

export function KingsCourtBoard({ observation, seat, toMove, seatName, picker }: BoardProps) {
  const obs = observation as unknown as KcObservation;
  const viewer = seat === null ? null : `p${seat}`;
  const moving = new Set(toMove.map((s) => `p${s}`));
  const over = obs.phase === "over";
  const me = obs.players.find((p) => p.seat === viewer) ?? null;
  // The card picked (alone, or with its target: "QS p1"), and the seats its moves may target.
  const pickedWords = picker.picked ? picker.picked.split(" ") : [];
  const pickedCard = pickedWords.length && parseCard(pickedWords[0]) ? pickedWords[0] : null;
  const targets = new Set<string>();
  if (pickedCard) {
    for (const action of picker.actionsWith(pickedCard)) {
      for (const word of action.text.split(" ")) if (SEAT.test(word)) targets.add(word);
    }
  }
  const owned = new Set(obs.players.map((p) => p.suit));
  const unowned = Object.keys(SUITS).filter((suit) => !owned.has(suit));
  return (
    <div class="board kc" data-board="kings-court">
      <Decision obs={obs} viewer={viewer} moving={moving} seatName={seatName} />
      <Track obs={obs} viewer={viewer} seatName={seatName} />
      {me && !over && (
        <YourHand me={me} obs={obs} picker={picker} pickedCard={pickedCard} seatName={seatName} />
      )}
      <div class="kc-seats">
        {obs.players.map((player) => (
          <SeatArea
            key={player.seat}
            player={player}
            obs={obs}
            viewer={viewer}
            toMove={moving.has(player.seat)}
            seatName={seatName}
            picker={picker}
            pickedCard={pickedCard}
            target={targets.has(player.seat)}
          />
        ))}
      </div>
      <div class="kc-piles">
        <section class="kc-pile" aria-labelledby="kc-draw-heading">
          <h3 id="kc-draw-heading">Draw pile</h3>
          <div class="kc-pile-body">
            {obs.draw_pile_size > 0 ? (
              <Stack count={obs.draw_pile_size} where="in the draw pile" />
            ) : (
              <span class="kc-muted">empty</span>
            )}
            <span class="kc-muted">
              {obs.reshuffles === 0
                ? "never reshuffled"
                : `reshuffled from the discard pile ${obs.reshuffles === 1 ? "once" : `${obs.reshuffles} times`}`}
            </span>
          </div>
        </section>
        <section class="kc-pile" aria-labelledby="kc-discard-heading">
          <h3 id="kc-discard-heading">Discard pile</h3>
          <Discard cards={obs.discard_pile} />
        </section>
        {(obs.removed.length > 0 || unowned.length > 0) && (
          <section class="kc-pile" aria-labelledby="kc-removed-heading">
            <h3 id="kc-removed-heading">Out of the game</h3>
            {unowned.length > 0 && (
              <p class="kc-muted">
                The {listed(unowned.map((s) => `${SUITS[s].symbol} ${SUITS[s].name}`))}: nobody's suit.
              </p>
            )}
            {obs.removed.length > 0 && (
              <SmallCards codes={obs.removed} label="Cards removed when drawn" />
            )}
          </section>
        )}
      </div>
      <p class="board-facts">
        Turn {obs.turns_played + (over ? 0 : 1)} · {seatName(seatIndex(obs.start_player))} began · the game stops
        after {obs.safety_cap} turns
      </p>
    </div>
  );
}

// ------------------------------------------------------------------------------ the decision

function Decision({
  obs,
  viewer,
  moving,
  seatName,
}: {
  obs: KcObservation;
  viewer: string | null;
  moving: Set<string>;
  seatName: SeatNamer;
}) {
  const name = (s: string) => seatName(seatIndex(s));
  const mine = viewer !== null && moving.has(viewer);
  let text: ComponentChildren;
  if (obs.phase === "over") {
    const last = obs.track_length;
    const reached = obs.winners.filter((w) => obs.players[seatIndex(w)].position >= last);
    if (obs.winners.length === 1 && reached.length === 1) {
      text = `The game is over: ${name(obs.winners[0])} reaches space ${last} and wins.`;
    } else if (obs.winners.length) {
      text = `The game is over (the safety cap): ${listed(obs.winners.map(name))} ${obs.winners.length === 1 ? "wins" : "share the win"} with the farthest pawn.`;
    } else {
      text = "The game is over.";
    }
  } else if (mine && obs.phase === "borrow" && obs.queen_target) {
    text = (
      <>
        <strong>Your Queen shows you {name(obs.queen_target)}'s hand</strong>: click one of its cards to
        play it as yours (a face card, then its target), or pass.
      </>
    );
  } else if (mine && obs.phase === "play") {
    text = (
      <>
        <strong>Your turn</strong>: play cards from your hand one at a time (a Jack, Queen or King: the
        card, then its target), then end your turn.
      </>
    );
  } else if (obs.to_move.length) {
    const who = listed(obs.to_move.map(name));
    text =
      obs.phase === "borrow" && obs.queen_target
        ? `${who} looks at ${name(obs.queen_target)}'s hand with a Queen and may borrow a card.`
        : `${who} is playing.`;
  } else {
    text = "…";
  }
  return (
    <DecisionBox mine={mine} decision={obs.phase} name="kc-decision">
      <p>{text}</p>
      {obs.moved_back.length > 0 && obs.phase !== "over" && (
        <p class="kc-note">
          Moved back this turn (once each): {listed(obs.moved_back.map(name))}.
        </p>
      )}
    </DecisionBox>
  );
}

// ------------------------------------------------------------------------------ the track

function Pawn({ suit, label }: { suit: string; label?: string }) {
  const known = SUITS[suit];
  return (
    <span class={`kc-pawn kc-pawn-${suit}`} title={label} aria-hidden="true">
      {known?.symbol ?? "?"}
    </span>
  );
}

function Track({ obs, viewer, seatName }: { obs: KcObservation; viewer: string | null; seatName: SeatNamer }) {
  const last = obs.track_length;
  const bySpace = new Map<number, Player[]>();
  for (const player of obs.players) {
    const space = Math.min(Math.max(player.position, 0), last);
    bySpace.set(space, [...(bySpace.get(space) ?? []), player]);
  }
  const summary = obs.players
    .map((p) => `${seatName(seatIndex(p.seat))} (${SUITS[p.suit]?.name ?? p.suit}) on space ${p.position}`)
    .join("; ");
  const spaces = Array.from({ length: last + 1 }, (_, space) => space);
  return (
    <section class="kc-track-wrap" aria-labelledby="kc-track-heading">
      <h3 id="kc-track-heading">
        The track <span class="kc-muted">(0 to {last}: the first pawn to reach {last} wins)</span>
      </h3>
      <div class="kc-track" role="img" aria-label={`The track, spaces 0 to ${last}: ${summary}.`}>
        {spaces.map((space) => {
          const row = Math.floor(space / ROW);
          const column = row % 2 === 0 ? space % ROW : ROW - 1 - (space % ROW);
          const here = bySpace.get(space) ?? [];
          const classes = ["kc-space"];
          if (space === 0) classes.push("kc-space-start");
          if (space === last) classes.push("kc-space-finish");
          if (here.some((p) => p.seat === viewer)) classes.push("kc-space-yours");
          return (
            <div
              key={space}
              class={classes.join(" ")}
              style={{ gridRow: row + 1, gridColumn: column + 1 }}
              data-space={space}
            >
              <span class="kc-space-number">{space === last ? `${space}♛` : space}</span>
              {here.length > 0 && (
                <span class="kc-pawns">
                  {here.map((p) => (
                    <Pawn key={p.seat} suit={p.suit} label={seatName(seatIndex(p.seat))} />
                  ))}
                </span>
              )}
            </div>
          );
        })}
      </div>
      <ul class="kc-legend" aria-label="The pawns">
        {obs.players.map((p) => (
          <li key={p.seat}>
            <Pawn suit={p.suit} /> {seatName(seatIndex(p.seat))}: space <strong>{p.position}</strong>
          </li>
        ))}
      </ul>
    </section>
  );
}

// ------------------------------------------------------------------------------ hands and seats

function YourHand({
  me,
  obs,
  picker,
  pickedCard,
  seatName,
}: {
  me: Player;
  obs: KcObservation;
  picker: Picker;
  pickedCard: string | null;
  seatName: SeatNamer;
}) {
  const hand = me.hand ?? [];
  const playable = hand.some((code) => picker.actionsWith(code).length > 0);
  const suit = SUITS[me.suit];
  const watchers = obs.players.filter((p) => p.seat !== me.seat && (p.knows_of_mine ?? []).length > 0);
  return (
    <section class="board-hand kc-hand" aria-labelledby="kc-hand-heading">
      <h3 id="kc-hand-heading">Your hand</h3>
      <p class="kc-note">
        Your suit: <Pawn suit={me.suit} /> {suit?.name}. Your number cards move you forward; a rival's
        suit moves that rival back.
        {playable && " Click a card to play it."}
      </p>
      {hand.length ? (
        <ul class="board-hand-cards kc-hand-cards">
          {hand.map((code) => (
            <li key={code} class={pickedCard === code ? "kc-chosen" : undefined}>
              <PlayableCard code={code} picker={picker} />
            </li>
          ))}
        </ul>
      ) : (
        <p class="kc-muted">No card in hand.</p>
      )}
      {watchers.map((p) => (
        <p key={p.seat} class="kc-note">
          {seatName(seatIndex(p.seat))} has seen in your hand:{" "}
          <SmallCards codes={p.knows_of_mine ?? []} />
        </p>
      ))}
    </section>
  );
}

function SeatArea({
  player,
  obs,
  viewer,
  toMove,
  seatName,
  picker,
  pickedCard,
  target,
}: {
  player: Player;
  obs: KcObservation;
  viewer: string | null;
  toMove: boolean;
  seatName: SeatNamer;
  picker: Picker;
  pickedCard: string | null;
  target: boolean;
}) {
  const yours = player.seat === viewer;
  const over = obs.phase === "over";
  const won = over && obs.winners.includes(player.seat);
  const name = seatName(seatIndex(player.seat));
  const suit = SUITS[player.suit];
  const headingId = `kc-seat-${player.seat}`;
  const classes = ["board-seat", "kc-seat"];
  if (yours) classes.push("board-seat-yours");
  if (toMove) classes.push("board-seat-to-move");
  if (target) classes.push("kc-seat-target");
  if (useChanged(player.seat)) classes.push("board-seat-changed");
  const known = player.known_cards ?? [];
  const unknown = player.hand_size - known.length;
  const queenLook = obs.queen_target === player.seat && !over;
  const targetToken = pickedCard ? `${pickedCard} ${player.seat}` : null;
  return (
    <section class={classes.join(" ")} aria-labelledby={headingId} data-seat={player.seat}>
      <h3 id={headingId} class="board-seat-name">
        <Pawn suit={player.suit} />
        <span>{name}</span>
        {yours && <span class="badge">you</span>}
        {toMove && <span class="badge badge-turn">to move</span>}
        {obs.moved_back.includes(player.seat) && !over && <span class="board-tag kc-tag">moved back</span>}
        {queenLook && <span class="board-tag kc-tag kc-tag-queen">under a Queen's look</span>}
        {won && <span class="board-tag board-tag-gold">winner</span>}
      </h3>
      <p class="kc-place">
        {suit?.name ?? player.suit} · space <strong>{player.position}</strong>
        <span class="kc-muted"> · {Math.max(0, obs.track_length - player.position)} to go</span>
      </p>
      {player.hand ? (
        yours && !over ? (
          <p class="kc-muted">
            {player.hand_size ? `${counted(player.hand_size, "card")} in hand (below).` : "Empty hand."}
          </p>
        ) : (
          <div class="kc-cards" role="group" aria-label={`${name}'s hand`}>
            {player.hand.length ? (
              player.hand.map((code) => <Card key={code} code={code} small />)
            ) : (
              <span class="kc-muted">empty hand</span>
            )}
          </div>
        )
      ) : (
        <div class="kc-cards" role="group" aria-label={`${name}'s hand`}>
          {player.hand_size === 0 && <span class="kc-muted">empty hand</span>}
          {known.map((code) => (
            <span key={code} class="kc-known" title="seen with a Queen">
              <PlayableCard code={code} picker={picker} small />
            </span>
          ))}
          {unknown > 0 && <Backs count={unknown} what="card" where="you have not seen" small tooltip={false} />}
          {known.length > 0 && <span class="kc-note">({counted(known.length, "card")} seen with a Queen)</span>}
        </div>
      )}
      {!yours && !over && (player.knows_of_mine ?? []).length > 0 && viewer !== null && (
        <p class="kc-note">
          Has seen in your hand:{" "}
          <SmallCards codes={player.knows_of_mine ?? []} />
        </p>
      )}
      {target && targetToken && (
        <button
          type="button"
          class={picker.picked === targetToken ? "board-target picked" : "board-target"}
          aria-pressed={picker.picked === targetToken}
          data-pick={targetToken}
          title={picker
            .actionsWith(targetToken)
            .map((a) => a.text)
            .join(" / ")}
          onClick={() => picker.pick(targetToken)}
        >
          {yours ? "On yourself" : `Target ${name}`}
        </button>
      )}
    </section>
  );
}

function Discard({ cards }: { cards: string[] }) {
  if (cards.length === 0) return <p class="kc-muted">empty</p>;
  const top = cards[cards.length - 1];
  const earlier = cards.slice(0, -1).reverse();
  return (
    <div class="kc-discard">
      <div class="kc-discard-top">
        <Card code={top} />
        <span class="kc-muted">on top · {counted(cards.length, "card")}, all face up</span>
      </div>
      {earlier.length > 0 && (
        <details class="kc-discard-all">
          <summary>The {counted(earlier.length, "card")} below it, newest first</summary>
          <SmallCards codes={earlier} />
        </details>
      )}
    </div>
  );
}
