// The games' titles ("God Save The King", "Crush the Crown"), known to every page once the
// catalogue arrives. A page opened by a link (a table, a replay, a review) asks for the catalogue
// itself, once for every page; until it arrives a title is made from the game's id, and the page
// draws again with the real one.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";

let knownTitles: Record<string, string> = {};
const titleWatchers = new Set<() => void>();
let asked: Promise<void> | null = null;

export function rememberTitles(titles: Record<string, string>): void {
  knownTitles = { ...knownTitles, ...titles };
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
  useEffect(() => {
    const watcher = () => redraw((n) => n + 1);
    titleWatchers.add(watcher);
    return () => {
      titleWatchers.delete(watcher);
    };
  }, []);
  useEffect(() => {
    if (game && !(game in knownTitles)) askForTitles();
  }, [game]);
  return gameTitle(game);
}

export function gameTitle(game: string): string {
  return knownTitles[game] ?? game.replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}
