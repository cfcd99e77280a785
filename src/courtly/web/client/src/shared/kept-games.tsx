// The finished offline games kept in this browser (offline/records.ts), each exportable as a file
// `courtly replay` reads: on Play offline and on My games.
import { useEffect, useState } from "preact/hooks";
import { exportGame, keptGames, type KeptGame } from "../offline/records";
import { gameTitle } from "./titles";

/** The finished offline games kept in this browser, each exportable for `courtly replay`. */
export function KeptGames() {
  const [kept, setKept] = useState<KeptGame[] | null>(null);
  useEffect(() => {
    keptGames().then(setKept, () => setKept([]));
  }, []);
  if (!kept || kept.length === 0) return null;
  return (
    <section aria-labelledby="kept-heading" class="kept-games">
      <h2 id="kept-heading">Your offline games</h2>
      <ul>
        {kept.map((game) => (
          <li key={game.id} data-kept={game.id}>
            {gameTitle(game.game)} · {game.players} players ·{" "}
            {new Date(game.finishedAt).toLocaleString()}{" "}
            <button type="button" onClick={() => exportGame(game)}>
              Export
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

