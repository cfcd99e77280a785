// Play now on a game's card: the choices (players, mode, rated, bots after a wait), the live
// count of who waits for what, the wait itself kept by heartbeats, and Leave.
import { useEffect, useRef, useState } from "preact/hooks";
import {
  api,
  ApiError,
  saveToken,
  savedName,
  type GameInfo,
  type PlayNowStatus,
  type PlayNowWaiting,
} from "./api";
import { useAccount } from "./account";
import { navigate, tablePath } from "./router";

const COUNTS_MS = 3000;
const BOTS_AFTER = [0, 5, 15, 30, 60, 120];

/** The counts of who waits for what, refreshed every few seconds. */
export function useWaitingCounts(): PlayNowWaiting[] {
  const [counts, setCounts] = useState<PlayNowWaiting[]>([]);
  useEffect(() => {
    let stopped = false;
    const load = () =>
      api.playNowWaiting().then(
        (found) => !stopped && setCounts(found),
        () => undefined, // the next round tries again
      );
    void load();
    const timer = window.setInterval(load, COUNTS_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, []);
  return counts;
}

export interface Waiting {
  game: string;
  ticket: string;
  status: PlayNowStatus;
  heartbeat: number;
}

function describe(w: { players: number; mode: string; rated: boolean }): string {
  const players = w.players === 0 ? "any count" : `${w.players} players`;
  return `${players}, ${w.mode}, ${w.rated ? "rated" : "casual"}`;
}

/** A game's Play now: its button and choices, or the wait under way. */
export function PlayNow({
  game,
  counts,
  waiting,
  setWaiting,
}: {
  game: GameInfo;
  counts: PlayNowWaiting[];
  waiting: Waiting | null;
  setWaiting: (w: Waiting | null) => void;
}) {
  const account = useAccount();
  const [open, setOpen] = useState(false);
  const [players, setPlayers] = useState(0);
  const [mode, setMode] = useState<"realtime" | "turn-based">("realtime");
  const [rated, setRated] = useState(false);
  const [botsAfter, setBotsAfter] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mine = waiting !== null && waiting.game === game.id ? waiting : null;
  const here = counts.filter((c) => c.game === game.id);
  const total = here.reduce((sum, c) => sum + c.waiting, 0);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      if (waiting) await api.playNowLeave(waiting.ticket).catch(() => undefined);
      const placed = await api.playNow({
        game: game.id,
        players,
        mode,
        rated: rated && !!account,
        bots_after: botsAfter > 0 ? botsAfter : null,
        name: savedName().trim().slice(0, 64),
      });
      setWaiting({ game: game.id, ticket: placed.ticket, status: placed, heartbeat: placed.heartbeat });
      setOpen(false);
    } catch (e) {
      setError((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  const leave = async () => {
    if (!mine) return;
    setWaiting(null);
    await api.playNowLeave(mine.ticket).catch(() => undefined);
  };

  return (
    <div class="play-now" data-testid={`play-now-${game.id}`}>
      <p class="muted play-now-count" aria-live="polite">
        {total === 0
          ? "Nobody waits to play now."
          : `${total} waiting: ` + here.map((c) => `${c.waiting} for ${describe(c)}`).join("; ")}
      </p>
      {mine ? (
        <p class="play-now-waiting" role="status">
          Waiting for a table ({describe(mine.status)}): {Math.round(mine.status.waited)} s{" "}
          <button type="button" onClick={() => void leave()} aria-label={`Leave Play now of ${game.title}`}>
            Leave
          </button>
        </p>
      ) : open ? (
        <fieldset class="play-now-choices">
          <legend>Play {game.title} now</legend>
          <label>
            Players{" "}
            <select value={players} onChange={(e) => setPlayers(Number(e.currentTarget.value))}>
              <option value={0}>Any</option>
              {game.players.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <label>
            Mode{" "}
            <select
              value={mode}
              onChange={(e) => setMode(e.currentTarget.value === "turn-based" ? "turn-based" : "realtime")}
            >
              <option value="realtime">Realtime (5 min + 5 s)</option>
              <option value="turn-based">Turn-based (a day a move)</option>
            </select>
          </label>
          <label class="check" title={account ? "" : "Sign in to play rated tables"}>
            <input
              type="checkbox"
              checked={rated && !!account}
              disabled={!account}
              onChange={(e) => setRated(e.currentTarget.checked)}
            />{" "}
            Rated{account ? "" : " (sign in)"}
          </label>
          <label>
            Fill with bots after{" "}
            <select value={botsAfter} onChange={(e) => setBotsAfter(Number(e.currentTarget.value))}>
              {BOTS_AFTER.map((s) => (
                <option key={s} value={s}>
                  {s === 0 ? "never" : `${s} s`}
                </option>
              ))}
            </select>
          </label>
          <span class="table-links">
            <button type="button" class="primary" onClick={() => void start()} disabled={busy}>
              Find a table
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </span>
        </fieldset>
      ) : (
        <button type="button" class="primary" onClick={() => setOpen(true)} aria-label={`Play ${game.title} now`}>
          Play now
        </button>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The wait under way: heartbeats keep the place; once seated, the table's page opens. */
export function usePlayNowWait(): [Waiting | null, (w: Waiting | null) => void] {
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const current = useRef<Waiting | null>(null);
  current.current = waiting;
  useEffect(() => {
    if (!waiting) return;
    const seat = (status: PlayNowStatus) => {
      if (status.state === "seated" && status.table && status.seat !== null) {
        saveToken(status.table, status.seat, waiting.ticket);
        setWaiting(null);
        navigate(tablePath(status.table, status.seat));
        return true;
      }
      return false;
    };
    if (seat(waiting.status)) return;
    const timer = window.setInterval(() => {
      api.playNowWait(waiting.ticket).then(
        (status) => {
          if (current.current?.ticket !== waiting.ticket) return;
          if (seat(status)) return;
          if (status.state === "gone") setWaiting(null);
          else setWaiting({ ...waiting, status });
        },
        (e: ApiError) => {
          if (e.status === 404 && current.current?.ticket === waiting.ticket) setWaiting(null);
        },
      );
    }, Math.min(1000, waiting.heartbeat * 1000));
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting?.ticket]);
  return [waiting, setWaiting];
}
