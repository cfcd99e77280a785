// Whom this person muted in the chat: kept in this browser, a person on every table, a guest's seat
// on its table only.

const MUTED_KEY = "courtly.muted";

/** What a mute names: a person on every table, a guest's seat on this table only. */
export function muteKey(table: string, sender: string): string {
  return sender.startsWith("p") ? sender : `${table}/${sender}`;
}

export function loadMuted(): Set<string> {
  try {
    const saved = JSON.parse(localStorage.getItem(MUTED_KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(saved) ? saved.filter((x): x is string => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

export function saveMuted(muted: Set<string>): void {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
  } catch {
    // Storage refused (private mode): muted until the page is closed.
  }
}

