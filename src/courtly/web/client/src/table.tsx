// A table: the live view of a seat (with its token) or of a spectator, over the WebSocket.
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import {
  api,
  ApiError,
  saveName,
  savedName,
  savedToken,
  saveToken,
  type Hint,
  type LegalAction,
  type LogEvent,
  type SeatMessage,
  type SeatPublic,
  type TableSummary,
} from "./api";
import { RichText, type SeatNamer } from "./cards";
import { makePicker, type Picker } from "./boards/board";
import { Board } from "./boards";
import {
  absolute,
  hotseatPath,
  navigate,
  onLinkClick,
  replayPath,
  reviewPath,
  tablePath,
} from "./router";
import { AnimationSwitch } from "./motion";
import { RulesPanel } from "./rules";
import "./around.css";

/** A table played on one device by several people (hot seat): the seats whose tokens it holds. */
export interface HotSeat {
  seats: number[];
}

export function TablePage({ table, seat }: { table: string; seat: number | null }) {
  // A seat's page needs the seat's token: joined here through a share link, or held already.
  // Read at every render (it is cheap): right at once after a join or a move to another table.
  const [, setJoined] = useState(0);
  const token = seat === null ? null : savedToken(table, seat);
  if (seat !== null && token === null) {
    return <JoinSeat table={table} seat={seat} onJoined={() => setJoined((n) => n + 1)} />;
  }
  return <LiveTable key={`${table}/${seat}`} table={table} seat={seat} token={token} />;
}

function JoinSeat({
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
  const [name, setName] = useState(savedName);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.table(table).then(setSummary, (e: ApiError) => setError(e.message));
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

  const spectate = tablePath(table, null);
  const free = summary?.free_seats.includes(seat) ?? false;
  return (
    <section class="panel narrow" aria-labelledby="join-title">
      <h1 id="join-title">{summary ? summary.title : "A table"}: seat p{seat}</h1>
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
            You are invited to play seat p{seat} ({summary.players} players,{" "}
            {summary.seats.filter((s) => s.taken).length} seats taken).
          </p>
          <div class="field">
            <label for="join-name">Your name</label>
            <input
              id="join-name"
              value={name}
              maxLength={64}
              autoComplete="nickname"
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
          </div>
          <button type="submit" class="primary" disabled={busy}>
            Join seat p{seat}
          </button>
        </form>
      )}
      {error && <p role="alert" class="error">{error}</p>}
      <p>
        <a href={spectate} onClick={onLinkClick}>
          Watch this table
        </a>{" "}
        ·{" "}
        <a href="/" onClick={onLinkClick}>
          Back to the lobby
        </a>
      </p>
    </section>
  );
}

type Connection = "connecting" | "live" | "lost";

function useLiveView(table: string, seat: number | null, token: string | null) {
  const [message, setMessage] = useState<SeatMessage | null>(null);
  const [log, setLog] = useState<LogEvent[]>([]);
  const [receivedAt, setReceivedAt] = useState(0);
  const [connection, setConnection] = useState<Connection>("connecting");
  const [refused, setRefused] = useState<{ code: number; detail: string } | null>(null);
  const held = useRef<LogEvent[]>([]);

  useEffect(() => {
    held.current = [];
    let socket: WebSocket | null = null;
    let retry: number | undefined;
    let stopped = false;
    let failures = 0;

    const connect = () => {
      setConnection(failures === 0 ? "connecting" : "lost");
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      const url = `${scheme}://${window.location.host}/api/tables/${encodeURIComponent(table)}/ws`;
      const ws = new WebSocket(url);
      socket = ws;
      ws.onopen = () => {
        // The log events held already are not sent again: a reconnection resumes from them.
        ws.send(JSON.stringify({ seat, token, since: held.current.length }));
      };
      ws.onmessage = (event) => {
        const data = JSON.parse(event.data as string) as
          | ({ type: "view" } & SeatMessage)
          | { type: "error"; detail: string };
        if (data.type === "error") {
          setRefused({ code: 0, detail: data.detail });
          return;
        }
        if (data.type !== "view") return; // (a move's answer: this page moves over REST)
        failures = 0;
        setConnection("live");
        const known = held.current.slice(0, data.log_from);
        held.current = known.concat(data.log);
        setLog(held.current);
        setMessage(data);
        setReceivedAt(performance.now());
      };
      ws.onclose = (event) => {
        if (stopped) return;
        if (event.code >= 4000 && event.code < 5000) {
          // Refused for good (no such table, a wrong token): reconnecting would not help.
          setRefused((known) => ({ code: event.code, detail: known?.detail ?? event.reason }));
          return;
        }
        failures += 1;
        setConnection("lost");
        retry = window.setTimeout(connect, Math.min(5000, 500 * 2 ** Math.min(failures, 4)));
      };
    };
    connect();
    return () => {
      stopped = true;
      window.clearTimeout(retry);
      socket?.close();
    };
  }, [table, seat, token]);

  return { message, log, receivedAt, connection, refused };
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setNow(performance.now()), 250);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

export function formatSeconds(seconds: number): string {
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

export function seatNamer(seats: SeatPublic[]): SeatNamer {
  return (index) => {
    const seat = seats[index];
    if (!seat) return `p${index}`;
    const label = `p${index}`;
    const name = seat.name === label ? "" : seat.name; // the server names a nameless seat so
    const who = seat.kind === "bot" ? `${seat.bot ?? seat.name} bot` : name || (seat.taken ? "" : "free");
    return who ? `${label} (${who})` : label;
  };
}

export function LiveTable({
  table,
  seat,
  token,
  hotseat,
  onMessage,
}: {
  table: string;
  seat: number | null;
  token: string | null;
  hotseat?: HotSeat;
  /** Every view received (the hot seat decides from it whom to show next). */
  onMessage?: (message: SeatMessage) => void;
}) {
  const { message, log, receivedAt, connection, refused } = useLiveView(table, seat, token);
  const running = message?.seats.some((s) => s.clock_running) ?? false;
  const now = useNow(running);
  useEffect(() => {
    if (message) onMessage?.(message);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [message]);

  if (refused && !message) {
    return (
      <section class="panel narrow">
        <h1>This table cannot be shown</h1>
        <p role="alert" class="error">
          {refused.detail || "the server refused the connection"}
        </p>
        <p>
          {seat !== null && (
            <>
              <a href={tablePath(table, null)} onClick={onLinkClick}>
                Watch it instead
              </a>{" "}
              ·{" "}
            </>
          )}
          <a href="/" onClick={onLinkClick}>
            Back to the lobby
          </a>
        </p>
      </section>
    );
  }
  if (!message) {
    return (
      <p class="panel" role="status">
        {connection === "lost" ? "Cannot reach the server; trying again…" : "Connecting to the table…"}
      </p>
    );
  }
  const elapsed = running ? (now - receivedAt) / 1000 : 0;
  return (
    <TableView
      message={message}
      log={log}
      seat={seat}
      token={token}
      elapsed={elapsed}
      connection={connection}
      refused={refused?.detail ?? null}
      hotseat={hotseat}
    />
  );
}

function TableView({
  message,
  log,
  seat,
  token,
  elapsed,
  connection,
  refused,
  hotseat,
}: {
  message: SeatMessage;
  log: LogEvent[];
  seat: number | null;
  token: string | null;
  elapsed: number;
  connection: Connection;
  refused: string | null;
  hotseat?: HotSeat;
}) {
  const seatName = useMemo(() => seatNamer(message.seats), [message.seats]);
  const mine = seat !== null && message.to_move.includes(seat);
  const title = useGameTitle(message.game);
  // The card (or target) clicked on the board: forgotten with every new view.
  const [picked, setPicked] = useState<{ token: string; version: number } | null>(null);
  const pickedNow = picked !== null && picked.version === message.version ? picked.token : null;
  const picker = useMemo(
    () =>
      makePicker(mine && message.status === "playing" ? message.legal_actions : [], pickedNow, (token) =>
        setPicked(token === null ? null : { token, version: message.version }),
      ),
    [mine, message.status, message.legal_actions, message.version, pickedNow],
  );
  return (
    <div
      class="table-page"
      data-version={message.version}
      data-status={message.status}
      data-seat={seat ?? "spectator"}
    >
      <h1 class="table-title">
        {title}
        <span class="muted"> · {seat === null ? "watching" : seatName(seat)}</span>
        {hotseat && <span class="hotseat-badge"> · hot seat</span>}
      </h1>
      <div class="table-tools">
        <AnimationSwitch />
      </div>
      {connection === "lost" && (
        <p role="alert" class="warning">
          The connection to the server is lost; reconnecting… (moves are not lost)
        </p>
      )}
      {refused && (
        <p role="alert" class="error">
          {refused}
        </p>
      )}
      <div class="table-grid">
        <div class="table-main">
          <TurnBanner message={message} seat={seat} seatName={seatName} />
          {message.status === "over" && message.result && (
            <Ending message={message} seat={seat} token={token} seatName={seatName} hotseat={hotseat} />
          )}
          {message.status !== "over" && seat !== null && token !== null && (
            <Actions
              key={message.table}
              message={message}
              seat={seat}
              token={token}
              active={mine}
              seatName={seatName}
              picker={picker}
            />
          )}
          <Reclaim message={message} seat={seat} token={token} />
          {message.notices.length > 0 && (
            <ul class="notices" aria-label="Notices">
              {message.notices.map((notice, index) => (
                <li key={index}>{notice.text}</li>
              ))}
            </ul>
          )}
          <section class="panel" aria-labelledby="table-heading">
            <h2 id="table-heading">The table</h2>
            <Board
              game={message.game}
              observation={message.observation as Record<string, unknown>}
              seat={seat}
              players={message.players}
              toMove={message.status === "playing" ? message.to_move : []}
              seatName={seatName}
              picker={picker}
            />
          </section>
        </div>
        <div class="table-side">
          <Seats message={message} seat={seat} elapsed={elapsed} seatName={seatName} log={log} />
          {!hotseat && <Invite message={message} />}
          <Log log={log} seatName={seatName} />
        </div>
      </div>
      <RulesPanel game={message.game} title={title} />
    </div>
  );
}

let knownTitles: Record<string, string> = {};
const titleWatchers = new Set<() => void>();
export function rememberTitles(titles: Record<string, string>): void {
  knownTitles = { ...knownTitles, ...titles };
  titleWatchers.forEach((watcher) => watcher());
}
/** The game's title, drawn again once the catalogue arrives (a page opened by a link draws
 * before it). */
export function useGameTitle(game: string): string {
  const [, redraw] = useState(0);
  useEffect(() => {
    const watcher = () => redraw((n) => n + 1);
    titleWatchers.add(watcher);
    return () => {
      titleWatchers.delete(watcher);
    };
  }, []);
  return gameTitle(game);
}
export function gameTitle(game: string): string {
  return knownTitles[game] ?? game.replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

function TurnBanner({ message, seat, seatName }: { message: SeatMessage; seat: number | null; seatName: SeatNamer }) {
  let text: string;
  let yours = false;
  if (message.status === "open") {
    const free = message.seats.filter((s) => !s.taken).length;
    text = `Waiting for ${free} more ${free === 1 ? "player" : "players"} to join`;
  } else if (message.status === "over") {
    text = "The game is over";
  } else if (seat !== null && message.to_move.includes(seat)) {
    yours = true;
    const others = message.to_move.filter((s) => s !== seat);
    text = others.length ? `Your move (with ${others.map(seatName).join(", ")})` : "Your move";
  } else if (message.to_move.length) {
    text = `Waiting for ${message.to_move.map(seatName).join(", ")}`;
  } else {
    text = "…";
  }
  return (
    <p class={yours ? "turn turn-yours" : "turn"} role="status" aria-live="polite" data-testid="turn">
      <span class="turn-text" key={text}>
        {text}
      </span>
    </p>
  );
}

function Actions({
  message,
  seat,
  token,
  active,
  seatName,
  picker,
}: {
  message: SeatMessage;
  seat: number;
  token: string;
  active: boolean;
  seatName: SeatNamer;
  picker: Picker;
}) {
  // The version a move was sent at: the buttons wait for the view after it (never a second move
  // from a page that has not seen the first one's effect).
  const [sentAt, setSentAt] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const waiting = sentAt !== null && sentAt === message.version;
  // Set at once (state waits for the next render): a double click sends one move.
  const inFlight = useRef<number | null>(null);
  useEffect(() => {
    if (sentAt !== null && sentAt !== message.version) setSentAt(null);
    if (inFlight.current !== null && inFlight.current !== message.version) inFlight.current = null;
  }, [message.version, sentAt]);

  const send = useCallback(
    async (action: LegalAction) => {
      const version = message.version;
      if (inFlight.current === version) return;
      inFlight.current = version;
      setSentAt(version);
      setError(null);
      // A move names its version, so the same request sent again after a network failure is
      // applied once: retrying can neither lose nor repeat it.
      for (let attempt = 0; ; attempt++) {
        try {
          await api.move(message.table, seat, action.id, version, token);
          return;
        } catch (e) {
          const failure = e as ApiError;
          if (failure.status === 0 && attempt < 4) {
            await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
            continue;
          }
          setSentAt(null);
          inFlight.current = null;
          setError(`“${action.text}” was not played: ${failure.message}`);
          return;
        }
      }
    },
    [message.table, message.version, seat, token],
  );

  // A move the game cautions against (it throws the game away) is asked about first; the
  // question is forgotten with the view it was asked at.
  const [asked, setAsked] = useState<{ action: LegalAction; version: number } | null>(null);
  const confirming = asked !== null && asked.version === message.version ? asked.action : null;
  const attempt = (action: LegalAction) => {
    if (waiting) return;
    if (action.caution) setAsked({ action, version: message.version });
    else void send(action);
  };
  const cautionBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The least harmful answer takes the focus (keyboard play lands on it, not on the move).
    if (confirming) cautionBox.current?.querySelector<HTMLButtonElement>(".caution-cancel")?.focus();
  }, [confirming]);

  // Keyboard play: when it becomes this seat's turn and nothing has the focus (the buttons of
  // the last turn are gone), the first move takes it.
  const buttons = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!active) return;
    const focused = document.activeElement;
    if (focused === null || focused === document.body) {
      buttons.current?.querySelector<HTMLButtonElement>("button.action")?.focus();
    }
  }, [active, message.version]);

  // A card picked on the board: its moves, docked at the bottom of the screen, take the focus
  // (the keyboard goes on from there); Escape or Cancel drops the card, and the focus goes back
  // to it.
  const pickedMoves = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (picker.picked !== null) {
      pickedMoves.current?.querySelector<HTMLButtonElement>("button.confirm")?.focus();
    }
  }, [picker.picked]);
  const unpick = () => {
    const card = picker.picked;
    if (card === null) return;
    picker.pick(card);
    window.setTimeout(() => {
      document.querySelector<HTMLButtonElement>(`button[data-pick="${CSS.escape(card)}"]`)?.focus();
    });
  };

  if (!active && !error) return null;
  return (
    <section class="panel actions" aria-labelledby="actions-heading">
      <h2 id="actions-heading">Your moves</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {active && confirming && (
        <div
          class="caution"
          role="alertdialog"
          aria-labelledby="caution-heading"
          aria-describedby="caution-text"
          ref={cautionBox}
        >
          <p id="caution-heading">
            <strong>
              Careful: <RichText text={confirming.text} seatName={seatName} />
            </strong>
          </p>
          <p id="caution-text" data-testid="caution">
            <RichText text={confirming.caution ?? ""} seatName={seatName} />
          </p>
          <div class="caution-buttons">
            <button
              type="button"
              class="action caution-confirm"
              data-action={confirming.text}
              aria-disabled={waiting ? "true" : undefined}
              onClick={() => {
                if (!waiting) {
                  setAsked(null);
                  void send(confirming);
                }
              }}
            >
              Play it anyway
            </button>
            <button type="button" class="caution-cancel" onClick={() => setAsked(null)}>
              Choose another move
            </button>
          </div>
        </div>
      )}
      {active && picker.picked !== null && (
        <div
          class="picked-moves"
          role="group"
          aria-label={`Moves with ${picker.picked}`}
          ref={pickedMoves}
          onKeyDown={(event) => {
            if (event.key === "Escape") unpick();
          }}
        >
          <p>
            Picked <RichText text={picker.picked} seatName={seatName} />: play
          </p>
          {picker.actionsWith(picker.picked).map((action) => (
            <button
              key={`picked-${action.id}`}
              type="button"
              class="action confirm primary"
              data-action={action.text}
              aria-disabled={waiting ? "true" : undefined}
              title={action.caution}
              onClick={() => attempt(action)}
            >
              <RichText text={action.text} seatName={seatName} />
            </button>
          ))}
          <button type="button" onClick={unpick}>
            Cancel
          </button>
        </div>
      )}
      {active && (
        <div class="action-buttons" ref={buttons}>
          {message.legal_actions.map((action) => (
            // aria-disabled, not disabled, while a move is on its way: the button keeps the
            // keyboard's focus (a disabled one would drop it).
            <button
              key={`${action.id}-${action.text}`}
              type="button"
              class="action"
              data-action={action.text}
              aria-disabled={waiting ? "true" : undefined}
              title={action.caution}
              onClick={() => attempt(action)}
            >
              <RichText text={action.text} seatName={seatName} />
            </button>
          ))}
        </div>
      )}
      {waiting && <p class="muted">Sending…</p>}
      {active && message.hints && message.status === "playing" && (
        <HintBox message={message} seat={seat} token={token} seatName={seatName} play={attempt} />
      )}
    </section>
  );
}

/** The Hint button and its answer: every move's estimated win chance for this seat, searched
 * by the server from this seat's view alone; dropped as soon as the view changes. */
function HintBox({
  message,
  seat,
  token,
  seatName,
  play,
}: {
  message: SeatMessage;
  seat: number;
  token: string;
  seatName: SeatNamer;
  play: (action: LegalAction) => void;
}) {
  const [hint, setHint] = useState<Hint | null>(null);
  const [asking, setAsking] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const version = message.version;
  const shown = hint !== null && hint.version === version ? hint : null;
  const thinking = asking === version;
  useEffect(() => setError(null), [version]);
  const ask = () => {
    if (thinking) return;
    setAsking(version);
    setError(null);
    api.hint(message.table, seat, version, token).then(
      (answer) => {
        setHint(answer);
        setAsking(null);
      },
      (e: ApiError) => {
        setAsking(null);
        // A move made meanwhile: the question is moot, not an error worth showing.
        if (e.status !== 409) setError(`No hint: ${e.message}`);
      },
    );
  };
  const byId = new Map(message.legal_actions.map((action) => [action.id, action]));
  return (
    <div class="hint-box">
      {!shown && (
        <button type="button" class="hint-button" onClick={ask} aria-busy={thinking} disabled={thinking}>
          {thinking ? "Thinking…" : "Hint"}
        </button>
      )}
      {!shown && !thinking && (
        <span class="muted"> the best moves by their chance to win, from what you can see</span>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {shown && (
        <ol class="hint-list" aria-label="Hint: the best moves, with your estimated chance to win">
          {shown.actions.slice(0, HINT_SHOWN).map((estimate) => {
            const action = byId.get(estimate.id);
            return (
              <li key={estimate.id}>
                <button
                  type="button"
                  class="hint-move"
                  data-action={estimate.action}
                  disabled={action === undefined}
                  onClick={() => action && play(action)}
                >
                  <RichText text={estimate.action} seatName={seatName} />
                </button>{" "}
                <span class="hint-chance">
                  {percent(estimate.mean)}{" "}
                  <span class="muted">
                    ({percent(estimate.low)}–{percent(estimate.high)})
                  </span>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {shown && shown.actions.length > HINT_SHOWN && (
        <p class="muted">and {shown.actions.length - HINT_SHOWN} more moves, each less likely to win.</p>
      )}
    </div>
  );
}

const HINT_SHOWN = 5;

function percent(value: number): string {
  return `${Math.round(100 * value)}%`;
}

function Reclaim({ message, seat, token }: { message: SeatMessage; seat: number | null; token: string | null }) {
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

function Ending({
  message,
  seat,
  token,
  seatName,
  hotseat,
}: {
  message: SeatMessage;
  seat: number | null;
  token: string | null;
  seatName: SeatNamer;
  hotseat?: HotSeat;
}) {
  const result = message.result!;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  let headline: string;
  if (result.winners.length === 0) headline = "No one wins";
  else if (seat !== null && result.winners.includes(seat) && !hotseat)
    headline = result.winners.length > 1 ? "You share the win" : "You win";
  else headline = `${result.winners.map(seatName).join(" and ")} ${result.winners.length > 1 ? "win" : "wins"}`;

  const rematch = async () => {
    if (seat === null || token === null) return;
    setBusy(true);
    try {
      // Asked again (by another seat, or twice), the server answers with the same new table;
      // the seats keep their tokens there.
      const next = await api.rematch(message.table, seat, token);
      if (hotseat) {
        // Every seat of this device keeps its token at the new table, and plays it here again.
        for (const other of hotseat.seats) {
          const held = savedToken(message.table, other);
          if (held !== null) saveToken(next.id, other, held);
        }
        navigate(hotseatPath(next.id));
        return;
      }
      saveToken(next.id, seat, token);
      navigate(tablePath(next.id, seat));
    } catch (e) {
      setError((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel ending" aria-labelledby="ending-heading">
      <h2 id="ending-heading">{headline}</h2>
      {result.truncated && <p>The game was stopped at its safety cap.</p>}
      <table class="returns">
        <caption class="visually-hidden">Result of each seat</caption>
        <thead>
          <tr>
            <th scope="col">Seat</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {result.returns.map((value, index) => (
            <tr key={index} class={result.winners.includes(index) ? "winner" : ""}>
              <th scope="row">{seatName(index)}</th>
              <td>{result.winners.includes(index) ? `won (${value})` : value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {seat !== null && token !== null ? (
        <button type="button" class="primary" disabled={busy} onClick={() => void rematch()}>
          {message.rematch_id ? "Join the rematch" : "Rematch"}
        </button>
      ) : (
        message.rematch_id && (
          <a href={tablePath(message.rematch_id, null)} onClick={onLinkClick}>
            Watch the rematch
          </a>
        )
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <p>
        Every hidden card is on the table below.{" "}
        <a href={replayPath(message.table)} onClick={onLinkClick}>
          Replay the game step by step
        </a>{" "}
        ·{" "}
        <a href={reviewPath(message.table)} onClick={onLinkClick}>
          Review the game
        </a>{" "}
        ·{" "}
        <a href="/" onClick={onLinkClick}>
          Back to the lobby
        </a>
      </p>
    </section>
  );
}

/** The last event of each seat in ``log`` (as this page's seat saw it: "?" when hidden). */
export function lastMoves(log: LogEvent[], players: number): (string | null)[] {
  const last: (string | null)[] = Array.from({ length: players }, () => null);
  let missing = players;
  for (let index = log.length - 1; index >= 0 && missing > 0; index--) {
    const found = /^p(\d+)$/.exec(log[index][0]);
    if (!found) continue;
    const who = Number(found[1]);
    if (who < players && last[who] === null) {
      last[who] = log[index][1];
      missing -= 1;
    }
  }
  return last;
}

function Seats({
  message,
  seat,
  elapsed,
  seatName,
  log,
}: {
  message: SeatMessage;
  seat: number | null;
  elapsed: number;
  seatName: SeatNamer;
  log: LogEvent[];
}) {
  const last = useMemo(() => lastMoves(log, message.players), [log, message.players]);
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
              <span class="seat-facts">
                {s.kind === "bot" ? "bot" : s.bot_control ? "person, played by a bot now" : s.taken ? "person" : "free seat"}
                {toMove && <span class="badge badge-turn">to move</span>}
              </span>
              {clock !== null && (
                <span class={s.clock_running ? "clock running" : "clock"} aria-label={`clock ${formatSeconds(clock)}`}>
                  {formatSeconds(clock)}
                </span>
              )}
              {last[s.seat] !== null && last[s.seat] !== undefined && (
                <span class="seat-last" key={`${last[s.seat]}`} data-testid="last-move">
                  <span class="seat-last-label">last move:</span>{" "}
                  {last[s.seat] === "?" ? (
                    <span class="muted">(hidden)</span>
                  ) : (
                    <RichText text={last[s.seat]!} seatName={seatName} />
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

function CopyLink({ label, path }: { label: string; path: string }) {
  const url = absolute(path);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <li class="share">
      <span class="share-label">{label}</span>
      <a href={url} class="share-url">
        {url}
      </a>
      <button type="button" onClick={() => void copy()} aria-label={`Copy the link: ${label}`}>
        {copied ? "Copied" : "Copy"}
      </button>
    </li>
  );
}

function Invite({ message }: { message: SeatMessage }) {
  const free = message.seats.filter((s) => s.kind === "person" && !s.taken);
  if (message.status === "over") return null;
  return (
    <section class="panel" aria-labelledby="invite-heading">
      <h2 id="invite-heading">{free.length ? "Invite players" : "Share"}</h2>
      <ul class="shares">
        {free.map((s) => (
          <CopyLink key={s.seat} label={`Seat p${s.seat}`} path={tablePath(message.table, s.seat)} />
        ))}
        <CopyLink label="Spectators" path={tablePath(message.table, null)} />
      </ul>
    </section>
  );
}

export function Log({ log, seatName }: { log: LogEvent[]; seatName: SeatNamer }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [log.length]);
  return (
    <section class="panel" aria-labelledby="log-heading">
      <h2 id="log-heading">Log</h2>
      <ol class="log" ref={list} tabIndex={0} aria-label="Game log">
        {log.map(([who, what], index) => {
          const seatMatch = /^p(\d+)$/.exec(who);
          const actor = seatMatch ? seatName(Number(seatMatch[1])) : who === "chance" ? "deal" : who;
          return (
            <li key={index}>
              <span class="log-who">{actor}</span>{" "}
              {what === "?" ? <span class="muted">(hidden)</span> : <RichText text={what} seatName={seatName} />}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
