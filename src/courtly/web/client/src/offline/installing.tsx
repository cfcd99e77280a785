// The service worker (vite-plugin-pwa's Workbox, precaching the whole build with Pyodide and the
// engine), registered once Play offline is opened, so that the app starts and plays offline
// after that visit. A new version is offered and applied only when the person says so, never in
// the middle of their game.
import { useEffect, useState } from "preact/hooks";
import { registerSW } from "virtual:pwa-register";

export function UpdateOffer() {
  const [update, setUpdate] = useState<((reload?: boolean) => Promise<void>) | null>(null);
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const apply = registerSW({
      onNeedRefresh: () => setUpdate(() => apply),
    });
  }, []);
  if (!update) return null;
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
