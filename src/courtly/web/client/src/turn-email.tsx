// The account page's turn e-mails: an address and how long a turn-based turn waits before an
// e-mail says so (once per wait); saved on the server, stopped by any e-mail's link too.
import { useEffect, useState } from "preact/hooks";
import { together, type ApiError, type EmailSettingsInfo } from "./api";

const DELAYS: [number, string][] = [
  [5 * 60, "5 minutes"],
  [30 * 60, "30 minutes"],
  [3600, "1 hour"],
  [4 * 3600, "4 hours"],
  [12 * 3600, "12 hours"],
  [86400, "1 day"],
];

export function TurnEmailSettings() {
  const [settings, setSettings] = useState<EmailSettingsInfo | null>(null);
  const [address, setAddress] = useState("");
  const [after, setAfter] = useState(3600);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    together.email().then(
      (found) => {
        setSettings(found);
        setAddress(found.address);
        setAfter(found.after);
      },
      (e: ApiError) => setError(e.message),
    );
  }, []);
  if (settings === null) return error ? <p role="alert" class="error">{error}</p> : null;
  const delays = DELAYS.some(([seconds]) => seconds === after) ? DELAYS : [...DELAYS, [after, `${Math.round(after / 60)} minutes`] as [number, string]];
  const save = async (event: Event) => {
    event.preventDefault();
    setSaid(null);
    setError(null);
    try {
      const saved = await together.setEmail(address.trim(), after);
      setSettings(saved);
      setSaid(saved.address ? `Turn e-mails go to ${saved.address}.` : "No turn e-mails.");
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  return (
    <form onSubmit={save} aria-labelledby="turn-email-heading">
      <h2 id="turn-email-heading">Turn e-mails</h2>
      <p>
        When your turn at a turn-based game has waited this long, one e-mail tells you (each e-mail has a link that
        stops them).
        {!settings.server_sends && " This server sends no e-mail at the moment."}
      </p>
      {said && <p role="status">{said}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="field">
        <label for="turn-email-address">E-mail address (empty: none)</label>
        <input
          id="turn-email-address"
          type="email"
          autoComplete="email"
          maxLength={254}
          value={address}
          onInput={(e) => setAddress((e.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field">
        <label for="turn-email-after">After a turn has waited</label>
        <select id="turn-email-after" value={String(after)} onChange={(e) => setAfter(Number((e.target as HTMLSelectElement).value))}>
          {delays.map(([seconds, label]) => (
            <option key={seconds} value={String(seconds)}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">Save the e-mail settings</button>
    </form>
  );
}
