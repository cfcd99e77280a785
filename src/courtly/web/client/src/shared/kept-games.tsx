// The finished offline games kept in this browser (offline/records.ts), each exportable as a file
// `courtly replay` reads: on Play offline and on My games.
import { useEffect, useState } from "preact/hooks";
import { exportGame, keptGames, onKeptChange, type KeptGame } from "../offline/records";
import { offlineReplayPath, offlineReviewPath, onLinkClick, replayPath } from "../router";
import { gameTitle } from "./titles";

/** The finished offline games kept in this browser, each exportable for `courtly replay`. */
export function KeptGames() {
  const [kept, setKept] = useState<KeptGame[] | null>(null);
  useEffect(() => {
    const load = () => void keptGames().then(setKept, () => setKept([]));
    load();
    return onKeptChange(load);
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
            <a href={offlineReplayPath(game.id)} onClick={onLinkClick}>
              Replay
            </a>{" "}
            ·{" "}
            <a href={offlineReviewPath(game.id)} onClick={onLinkClick}>
              Review
            </a>{" "}
            <button type="button" onClick={() => exportGame(game)}>
              Export
            </button>{" "}
            <Upload game={game} />
          </li>
        ))}
      </ul>
    </section>
  );
}


/** What became of the game's upload to the signed-in person's profile. */
function Upload({ game }: { game: KeptGame }) {
  const upload = game.upload;
  if (!upload) return null;
  if ("table" in upload)
    return (
      <span class="kept-upload">
        On your profile:{" "}
        <a href={replayPath(upload.table)} onClick={onLinkClick}>
          replay
        </a>
      </span>
    );
  return (
    <span class="kept-upload refused" role="note">
      Not uploaded: {upload.refused}
    </span>
  );
}
