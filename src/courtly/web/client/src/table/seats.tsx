// The seats of a table: the list beside the board (who sits where, whose move it is, the clocks,
// each seat's last move), joining a seat through its share link, and taking a seat back from
// the bot that played it meanwhile.
import { useEffect, useMemo, useState } from "preact/hooks";
import {
  api,
  ApiError,
  saveName,
  savedName,
  saveToken,
  type LogEvent,
  type SeatMessage,
  type TableSummary,
} from "../api";
import type { SeatNamer } from "../cards";
import { tablePath } from "../router";
import { useAccount } from "../account";
import { counted } from "../boards/parts";
import { ChosenDeal } from "../shared/deal";
import { Links, TO_THE_LOBBY } from "../shared/links";
import { EventText } from "../shared/log";
import { NameField } from "../shared/name-field";
import { StoryText, type StoryLine } from "../shared/story";

/** A seat's page without the seat's token: the form that joins it, or why it cannot. */
export function JoinSeat({
  table,
  seat,
  onJoined,
}: {
  table: string;
  seat: number;
  onJoined: () => void;
}) {
  const [summary, setSummary] = useState<TableSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  // No such table (a mistyped or an old link): nothing to join, and nothing to watch either.
  const [missing, setMissing] = useState(false);
  const [name, setName] = useState(savedName);
  const [busy, setBusy] = useState(false);
  // Signed in, the seat is the person's, under their account's name.
  const account = useAccount();
  useEffect(() => {
    api.table(table).then(setSummary, (e: ApiError) => {
      setError(e.message);
      setMissing(e.status === 404);
    });
  }, [table]);

  const join = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const joined = await api.join(table, seat, name.trim());
      saveName(name.trim());
      saveToken(table, seat, joined.token);
      onJoined();
    } catch (e) {
      setError((e as ApiError).message);
      api.table(table).then(setSummary, () => undefined);
    } finally {
      setBusy(false);
    }
  };

  const free = summary?.free_seats.includes(seat) ?? false;
  const taken = summary ? summary.seats.filter((s) => s.taken).length : 0;
  const title = summary?.seats[seat]?.title ?? "";
  return (
    <section class="panel narrow" aria-labelledby="join-title">
      <h1 id="join-title">
        {missing ? "No such table" : `${summary ? summary.title : "A table"}: seat p${seat}`}
      </h1>
      {summary?.rated && (
        <p class="rated-note" data-testid="rated-note">
          A rated game: its result moves the players' ratings. Its seats are for people signed in,
          one seat each.
        </p>
      )}
      {summary && seat >= summary.players && (
        <p role="alert">
          This table has no seat p{seat}: its seats are p0 to p{summary.players - 1}.
        </p>
      )}
      {summary && !free && seat < summary.players && !error && (
        <p role="alert">
          This seat is taken, and this browser holds no token for it. You can watch the game.
        </p>
      )}
      {summary && free && (
        <form onSubmit={join}>
          <p>
            You are invited to play seat p{seat}
            {title && `, the ${title}`} ({summary.players} players, {counted(taken, "seat")} taken).
          </p>
          {summary.variant.length > 0 && (
            <p class="table-variant-note" data-testid="table-variant">
              Played with a variant of the rules: {summary.variant.join("; ")}.
            </p>
          )}
          <ChosenDeal deal={summary.deal} />
          {account ? (
            <p data-testid="join-as">You join as {account.name}: the seat is yours on every device.</p>
          ) : (
            <NameField id="join-name" name={name} onName={setName} />
          )}
          <button type="submit" class="primary" disabled={busy}>
            Join seat p{seat}
          </button>
        </form>
      )}
      {error && <p role="alert" class="error">{error}</p>}
      {/* Watching is offered once the table is known to exist (never for a missing one). */}
      <Links links={summary ? [[tablePath(table, null), "Watch this table"], TO_THE_LOBBY] : [TO_THE_LOBBY]} />
    </section>
  );
}

/** A seat that a bot plays while its person was away: the button that takes it back. */
export function Reclaim({ message, seat, token }: { message: SeatMessage; seat: number | null; token: string | null }) {
  const [error, setError] = useState<string | null>(null);
  if (seat === null || token === null || message.status !== "playing") return null;
  if (!message.seats[seat]?.bot_control) return null;
  const reclaim = async () => {
    try {
      await api.reclaim(message.table, seat, token);
      setError(null);
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  return (
    <div class="panel warning">
      <p>A bot plays your seat while you were away.</p>
      <button type="button" class="primary" onClick={() => void reclaim()}>
        Take my seat back
      </button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A clock's time: "4:05", "1:02:03", "2d 3h". */
function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(whole / 86400);
  const hours = Math.floor((whole % 86400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = whole % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}:${two(minutes)}:${two(secs)}`;
  return `${minutes}:${two(secs)}`;
}

/** A seat's last move as this page's seat was told it: the first line of the story about the
 * seat's last event, or its raw event (``"?"`` when hidden) where the story says nothing of it. */
interface LastOfSeat {
  line: string | null;
  raw: string;
}

function lastMoves(log: LogEvent[], story: StoryLine[], players: number): (LastOfSeat | null)[] {
  const last: (LastOfSeat | null)[] = Array.from({ length: players }, () => null);
  let missing = players;
  for (let index = log.length - 1; index >= 0 && missing > 0; index--) {
    const found = /^p(\d+)$/.exec(log[index][0]);
    if (!found) continue;
    const who = Number(found[1]);
    if (who < players && last[who] === null) {
      const told = story.find(([event]) => event === index);
      last[who] = { line: told ? told[1].split("\n")[0] : null, raw: log[index][1] };
      missing -= 1;
    }
  }
  return last;
}

/** The seats beside the board: who sits where, who is to move, the clocks, the last moves. */
export function Seats({
  message,
  seat,
  elapsed,
  seatName,
  log,
  story,
}: {
  message: SeatMessage;
  seat: number | null;
  elapsed: number;
  seatName: SeatNamer;
  log: LogEvent[];
  story: StoryLine[];
}) {
  const last = useMemo(() => lastMoves(log, story, message.players), [log, story, message.players]);
  return (
    <section class="panel" aria-labelledby="seats-heading">
      <h2 id="seats-heading">Seats</h2>
      <ul class="seats">
        {message.seats.map((s) => {
          const toMove = message.status === "playing" && message.to_move.includes(s.seat);
          const clock = s.clock === null ? null : s.clock - (s.clock_running ? elapsed : 0);
          return (
            <li key={s.seat} class={toMove ? "seat to-move" : "seat"} data-seat={s.seat}>
              <span class="seat-name">
                {seatName(s.seat)}
                {s.seat === seat && <span class="badge">you</span>}
              </span>
              {s.title && <span class="seat-title">{s.title}</span>}
              <span class="seat-facts">
                {s.kind === "bot" ? "bot" : s.bot_control ? "person, played by a bot now" : s.taken ? "person" : "free seat"}
                {toMove && <span class="badge badge-turn">to move</span>}
              </span>
              {clock !== null && (
                <span class={s.clock_running ? "clock running" : "clock"} aria-label={`clock ${formatSeconds(clock)}`}>
                  {formatSeconds(clock)}
                </span>
              )}
              {last[s.seat] && (
                <span class="seat-last" key={`${last[s.seat]!.line ?? last[s.seat]!.raw}`} data-testid="last-move">
                  <span class="seat-last-label">last move:</span>{" "}
                  {last[s.seat]!.line !== null ? (
                    <StoryText text={last[s.seat]!.line!} seatName={seatName} />
                  ) : (
                    <EventText what={last[s.seat]!.raw} seatName={seatName} />
                  )}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
