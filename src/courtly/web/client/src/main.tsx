import { render } from "preact";
import { useEffect } from "preact/hooks";
import { api } from "./api";
import { Lobby } from "./lobby";
import { onLinkClick, useRoute } from "./router";
import { rememberTitles } from "./shared/titles";
import { TablePage } from "./table/page";
import { HotSeatPage } from "./hotseat";
import { ReplayPage } from "./replay";
import { ReviewPage } from "./review";
import { RulesPage } from "./rules";
import { AccountMenu, AccountPage, AdminPage, SignInPage } from "./people";
import { LeaderboardPage } from "./leaderboard";
import { MyGamesPage } from "./mygames";
import { ProfilePage } from "./profile";
import { OfflinePage } from "./offline";
import { KeptGamePage } from "./offline/kept-page";
import { uploadKeptGames, uploadWhenOnline } from "./offline/uploads";
import { installOffline, UpdateOffer } from "./offline/installing";
import { useAccount } from "./account";
import { leaderboardPath, MY_GAMES_PATH } from "./router";
import "./style.css";

function App() {
  const route = useRoute();
  const account = useAccount();
  // Games played offline go to the signed-in person's profile once the server can be reached.
  useEffect(uploadWhenOnline, []);
  // The app's offline copy, from the first page a person opens (the lobby, most often).
  useEffect(installOffline, []);
  useEffect(() => {
    if (account) void uploadKeptGames();
  }, [account?.id]);
  useEffect(() => {
    // The games' titles, for table pages opened directly (a share link).
    api.games().then(
      (games) => rememberTitles(Object.fromEntries(games.map((g) => [g.id, g.title]))),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    // A rules page titles itself, with its game's name once its rules have come: a title set
    // here too could land after that one.
    if (route.page === "rules") return;
    const titles: Record<string, string> = {
      table: "Courtly table",
      hotseat: "Courtly table (hot seat)",
      replay: "Courtly replay",
      review: "Courtly review",
      signin: "Sign in to Courtly",
      signup: "Sign up to Courtly",
      account: "Your Courtly account",
      admin: "Courtly administration",
      profile: "Courtly profile",
      leaderboard: "Courtly leaderboards",
      mygames: "My games · Courtly",
      offline: "Courtly offline",
      "offline-replay": "Courtly replay (offline)",
      "offline-review": "Courtly review (offline)",
    };
    document.title = titles[route.page] ?? "Courtly";
  }, [route]);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to the content
      </a>
      <header class="site-header">
        <a href="/" onClick={onLinkClick} class="brand">
          <span aria-hidden="true">♛</span> Courtly
        </a>
        <nav class="people-links" aria-label="People">
          <a href={MY_GAMES_PATH} onClick={onLinkClick}>
            My games
          </a>
          <a href={leaderboardPath(null)} onClick={onLinkClick}>
            Leaderboards
          </a>
        </nav>
        <AccountMenu />
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === "lobby" && <UpdateOffer />}
        {route.page === "lobby" && <Lobby />}
        {route.page === "table" && <TablePage table={route.table} seat={route.seat} />}
        {route.page === "hotseat" && <HotSeatPage key={route.table} table={route.table} />}
        {route.page === "replay" && <ReplayPage key={route.table} table={route.table} />}
        {route.page === "review" && <ReviewPage key={route.table} table={route.table} />}
        {route.page === "rules" && <RulesPage key={route.game} game={route.game} />}
        {(route.page === "signin" || route.page === "signup") && <SignInPage key={route.page} mode={route.page} />}
        {route.page === "account" && <AccountPage />}
        {route.page === "admin" && <AdminPage />}
        {route.page === "profile" && <ProfilePage key={route.name} name={route.name} />}
        {route.page === "leaderboard" && <LeaderboardPage game={route.game} players={route.players} />}
        {route.page === "mygames" && <MyGamesPage />}
        {route.page === "offline" && <OfflinePage />}
        {route.page === "offline-replay" && <KeptGamePage key={route.table} table={route.table} page="replay" />}
        {route.page === "offline-review" && <KeptGamePage key={route.table} table={route.table} page="review" />}
        {route.page === "missing" && (
          <section class="panel narrow">
            <h1>Nothing here</h1>
            <p>
              There is no page at {route.path}.{" "}
              <a href="/" onClick={onLinkClick}>
                Go to the lobby
              </a>
            </p>
          </section>
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
