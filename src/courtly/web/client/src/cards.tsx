// Cards as cards: "7H", "10S", "KD", "Jk" (a joker), drawn with rank and suit symbol, red or
// black, and named for screen readers ("7 of hearts"). "?" is a card the viewer may not see.
import type { ComponentChildren } from "preact";

const SUITS: Record<string, { symbol: string; name: string; red: boolean }> = {
  S: { symbol: "♠", name: "spades", red: false },
  H: { symbol: "♥", name: "hearts", red: true },
  D: { symbol: "♦", name: "diamonds", red: true },
  C: { symbol: "♣", name: "clubs", red: false },
};

const RANK_NAMES: Record<string, string> = { A: "ace", J: "jack", Q: "queen", K: "king" };

const CARD = /^(10|[2-9AJQK])([SHDC])$/;

export interface ParsedCard {
  code: string;
  rank: string;
  suit: string | null;
  symbol: string;
  red: boolean;
  name: string;
}

export function parseCard(text: string): ParsedCard | null {
  if (text === "Jk") {
    return { code: text, rank: "Jk", suit: null, symbol: "★", red: false, name: "joker" };
  }
  const match = CARD.exec(text);
  if (!match) return null;
  const [, rank, suitLetter] = match;
  const suit = SUITS[suitLetter];
  return {
    code: text,
    rank,
    suit: suitLetter,
    symbol: suit.symbol,
    red: suit.red,
    name: `${RANK_NAMES[rank] ?? rank} of ${suit.name}`,
  };
}

/** Words for a card the viewer may not see ("?" in a log, "face down" in a formation). */
const BACKS = new Set(["?", "face down"]);
/** A card face down that its owner knows: "[7H]". */
const OWN_FACE_DOWN = /^\[(.+)\]$/;

export function isCard(value: unknown): boolean {
  if (typeof value !== "string") return false;
  if (BACKS.has(value)) return true;
  const own = OWN_FACE_DOWN.exec(value);
  return parseCard(own ? own[1] : value) !== null;
}

/** A place for a card (a formation's slot): a card, or empty ("-", or null before it is filled). */
export function isCardPlace(value: unknown): boolean {
  return value === null || value === "-" || isCard(value);
}

export function Card({ code, small = false }: { code: string | null; small?: boolean }) {
  const size = small ? " card-small" : "";
  if (code === null || code === "-") {
    const label = code === null ? "empty place" : "emptied place";
    return <span class={`card card-empty${size}`} role="img" aria-label={label} title={label} />;
  }
  const own = OWN_FACE_DOWN.exec(code);
  const card = parseCard(own ? own[1] : code);
  if (!card) {
    return (
      <span class={`card card-back${size}`} role="img" aria-label="face-down card" title="face-down card" />
    );
  }
  const colour = card.red ? "card-red" : "card-black";
  const name = own ? `${card.name}, face down` : card.name;
  return (
    <span
      class={`card ${colour}${own ? " card-own-face-down" : ""}${size}`}
      role="img"
      aria-label={name}
      title={name}
      data-card={card.code}
    >
      <span class="card-rank" aria-hidden="true">
        {card.rank === "Jk" ? "Jkr" : card.rank}
      </span>
      <span class="card-suit" aria-hidden="true">
        {card.symbol}
      </span>
    </span>
  );
}

/** A card or a seat inside words: "7H", "10S", "Jk", "p2", standing on their own (punctuation
 * around them is fine: "flips 5H.", "p1's"), never part of a longer word or of a rule id
 * ("KC-7" is a rule of King's Court, not the King of clubs). */
const TOKEN = /(?<![\w-])((?:10|[2-9AJQK])[SHDC]|Jk|p\d+)(?![\w-])/g;

/** A seat's label ("p1") with its person's or bot's name, when it has one. */
export type SeatNamer = (seat: number) => string;

/** Text of the game's own words (an action, a line of the story) with its cards drawn as small
 * cards and its seats ("p2") named. Each keeps the words it stands for (`data-card`,
 * `data-seat-ref`), so the text the game wrote can be read back from the page. */
export function RichText({ text, seatName }: { text: string; seatName?: SeatNamer }) {
  const parts: ComponentChildren[] = [];
  let at = 0;
  for (const found of text.matchAll(TOKEN)) {
    const word = found[0];
    const start = found.index ?? 0;
    if (start < at) continue; // inside a seat's words already taken
    if (start > at) parts.push(text.slice(at, start));
    at = start + word.length;
    if (word.startsWith("p")) {
      if (!seatName) {
        parts.push(word);
        continue;
      }
      let name = seatName(Number(word.slice(1)));
      let written = word;
      // "p0 (Ostrogoth King)" of a seat named "p0 (Ann)": "p0 (Ann, Ostrogoth King)".
      const what = /^ \(([^()]+)\)/.exec(text.slice(at));
      if (what && name.endsWith(")")) {
        name = `${name.slice(0, -1)}, ${what[1]})`;
        written = `${word}${what[0]}`;
        at += what[0].length;
      }
      parts.push(
        <span key={start} class="seat-ref" data-seat-ref={written}>
          {name}
        </span>,
      );
    } else {
      parts.push(<Card key={start} code={word} small />);
    }
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
