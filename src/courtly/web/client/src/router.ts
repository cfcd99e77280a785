// History routing: "/" is the lobby ("/?new=GAME": its form on a new table of GAME), "/offline" a
// game played in this browser with no server ("/offline/replay/ID", "/offline/review/ID" a game
// kept in this browser),
// "/table/ID?seat=N" a table, "/table/ID/hotseat" a table
// played on one device, "/table/ID/replay" a finished game, "/table/ID/review" its review by
// search, "/rules/GAME" a game's rules (the
// server answers every such path with index.html).
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { page: "lobby" }
  | { page: "table"; table: string; seat: number | null }
  | { page: "hotseat"; table: string }
  | { page: "replay"; table: string }
  | { page: "review"; table: string }
  | { page: "rules"; game: string }
  | { page: "signin" }
  | { page: "signup" }
  | { page: "account" }
  | { page: "admin" }
  | { page: "profile"; name: string }
  | { page: "leaderboard"; game: string | null; players: number }
  | { page: "mygames" }
  | { page: "offline" }
  | { page: "offline-replay"; table: string }
  | { page: "offline-review"; table: string }
  | { page: "missing"; path: string };

export function parseRoute(location: Location): Route {
  const path = location.pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return { page: "lobby" };
  if (path === OFFLINE_PATH) return { page: "offline" };
  const kept = /^\/offline\/(replay|review)\/([^/]+)$/.exec(path);
  if (kept) {
    const page = kept[1] === "replay" ? "offline-replay" : "offline-review";
    return { page, table: decodeURIComponent(kept[2]) };
  }
  if (path === "/signin" || path === "/signup" || path === "/account" || path === "/admin") {
    return { page: path.slice(1) as "signin" | "signup" | "account" | "admin" };
  }
  const table = /^\/table\/([^/]+)$/.exec(path);
  if (table) {
    const seatText = new URLSearchParams(location.search).get("seat");
    const seat = seatText !== null && /^\d+$/.test(seatText) ? Number(seatText) : null;
    return { page: "table", table: decodeURIComponent(table[1]), seat };
  }
  const other = /^\/table\/([^/]+)\/(hotseat|replay|review)$/.exec(path);
  if (other) {
    const page = other[2] as "hotseat" | "replay" | "review";
    return { page, table: decodeURIComponent(other[1]) };
  }
  const people = peopleRoute(path, location);
  if (people) return people;
  const rules = /^\/rules\/([^/]+)$/.exec(path);
  if (rules) return { page: "rules", game: decodeURIComponent(rules[1]) };
  return { page: "missing", path };
}

/** A game played in this browser, with no server (src/offline.tsx). */
export const OFFLINE_PATH = "/offline";

/** A game played and kept in this browser, step by step, from its record (no server asked). */
export function offlineReplayPath(table: string): string {
  return `${OFFLINE_PATH}/replay/${encodeURIComponent(table)}`;
}

/** A game played and kept in this browser, reviewed by the engine in the browser. */
export function offlineReviewPath(table: string): string {
  return `${OFFLINE_PATH}/review/${encodeURIComponent(table)}`;
}

export function tablePath(table: string, seat: number | null): string {
  const base = `/table/${encodeURIComponent(table)}`;
  return seat === null ? base : `${base}?seat=${seat}`;
}

/** A table played by several people on this device (its seats' tokens held here). */
export function hotseatPath(table: string): string {
  return `/table/${encodeURIComponent(table)}/hotseat`;
}

/** A finished game, step by step. */
export function replayPath(table: string): string {
  return `/table/${encodeURIComponent(table)}/replay`;
}

/** A finished game's review: where each seat won or lost it. */
export function reviewPath(table: string): string {
  return `/table/${encodeURIComponent(table)}/review`;
}

/** The lobby with its form open on a new table of `game`. */
export function newTablePath(game: string): string {
  return `/?new=${encodeURIComponent(game)}`;
}

export function rulesPath(game: string): string {
  return `/rules/${encodeURIComponent(game)}`;
}

/** "/people/NAME" a profile, "/leaderboards/GAME?players=N" a leaderboard, "/my-games". */
function peopleRoute(path: string, location: Location): Route | null {
  const profile = /^\/people\/([^/]+)$/.exec(path);
  if (profile) return { page: "profile", name: decodeURIComponent(profile[1]) };
  const board = /^\/leaderboards(?:\/([^/]+))?$/.exec(path);
  if (board) {
    const count = new URLSearchParams(location.search).get("players");
    const players = count !== null && /^\d+$/.test(count) ? Number(count) : 0;
    return { page: "leaderboard", game: board[1] ? decodeURIComponent(board[1]) : null, players };
  }
  if (path === "/my-games") return { page: "mygames" };
  return null;
}

export function profilePath(name: string): string {
  return `/people/${encodeURIComponent(name)}`;
}

/** A game's leaderboard (players 0: every player count; no game: the first game's). */
export function leaderboardPath(game: string | null, players = 0): string {
  const base = game === null ? "/leaderboards" : `/leaderboards/${encodeURIComponent(game)}`;
  return players ? `${base}?players=${players}` : base;
}

export const MY_GAMES_PATH = "/my-games";

export function absolute(path: string): string {
  return new URL(path, window.location.origin).toString();
}

const NAVIGATED = "courtly:navigate";

export function navigate(path: string): void {
  window.history.pushState(null, "", path);
  window.dispatchEvent(new Event(NAVIGATED));
  window.scrollTo(0, 0);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location));
    window.addEventListener("popstate", update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener("popstate", update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return route;
}

/** A link inside the app: followed without reloading the page (a modified click opens a tab). */
export function onLinkClick(event: MouseEvent): void {
  const link = event.currentTarget as HTMLAnchorElement;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(link.getAttribute("href") ?? "/");
}
