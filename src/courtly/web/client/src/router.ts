// History routing: "/" is the lobby, "/table/ID?seat=N" a table (the server answers every
// such path with index.html).
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { page: "lobby" }
  | { page: "table"; table: string; seat: number | null }
  | { page: "missing"; path: string };

export function parseRoute(location: Location): Route {
  const path = location.pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return { page: "lobby" };
  const table = /^\/table\/([^/]+)$/.exec(path);
  if (table) {
    const seatText = new URLSearchParams(location.search).get("seat");
    const seat = seatText !== null && /^\d+$/.test(seatText) ? Number(seatText) : null;
    return { page: "table", table: decodeURIComponent(table[1]), seat };
  }
  return { page: "missing", path };
}

export function tablePath(table: string, seat: number | null): string {
  const base = `/table/${encodeURIComponent(table)}`;
  return seat === null ? base : `${base}?seat=${seat}`;
}

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
