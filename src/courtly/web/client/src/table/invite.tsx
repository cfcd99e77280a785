// The links that bring people to a table: one for each free seat, and one for spectators, each
// with a button that copies it.
import { useState } from "preact/hooks";
import type { SeatMessage } from "../api";
import { absolute, tablePath } from "../router";

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

export function Invite({ message }: { message: SeatMessage }) {
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
