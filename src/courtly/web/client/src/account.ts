// Who is signed in on this browser: asked of the server once (GET /api/account), kept here, and
// told to every component that shows it (the header's account menu, the table page).
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, setCsrf, type AccountInfo } from "./api";

/** undefined: not known yet; null: a guest. */
let current: AccountInfo | null | undefined = undefined;
const listeners = new Set<(account: AccountInfo | null | undefined) => void>();
let asked: Promise<AccountInfo | null> | null = null;

function tell(account: AccountInfo | null): void {
  current = account;
  setCsrf(account?.csrf ?? "");
  for (const listener of listeners) listener(account);
}

/** The signed-in person (null: a guest), asked of the server the first time. */
export function loadAccount(): Promise<AccountInfo | null> {
  if (asked === null) {
    asked = api.account().then(
      (account) => {
        tell(account);
        return account;
      },
      (e: ApiError) => {
        if (e.status === 401) tell(null);
        else asked = null; // the server was not reached: ask again later
        return null;
      },
    );
  }
  return asked;
}

export function signedIn(account: AccountInfo): void {
  asked = Promise.resolve(account);
  tell(account);
}

export function signedOut(): void {
  asked = Promise.resolve(null);
  tell(null);
}

export function useAccount(): AccountInfo | null | undefined {
  const [account, setAccount] = useState(current);
  useEffect(() => {
    listeners.add(setAccount);
    void loadAccount();
    setAccount(current);
    return () => {
      listeners.delete(setAccount);
    };
  }, []);
  return account;
}
