// People: the header's account menu on every page, and the pages to sign up, sign in, look
// after one's account (password, sign out everywhere, export, delete) and, for administrators,
// the admin page (close a table, hide a name, disable an account, the log of every such act).
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, heldSeats, type AdminAct } from "./api";
import { signedIn, signedOut, useAccount } from "./account";
import { PasskeyList, PasskeySignIn } from "./passkeys";
import { navigate, onLinkClick } from "./router";
import { Links, TO_THE_LOBBY } from "./shared/links";
import { TurnEmailSettings } from "./turn-email";

export const SIGN_IN = "/signin";
export const SIGN_UP = "/signup";
export const ACCOUNT = "/account";
export const ADMIN = "/admin";

/** The header's right side: who is signed in (with sign out), or the ways to sign in. */
export function AccountMenu() {
  const account = useAccount();
  const [error, setError] = useState<string | null>(null);
  if (account === undefined) return <nav class="account-menu" aria-label="Account" />;
  if (account === null) {
    return (
      <nav class="account-menu" aria-label="Account">
        <a href={SIGN_IN} onClick={onLinkClick}>
          Sign in
        </a>{" "}
        ·{" "}
        <a href={SIGN_UP} onClick={onLinkClick}>
          Sign up
        </a>
      </nav>
    );
  }
  const signOut = async () => {
    setError(null);
    try {
      await api.signOut();
      signedOut();
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  return (
    <nav class="account-menu" aria-label="Account">
      <a href={ACCOUNT} onClick={onLinkClick} class="account-name" data-testid="signed-in-name">
        {account.name}
      </a>
      {account.admin && (
        <>
          {" "}
          ·{" "}
          <a href={ADMIN} onClick={onLinkClick}>
            Admin
          </a>
        </>
      )}{" "}
      ·{" "}
      <button type="button" class="link-button" onClick={signOut}>
        Sign out
      </button>
      {error && (
        <span role="alert" class="error">
          {" "}
          {error}
        </span>
      )}
    </nav>
  );
}

/** Sign up or sign in with a name and a password; the seats this browser holds become the
 * account's. */
export function SignInPage({ mode }: { mode: "signin" | "signup" }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const up = mode === "signup";
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const seats = heldSeats();
      const account = up ? await api.signUp(name.trim(), password, seats) : await api.signIn(name.trim(), password, seats);
      signedIn(account);
      navigate("/");
    } catch (e) {
      setError((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  const title = up ? "Sign up" : "Sign in";
  return (
    <section class="panel narrow" aria-labelledby="signin-title">
      <h1 id="signin-title">{title}</h1>
      <p>
        {up
          ? "An account keeps your seats, your games and your name on every device. Playing as a guest needs none."
          : "Your seats and games follow you to this device."}{" "}
        The seats this browser holds become your account's.
      </p>
      <form onSubmit={submit}>
        <div class="field">
          <label for="account-name">Name</label>
          <input
            id="account-name"
            value={name}
            maxLength={64}
            required
            autoComplete="username"
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </div>
        <div class="field">
          <label for="account-password">Password</label>
          <input
            id="account-password"
            type="password"
            value={password}
            minLength={up ? 8 : undefined}
            maxLength={1024}
            required
            autoComplete={up ? "new-password" : "current-password"}
            aria-describedby={up ? "account-password-help" : undefined}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
          />
          {up && (
            <span class="help" id="account-password-help">
              At least 8 characters.
            </span>
          )}
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {title}
        </button>
      </form>
      {!up && (
        <PasskeySignIn
          name={name}
          onSignedIn={(account) => {
            signedIn(account);
            navigate("/");
          }}
        />
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <Links links={[up ? [SIGN_IN, "I have an account: sign in"] : [SIGN_UP, "No account yet: sign up"], TO_THE_LOBBY]} />
    </section>
  );
}

/** The signed-in person's account: the password, signing out everywhere, the games exported,
 * the account deleted. */
export function AccountPage() {
  const account = useAccount();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (account === undefined) return <section class="panel narrow" aria-busy="true" />;
  if (account === null) {
    return (
      <section class="panel narrow">
        <h1>Your account</h1>
        <p>Nobody is signed in on this browser.</p>
        <Links links={[[SIGN_IN, "Sign in"], [SIGN_UP, "Sign up"], TO_THE_LOBBY]} />
      </section>
    );
  }
  const act = async (work: () => Promise<string>) => {
    setError(null);
    setSaid(null);
    try {
      setSaid(await work());
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  const changePassword = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const { ended } = await api.changePassword(current, next);
      setCurrent("");
      setNext("");
      return `Password changed; ${ended} other session${ended === 1 ? "" : "s"} signed out.`;
    });
  };
  const everywhere = () =>
    act(async () => {
      await api.signOutEverywhere();
      signedOut();
      navigate("/");
      return "Signed out everywhere.";
    });
  const remove = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await api.deleteAccount(confirm);
      signedOut();
      navigate("/");
      return "Account deleted.";
    });
  };
  return (
    <section class="panel narrow account-page" aria-labelledby="account-title">
      <h1 id="account-title">{account.name}</h1>
      {said && <p role="status">{said}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <h2>Password</h2>
      <form onSubmit={changePassword}>
        <div class="field">
          <label for="password-now">Current password</label>
          <input
            id="password-now"
            type="password"
            autoComplete="current-password"
            value={current}
            onInput={(e) => setCurrent((e.target as HTMLInputElement).value)}
          />
        </div>
        <div class="field">
          <label for="password-new">New password</label>
          <input
            id="password-new"
            type="password"
            autoComplete="new-password"
            minLength={8}
            maxLength={1024}
            required
            value={next}
            onInput={(e) => setNext((e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit">Change the password</button>
      </form>
      <PasskeyList />
      <TurnEmailSettings />
      <h2>Sessions</h2>
      <p>Signed in on a device you no longer have? Sign out on every device, this one too.</p>
      <button type="button" onClick={everywhere}>
        Sign out everywhere
      </button>
      <h2>Your games</h2>
      <p>
        <a href="/api/account/games" download="courtly-games.jsonl">
          Export your finished games
        </a>{" "}
        (a JSONL file of records: <code>courtly replay FILE</code> plays them back).
      </p>
      <h2>Delete the account</h2>
      <form onSubmit={remove}>
        <p>Your games stay, under the name “deleted player”; your name becomes free.</p>
        <div class="field">
          <label for="delete-password">Your password, to confirm</label>
          <input
            id="delete-password"
            type="password"
            autoComplete="current-password"
            value={confirm}
            onInput={(e) => setConfirm((e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit" class="danger">
          Delete my account
        </button>
      </form>
      <Links links={[TO_THE_LOBBY]} />
    </section>
  );
}

/** What administrators do, and the log of every act. */
export function AdminPage() {
  const account = useAccount();
  const [acts, setActs] = useState<AdminAct[]>([]);
  const [table, setTable] = useState("");
  const [name, setName] = useState("");
  const [reason, setReason] = useState("");
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = account?.admin ?? false;
  useEffect(() => {
    if (admin) api.adminActs().then(setActs, (e: ApiError) => setError(e.message));
  }, [admin]);
  if (account === undefined) return <section class="panel narrow" aria-busy="true" />;
  if (!admin) {
    return (
      <section class="panel narrow">
        <h1>Administration</h1>
        <p role="alert">Only an administrator may see this page.</p>
        <Links links={[TO_THE_LOBBY]} />
      </section>
    );
  }
  const act = async (work: () => Promise<AdminAct>) => {
    setError(null);
    setSaid(null);
    try {
      const done = await work();
      setSaid(`Done: ${done.act} ${done.target}.`);
      setActs(await api.adminActs());
    } catch (e) {
      setError((e as ApiError).message);
    }
  };
  const tableId = table.trim().replace(/^.*\/table\/([^/?#]+).*$/, "$1");
  return (
    <section class="panel" aria-labelledby="admin-title">
      <h1 id="admin-title">Administration</h1>
      {said && <p role="status">{said}</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="field">
        <label for="admin-reason">Why (for the log)</label>
        <input id="admin-reason" value={reason} maxLength={300} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => api.adminClose(tableId, reason));
        }}
      >
        <div class="field">
          <label for="admin-table">Table (its id or address)</label>
          <input id="admin-table" value={table} required onInput={(e) => setTable((e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit">Close the table</button>
      </form>
      <div class="field">
        <label for="admin-name">Account (its name)</label>
        <input id="admin-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </div>
      <p>
        <button type="button" onClick={() => act(() => api.adminHideName(name.trim(), reason))}>
          Hide the name
        </button>{" "}
        <button type="button" onClick={() => act(() => api.adminDisable(name.trim(), true, reason))}>
          Disable the account
        </button>{" "}
        <button type="button" onClick={() => act(() => api.adminDisable(name.trim(), false, reason))}>
          Enable the account
        </button>
      </p>
      <h2>The log</h2>
      <table class="admin-acts">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">On</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {acts.map((a, index) => (
            <tr key={index}>
              <td>{new Date(a.at * 1000).toLocaleString()}</td>
              <td>{a.admin}</td>
              <td>{a.act}</td>
              <td>{a.target}</td>
              <td>{a.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Links links={[TO_THE_LOBBY]} />
    </section>
  );
}
