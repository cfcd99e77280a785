// The replay and the review of a game kept in this browser, made by the engine in the browser
// from the game's record: the same pages as a server's finished game, with no server asked.
import { useEffect, useState } from "preact/hooks";
import { ReplayPage } from "../replay";
import { ReviewPage } from "../review";
import { FinishedContext } from "../shared/finished";
import { Links, TO_THE_LOBBY } from "../shared/links";
import { OFFLINE_PATH } from "../router";
import { sharedEngine } from "./engine";
import { KeptFinished } from "./finished";
import { keptGame } from "./records";

export function KeptGamePage({ table, page }: { table: string; page: "replay" | "review" }) {
  // undefined: looking; null: not kept in this browser.
  const [source, setSource] = useState<KeptFinished | null | undefined>(undefined);
  useEffect(() => {
    let stopped = false;
    keptGame(table).then(
      (kept) => !stopped && setSource(kept ? new KeptFinished(sharedEngine(), kept) : null),
      () => !stopped && setSource(null),
    );
    return () => {
      stopped = true;
    };
  }, [table]);
  if (source === undefined) return <p role="status">Opening the kept game…</p>;
  if (source === null) {
    return (
      <section class="panel narrow">
        <h1>No such game here</h1>
        <p>This browser keeps no game {table}: games played offline are kept in the browser they were played in.</p>
        <Links links={[[OFFLINE_PATH, "Play offline"], TO_THE_LOBBY]} />
      </section>
    );
  }
  return (
    <FinishedContext.Provider value={source}>
      {page === "replay" ? <ReplayPage table={table} /> : <ReviewPage table={table} />}
    </FinishedContext.Provider>
  );
}
