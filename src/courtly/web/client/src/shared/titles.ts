// The games' titles ("God Save The King"), known to every page once the catalogue arrives. A page
// opened by a link (a table, a replay, a review) draws before it does: until then a title is
// made from the game's id, and the page draws again with the real one.
import { useEffect, useState } from "preact/hooks";

let knownTitles: Record<string, string> = {};
const titleWatchers = new Set<() => void>();

export function rememberTitles(titles: Record<string, string>): void {
  knownTitles = { ...knownTitles, ...titles };
  titleWatchers.forEach((watcher) => watcher());
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
  return gameTitle(game);
}

export function gameTitle(game: string): string {
  return knownTitles[game] ?? game.replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}
