// Play offline: a game against bots or in hot seat, played by Courtly's own engine in this browser
// (a Web Worker running Pyodide, src/offline/), with no server. The same table page as online,
// fed by the engine instead of the WebSocket; in hot seat only the seat to move is shown, and the
// table is hidden while the device passes from one person to the next.
import { useEffect, useRef, useState } from "preact/hooks";
import type { SeatMessage } from "./api";
import { sharedEngine as engine } from "./offline/engine";
import { UpdateOffer } from "./offline/installing";
import { exportGame, keepGame } from "./offline/records";
import { KeptGames } from "./shared/kept-games";
import { uploadKeptGames } from "./offline/uploads";
import { OfflineTable } from "./offline/transport";
import { LiveTable } from "./table/page";
import { TransportContext } from "./table/transport";
import { Links, TO_THE_LOBBY } from "./shared/links";
import "./around.css";
import "./offline.css";

/** A game as the engine lists it for the form. */
interface OfflineGame {
  id: string;
  title: string;
  players: number[];
  default_players: number;
  default_bot: string;
}

type Opponents = "bots" | "hotseat";

/** The person's seat against bots (the first); the token the table's page wants for a seat. */
const YOUR_SEAT = 0;
const THIS_DEVICE = "this-device";

export function OfflinePage() {
  const [games, setGames] = useState<OfflineGame[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [game, setGame] = useState<string>("");
  const [players, setPlayers] = useState<number>(2);
  const [opponents, setOpponents] = useState<Opponents>("bots");
  // In hot seat, the people at the device take the first seats; bots play the rest.
  const [people, setPeople] = useState<number>(16); // (every seat, until a count is chosen)
  const [table, setTable] = useState<{ transport: OfflineTable; opponents: Opponents; persons: number } | null>(
    null,
  );
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    engine()
      .ask<OfflineGame[]>("games")
      .then(
        (found) => {
          setGames(found);
          setGame(found[0].id);
          setPlayers(found[0].default_players);
        },
        (e: Error) => setError(`The engine could not start: ${e.message}`),
      );
  }, []);
  useEffect(() => () => table?.transport.stop(), [table]);

  const chosen = games?.find((g) => g.id === game) ?? null;
  const start = async () => {
    if (!chosen) return;
    setStarting(true);
    setError(null);
    try {
      const persons = opponents === "hotseat" ? Math.min(people, players) : 1;
      const seats = Array.from({ length: players }, (_, seat) =>
        seat < persons ? { kind: "person" } : { kind: "bot", bot: chosen.default_bot },
      );
      const made = await engine().ask<{ table: string }>("new", { game: chosen.id, players, seats });
      const transport = new OfflineTable(engine(), made.table);
      setTable({ transport, opponents, persons });
      void transport.moveBots();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStarting(false);
    }
  };

  if (table) {
    const keep = (message: SeatMessage) => {
      if (message.status !== "over" || table.transport.kept) return;
      table.transport.kept = true;
      table.transport.record().then(
        (record) =>
          keepGame({ id: table.transport.id, game: message.game, players: message.players, finishedAt: Date.now(), record }).then(
            () => void uploadKeptGames(),
          ),
        (e: Error) => setError(`The finished game could not be kept: ${e.message}`),
      );
    };
    return (
      <TransportContext.Provider value={table.transport}>
        <UpdateOffer />
        <OfflineBar transport={table.transport} onNew={() => setTable(null)} />
        {table.opponents === "bots" ? (
          <LiveTable
            key={table.transport.id}
            table={table.transport.id}
            seat={YOUR_SEAT}
            token={THIS_DEVICE}
            onMessage={keep}
          />
        ) : (
          <OfflineHotSeat key={table.transport.id} transport={table.transport} persons={table.persons} onMessage={keep} />
        )}
      </TransportContext.Provider>
    );
  }
  return (
    <section class="panel narrow offline-form" aria-labelledby="offline-heading">
      <UpdateOffer />
      <h1 id="offline-heading">Play offline</h1>
      <p>
        The games and their bots run in this browser: no server is asked, and the game is played even with the network
        off.
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {games === null && !error && <p role="status">Starting the engine…</p>}
      {games !== null && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
        >
          <label>
            Game{" "}
            <select
              name="game"
              value={game}
              onChange={(event) => {
                const next = games.find((g) => g.id === (event.target as HTMLSelectElement).value);
                if (!next) return;
                setGame(next.id);
                setPlayers(next.default_players);
              }}
            >
              {games.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.title}
                </option>
              ))}
            </select>
          </label>{" "}
          <label>
            Players{" "}
            <select
              name="players"
              value={String(players)}
              onChange={(event) => setPlayers(Number((event.target as HTMLSelectElement).value))}
            >
              {(chosen?.players ?? []).map((count) => (
                <option key={count} value={String(count)}>
                  {count}
                </option>
              ))}
            </select>
          </label>
          <fieldset>
            <legend>Against</legend>
            <label>
              <input
                type="radio"
                name="opponents"
                checked={opponents === "bots"}
                onChange={() => setOpponents("bots")}
              />{" "}
              bots (you are p{YOUR_SEAT})
            </label>{" "}
            <label>
              <input
                type="radio"
                name="opponents"
                checked={opponents === "hotseat"}
                onChange={() => setOpponents("hotseat")}
              />{" "}
              friends on this device (hot seat)
            </label>
            {opponents === "hotseat" && (
              <label>
                People at this device{" "}
                <select
                  name="people"
                  value={String(Math.min(people, players))}
                  onChange={(event) => setPeople(Number((event.target as HTMLSelectElement).value))}
                >
                  {Array.from({ length: players - 1 }, (_, i) => i + 2).map((count) => (
                    <option key={count} value={String(count)}>
                      {count === players ? `${count} (no bot)` : `${count} (and ${players - count} bots)`}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </fieldset>
          <button type="submit" class="primary" disabled={starting} aria-busy={starting}>
            {starting ? "Dealing…" : "Start the game"}
          </button>
        </form>
      )}
      <KeptGames />
      <Links links={[TO_THE_LOBBY]} />
    </section>
  );
}

/** Above an offline table: a new game, and the finished game's record as a file. */
function OfflineBar({ transport, onNew }: { transport: OfflineTable; onNew: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    try {
      const record = await transport.record();
      const summary = await transport.summary();
      exportGame({ id: transport.id, game: summary.game, players: summary.players, finishedAt: Date.now(), record });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <p class="offline-bar">
      <span class="muted">Played offline, in this browser.</span>{" "}
      <button type="button" onClick={onNew}>
        New offline game
      </button>{" "}
      <button type="button" onClick={() => void save()} data-testid="save-record">
        Save the record (courtly replay)
      </button>
      {error && (
        <span role="alert" class="error">
          {" "}
          {error}
        </span>
      )}
    </p>
  );
}

/** Hot seat offline: the person seat to move is shown, and no other; between two people the
 * table is taken away (unmounted) and a cover asks to pass the device. The people take the first
 * ``persons`` seats; bots play the rest, and their moves are seen by the person shown. */
function OfflineHotSeat({
  transport,
  persons,
  onMessage: told,
}: {
  transport: OfflineTable;
  persons: number;
  onMessage: (message: SeatMessage) => void;
}) {
  const people = (seats: number[]) => seats.filter((seat) => seat < persons);
  const [shown, setShown] = useState<number | null>(null);
  const [cover, setCover] = useState<number | null>(null);
  const shownRef = useRef<number | null>(null);
  shownRef.current = shown;
  useEffect(() => {
    transport.summary().then(
      (summary) => setCover(people(summary.to_move)[0] ?? 0),
      () => setCover(0),
    );
  }, [transport]);
  const onMessage = (message: SeatMessage) => {
    told(message);
    const current = shownRef.current;
    if (current === null || message.seat !== current || message.status !== "playing") return;
    // The same person moves again, or only bots move now: the shown seat stays.
    const next = people(message.to_move);
    if (next.length === 0 || next.includes(current)) return;
    setShown(null);
    setCover(next[0]);
  };
  if (shown === null) {
    const next = cover ?? 0;
    return (
      <section class="panel hotseat-cover" aria-labelledby="cover-heading" data-cover-seat={next}>
        <p class="muted">Hot seat · {persons} people on this device</p>
        <h1 id="cover-heading">Pass the device to p{next}</h1>
        <p>The table is hidden so that nobody sees another player's cards.</p>
        <button
          type="button"
          class="primary"
          onClick={() => {
            setCover(null);
            setShown(next);
          }}
        >
          I am p{next}
        </button>
      </section>
    );
  }
  return (
    <LiveTable
      key={shown}
      table={transport.id}
      seat={shown}
      token={THIS_DEVICE}
      hotseat={{ seats: Array.from({ length: persons }, (_, s) => s) }}
      onMessage={onMessage}
    />
  );
}
