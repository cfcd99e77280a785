// The game's log, as the page's seat saw it (a hidden event is "?"): on a table and in a replay.
import { useEffect, useRef } from "preact/hooks";
import type { LogEvent } from "../api";
import { RichText, type SeatNamer } from "../cards";
import { RuleLinks } from "./rule-links";

/** Who made an event: a seat by name, "deal" for chance, anything else as the log says it. */
export function actorName(who: string, seatName: SeatNamer): string {
  const seat = /^p(\d+)$/.exec(who);
  return seat ? seatName(Number(seat[1])) : who === "chance" ? "deal" : who;
}

/** What happened, its cards drawn, its rule ids links to the rule; an event hidden from this seat
 * says so. */
export function EventText({ what, seatName }: { what: string; seatName: SeatNamer }) {
  if (what === "?") return <span class="muted">(hidden)</span>;
  return <RuleLinks text={what} draw={(piece) => <RichText text={piece} seatName={seatName} />} />;
}

export function Log({ log, seatName }: { log: LogEvent[]; seatName: SeatNamer }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // The newest event in sight: the list scrolls by itself.
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [log.length]);
  return (
    <section class="panel" aria-labelledby="log-heading">
      <h2 id="log-heading">Log</h2>
      <ol class="log" ref={list} tabIndex={0} aria-label="Game log">
        {log.map(([who, what], index) => (
          <li key={index}>
            <span class="log-who">{actorName(who, seatName)}</span>{" "}
            <EventText what={what} seatName={seatName} />
          </li>
        ))}
      </ol>
    </section>
  );
}
