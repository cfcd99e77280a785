// The service worker (vite-plugin-pwa's Workbox, precaching the whole build with Pyodide and the
// engine), registered from every page of the app, the lobby included: a person who opened Courtly
// once can start it and play with the network off, without having thought of opening Play offline
// first. A new version is offered and applied only when the person says so, never in the middle
// of their game.
import { useEffect, useState } from "preact/hooks";
import { registerSW } from "virtual:pwa-register";

/** Set in local storage, the app registers no service worker: for a browser test that needs no
 * offline copy (the precache is ~7 MB compressed), never for a person. */
export const NO_SERVICE_WORKER = "courtly-no-service-worker";

let asked = false;
let apply: ((reload?: boolean) => Promise<void>) | null = null;
const waiting = new Set<() => void>();

/** Register the service worker, once for the page's life. */
export function installOffline(): void {
  if (asked || !("serviceWorker" in navigator)) return;
  asked = true;
  if (window.localStorage.getItem(NO_SERVICE_WORKER) !== null) return;
  apply = registerSW({
    onNeedRefresh: () => {
      for (const show of waiting) show();
    },
  });
}

/** "A new version is ready", with the button that applies it (nothing until one is). */
export function UpdateOffer() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const show = () => setReady(true);
    waiting.add(show);
    return () => {
      waiting.delete(show);
    };
  }, []);
  if (!ready || !apply) return null;
  const update = apply;
  return (
    <p class="offline-update" role="status">
      A new version of Courtly is ready.{" "}
      <button type="button" onClick={() => void update(true)}>
        Update now
      </button>{" "}
      <span class="muted">(or at your next visit: the game you play is not interrupted)</span>
    </p>
  );
}
