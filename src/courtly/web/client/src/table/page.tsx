// A table's page: the live view of a seat (with its token) or of a spectator, over the
// WebSocket. The board in the middle; around it the turn, this seat's moves, the end of the game,
// the seats, the share links and the log; the game's rules below.
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, BY_ACCOUNT, savedToken, type ChatLine, type LogEvent, type SeatMessage } from "../api";
import { useAccount } from "../account";
import type { SeatNamer } from "../cards";
import { makePicker } from "../boards/board";
import { Board } from "../boards";
import { navigate, tablePath } from "../router";
import { AnimationSwitch } from "../motion";
import { RulesPanel } from "../rules";
import { ChosenDeal, DealPanel } from "../shared/deal";
import { Links, TO_THE_LOBBY } from "../shared/links";
import { seatNamer } from "../shared/seats";
import { lastMove, seatsNamed, StoryPanel, type StoryLine } from "../shared/story";
import { useGameTitle } from "../shared/titles";
import { TurnAlertSettings, useTurnAlerts, useTurnSound } from "./alerts";
import { ChatPanel } from "./chat";
import { CoachPanel } from "./coach";
import { Ending } from "./ending";
import { Invite } from "./invite";
import { InviteByName } from "./invite-by-name";
import { useLiveView, useNow, type Connection } from "./live";
import { Moves } from "./moves";
import { useTransport } from "./transport";
import { JoinSeat, Reclaim, Seats } from "./seats";
import "../around.css";

/** A table played on one device by several people (hot seat): the seats whose tokens it holds. */
export interface HotSeat {
  seats: number[];
}

export function TablePage({ table, seat }: { table: string; seat: number | null }) {
  // A seat's page needs the seat's token: joined here through a share link, or held already.
  // Read at every render (it is cheap): right at once after a join or a move to another table.
  const [joined, setJoined] = useState(0);
  const held = seat === null ? null : savedToken(table, seat);
  // Signed in, the seats that are the person's, taken on any device: played by the cookie.
  const account = useAccount();
  const [mine, setMine] = useState<{ key: string; seats: number[] } | null>(null);
  const key = `${table}/${account?.id ?? ""}/${joined}`;
  const needMine = account !== null && account !== undefined && held === null;
  useEffect(() => {
    if (!needMine) return;
    api.mySeats(table).then(
      (found) => setMine({ key, seats: found.seats }),
      () => setMine({ key, seats: [] }),
    );
  }, [needMine, key]);
  const mineNow = mine !== null && mine.key === key ? mine.seats : null;
  useEffect(() => {
    // A spectator's address of a table where the person has a seat: their seat's page.
    if (seat === null && mineNow !== null && mineNow.length > 0) {
      navigate(tablePath(table, mineNow[0]));
    }
  }, [seat, mineNow, table]);
  if (account === undefined && held === null && seat !== null) return <section class="panel narrow" aria-busy="true" />;
  if (needMine && mineNow === null) return <section class="panel narrow" aria-busy="true" />;
  const token = held ?? (seat !== null && mineNow?.includes(seat) ? BY_ACCOUNT : null);
  if (seat !== null && token === null) {
    return <JoinSeat table={table} seat={seat} onJoined={() => setJoined((n) => n + 1)} />;
  }
  return <LiveTable key={`${table}/${seat}/${token === BY_ACCOUNT}`} table={table} seat={seat} token={token} />;
}

/** A table as one seat (or a spectator) sees it, live: also the hot seat's, one seat at a time. */
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
  const { message, log, story, receivedAt, connection, refused, chat, readSpectators } = useLiveView(
    table,
    seat,
    token,
  );
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
        <Links
          links={
            // (no such table, 4404: nothing to watch either)
            seat !== null && refused.code !== 4404
              ? [[tablePath(table, null), "Watch it instead"], TO_THE_LOBBY]
              : [TO_THE_LOBBY]
          }
        />
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
      story={story}
      seat={seat}
      token={token}
      elapsed={elapsed}
      connection={connection}
      refused={refused?.detail ?? null}
      hotseat={hotseat}
      chat={chat}
      readSpectators={readSpectators}
    />
  );
}

function TableView({
  message,
  log,
  story,
  seat,
  token,
  elapsed,
  connection,
  refused,
  hotseat,
  chat,
  readSpectators,
}: {
  message: SeatMessage;
  log: LogEvent[];
  story: StoryLine[];
  seat: number | null;
  token: string | null;
  elapsed: number;
  connection: Connection;
  refused: string | null;
  hotseat?: HotSeat;
  chat: { lines: ChatLine[]; closed: string | null };
  readSpectators: (on: boolean) => void;
}) {
  const seatName = useMemo(() => seatNamer(message.seats), [message.seats]);
  // A table played in this browser has no chat, invitations or deal to check with a server.
  const online = useTransport().online;
  // A seat moves only once the table plays: while it waits for players its first mover is set
  // already, with no move yet.
  const mine = seat !== null && message.status === "playing" && message.to_move.includes(seat);
  // A tutorial's learner is taught beside the board (nobody else is sent a lesson).
  const learner = message.tutorial && seat !== null && token !== null;
  const title = useGameTitle(message.game);
  // Told when the turn comes (not at a hot seat, whose device is in the players' hands).
  const [sound, setSound] = useTurnSound();
  useTurnAlerts(mine && !hotseat, message.version, title, sound);
  // The last move: its lines in the story, and the seats it named on the board, are marked.
  const last = useMemo(() => lastMove(log), [log]);
  const moment = useMemo(
    () => ({
      open: message.status === "open",
      changed: new Set(message.status === "open" ? [] : seatsNamed(story, last).map((s) => `p${s}`)),
    }),
    [message.status, story, last],
  );
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
        {message.tutorial && <span class="tutorial-badge"> · learning to play</span>}
        {message.rated && <span class="rated-badge"> · rated</span>}
      </h1>
      {message.variant.length > 0 && (
        <p class="table-variant-note muted" data-testid="table-variant">
          Played with a variant of the rules: {message.variant.join("; ")}.
        </p>
      )}
      <div class="table-tools">
        <AnimationSwitch />
        {seat !== null && !hotseat && <TurnAlertSettings sound={sound} setSound={setSound} />}
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
      {!message.tutorial && <ChosenDeal deal={message.deal} />}
      <div class={learner ? "table-grid teaching" : "table-grid"}>
        {learner && seat !== null && token !== null && <CoachPanel message={message} seat={seat} token={token} seatName={seatName} />}
        <div class="table-main">
          <TurnBanner message={message} seat={seat} seatName={seatName} />
          {message.status === "over" && message.result && (
            <Ending message={message} seat={seat} token={token} seatName={seatName} hotseat={hotseat} />
          )}
          {message.status !== "over" && seat !== null && token !== null && (
            <Moves
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
              moment={moment}
            />
          </section>
        </div>
        <div class="table-side">
          <Seats message={message} seat={seat} elapsed={elapsed} seatName={seatName} log={log} story={story} />
          {online && !hotseat && !message.tutorial && (
            <ChatPanel
              table={message.table}
              seat={seat}
              token={token}
              lines={chat.lines}
              closed={chat.closed}
              readSpectators={readSpectators}
              seatName={seatName}
            />
          )}
          {online && !hotseat && !message.tutorial && <Invite message={message} />}
          {online && !hotseat && !message.tutorial && <InviteByName message={message} seat={seat} />}
          {online && !message.tutorial && <DealPanel deal={message.deal} table={message.table} over={message.status === "over"} />}
          <StoryPanel story={story} log={log} seatName={seatName} seats={message.seats} last={last} />
        </div>
      </div>
      <RulesPanel game={message.game} title={title} />
    </div>
  );
}

/** Whose move it is, in words (read out by screen readers as it changes). */
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
