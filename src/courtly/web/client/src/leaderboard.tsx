// A game's leaderboard: its best rated people in a pool (every player count, or one count), each
// with the rating shown (μ − 3σ), μ, σ and their rated games.
import { useEffect, useState } from "preact/hooks";
import { api, people, type ApiError, type GameInfo, type Leaderboard } from "./api";
import { poolName } from "./profile";
import { leaderboardPath, navigate, onLinkClick, profilePath } from "./router";
import { Links, TO_THE_LOBBY } from "./shared/links";

export function LeaderboardPage({ game, players }: { game: string | null; players: number }) {
  const [games, setGames] = useState<GameInfo[] | null>(null);
  const [board, setBoard] = useState<Leaderboard | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.games().then(setGames, (e: ApiError) => setError(e.message));
  }, []);
  const shown = game ?? games?.[0]?.id ?? null;
  useEffect(() => {
    if (shown === null) return;
    setBoard(null);
    setError(null);
    people.leaderboard(shown, players).then(setBoard, (e: ApiError) => setError(e.message));
  }, [shown, players]);
  const info = games?.find((g) => g.id === shown);
  return (
    <div class="leaderboard">
      <h1>Leaderboards</h1>
      {games && (
        <form class="pool-picker" onSubmit={(e) => e.preventDefault()}>
          <label for="board-game">Game</label>
          <select
            id="board-game"
            value={shown ?? ""}
            onChange={(e) => navigate(leaderboardPath((e.target as HTMLSelectElement).value, 0))}
          >
            {games.map((g) => (
              <option key={g.id} value={g.id}>
                {g.title}
              </option>
            ))}
          </select>
          {info && info.players.length > 1 && (
            <>
              <label for="board-players">Players</label>
              <select
                id="board-players"
                value={String(players)}
                onChange={(e) => navigate(leaderboardPath(shown, Number((e.target as HTMLSelectElement).value)))}
              >
                <option value="0">{poolName(0)}</option>
                {info.players.map((count) => (
                  <option key={count} value={String(count)}>
                    {poolName(count)}
                  </option>
                ))}
              </select>
            </>
          )}
        </form>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {board === null ? (
        !error && <p role="status">Loading the leaderboard…</p>
      ) : (
        <section class="panel" aria-labelledby="board-heading">
          <h2 id="board-heading">
            {board.title}, {poolName(board.players)}
          </h2>
          <p class="muted">
            Rated games only; a person appears after {board.min_games} of them. The rating shown is μ − 3σ: it
            grows as the rating grows surer.
          </p>
          {board.entries.length === 0 ? (
            <p>Nobody has played {board.min_games} rated games here yet.</p>
          ) : (
            <table class="figures">
              <thead>
                <tr>
                  <th scope="col">Rank</th>
                  <th scope="col">Name</th>
                  <th scope="col">Rating</th>
                  <th scope="col">μ</th>
                  <th scope="col">σ</th>
                  <th scope="col">Rated games</th>
                  <th scope="col">Won</th>
                </tr>
              </thead>
              <tbody>
                {board.entries.map((entry) => (
                  <tr key={entry.name}>
                    <td>{entry.rank}</td>
                    <th scope="row">
                      <a href={profilePath(entry.name)} onClick={onLinkClick}>
                        {entry.name}
                      </a>
                    </th>
                    <td>{entry.rating.toFixed(1)}</td>
                    <td>{entry.mu.toFixed(1)}</td>
                    <td>{entry.sigma.toFixed(2)}</td>
                    <td>{entry.games}</td>
                    <td>{Number.isInteger(entry.wins) ? entry.wins : entry.wins.toFixed(1)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      <Links links={[TO_THE_LOBBY]} />
    </div>
  );
}
