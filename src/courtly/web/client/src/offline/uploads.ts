// The finished offline games of this browser sent to the signed-in person's profile when the
// server can be reached: each once (marked in IndexedDB), a refusal kept and shown, never sent
// again; a network failure leaves the game to the next chance (back online, signed in, a page
// loaded, another game kept).
import { ApiError, people } from "../api";
import { loadAccount } from "../account";
import { keptGames, markUpload } from "./records";

let running: Promise<void> | null = null;
let again = false;

/** Send every kept game not sent yet, if someone is signed in; one run at a time (a call during
 * a run makes it look once more at its end). */
export function uploadKeptGames(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      await uploadOnce();
    } while (again);
  })().finally(() => {
    running = null;
  });
  return running;
}

async function uploadOnce(): Promise<void> {
  if (!navigator.onLine) return;
  const waiting = (await keptGames().catch(() => [])).filter((game) => !game.upload);
  if (waiting.length === 0) return;
  const account = await loadAccount();
  if (!account) return;
  for (const game of waiting.reverse()) {
    try {
      const table = await people.uploadOfflineGame(game.record);
      await markUpload(game.id, { table: table.id });
    } catch (error) {
      const e = error as ApiError;
      if (e.status === 409) {
        // Sent before (from another tab, or the answer was lost): it is on the profile.
        await markUpload(game.id, { table: game.id });
      } else if (e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 429) {
        await markUpload(game.id, { refused: e.message });
      } else {
        // Not reached, signed out meanwhile, too many requests, or the server failed: the
        // games not sent wait for the next chance.
        return;
      }
    }
  }
}

/** Send kept games now, whenever the browser comes back online, and whenever someone signs in. */
export function uploadWhenOnline(): () => void {
  const send = () => void uploadKeptGames();
  send();
  window.addEventListener("online", send);
  return () => window.removeEventListener("online", send);
}
