// Passkeys in the browser (docs/server.md, "Passkeys"): signing in with one, and a signed-in
// person's list of theirs with adding and removing. The browser's own WebAuthn speaks to the
// authenticator (navigator.credentials, with PublicKeyCredential's JSON helpers); the server
// gives the options and checks the answers.

import { useEffect, useState } from "preact/hooks";
import { ApiError, heldSeats, request, type AccountInfo } from "./api";
import type { components } from "./protocol";

type Schemas = components["schemas"];
export type PasskeyInfo = Schemas["PasskeyInfo"];
type PasskeyCeremony = Schemas["PasskeyCeremony"];

/** Whether this browser can make and use passkeys at all. */
export function passkeysSupported(): boolean {
  return (
    typeof window.PublicKeyCredential === "function" &&
    typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function"
  );
}

/** What the person is told when the browser's ceremony stops (cancelled, timed out...). */
function ceremonyError(error: unknown): Error {
  if (error instanceof ApiError) return error;
  if (error instanceof DOMException && error.name === "NotAllowedError") {
    return new Error("The passkey was not used (cancelled, or the time ran out).");
  }
  if (error instanceof DOMException && error.name === "InvalidStateError") {
    return new Error("This device already holds a passkey of your account.");
  }
  return new Error(error instanceof Error ? error.message : "The passkey did not work.");
}

export const passkeys = {
  list: () => request<PasskeyInfo[]>("GET", "/api/account/passkeys"),

  /** Make a passkey on this device and add it to the signed-in account (the session's CSRF
   * token goes with every change, as request() sends it). */
  async add(label: string): Promise<PasskeyInfo> {
    try {
      const begun = await request<PasskeyCeremony>("POST", "/api/account/passkeys/options");
      const options = PublicKeyCredential.parseCreationOptionsFromJSON(
        begun.options as unknown as PublicKeyCredentialCreationOptionsJSON,
      );
      const made = (await navigator.credentials.create({ publicKey: options })) as PublicKeyCredential | null;
      if (made === null) throw new Error("No passkey was made.");
      return await request<PasskeyInfo>("POST", "/api/account/passkeys", {
        ceremony: begun.ceremony,
        credential: made.toJSON(),
        label,
      });
    } catch (error) {
      throw ceremonyError(error);
    }
  },

  /** Remove one of the signed-in person's passkeys: the ones left. */
  remove: (id: string) =>
    request<PasskeyInfo[]>("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`),

  /** Sign in with a passkey this device holds (any of this server's, or `name`'s); the seats
   * this browser holds as a guest become the account's, as with a password. */
  async signIn(name: string | null): Promise<AccountInfo> {
    try {
      const begun = await request<PasskeyCeremony>("POST", "/api/account/passkey-session/options", {
        name,
      });
      const options = PublicKeyCredential.parseRequestOptionsFromJSON(
        begun.options as unknown as PublicKeyCredentialRequestOptionsJSON,
      );
      const used = (await navigator.credentials.get({ publicKey: options })) as PublicKeyCredential | null;
      if (used === null) throw new Error("No passkey was used.");
      return await request<AccountInfo>("POST", "/api/account/passkey-session", {
        ceremony: begun.ceremony,
        credential: used.toJSON(),
        seats: heldSeats(),
      });
    } catch (error) {
      throw ceremonyError(error);
    }
  },
};

/** The sign-in page's button: a passkey of this device signs the person in; with no `name`
 * typed, whichever passkey of this server the person picks (it tells whose it is). */
export function PasskeySignIn({
  name,
  onSignedIn,
}: {
  name: string;
  onSignedIn: (account: AccountInfo) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!passkeysSupported()) return null;
  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await passkeys.signIn(name.trim() || null));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="passkey-sign-in">
      <button type="button" onClick={signIn} disabled={busy}>
        Sign in with a passkey
      </button>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </div>
  );
}

function when(seconds: number | null): string {
  return seconds === null ? "never" : new Date(seconds * 1000).toLocaleString();
}

/** The account page's passkeys: each with when it was added and last used, and a way to remove
 * it; and a button to add one made on this device. */
export function PasskeyList() {
  const [held, setHeld] = useState<PasskeyInfo[] | null>(null);
  const [label, setLabel] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [told, setTold] = useState<string | null>(null);

  const refresh = () =>
    passkeys.list().then(setHeld, (failure: Error) => setError(failure.message));
  useEffect(() => {
    refresh();
  }, []);

  const act = async (what: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setTold(null);
    try {
      setTold(await what());
      await refresh();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const add = () =>
    act(async () => {
      const added = await passkeys.add(label.trim());
      setLabel("");
      return `Passkey "${added.label}" added: sign in with it on this device.`;
    });
  const remove = (passkey: PasskeyInfo) =>
    act(async () => {
      await passkeys.remove(passkey.id);
      return `Passkey "${passkey.label}" removed.`;
    });

  return (
    <section class="passkeys" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p class="muted">
        A passkey signs you in with this device's lock (a fingerprint, a face, a PIN): no
        password to type or to leak.
      </p>
      {held === null ? (
        <p>Loading your passkeys…</p>
      ) : held.length === 0 ? (
        <p>You have no passkey yet.</p>
      ) : (
        <ul class="passkey-list">
          {held.map((passkey) => (
            <li key={passkey.id}>
              <strong>{passkey.label}</strong>{" "}
              <span class="muted">
                added {when(passkey.created_at)}, last used {when(passkey.used_at ?? null)}
              </span>{" "}
              <button
                type="button"
               
                disabled={busy}
                onClick={() => remove(passkey)}
                aria-label={`Remove the passkey ${passkey.label}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {passkeysSupported() ? (
        <form
          class="passkey-add"
          onSubmit={(event) => {
            event.preventDefault();
            add();
          }}
        >
          <label>
            Name it (optional){" "}
            <input
              value={label}
              maxLength={64}
              placeholder="my phone"
              onInput={(event) => setLabel((event.target as HTMLInputElement).value)}
            />
          </label>{" "}
          <button type="submit" disabled={busy}>
            Add a passkey
          </button>
        </form>
      ) : (
        <p>This browser cannot make passkeys.</p>
      )}
      {told && <p role="status">{told}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}
