import { render } from "preact";
import { useEffect } from "preact/hooks";
import { api } from "./api";
import { Lobby } from "./lobby";
import { onLinkClick, useRoute } from "./router";
import { rememberTitles, TablePage } from "./table";
import "./style.css";

function App() {
  const route = useRoute();
  useEffect(() => {
    // The games' titles, for table pages opened directly (a share link).
    api.games().then(
      (games) => rememberTitles(Object.fromEntries(games.map((g) => [g.id, g.title]))),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    document.title = route.page === "table" ? "Courtly table" : "Courtly";
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
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === "lobby" && <Lobby />}
        {route.page === "table" && <TablePage table={route.table} seat={route.seat} />}
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
