// The games' titles ("God Save The King", "Crush the Crown"), known to every page once the
// catalogue arrives, and kept in this browser: a page opened again (a reload, a share link)
// names its game rightly before the catalogue comes. A page opened by a link asks for the
// catalogue itself, once for every page; until a title is known it is made from the game's id,
// and the page draws again with the real one.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";

const STORED = "courtly.titles";

function storedTitles(): Record<string, string> {
  try {
    const found: unknown = JSON.parse(localStorage.getItem(STORED) ?? "{}");
    if (found === null || typeof found !== "object" || Array.isArray(found)) return {};
    return Object.fromEntries(
      Object.entries(found as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string",
      ),
    );
  } catch {
    return {};
  }
}

let knownTitles: Record<string, string> = storedTitles();
const titleWatchers = new Set<() => void>();
let asked: Promise<void> | null = null;

export function rememberTitles(titles: Record<string, string>): void {
  knownTitles = { ...knownTitles, ...titles };
  try {
    localStorage.setItem(STORED, JSON.stringify(knownTitles));
  } catch {
    // Storage refused (private mode): the titles are known until the page is closed.
  }
  titleWatchers.forEach((watcher) => watcher());
}

/** The catalogue's titles, asked for once (again after a failure, by the next page that needs
 * one). */
function askForTitles(): void {
  if (asked !== null) return;
  asked = api.games().then(
    (games) => rememberTitles(Object.fromEntries(games.map((g) => [g.id, g.title]))),
    () => {
      asked = null;
    },
  );
}

/** The game's title, drawn again once the catalogue arrives. */
export function useGameTitle(game: string): string {
  const [, redraw] = useState(0);
  const title = gameTitle(game);
  useEffect(() => {
    const watcher = () => redraw((n) => n + 1);
    titleWatchers.add(watcher);
    // The catalogue may have come between the drawing and now, with no watcher to tell.
    if (gameTitle(game) !== title) watcher();
    else if (game && !(game in knownTitles)) askForTitles();
    return () => {
      titleWatchers.delete(watcher);
    };
  }, [game]);
  return title;
}

export function gameTitle(game: string): string {
  return knownTitles[game] ?? game.replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}
