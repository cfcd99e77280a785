// Where the replay and review pages get a finished game: the server (its REST API) or the engine
// in this browser fed a kept game's record (src/offline/finished.ts), so that both pages are
// written once for both. Given to the pages by FinishedContext.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { api, type ReplayStep, type ReviewJob, type TableSummary } from "../api";
import { replayPath, reviewPath, tablePath } from "../router";

export interface FinishedGames {
  /** Whether the game is on a server: its table page, chat and deal check are there. */
  online: boolean;
  table(table: string): Promise<TableSummary>;
  replay(table: string, step: number | null, seat: number | "spectator" | "all"): Promise<ReplayStep>;
  /** Start the review (or find it made): a job to follow with ``review`` until it is done. */
  startReview(table: string): Promise<ReviewJob>;
  review(table: string): Promise<ReviewJob>;
  replayPath(table: string): string;
  reviewPath(table: string): string;
  /** The game's table page (null: it has none to go back to). */
  tablePath(table: string): string | null;
}

export const SERVER_GAMES: FinishedGames = {
  online: true,
  table: (table) => api.table(table),
  replay: (table, step, seat) => api.replay(table, step, seat),
  startReview: (table) => api.startReview(table),
  review: (table) => api.review(table),
  replayPath,
  reviewPath,
  tablePath: (table) => tablePath(table, null),
};

export const FinishedContext = createContext<FinishedGames>(SERVER_GAMES);

export function useFinished(): FinishedGames {
  return useContext(FinishedContext);
}

/** The links out of a finished game's page, in this order, each where the game has it. */
export function finishedLinks(
  source: FinishedGames,
  table: string,
  which: ("table" | "replay" | "review")[],
  words: Partial<Record<"table" | "replay" | "review", string>> = {},
): [string, string][] {
  const links: [string, string][] = [];
  for (const kind of which) {
    if (kind === "table") {
      const path = source.tablePath(table);
      if (path !== null) links.push([path, words.table ?? "The table"]);
    } else if (kind === "replay") links.push([source.replayPath(table), words.replay ?? "Replay the game"]);
    else links.push([source.reviewPath(table), words.review ?? "Review the game"]);
  }
  return links;
}
