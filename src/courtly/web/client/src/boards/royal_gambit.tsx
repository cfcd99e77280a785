// Royal Gambit's table: each seat's row of flipped cards with its score, the banked totals on
// their way to the target, the deck and the cards set aside by Queens' pardons, the forced flips
// of a Jack and the favorites sitting out the final hand. A 7 to give away or a Jack's target is
// picked by clicking the seat (the Picker's token "p1"), then confirmed in the moves panel.
//
// Drawn from the observation alone (courtly/games/royal_gambit/rules.py): Royal Gambit hides
// nothing at a decision point, so every row is face up for everyone.
import type { ComponentChildren } from "preact";
import { Card, type SeatNamer } from "../cards";
import type { BoardProps, Picker } from "./board";
import { counted, DecisionBox, listed, seatIndex, SmallCards, Stack, useChanged } from "./parts";
import "./base.css";
import "./royal_gambit.css";

type Status = "out" | "active" | "stayed" | "bust";

interface Player {
  seat: string;
  total: number;
  status: Status;
  row: string[];
  /** What the row would score if its owner stayed now (0 once bust). */
  row_score: number;
  /** The score banked this hand (by staying). */
  banked: number;
}

interface RgObservation {
  seat: string | null;
  target_score: number;
  phase: "normal" | "final" | "tiebreak" | "over";
  hand: number;
  start_player: string;
  turn: string;
  to_move: string[];
  decision: "hit-or-stay" | "give-7" | "jack-target" | null;
  players: Player[];
  set_aside: string[];
  deck_size: number;
  /** [seat, flips left], the next to flip first. */
  forced_flips: [string, number][];
  favorites: string[];
  winners: string[];
}

const DECK = 52;
const RANK = /^(10|[2-9AJQK])/;

function rankOf(code: string): string {
  return RANK.exec(code)?.[1] ?? code;
}

/** The deck is every card not on the table (the rows and the cards set aside): all go back at
 * the end of a hand. How many of its cards repeat a rank of ``row`` (the next flip's risk). */
function repeatsInDeck(obs: RgObservation, row: string[]): number {
  const ranks = new Set(row.map(rankOf));
  const onTable = new Map<string, number>();
  for (const code of [...obs.players.flatMap((p) => p.row), ...obs.set_aside]) {
    const rank = rankOf(code);
    onTable.set(rank, (onTable.get(rank) ?? 0) + 1);
  }
  let repeats = 0;
  for (const rank of ranks) repeats += 4 - (onTable.get(rank) ?? 0);
  return repeats;
}

export function RoyalGambitBoard({ observation, seat, toMove, seatName, picker }: BoardProps) {
  const obs = observation as unknown as RgObservation;
  const viewer = seat === null ? null : `p${seat}`;
  const moving = new Set(toMove.map((s) => `p${s}`));
  const flips = new Map(obs.forced_flips.map(([who, left]) => [who, left]));
  return (
    <div class="board rg" data-board="royal-gambit">
      <Decision obs={obs} viewer={viewer} moving={moving} seatName={seatName} />
      <dl class="rg-facts">
        <div>
          <dt>Hand</dt>
          <dd>
            {obs.hand}
            {obs.phase === "final" && <span class="rg-phase"> · the final hand</span>}
            {obs.phase === "tiebreak" && <span class="rg-phase"> · a tie-break hand</span>}
          </dd>
        </div>
        <div>
          <dt>Target</dt>
          <dd>{obs.target_score} points</dd>
        </div>
        <div>
          <dt>Started by</dt>
          <dd>{seatName(seatIndex(obs.start_player))}</dd>
        </div>
      </dl>
      <div class="rg-seats">
        {obs.players.map((player) => (
          <SeatArea
            key={player.seat}
            player={player}
            obs={obs}
            viewer={viewer}
            toMove={moving.has(player.seat)}
            flipsLeft={flips.get(player.seat) ?? 0}
            seatName={seatName}
            picker={picker}
          />
        ))}
      </div>
      <div class="rg-middle">
        <section class="rg-deck" aria-labelledby="rg-deck-heading">
          <h3 id="rg-deck-heading">Deck</h3>
          <div class="rg-deck-body">
            {obs.deck_size > 0 ? (
              <Stack count={obs.deck_size} where="in the deck" tooltip={false} />
            ) : (
              <span>empty</span>
            )}
            <span class="rg-muted">{counted(DECK - obs.deck_size, "card")} on the table</span>
          </div>
        </section>
        <section class="rg-aside" aria-labelledby="rg-aside-heading">
          <h3 id="rg-aside-heading">Set aside</h3>
          {obs.set_aside.length ? (
            <SmallCards codes={obs.set_aside} />
          ) : (
            <p class="rg-muted">None this hand (a Queen pardons a repeat: both go here).</p>
          )}
        </section>
      </div>
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
  obs: RgObservation;
  viewer: string | null;
  moving: Set<string>;
  seatName: SeatNamer;
}) {
  const name = (s: string) => seatName(seatIndex(s));
  const mine = viewer !== null && moving.has(viewer);
  const me = obs.players.find((p) => p.seat === viewer) ?? null;
  const forced = obs.forced_flips[0] ?? null;
  let text: ComponentChildren;
  if (obs.phase === "over" || (obs.winners.length > 0 && obs.to_move.length === 0)) {
    const top = obs.winners.length ? obs.players[seatIndex(obs.winners[0])].total : 0;
    text =
      obs.winners.length === 1
        ? `The game is over: ${name(obs.winners[0])} wins with ${counted(top, "point")}.`
        : `The game is over: ${listed(obs.winners.map(name))} share the win with ${counted(top, "point")}.`;
  } else if (mine && obs.decision === "hit-or-stay" && me) {
    text = (
      <>
        <strong>Hit or stay?</strong> Hit flips the top card of the deck into your row; stay banks{" "}
        {counted(me.row_score, "point")} (your total would be {me.total + me.row_score}).
      </>
    );
  } else if (mine && obs.decision === "give-7") {
    text = (
      <>
        <strong>Give your 7 away</strong>: pick the seat of an active player who holds no 7.
      </>
    );
  } else if (mine && obs.decision === "jack-target") {
    text = (
      <>
        <strong>Your Jack</strong>: pick who flips two cards, one at a time (yourself allowed).
      </>
    );
  } else if (obs.to_move.length) {
    const who = listed(obs.to_move.map(name));
    const what: Record<string, string> = {
      "hit-or-stay": "to hit or stay",
      "give-7": "to give the 7 away",
      "jack-target": "to pick the Jack's target",
    };
    text = `Waiting for ${who} ${what[obs.decision ?? ""] ?? "to move"}.`;
  } else {
    text = "…";
  }
  return (
    <DecisionBox mine={mine} decision={obs.decision ?? "none"} name="rg-decision">
      <p>{text}</p>
      {forced && (
        <p class="rg-forced">
          Jack: {name(forced[0])} flips {counted(forced[1], "more card", "more cards")}
          {obs.forced_flips.length > 1 &&
            `, then ${obs.forced_flips
              .slice(1)
              .map(([who, left]) => `${name(who)} ${left}`)
              .join(", ")}`}
          .
        </p>
      )}
      {obs.phase === "final" && obs.favorites.length > 0 && (
        <p class="rg-forced">
          The final hand: {listed(obs.favorites.map(name))} {obs.favorites.length === 1 ? "sits" : "sit"} it out
          as the {obs.favorites.length === 1 ? "favorite" : "favorites"}.
        </p>
      )}
    </DecisionBox>
  );
}

// ------------------------------------------------------------------------------ a seat's area

const STATUS_WORDS: Record<Status, string> = {
  active: "in the hand",
  stayed: "stayed",
  bust: "bust",
  out: "sits out",
};

function SeatArea({
  player,
  obs,
  viewer,
  toMove,
  flipsLeft,
  seatName,
  picker,
}: {
  player: Player;
  obs: RgObservation;
  viewer: string | null;
  toMove: boolean;
  flipsLeft: number;
  seatName: SeatNamer;
  picker: Picker;
}) {
  const yours = player.seat === viewer;
  const over = obs.phase === "over";
  const won = obs.winners.includes(player.seat) && over;
  const favourite = obs.favorites.includes(player.seat) && obs.phase === "final";
  const classes = ["board-seat", "rg-seat", `rg-seat-${player.status}`];
  if (player.status === "out") classes.push("board-seat-out");
  if (yours) classes.push("board-seat-yours");
  if (toMove) classes.push("board-seat-to-move");
  if (useChanged(player.seat)) classes.push("board-seat-changed");
  const headingId = `rg-seat-${player.seat}`;
  const name = seatName(seatIndex(player.seat));
  const hasKing = player.row.some((code) => rankOf(code) === "K");
  const hasQueen = player.row.some((code) => rankOf(code) === "Q");
  const progress = Math.min(100, Math.round((100 * player.total) / Math.max(1, obs.target_score)));
  const repeats = player.status === "active" && player.row.length ? repeatsInDeck(obs, player.row) : 0;
  return (
    <section class={classes.join(" ")} aria-labelledby={headingId} data-seat={player.seat}>
      <h3 id={headingId} class="board-seat-name">
        <span>{name}</span>
        {yours && <span class="badge">you</span>}
        {toMove && <span class="badge badge-turn">to move</span>}
        {!over && <span class={`board-tag rg-status-${player.status}`}>{STATUS_WORDS[player.status]}</span>}
        {favourite && <span class="board-tag board-tag-gold rg-status-favourite">favorite</span>}
        {won && <span class="board-tag board-tag-gold rg-status-won">winner</span>}
      </h3>
      <div class="rg-total">
        <span>
          Total <strong class="rg-total-number">{player.total}</strong>
          <span class="rg-muted"> / {obs.target_score}</span>
        </span>
        <span class="rg-bar" aria-hidden="true">
          <span class="rg-bar-fill" style={{ width: `${progress}%` }} />
        </span>
      </div>
      <div class="rg-row" role="group" aria-label={yours ? "Your row" : `${name}'s row`}>
        {player.row.length ? (
          player.row.map((code, index) => <Card key={`${code}-${index}`} code={code} />)
        ) : (
          <span class="rg-row-empty">{player.status === "out" ? "sits this hand out" : "no card flipped"}</span>
        )}
      </div>
      {player.status !== "out" && (
        <p class="rg-score">
          {player.status === "bust" ? (
            <>busted: scores 0 this hand</>
          ) : player.status === "stayed" ? (
            <>banked {counted(player.banked, "point")} this hand</>
          ) : (
            <>
              row scores <strong>{player.row_score}</strong>
              {hasKing && " (doubled by the King)"}
              {hasQueen && " · the Queen pardons one repeat"}
            </>
          )}
        </p>
      )}
      {repeats > 0 && obs.deck_size > 0 && (
        <p class="rg-risk">
          {repeats} of the deck's {obs.deck_size} cards repeat a rank of this row
          {hasQueen ? " (pardoned once)" : ""}.
        </p>
      )}
      {flipsLeft > 0 && <p class="rg-flips">Flips {counted(flipsLeft, "more card", "more cards")} (a Jack).</p>}
      <Targets player={player} viewer={viewer} name={name} picker={picker} decision={obs.decision} />
    </section>
  );
}

/** The button that names this seat in the viewer's legal actions (the 7's taker, the Jack's
 * target): clicking it picks the seat; the moves panel then shows the action to confirm. */
function Targets({
  player,
  viewer,
  name,
  picker,
  decision,
}: {
  player: Player;
  viewer: string | null;
  name: string;
  picker: Picker;
  decision: RgObservation["decision"];
}) {
  const moves = picker.actionsWith(player.seat);
  if (moves.length === 0) return null;
  const self = player.seat === viewer;
  const words =
    decision === "give-7"
      ? `Give the 7 to ${name}`
      : decision === "jack-target"
        ? self
          ? "Send the Jack at yourself"
          : `Send the Jack at ${name}`
        : moves.map((m) => m.text).join(" / ");
  const picked = picker.picked === player.seat;
  return (
    <button
      type="button"
      class={picked ? "board-target rg-target picked" : "board-target rg-target"}
      aria-pressed={picked}
      data-pick={player.seat}
      title={moves.map((m) => m.text).join(" / ")}
      onClick={() => picker.pick(player.seat)}
    >
      {words}
    </button>
  );
}
