// A person's profile: games played and won per game, ratings per game with their history drawn,
// recent games with their replay and review, and their review figures over time.
import { useEffect, useState } from "preact/hooks";
import { people, type ApiError, type Profile, type Rating } from "./api";
import { RatingChart } from "./rating-chart";
import { leaderboardPath, onLinkClick, replayPath, reviewPath } from "./router";
import { Links, TO_THE_LOBBY } from "./shared/links";
import { gameTitle } from "./shared/titles";

export function poolName(players: number): string {
  return players === 0 ? "every player count" : `${players} players`;
}

export function ProfilePage({ name }: { name: string }) {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setProfile(null);
    setError(null);
    people.profile(name).then(setProfile, (e: ApiError) => setError(e.message));
  }, [name]);
  if (error) {
    return (
      <section class="panel narrow">
        <h1>{name}</h1>
        <p role="alert" class="error">
          {error}
        </p>
        <Links links={[TO_THE_LOBBY]} />
      </section>
    );
  }
  if (profile === null) return <p role="status">Loading {name}'s profile…</p>;
  return (
    <div class="profile">
      <h1>{profile.name}</h1>
      <p class="muted">Playing since {new Date(profile.since * 1000).toLocaleDateString()}</p>
      <section aria-labelledby="played-heading" class="panel">
        <h2 id="played-heading">Games played</h2>
        {profile.games.length === 0 ? (
          <p>No finished game yet.</p>
        ) : (
          <table class="figures">
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">Played</th>
                <th scope="col">Won</th>
                <th scope="col">Rated</th>
              </tr>
            </thead>
            <tbody>
              {profile.games.map((g) => (
                <tr key={g.game}>
                  <th scope="row">{g.title}</th>
                  <td>{g.played}</td>
                  <td>{g.won}</td>
                  <td>{g.rated}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="ratings-heading" class="panel">
        <h2 id="ratings-heading">Ratings</h2>
        {profile.ratings.length === 0 ? (
          <p>No rated game yet: a rated table is chosen when a table is made.</p>
        ) : (
          profile.ratings.map((rating) => (
            <RatingSection key={`${rating.game}-${rating.players}`} rating={rating} profile={profile} />
          ))
        )}
      </section>
      <section aria-labelledby="recent-heading" class="panel">
        <h2 id="recent-heading">Recent games</h2>
        {profile.recent.length === 0 ? (
          <p>No finished game yet.</p>
        ) : (
          <ul class="recent-games">
            {profile.recent.map((game) => {
              const mine = game.seats.filter((s) => game.mine.includes(s.seat));
              const won = mine.some((s) => s.place === 1);
              const others = game.seats.filter((s) => !game.mine.includes(s.seat)).map((s) => s.name);
              return (
                <li key={game.id}>
                  <strong>{game.title}</strong> {game.rated ? "(rated) " : ""}
                  {game.status === "closed" ? "closed" : won ? "won" : "lost"}
                  {others.length > 0 && ` against ${others.join(", ")}`} ·{" "}
                  {new Date(game.updated_at * 1000).toLocaleDateString()}
                  {game.status === "over" && (
                    <>
                      {" "}·{" "}
                      <a href={replayPath(game.id)} onClick={onLinkClick}>
                        Replay
                      </a>{" "}
                      ·{" "}
                      <a href={reviewPath(game.id)} onClick={onLinkClick}>
                        Review
                      </a>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {profile.reviews.length > 0 && (
        <section aria-labelledby="reviews-heading" class="panel">
          <h2 id="reviews-heading">Reviewed games</h2>
          <table class="figures">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Game</th>
                <th scope="col">Decisions</th>
                <th scope="col">Mean loss per decision (points of win chance)</th>
                <th scope="col">Accuracy</th>
              </tr>
            </thead>
            <tbody>
              {profile.reviews.map((r) => (
                <tr key={r.table}>
                  <td>{new Date(r.at * 1000).toLocaleDateString()}</td>
                  <td>
                    <a href={reviewPath(r.table)} onClick={onLinkClick}>
                      {gameTitle(r.game)}
                    </a>
                  </td>
                  <td>{r.decisions}</td>
                  <td>{r.mean_loss === null ? "–" : (100 * r.mean_loss).toFixed(1)}</td>
                  <td>{r.accuracy === null ? "–" : r.accuracy.toFixed(1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <Links links={[[leaderboardPath(null), "Leaderboards"], TO_THE_LOBBY]} />
    </div>
  );
}

function RatingSection({ rating, profile }: { rating: Rating; profile: Profile }) {
  const history = profile.history.find((h) => h.game === rating.game && h.players === rating.players);
  const title = `${gameTitle(rating.game)}, ${poolName(rating.players)}`;
  return (
    <div class="rating" data-pool={`${rating.game}-${rating.players}`}>
      <h3>
        <a href={leaderboardPath(rating.game, rating.players)} onClick={onLinkClick}>
          {title}
        </a>
      </h3>
      <p>
        Rating <strong class="rating-value">{rating.rating.toFixed(1)}</strong> (μ {rating.mu.toFixed(1)}, σ{" "}
        {rating.sigma.toFixed(2)}) · {rating.games} rated games, {formatWins(rating.wins)} won
      </p>
      {history && <RatingChart history={history} label={title} />}
    </div>
  );
}

function formatWins(wins: number): string {
  return Number.isInteger(wins) ? String(wins) : wins.toFixed(1);
}
