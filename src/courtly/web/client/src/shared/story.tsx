// The story of a game as the page's seat was told it: the game's own sentences, one line (or a
// few) for each event, its cards drawn as cards and its seats named; the lines of the last move
// marked. The raw events stay below, folded, for those who want them.
import { useEffect, useRef } from "preact/hooks";
import type { LogEvent, SeatMessage, SeatPublic } from "../api";
import type { SeatNamer } from "../cards";
import { RawLog } from "./log";
import { GameWords } from "./rule-links";

/** A line of the story: the index of the event it tells, and its text. */
export type StoryLine = SeatMessage["story"][number];

/** The last move: where it starts (the index of the last seat's decision in the log; the
 * chance it set off follows it) and who made it. */
export interface LastMove {
  from: number;
  seat: number;
}

/** The last decision of ``log`` (its events as the page's seat saw them), or null before any. */
export function lastMove(log: LogEvent[]): LastMove | null {
  for (let index = log.length - 1; index >= 0; index--) {
    const seat = /^p(\d+)$/.exec(log[index][0]);
    if (seat) return { from: index, seat: Number(seat[1]) };
  }
  return null;
}

/** The seats the lines of the last move name ("p1 gives 7S to p2": p1 and p2), its mover first:
 * what the board marks as changed. */
export function seatsNamed(story: StoryLine[], last: LastMove | null): number[] {
  if (last === null) return [];
  const named = new Set<number>([last.seat]);
  for (const [index, text] of story) {
    if (index < last.from) continue;
    for (const found of text.matchAll(/(?<![\w-])p(\d+)(?![\w-])/g)) named.add(Number(found[1]));
  }
  return [...named];
}

/** A line of the story: each of its parts (a line may hold several, one per "\n") on a line of
 * its own, indented as the game wrote it; its cards drawn, its rule ids links to the rule. */
export function StoryText({ text, seatName }: { text: string; seatName: SeatNamer }) {
  return (
    <span class="story-text">
      {text.split("\n").map((part, index) => (
        <span key={index} class="story-part">
          <GameWords text={part} seatName={seatName} />
        </span>
      ))}
    </span>
  );
}

/** "p1 (heuristic bot)" moved: a bot's move says so, as bots move fast. */
function byBot(seats: SeatPublic[] | undefined, seat: number): boolean {
  const found = seats?.[seat];
  return found !== undefined && (found.kind === "bot" || found.bot_control);
}

export function StoryPanel({
  story,
  log,
  seatName,
  seats,
  last = null,
  tag = "last move",
  toldTo,
}: {
  story: StoryLine[];
  log: LogEvent[];
  seatName: SeatNamer;
  /** The table's seats: a bot's last move is marked as a bot's. */
  seats?: SeatPublic[];
  last?: LastMove | null;
  /** The words that mark the first line of ``last``. */
  tag?: string;
  /** For a replay with every seat's lines: the seats each line was told to ([]: every seat). */
  toldTo?: number[][];
}) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // The newest line in sight: the list scrolls by itself.
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [story.length]);
  const firstOfLast = last === null ? -1 : story.findIndex(([index]) => index >= last.from);
  const bot = last !== null && byBot(seats, last.seat);
  return (
    <section class="panel" aria-labelledby="log-heading">
      <h2 id="log-heading">Log</h2>
      {story.length === 0 ? (
        <p class="muted">Nothing has happened yet.</p>
      ) : (
        <ol class="story" ref={list} tabIndex={0} aria-label="What happened">
          {story.map(([index, text], position) => {
            const isLast = firstOfLast >= 0 && position >= firstOfLast;
            const to = toldTo?.[position] ?? [];
            const classes = ["story-line"];
            if (isLast) classes.push("story-last", ...(bot ? ["story-last-bot"] : []));
            return (
              <li key={`${index}-${position}`} class={classes.join(" ")} data-event={index}>
                {position === firstOfLast && (
                  <span class="story-tag">{bot ? `${tag} · bot` : tag}</span>
                )}
                {to.length > 0 && <span class="story-tag story-to">to {to.map(seatName).join(", ")}</span>}
                <StoryText text={text} seatName={seatName} />
              </li>
            );
          })}
        </ol>
      )}
      <details class="raw-log">
        <summary>Details: every event as the engine records it</summary>
        <RawLog log={log} seatName={seatName} />
      </details>
    </section>
  );
}
