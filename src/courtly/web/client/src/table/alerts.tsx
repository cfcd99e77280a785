// Hearing when it is your turn, in the page: the tab's title says so; an optional sound (made by
// Web Audio, no file); and, while the page is in the background, a browser notification, once
// the person allowed them from a button (never asked on load). Each choice is kept in this
// browser.
import { useEffect, useRef, useState } from "preact/hooks";

const SOUND_KEY = "courtly.turn-sound";

function savedSound(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

function saveSound(on: boolean): void {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // Storage refused: the choice lasts as long as the page.
  }
}

let audio: AudioContext | null = null;

/** Two short soft notes. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [offset, pitch] of [
      [0, 660],
      [0.16, 880],
    ] as const) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = pitch;
      volume.gain.setValueAtTime(0.0001, start + offset);
      volume.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.25);
      tone.connect(volume).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.3);
    }
  } catch {
    // No Web Audio here: the title and the notification still tell.
  }
}

function notificationsAllowed(): NotificationPermission | "unsupported" {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** Tell the person when their turn comes: ``mine`` turned true (``version``: the position). */
export function useTurnAlerts(mine: boolean, version: number, title: string, sound: boolean): void {
  const told = useRef(-1);
  useEffect(() => {
    document.title = mine ? `(Your move) ${title} · Courtly` : `${title} · Courtly`;
  }, [mine, title]);
  useEffect(() => () => void (document.title = "Courtly table"), []);
  useEffect(() => {
    if (!mine || told.current === version) return;
    const first = told.current === -1;
    told.current = version;
    if (first && !document.hidden) return; // the page was just opened: the person is looking
    if (sound) chime();
    if (document.hidden && notificationsAllowed() === "granted") {
      try {
        const notice = new Notification(`Your move: ${title}`, {
          body: "Courtly: it is your turn at the table.",
          tag: `courtly-turn-${window.location.pathname}`,
        });
        notice.onclick = () => {
          window.focus();
          notice.close();
        };
      } catch {
        // (a browser that only notifies from a service worker)
      }
    }
  }, [mine, version, title, sound]);
}

/** The switches: the sound, and the notifications (their permission asked here, on a click). */
export function TurnAlertSettings({ sound, setSound }: { sound: boolean; setSound: (on: boolean) => void }) {
  const [permission, setPermission] = useState(notificationsAllowed);
  const ask = async () => {
    if (typeof Notification === "undefined") return;
    setPermission(await Notification.requestPermission());
  };
  return (
    <div class="turn-alerts">
      <label>
        <input
          type="checkbox"
          checked={sound}
          data-testid="turn-sound"
          onChange={(e) => {
            const on = (e.target as HTMLInputElement).checked;
            saveSound(on);
            setSound(on);
            if (on) chime();
          }}
        />{" "}
        Sound on my turn
      </label>
      {permission === "default" && (
        <button type="button" class="link-button" onClick={() => void ask()} data-testid="ask-notifications">
          Notify me when it is my turn
        </button>
      )}
      {permission === "granted" && <span class="muted"> · notifications on</span>}
      {permission === "denied" && <span class="muted"> · notifications blocked by the browser</span>}
    </div>
  );
}

export function useTurnSound(): [boolean, (on: boolean) => void] {
  return useState(savedSound);
}
