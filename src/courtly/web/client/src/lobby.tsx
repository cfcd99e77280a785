// The lobby: the games, the tables to join or watch, and the form that creates a table.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import {
  api,
  ApiError,
  saveName,
  savedName,
  saveToken,
  type CreateRequest,
  type GameInfo,
  type OptionValue,
  type SeatRequest,
  type TableSummary,
} from "./api";
import {
  hotseatPath,
  navigate,
  onLinkClick,
  replayPath,
  reviewPath,
  rulesPath,
  tablePath,
  OFFLINE_PATH,
} from "./router";
import { MyGamesSection } from "./mygames";
import { PlayNow, usePlayNowWait, useWaitingCounts } from "./play-now";
import { ChosenDeal } from "./shared/deal";
import { NameField } from "./shared/name-field";
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
import { sentence, winnersText } from "./shared/result";
import { seatNamer } from "./shared/seats";
import { rememberTitles } from "./shared/titles";

const REFRESH_MS = 5000;

export function Lobby() {
  const [games, setGames] = useState<GameInfo[] | null>(null);
  const [open, setOpen] = useState<TableSummary[]>([]);
  const [playing, setPlaying] = useState<TableSummary[]>([]);
  const [finished, setFinished] = useState<TableSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  // The list of games could not be had from the server: say so, and where play still works.
  const [gamesMissing, setGamesMissing] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const [learning, setLearning] = useState<string | null>(null);
  const form = useRef<HTMLElement>(null);
  const waitingCounts = useWaitingCounts();
  const [playNowWait, setPlayNowWait] = usePlayNowWait();

  useEffect(() => {
    api.games().then(
      (list) => {
        rememberTitles(Object.fromEntries(list.map((g) => [g.id, g.title])));
        setGames(list);
        // "/?new=GAME" (the end of a tutorial: "Play a real game") opens the form on that game.
        const asked = new URLSearchParams(window.location.search).get("new");
        if (asked && list.some((g) => g.id === asked)) choose(asked);
      },
      (e: ApiError) => {
        setError(e.message);
        setGamesMissing(true);
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    let stopped = false;
    const load = () =>
      Promise.all([api.tables("open"), api.tables("playing"), api.tables("over", 10)]).then(
        ([o, p, f]) => {
          if (stopped) return;
          setOpen(o);
          setPlaying(p);
          setFinished(f);
        },
        () => undefined, // the next round tries again
      );
    void load();
    const timer = window.setInterval(load, REFRESH_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, []);

  const choose = (game: string) => {
    setChosen(game);
    window.setTimeout(() => {
      form.current?.scrollIntoView({ behavior: "smooth", block: "start" });
      form.current?.querySelector<HTMLElement>("select, input")?.focus({ preventScroll: true });
    }, 0);
  };

  // A tutorial table: the learner seated at once against the game's bots, the page opened on it.
  const learn = async (game: GameInfo) => {
    setLearning(game.id);
    setError(null);
    try {
      const seated = await api.tutorial(game.id, savedName().trim());
      saveToken(seated.table, seated.seat, seated.token);
      navigate(tablePath(seated.table, seated.seat));
    } catch (e) {
      setError(`Could not start the tutorial of ${game.title}: ${(e as ApiError).message}`);
      setLearning(null);
    }
  };

  return (
    <div class="lobby">
      <h1>Courtly</h1>
      <p class="lead">Five royal card games: play against bots or friends, or watch.</p>
      <p class="offline-entry">
        <a class="button" href={OFFLINE_PATH} onClick={onLinkClick}>
          Play offline
        </a>{" "}
        <span class="muted">every game and its bots in this browser, with no server</span>
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <MyGamesSection />
      <section aria-labelledby="games-heading">
        <h2 id="games-heading">Games</h2>
        {games === null ? (
          gamesMissing ? (
            <p role="status" class="games-missing">
              {navigator.onLine ? "The server did not send its games." : "You are offline."} Every
              game still plays against bots in this browser: Play offline, above. Reload the page to
              ask the server again.
            </p>
          ) : (
            <p role="status">Loading the games…</p>
          )
        ) : (
          <ul class="games">
            {games.map((game) => (
              <li class="game panel" key={game.id} data-game={game.id}>
                <h3>{game.title}</h3>
                <p class="muted">{playerRange(game)}</p>
                <p>{game.summary}</p>
                <PlayNow game={game} counts={waitingCounts} waiting={playNowWait} setWaiting={setPlayNowWait} />
                <span class="table-links">
                  {game.tutorial && (
                    <button
                      type="button"
                      class="primary"
                      onClick={() => void learn(game)}
                      disabled={learning !== null}
                      aria-busy={learning === game.id}
                      aria-label={`Learn to play ${game.title}`}
                    >
                      {learning === game.id ? "Starting…" : "Learn to play"}
                    </button>
                  )}
                  <button type="button" onClick={() => choose(game.id)} aria-label={`New table of ${game.title}`}>
                    New table
                  </button>
                  <a
                    class="button"
                    href={rulesPath(game.id)}
                    onClick={onLinkClick}
                    aria-label={`Rules of ${game.title}`}
                  >
                    Rules
                  </a>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <TableList
        id="open-heading"
        title="Open tables"
        empty="No table is waiting for players."
        tables={open}
        games={games}
        join
      />
      <TableList
        id="playing-heading"
        title="Games in play"
        empty="No game is being played."
        tables={playing}
        games={games}
      />
      <TableList
        id="finished-heading"
        title="Finished games"
        empty="No game has ended yet."
        tables={finished}
        games={games}
        replay
      />
      {games && (
        <section ref={form} aria-labelledby="create-heading" class="panel">
          <h2 id="create-heading">Create a table</h2>
          <CreateForm games={games} chosen={chosen} />
        </section>
      )}
    </div>
  );
}

function playerRange(game: GameInfo): string {
  const low = Math.min(...game.players);
  const high = Math.max(...game.players);
  return low === high ? `${low} players` : `${low}–${high} players`;
}

function TableList({
  id,
  title,
  empty,
  tables,
  games,
  join = false,
  replay = false,
}: {
  id: string;
  title: string;
  empty: string;
  tables: TableSummary[];
  games: GameInfo[] | null;
  join?: boolean;
  replay?: boolean;
}) {
  const titles = Object.fromEntries((games ?? []).map((g) => [g.id, g.title]));
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {tables.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <ul class="tables">
          {tables.map((table) => {
            const free = table.seats.filter((s) => s.kind === "person" && !s.taken);
            const name = titles[table.game] ?? table.title;
            const seatName = seatNamer(table.seats);
            return (
              <li class="panel table-entry" key={table.id} data-table={table.id}>
                <span>
                  <strong>{name}</strong>{" "}
                  <span class="muted">
                    {table.players} players · {table.mode}
                    {table.rated && " · rated (signed-in people)"}
                    {join && ` · ${free.length} free`}
                  </span>
                  {table.variant.length > 0 && (
                    <span class="table-variant" data-testid="variant">
                      Variant: {table.variant.join("; ")}
                    </span>
                  )}
                  {!join && (
                    <span class="table-players" data-testid="players">
                      {table.seats.map((s) => seatName(s.seat)).join(", ")}
                    </span>
                  )}
                  {replay && (
                    <span class="table-winners" data-testid="winners">
                      {winnersText(table.winners, seatName)}
                    </span>
                  )}
                  {!replay && <ChosenDeal deal={table.deal} compact />}
                </span>
                <span class="table-links">
                  {join && free.length > 0 && (
                    <a
                      class="button"
                      href={tablePath(table.id, free[0].seat)}
                      onClick={onLinkClick}
                      aria-label={`Join ${name} at seat p${free[0].seat}`}
                    >
                      Join
                    </a>
                  )}
                  {replay ? (
                    <>
                      <a
                        class="button"
                        href={replayPath(table.id)}
                        onClick={onLinkClick}
                        aria-label={`Replay ${name}`}
                      >
                        Replay
                      </a>
                      <a
                        class="button"
                        href={reviewPath(table.id)}
                        onClick={onLinkClick}
                        aria-label={`Review ${name}`}
                      >
                        Review
                      </a>
                    </>
                  ) : (
                    <a
                      class="button"
                      href={tablePath(table.id, null)}
                      onClick={onLinkClick}
                      aria-label={`Watch ${name}`}
                    >
                      Watch
                    </a>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

interface SeatChoice {
  kind: "person" | "bot";
  bot: string;
}

function defaultSeats(game: GameInfo, players: number, previous: SeatChoice[] = []): SeatChoice[] {
  return Array.from({ length: players }, (_, index) =>
    previous[index] ?? (index === 0 ? { kind: "person", bot: game.default_bot } : { kind: "bot", bot: game.default_bot }),
  );
}


export function CreateForm({ games, chosen }: { games: GameInfo[]; chosen: string | null }) {
  const [gameId, setGameId] = useState(chosen ?? games[0].id);
  const game = useMemo(() => games.find((g) => g.id === gameId) ?? games[0], [games, gameId]);
  const [players, setPlayers] = useState(game.default_players);
  // The rules as written, asked for by the person where Courtly recommends a variant.
  const [asWritten, setAsWritten] = useState(false);
  const [options, setOptions] = useState(() =>
    withRecommendation(game, game.default_players, defaults(game.options), false),
  );
  const [seats, setSeats] = useState(() => defaultSeats(game, game.default_players));
  const [name, setName] = useState(savedName);
  const [mode, setMode] = useState<"realtime" | "turn-based">("realtime");
  const [minutes, setMinutes] = useState(0);
  const [increment, setIncrement] = useState(0);
  const [hoursPerMove, setHoursPerMove] = useState(24);
  const [awayMinutes, setAwayMinutes] = useState(0);
  const [seed, setSeed] = useState("");
  // Hot seat: this device joins every person's seat and hands itself over between them.
  const [hotseat, setHotseat] = useState(false);
  const [hints, setHints] = useState(true);
  // Rated: the result moves the players' ratings (people signed in, no bots, no hot seat).
  const [rated, setRated] = useState(false);
  const [names, setNames] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // What each seat is at this player count and these options (a King, a Warchief), asked of the
  // server, which checks the options as creating the table would: what is wrong is said early.
  const [titles, setTitles] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const asked = JSON.stringify(changed(game.options, options));
  useEffect(() => {
    let stopped = false;
    const timer = window.setTimeout(() => {
      api.seatTitles(game.id, players, JSON.parse(asked) as Record<string, OptionValue>).then(
        (answer) => {
          if (stopped) return;
          setTitles(answer.titles);
          setProblem(null);
        },
        (e: ApiError) => {
          if (stopped) return;
          setTitles([]);
          setProblem(e.status === 400 ? e.message : null);
        },
      );
    }, 150);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [game.id, players, asked]);

  const pickGame = (id: string) => {
    const next = games.find((g) => g.id === id) ?? games[0];
    setGameId(next.id);
    setPlayers(next.default_players);
    setAsWritten(false);
    setOptions(withRecommendation(next, next.default_players, defaults(next.options), false));
    setSeats(defaultSeats(next, next.default_players));
    setError(null);
  };
  useEffect(() => {
    if (chosen && chosen !== gameId) pickGame(chosen);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chosen]);

  const pickPlayers = (count: number) => {
    setPlayers(count);
    setOptions((previous) => withRecommendation(game, count, previous, asWritten));
    setSeats((previous) => defaultSeats(game, count, previous));
  };
  const chooseRules = (written: boolean) => {
    setAsWritten(written);
    setOptions((previous) => withRecommendation(game, players, previous, written));
  };
  const variant = recommendation(game, players);
  const setSeat = (index: number, change: Partial<SeatChoice>) =>
    setSeats((previous) => previous.map((s, i) => (i === index ? { ...s, ...change } : s)));

  const submit = async (event: Event) => {
    event.preventDefault();
    // A seed the page cannot send exactly (JavaScript's numbers end there) is refused here.
    if (seed.trim() !== "" && !(Number.isSafeInteger(Number(seed)) && Number(seed) >= 0)) {
      setError(`A seed is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`);
      return;
    }
    setError(null);
    setBusy(true);
    const me = name.trim();
    const firstPerson = seats.findIndex((s) => s.kind === "person");
    const body: CreateRequest = {
      game: game.id,
      players,
      options: changed(game.options, options),
      seats: seats.map(
        (s): SeatRequest => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "person" }),
      ),
      mode,
      clock:
        mode === "realtime"
          ? { initial: minutes * 60, increment, per_move: 0, away: awayMinutes * 60 }
          : { initial: 0, increment: 0, per_move: hoursPerMove * 3600, away: awayMinutes * 60 },
      hints,
    };
    if (rated && !hotseat) body.rated = true;
    if (seed.trim() !== "") body.seed = Number(seed);
    try {
      const table = await api.create(body);
      saveName(me);
      if (firstPerson < 0) {
        navigate(tablePath(table.id, null)); // bots alone: watch them
        return;
      }
      if (hotseat) {
        for (const [index, seat] of seats.entries()) {
          if (seat.kind !== "person") continue;
          const given = (names[index] ?? "").trim() || (index === firstPerson ? me : "");
          const joined = await api.join(table.id, index, given, true);
          saveToken(table.id, index, joined.token);
        }
        navigate(hotseatPath(table.id));
        return;
      }
      // The creator takes the first person's seat; the others get share links on the table.
      const joined = await api.join(table.id, firstPerson, me);
      saveToken(table.id, firstPerson, joined.token);
      navigate(tablePath(table.id, firstPerson));
    } catch (e) {
      setError((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };

  const botSummary = (bot: string) => game.bots.find((b) => b.name === bot)?.summary ?? "";
  return (
    <form class="create" onSubmit={submit} aria-describedby={error ? "create-error" : undefined}>
      <div class="field">
        <label for="create-game">Game</label>
        <select id="create-game" value={game.id} onChange={(e) => pickGame((e.target as HTMLSelectElement).value)}>
          {games.map((g) => (
            <option key={g.id} value={g.id}>
              {g.title}
            </option>
          ))}
        </select>
        <span class="help">{game.summary}</span>
      </div>
      <PlayersField id="create-players" game={game} value={players} onPick={pickPlayers} />
      {variant && (
        <RecommendationNote variant={variant} playing={playsVariant(variant, options)} onChoose={chooseRules} />
      )}
      <NameField id="create-name" name={name} onName={setName} />

      <fieldset>
        <legend>Seats</legend>
        {seats.map((seat, index) => (
          <div class="seat-choice" key={index} role="group" aria-labelledby={`seat-${index}-label`}>
            <span id={`seat-${index}-label`} class="seat-label">
              Seat p{index}
              {titles[index] ? <span class="seat-title">, {titles[index]}</span> : null}
              {index === seats.findIndex((s) => s.kind === "person") ? " (you)" : ""}
            </span>
            <label class="visually-hidden" for={`seat-${index}-kind`}>
              Seat p{index}: person or bot
            </label>
            <select
              id={`seat-${index}-kind`}
              value={seat.kind}
              onChange={(e) => setSeat(index, { kind: (e.target as HTMLSelectElement).value as "person" | "bot" })}
            >
              <option value="person">Person</option>
              <option value="bot">Bot</option>
            </select>
            {hotseat && seat.kind === "person" && (
              <>
                <label class="visually-hidden" for={`seat-${index}-name`}>
                  Seat p{index}: name
                </label>
                <input
                  id={`seat-${index}-name`}
                  value={names[index] ?? ""}
                  maxLength={64}
                  placeholder={index === seats.findIndex((s) => s.kind === "person") && name.trim() ? name.trim() : `name of p${index}`}
                  onInput={(e) => {
                    const value = (e.target as HTMLInputElement).value;
                    setNames((previous) => {
                      const next = [...previous];
                      next[index] = value;
                      return next;
                    });
                  }}
                />
              </>
            )}
            {seat.kind === "bot" && (
              <>
                <label class="visually-hidden" for={`seat-${index}-bot`}>
                  Seat p{index}: which bot
                </label>
                <select
                  id={`seat-${index}-bot`}
                  value={seat.bot}
                  aria-describedby={`seat-${index}-bot-help`}
                  onChange={(e) => setSeat(index, { bot: (e.target as HTMLSelectElement).value })}
                >
                  {game.bots.map((b) => (
                    <option key={b.name} value={b.name}>
                      {b.name}
                    </option>
                  ))}
                </select>
                <span class="help" id={`seat-${index}-bot-help`}>
                  {botSummary(seat.bot)}
                </span>
              </>
            )}
          </div>
        ))}
        <div class="field field-check">
          <input
            type="checkbox"
            id="create-hotseat"
            checked={hotseat}
            aria-describedby="create-hotseat-help"
            onChange={(e) => setHotseat((e.target as HTMLInputElement).checked)}
          />
          <label for="create-hotseat">Hot seat: the person seats play on this device</label>
          <span class="help" id="create-hotseat-help">
            Everyone plays on this screen in turn; the table is covered while the device is passed
            from one person to the next.
          </span>
        </div>
        <div class="field field-check">
          <input
            type="checkbox"
            id="create-hints"
            checked={hints}
            aria-describedby="create-hints-help"
            onChange={(e) => setHints((e.target as HTMLInputElement).checked)}
          />
          <label for="create-hints">Hints</label>
          <span class="help" id="create-hints-help">
            A person to move may ask for the best moves and their chances to win, worked out from
            what that seat can see. Untick for a game without help.
          </span>
        </div>
        <div class="field field-check">
          <input
            type="checkbox"
            id="create-rated"
            checked={rated}
            disabled={hotseat}
            aria-describedby="create-rated-help"
            onChange={(e) => setRated((e.target as HTMLInputElement).checked)}
          />
          <label for="create-rated">Rated</label>
          <span class="help" id="create-rated-help">
            The result moves the players' ratings: people only (no bots), each signed in at a seat of
            their own, on a secret deal.
          </span>
        </div>
      </fieldset>

      <fieldset>
        <legend>Options</legend>
        {game.options.map((option) => (
          <OptionField
            key={`${game.id}-${option.name}`}
            option={option}
            idPrefix="option"
            value={options[option.name] ?? option.default}
            onChange={(value) => setOptions((previous) => ({ ...previous, [option.name]: value }))}
          />
        ))}
        {problem && (
          <p class="error" aria-live="polite" data-testid="options-problem">
            {problem}
          </p>
        )}
        {game.options.length > 0 && (
          <details class="advanced">
            <summary>Advanced: the options as the rules name them</summary>
            <dl class="advanced-options">
              {game.options.map((option) => (
                <div key={option.name} data-option={option.name}>
                  <dt>
                    <code>{option.name}</code> <span class="muted">({option.label})</span>
                  </dt>
                  <dd>
                    {sentence(option.help)} Allowed: {option.allowed}; default: {String(option.default)}.
                  </dd>
                </div>
              ))}
            </dl>
          </details>
        )}
      </fieldset>

      <fieldset>
        <legend>Mode and clock</legend>
        <div class="field field-radios">
          <label>
            <input
              type="radio"
              name="mode"
              value="realtime"
              checked={mode === "realtime"}
              onChange={() => setMode("realtime")}
            />{" "}
            Realtime
          </label>
          <label>
            <input
              type="radio"
              name="mode"
              value="turn-based"
              checked={mode === "turn-based"}
              onChange={() => setMode("turn-based")}
            />{" "}
            Turn-based
          </label>
        </div>
        {mode === "realtime" ? (
          <>
            <NumberField id="clock-minutes" label="Minutes on each clock (0: no clock)" value={minutes} onChange={setMinutes} />
            <NumberField id="clock-increment" label="Seconds added after each move" value={increment} onChange={setIncrement} />
          </>
        ) : (
          <NumberField id="clock-per-move" label="Hours for each move (0: no limit)" value={hoursPerMove} onChange={setHoursPerMove} />
        )}
        <NumberField
          id="clock-away"
          label="Minutes a player may be away before a bot plays for them (0: no limit)"
          value={awayMinutes}
          onChange={setAwayMinutes}
        />
      </fieldset>

      <details>
        <summary>More</summary>
        <div class="field">
          <label for="create-seed">
            Seed (optional: the same seed deals the same cards; everyone who joins is told you chose it, and sees it)
          </label>
          <input
            id="create-seed"
            type="number"
            min={0}
            max={Number.MAX_SAFE_INTEGER}
            step={1}
            inputMode="numeric"
            value={seed}
            onInput={(e) => setSeed((e.target as HTMLInputElement).value)}
          />
        </div>
      </details>

      {error && (
        <p role="alert" class="error" id="create-error">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        Create the table
      </button>
    </form>
  );
}

function NumberField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: number;
  onChange: (value: number) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={0}
        step="any"
        inputMode="decimal"
        value={String(value)}
        onInput={(e) => {
          const number = Number((e.target as HTMLInputElement).value);
          onChange(Number.isFinite(number) && number >= 0 ? number : 0);
        }}
      />
    </div>
  );
}
