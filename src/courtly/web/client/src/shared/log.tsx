// The game's events as the engine records them, as the page's seat saw them (a hidden event is
// "?"): folded under the story on a table and in a replay, for those who want them.
import type { LogEvent } from "../api";
import type { SeatNamer } from "../cards";
import { GameWords } from "./rule-links";

/** Who made an event: a seat by name, "deal" for chance, anything else as the log says it. */
export function actorName(who: string, seatName: SeatNamer): string {
  const seat = /^p(\d+)$/.exec(who);
  return seat ? seatName(Number(seat[1])) : who === "chance" ? "deal" : who;
}

/** What happened, its cards drawn, its rule ids links to the rule; an event hidden from this seat
 * says so. */
export function EventText({ what, seatName }: { what: string; seatName: SeatNamer }) {
  if (what === "?") return <span class="muted">(hidden)</span>;
  return <GameWords text={what} seatName={seatName} />;
}

export function RawLog({ log, seatName }: { log: LogEvent[]; seatName: SeatNamer }) {
  return (
    <ol class="log" tabIndex={0} aria-label="Game log">
      {log.map(([who, what], index) => (
        <li key={index}>
          <span class="log-who">{actorName(who, seatName)}</span> <EventText what={what} seatName={seatName} />
        </li>
      ))}
    </ol>
  );
}
