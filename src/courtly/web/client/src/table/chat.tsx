// The table's chat: the players' channel, and the spectators' (a spectator reads it always, a seat
// when it chooses to); a line said as the seat (its token) or, by a spectator, signed in. Lines are
// text, never HTML: Preact writes them as text nodes. A person muted here is muted in this browser
// on every table (a guest's seat: on this table only); an administrator may hide a line.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { useAccount } from "../account";
import { api, ApiError, type ChatChannel, type ChatLine } from "../api";
import type { SeatNamer } from "../cards";
import { loadMuted, muteKey, saveMuted } from "../shared/mutes";
import { clock } from "../shared/chat-log";

const MAX_LINE = 500;
export function ChatPanel({
  table,
  seat,
  token,
  lines,
  closed,
  readSpectators,
  seatName,
}: {
  table: string;
  seat: number | null;
  token: string | null;
  lines: ChatLine[];
  closed: string | null;
  readSpectators: (on: boolean) => void;
  seatName: SeatNamer;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [muted, setMuted] = useState(loadMuted);
  const [reading, setReading] = useState(seat === null);
  const account = useAccount() ?? null;
  const list = useRef<HTMLOListElement>(null);
  const channel: ChatChannel = seat === null ? "spectators" : "players";

  const accountId = account?.id;
  useEffect(() => {
    if (!accountId) return;
    // Signed in: the mutes kept with the account join this browser's.
    api.muted().then(
      (kept) => {
        const next = new Set([...loadMuted(), ...kept.muted]);
        saveMuted(next);
        setMuted(next);
      },
      () => undefined,
    );
  }, [accountId]);
  useEffect(() => {
    if (seat === null) readSpectators(true);
  }, [seat, readSpectators]);

  const shown = useMemo(
    () => lines.filter((line) => (line.channel === "players" || reading) && !muted.has(muteKey(table, line.sender))),
    [lines, reading, muted, table],
  );
  const hiddenByMute = lines.filter((l) => (l.channel === "players" || reading) && muted.has(muteKey(table, l.sender))).length;
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [shown.length]);

  const keep = (next: Set<string>) => {
    saveMuted(next);
    setMuted(next);
    // Signed in: kept with the account too (the newest thousand, the server's most).
    if (account) api.setMuted([...next].slice(-1000)).catch(() => undefined);
  };
  const mute = (sender: string) => keep(new Set([...muted, muteKey(table, sender)]));
  const unmuteAll = () =>
    keep(new Set([...muted].filter((key) => !lines.some((l) => muteKey(table, l.sender) === key))));
  const canSpeak = closed === null && (seat !== null ? token !== null : account !== null);
  const send = async (event: Event) => {
    event.preventDefault();
    const said = text.trim();
    if (!said || sending) return;
    setSending(true);
    try {
      await api.say(table, channel, said, seat, seat === null ? null : token);
      setText("");
      setError(null);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };
  const hide = async (line: ChatLine) => {
    if (!account) return;
    try {
      await api.hideLine(line.id);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  // One's own lines offer no Mute: a seat's (whoever holds it) and a signed-in spectator's.
  const mine = (line: ChatLine) =>
    line.channel === "players"
      ? seat !== null && line.seat === seat
      : line.seat === null && account?.name !== undefined && line.name === account.name;

  return (
    <section class="panel chat" aria-labelledby="chat-heading" data-testid="chat">
      <h2 id="chat-heading">Chat</h2>
      {seat !== null && (
        <label class="chat-read">
          <input
            type="checkbox"
            checked={reading}
            data-testid="read-spectators"
            onChange={(e) => {
              const on = (e.target as HTMLInputElement).checked;
              setReading(on);
              readSpectators(on);
            }}
          />{" "}
          Read the spectators' chat
        </label>
      )}
      <ol class="chat-lines" ref={list} aria-live="polite" aria-label="Chat lines">
        {shown.map((line) => (
          <li
            key={line.id}
            class={line.channel === "spectators" ? "chat-line from-spectator" : "chat-line"}
            data-chat-line={line.id}
            data-sender={line.sender}
            data-channel={line.channel}
          >
            <span class="chat-name">
              {line.seat === null ? line.name : seatName(line.seat)}
              {line.channel === "spectators" && <span class="muted"> (watching)</span>}
            </span>{" "}
            <time class="chat-time muted" dateTime={new Date(line.at * 1000).toISOString()}>
              {clock(line.at)}
            </time>
            <span class="chat-text">{line.text}</span>
            <span class="chat-actions">
              {!mine(line) && (
                <button type="button" class="link-button" onClick={() => mute(line.sender)} aria-label={`Mute ${line.name}`}>
                  Mute
                </button>
              )}
              {account?.admin && (
                <button type="button" class="link-button" onClick={() => void hide(line)} aria-label={`Hide this line of ${line.name}`}>
                  Hide
                </button>
              )}
            </span>
          </li>
        ))}
        {shown.length === 0 && <li class="muted chat-empty">No messages yet.</li>}
      </ol>
      {hiddenByMute > 0 && (
        <p class="muted chat-muted" data-testid="chat-muted">
          {hiddenByMute} {hiddenByMute === 1 ? "line" : "lines"} from muted people not shown.{" "}
          <button type="button" class="link-button" onClick={unmuteAll}>
            Unmute
          </button>
        </p>
      )}
      {closed !== null ? (
        <p class="muted chat-closed" data-testid="chat-closed">
          {closed}
        </p>
      ) : canSpeak ? (
        <form class="chat-form" onSubmit={send}>
          <label for="chat-text" class="visually-hidden">
            {seat === null ? "A message to the spectators" : "A message to the table"}
          </label>
          <input
            id="chat-text"
            type="text"
            maxLength={MAX_LINE}
            value={text}
            autocomplete="off"
            placeholder={seat === null ? "Talk with the other spectators" : "Talk with the table"}
            onInput={(e) => setText((e.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={sending || text.trim() === ""}>
            Send
          </button>
        </form>
      ) : (
        <p class="muted">Sign in to talk with the other spectators.</p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}
