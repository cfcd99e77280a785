// What several games' boards draw alike, and the words they write alike: a seat's index from its
// label, counted and listed nouns, a row of small cards, a fan of face-down cards.
import { createContext, type ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import { Card } from "../cards";

/** What the page tells every board about the moment beside the observation: whether the table
 * still waits for players (nobody is to decide yet, whatever the deal says), and the seats the
 * last move named ("p1"), which the boards mark as changed. */
export interface Moment {
  open: boolean;
  changed: ReadonlySet<string>;
}

export const MomentContext = createContext<Moment>({ open: false, changed: new Set() });

/** Whether the last move named ``seat`` ("p1"): its place on the board is marked. */
export function useChanged(...seats: string[]): boolean {
  const { changed } = useContext(MomentContext);
  return seats.some((seat) => changed.has(seat));
}

/** The suits by the names the observations use, with their symbol and letter. */
export const SUITS: Record<string, { symbol: string; letter: string; red: boolean }> = {
  spades: { symbol: "♠", letter: "S", red: false },
  hearts: { symbol: "♥", letter: "H", red: true },
  diamonds: { symbol: "♦", letter: "D", red: true },
  clubs: { symbol: "♣", letter: "C", red: false },
};

/** "p2" -> 2. */
export function seatIndex(seat: string): number {
  return Number(seat.slice(1));
}

/** "1 card", "3 cards", "2 armies" (with its plural). */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** "a", "a and b", "a, b and c". */
export function listed(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** Cards face up in a row, small; a group with its name when ``label`` is given. */
export function SmallCards({ codes, label }: { codes: string[]; label?: string }) {
  return (
    <span class="cards" role={label === undefined ? undefined : "group"} aria-label={label}>
      {codes.map((code, index) => (
        <Card key={`${code}-${index}`} code={code} small />
      ))}
    </span>
  );
}

/** Cards face down, drawn as a small fan of backs with their number: one image, one name
 * ("12 cards in hand"), also its tooltip unless ``tooltip`` is false. */
export function Backs({
  count,
  what = "face-down card",
  where = "",
  small = false,
  tooltip = true,
}: {
  count: number;
  what?: string;
  where?: string;
  small?: boolean;
  tooltip?: boolean;
}) {
  const label = where ? `${counted(count, what)} ${where}` : counted(count, what);
  return (
    <span class="board-backs" role="img" aria-label={label} title={tooltip ? label : undefined}>
      <span class="board-fan" aria-hidden="true">
        {Array.from({ length: Math.min(count, 5) }, (_, index) => (
          <span
            key={index}
            class={small ? "card card-back card-small board-fan-card" : "card card-back board-fan-card"}
          />
        ))}
      </span>
      <span class="board-backs-count" aria-hidden="true">
        ×{count}
      </span>
    </span>
  );
}

/** A pile face down, drawn as a stack with its number: one image, one name ("30 cards in the
 * deck"), also its tooltip unless ``tooltip`` is false. */
export function Stack({ count, where, tooltip = true }: { count: number; where: string; tooltip?: boolean }) {
  const label = `${counted(count, "card")} ${where}`;
  return (
    <span class="board-stack" role="img" aria-label={label} title={tooltip ? label : undefined}>
      <span class="card card-back" aria-hidden="true" />
      <span class="board-count" aria-hidden="true">
        {count}
      </span>
    </span>
  );
}

/** What the viewer is asked to decide, or whom the table waits for: marked when it is the
 * viewer's. ``name`` is the game's own class for it, if any. */
export function DecisionBox({
  mine,
  decision,
  name,
  children,
}: {
  mine: boolean;
  decision: string;
  name?: string;
  children: ComponentChildren;
}) {
  const { open } = useContext(MomentContext);
  const classes = mine && !open ? ["board-decision", "board-decision-yours"] : ["board-decision"];
  if (name) classes.push(name);
  return (
    <div class={classes.join(" ")} data-decision={open ? "waiting-for-players" : decision}>
      {open ? <p>The game starts once every seat is taken.</p> : children}
    </div>
  );
}
