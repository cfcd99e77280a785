// God Save The King's table: each seat's area (suit, hand, trick pile, routes), the trick or the
// two tricks of a round with their three-card formations facing each other, the viewer's hand to
// lay a formation from, the removed area, what the viewer has learned, and the past tricks.
//
// Drawn from the observation alone (courtly/games/god_save_the_king/views.py): a card the seat may
// not see arrives as "face down" (a card back) or as a count, and is drawn so.
import type { ComponentChildren } from "preact";
import { Card, type SeatNamer } from "../cards";
import { PlayableCard, type BoardProps, type Picker } from "./board";
import { Backs, counted, DecisionBox, listed, seatIndex, SmallCards, SUITS, useChanged } from "./parts";
import "./base.css";
import "./god_save_the_king.css";

interface Player {
  seat: string;
  active: boolean;
  suit: string;
  hand_size: number;
  /** Every seat's hand, once the game is over (null before). */
  hand: string[] | null;
  pile_size: number;
  pile_face_up: string[];
  pile_known_to_you: string[];
  pile_unseen: number;
  routes_used: number;
  /** A, B, C, D in a game of three or four (the schedule's letters), else null. */
  label: string | null;
}

interface Formation {
  seat: string;
  placed: number;
  /** Left, middle, right from the owner's side: a card, "[card]" (face down, the viewer's
   * own), "face down", "-" (emptied), or null (not laid yet). */
  slots: (string | null)[];
}

interface Trick {
  players: string[];
  priority: string;
  formations: Formation[];
  /** From the priority side: +1 won, 0 draw, -1 lost; column 1 = its left v the rival's right,
   * column 2 = its right v the rival's left. Null before the reveal. */
  columns: number[] | null;
  result: string | null;
  declarations: (string | null)[];
  redeclared: number;
  challenge: string | null;
  collected_by: string | null;
  void: boolean;
  step: number;
}

interface PastTrick {
  hand: number;
  players: string[];
  collected_by: string | null;
  declarations: (string | null)[];
  challenge: string | null;
}

interface GskObservation {
  seat: string | null;
  hand_number: number;
  tricks_played: number;
  safety_cap: number;
  schedule: string;
  players: Player[];
  your_hand: string[] | null;
  removed_face_up: string[];
  removed_known_to_you: string[];
  removed_face_down: number;
  tricks: Trick[];
  past_tricks: PastTrick[];
  current_trick: number | null;
  decision: string;
  waiting_for: string[];
  your_choice: string | null;
  drawing: { from: string; to: string } | null;
  winners: string[];
}


const SLOT_NAMES = ["left", "middle", "right"];

/** The trick's first step after the formations are revealed (rules.py's T_REVEAL). */
const REVEALED_STEP = 2;

function SuitMark({ suit }: { suit: string }) {
  const known = SUITS[suit];
  if (!known) return null;
  return (
    <span class={known.red ? "gsk-suit card-red" : "gsk-suit card-black"} aria-hidden="true">
      {known.symbol}
    </span>
  );
}

export function GodSaveTheKingBoard({ observation, seat, toMove, seatName, picker }: BoardProps) {
  const obs = observation as unknown as GskObservation;
  const viewer = seat === null ? null : `p${seat}`;
  const over = obs.decision === "none" && obs.winners.length > 0;
  const moving = new Set(toMove.map((s) => `p${s}`));
  const me = obs.players.find((p) => p.seat === viewer) ?? null;
  const others = obs.players.filter((p) => p.seat !== viewer);
  const multi = obs.tricks.length > 1;
  return (
    <div class="board gsk" data-board="god-save-the-king">
      <Decision obs={obs} viewer={viewer} moving={moving} seatName={seatName} />
      <p class="board-facts">
        Hand {obs.hand_number} · {counted(obs.tricks_played, "trick")} played (the game stops at{" "}
        {obs.safety_cap}) · {obs.schedule}
      </p>
      <div class="gsk-rivals" role="group" aria-label={viewer === null ? "The seats" : "Your rivals"}>
        {others.map((player) => (
          <SeatArea key={player.seat} player={player} obs={obs} viewer={viewer} moving={moving} seatName={seatName} />
        ))}
      </div>
      <div class={multi ? "gsk-tricks gsk-two-tricks" : "gsk-tricks"}>
        {obs.tricks.map((trick, index) => (
          <TrickView
            key={`${obs.hand_number}-${obs.tricks_played}-${index}`}
            trick={trick}
            now={multi && index === obs.current_trick && trick.step >= REVEALED_STEP && !over}
            viewer={viewer}
            seatName={seatName}
            picker={picker}
          />
        ))}
      </div>
      {me && (
        <div class="gsk-mine">
          <SeatArea player={me} obs={obs} viewer={viewer} moving={moving} seatName={seatName} />
          <YourHand obs={obs} me={me} picker={picker} />
        </div>
      )}
      <div class="gsk-aside">
        {viewer !== null && <Known obs={obs} viewer={viewer} seatName={seatName} />}
        <Removed obs={obs} />
      </div>
      <PastTricks tricks={obs.past_tricks} seatName={seatName} />
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
  obs: GskObservation;
  viewer: string | null;
  moving: Set<string>;
  seatName: SeatNamer;
}) {
  const name = (s: string) => seatName(seatIndex(s));
  const waiting = obs.waiting_for;
  const mine = viewer !== null && moving.has(viewer);
  const trick = obs.current_trick === null ? null : obs.tricks[obs.current_trick] ?? null;
  const rival = trick && viewer ? trick.players.find((p) => p !== viewer) ?? null : null;
  let text: ComponentChildren;
  if (obs.winners.length > 0 && obs.decision === "none") {
    text =
      obs.winners.length === 1
        ? `The game is over: ${name(obs.winners[0])} is the last with a King and wins.`
        : `The game is over: a draw between ${listed(obs.winners.map(name))}.`;
  } else if (obs.drawing) {
    text = `A card is drawn at random from ${name(obs.drawing.from)}'s hand for ${name(obs.drawing.to)}.`;
  } else if (mine && obs.decision === "formation") {
    const mineFormation = findFormation(obs, viewer);
    const next = mineFormation ? SLOT_NAMES[Math.min(mineFormation.placed, 2)] : "left";
    text = (
      <>
        <strong>Lay your formation</strong>: pick a card of your hand for your <strong>{next}</strong> slot
        (left, middle, right; the middle card stays face down).
      </>
    );
  } else if (mine && obs.decision === "route") {
    text = (
      <>
        <strong>Route or pass</strong>: claim that {rival ? `${name(rival)}'s` : "your rival's"} face-down
        card is their King (once a hand; a miss lets them draw a card from your hand), or pass.
      </>
    );
  } else if (mine && obs.decision === "declaration") {
    text = (
      <>
        <strong>Declare</strong> the rank of your face-down middle card for the blind skirmish: the
        higher declaration wins the trick. Bluffing is allowed.
      </>
    );
  } else if (mine && obs.decision === "challenge") {
    const winner = trick ? winnerOfDeclarations(trick) : null;
    text = (
      <>
        <strong>Challenge or pass</strong>:{" "}
        {winner ? `${name(winner.seat)} declared ${winner.rank}` : "the winner's declaration"} — is it
        true? Wrong, you draw a card from their hand; right, they draw one from yours.
      </>
    );
  } else if (waiting.length > 0) {
    const what: Record<string, string> = {
      formation: "lay their formations face down",
      route: "route or pass",
      declaration: "declare the rank of their middle card",
      challenge: "challenge or pass",
    };
    const who = waiting.map(name);
    text = `Waiting for ${listed(who)} to ${what[obs.decision] ?? obs.decision}.`;
  } else {
    text = "…";
  }
  return (
    <DecisionBox mine={mine} decision={obs.decision} name="gsk-decision">
      <p>{text}</p>
      {obs.your_choice && (
        <p class="gsk-choice">
          You chose <strong>{obs.your_choice}</strong>; it is shown when everyone has chosen.
        </p>
      )}
    </DecisionBox>
  );
}

function findFormation(obs: GskObservation, seat: string | null): Formation | null {
  for (const trick of obs.tricks) {
    for (const formation of trick.formations) if (formation.seat === seat) return formation;
  }
  return null;
}

const RANK_VALUE: Record<string, number> = { J: 11, Q: 12, K: 13, A: 14 };
function rankValue(rank: string): number {
  return RANK_VALUE[rank.toUpperCase()] ?? Number(rank);
}

function winnerOfDeclarations(trick: Trick): { seat: string; rank: string } | null {
  const [x, y] = trick.declarations;
  if (!x || !y || rankValue(x) === rankValue(y)) return null;
  const side = rankValue(x) > rankValue(y) ? 0 : 1;
  return { seat: trick.players[side], rank: trick.declarations[side]! };
}

// ------------------------------------------------------------------------------ a seat's area

function SeatArea({
  player,
  obs,
  viewer,
  moving,
  seatName,
}: {
  player: Player;
  obs: GskObservation;
  viewer: string | null;
  moving: Set<string>;
  seatName: SeatNamer;
}) {
  const yours = player.seat === viewer;
  const toMove = moving.has(player.seat);
  const won = obs.winners.includes(player.seat) && obs.decision === "none";
  const classes = ["board-seat", "gsk-seat"];
  if (yours) classes.push("board-seat-yours");
  if (toMove) classes.push("board-seat-to-move");
  if (!player.active) classes.push("board-seat-out", "gsk-seat-out");
  if (useChanged(player.seat)) classes.push("board-seat-changed");
  const headingId = `gsk-seat-${player.seat}`;
  const king = `K${SUITS[player.suit]?.letter ?? "?"}`;
  return (
    <section class={classes.join(" ")} aria-labelledby={headingId} data-seat={player.seat}>
      <h3 id={headingId} class="board-seat-name">
        <SuitMark suit={player.suit} />
        <span class="gsk-seat-label">{seatName(seatIndex(player.seat))}</span>
        {yours && <span class="badge">you</span>}
        {player.label && (
          <span class="gsk-label" title={`${player.label} in the schedule`}>
            {player.label}
          </span>
        )}
        {toMove && <span class="badge badge-turn">to move</span>}
        {!player.active && <span class="badge gsk-badge-out">out</span>}
        {won && <span class="badge gsk-badge-won">winner</span>}
      </h3>
      <dl class="gsk-seat-facts">
        <div>
          <dt>Suit</dt>
          <dd>
            {player.suit}, King {king}
          </dd>
        </div>
        <div>
          <dt>Hand</dt>
          <dd>
            {player.hand ? (
              player.hand.length ? (
                <SmallCards codes={player.hand} />
              ) : (
                "empty"
              )
            ) : yours ? (
              counted(player.hand_size, "card")
            ) : player.hand_size ? (
              <Backs count={player.hand_size} what="card" where="in hand" small />
            ) : (
              "empty"
            )}
          </dd>
        </div>
        <div>
          <dt>Trick pile</dt>
          <dd class="gsk-pile">
            {player.pile_size === 0 && "empty"}
            {player.pile_face_up.length > 0 && <SmallCards codes={player.pile_face_up} />}
            {player.pile_known_to_you.length > 0 && (
              <span class="gsk-known-group" title="face down; you know them">
                <SmallCards codes={player.pile_known_to_you.map((c) => `[${c}]`)} />
              </span>
            )}
            {player.pile_unseen > 0 && <Backs count={player.pile_unseen} what="unseen card" small />}
          </dd>
        </div>
        <div>
          <dt>Routes</dt>
          <dd>{player.routes_used ? `${counted(player.routes_used, "route")} used this hand` : "none used this hand"}</dd>
        </div>
      </dl>
    </section>
  );
}

// ------------------------------------------------------------------------------ a trick

function TrickView({
  trick,
  now,
  viewer,
  seatName,
  picker,
}: {
  trick: Trick;
  now: boolean;
  viewer: string | null;
  seatName: SeatNamer;
  picker: Picker;
}) {
  const name = (s: string) => seatName(seatIndex(s));
  // The viewer's formation nearest the viewer, the rival's across the table: seen from across,
  // the rival's right is on the viewer's left, so the cards that meet (a left and the other's
  // right) stand in one column.
  const bottom = viewer !== null && trick.players[1] === viewer ? 1 : 0;
  const top = 1 - bottom;
  const yours = viewer !== null && trick.players.includes(viewer);
  const title = `${name(trick.players[0])} v ${name(trick.players[1])}`;
  const label = yours ? "Your trick" : `Trick ${title}`;
  const formed = trick.step >= REVEALED_STEP;
  const collected = trick.collected_by !== null;
  // A column's result from the bottom side: +1 it won, -1 it lost, 0 a draw. Positions: 0 and 2
  // are the outside columns (the bottom's left meets the top's right), 1 the blind middle.
  const columnAt = (position: number): number | null => {
    if (!trick.columns || collected) return null;
    const bottomLeftColumn = bottom === 0 ? 0 : 1; // side 0's left is column 1
    const column = position === 0 ? bottomLeftColumn : 1 - bottomLeftColumn;
    const value = trick.columns[column];
    return bottom === 0 ? value : -value;
  };
  return (
    <section
      class={`gsk-trick${yours ? " gsk-trick-yours" : ""}${now ? " gsk-trick-now" : ""}`}
      aria-label={label}
      data-trick={trick.players.join("-")}
    >
      <h3 class="gsk-trick-title">
        {yours ? "Your trick: " : "Trick: "}
        {title}
        {now && <span class="badge">being resolved</span>}
      </h3>
      <div class="gsk-face-off">
        <FormationView
          formation={trick.formations[top]}
          side={top}
          trick={trick}
          across
          viewer={viewer}
          seatName={seatName}
          picker={picker}
          columnAt={(position) => {
            const value = columnAt(position);
            return value === null ? null : -value;
          }}
        />
        <ol class="gsk-columns" aria-label="The columns">
          {[0, 1, 2].map((position) => (
            <li key={position} class="gsk-column">
              <ColumnNote
                position={position}
                value={columnAt(position)}
                push={trick.result === "push"}
                bottom={trick.players[bottom]}
                top={trick.players[top]}
              />
            </li>
          ))}
        </ol>
        <FormationView
          formation={trick.formations[bottom]}
          side={bottom}
          trick={trick}
          across={false}
          viewer={viewer}
          seatName={seatName}
          picker={picker}
          columnAt={columnAt}
        />
      </div>
      <TrickOutcome trick={trick} formed={formed} name={name} />
    </section>
  );
}

function ColumnNote({
  position,
  value,
  push,
  bottom,
  top,
}: {
  position: number;
  value: number | null;
  push: boolean;
  bottom: string;
  top: string;
}) {
  if (position === 1) return push ? <span class="gsk-column-note">blind skirmish</span> : null;
  if (value === null) return null;
  const [mine, theirs] = position === 0 ? ["left", "right"] : ["right", "left"];
  const which = <span class="visually-hidden">{`${bottom}'s ${mine} v ${top}'s ${theirs}: `}</span>;
  if (value === 0)
    return (
      <span class="gsk-column-note">
        {which}draw
      </span>
    );
  const winner = value > 0 ? bottom : top;
  return (
    <span class="gsk-column-note gsk-column-won">
      {which}
      <span aria-hidden="true">{value > 0 ? "▼ " : "▲ "}</span>
      {winner} wins
    </span>
  );
}

function FormationView({
  formation,
  side,
  trick,
  across,
  viewer,
  seatName,
  picker,
  columnAt,
}: {
  formation: Formation;
  side: number;
  trick: Trick;
  across: boolean;
  viewer: string | null;
  seatName: SeatNamer;
  picker: Picker;
  columnAt: (position: number) => number | null;
}) {
  const owner = formation.seat;
  const ownerName = seatName(seatIndex(owner));
  const yours = owner === viewer;
  const priority = trick.priority === owner;
  const declared = trick.declarations[side];
  // Across the table the rival's right is on the viewer's left.
  const order = across ? [2, 1, 0] : [0, 1, 2];
  // The viewer's rival's face-down cards are what a route claims: clicking one picks the route.
  const rivalOfViewer = viewer !== null && !yours && trick.players.includes(viewer);
  const label = yours ? "Your formation" : `${ownerName}'s formation`;
  return (
    <div class={`gsk-formation${across ? " gsk-formation-across" : ""}`} role="group" aria-label={label}>
      <div class="gsk-formation-head">
        <span class="gsk-formation-owner">{ownerName}</span>
        {yours && <span class="badge">you</span>}
        {priority && (
          <span class="badge gsk-badge-priority" title="priority: its route is resolved first">
            priority
          </span>
        )}
        {declared && <span class="gsk-declared">declared {declared}</span>}
      </div>
      <ol class="gsk-slots">
        {order.map((slot, position) => {
          const code = formation.slots[slot];
          const result = slot === 1 ? null : columnAt(position);
          const classes = ["gsk-slot"];
          if (result !== null) classes.push(result > 0 ? "gsk-slot-won" : result < 0 ? "gsk-slot-lost" : "gsk-slot-draw");
          if (yours && formation.placed === slot && trick.step === 0) classes.push("gsk-slot-next");
          const routeToken = rivalOfViewer && code === "face down" ? routeTokenFor(picker, slot) : null;
          return (
            <li key={slot} class={classes.join(" ")} data-slot={SLOT_NAMES[slot]}>
              {routeToken ? (
                <button
                  type="button"
                  class={picker.picked === routeToken ? "card-button picked" : "card-button"}
                  aria-pressed={picker.picked === routeToken}
                  aria-label={`Route ${ownerName}'s ${SLOT_NAMES[slot]} card`}
                  data-pick={routeToken}
                  onClick={() => picker.pick(routeToken)}
                >
                  <Card code={code} />
                </button>
              ) : (
                <Card code={code} />
              )}
              <span class="gsk-slot-name">
                {SLOT_NAMES[slot]}
                {routeToken && <span class="gsk-route-note">route?</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The word that picks a route at ``slot`` of the rival: "route" (the middle card, after the
 * skirmish) or the slot's name (any face-down card, when routes come before the reveal). */
function routeTokenFor(picker: Picker, slot: number): string | null {
  const word = SLOT_NAMES[slot];
  if (picker.actionsWith(word).some((a) => a.text === `route ${word}`)) return word;
  if (slot === 1 && picker.actionsWith("route").some((a) => a.text === "route")) return "route";
  return null;
}

function TrickOutcome({ trick, formed, name }: { trick: Trick; formed: boolean; name: (s: string) => string }) {
  const lines: string[] = [];
  if (!formed) {
    const laid = trick.formations.map((f) => `${name(f.seat)} ${f.placed}/3`);
    lines.push(`Laying formations face down: ${laid.join(", ")}.`);
  } else if (trick.void) {
    lines.push("Void trick: the declarations stayed tied; each took their own cards.");
  } else if (trick.result === "push") {
    lines.push("A push: the blind skirmish of the middle cards decides, by declarations.");
  } else if (trick.result) {
    lines.push(`${name(trick.result)} wins the skirmishes.`);
  }
  if (trick.redeclared > 0) lines.push(`Declared again ${counted(trick.redeclared, "time")} after a tie.`);
  if (trick.challenge) {
    const winner = winnerOfDeclarations(trick);
    lines.push(
      `Challenge${winner ? ` of ${name(winner.seat)}'s ${winner.rank}` : ""}: ${trick.challenge}.`,
    );
  }
  if (trick.collected_by) lines.push(`Collected by ${name(trick.collected_by)}.`);
  return (
    <ul class="gsk-outcome">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

// ------------------------------------------------------------------------------ the viewer's hand

function YourHand({ obs, me, picker }: { obs: GskObservation; me: Player; picker: Picker }) {
  const hand = obs.your_hand ?? [];
  const king = `K${SUITS[me.suit]?.letter ?? "?"}`;
  const forming = hand.some((code) => picker.actionsWith(code).length > 0);
  const slot = forming
    ? (picker.actionsWith(hand.find((code) => picker.actionsWith(code).length > 0)!)[0].text.split(" ")[1] ?? "")
    : "";
  const kingExposed = forming && slot !== "middle" && hand.includes(king);
  return (
    <section class="board-hand gsk-hand" aria-labelledby="gsk-hand-heading">
      <h3 id="gsk-hand-heading">Your hand</h3>
      {forming && (
        <p class="gsk-hint">
          Click a card for your <strong>{slot}</strong> slot, then confirm it in your moves.
          {kingExposed && ` Your King ${king} laid ${slot} is turned face up: you would be out.`}
        </p>
      )}
      {hand.length === 0 ? (
        <p class="muted">No cards in hand.</p>
      ) : (
        <ul class="board-hand-cards gsk-hand-cards">
          {hand.map((code) => (
            <li key={code} class={code === king ? "gsk-own-king" : undefined}>
              <PlayableCard code={code} picker={picker} />
              {code === king && <span class="gsk-king-note">your King</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// ------------------------------------------------------------------------------ knowledge, removed, past

function Known({ obs, viewer, seatName }: { obs: GskObservation; viewer: string; seatName: SeatNamer }) {
  const rows: { where: string; codes: string[] }[] = [];
  for (const trick of obs.tricks) {
    for (const formation of trick.formations) {
      if (formation.seat !== viewer) continue;
      const own = formation.slots.filter((c): c is string => c !== null && c.startsWith("["));
      if (own.length) rows.push({ where: "Face down in your formation", codes: own });
    }
  }
  for (const player of obs.players) {
    if (player.pile_known_to_you.length) {
      const whose = player.seat === viewer ? "your" : `${seatName(seatIndex(player.seat))}'s`;
      rows.push({ where: `In ${whose} trick pile`, codes: player.pile_known_to_you.map((c) => `[${c}]`) });
    }
  }
  if (obs.removed_known_to_you.length) {
    rows.push({ where: "Removed face down", codes: obs.removed_known_to_you.map((c) => `[${c}]`) });
  }
  return (
    <section class="gsk-known" aria-labelledby="gsk-known-heading">
      <h3 id="gsk-known-heading">Face-down cards you know</h3>
      {rows.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <dl>
          {rows.map((row) => (
            <div key={row.where} class="gsk-known-row">
              <dt>{row.where}</dt>
              <dd>
                <SmallCards codes={row.codes} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function Removed({ obs }: { obs: GskObservation }) {
  const none = !obs.removed_face_up.length && !obs.removed_known_to_you.length && !obs.removed_face_down;
  return (
    <section class="gsk-removed" aria-labelledby="gsk-removed-heading">
      <h3 id="gsk-removed-heading">Removed from the game</h3>
      {none ? (
        <p class="muted">Nothing yet.</p>
      ) : (
        <dl>
          {obs.removed_face_up.length > 0 && (
            <div class="gsk-known-row">
              <dt>Face up</dt>
              <dd>
                <SmallCards codes={obs.removed_face_up} />
              </dd>
            </div>
          )}
          {obs.removed_known_to_you.length > 0 && (
            <div class="gsk-known-row">
              <dt>Known to you</dt>
              <dd>
                <SmallCards codes={obs.removed_known_to_you.map((c) => `[${c}]`)} />
              </dd>
            </div>
          )}
          {obs.removed_face_down > 0 && (
            <div class="gsk-known-row">
              <dt>Face down</dt>
              <dd>
                <Backs count={obs.removed_face_down} small />
              </dd>
            </div>
          )}
        </dl>
      )}
    </section>
  );
}

function PastTricks({ tricks, seatName }: { tricks: PastTrick[]; seatName: SeatNamer }) {
  if (tricks.length === 0) return null;
  const name = (s: string) => seatName(seatIndex(s));
  return (
    <details class="gsk-past">
      <summary>Past tricks ({tricks.length})</summary>
      <ol>
        {tricks.map((trick, index) => {
          const [x, y] = trick.players;
          const [dx, dy] = trick.declarations;
          return (
            <li key={index}>
              Hand {trick.hand}: {name(x)} v {name(y)} —{" "}
              {trick.collected_by ? `${name(trick.collected_by)} collected` : "nobody collected"}
              {(dx || dy) && `; declared ${dx ?? "–"} v ${dy ?? "–"}`}
              {trick.challenge && `; challenge: ${trick.challenge}`}
            </li>
          );
        })}
      </ol>
    </details>
  );
}
