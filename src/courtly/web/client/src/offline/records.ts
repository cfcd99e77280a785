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

/** Keep a finished game (kept once: the same table again changes nothing). */
export async function keepGame(game: KeptGame): Promise<void> {
  const db = await database();
  await db.put("games", game);
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
