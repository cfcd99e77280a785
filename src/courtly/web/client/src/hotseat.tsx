// Hot seat: several people play one table on one device. The page holds every person seat's
// token (joined by the lobby's form) and shows the table from the view of the person seat to
// move, and of no other: whenever another person must decide, the table is taken away entirely
// (unmounted: its view, its log, its connection) and a cover asks to pass the device on. The
// next seat's view is fetched only once its person says they hold the device.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, savedToken, type SeatMessage, type TableSummary } from "./api";
import { LiveTable } from "./table/page";
import { tablePath } from "./router";
import { HandoverCover } from "./shared/handover";
import { Links, TO_THE_LOBBY } from "./shared/links";
import "./around.css";

/** The person seats to move now that this device plays (a seat its bot plays is not). */
function personsToMove(toMove: number[], seats: number[], message?: SeatMessage): number[] {
  return toMove.filter((s) => seats.includes(s) && !(message?.seats[s]?.bot_control ?? false));
}

function seatLabel(summary: TableSummary | null, seat: number): string {
  const name = summary?.seats[seat]?.name ?? "";
  return name && name !== `p${seat}` ? `p${seat} — ${name}` : `p${seat}`;
}

export function HotSeatPage({ table }: { table: string }) {
  const [summary, setSummary] = useState<TableSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Either a seat's view is shown, or the cover names the seat the device goes to next.
  const [shown, setShown] = useState<number | null>(null);
  const [cover, setCover] = useState<number | null>(null);
  const shownRef = useRef<number | null>(null);
  shownRef.current = shown;

  // The seats this device plays: every person seat whose token it holds.
  const seats = (summary?.seats ?? [])
    .filter((s) => s.kind === "person" && savedToken(table, s.seat) !== null)
    .map((s) => s.seat);
  const seatsKey = seats.join(",");

  useEffect(() => {
    let stopped = false;
    api.table(table).then(
      (found) => {
        if (stopped) return;
        setSummary(found);
        const mine = found.seats
          .filter((s) => s.kind === "person" && savedToken(table, s.seat) !== null)
          .map((s) => s.seat);
        // The first person to move takes the device (nobody to move yet: the first seat).
        const first = personsToMove(found.to_move, mine)[0] ?? mine[0];
        if (first !== undefined) setCover(first);
      },
      (e: ApiError) => {
        if (!stopped) setError(e.message);
      },
    );
    return () => {
      stopped = true;
    };
  }, [table]);

  const onMessage = useCallback(
    (message: SeatMessage) => {
      const current = shownRef.current;
      if (current === null || message.seat !== current || message.status !== "playing") return;
      const next = personsToMove(message.to_move, seatsKey.split(",").map(Number), message);
      // The same person moves again, or only bots move now: the shown seat stays (its own view).
      if (next.length === 0 || next.includes(current)) return;
      // The table goes away before anything of the next seat is asked for.
      setShown(null);
      setCover(next[0]);
      // The names may have changed meanwhile (public facts only).
      setSummary((known) => (known ? { ...known, seats: message.seats } : known));
    },
    [seatsKey],
  );

  if (error) {
    return (
      <section class="panel narrow">
        <h1>This table cannot be shown</h1>
        <p role="alert" class="error">
          {error}
        </p>
        <Links links={[TO_THE_LOBBY]} />
      </section>
    );
  }
  if (summary === null) {
    return (
      <p class="panel" role="status">
        Loading the table…
      </p>
    );
  }
  if (seats.length === 0) {
    return (
      <section class="panel narrow">
        <h1>{summary.title}: no seat on this device</h1>
        <p>This device holds the token of no seat of this table, so it cannot play it here.</p>
        <Links links={[[tablePath(table, null), "Watch the table"], TO_THE_LOBBY]} />
      </section>
    );
  }
  if (shown === null) {
    const next = cover ?? seats[0];
    return (
      <HandoverCover
        caption={`${summary.title} · hot seat`}
        to={seatLabel(summary, next)}
        seat={next}
        onReady={() => {
          setCover(null);
          setShown(next);
        }}
      />
    );
  }
  return (
    <LiveTable
      key={shown}
      table={table}
      seat={shown}
      token={savedToken(table, shown)}
      hotseat={{ seats }}
      onMessage={onMessage}
    />
  );
}
