// Play offline: a game against bots or in hot seat, played by Courtly's own engine in this browser
// (a Web Worker running Pyodide, src/offline/), with no server. The same table page as online,
// fed by the engine instead of the WebSocket; in hot seat only the seat to move is shown, and the
// table is hidden while the device passes from one person to the next.
import { useEffect, useRef, useState } from "preact/hooks";
import type { GameInfo, OptionValue, SeatMessage, SeatTitles } from "./api";
import { sharedEngine as engine } from "./offline/engine";
import { UpdateOffer } from "./offline/installing";
import { exportGame, keepGame } from "./offline/records";
import { KeptGames } from "./shared/kept-games";
import { uploadKeptGames } from "./offline/uploads";
import { OfflineTable } from "./offline/transport";
import { LiveTable } from "./table/page";
import { TransportContext } from "./table/transport";
import { HandoverCover } from "./shared/handover";
import { Links, TO_THE_LOBBY } from "./shared/links";
import {
  changed,
  defaults,
  OptionField,
  PlayersField,
  playsVariant,
  recommendation,
  RecommendationNote,
  withRecommendation,
} from "./shared/options";
import "./around.css";
import "./offline.css";

/** Each seat: a person at this device, or a bot by its name. */
type SeatChoice = "person" | string;

/** What a game is dealt with: kept, so that "Play again" deals the same again. */
interface Setup {
  game: string;
  players: number;
  options: Record<string, OptionValue>;
  seats: SeatChoice[];
}

/** The token the table's page wants for a seat (no server holds one: the device plays it). */
const THIS_DEVICE = "this-device";

function defaultSeats(game: GameInfo, players: number, previous: SeatChoice[] = []): SeatChoice[] {
  return Array.from({ length: players }, (_, seat) => previous[seat] ?? (seat === 0 ? "person" : game.default_bot));
}

export function OfflinePage() {
  const [games, setGames] = useState<GameInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [table, setTable] = useState<{ transport: OfflineTable; setup: Setup; persons: number[] } | null>(null);
  const [over, setOver] = useState(false);
  const [last, setLast] = useState<Setup | null>(null);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    engine()
      .ask<GameInfo[]>("games")
      .then(setGames, (e: Error) => setError(`The engine could not start: ${e.message}`));
  }, []);
  useEffect(() => () => table?.transport.stop(), [table]);

  const start = async (setup: Setup) => {
    setStarting(true);
    setError(null);
    try {
      const seats = setup.seats.map((choice) => (choice === "person" ? { kind: "person" } : { kind: "bot", bot: choice }));
      const made = await engine().ask<{ table: string }>("new", {
        game: setup.game,
        players: setup.players,
        options: setup.options,
        seats,
      });
      const transport = new OfflineTable(engine(), made.table);
      const persons = setup.seats.flatMap((choice, seat) => (choice === "person" ? [seat] : []));
      setLast(setup);
      setOver(false);
      setTable({ transport, setup, persons });
      void transport.moveBots();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setStarting(false);
    }
  };

  if (table) {
    const keep = (message: SeatMessage) => {
      if (message.status !== "over") return;
      setOver(true);
      if (table.transport.kept) return;
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
        <OfflineBar
          transport={table.transport}
          onNew={() => setTable(null)}
          onAgain={over ? () => void start(table.setup) : null}
          error={error}
        />
        {table.persons.length === 1 ? (
          <LiveTable
            key={table.transport.id}
            table={table.transport.id}
            seat={table.persons[0]}
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
      {games !== null && <OfflineForm games={games} last={last} starting={starting} onStart={(setup) => void start(setup)} />}
      <KeptGames />
      <Links links={[TO_THE_LOBBY]} />
    </section>
  );
}

/** The game, its players, its seats (a person at this device or a bot: two people or more play
 * in hot seat) and its options, as the engine's catalogue gives them. */
function OfflineForm({
  games,
  last,
  starting,
  onStart,
}: {
  games: GameInfo[];
  last: Setup | null;
  starting: boolean;
  onStart: (setup: Setup) => void;
}) {
  const first = games.find((g) => g.id === last?.game) ?? games[0];
  const [gameId, setGameId] = useState(first.id);
  const game = games.find((g) => g.id === gameId) ?? games[0];
  const [players, setPlayers] = useState(last?.players ?? first.default_players);
  const [asWritten, setAsWritten] = useState(false);
  const [options, setOptions] = useState<Record<string, OptionValue>>(
    () => ({ ...withRecommendation(first, players, defaults(first.options), false), ...(last?.options ?? {}) }),
  );
  const [seats, setSeats] = useState<SeatChoice[]>(() => last?.seats ?? defaultSeats(first, players));
  const [titles, setTitles] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const asked = JSON.stringify(changed(game.options, options));
  useEffect(() => {
    // What each seat is, the options checked as dealing would check them: said before dealing.
    let stopped = false;
    engine()
      .ask<SeatTitles>("seats", { game: game.id, players, options: JSON.parse(asked) as Record<string, OptionValue> })
      .then(
        (answer) => {
          if (stopped) return;
          setTitles(answer.titles);
          setProblem(null);
        },
        (e: Error) => {
          if (stopped) return;
          setTitles([]);
          setProblem(e.message);
        },
      );
    return () => {
      stopped = true;
    };
  }, [game.id, players, asked]);

  const pickGame = (id: string) => {
    const next = games.find((g) => g.id === id) ?? games[0];
    setGameId(next.id);
    setPlayers(next.default_players);
    setAsWritten(false);
    setOptions(withRecommendation(next, next.default_players, defaults(next.options), false));
    setSeats(defaultSeats(next, next.default_players));
  };
  const pickPlayers = (count: number) => {
    setPlayers(count);
    setOptions((previous) => withRecommendation(game, count, previous, asWritten));
    setSeats((previous) => defaultSeats(game, count, previous.slice(0, count)));
  };
  const chooseRules = (written: boolean) => {
    setAsWritten(written);
    setOptions((previous) => withRecommendation(game, players, previous, written));
  };
  const variant = recommendation(game, players);
  const people = seats.filter((choice) => choice === "person").length;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (people === 0) return;
        onStart({ game: game.id, players, options: changed(game.options, options), seats });
      }}
    >
      <div class="field">
        <label for="offline-game">Game</label>
        <select id="offline-game" name="game" value={game.id} onChange={(e) => pickGame((e.target as HTMLSelectElement).value)}>
          {games.map((g) => (
            <option key={g.id} value={g.id}>
              {g.title}
            </option>
          ))}
        </select>
      </div>
      <PlayersField id="offline-players" game={game} value={players} onPick={pickPlayers} />
      {variant && <RecommendationNote variant={variant} playing={playsVariant(variant, options)} onChoose={chooseRules} />}
      <fieldset>
        <legend>Seats</legend>
        <p class="help">
          {people > 1
            ? `Hot seat: ${people} people share this device; the table is hidden while it passes between them.`
            : "One person at this device; two people or more play in hot seat."}
        </p>
        {seats.map((choice, seat) => (
          <div class="field" key={seat}>
            <label for={`offline-seat-${seat}`}>
              Seat p{seat}
              {titles[seat] ? <span class="seat-title">, {titles[seat]}</span> : null}
            </label>
            <select
              id={`offline-seat-${seat}`}
              name={`seat-${seat}`}
              value={choice}
              onChange={(e) => {
                const value = (e.target as HTMLSelectElement).value;
                setSeats((previous) => previous.map((c, i) => (i === seat ? value : c)));
              }}
            >
              <option value="person">A person at this device</option>
              {game.bots.map((bot) => (
                <option key={bot.name} value={bot.name}>
                  Bot: {bot.name}
                </option>
              ))}
            </select>
          </div>
        ))}
        {people === 0 && (
          <p class="error" role="alert">
            At least one seat is a person's.
          </p>
        )}
      </fieldset>
      {game.options.length > 0 && (
        <fieldset>
          <legend>Options</legend>
          {game.options.map((option) => (
            <OptionField
              key={`${game.id}-${option.name}`}
              option={option}
              idPrefix="offline-option"
              value={options[option.name] ?? option.default}
              onChange={(value) => setOptions((previous) => ({ ...previous, [option.name]: value }))}
            />
          ))}
        </fieldset>
      )}
      {problem && (
        <p class="error" aria-live="polite" data-testid="options-problem">
          {problem}
        </p>
      )}
      <button type="submit" class="primary" disabled={starting || people === 0 || problem !== null} aria-busy={starting}>
        {starting ? "Dealing…" : "Start the game"}
      </button>
    </form>
  );
}

/** Above an offline table: a new game, the same game again once it is over, and the finished
 * game's record as a file. */
function OfflineBar({
  transport,
  onNew,
  onAgain,
  error: told,
}: {
  transport: OfflineTable;
  onNew: () => void;
  onAgain: (() => void) | null;
  error: string | null;
}) {
  const [failed, setError] = useState<string | null>(null);
  const error = failed ?? told;
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
      {onAgain && (
        <>
          <button type="button" class="primary" onClick={onAgain}>
            Play again
          </button>{" "}
        </>
      )}
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
 * table is taken away (unmounted) and a cover asks to pass the device. The people have the seats
 * ``persons``; bots play the rest, and their moves are seen by the person shown. */
function OfflineHotSeat({
  transport,
  persons,
  onMessage: told,
}: {
  transport: OfflineTable;
  persons: number[];
  onMessage: (message: SeatMessage) => void;
}) {
  const people = (seats: number[]) => seats.filter((seat) => persons.includes(seat));
  const [shown, setShown] = useState<number | null>(null);
  const [cover, setCover] = useState<number | null>(null);
  const shownRef = useRef<number | null>(null);
  shownRef.current = shown;
  useEffect(() => {
    transport.summary().then(
      (summary) => setCover(people(summary.to_move)[0] ?? persons[0]),
      () => setCover(persons[0]),
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
    // No cover before the engine says who moves first: a cover naming a guessed seat could be
    // taken, then swapped for another as soon as that seat's view showed it was not its turn.
    if (cover === null) {
      return (
        <p class="panel" role="status">
          Dealing the table…
        </p>
      );
    }
    const next = cover;
    return (
      <HandoverCover
        caption={`Hot seat · ${persons.length} people on this device`}
        to={`p${next}`}
        seat={next}
        onReady={() => {
          setCover(null);
          setShown(next);
        }}
      />
    );
  }
  return (
    <LiveTable
      key={shown}
      table={transport.id}
      seat={shown}
      token={THIS_DEVICE}
      hotseat={{ seats: persons }}
      onMessage={onMessage}
    />
  );
}
