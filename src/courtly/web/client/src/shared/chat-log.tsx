// A finished table's chat, read-only, beside its replay: the players' lines, and the spectators'
// on request; the people muted in this browser left out.
import { useEffect, useState } from "preact/hooks";
import { api, type ChatLine } from "../api";
import type { SeatNamer } from "../cards";
import { loadMuted, muteKey } from "./mutes";

export function clock(at: number): string {
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export function ChatLog({ table, seatName }: { table: string; seatName: SeatNamer }) {
  const [players, setPlayers] = useState<ChatLine[]>([]);
  const [spectators, setSpectators] = useState<ChatLine[]>([]);
  const [reading, setReading] = useState(false);
  useEffect(() => {
    api.chat(table, "players").then((h) => setPlayers(h.lines), () => undefined);
    api.chat(table, "spectators").then((h) => setSpectators(h.lines), () => undefined);
  }, [table]);
  const muted = loadMuted();
  const lines = (reading ? [...players, ...spectators] : players)
    .filter((line) => !muted.has(muteKey(table, line.sender)))
    .sort((a, b) => a.id - b.id);
  return (
    <section class="panel chat" aria-labelledby="chat-log-heading" data-testid="chat-log">
      <h2 id="chat-log-heading">Chat</h2>
      {spectators.length > 0 && (
        <label class="chat-read">
          <input type="checkbox" checked={reading} onChange={(e) => setReading((e.target as HTMLInputElement).checked)} />{" "}
          Show the spectators' chat
        </label>
      )}
      <ol class="chat-lines" aria-label="Chat lines">
        {lines.map((line) => (
          <li key={line.id} class={line.channel === "spectators" ? "chat-line from-spectator" : "chat-line"} data-chat-line={line.id}>
            <span class="chat-name">{line.seat === null ? line.name : seatName(line.seat)}</span>{" "}
            <time class="chat-time muted" dateTime={new Date(line.at * 1000).toISOString()}>
              {clock(line.at)}
            </time>
            <span class="chat-text">{line.text}</span>
          </li>
        ))}
        {lines.length === 0 && <li class="muted chat-empty">Nobody said anything at this table.</li>}
      </ol>
    </section>
  );
}
