// Goths Save the Queen's table: the board of nine cells from the Ostrogoths' Forest to the
// Visigoths' (armies, barricades, the three Objectives face down or revealed, the Fog tokens),
// the two clans (King, Warchief, army and reserve, catapult, King cards face up, the card laid
// face down by its back, the order given), the viewer's own King cards to lay or order to give,
// what the viewer's reconnaissance showed, and the last reveal.
//
// Moves through the Picker: a King card by its token ("v1"), an order by its word ("recon"), an
// Objective by "obj0" (look at it, enter it) and the Fog token by "fog"; the moves panel confirms.
// Drawn from the observation alone (courtly/games/goths_save_the_queen/views.py): a card face
// down arrives as its back, an Objective as null until it is revealed (or the viewer looked).
import type { ComponentChildren } from "preact";
import type { SeatNamer } from "../cards";
import type { BoardProps, Picker } from "./board";
import { counted, DecisionBox, listed, seatIndex, useChanged } from "./parts";
import "./base.css";
import "./goths_save_the_queen.css";

type ClanKey = "ostrogoths" | "visigoths";
type Role = "king" | "warchief" | "solo";

interface Cell {
  cell: string;
  barricade: boolean;
  /** Objective cells: "trap" | "plains" | "queen" once revealed (or the game is over). */
  objective?: string | null;
  revealed?: boolean;
  army: ClanKey | null;
}

interface Fog {
  state: "hidden" | "revealed" | "discarded";
  token: string | null;
  peeked: boolean;
}

interface Clan {
  clan: ClanKey;
  solo: boolean;
  king: string | null;
  warchief: string;
  position: string;
  army: number;
  reserve: number;
  catapult: "active" | "inactive";
  king_cards_face_up: string[];
  king_card_face_down_back: string | null;
  king_hand_size: number;
  order_given: boolean;
  objectives_looked_at: number[];
  solo_last_character: string | null;
  fog: Fog | null;
}

interface KingCard {
  card: string;
  character: string;
  back: string;
}

interface Mine {
  hand?: KingCard[];
  face_down?: KingCard | null;
  order?: string | null;
  reconnaissance?: Record<string, string>;
  fog_token?: string;
}

interface RevealSide {
  king_card: string | null;
  character: string | null;
  order: string;
  success: boolean;
}

interface GothsObservation {
  seat: string | null;
  clan: ClanKey | null;
  role: Role | null;
  seats: { seat: string; clan: ClanKey; role: Role }[];
  turn: number;
  safety_cap: number;
  initiative: ClanKey;
  phase: string;
  waiting_for: string[];
  board: Cell[];
  clans: Clan[];
  mine: Mine;
  last_reveal: ({ turn: number } & Record<ClanKey, RevealSide>) | null;
  winner: ClanKey | "draw" | null;
}

const CLAN_TITLES: Record<ClanKey, { plural: string; one: string; letter: string }> = {
  ostrogoths: { plural: "Ostrogoths", one: "Ostrogoth", letter: "O" },
  visigoths: { plural: "Visigoths", one: "Visigoth", letter: "V" },
};

const CHARACTERS: Record<string, { title: string; letter: string }> = {
  vulture: { title: "Vulture", letter: "V" },
  recruiter: { title: "Recruiter", letter: "R" },
  catapult: { title: "Catapult", letter: "C" },
  barbarian: { title: "Barbarian", letter: "B" },
};
const CHARACTER_BY_LETTER: Record<string, string> = { V: "vulture", R: "recruiter", C: "catapult", B: "barbarian" };

/** The Warchief's nine orders, by resolution number (docs/rules/goths-save-the-queen.md §4), with their character. */
const ORDERS: { word: string; character: string; effect: string }[] = [
  { word: "recon", character: "vulture", effect: "look in secret at an Objective (or your Fog token)" },
  { word: "sabotage", character: "vulture", effect: "the enemy catapult becomes inactive" },
  { word: "recruit", character: "recruiter", effect: "a figurine joins the army from reserve" },
  { word: "load", character: "catapult", effect: "your catapult becomes active" },
  { word: "fire", character: "catapult", effect: "if loaded: the enemy loses 2, unless barricaded" },
  { word: "barricade", character: "barbarian", effect: "barricade the cell under your army (or drop the Fog)" },
  { word: "advance", character: "barbarian", effect: "one cell on, or into an Objective" },
  { word: "axe", character: "barbarian", effect: "the enemy loses 1, unless on a Forest or a barricade" },
  { word: "rats", character: "barbarian", effect: "the enemy loses 1 if on a barricade" },
];

const OBJECTIVES: Record<string, string> = { trap: "Trap", plains: "Plains", queen: "Queen" };
const FOG_TITLES: Record<string, { title: string; effect: string }> = {
  "pea-soup": { title: "Pea soup", effect: "reconnaissance does nothing" },
  "reduced-numbers": { title: "Reduced numbers", effect: "recruiting does nothing" },
  "boar-shortage": { title: "Boar shortage", effect: "the catapult cannot be loaded" },
  gusts: { title: "Gusts", effect: "axes do nothing" },
};

const OBJECTIVE_CELL = /^Objective (\d)$/;

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Ostrogoth King", "Visigoth Warchief", "Ostrogoth chief" (a solo clan). */
function roleTitle(clan: ClanKey, role: Role): string {
  const one = CLAN_TITLES[clan].one;
  return role === "king" ? `${one} King` : role === "warchief" ? `${one} Warchief` : `${one} chief`;
}

/** "O-Plains1" -> "Plains 1", "Objective 2" -> "Objective 2". */
function cellTitle(cell: string): string {
  const land = /^[OV]-(Forest|Plains)(\d?)$/.exec(cell);
  if (land) return land[2] ? `${land[1]} ${land[2]}` : land[1];
  return cell;
}

function cellClan(cell: string): ClanKey | null {
  if (cell.startsWith("O-")) return "ostrogoths";
  if (cell.startsWith("V-")) return "visigoths";
  return null;
}

export function GothsSaveTheQueenBoard({ observation, seat, toMove, seatName, picker }: BoardProps) {
  const obs = observation as unknown as GothsObservation;
  const viewer = seat === null ? null : `p${seat}`;
  const moving = new Set(toMove.map((s) => `p${s}`));
  const mineToMove = viewer !== null && moving.has(viewer);
  const roleOf = (s: string) => obs.seats.find((each) => each.seat === s);
  const name = (s: string) => {
    const known = roleOf(s);
    return `${seatName(seatIndex(s))}${known ? `, ${roleTitle(known.clan, known.role)}` : ""}`;
  };
  return (
    <div class="board goths" data-board="goths-save-the-queen">
      <Decision obs={obs} mine={mineToMove} name={name} />
      <p class="goths-facts">
        Turn {obs.turn} · the {CLAN_TITLES[obs.initiative].plural} hold the initiative
        {obs.clan && obs.role && (
          <>
            {" "}
            · you are the <strong>{roleTitle(obs.clan, obs.role)}</strong>
          </>
        )}{" "}
        · a draw after {obs.safety_cap} turns
      </p>
      <BoardCells obs={obs} picker={picker} />
      <div class="goths-clans">
        {obs.clans.map((clan) => (
          <ClanPanel key={clan.clan} clan={clan} obs={obs} viewer={viewer} moving={moving} seatName={seatName} />
        ))}
      </div>
      <YourPart obs={obs} picker={picker} />
      <Orders obs={obs} picker={picker} mine={mineToMove} />
      <LastReveal obs={obs} />
    </div>
  );
}

// ------------------------------------------------------------------------------ the decision

function Decision({ obs, mine, name }: { obs: GothsObservation; mine: boolean; name: (s: string) => string }) {
  const myClan = obs.clan ? obs.clans.find((c) => c.clan === obs.clan) : undefined;
  let text: ComponentChildren;
  if (obs.phase === "over" || obs.winner) {
    text =
      obs.winner === "draw"
        ? `The game is over: a draw (the safety cap of ${obs.safety_cap} turns).`
        : obs.winner
          ? `The game is over: the ${CLAN_TITLES[obs.winner].plural} win${obs.clan === obs.winner ? ", your clan!" : "."}`
          : "The game is over.";
  } else if (mine && obs.phase === "kings") {
    text = (
      <>
        <strong>Lay a King card face down</strong>: its back, with two characters, is seen by all. Your
        Warchief's order succeeds if its character is your card's (or one of your cards face up).
      </>
    );
  } else if (mine && obs.phase === "orders") {
    const last = myClan?.solo_last_character ? CHARACTERS[myClan.solo_last_character]?.title : null;
    text =
      obs.role === "solo" ? (
        <>
          <strong>Give your order</strong>: as a chief alone you always succeed, but never with the same
          character twice running{last ? ` (no ${last} order this turn)` : ""}.
        </>
      ) : (
        <>
          <strong>Give your order</strong>, face down: guess your King's character from the back of his new
          card and his cards face up.
        </>
      );
  } else if (mine && obs.phase === "recon") {
    text = (
      <>
        <strong>Reconnaissance</strong>: pick the Objective to look at in secret
        {myClan?.fog ? " (or your own Fog token)" : ""}.
      </>
    );
  } else if (mine && obs.phase === "advance") {
    text = (
      <>
        <strong>Advance</strong>: pick the Objective your army enters.
      </>
    );
  } else if (mine && obs.phase === "barricade") {
    text = (
      <>
        <strong>Barricade</strong>: build it under your army, or discard your revealed Fog token.
      </>
    );
  } else if (obs.waiting_for.length) {
    const what: Record<string, string> = {
      kings: "to lay a King card face down",
      orders: "to give an order",
      recon: "to choose what to look at",
      advance: "to choose the Objective to enter",
      barricade: "to build a barricade or discard the Fog",
    };
    text = `Waiting for ${listed(obs.waiting_for.map(name))} ${what[obs.phase] ?? "to move"}.`;
  } else {
    text = "…";
  }
  return (
    <DecisionBox mine={mine} decision={obs.phase} name="goths-decision">
      <p>{text}</p>
    </DecisionBox>
  );
}

// ------------------------------------------------------------------------------ the board

function Figures({ clan, count }: { clan: ClanKey; count: number }) {
  const label = `${CLAN_TITLES[clan].one} army: ${counted(count, "figurine")}`;
  return (
    <span class={`goths-army goths-army-${clan}`} role="img" aria-label={label} title={label}>
      <span aria-hidden="true">{"♟".repeat(Math.max(count, 0)) || "∅"}</span>
    </span>
  );
}

function BoardCells({ obs, picker }: { obs: GothsObservation; picker: Picker }) {
  const armyOf = (clan: ClanKey) => obs.clans.find((c) => c.clan === clan)?.army ?? 0;
  const recon = obs.mine.reconnaissance ?? {};
  return (
    <section class="goths-board-wrap" aria-labelledby="goths-board-heading">
      <h3 id="goths-board-heading">
        The board <span class="goths-muted">(Ostrogoth Forest → Objectives → Visigoth Forest)</span>
      </h3>
      <ol class="goths-board">
        {obs.board.map((cell, index) => {
          const owner = cellClan(cell.cell);
          const objective = OBJECTIVE_CELL.exec(cell.cell);
          const classes = ["goths-cell", owner ? `goths-cell-${owner}` : "goths-cell-objective"];
          if (cell.barricade) classes.push("goths-cell-barricade");
          const title = `${owner ? `${CLAN_TITLES[owner].one} ${cellTitle(cell.cell)}` : cell.cell}${cell.barricade ? ", barricaded" : ""}`;
          return (
            <li key={cell.cell} class={classes.join(" ")} data-cell={index} aria-label={title}>
              <span class="goths-cell-name" aria-hidden="true">
                {owner && <span class="goths-cell-clan">{CLAN_TITLES[owner].letter} </span>}
                {cellTitle(cell.cell)}
              </span>
              {objective && (
                <ObjectiveCard
                  slot={Number(objective[1])}
                  cell={cell}
                  seen={recon[`objective ${objective[1]}`] ?? null}
                  obs={obs}
                  picker={picker}
                />
              )}
              {owner && cell.cell.endsWith("Plains2") && <FogToken obs={obs} clan={owner} picker={picker} />}
              {cell.barricade && (
                <span class="goths-barricade" title="barricade">
                  barricade
                </span>
              )}
              {cell.army && <Figures clan={cell.army} count={armyOf(cell.army)} />}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function ObjectiveCard({
  slot,
  cell,
  seen,
  obs,
  picker,
}: {
  slot: number;
  cell: Cell;
  seen: string | null;
  obs: GothsObservation;
  picker: Picker;
}) {
  const token = `obj${slot}`;
  const face = cell.objective ?? seen;
  const lookedBy = obs.clans.filter((c) => c.objectives_looked_at.includes(slot)).map((c) => CLAN_TITLES[c.clan].letter);
  const state = cell.revealed ? "revealed" : cell.objective ? "shown at the end" : seen ? "you looked" : "face down";
  const label = face ? `Objective ${slot}: ${OBJECTIVES[face] ?? face} (${state})` : `Objective ${slot}: face down`;
  const picture = (
    <span
      class={`goths-objective${face ? ` goths-objective-${face}` : " goths-objective-down"}${!cell.revealed && face ? " goths-objective-secret" : ""}`}
      role="img"
      aria-label={label}
      title={label}
    >
      <span aria-hidden="true">{face ? (face === "queen" ? "♛" : face === "trap" ? "✕" : "≈") : "?"}</span>
      {face && (
        <span class="goths-objective-name" aria-hidden="true">
          {OBJECTIVES[face] ?? face}
        </span>
      )}
    </span>
  );
  const moves = picker.actionsWith(token);
  return (
    <span class="goths-objective-place">
      {moves.length ? (
        <button
          type="button"
          class={picker.picked === token ? "goths-pick picked" : "goths-pick"}
          aria-pressed={picker.picked === token}
          data-pick={token}
          title={moves.map((m) => m.text).join(" / ")}
          onClick={() => picker.pick(token)}
        >
          {picture}
          <span class="goths-pick-word">{moves[0].text.split(" ")[0]}</span>
        </button>
      ) : (
        picture
      )}
      {lookedBy.length > 0 && (
        <span class="goths-looked" title={`looked at by ${lookedBy.join(", ")}`}>
          seen: {lookedBy.join(" ")}
        </span>
      )}
    </span>
  );
}

function FogToken({ obs, clan, picker }: { obs: GothsObservation; clan: ClanKey; picker: Picker }) {
  const fog = obs.clans.find((c) => c.clan === clan)?.fog ?? null;
  if (!fog || fog.state === "discarded") return null;
  const known = fog.token ? FOG_TITLES[fog.token] : null;
  const label = `${CLAN_TITLES[clan].one} Fog token: ${known ? known.title : "face down"}${fog.state === "hidden" && known ? " (hidden: you looked)" : ""}`;
  const picture = (
    <span class={`goths-fog goths-fog-${fog.state}`} role="img" aria-label={label} title={label}>
      <span aria-hidden="true">{known ? known.title : "fog"}</span>
    </span>
  );
  const moves = picker.actionsWith("fog");
  if (moves.length && clan === obs.clan) {
    return (
      <button
        type="button"
        class={picker.picked === "fog" ? "goths-pick picked" : "goths-pick"}
        aria-pressed={picker.picked === "fog"}
        data-pick="fog"
        title={moves.map((m) => m.text).join(" / ")}
        onClick={() => picker.pick("fog")}
      >
        {picture}
        <span class="goths-pick-word">look</span>
      </button>
    );
  }
  return picture;
}

// ------------------------------------------------------------------------------ King cards

/** A King card face up: its character, its number and its back's two characters. */
function KingCardFace({ card, back }: { card: string; back?: string | null }) {
  const character = CHARACTER_BY_LETTER[card.charAt(0).toUpperCase()] ?? "";
  const title = CHARACTERS[character]?.title ?? card;
  const label = `${title} ${card.slice(1)}${back ? `, back ${back}` : ""}`;
  return (
    <span class={`goths-kcard goths-char-${character}`} role="img" aria-label={label} title={label} data-king-card={card}>
      <span class="goths-kcard-letter" aria-hidden="true">
        {card.toUpperCase()}
      </span>
      <span class="goths-kcard-title" aria-hidden="true">
        {title}
      </span>
      {back && (
        <span class="goths-kcard-back" aria-hidden="true">
          {back}
        </span>
      )}
    </span>
  );
}

/** A King card face down: only its back's two characters show (the true one and a decoy). */
function KingCardBack({ back, whose }: { back: string; whose: string }) {
  const characters = back
    .split("/")
    .map((l) => CHARACTERS[CHARACTER_BY_LETTER[l] ?? ""]?.title ?? l)
    .join(" or ");
  const label = `${whose} King card face down, back ${back}`;
  return (
    <span class="goths-down">
      <span class="goths-kcard goths-kcard-down" role="img" aria-label={label} title={label}>
        <span class="goths-kcard-letter" aria-hidden="true">
          {back}
        </span>
      </span>
      <span class="goths-down-words goths-small">
        face down: {characters}
      </span>
    </span>
  );
}

// ------------------------------------------------------------------------------ the clans

function ClanPanel({
  clan,
  obs,
  viewer,
  moving,
  seatName,
}: {
  clan: Clan;
  obs: GothsObservation;
  viewer: string | null;
  moving: Set<string>;
  seatName: SeatNamer;
}) {
  const titles = CLAN_TITLES[clan.clan];
  const headingId = `goths-clan-${clan.clan}`;
  const yours = obs.clan === clan.clan;
  const who = (s: string | null, role: string) =>
    s === null ? null : (
      <li class={moving.has(s) ? "goths-person goths-person-to-move" : "goths-person"}>
        <span class="goths-muted">{role}:</span> {seatName(seatIndex(s))}
        {s === viewer && <span class="badge">you</span>}
        {moving.has(s) && <span class="badge badge-turn">to move</span>}
      </li>
    );
  const fog = clan.fog;
  const fogKnown = fog?.token ? FOG_TITLES[fog.token] : null;
  const lastCharacter = clan.solo_last_character ? CHARACTERS[clan.solo_last_character]?.title : null;
  // The clan's place is marked when the last move named one of its people.
  const changed = useChanged(...obs.seats.filter((s) => s.clan === clan.clan).map((s) => s.seat));
  return (
    <section
      class={`goths-clan goths-clan-${clan.clan}${yours ? " goths-clan-yours" : ""}${obs.winner === clan.clan ? " goths-clan-won" : ""}${changed ? " board-seat-changed" : ""}`}
      aria-labelledby={headingId}
      data-clan={clan.clan}
    >
      <h3 id={headingId}>
        The {titles.plural}
        {yours && <span class="goths-muted"> (your clan)</span>}
        {obs.winner === clan.clan && <span class="goths-tag-won">winners</span>}
      </h3>
      <ul class="goths-people">
        {clan.solo ? who(clan.warchief, "Chief (alone)") : who(clan.king, "King")}
        {!clan.solo && who(clan.warchief, "Warchief")}
      </ul>
      <dl class="goths-facts-list">
        <div>
          <dt>Army</dt>
          <dd>
            <Figures clan={clan.clan} count={clan.army} /> on {cellTitle(clan.position)}
            {clan.position.startsWith("Objective") ? "" : ` (${titles.letter})`} · {clan.reserve} in reserve
          </dd>
        </div>
        <div>
          <dt>Catapult</dt>
          <dd class={clan.catapult === "active" ? "goths-loaded" : undefined}>
            {clan.catapult === "active" ? "loaded (active)" : "inactive"}
          </dd>
        </div>
        {!clan.solo && (
          <div>
            <dt>King's cards</dt>
            <dd>
              <span class="goths-kcards">
                {clan.king_card_face_down_back && (
                  <KingCardBack back={clan.king_card_face_down_back} whose="This turn's" />
                )}
                {clan.king_cards_face_up.map((card) => (
                  <KingCardFace key={card} card={card} />
                ))}
              </span>
              <span class="goths-muted goths-small">
                {counted(clan.king_hand_size, "card")} in hand
                {clan.king_cards_face_up.length > 0 && `, ${clan.king_cards_face_up.length} face up from failed turns`}
                {clan.king_card_face_down_back && ", one face down"}
              </span>
            </dd>
          </div>
        )}
        {obs.phase === "orders" && (
          <div>
            <dt>Order</dt>
            <dd>{clan.order_given ? "given, face down" : "not given yet"}</dd>
          </div>
        )}
        {clan.solo && lastCharacter && obs.phase !== "over" && (
          <div>
            <dt>Last order</dt>
            <dd>a {lastCharacter} order: not that character this turn</dd>
          </div>
        )}
        {clan.objectives_looked_at.length > 0 && (
          <div>
            <dt>Looked at</dt>
            <dd>{listed(clan.objectives_looked_at.map((slot) => `Objective ${slot}`))}</dd>
          </div>
        )}
        {fog && (
          <div>
            <dt>Fog</dt>
            <dd>
              {fog.state === "discarded"
                ? "discarded"
                : fog.state === "revealed"
                  ? `${fogKnown?.title ?? fog.token}: ${fogKnown?.effect ?? ""}`
                  : fogKnown
                    ? `face down: ${fogKnown.title} (${fogKnown.effect})`
                    : `face down${fog.peeked ? ", its Warchief looked" : ""}`}
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}

// ------------------------------------------------------------------------------ the viewer's own

function YourPart({ obs, picker }: { obs: GothsObservation; picker: Picker }) {
  const mine = obs.mine;
  if (!obs.role || obs.phase === "over") return null;
  if (obs.role === "king") {
    const hand = mine.hand ?? [];
    return (
      <section class="board-hand" aria-labelledby="goths-mine-heading">
        <h3 id="goths-mine-heading">Your King cards</h3>
        <p class="goths-small goths-muted">
          Face: the character; bottom: the back everyone sees when the card lies face down.
        </p>
        <ul class="goths-hand">
          {hand.map((card) => {
            const moves = picker.actionsWith(card.card);
            const face = <KingCardFace card={card.card} back={card.back} />;
            return (
              <li key={card.card}>
                {moves.length ? (
                  <button
                    type="button"
                    class={picker.picked === card.card ? "goths-pick goths-card-pick picked" : "goths-pick goths-card-pick"}
                    aria-pressed={picker.picked === card.card}
                    data-pick={card.card}
                    title={moves.map((m) => m.text).join(" / ")}
                    onClick={() => picker.pick(card.card)}
                  >
                    {face}
                  </button>
                ) : (
                  face
                )}
              </li>
            );
          })}
        </ul>
        {mine.face_down && (
          <p class="goths-laid">
            Laid face down this turn: <KingCardFace card={mine.face_down.card} back={mine.face_down.back} />
          </p>
        )}
      </section>
    );
  }
  const recon = Object.entries(mine.reconnaissance ?? {});
  const fog = mine.fog_token ? FOG_TITLES[mine.fog_token] : null;
  return (
    <section class="board-hand" aria-labelledby="goths-mine-heading">
      <h3 id="goths-mine-heading">{obs.role === "solo" ? "Your orders" : "Your orders and scouting"}</h3>
      <dl class="goths-facts-list">
        <div>
          <dt>This turn</dt>
          <dd>{mine.order ? `you ordered ${mine.order}` : "no order given yet"}</dd>
        </div>
        <div>
          <dt>Scouted</dt>
          <dd>
            {recon.length
              ? recon.map(([where, what]) => `${capitalised(where)}: the ${OBJECTIVES[what] ?? what}`).join("; ")
              : "no Objective yet (only you learn what your reconnaissance shows)"}
          </dd>
        </div>
        {fog && (
          <div>
            <dt>Your Fog</dt>
            <dd>
              {fog.title}: {fog.effect}
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}

function Orders({ obs, picker, mine }: { obs: GothsObservation; picker: Picker; mine: boolean }) {
  if (obs.phase === "over") return null;
  const giving = mine && obs.phase === "orders";
  return (
    <section class="goths-orders" aria-labelledby="goths-orders-heading">
      <h3 id="goths-orders-heading">{giving ? "Give an order" : "The Warchiefs' orders"}</h3>
      <ol class="goths-order-list">
        {ORDERS.map((order, index) => {
          const moves = picker.actionsWith(order.word);
          const character = CHARACTERS[order.character];
          const body = (
            <>
              <span class="goths-order-number">{index + 1}</span>
              <span class={`goths-order-char goths-char-${order.character}`} title={character.title}>
                {character.letter}
              </span>
              <span class="goths-order-text">
                <strong>{order.word}</strong> <span class="goths-muted">({character.title})</span>
                <span class="goths-order-effect">{order.effect}</span>
              </span>
            </>
          );
          return (
            <li key={order.word} class={giving && !moves.length ? "goths-order goths-order-barred" : "goths-order"}>
              {moves.length ? (
                <button
                  type="button"
                  class={picker.picked === order.word ? "goths-order-button picked" : "goths-order-button"}
                  aria-pressed={picker.picked === order.word}
                  data-pick={order.word}
                  onClick={() => picker.pick(order.word)}
                >
                  {body}
                </button>
              ) : (
                <div class="goths-order-static">{body}</div>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

// ------------------------------------------------------------------------------ the last reveal

function LastReveal({ obs }: { obs: GothsObservation }) {
  const last = obs.last_reveal;
  if (!last) return null;
  return (
    <section class="goths-reveal" aria-labelledby="goths-reveal-heading">
      <h3 id="goths-reveal-heading">Revealed at turn {last.turn}</h3>
      <ul>
        {(["ostrogoths", "visigoths"] as ClanKey[]).map((clan) => {
          const side = last[clan];
          if (!side) return null;
          return (
            <li key={clan} class={side.success ? "goths-success" : "goths-failure"}>
              <strong>{CLAN_TITLES[clan].plural}</strong>:{" "}
              {side.king_card ? (
                <>
                  King card <KingCardFace card={side.king_card} /> ({CHARACTERS[side.character ?? ""]?.title ?? side.character})
                </>
              ) : (
                "no King card (a chief alone)"
              )}{" "}
              · order <strong>{side.order}</strong> ·{" "}
              <span class="goths-outcome">{side.success ? "success: carried out" : "failure: nothing happens"}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
