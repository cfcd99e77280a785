// The finished offline games of this browser, kept in IndexedDB (through `idb`): each game's
// record as `courtly replay` reads it, with what a list of them shows.
import { openDB, type DBSchema } from "idb";

export interface KeptGame {
  /** The offline table's id. */
  id: string;
  game: string;
  players: number;
  finishedAt: number;
  /** The record (courtly.core.records.MatchRecord) as JSON text, never parsed here: a
   * JavaScript number would round its 64-bit seed. */
  record: string;
  /** Sent to the signed-in person's profile (the table it is there), or refused (why); absent
   * while not sent yet. Each game is sent once: a refusal is final. */
  upload?: { table: string } | { refused: string };
}

interface Kept extends DBSchema {
  games: { key: string; value: KeptGame; indexes: { finishedAt: number } };
}

const database = () =>
  openDB<Kept>("courtly-offline", 1, {
    upgrade(db) {
      db.createObjectStore("games", { keyPath: "id" }).createIndex("finishedAt", "finishedAt");
    },
  });

const listeners = new Set<() => void>();

/** Call ``listener`` whenever a kept game is added or changed; the returned function stops it. */
export function onKeptChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  for (const listener of listeners) listener();
}

/** Keep a finished game (kept once: the same table again changes nothing). */
export async function keepGame(game: KeptGame): Promise<void> {
  const db = await database();
  await db.put("games", game);
  changed();
}

/** Note what became of a kept game's upload. */
export async function markUpload(id: string, upload: NonNullable<KeptGame["upload"]>): Promise<void> {
  const db = await database();
  const game = await db.get("games", id);
  if (!game) return;
  await db.put("games", { ...game, upload });
  changed();
}

/** Every kept game, the latest first. */
export async function keptGames(): Promise<KeptGame[]> {
  const db = await database();
  return (await db.getAllFromIndex("games", "finishedAt")).reverse();
}

/** A kept game as a file `courtly replay` reads: its record on one line (JSON lines). */
export function exportGame(game: KeptGame): void {
  const file = new Blob([game.record + "\n"], { type: "application/x-ndjson" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(file);
  link.download = `courtly-${game.game}-${game.id}.jsonl`;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The kept game ``id`` (undefined: not kept in this browser). */
export async function keptGame(id: string): Promise<KeptGame | undefined> {
  const db = await database();
  return db.get("games", id);
}
